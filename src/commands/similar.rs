//! `referee similar`: which programs of a class are alike.

use std::path::Path;
use std::process::ExitCode;

use super::Failure;
use crate::cli::SimilarArgs;
use referee::case::Suite;
use referee::class;
use referee::export::similarity;
use referee::similar::{self, behaviour::Failures, Program, Report, Skipped, Source};

/// Compares the class and writes the reports; exit 0 when they were
/// written, whatever they found.
pub fn run(args: &SimilarArgs) -> Result<ExitCode, Failure> {
    // The suite first: its own languages (`languages:`) make their
    // sources programs of the class.
    let suite = suite_of(args)?;
    let entries = class::discover(&args.class)?;
    if entries.len() < 2 {
        return Err(format!(
            "{} holds one submission, and one program has no other to be compared with: name \
             the folder holding the whole class",
            args.class
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
        .into());
    }
    let base = base_code(args, suite.as_ref())?;
    let mut programs = Vec::new();
    let mut skipped = Vec::new();
    for entry in entries {
        match similar::sources::read(&entry.path) {
            Ok(sources) => programs.push(Program {
                id: entry.id,
                sources,
            }),
            Err(why) => skipped.push(Skipped {
                id: entry.id,
                reason: why.to_string(),
            }),
        }
    }
    let ids: Vec<String> = programs.iter().map(|p| p.id.clone()).collect();
    let graded = args.results.as_deref().unwrap_or(&args.out);
    let failures = Failures::read(graded, &ids);
    if let (Some(results), None) = (&args.results, &failures) {
        eprintln!(
            "note: {} holds no results of this class's students (details/<id>.json): grade the \
             class with `referee grade --out {}` first for the failures pairs share; pairs are \
             compared by their text alone",
            results.display(),
            results.display()
        );
    }
    let report = similar::compare(&programs, &base, skipped, failures.as_ref());
    let written = similarity::write(&args.out, &report, &programs)
        .map_err(|e| format!("cannot write the reports in {}: {e}", args.out.display()))?;
    print!("{}", summary(&report, &written));
    Ok(ExitCode::SUCCESS)
}

/// The code every student was given: the `--base` files, and the suite's
/// support and starter files.
fn base_code(args: &SimilarArgs, suite: Option<&Suite>) -> Result<Vec<Source>, Failure> {
    let mut files: Vec<&Path> = args.base.iter().map(|p| p.as_path()).collect();
    if let Some(suite) = suite {
        files.extend(suite.support.iter().map(|s| s.source.as_path()));
        files.extend(suite.starter.iter().map(|s| s.as_path()));
    }
    let mut base = Vec::new();
    for file in files {
        let sources = similar::sources::read(file)
            .map_err(|why| format!("--base {}: {why}", file.display()))?;
        base.extend(sources.files);
    }
    Ok(base)
}

/// The suite `--cases` or `--game` names, if any.
fn suite_of(args: &SimilarArgs) -> Result<Option<Suite>, Failure> {
    match (&args.cases, args.game) {
        (None, None) => Ok(None),
        (cases, game) => Ok(Some(super::find_suite(cases, game.map(|g| g.0), || {
            Err("no game".into())
        })?)),
    }
}

/// What the TA reads on the terminal: the most similar pairs, what was
/// skipped, where the reports are.
fn summary(report: &Report, written: &[std::path::PathBuf]) -> String {
    let mut text = format!(
        "Compared {} programs: {} pairs share code.\n",
        report.programs.len(),
        report.pairs.len() + report.pairs_not_shown
    );
    for pair in report.pairs.iter().take(5) {
        let failures = match pair.same_failures.len() {
            0 => String::new(),
            1 => ", 1 failure alike".into(),
            n => format!(", {n} failures alike"),
        };
        text.push_str(&format!(
            "  {:.2}  {} and {}{failures}\n",
            pair.similarity, pair.a, pair.b
        ));
    }
    for cluster in &report.clusters {
        text.push_str(&format!(
            "Similar group of {}: {}\n",
            cluster.members.len(),
            cluster.members.join(", ")
        ));
    }
    for skipped in &report.skipped {
        text.push_str(&format!(
            "Not compared: {}: {}\n",
            skipped.id, skipped.reason
        ));
    }
    for program in &report.programs {
        for note in &program.notes {
            text.push_str(&format!("Note: {}: {note}\n", program.id));
        }
    }
    for path in written.iter().take(2) {
        text.push_str(&format!("Wrote {}\n", path.display()));
    }
    text
}
