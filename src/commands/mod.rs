//! What each command does, and how the process ends.
//!
//! Exit codes: 0 when the command did its job and (for `check` and
//! `cases validate`) everything passed, (for `explore`) every game was
//! played as the reference plays it; 1 when a check found failures or
//! exploring found a difference; 2
//! when referee itself could not do its job (bad arguments, a missing
//! submission, an unusable case folder), with a message saying why.

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{CasesAction, Cli, Command};

mod cases;
mod check;
mod doctor;
mod explore;
mod grade;
mod gradescope;
mod merge;
mod play;
mod record;

/// A command's failure to do its job, shown as `referee: <message>`.
pub type Failure = String;

/// Parses the command line, runs the command, and turns its outcome into
/// the process's exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Command::Check(_)
            | Command::Grade(_)
            | Command::Gradescope(_)
            | Command::Explore(_)
            | Command::Doctor
    ) {
        // Before any thread starts: a private namespace for working folders.
        crate::sandbox::isolate_process();
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
        Command::Merge { out, shards, force } => merge::run(&out, &shards, force),
        Command::Explore(args) => explore::run(&args),
        Command::Doctor => doctor::run(),
        Command::Cases { action } => match action {
            CasesAction::Validate { dirs } => cases::validate(&dirs),
            CasesAction::List { dirs, markdown } => cases::list(&dirs, markdown),
            CasesAction::Update { dirs } => cases::update(&dirs),
            CasesAction::Record(args) => record::run(&args),
        },
    };
    crate::sandbox::shutdown();
    crate::case::builtin::remove();
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("referee: {message}");
            ExitCode::from(2)
        }
    }
}

pub use crate::text::points;

/// Loads the suite in `dir` and checks that it is for `game` when one was
/// given. A suite with a broken case is refused with every problem
/// listed, before anything is graded: skipping the case would quietly
/// change every student's grade. Shared by the commands that grade.
fn load_suite(
    dir: &std::path::Path,
    game: Option<reference::Game>,
) -> Result<crate::case::Suite, Failure> {
    let suite = crate::case::load_suite(dir).map_err(|p| p.to_string())?;
    if let Some(game) = game.filter(|g| *g != suite.game) {
        return Err(format!(
            "--game {game} was given, but the cases in {} are for {}: name the cases of \
             {game} with --cases, or give --game {}",
            dir.display(),
            suite.game,
            suite.game
        ));
    }
    if !suite.problems.is_empty() {
        let n = suite.problems.len();
        let list: Vec<String> = suite.problems.iter().map(|p| format!("  {p}")).collect();
        return Err(format!(
            "{} has {n} broken case file{}, so nothing was graded:\n{}\n\
             Fix {}, then run again (`referee cases validate {}` checks the folder).",
            dir.display(),
            if n == 1 { "" } else { "s" },
            list.join("\n"),
            if n == 1 { "it" } else { "them" },
            dir.display()
        ));
    }
    Ok(suite)
}

/// The suite folder named by `--cases`, else the default one for `game`.
fn suite_dir(
    cases: &Option<std::path::PathBuf>,
    game: reference::Game,
) -> Result<std::path::PathBuf, Failure> {
    match cases {
        Some(dir) => Ok(dir.clone()),
        None => crate::case::default_dir(game),
    }
}

/// `--cflags` as the list of flags it holds.
fn cflags(flags: &Option<String>) -> Option<Vec<String>> {
    flags
        .as_ref()
        .map(|f| f.split_whitespace().map(String::from).collect())
}

/// Says once, on stderr, which protections are off on this machine.
pub fn warn_about_missing_protections() {
    if let Some(missing) = crate::submission::sandbox().missing() {
        crate::notice::once("protections", &missing);
    }
}
