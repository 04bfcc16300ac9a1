//! The rules of Pentago: place a piece, and unless that made five in a
//! row, rotate one 3×3 quadrant; then whoever has five wins, both is a tie.

use crate::grid::Grid;

/// Rows and columns on the board.
pub const SIZE: usize = 6;

/// A player's piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// `X`, moves first.
    X,
    /// `O`.
    O,
}

impl Piece {
    /// The other player.
    pub fn other(self) -> Piece {
        match self {
            Piece::X => Piece::O,
            Piece::O => Piece::X,
        }
    }

    /// The letter the board and the messages show.
    pub fn symbol(self) -> char {
        match self {
            Piece::X => 'X',
            Piece::O => 'O',
        }
    }
}

/// Which way a quadrant turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// `L`: 90° counter-clockwise.
    Left,
    /// `R`: 90° clockwise.
    Right,
}

/// How a move ended the game, if it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on.
    Playing,
    /// This player has five in a row (and the other does not).
    Won(Piece),
    /// Both players have five in a row after a rotation.
    Tie,
}

/// The 6×6 board; row 0 is row `A`, at the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    grid: Grid<Option<Piece>>,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            grid: Grid::new(SIZE, SIZE, None),
        }
    }
}

impl Board {
    /// An empty board.
    pub fn new() -> Self {
        Self::default()
    }

    /// The piece at (`row`, `col`), both 0-based, row 0 = `A`.
    pub fn at(&self, row: usize, col: usize) -> Option<Piece> {
        self.grid.get(row, col)
    }

    /// Plays a whole move: places `piece` at (`row`, `col`), an empty
    /// square; if that made five for `piece` it wins at once and the
    /// rotation is skipped; otherwise `quadrant` (1–4) turns and both
    /// players are checked.
    pub fn play(
        &mut self,
        piece: Piece,
        (row, col): (usize, usize),
        quadrant: usize,
        rotation: Rotation,
    ) -> Outcome {
        self.grid.set(row, col, Some(piece));
        if self.has_five(piece) {
            return Outcome::Won(piece);
        }
        self.rotate(quadrant, rotation);
        match (self.has_five(Piece::X), self.has_five(Piece::O)) {
            (true, true) => Outcome::Tie,
            (true, false) => Outcome::Won(Piece::X),
            (false, true) => Outcome::Won(Piece::O),
            (false, false) => Outcome::Playing,
        }
    }

    /// Sets a square directly (for building positions in tests and cases).
    pub fn set(&mut self, row: usize, col: usize, piece: Option<Piece>) {
        self.grid.set(row, col, piece);
    }

    /// Whether `piece` has five in a row in any row, column or diagonal.
    pub fn has_five(&self, piece: Piece) -> bool {
        self.grid.has_any_run(Some(piece), 5)
    }

    /// Turns quadrant 1 (upper left), 2 (upper right), 3 (lower left) or
    /// 4 (lower right) by 90°.
    pub fn rotate(&mut self, quadrant: usize, rotation: Rotation) {
        assert!((1..=4).contains(&quadrant), "quadrant must be 1 to 4");
        let top = if quadrant <= 2 { 0 } else { 3 };
        let left = if quadrant % 2 == 1 { 0 } else { 3 };
        let old: Vec<Option<Piece>> = (0..9)
            .map(|i| self.grid.get(top + i / 3, left + i % 3))
            .collect();
        for r in 0..3 {
            for c in 0..3 {
                // Clockwise, the new row r is the old column r read from
                // the bottom up; counter-clockwise, the old column 2 - r
                // read from the top down.
                let (from_r, from_c) = match rotation {
                    Rotation::Right => (2 - c, r),
                    Rotation::Left => (c, 2 - r),
                };
                self.grid.set(top + r, left + c, old[from_r * 3 + from_c]);
            }
        }
    }

    /// The board display of SPEC.md: a blank line, the numbered frame,
    /// a blank line.
    pub fn render(&self) -> String {
        let mut text = String::from("\n1   1 2 3 4 5 6   2\n    -----------\n");
        for row in 0..SIZE {
            let letter = (b'A' + row as u8) as char;
            text.push(letter);
            text.push_str(":  ");
            for col in 0..SIZE {
                text.push(self.at(row, col).map_or('.', Piece::symbol));
                text.push(' ');
            }
            text.push_str(" :");
            text.push(letter);
            text.push('\n');
        }
        text.push_str("    -----------\n3   1 2 3 4 5 6   4\n\n");
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board from six lines of `.`, `X`, `O`, row A first.
    fn board(rows: [&str; 6]) -> Board {
        let mut b = Board::new();
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                let piece = match ch {
                    'X' => Some(Piece::X),
                    'O' => Some(Piece::O),
                    _ => None,
                };
                b.set(r, c, piece);
            }
        }
        b
    }

    fn rows(b: &Board) -> Vec<String> {
        (0..SIZE)
            .map(|r| {
                (0..SIZE)
                    .map(|c| b.at(r, c).map_or('.', Piece::symbol))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn each_quadrant_rotates_both_ways() {
        // In each quadrant, X in its top-left corner and O just right of it.
        let start = board(["XO.XO.", "......", "......", "XO.XO.", "......", "......"]);
        let right = ["..X..X", "..O..O", "......", "..X..X", "..O..O", "......"];
        let left = ["......", "O..O..", "X..X..", "......", "O..O..", "X..X.."];
        for quadrant in 1..=4 {
            let top = if quadrant <= 2 { 0 } else { 3 };
            let left_col = if quadrant % 2 == 1 { 0 } else { 3 };
            for (rotation, expected) in [(Rotation::Right, right), (Rotation::Left, left)] {
                let mut b = start.clone();
                b.rotate(quadrant, rotation);
                let got = rows(&b);
                for r in 0..SIZE {
                    for c in 0..SIZE {
                        let inside =
                            (top..top + 3).contains(&r) && (left_col..left_col + 3).contains(&c);
                        let want = if inside {
                            expected[r].as_bytes()[c]
                        } else {
                            rows(&start)[r].as_bytes()[c]
                        };
                        assert_eq!(
                            got[r].as_bytes()[c],
                            want,
                            "quadrant {quadrant} {rotation:?} at {r},{c}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn four_turns_are_the_identity_and_left_undoes_right() {
        let start = board(["XO.O..", ".X..O.", "O..X..", "..X.OX", ".O..X.", "X....O"]);
        for quadrant in 1..=4 {
            let mut b = start.clone();
            b.rotate(quadrant, Rotation::Right);
            assert_ne!(b, start);
            b.rotate(quadrant, Rotation::Left);
            assert_eq!(b, start);
            for _ in 0..4 {
                b.rotate(quadrant, Rotation::Left);
            }
            assert_eq!(b, start);
        }
    }

    #[test]
    fn a_win_by_placement_skips_the_rotation() {
        // X completes row A; rotating quadrant 1 would break the line.
        let mut b = board(["XXXX..", "......", "......", "......", "......", "......"]);
        assert_eq!(
            b.play(Piece::X, (0, 4), 1, Rotation::Right),
            Outcome::Won(Piece::X)
        );
        assert_eq!(rows(&b)[0], "XXXXX.");
    }

    #[test]
    fn a_rotation_can_make_five_for_the_opponent_only() {
        // O holds A4, A5 and column 1 of quadrant 1 (A1, B1, C1). Turning
        // quadrant 1 right lays that column along row A: O has A1..A5.
        let mut b = board(["O..OO.", "O.....", "O.....", "......", "......", "......"]);
        assert_eq!(
            b.play(Piece::X, (5, 5), 1, Rotation::Right),
            Outcome::Won(Piece::O)
        );
        assert_eq!(rows(&b)[0], "OOOOO.");
    }

    #[test]
    fn a_rotation_that_makes_five_for_both_is_a_tie() {
        // X holds A1..A3 and B4, O holds B1..B3 and B5; X places C4 (no
        // five) and turns quadrant 2 right: B4, C4 become A5, A4 and
        // B5, C5 become B5, B4. Both rows are five.
        let mut b = board(["XXX...", "OOOXO.", "....O.", "......", "......", "......"]);
        assert_eq!(b.play(Piece::X, (2, 3), 2, Rotation::Right), Outcome::Tie);
        assert_eq!(rows(&b)[..2], ["XXXXX.", "OOOOO."]);
    }

    #[test]
    fn a_rotation_can_make_five_for_the_mover() {
        // X holds A1..A3, B4 and C4; turning quadrant 2 right lays column 4
        // (A4, B4, C4 read from the bottom) along row A: X has A1..A5.
        let mut b = board(["XXX...", "...X..", "...X..", "......", "......", "......"]);
        assert_eq!(
            b.play(Piece::X, (5, 0), 2, Rotation::Right),
            Outcome::Won(Piece::X)
        );
        // Turned left instead, the column lands in row C: no five.
        let mut b = board(["XXX...", "...X..", "...X..", "......", "......", "......"]);
        assert_eq!(
            b.play(Piece::X, (5, 0), 2, Rotation::Left),
            Outcome::Playing
        );
    }

    #[test]
    fn render_matches_the_spec_layout() {
        let b = board(["X.....", "......", "......", "......", "......", ".....O"]);
        assert_eq!(
            b.render(),
            "\n1   1 2 3 4 5 6   2\n    -----------\n\
             A:  X . . . . .  :A\nB:  . . . . . .  :B\nC:  . . . . . .  :C\n\
             D:  . . . . . .  :D\nE:  . . . . . .  :E\nF:  . . . . . O  :F\n\
             \x20   -----------\n3   1 2 3 4 5 6   4\n\n"
        );
    }
}
