//! A found game in words: the game itself, and its first difference
//! explained as grading explains a failed case (and, where the suite
//! compares text, also in game terms, with the boards side by side).

use std::fmt::Write;

use super::{save, Found, Report, Task};
use crate::case::{Mode, Suite};
use crate::explain::{self, terminal, visible, Room, Style};
use crate::game;
use crate::grading::{self, Expected};
use crate::results::{self, Exploration, ExploredGame};

/// The minimal game, indented: one typed line per line, or the call and
/// its board.
pub fn game_text(task: &Task) -> String {
    let mut text = String::new();
    match task {
        Task::Input(lines) if lines.is_empty() => {
            text.push_str(
                "  Nothing typed: the difference is in what comes before the first input.\n",
            );
        }
        Task::Input(lines) => {
            let _ = writeln!(text, "  The lines typed, in order:");
            for line in lines {
                let shown = if line.is_empty() {
                    "(an empty line)".to_string()
                } else {
                    visible::safe(line.as_bytes())
                };
                let _ = writeln!(text, "    {shown}");
            }
        }
        Task::Call(call) => {
            let _ = writeln!(text, "  The call: {} on this board:", call.describe());
            for row in call.board.render().lines() {
                let _ = writeln!(text, "    {row}");
            }
        }
    }
    text
}

/// The difference, explained as grading explains it.
pub fn explanation(found: &Found, suite: &Suite, style: &Style) -> String {
    let prepared = grading::prepare(suite, [&found.case]);
    let mut text = explain::explain_outcome(
        &prepared[0],
        &found.outcome,
        suite.game,
        &suite.regions,
        style,
        Room::default(),
    )
    .text;
    if found.case.mode == Mode::Text {
        if let (Expected::Play(expected), Some(run)) = (&prepared[0].expected, &found.outcome.run) {
            text.push_str(&in_game_terms(found, suite.game, expected, run, style));
        }
    }
    text
}

/// Where a suite compares text, the first difference in play too, when
/// there is one: what was won or refused, and the boards side by side.
fn in_game_terms(
    found: &Found,
    game: reference::Game,
    expected: &crate::expected::ReferenceRun,
    run: &crate::run::RunResult,
    style: &Style,
) -> String {
    let rules = crate::games::rules(game);
    let want = game::read(rules, &terminal::reference_lines(expected));
    let got = game::read(rules, &terminal::run_lines(run));
    let Some(difference) = game::compare(rules, &want, &got, found.case.move_numbers) else {
        return String::new();
    };
    let mut text = format!(
        "  {} {}\n",
        style.dim("In the game:"),
        style.strong(&difference.sentence)
    );
    if let Some((reference, yours)) = &difference.boards {
        text.push_str(&game::board::side_by_side(reference, yours, rules.pieces()));
    }
    text
}

/// What exploring found, as reports keep it; `explore_points` are earned
/// when no game was played differently.
pub fn result(report: &Report, suite: &Suite) -> Exploration {
    let found = report
        .found
        .as_ref()
        .map(|found| explored_game(found, suite, report.seed));
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

fn explored_game(found: &Found, suite: &Suite, seed: u64) -> ExploredGame {
    let prepared = grading::prepare(suite, [&found.case]);
    let (expected, actual) = match (&prepared[0].expected, &found.outcome.run) {
        (Expected::Play(expected), Some(run)) => (
            Some(results::trimmed(&explain::full_transcript(
                &terminal::reference_lines(expected),
            ))),
            Some(results::trimmed(&explain::full_transcript(
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
        explanation: explanation(found, suite, &Style::PLAIN),
        expected,
        actual,
        compare: found
            .case
            .compare
            .names()
            .into_iter()
            .map(String::from)
            .collect(),
        case: save::case_text(found, suite, seed),
    }
}
