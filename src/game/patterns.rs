//! Small text patterns every game's reader uses.

use super::rows;

/// A reader's message pattern, written in its module: valid by
/// construction (each reader's tests exercise every pattern).
pub(crate) fn pattern(re: &str) -> regex::Regex {
    regex::Regex::new(re).expect("a valid pattern")
}

/// Lines that only decorate a board: blank, borders, column numbers.
pub(crate) fn is_decoration(text: &str) -> bool {
    text.chars().all(|c| {
        c.is_whitespace()
            || c.is_ascii_digit()
            || "-=+|:_*#~".contains(c)
            || rows::is_box_drawing(c)
    })
}

/// The first standalone X or O in a line (not in a word), as a player.
pub(crate) fn x_or_o(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find_map(|i| {
        let c = bytes[i].to_ascii_uppercase();
        let alone = |j: Option<usize>| {
            j.and_then(|j| bytes.get(j))
                .is_none_or(|b| !b.is_ascii_alphanumeric())
        };
        let player = match c {
            b'X' => 0,
            b'O' => 1,
            _ => return None,
        };
        (alone(i.checked_sub(1)) && alone(Some(i + 1))).then_some(player)
    })
}

/// The move number at the start of a prompt (`12. Enter`, `12) `), or
/// after "move" / "#" anywhere in it.
pub(crate) fn move_number(text: &str) -> Option<u32> {
    use std::sync::LazyLock;
    static LEADING: LazyLock<regex::Regex> =
        LazyLock::new(|| pattern(r"^\s*[\[(]?(\d+)\s*[.):\]\-]"));
    static NAMED: LazyLock<regex::Regex> =
        LazyLock::new(|| pattern(r"(?i)(?:\bmove\s*(?:number|no\.?|#)?\s*|#)(\d+)"));
    LEADING
        .captures(text)
        .or_else(|| NAMED.captures(text))
        .and_then(|c| c[1].parse().ok())
}
