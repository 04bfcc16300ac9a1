//! A found game in words: the game itself, and its first difference
//! explained as grading explains a failed case (and, where the suite
//! compares text, also in game terms, with the boards side by side).

use std::fmt::Write;

use super::{explain_outcome, Room, Style};
use crate::case::{Mode, Suite};
use crate::explore::{Found, Task};
use crate::game;
use crate::grading::{Expected, Prepared};
use crate::terminal;
use crate::text::visible;

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
    let prepared = Prepared::with(&found.case, found.expected.clone());
    let mut text = explain_outcome(
        &prepared,
        &found.outcome,
        suite.game(),
        &suite.regions,
        style,
        Room::default(),
    )
    .text;
    if let (Mode::Text, Some(game)) = (found.case.mode, suite.game()) {
        if let (Expected::Play(expected), Some(run)) = (&found.expected, &found.outcome.run) {
            text.push_str(&in_game_terms(found, game, expected, run, style));
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
