//! The reference implementations of the games `referee` grades.
//!
//! Everything `referee` grades is measured against these: a case's
//! expected transcript is what the reference prints for the case's input.
//! Each game keeps its rules (board, moves, winners) apart from its console
//! protocol (prompts, messages, input parsing); the three share one
//! [`grid::Grid`] and its "n in a row" scanner.
//!
//! The protocols read from any [`BufRead`] and write to any [`Write`], so
//! the grader runs them in-process and `referee play` runs them on a real
//! terminal or a pipe.

#![deny(missing_docs)]

use std::fmt;
use std::io::{self, BufRead, Write};
use std::str::FromStr;

pub mod connect4;
pub mod connect4_bomb;
pub mod console;
pub mod grid;
pub mod pentago;

/// One of the games `referee` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Game {
    /// APS105 Lab 6: Connect Four in C on a 6×6 board.
    Connect4,
    /// CSE 101 "Connect Four: CSE 101 Edition" in Python, with bombs.
    Connect4Bomb,
    /// UIC CS 141 Prog 3: Pentago in C.
    Pentago,
}

impl Game {
    /// Every game, in the order help texts list them.
    pub const ALL: [Game; 3] = [Game::Connect4, Game::Connect4Bomb, Game::Pentago];

    /// The id used on the command line and in case files.
    pub fn id(self) -> &'static str {
        match self {
            Game::Connect4 => "connect4",
            Game::Connect4Bomb => "connect4-bomb",
            Game::Pentago => "pentago",
        }
    }

    /// One line saying what the game is.
    pub fn summary(self) -> &'static str {
        match self {
            Game::Connect4 => "APS105 Lab 6: Connect Four in C, 6x6 board",
            Game::Connect4Bomb => {
                "CSE 101 Connect Four in Python: any board size, one bomb per player"
            }
            Game::Pentago => "UIC CS 141 Prog 3: Pentago in C, five in a row with rotations",
        }
    }

    /// Plays one game of the reference on `input` and `output`.
    pub fn play(self, input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
        match self {
            Game::Connect4 => connect4::play(input, output),
            Game::Connect4Bomb => connect4_bomb::play(input, output),
            Game::Pentago => pentago::play(input, output),
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A game id that is not one of [`Game::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Game::ALL.iter().map(|g| g.id()).collect();
        write!(
            f,
            "unknown game `{}`; the games are: {}",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for Game {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Game::ALL
            .into_iter()
            .find(|g| g.id() == s)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}
