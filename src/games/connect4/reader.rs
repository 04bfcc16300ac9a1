//! Reading APS105 Connect Four output.
//!
//! - A board is six rows of six cells: `R`, `Y` (either case) for pieces;
//!   `-`, `.`, `_`, or a blank between bars, for empty slots; any spacing.
//! - A message says a tie when it says tie, tied or draw; a win when it
//!   says wins, won or winner, for the player it names (Red or Yellow, or
//!   a standalone R or Y).
//! - The handout's program refuses a column by asking the same player
//!   again: a turn that shows no new board and asks the same player is a
//!   refusal (see [`crate::game::read`]), as is a line that looks like an error
//!   (invalid, error, full, out of range, try again, not valid).
//! - "Final board:" and goodbyes are format, not behaviour.
//! - A prompt's player is the Red or Yellow (or R or Y) it names; prompts
//!   have no move numbers.

use std::sync::LazyLock;

use regex::Regex;

use crate::game::patterns::pattern;
use crate::game::rows::{self, CellSet};
use crate::game::{Board, Cell, ErrorKind, Event, Rules};

/// The Connect Four reader.
pub struct Connect4;

const CELLS: CellSet = CellSet {
    cell: |c| match c {
        'R' | 'r' => Some(Cell::Piece(0)),
        'Y' | 'y' => Some(Cell::Piece(1)),
        '.' | '_' => Some(Cell::Empty),
        _ => None,
    },
    dash_run_together: true,
    labels: |c| c.is_ascii_digit(),
};

static TIE: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)\b(tie|tied|draw)\b"));
static WIN: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)\b(wins|won|winner|win)\b"));
static ERROR: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)invalid|error|\bfull\b|out of range|try again|not valid"));
static FAREWELL: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)final board|exit|\bbye\b|goodbye|thanks for playing|game over"));
static RED: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)\bred\b|\bR\b"));
static YELLOW: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)\byellow\b|\bY\b"));

fn named_player(text: &str) -> Option<u8> {
    let red = RED.find(text).map(|m| m.start());
    let yellow = YELLOW.find(text).map(|m| m.start());
    match (red, yellow) {
        (Some(r), Some(y)) => Some(u8::from(y < r)),
        (Some(_), None) => Some(0),
        (None, Some(_)) => Some(1),
        (None, None) => None,
    }
}

impl Rules for Connect4 {
    fn board_row(&self, line: &str) -> Option<Vec<Cell>> {
        rows::row(line, Some(6), &CELLS)
    }

    fn board_height(&self) -> Option<usize> {
        Some(6)
    }

    fn message(&self, line: &str) -> Option<Event> {
        if TIE.is_match(line) {
            return Some(Event::Tie);
        }
        if WIN.is_match(line) {
            return Some(Event::Won(named_player(line)));
        }
        if ERROR.is_match(line) {
            return Some(Event::Error(ErrorKind::Unknown));
        }
        FAREWELL.is_match(line).then_some(Event::Farewell)
    }

    fn prompt(&self, text: &str) -> Event {
        Event::Prompt {
            player: named_player(text),
            number: None,
        }
    }

    fn player(&self, player: u8) -> String {
        if player == 0 { "Red" } else { "Yellow" }.to_string()
    }

    fn square(&self, board: &Board, row: usize, col: usize) -> String {
        format!(
            "row {}, column {col}",
            board.height().saturating_sub(row + 1)
        )
    }

    fn pieces(&self) -> [char; 2] {
        ['R', 'Y']
    }

    fn named_player(&self, line: &str) -> Option<u8> {
        named_player(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_prompts() {
        assert_eq!(Connect4.message("Red wins!"), Some(Event::Won(Some(0))));
        assert_eq!(Connect4.message("Yellow wins!"), Some(Event::Won(Some(1))));
        assert_eq!(
            Connect4.message("The winner is Yellow"),
            Some(Event::Won(Some(1)))
        );
        assert_eq!(Connect4.message("It's a tie"), Some(Event::Tie));
        assert_eq!(Connect4.message("It's a tie!"), Some(Event::Tie));
        assert_eq!(Connect4.message("Final board: "), Some(Event::Farewell));
        assert_eq!(
            Connect4.message("Column is full, try again"),
            Some(Event::Error(ErrorKind::Unknown))
        );
        assert_eq!(
            Connect4.prompt("Yellow, please enter a valid column number (0-5): "),
            Event::Prompt {
                player: Some(1),
                number: None
            }
        );
        assert_eq!(
            Connect4.board_row("R-Y---"),
            Some(vec![
                Cell::Piece(0),
                Cell::Empty,
                Cell::Piece(1),
                Cell::Empty,
                Cell::Empty,
                Cell::Empty
            ])
        );
        assert!(Connect4.board_row("| R |   |   | Y |   |   |").is_some());
    }
}
