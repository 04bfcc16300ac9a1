//! Reading CSE 101 Connect Four output (the given main block's).
//!
//! - A board is four or more rows of the same width, four or more of `.`,
//!   `X`, `O`, run together as `display_board` prints them.
//! - "Player N won the game!" is a win for player N; a line saying tie
//!   (the given main's "Game Over! It was a tie!") is a tie.
//! - "You can't drop a piece..." and "You can't drop a bomb..." are
//!   refusals of a piece and of a bomb.
//! - "Player N's turn!" names whose turn it is; the column and bomb
//!   prompts name nobody. "Game Over!" is format.

use std::sync::LazyLock;

use regex::Regex;

use crate::game::patterns::pattern;
use crate::game::rows::{self, CellSet};
use crate::game::{Board, Cell, ErrorKind, Event, Rules};

/// The connect4-bomb reader.
pub struct Connect4Bomb;

const CELLS: CellSet = CellSet {
    cell: |c| match c {
        'X' => Some(Cell::Piece(0)),
        'O' => Some(Cell::Piece(1)),
        '.' => Some(Cell::Empty),
        _ => None,
    },
    dash_run_together: false,
    labels: |_| false,
};

static WON: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)player\s*(\d+)\b.*\b(won|wins|winner)\b"));
static TURN: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)player\s*(\d+)'?s? turn"));
static TIE: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)\b(tie|draw)\b"));
static PIECE: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)can'?t drop a piece"));
static BOMB: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)can'?t drop a bomb"));
static FAREWELL: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)game over"));
static PLAYER: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)player\s*(\d+)\b"));

fn player(caps: &regex::Captures<'_>) -> Option<u8> {
    caps[1].parse::<u8>().ok().and_then(|n| n.checked_sub(1))
}

impl Rules for Connect4Bomb {
    fn board_row(&self, line: &str) -> Option<Vec<Cell>> {
        if line.contains(char::is_whitespace) {
            return None;
        }
        rows::row(line, None, &CELLS)
    }

    fn board_height(&self) -> Option<usize> {
        None
    }

    fn message(&self, line: &str) -> Option<Event> {
        if TIE.is_match(line) {
            return Some(Event::Tie);
        }
        if let Some(caps) = WON.captures(line) {
            return Some(Event::Won(player(&caps)));
        }
        if let Some(caps) = TURN.captures(line) {
            return Some(Event::Prompt {
                player: player(&caps),
                number: None,
            });
        }
        if BOMB.is_match(line) {
            return Some(Event::Error(ErrorKind::Bomb));
        }
        if PIECE.is_match(line) {
            return Some(Event::Error(ErrorKind::Piece));
        }
        FAREWELL.is_match(line).then_some(Event::Farewell)
    }

    fn prompt(&self, _text: &str) -> Event {
        Event::Prompt {
            player: None,
            number: None,
        }
    }

    fn player(&self, player: u8) -> String {
        format!("player {}", player + 1)
    }

    fn square(&self, board: &Board, row: usize, col: usize) -> String {
        format!("row {}, column {}", board.height() - row, col + 1)
    }

    fn pieces(&self) -> [char; 2] {
        ['X', 'O']
    }

    fn named_player(&self, line: &str) -> Option<u8> {
        PLAYER.captures(line).and_then(|caps| player(&caps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_given_mains_messages() {
        let b = Connect4Bomb;
        assert_eq!(
            b.message("Player 2 won the game!"),
            Some(Event::Won(Some(1)))
        );
        assert_eq!(b.message("Game Over! It was a tie!"), Some(Event::Tie));
        assert_eq!(b.message("Game Over!"), Some(Event::Farewell));
        assert_eq!(
            b.message("You can't drop a bomb into that column. You lose your bomb and your turn!"),
            Some(Event::Error(ErrorKind::Bomb))
        );
        assert_eq!(
            b.message("You can't drop a piece into that column. You lose your turn!"),
            Some(Event::Error(ErrorKind::Piece))
        );
        assert_eq!(
            b.message("Player 1's turn!"),
            Some(Event::Prompt {
                player: Some(0),
                number: None
            })
        );
        assert_eq!(b.message("Player 1: You are X"), None);
        assert!(b.board_row("....X....").is_some());
        assert!(b.board_row("...").is_none());
    }
}
