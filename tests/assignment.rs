//! Any console assignment: a suite whose reference is the instructor's
//! own program. The temperature lab of `examples/` is graded with its C
//! reference, and with the same solution in Python and in C++ (they pin
//! the same transcripts and give the class the same grades), with its
//! pins and without its source, through `check`, `grade`, `gradescope`
//! and `explore`; support files reach the compiler and the program; a
//! reference that is missing, does not compile, crashes or loops, a
//! suite naming both a game and a reference, and a generator that fails
//! are each said, and nothing is graded.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

/// The example suite and class.
fn example(part: &str) -> PathBuf {
    root().join("examples").join(part)
}

fn fixture(name: &str) -> PathBuf {
    test_file(&format!("fixtures/temperature/{name}"))
}

/// A copy of the temperature suite in `work/<name>`: its cases and, when
/// `pins`, their pinned transcripts; its reference replaced by `reference`
/// when given.
fn temperature_suite(work: &Path, name: &str, reference: Option<&Path>, pins: bool) -> PathBuf {
    let dir = work.join(name);
    fs::create_dir_all(&dir).unwrap();
    for entry in fs::read_dir(example("temperature")).unwrap() {
        let path = entry.unwrap().path();
        let keep = match path.extension().and_then(|e| e.to_str()) {
            Some("transcript") => pins,
            _ => true,
        };
        if keep {
            fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    if let Some(program) = reference {
        fs::remove_file(dir.join("solution.c")).unwrap();
        let file = program.file_name().unwrap().to_str().unwrap();
        fs::copy(program, dir.join(file)).unwrap();
        let suite = fs::read_to_string(dir.join("suite.yaml"))
            .unwrap()
            .replace("reference: solution.c", &format!("reference: {file}"));
        fs::write(dir.join("suite.yaml"), suite).unwrap();
    }
    dir
}

fn run(work: &Path, args: &[&str]) -> std::process::Output {
    referee_in(work, args)
}

fn grade(work: &Path, cases: &Path, out: &Path, class: &Path) -> Value {
    grade_class(work, cases, out, class)
}

/// Each student's score and status.
fn scores(results: &Value) -> Vec<(String, f64, String)> {
    results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                s["score"].as_f64().unwrap_or(-1.0),
                s["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The verdict of one student's case.
fn verdict(results: &Value, id: &str, case: &str) -> String {
    results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .and_then(|s| s["cases"].as_array())
        .and_then(|cases| cases.iter().find(|c| c["name"] == case))
        .map(|c| c["verdict"].as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("{id} has case {case}"))
}

/// What a careful TA gives the example class, out of 9.
fn expected_scores() -> Vec<(String, f64, String)> {
    [
        ("alice", 9.0, "graded"),
        // Fahrenheit to Celsius is always 0: every case converting F.
        ("bob", 4.0, "graded"),
        // Her own prompts, one on a line of its own: nothing lost.
        ("carol", 9.0, "graded"),
        ("dave", 9.0, "graded"),
        ("erin", 0.0, "compile-error"),
        // Loops after a scale it cannot use: that one case.
        ("frank", 8.0, "graded"),
        // 37 for 37.0, 232.778 for 232.8: within the suite's 0.05.
        ("gina", 9.0, "graded"),
        // Stops where the reference asks again, after a scale it cannot
        // use: the case about it, though her text is right up to there.
        ("hana", 8.0, "graded"),
    ]
    .iter()
    .map(|(id, score, status)| (id.to_string(), *score, status.to_string()))
    .collect()
}

fn pins_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut pins: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "transcript"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    pins.sort();
    pins
}

#[test]
fn a_c_reference_grades_the_class_as_a_ta_would() {
    let work = tempfile::tempdir().unwrap();
    let results = grade(
        work.path(),
        &example("temperature"),
        &work.path().join("out"),
        &example("temperature-class"),
    );
    assert_eq!(scores(&results), expected_scores());
    assert_eq!(results["game"], "temperature");
    assert_eq!(verdict(&results, "frank", "rejects-a-bad-scale"), "timeout");
    assert_eq!(
        verdict(&results, "hana", "rejects-a-bad-scale"),
        "wrong-output"
    );
    assert_eq!(verdict(&results, "bob", "body-temperature"), "wrong-output");
    assert_eq!(verdict(&results, "bob", "boiling-point"), "pass");
    // The reports are there, and bob's feedback names his answer.
    let out = work.path().join("out");
    for file in [
        "index.html",
        "gradebook.csv",
        "junit.xml",
        "feedback/bob.html",
    ] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let feedback = fs::read_to_string(out.join("feedback/bob.md")).unwrap();
    assert!(feedback.contains("98.6 F is 0.0 C"), "{feedback}");
}

#[test]
fn python_and_cpp_references_pin_the_same_transcripts_and_grade_alike() {
    let work = tempfile::tempdir().unwrap();
    let shipped = pins_of(&example("temperature"));
    assert_eq!(shipped.len(), 8);
    for reference in ["solution.py", "solution.cpp"] {
        let suite = temperature_suite(work.path(), reference, Some(&fixture(reference)), false);
        let proposed = run(work.path(), &["cases", "update", suite.to_str().unwrap()]);
        assert_eq!(proposed.status.code(), Some(0), "{}", stderr(&proposed));
        let taken = run(
            work.path(),
            &["cases", "update", "--accept", suite.to_str().unwrap()],
        );
        assert!(
            stdout(&taken).contains("8 transcripts pinned."),
            "{}",
            stdout(&taken)
        );
        assert_eq!(
            pins_of(&suite),
            shipped,
            "{reference} pins what the C solution pins"
        );
        let results = grade(
            work.path(),
            &suite,
            &work.path().join(format!("out-{reference}")),
            &example("temperature-class"),
        );
        assert_eq!(scores(&results), expected_scores(), "{reference}");
        // Gradescope's results, from the suite alone.
        let json = work.path().join(format!("gradescope-{reference}.json"));
        let done = run(
            work.path(),
            &[
                "gradescope",
                "--cases",
                suite.to_str().unwrap(),
                "--submission",
                example("temperature-class/hana.c").to_str().unwrap(),
                "--results",
                json.to_str().unwrap(),
            ],
        );
        assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
        let graded: Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
        assert_eq!(graded["score"], 8.0, "{reference}");
    }
}

#[test]
fn a_suite_that_ships_its_pins_grades_without_the_reference() {
    let work = tempfile::tempdir().unwrap();
    let with = grade(
        work.path(),
        &example("temperature"),
        &work.path().join("with"),
        &example("temperature-class"),
    );
    let suite = temperature_suite(work.path(), "no-source", None, true);
    fs::remove_file(suite.join("solution.c")).unwrap();
    let without = grade(
        work.path(),
        &suite,
        &work.path().join("without"),
        &example("temperature-class"),
    );
    assert_eq!(scores(&with), scores(&without));
    let explanations = |r: &Value| -> Vec<String> {
        r["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["cases"].as_array().unwrap().clone())
            .map(|c| c["explanation"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(explanations(&with), explanations(&without));
    // validate reads the pins and says it could not check them.
    let validated = run(work.path(), &["cases", "validate", suite.to_str().unwrap()]);
    assert_eq!(validated.status.code(), Some(0), "{}", stdout(&validated));
    assert!(stdout(&validated).contains("not checked against the reference, which is not here"));
    // A case added without its pin cannot be judged: said, nothing graded.
    fs::write(suite.join("new.yaml"), "input: [C, '5']\n").unwrap();
    let out = work.path().join("refused");
    let refused = run(
        work.path(),
        &[
            "grade",
            "--cases",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            example("temperature-class").to_str().unwrap(),
        ],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("case new has no pinned transcript, and the reference program"),
        "{}",
        stderr(&refused)
    );
    assert!(!out.join("results.json").exists(), "nothing graded");
}

#[test]
fn check_and_gradescope_work_with_the_cases_folder_alone() {
    let work = tempfile::tempdir().unwrap();
    let cases = example("temperature");
    let bob = example("temperature-class/bob.c");
    let checked = run(
        work.path(),
        &[
            "check",
            "--cases",
            cases.to_str().unwrap(),
            bob.to_str().unwrap(),
        ],
    );
    assert_eq!(checked.status.code(), Some(1), "{}", stderr(&checked));
    let text = stdout(&checked);
    assert!(text.contains("(temperature, 3 cases)"), "{text}");
    assert!(text.contains("✗ body-temperature"), "{text}");
    assert!(
        text.contains("your program printed `98.6 F is 0.0 C`"),
        "{text}"
    );
    let results = work.path().join("gradescope.json");
    let graded = run(
        work.path(),
        &[
            "gradescope",
            "--cases",
            cases.to_str().unwrap(),
            "--submission",
            bob.to_str().unwrap(),
            "--results",
            results.to_str().unwrap(),
        ],
    );
    assert_eq!(graded.status.code(), Some(0), "{}", stderr(&graded));
    let json: Value = serde_json::from_slice(&fs::read(&results).unwrap()).unwrap();
    assert_eq!(json["score"], 4.0);
    assert_eq!(json["tests"].as_array().unwrap().len(), 8);
}

#[test]
fn support_files_reach_the_compiler_and_the_program() {
    let work = tempfile::tempdir().unwrap();
    let suite = work.path().join("hello");
    fs::create_dir_all(suite.join("data")).unwrap();
    for file in ["support.c", "cs50.h", "greeting.py", "data/words.txt"] {
        fs::copy(fixture(file), suite.join(file)).unwrap();
    }
    fs::write(
        suite.join("suite.yaml"),
        "reference: support.c\nsupport: [cs50.h, greeting.py, data/words.txt]\n\
         defaults:\n  visibility: public\n",
    )
    .unwrap();
    fs::write(suite.join("ada.yaml"), "input: [Ada]\n").unwrap();
    let pinned = run(work.path(), &["cases", "update", suite.to_str().unwrap()]);
    assert!(
        stdout(&pinned).contains("Hello, Ada: 3 words, from the course's own header."),
        "{}{}",
        stdout(&pinned),
        stderr(&pinned)
    );
    run(
        work.path(),
        &["cases", "update", "--accept", suite.to_str().unwrap()],
    );
    // Students include the header either way, or write Python.
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    let source = fs::read_to_string(fixture("support.c")).unwrap();
    fs::write(class.join("angle.c"), &source).unwrap();
    fs::write(
        class.join("quoted.c"),
        source.replace("#include <cs50.h>", "#include \"cs50.h\""),
    )
    .unwrap();
    fs::copy(fixture("support.py"), class.join("python.py")).unwrap();
    let results = grade(work.path(), &suite, &work.path().join("out"), &class);
    for (id, score, status) in scores(&results) {
        assert_eq!((score, status.as_str()), (1.0, "graded"), "{id}");
    }
}

/// Runs `grade` on a suite that cannot be used; its stderr.
fn refused_grade(work: &Path, suite: &Path) -> String {
    let out = work.join(format!(
        "out-{}",
        suite.file_name().unwrap().to_string_lossy()
    ));
    let done = run(
        work,
        &[
            "grade",
            "--cases",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            example("temperature-class/alice.c").to_str().unwrap(),
        ],
    );
    assert_eq!(done.status.code(), Some(2), "{}", stdout(&done));
    assert!(!out.join("results.json").exists(), "nothing graded");
    stderr(&done)
}

/// A suite of one case whose reference is `program` (copied in).
fn one_case_suite(work: &Path, name: &str, program: &Path, input: &str) -> PathBuf {
    let dir = work.join(name);
    fs::create_dir_all(&dir).unwrap();
    let file = program.file_name().unwrap().to_str().unwrap();
    fs::copy(program, dir.join(file)).unwrap();
    fs::write(
        dir.join("suite.yaml"),
        format!("reference: {file}\ndefaults:\n  timeout: 2s\n  cpu: 1s\n"),
    )
    .unwrap();
    fs::write(dir.join("only.yaml"), format!("input: {input}\n")).unwrap();
    dir
}

#[test]
fn a_reference_that_cannot_say_what_is_expected_is_said_and_nothing_graded() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    // Missing, with no pin.
    let missing = temperature_suite(w, "missing", None, false);
    fs::remove_file(missing.join("solution.c")).unwrap();
    let said = refused_grade(w, &missing);
    assert!(
        said.contains("has no pinned transcript, and the reference program"),
        "{said}"
    );
    // Does not compile: the compiler's messages, as the suite's trouble.
    let broken = one_case_suite(w, "broken", &example("temperature-class/erin.c"), "[q]");
    let said = refused_grade(w, &broken);
    assert!(
        said.contains("does not compile, so no case can be judged"),
        "{said}"
    );
    assert!(
        said.contains("error: expected"),
        "the compiler's words: {said}"
    );
    // Crashes, and loops, on a case.
    let crashes = one_case_suite(w, "crashes", &fixture("crashes.c"), "['1', '2']");
    let said = refused_grade(w, &crashes);
    assert!(
        said.contains("was killed by SIGSEGV") && said.contains("on case only"),
        "{said}"
    );
    let loops = one_case_suite(w, "loops", &fixture("loops.c"), "['1']");
    let said = refused_grade(w, &loops);
    assert!(
        said.contains("was still running after its time limit"),
        "{said}"
    );
    // Both a game and a reference.
    let both = one_case_suite(w, "both", &fixture("crashes.c"), "['1']");
    let yaml = fs::read_to_string(both.join("suite.yaml")).unwrap();
    fs::write(both.join("suite.yaml"), format!("game: pentago\n{yaml}")).unwrap();
    let said = refused_grade(w, &both);
    assert!(
        said.contains("suite.yaml:2:1: a suite has either `game`"),
        "{said}"
    );
    // In Gradescope, the student is told to ask the instructor.
    let results = w.join("gradescope.json");
    let done = run(
        w,
        &[
            "gradescope",
            "--cases",
            broken.to_str().unwrap(),
            "--submission",
            example("temperature-class/alice.c").to_str().unwrap(),
            "--results",
            results.to_str().unwrap(),
        ],
    );
    assert_eq!(done.status.code(), Some(2));
    let json: Value = serde_json::from_slice(&fs::read(&results).unwrap()).unwrap();
    assert!(json["output"]
        .as_str()
        .unwrap()
        .contains("Please tell your instructor"));
}

#[test]
fn explore_finds_the_planted_bug_shrinks_it_and_finds_nothing_in_a_correct_program() {
    let work = tempfile::tempdir().unwrap();
    let cases = example("temperature");
    let explore = |who: &str, games: &str| {
        let program = example(&format!("temperature-class/{who}"));
        run(
            work.path(),
            &[
                "explore",
                "--cases",
                cases.to_str().unwrap(),
                "--games",
                games,
                program.to_str().unwrap(),
            ],
        )
    };
    let bob = explore("bob.c", "2000");
    assert_eq!(
        bob.status.code(),
        Some(1),
        "{}{}",
        stdout(&bob),
        stderr(&bob)
    );
    let saved = work.path().join("explored/temperature");
    let case = fs::read_dir(&saved)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "yaml") && !p.ends_with("suite.yaml"))
        .unwrap();
    let text = fs::read_to_string(&case).unwrap();
    let typed: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let lines = typed["input"].as_sequence().unwrap();
    assert!(lines.len() <= 3, "shrunk to at most 3 lines: {text}");
    assert!(
        lines
            .iter()
            .any(|l| l.as_str().unwrap().eq_ignore_ascii_case("f")),
        "the bug is in Fahrenheit: {text}"
    );
    // The saved case replays the difference, and validates.
    let replay = run(
        work.path(),
        &[
            "check",
            "--cases",
            saved.to_str().unwrap(),
            example("temperature-class/bob.c").to_str().unwrap(),
        ],
    );
    assert_eq!(replay.status.code(), Some(1), "{}", stdout(&replay));
    let validated = run(work.path(), &["cases", "validate", saved.to_str().unwrap()]);
    assert_eq!(validated.status.code(), Some(0), "{}", stdout(&validated));
    let alice = explore("alice.c", "300");
    assert_eq!(
        alice.status.code(),
        Some(0),
        "{}{}",
        stdout(&alice),
        stderr(&alice)
    );
    assert!(
        stdout(&alice).contains("300 games explored"),
        "{}",
        stdout(&alice)
    );
}

#[test]
fn a_generator_that_fails_is_said() {
    let work = tempfile::tempdir().unwrap();
    let suite = temperature_suite(work.path(), "failing", None, true);
    fs::copy(fixture("fails.py"), suite.join("gen.py")).unwrap();
    let done = run(
        work.path(),
        &[
            "explore",
            "--cases",
            suite.to_str().unwrap(),
            example("temperature-class/alice.c").to_str().unwrap(),
        ],
    );
    assert_eq!(done.status.code(), Some(2));
    assert!(
        stderr(&done).contains("the generator gen.py exited with status 1 for seed 0"),
        "{}",
        stderr(&done)
    );
}

#[test]
fn a_case_can_end_its_input_as_ctrl_d_does() {
    let work = tempfile::tempdir().unwrap();
    let suite = one_case_suite(
        work.path(),
        "wc",
        &fixture("wc.c"),
        "[the quick brown, fox]",
    );
    fs::write(
        suite.join("ended.yaml"),
        "input: [the quick brown, fox]\nend_of_input: true\nvisibility: public\n",
    )
    .unwrap();
    run(work.path(), &["cases", "update", suite.to_str().unwrap()]);
    run(
        work.path(),
        &["cases", "update", "--accept", suite.to_str().unwrap()],
    );
    let ended = fs::read_to_string(suite.join("ended.transcript")).unwrap();
    assert!(ended.contains("2 lines, 4 words\n"), "{ended}");
    assert!(
        ended.ends_with("at the ends of lines 2, 3, then the end of input⟩\n"),
        "{ended}"
    );
    // Without the end, the reference is still reading when the input runs out.
    let open = fs::read_to_string(suite.join("only.transcript")).unwrap();
    assert!(
        open.contains("⟨still waiting for input⟩") && !open.contains("words"),
        "{open}"
    );
    // A Python student reading to the end passes however waits are seen.
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    fs::copy(fixture("wc.py"), class.join("python.py")).unwrap();
    fs::copy(fixture("wc.c"), class.join("c.c")).unwrap();
    for detect in ["notify", "proc", "none"] {
        let out = work.path().join(format!("out-{detect}"));
        let done = referee_with(
            work.path(),
            &[
                "grade",
                "--cases",
                suite.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                class.to_str().unwrap(),
            ],
            &[("REFEREE_DETECT", detect)],
        );
        assert_eq!(done.status.code(), Some(0), "{detect}: {}", stderr(&done));
        let results: Value =
            serde_json::from_slice(&fs::read(out.join("results.json")).unwrap()).unwrap();
        assert_eq!(verdict(&results, "python", "ended"), "pass", "{detect}");
        assert_eq!(verdict(&results, "c", "ended"), "pass", "{detect}");
    }
}

/// The first `sh` block of docs/your-own-assignment.md's section `heading`.
fn readme_block(heading: &str) -> String {
    let readme = fs::read_to_string(root().join("docs/your-own-assignment.md")).unwrap();
    let section = &readme[readme.find(heading).unwrap_or_else(|| panic!("{heading}"))..];
    let start = section.find("```sh\n").unwrap() + "```sh\n".len();
    section[start..start + section[start..].find("```\n").unwrap()].to_string()
}

#[test]
fn the_readmes_own_assignment_works_as_written() {
    let work = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root().join("examples"), work.path().join("examples")).unwrap();
    let binaries = Path::new(env!("CARGO_BIN_EXE_referee")).parent().unwrap();
    let path = format!(
        "{}:{}",
        binaries.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script = readme_block("# Your own assignment");
    assert!(script.matches("referee ").count() >= 5, "{script}");
    let done = std::process::Command::new("bash")
        .args(["-e", "-c", &script])
        .current_dir(work.path())
        .env("PATH", path)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(done.status.success(), "{}{}", stdout(&done), stderr(&done));
    let said = stdout(&done);
    assert!(
        said.contains("Score: 2/2 points. Every case passes."),
        "{said}"
    );
    let results: Value =
        serde_json::from_slice(&fs::read(work.path().join("lab2-results/results.json")).unwrap())
            .unwrap();
    assert_eq!(results["game"], "lab2");
    assert_eq!(results["submissions"].as_array().unwrap().len(), 8);
    assert_eq!(
        verdict(&results, "hana", "rejects-a-bad-scale"),
        "wrong-output"
    );
    assert_eq!(verdict(&results, "carol", "example"), "pass");
}
