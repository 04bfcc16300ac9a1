//! The given main block of the CSE 101 file (SPEC.md §2), quirks and all:
//! the transcript a student's whole program is compared with is this
//! main's output.

use std::io::{self, BufRead, Write};

use super::rules::{
    board_full, diagonal_winner, drop_bomb, drop_piece, horizontal_winner, vertical_winner, Board,
};
use crate::console::Console;

/// The largest number of rows or columns the reference plays on. Larger
/// sizes (unspecified by the handout) stop quietly, like end of input,
/// instead of allocating an enormous board.
pub const MAX_SIDE: i64 = 1000;

/// Plays one game as the given main block does. Stops quietly at end of
/// input, at input that is not an integer where the main calls `int()`
/// (Python would raise), and at sizes above [`MAX_SIDE`].
pub fn play(input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
    let mut console = Console::new(input, output);
    console.print("Welcome to Connect Four: CSE 101 Edition!\n\n")?;
    let Some(num_rows) = read_int(
        &mut console,
        "Enter number of rows in board. Must be >= 4: ",
    )?
    else {
        return console.flush();
    };
    let Some(num_cols) = read_int(
        &mut console,
        "Enter number of columns in board. Must be >= 4: ",
    )?
    else {
        return console.flush();
    };
    if num_rows > MAX_SIDE || num_cols > MAX_SIDE {
        return console.flush();
    }
    let mut board = Board::new(num_rows, num_cols);
    console.print("Player 1: You are X\nPlayer 2: You are O\nLet's start the game!\n")?;
    if play_turns(&mut console, &mut board)?.is_none() {
        return console.flush();
    }
    console.print(&board.render())?;
    if board_full(&board) {
        console.print("\nGame Over! It was a tie!\n")?;
    } else {
        console.print("\nGame Over!\n")?;
    }
    console.flush()
}

/// The main's `while` loop; `None` when the input stopped the game.
fn play_turns(console: &mut Console, board: &mut Board) -> io::Result<Option<()>> {
    let mut player: i64 = 1;
    let mut bombs = [1, 1];
    while !board_full(board) {
        console.print(&format!("\nPlayer {player}'s turn!\n"))?;
        console.print(&board.render())?;
        let prompt = format!(
            "Which column do you want to drop a piece into? (1-{}) ",
            board.num_cols()
        );
        let Some(col) = read_int(console, &prompt)? else {
            return Ok(None);
        };
        let slot = usize::from(player == 2);
        let mut use_bomb = String::from("n");
        if bombs[slot] > 0 {
            let Some(answer) = console.input_line("Do you want to use your bomb piece? (y) ")?
            else {
                return Ok(None);
            };
            use_bomb = answer;
        }
        if use_bomb.to_lowercase() == "y" {
            if drop_bomb(board, col) == -1 {
                console.print(
                    "You can't drop a bomb into that column. You lose your bomb and your turn!\n",
                )?;
            }
            bombs[slot] -= 1;
        } else if drop_piece(board, col, player) == -1 {
            console.print("You can't drop a piece into that column. You lose your turn!\n")?;
        }
        if horizontal_winner(board) >= 1
            || vertical_winner(board) >= 1
            || diagonal_winner(board) != 0
        {
            console.print(&format!("\nPlayer {player} won the game!\n"))?;
            break;
        }
        player = 3 - player;
    }
    Ok(Some(()))
}

/// `int(input(prompt))`; `None` at end of input or when Python's `int()`
/// would raise.
fn read_int(console: &mut Console, prompt: &str) -> io::Result<Option<i64>> {
    Ok(console
        .input_line(prompt)?
        .and_then(|line| python_int(&line)))
}

/// Python's `int(text)` for base 10: white space around, an optional sign,
/// digits with single underscores between them. Values beyond `i64`
/// saturate: no board or column is that large.
fn python_int(text: &str) -> Option<i64> {
    let text = text.trim_matches(|c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c));
    crate::console::integer(text.as_bytes(), |digits| {
        !digits.starts_with(b"_")
            && !digits.ends_with(b"_")
            && !digits.windows(2).any(|pair| pair == b"__")
            && digits.iter().all(|b| b.is_ascii_digit() || *b == b'_')
    })
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

    const COLUMN_PROMPT_4: &str = "Which column do you want to drop a piece into? (1-4) ";
    const BOMB_PROMPT: &str = "Do you want to use your bomb piece? (y) ";

    #[test]
    fn python_int_accepts_what_int_accepts() {
        assert_eq!(python_int("3"), Some(3));
        assert_eq!(python_int("  -12 \t"), Some(-12));
        assert_eq!(python_int("+1_0"), Some(10));
        assert_eq!(python_int("007"), Some(7));
        for bad in ["", " ", "3.0", "1__0", "_1", "1_", "x", "0x10", "- 1"] {
            assert_eq!(python_int(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_short_game_prints_the_given_main_text() {
        // Player 1 wins vertically in column 1 on a 4x4 board; nobody
        // bombs (any answer but y/Y drops a piece).
        let out = run("4\n4\n1\nn\n2\nno\n1\n\n2\nN\n1\nyes\n2\nx\n1\nn\n");
        let expected_start = "Welcome to Connect Four: CSE 101 Edition!\n\n\
            Enter number of rows in board. Must be >= 4: \
            Enter number of columns in board. Must be >= 4: \
            Player 1: You are X\nPlayer 2: You are O\nLet's start the game!\n\
            \nPlayer 1's turn!\n....\n....\n....\n....\n";
        assert!(out.starts_with(expected_start), "{out}");
        assert!(
            out.ends_with("\nPlayer 1 won the game!\nX...\nXO..\nXO..\nXO..\n\nGame Over!\n"),
            "{out}"
        );
        assert_eq!(out.matches(BOMB_PROMPT).count(), 7);
        assert_eq!(out.matches(COLUMN_PROMPT_4).count(), 7);
    }

    #[test]
    fn the_bomb_is_asked_only_while_the_player_has_one() {
        // Player 1 bombs (valid, empty column), then is never asked again;
        // player 2 keeps being asked.
        let out = run("4\n4\n1\ny\n2\nn\n3\n3\nn\n");
        let turns: Vec<&str> = out.split("'s turn!\n").skip(1).collect();
        assert!(turns[0].contains(BOMB_PROMPT));
        assert!(turns[1].contains(BOMB_PROMPT));
        assert!(!turns[2].contains(BOMB_PROMPT), "{}", turns[2]);
        assert!(turns[3].contains(BOMB_PROMPT));
    }

    #[test]
    fn an_invalid_bomb_is_spent_and_the_turn_lost() {
        let out = run("4\n5\n9\nY\n1\n");
        assert!(out.contains(
            "(1-5) Do you want to use your bomb piece? (y) You can't drop a bomb into that column. You lose your bomb and your turn!\n\nPlayer 2's turn!\n"
        ), "{out}");
        // Player 1's next turn asks no bomb question.
        let out = run("4\n5\n9\nY\n1\nn\n2\n");
        let second_turn_of_1 = out.split("\nPlayer 1's turn!").nth(2).unwrap();
        let second_turn_of_1 = second_turn_of_1.split("\nPlayer 2's turn!").next().unwrap();
        assert!(!second_turn_of_1.contains(BOMB_PROMPT), "{out}");
        assert!(second_turn_of_1.contains("(1-5) "), "{out}");
    }

    #[test]
    fn an_invalid_piece_loses_the_turn() {
        let out = run("4\n4\n0\nn\n5\nn\n");
        assert_eq!(
            out.matches("You can't drop a piece into that column. You lose your turn!\n")
                .count(),
            2
        );
        assert!(out.contains("\nPlayer 1's turn!\n....\n....\n....\n....\nWhich"));
    }

    #[test]
    fn a_bomb_clears_a_column_with_pieces() {
        let out = run("4\n4\n2\nn\n2\ny\n");
        assert!(
            out.ends_with(&format!(
                "\nPlayer 1's turn!\n....\n....\n....\n....\n{COLUMN_PROMPT_4}"
            )),
            "{out}"
        );
    }

    /// Columns for a 4x4 game, without bombs, whose 16th piece fills the
    /// board and makes four in a row; found by a deterministic search so
    /// the test does not rest on a hand-made sequence.
    fn game_won_by_the_last_piece() -> Vec<i64> {
        let mut seed: u64 = 7;
        loop {
            let mut board = Board::new(4, 4);
            let mut moves = Vec::new();
            let mut player = 1;
            let mut won = false;
            while !board_full(&board) && !won {
                let open: Vec<i64> = (1..=4)
                    .filter(|&c| drop_piece(&mut board.clone(), c, 1) != -1)
                    .collect();
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let col = open[(seed >> 33) as usize % open.len()];
                drop_piece(&mut board, col, player);
                moves.push(col);
                won = horizontal_winner(&board) >= 1
                    || vertical_winner(&board) >= 1
                    || diagonal_winner(&board) != 0;
                player = 3 - player;
            }
            if won && board_full(&board) {
                return moves;
            }
        }
    }

    #[test]
    fn a_win_that_fills_the_board_prints_the_win_then_the_tie() {
        let mut input = String::from("4\n4\n");
        for col in game_won_by_the_last_piece() {
            input.push_str(&format!("{col}\nn\n"));
        }
        let out = run(&input);
        let (_, ending) = out
            .rsplit_once("Do you want to use your bomb piece? (y) ")
            .unwrap();
        let lines: Vec<&str> = ending.lines().collect();
        assert_eq!(lines[..2], ["", "Player 2 won the game!"], "{out}");
        assert!(
            lines[2..6].iter().all(|l| l.len() == 4 && !l.contains('.')),
            "{out}"
        );
        assert_eq!(lines[6..], ["", "Game Over! It was a tie!"], "{out}");
    }

    #[test]
    fn non_integer_input_and_end_of_input_stop_quietly() {
        let out = run("4\nfour\n1\n");
        assert!(out.ends_with("Must be >= 4: "), "{out}");
        let out = run("5\n");
        assert!(out.ends_with("Enter number of columns in board. Must be >= 4: "));
        let out = run("4\n4\n1\n");
        assert!(out.ends_with(BOMB_PROMPT));
        assert!(run("2000\n4\n").ends_with("Must be >= 4: "));
    }

    #[test]
    fn non_square_boards_play() {
        let out = run("4\n9\n9\nn\n");
        assert!(out.contains("(1-9) "));
        assert!(out.ends_with("\nPlayer 2's turn!\n.........\n.........\n.........\n........X\nWhich column do you want to drop a piece into? (1-9) "), "{out}");
        let out = run("9\n4\n4\nn\n");
        assert!(
            out.contains("....\n....\n....\n....\n....\n....\n....\n....\n...X\n"),
            "{out}"
        );
    }
}
