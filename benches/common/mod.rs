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
