//! What each command does, and how the process ends.
//!
//! Exit codes: 0 when the command did its job and (for `check` and
//! `cases validate`) everything passed, (for `explore`) every game was
//! played as the reference plays it; 1 when a check found failures or
//! exploring found a difference; 2
//! when referee itself could not do its job (bad arguments, a missing
//! submission, an unusable case folder), with a message saying why.

pub mod cases;
pub mod check;
pub mod doctor;
pub mod explore;
pub mod grade;
pub mod gradescope;
pub mod merge;
pub mod play;
pub mod record;

/// A command's failure to do its job, shown as `referee: <message>`.
pub type Failure = String;

pub use referee::text::points;

/// Loads the suite in `dir` and checks that it is for `game` when one was
/// given. A suite with a broken case is refused with every problem
/// listed, before anything is graded: skipping the case would quietly
/// change every student's grade. Shared by the commands that grade.
fn load_suite(
    dir: &std::path::Path,
    game: Option<reference::Game>,
) -> Result<referee::case::Suite, Failure> {
    let suite = referee::case::load_suite(dir).map_err(|p| p.to_string())?;
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
        None => referee::case::default_dir(game),
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
    if let Some(missing) = referee::submission::sandbox().missing() {
        referee::notice::once("protections", &missing);
    }
}
