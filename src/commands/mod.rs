//! What each command does, and how the process ends.
//!
//! Exit codes: 0 when the command did its job and (for `check` and
//! `cases validate`) everything passed, (for `explore`) every game was
//! played as the reference plays it; 1 when a check found failures or
//! exploring found a difference; 2
//! when referee itself could not do its job (bad arguments, a missing
//! submission, an unusable case folder), with a message saying why.

use std::process::ExitCode;

use referee::fault::Fault;

pub mod cases;
pub mod check;
pub mod classroom;
pub mod doctor;
pub mod explore;
pub mod grade;
pub mod gradescope;
pub mod interrupt;
pub mod manual;
pub mod merge;
pub mod new;
pub mod one;
pub mod play;
pub mod record;
pub mod similar;

/// A command's failure to do its job: the library's typed errors, and the
/// commands' own messages. [`report`] shows it as `referee: <message>`.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The submission cannot be located or placed in a game.
    #[error(transparent)]
    Submission(#[from] referee::submission::Error),
    /// No suite could be had.
    #[error(transparent)]
    Case(#[from] referee::case::Error),
    /// Grading stopped.
    #[error(transparent)]
    Grading(#[from] referee::grading::Error),
    /// The class cannot be found.
    #[error(transparent)]
    Class(#[from] referee::class::Error),
    /// The output folder cannot take the reports.
    #[error(transparent)]
    Output(#[from] referee::export::folder::Error),
    /// Exploring could not be done.
    #[error(transparent)]
    Explore(#[from] referee::explore::Error),
    /// The reference could not say what a case expects.
    #[error(transparent)]
    Reference(#[from] referee::oracle::Error),
    /// The folders given to `merge` are not every shard of one class.
    #[error(transparent)]
    Split(#[from] referee::class::split::SplitError),
    /// Not even one worker fits in the memory the job was given.
    #[error(transparent)]
    Memory(#[from] referee::sandbox::allocation::TooLittleMemory),
    /// This machine cannot run programs as a person would: grading here
    /// would give wrong grades.
    #[error(transparent)]
    Unproven(#[from] referee::run::proof::Unproven),
    /// A suite folder that holds broken case files: the message lists them.
    #[error("{0}")]
    BrokenSuite(String),
    /// A command's own trouble: bad arguments, a file it cannot write.
    #[error("{0}")]
    Message(String),
}

impl Failure {
    /// Whose fault it is.
    pub fn fault(&self) -> Fault {
        match self {
            Failure::Submission(e) => e.fault(),
            Failure::Case(e) => e.fault(),
            Failure::Grading(e) => e.fault(),
            Failure::Class(e) => e.fault(),
            Failure::Output(e) => e.fault(),
            Failure::Explore(e) => e.fault(),
            Failure::Reference(e) => e.fault(),
            Failure::Split(e) => e.fault(),
            Failure::Message(_) | Failure::Memory(_) | Failure::Unproven(_) => Fault::Grader,
            Failure::BrokenSuite(_) => Fault::Suite,
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Message(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::Message(message.to_string())
    }
}

impl From<referee::case::Problem> for Failure {
    fn from(problem: referee::case::Problem) -> Failure {
        Failure::Case(problem.into())
    }
}

/// The exit code of a command that could not do its job, whoever's fault
/// it was (the message says what to do).
pub const UNABLE: u8 = 2;

/// The one place a failure becomes what the user sees: its message on
/// stderr, and the exit code.
pub fn report(failure: &Failure) -> ExitCode {
    eprintln!("referee: {failure}");
    ExitCode::from(UNABLE)
}

pub use referee::text::points;

/// Loads the suite in `dir` and checks that it is for `game` when one was
/// given. A suite with a broken case is refused with every problem
/// listed, before anything is graded: skipping the case would quietly
/// change every student's grade. Shared by the commands that grade.
fn load_suite(
    dir: &std::path::Path,
    game: Option<reference::Game>,
) -> Result<referee::case::Suite, Failure> {
    let suite = referee::case::load_suite(dir)?;
    // Its hidden cases stay the grader's, wherever the folder lies.
    referee::sandbox::hide_from_programs(dir);
    match (game, suite.game()) {
        (Some(game), Some(theirs)) if game != theirs => {
            return Err(Failure::Message(format!(
                "--game {game} was given, but the cases in {} are for {theirs}: name the cases \
                 of {game} with --cases, or give --game {theirs}",
                dir.display(),
            )))
        }
        (Some(game), None) => {
            return Err(Failure::Message(format!(
                "--game {game} was given, but the cases in {} have a reference program of \
                 their own ({}): leave out --game",
                dir.display(),
                suite.name
            )))
        }
        _ => {}
    }
    if !suite.problems.is_empty() {
        let n = suite.problems.len();
        let list: Vec<String> = suite.problems.iter().map(|p| format!("  {p}")).collect();
        return Err(Failure::BrokenSuite(format!(
            "{} has {n} broken case file{}, so nothing was graded:\n{}\n\
             Fix {}, then run again (`referee cases validate {}` checks the folder).",
            dir.display(),
            if n == 1 { "" } else { "s" },
            list.join("\n"),
            if n == 1 { "it" } else { "them" },
            dir.display()
        )));
    }
    Ok(suite)
}

/// The submission a command of one student works on. A source of a
/// language the suite adds is one only once that suite is loaded: where
/// `--cases` names one, it is loaded and the file looked at again.
fn locate(
    file: &std::path::Path,
    cases: &Option<std::path::PathBuf>,
) -> Result<referee::submission::Submission, Failure> {
    match referee::submission::locate(file) {
        Ok(submission) => Ok(submission),
        Err(_) if cases.is_some() => {
            let suite = find_suite(cases, None, || Err("no suite".into()))?;
            Ok(referee::submission::locate_in(file, &suite.layout)?)
        }
        Err(e) => Err(e.into()),
    }
}

/// The suite a command works on: `--cases DIR` (whatever reference it
/// has), else the suite of `--game` (`cases/<game>` here, or the one
/// built into referee), else that of the game `guess` finds (from the
/// submission, for the commands that have one).
fn find_suite(
    cases: &Option<std::path::PathBuf>,
    game: Option<reference::Game>,
    guess: impl FnOnce() -> Result<reference::Game, Failure>,
) -> Result<referee::case::Suite, Failure> {
    let dir = match (cases, game) {
        (Some(dir), _) => dir.clone(),
        (None, Some(game)) => referee::case::default_dir(game)?,
        (None, None) => referee::case::default_dir(guess()?)?,
    };
    load_suite(&dir, game)
}

/// `--cflags` and `--cxxflags` as the lists of flags they hold.
fn flags(cflags: &Option<String>, cxxflags: &Option<String>) -> referee::submission::Flags {
    let split = |flags: &Option<String>| {
        flags
            .as_ref()
            .map(|f| f.split_whitespace().map(String::from).collect())
    };
    referee::submission::Flags {
        c: split(cflags),
        cpp: split(cxxflags),
        ..Default::default()
    }
}

/// Makes sure this machine runs programs as a person would before a
/// command grades anything ([`referee::run::proof`]): where it does not,
/// nothing is graded (every grade would be wrong), and the failure says
/// what is missing. Says once, on stderr, which protections are off.
pub fn machine_ready() -> Result<(), Failure> {
    referee::run::proof::prove()?;
    if let Some(missing) = referee::submission::sandbox().missing() {
        referee::notice::once("protections", &missing);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn a_failure_keeps_the_fault_and_the_message_of_its_error() {
        let student = Failure::from(referee::submission::Error::NoProgram(PathBuf::from("bob")));
        assert_eq!(student.fault(), Fault::Student);
        assert_eq!(
            student.to_string(),
            "bob: no program in this folder (looked for a C (.c), C++ (.cpp, .cc, .cxx, .c++), \
             Python (.py) or Java (.java) file, or an executable)"
        );
        let suite = Failure::from(referee::case::Problem::new(
            std::path::Path::new("cases/x/a.yaml"),
            "no input",
        ));
        assert_eq!(suite.fault(), Fault::Suite);
        assert_eq!(suite.to_string(), "cases/x/a.yaml: no input");
        assert_eq!(Failure::from("bad --jobs").fault(), Fault::Grader);
        assert_eq!(Failure::BrokenSuite("x".into()).fault(), Fault::Suite);
    }
}
