//! Game-aware grading: what a program did in the game, apart from how it
//! printed it.
//!
//! A reader per game turns a terminal transcript (the reference's or a
//! student's) into events, turn by turn (a turn is what the program printed
//! after one input line): every board shown, parsed tolerantly; outcome
//! messages (a win and who won, a tie), recognised by meaning; error
//! messages and their kind; and each prompt's player and move number.
//! Whatever cannot be classified is kept as text and reported, never
//! dropped. [`compare`] then compares the reference's events with the
//! student's and names the first difference in game terms.
//!
//! Each game's reader lives with its game, in `games/<game>/reader.rs`,
//! and documents the rules it follows; this module holds what they share
//! (boards, rows of cells, message patterns, events) and the comparison.

use crate::transcript::TermLine;

pub mod board;
mod compare;
mod events;
pub mod patterns;
pub mod rows;

pub use board::{Board, Cell};
pub use compare::{compare, Difference};
pub use events::{ErrorKind, Event, LineClass, LineKind, Reading, Rules, Turn};
pub(crate) use patterns::is_decoration;

/// Reads a terminal transcript into turns.
pub fn read(rules: &dyn Rules, lines: &[TermLine]) -> Reading {
    let mut reader = Reader {
        rules,
        turns: vec![Turn::default()],
        kinds: Vec::with_capacity(lines.len()),
        rows: Vec::new(),
        seen_board: false,
        board: None,
        last_text: None,
    };
    for line in lines {
        reader.line(line);
    }
    reader.flush_rows();
    reader.finish_turn();
    Reading {
        turns: reader.turns,
        lines: reader.kinds,
    }
}

struct Reader<'r> {
    rules: &'r dyn Rules,
    turns: Vec<Turn>,
    /// What each line read so far is.
    kinds: Vec<LineClass>,
    /// Board rows seen but not yet a whole board: line, text, cells.
    rows: Vec<(usize, String, Vec<Cell>)>,
    seen_board: bool,
    /// The last board shown before the current turn.
    board: Option<Board>,
    /// The line of the last text event of the current turn.
    last_text: Option<usize>,
}

impl Reader<'_> {
    fn turn(&mut self) -> &mut Turn {
        self.turns.last_mut().expect("there is always a turn")
    }

    fn mark(&mut self, index: usize, kind: LineKind) {
        if let Some(class) = self.kinds.get_mut(index) {
            class.kind = kind;
        }
    }

    fn line(&mut self, line: &TermLine) {
        let index = self.kinds.len();
        self.kinds.push(LineClass {
            turn: self.turns.len() - 1,
            kind: LineKind::Text,
        });
        let text = String::from_utf8_lossy(&line.output).into_owned();
        if let Some(row) = self.rules.board_row(&text) {
            self.rows.push((index, text, row));
            if self.rules.board_height() == Some(self.rows.len()) {
                self.flush_rows();
            }
        } else if !is_decoration(&text) || self.rows.is_empty() {
            // (A decoration line between board rows keeps the board going.)
            self.flush_rows();
            if line.input.is_some() || line.waiting {
                self.prompt(index, &text);
            } else if is_decoration(&text) {
                self.mark(index, LineKind::Decoration);
            } else {
                self.message(index, &text);
            }
        } else {
            self.mark(index, LineKind::Decoration);
        }
        if let Some(input) = &line.input {
            self.finish_turn();
            self.turns.push(Turn {
                input: Some(input.clone()),
                events: Vec::new(),
            });
        }
    }

    /// A line with a message, or text. Outcomes before the first board
    /// are instructions ("...the game is a tie"), so they stay text.
    fn message(&mut self, index: usize, text: &str) {
        let event = match self.rules.message(text) {
            Some(Event::Won(_) | Event::Tie) if !self.seen_board => Event::Text(text.to_string()),
            Some(event) => event,
            None => Event::Text(text.to_string()),
        };
        let kind = match event {
            Event::Won(_) | Event::Tie => LineKind::Outcome,
            Event::Error(_) => LineKind::Error,
            Event::Prompt { .. } => LineKind::Prompt,
            Event::Farewell => LineKind::Farewell,
            Event::Board(_) => LineKind::Board,
            Event::Text(_) => {
                self.last_text = Some(index);
                LineKind::Text
            }
        };
        self.mark(index, kind);
        self.turn().events.push(event);
    }

    /// The text a program printed before reading. A prompt that ended
    /// with a newline is the line before.
    fn prompt(&mut self, index: usize, text: &str) {
        let mut prompt = text.trim().to_string();
        self.mark(index, LineKind::Prompt);
        if prompt.is_empty() {
            if let Some(Event::Text(previous)) = self.turn().events.last().cloned() {
                self.turn().events.pop();
                if let Some(line) = self.last_text.take() {
                    self.mark(line, LineKind::Prompt);
                }
                prompt = previous;
            }
        }
        // An error and a prompt can share a line ("Bad row! Move: ").
        if let Some(error @ Event::Error(_)) = self.rules.message(&prompt) {
            self.mark(index, LineKind::Error);
            self.turn().events.push(error);
        }
        let event = self.rules.prompt(&prompt);
        self.turn().events.push(event);
    }

    fn flush_rows(&mut self) {
        if self.rows.is_empty() {
            return;
        }
        let rows = std::mem::take(&mut self.rows);
        let whole = match self.rules.board_height() {
            Some(height) => rows.len() == height,
            None => rows.len() >= 4,
        };
        let board = whole
            .then(|| Board::new(rows.iter().map(|(_, _, cells)| cells.clone()).collect()))
            .flatten();
        match board {
            Some(board) => {
                self.seen_board = true;
                for (index, _, _) in &rows {
                    self.mark(*index, LineKind::Board);
                }
                self.turn().events.push(Event::Board(board));
            }
            None => {
                for (index, text, _) in rows {
                    self.last_text = Some(index);
                    self.turn().events.push(Event::Text(text));
                }
            }
        }
    }

    /// Ends a turn: a turn that refused a move by what it did (see
    /// [`refused`]) gets a refusal, its unread lines being its message.
    fn finish_turn(&mut self) {
        let turn_index = self.turns.len() - 1;
        let previous = turn_index.checked_sub(1).and_then(|p| self.turns.get(p));
        let current = &self.turns[turn_index];
        if refused(previous, current, self.board.as_ref()) {
            for class in self.kinds.iter_mut().filter(|c| c.turn == turn_index) {
                if class.kind == LineKind::Text {
                    class.kind = LineKind::Error;
                }
            }
            self.turn().events.push(Event::Error(ErrorKind::Unknown));
        }
        self.last_text = None;
        if let Some(board) = self.turns[turn_index].boards().last() {
            self.board = Some(board.clone());
        }
    }
}

/// Whether `turn` refused the move typed, by what the program did rather
/// than by its words: it did not say why (no refusal read), nothing
/// else happened (no win or tie), the board stayed as it was, and the
/// same player was asked again (when prompts name no player: the same
/// move number). When neither prompt names a player or a number, the
/// board shown again unchanged is the sign.
fn refused(previous: Option<&Turn>, turn: &Turn, board: Option<&Board>) -> bool {
    let (Some(before), Some(now)) = (previous.and_then(Turn::prompt), turn.prompt()) else {
        return false;
    };
    if !turn.errors().is_empty() || !turn.outcomes().is_empty() {
        return false;
    }
    let shown: Vec<&Board> = turn.boards().collect();
    if shown.iter().any(|b| Some(*b) != board) {
        return false;
    }
    fn same<T: PartialEq>(a: Option<T>, b: Option<T>) -> Option<bool> {
        Some(a? == b?)
    }
    let player = same(before.0, now.0);
    let number = same(before.1, now.1);
    // The player decides when both prompts name one: a number that moved
    // on anyway is a fault of the move number, not a move.
    match (player, number) {
        (Some(same), _) => same,
        (None, Some(same)) => same,
        (None, None) => {
            let named = [before.0, now.0].iter().any(Option::is_some)
                || [before.1, now.1].iter().any(Option::is_some);
            !named && !shown.is_empty()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::patterns::{move_number, x_or_o};

    #[test]
    fn players_and_move_numbers_are_found_in_prompts() {
        assert_eq!(
            x_or_o("3. Enter row, column, quadrant, direction for X: "),
            Some(0)
        );
        assert_eq!(x_or_o("Player O, your move"), Some(1));
        assert_eq!(x_or_o("Xavier's box: no player"), None);
        assert_eq!(move_number("12. Enter row"), Some(12));
        assert_eq!(move_number("X's turn (move #3): "), Some(3));
        assert_eq!(move_number("Move 4 - O, enter your move: "), Some(4));
        assert_eq!(move_number("Player O, move 12: "), Some(12));
        assert_eq!(move_number("[3] X >> "), Some(3));
        assert_eq!(move_number("Enter row (A-F), column (1-6): "), None);
    }
}
