//! The judge and the explanations: two arbitrary outputs, with the
//! case's input between them, judged in text mode and in game mode and
//! explained as a student reads it.

use std::time::Duration;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use referee::case::{Case, ExitStatus, Mode, MoveNumbers, TextPart};
use referee::compare::{self, Options, RowKind};
use referee::expected::ReferenceRun;
use referee::explain::{explain_outcome, Room, Style};
use referee::game;
use referee::grading::{CaseOutcome, Expected, Prepared};
use referee::judge::{whole_game, PlayFault, Setting};
use referee::run::{Clock, Ending, RunResult};
use referee::terminal;
use referee::text::visible::LINE_ROOM;
use referee::verdict::Verdict;

use crate::corpus::SEEDS;
use crate::mutate::{self, Step};
use crate::{config, raw_control, timed, FLOOD};

/// The longest line of an explanation: a sentence quoting a line of the
/// reference's and one of the program's, each cut to its room, and what
/// was typed.
const LINE_BOUND: usize = 3 * LINE_ROOM + 400;
/// The most lines an explanation has: the diff's room, the turn or the
/// last lines shown, the boards, the sentences around them.
const LINES_BOUND: usize = 160;
/// The longest reason a judgement gives.
const REASON_BOUND: usize = 1000;

fn ending() -> impl Strategy<Value = Ending> {
    prop_oneof![
        3 => Just(Ending::Exited(0)),
        1 => any::<i32>().prop_map(Ending::Exited),
        1 => select(&[6, 9, 11, 13, 24, 64, 0, -1][..]).prop_map(Ending::Signaled),
        2 => Just(Ending::WaitingForInput),
        1 => select(&[Clock::Cpu, Clock::Wall][..]).prop_map(Ending::TimedOut),
        1 => Just(Ending::OutputLimit),
        1 => Just(Ending::MemoryLimit),
    ]
}

/// How a case is judged, varied over what case files can say.
#[derive(Clone, Debug)]
struct Variant {
    mode: Mode,
    format_points: f64,
    ending_points: f64,
    exit_status: ExitStatus,
    move_numbers: MoveNumbers,
    compare: Options,
    format: Option<Vec<TextPart>>,
}

fn variant() -> impl Strategy<Value = Variant> {
    let parts = select(
        &[
            TextPart::All,
            TextPart::Instructions,
            TextPart::Boards,
            TextPart::Errors,
            TextPart::Ending,
            TextPart::Region(0),
            TextPart::Region(7),
        ][..],
    );
    (
        select(&[Mode::Text, Mode::Game][..]),
        select(&[0.0, 0.25, 0.5][..]),
        select(&[0.0, 0.25, 0.5][..]),
        select(&[ExitStatus::Same, ExitStatus::Any][..]),
        select(
            &[
                MoveNumbers::Optional,
                MoveNumbers::Required,
                MoveNumbers::Ignored,
            ][..],
        ),
        any::<[bool; 4]>(),
        proptest::option::of(vec(parts, 0..3)),
    )
        .prop_map(
            |(mode, format_points, ending_points, exit_status, move_numbers, relax, format)| {
                let mut compare = Options::default();
                for (name, on) in Options::NAMES.iter().zip(relax) {
                    if on {
                        compare = compare.relax(name).expect("a known option");
                    }
                }
                Variant {
                    mode,
                    format_points,
                    ending_points,
                    exit_status,
                    move_numbers,
                    compare,
                    format,
                }
            },
        )
}

fn case_of(seed: &Case, variant: &Variant) -> Case {
    let mut case = seed.clone();
    case.mode = variant.mode;
    case.points = 1.0;
    case.format_points = variant.format_points;
    case.ending_points = variant.ending_points;
    case.exit_status = variant.exit_status;
    case.move_numbers = variant.move_numbers;
    case.compare = variant.compare;
    case.format = variant.format.clone();
    case
}

fn run_of(steps: &[Step], ending: Ending, unread: usize) -> RunResult {
    RunResult {
        transcript: mutate::transcript(steps),
        ending,
        wall: Duration::from_millis(3),
        cpu: Duration::from_millis(1),
        max_rss: 0,
        unread_inputs: unread,
        job_out_of_memory: false,
        report_marks: Vec::new(),
        reports: Vec::new(),
    }
}

/// `run` judged against `expected` on `case`, in game mode when `game`
/// says, and explained: in bounded time and length, safe to print, the
/// points adding up.
fn judge_and_explain(
    case: &Case,
    game: Option<referee::Game>,
    suite: &referee::case::Suite,
    expected: &ReferenceRun,
    run: &RunResult,
) -> Verdict {
    let want = game.map(|g| {
        game::read(
            referee::games::rules(g),
            &terminal::reference_lines(expected),
        )
    });
    let empty = game::Reading::default();
    let setting = Setting {
        case,
        game,
        regions: &suite.regions,
        graded: &suite.graded,
        expected,
    };
    let (judgement, faults) = timed("judging", || {
        whole_game(&setting, || want.as_ref().unwrap_or(&empty), run)
    });
    let reason = &judgement.reason;
    assert!(
        reason.chars().count() <= REASON_BOUND,
        "a reason of {}",
        reason.len()
    );
    assert_eq!(raw_control(reason), None, "{reason:?}");
    let score = judgement.score();
    assert!((0.0..=case.points + 1e-9).contains(&score), "{score}");
    let worth: f64 = judgement.parts.iter().map(|p| p.points).sum();
    assert!((worth - case.points).abs() < 1e-9, "parts worth {worth}");
    let verdict = judgement.verdict;
    let outcome = CaseOutcome {
        score,
        judgement,
        run: Some(run.clone()),
        call: None,
        faults,
        shortened: None,
        diffed: Default::default(),
        files: Vec::new(),
        diagnoses: Vec::new(),
    };
    let prepared = Prepared::with(case, Expected::Play(expected.clone()));
    let explanation = timed("explaining", || {
        explain_outcome(
            &prepared,
            &outcome,
            game,
            &suite.regions,
            &Style::PLAIN,
            Room::default(),
        )
    });
    let text = &explanation.text;
    assert_eq!(raw_control(text), None, "{text}");
    // The text differs: the explanation shows where. (Not yet when blank
    // lines are ignored: a newline printed right after a read is a blank
    // line on the terminal the explanation diffs, and the end of the
    // prompt's line in the output the judge compares, so a program that
    // leaves it out is judged wrong and shown no difference.)
    let text_differs = matches!(outcome.faults.play, Some(PlayFault::Text));
    if verdict == Verdict::WrongOutput && text_differs && !case.compare.blank_lines {
        assert!(text.contains(" printed "), "no difference shown: {text}");
    }
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() <= LINES_BOUND,
        "{} lines: {}",
        lines.len(),
        preview(text)
    );
    for line in &lines {
        assert!(
            line.chars().count() <= LINE_BOUND,
            "a line of {} characters: {}",
            line.chars().count(),
            preview(line)
        );
    }
    verdict
}

fn preview(text: &str) -> String {
    text.chars().take(2000).collect()
}

/// A seed whose suite has a game, for game mode; any for text mode.
fn setup(
    seed: usize,
    variant: &Variant,
) -> (&'static crate::corpus::Seed, Case, Option<referee::Game>) {
    let seed = &SEEDS[seed];
    let case = case_of(&seed.case, variant);
    let game = seed.game();
    (seed, case, game)
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn a_mutated_run_is_judged_and_explained(
        seed in 0..SEEDS.len(),
        variant in variant(),
        mutations in vec(mutate::mutation(), 0..6),
        ending in ending(),
        unread in 0..4usize,
    ) {
        let (seed, case, game) = setup(seed, &variant);
        let steps = mutate::mutated(&mutate::steps_of(&seed.run.transcript), &mutations);
        let run = run_of(&steps, ending, unread);
        judge_and_explain(&case, game, seed.suite(), &seed.run, &run);
    }

    #[test]
    fn any_two_outputs_are_judged_and_explained(
        seed in 0..SEEDS.len(),
        variant in variant(),
        reference in mutate::steps(24),
        waited in any::<bool>(),
        status in prop_oneof![3 => Just(0), 1 => any::<i32>()],
        yours in mutate::steps(24),
        ending in ending(),
        unread in 0..4usize,
    ) {
        let (seed, case, game) = setup(seed, &variant);
        let expected = ReferenceRun {
            transcript: mutate::transcript(&reference),
            waited_at_end: waited,
            status,
            files: Vec::new(),
        };
        let run = run_of(&yours, ending, unread);
        judge_and_explain(&case, game, seed.suite(), &expected, &run);
    }

    #[test]
    fn what_the_reference_printed_passes(
        seed in 0..SEEDS.len(),
        variant in variant(),
        mutations in vec(mutate::mutation(), 0..4),
        waited in any::<bool>(),
    ) {
        // Whatever the reference printed, a program printing the same
        // and ending the same way passes.
        let (seed, case, game) = setup(seed, &variant);
        let steps = mutate::mutated(&mutate::steps_of(&seed.run.transcript), &mutations);
        let expected = ReferenceRun {
            transcript: mutate::transcript(&steps),
            waited_at_end: waited,
            status: 0,
            files: Vec::new(),
        };
        let ending = if waited { Ending::WaitingForInput } else { Ending::Exited(0) };
        let run = run_of(&steps, ending, 0);
        let verdict = judge_and_explain(&case, game, seed.suite(), &expected, &run);
        prop_assert_eq!(verdict, Verdict::Pass);
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn two_outputs_side_by_side_show_every_line_once_in_order(
        seed in 0..SEEDS.len(),
        mutations in vec(mutate::mutation(), 0..6),
        other in mutate::output(40),
        variant in variant(),
        swap in any::<bool>(),
    ) {
        // The reports' side-by-side view: the reference's output and a
        // program's, or any two, under the suite's regions.
        let seed = &SEEDS[seed];
        let steps = mutate::mutated(&mutate::steps_of(&seed.run.transcript), &mutations);
        let mutated = mutate::transcript(&steps).output();
        let (expected, actual) = if swap {
            (other, mutated)
        } else {
            (seed.run.transcript.output(), mutated)
        };
        let regions = &seed.suite().regions;
        let rows = timed("side by side", || {
            compare::side_by_side(&expected, &actual, &variant.compare, regions, None)
        });
        let lines = |bytes: &[u8]| compare::split_lines(bytes).len();
        let left: Vec<usize> = rows.iter().filter_map(|r| r.expected).collect();
        let right: Vec<usize> = rows.iter().filter_map(|r| r.actual).collect();
        prop_assert_eq!(left, (0..lines(&expected)).collect::<Vec<_>>());
        prop_assert_eq!(right, (0..lines(&actual)).collect::<Vec<_>>());
        let same = compare::side_by_side(&expected, &expected, &variant.compare, regions, None);
        prop_assert!(same.iter().all(|r| r.kind != RowKind::Differs));
    }
}

/// The floods of the test kits against one case of each suite, in every
/// mode: judged and explained within bounds, in linear time.
#[test]
fn floods_are_judged_and_explained_within_bounds() {
    use crate::mutate::FLOODS;
    let formats = [
        None,
        Some(vec![TextPart::Boards, TextPart::Errors, TextPart::Ending]),
        Some(vec![TextPart::Instructions, TextPart::Region(0)]),
    ];
    let variants: Vec<Variant> = [Mode::Text, Mode::Game]
        .into_iter()
        .flat_map(|mode| formats.iter().map(move |format| (mode, format)))
        .filter(|(mode, format)| *mode == Mode::Game || format.is_none())
        .map(|(mode, format)| Variant {
            mode,
            format_points: 0.25,
            ending_points: 0.25,
            exit_status: ExitStatus::Same,
            move_numbers: MoveNumbers::Optional,
            compare: Options::default(),
            format: format.clone(),
        })
        .collect();
    for suite in 0..crate::corpus::SUITES.len() {
        let Some(seed) = SEEDS
            .iter()
            .find(|s| s.suite == suite && s.case.input.len() > 3)
        else {
            continue;
        };
        let flooded = |flood: mutate::Flood, size: usize| {
            let mut steps = mutate::steps_of(&seed.run.transcript);
            steps.insert(steps.len() / 2, Step::Out(flood.bytes(size)));
            run_of(&steps, Ending::OutputLimit, 2)
        };
        for (v, variant) in variants.iter().enumerate() {
            let case = case_of(&seed.case, variant);
            for &flood in FLOODS {
                let run = flooded(flood, FLOOD);
                judge_and_explain(&case, seed.game(), seed.suite(), &seed.run, &run);
                if v == 2 && seed.game().is_some() {
                    // Game mode, grading the boards, errors and ending.
                    crate::assert_linear(
                        &format!("judging {} with {flood:?}", seed.case.name),
                        FLOOD / 8,
                        |size| flooded(flood, size),
                        |run| {
                            judge_and_explain(&case, seed.game(), seed.suite(), &seed.run, run);
                        },
                    );
                }
            }
        }
    }
}
