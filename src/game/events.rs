//! What a game's output means, read turn by turn: the events a reader
//! finds, the kinds of lines, and the rules a game's reader follows.

use super::board::{Board, Cell};
use super::patterns::is_decoration;

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
