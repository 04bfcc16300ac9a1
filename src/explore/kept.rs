//! What exploring found, as results keep it: the game, both transcripts,
//! and its explanation in plain text, written by the layer above (see
//! [`ExplainFound`]).

use super::{save, Found, Report, Task};
use crate::case::Suite;
use crate::grading::Expected;
use crate::results::{self, Exploration, ExploredGame};

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
    let mut explanation = explain(found, suite);
    let mut reason = found.outcome.judgement.reason.clone();
    let mut not_shown = results::limited(&mut explanation, results::EXPLANATION_ROOM)
        + results::limited(&mut reason, results::REASON_ROOM);
    let diffed = match &found.expected {
        Expected::Play(expected) => {
            found
                .outcome
                .diffed(expected, &found.case.text_options(), &suite.regions)
        }
        Expected::Call(_) => None,
    };
    let (expected, actual, prompts) = match diffed.as_deref() {
        Some(diffed) => {
            let kept = results::kept_transcripts(&diffed.want, &diffed.got, &diffed.diff);
            not_shown += kept.not_shown;
            (Some(kept.expected), Some(kept.actual), kept.prompts)
        }
        None => (None, None, None),
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
        reason,
        description: found.described.clone(),
        moves: found.moves,
        input,
        call,
        explanation,
        expected,
        actual,
        not_shown,
        compare: found.case.compare.names(),
        prompts,
        case: save::case_text(found, suite, seed),
    }
}
