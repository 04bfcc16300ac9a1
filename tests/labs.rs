//! A term's other labs (issue 37): programs given command-line
//! arguments, reading files and writing them, graded on what they write,
//! linked with a course's own library; and white space that does not
//! count at all. Every program is compiled and run for real.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    test_file(&format!("fixtures/{name}"))
}

/// Writes `files` (name, text) into `dir`, making folders as needed.
fn write_all(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
}

/// Pins every case of `suite` with its reference, as an instructor does.
fn pin(work: &Path, suite: &Path) {
    referee_in(work, &["cases", "update", suite.to_str().unwrap()]);
    let done = referee_in(
        work,
        &["cases", "update", "--accept", suite.to_str().unwrap()],
    );
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}{}",
        stdout(&done),
        stderr(&done)
    );
}

fn grade(work: &Path, suite: &Path, class: &Path) -> Value {
    let out = work.join("out");
    let done = referee_in(
        work,
        &[
            "grade",
            "--cases",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            class.to_str().unwrap(),
        ],
    );
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    serde_json::from_slice(&fs::read(out.join("results.json")).unwrap()).unwrap()
}

/// Each student's cases that did not pass, with their verdicts, and
/// their score.
fn failures(results: &Value) -> Vec<(String, f64, Vec<String>)> {
    let mut all: Vec<(String, f64, Vec<String>)> = results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let failed = s["cases"]
                .as_array()
                .map(|cases| {
                    cases
                        .iter()
                        .filter(|c| c["verdict"] != "pass")
                        .map(|c| {
                            format!(
                                "{}: {}",
                                c["name"].as_str().unwrap(),
                                c["verdict"].as_str().unwrap()
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            (
                s["id"].as_str().unwrap().to_string(),
                s["score"].as_f64().unwrap_or(-1.0),
                failed,
            )
        })
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

/// The Caesar lab: `./caesar KEY`, run with no, one, two and a
/// non-numeric argument, and one holding a space.
fn caesar_suite(work: &Path) -> PathBuf {
    let suite = work.join("caesar-lab");
    fs::create_dir_all(&suite).unwrap();
    fs::copy(fixture("caesar/caesar.c"), suite.join("caesar.c")).unwrap();
    write_all(
        &suite,
        &[
            (
                "suite.yaml",
                "reference: caesar.c\nname: caesar\ndefaults:\n  visibility: public\n  \
                 timeout: 5s\n",
            ),
            ("no-key.yaml", "description: Run without a key.\nargs: []\n"),
            (
                "key-13.yaml",
                "args: [\"13\"]\ninput: [\"Hello, world!\"]\n",
            ),
            ("two-keys.yaml", "args: [\"1\", \"2\"]\ninput: [abc]\n"),
            ("not-a-number.yaml", "args: [abc]\ninput: [abc]\n"),
            ("spaced.yaml", "args: [\"2 6\"]\ninput: [abc]\n"),
        ],
    );
    suite
}

#[test]
fn arguments_reach_the_program_as_written_and_the_exit_status_counts() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = caesar_suite(w);
    pin(w, &suite);
    // The pins start with the command as a student types it.
    let pinned = |case: &str| fs::read_to_string(suite.join(format!("{case}.transcript"))).unwrap();
    assert_eq!(
        pinned("key-13"),
        "$ ./caesar 13\nplaintext:  Hello, world!\nciphertext: Uryyb, jbeyq!\n\
         ⟨typed: 1 line, at the end of line 1⟩\n"
    );
    assert_eq!(
        pinned("no-key"),
        "$ ./caesar\nUsage: ./caesar key\n⟨exit status 1⟩\n⟨typed: nothing⟩\n"
    );
    assert!(pinned("spaced").starts_with("$ ./caesar '2 6'\nUsage"));
    let class = w.join("class");
    fs::create_dir_all(&class).unwrap();
    for (student, file) in [
        ("alice.c", "caesar.c"),
        ("bob.c", "exits_zero.c"),
        ("carol.c", "no_argc_check.c"),
        ("dave.c", "no_digit_check.c"),
        ("erin.py", "caesar.py"),
    ] {
        fs::copy(fixture(&format!("caesar/{file}")), class.join(student)).unwrap();
    }
    let results = grade(w, &suite, &class);
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        failures(&results),
        vec![
            ("alice".to_string(), 5.0, vec![]),
            (
                // The usage message with exit status 0 where the key is
                // missing or extra: the status is what differs.
                "bob".to_string(),
                3.0,
                strings(&["no-key: wrong-output", "two-keys: wrong-output"])
            ),
            (
                // argv[1] without looking at argc: no key crashes it, two
                // keys are taken for one.
                "carol".to_string(),
                3.0,
                strings(&["no-key: crashed", "two-keys: wrong-output"])
            ),
            (
                // `abc` and `2 6` taken for keys.
                "dave".to_string(),
                3.0,
                strings(&["not-a-number: wrong-output", "spaced: wrong-output"])
            ),
            ("erin".to_string(), 5.0, vec![]),
        ]
    );
    // What a student reads says how the program was run.
    let checked = referee_in(
        w,
        &[
            "check",
            "--cases",
            suite.to_str().unwrap(),
            class.join("carol.c").to_str().unwrap(),
        ],
    );
    let said = stdout(&checked);
    assert!(said.contains("Run as: $ ./caesar\n"), "{said}");
    let saved = fs::read_to_string(w.join("referee-check/no-key/expected.txt")).unwrap();
    assert_eq!(saved, "$ ./caesar\nUsage: ./caesar key\n");
}

#[test]
fn arguments_that_cannot_be_given_are_refused_with_their_line() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = caesar_suite(w);
    write_all(
        &suite,
        &[
            ("number.yaml", "input: [abc]\nargs: [13]\n"),
            ("text.yaml", "input: [abc]\nargs: \"13\"\n"),
        ],
    );
    let done = referee_in(w, &["cases", "validate", suite.to_str().unwrap()]);
    let said = format!("{}{}", stdout(&done), stderr(&done));
    assert_ne!(done.status.code(), Some(0), "{said}");
    assert!(
        said.contains("number.yaml:2:")
            && said.contains("this argument is read as the YAML value 13, not as text: quote it"),
        "{said}"
    );
    assert!(said.contains("text.yaml:2:"), "{said}");
    // A built-in game takes none.
    let game = suite_for_game(w);
    let done = referee_in(w, &["cases", "validate", game.to_str().unwrap()]);
    let said = format!("{}{}", stdout(&done), stderr(&done));
    assert!(
        said.contains("connect4 is played without arguments"),
        "{said}"
    );
}

fn suite_for_game(work: &Path) -> PathBuf {
    let dir = work.join("game");
    write_all(
        &dir,
        &[
            ("suite.yaml", "game: connect4\n"),
            ("a.yaml", "input: ['1']\nargs: ['x']\n"),
        ],
    );
    dir
}

#[test]
fn all_whitespace_ignores_white_space_anywhere_in_a_line() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = w.join("spacing");
    let program = |line: &str| format!("input()\nprint({line:?})\n");
    write_all(
        &suite,
        &[
            ("solution.py", &program("Ciphertext: b")),
            (
                "suite.yaml",
                "reference: solution.py\ndefaults:\n  visibility: public\n  \
                 compare: [all-whitespace, case]\n",
            ),
            ("a.yaml", "input: [a]\n"),
        ],
    );
    pin(w, &suite);
    let class = w.join("class");
    write_all(
        &class,
        &[
            ("tight.py", &program("ciphertext:b")),
            ("loose.py", &program("  CIPHERTEXT :\t b ")),
            ("wrong.py", &program("Ciphertext: c")),
        ],
    );
    let results = grade(w, &suite, &class);
    assert_eq!(
        failures(&results),
        vec![
            ("loose".to_string(), 1.0, vec![]),
            ("tight".to_string(), 1.0, vec![]),
            (
                "wrong".to_string(),
                0.0,
                vec!["a: wrong-output".to_string()]
            ),
        ]
    );
    // The explanation names the comparison and shows the diff.
    let checked = referee_in(
        w,
        &[
            "check",
            "--cases",
            suite.to_str().unwrap(),
            class.join("wrong.py").to_str().unwrap(),
        ],
    );
    let said = stdout(&checked);
    assert!(said.contains("Ciphertext: c"), "{said}");
    let page = fs::read_to_string(w.join("out/feedback/wrong.html")).unwrap();
    assert!(page.contains("ignoring all-whitespace, case"), "{page}");
}
