//! What both benchmarks share: where the project is, how much of the
//! workload to run, the cores, and how many times each configuration is
//! measured.

use std::path::PathBuf;

/// Measurements of each configuration; the fastest counts.
pub const TRIES: usize = 2;

/// The project's folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `REFEREE_BENCH_SCALE`: the share of the workload to run (1 by default).
pub fn scale() -> f64 {
    std::env::var("REFEREE_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0)
}

/// The processors this process may run on.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work(i)` for i in 0..n on `jobs` threads.
#[allow(dead_code)]
pub fn parallel(n: usize, jobs: usize, work: impl Fn(usize) + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= n {
                    break;
                }
                work(i);
            });
        }
    });
}

/// The fastest of `tries` runs of each of `runs`, tried in turn so that a
/// slow spell of the machine does not fall on one configuration only.
#[allow(dead_code)]
pub fn fastest_of(
    tries: usize,
    runs: &mut [&mut dyn FnMut() -> std::time::Duration],
) -> Vec<std::time::Duration> {
    let mut best = vec![std::time::Duration::MAX; runs.len()];
    for _ in 0..tries.max(1) {
        for (run, best) in runs.iter_mut().zip(best.iter_mut()) {
            *best = (*best).min(run());
        }
    }
    best
}
