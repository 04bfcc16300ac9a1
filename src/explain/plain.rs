//! Explanations as results keep them: plain text, handed down to the
//! grading of a class (see [`Explain`]).

use super::found;
use super::{explain_outcome, Room, Style};
use crate::batch::Explain;
use crate::case::Suite;
use crate::explore::Found;
use crate::grading::{CaseOutcome, Prepared};

/// How results explain what failed: plain text, with room for 30 lines
/// of differences in a case.
pub const FOR_RESULTS: Explain = Explain {
    case,
    found: found_game,
};

fn case(suite: &Suite, prepared: &Prepared<'_>, outcome: &CaseOutcome) -> String {
    explain_outcome(
        prepared,
        outcome,
        suite.game(),
        &suite.regions,
        &Style::PLAIN,
        Room { diff_lines: 30 },
    )
    .text
}

fn found_game(found: &Found, suite: &Suite) -> String {
    found::explanation(found, suite, &Style::PLAIN)
}
