//! What a hostile program prints, made from scratch or from a real
//! transcript by mutation, as proptest strategies.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use referee::transcript::{Event, Transcript};

/// Pieces hostile and ordinary output is made of: terminal escapes,
/// invalid UTF-8, carriage returns, characters that are wide or invisible
/// or reorder text, the games' own words and boards, and referee's marks.
pub const TOKENS: &[&str] = &[
    "\x1b[2J",
    "\x1b]0;owned\x07",
    "\x1b[31m",
    "\r",
    "\n",
    "\r\n",
    "\0",
    "\t",
    "\x7f",
    "\u{9b}",
    "\u{202e}",
    "\u{200b}",
    "\u{a0}",
    "é",
    "ß",
    "李雷",
    "║",
    "│",
    "┃",
    "·",
    "␍",
    "…",
    "\\x1b",
    " ",
    "   ",
    "X",
    "O",
    "x",
    "o",
    ".",
    "_",
    "*",
    "R",
    "Y",
    "-",
    "|",
    ":",
    "#",
    "0",
    "1",
    "6",
    "7",
    "99",
    "-1",
    "4294967296",
    "18446744073709551616",
    "A:",
    ":A",
    "F ",
    "1 2 3 4 5 6",
    "  0 1 2 3 4 5 6",
    "------",
    "=======",
    "X . . . O .",
    "X.....",
    "| X | O |   |   |   |   |",
    "|X|O|.|.|.|.|.|",
    "R-Y-R-",
    "RRRRRRR",
    "XXXX",
    "....",
    "XO..",
    "A ║ X . . ║ . . . ║",
    "Player 1 won the game!",
    "Player 2 won the game!",
    "Player 1's turn!",
    "Player 2's turn!",
    "Player 300 wins",
    "Game Over! It was a tie!",
    "Game Over!",
    "It's a tie",
    "draw",
    "X has won the game!",
    "O wins!",
    "Both X and O have won!",
    "Red wins!",
    "Yellow wins!",
    "Red, please enter a valid column number (0-5): ",
    "Yellow, please enter a valid column number (0-5): ",
    "Invalid column",
    "That column is full",
    "You can't drop a piece into that column. You lose your turn!",
    "You can't drop a bomb into that column. You lose your bomb and your turn!",
    "Would you like to drop a bomb? (y/n): ",
    "Which column? ",
    "12. Enter row, column, quadrant, direction for X: ",
    "3. Enter row, column, quadrant, direction for O: ",
    "*** Invalid move row.  Please retry.",
    "*** That board location is already taken.  Please retry.",
    "*** Invalid quadrant.  Please retry.",
    "*** Invalid direction.  Please retry.",
    "Move 4 - O, enter your move: ",
    "move #18446744073709551616",
    "[3] X >> ",
    "Exiting program...",
    "Thanks for playing",
    "⟨still waiting for input⟩",
    "⟨typed: ",
    "⟨typed: 1 line, at the end of line 1⟩\n",
    "⟨typed: 2 lines, at the ends of lines 1, 1⟩\n",
    "⟨typed: nothing⟩\n",
    "⟨exit status ",
    "⟨exit status 3⟩\n",
    "⟩\n",
    "… 5 bytes not shown …",
    "… 1,048,012 bytes (3 lines) not shown …",
];

/// One piece of output.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => select(TOKENS).prop_map(|t| t.as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
        1 => vec(any::<u8>(), 0..24),
        1 => "[ -~]{0,24}".prop_map(String::into_bytes),
        1 => (select(TOKENS), 2..48usize).prop_map(|(t, n)| t.repeat(n).into_bytes()),
    ]
}

/// Output as a hostile program prints it: up to `pieces` fragments.
pub fn output(pieces: usize) -> impl Strategy<Value = Vec<u8>> {
    vec(fragment(), 0..pieces).prop_map(|parts| parts.concat())
}

/// A line typed: what cases type, and anything a case file can hold on
/// one line.
pub fn input_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(&["0", "3", "6", "7", "-1", "99", "A14R", "c41r", "B24L", "y", "n", "x", "", " 3 ", "3x"][..])
            .prop_map(str::to_string),
        1 => "[ -~]{0,12}",
        1 => "[^\n]{0,8}",
    ]
}

/// One event of a run.
#[derive(Clone, Debug)]
pub enum Step {
    /// Printed bytes.
    Out(Vec<u8>),
    /// A line read.
    In(String),
}

/// A run's events, made from scratch.
pub fn steps(events: usize) -> impl Strategy<Value = Vec<Step>> {
    vec(
        prop_oneof![
            3 => output(12).prop_map(Step::Out),
            1 => input_line().prop_map(Step::In),
        ],
        0..events,
    )
}

/// The transcript of `steps`.
pub fn transcript(steps: &[Step]) -> Transcript {
    let mut transcript = Transcript::new();
    for step in steps {
        match step {
            Step::Out(bytes) => transcript.push_output(bytes),
            Step::In(line) => transcript.push_input(line),
        }
    }
    transcript
}

/// A transcript's events as steps.
pub fn steps_of(transcript: &Transcript) -> Vec<Step> {
    transcript
        .events()
        .iter()
        .map(|e| match e {
            Event::Output(bytes) => Step::Out(bytes.clone()),
            Event::Input(line) => Step::In(line.clone()),
        })
        .collect()
}

/// Every flood.
pub const FLOODS: &[Flood] = &[
    Flood::LongLine,
    Flood::EndlessLines,
    Flood::NoNewline,
    Flood::CarriageReturns,
    Flood::Binary,
    Flood::Garbage,
    Flood::BoardRows,
    Flood::PentagoRows,
    Flood::WideLines,
    Flood::Refusals,
];

/// What the flooding programs of the test kits print
/// (`tests/programs/floods/`, `tests/programs/hostile/`), cut to
/// `size` bytes.
#[derive(Clone, Copy, Debug)]
pub enum Flood {
    /// One line of `R`s.
    LongLine,
    /// Board rows without end.
    EndlessLines,
    /// Output and never a newline.
    NoNewline,
    /// Carriage returns only.
    CarriageReturns,
    /// Bytes of every value.
    Binary,
    /// NULs, escapes and invalid UTF-8.
    Garbage,
    /// One board row of connect4-bomb's kind per line, run together.
    BoardRows,
    /// Pentago's board rows, with their labels.
    PentagoRows,
    /// Lines of wide characters, each longer than a line's room.
    WideLines,
    /// The same refusal, line after line.
    Refusals,
}

impl Flood {
    /// The flood's bytes.
    pub fn bytes(self, size: usize) -> Vec<u8> {
        let unit: Vec<u8> = match self {
            Flood::LongLine => b"R".to_vec(),
            Flood::EndlessLines => b"------\n".to_vec(),
            Flood::NoNewline => b"R-Y-R-".to_vec(),
            Flood::CarriageReturns => b"\r".to_vec(),
            Flood::Garbage => b"\0\0\x1b[2J\x1b]0;owned\x07\xff\xfe\xc3(\x80\r\nR\0Y\n".to_vec(),
            Flood::BoardRows => b"XOXOXOXOXOXOXOXOXOXOXOXOXOXOXOXOXOXOXOXO\n".to_vec(),
            Flood::PentagoRows => b"A:  X . . . O .  :A\n".to_vec(),
            Flood::WideLines => format!("{}\n", "李雷".repeat(150)).into_bytes(),
            Flood::Refusals => {
                b"You can't drop a piece into that column. You lose your turn!\n".to_vec()
            }
            Flood::Binary => {
                let mut i: u32 = 0;
                return (0..size)
                    .map(|_| {
                        i = i.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        (i >> 16) as u8
                    })
                    .collect();
            }
        };
        let mut out = unit.repeat(size / unit.len() + 1);
        out.truncate(size);
        if matches!(self, Flood::LongLine) {
            out.push(b'\n');
        }
        out
    }
}

fn flood() -> impl Strategy<Value = Flood> {
    select(FLOODS)
}

/// The most bytes one mutation adds.
const GROWTH: usize = 64 << 10;

/// One change to a transcript.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// Bytes inserted into one output.
    Insert(Index, Index, Vec<u8>),
    /// Bytes deleted from one output.
    Delete(Index, Index, usize),
    /// One byte replaced.
    Replace(Index, Index, u8),
    /// A line printed again, `times` more times.
    Duplicate(Index, Index, usize),
    /// A line left out.
    Drop(Index, Index),
    /// A number changed (row, column, player, move number).
    Number(Index, Index, u64),
    /// An input line read twice.
    RepeatInput(Index),
    /// An input line never read: the output around it runs together.
    SkipInput(Index),
    /// A flood printed after one event.
    Flood(Index, Flood, usize),
}

/// Changes worth trying on a real transcript.
pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<Index>(), any::<Index>(), output(3)).prop_map(|(e, at, b)| Mutation::Insert(e, at, b)),
        2 => (any::<Index>(), any::<Index>(), 1..64usize).prop_map(|(e, at, n)| Mutation::Delete(e, at, n)),
        2 => (any::<Index>(), any::<Index>(), any::<u8>()).prop_map(|(e, at, b)| Mutation::Replace(e, at, b)),
        2 => (any::<Index>(), any::<Index>(), 1..300usize).prop_map(|(e, at, n)| Mutation::Duplicate(e, at, n)),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(e, at)| Mutation::Drop(e, at)),
        3 => (any::<Index>(), any::<Index>(), prop_oneof![0..10u64, any::<u64>()])
            .prop_map(|(e, at, n)| Mutation::Number(e, at, n)),
        1 => any::<Index>().prop_map(Mutation::RepeatInput),
        1 => any::<Index>().prop_map(Mutation::SkipInput),
        1 => (any::<Index>(), flood(), 1..(48usize << 10)).prop_map(|(e, f, n)| Mutation::Flood(e, f, n)),
    ]
}

/// `steps` with `mutations` applied, in order.
pub fn mutated(steps: &[Step], mutations: &[Mutation]) -> Vec<Step> {
    let mut steps = steps.to_vec();
    for m in mutations {
        apply(&mut steps, m);
    }
    steps
}

/// The output step `which` picks, creating one when there is none.
fn output_of<'s>(steps: &'s mut Vec<Step>, which: &Index) -> &'s mut Vec<u8> {
    let outputs: Vec<usize> = (0..steps.len())
        .filter(|&i| matches!(steps[i], Step::Out(_)))
        .collect();
    let at = if outputs.is_empty() {
        steps.push(Step::Out(Vec::new()));
        steps.len() - 1
    } else {
        outputs[which.index(outputs.len())]
    };
    match &mut steps[at] {
        Step::Out(bytes) => bytes,
        Step::In(_) => unreachable!("an output step was picked"),
    }
}

/// The byte range of the line of `bytes` that `which` picks, newline
/// included.
fn line_of(bytes: &[u8], which: &Index) -> std::ops::Range<usize> {
    let mut starts = vec![0];
    starts.extend(
        bytes
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1),
    );
    starts.retain(|&s| s < bytes.len());
    if starts.is_empty() {
        return 0..0;
    }
    let start = starts[which.index(starts.len())];
    let end = bytes[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |at| start + at + 1);
    start..end
}

fn apply(steps: &mut Vec<Step>, mutation: &Mutation) {
    match mutation {
        Mutation::Insert(e, at, new) => {
            let bytes = output_of(steps, e);
            let at = at.index(bytes.len() + 1);
            bytes.splice(at..at, new.iter().copied());
        }
        Mutation::Delete(e, at, n) => {
            let bytes = output_of(steps, e);
            if !bytes.is_empty() {
                let at = at.index(bytes.len());
                let end = (at + n).min(bytes.len());
                bytes.drain(at..end);
            }
        }
        Mutation::Replace(e, at, b) => {
            let bytes = output_of(steps, e);
            if !bytes.is_empty() {
                let at = at.index(bytes.len());
                bytes[at] = *b;
            }
        }
        Mutation::Duplicate(e, at, times) => {
            let bytes = output_of(steps, e);
            let line = line_of(bytes, at);
            // Mutations on mutations must not grow without bound.
            let times = (*times).min(GROWTH / line.len().max(1));
            let copy = bytes[line.clone()].repeat(times);
            bytes.splice(line.end..line.end, copy);
        }
        Mutation::Drop(e, at) => {
            let bytes = output_of(steps, e);
            let line = line_of(bytes, at);
            bytes.drain(line);
        }
        Mutation::Number(e, at, n) => {
            let bytes = output_of(steps, e);
            let numbers = digit_runs(bytes);
            if !numbers.is_empty() {
                let run = numbers[at.index(numbers.len())].clone();
                bytes.splice(run, n.to_string().into_bytes());
            }
        }
        Mutation::RepeatInput(which) => {
            let inputs = input_steps(steps);
            if !inputs.is_empty() {
                let at = inputs[which.index(inputs.len())];
                steps.insert(at + 1, steps[at].clone());
            }
        }
        Mutation::SkipInput(which) => {
            let inputs = input_steps(steps);
            if !inputs.is_empty() {
                steps.remove(inputs[which.index(inputs.len())]);
            }
        }
        Mutation::Flood(which, flood, size) => {
            let at = which.index(steps.len() + 1);
            steps.insert(at, Step::Out(flood.bytes(*size)));
        }
    }
}

fn input_steps(steps: &[Step]) -> Vec<usize> {
    (0..steps.len())
        .filter(|&i| matches!(steps[i], Step::In(_)))
        .collect()
}

/// Where the runs of digits of `bytes` are.
fn digit_runs(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            runs.push(start..i);
        } else {
            i += 1;
        }
    }
    runs
}
