//! Property tests ("fuzzing") of everything that reads bytes referee does
//! not control: what a student's program prints (the game readers, the
//! terminal renderer, the judge and the explanations), the names in a
//! class folder, a TA's case files and the pinned transcripts.
//!
//! Each target runs a short fixed budget of cases in `cargo test`; set
//! `REFEREE_FUZZ_SCALE=100` for a hundred times as many (or
//! `PROPTEST_CASES=N` for exactly N cases per target). A failure is
//! shrunk and its seed saved in `tests/proptest-regressions/`, which
//! later runs replay first; commit that file with the fix (README,
//! "Fuzzing").
//!
//! Inputs are made two ways: from scratch, out of hostile fragments
//! (escapes, invalid UTF-8, carriage returns, game words, referee's own
//! marks), and from the shipped fixtures (each suite's pinned
//! transcripts and case files), mutated ([`mutate`]).

mod cases;
mod class;
mod corpus;
mod explain;
mod games;
mod mutate;
mod pins;
mod render;

use std::collections::HashMap;
use std::io::Write;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant, SystemTime};

use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};

/// The configuration of a target whose default budget is `cases` cases.
pub fn config(cases: u32) -> Config {
    // `Config::default()` reads PROPTEST_CASES and proptest's other
    // variables; only without it is the budget ours.
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        let scale = std::env::var("REFEREE_FUZZ_SCALE")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| *s > 0.0)
            .unwrap_or(1.0);
        config.cases = ((f64::from(cases) * scale).ceil() as u32).max(1);
    }
    // A seed of our own when none is given, so that a hang, which no
    // failure file can keep, can be run again (see [`timed`]).
    let seed = match config.rng_seed {
        RngSeed::Fixed(seed) => seed,
        RngSeed::Random => SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    config.rng_seed = RngSeed::Fixed(seed);
    lock(&SEEDS).insert(test_name(), seed);
    // Beside this folder: tests/proptest-regressions/<file>.txt.
    config.failure_persistence = Some(Box::new(FileFailurePersistence::SourceParallel(
        "proptest-regressions",
    )));
    config
}

/// Each running target's seed, by test name.
static SEEDS: LazyLock<Mutex<HashMap<String, u64>>> = LazyLock::new(Default::default);

/// A call running under [`timed`]: its test, what it does, since when.
type Running = (String, String, Instant);

/// The calls running under [`timed`], by number.
static RUNNING: LazyLock<Mutex<HashMap<u64, Running>>> = LazyLock::new(|| {
    std::thread::spawn(watch);
    Default::default()
});

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn test_name() -> String {
    std::thread::current().name().unwrap_or("?").to_string()
}

/// How long a call may run before it is a hang: the test binary is
/// stopped, saying how to run the target again on the same inputs.
pub const HANG: Duration = Duration::from_secs(60);

fn watch() {
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let running = lock(&RUNNING);
        if let Some((test, what, _)) = running
            .values()
            .find(|(_, _, since)| since.elapsed() > HANG)
        {
            let seed = lock(&SEEDS).get(test).copied().unwrap_or_default();
            // Straight to stderr: the test harness would keep what
            // `eprintln!` says from a thread a test started.
            let _ = writeln!(
                std::io::stderr(),
                "fuzz: {what} in {test} has run for more than {HANG:?}: a hang. To see its \
                 input: PROPTEST_RNG_SEED={seed} PROPTEST_VERBOSE=2 cargo test --test fuzz \
                 -- --exact {test}"
            );
            std::process::abort();
        }
    }
}

/// The size of a flood in the tests of floods: the output limit's
/// (1 MiB) in a release build (`cargo test --release`); a debug build
/// reads a sixteenth of it, still four times a report's room, and
/// checks that eight times more takes eight times as long.
pub const FLOOD: usize = if cfg!(debug_assertions) {
    1 << 16
} else {
    1 << 20
};

/// The most any one fuzzed call may take: far more than any of them
/// needs on small input in a debug build, far less than a hang.
pub const SLOW: Duration = Duration::from_secs(3);

/// Runs `work`, failing when it takes longer than [`SLOW`], and stopping
/// the tests when it takes longer than [`HANG`].
pub fn timed<T>(what: &str, work: impl FnOnce() -> T) -> T {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let start = Instant::now();
    lock(&RUNNING).insert(id, (test_name(), what.to_string(), start));
    // Removed however `work` ends, a panic included.
    struct Done(u64);
    impl Drop for Done {
        fn drop(&mut self) {
            lock(&RUNNING).remove(&self.0);
        }
    }
    let done = Done(id);
    let out = work();
    drop(done);
    let took = start.elapsed();
    assert!(took < SLOW, "{what} took {took:?}");
    out
}

/// The characters that must never reach a reader's terminal raw: every
/// control character but the newline and the tab.
pub fn raw_control(text: &str) -> Option<char> {
    text.chars()
        .find(|&c| c.is_control() && c != '\n' && c != '\t')
}

/// Whether `work` stays linear in the size of its input: the time for
/// `make(8 * n)` is less than 24 times the time for `make(n)` (8 when
/// linear, 64 when quadratic), each the best of three runs. The time is
/// the thread's processor time, not the clock's: on a shared, loaded
/// machine the clock also counts the time other processes held the
/// processor.
pub fn assert_linear<T>(what: &str, n: usize, make: impl Fn(usize) -> T, work: impl Fn(&T)) {
    let best = |size: usize| {
        let input = make(size);
        (0..3)
            .map(|_| {
                let start = thread_cpu();
                work(&input);
                thread_cpu().saturating_sub(start)
            })
            .min()
            .unwrap_or_default()
    };
    let small = best(n).max(Duration::from_micros(200));
    let large = best(8 * n);
    assert!(
        large < small * 24,
        "{what}: {n} took {small:?}, {} took {large:?}: not linear",
        8 * n
    );
}

/// The processor time the calling thread has used.
fn thread_cpu() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through the pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}
