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
use std::time::Instant;

use super::one::One;
use super::Failure;
use crate::cli::GradescopeArgs;
use referee::export::gradescope::Gradescope;
use referee::export::Exporter;
use referee::grading::Diagnose;
use referee::results::ClassResults;

/// Grades the submission and writes Gradescope's results.
pub fn run(args: &GradescopeArgs) -> Result<ExitCode, Failure> {
    let start = Instant::now();
    let one = One {
        submission: &args.submission,
        cases: &args.cases,
        game: args.game.map(|g| g.0),
        diagnose: Diagnose::Failing,
        prefix: "referee-gradescope-",
    };
    let (results, failure) = one.results();
    write(&args.results, &results, start.elapsed().as_secs())?;
    if let Some(said) = one.said(&results) {
        println!("{said} Gradescope's results: {}", args.results.display());
    }
    match failure {
        Some(failure) => Err(failure),
        None => Ok(ExitCode::SUCCESS),
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
