//! What the APS105 program prints and reads (SPEC.md §1, "The program,
//! exactly").

use std::io::{self, BufRead, Write};

use super::rules::{Board, Piece};
use crate::console::Console;

/// Plays one game on `input` and `output`, as the lab's program does.
/// Stops quietly at end of input.
pub fn play(input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
    let mut console = Console::new(input, output);
    let mut board = Board::new();
    let mut turn = Piece::Red;
    loop {
        console.print(&board.render())?;
        let Some(col) = read_column(&mut console, &board, turn)? else {
            return console.flush();
        };
        board.drop_piece(col, turn);
        if board.wins(turn) {
            console.print(&format!("{} wins!\n", turn.name()))?;
            break;
        }
        if board.is_full() {
            console.print("It's a tie\n")?;
            break;
        }
        turn = turn.other();
    }
    console.print("Final board: \n")?;
    console.print(&board.render())?;
    console.flush()
}

/// Prompts until `turn` names a column that accepts a piece; `None` at end
/// of input.
fn read_column(console: &mut Console, board: &Board, turn: Piece) -> io::Result<Option<usize>> {
    loop {
        console.print(&format!(
            "{}, please enter a valid column number (0-5): ",
            turn.name()
        ))?;
        let Some(token) = console.token()? else {
            return Ok(None);
        };
        if let Some(col) = parse_integer(&token) {
            if board.accepts(col) {
                return Ok(Some(col as usize));
            }
        }
    }
}

/// An integer as `scanf("%d")` accepts a whole token: optional sign, then
/// digits. Values too large for `i64` saturate (they are out of range
/// anyway); anything else is not an integer.
fn parse_integer(token: &[u8]) -> Option<i64> {
    crate::console::integer(token, |digits| digits.iter().all(u8::is_ascii_digit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> String {
        let mut reader = input.as_bytes();
        let mut out = Vec::new();
        play(&mut reader, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn integers_follow_scanf() {
        assert_eq!(parse_integer(b"3"), Some(3));
        assert_eq!(parse_integer(b"-3"), Some(-3));
        assert_eq!(parse_integer(b"+0"), Some(0));
        assert_eq!(parse_integer(b"007"), Some(7));
        assert_eq!(parse_integer(b"99999999999999999999999"), Some(i64::MAX));
        for bad in [&b"x"[..], b"3x", b"-", b"+", b"", b"3.0", b"--1"] {
            assert_eq!(parse_integer(bad), None);
        }
    }

    #[test]
    fn a_win_that_fills_the_board_is_a_win_not_a_tie() {
        // 36 moves, found by a search, in which nobody has four in a row
        // until Yellow's last piece fills the board and makes four.
        let moves = "2 5 1 2 1 3 5 1 1 3 2 1 3 1 4 5 4 4 3 0 3 5 4 2 0 0 2 3 0 0 0 4 5 4 5 2";
        let out = run(moves);
        assert_eq!(out.matches("wins!").count(), 1, "{out}");
        assert_eq!(
            out.matches("please enter").count(),
            36,
            "no move was refused or left"
        );
        assert!(!out.contains("tie"), "{out}");
        assert!(out.contains("Yellow wins!\nFinal board: \n"), "{out}");
    }

    #[test]
    fn invalid_columns_repeat_the_prompt_only() {
        let out = run("6 -1 abc 0\n");
        let red = "Red, please enter a valid column number (0-5): ";
        let empty = "------\n".repeat(6);
        let expected = format!(
            "{empty}{}------\n------\n------\n------\n------\nR-----\n\
             Yellow, please enter a valid column number (0-5): ",
            red.repeat(4)
        );
        assert_eq!(out, expected);
    }

    #[test]
    fn a_full_column_is_refused() {
        let out = run("0 0 0 0 0 0 0 1\n");
        let red = "Red, please enter a valid column number (0-5): ";
        let expected_end = format!(
            "{red}{red}Y-----\nR-----\nY-----\nR-----\nY-----\nRR----\n\
             Yellow, please enter a valid column number (0-5): "
        );
        assert!(out.ends_with(&expected_end), "{out}");
    }

    #[test]
    fn end_of_input_stops_quietly() {
        let out = run("0 1");
        assert!(out.ends_with("Red, please enter a valid column number (0-5): "));
        assert!(!out.contains("Final board"));
        assert_eq!(
            run(""),
            format!(
                "{}Red, please enter a valid column number (0-5): ",
                "------\n".repeat(6)
            )
        );
    }
}
