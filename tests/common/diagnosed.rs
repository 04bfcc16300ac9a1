//! A graded class whose results carry diagnoses, made by hand: grading
//! does not find them yet, and the reports must show them all the same.
//!
//! Ada's Connect Four passes every case (full marks) yet reads past the
//! end of her board in the public case `win-row`, divides by zero in the
//! hidden case `win-diagonal` (whose name and input, `SECRET`, no student
//! may see), and uses a variable never set, as the compiler warned. Ben
//! has none.

use referee::results::ClassResults;
use serde_json::json;

/// The class.
pub fn class() -> ClassResults {
    let case = |name: &str, visibility: &str| {
        json!({
            "name": name, "verdict": "pass", "score": 2.0, "max_score": 2.0,
            "wall_ms": 12, "visibility": visibility, "reason": ""
        })
    };
    let cases = json!([case("win-row", "public"), case("win-diagonal", "hidden")]);
    let results = json!({
        "game": "connect4",
        "schema_version": 1,
        "referee_version": "0.0.0",
        "suite": {
            "title": "Lab 6: Connect Four",
            "max_score": 4.0,
            "cases": [
                { "name": "win-row", "max_score": 2.0, "visibility": "public",
                  "description": "Red wins on the bottom row." },
                { "name": "win-diagonal", "max_score": 2.0, "visibility": "hidden",
                  "description": "SECRET: Yellow wins on a diagonal." }
            ]
        },
        "submissions": [
            {
                "id": "ada", "path": "class/ada/lab6.c", "score": 4.0, "max_score": 4.0,
                "status": "graded", "cases": cases,
                "diagnostics": [
                    {
                        "kind": "read-past-end", "found": "run",
                        "message": "index 6 out of bounds for type 'char [6]'",
                        "file": "lab6.c", "line": 41, "function": "check_row",
                        "source": "        if (board[r][c + 1] == piece && board[r][c + 2] == piece)",
                        "case": "win-row", "input_line": 7, "input": "6", "count": 3
                    },
                    {
                        "kind": "division-by-zero", "found": "run",
                        "message": "division by zero after SECRET-input",
                        "file": "lab6.c", "line": 88, "function": "percent_full",
                        "source": "    return 100 * filled / empty;",
                        "case": "win-diagonal", "input_line": 12, "input": "SECRET-input",
                        "count": 1
                    },
                    {
                        "kind": "uninitialized", "found": "compiler",
                        "message": "'winner' is used uninitialized",
                        "file": "lab6.c", "line": 103, "function": "main",
                        "source": "    if (winner != EMPTY) {", "count": 1
                    }
                ]
            },
            {
                "id": "ben", "path": "class/ben/lab6.c", "score": 2.0, "max_score": 4.0,
                "status": "graded",
                "cases": [case("win-row", "public"), {
                    "name": "win-diagonal", "verdict": "wrong-output", "score": 0.0,
                    "max_score": 2.0, "wall_ms": 12, "visibility": "hidden",
                    "reason": "the winner differs"
                }]
            }
        ]
    });
    serde_json::from_value(results).expect("the class's results read back")
}
