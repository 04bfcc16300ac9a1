//! Explaining a failure to the student who has to fix it: which input it
//! followed, the first line that differs, the transcripts side by side as
//! a unified diff, and what the program printed before it was stopped.

use std::fmt::Write;

use similar::{group_diff_ops, DiffOp, DiffTag};

use crate::call;
use crate::case::Mode;
use crate::compare::{self, terminal_diff, LineDiff, Options, Region};
use crate::expected::ReferenceRun;
use crate::game;
use crate::grading::{CaseOutcome, Expected, Prepared};
use crate::judge::{self, FormatDifference, PlayFault};
use crate::run::{Ending, RunResult};
use crate::terminal;
use crate::text::visible::{self, Show};
use crate::text::{capitalized, points};
use crate::transcript::{TermLine, WAITING};
use crate::verdict::{EndingFault, Judgement, Part, PartScore, Verdict};

pub mod diagnoses;
pub mod found;
pub mod plain;
mod style;
pub use style::{ColorChoice, Style};

/// Lines of context around each difference.
const CONTEXT: usize = 3;
/// Lines of the program's last output shown after a stop.
const TAIL: usize = 12;

/// How much a rendered explanation may show.
#[derive(Clone, Copy, Debug)]
pub struct Room {
    /// Diff lines shown before the rest is left out.
    pub diff_lines: usize,
}

impl Default for Room {
    fn default() -> Self {
        Room { diff_lines: 40 }
    }
}

/// An explanation, and whether anything was left out for length.
pub struct Explanation {
    /// The text, one line per line, each starting with two spaces.
    pub text: String,
    /// Whether the diff was trimmed.
    pub trimmed: bool,
}

/// Lines of the program's own output shown around a game difference.
const TURN_LINES: usize = 24;

/// A difference in play: the sentence, the boards side by side, and what
/// the program printed in that turn. The text diff is left out: the
/// program's wording differs everywhere, and is not what is judged.
fn in_game_terms(
    text: &mut String,
    difference: &game::Difference,
    game: reference::Game,
    lines: &[TermLine],
    style: &Style,
) -> bool {
    let _ = writeln!(text, "  {}", style.strong(&difference.sentence));
    if let Some((want, got)) = &difference.boards {
        text.push_str(&game::board::side_by_side(
            want,
            got,
            crate::games::rules(game).pieces(),
        ));
    }
    let shown = turn_lines(lines, difference.turn);
    let trimmed = shown.len() > TURN_LINES;
    let _ = writeln!(text, "  {}", style.dim("What your program printed there:"));
    for line in &shown[shown.len().saturating_sub(TURN_LINES)..] {
        let _ = writeln!(text, "    {}", show_line(line, style, false));
    }
    unread_lines(text, game, lines, difference.turn, style);
    trimmed
}

/// The lines of turn `turn`: from the prompt its input answered to the
/// next prompt answered (the whole start, for turn 0).
fn turn_lines(lines: &[TermLine], turn: usize) -> &[TermLine] {
    let start = if turn == 0 {
        0
    } else {
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.input.is_some())
            .nth(turn - 1)
            .map_or(lines.len(), |(i, _)| i)
    };
    let end = lines[(start + 1).min(lines.len())..]
        .iter()
        .position(|l| l.input.is_some())
        .map_or(lines.len(), |at| start + 1 + at + 1);
    &lines[start.min(lines.len())..end.min(lines.len())]
}

/// "after input line 3 (`A51R`)", "before any input".
fn after_input(turn: usize, input: Option<&str>) -> String {
    match (turn, input) {
        (0, _) => "before any input".into(),
        (k, Some(typed)) => format!(
            "after input line {k} (`{}`)",
            visible::safe(typed.as_bytes())
        ),
        (k, None) => format!("after input line {k}"),
    }
}

/// A part of the text that differs: the part as the reference prints it
/// and as the program does, compared as the case compares it.
fn format_part(
    text: &mut String,
    difference: &FormatDifference,
    options: &Options,
    style: &Style,
    room: Room,
) -> bool {
    let part = difference.name.as_str();
    let place = after_input(difference.turn, difference.input.as_deref());
    if difference.yours.is_empty() {
        let _ = writeln!(
            text,
            "  {}",
            style.strong(&format!(
                "{} {place}: your program printed nothing of the kind there to compare. The reference printed:",
                capitalized(part)
            ))
        );
        for line in difference.reference.iter().take(TURN_LINES) {
            let _ = writeln!(text, "    {}", show_line(line, style, true));
        }
        return difference.reference.len() > TURN_LINES;
    }
    let _ = writeln!(
        text,
        "  {}",
        style.strong(&format!(
            "{} {place} differ{} from the reference's ({}):",
            capitalized(part),
            if part.ends_with('s') { "" } else { "s" },
            options.describe()
        ))
    );
    // A part's lines are not a turn: prompts are the game reader's there.
    let options = Options {
        prompts: false,
        ..*options
    };
    let (want, got) = (&difference.reference, &difference.yours);
    let lines = terminal_diff(want, got, &options, &[]);
    TerminalDiff::of(want, got, &options, &lines).render(text, style, room)
}

/// What each part of the case was worth and earned: "the play 2/2, the
/// text 0/0.5". The play is named as `mode` judges it: the output of a
/// text case, the files of a files case.
fn parts_line(parts: &[PartScore], mode: Mode) -> Option<String> {
    let shown: Vec<String> = parts
        .iter()
        .filter(|p| p.points > 0.0)
        .map(|p| {
            let earned = if p.earned { p.points } else { 0.0 };
            let words = match (p.part, mode) {
                (Part::Play, Mode::Text) => "the output",
                (Part::Play, Mode::Files) => "the files",
                (part, _) => part.words(),
            };
            format!("{words} {}/{}", points(earned), points(p.points))
        })
        .collect();
    (shown.len() > 1).then(|| format!("Points: {}.", shown.join(", ")))
}

/// Whether a part cost points.
fn lost(judgement: &Judgement, part: Part) -> bool {
    judgement
        .part(part)
        .is_some_and(|p| !p.earned && p.points > 0.0)
}

/// A game-mode case, part by part: each fault that cost points, in game
/// terms for the play, the part of the text for the format, the end of
/// the run for the ending. Nothing the case does not grade is shown.
fn game_case(
    prepared: &Prepared<'_>,
    outcome: &CaseOutcome,
    game: reference::Game,
    run: &RunResult,
    style: &Style,
    room: Room,
) -> Explanation {
    let judgement = &outcome.judgement;
    let mut text = format!("  {}.\n", capitalized(&judgement.reason));
    if let Some(line) = parts_line(&judgement.parts, Mode::Game) {
        let _ = writeln!(text, "  {}", style.dim(&line));
    }
    let lines = terminal::run_lines(run);
    let mut trimmed = false;
    let play_shown = match &outcome.faults.play {
        Some(PlayFault::Game(difference)) if lost(judgement, Part::Play) => {
            trimmed |= in_game_terms(&mut text, difference, game, &lines, style);
            true
        }
        _ => false,
    };
    if let Some(format) = &outcome.faults.format {
        if lost(judgement, Part::Format) || judgement.verdict == Verdict::FormatDiffers {
            trimmed |= format_part(&mut text, format, &prepared.case.compare, style, room);
        }
    }
    let ending_costs = lost(judgement, Part::Ending)
        || outcome
            .faults
            .ending
            .is_some_and(|f| f.is_abnormal() && lost(judgement, Part::Play));
    if let (true, Some(fault)) = (ending_costs, outcome.faults.ending) {
        if !(play_shown && fault == EndingFault::Waiting) {
            run_end(&mut text, &lines, style);
        }
    }
    Explanation { text, trimmed }
}

/// The last lines the program printed, where it stopped.
fn run_end(text: &mut String, lines: &[TermLine], style: &Style) {
    if lines.is_empty() {
        let _ = writeln!(text, "  {}", style.dim("Your program printed nothing."));
        return;
    }
    let _ = writeln!(
        text,
        "  {}",
        style.dim("The last lines your program printed:")
    );
    for line in &lines[lines.len().saturating_sub(TAIL)..] {
        let _ = writeln!(text, "    {}", show_line(line, style, false));
    }
}

/// The lines of a turn the game reader could not read as a game event
/// (a win, a tie, a refusal, a prompt, a board): they count only as text.
/// Said, so that a message worded beyond the reader's rules is seen
/// rather than silently taken for nothing.
fn unread_lines(
    text: &mut String,
    game: reference::Game,
    lines: &[TermLine],
    turn: usize,
    style: &Style,
) {
    const MOST: usize = 5;
    let reading = game::read(crate::games::rules(game), lines);
    let Some(turn) = reading.turns.get(turn) else {
        return;
    };
    let unread: Vec<&str> = turn.texts().collect();
    if unread.is_empty() {
        return;
    }
    let _ = writeln!(
        text,
        "  {}",
        style.dim("Lines there that referee did not read as a move, board, refusal, win or tie (they count only as text):")
    );
    for line in unread.iter().take(MOST) {
        let _ = writeln!(
            text,
            "    {}",
            visible::cut(line.as_bytes(), None, Show::Safe).0
        );
    }
    if unread.len() > MOST {
        let _ = writeln!(
            text,
            "    {}",
            style.dim(&format!("… and {} more", unread.len() - MOST))
        );
    }
}

/// What went wrong on a case, whatever kind of case it is. `game` is the
/// suite's built-in game, whose reader explains game mode.
pub fn explain_outcome(
    prepared: &Prepared<'_>,
    outcome: &CaseOutcome,
    game: Option<reference::Game>,
    regions: &[Region],
    style: &Style,
    room: Room,
) -> Explanation {
    let mut explanation = explain_run(prepared, outcome, game, regions, style, room);
    if prepared.case.mode != Mode::Game {
        // A text or files case split by `ending_points`: what each share
        // earned, under the sentence that says why.
        if let Some(line) = parts_line(&outcome.judgement.parts, prepared.case.mode) {
            let at = explanation.text.find('\n').map_or(0, |i| i + 1);
            let line = format!("  {}\n", style.dim(&line));
            explanation.text.insert_str(at, &line);
        }
    }
    if error_output(prepared, outcome, (style, room), &mut explanation.text) {
        explanation.trimmed = true;
    }
    if output_files(prepared, outcome, style, room, &mut explanation.text) {
        explanation.trimmed = true;
    }
    if let Some(given) = given_line(prepared.case) {
        let line = format!("  {} {given}\n", style.dim("Given:"));
        explanation.text.insert_str(0, &line);
    }
    if let Some(command) = &prepared.case.command {
        // How the program was started, as the student would type it: the
        // arguments are part of what the case checks.
        let line = format!(
            "  {} {}\n",
            style.dim("Run as:"),
            style.strong(&format!("$ {command}"))
        );
        explanation.text.insert_str(0, &line);
    }
    explanation
}

/// What a case gave its run that a student cannot guess from the
/// files alone, said where the case says it (`files:`): a file given
/// with a mode of its own, and a name the case gives no file by.
/// `None` when the case says neither.
fn given_line(case: &crate::case::Case) -> Option<String> {
    let mut said: Vec<String> = case
        .files
        .iter()
        .filter(|file| file.mode != crate::submission::GIVEN_MODE)
        .map(|file| {
            let name = visible::safe(file.place.as_os_str().as_encoded_bytes());
            if file.mode & 0o444 == 0 {
                format!("{name}, which cannot be read (mode {:03o})", file.mode)
            } else {
                format!("{name} (mode {:03o})", file.mode)
            }
        })
        .collect();
    said.extend(case.absent.iter().map(|name| {
        format!(
            "no {} (the case gives none, on purpose)",
            visible::safe(name.as_bytes())
        )
    }));
    (!said.is_empty()).then(|| format!("{}.", said.join("; ")))
}

/// The first file of the case's `outputs` that is not right: what the
/// program left instead of a file, or where a binary file first
/// differs, or the file's diff against the reference's, as the output's
/// diff is shown. True when the diff was trimmed.
fn output_files(
    prepared: &Prepared<'_>,
    outcome: &CaseOutcome,
    style: &Style,
    room: Room,
    text: &mut String,
) -> bool {
    use crate::judge::outputs;
    let case = prepared.case;
    let Expected::Play(expected) = &prepared.expected else {
        return false;
    };
    for file in &outcome.files {
        let name = visible::safe(file.name.as_bytes());
        if let Some(refused) = file.refused() {
            // Not again where it is the reason, which opens the explanation.
            if refused != outcome.judgement.reason {
                let sentence = format!("{}.", capitalized(&visible::safe(refused.as_bytes())));
                let _ = writeln!(text, "  {}", style.strong(&sentence));
            }
            return false;
        }
        if case.mode == Mode::Ending {
            continue;
        }
        if file.binary {
            let got = file.bytes().unwrap_or_default();
            let want = outputs::reference_file(expected, &file.name);
            let difference =
                want.and_then(|want| outputs::binary_difference(&file.name, want, got));
            if let Some(difference) = difference {
                let _ = writeln!(text, "  {}", style.strong(&format!("Your {difference}.")));
                return false;
            }
            continue;
        }
        let Some((want, got)) = outputs::text_difference(case, expected, file) else {
            continue;
        };
        let shown = Shown {
            heading: name.clone(),
            name,
            options: outputs::text_options(case),
        };
        return text_diff(&shown, (want, got), (style, room), text);
    }
    false
}

/// What is diffed as a file is: its heading ("Your after.csv"), its name
/// in the first-difference sentence, and the options it was compared
/// under.
struct Shown {
    heading: String,
    name: String,
    options: Options,
}

/// The diff of two texts that differ, as an output file's is shown: the
/// first difference in a sentence, a heading saying what was compared,
/// then the lines. True when the diff was trimmed.
fn text_diff(
    shown: &Shown,
    (want, got): (&[u8], &[u8]),
    (style, room): (&Style, Room),
    text: &mut String,
) -> bool {
    let options = &shown.options;
    let of_output = crate::transcript::of_output;
    let (want, got) = (of_output(want), of_output(got));
    let lines = terminal_diff(&want, &got, options, &[]);
    let diff = TerminalDiff::of(&want, &got, options, &lines);
    if let Some(first) = diff.first_file_difference(&shown.name) {
        let _ = writeln!(text, "  {first}");
    }
    // What was compared, not again that it differs: the sentence above
    // and the reason say that.
    let heading = format!("{}, compared {}:", shown.heading, options.file_comparison());
    let _ = writeln!(text, "  {}", style.strong(&heading));
    diff.render(text, style, room)
}

/// What the program wrote to stderr, where the case compares it on its
/// own and it differs: its diff against the reference's. True when the
/// diff was trimmed.
fn error_output(
    prepared: &Prepared<'_>,
    outcome: &CaseOutcome,
    (style, room): (&Style, Room),
    text: &mut String,
) -> bool {
    let case = prepared.case;
    let (Expected::Play(expected), Some(run)) = (&prepared.expected, &outcome.run) else {
        return false;
    };
    if crate::judge::same_errors(case, expected, run) {
        return false;
    }
    let shown = Shown {
        heading: "Your program's error output (stderr)".to_string(),
        name: "the error output".to_string(),
        options: crate::judge::errors_options(case),
    };
    let texts = (expected.transcript.errors(), run.transcript.errors());
    text_diff(&shown, texts, (style, room), text)
}

fn explain_run(
    prepared: &Prepared<'_>,
    outcome: &CaseOutcome,
    game: Option<reference::Game>,
    regions: &[Region],
    style: &Style,
    room: Room,
) -> Explanation {
    let case = prepared.case;
    match (&prepared.expected, &case.call, &outcome.run) {
        (Expected::Play(_), _, Some(run)) if case.mode == Mode::Game && game.is_some() => {
            let rules_of = game.map(|g| game_case(prepared, outcome, g, run, style, room));
            rules_of.unwrap_or_else(|| Explanation {
                text: String::new(),
                trimmed: false,
            })
        }
        // The run ended as the reference's: only a file is wrong, and
        // the file's own explanation follows.
        (Expected::Play(_), _, Some(_))
            if matches!(case.mode, Mode::Ending | Mode::Files)
                && outcome.faults.ending.is_none() =>
        {
            Explanation {
                text: format!("  {}.\n", capitalized(&outcome.judgement.reason)),
                trimmed: false,
            }
        }
        (Expected::Play(expected), _, Some(run))
            if matches!(case.mode, Mode::Ending | Mode::Files) =>
        {
            ending_case(prepared, outcome, expected, run, style)
        }
        (Expected::Play(expected), _, Some(run)) => {
            text_case(outcome, expected, run, &case.compare, regions, style, room)
        }
        (Expected::Call(expected), Some(call), _) => {
            let mut text = format!("  {}.\n", capitalized(&outcome.judgement.reason));
            if let Some(done) = &outcome.call {
                text.push_str(&call::boards_side_by_side(call, expected, done));
            }
            Explanation {
                text,
                trimmed: false,
            }
        }
        _ => Explanation {
            text: format!("  {}.\n", capitalized(&outcome.judgement.reason)),
            trimmed: false,
        },
    }
}

/// What went wrong on a `mode: ending` case: what the reference did at
/// the end and what the program did, and the last lines of each.
fn ending_case(
    prepared: &Prepared<'_>,
    outcome: &CaseOutcome,
    expected: &ReferenceRun,
    run: &RunResult,
    style: &Style,
) -> Explanation {
    let judgement = &outcome.judgement;
    let mut text = format!(
        "  {}.
",
        capitalized(&judgement.reason)
    );
    let reference = judge::reference_end(expected);
    let typed: Vec<&str> = expected.transcript.inputs().collect();
    let read = run.transcript.inputs().count();
    let at = |n: usize| after_input(n, n.checked_sub(1).and_then(|i| typed.get(i).copied()));
    let reference_did = if reference.waited {
        "asked again for input".to_string()
    } else {
        format!("stopped with exit status {}", reference.status)
    };
    let program_did = match (run.ending, outcome.faults.ending) {
        (Ending::WaitingForInput, _) => "asked again for input".to_string(),
        (Ending::Exited(code), _) => format!("stopped with exit status {code}"),
        (_, Some(fault)) => fault.what(outcome.limits(prepared.case)),
        (_, None) => "ended as the reference does".to_string(),
    };
    let elsewhere = if read == reference.read {
        String::new()
    } else {
        format!(" {}", at(read))
    };
    let _ = writeln!(
        text,
        "  {}",
        style.strong(&format!(
            "{}, the reference {reference_did}; your program {program_did}{elsewhere}.",
            capitalized(&at(reference.read))
        ))
    );
    let want = terminal::reference_lines(expected);
    if !want.is_empty() {
        let _ = writeln!(
            text,
            "  {}",
            style.dim("The last lines the reference printed:")
        );
        for line in &want[want.len().saturating_sub(TAIL)..] {
            let _ = writeln!(text, "    {}", show_line(line, style, false));
        }
    }
    run_end(&mut text, &terminal::run_lines(run), style);
    Explanation {
        text,
        trimmed: false,
    }
}

/// What went wrong on a text-mode case: the first differing line and
/// the diff of the transcripts, and where the program stopped.
fn text_case(
    outcome: &CaseOutcome,
    expected: &ReferenceRun,
    run: &RunResult,
    options: &Options,
    regions: &[Region],
    style: &Style,
    room: Room,
) -> Explanation {
    let judgement = &outcome.judgement;
    let text_differs = matches!(outcome.faults.play, Some(PlayFault::Text));
    let mut text = String::new();
    let mut trimmed = false;
    let _ = writeln!(text, "  {}.", capitalized(&judgement.reason));
    // The diff the kept transcripts are cut by too (`None` only without a run).
    let Some(diffed) = outcome.diffed(expected, options, regions) else {
        return Explanation { text, trimmed };
    };
    if judgement.verdict == Verdict::ExitStatus {
        exit_statuses(&mut text, outcome.faults.ending, style);
    }
    let (want, got) = (&diffed.want, &diffed.got);
    let mut diff_shown = false;
    if text_differs || judgement.verdict == Verdict::WaitingForInput {
        let diff = TerminalDiff::of(want, got, options, &diffed.diff);
        if let Some(first) = diff.first_difference() {
            let _ = writeln!(text, "  {}", first);
            trimmed = diff.render(&mut text, style, room);
            diff_shown = true;
        }
    }
    // Where the program stopped matters after a crash or a limit; after a
    // wait for input the diff already ends there.
    let stopped = match judgement.verdict {
        Verdict::Pass | Verdict::WrongOutput => false,
        Verdict::WaitingForInput => !diff_shown,
        _ => true,
    };
    if stopped && !got.is_empty() {
        let _ = writeln!(
            text,
            "  {}",
            style.dim("The last lines your program printed:")
        );
        for line in &got[got.len().saturating_sub(TAIL)..] {
            let _ = writeln!(text, "    {}", show_line(line, style, false));
        }
    }
    if stopped && got.is_empty() {
        let _ = writeln!(text, "  {}", style.dim("Your program printed nothing."));
    }
    if run.unread_inputs > 0 && judgement.verdict != Verdict::Pass {
        let _ = writeln!(
            text,
            "  {}",
            style.dim(&format!(
                "Your program ended before reading the last {} line{} of the case's input.",
                run.unread_inputs,
                if run.unread_inputs == 1 { "" } else { "s" }
            ))
        );
    }
    Explanation { text, trimmed }
}

/// What a status is, for a run whose status is its only difference: the
/// reason above already gives both statuses, and a student who has never
/// met one reads what to change.
fn exit_statuses(text: &mut String, fault: Option<EndingFault>, style: &Style) {
    if fault.and_then(EndingFault::only_status).is_none() {
        return;
    }
    let _ = writeln!(
        text,
        "  {}",
        style.dim(
            "(The exit status is the number a program ends with: what `main` returns in C, \
             what `sys.exit()` is given in Python, `System.exit()` in Java; a shell shows it \
             as `$?`.)"
        )
    );
}

/// A terminal line for the screen: output made safe, input highlighted.
/// A line longer than [`visible::LINE_ROOM`] is cut (its start and
/// end shown, the rest counted).
fn show_line(line: &TermLine, style: &Style, mark: bool) -> String {
    let goes_on = line.input.is_some() || line.waiting;
    let show = match (mark, goes_on) {
        (false, _) => Show::Context,
        (true, false) => Show::Marked,
        (true, true) => Show::MarkedInside,
    };
    let mut text = visible::cut(&line.output, None, show).0;
    let show = if mark { Show::Marked } else { Show::Context };
    if let Some(input) = &line.input {
        text.push_str(&style.input(&visible::cut(input.as_bytes(), None, show).0));
    }
    if line.waiting {
        text.push_str(&style.dim(WAITING));
    }
    text
}

/// `line`, paired as changed with `other`, with the spaces it has more
/// than `other` at the edges of what changed shown as `·` (` Hannah`
/// against `Hannah`), as the pages show them; as it is when more than
/// spaces changed.
fn with_change_shown<'a>(line: &'a TermLine, other: &TermLine) -> std::borrow::Cow<'a, TermLine> {
    use std::borrow::Cow;
    let (Ok(text), Ok(theirs)) = (
        std::str::from_utf8(&line.output),
        std::str::from_utf8(&other.output),
    ) else {
        return Cow::Borrowed(line);
    };
    let Some((span, their_span)) = visible::changed_spans(text, theirs) else {
        return Cow::Borrowed(line);
    };
    let part = &text[span.clone()];
    // Only spaces were added or lost: a space beside a changed number
    // is no news, and the comparison may not count it.
    let spaces_only = part.trim_matches(' ') == theirs[their_span].trim_matches(' ');
    if part.trim_matches(' ') == part || !spaces_only {
        return Cow::Borrowed(line);
    }
    let shown = format!(
        "{}{}{}",
        &text[..span.start],
        visible::changed_part(part),
        &text[span.end..]
    );
    Cow::Owned(TermLine {
        output: shown.into_bytes(),
        ..line.clone()
    })
}

/// A differing line for a diff: invisible characters marked, and an
/// empty line said to be one (a diff line showing nothing is easy to
/// miss).
fn marked_line(line: &TermLine, style: &Style) -> String {
    if line.text().is_empty() {
        style.dim("(a blank line)")
    } else {
        show_line(line, style, true)
    }
}

/// The reference's and the program's terminals, compared line by line
/// under the case's options (turn by turn, prompts left out, under
/// `prompts`).
struct TerminalDiff<'a> {
    want: &'a [TermLine],
    got: &'a [TermLine],
    /// Indices into `want`/`got` of the lines compared.
    want_kept: &'a [usize],
    got_kept: &'a [usize],
    ops: &'a [DiffOp],
    /// The options compared under.
    options: Options,
    /// Under `prompts`, which of `got` are prompts (not compared).
    got_prompts: Vec<bool>,
    /// Under `prompts`, the lines of `got` that begin with a prompt (a
    /// prompt at the start of a turn), each with the prompt's length.
    got_prompt_starts: Vec<(usize, usize)>,
}

impl<'a> TerminalDiff<'a> {
    /// `want` and `got` as `diff` (theirs, under `options`) compares them.
    fn of(
        want: &'a [TermLine],
        got: &'a [TermLine],
        options: &Options,
        diff: &'a LineDiff,
    ) -> Self {
        let mut got_prompts = vec![false; if diff.turns.is_some() { got.len() } else { 0 }];
        for &i in diff.turns.iter().flat_map(|(_, g)| &g.prompts) {
            if let Some(p) = got_prompts.get_mut(i) {
                *p = true;
            }
        }
        let got_prompt_starts = diff
            .turns
            .iter()
            .flat_map(|(_, g)| &g.parts)
            .filter(|p| p.from > 0)
            .map(|p| (p.line, p.from))
            .collect();
        TerminalDiff {
            want,
            got,
            want_kept: &diff.expected_kept,
            got_kept: &diff.actual_kept,
            ops: &diff.ops,
            options: *options,
            got_prompts,
            got_prompt_starts,
        }
    }

    /// The program's line `i` as compared: without the prompt at its
    /// start, when it has one.
    fn got_compared(&self, i: usize) -> std::borrow::Cow<'a, TermLine> {
        let line = &self.got[i];
        match self.prompt_start(i) {
            Some(from) => std::borrow::Cow::Owned(TermLine {
                output: line.output[from..].to_vec(),
                ..line.clone()
            }),
            None => std::borrow::Cow::Borrowed(line),
        }
    }

    /// The length of the prompt at the start of the program's line `i`,
    /// when it has one (within what it printed).
    fn prompt_start(&self, i: usize) -> Option<usize> {
        self.got_prompt_starts
            .iter()
            .find(|(line, _)| *line == i)
            .map(|&(_, from)| from)
            .filter(|&from| from <= self.got[i].output.len())
    }

    /// Writes the prompt at the start of the program's line `i`, if it
    /// has one, as a prompt (`~`): what was not compared.
    fn prompt_at_start(&self, out: &mut String, style: &Style, i: usize) {
        if let Some(from) = self.prompt_start(i) {
            let prompt = visible::cut(&self.got[i].output[..from], None, Show::Marked).0;
            let _ = writeln!(out, "   {}", style.dim(&format!("~ {prompt}")));
        }
    }

    /// When the first differing lines are the same but for a number
    /// beyond the tolerance: "your answer 37.0 differs from the
    /// reference's 37.5 (by more than 0.01)".
    fn numbers_apart(&self, want: &TermLine, got: &TermLine) -> Option<String> {
        let tolerance = self.options.numbers?;
        let want_key = compare::key(&want.text(), want.newline, &self.options);
        let got_key = compare::key(&got.text(), got.newline, &self.options);
        let (theirs, yours) = want_key.numbers_apart(&got_key)?;
        Some(format!(
            "your answer {} differs from the reference's {} ({})",
            number(yours),
            number(theirs),
            tolerance.words()
        ))
    }

    /// The first op that differs, with the reference's and the
    /// program's first lines in it.
    fn first_change(&self) -> Option<FirstChange<'a>> {
        let op = self.ops.iter().find(|op| op.tag() != DiffTag::Equal)?;
        let (tag, old, new) = op.as_tag_tuple();
        let want = old.clone().next().map(|i| &self.want[self.want_kept[i]]);
        let got = new
            .clone()
            .next()
            .map(|i| self.got_compared(self.got_kept[i]));
        Some(FirstChange {
            tag,
            want,
            got,
            old_start: old.start,
            new_start: new.start,
        })
    }

    /// "In after.csv, line 3, the reference wrote `X`; your program
    /// wrote ` X` (a space before X)": the first difference of an
    /// output file, said as the output's is.
    fn first_file_difference(&self, name: &str) -> Option<String> {
        let change = self.first_change()?;
        let line = match (&change.got, change.want) {
            (Some(_), _) => self.got_kept.get(change.new_start),
            _ => self.want_kept.get(change.old_start),
        };
        let at = match line {
            Some(n) => format!("In {name}, line {}", n + 1),
            None => format!("In {name}"),
        };
        let sentence = self.sentence(&change, &at, ("wrote", "write"))?;
        let inside = match (change.tag, change.want, &change.got) {
            (DiffTag::Replace, Some(w), Some(g)) => within_line(&w.output, &g.output),
            _ => None,
        };
        Some(match inside {
            Some(what) => format!("{} ({what}).", sentence.trim_end_matches('.')),
            None => sentence,
        })
    }

    /// "After you typed `6` (input 7), the reference printed ...; your
    /// program printed ...".
    fn first_difference(&self) -> Option<String> {
        let change = self.first_change()?;
        let (want, new, old) = (change.want, change.new_start, change.old_start);
        let got = change.got.as_deref();
        // The lines typed before the line quoted, on that line's side.
        let (typed_before, side) = match (got, want) {
            (Some(line), _) => (line.inputs_before, self.got),
            (None, Some(line)) => (line.inputs_before, self.want),
            (None, None) => (0, self.got),
        };
        let inputs: Vec<&str> = side.iter().filter_map(|l| l.input.as_deref()).collect();
        let reads_nothing = [self.want, self.got]
            .iter()
            .all(|side| side.iter().all(|l| l.input.is_none()));
        // Where no input is typed at all, "before any input" says nothing:
        // the line of the output does.
        let line_number = match (got, want) {
            (Some(_), _) => self.got_kept.get(new).copied(),
            _ => self.want_kept.get(old).copied(),
        };
        let after = match typed_before {
            0 if reads_nothing => match line_number {
                Some(n) => format!("On line {} of the output", n + 1),
                None => "In the output".to_string(),
            },
            0 => "Before any input".to_string(),
            n => format!(
                "After input line {n} (`{}`)",
                visible::safe(inputs.get(n - 1).copied().unwrap_or("").as_bytes())
            ),
        };
        self.sentence(&change, &after, ("printed", "print"))
    }

    /// The first difference in a sentence, from where it is (`after`)
    /// and what each side did there (`printed`, `wrote`).
    fn sentence(
        &self,
        change: &FirstChange<'_>,
        after: &str,
        (did, does): (&str, &str),
    ) -> Option<String> {
        let (tag, want, got) = (change.tag, change.want, change.got.as_deref());
        // What was typed is not what the program printed: quoted apart,
        // so a missing space before it shows (`(0-5):·`, then `0` typed);
        // a blank line is named, not shown as empty quotes.
        let quote = |line: &TermLine| match &line.input {
            Some(input) => format!(
                "`{}` (then `{}` was typed)",
                visible::cut(&line.output, None, Show::Marked).0,
                visible::cut(input.as_bytes(), None, Show::Safe).0
            ),
            None if line.text().is_empty() => "a blank line".to_string(),
            None => format!("`{}`", show_line(line, &Style::PLAIN, true)),
        };
        Some(match (tag, want, got) {
            (DiffTag::Insert, _, Some(g)) => format!(
                "{after}, your program {did} {}, which the reference does not {does}.",
                quote(g)
            ),
            (DiffTag::Delete, Some(w), _) if change.new_start >= self.got_kept.len() => format!(
                "{after}, the reference {did} {}; your program {did} nothing more.",
                quote(w)
            ),
            (DiffTag::Delete, Some(w), _) => format!(
                "{after}, the reference {did} {}, which your program does not {does}.",
                quote(w)
            ),
            (_, Some(w), Some(g)) => {
                // A space that changed is shown as the diff below shows it.
                let (w_shown, g_shown) = (with_change_shown(w, g), with_change_shown(g, w));
                let (theirs, yours) = (quote(&w_shown), quote(&g_shown));
                match self.numbers_apart(w, g) {
                    Some(apart) => format!(
                        "{after}, {apart}: the reference {did} {theirs}; your program {did} \
                         {yours}."
                    ),
                    None => format!(
                        "{after}, the reference {did} {theirs}; your program {did} {yours}."
                    ),
                }
            }
            _ => return None,
        })
    }

    /// Writes the program's prompts (not compared) before its line
    /// `until`, from `*next` on; `*next` moves past them.
    fn prompts_before(&self, out: &mut String, style: &Style, next: &mut usize, until: usize) {
        let until = until.min(self.got_prompts.len());
        for i in *next..until {
            if self.got_prompts[i] {
                let line = show_line(&self.got[i], style, false);
                let _ = writeln!(out, "   {}", style.dim(&format!("~ {line}")));
            }
        }
        *next = (*next).max(until);
    }

    /// The program's line where the diff positions `at` of its compared
    /// lines begin: where its prompts before them end.
    fn got_line(&self, at: usize) -> usize {
        self.got_kept.get(at).copied().unwrap_or(self.got.len())
    }

    /// Writes one op of the diff in at most `left` lines; returns the
    /// lines written. A long change shows the start of what each side
    /// printed there, so that the program's own lines are never crowded
    /// out by the reference's.
    fn render_op(
        &self,
        out: &mut String,
        op: &DiffOp,
        left: usize,
        style: &Style,
        next_prompt: &mut usize,
    ) -> usize {
        let (tag, old, new) = op.as_tag_tuple();
        self.prompts_before(out, style, next_prompt, self.got_line(new.start));
        if tag == DiffTag::Equal {
            for i in new.clone().take(left) {
                self.prompts_before(out, style, next_prompt, self.got_kept[i]);
                *next_prompt = (*next_prompt).max(self.got_kept[i] + 1);
                self.prompt_at_start(out, style, self.got_kept[i]);
                let line = self.got_compared(self.got_kept[i]);
                let _ = writeln!(out, "     {}", show_line(&line, style, false));
            }
            return new.len().min(left);
        }
        let ins = new.len().min(left / 2).max(new.len().min(1));
        let dels = old.len().min(left.saturating_sub(ins));
        let ins = new.len().min(left.saturating_sub(dels));
        let (old_lines, new_lines) = (old.clone(), new.clone());
        let sides = [
            (
                &self.want,
                &self.want_kept,
                old,
                dels,
                "-",
                "the reference printed",
            ),
            (
                &self.got,
                &self.got_kept,
                new,
                ins,
                "+",
                "your program printed",
            ),
        ];
        for (lines, kept, range, room, sign, whose) in sides {
            let paint = |text: &str| match sign {
                "-" => style.expected(text),
                _ => style.actual(text),
            };
            for i in range.clone().take(room) {
                let line = if sign == "+" {
                    self.prompts_before(out, style, next_prompt, kept[i]);
                    *next_prompt = (*next_prompt).max(kept[i] + 1);
                    self.prompt_at_start(out, style, kept[i]);
                    self.got_compared(kept[i])
                } else {
                    std::borrow::Cow::Borrowed(&lines[kept[i]])
                };
                // Its counterpart, the line of the other side at the same
                // place in a change: a space that changed there is shown.
                let k = i - range.start;
                let other = match (tag, sign) {
                    (DiffTag::Replace, "-") => new_lines
                        .clone()
                        .nth(k)
                        .map(|j| self.got_compared(self.got_kept[j])),
                    (DiffTag::Replace, _) => old_lines
                        .clone()
                        .nth(k)
                        .map(|j| std::borrow::Cow::Borrowed(&self.want[self.want_kept[j]])),
                    _ => None,
                };
                let line = match &other {
                    Some(other) => with_change_shown(line.as_ref(), other),
                    None => line,
                };
                let line = line.as_ref();
                let _ = writeln!(
                    out,
                    "   {} {}",
                    paint(sign),
                    paint(&marked_line(line, style))
                );
                if !line.newline && !line.waiting {
                    let _ = writeln!(out, "     {}", style.dim("(no newline at the end)"));
                }
            }
            if range.len() > room && room > 0 {
                let more = range.len() - room;
                let _ = writeln!(
                    out,
                    "   {} {}",
                    paint(sign),
                    style.dim(&format!(
                        "… {} more line{} {whose} here",
                        visible::thousands(more as u64),
                        if more == 1 { "" } else { "s" }
                    ))
                );
            }
        }
        dels + ins
    }

    /// Writes the unified diff; true when it was trimmed to fit `room`.
    fn render(&self, out: &mut String, style: &Style, room: Room) -> bool {
        let prompts = if self.options.prompts {
            format!("  {}", style.dim("~ a prompt, not compared"))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {}  {}{prompts}",
            style.expected("- the reference"),
            style.actual("+ your program")
        );
        let mut shown = 0;
        for group in group_diff_ops(self.ops.to_vec(), CONTEXT) {
            let Some(first) = group.first() else { continue };
            let (_, old, _) = first.as_tag_tuple();
            let line_number = old
                .clone()
                .next()
                .and_then(|i| self.want_kept.get(i))
                .map_or(self.want.len(), |&i| i)
                + 1;
            if shown >= room.diff_lines {
                return true;
            }
            let _ = writeln!(out, "  {}", style.dim(&format!("@@ line {line_number} @@")));
            // The prompts right before the hunk's first line are shown:
            // what that line answered.
            let (_, _, first_new) = first.as_tag_tuple();
            let mut next_prompt = first_new
                .start
                .checked_sub(1)
                .map_or(0, |before| self.got_kept[before] + 1);
            for op in &group {
                if shown >= room.diff_lines {
                    let _ = writeln!(out, "     {}", style.dim("…"));
                    return true;
                }
                let left = room.diff_lines - shown;
                shown += self.render_op(out, op, left, style, &mut next_prompt);
            }
            if let Some(last) = group.last() {
                let (_, _, new) = last.as_tag_tuple();
                self.prompts_before(out, style, &mut next_prompt, self.got_line(new.end));
            }
        }
        false
    }
}

/// The first op of a diff that differs, and the first line on each
/// side of it.
struct FirstChange<'a> {
    tag: DiffTag,
    want: Option<&'a TermLine>,
    got: Option<std::borrow::Cow<'a, TermLine>>,
    /// Where the op starts among the compared lines of each side.
    old_start: usize,
    new_start: usize,
}

/// What changed inside a line, said only where it is certain: one
/// space more or less ("a space before Hannah"), the letters' case,
/// or a carriage return at the end.
fn within_line(want: &[u8], got: &[u8]) -> Option<String> {
    if want.eq_ignore_ascii_case(got) {
        return Some("the same letters in another case".to_string());
    }
    if got.strip_suffix(b"\r") == Some(want) {
        return Some("a carriage return (`␍`) at its end".to_string());
    }
    if want.strip_suffix(b"\r") == Some(got) {
        return Some("no carriage return (`␍`) at its end".to_string());
    }
    let (longer, shorter, more) = match got.len().checked_sub(want.len()) {
        Some(1) => (got, want, true),
        _ if want.len().checked_sub(got.len()) == Some(1) => (want, got, false),
        _ => return None,
    };
    let at = longer
        .iter()
        .zip(shorter)
        .take_while(|(a, b)| a == b)
        .count();
    if longer[at] != b' ' || longer[..at] != shorter[..at] || longer[at + 1..] != shorter[at..] {
        return None;
    }
    let next: Vec<u8> = longer[at + 1..]
        .iter()
        .copied()
        .take_while(|b| !b.is_ascii_whitespace() && !b.is_ascii_punctuation())
        .take(24)
        .collect();
    let place = match next.is_empty() {
        true => "at the end".to_string(),
        false => format!("before {}", visible::safe(&next)),
    };
    Some(match more {
        true => format!("a space {place}"),
        false => format!("no space {place}"),
    })
}

/// A number as printed, made safe, and cut short when it is long (a
/// program may print a million digits).
fn number(bytes: &[u8]) -> String {
    const MOST: usize = 24;
    if bytes.len() <= MOST {
        visible::safe(bytes)
    } else {
        format!("{}…", visible::safe(&bytes[..MOST - 4]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{lines, Transcript};

    /// A terminal: output and typed input in turn (`None`: `5` typed).
    fn terminal(parts: &[Option<&str>]) -> Vec<TermLine> {
        let mut t = Transcript::new();
        for part in parts {
            match part {
                Some(output) => t.push_output(output.as_bytes()),
                None => t.push_input("5"),
            }
        }
        lines(&t, false)
    }

    fn diff_of(want: &[Option<&str>], got: &[Option<&str>], options: &Options) -> (String, String) {
        let (want, got) = (terminal(want), terminal(got));
        let lines = terminal_diff(&want, &got, options, &[]);
        let diff = TerminalDiff::of(&want, &got, options, &lines);
        let mut out = String::new();
        diff.render(&mut out, &Style::PLAIN, Room::default());
        (diff.first_difference().unwrap_or_default(), out)
    }

    #[test]
    fn a_space_added_or_lost_in_a_changed_line_is_shown() {
        let (first, diff) = diff_of(
            &[Some("first\nHannah,Abbott\nKatie,Bell\n")],
            &[Some("first\n Hannah,Abbott\nKatie, Bell\n")],
            &Options::default(),
        );
        assert!(
            first.ends_with("your program printed `·Hannah,Abbott`."),
            "{first}"
        );
        assert!(diff.contains("   - Hannah,Abbott\n"), "{diff}");
        assert!(diff.contains("   + ·Hannah,Abbott\n"), "{diff}");
        assert!(diff.contains("   + Katie,·Bell\n"), "{diff}");
        // More than a space changed: the lines as they are.
        let (_, diff) = diff_of(
            &[Some("Celsius:  37.5\n")],
            &[Some("Celsius: 38.5\n")],
            &Options::default(),
        );
        assert!(diff.contains("   - Celsius:  37.5\n"), "{diff}");
    }

    #[test]
    fn the_diff_shows_prompts_as_not_compared() {
        let options = Options::default().relax("prompts").unwrap();
        let (first, diff) = diff_of(
            &[
                Some("Height: "),
                None,
                Some("You are 5 feet tall.\nWeight: "),
                None,
                Some("BMI 20\n"),
            ],
            &[
                Some("Your height?\n"),
                None,
                Some("You are 6 feet tall.\nYour weight?\n"),
                None,
                Some("BMI 20\n"),
            ],
            &options,
        );
        assert_eq!(
            first,
            "After input line 1 (`5`), the reference printed `You are 5 feet tall.`; your program \
             printed `You are 6 feet tall.`."
        );
        assert_eq!(
            diff,
            "  - the reference  + your program  ~ a prompt, not compared\n  @@ line 2 @@\n   ~ Your \
             height?\n   ~ 5\n   - You are 5 feet tall.\n   + You are 6 feet tall.\n   ~ Your \
             weight?\n   ~ 5\n     BMI 20\n"
        );
    }

    #[test]
    fn a_number_beyond_the_tolerance_is_named() {
        let options = Options::default()
            .relax("whitespace-runs")
            .and_then(|o| o.relax("numbers-within-0.01"))
            .unwrap();
        let (first, _) = diff_of(
            &[Some("Fahrenheit: "), None, Some("Celsius:  37.5 (body)\n")],
            &[Some("Fahrenheit: "), None, Some("Celsius: 37.0 (body)\n")],
            &options,
        );
        assert_eq!(
            first,
            "After input line 1 (`5`), your answer 37.0 differs from the reference's 37.5 (by \
             more than 0.01): the reference printed `Celsius:  37.5 (body)`; your program printed \
             `Celsius: 37.0 (body)`."
        );
        let (first, _) = diff_of(
            &[Some("Celsius: 37.5\n")],
            &[Some("Celsius is 37.5\n")],
            &options,
        );
        assert_eq!(
            first,
            "On line 1 of the output, the reference printed `Celsius: 37.5`; your program \
             printed `Celsius is 37.5`."
        );
        assert_eq!(number(&[b'9'; 100]), format!("{}…", "9".repeat(20)));
    }
}
