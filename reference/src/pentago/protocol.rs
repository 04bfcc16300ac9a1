//! What the CS 141 Pentago program prints and reads (SPEC.md §3).

use std::io::{self, BufRead, Write};

use super::rules::{Board, Outcome, Piece, Rotation};
use crate::console::Console;

/// How many lines at the top of the output identify the student (author,
/// program, TA, date): suites must not grade them.
pub const HEADER_LINES: usize = 4;

const HEADER: &str = "\
Author: Dale Reed
Program: #3, Pentago
TA: Karla Templar, Tues 10
Feb 5, 2017

Play the two-player game of Pentago. Be the first to get 5 in a row.

Pentago is played on a 6 by 6 board, divided into four 3 by 3
quadrants.  There are two players, X and O, who alternate turns.
The goal of each player is to get five of their pieces in a row,
either horizontally, vertically, or diagonally.

Players take turns placing one of their pieces into an empty
space anywhere on the board, then choosing one of the four
board quadrants to rotate 90 degrees left or right.

If both players get five in a row at the same time, or the
last move is played with no five in a row, the game is a tie.
If a player makes five a row by placing a piece, there is no need
to rotate a quadrant and the player wins immediately.

Play online at:  https://perfect-pentago.net
Purchase at:     www.mindtwisterusa.com

For each move provide four inputs:
row (A-F), column (1-6), quadrant (1-4), rotation direction (L or R)
For instance input of B32R places the next piece at B3 and then
would rotate quadrant 2 (upper-right) to the right (clockwise).

At any point enter 'x' to exit the program.
";

/// A move as typed, checked in SPEC.md's order.
struct Move {
    square: (usize, usize),
    quadrant: usize,
    rotation: Rotation,
}

/// Plays one game as the assignment's program does. Stops quietly at end
/// of input, including in the middle of a move.
pub fn play(input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
    let mut console = Console::new(input, output);
    console.print(HEADER)?;
    let mut board = Board::new();
    console.print(&board.render())?;
    let mut piece = Piece::X;
    let mut number = 1;
    loop {
        console.print(&format!(
            "{number}. Enter row, column, quadrant, direction for {}: ",
            piece.symbol()
        ))?;
        let Some(typed) = read_move(&mut console)? else {
            return console.flush();
        };
        let Some([row, col, quadrant, direction]) = typed else {
            console.print("Exiting program...\n")?;
            return console.flush();
        };
        let mv = match check_move(&board, row, col, quadrant, direction) {
            Ok(mv) => mv,
            Err(message) => {
                console.print(message)?;
                continue;
            }
        };
        match board.play(piece, mv.square, mv.quadrant, mv.rotation) {
            Outcome::Playing => {}
            outcome => return finish(&mut console, &board, outcome),
        }
        console.print(&board.render())?;
        piece = piece.other();
        number += 1;
    }
}

/// The four characters of a move, each after white space: `Some(None)`
/// when the first is `x`/`X` (exit), `None` at end of input.
fn read_move(console: &mut Console) -> io::Result<Option<Option<[u8; 4]>>> {
    let Some(first) = console.char_after_white_space()? else {
        return Ok(None);
    };
    if first.eq_ignore_ascii_case(&b'x') {
        return Ok(Some(None));
    }
    let mut chars = [first, 0, 0, 0];
    for slot in &mut chars[1..] {
        let Some(c) = console.char_after_white_space()? else {
            return Ok(None);
        };
        *slot = c;
    }
    Ok(Some(Some(chars)))
}

/// Checks a typed move in SPEC.md's order; the error is the line to print.
fn check_move(
    board: &Board,
    row: u8,
    col: u8,
    quadrant: u8,
    direction: u8,
) -> Result<Move, &'static str> {
    let row = match row.to_ascii_uppercase() {
        r @ b'A'..=b'F' => usize::from(r - b'A'),
        _ => return Err("*** Invalid move row.  Please retry.\n"),
    };
    let col = match col {
        c @ b'1'..=b'6' => usize::from(c - b'1'),
        _ => return Err("*** Invalid move column.  Please retry.\n"),
    };
    if board.at(row, col).is_some() {
        return Err("*** That board location is already taken.  Please retry.\n");
    }
    let quadrant = match quadrant {
        q @ b'1'..=b'4' => usize::from(q - b'0'),
        _ => return Err("*** Selected quadrant is invalid.  Please retry.\n"),
    };
    let rotation = match direction.to_ascii_uppercase() {
        b'L' => Rotation::Left,
        b'R' => Rotation::Right,
        _ => return Err("*** Quadrant rotation direction is invalid.  Please retry.\n"),
    };
    Ok(Move {
        square: (row, col),
        quadrant,
        rotation,
    })
}

/// Prints the ending: who won (or the tie), the board, the goodbye.
fn finish(console: &mut Console, board: &Board, outcome: Outcome) -> io::Result<()> {
    match outcome {
        Outcome::Won(winner) => {
            console.print(&format!("{} has won the game!\n", winner.symbol()))?;
        }
        _ => console.print("*** Both X and O have won.  Game is a tie.\n")?,
    }
    console.print(&board.render())?;
    console.print("Thanks for playing.  Exiting...\n")?;
    console.flush()
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

    fn after_header(out: &str) -> &str {
        out.strip_prefix(HEADER).expect("the header comes first")
    }

    #[test]
    fn exit_at_the_first_move_in_either_case() {
        for x in ["x\n", "X\n", "  \n x"] {
            let out = run(x);
            assert!(
                after_header(&out).ends_with(
                    "4\n\n1. Enter row, column, quadrant, direction for X: Exiting program...\n"
                ),
                "{out}"
            );
        }
    }

    #[test]
    fn errors_are_checked_in_order_and_keep_the_move_number() {
        // X takes A1 (quadrant 4 turns, leaving A1 where it is). Then each
        // of O's moves has every error from one position on: only the
        // first is reported, and the occupied square comes before the
        // quadrant and the direction.
        let out = run("a14r\nG99z\na79z\na19z\nb19z\nb14z\nx\n");
        let prompt = "2. Enter row, column, quadrant, direction for O: ";
        let messages: Vec<&str> = out.lines().filter(|l| l.contains("***")).collect();
        let expected: Vec<String> = [
            "Invalid move row.",
            "Invalid move column.",
            "That board location is already taken.",
            "Selected quadrant is invalid.",
            "Quadrant rotation direction is invalid.",
        ]
        .iter()
        .map(|m| format!("{prompt}*** {m}  Please retry."))
        .collect();
        assert_eq!(messages, expected);
        assert!(out.ends_with(&format!("{prompt}Exiting program...\n")));
    }

    #[test]
    fn spaced_and_lower_case_moves_are_the_same_move() {
        let joined = run("c31r\n");
        for spaced in ["C 3 1 R\n", "c3 1r\n", "c\n3\n1\nr\n", "  c31R  \n"] {
            assert_eq!(run(spaced), joined, "{spaced:?}");
        }
    }

    /// 36 moves that fill the board without anybody making five: at each
    /// move, the first (square, quadrant, direction) in a fixed order that
    /// keeps the game going.
    fn moves_filling_the_board() -> String {
        let mut board = Board::new();
        let mut piece = Piece::X;
        let mut moves = String::new();
        for number in 0..36 {
            let free: Vec<(usize, usize)> = (0..36)
                .map(|i| ((i * 7 + number) % 36 / 6, (i * 7 + number) % 6))
                .filter(|&(r, c)| board.at(r, c).is_none())
                .collect();
            let (square, quadrant, rotation) = free
                .iter()
                .flat_map(|&sq| {
                    (1..=4).flat_map(move |q| [(sq, q, Rotation::Left), (sq, q, Rotation::Right)])
                })
                .find(|&(sq, q, rot)| board.clone().play(piece, sq, q, rot) == Outcome::Playing)
                .expect("some move keeps the game going");
            board.play(piece, square, quadrant, rotation);
            let dir = if rotation == Rotation::Left { 'l' } else { 'r' };
            moves.push_str(&format!(
                "{}{}{quadrant}{dir}\n",
                (b'a' + square.0 as u8) as char,
                square.1 + 1
            ));
            piece = piece.other();
        }
        moves
    }

    #[test]
    fn a_full_board_is_not_detected() {
        let moves = moves_filling_the_board();
        let out = run(&moves);
        assert!(!after_header(&out).contains("won") && !after_header(&out).contains("tie"));
        assert!(
            out.ends_with("37. Enter row, column, quadrant, direction for X: "),
            "{out}"
        );
        let out = run(&(moves + "a11l\nx\n"));
        assert!(out.ends_with(
            "*** That board location is already taken.  Please retry.\n\
             37. Enter row, column, quadrant, direction for X: Exiting program...\n"
        ));
    }

    #[test]
    fn end_of_input_mid_move_stops_quietly() {
        let out = run("a1");
        assert!(out.ends_with("1. Enter row, column, quadrant, direction for X: "));
    }
}
