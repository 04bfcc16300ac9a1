//! `referee cases validate|list|update`: keeping case folders sound.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use similar::TextDiff;

use super::{points, Failure};
use referee::atomic;
use referee::case::{self, pin, Problem, Suite};
use referee::diagnose::checks::Checker;
use referee::diagnose::Diagnoses;
use referee::explain::diagnoses::Told;
use referee::oracle;
use referee::run::Feed;

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
    let mut absent = Vec::new();
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
        // A case file that could not be read is a case of the suite all
        // the same: "problems in N cases" counts it.
        checked += suite.problems.len();
        for problem in suite.rubric_problems() {
            println!(
                "error: {}: {problem}",
                suite.dir.join(case::SUITE_FILE).display()
            );
            problems += 1;
        }
        if let Some(missing) = referee::submission::missing_compilers(&suite.compile) {
            // Said once for the suite, not as every case's reference
            // failing to build.
            let file = suite.dir.join(case::SUITE_FILE);
            println!("error: {}: {missing}", file.display());
            problems += 1;
            checked += suite.cases.len();
            continue;
        }
        if !oracle::available(&suite) {
            absent.push(reference_name(&suite));
        } else if matches!(suite.reference, case::Reference::Program(_)) {
            // Its program runs to check the pins: only where runs come
            // out right.
            super::machine_ready()?;
        }
        for case in &suite.cases {
            checked += 1;
            if let Some(problem) = pin_problem(&suite, case) {
                println!("error: {problem}");
                problems += 1;
            }
        }
        for problem in reference_breaks(&suite) {
            println!("error: {problem}");
            problems += 1;
        }
    }
    if problems == 0 && absent.is_empty() {
        println!("{checked} cases, all valid, all pinned transcripts match the reference.");
        Ok(ExitCode::SUCCESS)
    } else if problems == 0 {
        println!(
            "{checked} cases, all valid, every pinned transcript readable; not checked against \
             the reference, which is not here ({}).",
            absent.join(", ")
        );
        Ok(ExitCode::SUCCESS)
    } else {
        println!(
            "{problems} problem{} in a suite of {checked} case{}.",
            if problems == 1 { "" } else { "s" },
            if checked == 1 { "" } else { "s" }
        );
        Ok(ExitCode::from(1))
    }
}

/// Where a C or C++ reference program breaks, as a check of the suite:
/// its whole-game cases run again from its checked build (as students'
/// programs are, see `referee::diagnose`). A reference that reads past an
/// array prints what it prints by luck, and its pins with it. Nothing
/// where the reference is not here, not compiled, or has no checked
/// build on this machine (which is said, and is no problem of the
/// suite's).
fn reference_breaks(suite: &Suite) -> Vec<Problem> {
    let case::Reference::Program(program) = &suite.reference else {
        return Vec::new();
    };
    if !oracle::available(suite) {
        return Vec::new();
    }
    let Ok(built) = oracle::program(suite, program, "validate") else {
        // Its build's trouble is the pins' check's to say.
        return Vec::new();
    };
    let checker = Checker::thorough(&built);
    if !checker.applies() {
        return Vec::new();
    }
    let mut found = Diagnoses::default();
    for case in suite.cases.iter().filter(|c| c.call.is_none()) {
        found.extend(checker.run_case(case, &suite.support, Feed::Interactive, suite.leaks));
    }
    found.extend(checker.compiler_found());
    if let Some(why) = checker.trouble() {
        println!(
            "note: {}: the reference was not run from a checked build: {why}",
            program.display()
        );
    }
    found
        .into_vec()
        .iter()
        .map(|d| {
            let told = Told::new(d, |_| false);
            Problem::new(
                program,
                format!(
                    "the reference breaks: {} Fix it: a fault like this can make it print \
                     otherwise on another machine, and its pins and every grade with it.",
                    told.sentence()
                ),
            )
        })
        .collect()
}

/// The reference program a suite names, as a path to show.
fn reference_name(suite: &Suite) -> String {
    match &suite.reference {
        case::Reference::Game(game) => game.to_string(),
        case::Reference::Program(program) => program.display().to_string(),
    }
}

fn pin_problem(suite: &Suite, case: &case::Case) -> Option<Problem> {
    let update = format!(
        "run `referee cases update {dir}`, review the difference, then \
         `referee cases update --accept {dir}` to pin it",
        dir = suite.dir.display()
    );
    if !oracle::available(suite) {
        return unchecked_pin_problem(suite, case);
    }
    match oracle::pin_state(suite, case) {
        Err(reference) => Some(Problem::new(&case.file, reference.to_string())),
        Ok(Ok(pin::PinState::Matches)) => None,
        Ok(Ok(pin::PinState::Missing)) => Some(Problem::new(
            &case.file,
            format!(
                "no pinned transcript ({}); {update}",
                case.pin_file().display()
            ),
        )),
        Ok(Ok(pin::PinState::Differs { pinned, current })) => {
            let diff = diff(&pinned, &current, "pinned", "reference now");
            Some(Problem::new(
                &case.file,
                format!(
                    "the reference no longer prints the pinned transcript; if the change is \
                     intended, {update}\n{diff}"
                ),
            ))
        }
        Ok(Err(e)) => Some(Problem::new(
            &case.pin_file(),
            format!("cannot read it: {e}"),
        )),
    }
}

/// Without the reference program, a pin can only be read: it must be
/// there, and of the case's input.
fn unchecked_pin_problem(suite: &Suite, case: &case::Case) -> Option<Problem> {
    if case.call.is_some() {
        return None;
    }
    let missing = || {
        format!(
            "the reference program {} is not here to make one: run `referee cases update` \
             where it is",
            reference_name(suite)
        )
    };
    match pin::read(case) {
        Ok(Some(text)) => match pin::parse_case(&text, case) {
            Ok(_) => None,
            Err(why) => Some(Problem::new(
                &case.pin_file(),
                format!(
                    "this pinned transcript cannot be used: {why}; {}",
                    missing()
                ),
            )),
        },
        Ok(None) => Some(Problem::new(
            &case.file,
            format!(
                "no pinned transcript ({}), and {}",
                case.pin_file().display(),
                missing()
            ),
        )),
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
                status = super::report(&problem.into());
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

/// A suite as a Markdown section: the points per rubric item and the
/// cases that earn them, then each case with its points, visibility,
/// comparison, rubric item and description.
pub fn markdown_table(suite: &Suite) -> String {
    let public: f64 = suite.public_cases().map(|c| c.points).sum();
    let mut text = format!(
        "## {} (`{}`)\n\n{} cases, {} points: {} public, {} hidden.\n\n",
        suite.title.as_deref().unwrap_or(&suite.name),
        suite.name,
        suite.cases.len(),
        points(suite.max_points()),
        points(public),
        points(suite.max_points() - public)
    );
    text.push_str("| rubric item | handout | cases earn | cases |\n|---|---:|---:|---|\n");
    for item in rubric_items(suite) {
        let cases: Vec<String> = item
            .cases
            .iter()
            .map(|(name, p)| format!("`{name}` {}", points(*p)))
            .collect();
        text.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            escape_cell(&item.name),
            item.handout.as_deref().unwrap_or(""),
            points(item.earned()),
            cases.join(", ")
        ));
    }
    text.push_str("\n| case | points | visibility | compare | rubric item | what it checks |\n|---|---:|---|---|---|---|\n");
    for case in &suite.cases {
        text.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            case.name,
            points(case.points),
            case.visibility,
            judged(suite, case),
            escape_cell(case.rubric.as_deref().unwrap_or("")),
            escape_cell(case.description.as_deref().unwrap_or(""))
        ));
    }
    text.push('\n');
    text
}

/// How a case is judged, in a few words: `exact`, `function call`, or
/// for a game-mode case the play and what else earns points.
fn judged(suite: &Suite, case: &case::Case) -> String {
    if case.call.is_some() {
        return "function call".into();
    }
    match case.mode {
        case::Mode::Text => return case.compare.describe(),
        case::Mode::Ending => return "how it ends".into(),
        case::Mode::Files => return "the files it leaves, and how it ends".into(),
        case::Mode::Game => {}
    }
    let mut parts = vec![format!("play {}", points(case.play_points()))];
    if case.format_points > 0.0 || case.format.is_some() {
        let regions = suite.graded_names();
        let named: Vec<String> = case
            .format
            .iter()
            .flatten()
            .map(|p| p.words(&regions).trim_start_matches("the ").to_string())
            .collect();
        let what = if named.is_empty() {
            "text".to_string()
        } else {
            named.join(", ")
        };
        parts.push(format!(
            "{what} {} ({})",
            points(case.format_points),
            case.compare.describe()
        ));
    }
    if case.ending_points > 0.0 {
        parts.push(format!("ending {}", points(case.ending_points)));
    }
    parts.join(", ")
}

/// A rubric item as `cases list` shows it: its points in the handout
/// (when the suite lists its rubric) and the cases that earn them.
struct ItemRow {
    name: String,
    /// "5", "3 (by hand)", or nothing when the suite has no rubric.
    handout: Option<String>,
    cases: Vec<(String, f64)>,
}

impl ItemRow {
    fn earned(&self) -> f64 {
        self.cases.iter().fold(0.0, |total, (_, p)| total + p)
    }
}

/// The suite's rubric items in its order, each with its cases; then any
/// item a case names that the rubric does not list (or, without a
/// rubric, every item the cases name, sorted).
fn rubric_items(suite: &Suite) -> Vec<ItemRow> {
    let cases_of = |name: &str| -> Vec<(String, f64)> {
        suite
            .cases_for(name)
            .map(|c| (c.name.clone(), c.points))
            .collect()
    };
    let mut rows: Vec<ItemRow> = suite
        .rubric
        .iter()
        .map(|item| ItemRow {
            name: item.name.clone(),
            handout: Some(if item.by_hand {
                format!("{} (by hand)", points(item.points))
            } else {
                points(item.points)
            }),
            cases: cases_of(&item.name),
        })
        .collect();
    let mut others: Vec<String> = suite
        .cases
        .iter()
        .map(|c| c.rubric.clone().unwrap_or_else(|| NO_ITEM.into()))
        .filter(|name| !suite.rubric.iter().any(|i| &i.name == name))
        .collect();
    others.sort();
    others.dedup();
    for name in others {
        let cases = if name == NO_ITEM {
            suite
                .cases
                .iter()
                .filter(|c| c.rubric.is_none())
                .map(|c| (c.name.clone(), c.points))
                .collect()
        } else {
            cases_of(&name)
        };
        rows.push(ItemRow {
            name,
            handout: None,
            cases,
        });
    }
    rows
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
        suite.name,
        suite.cases.len(),
        public_cases,
        suite.cases.len() - public_cases,
        points(suite.max_points()),
        points(public),
        points(suite.max_points() - public)
    );
    print_rubric(suite);
    let width = suite
        .cases
        .iter()
        .map(|c| c.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    println!(
        "\n  {:<width$}  points  visibility  inputs  judged on",
        "case"
    );
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
            judged(suite, case),
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

/// The rubric item of the cases a suite with a rubric names in none.
const NO_ITEM: &str = "(no rubric item)";

/// Per rubric item: its points in the handout, the points its cases
/// earn, and those cases.
fn print_rubric(suite: &Suite) {
    println!("\n  rubric item: handout points; cases earn: the cases (points)");
    for item in rubric_items(suite) {
        let handout = item
            .handout
            .as_deref()
            .map(|h| format!("{h}; "))
            .unwrap_or_default();
        println!(
            "  {}: {handout}cases earn {}",
            item.name,
            points(item.earned())
        );
        let cases: Vec<String> = item
            .cases
            .iter()
            .map(|(name, p)| format!("{name} ({})", points(*p)))
            .collect();
        if cases.is_empty() {
            println!("      (no case)");
        } else {
            println!("      {}", cases.join(", "));
        }
    }
}

/// Where `cases update` leaves a case's new transcript for review:
/// beside its pin, `<case>.transcript.new`.
pub fn pending_file(case: &case::Case) -> PathBuf {
    let mut name = case.pin_file().into_os_string();
    name.push(".new");
    PathBuf::from(name)
}

/// A unified diff from `old` to `new`, with a little context; control
/// characters escaped (a pin may hold a binary file the reference wrote).
fn diff(old: &[u8], new: &[u8], old_name: &str, new_name: &str) -> String {
    let old = String::from_utf8_lossy(old);
    let new = String::from_utf8_lossy(new);
    let text = TextDiff::from_lines(old.as_ref(), new.as_ref())
        .unified_diff()
        .context_radius(2)
        .header(old_name, new_name)
        .to_string();
    text.split_inclusive('\n')
        .map(|line| match line.strip_suffix('\n') {
            Some(line) => format!("{}\n", referee::text::visible::safe(line.as_bytes())),
            None => referee::text::visible::safe(line.as_bytes()),
        })
        .collect()
}

/// A file's contents, `None` when it does not exist.
fn read_if_there(path: &Path) -> Result<Option<Vec<u8>>, Failure> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: cannot read it: {e}", path.display()).into()),
    }
}

/// What `update` did with one case.
enum Update {
    /// Nothing to do.
    Same,
    /// A pending file was written (or, with `--accept`, taken).
    Done,
    /// With `--accept`: the pending file is not what the reference prints
    /// now, so it was left.
    Stale,
}

/// Without `accept`: writes, beside each case whose pin is missing or
/// differs from what the reference prints now, a pending file holding
/// the new transcript, and prints the difference; no pin is touched.
/// With `accept`: takes each pending file that still is what the
/// reference prints as the case's pin.
pub fn update(dirs: &[PathBuf], accept: bool) -> Result<ExitCode, Failure> {
    // A pin made on a machine that cannot run programs as a person
    // would is wrong for every student graded against it.
    super::machine_ready()?;
    let mut status = ExitCode::SUCCESS;
    let mut done = 0;
    let mut unread = false;
    for suite in suites(dirs)? {
        let suite = match suite {
            Ok(suite) => suite,
            Err(problem) => {
                status = super::report(&problem.into());
                unread = true;
                continue;
            }
        };
        for problem in &suite.problems {
            eprintln!("referee: skipped: {problem}");
            status = ExitCode::from(1);
        }
        for case in &suite.cases {
            let outcome = if accept {
                take_pending(&suite, case)?
            } else {
                propose(&suite, case)?
            };
            match outcome {
                Update::Same => {}
                Update::Done => done += 1,
                Update::Stale => status = ExitCode::from(1),
            }
        }
    }
    let plural = if done == 1 { "" } else { "s" };
    if accept {
        // New pins and changed ones alike.
        println!("{done} transcript{plural} pinned.");
    } else if done == 0 && unread {
        // Claiming every transcript matches would hide the folder that
        // could not be read at all.
        println!("No transcript to review in the suites that could be read.");
    } else if done == 0 {
        println!("Every pinned transcript matches the reference.");
    } else {
        let folders: Vec<String> = dirs.iter().map(|d| format!(" {}", d.display())).collect();
        println!(
            "{done} transcript{plural} to review (the `.transcript.new` files); \
             `referee cases update --accept{}` pins them.",
            folders.concat()
        );
    }
    Ok(status)
}

/// Leaves the case's new transcript in its pending file when it differs
/// from the pin, and prints the difference; removes a pending file left
/// from before when the pin matches again.
fn propose(suite: &Suite, case: &case::Case) -> Result<Update, Failure> {
    let current = oracle::pin_text(suite, case).map_err(|e| e.to_string())?;
    let pending = pending_file(case);
    let pinned = read_if_there(&case.pin_file())?;
    if pinned.as_deref() == Some(current.as_slice()) {
        if pending.exists() {
            fs::remove_file(&pending)
                .map_err(|e| format!("{}: cannot remove it: {e}", pending.display()))?;
        }
        return Ok(Update::Same);
    }
    atomic::write(&pending, &current)
        .map_err(|e| format!("{}: cannot write it: {e}", pending.display()))?;
    let pin = case.pin_file();
    match &pinned {
        Some(_) => println!("{} differs: {}", pin.display(), pending.display()),
        None => println!("{} is new: {}", pin.display(), pending.display()),
    }
    let old_name = if pinned.is_some() { "pinned" } else { "no pin" };
    print!(
        "{}",
        diff(
            pinned.as_deref().unwrap_or_default(),
            &current,
            old_name,
            "reference now"
        )
    );
    Ok(Update::Done)
}

/// Takes a case's pending file as its pin, when it is still what the
/// reference prints.
fn take_pending(suite: &Suite, case: &case::Case) -> Result<Update, Failure> {
    let pending = pending_file(case);
    let Some(proposed) = read_if_there(&pending)? else {
        return Ok(Update::Same);
    };
    if proposed != oracle::pin_text(suite, case).map_err(|e| e.to_string())? {
        eprintln!(
            "referee: {}: not taken: the reference no longer prints it; run `referee cases \
             update` again and review the new difference",
            pending.display()
        );
        return Ok(Update::Stale);
    }
    let pin = case.pin_file();
    atomic::write(&pin, &proposed)
        .map_err(|e| format!("{}: cannot write it: {e}", pin.display()))?;
    fs::remove_file(&pending)
        .map_err(|e| format!("{}: cannot remove it: {e}", pending.display()))?;
    println!("pinned {}", pin.display());
    Ok(Update::Done)
}
