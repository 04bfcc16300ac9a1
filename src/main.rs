//! The `referee` command: parses the command line, runs the command, and
//! turns its outcome into the process's exit code (see
//! [`commands`] for the codes).

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod commands;

use cli::{CasesAction, Cli, Command};
use commands::{
    cases, check, classroom, doctor, explore, grade, gradescope, manual, merge, new, play, record,
    similar,
};

/// Parses the command line, runs the command, and turns its outcome into
/// the process's exit code.
fn main() -> ExitCode {
    referee::timings::process_started();
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Command::Check(_)
            | Command::Grade(_)
            | Command::Gradescope(_)
            | Command::Classroom(_)
            | Command::Explore(_)
            | Command::Doctor { .. }
            | Command::New(_)
    ) {
        // Before any thread starts: a private namespace for working folders.
        referee::sandbox::isolate_process();
    }
    if !matches!(cli.command, Command::Play { .. }) {
        // Like other command-line tools, end quietly when the reader of
        // our output goes away (`referee cases list | head`). Referee
        // never writes to a pipe of its own children. (`play` handles a
        // closed pipe itself and exits 0, as a finished game does.)
        // SAFETY: setting a signal's disposition before any thread starts.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let result = match cli.command {
        Command::Play { game } => play::run(game.0),
        Command::Check(args) => check::run(&args),
        Command::Grade(args) => grade::run(&args),
        Command::Gradescope(args) => gradescope::run(&args),
        Command::Classroom(args) => classroom::run(&args),
        Command::Merge {
            out,
            shards,
            force,
            allow_missing,
        } => merge::run(&out, &shards, force, allow_missing),
        Command::Explore(args) => explore::run(&args),
        Command::Similar(args) => similar::run(&args),
        Command::Doctor { cases } => doctor::run(cases.as_deref()),
        Command::New(args) => new::run(&args),
        Command::Cases { action } => match action {
            CasesAction::Validate { dirs } => cases::validate(&dirs),
            CasesAction::List { dirs, markdown } => cases::list(&dirs, markdown),
            CasesAction::Update { dirs, accept } => cases::update(&dirs, accept),
            CasesAction::Record(args) => record::run(&args),
        },
        Command::Completions { shell } => manual::completions(shell),
        Command::Man { dir } => manual::pages(&dir),
    };
    referee::sandbox::shutdown();
    referee::case::builtin::remove();
    result.unwrap_or_else(|failure| commands::report(&failure))
}
