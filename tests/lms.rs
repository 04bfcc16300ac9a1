//! Grade files for the learning systems TAs use: a class downloaded from
//! Canvas, Blackboard and Moodle (each file named as that system's
//! download names it) and students mapped with `--roster`, graded; each
//! system's file is checked against the columns that system documents.

mod common;

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use common::*;
use serde_json::Value;

/// The class: a student from each system's download, one mapped by the
/// roster, one with no id anywhere; two of them with a bug.
fn class(dir: &Path) -> std::path::PathBuf {
    let class = dir.join("class");
    let correct = test_file("fixtures/connect4/correct.c");
    let buggy = test_file("fixtures/connect4/bugs/accepts-column-6.c");
    let put = |name: &str, from: &Path| {
        let to = class.join(name);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(from, to).unwrap();
    };
    // Canvas: lastfirst_<user id>_<submission id>_<file>, late ones marked.
    put("lovelaceada_12345_67890_lab6.c", &correct);
    put("hoppergrace_late_23456_78901_lab6.c", &buggy);
    // Blackboard: <assignment>_<username>_attempt_<date>_<file>.
    put("Lab 6_jsmith2_attempt_2026-11-30-23-59-59_lab6.c", &buggy);
    // Moodle: <full name>_<participant>_assignsubmission_file_/<file>.
    put("Zoë Müller_123_assignsubmission_file_/lab6.c", &correct);
    // Named by hand: one on the roster, one not.
    put("alice.c", &correct);
    put("bob.c", &correct);
    class
}

fn read_csv(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// Every student's score in results.json, by id.
fn scores(results: &Value) -> HashMap<String, String> {
    results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let score = s["score"].as_f64().unwrap();
            (s["id"].as_str().unwrap().to_string(), format!("{score}"))
        })
        .collect()
}

#[test]
fn each_learning_system_gets_the_file_it_imports() {
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite(
        "connect4",
        work.path(),
        &["seed-example-1", "invalid-column-full", "invalid-column-6"],
    );
    let class = class(work.path());
    fs::write(
        work.path().join("roster.csv"),
        "id,lms,lms_id,name\nalice,canvas,34567,\"Liddell, Alice\"\n",
    )
    .unwrap();
    let out = work.path().join("out");
    let run = grade_connect4(
        work.path(),
        &cases,
        &out,
        &["--roster", "roster.csv"],
        &class,
    );
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("not on the roster, so in no learning system's grade file: bob"),
        "{}",
        stderr(&run)
    );
    let results = read_json(&out.join("results.json"));
    let scores = scores(&results);
    let max = &format!("{}", results["suite"]["max_score"].as_f64().unwrap());
    let title = "APS105 Lab 6 - Connect Four";

    // Canvas: Student,ID,SIS User ID,SIS Login ID,Section, the assignment;
    // then the Points Possible row; a row per Canvas user id.
    let canvas = read_csv(&out.join("canvas-grades.csv"));
    assert_eq!(
        canvas[0],
        [
            "Student",
            "ID",
            "SIS User ID",
            "SIS Login ID",
            "Section",
            title
        ]
    );
    assert_eq!(canvas[1], ["Points Possible", "", "", "", "", max]);
    let rows: Vec<&[String]> = canvas[2..].iter().map(Vec::as_slice).collect();
    assert_eq!(rows.len(), 3, "{canvas:?}");
    for (id, name, canvas_id) in [
        ("alice", "Liddell, Alice", "34567"),
        ("hoppergrace", "hoppergrace", "23456"),
        ("lovelaceada", "lovelaceada", "12345"),
    ] {
        let row = rows
            .iter()
            .find(|r| r[1] == canvas_id)
            .unwrap_or_else(|| panic!("no Canvas row for {canvas_id}: {canvas:?}"));
        assert_eq!(*row, [name, canvas_id, "", "", "", &scores[id]]);
    }
    assert_ne!(&scores["hoppergrace"], max, "the buggy student lost points");

    // Blackboard: Last Name,First Name,Username, the column with its points.
    let blackboard = read_csv(&out.join("blackboard-grades.csv"));
    assert_eq!(
        blackboard,
        [
            vec![
                "Last Name".to_string(),
                "First Name".into(),
                "Username".into(),
                format!("{title} [Total Pts: {max} Score]"),
            ],
            vec![
                "".into(),
                "".into(),
                "jsmith2".into(),
                scores["jsmith2"].clone()
            ],
        ]
    );

    // Moodle: the grading worksheet, matched by "Participant <number>".
    let moodle = read_csv(&out.join("moodle-grades.csv"));
    assert_eq!(
        moodle,
        [
            ["Identifier", "Full name", "Grade", "Maximum Grade"],
            ["Participant 123", "Zoë Müller", max, max],
        ]
    );
    // Every file is CRLF-terminated, as the systems' importers expect.
    for file in [
        "canvas-grades.csv",
        "blackboard-grades.csv",
        "moodle-grades.csv",
    ] {
        let text = fs::read_to_string(out.join(file)).unwrap();
        assert!(
            text.ends_with("\r\n") && !text.replace("\r\n", "").contains('\n'),
            "{file}"
        );
    }

    // Graded again without those students, the files they needed go.
    let alone = work.path().join("alone");
    fs::create_dir_all(&alone).unwrap();
    fs::copy(class.join("bob.c"), alone.join("bob.c")).unwrap();
    let run = grade_connect4(work.path(), &cases, &out, &["--force"], &alone);
    assert!(run.status.success(), "{}", stderr(&run));
    for file in [
        "canvas-grades.csv",
        "blackboard-grades.csv",
        "moodle-grades.csv",
    ] {
        assert!(
            !out.join(file).exists(),
            "{file} is left from the last class"
        );
    }
}

#[test]
fn a_bad_roster_stops_before_grading_and_says_where() {
    let work = tempfile::tempdir().unwrap();
    fs::write(
        work.path().join("roster.csv"),
        "id,lms,lms_id\nalice,canva,1\n",
    )
    .unwrap();
    fs::copy(
        test_file("fixtures/connect4/correct.c"),
        work.path().join("alice.c"),
    )
    .unwrap();
    let run = referee_in(
        work.path(),
        &[
            "grade",
            "--game",
            "connect4",
            "--out",
            "out",
            "--roster",
            "roster.csv",
            "alice.c",
        ],
    );
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("roster.csv:2: lms is `canva`: give canvas, blackboard or moodle"),
        "{}",
        stderr(&run)
    );
    assert!(
        !work.path().join("out/results.json").exists(),
        "nothing graded"
    );
}
