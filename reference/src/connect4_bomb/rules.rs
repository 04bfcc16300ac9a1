//! The board and the six functions of the CSE 101 assignment, with the
//! return values SPEC.md gives: the grader calls these to know what a
//! student's function should have returned and left on the board.

use std::fmt;

use crate::grid::{Direction, Grid};

/// An empty slot.
pub const EMPTY: u8 = b'.';
/// Player 1's piece.
pub const PLAYER_1: u8 = b'X';
/// Player 2's piece.
pub const PLAYER_2: u8 = b'O';

/// Why a text is not a board (see [`Board::parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// No line holds a slot.
    Empty,
    /// A line has another number of slots than the first.
    Ragged {
        /// The line, from 1.
        line: usize,
        /// Its slots.
        slots: usize,
        /// The first line's.
        first: usize,
    },
    /// A slot is none of `.`, `X`, `O`.
    Slot {
        /// The line, from 1.
        line: usize,
        /// What is there.
        found: char,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Empty => f.write_str("the board is empty"),
            BoardError::Ragged { line, slots, first } => write!(
                f,
                "line {line} of the board has {slots} slots, the first line has {first}"
            ),
            BoardError::Slot { line, found } => write!(
                f,
                "line {line} of the board has {found:?}; slots are '.', 'X' or 'O'"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// The given `Board` class: `num_rows` × `num_cols` slots, row 0 at the
/// bottom.
///
/// The sizes are kept as the player typed them, because the given main
/// prints `num_cols` in its prompt even when it is not a sensible size; the
/// slots exist only for positive sizes, as with Python's `range`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    num_rows: i64,
    num_cols: i64,
    slots: Grid<u8>,
}

impl Board {
    /// An empty board, like `Board(num_rows, num_cols)`.
    pub fn new(num_rows: i64, num_cols: i64) -> Self {
        let rows = usize::try_from(num_rows).unwrap_or(0);
        let cols = if rows == 0 {
            0
        } else {
            usize::try_from(num_cols).unwrap_or(0)
        };
        Board {
            num_rows,
            num_cols,
            slots: Grid::new(rows, cols, EMPTY),
        }
    }

    /// A board written as `display_board` prints it: the top row first,
    /// one line per row, `.`, `X` or `O` in each slot. Blank lines and
    /// white space around lines are ignored.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let Some(first) = lines.first() else {
            return Err(BoardError::Empty);
        };
        let cols = first.chars().count();
        let mut board = Board::new(lines.len() as i64, cols as i64);
        for (i, line) in lines.iter().enumerate() {
            if line.chars().count() != cols {
                return Err(BoardError::Ragged {
                    line: i + 1,
                    slots: line.chars().count(),
                    first: cols,
                });
            }
            let row = lines.len() - 1 - i;
            for (col, ch) in line.chars().enumerate() {
                if !matches!(ch, '.' | 'X' | 'O') {
                    return Err(BoardError::Slot {
                        line: i + 1,
                        found: ch,
                    });
                }
                board.slots.set(row, col, ch as u8);
            }
        }
        Ok(board)
    }

    /// `board._num_rows`.
    pub fn num_rows(&self) -> i64 {
        self.num_rows
    }

    /// `board._num_cols`.
    pub fn num_cols(&self) -> i64 {
        self.num_cols
    }

    /// `board._slots[row][col]` as a character.
    pub fn slot(&self, row: usize, col: usize) -> char {
        self.slots.get(row, col) as char
    }

    /// What `display_board` prints: rows from the top down, each row's
    /// slots joined with nothing, then a newline.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for row in (0..self.slots.rows()).rev() {
            text.extend(self.slots.row(row).iter().map(|&b| b as char));
            text.push('\n');
        }
        text
    }

    /// The 0-based column for a player's 1-based `col_num`, if on the
    /// board.
    fn column(&self, col_num: i64) -> Option<usize> {
        let col = usize::try_from(col_num.checked_sub(1)?).ok()?;
        (col < self.slots.cols()).then_some(col)
    }

    fn winner_in(&self, directions: &[Direction]) -> i64 {
        for (player, piece) in [(1, PLAYER_1), (2, PLAYER_2)] {
            if directions
                .iter()
                .any(|&dir| self.slots.has_run(piece, 4, dir))
            {
                return player;
            }
        }
        0
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// `board_full(board)`: whether no slot is empty.
pub fn board_full(board: &Board) -> bool {
    !board.slots.contains(EMPTY)
}

/// `drop_piece(board, col_num, player)`: drops `X` for player 1 and `O`
/// otherwise into the 1-based column; returns the 1-based row it landed in
/// (1 = bottom), or -1, leaving the board unchanged, when the column is
/// off the board or full.
pub fn drop_piece(board: &mut Board, col_num: i64, player: i64) -> i64 {
    let Some(col) = board.column(col_num) else {
        return -1;
    };
    let Some(row) = (0..board.slots.rows()).find(|&r| board.slots.get(r, col) == EMPTY) else {
        return -1;
    };
    let piece = if player == 1 { PLAYER_1 } else { PLAYER_2 };
    board.slots.set(row, col, piece);
    row as i64 + 1
}

/// `drop_bomb(board, col_num)`: empties the whole 1-based column and
/// returns `col_num`; -1, leaving the board unchanged, when the column is
/// off the board. A bomb into an empty column is valid.
pub fn drop_bomb(board: &mut Board, col_num: i64) -> i64 {
    let Some(col) = board.column(col_num) else {
        return -1;
    };
    for row in 0..board.slots.rows() {
        board.slots.set(row, col, EMPTY);
    }
    col_num
}

/// `horizontal_winner(board)`: 1 or 2 for a player with four in a row
/// along a row, else 0.
pub fn horizontal_winner(board: &Board) -> i64 {
    board.winner_in(&[Direction::Horizontal])
}

/// `vertical_winner(board)`: 1 or 2 for a player with four in a column,
/// else 0.
pub fn vertical_winner(board: &Board) -> i64 {
    board.winner_in(&[Direction::Vertical])
}

/// `diagonal_winner(board)`: 1 or 2 for a player with four on a diagonal
/// in either direction, else 0.
pub fn diagonal_winner(board: &Board) -> i64 {
    board.winner_in(&[Direction::Diagonal, Direction::AntiDiagonal])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::parse(text).unwrap()
    }

    #[test]
    fn drop_piece_returns_the_one_based_row() {
        // The handout's example: drop_piece(board, 4, 1) returns 3.
        let mut b = board("......\n......\n......\n......\n..OO..\nXXXOOX\n");
        assert_eq!(drop_piece(&mut b, 4, 1), 3);
        assert_eq!(
            b.render(),
            "......\n......\n......\n...X..\n..OO..\nXXXOOX\n"
        );
        assert_eq!(drop_piece(&mut b, 1, 2), 2);
        assert_eq!(b.slot(1, 0), 'O');
    }

    #[test]
    fn drop_piece_refuses_off_board_and_full_columns_without_change() {
        let mut b = board("X...\nO...\nX...\nO...\n");
        let before = b.clone();
        for col in [0, 5, -1, i64::MIN, i64::MAX, 1] {
            assert_eq!(drop_piece(&mut b, col, 1), -1, "column {col}");
            assert_eq!(b, before);
        }
        assert_eq!(drop_piece(&mut b, 4, 2), 1);
    }

    #[test]
    fn bombs_empty_a_column_and_return_it() {
        // The handout's example: a bomb down column 4.
        let mut b =
            board("..........\n..........\n...XO.....\n...OO.....\n.XOOX.....\nXOXXO.X...\n");
        assert_eq!(drop_bomb(&mut b, 4), 4);
        assert_eq!(
            b.render(),
            "..........\n..........\n....O.....\n....O.....\n.XO.X.....\nXOX.O.X...\n"
        );
        // An empty column is a valid target; the board is unchanged.
        let before = b.clone();
        assert_eq!(drop_bomb(&mut b, 10), 10);
        assert_eq!(b, before);
        // Off the board: -1 and no change.
        assert_eq!(drop_bomb(&mut b, 11), -1);
        assert_eq!(drop_bomb(&mut b, 0), -1);
        assert_eq!(b, before);
    }

    #[test]
    fn winners_name_the_player_and_the_direction() {
        // The handout's four examples.
        let row = board(".....\n.....\n.....\nO....\nOXXXX\nXOXOO\n");
        assert_eq!(
            (
                horizontal_winner(&row),
                vertical_winner(&row),
                diagonal_winner(&row)
            ),
            (1, 0, 0)
        );
        let col = board("........\n....O...\n.X..O...\nOX.XO...\nOOXOOX..\nXOXXXOX.\n");
        assert_eq!(
            (
                horizontal_winner(&col),
                vertical_winner(&col),
                diagonal_winner(&col)
            ),
            (0, 2, 0)
        );
        let up = board(
            "............\n.X..........\n.OX.........\n.XOXO.......\nOOOXX.......\nXXOXO.......\n",
        );
        assert_eq!(
            (
                horizontal_winner(&up),
                vertical_winner(&up),
                diagonal_winner(&up)
            ),
            (0, 0, 1)
        );
        let down = board("..........\n..........\n..........\n..........\n...XO.....\n...OO.....\n.XOOX.....\nXOXXO.X...\n");
        assert_eq!(
            (
                horizontal_winner(&down),
                vertical_winner(&down),
                diagonal_winner(&down)
            ),
            (0, 0, 2)
        );
    }

    #[test]
    fn non_square_boards() {
        // 4 rows × 9 columns: a row win at the right edge.
        let mut wide = Board::new(4, 9);
        for col in 6..=9 {
            assert_eq!(drop_piece(&mut wide, col, 2), 1);
        }
        assert_eq!(horizontal_winner(&wide), 2);
        assert_eq!(drop_piece(&mut wide, 10, 1), -1);
        // 9 rows × 4 columns: a column win reaching the top.
        let mut tall = Board::new(9, 4);
        for _ in 0..5 {
            drop_piece(&mut tall, 4, 2);
        }
        for expected_row in 6..=9 {
            assert_eq!(drop_piece(&mut tall, 4, 1), expected_row);
        }
        assert_eq!(drop_piece(&mut tall, 4, 1), -1);
        assert_eq!(vertical_winner(&tall), 1);
        assert!(!board_full(&tall));
    }

    #[test]
    fn board_full_and_parse_errors() {
        assert!(board_full(&board("XOXO\nOXOX\nXOXO\nOXOX\n")));
        assert!(!board_full(&board("XOXO\nOXOX\nXOXO\nOXO.\n")));
        assert_eq!(Board::parse("").unwrap_err(), BoardError::Empty);
        assert_eq!(
            Board::parse("....\n...\n").unwrap_err().to_string(),
            "line 2 of the board has 3 slots, the first line has 4"
        );
        assert_eq!(
            Board::parse("..a.\n....\n").unwrap_err().to_string(),
            "line 1 of the board has 'a'; slots are '.', 'X' or 'O'"
        );
    }

    #[test]
    fn degenerate_sizes_behave_like_python() {
        // Board(0, 5) and Board(3, -2) have no slots: full at once.
        assert!(board_full(&Board::new(0, 5)));
        let b = Board::new(3, -2);
        assert!(board_full(&b));
        assert_eq!(b.render(), "\n\n\n");
        assert_eq!(b.num_cols(), -2);
    }
}
