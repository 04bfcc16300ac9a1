//! Judging a game-mode case: the play decides, the text earns format
//! points.

use reference::Game;

use super::{compare, read, rules, Difference, Reading};
use crate::case::{Case, MoveNumbers};
use crate::explain::terminal;
use crate::run::RunResult;
use crate::verdict::{Judgement, Verdict};

/// Judges a game-mode case, given the text judgement and the reference's
/// play read once per case (`want`): the run's ending and a text match
/// stand as they are; a text difference is looked at in game terms. Returns the judgement and, when the play differs, the first
/// difference.
pub fn judge(
    game: Game,
    want: &Reading,
    run: &RunResult,
    text: Judgement,
    case: &Case,
) -> (Judgement, Option<Difference>) {
    if !matches!(
        text.verdict,
        Verdict::WrongOutput | Verdict::WaitingForInput
    ) {
        return (text, None);
    }
    let rules = rules(game);
    let got = read(rules, &terminal::run_lines(run));
    let required = case.move_numbers == MoveNumbers::Required;
    let difference = compare(rules, want, &got, required);
    if text.verdict == Verdict::WaitingForInput || difference.is_some() {
        let reason = if text.verdict == Verdict::WaitingForInput {
            text.reason.clone()
        } else {
            "your program's play differs from the reference's".to_string()
        };
        return (
            Judgement {
                verdict: text.verdict,
                reason,
                output_matches: false,
            },
            difference,
        );
    }
    let judgement = if case.format_points > 0.0 {
        Judgement {
            verdict: Verdict::FormatDiffers,
            reason: format!(
                "your program plays as the reference does, but its text differs: {} of {} points are for the text",
                crate::commands::points(case.format_points),
                crate::commands::points(case.points)
            ),
            output_matches: false,
        }
    } else {
        Judgement {
            verdict: Verdict::Pass,
            reason: "your program plays as the reference does (its text differs, which this case does not grade)".into(),
            output_matches: false,
        }
    };
    (judgement, None)
}
