//! The rules of APS105 Connect Four: a 6×6 board, pieces fall to the lowest
//! empty row, four in a row in any direction wins.

use crate::grid::Grid;

/// Rows on the board; row 0 is the bottom.
pub const ROWS: usize = 6;
/// Columns on the board, numbered 0 to 5 for the player.
pub const COLS: usize = 6;

/// A player's piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// `R`, always moves first.
    Red,
    /// `Y`.
    Yellow,
}

impl Piece {
    /// The other player.
    pub fn other(self) -> Piece {
        match self {
            Piece::Red => Piece::Yellow,
            Piece::Yellow => Piece::Red,
        }
    }

    /// The player's name as the prompts and messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            Piece::Red => "Red",
            Piece::Yellow => "Yellow",
        }
    }

    fn symbol(self) -> u8 {
        match self {
            Piece::Red => b'R',
            Piece::Yellow => b'Y',
        }
    }
}

const EMPTY: u8 = b'-';

/// The 6×6 board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    grid: Grid<u8>,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            grid: Grid::new(ROWS, COLS, EMPTY),
        }
    }
}

impl Board {
    /// An empty board.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a piece can be dropped into `col`: on the board and not full.
    pub fn accepts(&self, col: i64) -> bool {
        usize::try_from(col).is_ok_and(|c| c < COLS && self.grid.get(ROWS - 1, c) == EMPTY)
    }

    /// Drops `piece` into `col`, which must accept it; returns the row it
    /// landed in (0 = bottom).
    pub fn drop_piece(&mut self, col: usize, piece: Piece) -> usize {
        let row = (0..ROWS)
            .find(|&r| self.grid.get(r, col) == EMPTY)
            .expect("drop_piece into a full column");
        self.grid.set(row, col, piece.symbol());
        row
    }

    /// Whether `piece` has four in a row anywhere.
    pub fn wins(&self, piece: Piece) -> bool {
        self.grid.has_any_run(piece.symbol(), 4)
    }

    /// Whether every slot holds a piece.
    pub fn is_full(&self) -> bool {
        !self.grid.contains(EMPTY)
    }

    /// The board as the program prints it: rows 5 down to 0, six
    /// characters and a newline each.
    pub fn render(&self) -> String {
        let mut text = String::with_capacity(ROWS * (COLS + 1));
        for row in (0..ROWS).rev() {
            text.extend(self.grid.row(row).iter().map(|&b| b as char));
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &[usize]) -> (Board, Piece) {
        let mut board = Board::new();
        let mut turn = Piece::Red;
        for &col in moves {
            board.drop_piece(col, turn);
            turn = turn.other();
        }
        (board, turn.other())
    }

    #[test]
    fn pieces_stack_from_the_bottom() {
        let (board, _) = play(&[0, 0, 5]);
        assert_eq!(
            board.render(),
            "------\n------\n------\n------\nY-----\nR----R\n"
        );
    }

    #[test]
    fn full_and_out_of_range_columns_are_refused() {
        let (board, _) = play(&[2, 2, 2, 2, 2, 2]);
        assert!(!board.accepts(2));
        assert!(board.accepts(0) && board.accepts(5));
        assert!(!board.accepts(-1) && !board.accepts(6) && !board.accepts(i64::MAX));
    }

    #[test]
    fn wins_in_all_four_directions_at_the_edges() {
        // Red across the top row's right end is impractical; use the
        // bottom row's right end, the right column, and both diagonals
        // through corners.
        let (board, last) = play(&[2, 2, 3, 3, 4, 4, 5]);
        assert!(last == Piece::Red && board.wins(Piece::Red));
        let (board, _) = play(&[5, 0, 5, 0, 5, 0, 5]);
        assert!(board.wins(Piece::Red) && !board.wins(Piece::Yellow));
        // Diagonal from the bottom-left corner up to the right.
        let (board, _) = play(&[0, 1, 1, 2, 2, 3, 2, 3, 3, 5, 3]);
        assert!(board.wins(Piece::Red));
        // Diagonal from the bottom-right corner up to the left.
        let (board, _) = play(&[5, 4, 4, 3, 3, 2, 3, 2, 2, 0, 2]);
        assert!(board.wins(Piece::Red));
    }
}
