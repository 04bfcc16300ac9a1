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
//!   Two more readings are tried where that one leaves the turn
//!   different (issue 46), the first that makes it equal taken:
//!   - its partial line compared as a line, without what was typed: the
//!     program printed the reference's last line of the turn with no
//!     newline and no prompt (Python's `print(..., end="")` before an
//!     `input()`);
//!   - its prompt at the start of the turn, before its other lines (a
//!     `System.out.print("> ")` at the top of a loop): the start of the
//!     turn's first line, ending with a space, holding no digit, at most
//!     [`PROMPT_ROOM`] bytes, and the rest of that line is the
//!     reference's first line of the turn. A sign or a digit is never
//!     taken for a prompt, so `-5` or `112` never passes for `5` or
//!     `12`.
//!
//!   Where no reading makes a turn equal, the one that pairs most of its
//!   lines with the reference's is kept, so that the difference shown is
//!   the line that differs. Such lines are kept as [`Part`]s: reports
//!   show what was taken for the prompt (`~`).
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

use super::{comparable, key as key_of, Key, Line, Options, Region};
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
    /// The bytes printed on that line before it.
    pub printed: usize,
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
            printed: l.output.len(),
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
    /// The lines compared by a part of them, the rest left out: a line
    /// that begins with the program's prompt (`> First: 0/100`, the
    /// prompt `> `), or the partial line before a read compared without
    /// what was typed after it (a line the reference prints whole).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
}

/// A line compared by a part of it: its bytes `from..to` (of its text,
/// what was typed included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// The line.
    pub line: usize,
    /// Where the part compared begins: what is before it is a prompt.
    pub from: usize,
    /// Where it ends: what is after it was typed.
    pub to: usize,
}

/// The most bytes a prompt at the start of a turn may have.
pub const PROMPT_ROOM: usize = 120;

/// The longest line looked into for a prompt at its start.
const LINE_ROOM: usize = 4096;

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

    /// `keys` with each part's line keyed by its part alone.
    fn keyed(
        &self,
        lines: &[Line<'_>],
        keys: &[Option<Key>],
        options: &Options,
    ) -> Vec<Option<Key>> {
        let mut keys = keys.to_vec();
        for part in &self.parts {
            let text = lines
                .get(part.line)
                .and_then(|l| Some((l.text.get(part.from..part.to)?, l.newline)));
            if let (Some((text, newline)), Some(Some(slot))) = (text, keys.get_mut(part.line)) {
                *slot = key_of(text, newline, options);
            }
        }
        keys
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
/// under every reading, the reading that pairs most of its lines with
/// the reference's is kept, so that the difference shown is the line
/// that differs: the rule's (a bare read's line before is shown as the
/// program's prompt when the program printed more lines there than the
/// reference did), unless a prompt at the turn's start or a partial line
/// compared pairs more.
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
        let turn = Turn {
            lines: actual,
            keys: &got_keys,
            start,
            read,
            options,
            want_keys: &want_keys,
            want: want.get(k).map_or(&[][..], Vec::as_slice),
        };
        let reading = turn.reading();
        yours.prompts.extend(reading.prompts);
        yours.parts.extend(reading.parts);
        yours.reads.push(read.line);
        start = read.line + 1;
    }
    (reference, yours)
}

/// One turn of the program's, to be read against the reference's.
struct Turn<'t, 'l> {
    lines: &'t [Line<'l>],
    keys: &'t [Option<Key>],
    /// Its first line.
    start: usize,
    /// The read that ends it.
    read: &'t Read,
    options: &'t Options,
    /// The reference's keys, and the lines of its turn compared.
    want_keys: &'t [Option<Key>],
    want: &'t [usize],
}

/// A way of reading a turn: which of its lines are prompts, and which
/// are compared by a part.
#[derive(Clone, Debug, Default)]
struct Reading {
    prompts: Vec<usize>,
    parts: Vec<Part>,
}

impl Turn<'_, '_> {
    /// The reading of the turn: the first of these that makes it equal
    /// to the reference's turn, else the one that pairs most lines.
    ///
    /// 1. The rule: the partial line before the read is the prompt, and
    ///    for a bare read the line before it is when that makes the
    ///    turn equal.
    /// 2. The partial line before the read compared as a line, without
    ///    what was typed: `Second: 0/100` printed with no newline and no
    ///    prompt before the read, where the reference prints it whole,
    ///    then its prompt.
    /// 3. A prompt at the start of the turn: the start of its first line
    ///    ([`Turn::prompt_at_start`]), and the read's partial line.
    fn reading(&self) -> Reading {
        let read = self.read.line;
        let plain = Reading {
            prompts: vec![read],
            parts: Vec::new(),
        };
        let before = line_before(self.read, self.start);
        let with_before = before.map(|b| Reading {
            prompts: vec![b, read],
            parts: Vec::new(),
        });
        let mut readings: Vec<Reading> = with_before.iter().cloned().collect();
        readings.push(plain.clone());
        if !self.read.bare {
            readings.push(Reading {
                prompts: Vec::new(),
                parts: vec![Part {
                    line: read,
                    from: 0,
                    to: self.read.printed,
                }],
            });
        }
        let first = (self.start..read).find(|&i| self.keys.get(i).is_some_and(Option::is_some));
        if let Some(first) = first {
            if let Some(from) = self.prompt_at_start(first) {
                readings.push(Reading {
                    prompts: vec![read],
                    parts: vec![Part {
                        line: first,
                        from,
                        to: self.lines[first].text.len(),
                    }],
                });
            }
        }
        let scores: Vec<((usize, bool), bool)> = readings.iter().map(|r| self.score(r)).collect();
        if let Some(i) = scores.iter().position(|&(_, same)| same) {
            return readings.swap_remove(i);
        }
        // None is the same: the rule's choice, unless another pairs more.
        let rule = match (&with_before, before) {
            (Some(with), Some(_)) if self.compared(with).len() + 1 > self.want.len() => {
                with.clone()
            }
            _ => plain,
        };
        let rule_score = self.score(&rule).0;
        let best = scores
            .iter()
            .enumerate()
            .filter(|(i, _)| !readings[*i].parts.is_empty())
            .max_by_key(|(i, (score, _))| (*score, std::cmp::Reverse(*i)));
        match best {
            Some((i, (score, _))) if *score > rule_score => readings.swap_remove(i),
            _ => rule,
        }
    }

    /// The turn's lines compared under `reading`, each with its key.
    fn compared(&self, reading: &Reading) -> Vec<Option<Key>> {
        (self.start..=self.read.line.min(self.keys.len().saturating_sub(1)))
            .filter(|i| !reading.prompts.contains(i))
            .filter_map(|i| {
                let key = self.keys.get(i)?.as_ref()?;
                match reading.parts.iter().find(|p| p.line == i) {
                    Some(part) => {
                        let line = &self.lines[i];
                        let text = line.text.get(part.from..part.to)?;
                        Some(Some(key_of(text, line.newline, self.options)))
                    }
                    None => Some(Some(key.clone())),
                }
            })
            .collect()
    }

    /// How well `reading` pairs the turn with the reference's: how many
    /// lines it pairs (its same start and its same end), then whether it
    /// has as many lines; and whether it is the same.
    fn score(&self, reading: &Reading) -> ((usize, bool), bool) {
        let got = self.compared(reading);
        let want: Vec<&Option<Key>> = self.want.iter().map(|&i| &self.want_keys[i]).collect();
        let as_many = got.len() == want.len();
        if as_many && got.iter().zip(&want).all(|(g, w)| g == *w) {
            return ((want.len(), true), true);
        }
        let head = got.iter().zip(&want).take_while(|(g, w)| g == *w).count();
        let tail = got
            .iter()
            .rev()
            .zip(want.iter().rev())
            .take_while(|(g, w)| g == *w)
            .count();
        (
            ((head + tail).min(got.len().min(want.len())), as_many),
            false,
        )
    }

    /// Where the text after a prompt at the start of line `first` begins,
    /// when the rest of that line is the reference's first line of the
    /// turn: the prompt ends with a space, holds no digit and is at
    /// most [`PROMPT_ROOM`] bytes, so that a number's sign or digits are
    /// never taken for one.
    fn prompt_at_start(&self, first: usize) -> Option<usize> {
        let want = self.want_keys.get(*self.want.first()?)?.as_ref()?;
        let line = &self.lines[first];
        if line.text.len() > LINE_ROOM {
            return None;
        }
        let room = line.text.len().min(PROMPT_ROOM);
        (1..room)
            .filter(|&at| line.text[at - 1] == b' ' && line.text[at] != b' ')
            .take_while(|&at| !line.text[..at].iter().any(u8::is_ascii_digit))
            .find(|&at| key_of(&line.text[at..], line.newline, self.options) == *want)
    }
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
        let want_keys = turns.0.keyed(expected, &want_keys, options);
        let got_keys = turns.1.keyed(actual, &got_keys, options);
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
    /// A menu loop as MOOC.fi's Liquid Containers has it: two status
    /// lines, then `> ` and the command.
    const CONTAINERS: &[Option<&str>] = &[
        Some("First: 0/100\nSecond: 0/100\n> "),
        None,
        Some("First: 50/100\nSecond: 0/100\n> "),
        None,
        Some("First: 20/100\nSecond: 30/100\n> "),
        None,
    ];

    #[test]
    fn a_prompt_at_the_start_of_the_turn_or_none_before_a_partial_line_passes() {
        let o = prompts();
        let at_the_top: &[Option<&str>] = &[
            Some("> First: 0/100\nSecond: 0/100\n"),
            None,
            Some("> First: 50/100\nSecond: 0/100\n"),
            None,
            Some("> First: 20/100\nSecond: 30/100\n"),
            None,
        ];
        let no_prompt: &[Option<&str>] = &[
            Some("First: 0/100\nSecond: 0/100"),
            None,
            Some("First: 50/100\nSecond: 0/100"),
            None,
            Some("First: 20/100\nSecond: 30/100"),
            None,
        ];
        let other_words: &[Option<&str>] = &[
            Some("Command: First: 0/100\nSecond: 0/100\n"),
            None,
            Some("Command: First: 50/100\nSecond: 0/100\n"),
            None,
            Some("Command: First: 20/100\nSecond: 30/100\n"),
            None,
        ];
        for got in [CONTAINERS, at_the_top, no_prompt, other_words] {
            assert!(same(CONTAINERS, got, &o), "{got:?}");
            // Without `prompts`, each is a difference.
            let exact = super::super::same_output(
                &output(CONTAINERS),
                &output(got),
                &Options::default(),
                &[],
            );
            assert_eq!(exact, got == CONTAINERS, "{got:?}");
        }
    }

    /// The line where two terminals first differ under `prompts`.
    fn first_differing(want: &[Option<&str>], got: &[Option<&str>]) -> (usize, usize) {
        let (want, got) = (terminal(want, false), terminal(got, false));
        let (w, g) = super::super::first_difference(&want, &got, &prompts(), &[]).unwrap();
        (w.line, g.line)
    }

    #[test]
    fn a_wrong_status_number_still_fails_at_its_line() {
        let o = prompts();
        // The second status after the second command is wrong.
        let at_the_top: &[Option<&str>] = &[
            Some("> First: 0/100\nSecond: 0/100\n"),
            None,
            Some("> First: 50/100\nSecond: 0/100\n"),
            None,
            Some("> First: 20/100\nSecond: 40/100\n"),
            None,
        ];
        assert!(!same(CONTAINERS, at_the_top, &o));
        // The reference's line 5 (`Second: 30/100`), the program's 5.
        assert_eq!(first_differing(CONTAINERS, at_the_top), (7, 7));
        let no_prompt: &[Option<&str>] = &[
            Some("First: 0/100\nSecond: 0/100"),
            None,
            Some("First: 50/100\nSecond: 0/100"),
            None,
            Some("First: 20/100\nSecond: 40/100"),
            None,
        ];
        assert!(!same(CONTAINERS, no_prompt, &o));
        assert_eq!(first_differing(CONTAINERS, no_prompt), (7, 5));
        let first_wrong: &[Option<&str>] = &[
            Some("> First: 0/100\nSecond: 0/100\n"),
            None,
            Some("> First: 5/100\nSecond: 0/100\n"),
            None,
            Some("> First: 20/100\nSecond: 30/100\n"),
            None,
        ];
        assert_eq!(first_differing(CONTAINERS, first_wrong), (3, 3));
    }

    #[test]
    fn a_number_or_a_sign_is_never_taken_for_a_prompt() {
        let o = prompts();
        let want: &[Option<&str>] = &[Some("Total:\n12\n> "), None, Some("Bye\n")];
        for wrong in ["1 12", "-12", "x12", "> 112", "Total: 12"] {
            let got_text = format!("Total:\n{wrong}\n> ");
            let got: &[Option<&str>] = &[Some(&got_text), None, Some("Bye\n")];
            assert!(!same(want, got, &o), "{wrong}");
        }
        // At the start of the turn, where its first line is `Total:`.
        let want: &[Option<&str>] = &[Some("12\n> "), None, Some("Bye\n")];
        for wrong in ["1 12\n", "-12\n", "x12\n", "3 > 12\n"] {
            let got: &[Option<&str>] = &[Some(wrong), None, Some("Bye\n")];
            assert!(!same(want, got, &o), "{wrong}");
        }
        let right: &[Option<&str>] = &[Some("> 12\n"), None, Some("Bye\n")];
        assert!(same(want, right, &o));
    }

    #[test]
    fn what_was_taken_for_the_prompt_is_kept_as_a_part() {
        let want = terminal(CONTAINERS, false);
        let got = terminal(
            &[
                Some("> First: 0/100\nSecond: 0/100\n"),
                None,
                Some("First: 50/100\nSecond: 0/100"),
                None,
            ],
            false,
        );
        let texts = |lines: &[TermLine]| lines.iter().map(TermLine::text).collect::<Vec<_>>();
        let (w, g) = (texts(&want), texts(&got));
        let (_, yours) = turns(
            &super::super::rows::as_lines(&w, &want),
            &reads(&want),
            &super::super::rows::as_lines(&g, &got),
            &reads(&got),
            &prompts(),
            &[],
        );
        assert_eq!(yours.reads, [2, 4]);
        assert_eq!(yours.prompts, [2]);
        assert_eq!(
            yours.parts,
            [
                Part {
                    line: 0,
                    from: 2,
                    to: 14
                },
                Part {
                    line: 4,
                    from: 0,
                    to: 13
                }
            ]
        );
    }
}
