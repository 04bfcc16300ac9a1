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

/// The most a command line is shown with: past it, the rest is `…`.
pub const COMMAND_SHOWN: usize = 200;

/// A command as a person types it in a shell: each word as it is when
/// the shell would read it back unchanged (`13`, `before.csv`), else in
/// single quotes (`'two words'`, `''`, `'it'\''s'`); control characters
/// escaped ([`visible::safe`]), and the whole cut at [`COMMAND_SHOWN`]
/// characters.
pub fn command_line<S: AsRef<str>>(words: &[S]) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./=:,+@%^".contains(c);
    let quoted: Vec<String> = words
        .iter()
        .map(|w| {
            let w = w.as_ref();
            if !w.is_empty() && w.chars().all(plain) {
                w.to_string()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect();
    let line = visible::safe(quoted.join(" ").as_bytes());
    if line.chars().count() > COMMAND_SHOWN {
        let mut cut: String = line.chars().take(COMMAND_SHOWN).collect();
        cut.push('…');
        cut
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_shown_as_a_shell_reads_it_back() {
        assert_eq!(command_line(&["./caesar", "13"]), "./caesar 13");
        assert_eq!(
            command_line(&["python3", "prog.py", "two words", "", "it's"]),
            "python3 prog.py 'two words' '' 'it'\\''s'"
        );
        assert_eq!(command_line(&["./p", "a\u{1b}[2J"]), "./p 'a\\x1b[2J'");
        let long = "x".repeat(500);
        let shown = command_line(&["./p", long.as_str()]);
        assert_eq!(shown.chars().count(), COMMAND_SHOWN + 1);
        assert!(shown.ends_with('…'));
    }

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
