//! Two outputs line against line, as the comparison sees them: the diff
//! of the lines it compares ([`line_diff`], for explanations), and every
//! line side by side ([`side_by_side`], for reports that show both whole
//! transcripts and highlight what counted as different).

use similar::algorithms::{myers, Capture, Compact, Replace};
use similar::{capture_diff_slices, Algorithm, DiffOp, DiffTag};

use super::turns::{self, Paired, Turns};
use super::{comparable, split_lines, Key, Line, Options, Region};
use crate::transcript::{Focus, TermLine};

/// The most lines of each side diffed after their common start: beyond
/// them, everything counts as different. A program that prints without
/// end is then diffed in milliseconds, and the same way on any machine
/// (a deadline would make the diff depend on the machine's load).
const WINDOW: usize = 2_000;

/// The lines of two outputs that the comparison compares, and the diff
/// of their keys.
#[derive(Clone, Debug, Default)]
pub struct LineDiff {
    /// The indices of the expected output's compared lines, in order.
    pub expected_kept: Vec<usize>,
    /// The same for the actual output.
    pub actual_kept: Vec<usize>,
    /// The diff, over positions in `expected_kept` and `actual_kept`.
    pub ops: Vec<DiffOp>,
    /// Under `prompts`, both sides' turns, prompts included (see
    /// [`terminal_diff`]).
    pub turns: Option<(Turns, Turns)>,
}

/// Diffs the lines compared under `options` and `regions` by their keys:
/// their common start, then at most [`WINDOW`] lines of each; with
/// `turns` (under `prompts`), turn by turn, prompts left out.
pub fn line_diff(
    expected: &[Line<'_>],
    actual: &[Line<'_>],
    options: &Options,
    regions: &[Region],
    turns: Option<(&Turns, &Turns)>,
) -> LineDiff {
    let Some(turns) = turns else {
        let (want, spans) = comparable(expected, options, regions, None);
        let (got, _) = comparable(actual, options, regions, Some(&spans));
        let want_keys: Vec<&Key> = want.iter().map(|k| &k.key).collect();
        let got_keys: Vec<&Key> = got.iter().map(|k| &k.key).collect();
        return LineDiff {
            expected_kept: want.iter().map(|k| k.line.index).collect(),
            actual_kept: got.iter().map(|k| k.line.index).collect(),
            ops: bounded_diff(&want_keys, &got_keys),
            turns: None,
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
        let ops = bounded_diff(
            &want_keys.iter().collect::<Vec<_>>(),
            &got_keys.iter().collect::<Vec<_>>(),
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

/// The diff of two lists of keys: the common start, then a window of
/// each diffed, then the rest of both as one difference.
fn bounded_diff(want: &[&Key], got: &[&Key]) -> Vec<DiffOp> {
    let same = want.iter().zip(got).take_while(|(w, g)| w == g).count();
    let want_end = want.len().min(same + WINDOW);
    let got_end = got.len().min(same + WINDOW);
    let mut ops = Vec::new();
    if same > 0 {
        ops.push(DiffOp::Equal {
            old_index: 0,
            new_index: 0,
            len: same,
        });
    }
    for op in diff_keys(&want[same..want_end], &got[same..got_end]) {
        ops.push(shifted(op, same, same));
    }
    let (old_len, new_len) = (want.len() - want_end, got.len() - got_end);
    let (old_index, new_index) = (want_end, got_end);
    ops.extend(match (old_len, new_len) {
        (0, 0) => None,
        (0, _) => Some(DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        }),
        (_, 0) => Some(DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        }),
        _ => Some(DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        }),
    });
    ops
}

/// The diff of two lists of keys. Keys compared as text are diffed as
/// bytes; numbers within a tolerance make equality a matter of degree,
/// diffed by Myers' algorithm on equality alone.
fn diff_keys(want: &[&Key], got: &[&Key]) -> Vec<DiffOp> {
    if want.iter().chain(got).all(|k| k.tolerance.is_none()) {
        let want: Vec<&[u8]> = want.iter().map(|k| k.text.as_slice()).collect();
        let got: Vec<&[u8]> = got.iter().map(|k| k.text.as_slice()).collect();
        return capture_diff_slices(Algorithm::Myers, &want, &got);
    }
    let mut hook = Compact::new(Replace::new(Capture::new()), want, got);
    let Ok(()) = myers::diff_deadline_raw(&mut hook, want, 0..want.len(), got, 0..got.len(), None);
    hook.into_inner().into_inner().into_ops()
}

/// `op` with its indices moved on by `old` and `new`.
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

/// Two terminals' lines diffed as the comparison sees them (the typed
/// input part of each line), for explanations and excerpts; under
/// `prompts`, turn by turn, prompts left out (the turns are kept in the
/// result).
pub fn terminal_diff(
    want: &[TermLine],
    got: &[TermLine],
    options: &Options,
    regions: &[Region],
) -> LineDiff {
    let want_texts: Vec<Vec<u8>> = want.iter().map(TermLine::text).collect();
    let got_texts: Vec<Vec<u8>> = got.iter().map(TermLine::text).collect();
    let want_lines = as_lines(&want_texts, want);
    let got_lines = as_lines(&got_texts, got);
    if !options.prompts {
        return line_diff(&want_lines, &got_lines, options, regions, None);
    }
    let (want_turns, got_turns) = turns::turns(
        &want_lines,
        &turns::reads(want),
        &got_lines,
        &turns::reads(got),
        options,
        regions,
    );
    let mut diff = line_diff(
        &want_lines,
        &got_lines,
        options,
        regions,
        Some((&want_turns, &got_turns)),
    );
    diff.turns = Some((want_turns, got_turns));
    diff
}

/// Terminal lines as the comparison's lines: `texts` are their texts.
pub(super) fn as_lines<'t>(texts: &'t [Vec<u8>], terms: &[TermLine]) -> Vec<Line<'t>> {
    texts
        .iter()
        .zip(terms)
        .enumerate()
        .map(|(index, (text, term))| Line {
            index,
            text,
            newline: term.newline,
        })
        .collect()
}

/// Where two terminals first differ under `options` and `regions`: the
/// line of each (the line after the last, for a side that ended
/// there) and the byte of its output where they part. `None` when they
/// do not differ.
pub fn first_difference(
    want: &[TermLine],
    got: &[TermLine],
    options: &Options,
    regions: &[Region],
) -> Option<(Focus, Focus)> {
    focus(&terminal_diff(want, got, options, regions), want, got)
}

/// Where the terminals `diff` compared first differ (see
/// [`first_difference`]).
pub fn focus(diff: &LineDiff, want: &[TermLine], got: &[TermLine]) -> Option<(Focus, Focus)> {
    let op = diff.ops.iter().find(|op| op.tag() != DiffTag::Equal)?;
    let (_, old, new) = op.as_tag_tuple();
    let at = |kept: &[usize], i: usize, len: usize| kept.get(i).copied().unwrap_or(len);
    let w = at(&diff.expected_kept, old.start, want.len());
    let g = at(&diff.actual_kept, new.start, got.len());
    let column = match (want.get(w), got.get(g)) {
        (Some(a), Some(b)) => Some(
            a.output
                .iter()
                .zip(&b.output)
                .take_while(|(x, y)| x == y)
                .count(),
        ),
        _ => None,
    };
    Some((Focus { line: w, column }, Focus { line: g, column }))
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
    fn a_flood_is_diffed_in_a_window_the_same_way_every_time() {
        let expected = b"a\nb\nc\n".to_vec();
        let flood: Vec<u8> = (0..50_000)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let mut actual = b"a\nb\n".to_vec();
        actual.extend_from_slice(&flood);
        let lines = |t: &[u8]| {
            split_lines(t)
                .into_iter()
                .map(|l| l.text.to_vec())
                .collect::<Vec<_>>()
        };
        let (want, got) = (lines(&expected), lines(&actual));
        let keys = |texts: &[Vec<u8>]| -> Vec<Key> {
            texts.iter().map(|t| Key::new(t.clone(), None)).collect()
        };
        let (want, got) = (keys(&want), keys(&got));
        let want: Vec<&Key> = want.iter().collect();
        let got: Vec<&Key> = got.iter().collect();
        let ops = bounded_diff(&want, &got);
        assert_eq!(ops, bounded_diff(&want, &got));
        assert_eq!(
            ops[0],
            DiffOp::Equal {
                old_index: 0,
                new_index: 0,
                len: 2
            }
        );
        // Every line of both sides is in exactly one op, in order.
        let (mut old, mut new) = (0, 0);
        for op in &ops {
            let (_, o, n) = op.as_tag_tuple();
            assert_eq!((o.start, n.start), (old, new));
            (old, new) = (o.end, n.end);
        }
        assert_eq!((old, new), (want.len(), got.len()));
    }

    #[test]
    fn the_first_difference_names_each_sides_line_and_column() {
        use crate::transcript::{lines, Transcript};
        let term = |out: &[u8]| {
            let mut t = Transcript::new();
            t.push_output(out);
            lines(&t, false)
        };
        let want = term(b"same\nRed wins!\n");
        let got = term(b"same\nRed won!\nmore\n");
        let (w, g) = first_difference(&want, &got, &Options::default(), &[]).unwrap();
        assert_eq!((w.line, g.line), (1, 1));
        assert_eq!(w.column, Some(5));
        let (w, g) = first_difference(&want, &term(b"same\n"), &Options::default(), &[]).unwrap();
        assert_eq!((w.line, g.line, g.column), (1, 1, None));
        assert!(first_difference(&want, &want, &Options::default(), &[]).is_none());
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
