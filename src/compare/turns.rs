//! `prompts` in `compare:`: a program's prompts are not compared.
//!
//! Referee knows where each read happened, so the output is cut into
//! **turns**: turn k is what was printed after input line k (turn 0
//! before the first input) up to the next read; the text after the last
//! read is the last turn. With `prompts`, the two outputs are compared
//! turn by turn, each turn without its prompt, under the case's other
//! options (and its suite's ignored regions):
//!
//! - **The reference's prompt** is the text on the line where it then
//!   reads (the partial line before the read), or, when that is empty
//!   because it ended its prompt with a newline (`Height:` on a line of
//!   its own), the last line it printed since the previous read.
//! - **The program's prompt** is its partial line when that is not
//!   empty; otherwise its last line of the turn is its prompt only when
//!   the turn without it compares equal to the reference's turn without
//!   its prompt. A line is only ever left out where a prompt stands, and
//!   a program that prints no prompt at all is not failed for it.
//! - The text after the last read has no prompt; a program left waiting
//!   for input at the end is reading there, so its last turn has one.
//!
//! So `Please enter your height: `, `Height:` and a newline, and
//! `Height: ` all pass against a reference asking `Height: `, and every
//! answer is still compared line by line. A message printed on the
//! prompt's own line is part of the prompt. Whether reads happen in the
//! same places is the ending's business (how many lines were read), not
//! this comparison's.

use serde::{Deserialize, Serialize};

use super::{comparable, Key, Line, Options, Region};
use crate::transcript::TermLine;

/// A read, in a side's terminal lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    /// The line it happened at: where the input was typed, or where the
    /// program was left waiting.
    pub line: usize,
    /// Whether nothing was printed on that line before it (the prompt,
    /// if any, ended with a newline).
    pub bare: bool,
}

/// The reads of a terminal's lines.
pub fn reads(lines: &[TermLine]) -> Vec<Read> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.input.is_some() || l.waiting)
        .map(|(line, l)| Read {
            line,
            bare: l.output.is_empty(),
        })
        .collect()
}

/// A side's lines cut into turns at its reads, with the lines left out
/// as prompts: what reports need to show a `prompts` comparison as
/// grading made it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turns {
    /// The line of each read, in order: a turn ends with its read's
    /// line.
    pub reads: Vec<usize>,
    /// The lines not compared, in order: each read's line (its partial
    /// line, the prompt when not empty) and a prompt ended by a newline.
    pub prompts: Vec<usize>,
}

impl Turns {
    /// The reference's turns: its prompts by the rule alone.
    fn reference(reads: &[Read]) -> Turns {
        let mut turns = Turns::default();
        let mut start = 0;
        for read in reads {
            if let Some(before) = line_before(read, start) {
                turns.prompts.push(before);
            }
            turns.prompts.push(read.line);
            turns.reads.push(read.line);
            start = read.line + 1;
        }
        turns
    }

    /// For each turn, the lines of it that are compared (`keys` has a
    /// key for them), in order.
    fn compared(&self, keys: &[Option<Key>]) -> Vec<Vec<usize>> {
        let mut left_out = vec![false; keys.len()];
        for &i in self.prompts.iter().filter(|&&i| i < keys.len()) {
            left_out[i] = true;
        }
        let kept = |range: std::ops::Range<usize>| -> Vec<usize> {
            range
                .filter(|&i| keys[i].is_some() && !left_out[i])
                .collect()
        };
        let mut turns = Vec::with_capacity(self.reads.len() + 1);
        let mut start = 0;
        for &read in &self.reads {
            let end = (read + 1).clamp(start, keys.len());
            turns.push(kept(start..end));
            start = end;
        }
        turns.push(kept(start..keys.len()));
        turns
    }
}

/// The line before a bare read, in its turn: where a prompt ended by a
/// newline stands.
fn line_before(read: &Read, turn_start: usize) -> Option<usize> {
    read.line
        .checked_sub(1)
        .filter(|&before| read.bare && before >= turn_start)
}

/// Both sides' lines, each with its key when it is compared (not in an
/// ignored region, not a blank line the options ignore).
pub(super) fn keys(
    expected: &[Line<'_>],
    actual: &[Line<'_>],
    options: &Options,
    regions: &[Region],
) -> (Vec<Option<Key>>, Vec<Option<Key>>) {
    let (want, spans) = comparable(expected, options, regions, None);
    let (got, _) = comparable(actual, options, regions, Some(&spans));
    let by_line = |n: usize, keyed: Vec<super::Keyed<'_>>| {
        let mut keys = vec![None; n];
        for k in keyed {
            keys[k.line.index] = Some(k.key);
        }
        keys
    };
    (by_line(expected.len(), want), by_line(actual.len(), got))
}

/// Both sides' turns: the reference's prompts by the rule, the
/// program's as the module's documentation says. Where a turn differs
/// anyway, a bare read's line before is shown as the program's prompt
/// when the program printed more lines there than the reference did.
pub fn turns(
    expected: &[Line<'_>],
    expected_reads: &[Read],
    actual: &[Line<'_>],
    actual_reads: &[Read],
    options: &Options,
    regions: &[Region],
) -> (Turns, Turns) {
    let (want_keys, got_keys) = keys(expected, actual, options, regions);
    let reference = Turns::reference(expected_reads);
    let want = reference.compared(&want_keys);
    let mut yours = Turns::default();
    let mut start = 0;
    for (k, read) in actual_reads.iter().enumerate() {
        if let Some(before) = line_before(read, start) {
            let theirs: Vec<usize> = (start..read.line)
                .filter(|&i| got_keys.get(i).is_some_and(Option::is_some))
                .collect();
            let without: Vec<usize> = theirs.iter().copied().filter(|&i| i != before).collect();
            let reference_turn = want.get(k).map_or(&[][..], Vec::as_slice);
            let same = |lines: &[usize]| same_lines(&want_keys, reference_turn, &got_keys, lines);
            if same(&without) || (!same(&theirs) && theirs.len() > reference_turn.len()) {
                yours.prompts.push(before);
            }
        }
        yours.prompts.push(read.line);
        yours.reads.push(read.line);
        start = read.line + 1;
    }
    (reference, yours)
}

/// Whether the lines `want` of one side have the keys of the lines
/// `got` of the other, in order.
fn same_lines(
    want_keys: &[Option<Key>],
    want: &[usize],
    got_keys: &[Option<Key>],
    got: &[usize],
) -> bool {
    want.len() == got.len()
        && want
            .iter()
            .zip(got)
            .all(|(&w, &g)| want_keys[w] == got_keys[g])
}

/// Each side's compared lines, turn by turn, as [`Turns`] cut them: the
/// turns of both sides, paired, and the keys of every line.
pub(super) struct Paired {
    /// The reference's compared lines, per turn.
    pub want: Vec<Vec<usize>>,
    /// The program's, per turn.
    pub got: Vec<Vec<usize>>,
    /// The keys of the reference's lines (`None`: not compared).
    pub want_keys: Vec<Option<Key>>,
    /// The keys of the program's lines.
    pub got_keys: Vec<Option<Key>>,
}

impl Paired {
    /// Both sides' lines cut into the turns given.
    pub fn new(
        expected: &[Line<'_>],
        actual: &[Line<'_>],
        options: &Options,
        regions: &[Region],
        turns: (&Turns, &Turns),
    ) -> Paired {
        let (want_keys, got_keys) = keys(expected, actual, options, regions);
        let mut want = turns.0.compared(&want_keys);
        let mut got = turns.1.compared(&got_keys);
        let n = want.len().max(got.len());
        want.resize(n, Vec::new());
        got.resize(n, Vec::new());
        Paired {
            want,
            got,
            want_keys,
            got_keys,
        }
    }

    /// Whether every turn is the same.
    pub fn same(&self) -> bool {
        self.want
            .iter()
            .zip(&self.got)
            .all(|(w, g)| same_lines(&self.want_keys, w, &self.got_keys, g))
    }
}

#[cfg(test)]
mod tests {
    use super::super::same_terminal;
    use super::*;
    use crate::transcript::{lines, Transcript};

    /// A terminal: output and typed input in turn, `None` for an input
    /// line; left waiting at the end when `waiting`.
    fn terminal(parts: &[Option<&str>], waiting: bool) -> Vec<TermLine> {
        let mut t = Transcript::new();
        for (i, part) in parts.iter().enumerate() {
            match part {
                Some(output) => t.push_output(output.as_bytes()),
                None => t.push_input(&format!("input {i}")),
            }
        }
        lines(&t, waiting)
    }

    fn prompts() -> Options {
        Options::default().relax("prompts").unwrap()
    }

    fn same(want: &[Option<&str>], got: &[Option<&str>], options: &Options) -> bool {
        same_terminal(&terminal(want, false), &terminal(got, false), options, &[])
    }

    /// Everything printed, as comparison without `prompts` sees it.
    fn output(parts: &[Option<&str>]) -> Vec<u8> {
        parts.iter().flatten().flat_map(|s| s.bytes()).collect()
    }

    const REFERENCE: &[Option<&str>] = &[
        Some("Height: "),
        None,
        Some("You are 5 feet tall.\nWeight: "),
        None,
        Some("BMI 20\n"),
    ];

    #[test]
    fn a_prompt_with_or_without_a_newline_or_none_at_all_passes() {
        let o = prompts();
        for got in [
            REFERENCE,
            &[
                Some("Please enter your height: "),
                None,
                Some("You are 5 feet tall.\nAnd your weight? "),
                None,
                Some("BMI 20\n"),
            ],
            &[
                Some("Height:\n"),
                None,
                Some("You are 5 feet tall.\nWeight:\n"),
                None,
                Some("BMI 20\n"),
            ],
            &[None, Some("You are 5 feet tall.\n"), None, Some("BMI 20\n")],
        ] {
            assert!(same(REFERENCE, got, &o), "{got:?}");
            let exact = super::super::same_output(
                &output(REFERENCE),
                &output(got),
                &Options::default(),
                &[],
            );
            assert_eq!(exact, got == REFERENCE, "{got:?}");
        }
    }

    #[test]
    fn every_answer_is_still_compared() {
        let o = prompts();
        let wrong_answer = [
            Some("Height:\n"),
            None,
            Some("You are 6 feet tall.\nWeight:\n"),
            None,
            Some("BMI 20\n"),
        ];
        assert!(!same(REFERENCE, &wrong_answer, &o));
        // A line printed before a newline-ended prompt counts: only the
        // last line can be the prompt.
        let extra = [
            Some("Height:\n"),
            None,
            Some("You are 5 feet tall.\nCareful!\nWeight:\n"),
            None,
            Some("BMI 20\n"),
        ];
        assert!(!same(REFERENCE, &extra, &o));
        // The text after the last read has no prompt.
        let last = [
            Some("Height: "),
            None,
            Some("You are 5 feet tall.\nWeight: "),
            None,
            Some("BMI 20\nBye: "),
        ];
        assert!(!same(REFERENCE, &last, &o));
    }

    #[test]
    fn the_reference_prompt_ended_by_a_newline_is_its_last_line() {
        let o = prompts();
        let want = [
            Some("Height:\n"),
            None,
            Some("You are 5 feet tall.\nWeight:\n"),
            None,
            Some("BMI 20\n"),
        ];
        assert!(same(&want, REFERENCE, &o));
        assert!(same(
            &want,
            &[None, Some("You are 5 feet tall.\n"), None, Some("BMI 20\n")],
            &o
        ));
    }

    #[test]
    fn several_reads_in_a_row_with_no_output_between() {
        let o = prompts();
        let want = [Some("Two numbers:\n"), None, None, Some("Sum 7\n")];
        assert!(same(
            &want,
            &[Some("Enter a and b: "), None, None, Some("Sum 7\n")],
            &o
        ));
        assert!(same(&want, &[None, Some("b? "), None, Some("Sum 7\n")], &o));
        assert!(!same(
            &want,
            &[None, Some("b:\nSum 7\n"), None, Some("Sum 7\n")],
            &o
        ));
    }

    #[test]
    fn left_waiting_at_the_end_is_a_read_with_its_prompt() {
        let o = prompts();
        let want = terminal(&[Some("Age: "), None, Some("Not a number.\nAge: ")], true);
        let got = terminal(
            &[
                Some("Age? "),
                None,
                Some("Not a number.\nHow old are you?\n"),
            ],
            true,
        );
        assert!(same_terminal(&want, &got, &o, &[]));
        let other = terminal(&[Some("Age? "), None, Some("Bad input.\nAge? ")], true);
        assert!(!same_terminal(&want, &other, &o, &[]));
    }

    #[test]
    fn the_other_options_and_the_regions_still_apply() {
        let o = prompts().relax("whitespace-runs").unwrap();
        let got = [
            Some("Height? "),
            None,
            Some("You  are 5 feet tall. \nWeight? "),
            None,
            Some("BMI   20\n"),
        ];
        assert!(same(REFERENCE, &got, &o));
        assert!(!same(REFERENCE, &got, &prompts()));
        let header = Region {
            name: "header".into(),
            from: None,
            until: regex::bytes::Regex::new("^Height").unwrap(),
        };
        let want = terminal(
            &[Some("By A. Teacher\nHeight: "), None, Some("Tall\n")],
            false,
        );
        let mine = terminal(
            &[
                Some("Ann Lee, lab 3\nsection 2\nHeight? "),
                None,
                Some("Tall\n"),
            ],
            false,
        );
        assert!(!same_terminal(&want, &mine, &prompts(), &[]));
        assert!(same_terminal(&want, &mine, &prompts(), &[header]));
    }

    #[test]
    fn a_program_prompt_left_out_only_where_the_rest_matches() {
        let want = terminal(REFERENCE, false);
        let got = terminal(
            &[
                Some("Height:\n"),
                None,
                Some("You are 6 feet tall.\nWeight:\n"),
                None,
                Some("BMI 20\n"),
            ],
            false,
        );
        let texts = |lines: &[TermLine]| lines.iter().map(TermLine::text).collect::<Vec<_>>();
        let (w, g) = (texts(&want), texts(&got));
        let (reference, yours) = turns(
            &super::super::rows::as_lines(&w, &want),
            &reads(&want),
            &super::super::rows::as_lines(&g, &got),
            &reads(&got),
            &prompts(),
            &[],
        );
        // The reference: `Height: 5` and `Weight: 5`, its partial lines.
        assert_eq!(reference.prompts, [0, 2]);
        // The program: `Height:` (the rest of turn 0 matches), the line
        // it typed on, and `Weight:` (it printed more lines than the
        // reference there), though `6 feet` differs.
        assert_eq!(yours.prompts, [0, 1, 3, 4]);
        assert_eq!(yours.reads, [1, 4]);
    }
}
