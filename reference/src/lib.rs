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
mod info;
pub mod pentago;

pub use info::GameInfo;

/// One of the games `referee` knows: a handle on its [`GameInfo`].
#[derive(Clone, Copy)]
pub struct Game(&'static GameInfo);

#[allow(non_upper_case_globals)]
impl Game {
    /// APS105 Lab 6: Connect Four in C on a 6×6 board.
    pub const Connect4: Game = Game(&connect4::INFO);
    /// CSE 101 "Connect Four: CSE 101 Edition" in Python, with bombs.
    pub const Connect4Bomb: Game = Game(&connect4_bomb::INFO);
    /// UIC CS 141 Prog 3: Pentago in C.
    pub const Pentago: Game = Game(&pentago::INFO);

    /// Every game, in the order help texts list them: the registry.
    pub const ALL: &'static [Game] = &[Game::Connect4, Game::Connect4Bomb, Game::Pentago];

    /// A game described by `info`, whether or not [`Game::ALL`] lists it
    /// (a game a test makes up).
    pub const fn new(info: &'static GameInfo) -> Game {
        Game(info)
    }

    /// What the reference knows of it.
    pub fn info(self) -> &'static GameInfo {
        self.0
    }

    /// The id used on the command line and in case files.
    pub fn id(self) -> &'static str {
        self.0.id
    }

    /// Other names accepted for it.
    pub fn aliases(self) -> &'static [&'static str] {
        self.0.aliases
    }

    /// One line saying what the game is.
    pub fn summary(self) -> &'static str {
        self.0.summary
    }

    /// Plays one game of the reference on `input` and `output`.
    pub fn play(self, input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
        (self.0.play)(input, output)
    }

    /// Where it is in [`Game::ALL`] (games not listed come after).
    fn rank(self) -> usize {
        Game::ALL
            .iter()
            .position(|g| *g == self)
            .unwrap_or(Game::ALL.len())
    }
}

impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        self.id() == other.id()
    }
}

impl Eq for Game {}

impl std::hash::Hash for Game {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id().hash(state);
    }
}

impl PartialOrd for Game {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Game {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.rank(), self.id()).cmp(&(other.rank(), other.id()))
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({})", self.id())
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
            .iter()
            .copied()
            .find(|g| g.id() == s || g.aliases().contains(&s))
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game made up here, not in [`Game::ALL`]: what a new game's
    /// module gives the registry.
    const TOY: GameInfo = GameInfo {
        id: "toy",
        aliases: &["stones"],
        summary: "a test's game",
        play: |_, output| output.write_all(b"Take 1 or 2: "),
    };

    #[test]
    fn games_are_found_by_id_and_ordered_as_listed() {
        for (i, game) in Game::ALL.iter().enumerate() {
            assert_eq!(game.id().parse::<Game>(), Ok(*game));
            assert!(Game::ALL[..i].iter().all(|earlier| earlier < game));
        }
        let err = "toy".parse::<Game>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown game `toy`; the games are: connect4, connect4-bomb, pentago"
        );
    }

    #[test]
    fn a_game_plays_through_its_info() {
        let toy = Game::new(&TOY);
        assert_ne!(toy, Game::Connect4);
        assert!(toy > Game::Pentago, "unlisted games come last");
        assert_eq!(toy.aliases(), ["stones"]);
        let mut out = Vec::new();
        toy.play(&mut &b""[..], &mut out).unwrap();
        assert_eq!(out, b"Take 1 or 2: ");
        let mut out = Vec::new();
        Game::Pentago.play(&mut &b"x\n"[..], &mut out).unwrap();
        assert!(out.ends_with(b"Exiting program...\n"));
    }
}
