//! Comparing what two programs did in the game, turn by turn, and naming
//! the first difference in game terms.

use super::{Board, Cell, ErrorKind, Event, Reading, Rules, Turn};
use crate::case::MoveNumbers;

/// The first way a program's game differs from the reference's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// What differs, in a sentence: "After input line 9 (`c41r`, move 7), the
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
/// Move numbers count as `numbers` says.
pub fn compare(
    rules: &dyn Rules,
    reference: &Reading,
    yours: &Reading,
    numbers: MoveNumbers,
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
                        "The reference read input line {k}{}; your program had stopped before it.",
                        after.quoted()
                    ),
                ))
            }
            (None, Some(_)) => {
                return Some(at(
                    k,
                    format!(
                        "After input line {}, the reference's game was over; your program read more input.",
                        k - 1
                    ),
                ))
            }
            (None, None) => return None,
        };
        // A refusal that is missing explains the board that follows it,
        // so refusals are compared before boards.
        let last = k + 1 == yours.turns.len();
        let found = outcomes(rules, &after, want, got, last)
            .or_else(|| errors(&after, want, got))
            .or_else(|| boards(rules, &after, want, got, &mut state))
            .or_else(|| prompts(rules, &after, want, got, numbers));
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

/// How a turn is named: by the input line that started it, as the
/// student typed it, its number among the lines, and the move number
/// when that differs ("After input line 4 (`cb1r`, move 1)").
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
            .and_then(|(_, n)| n)
            .filter(|n| usize::try_from(*n).ok() != Some(k));
        let typed = input
            .as_deref()
            .map(|i| format!("`{}`", crate::text::visible::safe(i.as_bytes())));
        let text = match (k, typed, number) {
            (0, _, _) => "Before any input".to_string(),
            (_, Some(typed), Some(n)) => format!("After input line {k} ({typed}, move {n})"),
            (_, Some(typed), None) => format!("After input line {k} ({typed})"),
            (_, None, _) => format!("After input line {k}"),
        };
        After { text, input }
    }

    fn quoted(&self) -> String {
        self.input
            .as_deref()
            .map(|i| format!(" (`{}`)", crate::text::visible::safe(i.as_bytes())))
            .unwrap_or_default()
    }
}

/// The most events a sentence lists: a program can print the same
/// message a hundred thousand times in one turn.
const LISTED: usize = 3;

/// "and 9,997 more refusals", for what a list leaves out.
fn more(listed: usize, total: usize, what: &str) -> String {
    match total.saturating_sub(listed) {
        0 => String::new(),
        n => format!(
            " and {} more {what}{}",
            crate::text::visible::thousands(n as u64),
            if n == 1 { "" } else { "s" }
        ),
    }
}

fn outcome_words(rules: &dyn Rules, outcomes: &[&Event]) -> String {
    if outcomes.is_empty() {
        return "nothing".into();
    }
    let listed: Vec<String> = outcomes
        .iter()
        .take(LISTED)
        .map(|o| match o {
            Event::Won(Some(p)) => format!("{} the winner", rules.player(*p)),
            Event::Won(None) => "a winner".into(),
            _ => "a tie".into(),
        })
        .collect();
    format!(
        "{}{}",
        listed.join(" and "),
        more(LISTED, outcomes.len(), "outcome")
    )
}

/// Wins and ties compared. A program's last words before it stops
/// asking for moves are its announcement: when the reference declares a
/// win there and the program's words are none the reader knows, a line
/// naming one player is read as that player's win.
fn outcomes(
    rules: &dyn Rules,
    after: &After,
    want: &Turn,
    got: &Turn,
    last: bool,
) -> Option<Difference> {
    let w = want.outcomes();
    let announced = announcement(rules, want, got, last);
    let g = match &announced {
        Some(event) => vec![event],
        None => got.outcomes(),
    };
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

/// The win a program announced in its own words, read by meaning: the
/// reference declared a win in this turn, the program declared nothing
/// it can read, stopped asking for moves after it, and one of its lines
/// there names a single player.
fn announcement(rules: &dyn Rules, want: &Turn, got: &Turn, last: bool) -> Option<Event> {
    let wins = want.outcomes().iter().any(|e| matches!(e, Event::Won(_)));
    if !wins || !last || !got.outcomes().is_empty() || got.prompt().is_some() {
        return None;
    }
    got.texts()
        .find_map(|line| rules.named_player(line))
        .map(|p| Event::Won(Some(p)))
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

/// "an invalid column", "an invalid column and then an invalid row";
/// at most [`LISTED`] of them.
fn error_words(errors: &[ErrorKind]) -> String {
    let listed = &errors[..errors.len().min(LISTED)];
    let words = match listed {
        [] => "nothing".into(),
        [one] => one.words().into(),
        [first, rest @ ..] => {
            let rest: Vec<&str> = rest.iter().map(|k| k.words()).collect();
            format!("{} and then {}", first.words(), rest.join(" and "))
        }
    };
    format!("{words}{}", more(LISTED, errors.len(), "refusal"))
}

/// Refusals compared: whether the move was refused, and, where both
/// programs say why, for what. A refusal whose reason cannot be read
/// (its own wording, or a refusal seen in what the program did) counts
/// as any reason. A message more or less is named as such.
fn errors(after: &After, want: &Turn, got: &Turn) -> Option<Difference> {
    let (w, g) = (want.errors(), got.errors());
    let known = |e: &[ErrorKind]| -> Vec<ErrorKind> {
        e.iter()
            .copied()
            .filter(|k| *k != ErrorKind::Unknown)
            .collect()
    };
    let (wk, gk) = (known(&w), known(&g));
    let refused_differ = w.is_empty() != g.is_empty();
    let kinds_differ = !wk.is_empty() && !gk.is_empty() && wk != gk;
    if !refused_differ && !kinds_differ {
        return None;
    }
    let yours = if gk.is_empty() { &g } else { &gk };
    let (n_want, n_yours) = (wk.len(), yours.len());
    let count = if n_want > 0 && n_yours > n_want && yours.starts_with(&wk) {
        format!(
            ": the reference does not report {}",
            the(&error_words(&yours[n_want..]))
        )
    } else if n_yours > 0 && n_yours < n_want && wk.starts_with(yours) {
        format!(
            ": your program does not report {}",
            the(&error_words(&wk[n_yours..]))
        )
    } else {
        String::new()
    };
    Some(sentence(format!(
        "{}, the reference reported {}; your program reported {}{count}.",
        after.text,
        error_words(&w),
        error_words(yours)
    )))
}

/// "an invalid row" as "the invalid row".
fn the(words: &str) -> String {
    let rest = words
        .strip_prefix("an ")
        .or_else(|| words.strip_prefix("a "))
        .unwrap_or(words);
    format!(
        "the {}",
        rest.replace(" and then an ", " and the ")
            .replace(" and then a ", " and the ")
            .replace(" and an ", " and the ")
            .replace(" and a ", " and the ")
    )
}

fn prompts(
    rules: &dyn Rules,
    after: &After,
    want: &Turn,
    got: &Turn,
    numbers: MoveNumbers,
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
        _ if numbers == MoveNumbers::Ignored => None,
        (Some(w), Some(g)) if w != g => Some(sentence(format!(
            "{}, the reference's next prompt is for move {w}; yours says move {g}.",
            after.text
        ))),
        (Some(w), None) if numbers == MoveNumbers::Required => Some(sentence(format!(
            "{}, the reference's next prompt is for move {w}; yours shows no move number.",
            after.text
        ))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expected::run_reference;
    use crate::terminal;
    use crate::transcript::{Event as Shown, Transcript};
    use reference::Game;

    fn lines(input: &[&str]) -> Vec<String> {
        input.iter().map(|s| s.to_string()).collect()
    }

    /// The reference's reading, and the reading of its transcript with
    /// `edit` applied to what it printed.
    fn readings(input: &[&str], edit: impl Fn(&str) -> String) -> (Reading, Reading) {
        let run = run_reference(Game::Pentago, &lines(input));
        let rules = &crate::games::pentago::reader::Pentago;
        let want = super::super::read(rules, &terminal::reference_lines(&run));
        let mut edited = Transcript::new();
        for event in run.transcript.events() {
            match event {
                Shown::Output(bytes) => {
                    edited.push_output(edit(&String::from_utf8_lossy(bytes)).as_bytes())
                }
                Shown::Input(line) => edited.push_input(line),
            }
        }
        let got = super::super::read(rules, &crate::transcript::lines(&edited, run.waited_at_end));
        (want, got)
    }

    fn difference(input: &[&str], edit: impl Fn(&str) -> String) -> Option<String> {
        let (want, got) = readings(input, edit);
        let rules = &crate::games::pentago::reader::Pentago;
        compare(rules, &want, &got, MoveNumbers::Optional).map(|d| d.sentence)
    }

    #[test]
    fn the_input_line_is_named_as_typed_with_its_move_number() {
        let input = ["A14R", "A71R", "B24R", "x"];
        let found = difference(&input, |s| {
            s.replace(
                "*** Invalid move column.  Please retry.",
                "*** Invalid move column.  Please retry.\n*** Invalid move row.  Please retry.",
            )
        });
        assert_eq!(
            found.as_deref(),
            Some(
                "After input line 2 (`A71R`), the reference reported an invalid column; your \
                 program reported an invalid column and then an invalid row: the reference does \
                 not report the invalid row."
            )
        );
        let later = difference(&input, |s| s.replace("B:  . O", "B:  . X"));
        assert!(
            later
                .as_deref()
                .is_some_and(|s| s.starts_with("After input line 3 (`B24R`, move 2)")),
            "{later:?}"
        );
    }

    #[test]
    fn a_win_in_words_of_its_own_is_read_from_the_last_words() {
        let input = [
            "A14L", "D14L", "A24L", "D24L", "A34L", "E14L", "A44L", "E24L", "A54L",
        ];
        assert_eq!(difference(&input, |s| s.to_string()), None);
        let own = |s: &str| s.replace("X has won the game!", "X takes the game.");
        assert_eq!(difference(&input, own), None);
        let wrong = |s: &str| s.replace("X has won the game!", "Well played, O.");
        assert_eq!(
            difference(&input, wrong).as_deref(),
            Some(
                "After input line 9 (`A54L`), the reference declared X the winner; your program \
                 declared O the winner."
            )
        );
        let nobody = |s: &str| s.replace("X has won the game!", "Game over.");
        assert!(difference(&input, nobody)
            .is_some_and(|s| s
                .ends_with("the reference declared X the winner; your program declared nothing.")),);
    }

    #[test]
    fn a_flood_of_refusals_is_counted_not_listed() {
        // Found by fuzzing: 10,000 refusals in one turn made a sentence
        // of half a mebibyte.
        let input = ["A14R", "A71R", "B24R", "x"];
        let flood = "*** Invalid move row.  Please retry.\n".repeat(10_000);
        let found = difference(&input, |s| {
            s.replace(
                "*** Invalid move column.  Please retry.\n",
                &format!("*** Invalid move column.  Please retry.\n{flood}"),
            )
        })
        .expect("a difference");
        assert!(found.len() < 400, "{found}");
        assert!(
            found.ends_with(
                "your program reported an invalid column and then an invalid row and an \
                 invalid row and 9,998 more refusals: the reference does not report the \
                 invalid row and the invalid row and the invalid row and 9,997 more refusals."
            ),
            "{found}"
        );
    }
}
