//! Reading Pentago output.
//!
//! - A board is six rows of six cells: `X`, `O` (either case) for pieces;
//!   `.`, `_`, `*`, `·`, or `-` between spaces or bars, for empty squares;
//!   any spacing, bars, row letters at either end, and border or number
//!   lines between rows.
//! - A message says a tie when it says tie, tied, draw or stalemate, or
//!   that both won (`*** Both X and O have won.  Game is a tie.`); a win
//!   when it says won, wins, winner or victory, for the X or O it names
//!   (or player one/1 = X, two/2 = O).
//! - An error names the square as taken, occupied, already filled or
//!   "must be empty" (occupied), or looks like an error (invalid, error,
//!   illegal, try again, retry, out of range, must be, wrong, bad, cannot)
//!   and names a direction or rotation, a quadrant, a column or a row, in
//!   that order of precedence; an error naming none of them is "refused".
//! - Exit and goodbye lines (exit, bye, quit, thanks for playing) are
//!   format, not behaviour.
//! - A prompt is what was printed before a read: its player is the X or
//!   O it names, its move number the number it starts with or the number
//!   after "move" or "#".

use std::sync::LazyLock;

use regex::Regex;

use crate::game::patterns::{move_number, pattern, x_or_o};
use crate::game::rows::{self, CellSet};
use crate::game::{Board, Cell, ErrorKind, Event, Rules};

/// The Pentago reader.
pub struct Pentago;

const CELLS: CellSet = CellSet {
    cell: |c| match c {
        'X' | 'x' => Some(Cell::Piece(0)),
        'O' | 'o' => Some(Cell::Piece(1)),
        '.' | '_' | '*' | '·' => Some(Cell::Empty),
        _ => None,
    },
    dash_run_together: false,
    labels: |c| matches!(c.to_ascii_uppercase(), 'A'..='F'),
};

static TIE: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(tie|tied|draw|drawn|stalemate)\b|\bboth\b.*\b(won|win|wins|five)\b|\bno(body| one| winner)\b",
    )
});
static WIN: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)\b(won|wins|win|winner|winning|victory|victorious)\b"));
static OCCUPIED: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)taken|occupied|not empty|must be empty|already|filled|not (free|available)|isn't (empty|free)",
    )
});
static ERROR: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)invalid|error|illegal|not valid|try again|retry|out of range|must be|wrong|\bbad\b|cannot|can't|not allowed",
    )
});
static DIRECTION: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)direction|rotat|\bl or r\b|left or right"));
static QUADRANT: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)quadrant"));
static COLUMN: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)\bcol(umn)?s?\b"));
static ROW: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)\brows?\b"));
static FAREWELL: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)exit|\bbye\b|goodbye|\bquit|thanks for playing|thank you"));
static PLAYER_WORD: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)\bplayer\s*(1|one|2|two)\b|\b(first|second)\s+player\b"));

/// The player a message names: a standalone X or O, or player one/two.
fn named_player(text: &str) -> Option<u8> {
    x_or_o(text).or_else(|| {
        PLAYER_WORD.captures(text).map(|c| {
            let word = c
                .get(1)
                .or(c.get(2))
                .map_or("", |m| m.as_str())
                .to_lowercase();
            u8::from(!matches!(word.as_str(), "1" | "one" | "first"))
        })
    })
}

impl Rules for Pentago {
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
        if OCCUPIED.is_match(line) {
            return Some(Event::Error(ErrorKind::Occupied));
        }
        if ERROR.is_match(line) {
            let kind = [
                (&DIRECTION, ErrorKind::Direction),
                (&QUADRANT, ErrorKind::Quadrant),
                (&COLUMN, ErrorKind::Column),
                (&ROW, ErrorKind::Row),
            ]
            .into_iter()
            .find(|(re, _)| re.is_match(line))
            .map_or(ErrorKind::Unknown, |(_, kind)| kind);
            return Some(Event::Error(kind));
        }
        FAREWELL.is_match(line).then_some(Event::Farewell)
    }

    fn prompt(&self, text: &str) -> Event {
        Event::Prompt {
            player: x_or_o(text),
            number: move_number(text),
        }
    }

    fn player(&self, player: u8) -> String {
        if player == 0 { "X" } else { "O" }.to_string()
    }

    fn square(&self, _board: &Board, row: usize, col: usize) -> String {
        format!("{}{}", (b'A' + row as u8) as char, col + 1)
    }

    fn pieces(&self) -> [char; 2] {
        ['X', 'O']
    }

    /// X or O standing alone, or player one or two; `None` when the
    /// line names both or neither.
    fn named_player(&self, line: &str) -> Option<u8> {
        let alone = |p: u8| standalone(line).contains(&p);
        match (alone(0), alone(1)) {
            (true, true) => None,
            (false, false) => named_player(line),
            (x, _) => Some(u8::from(!x)),
        }
    }
}

/// Every standalone X or O of a line, as players.
fn standalone(line: &str) -> Vec<u8> {
    line.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|word| match word {
            "X" | "x" => Some(0),
            "O" | "o" => Some(1),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn says(line: &str) -> Option<Event> {
        Pentago.message(line)
    }

    #[test]
    fn outcomes_are_recognised_by_meaning() {
        for tie in [
            "*** Both X and O have won.  Game is a tie.",
            "The game was a tie!",
            "It's a tie game!",
            "Tie! Both players got five.",
            "Draw.",
            "Both players have five in a row!",
        ] {
            assert_eq!(says(tie), Some(Event::Tie), "{tie}");
        }
        for (win, player) in [
            ("O has won the game!", 1),
            ("X has won the game!", 0),
            ("X wins!", 0),
            ("Player O is the winner!", 1),
            ("Winner: X", 0),
            ("Player two wins", 1),
            ("Congratulations player 1, you won!", 0),
        ] {
            assert_eq!(says(win), Some(Event::Won(Some(player))), "{win}");
        }
    }

    #[test]
    fn errors_are_recognised_by_kind() {
        for (line, kind) in [
            ("*** Invalid move row.  Please retry.", ErrorKind::Row),
            ("*** Invalid move column.  Please retry.", ErrorKind::Column),
            (
                "*** That board location is already taken.  Please retry.",
                ErrorKind::Occupied,
            ),
            (
                "*** Selected quadrant is invalid.  Please retry.",
                ErrorKind::Quadrant,
            ),
            (
                "*** Quadrant rotation direction is invalid.  Please retry.",
                ErrorKind::Direction,
            ),
            ("Spot already taken", ErrorKind::Occupied),
            ("Position must be empty", ErrorKind::Occupied),
            ("Invalid row, try again.", ErrorKind::Row),
            ("Error: column must be between 1 and 6.", ErrorKind::Column),
            ("Bad quadrant (1-4 only).", ErrorKind::Quadrant),
            ("Rotation must be L or R.", ErrorKind::Direction),
            ("That move is invalid.", ErrorKind::Unknown),
        ] {
            assert_eq!(says(line), Some(Event::Error(kind)), "{line}");
        }
    }

    #[test]
    fn goodbyes_and_other_text() {
        assert_eq!(says("Exiting program..."), Some(Event::Farewell));
        assert_eq!(
            says("Thanks for playing.  Exiting..."),
            Some(Event::Farewell)
        );
        assert_eq!(says("Goodbye!"), Some(Event::Farewell));
        assert_eq!(says("Author: Dale Reed"), None);
        assert_eq!(
            says("Play the two-player game of Pentago. Be the first to get 5 in a row."),
            None
        );
        let prompt = Pentago.prompt("10. Enter row, column, quadrant, direction for O:");
        assert_eq!(
            prompt,
            Event::Prompt {
                player: Some(1),
                number: Some(10)
            }
        );
    }
}
