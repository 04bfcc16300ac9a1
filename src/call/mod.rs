//! Function-level grading for `connect4-bomb`: a case calls one of the
//! student's functions on a given board, and what it returned and the
//! board afterwards are compared with the reference's Rust functions.
//!
//! The student's file is loaded by a small Python helper embedded in this
//! binary ([`HELPER`]), which strips module-level statements other than
//! imports, functions and classes first, as the course's grader did. Each
//! call runs in a fresh process, under the same runner and limits as a
//! whole game.

use std::fmt;

use reference::connect4_bomb::{self as game, Board};
use reference::Game;
use serde::Deserialize;

use crate::fault::Fault;
use crate::verdict::Verdict;

/// The one game whose functions `call` cases call: this module is
/// written for its six functions. A `call` case of another game is
/// refused when its suite is loaded.
pub const GAME: Game = Game::Connect4Bomb;

/// The helper's source, written next to each Python submission.
pub const HELPER: &str = include_str!("helper.py");

/// The helper's file name in a submission's build folder.
pub const HELPER_FILE: &str = "referee_call_helper.py";

/// The file the helper writes its result to, in the run's folder.
pub const RESULT_FILE: &str = "result.json";

/// One of the six functions of the CSE 101 assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    /// `board_full(board)`.
    BoardFull,
    /// `drop_piece(board, col_num, player)`.
    DropPiece,
    /// `drop_bomb(board, col_num)`.
    DropBomb,
    /// `horizontal_winner(board)`.
    HorizontalWinner,
    /// `vertical_winner(board)`.
    VerticalWinner,
    /// `diagonal_winner(board)`.
    DiagonalWinner,
}

impl Function {
    /// Every function.
    pub const ALL: [Function; 6] = [
        Function::BoardFull,
        Function::DropPiece,
        Function::DropBomb,
        Function::HorizontalWinner,
        Function::VerticalWinner,
        Function::DiagonalWinner,
    ];

    /// Its Python name.
    pub fn name(self) -> &'static str {
        match self {
            Function::BoardFull => "board_full",
            Function::DropPiece => "drop_piece",
            Function::DropBomb => "drop_bomb",
            Function::HorizontalWinner => "horizontal_winner",
            Function::VerticalWinner => "vertical_winner",
            Function::DiagonalWinner => "diagonal_winner",
        }
    }

    /// The arguments after the board.
    pub fn parameters(self) -> &'static [&'static str] {
        match self {
            Function::DropPiece => &["col_num", "player"],
            Function::DropBomb => &["col_num"],
            _ => &[],
        }
    }

    /// What it should return, in a sentence for explanations.
    pub fn contract(self) -> &'static str {
        match self {
            Function::BoardFull => "True when no slot is empty, else False",
            Function::DropPiece => {
                "the row the piece lands in, counting from 1 at the bottom, or -1 (board unchanged) \
                 for a column off the board or full"
            }
            Function::DropBomb => {
                "col_num, after emptying that whole column, or -1 (board unchanged) for a column \
                 off the board"
            }
            Function::HorizontalWinner => {
                "the number of a player with four in a row along a row, else a number below 1"
            }
            Function::VerticalWinner => {
                "the number of a player with four in a row in a column, else a number below 1"
            }
            Function::DiagonalWinner => {
                "something true (such as the player's number) when a player has four on a \
                 diagonal, else something false"
            }
        }
    }

    /// The function called `name`.
    pub fn from_name(name: &str) -> Result<Function, Error> {
        Function::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| Error::UnknownFunction(name.to_string()))
    }
}

/// What is wrong with a call: a case naming no function of the
/// assignment, or a helper's result the program made unusable.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A case names a function the assignment does not have.
    #[error(
        "unknown function `{0}`; the functions are: {names}",
        names = Function::ALL.map(Function::name).join(", ")
    )]
    UnknownFunction(String),
    /// The helper's `result.json` is no JSON of the helper's.
    #[error("the helper's result is unreadable: {0}")]
    Unreadable(serde_json::Error),
    /// The helper's result says neither what was returned nor raised.
    #[error("the helper's result has no return value")]
    NoReturnValue,
}

impl Error {
    /// Whose fault it is: the case's name is the suite's; the result
    /// file is written where the student's code runs, so what spoils it
    /// is the student's.
    pub fn fault(&self) -> Fault {
        match self {
            Error::UnknownFunction(_) => Fault::Suite,
            Error::Unreadable(_) | Error::NoReturnValue => Fault::Student,
        }
    }
}

/// A call of one function on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// Which function.
    pub function: Function,
    /// The board it is given.
    pub board: Board,
    /// The arguments after the board.
    pub args: Vec<i64>,
}

/// What a function returned, as Python would see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An `int` (not a `bool`).
    Int(i64),
    /// `True` or `False`.
    Bool(bool),
    /// `None`.
    None,
    /// Anything else: its type, `repr` and truth value.
    Other {
        /// The type's name.
        type_name: String,
        /// Its `repr`, shortened.
        repr: String,
        /// Its truth value.
        truthy: bool,
    },
}

impl Value {
    fn truthy(&self) -> bool {
        match self {
            Value::Int(n) => *n != 0,
            Value::Bool(b) => *b,
            Value::None => false,
            Value::Other { truthy, .. } => *truthy,
        }
    }

    /// The value as a Python number, where it is one (`True` is 1).
    fn number(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            Value::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(true) => f.write_str("True"),
            Value::Bool(false) => f.write_str("False"),
            Value::None => f.write_str("None"),
            Value::Other { repr, .. } => f.write_str(repr),
        }
    }
}

/// What the reference does with a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// Its return value.
    pub returned: Value,
    /// The board afterwards.
    pub board: Board,
}

/// What the student's function did, as the helper reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It returned; the board afterwards, top row first.
    Returned {
        /// The value.
        value: Value,
        /// The board's rows afterwards, top row first.
        board: Vec<String>,
    },
    /// It (or loading the file) raised an exception.
    Raised {
        /// The exception's type, `SyntaxError`, or `missing`.
        name: String,
        /// Its message.
        message: String,
        /// Where, in the student's file.
        location: String,
    },
}

impl Call {
    /// `drop_piece(board, 4, 1)`.
    pub fn describe(&self) -> String {
        let mut text = format!("{}(board", self.function.name());
        for arg in &self.args {
            text.push_str(&format!(", {arg}"));
        }
        text.push(')');
        text
    }

    /// Runs the reference's function.
    pub fn expected(&self) -> Expected {
        let mut board = self.board.clone();
        let arg = |i: usize| self.args.get(i).copied().unwrap_or(0);
        let returned = match self.function {
            Function::BoardFull => Value::Bool(game::board_full(&board)),
            Function::DropPiece => Value::Int(game::drop_piece(&mut board, arg(0), arg(1))),
            Function::DropBomb => Value::Int(game::drop_bomb(&mut board, arg(0))),
            Function::HorizontalWinner => Value::Int(game::horizontal_winner(&board)),
            Function::VerticalWinner => Value::Int(game::vertical_winner(&board)),
            Function::DiagonalWinner => Value::Int(game::diagonal_winner(&board)),
        };
        Expected { returned, board }
    }

    /// The request the helper reads.
    pub fn request(&self) -> String {
        let rows: Vec<String> = self.board.render().lines().map(String::from).collect();
        serde_json::json!({
            "function": self.function.name(),
            "board": rows,
            "args": self.args,
        })
        .to_string()
    }

    /// The text pinned for this call: what the reference returns and the
    /// board afterwards.
    pub fn pin(&self) -> String {
        let expected = self.expected();
        format!(
            "{} on\n{}returns {}\nboard after:\n{}",
            self.describe(),
            self.board.render(),
            expected.returned,
            expected.board.render()
        )
    }
}

#[derive(Deserialize)]
struct RawOutcome {
    returned: Option<RawValue>,
    board: Option<Vec<String>>,
    raised: Option<String>,
    message: Option<String>,
    #[serde(rename = "where")]
    location: Option<String>,
}

#[derive(Deserialize)]
struct RawValue {
    #[serde(rename = "type")]
    type_name: String,
    value: Option<serde_json::Value>,
    repr: Option<String>,
    truthy: Option<bool>,
}

/// Reads the helper's `result.json`.
pub fn parse_outcome(json: &str) -> Result<Outcome, Error> {
    let raw: RawOutcome = serde_json::from_str(json).map_err(Error::Unreadable)?;
    if let Some(name) = raw.raised {
        return Ok(Outcome::Raised {
            name,
            message: raw.message.unwrap_or_default(),
            location: raw.location.unwrap_or_default(),
        });
    }
    let value = raw.returned.ok_or(Error::NoReturnValue)?;
    let value = match (value.type_name.as_str(), &value.value) {
        ("int", Some(v)) => Value::Int(v.as_i64().unwrap_or_default()),
        ("bool", Some(v)) => Value::Bool(v.as_bool().unwrap_or_default()),
        ("none", _) => Value::None,
        _ => Value::Other {
            type_name: value.type_name,
            repr: value.repr.unwrap_or_default(),
            truthy: value.truthy.unwrap_or(true),
        },
    };
    Ok(Outcome::Returned {
        value,
        board: raw.board.unwrap_or_default(),
    })
}

/// Judges what the student's function did against the reference, by the
/// rules of SPEC.md: exact return values for `drop_piece` and
/// `drop_bomb`, truth value for `board_full`; for the winner functions,
/// the predicate the given main uses (`>= 1`, or truth for the diagonal)
/// and the right player whenever a player's number is returned. The board
/// afterwards must always match.
pub fn judge(call: &Call, expected: &Expected, outcome: &Outcome) -> (Verdict, String) {
    let name = call.function.name();
    let (value, board) = match outcome {
        Outcome::Raised {
            name: kind,
            message,
            location,
        } => {
            let reason = match kind.as_str() {
                "missing" => message.clone(),
                "SyntaxError" => format!("your file has a syntax error ({location}): {message}"),
                _ => format!(
                    "{} raised {kind}: {message}{}",
                    call.describe(),
                    if location.is_empty() {
                        String::new()
                    } else {
                        format!(" ({location})")
                    }
                ),
            };
            return (Verdict::Crashed, reason);
        }
        Outcome::Returned { value, board } => (value, board),
    };
    let want = &expected.returned;
    let value_ok = match call.function {
        Function::DropPiece | Function::DropBomb => matches!(value, Value::Int(_)) && value == want,
        Function::BoardFull => value.truthy() == want.truthy(),
        Function::HorizontalWinner | Function::VerticalWinner => {
            let want = want.number().unwrap_or(0);
            value
                .number()
                .is_some_and(|got| (got >= 1) == (want >= 1) && (got < 1 || got == want))
        }
        Function::DiagonalWinner => {
            let names_wrong_player = matches!(value, Value::Int(1 | 2)) && value != want;
            value.truthy() == want.truthy() && !names_wrong_player
        }
    };
    let want_rows: Vec<String> = expected.board.render().lines().map(String::from).collect();
    let board_ok = *board == want_rows;
    match (value_ok, board_ok) {
        (true, true) => (Verdict::Pass, format!("{} did what the reference does", call.describe())),
        (false, _) => (
            Verdict::WrongOutput,
            format!(
                "{} returned {value}; the reference returns {want} ({name} returns {})",
                call.describe(),
                call.function.contract()
            ),
        ),
        (true, false) => (
            Verdict::WrongOutput,
            format!(
                "{} returned the right value ({value}) but left the board different from the reference's",
                call.describe()
            ),
        ),
    }
}

/// The boards of a call side by side: before, the reference's after, the
/// student's after.
pub fn boards_side_by_side(call: &Call, expected: &Expected, outcome: &Outcome) -> String {
    let before: Vec<String> = call.board.render().lines().map(String::from).collect();
    let want: Vec<String> = expected.board.render().lines().map(String::from).collect();
    let got: Vec<String> = match outcome {
        Outcome::Returned { board, .. } => board.clone(),
        Outcome::Raised { .. } => Vec::new(),
    };
    let width = before
        .iter()
        .chain(&want)
        .chain(&got)
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(0)
        .max(16);
    let mut text = format!(
        "  {:<width$}  {:<width$}  {}\n",
        "board given", "reference after", "yours after"
    );
    for i in 0..before.len().max(want.len()).max(got.len()) {
        let cell = |rows: &[String]| rows.get(i).cloned().unwrap_or_default();
        let mark = if cell(&want) != cell(&got) && !got.is_empty() {
            "  ←"
        } else {
            ""
        };
        text.push_str(&format!(
            "  {:<width$}  {:<width$}  {}{mark}\n",
            cell(&before),
            cell(&want),
            crate::text::visible::safe(cell(&got).as_bytes())
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(function: Function, board: &str, args: &[i64]) -> Call {
        Call {
            function,
            board: Board::parse(board).unwrap(),
            args: args.to_vec(),
        }
    }

    fn returned(value: Value, call: &Call) -> Outcome {
        Outcome::Returned {
            value,
            board: call
                .expected()
                .board
                .render()
                .lines()
                .map(String::from)
                .collect(),
        }
    }

    const ROW_WIN_2: &str = "....\n....\n....\nOOOO\n";
    const EMPTY: &str = "....\n....\n....\n....\n";

    #[test]
    fn winner_predicates_follow_the_given_main() {
        let c = call(Function::HorizontalWinner, ROW_WIN_2, &[]);
        let e = c.expected();
        let verdict = |v| judge(&c, &e, &returned(v, &c)).0;
        assert_eq!(verdict(Value::Int(2)), Verdict::Pass);
        assert_eq!(verdict(Value::Int(1)), Verdict::WrongOutput, "wrong player");
        assert_eq!(
            verdict(Value::Bool(true)),
            Verdict::WrongOutput,
            "True is player 1"
        );
        assert_eq!(verdict(Value::Int(0)), Verdict::WrongOutput);
        let none = call(Function::HorizontalWinner, EMPTY, &[]);
        let e = none.expected();
        let verdict = |v| judge(&none, &e, &returned(v, &none)).0;
        for no_winner in [Value::Int(0), Value::Int(-1), Value::Bool(false)] {
            assert_eq!(verdict(no_winner), Verdict::Pass);
        }
        assert_eq!(
            verdict(Value::None),
            Verdict::WrongOutput,
            "None >= 1 raises"
        );
    }

    #[test]
    fn the_diagonal_winner_is_judged_on_truth_and_player() {
        let c = call(Function::DiagonalWinner, "...O\n..O.\n.O..\nO...\n", &[]);
        let e = c.expected();
        let verdict = |v| judge(&c, &e, &returned(v, &c)).0;
        assert_eq!(verdict(Value::Int(2)), Verdict::Pass);
        assert_eq!(verdict(Value::Bool(true)), Verdict::Pass);
        assert_eq!(verdict(Value::Int(1)), Verdict::WrongOutput);
        assert_eq!(verdict(Value::None), Verdict::WrongOutput);
        let none = call(Function::DiagonalWinner, EMPTY, &[]);
        let e = none.expected();
        for falsy in [Value::Int(0), Value::Bool(false), Value::None] {
            assert_eq!(judge(&none, &e, &returned(falsy, &none)).0, Verdict::Pass);
        }
    }

    #[test]
    fn drops_need_the_exact_value_and_board() {
        let c = call(Function::DropPiece, EMPTY, &[2, 1]);
        let e = c.expected();
        assert_eq!(e.returned, Value::Int(1));
        assert_eq!(judge(&c, &e, &returned(Value::Int(1), &c)).0, Verdict::Pass);
        assert_eq!(
            judge(&c, &e, &returned(Value::Int(0), &c)).0,
            Verdict::WrongOutput
        );
        assert_eq!(
            judge(&c, &e, &returned(Value::Bool(true), &c)).0,
            Verdict::WrongOutput
        );
        let untouched = Outcome::Returned {
            value: Value::Int(1),
            board: EMPTY.lines().map(String::from).collect(),
        };
        let (verdict, reason) = judge(&c, &e, &untouched);
        assert_eq!(verdict, Verdict::WrongOutput);
        assert!(reason.contains("left the board different"), "{reason}");
    }

    #[test]
    fn exceptions_are_crashes_with_their_message() {
        let c = call(Function::DropPiece, EMPTY, &[2, 1]);
        let raised = Outcome::Raised {
            name: "NameError".into(),
            message: "name 'EMPTY' is not defined".into(),
            location: "line 12, in drop_piece".into(),
        };
        let (verdict, reason) = judge(&c, &c.expected(), &raised);
        assert_eq!(verdict, Verdict::Crashed);
        assert_eq!(
            reason,
            "drop_piece(board, 2, 1) raised NameError: name 'EMPTY' is not defined (line 12, in drop_piece)"
        );
    }

    #[test]
    fn the_helpers_result_is_read() {
        let ok =
            parse_outcome(r#"{"returned": {"type": "int", "value": 3}, "board": ["..", "X."]}"#)
                .unwrap();
        assert_eq!(
            ok,
            Outcome::Returned {
                value: Value::Int(3),
                board: vec!["..".into(), "X.".into()]
            }
        );
        let other = parse_outcome(
            r#"{"returned": {"type": "str", "repr": "'2'", "truthy": true}, "board": []}"#,
        )
        .unwrap();
        assert!(matches!(
            other,
            Outcome::Returned {
                value: Value::Other { .. },
                ..
            }
        ));
        let spoiled = parse_outcome("{").unwrap_err();
        assert!(matches!(spoiled, Error::Unreadable(_)), "{spoiled}");
        assert_eq!(spoiled.fault(), Fault::Student);
        let unknown = Function::from_name("drop_pieces").unwrap_err();
        assert_eq!(unknown.fault(), Fault::Suite);
        assert!(unknown
            .to_string()
            .starts_with("unknown function `drop_pieces`; the functions are: board_full, "));
    }
}
