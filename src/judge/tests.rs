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

fn reference(read: usize, waited: bool, status: i32) -> ReferenceEnd {
    ReferenceEnd {
        read,
        waited,
        status,
    }
}

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
        stderr: Default::default(),
        stderr_compare: Default::default(),
        format: None,
        args: Vec::new(),
        command: None,
        files: Vec::new(),
        absent: Vec::new(),
        outputs: Vec::new(),
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
        job_out_of_memory: false,
        report_marks: Vec::new(),
        reports: Vec::new(),
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
            early: false,
            reference: 0
        })
    );
    assert!(j.reason.contains("exited with status 2"), "{}", j.reason);
    // Failing before the game is over is a crash whatever the setting.
    let input = ["A14R", "B24R", "x"];
    let early = case(&input, 1.0);
    let mut stopped = run_like_reference(&input[..1], Ending::Exited(1), |s| s);
    stopped.unread_inputs = 2;
    assert_eq!(judged(&early, &stopped).0.verdict, Verdict::Crashed);
    c.exit_status = ExitStatus::Same;
    c.ending_points = 0.25;
    let (j, _) = judged(&c, &run);
    // The status is the only difference: its own verdict.
    assert_eq!(
        (j.verdict, j.score()),
        (Verdict::ExitStatus, 0.75),
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
    let stopped = reference(3, false, 0);
    assert_eq!(
        EndingFault::of(Ending::Exited(0), 1, stopped),
        Some(EndingFault::Stopped {
            read: 1,
            reference: 3
        })
    );
    assert_eq!(
        EndingFault::of(Ending::Exited(1), 1, stopped),
        Some(EndingFault::Status {
            code: 1,
            early: true,
            reference: 0
        })
    );
    // At the end of the input a program may stop, as the reference does.
    let waited = reference(3, true, 0);
    assert_eq!(EndingFault::of(Ending::Exited(0), 3, waited), None);
    assert_eq!(EndingFault::of(Ending::WaitingForInput, 3, waited), None);
    assert_eq!(
        EndingFault::of(Ending::WaitingForInput, 3, stopped),
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

/// A case judged only by how the run ends.
fn ending_case(input: &[&str]) -> Case {
    let mut c = case(input, 2.0);
    c.mode = Mode::Ending;
    c.exit_status = ExitStatus::Same;
    c
}

/// The reference's run with its output left out: what a program that
/// words everything its own way still shares with it.
fn own_words(input: &[&str], ending: Ending) -> RunResult {
    run_like_reference(input, ending, |s| {
        s.chars().filter(|c| !c.is_alphabetic()).collect()
    })
}

#[test]
fn an_ending_case_needs_only_the_ending_in_any_words() {
    // An invalid row: the reference refuses it and asks again.
    let bad = ["G11R"];
    let c = ending_case(&bad);
    let (j, faults) = judged(&c, &own_words(&bad, Ending::WaitingForInput));
    assert_eq!((j.verdict, j.score()), (Verdict::Pass, 2.0), "{}", j.reason);
    assert_eq!(
        j.reason,
        "your program asked again for input after input line 1, as the reference does"
    );
    assert_eq!((faults.play, faults.format), (None, None));
    assert_eq!(j.parts.len(), 1);
    assert_eq!(j.part(Part::Ending).map(|p| p.points), Some(2.0));
    // Stopping at the end of the input is not asking again, here.
    let (j, faults) = judged(&c, &own_words(&bad, Ending::Exited(0)));
    assert_eq!((j.verdict, j.score()), (Verdict::WrongOutput, 0.0));
    assert_eq!(faults.ending, Some(EndingFault::NotAsked { code: 0 }));
    assert_eq!(
        j.reason,
        "your program stopped (exit status 0) where the reference asked again for input"
    );
    // Text mode takes that stop as the end of a game (SPEC).
    let mut text = c.clone();
    text.mode = Mode::Text;
    let same = run_like_reference(&bad, Ending::Exited(0), |s| s);
    assert_eq!(judged(&text, &same).1.ending, None);
}

#[test]
fn an_ending_case_stops_where_the_reference_stops_with_its_status() {
    let c = ending_case(EXIT);
    let (j, _) = judged(&c, &own_words(EXIT, Ending::Exited(0)));
    assert_eq!(j.verdict, Verdict::Pass, "{}", j.reason);
    assert_eq!(
        j.reason,
        "your program stopped after input line 2 with exit status 0, as the reference does"
    );
    let (j, faults) = judged(&c, &own_words(EXIT, Ending::WaitingForInput));
    assert_eq!(
        (j.verdict, faults.ending),
        (Verdict::WaitingForInput, Some(EndingFault::Waiting))
    );
    let (j, _) = judged(&c, &own_words(EXIT, Ending::Exited(3)));
    assert_eq!(
        (j.verdict, j.score()),
        (Verdict::ExitStatus, 0.0),
        "{}",
        j.reason
    );
    assert_eq!(
        j.reason,
        "your program exited with status 3 where the reference exits with 0"
    );
    let mut any = c.clone();
    any.exit_status = ExitStatus::Any;
    let (j, _) = judged(&any, &own_words(EXIT, Ending::Exited(3)));
    assert_eq!(j.verdict, Verdict::Pass, "{}", j.reason);
    assert!(
        j.reason
            .contains("this suite does not grade the exit status"),
        "{}",
        j.reason
    );
    // Reading on where the reference stopped: a difference here only.
    let input = ["A14R", "x", "B24R"];
    let on = ending_case(&input);
    let mut run = own_words(&input[..2], Ending::Exited(0));
    run.transcript.push_input("B24R");
    let (j, faults) = judged(&on, &run);
    assert_eq!(
        faults.ending,
        Some(EndingFault::ReadOn {
            read: 3,
            reference: 2
        })
    );
    assert_eq!(
        j.reason,
        "your program went on to read input line 3 where the reference stopped after input line 2"
    );
    let mut text = on.clone();
    text.mode = Mode::Text;
    assert_eq!(judged(&text, &run).1.ending, None);
    // Stopping sooner is the fault it always was.
    let (j, _) = judged(&c, &own_words(&EXIT[..1], Ending::Exited(0)));
    assert!(
        j.reason.contains("stopped after input line 1"),
        "{}",
        j.reason
    );
}

#[test]
fn the_exit_status_is_compared_with_the_references() {
    let c = ending_case(EXIT);
    let mut expected = run_reference(Game::Pentago, &c.input);
    expected.status = 1;
    let setting = Setting {
        case: &c,
        game: Some(Game::Pentago),
        regions: &[],
        graded: &[],
        expected: &expected,
    };
    let unread = Reading::default();
    let judge = |run: &RunResult| whole_game(&setting, || &unread, run);
    assert_eq!(
        judge(&own_words(EXIT, Ending::Exited(1))).0.verdict,
        Verdict::Pass
    );
    let (j, faults) = judge(&own_words(EXIT, Ending::Exited(0)));
    assert_eq!(
        faults.ending,
        Some(EndingFault::Status {
            code: 0,
            early: false,
            reference: 1
        })
    );
    assert_eq!(j.verdict, Verdict::ExitStatus);
    assert_eq!(
        j.reason,
        "your program exited with status 0 where the reference exits with 1"
    );
    assert_eq!(
        judge(&own_words(EXIT, Ending::Exited(2))).0.verdict,
        Verdict::ExitStatus
    );
    // Exiting before the reference's end is more than a status.
    assert_eq!(
        judge(&own_words(&EXIT[..1], Ending::Exited(2))).0.verdict,
        Verdict::Crashed
    );
}

/// A suite's own reference that printed `output` and exited with
/// `status`, judging a program that did the same with `printed`.
fn judged_against(output: &str, status: i32, printed: &str, mode: Mode) -> (Judgement, Faults) {
    let mut c = case(&[], 1.0);
    c.mode = mode;
    judged_as(&c, (output, status), (printed, 1))
}

/// `case` judged where the reference printed `output` and exited with
/// `status`, and the program printed and exited as `run` says.
fn judged_as(case: &Case, (output, status): (&str, i32), run: (&str, i32)) -> (Judgement, Faults) {
    let mut c = case.clone();
    c.exit_status = ExitStatus::Same;
    let mut expected = run_reference(Game::Pentago, &[]);
    expected.transcript = Transcript::new();
    expected.transcript.push_output(output.as_bytes());
    expected.status = status;
    expected.waited_at_end = false;
    let (printed, code) = run;
    let mut run = run_like_reference(&[], Ending::Exited(code), |_| String::new());
    run.transcript = Transcript::new();
    run.transcript.push_output(printed.as_bytes());
    let setting = Setting {
        case: &c,
        game: None,
        regions: &[],
        graded: &[],
        expected: &expected,
    };
    whole_game(&setting, || unreachable!("no game mode here"), &run)
}

const TRACEBACK: &str = "Traceback (most recent call last):\n  \
    File \"/builds/x/greet.py\", line 3, in <module>\n    name = sys.argv[1]\n           \
    ~~~~~~~~^^^\nIndexError: list index out of range\n";

#[test]
fn an_exception_is_a_crash_unless_the_reference_ends_in_one_too() {
    let usage = "Too few command-line arguments\n";
    for mode in [Mode::Ending, Mode::Text] {
        let (j, faults) = judged_against(usage, 1, TRACEBACK, mode);
        assert_eq!((j.verdict, j.score()), (Verdict::Crashed, 0.0), "{mode:?}");
        assert!(
            matches!(faults.ending, Some(EndingFault::Exception(e)) if e.line == Some(3)),
            "{faults:?}"
        );
        assert_eq!(
            j.reason,
            "your program crashed: an uncaught IndexError at line 3 of greet.py"
        );
    }
    // Exiting with 1 on purpose, in its own words: as before.
    let (j, _) = judged_against(usage, 1, "Usage: greet.py NAME\n", Mode::Ending);
    assert_eq!(j.verdict, Verdict::Pass, "{}", j.reason);
    // A reference that dies of the same: the status is what is judged.
    let (j, faults) = judged_against(TRACEBACK, 1, TRACEBACK, Mode::Ending);
    assert_eq!((j.verdict, faults.ending), (Verdict::Pass, None));
}

#[test]
fn a_status_alone_is_said_with_both_statuses() {
    let usage = "Too few command-line arguments\n";
    let mut c = case(&[], 1.0);
    c.mode = Mode::Text;
    let (j, faults) = judged_as(&c, (usage, 1), (usage, 0));
    assert_eq!((j.verdict, j.score()), (Verdict::ExitStatus, 0.0));
    assert_eq!(faults.play, None);
    assert_eq!(
        j.reason,
        "your program printed what the reference prints, but it exited with status 0 where the \
         reference exits with 1"
    );
    // With the text wrong too, the status is not the only difference.
    let (j, _) = judged_as(&c, (usage, 1), ("Usage: x\n", 0));
    assert_eq!(j.verdict, Verdict::WrongOutput, "{}", j.reason);
}

#[test]
fn ending_points_split_a_text_case_between_its_output_and_its_ending() {
    let usage = "Too few command-line arguments\n";
    let mut c = case(&[], 1.0);
    c.mode = Mode::Text;
    c.ending_points = 0.25;
    let earned = |printed: &str, code: i32| {
        let (j, _) = judged_as(&c, (usage, 1), (printed, code));
        (j.verdict, j.score())
    };
    assert_eq!(earned(usage, 1), (Verdict::Pass, 1.0));
    assert_eq!(earned(usage, 0), (Verdict::ExitStatus, 0.75));
    assert_eq!(earned("Usage: x\n", 1), (Verdict::WrongOutput, 0.25));
    assert_eq!(earned("Usage: x\n", 0), (Verdict::WrongOutput, 0.0));
    let (j, _) = judged_as(&c, (usage, 1), (usage, 0));
    assert!(
        j.reason.ends_with(": 0.25 of 1 points are for how it ends"),
        "{}",
        j.reason
    );
    // A traceback is a crash: the ending earns nothing, nor the text.
    assert_eq!(earned(TRACEBACK, 1), (Verdict::Crashed, 0.0));
}

/// A text case judged where the reference printed `want` (stdout,
/// stderr) and the program `got`, both exiting with 1.
fn judged_streams(case: &Case, want: (&str, &str), got: (&str, &str)) -> (Judgement, Faults) {
    let mut expected = run_reference(Game::Pentago, &[]);
    expected.transcript = Transcript::new();
    expected.transcript.push_output(want.0.as_bytes());
    expected.transcript.push_errors(want.1.as_bytes());
    (expected.status, expected.waited_at_end) = (1, false);
    let mut run = run_like_reference(&[], Ending::Exited(1), |_| String::new());
    run.transcript = Transcript::new();
    run.transcript.push_output(got.0.as_bytes());
    run.transcript.push_errors(got.1.as_bytes());
    let setting = Setting {
        case,
        game: None,
        regions: &[],
        graded: &[],
        expected: &expected,
    };
    whole_game(&setting, || unreachable!("no game mode here"), &run)
}

#[test]
fn stderr_apart_is_compared_on_its_own_under_its_own_options_or_not_at_all() {
    use crate::case::Stderr;
    let mut c = case(&[], 1.0);
    c.mode = Mode::Text;
    c.compare = Options::default();
    c.stderr = Stderr::Apart;
    let want = ("Cleaning\n", "Usage: x\n");
    let verdict = |c: &Case, got| {
        let (j, faults) = judged_streams(c, want, got);
        (j.verdict, j.reason, faults.play)
    };
    let words = "your program's error output differs from the reference's".to_string();
    let errors = Some(PlayFault::Errors);
    assert_eq!(
        verdict(&c, ("Cleaning\n", "usage:  X\n")),
        (Verdict::WrongOutput, words.clone(), errors.clone())
    );
    // Its own options: the case's `compare` is exact.
    c.stderr_compare = Options::default()
        .relax("case")
        .and_then(|o| o.relax("whitespace-runs"))
        .unwrap();
    assert_eq!(verdict(&c, ("Cleaning\n", "usage:  X\n")).0, Verdict::Pass);
    // The stdout differing too is said first.
    let both = verdict(&c, ("cleaning\n", "Oops\n"));
    assert_eq!(
        (both.0, both.2),
        (Verdict::WrongOutput, Some(PlayFault::Text))
    );
    // Ignored: only stdout counts.
    c.stderr = Stderr::Ignored;
    assert_eq!(verdict(&c, ("Cleaning\n", "debug\n")).0, Verdict::Pass);
    assert_eq!(
        verdict(&c, ("cleaning\n", "Usage: x\n")).0,
        Verdict::WrongOutput
    );
    // Only: stdout is not graded, stderr is.
    c.stderr = Stderr::Only;
    c.stderr_compare = Options::default();
    assert_eq!(verdict(&c, ("anything\n", "Usage: x\n")).0, Verdict::Pass);
    assert_eq!(
        verdict(&c, ("Cleaning\n", "Usage: y\n")),
        (Verdict::WrongOutput, words, errors)
    );
}
