//! `referee cases validate|list|update`: keeping case folders sound.

use std::path::PathBuf;
use std::process::ExitCode;

use similar::TextDiff;

use super::{points, Failure};
use crate::case::{self, pin, Problem, Suite};

/// The suites named, or every suite under the default root. A named
/// folder without a `suite.yaml` but with suites inside counts as a root.
fn suites(dirs: &[PathBuf]) -> Result<Vec<Result<Suite, Problem>>, Failure> {
    let dirs = if dirs.is_empty() {
        vec![case::default_root()?]
    } else {
        dirs.to_vec()
    };
    let mut found = Vec::new();
    for dir in dirs {
        if dir.join(case::SUITE_FILE).is_file() || !dir.is_dir() {
            found.push(case::load_suite(&dir));
            continue;
        }
        let mut inner: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| format!("{}: cannot list it: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join(case::SUITE_FILE).is_file())
            .collect();
        if inner.is_empty() {
            found.push(case::load_suite(&dir));
        }
        inner.sort();
        found.extend(inner.iter().map(|d| case::load_suite(d)));
    }
    Ok(found)
}

/// Every file loads and every pin matches the reference; exit 0 iff so.
pub fn validate(dirs: &[PathBuf]) -> Result<ExitCode, Failure> {
    let mut problems = 0;
    let mut checked = 0;
    for suite in suites(dirs)? {
        let suite = match suite {
            Ok(suite) => suite,
            Err(problem) => {
                println!("error: {problem}");
                problems += 1;
                continue;
            }
        };
        for problem in &suite.problems {
            println!("error: {problem}");
            problems += 1;
        }
        for case in &suite.cases {
            checked += 1;
            if let Some(problem) = pin_problem(&suite, case) {
                println!("error: {problem}");
                problems += 1;
            }
        }
    }
    if problems == 0 {
        println!("{checked} cases, all valid, all pinned transcripts match the reference.");
        Ok(ExitCode::SUCCESS)
    } else {
        println!(
            "{problems} problem{} in {checked} cases.",
            if problems == 1 { "" } else { "s" }
        );
        Ok(ExitCode::from(1))
    }
}

fn pin_problem(suite: &Suite, case: &case::Case) -> Option<Problem> {
    let update = format!(
        "run `referee cases update {}` to pin it",
        suite.dir.display()
    );
    match pin::check(case, suite.game) {
        Ok(pin::PinState::Matches) => None,
        Ok(pin::PinState::Missing) => Some(Problem::new(
            &case.file,
            format!(
                "no pinned transcript ({}); {update}",
                case.pin_file().display()
            ),
        )),
        Ok(pin::PinState::Differs { pinned, current }) => {
            let pinned = String::from_utf8_lossy(&pinned);
            let current = String::from_utf8_lossy(&current);
            let diff = TextDiff::from_lines(pinned.as_ref(), current.as_ref())
                .unified_diff()
                .context_radius(2)
                .header("pinned", "reference now")
                .to_string();
            Some(Problem::new(
                &case.file,
                format!(
                    "the reference no longer prints the pinned transcript; if the change is \
                     intended, {update}\n{diff}"
                ),
            ))
        }
        Err(e) => Some(Problem::new(
            &case.pin_file(),
            format!("cannot read it: {e}"),
        )),
    }
}

/// A table of cases per suite.
pub fn list(dirs: &[PathBuf], markdown: bool) -> Result<ExitCode, Failure> {
    let mut status = ExitCode::SUCCESS;
    for suite in suites(dirs)? {
        let suite = match suite {
            Ok(suite) => suite,
            Err(problem) => {
                eprintln!("referee: {problem}");
                status = ExitCode::from(2);
                continue;
            }
        };
        if markdown {
            print!("{}", markdown_table(&suite));
        } else {
            print_suite(&suite);
        }
    }
    Ok(status)
}

/// A suite as a Markdown section: each case with its points, visibility,
/// rubric item and description, and the points per rubric item.
pub fn markdown_table(suite: &Suite) -> String {
    let public: f64 = suite.public_cases().map(|c| c.points).sum();
    let mut text = format!(
        "## {} (`{}`)\n\n{} cases, {} points: {} public, {} hidden.\n\n",
        suite.title.as_deref().unwrap_or(suite.game.id()),
        suite.game,
        suite.cases.len(),
        points(suite.max_points()),
        points(public),
        points(suite.max_points() - public)
    );
    let mut rubric: Vec<(String, f64)> = Vec::new();
    for case in &suite.cases {
        let item = case.rubric.clone().unwrap_or_else(|| "(none)".into());
        match rubric.iter_mut().find(|(name, _)| *name == item) {
            Some((_, total)) => *total += case.points,
            None => rubric.push((item, case.points)),
        }
    }
    rubric.sort_by(|a, b| a.0.cmp(&b.0));
    text.push_str("| rubric item | points |\n|---|---:|\n");
    for (item, total) in &rubric {
        text.push_str(&format!("| {} | {} |\n", escape_cell(item), points(*total)));
    }
    text.push_str("\n| case | points | visibility | compare | rubric item | what it checks |\n|---|---:|---|---|---|---|\n");
    for case in &suite.cases {
        text.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            case.name,
            points(case.points),
            case.visibility,
            if case.call.is_some() {
                "function call".to_string()
            } else {
                case.compare.describe()
            },
            escape_cell(case.rubric.as_deref().unwrap_or("")),
            escape_cell(case.description.as_deref().unwrap_or(""))
        ));
    }
    text.push('\n');
    text
}

fn escape_cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn print_suite(suite: &Suite) {
    let public: f64 = suite.public_cases().map(|c| c.points).sum();
    let public_cases = suite.public_cases().count();
    println!(
        "{} ({}): {} cases ({} public, {} hidden), {} points ({} public, {} hidden)",
        suite.dir.display(),
        suite.game,
        suite.cases.len(),
        public_cases,
        suite.cases.len() - public_cases,
        points(suite.max_points()),
        points(public),
        points(suite.max_points() - public)
    );
    let width = suite
        .cases
        .iter()
        .map(|c| c.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    println!("  {:<width$}  points  visibility  inputs  compare", "case");
    // A function-level case shows its call where a game shows its inputs.
    for case in &suite.cases {
        println!(
            "  {:<width$}  {:>6}  {:<10}  {:>6}  {}{}",
            case.name,
            points(case.points),
            case.visibility.to_string(),
            case.call
                .as_ref()
                .map_or(case.input.len().to_string(), |c| c.describe()),
            case.compare.describe(),
            case.description
                .as_ref()
                .map(|d| format!("  — {d}"))
                .unwrap_or_default()
        );
    }
    for problem in &suite.problems {
        println!("  not loaded: {problem}");
    }
}

/// Re-pins every case whose pin differs from the reference.
pub fn update(dirs: &[PathBuf]) -> Result<ExitCode, Failure> {
    let mut status = ExitCode::SUCCESS;
    let mut changed = 0;
    for suite in suites(dirs)? {
        let suite = match suite {
            Ok(suite) => suite,
            Err(problem) => {
                eprintln!("referee: {problem}");
                status = ExitCode::from(2);
                continue;
            }
        };
        for problem in &suite.problems {
            eprintln!("referee: skipped: {problem}");
            status = ExitCode::from(1);
        }
        for case in &suite.cases {
            match pin::update(case, suite.game) {
                Ok(true) => {
                    println!("pinned {}", case.pin_file().display());
                    changed += 1;
                }
                Ok(false) => {}
                Err(e) => {
                    return Err(format!(
                        "{}: cannot write it: {e}",
                        case.pin_file().display()
                    ))
                }
            }
        }
    }
    println!(
        "{changed} transcript{} re-pinned.",
        if changed == 1 { "" } else { "s" }
    );
    Ok(status)
}
