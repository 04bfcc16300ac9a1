//! Boards as a program showed them: a grid of empty cells and players'
//! pieces, read from its output whatever the spacing, and shown back side
//! by side with the differences marked.

use std::fmt::Write;

/// One square: empty, or holding player 0's or player 1's piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing there.
    Empty,
    /// A player's piece: 0 moves first (X, Red, player 1).
    Piece(u8),
}

/// A board as displayed: rows top first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    rows: Vec<Vec<Cell>>,
}

impl Board {
    /// A board from its displayed rows, top first; every row as wide as
    /// the first.
    pub fn new(rows: Vec<Vec<Cell>>) -> Option<Board> {
        let width = rows.first()?.len();
        rows.iter()
            .all(|r| r.len() == width)
            .then_some(Board { rows })
    }

    /// Rows, top first.
    pub fn rows(&self) -> &[Vec<Cell>] {
        &self.rows
    }

    /// The number of rows.
    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// The number of columns.
    pub fn width(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }

    /// The cells that differ from `other`'s, as (row, column) from the
    /// top left; every cell when the sizes differ.
    pub fn differences(&self, other: &Board) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        for r in 0..self.height().max(other.height()) {
            for c in 0..self.width().max(other.width()) {
                let mine = self.rows.get(r).and_then(|row| row.get(c));
                let theirs = other.rows.get(r).and_then(|row| row.get(c));
                if mine != theirs {
                    found.push((r, c));
                }
            }
        }
        found
    }
}

/// The symbol shown for a cell in explanations.
pub fn symbol(cell: Option<&Cell>, pieces: [char; 2]) -> char {
    match cell {
        Some(Cell::Empty) => '.',
        Some(Cell::Piece(p)) => pieces[usize::from(*p).min(1)],
        None => ' ',
    }
}

/// The most rows and columns of a board shown side by side: a program
/// can print a board of a hundred thousand rows, and the reference's
/// are far smaller.
pub const BOARD_ROOM: usize = 24;

/// Two boards next to each other, differing cells in brackets; at most
/// [`BOARD_ROOM`] rows and columns of each, with what is left out said.
pub fn side_by_side(reference: &Board, yours: &Board, pieces: [char; 2]) -> String {
    let render = |board: &Board, other: &Board, r: usize| -> String {
        let mut line = String::new();
        for c in 0..board.width().clamp(1, BOARD_ROOM) {
            let mine = board.rows.get(r).and_then(|row| row.get(c));
            let theirs = other.rows.get(r).and_then(|row| row.get(c));
            let cell = symbol(mine, pieces);
            if mine != theirs {
                let _ = write!(line, "[{cell}]");
            } else {
                let _ = write!(line, " {cell} ");
            }
        }
        line
    };
    let width = (reference.width().clamp(1, BOARD_ROOM) * 3).max("the reference".len());
    let mut text = format!("    {:<width$}    {}\n", "the reference", "your program");
    let height = reference.height().max(yours.height());
    for r in 0..height.min(BOARD_ROOM) {
        let _ = writeln!(
            text,
            "    {:<width$}    {}",
            render(reference, yours, r),
            render(yours, reference, r)
        );
    }
    let left_out = |board: &Board| {
        let (rows, columns) = (
            board.height().saturating_sub(BOARD_ROOM),
            board.width().saturating_sub(BOARD_ROOM),
        );
        match (rows, columns) {
            (0, 0) => None,
            (rows, 0) => Some(format!("{rows} more rows")),
            (0, columns) => Some(format!("{columns} more columns")),
            (rows, columns) => Some(format!("{rows} more rows and {columns} more columns")),
        }
    };
    for (whose, board) in [("the reference's", reference), ("your", yours)] {
        if let Some(more) = left_out(board) {
            let _ = writeln!(text, "    (… {more} of {whose} board not shown)");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::new(
            rows.iter()
                .map(|r| {
                    r.chars()
                        .map(|c| match c {
                            'X' => Cell::Piece(0),
                            'O' => Cell::Piece(1),
                            _ => Cell::Empty,
                        })
                        .collect()
                })
                .collect(),
        )
        .unwrap()
    }

    #[test]
    fn differences_are_marked_side_by_side() {
        let a = board(&["X.", ".O"]);
        let b = board(&["X.", "O."]);
        assert_eq!(a.differences(&b), [(1, 0), (1, 1)]);
        let shown = side_by_side(&a, &b, ['X', 'O']);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[0].trim(), "the reference    your program");
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["X", ".", "X", "."]
        );
        assert!(
            lines[2].contains("[.][O]") && lines[2].ends_with("[O][.]"),
            "{shown}"
        );
        assert!(Board::new(vec![vec![Cell::Empty], vec![]]).is_none());
    }

    #[test]
    fn a_huge_board_is_shown_in_part_and_quickly() {
        // Found by fuzzing: a board of 129 rows was shown whole, and one of
        // 25,000 took minutes (each cell looked for in every difference).
        let reference = board(&[
            ".......", ".......", ".......", ".......", ".......", "..X....",
        ]);
        let huge = Board::new(vec![vec![Cell::Piece(1); 40]; 25_000]).unwrap();
        let shown = side_by_side(&reference, &huge, ['X', 'O']);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 1 + BOARD_ROOM + 1, "{shown}");
        assert!(lines.iter().all(|l| l.chars().count() < 200), "{shown}");
        assert_eq!(
            lines.last().copied(),
            Some("    (… 24976 more rows and 16 more columns of your board not shown)")
        );
        assert!(
            lines[6].contains("[O]") && lines[1].contains("[.]"),
            "{shown}"
        );
    }
}
