//! `referee classroom`: grade a student's repository inside GitHub
//! Classroom's autograding workflow, for GitHub's grading reporter.
//!
//! The submission is graded as `gradescope` grades one (every case of
//! the suite, see [`super::one`]), and [`referee::export::classroom`]
//! makes what GitHub reads of it: the reporter's payload, appended as a
//! `result=<base64 of JSON>` line to the file `$GITHUB_OUTPUT` names
//! (never written over: other steps' outputs are there too), a Markdown
//! summary appended to `$GITHUB_STEP_SUMMARY`, and the diagnoses as
//! `::warning` annotations on the student's code. Where `$GITHUB_OUTPUT`
//! is not set (a student's own machine), the payload is printed, with a
//! line saying what it is for.
//!
//! Exit codes are `gradescope`'s: 0 when the student's program was graded
//! or is at fault (no program, it does not compile: the payload's status
//! is then `error`, with the reason), 2 when referee or the suite is (no
//! such case folder, a broken case, a file of GitHub's it cannot write),
//! with a payload of status `error` wherever one can still be written.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::one::One;
use super::Failure;
use crate::cli::ClassroomArgs;
use referee::case::Visibility;
use referee::export::classroom::{self, Classroom};
use referee::export::Exporter;
use referee::grading::Diagnose;
use referee::results::ClassResults;

/// Grades the repository and hands the results to GitHub.
pub fn run(args: &ClassroomArgs) -> Result<ExitCode, Failure> {
    let one = One {
        submission: &args.submission,
        cases: &args.cases,
        game: args.game.map(|g| g.0),
        diagnose: Diagnose::PublicAndFailing,
        prefix: "referee-classroom-",
    };
    let (results, failure) = one.results();
    note_hidden_cases(args, &results);
    let written = write(args, &results);
    if let Some(said) = one.said(&results) {
        println!("{said}");
    }
    match (failure, written) {
        (Some(failure), _) | (None, Err(failure)) => Err(failure),
        (None, Ok(())) => Ok(ExitCode::SUCCESS),
    }
}

/// What GitHub reads: the payload, the summary and the annotations. The
/// payload is printed wherever it could not be written, so that the log
/// keeps it.
fn write(args: &ClassroomArgs, results: &ClassResults) -> Result<(), Failure> {
    let mut exporter = Classroom {
        source_dir: source_dir(&args.submission),
    };
    let files = exporter.files(results).map_err(|e| e.to_string())?;
    let file = |name: &str| {
        files
            .iter()
            .find(|(p, _)| p == Path::new(name))
            .map(|(_, b)| b.as_slice())
            .unwrap_or_default()
    };
    let line = format!("result={}\n", classroom::base64(file(classroom::PAYLOAD)));
    if in_actions() {
        print!("{}", String::from_utf8_lossy(file(classroom::ANNOTATIONS)));
    }
    let summary = match env_path("GITHUB_STEP_SUMMARY") {
        Some(path) => append(&path, "GITHUB_STEP_SUMMARY", file(classroom::SUMMARY)),
        None => Ok(()),
    };
    let payload = match env_path("GITHUB_OUTPUT") {
        Some(path) => append(&path, "GITHUB_OUTPUT", line.as_bytes()),
        None => {
            println!(
                "GITHUB_OUTPUT is not set (not in a GitHub Actions step), so here is the \
                 line GitHub Classroom's grading reporter would read from this step's \
                 `result` output:"
            );
            print!("{line}");
            Ok(())
        }
    };
    if payload.is_err() {
        println!("The line GitHub Classroom's grading reporter would have read:");
        print!("{line}");
    }
    payload.and(summary)
}

/// Adds `bytes` to the end of the file of GitHub's at `path` (named by
/// the variable `variable`), making it if missing.
fn append(path: &Path, variable: &str, bytes: &[u8]) -> Result<(), Failure> {
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| {
            Failure::Message(format!(
                "{}: cannot add to it ({e}): {variable} names it, and GitHub Actions sets \
                 {variable} to a file the step can write. Run referee classroom in a step of \
                 its own, or unset {variable} to have the results printed instead.",
                path.display()
            ))
        })
}

/// The non-empty value of environment variable `name`, as a path.
fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// Whether referee runs in a GitHub Actions step, whose log reads
/// workflow commands (annotations).
fn in_actions() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true")
}

/// The repository's root: `$GITHUB_WORKSPACE`, else the current folder.
fn workspace() -> Option<PathBuf> {
    env_path("GITHUB_WORKSPACE")
        .or_else(|| std::env::current_dir().ok())
        .and_then(|p| p.canonicalize().ok())
}

/// The folder holding the submission's program, relative to the
/// repository's root, ending in `/` (`""` for the root, or where it is
/// not inside the repository): where its diagnoses' files are.
fn source_dir(submission: &Path) -> String {
    let Ok(found) = referee::submission::locate(submission) else {
        return String::new();
    };
    let folder = if found.file.is_dir() {
        found.file
    } else {
        found
            .file
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    };
    let (Some(root), Ok(folder)) = (workspace(), folder.canonicalize()) else {
        return String::new();
    };
    match folder.strip_prefix(&root) {
        Ok(relative) if !relative.as_os_str().is_empty() => {
            format!("{}/", relative.to_string_lossy())
        }
        _ => String::new(),
    }
}

/// Says, on stderr (for the instructor reading the log), that hidden
/// cases in the student's own repository are not hidden from them.
fn note_hidden_cases(args: &ClassroomArgs, results: &ClassResults) {
    let hidden = results
        .suite
        .cases
        .iter()
        .filter(|c| c.visibility == Visibility::Hidden)
        .count();
    let (Some(cases), Some(root)) = (&args.cases, workspace()) else {
        return;
    };
    let inside = cases.canonicalize().is_ok_and(|c| c.starts_with(&root));
    if hidden > 0 && inside {
        eprintln!(
            "referee: note: {} holds {hidden} hidden case{} inside the repository, where \
             its student can read {}: referee names none of them in what it writes, but \
             keep hidden cases out of students' repositories (see docs/classroom.md).",
            cases.display(),
            if hidden == 1 { "" } else { "s" },
            if hidden == 1 { "it" } else { "them" }
        );
    }
}
