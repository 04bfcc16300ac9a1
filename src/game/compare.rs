//! Comparing what two programs did in the game, turn by turn, and naming
//! the first difference in game terms.

use super::{Board, Cell, ErrorKind, Event, Reading, Rules, Turn};

/// The first way a program's game differs from the reference's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// What differs, in a sentence: "After move 7 (`c41r`), the
    /// reference's board has X at C4 and your board has it at C6."
    pub sentence: String,
    /// The boards to show side by side: the reference's, then yours.
    pub boards: Option<(Board, Board)>,
    /// The turn it is in: 0 before the first input, k after input k.
    pub turn: usize,
}

/// The first difference between the reference's game and the student's,
/// if any. Text that is not a game event (headers, instructions,
/// wording, spacing, goodbyes) never counts; boards, wins and ties,
/// refusals and their kind, and each prompt's player and move number do.
/// A prompt without a move number counts only when `numbers_required`.
pub fn compare(
    rules: &dyn Rules,
    reference: &Reading,
    yours: &Reading,
    numbers_required: bool,
) -> Option<Difference> {
    let mut state: Option<&Board> = None;
    let turns = reference.turns.len().max(yours.turns.len());
    for k in 0..turns {
        let after = After::new(reference, yours, k);
        let (want, got) = match (reference.turns.get(k), yours.turns.get(k)) {
            (Some(want), Some(got)) => (want, got),
            (Some(_), None) => {
                return Some(at(
                    k,
                    format!(
                        "The reference read input {k}{}; your program had stopped before it.",
                        after.quoted()
                    ),
                ))
            }
            (None, Some(_)) => {
                return Some(at(
                    k,
                    format!(
                    "After input {}, the reference's game was over; your program read more input.",
                    k - 1
                ),
                ))
            }
            (None, None) => return None,
        };
        // A refusal that is missing explains the board that follows it,
        // so refusals are compared before boards.
        let found = outcomes(rules, &after, want, got)
            .or_else(|| errors(&after, want, got))
            .or_else(|| boards(rules, &after, want, got, &mut state))
            .or_else(|| prompts(rules, &after, want, got, numbers_required));
        if let Some(mut difference) = found {
            difference.turn = k;
            return Some(difference);
        }
    }
    None
}

fn sentence(text: String) -> Difference {
    at(0, text)
}

fn at(turn: usize, text: String) -> Difference {
    Difference {
        sentence: text,
        boards: None,
        turn,
    }
}

/// How a turn is named: "After move 7 (`c41r`)", "After input 3 (`6`)".
struct After {
    text: String,
    input: Option<String>,
}

impl After {
    fn new(reference: &Reading, yours: &Reading, k: usize) -> After {
        let turn = reference.turns.get(k).or(yours.turns.get(k));
        let input = turn.and_then(|t| t.input.clone());
        let number = k
            .checked_sub(1)
            .and_then(|p| reference.turns.get(p))
            .and_then(Turn::prompt)
            .and_then(|(_, n)| n);
        let shown = input
            .as_deref()
            .map(|i| format!(" (`{}`)", crate::explain::visible::safe(i.as_bytes())))
            .unwrap_or_default();
        let text = match (k, number) {
            (0, _) => "Before any input".to_string(),
            (_, Some(n)) => format!("After move {n}{shown}"),
            (_, None) => format!("After input {k}{shown}"),
        };
        After { text, input }
    }

    fn quoted(&self) -> String {
        self.input
            .as_deref()
            .map(|i| format!(" (`{}`)", crate::explain::visible::safe(i.as_bytes())))
            .unwrap_or_default()
    }
}

fn outcome_words(rules: &dyn Rules, outcomes: &[&Event]) -> String {
    if outcomes.is_empty() {
        return "nothing".into();
    }
    outcomes
        .iter()
        .map(|o| match o {
            Event::Won(Some(p)) => format!("{} the winner", rules.player(*p)),
            Event::Won(None) => "a winner".into(),
            _ => "a tie".into(),
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

fn outcomes(rules: &dyn Rules, after: &After, want: &Turn, got: &Turn) -> Option<Difference> {
    let (w, g) = (want.outcomes(), got.outcomes());
    let same = w.len() == g.len()
        && w.iter().zip(&g).all(|(a, b)| match (a, b) {
            (Event::Won(Some(x)), Event::Won(Some(y))) => x == y,
            (Event::Won(_), Event::Won(_)) | (Event::Tie, Event::Tie) => true,
            _ => false,
        });
    (!same).then(|| {
        sentence(format!(
            "{}, the reference declared {}; your program declared {}.",
            after.text,
            outcome_words(rules, &w),
            outcome_words(rules, &g)
        ))
    })
}

fn boards<'a>(
    rules: &dyn Rules,
    after: &After,
    want: &'a Turn,
    got: &Turn,
    state: &mut Option<&'a Board>,
) -> Option<Difference> {
    if let Some(reference) = want.boards().last() {
        *state = Some(reference);
        return match got.boards().last() {
            None => Some(sentence(format!(
                "{}, the reference shows the board; your program shows none.",
                after.text
            ))),
            Some(yours) if yours != reference => {
                Some(board_difference(rules, after, reference, yours))
            }
            Some(_) => None,
        };
    }
    // Showing the board again when the reference does not is format; it
    // must still be the board as it stands.
    let current = (*state)?;
    got.boards()
        .find(|yours| *yours != current)
        .map(|yours| board_difference(rules, after, current, yours))
}

fn board_difference(
    rules: &dyn Rules,
    after: &After,
    reference: &Board,
    yours: &Board,
) -> Difference {
    let text = if (reference.height(), reference.width()) != (yours.height(), yours.width()) {
        format!(
            "{}, the reference's board is {}×{}; yours is {}×{}.",
            after.text,
            reference.height(),
            reference.width(),
            yours.height(),
            yours.width()
        )
    } else {
        format!(
            "{}, {}.",
            after.text,
            cells_sentence(rules, reference, yours)
        )
    };
    Difference {
        sentence: text,
        boards: Some((reference.clone(), yours.clone())),
        turn: 0,
    }
}

/// "the reference's board has X at C4 and your board has it at C6", or
/// the differing squares one by one.
fn cells_sentence(rules: &dyn Rules, reference: &Board, yours: &Board) -> String {
    let cell = |b: &Board, (r, c): (usize, usize)| b.rows()[r][c];
    let differ = reference.differences(yours);
    if let [a, b] = differ[..] {
        for (from, to) in [(a, b), (b, a)] {
            if let (Cell::Piece(p), Cell::Empty, Cell::Empty, Cell::Piece(q)) = (
                cell(reference, from),
                cell(yours, from),
                cell(reference, to),
                cell(yours, to),
            ) {
                if p == q {
                    return format!(
                        "the reference's board has {} at {} and your board has it at {}",
                        rules.player(p),
                        rules.square(reference, from.0, from.1),
                        rules.square(reference, to.0, to.1)
                    );
                }
            }
        }
    }
    let name = |c: Cell| match c {
        Cell::Empty => "nothing".to_string(),
        Cell::Piece(p) => rules.player(p),
    };
    let listed: Vec<String> = differ
        .iter()
        .take(4)
        .map(|&(r, c)| {
            format!(
                "{} (the reference: {}, yours: {})",
                rules.square(reference, r, c),
                name(cell(reference, (r, c))),
                name(cell(yours, (r, c)))
            )
        })
        .collect();
    let more = differ.len().saturating_sub(4);
    format!(
        "the boards differ at {}{}",
        listed.join(", "),
        if more > 0 {
            format!(" and {more} more squares")
        } else {
            String::new()
        }
    )
}

fn error_words(errors: &[ErrorKind]) -> String {
    match errors.first() {
        None => "nothing".into(),
        Some(kind) => kind.words().into(),
    }
}

fn errors(after: &After, want: &Turn, got: &Turn) -> Option<Difference> {
    let (w, g) = (want.errors(), got.errors());
    let known = |e: &[ErrorKind]| -> Vec<ErrorKind> {
        e.iter()
            .copied()
            .filter(|k| *k != ErrorKind::Unknown)
            .collect()
    };
    let (wk, gk) = (known(&w), known(&g));
    let differ = w.is_empty() != g.is_empty() || (!wk.is_empty() && !gk.is_empty() && wk != gk);
    differ.then(|| {
        sentence(format!(
            "{}, the reference reported {}; your program reported {}.",
            after.text,
            error_words(&w),
            error_words(if gk.is_empty() { &g } else { &gk })
        ))
    })
}

fn prompts(
    rules: &dyn Rules,
    after: &After,
    want: &Turn,
    got: &Turn,
    numbers_required: bool,
) -> Option<Difference> {
    let (Some((want_player, want_number)), Some((got_player, got_number))) =
        (want.prompt(), got.prompt())
    else {
        return None;
    };
    if let (Some(w), Some(g)) = (want_player, got_player) {
        if w != g {
            return Some(sentence(format!(
                "{}, the reference asked {} for the next move; your program asked {}.",
                after.text,
                rules.player(w),
                rules.player(g)
            )));
        }
    }
    match (want_number, got_number) {
        (Some(w), Some(g)) if w != g => Some(sentence(format!(
            "{}, the reference's next prompt is for move {w}; yours says move {g}.",
            after.text
        ))),
        (Some(w), None) if numbers_required => Some(sentence(format!(
            "{}, the reference's next prompt is for move {w}; yours shows no move number.",
            after.text
        ))),
        _ => None,
    }
}
