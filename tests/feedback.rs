//! What people read, as snapshots: for a few representative programs, the
//! explanation `referee check` prints in the terminal, and the Markdown and
//! HTML feedback `referee grade` writes for the student. The snapshots are
//! in `tests/snapshots/`, reviewed by a person when they change (the
//! CONTRIBUTING.md's "Snapshots" says how); what changes from run to run
//! (times, temporary paths) is redacted.
//!
//! The scenarios: a pass, a wrong move, a format-only difference, a
//! crash, a function case of connect4-bomb, each on a case or two copied
//! from the shipped suites and made public; other prompts, a number
//! beyond its tolerance and a program that stops where it should ask
//! again, on cases of `tests/fixtures/comparisons`; a program whose only
//! difference is its exit status, and three whose only difference is
//! in the file they write (a space before each name, a missing row, CR
//! LF line endings), on `tests/fixtures/scourgify`; and for
//! the terminal,
//! five Connect Four programs with one bug each on the shipped public
//! cases.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;

/// One program graded on a few cases of a game's shipped suite.
struct Scenario {
    /// The snapshots' name.
    name: &'static str,
    /// The built-in game, or `None` for a suite with its own reference.
    game: Option<&'static str>,
    /// Under `tests/`.
    program: &'static str,
    cases: &'static [&'static str],
    /// The folder the cases are in, under `tests/`; `None` for the
    /// game's shipped suite.
    folder: Option<&'static str>,
}

const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "pass",
        game: Some("connect4"),
        program: "fixtures/connect4/correct.c",
        cases: &["seed-example-1"],
        folder: None,
    },
    Scenario {
        name: "wrong-move",
        game: Some("pentago"),
        program: "fixtures/pentago/bugs/rotation-direction-swapped.c",
        cases: &["rotate-quadrant-1-left"],
        folder: None,
    },
    Scenario {
        name: "format-only",
        game: Some("pentago"),
        program: "fixtures/pentago/formats/correct-terse.c",
        cases: &["display-board-exact", "rotate-quadrant-1-left"],
        folder: None,
    },
    Scenario {
        name: "crash",
        game: Some("connect4"),
        program: "programs/segfault-after-first-move.c",
        cases: &["seed-example-1"],
        folder: None,
    },
    Scenario {
        name: "function-call",
        game: Some("connect4-bomb"),
        program: "fixtures/connect4-bomb/bugs/drop-piece-zero-based-row.py",
        cases: &["drop-piece-handout-example", "board-full-empty-board"],
        folder: None,
    },
    Scenario {
        name: "prompts",
        game: Some("connect4"),
        program: "programs/connect4-own-words.c",
        cases: &["prompts-after-a-refusal", "prompts"],
        folder: Some("fixtures/comparisons"),
    },
    Scenario {
        name: "numbers",
        game: Some("connect4"),
        program: "programs/connect4-range-off.c",
        cases: &["numbers"],
        folder: Some("fixtures/comparisons"),
    },
    Scenario {
        name: "ending",
        game: Some("connect4"),
        program: "programs/connect4-stops-on-bad-column.py",
        cases: &["rejects-a-column-that-does-not-exist"],
        folder: Some("fixtures/comparisons"),
    },
    Scenario {
        name: "exit-status",
        game: None,
        program: "fixtures/scourgify-class/exits-zero.py",
        cases: &["too-few"],
        folder: Some("fixtures/scourgify"),
    },
    Scenario {
        name: "file-leading-space",
        game: None,
        program: "programs/scourgify-leading-space.py",
        cases: &["cleans"],
        folder: Some("fixtures/scourgify"),
    },
    Scenario {
        name: "file-missing-row",
        game: None,
        program: "programs/scourgify-missing-row.py",
        cases: &["cleans"],
        folder: Some("fixtures/scourgify"),
    },
    Scenario {
        name: "file-crlf",
        game: None,
        program: "programs/scourgify-crlf.py",
        cases: &["cleans"],
        folder: Some("fixtures/scourgify"),
    },
];

/// The scenario's cases in `work`, every one public (a student's
/// feedback shows a public case in full).
fn cases(scenario: &Scenario, work: &Path) -> PathBuf {
    let dir = match (scenario.folder, scenario.game) {
        (None, Some(game)) => small_suite(game, work, scenario.cases),
        (None, None) => panic!("{}: a scenario names a game or a folder", scenario.name),
        (Some(folder), _) => {
            let (from, to) = (test_file(folder), work.join("cases"));
            fs::create_dir_all(&to).unwrap();
            for name in scenario.cases.iter().copied().chain(["suite"]) {
                let file = format!("{name}.yaml");
                fs::copy(from.join(&file), to.join(&file)).unwrap();
            }
            // A suite's own reference and the files its cases give.
            copy_all_but_cases(&from, &to);
            to
        }
    };
    let yaml = dir.join("suite.yaml");
    let suite = fs::read_to_string(&yaml)
        .unwrap()
        .replace("visibility: hidden", "visibility: public");
    fs::write(&yaml, suite).unwrap();
    for case in scenario.cases {
        let file = dir.join(format!("{case}.yaml"));
        let text = fs::read_to_string(&file)
            .unwrap()
            .replace("visibility: hidden", "visibility: public");
        fs::write(&file, text).unwrap();
    }
    dir
}

/// Copies what `from` holds besides its cases and pins (a reference
/// program, a folder of data) into `to`.
fn copy_all_but_cases(from: &Path, to: &Path) {
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        let is_case = path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "transcript");
        if path.is_dir() {
            fs::create_dir_all(to.join(name)).unwrap();
            copy_all_but_cases(&path, &to.join(name));
        } else if !is_case {
            fs::copy(&path, to.join(name)).unwrap();
        }
    }
}

/// Runs of what differs from machine to machine or run to run, and what
/// they become in a snapshot.
fn redactions(work: &Path) -> Vec<(String, String)> {
    let work = regex::escape(&work.display().to_string());
    vec![
        (work, "[work]".into()),
        (
            regex::escape(&root().display().to_string()),
            "[repo]".into(),
        ),
        // Durations: `0.42 s`, `12 ms`, `1.5s`.
        (r"\b\d+(\.\d+)? ?(ms|s)\b".into(), "[time]".into()),
        (r"referee \d+\.\d+\.\d+".into(), "referee [version]".into()),
        // The pages' style sheet: the same for every page, and not text
        // a student reads.
        (
            r"(?s)<style>.*?</style>".into(),
            "<style>[css]</style>".into(),
        ),
    ]
}

/// Asserts `text` is the snapshot `name`, redacted.
fn assert_snapshot(name: &str, text: &str, work: &Path) {
    let filters = redactions(work);
    let filters: Vec<(&str, &str)> = filters
        .iter()
        .map(|(from, to)| (from.as_str(), to.as_str()))
        .collect();
    insta::with_settings!({ filters => filters, prepend_module_to_snapshot => true }, {
        insta::assert_snapshot!(name, text);
    });
}

/// What `referee check` prints for each scenario.
#[test]
fn the_terminal_explanation() {
    for scenario in SCENARIOS {
        let work = tempfile::tempdir().unwrap();
        let cases = cases(scenario, work.path());
        let program = test_file(scenario.program);
        let out = referee_in(
            work.path(),
            &[
                "check",
                program.to_str().unwrap(),
                "--cases",
                cases.to_str().unwrap(),
            ],
        );
        let expected_code = if scenario.name == "pass" { 0 } else { 1 };
        assert_eq!(
            out.status.code(),
            Some(expected_code),
            "{}:\n{}{}",
            scenario.name,
            stdout(&out),
            stderr(&out)
        );
        assert_snapshot(
            &format!("check-{}", scenario.name),
            &stdout(&out),
            work.path(),
        );
    }
}

/// What `referee check` keeps of a failed file case for the student:
/// the transcripts, the file the case gave (`given/`) and both programs'
/// output files, byte for byte as each wrote it (the program's CR LF
/// kept); and what a later, passing check leaves of them: nothing stale.
#[test]
fn check_saves_the_files_of_a_failed_case() {
    let scenario = SCENARIOS
        .iter()
        .find(|s| s.name == "file-crlf")
        .expect("the CR LF scenario");
    let work = tempfile::tempdir().unwrap();
    let cases = cases(scenario, work.path());
    let program = test_file(scenario.program);
    let check = |program: &Path| {
        referee_in(
            work.path(),
            &[
                "check",
                program.to_str().unwrap(),
                "--cases",
                cases.to_str().unwrap(),
            ],
        )
    };
    let out = check(&program);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("are in referee-check/cleans; beside them given/"),
        "{}",
        stdout(&out)
    );
    let saved = work.path().join("referee-check/cleans");
    let mut found: Vec<String> = walk(&saved)
        .iter()
        .map(|p| p.strip_prefix(&saved).unwrap().display().to_string())
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "actual-files/after.csv",
            "expected-files/after.csv",
            "expected.txt",
            "given/before.csv",
            "yours.txt"
        ]
    );
    let read = |name: &str| fs::read(saved.join(name)).unwrap();
    let before = fs::read(test_file("fixtures/scourgify/data/before.csv")).unwrap();
    assert_eq!(read("given/before.csv"), before);
    let theirs = read("expected-files/after.csv");
    assert!(theirs.starts_with(b"first,last,house\nHannah,Abbott,Hufflepuff\n"));
    let yours = read("actual-files/after.csv");
    assert_eq!(
        yours,
        String::from_utf8(theirs)
            .unwrap()
            .replace('\n', "\r\n")
            .into_bytes()
    );
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// What `referee check` prints for Connect Four programs with one bug
/// each, on the shipped public cases: the verdict, the input just before
/// the first difference, both versions of the line (invisible
/// differences made visible) and the diff.
#[test]
fn the_terminal_explanation_of_one_bug() {
    for file in [
        "tie-with-exclamation",
        "final-board-no-trailing-space",
        "prompt-says-0-6",
        "prompt-no-trailing-space",
        "missed-diagonal",
    ] {
        let work = tempfile::tempdir().unwrap();
        let program = test_file(&format!("fixtures/connect4/bugs/{file}.c"));
        let out = referee_in(work.path(), &["check", program.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{file}:\n{}", stdout(&out));
        assert_snapshot(
            &format!("check-connect4-{file}"),
            &stdout(&out),
            work.path(),
        );
    }
}

/// The Markdown and HTML feedback `referee grade` writes for the student
/// of each scenario.
#[test]
fn the_feedback_files() {
    for scenario in SCENARIOS {
        let work = tempfile::tempdir().unwrap();
        let cases = cases(scenario, work.path());
        let program = test_file(scenario.program);
        let extension = program.extension().unwrap().to_str().unwrap();
        let student = work.path().join(format!("student.{extension}"));
        fs::copy(&program, &student).unwrap();
        let out_dir = work.path().join("out");
        let mut args = vec!["grade"];
        if let Some(game) = scenario.game {
            args.extend(["--game", game]);
        }
        args.extend([
            "--cases",
            cases.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            student.to_str().unwrap(),
        ]);
        let out = referee_in(work.path(), &args);
        assert!(
            out.status.success(),
            "{}:\n{}{}",
            scenario.name,
            stdout(&out),
            stderr(&out)
        );
        for format in ["md", "html"] {
            let page = fs::read_to_string(out_dir.join(format!("feedback/student.{format}")))
                .unwrap_or_else(|e| panic!("{}: feedback/student.{format}: {e}", scenario.name));
            assert_snapshot(&format!("{format}-{}", scenario.name), &page, work.path());
        }
    }
}

/// Where a program breaks, as each reader is told it: `check`'s lines
/// after the cases, the student's Markdown and page (the hidden case
/// unnamed, its input and the tool's message withheld), and the TA's
/// class page (every student with one, full marks or not, the hidden
/// case named). The diagnoses are made by hand (see
/// `common::diagnosed`): grading does not find them yet.
#[test]
fn diagnoses_as_each_reader_sees_them() {
    use referee::export::{html, markdown, view};
    let class = common::diagnosed::class();
    let ada = &class.submissions[0];
    let nowhere = Path::new("/no-work-folder");
    let hidden = view::hidden_from_student(&class.suite, ada);
    let check = referee::explain::diagnoses::for_terminal(
        &ada.diagnostics,
        &hidden,
        &referee::explain::Style::PLAIN,
    );
    let md = markdown::feedback(&class, ada);
    let page = html::feedback(&class, ada);
    let said = |text: &str| {
        // From its heading to the end of its card (the page's table of
        // cases, after it, names the hidden case).
        let from = text.find("Where your program breaks").unwrap_or(0);
        let rest = &text[from..];
        rest[..rest.find("</section>").unwrap_or(rest.len())].to_string()
    };
    for (name, text) in [
        ("check", said(&check)),
        ("md", said(&md)),
        ("html", said(&page)),
    ] {
        // The hidden case's name and input, and the message that quotes
        // it, are only the TA's to see.
        for secret in ["SECRET", "win-diagonal", "input line 12"] {
            assert!(!text.contains(secret), "{name} shows {secret}:\n{text}");
        }
        assert!(
            text.contains("in a hidden case") || text.contains("In a hidden case"),
            "{name}:\n{text}"
        );
        assert!(text.contains("win-row"), "{name}:\n{text}");
        assert!(text.contains("after input line 7"), "{name}:\n{text}");
        assert!(text.contains("compiler warned"), "{name}:\n{text}");
    }
    assert_snapshot("check-diagnoses", &check, nowhere);
    assert_snapshot("md-diagnoses", &md, nowhere);
    assert_snapshot("html-diagnoses", &page, nowhere);
    // The class page is made from compact results, as `grade` makes it.
    let mut compact = class.clone();
    compact.submissions = class.submissions.iter().map(|s| s.compact()).collect();
    let names = view::file_names(&compact);
    let index = html::index(&compact, &names);
    assert!(
        index.contains("win-diagonal`, after input line 12 (`SECRET-input`)"),
        "{index}"
    );
    assert_snapshot("class-diagnoses", &index, nowhere);
}
