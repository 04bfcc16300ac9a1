//! Two outputs line against line, as the comparison sees them: the diff
//! of the lines it compares ([`line_diff`], for explanations), and every
//! line side by side ([`side_by_side`], for reports that show both whole
//! transcripts and highlight what counted as different).

use std::time::{Duration, Instant};

use similar::algorithms::{myers, Capture, Compact, Replace};
use similar::{capture_diff_slices_deadline, Algorithm, DiffOp, DiffTag};

use super::turns::{Paired, Turns};
use super::{comparable, split_lines, Key, Line, Options, Region};

/// The lines of two outputs that the comparison compares, and the diff
/// of their keys.
#[derive(Debug, Default)]
pub struct LineDiff {
    /// The indices of the expected output's compared lines, in order.
    pub expected_kept: Vec<usize>,
    /// The same for the actual output.
    pub actual_kept: Vec<usize>,
    /// The diff, over positions in `expected_kept` and `actual_kept`.
    pub ops: Vec<DiffOp>,
}

/// Diffs the lines compared under `options` and `regions` by their keys;
/// with `turns` (under `prompts`), turn by turn, prompts left out. A
/// diff that takes longer than half a second is cut short (then more
/// lines show as different).
pub fn line_diff(
    expected: &[Line<'_>],
    actual: &[Line<'_>],
    options: &Options,
    regions: &[Region],
    turns: Option<(&Turns, &Turns)>,
) -> LineDiff {
    let deadline = Instant::now() + Duration::from_millis(500);
    let Some(turns) = turns else {
        let (want, spans) = comparable(expected, options, regions, None);
        let (got, _) = comparable(actual, options, regions, Some(&spans));
        let want_keys: Vec<&Key> = want.iter().map(|k| &k.key).collect();
        let got_keys: Vec<&Key> = got.iter().map(|k| &k.key).collect();
        return LineDiff {
            expected_kept: want.iter().map(|k| k.line.index).collect(),
            actual_kept: got.iter().map(|k| k.line.index).collect(),
            ops: diff_keys(&want_keys, &got_keys, deadline),
        };
    };
    let paired = Paired::new(expected, actual, options, regions, turns);
    let mut diff = LineDiff::default();
    for (want, got) in paired.want.iter().zip(&paired.got) {
        let keys = |lines: &[usize], keys: &'_ [Option<Key>]| -> Vec<Key> {
            lines.iter().filter_map(|&i| keys[i].clone()).collect()
        };
        let want_keys = keys(want, &paired.want_keys);
        let got_keys = keys(got, &paired.got_keys);
        let ops = diff_keys(
            &want_keys.iter().collect::<Vec<_>>(),
            &got_keys.iter().collect::<Vec<_>>(),
            deadline,
        );
        let (old, new) = (diff.expected_kept.len(), diff.actual_kept.len());
        diff.ops
            .extend(ops.into_iter().map(|op| shifted(op, old, new)));
        diff.expected_kept.extend(want);
        diff.actual_kept.extend(got);
    }
    diff.ops = merged(diff.ops);
    diff
}

/// The diff of two lists of keys. Keys compared as text are diffed as
/// bytes; numbers within a tolerance make equality a matter of degree,
/// diffed by Myers' algorithm on equality alone.
fn diff_keys(want: &[&Key], got: &[&Key], deadline: Instant) -> Vec<DiffOp> {
    if want.iter().chain(got).all(|k| k.tolerance.is_none()) {
        let want: Vec<&[u8]> = want.iter().map(|k| k.text.as_slice()).collect();
        let got: Vec<&[u8]> = got.iter().map(|k| k.text.as_slice()).collect();
        return capture_diff_slices_deadline(Algorithm::Myers, &want, &got, Some(deadline));
    }
    let mut hook = Compact::new(Replace::new(Capture::new()), want, got);
    let Ok(()) = myers::diff_deadline_raw(
        &mut hook,
        want,
        0..want.len(),
        got,
        0..got.len(),
        Some(deadline),
    );
    hook.into_inner().into_inner().into_ops()
}

/// A turn's diff operation, placed after the turns before it.
fn shifted(op: DiffOp, old: usize, new: usize) -> DiffOp {
    match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } => DiffOp::Equal {
            old_index: old_index + old,
            new_index: new_index + new,
            len,
        },
        DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        } => DiffOp::Delete {
            old_index: old_index + old,
            old_len,
            new_index: new_index + new,
        },
        DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        } => DiffOp::Insert {
            old_index: old_index + old,
            new_index: new_index + new,
            new_len,
        },
        DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } => DiffOp::Replace {
            old_index: old_index + old,
            old_len,
            new_index: new_index + new,
            new_len,
        },
    }
}

/// Adjacent equal runs joined, as one diff of the whole would give them
/// (so that context is counted across turns).
fn merged(ops: Vec<DiffOp>) -> Vec<DiffOp> {
    let mut out: Vec<DiffOp> = Vec::with_capacity(ops.len());
    for op in ops {
        match (out.last_mut(), op) {
            (Some(DiffOp::Equal { len, .. }), DiffOp::Equal { len: more, .. }) => *len += more,
            (_, op) => out.push(op),
        }
    }
    out
}

/// One row of a side-by-side view: a line of the expected output, of the
/// actual output, or of both, and how they compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The expected output's line (index from 0), if the row has one.
    pub expected: Option<usize>,
    /// The actual output's line, if the row has one.
    pub actual: Option<usize>,
    /// How the row's lines compare.
    pub kind: RowKind,
}

/// How a row's lines compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// The same under the options.
    Same,
    /// Different, or without a counterpart: what made the outputs differ.
    Differs,
    /// Not compared: an ignored region, or a blank line the options
    /// ignore.
    NotCompared,
}

/// Every line of both outputs, paired as the comparison under `options`
/// and `regions` (and `turns`, under `prompts`) pairs them
/// ([`line_diff`]), lines it does not compare (prompts too) shown in
/// place.
pub fn side_by_side(
    expected: &[u8],
    actual: &[u8],
    options: &Options,
    regions: &[Region],
    turns: Option<(&Turns, &Turns)>,
) -> Vec<Row> {
    let want_lines = split_lines(expected);
    let got_lines = split_lines(actual);
    let diff = line_diff(&want_lines, &got_lines, options, regions, turns);
    let mut rows = Builder::default();
    let first = |kept: &[usize], at: usize, end: usize| kept.get(at).copied().unwrap_or(end);
    for op in &diff.ops {
        let (tag, old, new) = op.as_tag_tuple();
        // The lines not compared before the op, on both sides, face each
        // other: a line that only one side has comes after them.
        rows.push_skipped_until(
            first(&diff.expected_kept, old.start, want_lines.len()),
            first(&diff.actual_kept, new.start, got_lines.len()),
        );
        let kind = if tag == DiffTag::Equal {
            RowKind::Same
        } else {
            RowKind::Differs
        };
        for i in 0..old.len().max(new.len()) {
            let left = (old.start + i < old.end).then(|| diff.expected_kept[old.start + i]);
            let right = (new.start + i < new.end).then(|| diff.actual_kept[new.start + i]);
            rows.push(left, right, kind);
        }
    }
    rows.push_skipped_until(want_lines.len(), got_lines.len());
    rows.rows
}

/// Builds the rows, putting the lines not compared where they stand.
#[derive(Default)]
struct Builder {
    rows: Vec<Row>,
    /// The next line of each output not yet in a row.
    next_expected: usize,
    next_actual: usize,
}

impl Builder {
    fn push(&mut self, expected: Option<usize>, actual: Option<usize>, kind: RowKind) {
        self.push_skipped_until(
            expected.unwrap_or(self.next_expected),
            actual.unwrap_or(self.next_actual),
        );
        self.rows.push(Row {
            expected,
            actual,
            kind,
        });
        if let Some(e) = expected {
            self.next_expected = e + 1;
        }
        if let Some(a) = actual {
            self.next_actual = a + 1;
        }
    }

    /// The lines not compared before these ones, paired up row by row.
    fn push_skipped_until(&mut self, expected: usize, actual: usize) {
        let left = self.next_expected..expected.max(self.next_expected);
        let right = self.next_actual..actual.max(self.next_actual);
        for i in 0..left.len().max(right.len()) {
            self.rows.push(Row {
                expected: (left.start + i < left.end).then_some(left.start + i),
                actual: (right.start + i < right.end).then_some(right.start + i),
                kind: RowKind::NotCompared,
            });
        }
        self.next_expected = left.end;
        self.next_actual = right.end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::bytes::Regex;

    fn row(expected: Option<usize>, actual: Option<usize>, kind: RowKind) -> Row {
        Row {
            expected,
            actual,
            kind,
        }
    }

    #[test]
    fn exact_rows_pair_equal_lines_and_mark_the_rest() {
        let rows = side_by_side(
            b"a\nb\nc\n",
            b"a\nB\nc\nd\n",
            &Options::default(),
            &[],
            None,
        );
        assert_eq!(
            rows,
            [
                row(Some(0), Some(0), RowKind::Same),
                row(Some(1), Some(1), RowKind::Differs),
                row(Some(2), Some(2), RowKind::Same),
                row(None, Some(3), RowKind::Differs),
            ]
        );
    }

    #[test]
    fn options_and_regions_decide_what_differs() {
        let options = Options::default()
            .relax("whitespace-runs")
            .and_then(|o| o.relax("blank-lines"))
            .unwrap();
        let header = Region {
            name: "header".into(),
            from: None,
            until: Regex::new("^Play").unwrap(),
        };
        let expected = b"Author: A\nTA: B\nPlay\n. .\n\nX wins\n";
        let actual = b"Me\nPlay\n.   .\nX won\n";
        let rows = side_by_side(expected, actual, &options, &[header], None);
        assert_eq!(
            rows,
            [
                row(Some(0), Some(0), RowKind::NotCompared),
                row(Some(1), None, RowKind::NotCompared),
                row(Some(2), Some(1), RowKind::Same),
                row(Some(3), Some(2), RowKind::Same),
                row(Some(4), None, RowKind::NotCompared),
                row(Some(5), Some(3), RowKind::Differs),
            ]
        );
    }

    #[test]
    fn lines_not_compared_face_each_other_before_a_line_only_one_side_has() {
        let options = Options::default().relax("blank-lines").unwrap();
        let rows = side_by_side(b"a\n\nc\n", b"a\n\nb\nc\n", &options, &[], None);
        assert_eq!(
            rows,
            [
                row(Some(0), Some(0), RowKind::Same),
                row(Some(1), Some(1), RowKind::NotCompared),
                row(None, Some(2), RowKind::Differs),
                row(Some(2), Some(3), RowKind::Same),
            ]
        );
    }

    #[test]
    fn every_line_of_both_outputs_is_in_one_row() {
        let expected = b"1\n\n2\n3\n\n";
        let actual = b"\n1\n3\n4\n\n\n";
        let options = Options::default().relax("blank-lines").unwrap();
        let rows = side_by_side(expected, actual, &options, &[], None);
        let left: Vec<usize> = rows.iter().filter_map(|r| r.expected).collect();
        let right: Vec<usize> = rows.iter().filter_map(|r| r.actual).collect();
        assert_eq!(left, (0..5).collect::<Vec<_>>());
        assert_eq!(right, (0..6).collect::<Vec<_>>());
    }
}
