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
    grade_class(work, suite, &work.join("out"), class)
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
                // missing or extra: the status is all that differs, and
                // its verdict says so.
                "bob".to_string(),
                3.0,
                strings(&["no-key: exit-status", "two-keys: exit-status"])
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
    // results.json says the command line of each case, and the page of a
    // failed case shows it.
    let commands: Vec<(String, String)> = student(&results, "alice")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let name = c["name"].as_str().unwrap().to_string();
            (name, c["command"].as_str().unwrap_or("(none)").to_string())
        })
        .collect();
    let mut commands = commands;
    commands.sort();
    assert_eq!(
        commands,
        [
            ("key-13", "./caesar 13"),
            ("no-key", "./caesar"),
            ("not-a-number", "./caesar abc"),
            ("spaced", "./caesar '2 6'"),
            ("two-keys", "./caesar 1 2"),
        ]
        .map(|(n, c)| (n.to_string(), c.to_string()))
    );
    assert_follows_schema(&results);
    let page = fs::read_to_string(w.join("out/feedback/bob.html")).unwrap();
    assert!(page.contains("$ ./caesar 1 2"), "{page}");
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

/// The ranking lab: `python3 rank.py before.csv after.csv` reads a CSV
/// and writes it ranked. Its `after.csv` is given first holding an old
/// ranking, so that a program appending to it is seen.
fn rank_suite(work: &Path) -> PathBuf {
    let suite = work.join("rank-lab");
    fs::create_dir_all(suite.join("data")).unwrap();
    for file in ["rank.py", "data/before.csv", "data/old-after.csv"] {
        fs::copy(fixture(&format!("scores/{file}")), suite.join(file)).unwrap();
    }
    write_all(
        &suite,
        &[
            (
                "suite.yaml",
                "reference: rank.py\nname: rank\ndefaults:\n  visibility: public\n  \
                 timeout: 5s\n  args: [before.csv, after.csv]\n  files:\n    \
                 before.csv: data/before.csv\n    after.csv: data/old-after.csv\n  \
                 outputs: [after.csv]\n",
            ),
            // Only the file and the ending count.
            ("ranks.yaml", "mode: files\n"),
            // The file, and what it says.
            ("says.yaml", "mode: text\n"),
            // The file only has to be written (and is not given first:
            // a file given is there already).
            (
                "writes.yaml",
                "mode: ending\nfiles: {before.csv: data/before.csv}\n",
            ),
        ],
    );
    suite
}

#[test]
fn a_file_written_is_graded_against_the_references() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = rank_suite(w);
    pin(w, &suite);
    // The pin marks the files the case gave (the start of each one's
    // SHA-256) and holds the reference's file after its transcript.
    assert_eq!(
        fs::read_to_string(suite.join("ranks.transcript")).unwrap(),
        "$ python3 rank.py before.csv after.csv\n\
         ⟨given after.csv 4d5705e4053e3506, before.csv 680479179a0011eb⟩\nRanked 3 students.\n⟨typed: nothing⟩\n\
         name,score\nada,9\nbob,7\ncy,7\n⟨file after.csv: 28 bytes⟩\n"
    );
    let class = w.join("class");
    fs::create_dir_all(&class).unwrap();
    for file in [
        "rank.py",
        "order.py",
        "appends.py",
        "nothing.py",
        "chatty.py",
    ] {
        fs::copy(fixture(&format!("scores/{file}")), class.join(file)).unwrap();
    }
    // Graded from the pins alone: the reference is not needed.
    fs::remove_file(suite.join("rank.py")).unwrap();
    let results = grade(w, &suite, &class);
    let wrong = |cases: &[&str]| {
        cases
            .iter()
            .map(|c| format!("{c}: wrong-output"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        failures(&results),
        vec![
            ("appends".to_string(), 1.0, wrong(&["ranks", "says"])),
            // Prints other words: only the case about them.
            ("chatty".to_string(), 2.0, wrong(&["says"])),
            (
                "nothing".to_string(),
                0.0,
                wrong(&["ranks", "says", "writes"])
            ),
            ("order".to_string(), 1.0, wrong(&["ranks", "says"])),
            ("rank".to_string(), 3.0, vec![]),
        ]
    );
    let reason = |id: &str, case: &str| -> String {
        results["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .and_then(|s| s["cases"].as_array())
            .and_then(|cases| cases.iter().find(|c| c["name"] == case))
            .map(|c| c["reason"].as_str().unwrap_or_default().to_string())
            .unwrap()
    };
    assert!(
        reason("nothing", "writes").contains("did not write after.csv"),
        "{}",
        reason("nothing", "writes")
    );
    // Given the old ranking, it leaves it as it was.
    assert_eq!(
        reason("nothing", "ranks"),
        "your program's after.csv differs from the reference's"
    );
    // The explanation names the file and shows its diff.
    let checked = referee_in(
        w,
        &[
            "check",
            "--cases",
            suite.to_str().unwrap(),
            class.join("order.py").to_str().unwrap(),
        ],
    );
    let said = stdout(&checked);
    assert!(
        said.contains("Your program's after.csv differs from the reference's.\n")
            && said.contains("after.csv, compared line by line, exactly:\n"),
        "{said}"
    );
    assert!(said.contains("ada,9") && said.contains("cy,7"), "{said}");
}

#[test]
fn what_a_program_leaves_instead_of_a_file_is_said_and_never_followed() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = rank_suite(w);
    // A small limit, so that a file past it is cheap to write.
    let yaml = fs::read_to_string(suite.join("suite.yaml")).unwrap();
    fs::write(
        suite.join("suite.yaml"),
        yaml.replace("timeout: 5s", "timeout: 5s\n  output_limit: 64KiB"),
    )
    .unwrap();
    fs::remove_file(suite.join("says.yaml")).unwrap();
    fs::remove_file(suite.join("writes.yaml")).unwrap();
    pin(w, &suite);
    let class = w.join("class");
    let writes_instead = |what: &str| {
        format!("import os, sys\nos.remove(sys.argv[2])\n{what}\nprint('Ranked 3 students.')\n")
    };
    write_all(
        &class,
        &[
            (
                "link.py",
                &writes_instead("os.symlink('/etc/passwd', sys.argv[2])"),
            ),
            ("fifo.py", &writes_instead("os.mkfifo(sys.argv[2])")),
            ("folder.py", &writes_instead("os.mkdir(sys.argv[2])")),
            (
                "large.py",
                &writes_instead("open(sys.argv[2], 'w').write('x,1\\n' * 100000)"),
            ),
            // Past the file-size limit: the system stops it long before.
            (
                "huge.py",
                &writes_instead(
                    "f = open(sys.argv[2], 'w')\nfor _ in range(2048):\n    f.write('x' * (1 << 20))",
                ),
            ),
            ("good.py", &fs::read_to_string(fixture("scores/rank.py")).unwrap()),
        ],
    );
    let results = grade(w, &suite, &class);
    let reasons: Vec<(String, f64, String)> = results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                s["score"].as_f64().unwrap_or(-1.0),
                s["cases"][0]["reason"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect();
    let of = |id: &str| reasons.iter().find(|r| r.0 == id).unwrap().clone();
    assert_eq!(of("good").1, 1.0, "{:?}", of("good"));
    for (id, said) in [
        ("link", "left a symbolic link as after.csv"),
        ("fifo", "left a FIFO (named pipe) as after.csv"),
        ("folder", "as after.csv, not a plain file"),
        ("large", "wrote after.csv larger than the output limit"),
        ("huge", "wrote after.csv larger than the output limit"),
    ] {
        let (_, score, reason) = of(id);
        assert_eq!(score, 0.0, "{id}: {reason}");
        assert!(reason.contains(said), "{id}: {reason}");
    }
}

#[test]
fn files_that_would_leave_their_folders_are_refused_with_their_line() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = rank_suite(w);
    fs::write(w.join("outside.csv"), "name,score\n").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", suite.join("data/link.csv")).unwrap();
    write_all(
        &suite,
        &[
            (
                "up.yaml",
                "mode: text\nfiles:\n  before.csv: ../outside.csv\n",
            ),
            (
                "link.yaml",
                "mode: text\nfiles:\n  before.csv: data/link.csv\n",
            ),
            (
                "absolute.yaml",
                "mode: text\nfiles:\n  /tmp/x.csv: data/before.csv\n",
            ),
            ("out-slash.yaml", "mode: text\noutputs: [out/after.csv]\n"),
            ("out-dots.yaml", "mode: text\noutputs: ['..']\n"),
        ],
    );
    let done = referee_in(w, &["cases", "validate", suite.to_str().unwrap()]);
    let said = format!("{}{}", stdout(&done), stderr(&done));
    assert_ne!(done.status.code(), Some(0), "{said}");
    for (file, words) in [
        (
            "up.yaml:2:",
            "`before.csv: ../outside.csv`: the file is named by its path in the suite's folder",
        ),
        ("link.yaml:2:", "is a link out of the suite's folder"),
        (
            "absolute.yaml:2:",
            "`/tmp/x.csv`: a file is put in the run's working folder by a name there",
        ),
        (
            "out-slash.yaml:2:",
            "`out/after.csv`: an output is a file the program leaves in its working folder",
        ),
        ("out-dots.yaml:2:", "`..`: an output is a file"),
    ] {
        let line = said
            .lines()
            .find(|l| l.contains(file))
            .unwrap_or_else(|| panic!("{file}: {said}"));
        assert!(line.contains(words), "{line}");
    }
    // The cases that are right still load: nothing else is lost.
    assert!(said.contains("8 problems in a suite of 8 cases"), "{said}");
}

#[test]
fn a_binary_file_is_compared_byte_for_byte() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = w.join("bytes");
    let writer = |data: &str| format!("import sys\nopen('out.bin', 'wb').write(bytes({data}))\n");
    write_all(
        &suite,
        &[
            ("solution.py", &writer("range(10)")),
            (
                "suite.yaml",
                "reference: solution.py\ndefaults:\n  visibility: public\n  mode: files\n  \
                 outputs: [{name: out.bin, binary: true}]\n",
            ),
            ("a.yaml", "description: Writes ten bytes.\n"),
        ],
    );
    pin(w, &suite);
    let class = w.join("class");
    write_all(
        &class,
        &[
            ("same.py", &writer("range(10)")),
            ("other.py", &writer("[0, 1, 2, 3, 4, 9, 6, 7, 8, 9, 10]")),
            ("short.py", &writer("range(4)")),
        ],
    );
    let results = grade(w, &suite, &class);
    let reason = |id: &str| -> String {
        results["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .map(|s| s["cases"][0]["reason"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(
        reason("same"),
        "your program stopped before reading any input with exit status 0, as the reference does"
    );
    assert_eq!(
        reason("other"),
        "your program's out.bin differs from the reference's from byte 6 (offset 5); yours has \
         11 bytes, the reference's 10"
    );
    assert_eq!(
        reason("short"),
        "your program's out.bin differs from the reference's from byte 5 (offset 4); yours has \
         4 bytes, the reference's 10"
    );
    let checked = referee_in(
        w,
        &[
            "check",
            "--cases",
            suite.to_str().unwrap(),
            class.join("other.py").to_str().unwrap(),
        ],
    );
    let said = stdout(&checked);
    assert!(
        said.contains("  Your out.bin differs from the reference's from byte 6 (offset 5);"),
        "{said}"
    );
}

#[test]
fn referee_new_gives_the_example_case_its_arguments() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let done = referee_in(
        w,
        &[
            "new",
            "caesar",
            "--reference",
            fixture("caesar/caesar.c").to_str().unwrap(),
            "--arg",
            "13",
            "--input",
            "abc",
        ],
    );
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    let pins: Vec<String> = fs::read_dir(w.join("caesar"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "transcript"))
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    assert_eq!(
        pins,
        ["$ ./caesar 13\nplaintext:  abc\nciphertext: nop\n⟨typed: 1 line, at the end of line 1⟩\n"]
    );
}

#[test]
fn referee_new_gives_the_example_case_files_and_grades_its_own_reference_full_marks() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let example = root().join("examples/ranking");
    let scores = format!("before.csv={}", example.join("data/scores.csv").display());
    // The instructor's program, named as students name theirs.
    let ranking = w.join("ranking.py");
    fs::copy(example.join("solution.py"), &ranking).unwrap();
    let made = referee_in(
        w,
        &[
            "new",
            "rank-lab",
            "--reference",
            ranking.to_str().unwrap(),
            "--arg",
            "before.csv",
            "--arg",
            "after.csv",
            "--file",
            &scores,
            "--output",
            "after.csv",
        ],
    );
    let said = stdout(&made);
    assert_eq!(made.status.code(), Some(0), "{said}{}", stderr(&made));
    // Hints in the reference's language.
    assert!(said.contains("rank-lab student.py"), "{said}");
    let suite = w.join("rank-lab");
    let yaml = fs::read_to_string(suite.join("suite.yaml")).unwrap();
    assert!(yaml.contains("\nname: ranking\n"), "{yaml}");
    assert_eq!(
        fs::read(suite.join("data/before.csv")).unwrap(),
        fs::read(example.join("data/scores.csv")).unwrap()
    );
    // The pin: the command as a student types it, the file given, the
    // file the reference wrote.
    let pin = fs::read_to_string(suite.join("example.transcript")).unwrap();
    assert!(
        pin.starts_with("$ python3 ranking.py before.csv after.csv\n⟨given before.csv "),
        "{pin}"
    );
    assert!(pin.ends_with("⟨file after.csv: 35 bytes⟩\n"), "{pin}");
    // The reference itself, graded on the suite: full marks.
    let class = w.join("class");
    fs::create_dir_all(&class).unwrap();
    fs::copy(example.join("solution.py"), class.join("teacher.py")).unwrap();
    let bob = root().join("examples/ranking-class/bob.py");
    fs::copy(bob, class.join("bob.py")).unwrap();
    let results = grade(w, &suite, &class);
    assert_eq!(
        failures(&results),
        vec![
            (
                "bob".to_string(),
                0.0,
                vec!["example: wrong-output".to_string()]
            ),
            ("teacher".to_string(), 1.0, vec![])
        ]
    );
    // A --file that is not NAME=PATH, or a name with a folder, is said.
    for (bad, says) in [
        ("before.csv", "give the name the program opens and the file"),
        ("data/b.csv=x", "give a plain file name"),
    ] {
        let refused = referee_in(
            w,
            &[
                "new",
                "other",
                "--reference",
                example.join("solution.py").to_str().unwrap(),
                "--file",
                bad,
            ],
        );
        assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
        assert!(stderr(&refused).contains(says), "{}", stderr(&refused));
        assert!(!w.join("other").exists());
    }
}

/// The ranking example as shipped, without its reference, in `work`:
/// the pins hold the transcripts and the files.
fn ranking_without_reference(work: &Path) -> PathBuf {
    let suite = work.join("ranking");
    fs::create_dir_all(suite.join("data")).unwrap();
    let example = root().join("examples/ranking");
    for entry in fs::read_dir(&example)
        .unwrap()
        .chain(fs::read_dir(example.join("data")).unwrap())
    {
        let path = entry.unwrap().path();
        let relative = path.strip_prefix(&example).unwrap();
        if path.is_file() && relative != Path::new("solution.py") {
            fs::copy(&path, suite.join(relative)).unwrap();
        }
    }
    suite
}

#[test]
fn the_ranking_example_grades_its_class_from_its_pins() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = ranking_without_reference(w);
    let results = grade(w, &suite, &root().join("examples/ranking-class"));
    let wrong = |cases: &[&str]| {
        cases
            .iter()
            .map(|c| format!("{c}: wrong-output"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        failures(&results),
        vec![
            ("alice".to_string(), 4.0, vec![]),
            ("bob".to_string(), 2.0, wrong(&["ranks", "says-how-many"])),
            (
                "carol".to_string(),
                1.0,
                wrong(&["nobody", "ranks", "says-how-many"])
            ),
            (
                "dave".to_string(),
                1.0,
                wrong(&["nobody", "ranks", "says-how-many"])
            ),
            ("erin".to_string(), 3.0, wrong(&["says-how-many"])),
        ]
    );
}

#[test]
fn a_pin_is_stale_once_a_file_the_case_gives_changes() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = ranking_without_reference(w);
    let validate = || referee_in(w, &["cases", "validate", suite.to_str().unwrap()]);
    assert_eq!(validate().status.code(), Some(0), "{}", stderr(&validate()));
    // The file `nobody` gives as before.csv gains a student: its pin was
    // made with the reference reading another file, so it cannot be used,
    // and it says which file changed. The other cases' pins still can.
    let header_only = suite.join("data/header-only.csv");
    let mut text = fs::read_to_string(&header_only).unwrap();
    text.push_str("Zed,1\n");
    fs::write(&header_only, text).unwrap();
    let out = validate();
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert_ne!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("nobody.transcript"), "{said}");
    assert!(
        said.contains("the case's `files:` changed since it was pinned (before.csv)"),
        "{said}"
    );
    for other in ["ranks", "says-how-many", "no-arguments"] {
        assert!(!said.contains(&format!("{other}.transcript")), "{said}");
    }
}

/// A suite whose programs link the course's own library.
fn library_suite(work: &Path, library: &str) -> PathBuf {
    let suite = work.join("sum-lab");
    fs::create_dir_all(&suite).unwrap();
    for file in ["course.h", "sum.c"] {
        fs::copy(fixture(&format!("library/{file}")), suite.join(file)).unwrap();
    }
    fs::write(suite.join("course.c"), library).unwrap();
    write_all(
        &suite,
        &[
            (
                "suite.yaml",
                "reference: sum.c\nsupport: [course.h]\nlink: [course.c]\ndefaults:\n  \
                 visibility: public\n",
            ),
            ("adds.yaml", "input: ['2', '3']\n"),
        ],
    );
    suite
}

#[test]
fn a_course_library_is_linked_into_every_c_and_cpp_program() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let library = fs::read_to_string(fixture("library/course.c")).unwrap();
    let suite = library_suite(w, &library);
    pin(w, &suite);
    assert!(fs::read_to_string(suite.join("adds.transcript"))
        .unwrap()
        .starts_with("a: 2\nb: 3\n5\n"));
    let class = w.join("class");
    fs::create_dir_all(&class).unwrap();
    for (student, file) in [
        ("c.c", "sum.c"),
        ("cpp.cpp", "sum.cpp"),
        ("hidden.c", "hidden.c"),
    ] {
        fs::copy(fixture(&format!("library/{file}")), class.join(student)).unwrap();
    }
    let results = grade(w, &suite, &class);
    let status = |id: &str| -> (f64, String) {
        let s = results["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .unwrap();
        (
            s["score"].as_f64().unwrap_or(-1.0),
            s["status"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(status("c"), (1.0, "graded".to_string()));
    assert_eq!(status("cpp"), (1.0, "graded".to_string()));
    // What the header does not declare is not there to call.
    assert_eq!(status("hidden"), (0.0, "compile-error".to_string()));
    let said = fs::read_to_string(w.join("out/feedback/hidden.md")).unwrap();
    assert!(said.contains("twice"), "the compiler's messages: {said}");
}

#[test]
fn a_course_library_that_does_not_compile_is_the_suites() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = library_suite(w, "int add(int a, int b) { return a + b }\n");
    let out = w.join("out");
    let done = referee_in(
        w,
        &[
            "grade",
            "--cases",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            fixture("library/sum.c").to_str().unwrap(),
        ],
    );
    let said = stderr(&done);
    assert_eq!(done.status.code(), Some(2), "{said}");
    assert!(
        said.contains("the suite's own library course.c (suite.yaml's `link`) does not compile")
            && said.contains("expected ';'"),
        "{said}"
    );
    assert!(!out.join("results.json").exists());
}

/// One case of one student in a graded class's results.json.
fn case_of<'a>(results: &'a Value, id: &str, case: &str) -> &'a Value {
    case_in(student(results, id), case)
}

/// The case `case` of one submission's results (a student of
/// results.json, or the whole of its `details/<id>.json`).
fn case_in<'a>(submission: &'a Value, case: &str) -> &'a Value {
    submission["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|c| c["name"] == case))
        .unwrap_or_else(|| panic!("{}: no case {case}", submission["id"]))
}

/// A Scourgify-like lab (`tests/fixtures/scourgify`): `ending_points`
/// splits a text case (the message, then exiting 1) and a files case
/// (the CSV written, then how the run ends), each share earned on its
/// own; a case without it earns all or nothing as before. A traceback
/// is a crash: it never earns the ending's share.
#[test]
fn ending_points_split_text_and_files_cases_between_output_and_ending() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let results = grade(w, &fixture("scourgify"), &fixture("scourgify-class"));
    let got = |id: &str, case: &str| {
        let c = case_of(&results, id, case);
        (
            c["verdict"].as_str().unwrap().to_string(),
            c["score"].as_f64().unwrap(),
        )
    };
    let at = |verdict: &str, score: f64| (verdict.to_string(), score);
    // The right message, but exit 0 where the reference exits 1.
    assert_eq!(got("exits-zero", "too-few-split"), at("exit-status", 1.0));
    assert_eq!(got("exits-zero", "too-few"), at("exit-status", 0.0));
    assert_eq!(got("exits-zero", "cleans"), at("pass", 2.0));
    // The wrong file, ended as the reference ends: the ending's share.
    assert_eq!(got("wrong-file", "cleans"), at("wrong-output", 1.0));
    assert_eq!(got("wrong-file", "too-few-split"), at("pass", 2.0));
    // A traceback where the reference says "Too few ...": nothing.
    assert_eq!(got("crashes", "too-few-split"), at("crashed", 0.0));
    // The right file written, then a traceback: the file's share only.
    assert_eq!(got("crashes", "cleans"), at("crashed", 1.0));
    let parts = &case_of(&results, "crashes", "cleans")["parts"];
    assert_eq!(parts[1]["part"], "ending");
    assert_eq!(parts[1]["earned"], false);
    let scores: Vec<(String, f64)> = ["crashes", "exits-zero", "no-check", "right", "wrong-file"]
        .iter()
        .map(|id| {
            (
                id.to_string(),
                student(&results, id)["score"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        scores,
        [
            ("crashes".to_string(), 1.0),
            ("exits-zero".to_string(), 3.0),
            ("no-check".to_string(), 2.0),
            ("right".to_string(), 6.0),
            ("wrong-file".to_string(), 5.0)
        ]
    );
    // Both statuses are kept where they are known, as the schema says.
    let split = case_of(&results, "exits-zero", "too-few-split");
    assert_eq!(split["exit_status"], 0);
    assert_eq!(split["reference_exit_status"], 1);
    assert_follows_schema(&results);
    let page = fs::read_to_string(w.join("out/feedback/exits-zero.md")).unwrap();
    assert!(
        page.contains("Points: the output 1/1, how it ends 0/1."),
        "{page}"
    );
    let page = fs::read_to_string(w.join("out/feedback/wrong-file.md")).unwrap();
    assert!(
        page.contains("Points: the files 0/1, how it ends 1/1."),
        "{page}"
    );
}

/// The blocks of docs/cases.md's section `heading` whose first line is
/// `# scourgify/NAME`: each NAME with its text.
fn docs_files(heading: &str) -> Vec<(String, String)> {
    docs_files_of(heading, "scourgify")
}

/// The blocks of docs/cases.md's section `heading` whose first line is
/// `# FOLDER/NAME`: each NAME with its text.
fn docs_files_of(heading: &str, folder: &str) -> Vec<(String, String)> {
    let docs = fs::read_to_string(root().join("docs/cases.md")).unwrap();
    let from = docs.find(heading).unwrap_or_else(|| panic!("{heading}"));
    let section = &docs[from + heading.len()..];
    // To the next heading (a block's `# ` comments are not headings).
    let end = ["\n## ", "\n### "]
        .iter()
        .filter_map(|h| section.find(h))
        .min()
        .unwrap_or(section.len());
    let section = &section[..end];
    section
        .split("```")
        .skip(1)
        .step_by(2)
        .filter_map(|block| {
            let body = &block[block.find('\n')? + 1..];
            let name = body
                .lines()
                .next()?
                .strip_prefix("# ")?
                .strip_prefix(folder)?
                .strip_prefix('/')?;
            Some((name.trim().to_string(), body.to_string()))
        })
        .collect()
}

/// docs/cases.md's Scourgify example grades as its table says.
#[test]
fn the_docs_ending_points_example_grades_as_it_says() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = w.join("scourgify");
    let files = docs_files("### Splitting the points between the output and the ending");
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["scourgify.py", "suite.yaml", "too-few.yaml", "cleans.yaml"]
    );
    for (name, text) in &files {
        write_all(&suite, &[(name, text)]);
    }
    let before = fs::read_to_string(fixture("scourgify/data/before.csv")).unwrap();
    write_all(&suite, &[("data/before.csv", &before)]);
    let results = grade(w, &suite, &fixture("scourgify-class"));
    let got = |id: &str, case: &str| {
        let c = case_of(&results, id, case);
        (
            c["score"].as_f64().unwrap(),
            c["verdict"].as_str().unwrap().to_string(),
        )
    };
    let at = |score: f64, verdict: &str| (score, verdict.to_string());
    // The table's rows, in its order.
    assert_eq!(got("exits-zero", "too-few"), at(1.0, "exit-status"));
    assert_eq!(got("exits-zero", "cleans"), at(2.0, "pass"));
    assert_eq!(got("no-check", "too-few"), at(0.0, "crashed"));
    assert_eq!(got("no-check", "cleans"), at(2.0, "pass"));
    assert_eq!(got("wrong-file", "too-few"), at(2.0, "pass"));
    assert_eq!(got("wrong-file", "cleans"), at(1.0, "wrong-output"));
    assert_eq!(got("crashes", "too-few"), at(0.0, "crashed"));
    assert_eq!(got("crashes", "cleans"), at(1.0, "crashed"));
    let page = fs::read_to_string(w.join("out/feedback/exits-zero.md")).unwrap();
    assert!(
        page.contains("Points: the output 1/1, how it ends 0/1."),
        "{page}"
    );
}

/// What a program prints to stderr is compared with what it prints to
/// stdout, as one text (docs/cases.md, "stdout and stderr are compared
/// together"): the reference's message on stderr is matched by the same
/// message on stdout, and missed by a program that prints nothing there.
#[test]
fn stdout_and_stderr_are_compared_together() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = w.join("greet");
    write_all(
        &suite,
        &[
            (
                "suite.yaml",
                "reference: greet.py\nname: greet\ndefaults:\n  visibility: public\n",
            ),
            (
                "greet.py",
                "import sys\nprint('Hello')\nprint('Usage: greet.py NAME', file=sys.stderr)\n\
                 print('Bye')\nsys.exit(1)\n",
            ),
            ("usage.yaml", "args: []\n"),
        ],
    );
    let class = w.join("class");
    write_all(
        &class,
        &[
            (
                "stdout.py",
                "import sys\nprint('Hello')\nprint('Usage: greet.py NAME')\nprint('Bye')\n\
                 sys.exit(1)\n",
            ),
            (
                "after.py",
                "import sys\nprint('Hello')\nprint('Bye')\n\
                 print('Usage: greet.py NAME', file=sys.stderr)\nsys.exit(1)\n",
            ),
            (
                "silent.py",
                "import sys\nprint('Hello')\nprint('Bye')\nsys.exit(1)\n",
            ),
        ],
    );
    let results = grade(w, &suite, &class);
    let verdict = |id: &str| case_of(&results, id, "usage")["verdict"].clone();
    assert_eq!(verdict("stdout"), "pass");
    // In the wrong place among the lines, or missing: a difference.
    assert_eq!(verdict("after"), "wrong-output");
    assert_eq!(verdict("silent"), "wrong-output");
}

/// docs/cases.md's `compare: [csv]` example: a file written with every
/// field quoted and CR LF line endings passes; a changed field fails,
/// named by its row and its header's name; bad CSV (an unbalanced quote,
/// bytes that are not UTF-8) is a difference, graded like any other.
#[test]
fn the_docs_csv_example_grades_csv_as_csv() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = w.join("scourgify");
    let files = docs_files("### Comparing CSV (`csv`)");
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["suite.yaml", "cleans.yaml"]);
    for (name, text) in &files {
        write_all(&suite, &[(name, text)]);
    }
    let reference = fs::read_to_string(fixture("scourgify/scourgify.py")).unwrap();
    let before = fs::read_to_string(fixture("scourgify/data/before.csv")).unwrap();
    write_all(
        &suite,
        &[("scourgify.py", &reference), ("data/before.csv", &before)],
    );
    // The reference with its writer changed, or a row's field changed.
    let writer = "out = csv.writer(f, lineterminator=\"\\n\")";
    let with = |new: &str| reference.replace(writer, new);
    let typo = reference.replace(
        "out.writerow([first, last, row[\"house\"]])",
        "out.writerow([first, last, row[\"house\"].replace(\"puff\", \"puf\")])",
    );
    let class = w.join("class");
    write_all(
        &class,
        &[
            (
                "quoted.py",
                &with("out = csv.writer(f, quoting=csv.QUOTE_ALL)"),
            ),
            ("crlf.py", &with("out = csv.writer(f)")),
            ("typo.py", &typo),
            (
                "bad.py",
                "import sys\nwith open(sys.argv[2], 'wb') as f:\n    \
                 f.write(b'first,last,house\\n\"Hannah,Abbott\\xff\\x1b[2J\\n')\n",
            ),
        ],
    );
    assert_ne!(with("x"), reference, "the writer is replaced");
    let results = grade(w, &suite, &class);
    let verdict = |id: &str| case_of(&results, id, "cleans")["verdict"].clone();
    assert_eq!(verdict("quoted"), "pass");
    assert_eq!(verdict("crlf"), "pass");
    assert_eq!(verdict("typo"), "wrong-output");
    assert_eq!(verdict("bad"), "wrong-output");
    let reason = |id: &str| case_of(&results, id, "cleans")["reason"].clone();
    assert_eq!(
        reason("typo"),
        "your program's after.csv differs from the reference's: row 2, field 3 (house): the \
         reference wrote `Hufflepuff`; your program wrote `Hufflepuf`"
    );
    let bad = reason("bad").as_str().unwrap().to_string();
    assert!(bad.contains("row 2, field 1 (first)"), "{bad}");
    assert!(!bad.contains('\x1b'), "{bad}");
}

/// docs/cases.md's reader lab, its section's files as written there,
/// and a plain case beside them that gives the file as it is.
fn reader_suite(w: &Path) -> PathBuf {
    let suite = w.join("reader");
    let files = docs_files_of("## A file that cannot be read, or none at all", "reader");
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["reader.py", "suite.yaml", "locked.yaml", "missing.yaml"]
    );
    for (name, text) in &files {
        write_all(&suite, &[(name, text)]);
    }
    write_all(
        &suite,
        &[
            ("data/in.csv", "a,b\n1,2\n"),
            ("plain.yaml", "files: {in.csv: data/in.csv}\n"),
        ],
    );
    suite
}

/// The docs' reader lab's reference.
fn reader_source() -> String {
    let files = docs_files_of("## A file that cannot be read, or none at all", "reader");
    files
        .into_iter()
        .find(|(name, _)| name == "reader.py")
        .map(|(_, text)| text)
        .expect("the docs give reader.py")
}

/// Students: the reference's program; one that meets neither trouble
/// (a traceback each time); one that meets only a missing file.
fn reader_class(w: &Path) -> PathBuf {
    let class = w.join("class");
    write_all(
        &class,
        &[
            ("careful.py", &reader_source()),
            (
                "careless.py",
                "import sys\nwith open(sys.argv[1]) as f:\n    print(len(f.readlines()), 'lines')\n",
            ),
            (
                "half.py",
                "import sys, os\nif not os.path.exists(sys.argv[1]):\n    \
                 sys.exit(f'{sys.argv[1]} does not exist')\n\
                 with open(sys.argv[1]) as f:\n    print(len(f.readlines()), 'lines')\n",
            ),
        ],
    );
    class
}

/// `files:` keeps what a case asks of a file (issue 43, item 6): a file
/// given with mode 000 cannot be read by the reference nor by a student,
/// whoever runs referee (root, whose programs run as a user of their own
/// slot, or an ordinary user); a file said absent is not there. Graded
/// the same both ways.
#[test]
fn a_case_can_give_a_file_that_cannot_be_read_or_none_at_all() {
    use common::attack::{is_root, out_for_anyone, referee_as, As};
    assert!(
        is_root(),
        "this test switches to an ordinary user: run it as root"
    );
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = reader_suite(w);
    let class = reader_class(w);
    let mut seen = Vec::new();
    for who in [As::Me, As::Ordinary] {
        let out = out_for_anyone(w, &format!("out-{}", seen.len()));
        let args = [
            "grade",
            "--cases",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            class.to_str().unwrap(),
        ];
        let graded = referee_as(who, w, &args, &[], None);
        assert!(
            graded.status.success(),
            "{}: {}",
            who.name(),
            stderr(&graded)
        );
        let results = read_json(&out.join("results.json"));
        let said = |id: &str, case: &str| {
            case_of(&results, id, case)["explanation"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        };
        // The reference met each trouble as the case meant it to, and
        // the student's explanation says what the case gave.
        let locked = said("careless", "locked");
        assert!(
            locked.contains("- Could not read in.csv"),
            "{}: {locked}",
            who.name()
        );
        assert!(
            locked.contains("PermissionError"),
            "{}: {locked}",
            who.name()
        );
        assert!(
            locked.contains("Given: in.csv, which cannot be read (mode 000)."),
            "{}: {locked}",
            who.name()
        );
        let missing = said("careless", "missing");
        assert!(
            missing.contains("- in.csv does not exist"),
            "{}: {missing}",
            who.name()
        );
        assert!(
            missing.contains("FileNotFoundError"),
            "{}: {missing}",
            who.name()
        );
        assert!(
            missing.contains("Given: no in.csv (the case gives none, on purpose)."),
            "{}: {missing}",
            who.name()
        );
        assert!(
            said("half", "locked").contains("PermissionError"),
            "{}",
            who.name()
        );
        seen.push(failures(&results));
    }
    assert_eq!(
        seen[0],
        [
            ("careful".to_string(), 3.0, vec![]),
            (
                "careless".to_string(),
                1.0,
                vec![
                    "locked: crashed".to_string(),
                    "missing: crashed".to_string()
                ]
            ),
            ("half".to_string(), 2.0, vec!["locked: crashed".to_string()]),
        ]
    );
    assert_eq!(seen[0], seen[1], "graded the same as root and as a user");
}

/// docs/cases.md's `stderr` example, pinned and graded from its pins in
/// every way of running a program (the listener, `/proc` and all at
/// once: the last two with stdout on the terminal and stderr on its own
/// pipe): a usage message on stderr passes where the reference prints it
/// there; on stdout it fails when the case keeps stderr apart and passes
/// when together; wrong words on stderr cost nothing when stderr is
/// ignored. A flood on stderr is stopped by the output limit, and a
/// traceback there is still an uncaught exception.
#[test]
fn the_docs_stderr_example_compares_stdout_and_stderr_apart() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = w.join("scourgify");
    let files = docs_files("### stdout and stderr apart (`stderr`)");
    for (name, text) in &files {
        write_all(&suite, &[(name, text)]);
    }
    pin(w, &suite);
    let pinned = |case: &str| fs::read_to_string(suite.join(format!("{case}.transcript"))).unwrap();
    // Only a case that keeps stderr apart pins it.
    assert!(pinned("usage-on-stderr")
        .ends_with("Usage: python scourgify.py BEFORE.csv AFTER.csv\n⟨stderr: 48 bytes⟩\n"));
    assert!(!pinned("usage-anywhere").contains("⟨stderr"));
    fs::remove_file(suite.join("scourgify.py")).unwrap();
    let class = w.join("class");
    write_all(
        &class,
        &[
            (
                "right.py",
                "import sys\nsys.exit(\"Usage: python scourgify.py BEFORE.csv AFTER.csv\")\n",
            ),
            (
                "on-stdout.py",
                "import sys\nprint(\"Usage: python scourgify.py BEFORE.csv AFTER.csv\")\n\
                 sys.exit(1)\n",
            ),
            (
                "other-words.py",
                "import sys\nsys.exit(\"usage: scourgify.py BEFORE AFTER\")\n",
            ),
            (
                "floods.py",
                "import sys\nwhile True:\n    sys.stderr.write(\"x\" * 4096)\n",
            ),
            ("crashes.py", "import sys\nprint(sys.argv[2])\n"),
        ],
    );
    let cases = ["usage-on-stderr", "usage-anywhere", "usage-ignored"];
    let mut shown = String::new();
    for detect in ["notify", "proc", "none"] {
        let out = w.join(format!("out-{detect}"));
        let env = [("REFEREE_DETECT", detect)];
        let results = grade_class_with(w, &suite, &out, &class, &[], &env);
        let row = |id: &str| cases.map(|case| case_of(&results, id, case)["verdict"].clone());
        assert_eq!(row("right"), ["pass", "pass", "pass"], "{detect}");
        let table = [
            ("on-stdout", ["wrong-output", "pass", "wrong-output"]),
            ("other-words", ["wrong-output", "wrong-output", "pass"]),
            ("floods", ["output-limit", "output-limit", "output-limit"]),
            // A traceback on stderr kept apart is still seen.
            ("crashes", ["crashed", "crashed", "crashed"]),
        ];
        for (id, verdicts) in table {
            assert_eq!(row(id), verdicts, "{detect}: {id}");
        }
        let case = case_of(&results, "other-words", "usage-on-stderr");
        assert_eq!(
            case["reason"], "your program's error output differs from the reference's",
            "{detect}"
        );
        shown = case["explanation"].as_str().unwrap_or_default().to_string();
    }
    // The TA's details and the student's pages show both stderrs side by
    // side, as an output file is shown; a case that keeps stderr with
    // stdout has none apart.
    let out = w.join("out-notify");
    let details = read_json(&out.join("details/other-words.json"));
    let kept = |case: &str| -> Vec<Value> {
        case_in(&details, case)["files"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    };
    let apart = kept("usage-on-stderr");
    assert_eq!(apart.len(), 1, "{apart:?}");
    assert_eq!(apart[0]["stderr"], true);
    assert_eq!(
        apart[0]["expected"],
        "Usage: python scourgify.py BEFORE.csv AFTER.csv\n"
    );
    assert_eq!(apart[0]["actual"], "usage: scourgify.py BEFORE AFTER\n");
    assert!(kept("usage-anywhere").is_empty());
    let page = fs::read_to_string(out.join("feedback/other-words.html")).unwrap();
    assert!(
        page.contains(
            "<strong>What was printed on stderr</strong>, compared line by line, exactly"
        ),
        "{page}"
    );
    assert!(page.contains("usage: scourgify.py BEFORE AFTER"), "{page}");
    let markdown = fs::read_to_string(out.join("feedback/other-words.md")).unwrap();
    assert!(
        markdown.contains("What was printed on stderr, compared line by line, exactly"),
        "{markdown}"
    );
    // `check` saves both stderrs beside the transcripts of the first
    // failure (here `usage-ignored`: stdout differs, stderr kept apart).
    let done = referee_in(
        w,
        &[
            "check",
            class.join("on-stdout.py").to_str().unwrap(),
            "--cases",
            suite.to_str().unwrap(),
        ],
    );
    assert!(
        stdout(&done).contains("beside them expected-stderr.txt and yours-stderr.txt"),
        "{}",
        stdout(&done)
    );
    let saved = w.join("referee-check/usage-ignored");
    let read = |name: &str| fs::read_to_string(saved.join(name)).unwrap();
    assert_eq!(
        read("expected-stderr.txt"),
        "Usage: python scourgify.py BEFORE.csv AFTER.csv\n"
    );
    assert_eq!(read("yours-stderr.txt"), "");
    // What the docs show the student, line by line.
    let docs = fs::read_to_string(root().join("docs/cases.md")).unwrap();
    let example = docs
        .split("```text\n")
        .find(|block| block.contains("Your program's error output differs"))
        .and_then(|block| block.split("```").next())
        .unwrap();
    for line in example.lines() {
        assert!(shown.contains(line), "{line:?} not in:\n{shown}");
    }
}

/// With stderr kept apart, a program's stderr is a pipe and its stdout
/// still a terminal, in every way of running it; kept together, both are
/// the terminal. The reference's own runs show it in their pins.
#[test]
fn stderr_kept_apart_is_not_a_terminal_and_stdout_still_is() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = w.join("ttys");
    write_all(
        &suite,
        &[
            ("suite.yaml", "reference: ttys.c\nname: ttys\n"),
            (
                "ttys.c",
                "#include <stdio.h>\n#include <unistd.h>\nint main(void) {\n  \
                 printf(\"stdout %s, stderr %s\\n\", isatty(1) ? \"tty\" : \"pipe\",\n         \
                 isatty(2) ? \"tty\" : \"pipe\");\n  fprintf(stderr, \"to stderr\\n\");\n  \
                 return 0;\n}\n",
            ),
            ("together.yaml", "input: []\n"),
            ("apart.yaml", "input: []\nstderr: apart\n"),
        ],
    );
    for detect in ["notify", "proc", "none"] {
        let env = [("REFEREE_DETECT", detect)];
        for accept in [&[][..], &["--accept"][..]] {
            let mut args = vec!["cases", "update"];
            args.extend(accept);
            args.push(suite.to_str().unwrap());
            let done = referee_with(w, &args, &env);
            assert!(done.status.success(), "{detect}: {}", stderr(&done));
        }
        let pinned = |case: &str| {
            let path = suite.join(format!("{case}.transcript"));
            let text = fs::read_to_string(&path).unwrap();
            fs::remove_file(path).unwrap();
            text
        };
        assert_eq!(
            pinned("together"),
            "stdout tty, stderr tty\nto stderr\n⟨typed: nothing⟩\n",
            "{detect}"
        );
        assert_eq!(
            pinned("apart"),
            "stdout tty, stderr pipe\n⟨typed: nothing⟩\nto stderr\n⟨stderr: 10 bytes⟩\n",
            "{detect}"
        );
    }
}

/// A failed case's output files are shown beside the reference's, and a
/// public case's given files with them; a hidden case's given file (and
/// the files its run wrote) reach no report a student sees, only the
/// TA's details.
#[test]
fn a_hidden_cases_given_file_reaches_no_students_report() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = rank_suite(w);
    write_all(
        &suite,
        &[
            ("data/secret.csv", "name,score\nzelda-secret,5\nyan,8\n"),
            (
                "secret.yaml",
                "mode: files\nvisibility: hidden\nfiles: {before.csv: data/secret.csv, after.csv: \
                 data/old-after.csv}\n",
            ),
        ],
    );
    pin(w, &suite);
    let class = w.join("class");
    fs::create_dir_all(&class).unwrap();
    fs::copy(fixture("scores/order.py"), class.join("order.py")).unwrap();
    let results = grade(w, &suite, &class);
    assert_eq!(
        failures(&results)[0].2,
        [
            "ranks: wrong-output",
            "says: wrong-output",
            "secret: wrong-output"
        ]
    );
    let feedback = w.join("out/feedback");
    let listed: Vec<_> = fs::read_dir(&feedback)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let read = |name: &str| {
        fs::read_to_string(feedback.join(name))
            .unwrap_or_else(|e| panic!("{name}: {e}: {listed:?}"))
    };
    // A folder holding one program is one submission, named by the folder.
    let (page, md) = (read("class.html"), read("class.md"));
    // The public case: its after.csv side by side, its before.csv shown.
    assert!(
        page.contains("<strong>after.csv</strong>, compared line by line, exactly:"),
        "{page}"
    );
    assert!(
        page.contains(
            "<strong>before.csv</strong>:</p>\n<pre>name,score\nbob,7\nada,9\ncy,7\n</pre>"
        ),
        "{page}"
    );
    assert!(md.contains("| ✗ | 2 | ada,9 |"), "{md}");
    assert!(
        md.contains("The case gave your program before.csv:"),
        "{md}"
    );
    for entry in fs::read_dir(&feedback).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        assert!(!text.contains("zelda"), "{}: {text}", path.display());
    }
    // The TA's details keep the hidden case's files, never its input.
    let details = fs::read_to_string(w.join("out/details/class.json")).unwrap();
    let details: Value = serde_json::from_str(&details).unwrap();
    let secret = case_in(&details, "secret");
    assert!(secret["files"][0]["actual"]
        .as_str()
        .unwrap()
        .contains("zelda-secret,5"));
    assert!(secret.get("given").is_none(), "{secret}");
}

/// A program that writes no output file at all still sees the file it
/// was asked for: the reference's, beside nothing, on its page and in
/// its Markdown, and kept as `missing` in its details.
#[test]
fn a_file_never_written_is_shown_as_the_reference_wrote_it() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let class = w.join("class");
    let right = fs::read_to_string(fixture("scourgify-class/right.py")).unwrap();
    write_all(
        &class,
        &[("nothing.py", "print('done')\n"), ("right.py", &right)],
    );
    let results = grade(w, &fixture("scourgify"), &class);
    let case = case_of(&results, "nothing", "cleans");
    assert_eq!(case["verdict"], "wrong-output", "{case}");
    let said = case["explanation"].as_str().unwrap();
    assert_eq!(
        said.matches("did not write after.csv").count(),
        1,
        "said once: {said}"
    );
    let details = read_json(&w.join("out/details/nothing.json"));
    let kept = &case_in(&details, "cleans")["files"][0];
    assert_eq!(kept["name"], "after.csv", "{details}");
    assert_eq!(kept["missing"], true, "{details}");
    assert_eq!(kept["actual"], "", "{details}");
    assert!(
        kept["expected"]
            .as_str()
            .unwrap()
            .starts_with("first,last,house\nHannah,Abbott,Hufflepuff\n"),
        "{details}"
    );
    let page = fs::read_to_string(w.join("out/feedback/nothing.html")).unwrap();
    assert!(page.contains("your program left no such file"), "{page}");
    assert!(page.contains("Hannah,Abbott,Hufflepuff"), "{page}");
    let markdown = fs::read_to_string(w.join("out/feedback/nothing.md")).unwrap();
    assert!(
        markdown.contains("after.csv: your program left no such file"),
        "{markdown}"
    );
    assert!(markdown.contains("Hannah,Abbott,Hufflepuff"), "{markdown}");
}
