//! What a line of text is compared by: its text normalised under the
//! comparison's options (white space, case), a missing newline marked.
//! A leaf: the line comparison and the CSV fields both use it.

use super::{Key, Options};

/// Marks a last line without a newline, so that exact comparison sees it.
const NO_NEWLINE: &[u8] = b"\x00no newline at end";

/// What a line is compared by as text under `o` (`csv` aside): its text
/// normalised, a missing newline marked, and its numbers found when they
/// have a tolerance.
pub(super) fn text_key(text: &[u8], newline: bool, o: &Options) -> Key {
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c');
    let mut key: Vec<u8> = if o.all_whitespace {
        text.iter().filter(|b| !is_space(b)).copied().collect()
    } else if o.whitespace_runs {
        let mut out = Vec::with_capacity(text.len());
        for word in text.split(is_space).filter(|w| !w.is_empty()) {
            if !out.is_empty() {
                out.push(b' ');
            }
            out.extend_from_slice(word);
        }
        out
    } else if o.trailing_whitespace {
        let end = text.iter().rposition(|b| !is_space(b)).map_or(0, |i| i + 1);
        text[..end].to_vec()
    } else {
        text.to_vec()
    };
    if o.case {
        key = match String::from_utf8(key) {
            Ok(s) => s.to_lowercase().into_bytes(),
            Err(e) => e.into_bytes().to_ascii_lowercase(),
        };
    }
    if !(newline || o.trailing_whitespace || o.whitespace_runs || o.all_whitespace) {
        key.extend_from_slice(NO_NEWLINE);
    }
    Key::new(key, o.numbers)
}
