//! `referee check`: a student's program against cases, each verdict with
//! its explanation.

mod common;

use std::fs;
use std::path::Path;

use common::*;

fn check(args: &[&str]) -> std::process::Output {
    let work = tempfile::tempdir().unwrap();
    referee_in(work.path(), args)
}

#[test]
fn a_correct_program_passes_every_public_case() {
    let program = test_file("fixtures/connect4/correct.c");
    let out = check(&["check", program.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    for case in ["seed-example-1", "seed-example-2", "seed-example-3"] {
        assert!(
            text.lines()
                .any(|l| l.contains(case) && l.contains("✓") && l.ends_with("pass")),
            "{case} did not pass:\n{text}"
        );
    }
    assert!(text.contains("Every case passes."), "{text}");
}

fn connect4_suite(case_extra: &str) -> tempfile::TempDir {
    suite(
        "connect4",
        "",
        &[(
            "one-move",
            &format!("visibility: public\ninput: |\n  0\n  1\n{case_extra}"),
        )],
    )
}

#[test]
fn an_endless_loop_times_out_and_keeps_what_it_printed() {
    let cases = connect4_suite("timeout: 1s\ncpu: 1s\n");
    let program = test_file("programs/loops-after-first-move.c");
    let out = check(&[
        "check",
        program.to_str().unwrap(),
        "--cases",
        cases.path().to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("one-move") && text.contains("timed out"),
        "{text}"
    );
    assert!(text.contains("was stopped"), "{text}");
    assert!(
        text.contains("Thinking about column 0..."),
        "output before the loop is lost:\n{text}"
    );
}

#[test]
fn a_flood_hits_the_output_limit() {
    let cases = connect4_suite("output_limit: 64KiB\n");
    let program = test_file("programs/flood.c");
    let out = check(&[
        "check",
        program.to_str().unwrap(),
        "--cases",
        cases.path().to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("too much output"), "{text}");
    assert!(text.contains("printed more than 64 KiB"), "{text}");
}

#[test]
fn reading_past_the_input_is_its_own_verdict() {
    let program = test_file("programs/asks-to-play-again.c");
    let out = check(&["check", program.to_str().unwrap(), "--game", "connect4"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("still waiting for input"), "{text}");
    assert!(
        text.contains("Your program was still waiting for input when the case's input ran out."),
        "{text}"
    );
    assert!(text.contains("Play again? (y/n)"), "{text}");
}

#[test]
fn a_compile_error_shows_the_compilers_message() {
    let program = test_file("programs/does-not-compile.c");
    // A temporary folder of its own: what referee makes there while the
    // compiler runs (the slots its cases would have run in) is gone when
    // it ends, even though no case ran.
    let tmp = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let out = referee_with(
        work.path(),
        &["check", program.to_str().unwrap(), "--game", "connect4"],
        &[("TMPDIR", tmp.path().to_str().unwrap())],
    );
    let left: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("does not compile"), "{text}");
    assert!(
        text.contains("does-not-compile.c:"),
        "the compiler names the file:\n{text}"
    );
    assert!(text.contains("expected ';'"), "{text}");
}

#[test]
fn a_python_syntax_error_is_a_compile_error_with_pythons_message() {
    let program = test_file("programs/does-not-parse.py");
    let out = check(&[
        "check",
        program.to_str().unwrap(),
        "--game",
        "connect4-bomb",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("does not compile"), "{text}");
    assert!(
        text.contains("does-not-parse.py:4:"),
        "Python names the file and line:\n{text}"
    );
    assert!(text.contains("SyntaxError"), "{text}");
    assert!(text.contains("def drop_piece(board, col:"), "{text}");
    assert!(!text.contains("must not be printed"), "{text}");
}

/// A copy of a game's suite without its function-level cases, which call
/// Python functions and so have no meaning for an executable.
fn game_cases_only(game: &str, into: &std::path::Path) -> std::path::PathBuf {
    let from = root().join("cases").join(game);
    let to = into.join(format!("cases-{game}"));
    fs::create_dir_all(&to).unwrap();
    for entry in fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        let is_call = path.extension().is_some_and(|e| e == "yaml") && text.contains("\ncall:");
        if !is_call {
            fs::write(to.join(path.file_name().unwrap()), text).unwrap();
        }
    }
    to
}

/// `referee play` run as a submission, through the same runner, passes
/// every whole-game case of every suite, hidden ones included.
#[test]
fn the_reference_through_the_runner_passes_every_case() {
    let work = tempfile::tempdir().unwrap();
    for game in ["connect4", "connect4-bomb", "pentago"] {
        let wrapper = work.path().join(format!("play-{game}"));
        fs::write(
            &wrapper,
            format!(
                "#!/bin/sh\nexec '{}' play {game}\n",
                env!("CARGO_BIN_EXE_referee")
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
        let cases = game_cases_only(game, work.path());
        // The sandbox lets a program read only its own folder: allow the
        // referee binary the wrapper starts.
        let binary_dir = std::path::Path::new(env!("CARGO_BIN_EXE_referee"))
            .parent()
            .unwrap();
        let out = referee_with(
            work.path(),
            &[
                "check",
                wrapper.to_str().unwrap(),
                "--all",
                "--cases",
                cases.to_str().unwrap(),
            ],
            &[("REFEREE_ALLOW_READ", binary_dir.to_str().unwrap())],
        );
        assert!(
            out.status.success(),
            "{game}:\n{}{}",
            stdout(&out),
            stderr(&out)
        );
    }
}

#[test]
fn failures_keep_the_whole_transcripts_in_files() {
    let work = tempfile::tempdir().unwrap();
    let program = test_file("fixtures/connect4/bugs/tie-with-exclamation.c");
    let out = referee_in(work.path(), &["check", program.to_str().unwrap()]);
    assert!(
        stdout(&out).contains("referee-check/seed-example-3"),
        "{}",
        stdout(&out)
    );
    let dir = work.path().join("referee-check/seed-example-3");
    let expected = fs::read_to_string(dir.join("expected.txt")).unwrap();
    let yours = fs::read_to_string(dir.join("yours.txt")).unwrap();
    let pinned =
        fs::read_to_string(root().join("cases/connect4/seed-example-3.transcript")).unwrap();
    // The pin is the same terminal, then where each line was typed.
    let (terminal, typed) = pinned.trim_end().rsplit_once('\n').unwrap();
    assert!(typed.starts_with("⟨typed: "), "{typed}");
    assert_eq!(expected, format!("{terminal}\n"));
    assert!(yours.contains("It's a tie!\nFinal board: \n"));
}

/// Every failed case keeps its transcripts, not only the one explained:
/// a student fixing the first can read what the others printed.
#[test]
fn every_failed_case_keeps_its_transcripts() {
    let work = tempfile::tempdir().unwrap();
    let program = test_file("fixtures/connect4/bugs/board-upside-down.c");
    let out = referee_in(work.path(), &["check", program.to_str().unwrap()]);
    let said = stdout(&out);
    assert!(said.contains("3 of 3 cases failed"), "{said}");
    assert!(
        said.contains(
            "The other failed cases' transcripts are in referee-check/: \
             seed-example-2, seed-example-3"
        ),
        "{said}"
    );
    for case in ["seed-example-1", "seed-example-2", "seed-example-3"] {
        let dir = work.path().join("referee-check").join(case);
        let expected = fs::read_to_string(dir.join("expected.txt")).unwrap();
        let yours = fs::read_to_string(dir.join("yours.txt")).unwrap();
        assert_ne!(expected, yours, "{case}");
    }
    // A program that passes a case keeps nothing of it.
    let one_wrong = test_file("fixtures/connect4/bugs/tie-with-exclamation.c");
    let out = referee_in(work.path(), &["check", one_wrong.to_str().unwrap()]);
    assert!(
        !stdout(&out).contains("The other failed cases"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn colour_only_on_request_when_output_is_a_pipe() {
    let program = test_file("fixtures/connect4/bugs/tie-with-exclamation.c");
    let plain = check(&["check", program.to_str().unwrap()]);
    assert!(!stdout(&plain).contains('\x1b'), "escape codes in a pipe");
    let coloured = check(&["check", program.to_str().unwrap(), "--color", "always"]);
    assert!(
        stdout(&coloured).contains("\x1b[31m"),
        "{}",
        stdout(&coloured)
    );
}

#[test]
fn bad_arguments_are_explained() {
    let out = check(&["check", "/no/such/lab6.c"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no such file"), "{}", stderr(&out));
    let work = tempfile::tempdir().unwrap();
    let unknown = work.path().join("main.c");
    fs::write(&unknown, "int main(void) { return 0; }\n").unwrap();
    let out = check(&["check", unknown.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--game"), "{}", stderr(&out));
    let program = test_file("fixtures/connect4/correct.c");
    let pentago = root().join("cases/pentago");
    let out = check(&[
        "check",
        program.to_str().unwrap(),
        "--game",
        "connect4",
        "--cases",
        pentago.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("are for pentago"), "{}", stderr(&out));
}

#[test]
fn a_broken_case_folder_is_refused_before_anything_is_graded() {
    let cases = suite(
        "connect4",
        "",
        &[
            ("good", "visibility: public\ninput: |\n  0\n"),
            ("broken", "visibility: public\ninput: |\n  0\ntimout: 2s\n"),
            ("tabbed", "visibility: public\ninput: |\n\t0\n"),
        ],
    );
    let program = test_file("fixtures/connect4/correct.c");
    let dir = cases.path().to_str().unwrap();
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let results = work.path().join("gradescope.json");
    let runs = [
        check(&["check", program.to_str().unwrap(), "--cases", dir]),
        referee_in(
            work.path(),
            &[
                "grade",
                "--game",
                "connect4",
                "--cases",
                dir,
                "--out",
                out.to_str().unwrap(),
                program.to_str().unwrap(),
            ],
        ),
        referee_in(
            work.path(),
            &[
                "gradescope",
                "--cases",
                dir,
                "--submission",
                program.to_str().unwrap(),
                "--results",
                results.to_str().unwrap(),
            ],
        ),
    ];
    for run in &runs {
        assert_eq!(run.status.code(), Some(2), "{}{}", stdout(run), stderr(run));
        let err = stderr(run);
        // Every problem, with its file, line and column, in words.
        assert!(
            err.contains("broken.yaml:4:1") && err.contains("timout"),
            "{err}"
        );
        assert!(
            err.contains("tabbed.yaml:3:1") && err.contains("a tab character"),
            "{err}"
        );
        assert!(err.contains("2 broken case files"), "{err}");
        assert!(!stdout(run).contains("good"), "nothing was graded");
    }
    assert!(!out.join("results.json").exists(), "no reports for grade");
}

/// Where waiting cannot be detected, input is typed all at once, the user
/// is told once, and grading still works on output.
#[test]
fn without_wait_detection_input_is_typed_at_once_and_said_once() {
    let work = tempfile::tempdir().unwrap();
    let program = test_file("fixtures/connect4/correct.c");
    let out = referee_with(
        work.path(),
        &["check", program.to_str().unwrap()],
        &[("REFEREE_DETECT", "none")],
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let err = stderr(&out);
    assert_eq!(
        err.matches("cannot tell when a program waits for input")
            .count(),
        1,
        "{err}"
    );
}

/// The /proc fallback grades like the seccomp notifications do.
#[test]
fn the_proc_fallback_grades_the_same() {
    let work = tempfile::tempdir().unwrap();
    for (program, expect_pass) in [
        ("fixtures/connect4/correct.c", true),
        ("fixtures/connect4/bugs/missed-diagonal.c", false),
        ("fixtures/connect4-bomb/correct.py", true),
    ] {
        let path = test_file(program);
        let out = referee_with(
            work.path(),
            &["check", path.to_str().unwrap()],
            &[("REFEREE_DETECT", "proc")],
        );
        assert_eq!(
            out.status.success(),
            expect_pass,
            "{program}:\n{}{}",
            stdout(&out),
            stderr(&out)
        );
        if !expect_pass {
            assert!(
                stdout(&out).contains("still waiting for input"),
                "{}",
                stdout(&out)
            );
        }
    }
}

#[test]
fn a_memory_bomb_runs_out_of_memory() {
    for (program, game, memory) in [
        ("programs/memory-bomb.c", "connect4", "64MiB"),
        ("programs/memory-bomb.py", "connect4-bomb", "128MiB"),
    ] {
        let cases = suite(
            game,
            "",
            &[(
                "one",
                &format!("visibility: public\ninput: |\n  0\nmemory: {memory}\n"),
            )],
        );
        let program = test_file(program);
        let out = check(&[
            "check",
            program.to_str().unwrap(),
            "--cases",
            cases.path().to_str().unwrap(),
        ]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(text.contains("out of memory"), "{program:?}:\n{text}");
        assert!(text.contains("Allocating..."), "{text}");
    }
}

/// A function-level case calls one function of a Python file without
/// running its main block, with module-level statements stripped first.
#[test]
fn function_cases_judge_return_values_boards_and_stripped_globals() {
    let cases = [
        ("fixtures/connect4-bomb/correct.py", None),
        // drop-piece-zero-based-row.py (a wrong return value) is in the
        // snapshots of tests/feedback.rs, its boards shown.
        (
            "fixtures/connect4-bomb/bugs/global-empty-constant.py",
            Some("drop_piece(board, 4, 1) raised NameError: name 'EMPTY' is not defined"),
        ),
    ];
    for (file, failure) in cases {
        let program = test_file(file);
        let out = check(&["check", program.to_str().unwrap()]);
        let text = stdout(&out);
        match failure {
            None => assert!(out.status.success(), "{file}:\n{text}{}", stderr(&out)),
            Some(sentence) => {
                assert_eq!(out.status.code(), Some(1), "{file}:\n{text}");
                assert!(
                    text.contains(sentence),
                    "{file}: missing `{sentence}`:\n{text}"
                );
                assert!(
                    text.contains("reference after"),
                    "{file}: no boards:\n{text}"
                );
            }
        }
    }
}

#[test]
fn a_recorded_case_keeps_the_lines_the_game_read() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("my-cases");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "cases",
            "record",
            "pentago",
            "--name",
            "two-moves",
            "--public",
            "--points",
            "2",
        ])
        .args(["--cases", dir.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    // Lines after the exit are never read by the game, so not recorded.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"c31r\n  b 2 1 l\nx\nnever read\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let yaml = fs::read_to_string(dir.join("two-moves.yaml")).unwrap();
    assert!(
        yaml.contains("\"  b 2 1 l\"") && !yaml.contains("never read"),
        "{yaml}"
    );
    assert!(
        yaml.contains("points: 2") && yaml.contains("visibility: public"),
        "{yaml}"
    );
    let pinned = fs::read_to_string(dir.join("two-moves.transcript")).unwrap();
    assert!(
        pinned.contains("2. Enter row, column, quadrant, direction for O:   b 2 1 l\n"),
        "{pinned}"
    );
    let validate = referee_in(work.path(), &["cases", "validate", dir.to_str().unwrap()]);
    assert!(validate.status.success(), "{}", stdout(&validate));
    // Recording the same name again is refused without --force.
    let again = referee_in(
        work.path(),
        &[
            "cases",
            "record",
            "pentago",
            "--name",
            "two-moves",
            "--cases",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("--force"));
}

/// Gradescope asks whose fault an ungradable submission is: a folder with
/// no program is the student's (a 0 with the reason, exit 0); a program
/// whose game referee cannot tell is the setup's (the student is told to
/// ask the instructor, and referee exits 2).
#[test]
fn gradescope_tells_the_students_mistake_from_the_graders() {
    let work = tempfile::tempdir().unwrap();
    let empty = work.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let unknown = work.path().join("unknown");
    fs::create_dir(&unknown).unwrap();
    fs::write(unknown.join("main.c"), "int main(void) { return 0; }\n").unwrap();
    let gradescope = |submission: &Path, name: &str| {
        let results = work.path().join(format!("{name}.json"));
        let run = referee_in(
            work.path(),
            &[
                "gradescope",
                "--submission",
                submission.to_str().unwrap(),
                "--results",
                results.to_str().unwrap(),
            ],
        );
        let text = fs::read_to_string(&results).expect("results.json is always written");
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        (run, doc["output"].as_str().unwrap_or_default().to_string())
    };
    let (run, output) = gradescope(&empty, "empty");
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(output.contains("no program in this folder"), "{output}");
    assert!(!output.contains("tell your instructor"), "{output}");
    let (run, output) = gradescope(&unknown, "unknown");
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(
        output.contains("the autograder could not run (cannot tell which game")
            && output.contains("Please tell your instructor."),
        "{output}"
    );
    assert!(
        stderr(&run).starts_with("referee: cannot tell which game"),
        "{}",
        stderr(&run)
    );
}
