//! Pinned reference transcripts: each case's expected transcript is kept
//! in the repository next to the case (`<case>.transcript`), so that any
//! change to the reference shows up as a reviewed diff, and so that a
//! suite whose reference is an instructor's program grades without that
//! program: grading reads the pin.
//!
//! The file holds the transcript in terminal form, exactly as the
//! handouts' sample runs print it, then what a terminal does not show,
//! each a mark attached to the end of what comes before it:
//! [`transcript::WAITING`] when the reference was still waiting for input
//! at the end of the case, `⟨exit status N⟩` when it exited with a status
//! other than 0, and last, always, where each line was typed
//! (`⟨typed: 9 lines, at the ends of lines 7, 14, ...⟩`). A line typed is
//! shown at the end of the line it was typed on, as on a terminal, so the
//! text alone cannot always tell typed from printed (a program that
//! prints `100` and then reads `100`); the last mark makes the file say
//! exactly what the reference did, and ties it to the case's input: a pin
//! whose typed lines are not the case's is stale.
//!
//! A case that gives files (`files:`) has a mark of them first, after
//! its command line: each file's name in the working folder and the
//! start of its SHA-256 (`⟨given before.csv 3f2a9c0e4b1d7a65⟩`). The
//! reference's output depends on what it read, so a pin made when a
//! given file held something else is stale too.
//!
//! A case that keeps stderr apart (`stderr: apart`, `ignored` or
//! `only`) ends its pin with what the reference wrote to stderr, its
//! bytes and then `⟨stderr: 48 bytes⟩`, after any output files; no other
//! case's pin has it, so pins made before stderr could be apart hold.
//!
//! Function-call cases pin what the reference's function returns and
//! leaves instead ([`crate::call::Call::pin`]).

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{Case, Stderr};
use crate::expected::ReferenceRun;
use crate::submission::SUPPORT_LIMIT;
use crate::transcript::{self, Transcript};

const TYPED: &str = "⟨typed: ";
const STATUS: &str = "⟨exit status ";
const CLOSE: &str = "⟩\n";

/// The pinned text of a reference run; `ends` when the case's input ended
/// after its last line (Ctrl-D).
pub fn render(run: &ReferenceRun, ends: bool) -> Vec<u8> {
    let mut text = run.transcript.terminal();
    if run.waited_at_end {
        text.extend_from_slice(transcript::WAITING.as_bytes());
        text.push(b'\n');
    }
    if run.status != 0 {
        text.extend_from_slice(format!("{STATUS}{}{CLOSE}", run.status).as_bytes());
    }
    text.extend_from_slice(typed_mark(&typed_lines(&run.transcript), ends).as_bytes());
    text
}

/// The lines of the terminal (from 1) at whose ends each input was
/// typed.
fn typed_lines(transcript: &Transcript) -> Vec<usize> {
    transcript::lines(transcript, false)
        .iter()
        .enumerate()
        .filter(|(_, line)| line.input.is_some())
        .map(|(i, _)| i + 1)
        .collect()
}

fn typed_mark(lines: &[usize], ends: bool) -> String {
    let numbers: Vec<String> = lines.iter().map(usize::to_string).collect();
    let end = if ends { ENDED } else { "" };
    match lines.len() {
        0 => format!("{TYPED}nothing{end}{CLOSE}"),
        1 => format!(
            "{TYPED}1 line, at the end of line {}{end}{CLOSE}",
            numbers[0]
        ),
        n => format!(
            "{TYPED}{n} lines, at the ends of lines {}{end}{CLOSE}",
            numbers.join(", ")
        ),
    }
}

/// How the last mark says the input ended after its last line.
const ENDED: &str = ", then the end of input";

/// Why a pinned file cannot be read back as the case's reference run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// No mark saying where lines were typed: an older referee wrote it.
    #[error("it does not say where each line was typed (an older referee wrote it)")]
    NoTypedMark,
    /// The mark cannot be read.
    #[error("its last line `{0}` cannot be read")]
    BadMark(String),
    /// It does not start with the case's command line: it was pinned
    /// with other arguments, or none.
    #[error(
        "it does not start with the case's command line `{0}` (it was pinned with other arguments)"
    )]
    OtherCommand(String),
    /// It has no mark of the files the case gives: it was pinned before
    /// the case gave files, or by an older referee.
    #[error(
        "it does not say what the case's `files:` held when it was pinned (pinned before the case \
         gave files, or by an older referee)"
    )]
    NoGivenMark,
    /// A file the case gives held something else when it was pinned.
    #[error("the case's `files:` changed since it was pinned ({0})")]
    OtherFiles(String),
    /// It does not end with what the reference wrote to stderr, for a
    /// case that keeps stderr apart.
    #[error(
        "it does not hold what the reference wrote to stderr (pinned before the case kept stderr \
         apart)"
    )]
    NoStderr,
    /// It does not end with the file the case's `outputs` names.
    #[error("it does not hold the reference's {0} (pinned before the case named it in `outputs`)")]
    NoFile(String),
    /// A line it says was typed is not the case's input line.
    #[error("it has input line {line} typed as something other than the case's `{expected}`")]
    OtherInput {
        /// The input line, from 1.
        line: usize,
        /// What the case types there.
        expected: String,
    },
    /// It was pinned with the input ending where the case's does not, or
    /// the other way round.
    #[error("it was pinned {} the end of input after the last line, and the case {}", if *.pinned { "with" } else { "without" }, if *.pinned { "has none" } else { "has one" })]
    OtherEnd {
        /// Whether the pin has the end of input.
        pinned: bool,
    },
    /// It types more lines than the case has, or waits for more when
    /// the case has more.
    #[error("it reads {read} of the case's {given} input lines{}", if *.waited { " and waits for more" } else { "" })]
    OtherCount {
        /// Lines it says were read.
        read: usize,
        /// Lines the case has.
        given: usize,
        /// Whether it says the reference waited for more.
        waited: bool,
    },
}

/// The reference run a pinned file holds, for a case typing `inputs`:
/// an error when the file is not of this input (the case changed since
/// it was pinned) or cannot be read.
pub fn parse(text: &[u8], inputs: &[String], ends: bool) -> Result<ReferenceRun, Unreadable> {
    let (body, typed, pinned_ends) = strip_typed(text)?;
    if pinned_ends != ends {
        return Err(Unreadable::OtherEnd {
            pinned: pinned_ends,
        });
    }
    let (body, status) = strip_status(body);
    let (body, waited_at_end) = match body.strip_suffix(waiting_mark().as_slice()) {
        Some(body) => (body, true),
        None => (body, false),
    };
    let too_many = typed.len() > inputs.len();
    if too_many || (waited_at_end && typed.len() != inputs.len()) {
        return Err(Unreadable::OtherCount {
            read: typed.len(),
            given: inputs.len(),
            waited: waited_at_end,
        });
    }
    let transcript = rebuild(body, &typed, inputs)?;
    Ok(ReferenceRun {
        transcript,
        waited_at_end,
        status,
        files: Vec::new(),
    })
}

fn waiting_mark() -> Vec<u8> {
    format!("{}\n", transcript::WAITING).into_bytes()
}

/// The text before the last mark, the lines that mark names, and whether
/// it says the input then ended.
fn strip_typed(text: &[u8]) -> Result<(&[u8], Vec<usize>, bool), Unreadable> {
    let at = find_last(text, TYPED.as_bytes()).ok_or(Unreadable::NoTypedMark)?;
    let mark = &text[at..];
    let inner = mark
        .strip_prefix(TYPED.as_bytes())
        .and_then(|m| m.strip_suffix(CLOSE.as_bytes()))
        .and_then(|m| std::str::from_utf8(m).ok())
        .ok_or(Unreadable::NoTypedMark)?;
    let bad = || Unreadable::BadMark(String::from_utf8_lossy(mark).trim_end().to_string());
    let (inner, ends) = match inner.strip_suffix(ENDED) {
        Some(inner) => (inner, true),
        None => (inner, false),
    };
    let lines = if inner == "nothing" {
        Vec::new()
    } else {
        let (count, list) = inner.split_once(", at the end").ok_or_else(bad)?;
        let list = list
            .trim_start_matches("s of lines ")
            .trim_start_matches(" of line ");
        let lines: Vec<usize> = list
            .split(", ")
            .map(|n| n.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let count: usize = count
            .trim_end_matches(" lines")
            .trim_end_matches(" line")
            .parse()
            .map_err(|_| bad())?;
        let ascending = lines.windows(2).all(|w| w[0] < w[1]);
        if count != lines.len() || !ascending || lines.first() == Some(&0) {
            return Err(bad());
        }
        lines
    };
    Ok((&text[..at], lines, ends))
}

/// The text before an exit status mark at its end, and the status (0
/// when there is none).
fn strip_status(body: &[u8]) -> (&[u8], i32) {
    let Some(at) = find_last(body, STATUS.as_bytes()) else {
        return (body, 0);
    };
    let status = body[at..]
        .strip_prefix(STATUS.as_bytes())
        .and_then(|m| m.strip_suffix(CLOSE.as_bytes()))
        .and_then(|m| std::str::from_utf8(m).ok())
        .and_then(|m| m.parse::<i32>().ok());
    match status {
        Some(status) => (&body[..at], status),
        None => (body, 0),
    }
}

fn find_last(text: &[u8], needle: &[u8]) -> Option<usize> {
    text.windows(needle.len()).rposition(|w| w == needle)
}

/// The transcript of `body` with input `k` typed at the end of line
/// `typed[k]`.
fn rebuild(body: &[u8], typed: &[usize], inputs: &[String]) -> Result<Transcript, Unreadable> {
    let mut transcript = Transcript::new();
    let mut starts = vec![0];
    starts.extend(
        body.iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1),
    );
    let mut from = 0;
    for (k, &line) in typed.iter().enumerate() {
        let input = &inputs[k];
        let other = || Unreadable::OtherInput {
            line: k + 1,
            expected: input.clone(),
        };
        // Line `line` runs from its start to the newline before the next.
        let (Some(&start), Some(&next)) = (starts.get(line - 1), starts.get(line)) else {
            return Err(other());
        };
        let text = &body[start..next - 1];
        if !text.ends_with(input.as_bytes()) || next - 1 - input.len() < from {
            return Err(other());
        }
        let output_end = next - 1 - input.len();
        transcript.push_output(&body[from..output_end]);
        transcript.push_input(input);
        from = next;
    }
    transcript.push_output(&body[from..]);
    Ok(transcript)
}

/// The text to pin for a run of a case typing `inputs`: refused when the
/// reference's output itself ends like one of the marks, so that the
/// file would not read back as what the reference did.
pub fn pinned(run: &ReferenceRun, inputs: &[String], ends: bool) -> Result<Vec<u8>, Unpinnable> {
    let text = render(run, ends);
    let back = parse(&text, inputs, ends).map_err(|_| Unpinnable)?;
    let lines = |r: &ReferenceRun| transcript::lines(&r.transcript, r.waited_at_end);
    if lines(&back) != lines(run) || back.status != run.status {
        return Err(Unpinnable);
    }
    Ok(text)
}

/// The command line a pin of `case` starts with, when the case gives
/// arguments: `$ ./caesar 13`, as the terminal showed it.
fn command_line(case: &Case) -> Option<String> {
    case.command.as_ref().map(|c| format!("$ {c}\n"))
}

/// The mark of the files a case gives its run (`files:`), each by its
/// name in the working folder and the start of its SHA-256; `None` when
/// it gives none. A file that cannot be read is marked so, and a pin
/// made then is stale once it can be.
fn given_mark(case: &Case) -> Option<String> {
    mark_of(&given_files(case))
}

/// Each file the case gives, by its place in the working folder, with
/// its digest ([`file_digest`]) and, where the case gives it a mode of
/// its own, that mode (`3cffe17820e4ba99 mode 000`): read once however
/// the mark is used.
fn given_files(case: &Case) -> Vec<(String, String)> {
    case.files
        .iter()
        .map(|file| {
            let mut digest = file_digest(&file.source);
            if file.mode != crate::submission::GIVEN_MODE {
                digest.push_str(&format!(" mode {:03o}", file.mode));
            }
            (file.place.display().to_string(), digest)
        })
        .collect()
}

/// The mark of `given` files; `None` for none.
fn mark_of(given: &[(String, String)]) -> Option<String> {
    if given.is_empty() {
        return None;
    }
    let marks: Vec<String> = given
        .iter()
        .map(|(place, digest)| format!("{place} {digest}"))
        .collect();
    Some(format!("{GIVEN}{}{CLOSE}", marks.join(", ")))
}

const GIVEN: &str = "⟨given ";

/// The first 16 hexadecimal digits of the SHA-256 of a given file (one
/// of the suite's, at most [`SUPPORT_LIMIT`] bytes as every support
/// file), or `unreadable`.
fn file_digest(path: &Path) -> String {
    let bytes = fs::File::open(path).and_then(|file| {
        let mut bytes = Vec::new();
        file.take(SUPPORT_LIMIT + 1).read_to_end(&mut bytes)?;
        Ok(bytes)
    });
    match bytes {
        Ok(bytes) => Sha256::digest(&bytes)[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
        Err(_) => "unreadable".to_string(),
    }
}

/// `text` after the mark of the case's given files, or why the pin is
/// not of those files.
fn strip_given<'t>(text: &'t [u8], case: &Case) -> Result<&'t [u8], Unreadable> {
    let given = given_files(case);
    let Some(mark) = mark_of(&given) else {
        return Ok(text);
    };
    if let Some(rest) = text.strip_prefix(mark.as_bytes()) {
        return Ok(rest);
    }
    if !text.starts_with(GIVEN.as_bytes()) {
        return Err(Unreadable::NoGivenMark);
    }
    let line = text.split(|&b| b == b'\n').next().unwrap_or_default();
    let pinned = String::from_utf8_lossy(line);
    let inside = pinned
        .strip_prefix(GIVEN)
        .map(|rest| rest.strip_suffix(CLOSE.trim_end()).unwrap_or(rest))
        .unwrap_or_default();
    let marks: Vec<&str> = inside.split(", ").collect();
    let changed: Vec<&str> = given
        .iter()
        .filter(|(place, digest)| !marks.contains(&format!("{place} {digest}").as_str()))
        .map(|(place, _)| place.as_str())
        .collect();
    Err(Unreadable::OtherFiles(changed.join(", ")))
}

/// The reference run a case's pinned file holds ([`parse`]), the file
/// starting with the case's command line when it gives arguments, then
/// the mark of the files it gives: a pin of other arguments, or of files
/// that held something else, is stale.
pub fn parse_case(text: &[u8], case: &Case) -> Result<ReferenceRun, Unreadable> {
    let body = match command_line(case) {
        Some(line) => text
            .strip_prefix(line.as_bytes())
            .ok_or_else(|| Unreadable::OtherCommand(line.trim_end().to_string()))?,
        None => text,
    };
    let body = strip_given(body, case)?;
    // What the reference wrote to stderr comes last, for a case that
    // keeps it apart; before it the files, the last file last: each its
    // bytes, then a mark giving its name and size, read from the end.
    let (mut body, errors) = match case.stderr {
        Stderr::Together => (body, &[][..]),
        _ => strip_sized(body, STDERR).ok_or(Unreadable::NoStderr)?,
    };
    let mut files = Vec::with_capacity(case.outputs.len());
    for output in case.outputs.iter().rev() {
        let (rest, bytes) = strip_file(body, &output.name)
            .ok_or_else(|| Unreadable::NoFile(output.name.clone()))?;
        files.push((output.name.clone(), bytes.to_vec()));
        body = rest;
    }
    files.reverse();
    let mut run = parse(body, &case.input, case.end_of_input)?;
    run.files = files;
    run.transcript.push_errors(errors);
    Ok(run)
}

/// A file's mark, after its bytes: `⟨file after.csv: 42 bytes⟩`.
fn file_mark(name: &str, size: usize) -> String {
    sized_mark(&format!("{FILE}{name}"), size)
}

/// The mark after bytes kept whole (`what` names them): `⟨what: 42
/// bytes⟩`.
fn sized_mark(what: &str, size: usize) -> String {
    format!("{what}: {size} bytes{CLOSE}")
}

const FILE: &str = "⟨file ";

/// What the mark of the reference's stderr starts with, for a case that
/// keeps it apart: `⟨stderr: 38 bytes⟩`.
const STDERR: &str = "⟨stderr";

/// `text` without the file `name` at its end (its bytes and its mark),
/// and the file's bytes.
fn strip_file<'t>(text: &'t [u8], name: &str) -> Option<(&'t [u8], &'t [u8])> {
    strip_sized(text, &format!("{FILE}{name}"))
}

/// `text` without the bytes at its end that a [`sized_mark`] of `what`
/// follows, and those bytes.
fn strip_sized<'t>(text: &'t [u8], what: &str) -> Option<(&'t [u8], &'t [u8])> {
    let mark = text
        .strip_suffix(CLOSE.as_bytes())?
        .strip_suffix(b" bytes")?;
    let digits = mark.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    let (head, size) = mark.split_at(mark.len() - digits);
    let size: usize = std::str::from_utf8(size).ok()?.parse().ok()?;
    let at = head.strip_suffix(format!("{what}: ").as_bytes())?.len();
    let start = at.checked_sub(size)?;
    Some((&text[..start], &text[start..at]))
}

/// The text to pin for a run of `case` ([`pinned`]), after the case's
/// command line when it gives arguments, and followed by the files of
/// its `outputs` the reference left, each its bytes and then a mark
/// with its name and size (so any bytes read back).
pub fn pinned_case(run: &ReferenceRun, case: &Case) -> Result<Vec<u8>, Unpinnable> {
    let body = pinned(run, &case.input, case.end_of_input)?;
    let mut text = command_line(case).unwrap_or_default().into_bytes();
    text.extend_from_slice(given_mark(case).unwrap_or_default().as_bytes());
    text.extend_from_slice(&body);
    for output in &case.outputs {
        let bytes = run
            .files
            .iter()
            .find(|(name, _)| *name == output.name)
            .map(|(_, bytes)| bytes.as_slice())
            .ok_or(Unpinnable)?;
        text.extend_from_slice(bytes);
        text.extend_from_slice(file_mark(&output.name, bytes.len()).as_bytes());
    }
    if case.stderr != Stderr::Together {
        let errors = run.transcript.errors();
        text.extend_from_slice(errors);
        text.extend_from_slice(sized_mark(STDERR, errors.len()).as_bytes());
    }
    Ok(text)
}

/// A reference run whose pinned file would not read back as the run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the reference's output ends like one of referee's marks (`⟨…⟩`), so its pinned \
     transcript would not read back as what it printed"
)]
pub struct Unpinnable;

/// How a case's pin compares with the reference now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PinState {
    /// The pin is what the reference prints.
    Matches,
    /// There is no pin yet.
    Missing,
    /// The reference now prints something else.
    Differs {
        /// What the file holds.
        pinned: Vec<u8>,
        /// What the reference prints now.
        current: Vec<u8>,
    },
}

/// A case's pin, or `None` when it has none.
pub fn read(case: &Case) -> io::Result<Option<Vec<u8>>> {
    match fs::read(case.pin_file()) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Compares a case's pin with `current`, what the reference prints now.
pub fn compare(case: &Case, current: &[u8]) -> io::Result<PinState> {
    Ok(match read(case)? {
        Some(pinned) if pinned == current => PinState::Matches,
        Some(pinned) => PinState::Differs {
            pinned,
            current: current.to_vec(),
        },
        None => PinState::Missing,
    })
}

/// Writes `current` as a case's pin; true when the file changed.
pub fn write(case: &Case, current: &[u8]) -> io::Result<bool> {
    if compare(case, current)? == PinState::Matches {
        return Ok(false);
    }
    fs::write(case.pin_file(), current)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    fn run(events: &[(&str, bool)], waited: bool, status: i32) -> ReferenceRun {
        let mut transcript = Transcript::new();
        for (text, typed) in events {
            if *typed {
                transcript.push_input(text);
            } else {
                transcript.push_output(text.as_bytes());
            }
        }
        ReferenceRun {
            transcript,
            waited_at_end: waited,
            status,
            files: Vec::new(),
        }
    }

    #[test]
    fn a_pin_shows_the_terminal_and_says_where_lines_were_typed() {
        let played = run(
            &[("Height: ", false), ("5", true), ("#####\n", false)],
            false,
            0,
        );
        let text = String::from_utf8(render(&played, false)).unwrap();
        assert_eq!(
            text,
            "Height: 5\n#####\n⟨typed: 1 line, at the end of line 1⟩\n"
        );
        assert_eq!(parse(text.as_bytes(), &lines("5"), false).unwrap(), played);
    }

    #[test]
    fn what_the_text_alone_cannot_tell_the_mark_does() {
        // It prints 100 before it reads 100: the first `100` at a line's
        // end is printed, not typed.
        let played = run(
            &[
                ("Balance: 100\nAmount: ", false),
                ("100", true),
                ("Balance: 0\n", false),
            ],
            false,
            3,
        );
        let text = pinned(&played, &lines("100\nq"), false).unwrap();
        let shown = String::from_utf8(text.clone()).unwrap();
        assert!(
            shown.ends_with("Balance: 0\n⟨exit status 3⟩\n⟨typed: 1 line, at the end of line 2⟩\n")
        );
        let back = parse(&text, &lines("100\nq"), false).unwrap();
        assert_eq!(back, played);
        assert_eq!(back.status, 3);
    }

    #[test]
    fn a_reference_left_waiting_is_pinned_with_the_mark() {
        let played = run(
            &[("Column? ", false), ("3", true), ("Column? ", false)],
            true,
            0,
        );
        let text = pinned(&played, &lines("3"), false).unwrap();
        assert_eq!(
            String::from_utf8(text.clone()).unwrap(),
            "Column? 3\nColumn? ⟨still waiting for input⟩\n⟨typed: 1 line, at the end of line 1⟩\n"
        );
        assert_eq!(parse(&text, &lines("3"), false).unwrap(), played);
        // Nothing typed, and lines read on a line of their own.
        let silent = run(&[("table\n", false)], false, 0);
        assert_eq!(
            parse(&render(&silent, false), &lines("1\n2"), false).unwrap(),
            silent
        );
        let twice = run(&[("a", true), ("b", true), ("done\n", false)], false, 0);
        let text = render(&twice, false);
        assert!(String::from_utf8_lossy(&text).ends_with("at the ends of lines 1, 2⟩\n"));
        assert_eq!(parse(&text, &lines("a\nb"), false).unwrap(), twice);
    }

    #[test]
    fn a_pin_of_another_input_is_stale() {
        let played = run(
            &[("Column? ", false), ("3", true), ("Column? ", false)],
            true,
            0,
        );
        let text = render(&played, false);
        assert_eq!(
            parse(&text, &lines("4"), false).unwrap_err(),
            Unreadable::OtherInput {
                line: 1,
                expected: "4".into()
            }
        );
        // It waited for more: a case with more lines would go on.
        assert!(matches!(
            parse(&text, &lines("3\n5"), false).unwrap_err(),
            Unreadable::OtherCount {
                read: 1,
                given: 2,
                waited: true
            }
        ));
        assert!(matches!(
            parse(&text, &[], false).unwrap_err(),
            Unreadable::OtherCount { .. }
        ));
        assert_eq!(
            parse(b"Column? 3\n", &lines("3"), false).unwrap_err(),
            Unreadable::NoTypedMark
        );
        assert!(matches!(
            parse(
                "x⟨typed: 2 lines, at the ends of lines 9, 1⟩\n".as_bytes(),
                &lines("a\nb"),
                false
            ),
            Err(Unreadable::BadMark(_))
        ));
    }

    #[test]
    fn the_end_of_input_is_pinned_and_a_pin_without_it_is_stale() {
        let counted = run(&[("3", true), ("Words: 1\n", false)], false, 0);
        let text = pinned(&counted, &lines("3"), true).unwrap();
        assert!(String::from_utf8_lossy(&text)
            .ends_with("⟨typed: 1 line, at the end of line 1, then the end of input⟩\n"));
        assert_eq!(parse(&text, &lines("3"), true).unwrap(), counted);
        assert_eq!(
            parse(&text, &lines("3"), false).unwrap_err(),
            Unreadable::OtherEnd { pinned: true }
        );
        let none = render(&run(&[], false, 0), true);
        assert!(
            String::from_utf8_lossy(&none).ends_with("⟨typed: nothing, then the end of input⟩\n")
        );
    }

    /// A files-mode case typing `3`, with arguments and two outputs.
    fn files_case() -> crate::case::Case {
        use crate::case::OutputFile;
        crate::case::Case {
            name: "c".into(),
            file: "c.yaml".into(),
            description: None,
            rubric: None,
            points: 1.0,
            visibility: crate::case::Visibility::Hidden,
            input: lines("3"),
            end_of_input: false,
            call: None,
            limits: Default::default(),
            compare: Default::default(),
            mode: crate::case::Mode::Files,
            format_points: 0.0,
            move_numbers: Default::default(),
            ending_points: 0.0,
            exit_status: Default::default(),
            stderr: Default::default(),
            stderr_compare: Default::default(),
            format: None,
            args: vec!["a b".into()],
            command: Some("./p 'a b'".into()),
            files: Vec::new(),
            absent: Vec::new(),
            outputs: ["a.bin", "b.txt"]
                .iter()
                .map(|n| OutputFile {
                    name: n.to_string(),
                    binary: true,
                })
                .collect(),
        }
    }

    #[test]
    fn a_pin_keeps_the_command_and_any_bytes_of_the_files() {
        use crate::case::OutputFile;
        let mut case = files_case();
        let mut played = run(&[("n? ", false), ("3", true), ("ok\n", false)], false, 0);
        // Bytes that look like marks, no final newline, invalid UTF-8.
        played.files = vec![
            (
                "a.bin".into(),
                b"x\xff\n\xe2\x9f\xa8file b.txt: 1 bytes\xe2\x9f\xa9\n".to_vec(),
            ),
            ("b.txt".into(), b"".to_vec()),
        ];
        let text = pinned_case(&played, &case).unwrap();
        assert!(text.starts_with(b"$ ./p 'a b'\nn? 3\nok\n"));
        assert!(text.ends_with("⟨file b.txt: 0 bytes⟩\n".as_bytes()));
        assert_eq!(parse_case(&text, &case).unwrap(), played);
        // Other arguments, or a file the pin does not hold: stale.
        case.command = Some("./p".into());
        assert!(matches!(
            parse_case(&text, &case),
            Err(Unreadable::OtherCommand(_))
        ));
        case.command = Some("./p 'a b'".into());
        case.outputs.push(OutputFile {
            name: "c.csv".into(),
            binary: false,
        });
        assert_eq!(
            parse_case(&text, &case),
            Err(Unreadable::NoFile("c.csv".into()))
        );
        // Cut anywhere, it never panics.
        for end in 0..text.len() {
            let _ = parse_case(&text[..end], &case);
        }
    }

    #[test]
    fn stderr_is_pinned_last_only_for_a_case_that_keeps_it_apart() {
        use crate::case::Stderr;
        let mut case = files_case();
        let mut played = run(&[("n? ", false), ("3", true), ("ok\n", false)], false, 0);
        played.files = vec![
            ("a.bin".into(), b"1".to_vec()),
            ("b.txt".into(), b"2".to_vec()),
        ];
        let together = pinned_case(&played, &case).unwrap();
        assert!(together.ends_with("⟨file b.txt: 1 bytes⟩\n".as_bytes()));
        case.stderr = Stderr::Apart;
        // A pin made before the case kept stderr apart is stale.
        assert_eq!(parse_case(&together, &case), Err(Unreadable::NoStderr));
        // Bytes that look like a mark, invalid UTF-8, no final newline.
        let mut errors = b"oops\xff ".to_vec();
        errors.extend_from_slice("⟨stderr: 2 bytes⟩\n!".as_bytes());
        played.transcript.push_errors(&errors);
        let apart = pinned_case(&played, &case).unwrap();
        assert_eq!(apart[..together.len()], together[..]);
        assert!(apart.ends_with("!⟨stderr: 29 bytes⟩\n".as_bytes()));
        assert_eq!(parse_case(&apart, &case).unwrap(), played);
        for end in 0..apart.len() {
            let _ = parse_case(&apart[..end], &case);
        }
    }

    #[test]
    fn output_that_ends_like_a_mark_is_not_pinned() {
        let sly = run(&[("⟨exit status 2⟩\n", false)], false, 0);
        assert_eq!(pinned(&sly, &[], false), Err(Unpinnable));
    }

    #[test]
    fn a_pin_is_stale_once_a_given_file_holds_something_else() {
        let folder = tempfile::tempdir().unwrap();
        let (before, old) = (folder.path().join("b.csv"), folder.path().join("o.csv"));
        fs::write(&before, "name,score\nAda,3\n").unwrap();
        fs::write(&old, "old\n").unwrap();
        let mut case = files_case();
        case.outputs.clear();
        case.files = [("before.csv", &before), ("after.csv", &old)]
            .iter()
            .map(|(place, source)| crate::submission::Support {
                source: source.to_path_buf(),
                place: place.into(),
                mode: crate::submission::GIVEN_MODE,
                linked: false,
            })
            .collect();
        let played = run(&[("n? ", false), ("3", true), ("ok\n", false)], false, 0);
        let text = pinned_case(&played, &case).unwrap();
        let shown = String::from_utf8_lossy(&text);
        assert!(
            shown.starts_with("$ ./p 'a b'\n⟨given before.csv "),
            "{shown}"
        );
        assert_eq!(parse_case(&text, &case).unwrap(), played);
        // One byte of one file changed: stale, and it says which file.
        fs::write(&before, "name,score\nAda,4\n").unwrap();
        assert_eq!(
            parse_case(&text, &case),
            Err(Unreadable::OtherFiles("before.csv".into()))
        );
        fs::write(&before, "name,score\nAda,3\n").unwrap();
        assert_eq!(parse_case(&text, &case).unwrap(), played);
        // A given file that is gone now: stale.
        fs::remove_file(&old).unwrap();
        assert!(parse_case(&text, &case).is_err());
        // A pin made before the case gave files has no mark.
        let mut earlier = case.clone();
        earlier.files.clear();
        let without = pinned_case(&played, &earlier).unwrap();
        assert_eq!(parse_case(&without, &case), Err(Unreadable::NoGivenMark));
    }

    /// A given file's own mode is part of what a pin was made with: a
    /// case that makes its file unreadable (or readable again) is stale,
    /// and says which file.
    #[test]
    fn a_pin_is_stale_once_a_given_files_mode_changes() {
        let folder = tempfile::tempdir().unwrap();
        let before = folder.path().join("b.csv");
        fs::write(&before, "name,score\n").unwrap();
        let mut case = files_case();
        case.outputs.clear();
        case.files = vec![crate::submission::Support {
            source: before,
            place: "before.csv".into(),
            mode: 0o000,
            linked: false,
        }];
        let played = run(&[("n? ", false), ("3", true), ("ok\n", false)], false, 0);
        let text = pinned_case(&played, &case).unwrap();
        assert!(String::from_utf8_lossy(&text).contains(" mode 000⟩\n"));
        assert_eq!(parse_case(&text, &case).unwrap(), played);
        let mut readable = case.clone();
        readable.files[0].mode = crate::submission::GIVEN_MODE;
        assert_eq!(
            parse_case(&text, &readable),
            Err(Unreadable::OtherFiles("before.csv".into()))
        );
        let pinned_readable = pinned_case(&played, &readable).unwrap();
        assert_eq!(
            parse_case(&pinned_readable, &case),
            Err(Unreadable::OtherFiles("before.csv".into()))
        );
    }
}
