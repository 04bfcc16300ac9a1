//! The command-line interface: what each command accepts. The work is in
//! [`crate::commands`].

use clap::builder::PossibleValue;
use clap::{Parser, Subcommand, ValueEnum};
use reference::Game;

/// Grade console-game programming assignments against a reference
/// implementation.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about, long_about = None)]
#[command(after_help = games_help())]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play the reference implementation of a game on stdin/stdout, exactly
    /// as a student's program is run: in a terminal, or fed by a pipe.
    #[command(after_help = games_help())]
    Play {
        /// The game to play.
        game: GameArg,
    },
}

/// A game named on the command line; its help lists every game with one
/// line each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameArg(pub Game);

impl ValueEnum for GameArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            GameArg(Game::Connect4),
            GameArg(Game::Connect4Bomb),
            GameArg(Game::Pentago),
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.id()).help(self.0.summary()))
    }
}

fn games_help() -> String {
    let mut text = String::from("Games:\n");
    for game in Game::ALL {
        text.push_str(&format!("  {:<15}{}\n", game.id(), game.summary()));
    }
    text
}
