//! `referee grade`: a whole class in one command.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use super::{interrupt, points, Failure};
use crate::cli::GradeArgs;
use referee::batch::{self, Batch, Progress};
use referee::case::{self, Suite};
use referee::class::{self, roster::Roster};
use referee::explore;
use referee::export::{self, folder};
use referee::grading::{self, Settings};
use referee::queue;
use referee::results::{ClassResults, Status, SubmissionResult};
use referee::sandbox::{self, allocation};

/// Set by the first SIGINT or SIGTERM: no new submission starts.
static STOP: AtomicBool = AtomicBool::new(false);

/// Grades the class; exit 0 when grading completed (whatever the scores),
/// 128 + the signal's number when SIGINT (130) or SIGTERM (143) stopped
/// it (what was graded is kept and reported).
pub fn run(args: &GradeArgs) -> Result<ExitCode, Failure> {
    if let Err(why) = interrupt::install(&STOP) {
        eprintln!("referee: warning: SIGINT and SIGTERM will not stop grading cleanly: {why}");
    }
    let game = args.game.map(|g| g.0);
    let suite = super::find_suite(&args.cases, game, || {
        Err("name the game with --game, or the folder of cases with --cases".into())
    })?;
    let dir = &suite.dir;
    if suite.cases.is_empty() {
        return Err(format!(
            "{} has no cases to grade: add case files (`name.yaml`, see docs/cases.md)",
            dir.display()
        )
        .into());
    }
    let roster = args
        .roster
        .as_deref()
        .map(Roster::load)
        .transpose()
        .map_err(|e| e.to_string())?;
    let jobs = workers(&suite, args.jobs)?;
    let mut entries = class::discover(&args.submissions)?;
    let whole_class = class::split::class_info(&entries);
    if let Some(shard) = args.shard {
        entries.retain(|e| shard.includes(&e.id));
    }
    // A Python file among the class: find the interpreter meanwhile.
    if entries
        .iter()
        .any(|e| e.path.extension().is_some_and(|x| x == "py"))
    {
        referee::submission::python::warm_up();
    }
    // No JDK for the class's Java programs: said once, here; each is
    // reported with the reason, and the rest graded.
    if entries
        .iter()
        .any(|e| referee::submission::java::is_java(&e.path))
    {
        if let Err(why) = referee::submission::java::jdk() {
            eprintln!("referee: warning: {why}");
        }
    }
    let stamp = folder::Stamp::new(
        &suite.name,
        case::origin(&suite),
        &args.submissions,
        args.shard.map(|s| s.to_string()),
    );
    super::machine_ready()?;
    folder::check(&args.out, &stamp, args.force)?;
    folder::claim(&args.out, &stamp)?;
    let start = Instant::now();
    referee::timings::set_up_done();
    let prepared = match grading::prepare(&suite, &suite.cases) {
        Ok(prepared) => prepared,
        Err(error) => return stopped_before_grading().ok_or(error.into()),
    };
    let (at_once, per_submission) = share_workers(jobs, entries.len());
    let batch = Batch {
        suite: &suite,
        prepared: &prepared,
        settings: Settings {
            flags: super::flags(&args.cflags, &args.cxxflags),
            jobs: per_submission,
            max_timeouts: args.max_timeouts,
            diagnose: match (args.diagnose, args.no_diagnose) {
                (true, _) => grading::Diagnose::Every,
                (_, true) => grading::Diagnose::Never,
                _ => grading::Diagnose::Failing,
            },
            // The last submissions' cases are shared by idle workers.
            spare: (per_submission == 1)
                .then(|| std::sync::Arc::new(queue::Spare::new(sandbox::release_thread_slot))),
            ..Settings::default()
        },
        jobs: at_once,
        out: &args.out,
        force: args.force,
        stop: &STOP,
        explore: args.explore.map(|games| explore::Settings {
            seed: args.explore_seed,
            budget: explore::Budget::Games(games),
            jobs: 1,
            ..explore::Settings::default()
        }),
        explain: referee::explain::plain::FOR_RESULTS,
    };
    let progress = Reporter::new(entries.len());
    let mut submissions = batch.run(&entries, &progress);
    progress.done();
    if let Some(roster) = &roster {
        say_what_the_roster_missed(&roster.apply(&mut submissions));
    }
    let mut results = batch::class_results(&suite, submissions, args.shard.map(|s| s.to_string()));
    results.class = Some(whole_class);
    if args.explore.is_some() {
        results.suite.max_score =
            referee::text::round(results.suite.max_score + suite.explore_points);
    }
    let written = folder::publish(&args.out, &results, &stamp)?;
    if args.timings {
        eprint!(
            "{}",
            referee::timings::table(referee::timings::since_start(), jobs)
        );
    }
    print_summary(
        &suite,
        &results,
        progress.cached.load(Ordering::Relaxed),
        start,
        &args.out,
        written.len(),
    );
    if let Some(code) = interrupt::exit_code() {
        let waiting = results
            .submissions
            .iter()
            .filter(|s| s.status == Status::NotGraded)
            .count();
        eprintln!(
            "referee: interrupted ({}): {waiting} of {} submissions not graded yet; the reports \
             hold the others. Run the same command again to grade the rest (what was graded is \
             kept).",
            interrupt::first_name().unwrap_or("a signal"),
            results.submissions.len()
        );
        return Ok(ExitCode::from(code));
    }
    Ok(ExitCode::SUCCESS)
}

/// How `jobs` workers are shared out over a class of `submissions`: how
/// many submissions are graded at once, and how many of each one's cases.
/// A class has one worker per submission, each running its cases one
/// after another on the worker's own sandbox slot; a class smaller than
/// the workers (one late submission, a regrade of two) runs each
/// submission's cases side by side instead, so that no core waits idle.
/// The grade is the same either way (see `grading::run_all`).
fn share_workers(jobs: usize, submissions: usize) -> (usize, usize) {
    let at_once = jobs.min(submissions).max(1);
    (at_once, (jobs / at_once).max(1))
}

/// How many submissions to grade at once: `requested` (`--jobs`), else
/// one per processor the job was given; fewer when they would not fit in
/// its memory (said once), and a refusal when not even one fits.
fn workers(suite: &Suite, requested: Option<usize>) -> Result<usize, Failure> {
    let run = suite
        .cases
        .iter()
        .filter_map(|c| c.limits.memory)
        .max()
        .or(referee::run::Limits::default().memory)
        .unwrap_or(0);
    let need = allocation::Need {
        run,
        compiler: referee::submission::COMPILER_MEMORY,
        referee: allocation::REFEREE_MEMORY,
    };
    let workers = allocation::workers(&allocation::read(), requested, need)?;
    if let Some(note) = workers.note {
        eprintln!("referee: note: {note}");
    }
    Ok(workers.jobs)
}

/// When a signal stopped the reference's runs before any submission was
/// graded: the exit code, said with what to do (the output folder holds
/// no new reports, and the same command starts again).
fn stopped_before_grading() -> Option<ExitCode> {
    let code = interrupt::exit_code()?;
    eprintln!(
        "referee: interrupted ({}) before any submission was graded; run the same command again",
        interrupt::first_name().unwrap_or("a signal")
    );
    Some(ExitCode::from(code))
}

/// A progress bar on a terminal; a line per submission in a log or CI.
struct Reporter {
    bar: Option<ProgressBar>,
    done: AtomicUsize,
    cached: AtomicUsize,
    total: usize,
}

impl Reporter {
    fn new(total: usize) -> Reporter {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} graded  {rate}  {eta} left  {msg}",
                )
                .map(|style| style.with_key("rate", rate))
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        Reporter {
            bar,
            done: AtomicUsize::new(0),
            cached: AtomicUsize::new(0),
            total,
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Submissions per second, to one decimal (`2.6/s`).
fn rate(state: &ProgressState, out: &mut dyn std::fmt::Write) {
    let _ = write!(out, "{:.1}/s", state.per_sec());
}

impl Progress for Reporter {
    fn finished(&self, result: &SubmissionResult, cached: bool) {
        if cached {
            self.cached.fetch_add(1, Ordering::Relaxed);
        }
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let score = match result.status {
            Status::Graded | Status::CompileError => {
                format!("{}/{} ", points(result.score), points(result.max_score))
            }
            Status::Error | Status::NotGraded => String::new(),
        };
        let line = format!(
            "{} {score}{}{}",
            result.id,
            status_word(result.status),
            if cached {
                " (unchanged, not regraded)"
            } else {
                ""
            }
        );
        match &self.bar {
            Some(bar) => {
                bar.set_message(line);
                bar.inc(1);
            }
            None => eprintln!("[{n}/{}] {line}", self.total),
        }
    }
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Graded => "graded",
        Status::CompileError => "does not compile",
        Status::Error => "could not be graded",
        Status::NotGraded => "not graded (interrupted)",
    }
}

fn print_summary(
    suite: &Suite,
    results: &ClassResults,
    cached: usize,
    start: Instant,
    out: &Path,
    files: usize,
) {
    let n = results.submissions.len();
    println!(
        "{} submission{} on {} cases in {} ({} unchanged since the last run).",
        n,
        if n == 1 { "" } else { "s" },
        suite.cases.len(),
        seconds_since(start),
        cached
    );
    print!("{}", export::summary::text(results));
    println!(
        "Reports: {} ({files} files; give students feedback/, keep index.html for yourself).",
        out.display()
    );
}

/// Time since `start`, for logs.
fn seconds_since(start: Instant) -> String {
    format!("{:.1} s", start.elapsed().as_secs_f64())
}

/// Names the students a roster gave no learning-system id: they are in
/// gradebook.csv, but in no learning system's grade file.
fn say_what_the_roster_missed(missed: &[String]) {
    if missed.is_empty() {
        return;
    }
    let shown: Vec<&str> = missed.iter().take(5).map(String::as_str).collect();
    let more = match missed.len() - shown.len() {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    eprintln!(
        "referee: warning: not on the roster, so in no learning system's grade file: {}{more} \
         (their grades are in gradebook.csv)",
        shown.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::share_workers;

    #[test]
    fn workers_left_over_by_a_small_class_run_its_cases() {
        assert_eq!(share_workers(2, 1), (1, 2));
        assert_eq!(share_workers(8, 3), (3, 2));
        assert_eq!(share_workers(2, 21), (2, 1));
        assert_eq!(share_workers(1, 1), (1, 1));
        assert_eq!(share_workers(4, 0), (1, 4));
    }
}
