//! Small text helpers shared by every layer: points, sizes and durations
//! as people read them, sentences capitalised, and a program's bytes made
//! safe to show. This module imports nothing else of referee, so anything
//! may use it.

mod points;
mod units;
pub mod visible;

pub use points::{decimals, figure, points, round};
pub use units::{seconds, size};

/// The sentence with a capital letter, unless it starts with code (a
/// function's name, `drop_piece(board,`): a first word of letters, with
/// perhaps a hyphen or an apostrophe (`public-fail`, `it's`), is a word.
pub fn capitalized(s: &str) -> String {
    let first_word = s.split(' ').next().unwrap_or_default();
    let word = first_word.trim_end_matches([',', ':', ';', '.']);
    if !word
        .chars()
        .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
    {
        return s.to_string();
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_are_capitalised_unless_they_start_with_code() {
        assert_eq!(capitalized("the board differs"), "The board differs");
        assert_eq!(
            capitalized("drop_piece(board, 4, 1) returned 2"),
            "drop_piece(board, 4, 1) returned 2"
        );
        assert_eq!(capitalized("public-fail reason"), "Public-fail reason");
        assert_eq!(capitalized("after move 3, x"), "After move 3, x");
        assert_eq!(capitalized("x: the column"), "X: the column");
        assert_eq!(capitalized(""), "");
    }
}
