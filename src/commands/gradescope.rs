//! `referee gradescope`: grade the one submission inside Gradescope's
//! autograder container and write Gradescope's `results.json`.
//!
//! The submission is graded as `grade` grades a class's (every case,
//! hidden ones too), and the results are written in Gradescope's format
//! by [`referee::export::gradescope`]. A `results.json` is written whatever
//! happens, because it is all Gradescope shows the student: when the
//! submission cannot be graded (no program, several programs, it does not
//! compile) its `output` says why and the command exits 0; when referee
//! itself cannot work (no such case folder, no game) it says so too, and
//! the command then exits 2.

use std::fs;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use reference::Game;

use super::{points, Failure};
use crate::cli::GradescopeArgs;
use referee::batch::{self, Batch, Progress};
use referee::case::Suite;
use referee::class::Entry;
use referee::export::gradescope::Gradescope;
use referee::export::Exporter;
use referee::fault::Fault;
use referee::grading::{self, Settings};
use referee::results::{self, ClassResults, Status, SubmissionResult, SuiteInfo};
use referee::submission;

/// The id the one submission gets.
const ID: &str = "submission";

/// Grades the submission and writes Gradescope's results.
pub fn run(args: &GradescopeArgs) -> Result<ExitCode, Failure> {
    let start = Instant::now();
    let (results, failure) = match grade(args) {
        Ok(results) => (results, None),
        // What went wrong before any grading: the student's doing (exit
        // 0), or referee's or the suite's (exit 2).
        Err(failure) if failure.fault() == Fault::Student => {
            (ungraded(args, failure.to_string()), None)
        }
        Err(failure) => {
            let student =
                format!("the autograder could not run ({failure}). Please tell your instructor.");
            (ungraded(args, student), Some(failure))
        }
    };
    write(&args.results, &results, start.elapsed().as_secs())?;
    if let Some(s) = results.submissions.first() {
        println!(
            "{}: {}/{} points ({}). Gradescope's results: {}",
            args.submission.display(),
            points(s.score),
            points(s.max_score),
            referee::export::view::status_id(s.status),
            args.results.display()
        );
    }
    match failure {
        Some(failure) => Err(failure),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Finds the game and the cases, and grades the submission on all of them.
fn grade(args: &GradescopeArgs) -> Result<ClassResults, Failure> {
    let suite = load_suite(args)?;
    if suite.cases.is_empty() {
        let dir = suite.dir.display();
        return Err(format!("{dir} has no cases to grade").into());
    }
    let out = tempfile::Builder::new()
        .prefix("referee-gradescope-")
        .tempdir()
        .map_err(|e| format!("cannot make a working folder: {e}"))?;
    super::machine_ready()?;
    let prepared = grading::prepare(&suite, &suite.cases)?;
    let stop = AtomicBool::new(false);
    let batch = Batch {
        suite: &suite,
        prepared: &prepared,
        settings: Settings::default(),
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
        path: args.submission.clone(),
    };
    let graded = batch
        .run(std::slice::from_ref(&entry), &Quiet)
        .iter()
        .map(|result| batch::whole_result(out.path(), result))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|why| format!("cannot read back the results of grading: {why}"))?;
    Ok(batch::class_results(&suite, graded, None))
}

/// The suite of `--cases`, else of `--game`, else of the game the
/// submitted program plays.
fn load_suite(args: &GradescopeArgs) -> Result<Suite, Failure> {
    super::find_suite(&args.cases, args.game.map(|g| g.0), || {
        infer_game(&args.submission)
    })
}

/// The game the submitted program plays: a submission with no program
/// is the student's to fix; a program referee cannot place is a setup
/// problem (run_autograder should name the game): the errors say whose.
fn infer_game(path: &Path) -> Result<Game, Failure> {
    let found = submission::locate(path)?;
    Ok(referee::games::infer_game(&found)?)
}

/// Results for a submission that could not be graded at all: no cases
/// ran, and `message` says why.
fn ungraded(args: &GradescopeArgs, message: String) -> ClassResults {
    let game = args
        .game
        .map_or_else(|| "unknown".to_string(), |g| g.0.to_string());
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
            path: args.submission.display().to_string(),
            score: 0.0,
            max_score: 0.0,
            status: Status::Error,
            message: Some(message),
            fingerprint: String::new(),
            cases: Vec::new(),
            exploration: None,
            diagnostics: Vec::new(),
            brief: None,
        }],
    }
}

/// Writes Gradescope's file at `path`, making its folder.
fn write(path: &Path, results: &ClassResults, seconds: u64) -> Result<(), Failure> {
    let mut exporter = Gradescope {
        execution_time: seconds,
    };
    let files = exporter.files(results).map_err(|e| e.to_string())?;
    let bytes = files.into_iter().next().map(|(_, b)| b).unwrap_or_default();
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent)
            .map_err(|e| format!("{}: cannot create it: {e}", parent.display()))?;
    }
    fs::write(path, bytes).map_err(|e| format!("{}: cannot write it: {e}", path.display()).into())
}

/// No progress to show for one submission.
struct Quiet;

impl Progress for Quiet {
    fn finished(&self, _: &SubmissionResult, _: bool) {}
}
