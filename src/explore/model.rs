//! What exploring works with: the task a generated game sets, a game's
//! model for generating and shrinking games, the settings, and what a
//! search finds.

use std::time::Duration;

use crate::case::Case;
use crate::generate::Task;
use crate::grading::{CaseOutcome, Expected};
use crate::run::Feed;
use crate::verdict::Verdict;

/// How far to explore.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many games at most: the same games, and the same result,
    /// everywhere.
    Games(usize),
    /// Games until this much time has gone by: the same games in the same
    /// order, as many as the machine plays in the time.
    Time(Duration),
}

/// How to explore.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The seed the games are made from.
    pub seed: u64,
    /// How far to go.
    pub budget: Budget,
    /// Games played at once.
    pub jobs: usize,
    /// How input is given (as in grading).
    pub feed: Feed,
    /// Runs the shrinker may make at most (counted as if one at a time,
    /// so that the result does not depend on `jobs`).
    pub shrink_runs: usize,
}

/// The games explored when no budget is given.
pub const DEFAULT_GAMES: usize = 2000;

/// The seed when none is given.
pub const DEFAULT_SEED: u64 = 0;

/// The most runs a shrink makes: enough for a 36-move game; a program
/// that runs out of time on every game would otherwise take hours.
pub const SHRINK_RUNS: usize = 600;

/// The most runs a shrink makes when the game found runs out of time:
/// each run that still does takes the whole time limit.
pub const TIMEOUT_SHRINK_RUNS: usize = 12;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: DEFAULT_SEED,
            budget: Budget::Games(DEFAULT_GAMES),
            jobs: crate::sandbox::cpus::parallelism(),
            feed: Feed::Interactive,
            shrink_runs: SHRINK_RUNS,
        }
    }
}

/// A game the program played differently, shrunk.
#[derive(Clone, Debug)]
pub struct Found {
    /// Which generated game it was (from 0).
    pub index: usize,
    /// The generated game in a few words, before shrinking.
    pub generated: String,
    /// The minimal game.
    pub task: Task,
    /// The minimal game in a few words.
    pub described: String,
    /// Its moves (lines typed, turns, or pieces on a called board).
    pub moves: usize,
    /// The case that plays it, with the suite's settings.
    pub case: Case,
    /// What the reference did on it.
    pub expected: Expected,
    /// How the program did on it.
    pub outcome: CaseOutcome,
    /// Runs the shrinker made.
    pub shrink_runs: usize,
}

/// What exploring found.
#[derive(Clone, Debug)]
pub struct Report {
    /// What was explored: the game's id, or the suite's name.
    pub game: String,
    /// The seed.
    pub seed: u64,
    /// Games played: up to and including the one that differed, or all.
    pub games: usize,
    /// Time taken, shrinking included.
    pub elapsed: Duration,
    /// The first game played differently, shrunk; `None` when every game
    /// was played as the reference plays it.
    pub found: Option<Found>,
}

/// Why exploring could not be done: the grader's trouble, never the
/// program's (what the program does is in the [`Report`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The suite's `suite.yaml` could not be used for generated games.
    #[error("cannot use the settings of {suite} for generated games: {why}")]
    Suite {
        /// The suite's folder.
        suite: String,
        /// What went wrong.
        why: String,
    },
    /// A run could not be made (no sandbox, no process to spare).
    #[error("{0}")]
    Run(String),
    /// A case file could not be written.
    #[error("{path}: cannot write it: {source}")]
    Write {
        /// The file or folder.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The folder to save in holds a suite of another game, or a broken
    /// one.
    #[error("{0}")]
    Folder(String),
    /// The suite's generator is missing or does not build.
    #[error("{0}")]
    Generator(String),
    /// The suite's generator failed on a seed.
    #[error(transparent)]
    Generated(#[from] GeneratorFailure),
    /// The reference could not say what a game expects (its program
    /// does not build, or fails on the game).
    #[error(transparent)]
    Reference(#[from] crate::oracle::Error),
    /// Input cannot be given one line at a time when the program waits.
    #[error(
        "exploring needs input typed one line each time the program waits for it, and {0}: a \
         generated game cut short would reach the end of its input, which the handouts leave \
         open (run `referee doctor` to see how this machine watches programs)"
    )]
    Feed(&'static str),
}

impl Error {
    /// Whose fault it is: the suite's when its settings cannot make
    /// generated games, the grader's otherwise.
    pub fn fault(&self) -> crate::fault::Fault {
        match self {
            Error::Suite { .. } | Error::Generator(_) | Error::Generated(_) => {
                crate::fault::Fault::Suite
            }
            Error::Reference(e) => e.fault(),
            _ => crate::fault::Fault::Grader,
        }
    }
}

/// How a suite's generator failed on one seed: the suite's trouble,
/// each saying what the generator must do.
#[derive(Clone, Debug, thiserror::Error)]
pub enum GeneratorFailure {
    /// It could not be started (no sandbox, no process to spare).
    #[error("cannot run the generator {name}: {why}")]
    NotRun {
        /// The generator's file name.
        name: String,
        /// Why.
        why: String,
    },
    /// It did not exit with 0 after printing.
    #[error(
        "the generator {name} {what} for seed {seed}: it must print one case's input lines \
         and exit with 0 (try `{name} {seed}` yourself)"
    )]
    Failed {
        /// The generator's file name.
        name: String,
        /// What it did ("exited with status 1").
        what: String,
        /// The seed it was given.
        seed: u64,
    },
    /// It printed bytes that are not UTF-8.
    #[error("the generator {name} printed bytes that are not text for seed {seed}")]
    NotText {
        /// The generator's file name.
        name: String,
        /// The seed it was given.
        seed: u64,
    },
    /// It printed a line no terminal takes.
    #[error(
        "the generator {name} printed a line of {length} bytes for seed {seed} (line {line}); \
         a terminal takes lines of at most {most} bytes"
    )]
    LongLine {
        /// The generator's file name.
        name: String,
        /// The seed it was given.
        seed: u64,
        /// The line's length, in bytes.
        length: usize,
        /// Its number, from 1.
        line: usize,
        /// The longest a line may be.
        most: usize,
    },
}

/// Whether a program's play of a game counts as different: every
/// verdict but a pass (a game-mode case's format difference is a pass in
/// play).
pub fn differs(outcome: &CaseOutcome) -> bool {
    !matches!(
        outcome.judgement.verdict,
        Verdict::Pass | Verdict::FormatDiffers
    )
}
