//! Showing a program's bytes safely: nothing it printed reaches the
//! reader's terminal as a control sequence, and differences that cannot be
//! seen (a trailing space, a tab, a carriage return) are made visible.

use std::fmt::Write;

/// `bytes` as text that is safe to print: control characters, escape
/// sequences and invalid UTF-8 become `\x1b`-style escapes, but a
/// carriage return is `␍`, as [`marked`] writes it, so that it reads the
/// same everywhere (a sentence, a diff's context line, a changed line, a
/// page). Tabs stay.
pub fn safe(bytes: &[u8]) -> String {
    render(bytes, false, false)
}

/// How a transcript shows a line that is not marked: as [`safe`].
pub fn transcript(bytes: &[u8]) -> String {
    safe(bytes)
}

/// Like [`safe`], and also shows invisible characters: tabs as `␉`,
/// carriage returns as `␍`, non-breaking spaces as `⍽`, and spaces at the
/// end of the line as `·`.
pub fn marked(bytes: &[u8]) -> String {
    render(bytes, true, true)
}

/// How a line is shown: [`safe`], [`marked`], or marked as the start
/// of a line that goes on (typed input follows: its spaces are not at
/// the end of the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// Control characters escaped ([`safe`]).
    Safe,
    /// Invisible characters marked too, spaces at its end included
    /// ([`marked`]).
    Marked,
    /// Invisible characters marked, the line going on after it.
    MarkedInside,
    /// A line of context in a diff: as [`safe`] (a carriage return is
    /// `␍` there as on the changed lines around it).
    Context,
}

impl Show {
    fn render(self, bytes: &[u8]) -> String {
        match self {
            Show::Safe => render(bytes, false, false),
            Show::Marked => render(bytes, true, true),
            Show::MarkedInside => render(bytes, true, false),
            Show::Context => safe(bytes),
        }
    }

    /// How a piece that is not the end of the line is shown.
    fn inside(self) -> Show {
        match self {
            Show::Marked => Show::MarkedInside,
            other => other,
        }
    }
}

/// Where two lines paired as changed differ: in each, the range between
/// what both start with and what both end with (on character
/// boundaries), so that a page can mark only what changed (` Hannah`
/// against `Hannah`: the space). `None` when what they share is less
/// than what changed: two different lines, where a mark would only
/// cover most of each.
pub fn changed_spans(a: &str, b: &str) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let start: usize = a
        .chars()
        .zip(b.chars())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    let (a_rest, b_rest) = (&a[start..], &b[start..]);
    let end: usize = a_rest
        .chars()
        .rev()
        .zip(b_rest.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    let (a_span, b_span) = (start..a.len() - end, start..b.len() - end);
    let changed = a_span.len().max(b_span.len());
    (start + end > changed).then_some((a_span, b_span))
}

/// A changed part of a line as shown inside a mark: the spaces at its
/// edges as `·` and tabs as `␉`, as [`marked`] shows them at a line's
/// end, so that a space added or lost (a leading one too) can be seen;
/// spaces between other changed characters stay spaces (`O . .`).
pub fn changed_part(text: &str) -> String {
    let body = text.trim_matches(' ');
    let lead = text.len() - text.trim_start_matches(' ').len();
    let trail = if body.is_empty() {
        0
    } else {
        text.len() - text.trim_end_matches(' ').len()
    };
    format!(
        "{}{}{}",
        "·".repeat(lead),
        body.replace('\t', "␉"),
        "·".repeat(trail)
    )
}

/// The most characters of one line of a program's output that reports
/// and explanations show: a program's line can be a mebibyte long, and
/// every copy of it would be.
pub const LINE_ROOM: usize = 240;

/// Characters of a cut line kept at its start, around its first
/// difference, and at its end (together [`LINE_ROOM`]).
const HEAD: usize = 100;
const AROUND: usize = 40;
const TAIL: usize = 60;

/// A line of output shown as `show` says, at most about [`LINE_ROOM`]
/// characters: a longer line keeps its start, the part around `focus`
/// (the byte where it first differs, when known) and its end, and says
/// between them exactly how many of its bytes are not shown
/// (`RRRR… 1,048,012 bytes not shown …RRRR`). Also returns that count.
pub fn cut(bytes: &[u8], focus: Option<usize>, show: Show) -> (String, u64) {
    // Escaping at most quadruples a byte (`\xff`): a line this short
    // is looked at whole.
    if bytes.len() <= LINE_ROOM * 4 {
        let whole = show.render(bytes);
        if whole.chars().count() <= LINE_ROOM {
            return (whole, 0);
        }
    }
    let len = bytes.len();
    // Each piece fits its own room first, so together they fit the
    // line's.
    let mut pieces = vec![fit(bytes, 0, HEAD.min(len), show, Keep::Start)];
    if let Some(at) = focus.filter(|&at| at < len) {
        let (from, to) = (at.saturating_sub(AROUND / 2), (at + AROUND / 2).min(len));
        pieces.push(fit(bytes, from, to, show, Keep::Middle));
    }
    pieces.push(fit(bytes, len.saturating_sub(TAIL), len, show, Keep::End));
    let mut text = String::new();
    let mut shown_to = 0;
    let mut not_shown = 0u64;
    for (start, end) in merged(pieces) {
        if start > shown_to {
            let gap = (start - shown_to) as u64;
            not_shown += gap;
            text.push_str(&format!("… {} not shown …", bytes_count(gap)));
        }
        let piece_show = if end == len { show } else { show.inside() };
        text.push_str(&piece_show.render(&bytes[start..end]));
        shown_to = end;
    }
    (text, not_shown)
}

/// `1 byte`, `1,048,012 bytes`.
pub fn bytes_count(n: u64) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{} bytes", thousands(n))
    }
}

/// `1,048,012`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// The pieces sorted, those that touch or overlap joined.
fn merged(mut pieces: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    pieces.sort();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (start, end) in pieces {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// `at`, moved back to the start of the character it falls in (at most
/// three bytes: invalid UTF-8 has no characters to keep whole).
fn boundary(bytes: &[u8], mut at: usize) -> usize {
    for _ in 0..3 {
        if at == 0 || at >= bytes.len() || bytes[at] & 0xc0 != 0x80 {
            break;
        }
        at -= 1;
    }
    at
}

/// Which part of a piece is kept when it must shrink.
#[derive(Clone, Copy)]
enum Keep {
    Start,
    Middle,
    End,
}

/// The part of `start..end`, on character boundaries, that shows in at
/// most as many characters as the piece has bytes: escapes make bytes
/// wider, so a piece of binary output keeps fewer bytes.
fn fit(bytes: &[u8], start: usize, end: usize, show: Show, keep: Keep) -> (usize, usize) {
    let room = end - start;
    let (mut start, mut end) = (boundary(bytes, start), boundary(bytes, end));
    while end > start && show.render(&bytes[start..end]).chars().count() > room {
        let half = (end - start) / 2;
        match keep {
            Keep::Start => end = boundary(bytes, start + half),
            Keep::End => start = boundary(bytes, end - half),
            Keep::Middle => {
                let quarter = (half / 2).max(1);
                start = boundary(bytes, start + quarter);
                end = boundary(bytes, end.saturating_sub(quarter).max(start));
            }
        }
    }
    (start, end)
}

/// `bytes` escaped, and with `mark` its invisible characters marked
/// (the spaces at its end too when `at_line_end`).
fn render(bytes: &[u8], mark: bool, at_line_end: bool) -> String {
    let trailing_from = if mark && at_line_end {
        bytes.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1)
    } else {
        bytes.len()
    };
    let mut out = String::with_capacity(bytes.len());
    let mut rest = &bytes[..trailing_from];
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(text) => {
                push_text(&mut out, text, mark);
                rest = &[];
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                // SAFETY-free: `good` is valid UTF-8 by construction.
                push_text(
                    &mut out,
                    std::str::from_utf8(good).unwrap_or_default(),
                    mark,
                );
                let skip = e.error_len().unwrap_or(bad.len()).max(1);
                for b in &bad[..skip] {
                    let _ = write!(out, "\\x{b:02x}");
                }
                rest = &bad[skip..];
            }
        }
    }
    for _ in trailing_from..bytes.len() {
        out.push('·');
    }
    out
}

fn push_text(out: &mut String, text: &str, mark: bool) {
    for c in text.chars() {
        match c {
            '\t' if mark => out.push('␉'),
            '\t' => out.push('\t'),
            // One notation for a carriage return, marked or not.
            '\r' => out.push('␍'),
            '\u{a0}' if mark => out.push('⍽'),
            c if c.is_control() => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_never_reach_the_terminal() {
        assert_eq!(safe(b"\x1b[2Jhi\x07"), "\\x1b[2Jhi\\x07");
        assert_eq!(safe(b"a\xffb\xc3"), "a\\xffb\\xc3");
        assert_eq!(safe("é\u{9b}".as_bytes()), "é\\x9b");
        assert_eq!(safe(b"a\tb"), "a\tb");
        assert_eq!(safe(b"\0"), "\\x00");
        assert_eq!(safe(b"a\r"), "a␍", "as marked lines write it");
    }

    #[test]
    fn a_long_line_keeps_its_start_its_focus_and_its_end_and_counts_the_rest() {
        let mut line = vec![b'R'; 1 << 20];
        line[500_000] = b'Y';
        let (text, not_shown) = cut(&line, Some(500_000), Show::Safe);
        assert!(text.chars().count() < LINE_ROOM + 80, "{}", text.len());
        assert!(text.starts_with(&"R".repeat(HEAD)));
        assert!(text.ends_with(&"R".repeat(TAIL)));
        assert!(text.contains('Y'), "the first difference is shown");
        let shown = text.chars().filter(|&c| c == 'R' || c == 'Y').count() as u64;
        assert_eq!(shown + not_shown, 1 << 20, "every byte shown or counted");
        let marks: u64 = text
            .split("… ")
            .skip(1)
            .map(|m| {
                m.split(' ')
                    .next()
                    .unwrap()
                    .replace(',', "")
                    .parse::<u64>()
                    .unwrap()
            })
            .sum();
        assert_eq!(marks, not_shown, "{text}");
        assert_eq!(cut(b"short", None, Show::Safe), ("short".to_string(), 0));
    }

    #[test]
    fn a_cut_line_never_splits_a_character_and_binary_stays_within_room() {
        let line = "é".repeat(1000);
        let (text, _) = cut(line.as_bytes(), None, Show::Safe);
        assert!(!text.contains("\\x"), "no character cut in two: {text}");
        let binary: Vec<u8> = (0..100_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let (text, not_shown) = cut(&binary, Some(50_000), Show::Marked);
        assert!(
            text.chars().count() < LINE_ROOM + 80,
            "{}",
            text.chars().count()
        );
        assert!(not_shown > 99_000);
        assert_eq!(thousands(1_048_012), "1,048,012");
        assert_eq!(thousands(999), "999");
        assert_eq!(bytes_count(1), "1 byte");
    }

    #[test]
    fn only_what_changed_inside_a_line_is_marked() {
        let (want, got) = changed_spans("Hannah,Abbott", " Hannah,Abbott").unwrap();
        assert_eq!((want, got.clone()), (0..0, 0..1));
        assert_eq!(changed_part(&" Hannah,Abbott"[got]), "·");
        // The common end is not counted twice where the lines overlap.
        assert_eq!(changed_spans("aa", "aaa"), Some((2..2, 2..3)));
        assert_eq!(changed_spans("X wins", "O wins"), Some((0..1, 0..1)));
        assert_eq!(changed_spans("wins: né", "wins: nè"), Some((7..9, 7..9)));
        assert_eq!(changed_spans("same", "same"), Some((4..4, 4..4)));
        // Lines that share little are different lines, not marked.
        assert_eq!(changed_spans("For each move", "F . . . ."), None);
        assert_eq!(changed_spans("", "x"), None);
        assert_eq!(changed_part("a\tb c"), "a␉b c");
        assert_eq!(changed_part(" X  "), "·X··");
        assert_eq!(changed_part("  "), "··");
    }

    #[test]
    fn invisible_differences_are_marked() {
        assert_eq!(marked(b"Final board:  "), "Final board:··");
        assert_eq!(marked(b"a\tb\r"), "a␉b␍");
        // A diff's context line writes a carriage return as its changed
        // lines do, and nothing else differently from `safe`.
        assert_eq!(Show::Context.render(b"a\tb\r\x1b"), "a\tb␍\\x1b");
        assert_eq!(marked(b"a b"), "a b");
        assert_eq!(marked("x\u{a0}".as_bytes()), "x⍽");
        assert_eq!(Show::MarkedInside.render(b"(0-5): \t"), "(0-5): ␉");
    }
}
