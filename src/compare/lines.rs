//! Output split into lines, each with the key it is compared by.

use super::{Key, Options, Region};

/// One line of output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// Its index among all lines, from 0.
    pub index: usize,
    /// Its bytes, without the newline.
    pub text: &'a [u8],
    /// Whether a newline ended it (only the last line can lack one).
    pub newline: bool,
}

/// A line kept for comparison, with its normalised key.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyed<'a> {
    /// The line.
    pub line: &'a Line<'a>,
    /// What it is compared by.
    pub key: Key,
}

/// Where each region was found: a start and a length in lines, or `None`.
pub type Spans = Vec<Option<(usize, usize)>>;

/// Splits output at newlines.
pub fn split_lines(output: &[u8]) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut rest = output;
    while !rest.is_empty() {
        let (text, newline, next) = match rest.iter().position(|&b| b == b'\n') {
            Some(at) => (&rest[..at], true, &rest[at + 1..]),
            None => (rest, false, &rest[rest.len()..]),
        };
        lines.push(Line {
            index: lines.len(),
            text,
            newline,
        });
        rest = next;
    }
    lines
}

/// The lines that are compared, with their keys: regions removed, white
/// space and case normalised, blank lines dropped, as `options` says.
/// `expected_spans` is where the regions were in the reference's output
/// (`None` when these lines are the reference's own); the spans found
/// here are returned for that use.
pub fn comparable<'a>(
    lines: &'a [Line<'a>],
    options: &Options,
    regions: &[Region],
    expected_spans: Option<&Spans>,
) -> (Vec<Keyed<'a>>, Spans) {
    let mut ignored = vec![false; lines.len()];
    let mut spans = Vec::with_capacity(regions.len());
    for (i, region) in regions.iter().enumerate() {
        let fallback = expected_spans
            .and_then(|s| s.get(i).copied().flatten())
            .map(|(_, len)| len);
        let span = find_region(lines, region, &ignored, fallback);
        if let Some((start, len)) = span {
            ignored[start..start + len]
                .iter_mut()
                .for_each(|x| *x = true);
        }
        spans.push(span);
    }
    let keyed = lines
        .iter()
        .filter(|l| !ignored[l.index])
        .map(|line| Keyed {
            line,
            key: key(line.text, line.newline, options),
        })
        .filter(|k| !(options.blank_lines && is_blank(&k.key.text)))
        // An empty line holds no row.
        .filter(|k| !(options.csv && k.key.text.is_empty()))
        .collect();
    (keyed, spans)
}

fn find_region(
    lines: &[Line<'_>],
    region: &Region,
    ignored: &[bool],
    fallback_len: Option<usize>,
) -> Option<(usize, usize)> {
    let matches = |re: &regex::bytes::Regex, l: &Line<'_>| !ignored[l.index] && re.is_match(l.text);
    let start = match &region.from {
        None => lines.iter().position(|l| !ignored[l.index])?,
        Some(from) => lines.iter().position(|l| matches(from, l))?,
    };
    let end = lines[start..]
        .iter()
        .skip(usize::from(region.from.is_some()))
        .position(|l| matches(&region.until, l))
        .map(|at| start + at + usize::from(region.from.is_some()));
    match (end, fallback_len) {
        (Some(end), _) => Some((start, end - start)),
        (None, Some(len)) => Some((start, len.min(lines.len() - start))),
        (None, None) => None,
    }
}

fn is_blank(key: &[u8]) -> bool {
    key.iter().all(|b| b.is_ascii_whitespace())
}

/// What a line is compared by under `o`: its fields as a row under
/// `csv`, else its text normalised, a missing newline marked, and its
/// numbers found when they have a tolerance.
pub fn key(text: &[u8], newline: bool, o: &Options) -> Key {
    if o.csv {
        return Key::new(super::fields::row_key(text, o), o.numbers);
    }
    super::key::text_key(text, newline, o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitting_keeps_a_missing_final_newline() {
        let lines = split_lines(b"a\n\nb");
        assert_eq!(lines.len(), 3);
        assert_eq!((lines[1].text, lines[1].newline), (&b""[..], true));
        assert_eq!((lines[2].text, lines[2].newline), (&b"b"[..], false));
        assert!(split_lines(b"").is_empty());
        assert_eq!(split_lines(b"x\n").len(), 1);
    }
}
