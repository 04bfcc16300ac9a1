//! The seeds' sample runs, fed through a pipe to `referee play`, must print
//! exactly what the handouts show.
//!
//! The expected transcripts below are the handouts' own text, in terminal
//! form (each typed input after its prompt), copied from
//! `shared/seeds/`: the APS105 examples verbatim; the Pentago run with the
//! layout SPEC.md reconstructs (its flattened seed text equals it with white
//! space collapsed). Through a pipe nothing is echoed, so each test drops
//! the typed input and its newline before comparing.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `referee play <game>` with `inputs`, one per line, on a pipe.
fn play(game: &str, inputs: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["play", game])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("referee starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    for line in inputs {
        writeln!(stdin, "{line}").expect("referee reads its input");
    }
    drop(stdin);
    let output = child.wait_with_output().expect("referee finishes");
    assert!(
        output.status.success(),
        "referee play {game} failed: {output:?}"
    );
    String::from_utf8(output.stdout).expect("the reference prints UTF-8")
}

/// The pipe form of a terminal transcript: each input, typed after a prompt
/// ending in `": "`, is removed with its newline, in order.
fn pipe_form(terminal: &str, inputs: &[&str]) -> String {
    let mut rest = terminal;
    let mut out = String::new();
    for input in inputs {
        let typed = format!(": {input}\n");
        let at = rest
            .find(&typed)
            .unwrap_or_else(|| panic!("input {input:?} is not in the transcript"));
        out.push_str(&rest[..at + 2]);
        rest = &rest[at + typed.len()..];
    }
    out.push_str(rest);
    out
}

/// APS105 Lab 6, Example 1.
const APS105_EXAMPLE_1: &str = r###"------
------
------
------
------
------
Red, please enter a valid column number (0-5): 0
------
------
------
------
------
R-----
Yellow, please enter a valid column number (0-5): 1
------
------
------
------
------
RY----
Red, please enter a valid column number (0-5): 0
------
------
------
------
R-----
RY----
Yellow, please enter a valid column number (0-5): 1
------
------
------
------
RY----
RY----
Red, please enter a valid column number (0-5): 0
------
------
------
R-----
RY----
RY----
Yellow, please enter a valid column number (0-5): 1
------
------
------
RY----
RY----
RY----
Red, please enter a valid column number (0-5): 6
Red, please enter a valid column number (0-5): 2
------
------
------
RY----
RY----
RYR---
Yellow, please enter a valid column number (0-5): 1
Yellow wins!
Final board: 
------
------
-Y----
RY----
RY----
RYR---
"###;

#[test]
fn aps105_example_1() {
    let inputs = ["0", "1", "0", "1", "0", "1", "6", "2", "1"];
    assert_eq!(
        play("connect4", &inputs),
        pipe_form(APS105_EXAMPLE_1, &inputs)
    );
}

/// APS105 Lab 6, Example 2.
const APS105_EXAMPLE_2: &str = r###"------
------
------
------
------
------
Red, please enter a valid column number (0-5): 1
------
------
------
------
------
-R----
Yellow, please enter a valid column number (0-5): 2
------
------
------
------
------
-RY---
Red, please enter a valid column number (0-5): 3
------
------
------
------
------
-RYR--
Yellow, please enter a valid column number (0-5): 1
------
------
------
------
-Y----
-RYR--
Red, please enter a valid column number (0-5): 2
------
------
------
------
-YR---
-RYR--
Yellow, please enter a valid column number (0-5): 3
------
------
------
------
-YRY--
-RYR--
Red, please enter a valid column number (0-5): 4
------
------
------
------
-YRY--
-RYRR-
Yellow, please enter a valid column number (0-5): 1
------
------
------
-Y----
-YRY--
-RYRR-
Red, please enter a valid column number (0-5): 2
------
------
------
-YR---
-YRY--
-RYRR-
Yellow, please enter a valid column number (0-5): 4
------
------
------
-YR---
-YRYY-
-RYRR-
Red, please enter a valid column number (0-5): 3
------
------
------
-YRR--
-YRYY-
-RYRR-
Yellow, please enter a valid column number (0-5): 4
------
------
------
-YRRY-
-YRYY-
-RYRR-
Red, please enter a valid column number (0-5): 4
Red wins!
Final board: 
------
------
----R-
-YRRY-
-YRYY-
-RYRR-
"###;

#[test]
fn aps105_example_2() {
    let inputs = [
        "1", "2", "3", "1", "2", "3", "4", "1", "2", "4", "3", "4", "4",
    ];
    assert_eq!(
        play("connect4", &inputs),
        pipe_form(APS105_EXAMPLE_2, &inputs)
    );
}

/// APS105 Lab 6, Example 3.
const APS105_EXAMPLE_3: &str = r###"------
------
------
------
------
------
Red, please enter a valid column number (0-5): 1
------
------
------
------
------
-R----
Yellow, please enter a valid column number (0-5): 2
------
------
------
------
------
-RY---
Red, please enter a valid column number (0-5): 3
------
------
------
------
------
-RYR--
Yellow, please enter a valid column number (0-5): 1
------
------
------
------
-Y----
-RYR--
Red, please enter a valid column number (0-5): 2
------
------
------
------
-YR---
-RYR--
Yellow, please enter a valid column number (0-5): 3
------
------
------
------
-YRY--
-RYR--
Red, please enter a valid column number (0-5): 1
------
------
------
-R----
-YRY--
-RYR--
Yellow, please enter a valid column number (0-5): 2
------
------
------
-RY---
-YRY--
-RYR--
Red, please enter a valid column number (0-5): 3
------
------
------
-RYR--
-YRY--
-RYR--
Yellow, please enter a valid column number (0-5): 1
------
------
-Y----
-RYR--
-YRY--
-RYR--
Red, please enter a valid column number (0-5): 2
------
------
-YR---
-RYR--
-YRY--
-RYR--
Yellow, please enter a valid column number (0-5): 3
------
------
-YRY--
-RYR--
-YRY--
-RYR--
Red, please enter a valid column number (0-5): 1
------
-R----
-YRY--
-RYR--
-YRY--
-RYR--
Yellow, please enter a valid column number (0-5): 2
------
-RY---
-YRY--
-RYR--
-YRY--
-RYR--
Red, please enter a valid column number (0-5): 3
------
-RYR--
-YRY--
-RYR--
-YRY--
-RYR--
Yellow, please enter a valid column number (0-5): 1
-Y----
-RYR--
-YRY--
-RYR--
-YRY--
-RYR--
Red, please enter a valid column number (0-5): 2
-YR---
-RYR--
-YRY--
-RYR--
-YRY--
-RYR--
Yellow, please enter a valid column number (0-5): 3
-YRY--
-RYR--
-YRY--
-RYR--
-YRY--
-RYR--
Red, please enter a valid column number (0-5): 0
-YRY--
-RYR--
-YRY--
-RYR--
-YRY--
RRYR--
Yellow, please enter a valid column number (0-5): 0
-YRY--
-RYR--
-YRY--
-RYR--
YYRY--
RRYR--
Red, please enter a valid column number (0-5): 0
-YRY--
-RYR--
-YRY--
RRYR--
YYRY--
RRYR--
Yellow, please enter a valid column number (0-5): 0
-YRY--
-RYR--
YYRY--
RRYR--
YYRY--
RRYR--
Red, please enter a valid column number (0-5): 0
-YRY--
RRYR--
YYRY--
RRYR--
YYRY--
RRYR--
Yellow, please enter a valid column number (0-5): 0
YYRY--
RRYR--
YYRY--
RRYR--
YYRY--
RRYR--
Red, please enter a valid column number (0-5): 4
YYRY--
RRYR--
YYRY--
RRYR--
YYRY--
RRYRR-
Yellow, please enter a valid column number (0-5): 4
YYRY--
RRYR--
YYRY--
RRYR--
YYRYY-
RRYRR-
Red, please enter a valid column number (0-5): 4
YYRY--
RRYR--
YYRY--
RRYRR-
YYRYY-
RRYRR-
Yellow, please enter a valid column number (0-5): 4
YYRY--
RRYR--
YYRYY-
RRYRR-
YYRYY-
RRYRR-
Red, please enter a valid column number (0-5): 4
YYRY--
RRYRR-
YYRYY-
RRYRR-
YYRYY-
RRYRR-
Yellow, please enter a valid column number (0-5): 4
YYRYY-
RRYRR-
YYRYY-
RRYRR-
YYRYY-
RRYRR-
Red, please enter a valid column number (0-5): 5
YYRYY-
RRYRR-
YYRYY-
RRYRR-
YYRYY-
RRYRRR
Yellow, please enter a valid column number (0-5): 5
YYRYY-
RRYRR-
YYRYY-
RRYRR-
YYRYYY
RRYRRR
Red, please enter a valid column number (0-5): 5
YYRYY-
RRYRR-
YYRYY-
RRYRRR
YYRYYY
RRYRRR
Yellow, please enter a valid column number (0-5): 5
YYRYY-
RRYRR-
YYRYYY
RRYRRR
YYRYYY
RRYRRR
Red, please enter a valid column number (0-5): 5
YYRYY-
RRYRRR
YYRYYY
RRYRRR
YYRYYY
RRYRRR
Yellow, please enter a valid column number (0-5): 5
It's a tie
Final board: 
YYRYYY
RRYRRR
YYRYYY
RRYRRR
YYRYYY
RRYRRR
"###;

#[test]
fn aps105_example_3() {
    let inputs = [
        "1", "2", "3", "1", "2", "3", "1", "2", "3", "1", "2", "3", "1", "2", "3", "1", "2", "3",
        "0", "0", "0", "0", "0", "0", "4", "4", "4", "4", "4", "4", "5", "5", "5", "5", "5", "5",
    ];
    assert_eq!(
        play("connect4", &inputs),
        pipe_form(APS105_EXAMPLE_3, &inputs)
    );
}

/// The moves of the Pentago seed's sample run, `A51R` included.
const PENTAGO_SAMPLE_INPUTS: [&str; 15] = [
    "c31r", "A5 3R", "A51R", "G05h", "c05h", "c25h", "c21h", "c2 1r", "b 6 4 l", "c53l", "d6 3r",
    "c41r", "e14l", "c6 2r", "f2 3l",
];

/// CS 141 Prog 3, the sample run ("Running the program looks like:").
const PENTAGO_SAMPLE_RUN: &str = r###"Author: Dale Reed
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

1   1 2 3 4 5 6   2
    -----------
A:  . . . . . .  :A
B:  . . . . . .  :B
C:  . . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

1. Enter row, column, quadrant, direction for X: c31r

1   1 2 3 4 5 6   2
    -----------
A:  . . . . . .  :A
B:  . . . . . .  :B
C:  X . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

2. Enter row, column, quadrant, direction for O: A5 3R

1   1 2 3 4 5 6   2
    -----------
A:  . . . . O .  :A
B:  . . . . . .  :B
C:  X . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

3. Enter row, column, quadrant, direction for X: A51R
*** That board location is already taken.  Please retry.
3. Enter row, column, quadrant, direction for X: G05h
*** Invalid move row.  Please retry.
3. Enter row, column, quadrant, direction for X: c05h
*** Invalid move column.  Please retry.
3. Enter row, column, quadrant, direction for X: c25h
*** Selected quadrant is invalid.  Please retry.
3. Enter row, column, quadrant, direction for X: c21h
*** Quadrant rotation direction is invalid.  Please retry.
3. Enter row, column, quadrant, direction for X: c2 1r

1   1 2 3 4 5 6   2
    -----------
A:  X . . . O .  :A
B:  X . . . . .  :B
C:  . . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

4. Enter row, column, quadrant, direction for O: b 6 4 l

1   1 2 3 4 5 6   2
    -----------
A:  X . . . O .  :A
B:  X . . . . O  :B
C:  . . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

5. Enter row, column, quadrant, direction for X: c53l

1   1 2 3 4 5 6   2
    -----------
A:  X . . . O .  :A
B:  X . . . . O  :B
C:  . . . . X .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

6. Enter row, column, quadrant, direction for O: d6 3r

1   1 2 3 4 5 6   2
    -----------
A:  X . . . O .  :A
B:  X . . . . O  :B
C:  . . . . X .  :C
D:  . . . . . O  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

7. Enter row, column, quadrant, direction for X: c41r

1   1 2 3 4 5 6   2
    -----------
A:  . X X . O .  :A
B:  . . . . . O  :B
C:  . . . X X .  :C
D:  . . . . . O  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

8. Enter row, column, quadrant, direction for O: e14l

1   1 2 3 4 5 6   2
    -----------
A:  . X X . O .  :A
B:  . . . . . O  :B
C:  . . . X X .  :C
D:  . . . O . .  :D
E:  O . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

9. Enter row, column, quadrant, direction for X: c6 2r

1   1 2 3 4 5 6   2
    -----------
A:  . X X X . .  :A
B:  . . . X . O  :B
C:  . . . X O .  :C
D:  . . . O . .  :D
E:  O . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

10. Enter row, column, quadrant, direction for O: f2 3l
O has won the game!

1   1 2 3 4 5 6   2
    -----------
A:  . X X X . .  :A
B:  . . . X . O  :B
C:  . . . X O .  :C
D:  . . . O . .  :D
E:  . . O . . .  :E
F:  . O . . . .  :F
    -----------
3   1 2 3 4 5 6   4

Thanks for playing.  Exiting...
"###;

#[test]
fn pentago_sample_run() {
    assert_eq!(
        play("pentago", &PENTAGO_SAMPLE_INPUTS),
        pipe_form(PENTAGO_SAMPLE_RUN, &PENTAGO_SAMPLE_INPUTS)
    );
}

/// The seed's first test input is the sample run without `A51R`: the same
/// game, without the one refused move.
#[test]
fn pentago_test_input_1_o_wins_on_move_10() {
    let inputs: Vec<&str> = PENTAGO_SAMPLE_INPUTS
        .into_iter()
        .filter(|m| *m != "A51R")
        .collect();
    let refused = "3. Enter row, column, quadrant, direction for X: A51R\n\
                   *** That board location is already taken.  Please retry.\n";
    assert!(PENTAGO_SAMPLE_RUN.contains(refused));
    let expected = PENTAGO_SAMPLE_RUN.replacen(refused, "", 1);
    let out = play("pentago", &inputs);
    assert_eq!(out, pipe_form(&expected, &inputs));
    assert!(out.contains("10. Enter row, column, quadrant, direction for O: O has won the game!\n"));
}

/// The seed's second test input: "Both win at same time, resulting in a tie".
/// The seed gives only the moves; this transcript was worked out from
/// SPEC.md's rules independently of the reference: on move 10, O's
/// rotation of quadrant 3 gives X column 2 (A2..E2) and O the diagonal
/// B6, C5, D4, E3, F2.
const PENTAGO_TIE_RUN: &str = r###"Author: Dale Reed
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

1   1 2 3 4 5 6   2
    -----------
A:  . . . . . .  :A
B:  . . . . . .  :B
C:  . . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

1. Enter row, column, quadrant, direction for X: b23r

1   1 2 3 4 5 6   2
    -----------
A:  . . . . . .  :A
B:  . X . . . .  :B
C:  . . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

2. Enter row, column, quadrant, direction for O: a53l

1   1 2 3 4 5 6   2
    -----------
A:  . . . . O .  :A
B:  . X . . . .  :B
C:  . . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

3. Enter row, column, quadrant, direction for X: b13l

1   1 2 3 4 5 6   2
    -----------
A:  . . . . O .  :A
B:  X X . . . .  :B
C:  . . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

4. Enter row, column, quadrant, direction for O: b63l

1   1 2 3 4 5 6   2
    -----------
A:  . . . . O .  :A
B:  X X . . . O  :B
C:  . . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

5. Enter row, column, quadrant, direction for X: b33l

1   1 2 3 4 5 6   2
    -----------
A:  . . . . O .  :A
B:  X X X . . O  :B
C:  . . . . . .  :C
D:  . . . . . .  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

6. Enter row, column, quadrant, direction for O: d63l

1   1 2 3 4 5 6   2
    -----------
A:  . . . . O .  :A
B:  X X X . . O  :B
C:  . . . . . .  :C
D:  . . . . . O  :D
E:  . . . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

7. Enter row, column, quadrant, direction for X: e24l

1   1 2 3 4 5 6   2
    -----------
A:  . . . . O .  :A
B:  X X X . . O  :B
C:  . . . . . .  :C
D:  . . . O . .  :D
E:  . X . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

8. Enter row, column, quadrant, direction for O: e12r

1   1 2 3 4 5 6   2
    -----------
A:  . . . . . .  :A
B:  X X X . . O  :B
C:  . . . . O .  :C
D:  . . . O . .  :D
E:  O X . . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

9. Enter row, column, quadrant, direction for X: e31r

1   1 2 3 4 5 6   2
    -----------
A:  . X . . . .  :A
B:  . X . . . O  :B
C:  . X . . O .  :C
D:  . . . O . .  :D
E:  O X X . . .  :E
F:  . . . . . .  :F
    -----------
3   1 2 3 4 5 6   4

10. Enter row, column, quadrant, direction for O: f23l
*** Both X and O have won.  Game is a tie.

1   1 2 3 4 5 6   2
    -----------
A:  . X . . . .  :A
B:  . X . . . O  :B
C:  . X . . O .  :C
D:  . X . O . .  :D
E:  . X O . . .  :E
F:  . O . . . .  :F
    -----------
3   1 2 3 4 5 6   4

Thanks for playing.  Exiting...
"###;

#[test]
fn pentago_test_input_2_ends_in_a_tie() {
    let inputs = [
        "b23r", "a53l", "b13l", "b63l", "b33l", "d63l", "e24l", "e12r", "e31r", "f23l",
    ];
    let out = play("pentago", &inputs);
    assert_eq!(out, pipe_form(PENTAGO_TIE_RUN, &inputs));
    assert!(out.ends_with("*** Both X and O have won.  Game is a tie.\n\n1   1 2 3 4 5 6   2\n    -----------\nA:  . X . . . .  :A\nB:  . X . . . O  :B\nC:  . X . . O .  :C\nD:  . X . O . .  :D\nE:  . X O . . .  :E\nF:  . O . . . .  :F\n    -----------\n3   1 2 3 4 5 6   4\n\nThanks for playing.  Exiting...\n"));
}
