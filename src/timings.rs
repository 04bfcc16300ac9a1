//! Where an invocation's time goes, phase by phase: what `--timings`
//! prints, so that a slow class can be explained by a TA and a
//! regression seen by a developer. Each phase adds up the time spent in
//! it on every worker (so a phase can take longer than the whole run
//! when workers ran it side by side), and how many times it ran.
//!
//! Counting costs two clock readings per timed step, nothing more.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A phase of grading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Loading the suite, making the sandbox, finding the class.
    SetUp,
    /// Building programs: compiling, checking Python's syntax.
    Compile,
    /// What the reference does on each case (pins read, or runs).
    Reference,
    /// Running programs on cases, each in a fresh sandbox.
    Runs,
    /// Saying where C and C++ programs break: their checked builds and
    /// the runs of them (see [`crate::diagnose`]).
    Diagnose,
    /// Judging runs and explaining failures.
    Judging,
    /// Writing the reports.
    Reports,
}

impl Phase {
    const ALL: [Phase; 7] = [
        Phase::SetUp,
        Phase::Compile,
        Phase::Reference,
        Phase::Runs,
        Phase::Diagnose,
        Phase::Judging,
        Phase::Reports,
    ];

    fn name(self) -> &'static str {
        match self {
            Phase::SetUp => "set-up",
            Phase::Compile => "compile",
            Phase::Reference => "reference",
            Phase::Runs => "runs",
            Phase::Diagnose => "diagnose",
            Phase::Judging => "judging",
            Phase::Reports => "reports",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Phase::SetUp => "suite, sandbox, class",
            Phase::Compile => "programs built",
            Phase::Reference => "cases' expected runs",
            Phase::Runs => "programs run",
            Phase::Diagnose => "checked builds and runs",
            Phase::Judging => "runs judged",
            Phase::Reports => "report sets written",
        }
    }
}

struct Counter {
    nanos: AtomicU64,
    count: AtomicU64,
}

impl Counter {
    const fn new() -> Counter {
        Counter {
            nanos: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }
}

static COUNTERS: [Counter; Phase::ALL.len()] = [const { Counter::new() }; Phase::ALL.len()];

fn counter(phase: Phase) -> &'static Counter {
    &COUNTERS[Phase::ALL.iter().position(|p| *p == phase).unwrap_or(0)]
}

/// Runs `work`, counting its time in `phase`.
pub fn time<T>(phase: Phase, work: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let done = work();
    add(phase, start.elapsed());
    done
}

/// Counts the time until it is dropped in a phase: for a step with many
/// ways out.
pub struct Timed {
    phase: Phase,
    start: Instant,
    count: u64,
}

impl Timed {
    /// Starts counting one step.
    pub fn new(phase: Phase) -> Timed {
        Timed::of(phase, 1)
    }

    /// Starts counting `count` steps done together (the cases whose
    /// expected runs one call prepares).
    pub fn of(phase: Phase, count: u64) -> Timed {
        Timed {
            phase,
            start: Instant::now(),
            count,
        }
    }
}

impl Drop for Timed {
    fn drop(&mut self) {
        add_steps(self.phase, self.start.elapsed(), self.count);
    }
}

/// How many checked builds were found kept from an earlier invocation
/// (see `submission::cache`), not made.
static KEPT_BUILDS: AtomicU64 = AtomicU64::new(0);

/// Counts a checked build found kept, not made.
pub fn kept_build() {
    KEPT_BUILDS.fetch_add(1, Ordering::Relaxed);
}

/// When the process started, as near as referee knows: call
/// [`process_started`] first thing.
static STARTED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

/// Notes the process's start, for [`set_up_done`] and [`since_start`].
pub fn process_started() {
    STARTED.get_or_init(Instant::now);
}

/// The time since [`process_started`].
pub fn since_start() -> Duration {
    STARTED.get_or_init(Instant::now).elapsed()
}

/// Counts everything since the process started, up to now, as set-up:
/// called once, when grading starts.
pub fn set_up_done() {
    add(Phase::SetUp, since_start());
}

/// Counts `spent` in `phase`, once.
pub fn add(phase: Phase, spent: Duration) {
    add_steps(phase, spent, 1);
}

/// Counts `spent` in `phase` for `steps` steps.
fn add_steps(phase: Phase, spent: Duration, steps: u64) {
    let counter = counter(phase);
    counter
        .nanos
        .fetch_add(spent.as_nanos() as u64, Ordering::Relaxed);
    counter.count.fetch_add(steps, Ordering::Relaxed);
}

/// What each phase took so far: its time and how many times it ran.
pub fn spent() -> Vec<(Phase, Duration, u64)> {
    Phase::ALL
        .iter()
        .map(|&phase| {
            let counter = counter(phase);
            (
                phase,
                Duration::from_nanos(counter.nanos.load(Ordering::Relaxed)),
                counter.count.load(Ordering::Relaxed),
            )
        })
        .collect()
}

/// The table `--timings` prints: `wall` is the whole invocation's time,
/// `workers` how many ran at once.
pub fn table(wall: Duration, workers: usize) -> String {
    let mut text = format!(
        "Timings: {:.3} s in all, {workers} worker{} (each phase is its time on every worker added up):\n",
        wall.as_secs_f64(),
        if workers == 1 { "" } else { "s" }
    );
    for (phase, spent, count) in spent() {
        let each = if count > 0 {
            format!(", {:.2} ms each", spent.as_secs_f64() * 1e3 / count as f64)
        } else {
            String::new()
        };
        text.push_str(&format!(
            "  {:<10} {:>8.3} s  {count} {}{each}\n",
            phase.name(),
            spent.as_secs_f64(),
            phase.what()
        ));
    }
    let kept = KEPT_BUILDS.load(Ordering::Relaxed);
    if kept > 0 {
        text.push_str(&format!(
            "  ({kept} checked build{} found kept from an earlier invocation, not made)\n",
            if kept == 1 { "" } else { "s" }
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_add_up_their_time_and_their_count() {
        let before = spent();
        let answer = time(Phase::Judging, || {
            std::thread::sleep(Duration::from_millis(2));
            42
        });
        assert_eq!(answer, 42);
        let after = spent();
        let judging = |list: &[(Phase, Duration, u64)]| {
            list.iter()
                .find(|(p, _, _)| *p == Phase::Judging)
                .map(|(_, d, n)| (*d, *n))
                .unwrap()
        };
        let (d0, n0) = judging(&before);
        let (d1, n1) = judging(&after);
        assert!(n1 > n0);
        assert!(d1 - d0 >= Duration::from_millis(2));
        let table = table(Duration::from_secs(1), 2);
        assert!(table.contains("  judging "), "{table}");
        assert!(table.starts_with("Timings: 1.000 s in all, 2 workers"));
    }
}
