//! Which of a program's failed cases run again from its checked build.
//!
//! A checked run costs five to nine ordinary runs, and a program that is
//! wrong is usually wrong on many cases for one reason: in the job's
//! class (docs/performance.md) 17 programs failed 142 cases between them,
//! and running every one again cost as much as grading the class. What
//! a checked run finds is where the program breaks, and the same fault
//! breaks it the same way on the next case. So a default `grade` runs
//! again:
//!
//! - every case the program crashed on: what caused each crash is said
//!   in that case's own explanation;
//! - the first [`WRONG_RERUNS`] of the other cases it failed, in the
//!   suite's order (a timeout is never run again: a checked run would
//!   take three times as long again);
//! - in a suite that counts leaks (`leaks: true`), its first case where
//!   it passed, so that memory still held at the end is found where the
//!   output is right.
//!
//! The choice depends only on the cases' verdicts, never on which case
//! finished first: a case after the first few waits, once judged, until
//! every case before it is (they are taken in order and are running
//! already), so that the same program on the same suite is diagnosed the
//! same way on any machine and with any number of workers.
//! `grade --diagnose` runs every case again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use crate::verdict::Verdict;

/// How many failed cases other than crashes a program runs again.
pub const WRONG_RERUNS: usize = 3;

/// What is known of each case of one submission so far.
pub(super) struct Reruns {
    /// Per case, once judged: whether it is a failure that is not a
    /// crash or a timeout (one [`WRONG_RERUNS`] counts).
    judged: Mutex<Vec<Option<bool>>>,
    changed: Condvar,
}

/// What a rerun of a case is, by its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Passed: not run again by default.
    Passed,
    /// Ran out of time: not run again by default.
    Looped,
    /// Crashed: always run again.
    Crashed,
    /// Failed otherwise: run again if among the first few.
    Wrong,
}

impl Kind {
    /// The kind of a case that ended with `verdict`.
    pub(super) fn of(verdict: Verdict) -> Kind {
        match verdict {
            Verdict::Pass => Kind::Passed,
            Verdict::Timeout => Kind::Looped,
            Verdict::Crashed => Kind::Crashed,
            _ => Kind::Wrong,
        }
    }
}

impl Reruns {
    /// Nothing known yet of `cases` cases.
    pub(super) fn new(cases: usize) -> Reruns {
        Reruns {
            judged: Mutex::new(vec![None; cases]),
            changed: Condvar::new(),
        }
    }

    /// Case `index` was judged `kind` (again, after a timeout settled:
    /// the latest counts).
    pub(super) fn judged(&self, index: usize, kind: Kind) {
        self.set(index, kind == Kind::Wrong, true);
    }

    /// Case `index` will not be judged (its run could not be made, or
    /// grading stopped): the cases after it go on without it.
    pub(super) fn abandoned(&self, index: usize) {
        self.set(index, false, false);
    }

    fn set(&self, index: usize, wrong: bool, over: bool) {
        let mut judged = self.judged.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(slot) = judged.get_mut(index) {
            if over || slot.is_none() {
                *slot = Some(wrong);
            }
        }
        self.changed.notify_all();
    }

    /// Whether case `index`, judged [`Kind::Wrong`], is among the first
    /// [`WRONG_RERUNS`] so judged: waits until every case before it is
    /// judged (or `stop` is set: then it is not run again).
    pub(super) fn among_first(&self, index: usize, stop: &AtomicBool) -> bool {
        let mut judged = self.judged.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let before = &judged[..index.min(judged.len())];
            if before.iter().all(Option::is_some) {
                return before.iter().filter(|w| **w == Some(true)).count() < WRONG_RERUNS;
            }
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            // Woken when a case is judged; the tick only looks at `stop`.
            judged = self
                .changed
                .wait_timeout(judged, Duration::from_millis(100))
                .map(|(guard, _)| guard)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }
}

/// Marks its case abandoned when dropped, unless it was judged: a run
/// that fails, or panics, never leaves the cases after it waiting.
pub(super) struct Judging<'r> {
    pub(super) reruns: &'r Reruns,
    pub(super) index: usize,
}

impl Drop for Judging<'_> {
    fn drop(&mut self) {
        self.reruns.abandoned(self.index);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// The first few wrong cases in the suite's order are run again,
    /// crashes and timeouts not counted among them.
    #[test]
    fn the_first_few_wrong_cases_in_order_are_chosen() {
        let reruns = Reruns::new(8);
        let never = AtomicBool::new(false);
        let kinds = [
            Kind::Passed,
            Kind::Wrong,
            Kind::Crashed,
            Kind::Looped,
            Kind::Wrong,
            Kind::Wrong,
            Kind::Wrong,
            Kind::Wrong,
        ];
        for (i, kind) in kinds.iter().enumerate() {
            reruns.judged(i, *kind);
        }
        let chosen: Vec<usize> = (0..8)
            .filter(|&i| kinds[i] == Kind::Wrong && reruns.among_first(i, &never))
            .collect();
        assert_eq!(chosen, vec![1, 4, 5]);
    }

    /// A case judged before those ahead of it waits for them, so that
    /// which cases are chosen does not depend on which finished first.
    #[test]
    fn a_case_judged_early_waits_for_those_before_it() {
        let reruns = Arc::new(Reruns::new(5));
        let never = Arc::new(AtomicBool::new(false));
        reruns.judged(4, Kind::Wrong);
        let waiter = {
            let (reruns, never) = (reruns.clone(), never.clone());
            std::thread::spawn(move || reruns.among_first(4, &never))
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(!waiter.is_finished(), "it chose before cases 0 to 3");
        for i in 0..3 {
            reruns.judged(i, Kind::Wrong);
        }
        // Case 3's run could not be made: it counts for nothing.
        drop(Judging {
            reruns: &reruns,
            index: 3,
        });
        assert!(!waiter.join().unwrap(), "three wrong cases came before");
    }

    /// A stop leaves no case waiting.
    #[test]
    fn a_stop_ends_the_wait() {
        let reruns = Reruns::new(3);
        let stop = AtomicBool::new(true);
        reruns.judged(2, Kind::Wrong);
        assert!(!reruns.among_first(2, &stop));
    }

    /// An abandoned mark never overwrites a judgement.
    #[test]
    fn a_judged_case_stays_judged() {
        let reruns = Reruns::new(2);
        let never = AtomicBool::new(false);
        reruns.judged(0, Kind::Wrong);
        reruns.abandoned(0);
        reruns.judged(1, Kind::Wrong);
        for _ in 0..WRONG_RERUNS {
            // Only case 0 is before case 1, and it was wrong.
            assert!(reruns.among_first(1, &never));
        }
        let judged = reruns.judged.lock().unwrap();
        assert_eq!(judged[0], Some(true));
    }
}
