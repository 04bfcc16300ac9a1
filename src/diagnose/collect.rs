//! One submission's diagnoses, each said once: the same fault found in
//! several runs (the same kind at the same place) is one diagnosis that
//! keeps the first case it happened in and counts the runs.

use super::diagnosis::{Diagnosis, Kind, PER_SUBMISSION};

/// A submission's diagnoses, in the order first found, at most
/// [`PER_SUBMISSION`] of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnoses {
    kept: Vec<Diagnosis>,
    /// Distinct faults found beyond the limit.
    pub left_out: usize,
}

impl Diagnoses {
    /// Adds `found`: counted with an equal one already kept, else kept
    /// while there is room.
    pub fn add(&mut self, found: Diagnosis) {
        if let Some(same) = self.kept.iter_mut().find(|d| same_fault(d, &found)) {
            same.count = same.count.saturating_add(found.count);
            if same.case.is_none() && found.case.is_some() {
                same.case = found.case;
                same.input_line = found.input_line;
                same.input = found.input;
            }
            return;
        }
        if self.kept.len() < PER_SUBMISSION {
            self.kept.push(found);
        } else {
            self.left_out += 1;
        }
    }

    /// Adds each of `found`.
    pub fn extend(&mut self, found: impl IntoIterator<Item = Diagnosis>) {
        for d in found {
            self.add(d);
        }
    }

    /// The diagnoses kept.
    pub fn into_vec(self) -> Vec<Diagnosis> {
        self.kept
    }

    /// Whether none was found.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }
}

/// The same fault: the same kind at the same place. Where a place is
/// not known, the message tells them apart; an uncaught exception is told
/// apart by its name too (a line that raises `ValueError` on one input
/// and `IndexError` on another has two faults; `ValueError` with two
/// values is one).
fn same_fault(a: &Diagnosis, b: &Diagnosis) -> bool {
    let placed = a.file.is_some() || a.line.is_some();
    a.kind == b.kind
        && a.file == b.file
        && a.line == b.line
        && a.function == b.function
        && (placed || a.message == b.message)
        && (a.kind != Kind::Exception || exception_name(a) == exception_name(b))
}

/// The name an exception's message starts with (`ValueError` of
/// `ValueError: invalid literal ...`).
fn exception_name(d: &Diagnosis) -> &str {
    d.message.split(':').next().unwrap_or_default().trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::diagnosis::Found;

    fn at(kind: Kind, line: u32, case: &str) -> Diagnosis {
        let mut d = Diagnosis::new(kind, Found::Run, "m");
        d.file = Some("lab6.c".into());
        d.line = Some(line);
        d.case = Some(case.into());
        d
    }

    #[test]
    fn the_same_fault_in_several_runs_is_one_diagnosis_counted() {
        let mut all = Diagnoses::default();
        all.add(at(Kind::ReadPastEnd, 4, "first"));
        all.add(at(Kind::ReadPastEnd, 4, "second"));
        all.add(at(Kind::WritePastEnd, 4, "second"));
        let kept = all.into_vec();
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0].count, 2);
        assert_eq!(kept[0].case.as_deref(), Some("first"));
    }

    #[test]
    fn two_exceptions_raised_at_one_line_are_two_faults() {
        let raised = |message: &str, case: &str| {
            let mut d = at(Kind::Exception, 7, case);
            d.message = message.into();
            d
        };
        let mut all = Diagnoses::default();
        all.add(raised(
            "ValueError: invalid literal for int() with base 10: 'x'",
            "a",
        ));
        all.add(raised(
            "ValueError: invalid literal for int() with base 10: 'y'",
            "b",
        ));
        all.add(raised("IndexError: list index out of range", "c"));
        let kept = all.into_vec();
        assert_eq!(kept.len(), 2, "{kept:?}");
        assert_eq!(kept[0].count, 2);
        assert!(kept[1].message.starts_with("IndexError"));
    }

    #[test]
    fn a_program_that_breaks_everywhere_keeps_its_first_faults() {
        let mut all = Diagnoses::default();
        for line in 0..1000 {
            all.add(at(Kind::SignedOverflow, line, "c"));
        }
        assert_eq!(all.left_out, 1000 - PER_SUBMISSION);
        assert_eq!(all.into_vec().len(), PER_SUBMISSION);
    }
}
