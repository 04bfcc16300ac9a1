//! What each command does, and how the process ends.
//!
//! Exit codes: 0 when the command did its job and (for `check` and
//! `cases validate`) everything passed; 1 when a check found failures; 2
//! when referee itself could not do its job (bad arguments, a missing
//! submission, an unusable case folder), with a message saying why.

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{CasesAction, Cli, Command};

mod cases;
mod check;
mod play;
mod record;

/// A command's failure to do its job, shown as `referee: <message>`.
pub type Failure = String;

/// Parses the command line, runs the command, and turns its outcome into
/// the process's exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play { game } => play::run(game.0),
        Command::Check(args) => check::run(&args),
        Command::Cases { action } => match action {
            CasesAction::Validate { dirs } => cases::validate(&dirs),
            CasesAction::List { dirs, markdown } => cases::list(&dirs, markdown),
            CasesAction::Update { dirs } => cases::update(&dirs),
            CasesAction::Record(args) => record::run(&args),
        },
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("referee: {message}");
            ExitCode::from(2)
        }
    }
}

/// Formats points to two decimals at most, without needless zeros
/// (`57`, `1.25`, `0.2`): sums of fractional points are not exact.
pub fn points(p: f64) -> String {
    let text = format!("{p:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
