//! The comparisons that fit any console assignment, on real programs:
//! `prompts`, `numbers` within a tolerance and `mode: ending`, graded by
//! `referee grade` on the cases of `tests/fixtures/comparisons` (a
//! folder of Connect Four cases) with the small C and Python programs
//! `tests/programs/connect4-*`, and on a suite whose reference is a
//! program (`tests/programs/fahrenheit-*.c`), whose exit status counts.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use common::*;
use serde_json::Value;

/// The programs, each as one student of the class.
const PROGRAMS: [&str; 4] = [
    "connect4-own-words.c",
    "connect4-range-off.c",
    "connect4-decimal-range.py",
    "connect4-stops-on-bad-column.py",
];

/// The cases' folder, copied where grading may write beside it.
fn cases(work: &Path) -> std::path::PathBuf {
    let from = test_file("fixtures/comparisons");
    let to = work.join("cases");
    fs::create_dir_all(&to).unwrap();
    for entry in fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
    to
}

/// Each student's verdict on each case, and the whole results.
fn graded() -> (BTreeMap<(String, String), String>, Value) {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    for program in PROGRAMS {
        fs::copy(
            test_file(&format!("programs/{program}")),
            class.join(program),
        )
        .unwrap();
    }
    let cases = cases(work.path());
    let out_dir = work.path().join("out");
    let out = referee_in(
        work.path(),
        &[
            "grade",
            "--game",
            "connect4",
            "--cases",
            cases.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            class.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let results: Value =
        serde_json::from_str(&fs::read_to_string(out_dir.join("results.json")).unwrap()).unwrap();
    let mut verdicts = BTreeMap::new();
    for submission in results["submissions"].as_array().unwrap() {
        let id = submission["id"].as_str().unwrap().to_string();
        assert_eq!(submission["status"], "graded", "{submission}");
        for case in submission["cases"].as_array().unwrap() {
            let name = case["name"].as_str().unwrap().to_string();
            let verdict = case["verdict"].as_str().unwrap().to_string();
            verdicts.insert((id.clone(), name), verdict);
        }
    }
    let details = fs::read_to_string(out_dir.join("details/connect4-own-words.json")).unwrap();
    let details: Value = serde_json::from_str(&details).unwrap();
    assert_follows_schema(&results);
    // The details hold what results.json leaves out: the same schema.
    let mut whole = results.clone();
    whole["submissions"] = Value::Array(vec![details.clone()]);
    assert_follows_schema(&whole);
    (verdicts, details)
}

#[test]
fn each_comparison_passes_what_it_forgives_and_fails_the_rest() {
    let (verdicts, own_words) = graded();
    let verdict = |student: &str, case: &str| {
        verdicts
            .get(&(student.to_string(), case.to_string()))
            .unwrap_or_else(|| panic!("no verdict for {student} on {case}: {verdicts:?}"))
            .as_str()
    };
    // Other prompts, one of them ended by a newline: they pass only
    // where prompts are not compared.
    assert_eq!(verdict("connect4-own-words", "prompts"), "pass");
    assert_eq!(
        verdict("connect4-own-words", "prompts-exact"),
        "wrong-output"
    );
    // Its own message after a refusal is an answer: it counts.
    assert_eq!(
        verdict("connect4-own-words", "prompts-after-a-refusal"),
        "wrong-output"
    );
    // Numbers: 5.004 for 5 is within 0.01, 5.02 is not.
    assert_eq!(verdict("connect4-decimal-range", "numbers"), "pass");
    assert_eq!(
        verdict("connect4-decimal-range", "numbers-exact"),
        "wrong-output"
    );
    assert_eq!(verdict("connect4-range-off", "numbers"), "wrong-output");
    // The numbers sit in the prompts: `prompts` forgives them both.
    assert_eq!(verdict("connect4-decimal-range", "prompts"), "pass");
    assert_eq!(verdict("connect4-range-off", "prompts"), "pass");
    // The ending: asking again in other words passes, stopping fails.
    let ending = "rejects-a-column-that-does-not-exist";
    assert_eq!(verdict("connect4-own-words", ending), "pass");
    assert_eq!(verdict("connect4-decimal-range", ending), "pass");
    assert_eq!(
        verdict("connect4-stops-on-bad-column", ending),
        "wrong-output"
    );
    // Stopping at a refusal is the ending's fault only: the text it
    // printed before matches.
    assert_eq!(verdict("connect4-stops-on-bad-column", "prompts"), "pass");
    assert_eq!(
        verdict("connect4-stops-on-bad-column", "numbers-exact"),
        "pass"
    );
    // The options as results name them, and the prompts of a failure
    // kept for the pages.
    let cases = own_words["cases"].as_array().unwrap();
    let case = |name: &str| cases.iter().find(|c| c["name"] == name).unwrap();
    assert!(case("prompts-exact")["compare"].is_null());
    assert_eq!(
        case("numbers")["compare"],
        serde_json::json!(["numbers-within-0.01"])
    );
    let refused = case("prompts-after-a-refusal");
    assert_eq!(refused["compare"], serde_json::json!(["prompts"]));
    // Its prompts: Red's twice on the line it read, Yellow's on a line
    // of its own before the read it was left waiting at.
    assert_eq!(
        refused["prompts"]["actual"],
        serde_json::json!({"reads": [6, 8, 16], "prompts": [6, 8, 15, 16]})
    );
}

#[test]
fn results_name_a_tolerance_as_it_reads_back() {
    let work = tempfile::tempdir().unwrap();
    let cases = cases(work.path());
    let program = test_file("programs/connect4-range-off.c");
    let out = referee_in(
        work.path(),
        &[
            "check",
            program.to_str().unwrap(),
            "--cases",
            cases.to_str().unwrap(),
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains("your answer 5.02 differs from the reference's 5 (by more than 0.01)"),
        "{text}"
    );
    let valid = referee_in(work.path(), &["cases", "validate", cases.to_str().unwrap()]);
    assert!(
        valid.status.success(),
        "{}{}",
        stdout(&valid),
        stderr(&valid)
    );
    let list = referee_in(work.path(), &["cases", "list", cases.to_str().unwrap()]);
    let listed = stdout(&list);
    assert!(list.status.success(), "{listed}{}", stderr(&list));
    assert!(listed.contains("numbers within 0.01"), "{listed}");
    assert!(listed.contains("ignoring prompts"), "{listed}");
}

/// `check`'s verdict line for `case`.
fn verdict_line<'t>(text: &'t str, case: &str) -> &'t str {
    text.lines()
        .find(|l| l.split_whitespace().nth(1) == Some(case))
        .unwrap_or_else(|| panic!("no line for {case}:\n{text}"))
}

#[test]
fn a_program_references_exit_status_is_the_one_compared() {
    let work = tempfile::tempdir().unwrap();
    let cases = work.path().join("lab");
    fs::create_dir_all(&cases).unwrap();
    fs::copy(
        test_file("programs/fahrenheit-reference.c"),
        cases.join("fahrenheit.c"),
    )
    .unwrap();
    fs::write(
        cases.join("suite.yaml"),
        "reference: fahrenheit.c\ndefaults:\n  visibility: public\n",
    )
    .unwrap();
    fs::write(
        cases.join("converts.yaml"),
        "input: ['98.6']\ncompare: [prompts, {numbers: {absolute: 0.01}}]\n",
    )
    .unwrap();
    fs::write(
        cases.join("rejects-a-word.yaml"),
        "input: ['abc']\nmode: ending\n",
    )
    .unwrap();
    let check = |program: &str| {
        let program = test_file(&format!("programs/{program}"));
        let out = referee_in(
            work.path(),
            &[
                "check",
                program.to_str().unwrap(),
                "--cases",
                cases.to_str().unwrap(),
            ],
        );
        (out.status.code(), stdout(&out) + &stderr(&out))
    };
    let (code, text) = check("fahrenheit-own-words.c");
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = check("fahrenheit-exits-0.c");
    assert_eq!(code, Some(1), "{text}");
    assert!(verdict_line(&text, "converts").contains("pass"), "{text}");
    assert!(
        verdict_line(&text, "rejects-a-word").contains("wrong exit status"),
        "{text}"
    );
    assert!(
        text.contains(
            "After input line 1 (`abc`), the reference stopped with exit status 1; your program \
             stopped with exit status 0."
        ),
        "{text}"
    );
}
