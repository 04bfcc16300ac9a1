//! The terminals of runs, as lines: what the reference showed for a case,
//! and what a program showed.

use crate::expected::ReferenceRun;
use crate::run::{Ending, RunResult};
use crate::transcript::{lines, TermLine};

/// The reference's terminal, marked waiting at the end when it asked for
/// more input than the case has.
pub fn reference_lines(reference: &ReferenceRun) -> Vec<TermLine> {
    lines(&reference.transcript, reference.waited_at_end)
}

/// A run's terminal, marked waiting at the end when it was stopped
/// waiting for input.
pub fn run_lines(run: &RunResult) -> Vec<TermLine> {
    lines(&run.transcript, run.ending == Ending::WaitingForInput)
}
