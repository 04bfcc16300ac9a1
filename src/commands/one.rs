//! Grading one student's submission on every case of a suite, hidden ones
//! too: what `referee gradescope` and `referee classroom` share. The
//! results are built as `grade` builds a class's, so that each command's
//! score is the one `grade` gives the same submission.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use reference::Game;

use super::Failure;
use referee::batch::{self, Batch, Progress};
use referee::case::Suite;
use referee::class::Entry;
use referee::fault::Fault;
use referee::grading::{self, Diagnose, Settings};
use referee::results::{self, ClassResults, Status, SubmissionResult, SuiteInfo};
use referee::submission;

/// The id the one submission gets.
pub const ID: &str = "submission";

/// What to grade, and how.
pub struct One<'a> {
    /// The submission: a program, or a folder holding one.
    pub submission: &'a Path,
    /// `--cases`.
    pub cases: &'a Option<PathBuf>,
    /// `--game`.
    pub game: Option<Game>,
    /// Which cases run again from a checked build.
    pub diagnose: Diagnose,
    /// The working folder's prefix (`referee-gradescope-`).
    pub prefix: &'a str,
}

impl One<'_> {
    /// Finds the game and the cases, and grades the submission on all of
    /// them.
    pub fn grade(&self) -> Result<ClassResults, Failure> {
        let suite = self.load_suite()?;
        if suite.cases.is_empty() {
            let dir = suite.dir.display();
            return Err(format!("{dir} has no cases to grade").into());
        }
        let out = tempfile::Builder::new()
            .prefix(self.prefix)
            .tempdir()
            .map_err(|e| format!("cannot make a working folder: {e}"))?;
        super::machine_ready()?;
        let prepared = grading::prepare(&suite, &suite.cases)?;
        let stop = AtomicBool::new(false);
        let batch = Batch {
            suite: &suite,
            prepared: &prepared,
            settings: Settings {
                diagnose: self.diagnose,
                ..Settings::default()
            },
            jobs: 1,
            out: out.path(),
            force: true,
            stop: &stop,
            explore: None,
            explain: referee::explain::plain::FOR_RESULTS,
        };
        let entry = Entry {
            id: ID.into(),
            name: ID.into(),
            lms: None,
            path: self.submission.to_path_buf(),
        };
        let graded = batch
            .run(std::slice::from_ref(&entry), &Quiet)
            .iter()
            .map(|result| batch::whole_result(out.path(), result))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|why| format!("cannot read back the results of grading: {why}"))?;
        Ok(batch::class_results(&suite, graded, None))
    }

    /// The submission graded, or results that say why it could not be:
    /// what went wrong before any grading is the student's to fix (no
    /// program, it does not compile: no failure returned, the command
    /// exits 0) or referee's or the suite's (the failure is returned
    /// beside the results, for the command to exit 2 after writing them).
    pub fn results(&self) -> (ClassResults, Option<Failure>) {
        match self.grade() {
            Ok(results) => (results, None),
            Err(failure) if failure.fault() == Fault::Student => {
                (self.ungraded(failure.to_string()), None)
            }
            Err(failure) => {
                let student = format!(
                    "the autograder could not run ({failure}). Please tell your instructor."
                );
                (self.ungraded(student), Some(failure))
            }
        }
    }

    /// The one line a command prints of `results`: the submission, its
    /// points and its status.
    pub fn said(&self, results: &ClassResults) -> Option<String> {
        let s = results.submissions.first()?;
        Some(format!(
            "{}: {}/{} points ({}).",
            self.submission.display(),
            super::points(s.score),
            super::points(s.max_score),
            referee::export::view::status_id(s.status),
        ))
    }

    /// The suite of `--cases`, else of `--game`, else of the game the
    /// submitted program plays.
    fn load_suite(&self) -> Result<Suite, Failure> {
        super::find_suite(self.cases, self.game, || infer_game(self.submission))
    }

    /// Results for a submission that could not be graded at all: no
    /// cases ran, and `message` says why.
    pub fn ungraded(&self, message: String) -> ClassResults {
        let game = self
            .game
            .map_or_else(|| "unknown".to_string(), |g| g.to_string());
        ClassResults {
            game: game.clone(),
            schema_version: results::SCHEMA_VERSION,
            referee_version: env!("CARGO_PKG_VERSION").to_string(),
            suite: SuiteInfo {
                title: game,
                max_score: 0.0,
                cases: Vec::new(),
                ignored: Vec::new(),
            },
            shard: None,
            class: None,
            missing: None,
            submissions: vec![SubmissionResult {
                id: ID.into(),
                name: None,
                lms: None,
                path: self.submission.display().to_string(),
                score: 0.0,
                max_score: 0.0,
                status: Status::Error,
                message: Some(message),
                fingerprint: String::new(),
                cases: Vec::new(),
                exploration: None,
                diagnostics: Vec::new(),
                diagnosis_trouble: None,
                brief: None,
            }],
        }
    }
}

/// The game the submitted program plays: a submission with no program
/// is the student's to fix; a program referee cannot place is a setup
/// problem (the command should name the game): the errors say whose.
fn infer_game(path: &Path) -> Result<Game, Failure> {
    let found = submission::locate(path)?;
    Ok(referee::games::infer_game(&found)?)
}

/// No progress to show for one submission.
struct Quiet;

impl Progress for Quiet {
    fn finished(&self, _: &SubmissionResult, _: bool) {}
}
