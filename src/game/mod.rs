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
//! The rules each reader follows are documented on its module:
//! [`connect4`], [`connect4_bomb`], [`pentago`]; [`crate::games`] says
//! which reader reads which game.

use crate::explain::terminal::TermLine;

pub mod board;
mod compare;
pub mod connect4;
pub mod connect4_bomb;
pub mod pentago;
mod rows;

pub use board::{Board, Cell};
pub use compare::{compare, Difference};

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The row is off the board.
    Row,
    /// The column is off the board (or full).
    Column,
    /// The square is taken.
    Occupied,
    /// The quadrant is not 1 to 4.
    Quadrant,
    /// The direction is not L or R.
    Direction,
    /// A piece could not be dropped (connect4-bomb: the turn is lost).
    Piece,
    /// A bomb could not be dropped (connect4-bomb: bomb and turn lost).
    Bomb,
    /// Refused, without saying why (a repeated prompt, an unclear message).
    Unknown,
}

impl ErrorKind {
    /// How an explanation says it.
    pub fn words(self) -> &'static str {
        match self {
            ErrorKind::Row => "an invalid row",
            ErrorKind::Column => "an invalid column",
            ErrorKind::Occupied => "an occupied square",
            ErrorKind::Quadrant => "an invalid quadrant",
            ErrorKind::Direction => "an invalid direction",
            ErrorKind::Piece => "a column a piece cannot go into",
            ErrorKind::Bomb => "a column a bomb cannot go into",
            ErrorKind::Unknown => "a refused move",
        }
    }
}

/// Something a program showed during the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A board.
    Board(Board),
    /// A win, by the player when the message says which.
    Won(Option<u8>),
    /// A tie.
    Tie,
    /// A refused move.
    Error(ErrorKind),
    /// A request for input: whose turn, and the move number when shown.
    Prompt {
        /// The player asked, when the prompt says.
        player: Option<u8>,
        /// The move number, when the prompt shows one.
        number: Option<u32>,
    },
    /// A goodbye ("Exiting program...", "Thanks for playing"), which is
    /// format, not behaviour.
    Farewell,
    /// A line that is none of the above.
    Text(String),
}

/// What a program printed after one input line (or before the first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    /// The line typed that started it; `None` for the start.
    pub input: Option<String>,
    /// What it showed, in order.
    pub events: Vec<Event>,
}

impl Turn {
    /// The boards shown.
    pub fn boards(&self) -> impl Iterator<Item = &Board> {
        self.events.iter().filter_map(|e| match e {
            Event::Board(b) => Some(b),
            _ => None,
        })
    }

    /// Wins and ties, in order.
    pub fn outcomes(&self) -> Vec<&Event> {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::Won(_) | Event::Tie))
            .collect()
    }

    /// The kinds of refusals.
    pub fn errors(&self) -> Vec<ErrorKind> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Error(kind) => Some(*kind),
                _ => None,
            })
            .collect()
    }

    /// The last prompt, the one the next input answers: its move number,
    /// and the player it or an earlier prompt of the turn names ("Player
    /// 2's turn!" then "Which column...?").
    pub fn prompt(&self) -> Option<(Option<u8>, Option<u32>)> {
        let prompts = self.events.iter().rev().filter_map(|e| match e {
            Event::Prompt { player, number } => Some((*player, *number)),
            _ => None,
        });
        let mut last = None;
        for (player, number) in prompts {
            let (_, n) = *last.get_or_insert((player, number));
            if player.is_some() {
                return Some((player, n));
            }
        }
        last
    }

    /// Lines that could not be classified, blank lines and decoration
    /// (rules, column numbers) aside.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.events.iter().filter_map(|e| match e {
            Event::Text(t) if !is_decoration(t) => Some(t.as_str()),
            _ => None,
        })
    }
}

/// A whole transcript, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Turn 0 is before the first input; turn k follows input k.
    pub turns: Vec<Turn>,
    /// What each terminal line was read as, in order: one per line.
    pub lines: Vec<LineClass>,
}

/// What one terminal line was read as, and in which turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineClass {
    /// The turn it was printed in.
    pub turn: usize,
    /// What it is.
    pub kind: LineKind,
}

/// The kinds of lines a reader tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A row of a board.
    Board,
    /// A blank line, a border or column numbers.
    Decoration,
    /// A win or a tie.
    Outcome,
    /// A refusal's message (by its words, or the words of a turn that
    /// refused by what it did).
    Error,
    /// What was printed before a read.
    Prompt,
    /// A goodbye.
    Farewell,
    /// Anything else: headers, instructions, messages it cannot read.
    Text,
}

/// How a game's output is read. Each game's rules are documented, and
/// unit-tested, in its own module.
pub trait Rules {
    /// The cells of one row of a board, if `line` is one.
    fn board_row(&self, line: &str) -> Option<Vec<Cell>>;
    /// How many rows a board has, when it is fixed.
    fn board_height(&self) -> Option<usize>;
    /// What a message line means, if it is a message.
    fn message(&self, line: &str) -> Option<Event>;
    /// The player and move number a prompt names.
    fn prompt(&self, text: &str) -> Event;
    /// Players' names, for explanations ("X", "Red", "player 1").
    fn player(&self, player: u8) -> String;
    /// A square's name, for explanations ("C4", "row 2, column 3").
    fn square(&self, board: &Board, row: usize, col: usize) -> String;
    /// The symbols the players' pieces are shown with.
    fn pieces(&self) -> [char; 2];
    /// The player a line names, when it names exactly one (an
    /// announcement worded beyond the reader's rules: "X takes it!").
    fn named_player(&self, line: &str) -> Option<u8>;
}

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

/// A reader's message pattern, written in its module: valid by
/// construction (each reader's tests exercise every pattern).
fn pattern(re: &str) -> regex::Regex {
    regex::Regex::new(re).expect("a valid pattern")
}

/// Lines that only decorate a board: blank, borders, column numbers.
pub(crate) fn is_decoration(text: &str) -> bool {
    text.chars().all(|c| {
        c.is_whitespace()
            || c.is_ascii_digit()
            || "-=+|:_*#~".contains(c)
            || rows::is_box_drawing(c)
    })
}

/// The first standalone X or O in a line (not in a word), as a player.
pub(crate) fn x_or_o(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find_map(|i| {
        let c = bytes[i].to_ascii_uppercase();
        let alone = |j: Option<usize>| {
            j.and_then(|j| bytes.get(j))
                .is_none_or(|b| !b.is_ascii_alphanumeric())
        };
        let player = match c {
            b'X' => 0,
            b'O' => 1,
            _ => return None,
        };
        (alone(i.checked_sub(1)) && alone(Some(i + 1))).then_some(player)
    })
}

/// The move number at the start of a prompt (`12. Enter`, `12) `), or
/// after "move" / "#" anywhere in it.
pub(crate) fn move_number(text: &str) -> Option<u32> {
    use std::sync::LazyLock;
    static LEADING: LazyLock<regex::Regex> =
        LazyLock::new(|| pattern(r"^\s*[\[(]?(\d+)\s*[.):\]\-]"));
    static NAMED: LazyLock<regex::Regex> =
        LazyLock::new(|| pattern(r"(?i)(?:\bmove\s*(?:number|no\.?|#)?\s*|#)(\d+)"));
    LEADING
        .captures(text)
        .or_else(|| NAMED.captures(text))
        .and_then(|c| c[1].parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

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
