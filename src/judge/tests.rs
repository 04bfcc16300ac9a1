//! The judging stage on transcripts made by hand: each part earns its
//! points on its own, and the verdict names the fault that cost points.

use std::path::PathBuf;
use std::time::Duration;

use reference::Game;

use super::*;
use crate::case::{ExitStatus, MoveNumbers, Visibility};
use crate::compare::Options;
use crate::expected::run_reference;
use crate::run::Limits;
use crate::transcript::Transcript;

fn case(input: &[&str], points: f64) -> Case {
    Case {
        name: "c".into(),
        file: PathBuf::from("c.yaml"),
        description: None,
        rubric: None,
        points,
        visibility: Visibility::Hidden,
        input: input.iter().map(|s| s.to_string()).collect(),
        end_of_input: false,
        call: None,
        limits: Limits::default(),
        compare: Options::default()
            .relax("whitespace-runs")
            .and_then(|o| o.relax("blank-lines"))
            .unwrap(),
        mode: Mode::Game,
        format_points: 0.0,
        move_numbers: MoveNumbers::Optional,
        ending_points: 0.0,
        exit_status: ExitStatus::Any,
        format: None,
    }
}

/// What the reference prints for `input`, as if a program printed it,
/// ending as `ending` says; `edit` changes the output first.
fn run_like_reference(
    input: &[&str],
    ending: Ending,
    edit: impl Fn(String) -> String,
) -> RunResult {
    let lines: Vec<String> = input.iter().map(|s| s.to_string()).collect();
    let reference = run_reference(Game::Pentago, &lines);
    let mut transcript = Transcript::new();
    for event in reference.transcript.events() {
        match event {
            crate::transcript::Event::Output(bytes) => {
                transcript.push_output(edit(String::from_utf8_lossy(bytes).into_owned()).as_bytes())
            }
            crate::transcript::Event::Input(line) => transcript.push_input(line),
        }
    }
    RunResult {
        transcript,
        ending,
        wall: Duration::from_millis(5),
        cpu: Duration::from_millis(1),
        max_rss: 0,
        unread_inputs: 0,
    }
}

fn judged(case: &Case, run: &RunResult) -> (Judgement, Faults) {
    let expected = run_reference(Game::Pentago, &case.input);
    let lines = terminal::reference_lines(&expected);
    let want = game::read(crate::games::rules(Game::Pentago), &lines);
    let setting = Setting {
        case,
        game: Some(Game::Pentago),
        regions: &[],
        graded: &[],
        expected: &expected,
    };
    whole_game(&setting, || &want, run)
}

const EXIT: &[&str] = &["A14R", "x"];

#[test]
fn a_wrong_exit_status_costs_only_where_the_status_counts() {
    let mut c = case(EXIT, 1.0);
    let run = run_like_reference(EXIT, Ending::Exited(2), |s| s);
    let (j, faults) = judged(&c, &run);
    assert_eq!((j.verdict, j.score()), (Verdict::Pass, 1.0), "{}", j.reason);
    assert_eq!(
        faults.ending,
        Some(EndingFault::Status {
            code: 2,
            early: false
        })
    );
    assert!(j.reason.contains("exited with status 2"), "{}", j.reason);
    // Failing before the game is over is a crash whatever the setting.
    let input = ["A14R", "B24R", "x"];
    let early = case(&input, 1.0);
    let mut stopped = run_like_reference(&input[..1], Ending::Exited(1), |s| s);
    stopped.unread_inputs = 2;
    assert_eq!(judged(&early, &stopped).0.verdict, Verdict::Crashed);
    c.exit_status = ExitStatus::Zero;
    c.ending_points = 0.25;
    let (j, _) = judged(&c, &run);
    assert_eq!(
        (j.verdict, j.score()),
        (Verdict::Crashed, 0.75),
        "{}",
        j.reason
    );
    assert!(
        j.reason.contains("0.25 of 1 points are for how it ends"),
        "{}",
        j.reason
    );
}

#[test]
fn still_waiting_costs_the_ending_points_and_keeps_the_play() {
    let mut c = case(EXIT, 2.0);
    let waiting = run_like_reference(EXIT, Ending::WaitingForInput, |s| {
        s.replace("Exiting program...\n", "")
    });
    let (j, _) = judged(&c, &waiting);
    assert_eq!((j.verdict, j.score()), (Verdict::Pass, 2.0), "{}", j.reason);
    assert!(
        j.reason.contains("does not grade how a program ends"),
        "{}",
        j.reason
    );
    c.ending_points = 0.5;
    let (j, _) = judged(&c, &waiting);
    assert_eq!((j.verdict, j.score()), (Verdict::WaitingForInput, 1.5));
    assert_eq!(j.part(Part::Play).map(|p| p.earned), Some(true));
    assert_eq!(j.part(Part::Ending).map(|p| p.earned), Some(false));
}

#[test]
fn a_crash_before_the_game_is_over_loses_what_was_not_played() {
    let input = ["A14R", "B24R", "x"];
    let c = case(&input, 1.0);
    let mut run = run_like_reference(&input[..1], Ending::Signaled(libc::SIGSEGV), |s| s);
    run.unread_inputs = 2;
    let (j, faults) = judged(&c, &run);
    assert_eq!(
        (j.verdict, j.score()),
        (Verdict::Crashed, 0.0),
        "{}",
        j.reason
    );
    assert!(j.reason.contains("SIGSEGV"), "{}", j.reason);
    assert!(matches!(faults.play, Some(PlayFault::Game(_))));
}

#[test]
fn the_format_earns_its_points_on_its_own() {
    let mut c = case(EXIT, 1.0);
    c.format_points = 0.25;
    c.format = Some(vec![TextPart::Boards]);
    let tight = run_like_reference(EXIT, Ending::Exited(0), |s| s.replace("  :", " :"));
    let (j, faults) = judged(&c, &tight);
    // White space runs are collapsed: the same board display.
    assert_eq!(j.verdict, Verdict::Pass, "{}", j.reason);
    c.compare = Options::default();
    let (j, faults_exact) = judged(&c, &tight);
    assert_eq!(
        (j.verdict, j.score()),
        (Verdict::FormatDiffers, 0.75),
        "{}",
        j.reason
    );
    assert!(
        j.reason.contains("prints the board display differently"),
        "{}",
        j.reason
    );
    assert_eq!(faults.format, None);
    assert_eq!(faults_exact.format.map(|f| f.part), Some(TextPart::Boards));
    // Another part's text differs: the boards' points are still earned.
    let other = run_like_reference(EXIT, Ending::Exited(0), |s| s.replace("Exiting", "Leaving"));
    assert_eq!(judged(&c, &other).0.score(), 1.0);
}

#[test]
fn a_refusal_in_words_of_its_own_is_seen_by_what_the_program_did() {
    let input = ["A14R", "A14L", "B24R", "x"];
    let c = case(&input, 1.0);
    let own = run_like_reference(&input, Ending::Exited(0), |s| {
        s.replace(
            "*** That board location is already taken.  Please retry.",
            "*** Must move where there is an empty spot.",
        )
    });
    let (j, faults) = judged(&c, &own);
    assert_eq!(j.verdict, Verdict::Pass, "{} {:?}", j.reason, faults.play);
    let silent = run_like_reference(&input, Ending::Exited(0), |s| {
        s.replace(
            "*** That board location is already taken.  Please retry.\n",
            "",
        )
    });
    assert_eq!(judged(&c, &silent).0.verdict, Verdict::Pass);
}

#[test]
fn text_mode_needs_the_text_and_the_ending() {
    let mut c = case(EXIT, 1.0);
    c.mode = Mode::Text;
    c.compare = Options::default();
    let same = run_like_reference(EXIT, Ending::Exited(0), |s| s);
    assert_eq!(judged(&c, &same).0.verdict, Verdict::Pass);
    let waiting = run_like_reference(EXIT, Ending::WaitingForInput, |s| s);
    let (j, _) = judged(&c, &waiting);
    assert_eq!((j.verdict, j.score()), (Verdict::WaitingForInput, 0.0));
    let other = run_like_reference(EXIT, Ending::Exited(0), |s| s.replace("Exiting", "Leaving"));
    assert_eq!(judged(&c, &other).0.verdict, Verdict::WrongOutput);
}

#[test]
fn stopping_before_the_reference_is_a_fault_of_the_ending() {
    assert_eq!(
        EndingFault::of(Ending::Exited(0), 1, 3, false),
        Some(EndingFault::Stopped {
            read: 1,
            reference: 3
        })
    );
    assert_eq!(
        EndingFault::of(Ending::Exited(1), 1, 3, false),
        Some(EndingFault::Status {
            code: 1,
            early: true
        })
    );
    // At the end of the input a program may stop, as the reference does.
    assert_eq!(EndingFault::of(Ending::Exited(0), 3, 3, true), None);
    assert_eq!(EndingFault::of(Ending::WaitingForInput, 3, 3, true), None);
    assert_eq!(
        EndingFault::of(Ending::WaitingForInput, 3, 3, false),
        Some(EndingFault::Waiting)
    );
    let limits = Limits::default();
    assert_eq!(
        EndingFault::Stopped {
            read: 1,
            reference: 3
        }
        .sentence(&limits),
        "your program stopped after input line 1; the reference went on to read input lines 2 to 3"
    );
}
