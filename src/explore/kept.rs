//! What exploring found, as results keep it: the game, both transcripts,
//! and its explanation in plain text, written by the layer above (see
//! [`ExplainFound`]).

use super::{save, Found, Report, Task};
use crate::case::Suite;
use crate::grading::{self, Expected};
use crate::results::{self, Exploration, ExploredGame};
use crate::{terminal, transcript};

/// Explains, in plain text, the difference a found game shows. Explaining
/// is presentation's work: it is handed down, so that exploring does not
/// depend on the layer above it.
pub type ExplainFound = fn(&Found, &Suite) -> String;

/// What exploring found, as reports keep it; `explore_points` are earned
/// when no game was played differently.
pub fn exploration(report: &Report, suite: &Suite, explain: ExplainFound) -> Exploration {
    let found = report
        .found
        .as_ref()
        .map(|found| explored_game(found, suite, report.seed, explain));
    Exploration {
        games: report.games,
        seed: report.seed,
        score: if found.is_none() {
            suite.explore_points
        } else {
            0.0
        },
        max_score: suite.explore_points,
        found,
    }
}

fn explored_game(found: &Found, suite: &Suite, seed: u64, explain: ExplainFound) -> ExploredGame {
    let prepared = grading::prepare(suite, [&found.case]);
    let (expected, actual) = match (&prepared[0].expected, &found.outcome.run) {
        (Expected::Play(expected), Some(run)) => (
            Some(results::trimmed(&transcript::printable(
                &terminal::reference_lines(expected),
            ))),
            Some(results::trimmed(&transcript::printable(
                &terminal::run_lines(run),
            ))),
        ),
        _ => (None, None),
    };
    let (input, call) = match &found.task {
        Task::Input(lines) => (Some(lines.clone()), None),
        Task::Call(call) => (
            None,
            Some(format!("{} on\n{}", call.describe(), call.board.render())),
        ),
    };
    ExploredGame {
        game: found.index + 1,
        verdict: found.outcome.judgement.verdict,
        reason: found.outcome.judgement.reason.clone(),
        description: found.described.clone(),
        moves: found.moves,
        input,
        call,
        explanation: explain(found, suite),
        expected,
        actual,
        compare: found.case.compare.names(),
        prompts: match (&prepared[0].expected, &found.outcome.run) {
            (Expected::Play(reference), Some(run)) => {
                results::prompts(&found.case, &suite.regions, reference, run)
            }
            _ => None,
        },
        case: save::case_text(found, suite, seed),
    }
}
