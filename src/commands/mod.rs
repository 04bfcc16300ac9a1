//! What each command does, and how the process ends.

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};

mod play;

/// Parses the command line, runs the command, and turns its outcome into
/// the process's exit code. Errors are printed as `referee: <message>`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play { game } => play::run(game.0),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("referee: {message}");
            ExitCode::from(2)
        }
    }
}
