//! Showing a program's bytes safely: nothing it printed reaches the
//! reader's terminal as a control sequence, and differences that cannot be
//! seen (a trailing space, a tab, a carriage return) are made visible.

use std::fmt::Write;

/// `bytes` as text that is safe to print: control characters, escape
/// sequences and invalid UTF-8 become `\x1b`-style escapes. Tabs stay.
pub fn safe(bytes: &[u8]) -> String {
    render(bytes, false, false)
}

/// Like [`safe`], and also shows invisible characters: tabs as `␉`,
/// carriage returns as `␍`, non-breaking spaces as `⍽`, and spaces at the
/// end of the line as `·`.
pub fn marked(bytes: &[u8]) -> String {
    render(bytes, true, true)
}

/// Like [`marked`], for the start of a line that goes on (typed input
/// follows): its spaces are not at the end of the line.
pub(crate) fn marked_inside(bytes: &[u8]) -> String {
    render(bytes, true, false)
}

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
            '\r' if mark => out.push('␍'),
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
    }

    #[test]
    fn invisible_differences_are_marked() {
        assert_eq!(marked(b"Final board:  "), "Final board:··");
        assert_eq!(marked(b"a\tb\r"), "a␉b␍");
        assert_eq!(marked(b"a b"), "a b");
        assert_eq!(marked("x\u{a0}".as_bytes()), "x⍽");
        assert_eq!(marked_inside(b"(0-5): \t"), "(0-5): ␉");
    }
}
