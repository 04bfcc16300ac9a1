//! A transcript as reports keep it: whole when it is small, else cut to
//! what a reader needs (its start, the lines around its first
//! difference, its end), with exact marks of what was left out. One
//! student's endless loop must not make everyone's reports gigabytes.

use super::{TermLine, WAITING};
use crate::text::visible::{self, Show};

/// The most a kept transcript holds, in bytes: reports keep at most two
/// per case (the reference's and the program's).
pub const TRANSCRIPT_ROOM: usize = 16 * 1024;

/// Lines kept at the start of a cut transcript.
const HEAD_LINES: usize = 20;
/// Lines kept on each side of the first difference.
const AROUND_LINES: usize = 8;
/// Lines kept at the end.
const TAIL_LINES: usize = 10;

/// Where a transcript first differs from the one it is compared with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Focus {
    /// The line, from 0.
    pub line: usize,
    /// The byte of that line's output where it differs, when known.
    pub column: Option<usize>,
}

/// A transcript as kept, and how many of its bytes were left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excerpt {
    /// The text: terminal lines, control characters escaped, cuts marked
    /// (`… 1,019,916 bytes (169,986 lines) not shown …`).
    pub text: String,
    /// The bytes of output and input not shown.
    pub not_shown: u64,
    /// For each line of `text`, the terminal line it shows (from 0);
    /// `None` for a mark of lines left out.
    pub lines: Vec<Option<usize>>,
}

/// `lines` as reports keep them: whole when that fits in
/// [`TRANSCRIPT_ROOM`], else cut around `focus`.
pub fn excerpt(lines: &[TermLine], focus: Option<Focus>) -> Excerpt {
    let raw: usize = lines.iter().map(raw_len).sum();
    if raw <= TRANSCRIPT_ROOM {
        let whole = super::printable(lines);
        if whole.len() <= TRANSCRIPT_ROOM {
            return Excerpt {
                text: whole,
                not_shown: 0,
                lines: (0..lines.len()).map(Some).collect(),
            };
        }
    }
    cut(lines, focus)
}

/// The bytes a line stands for: what was printed and typed on it, and
/// its newline.
fn raw_len(line: &TermLine) -> usize {
    line.output.len() + line.input.as_ref().map_or(0, String::len) + usize::from(line.newline)
}

/// Which lines a cut transcript keeps, in order.
fn kept(len: usize, focus: Option<Focus>) -> Vec<usize> {
    let mut keep = vec![false; len];
    let mut mark = |from: usize, to: usize| {
        keep[from.min(len)..to.min(len)]
            .iter_mut()
            .for_each(|k| *k = true)
    };
    mark(0, HEAD_LINES);
    if let Some(focus) = focus {
        mark(
            focus.line.saturating_sub(AROUND_LINES),
            focus.line.saturating_add(AROUND_LINES + 1),
        );
    }
    mark(len.saturating_sub(TAIL_LINES), len);
    (0..len).filter(|&i| keep[i]).collect()
}

fn cut(lines: &[TermLine], focus: Option<Focus>) -> Excerpt {
    let mut text = String::new();
    let mut not_shown = 0u64;
    let mut shown = Vec::new();
    let mut next = 0;
    for i in kept(lines.len(), focus) {
        if i > next {
            not_shown += gap(&mut text, &lines[next..i]);
            shown.push(None);
        }
        let column = focus.filter(|f| f.line == i).and_then(|f| f.column);
        not_shown += line(&mut text, &lines[i], column);
        shown.push(Some(i));
        next = i + 1;
    }
    if next < lines.len() {
        not_shown += gap(&mut text, &lines[next..]);
        shown.push(None);
    }
    if text.len() > TRANSCRIPT_ROOM {
        // Only when every kept line is long: keep the first ones.
        not_shown += limit(&mut text);
        shown.truncate(text.lines().count().saturating_sub(1));
        shown.push(None);
    }
    Excerpt {
        text,
        not_shown,
        lines: shown,
    }
}

/// Writes the mark for lines left out; returns their bytes.
fn gap(text: &mut String, left_out: &[TermLine]) -> u64 {
    let bytes: u64 = left_out.iter().map(|l| raw_len(l) as u64).sum();
    let lines = left_out.len();
    text.push_str(&format!(
        "… {} ({} line{}) not shown …\n",
        visible::bytes_count(bytes),
        visible::thousands(lines as u64),
        if lines == 1 { "" } else { "s" }
    ));
    bytes
}

/// Writes one kept line, itself cut when long; returns the bytes of it
/// not shown.
fn line(text: &mut String, line: &TermLine, column: Option<usize>) -> u64 {
    let (output, mut not_shown) = visible::cut(&line.output, column, Show::Safe);
    text.push_str(&output);
    if let Some(input) = &line.input {
        let (typed, cut) = visible::cut(input.as_bytes(), None, Show::Safe);
        text.push_str(&typed);
        not_shown += cut;
    }
    if line.waiting {
        text.push_str(WAITING);
    }
    if line.newline {
        text.push('\n');
    }
    not_shown
}

/// The room [`limit`]'s mark takes, at most (its count of bytes is of
/// text already cut to room).
const MARK_ROOM: usize = 80;

/// Cuts `text` to [`TRANSCRIPT_ROOM`] at a line's end, with a mark;
/// returns the bytes of the text left out (an estimate of the output's:
/// what is left out here is already escaped).
fn limit(text: &mut String) -> u64 {
    let mut end = TRANSCRIPT_ROOM - MARK_ROOM;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let end = text[..end].rfind('\n').map_or(end, |at| at + 1);
    let left = (text.len() - end) as u64;
    text.truncate(end);
    text.push_str(&format!(
        "… {} more of this transcript not shown\n",
        visible::bytes_count(left)
    ));
    left
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{lines, Transcript};

    fn terminal(output: &[u8], inputs: &[&str]) -> Vec<TermLine> {
        let mut t = Transcript::new();
        for input in inputs {
            t.push_output(b"Column? ");
            t.push_input(input);
        }
        t.push_output(output);
        lines(&t, false)
    }

    /// The numbers in the marks of `text`, added up.
    fn marked(text: &str) -> u64 {
        text.split("… ")
            .skip(1)
            .filter_map(|m| m.split(' ').next()?.replace(',', "").parse::<u64>().ok())
            .sum()
    }

    #[test]
    fn a_small_transcript_is_kept_whole() {
        let lines = terminal(b"board\n", &["3"]);
        let kept = excerpt(&lines, None);
        assert_eq!(kept.text, "Column? 3\nboard\n");
        assert_eq!(kept.not_shown, 0);
        assert_eq!(kept.lines, [Some(0), Some(1)]);
    }

    #[test]
    fn endless_lines_keep_start_focus_and_end_and_count_every_byte_cut() {
        let flood: Vec<u8> = (0..100_000)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let lines = terminal(&flood, &["3"]);
        let focus = Focus {
            line: 50_000,
            column: Some(0),
        };
        let kept = excerpt(&lines, Some(focus));
        assert!(kept.text.len() <= TRANSCRIPT_ROOM, "{}", kept.text.len());
        assert!(kept.text.starts_with("Column? 3\nline 0\n"));
        assert!(kept.text.contains("line 49999\n"), "around the focus");
        assert!(kept.text.ends_with("line 99999\n"));
        let raw: usize = lines.iter().map(raw_len).sum();
        let shown = raw as u64 - kept.not_shown;
        // Every byte is either shown (the kept lines hold only plain
        // text) or counted in a mark.
        let kept_raw: u64 = kept
            .text
            .lines()
            .filter(|l| !l.starts_with('…'))
            .map(|l| l.len() as u64 + 1)
            .sum();
        assert_eq!(kept_raw, shown);
        assert_eq!(marked(&kept.text), kept.not_shown);
        assert!(
            kept.text.contains("(49,972 lines) not shown"),
            "{}",
            kept.text
        );
        // Each line kept says which terminal line it shows.
        let texts: Vec<&str> = kept.text.lines().collect();
        assert_eq!(texts.len(), kept.lines.len());
        for (text, line) in texts.iter().zip(&kept.lines) {
            match line {
                Some(0) => assert_eq!(*text, "Column? 3"),
                Some(i) => assert_eq!(*text, format!("line {}", i - 1)),
                None => assert!(text.starts_with('…'), "{text}"),
            }
        }
    }

    #[test]
    fn a_mebibyte_line_and_output_without_newlines_are_cut_within_the_line() {
        let lines = terminal(&vec![b'R'; 1 << 20], &["0"]);
        let kept = excerpt(&lines, None);
        assert!(kept.text.len() < 1024, "{}", kept.text.len());
        assert_eq!(marked(&kept.text), kept.not_shown);
        assert_eq!(kept.not_shown, (1 << 20) - 160);
        let crs = terminal(&vec![b'\r'; 1 << 20], &[]);
        let kept = excerpt(&crs, None);
        assert!(kept.text.len() < 2048, "{}", kept.text.len());
    }

    #[test]
    fn a_focus_past_the_end_keeps_the_start_and_the_end() {
        // Found by fuzzing: a focus on the last possible line overflowed.
        let flood: Vec<u8> = b"------\n".repeat(10_000);
        let lines = terminal(&flood, &["3"]);
        for line in [lines.len(), usize::MAX] {
            let kept = excerpt(&lines, Some(Focus { line, column: None }));
            assert!(kept.text.starts_with("Column? 3\n------\n"));
            assert!(kept.text.len() <= TRANSCRIPT_ROOM);
            assert_eq!(marked(&kept.text), kept.not_shown);
        }
    }

    #[test]
    fn wide_lines_cut_to_room_leave_room_for_the_mark() {
        // Found by fuzzing: lines of wide characters, each just short of
        // being cut, filled the room, and the last mark went past it.
        for width in [155, 209, 236] {
            let mut t = Transcript::new();
            for _ in 0..100 {
                t.push_output(format!("{}\n", "李".repeat(width)).as_bytes());
            }
            let lines = lines(&t, false);
            let focus = Focus {
                line: 50,
                column: Some(3),
            };
            let kept = excerpt(&lines, Some(focus));
            assert!(kept.text.len() <= TRANSCRIPT_ROOM, "{}", kept.text.len());
            assert!(kept.text.ends_with("more of this transcript not shown\n"));
        }
    }

    #[test]
    fn binary_output_stays_within_room() {
        let binary: Vec<u8> = (0..1_000_000u64).map(|i| (i * 7919 % 256) as u8).collect();
        let kept = excerpt(&terminal(&binary, &[]), None);
        assert!(kept.text.len() <= TRANSCRIPT_ROOM);
        assert!(!kept.text.contains('\u{1b}'), "escapes never kept raw");
        assert!(kept.not_shown > 900_000);
    }
}
