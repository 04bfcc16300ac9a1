//! The summary printed on the terminal after grading: the score
//! distribution as a text histogram, and the cases most often failed.

use std::fmt::Write;

use crate::commands::points;
use crate::results::SubmissionResult;
use crate::verdict::Verdict;

/// Bars of the histogram: scores in tenths of the maximum.
const BUCKETS: usize = 10;
/// Cases listed as most failed.
const MOST_FAILED: usize = 5;

/// The summary as text.
pub fn text(submissions: &[SubmissionResult], max: f64) -> String {
    let mut out = String::new();
    if submissions.is_empty() {
        return out;
    }
    let mut counts = [0usize; BUCKETS];
    for s in submissions {
        let bucket = ((s.fraction() * BUCKETS as f64) as usize).min(BUCKETS - 1);
        counts[bucket] += 1;
    }
    let widest = counts.iter().copied().max().unwrap_or(1).max(1);
    let _ = writeln!(out, "Scores (out of {}):", points(max));
    for (i, count) in counts.iter().enumerate().rev() {
        let low = max * i as f64 / BUCKETS as f64;
        let high = max * (i + 1) as f64 / BUCKETS as f64;
        let bar = "█".repeat((count * 40).div_ceil(widest));
        let _ = writeln!(
            out,
            "  {:>6} – {:<6} {:>4}  {bar}",
            points(low),
            points(high),
            count
        );
    }
    let mut failures: Vec<(String, usize)> = Vec::new();
    for case in submissions.iter().flat_map(|s| &s.cases) {
        if case.verdict != Verdict::Pass {
            match failures.iter_mut().find(|(n, _)| *n == case.name) {
                Some((_, n)) => *n += 1,
                None => failures.push((case.name.clone(), 1)),
            }
        }
    }
    failures.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    if !failures.is_empty() {
        let _ = writeln!(out, "Cases most often failed:");
        for (name, n) in failures.iter().take(MOST_FAILED) {
            let _ = writeln!(out, "  {n:>4} of {}  {name}", submissions.len());
        }
    }
    out
}
