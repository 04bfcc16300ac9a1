//! The one judging stage: a case's run against the reference's, part by
//! part, in one order.
//!
//! 1. **How the run ended** ([`EndingFault`]): where the program stopped
//!    (after the same input line as the reference, or still waiting
//!    where the reference waits) and how (exit status, signal, limits).
//! 2. **The play**: in game mode what the program did in the game, read
//!    by the game's reader ([`crate::game`]); in text mode its text under
//!    the case's comparison; for a function call what the function
//!    returned and left on the board ([`crate::call`]).
//! 3. **The format** (game mode): the text of the parts the case names
//!    ([`parts`]).
//!
//! A case in `mode: ending` judges only the first part, for all its
//! points: the program asks again where the reference asks again
//! (judged strictly there: stopping at the end of the input is not
//! asking), or stops after the same input line with the same status.
//!
//! A case's points are split the same way: `format_points` for the
//! format, `ending_points` for the ending, the rest for the play; each
//! part earns its points on its own, so one fault costs the part it is in
//! and nothing else. A crash or a hang before the game is over is still a
//! play that stopped short. Text-mode cases judge as an autograder does:
//! their points need the text and the ending both, unless
//! `ending_points` splits them (as it splits a `mode: files` case
//! between its files and its ending); a status that is the only
//! difference is its own verdict ([`Verdict::ExitStatus`]). The result says, per
//! part, what it was worth and whether it was earned; the verdict names
//! the fault that cost points (see [`verdict_of`]).

use crate::call::{self, Call};
use crate::case::{Case, ExitStatus, GradedRegion, Mode, TextPart};
use crate::compare::{self, Region};
use crate::expected::ReferenceRun;
use crate::game::{self, Difference, Reading};
use crate::run::{Ending, RunResult};
use crate::terminal;
use crate::text::points;
use crate::verdict::{EndingFault, Judgement, Part, PartScore, ReferenceEnd, Verdict};

pub mod outputs;
pub mod parts;

pub use parts::FormatDifference;

/// What was wrong on a case, for explanations: one entry per part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Faults {
    /// What differs in the play.
    pub play: Option<PlayFault>,
    /// The first difference in the text parts the format grades.
    pub format: Option<FormatDifference>,
    /// How the run ended, when not as the reference's did, whether or
    /// not it cost points.
    pub ending: Option<EndingFault>,
}

/// How the play differs.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayFault {
    /// Game mode: the first difference in game terms.
    Game(Difference),
    /// Text mode: the text differs (the explanation diffs it).
    Text,
    /// Text mode, stderr graded apart: stdout is right (or not graded)
    /// and what the program wrote to stderr differs.
    Errors,
    /// A function call did something else (its outcome says what).
    Call,
}

/// What a whole-game case needs to be judged: the case, the suite's
/// ignored regions and the reference's run.
pub struct Setting<'a> {
    /// The case.
    pub case: &'a Case,
    /// The built-in game whose reader judges game mode; `None` for a
    /// suite with its own reference (which has no game mode).
    pub game: Option<reference::Game>,
    /// Output never graded.
    pub regions: &'a [Region],
    /// The regions a case's format can name.
    pub graded: &'a [GradedRegion],
    /// The reference's run.
    pub expected: &'a ReferenceRun,
}

/// Judges a whole-game case. `want` gives the reference's play read by
/// the game's reader (read once per case, only in game mode).
pub fn whole_game<'w>(
    setting: &Setting<'_>,
    want: impl FnOnce() -> &'w Reading,
    run: &RunResult,
) -> (Judgement, Faults) {
    let case = setting.case;
    let reference = reference_end(setting.expected);
    let read = run.transcript.inputs().count();
    // The built-in games leave open what a program does at the end of
    // its input (SPEC.md); an instructor's own reference says it: where
    // it asks again, a program must ask again, and where it stops, stop.
    let exact = matches!(case.mode, Mode::Ending | Mode::Files) || setting.game.is_none();
    let ending = if exact {
        EndingFault::exactly(run.ending, read, reference)
    } else {
        EndingFault::of(run.ending, read, reference)
    };
    let ending = exception(run, setting.expected).or(ending);
    let counted = ending.filter(|f| counts(case, *f));
    match (case.mode, setting.game) {
        (Mode::Game, Some(game)) => game_mode(setting, game, want(), run, ending, counted),
        (Mode::Ending | Mode::Files, _) => ending_mode(case, reference, ending, counted),
        _ => text_mode(setting, run, ending, counted),
    }
}

/// The exception nothing caught that ended the run, when it did
/// ([`crate::run::uncaught`]) and the reference's run did not end so too:
/// a crash in every mode, whatever status it exited with.
fn exception(run: &RunResult, expected: &ReferenceRun) -> Option<EndingFault> {
    let found = crate::run::uncaught(&run.transcript, run.ending)?;
    let reference = (!expected.waited_at_end)
        .then(|| crate::run::uncaught(&expected.transcript, Ending::Exited(expected.status)))
        .flatten();
    reference.is_none().then_some(EndingFault::Exception(found))
}

/// How the reference's run ended.
pub fn reference_end(expected: &ReferenceRun) -> ReferenceEnd {
    ReferenceEnd {
        read: expected.transcript.inputs().count(),
        waited: expected.waited_at_end,
        status: expected.status,
    }
}

/// Whether an ending fault costs points: a status other than the
/// reference's at the end of the game only where the case says it must
/// be the same (one that comes before the end always does: the program
/// stopped abnormally).
fn counts(case: &Case, fault: EndingFault) -> bool {
    !matches!(fault, EndingFault::Status { early: false, .. })
        || case.exit_status == ExitStatus::Same
}

/// `mode: ending`: only how the run ended, for all the case's points;
/// `mode: files` the same, the files judged after ([`outputs::apply`]),
/// and with `ending_points` the files (the play) earn the rest.
fn ending_mode(
    case: &Case,
    reference: ReferenceEnd,
    ending: Option<EndingFault>,
    counted: Option<EndingFault>,
) -> (Judgement, Faults) {
    let parts = match case.mode {
        Mode::Files if case.ending_points > 0.0 => split_parts(case, true, counted),
        _ => vec![PartScore {
            part: Part::Ending,
            points: case.points,
            earned: counted.is_none(),
        }],
    };
    let (verdict, reason) = match counted {
        Some(fault) => (
            fault.verdict_alone(),
            format!("your program {}{}", fault_words(case, fault), worth(case)),
        ),
        None => (
            Verdict::Pass,
            format!(
                "your program {}, as the reference does{}",
                reference.what(),
                note(case, ending)
            ),
        ),
    };
    let faults = Faults {
        play: None,
        format: None,
        ending,
    };
    (
        Judgement {
            verdict,
            reason,
            parts,
        },
        faults,
    )
}

/// A case's two parts when `ending_points` splits it: what it printed or
/// wrote (the play, `earned` as judged) and how it ended, each on its
/// own.
fn split_parts(case: &Case, earned: bool, counted: Option<EndingFault>) -> Vec<PartScore> {
    vec![
        PartScore {
            part: Part::Play,
            // The format is game mode's: outside it the rest is the play's.
            points: (case.points - case.ending_points).max(0.0),
            earned,
        },
        PartScore {
            part: Part::Ending,
            points: case.ending_points,
            earned: counted.is_none(),
        },
    ]
}

/// What the program did at the end, to follow "your program": a status
/// that is the only difference said plainly, with both statuses.
fn fault_words(case: &Case, fault: EndingFault) -> String {
    match fault.only_status() {
        Some((code, reference)) => crate::verdict::status_apart(code, reference),
        None => fault.what(&case.limits),
    }
}

/// ": 1 of 2 points are for how it ends" when `ending_points` splits a
/// text or files case; empty otherwise.
fn worth(case: &Case) -> String {
    if case.mode == Mode::Game || case.ending_points <= 0.0 {
        return String::new();
    }
    format!(
        ": {} of {} points are for how it ends",
        points(case.ending_points),
        points(case.points)
    )
}

fn text_mode(
    setting: &Setting<'_>,
    run: &RunResult,
    ending: Option<EndingFault>,
    counted: Option<EndingFault>,
) -> (Judgement, Faults) {
    let case = setting.case;
    let stdout_same = !case.stderr.grades_stdout() || same_stdout(setting, run);
    let errors_same = same_errors(case, setting.expected, run);
    let same = stdout_same && errors_same;
    // Without `ending_points` the text and the ending earn the points
    // together, as an autograder's test does.
    let parts = if case.ending_points > 0.0 {
        split_parts(case, same, counted)
    } else {
        vec![PartScore {
            part: Part::Play,
            points: case.points,
            earned: same && counted.is_none(),
        }]
    };
    let play = match (stdout_same, errors_same) {
        (false, _) => Some(PlayFault::Text),
        (true, false) => Some(PlayFault::Errors),
        (true, true) => None,
    };
    let (verdict, reason) = text_verdict(case, play.as_ref(), ending, counted);
    let faults = Faults {
        play,
        format: None,
        ending,
    };
    (
        Judgement {
            verdict,
            reason,
            parts,
        },
        faults,
    )
}

/// Whether the program's stdout is the reference's, under the case's
/// comparison (its prompts turn by turn where it compares them).
fn same_stdout(setting: &Setting<'_>, run: &RunResult) -> bool {
    let case = setting.case;
    if case.compare.prompts {
        compare::same_terminal(
            &terminal::reference_lines(setting.expected),
            &terminal::run_lines(run),
            &case.compare,
            setting.regions,
        )
    } else {
        compare::same_output(
            &setting.expected.transcript.output(),
            &run.transcript.output(),
            &case.compare,
            setting.regions,
        )
    }
}

/// Whether what the program wrote to stderr is the reference's, where
/// the case compares it on its own (true where it does not): under
/// `stderr_compare`, the suite's ignored regions aside (they are
/// stdout's).
pub fn same_errors(case: &Case, expected: &ReferenceRun, run: &RunResult) -> bool {
    !case.stderr.grades_apart()
        || compare::same_output(
            expected.transcript.errors(),
            run.transcript.errors(),
            &errors_options(case),
            &[],
        )
}

/// The options stderr is compared under on its own: the case's
/// `stderr_compare`, prompts aside (nothing is typed on stderr).
pub fn errors_options(case: &Case) -> compare::Options {
    compare::Options {
        prompts: false,
        ..case.stderr_compare
    }
}

/// A text-mode case's verdict and sentence: a right text with a wrong
/// ending says the text was right, and what the ending did (for a status
/// alone, both statuses); otherwise the ending's fault names the verdict.
fn text_verdict(
    case: &Case,
    play: Option<&PlayFault>,
    ending: Option<EndingFault>,
    counted: Option<EndingFault>,
) -> (Verdict, String) {
    let same = play.is_none();
    let limits = &case.limits;
    // Stopping too soon is a wrong output (`names_verdict`), whose
    // sentence is its own.
    let ending_alone = |fault| names_verdict(fault) || case.ending_points > 0.0;
    match counted {
        Some(fault) if same && ending_alone(fault) => (
            fault.verdict_alone(),
            format!(
                "your program printed what the reference prints, but it {}{}",
                fault_words(case, fault),
                worth(case)
            ),
        ),
        Some(fault) if names_verdict(fault) => (fault.verdict(), fault.sentence(limits)),
        Some(fault) => (Verdict::WrongOutput, fault.sentence(limits)),
        None if play == Some(&PlayFault::Errors) => (
            Verdict::WrongOutput,
            "your program's error output differs from the reference's".to_string(),
        ),
        None if !same => (
            Verdict::WrongOutput,
            "your program's output differs from the reference's".to_string(),
        ),
        None => (
            Verdict::Pass,
            format!(
                "your program printed what the reference prints{}",
                note(case, ending)
            ),
        ),
    }
}

fn game_mode(
    setting: &Setting<'_>,
    game: reference::Game,
    want: &Reading,
    run: &RunResult,
    ending: Option<EndingFault>,
    counted: Option<EndingFault>,
) -> (Judgement, Faults) {
    let case = setting.case;
    let rules = crate::games::rules(game);
    let lines = terminal::run_lines(run);
    let got = game::read(rules, &lines);
    let play = game::compare(rules, want, &got, case.move_numbers);
    let format = format_difference(setting, want, &lines, &got);
    let faults = Faults {
        play: play.clone().map(PlayFault::Game),
        format,
        ending,
    };
    let parts = vec![
        PartScore {
            part: Part::Play,
            points: case.play_points(),
            earned: play.is_none(),
        },
        PartScore {
            part: Part::Format,
            points: case.format_points,
            earned: faults.format.is_none(),
        },
        PartScore {
            part: Part::Ending,
            points: case.ending_points,
            earned: counted.is_none(),
        },
    ];
    let (verdict, reason) = verdict_of(case, &parts, &faults, counted);
    (
        Judgement {
            verdict,
            reason,
            parts,
        },
        faults,
    )
}

/// The format's first difference, when the case grades the format: it
/// has format points, or names the parts it grades (then they are judged
/// and reported even when worth nothing).
fn format_difference(
    setting: &Setting<'_>,
    want: &Reading,
    lines: &[crate::transcript::TermLine],
    got: &Reading,
) -> Option<FormatDifference> {
    let case = setting.case;
    if case.format_points <= 0.0 && case.format.is_none() {
        return None;
    }
    let all = [TextPart::All];
    let named = case.format.as_deref().unwrap_or(&all);
    let reference_lines = terminal::reference_lines(setting.expected);
    parts::compare(
        named,
        &parts::Side {
            lines: &reference_lines,
            reading: want,
        },
        &parts::Side {
            lines,
            reading: got,
        },
        &case.compare,
        &parts::Regions {
            ignored: setting.regions,
            graded: setting.graded,
        },
    )
}

/// Whether an ending fault names the verdict: one that stopped the
/// program abnormally, or a wrong exit status, does ("how a run ended
/// comes first"); stopping too soon is a wrong output.
fn names_verdict(fault: EndingFault) -> bool {
    !matches!(fault, EndingFault::Stopped { .. })
}

/// The verdict and its sentence, from what each part earned:
///
/// - every point earned: `pass` (a fault that cost nothing is mentioned);
/// - points lost and the run ended abnormally (a crash, a hang, a limit,
///   still waiting): the ending's verdict, which explains what is
///   missing;
/// - the play lost: `wrong-output` (or `crashed` for a status that
///   counts);
/// - the play right, the ending lost: the ending's verdict;
/// - only the format differs: `format-differs` (also when the parts it
///   names are worth nothing: the difference is reported).
pub fn verdict_of(
    case: &Case,
    parts: &[PartScore],
    faults: &Faults,
    counted: Option<EndingFault>,
) -> (Verdict, String) {
    let lost = |part: Part| {
        parts
            .iter()
            .find(|p| p.part == part)
            .is_some_and(|p| !p.earned && p.points > 0.0)
    };
    let limits = &case.limits;
    let also = format_note(parts, faults);
    let any_lost = [Part::Play, Part::Format, Part::Ending]
        .into_iter()
        .any(lost);
    if let (true, Some(fault)) = (any_lost, counted.filter(|f| f.is_abnormal())) {
        // A crash, a hang or a limit explains whatever went missing.
        if lost(Part::Play) || !lost(Part::Ending) {
            return (fault.verdict(), format!("{}{also}", fault.sentence(limits)));
        }
    }
    if lost(Part::Play) {
        return match counted {
            Some(fault) if names_verdict(fault) => {
                (fault.verdict(), format!("{}{also}", fault.sentence(limits)))
            }
            _ => (
                Verdict::WrongOutput,
                format!("your program's play differs from the reference's{also}"),
            ),
        };
    }
    let plays = case.play_points() > 0.0;
    if let (true, Some(fault)) = (lost(Part::Ending), counted) {
        let what = fault.what(limits);
        let start = if plays {
            format!("your program plays as the reference does, but it {what}")
        } else {
            format!("your program {what}")
        };
        // A status alone, everything else right, has its own verdict.
        let verdict = if also.is_empty() && faults.format.is_none() {
            fault.verdict_alone()
        } else {
            fault.verdict()
        };
        return (
            verdict,
            format!(
                "{start}: {} of {} points are for how it ends{also}",
                points(case.ending_points),
                points(case.points)
            ),
        );
    }
    let base = "your program plays as the reference does";
    let Some(format) = &faults.format else {
        return (
            Verdict::Pass,
            format!("{base}{}", note(case, faults.ending)),
        );
    };
    let part = &format.name;
    let start = if plays {
        format!("{base}, but prints {part} differently")
    } else {
        format!("your program prints {part} differently from the reference")
    };
    let worth = if case.format_points > 0.0 {
        format!(
            "{} of {} points are for the text",
            points(case.format_points),
            points(case.points)
        )
    } else {
        "no points depend on it".to_string()
    };
    (
        Verdict::FormatDiffers,
        format!("{start}: {worth}{}", note(case, faults.ending)),
    )
}

/// "; it also prints the ending differently" when the format lost
/// points too.
fn format_note(parts: &[PartScore], faults: &Faults) -> String {
    let format_lost = parts
        .iter()
        .any(|p| p.part == Part::Format && !p.earned && p.points > 0.0);
    match (&faults.format, format_lost) {
        (Some(format), true) => format!("; it also prints {} differently", format.name),
        _ => String::new(),
    }
}

/// A fault of the ending that cost nothing, in parentheses.
fn note(case: &Case, ending: Option<EndingFault>) -> String {
    let Some(fault) = ending else {
        return String::new();
    };
    let whose = match fault {
        EndingFault::Status { .. } => "this suite does not grade the exit status",
        _ if case.mode == Mode::Game => "this case does not grade how a program ends",
        _ => return String::new(),
    };
    format!(" (it {}, but {whose})", fault.what(&case.limits))
}

/// What the call helper left in its result file.
#[derive(Clone, Debug)]
pub enum Report {
    /// What the function did.
    Returned(call::Outcome),
    /// A file the program made unusable (unreadable, a link, too large):
    /// why, in a sentence.
    Unusable(String),
    /// No file: the program ended before the helper wrote one.
    Missing,
}

/// Judges a function call: what the helper reported, or how the run
/// that should have reported it ended. A crash, a hang or a read of input
/// is the call's fault: the function did not return.
pub(crate) fn function_call(
    case: &Case,
    call: &Call,
    expected: &call::Expected,
    run: &RunResult,
    report: Report,
) -> Judgement {
    let (verdict, reason) = match (run.ending, &report) {
        (Ending::Exited(_), Report::Returned(outcome)) => call::judge(call, expected, outcome),
        (Ending::Exited(_), Report::Unusable(why)) => (Verdict::Crashed, why.clone()),
        (Ending::WaitingForInput, _) => (
            Verdict::WaitingForInput,
            format!(
                "{} asked for input; the function should not read any",
                call.describe()
            ),
        ),
        (ending, _) => match crate::run::uncaught(&run.transcript, ending)
            .map(EndingFault::Exception)
            .or_else(|| {
                EndingFault::of(
                    ending,
                    0,
                    ReferenceEnd {
                        read: 0,
                        waited: false,
                        status: 0,
                    },
                )
            }) {
            Some(fault) => (fault.verdict(), fault.sentence(&case.limits)),
            None => (
                Verdict::Crashed,
                format!(
                    "{} ended the program before returning (sys.exit?)",
                    call.describe()
                ),
            ),
        },
    };
    Judgement {
        parts: vec![PartScore {
            part: Part::Play,
            points: case.points,
            earned: verdict == Verdict::Pass,
        }],
        verdict,
        reason,
    }
}

#[cfg(test)]
mod tests;
