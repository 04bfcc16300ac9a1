//! `referee check <submission>`: a student's view of their program on the
//! public cases.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{points, Failure};
use crate::cli::CheckArgs;
use referee::case::{self, Suite, Visibility};
use referee::diagnose::Diagnosis;
use referee::expected::ReferenceRun;
use referee::explain::{self, Room, Style};
use referee::explore::{self, Budget};
use referee::grading::{self, CaseOutcome, Expected, Graded, Prepared, Settings, Status};
use referee::submission::{self, Submission};
use referee::verdict::Verdict;
use referee::{terminal, transcript};

/// Checks one submission; exit 0 iff every case passes.
pub fn run(args: &CheckArgs) -> Result<ExitCode, Failure> {
    let style = Style::for_stdout(args.color);
    let submission = super::locate(&args.submission, &args.cases)?;
    if submission.language == submission::Language::Python {
        submission::python::warm_up();
    }
    let suite = load_suite(args, &submission)?;
    // Found again as the suite says its programs are handed in (the file
    // that starts one of several, the course's own files).
    let submission = if suite.layout == submission::Layout::default() {
        submission
    } else {
        submission::locate_in(&args.submission, &suite.layout)?
    };
    let cases: Vec<&case::Case> = if args.all {
        suite.cases.iter().collect()
    } else {
        suite.public_cases().collect()
    };
    if cases.is_empty() {
        return Err(format!(
            "{} has no {}cases to run",
            suite.dir.display(),
            if args.all { "" } else { "public " }
        )
        .into());
    }
    super::machine_ready()?;
    referee::timings::set_up_done();
    let prepared = grading::prepare(&suite, cases)?;
    let settings = Settings {
        flags: super::flags(&args.cflags, &args.cxxflags),
        feed: args.feed.into(),
        // A student checking their work hears where their program breaks
        // on the cases it fails; with --diagnose on every case it runs,
        // even one it passes by luck (a checked build costs more than the
        // check itself: see docs/performance.md).
        diagnose: match (args.diagnose, args.no_diagnose) {
            (true, _) => grading::Diagnose::Every,
            (_, true) => grading::Diagnose::Never,
            _ => grading::Diagnose::Failing,
        },
        ..Settings::default()
    };
    println!(
        "{} {} ({}, {} case{})",
        style.strong("referee check"),
        args.submission.display(),
        suite.name,
        prepared.len(),
        if prepared.len() == 1 { "" } else { "s" }
    );
    let graded = grading::grade(&submission, &suite, &prepared, &settings)?;
    // What was done for the program to build at all (a Java file named
    // otherwise than its public class), and what to change.
    for note in graded.warnings.lines().filter(|l| l.starts_with("note: ")) {
        println!("{}", referee::text::visible::safe(note.as_bytes()));
    }
    print_lines(&prepared, &graded, &style);
    if let Status::CompileError(messages) = &graded.status {
        println!(
            "\n{}",
            style.bad("Your program does not compile. The compiler said:")
        );
        for line in messages.lines() {
            println!("  {}", referee::text::visible::safe(line.as_bytes()));
        }
        return Ok(ExitCode::from(1));
    }
    // Explain the first real failure; a text-only difference only when
    // there is nothing worse.
    let outcomes = || prepared.iter().zip(&graded.outcomes);
    let failed = outcomes()
        .find(|(_, o)| !matches!(o.judgement.verdict, Verdict::Pass | Verdict::FormatDiffers))
        .or_else(|| outcomes().find(|(_, o)| o.judgement.verdict == Verdict::FormatDiffers));
    if let Some((prepared, outcome)) = failed {
        explain_failure(prepared, outcome, &suite, &args.save, &style);
        let others: Vec<String> = outcomes()
            .filter(|(p, o)| o.judgement.verdict != Verdict::Pass && !std::ptr::eq(*p, prepared))
            .filter_map(|(p, o)| match save_case(&args.save, p, o) {
                Ok(saved) => saved.map(|_| p.case.name.clone()),
                Err(e) => {
                    eprintln!("referee: warning: cannot save the transcripts: {e}");
                    None
                }
            })
            .collect();
        if !others.is_empty() {
            let line = format!(
                "The other failed cases' transcripts are in {}/: {}",
                args.save.display(),
                others.join(", ")
            );
            println!("  {}", style.dim(&line));
        }
    }
    print!(
        "{}",
        diagnoses(&graded.diagnostics, &suite, args.all, &style)
    );
    let differs = match args.explore {
        Some(games) => explore_after(args, &submission, &suite, games, &style)?,
        None => false,
    };
    if args.timings {
        eprint!(
            "{}",
            referee::timings::table(referee::timings::since_start(), settings.jobs)
        );
    }
    Ok(if failed.is_some() || differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The diagnoses, said after the cases and the failure explained. A
/// student runs `check`: a hidden case is not named, nor its input
/// shown, unless `--all` ran the hidden cases (for TAs), which shows
/// them in full anyway.
fn diagnoses(found: &[Diagnosis], suite: &Suite, all: bool, style: &Style) -> String {
    let hidden = |name: &str| {
        !all && suite
            .cases
            .iter()
            .find(|c| c.name == name)
            .is_none_or(|c| c.visibility != Visibility::Public)
    };
    explain::diagnoses::for_terminal(found, hidden, style)
}

/// `--explore`: generated games, never a case of the suite (so no hidden
/// case is given away), and the shortest one played differently, saved
/// in `<save>/explored` as a case folder to replay.
fn explore_after(
    args: &CheckArgs,
    submission: &Submission,
    suite: &Suite,
    games: usize,
    style: &Style,
) -> Result<bool, Failure> {
    let settings = explore::Settings {
        seed: args.seed,
        budget: Budget::Games(games),
        feed: args.feed.into(),
        ..explore::Settings::default()
    };
    println!(
        "\n{} ({}, seed {})",
        style.strong("Exploring generated games"),
        super::explore::budget_words(settings.budget),
        settings.seed
    );
    let flags = super::flags(&args.cflags, &args.cxxflags);
    let built = super::explore::build(submission, suite, &flags)?;
    let report = explore::explore(&built, suite, &settings)?;
    super::explore::show_report(
        &report,
        suite,
        &args.save.join("explored"),
        &args.submission,
        style,
    )
}

/// The suite named by `--cases`, or the default one for the game given
/// with `--game` or guessed from the submission.
fn load_suite(args: &CheckArgs, submission: &Submission) -> Result<Suite, Failure> {
    super::find_suite(&args.cases, args.game.map(|g| g.0), || {
        Ok(referee::games::infer_game(submission)?)
    })
}

fn print_lines(prepared: &[Prepared<'_>], graded: &Graded, style: &Style) {
    let width = prepared
        .iter()
        .map(|p| p.case.name.len())
        .max()
        .unwrap_or(0);
    for (p, outcome) in prepared.iter().zip(&graded.outcomes) {
        let verdict = outcome.judgement.verdict;
        let mark = match verdict {
            Verdict::Pass => style.good("✓"),
            Verdict::FormatDiffers => style.strong("~"),
            _ => style.bad("✗"),
        };
        let score = format!("{}/{}", points(outcome.score), points(p.case.points));
        println!(
            "  {mark} {:<width$}  {:>7}  {}",
            p.case.name,
            score,
            verdict.label()
        );
    }
    let total: f64 = prepared.iter().map(|p| p.case.points).sum();
    let count = |verdict: fn(Verdict) -> bool| {
        graded
            .outcomes
            .iter()
            .filter(|o| verdict(o.judgement.verdict))
            .count()
    };
    let failed = count(|v| !matches!(v, Verdict::Pass | Verdict::FormatDiffers));
    let format = count(|v| v == Verdict::FormatDiffers);
    let mut summary = format!(
        "Score: {}/{} points. ",
        points(graded.score()),
        points(total)
    );
    summary.push_str(&match (failed, format) {
        (0, 0) => "Every case passes.".to_string(),
        (0, f) => format!("Every case plays right; {f} print their text differently."),
        (n, 0) => format!("{n} of {} cases failed.", prepared.len()),
        (n, f) => format!(
            "{n} of {} cases failed; {f} more print their text differently.",
            prepared.len()
        ),
    });
    println!("{}", style.strong(&summary));
}

fn explain_failure(
    prepared: &Prepared<'_>,
    outcome: &CaseOutcome,
    suite: &Suite,
    save: &Path,
    style: &Style,
) {
    let case = prepared.case;
    println!(
        "\n{} {}: {}",
        style.bad("✗"),
        style.strong(&case.name),
        outcome.judgement.verdict.label()
    );
    if let Some(description) = &case.description {
        println!("  {}", style.dim(&format!("This case: {description}")));
    }
    let explanation = explain::explain_outcome(
        prepared,
        outcome,
        suite.game(),
        &suite.regions,
        style,
        Room::default(),
    );
    print!("{}", explanation.text);
    match save_case(save, prepared, outcome) {
        Ok(None) => {}
        Ok(Some((dir, files))) => {
            let dir = dir.display();
            let line = match (explanation.trimmed, files.is_empty()) {
                (true, true) => format!("(trimmed: the whole transcripts are in {dir})"),
                (false, true) => format!("The whole transcripts are in {dir}"),
                (trimmed, false) => format!(
                    "{}The whole transcripts are in {dir}; beside them {}",
                    if trimmed { "(trimmed) " } else { "" },
                    files.join(", ")
                ),
            };
            println!("  {}", style.dim(&line));
        }
        Err(e) => eprintln!("referee: warning: cannot save the transcripts: {e}"),
    }
}

/// What [`save_case`] saved: the case's folder, and what lies beside the
/// transcripts in it.
type Saved = (PathBuf, Vec<&'static str>);

/// Saves a failed case's transcripts, and its stderr and files where it
/// has them, to `<save>/<case>/`; nothing for a case without a run.
fn save_case(
    save: &Path,
    prepared: &Prepared<'_>,
    outcome: &CaseOutcome,
) -> std::io::Result<Option<Saved>> {
    let (Expected::Play(expected), Some(run)) = (&prepared.expected, &outcome.run) else {
        return Ok(None);
    };
    let case = prepared.case;
    let dir = save_transcripts(save, case, expected, run)?;
    let mut files = save_errors(&dir, case, expected, run)?;
    files.extend(save_files(&dir, case, expected, &outcome.files)?);
    Ok(Some((dir, files)))
}

/// Writes the reference's and the program's terminal transcripts of a
/// failed case to `<save>/<case>/`.
fn save_transcripts(
    save: &Path,
    case: &referee::case::Case,
    expected: &ReferenceRun,
    run: &referee::run::RunResult,
) -> std::io::Result<PathBuf> {
    let dir = save.join(&case.name);
    fs::create_dir_all(&dir)?;
    let expected = terminal::reference_lines(expected);
    let actual = terminal::run_lines(run);
    // The command the case runs, as a student types it, starts each
    // transcript, as it would on a terminal.
    let command = case
        .command
        .as_ref()
        .map(|c| format!("$ {c}\n"))
        .unwrap_or_default();
    let with_command = |text: String| format!("{command}{text}");
    fs::write(
        dir.join("expected.txt"),
        with_command(transcript::printable(&expected)),
    )?;
    fs::write(
        dir.join("yours.txt"),
        with_command(transcript::printable(&actual)),
    )?;
    Ok(dir)
}

/// A removal's result, where there being nothing to remove is fine.
fn absent_is_fine(removed: std::io::Result<()>) -> std::io::Result<()> {
    match removed {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Writes what each program wrote to stderr beside the transcripts, for
/// a case that keeps stderr apart (its bytes as written, already
/// bounded by the case's output limit); removes any kept from an
/// earlier check otherwise.
fn save_errors(
    dir: &Path,
    case: &referee::case::Case,
    expected: &ReferenceRun,
    run: &referee::run::RunResult,
) -> std::io::Result<Vec<&'static str>> {
    let names = ["expected-stderr.txt", "yours-stderr.txt"];
    if case.stderr == referee::case::Stderr::Together {
        for name in names {
            absent_is_fine(fs::remove_file(dir.join(name)))?;
        }
        return Ok(Vec::new());
    }
    fs::write(dir.join(names[0]), expected.transcript.errors())?;
    fs::write(dir.join(names[1]), run.transcript.errors())?;
    Ok(vec![
        "expected-stderr.txt and yours-stderr.txt (what each wrote to stderr)",
    ])
}

/// Writes a public case's files beside its transcripts: the files it
/// gave the run (`given/`), the reference's output files
/// (`expected-files/`) and the program's (`actual-files/`, each already
/// bounded by the case's output limit when it was read). A hidden
/// case's files are never written: a student must not see them.
fn save_files(
    dir: &Path,
    case: &referee::case::Case,
    expected: &ReferenceRun,
    left: &[referee::judge::outputs::LeftFile],
) -> std::io::Result<Vec<&'static str>> {
    // A file kept from an earlier check would pass for this run's.
    for folder in ["given", "expected-files", "actual-files"] {
        absent_is_fine(fs::remove_dir_all(dir.join(folder)))?;
    }
    let mut saved = Vec::new();
    if case.visibility != Visibility::Public {
        return Ok(saved);
    }
    for file in &case.files {
        let to = dir.join("given").join(&file.place);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::copy(&file.source, to)?;
    }
    if !case.files.is_empty() {
        saved.push("given/ (the files the case gave your program)");
    }
    let theirs = expected.files.iter().map(|(n, b)| (n, b.as_slice()));
    let yours = left.iter().filter_map(|f| Some((&f.name, f.bytes()?)));
    for (folder, files, said) in [
        (
            "expected-files",
            theirs.collect::<Vec<_>>(),
            "expected-files/ (the files the reference wrote)",
        ),
        (
            "actual-files",
            yours.collect(),
            "actual-files/ (the files your program wrote)",
        ),
    ] {
        if files.is_empty() {
            continue;
        }
        fs::create_dir_all(dir.join(folder))?;
        for (name, bytes) in files {
            fs::write(dir.join(folder).join(name), bytes)?;
        }
        saved.push(said);
    }
    Ok(saved)
}
