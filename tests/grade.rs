//! `referee grade` on whole classes: every kind of submission, the
//! documented schema, shards, reruns, and workers.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;
use serde_json::Value;

/// Cases for each game's class.
fn cases_of(game: &str) -> &'static [&'static str] {
    match game {
        "connect4" => &[
            "seed-example-1",
            "seed-example-2",
            "win-diagonal-to-top-right-corner",
            "invalid-column-full",
        ],
        "pentago" => &[
            "seed-sample-run",
            "seed-test-input-2-tie",
            "rotate-quadrant-2-left",
            "occupied-square-refused",
            "display-board-exact",
        ],
        _ => &[
            "square-4x4-vertical-win",
            "drop-piece-handout-example",
            "drop-piece-column-0-returns-minus-1",
            "horizontal-player-2-returns-2",
            "game-4x4-horizontal-win-player-2",
        ],
    }
}

/// A class of at least 30 submissions in the layouts TAs get: plain files
/// named by student, a folder per student, LMS export names; correct
/// programs, every known-bad fixture, two that do not compile, an endless
/// loop, a crash, and an empty folder.
fn write_class(game: &str, dir: &Path) -> usize {
    let fixtures = test_file(&format!("fixtures/{game}"));
    let ext = if game == "connect4-bomb" { "py" } else { "c" };
    let correct = fixtures.join(format!("correct.{ext}"));
    let mut copies: Vec<(String, PathBuf)> = vec![
        (format!("alice.{ext}"), correct.clone()),
        (format!("bob/main.{ext}"), correct.clone()),
        (format!("smithjohn_12345_67890_lab.{ext}"), correct.clone()),
        (
            format!("Lab_jdoe7_attempt_2025-03-08-23-59-59_lab.{ext}"),
            correct.clone(),
        ),
    ];
    for entry in fs::read_dir(fixtures.join("bugs")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        copies.push((format!("bug-{name}.{ext}"), path));
    }
    let mut i = 0;
    while copies.len() < 28 {
        i += 1;
        copies.push((format!("student{i:02}/lab.{ext}"), correct.clone()));
    }
    for (name, source) in &copies {
        let target = dir.join(name);
        fs::create_dir_all(target.parent().unwrap()).unwrap();
        fs::copy(source, target).unwrap();
    }
    let count = copies.len();
    let broken = dir.join(format!("broken.{ext}"));
    fs::write(
        &broken,
        if ext == "c" {
            "int main(void) { return 0 }\n"
        } else {
            "def broken(:\n"
        },
    )
    .unwrap();
    // In Python every function loops (or raises) too, for function cases.
    let functions = [
        "board_full",
        "drop_piece",
        "drop_bomb",
        "horizontal_winner",
        "vertical_winner",
        "diagonal_winner",
    ];
    let python = |body: &str| {
        let mut text: String = functions
            .iter()
            .map(|f| format!("def {f}(*args):\n    {body}\n"))
            .collect();
        text.push_str(&format!("if __name__ == '__main__':\n    {body}\n"));
        text
    };
    let looping = dir.join(format!("loops.{ext}"));
    let source = if ext == "c" {
        "int main(void) { for (;;) {} }\n".to_string()
    } else {
        python("while True: pass")
    };
    fs::write(&looping, source).unwrap();
    let crashing = dir.join(format!("crashes.{ext}"));
    let source = if ext == "c" {
        "int main(void) { int *p = 0; return *p; }\n".to_string()
    } else {
        python("raise RuntimeError('boom')")
    };
    fs::write(&crashing, source).unwrap();
    fs::create_dir_all(dir.join("empty-folder")).unwrap();
    count + 4
}

fn grade(args: &[&str]) -> Output {
    let work = tempfile::tempdir().unwrap();
    referee_in(work.path(), args)
}

/// The first place two JSON values differ, as a path.
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for key in x.keys().chain(y.keys()) {
                let (va, vb) = (
                    x.get(key).unwrap_or(&Value::Null),
                    y.get(key).unwrap_or(&Value::Null),
                );
                if let Some(found) = first_difference(va, vb, &format!("{path}.{key}")) {
                    return Some(found);
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (va, vb))| first_difference(va, vb, &format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => Some(format!("{path}: {a} vs {b}")),
    }
}

fn assert_same(a: Value, b: Value) {
    let (a, b) = (without_times(a), without_times(b));
    if let Some(difference) = first_difference(&a, &b, "") {
        panic!("the results differ at {difference}");
    }
}

fn validate(results: &Value) {
    assert_follows_schema(results);
}

fn run_class(game: &str, work: &Path, jobs: &str) -> (PathBuf, usize, Value) {
    let class = work.join(format!("class-{game}"));
    fs::create_dir_all(&class).unwrap();
    let count = write_class(game, &class);
    let cases = small_suite(game, work, cases_of(game));
    let out = work.join(format!("out-{game}-{jobs}"));
    let output = grade(&[
        "grade",
        "--game",
        game,
        "--cases",
        cases.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        jobs,
        class.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{game}: {}{}",
        stdout(&output),
        stderr(&output)
    );
    (out.clone(), count, read_json(&out.join("results.json")))
}

#[test]
fn a_class_of_every_kind_is_graded_for_each_game() {
    let work = tempfile::tempdir().unwrap();
    for game in ["connect4", "pentago", "connect4-bomb"] {
        let (out, count, results) = run_class(game, work.path(), "2");
        assert!(count >= 30, "{game}: only {count} submissions");
        validate(&results);
        let submissions = results["submissions"].as_array().unwrap();
        assert_eq!(submissions.len(), count, "{game}");
        let by_id = |id: &str| {
            submissions
                .iter()
                .find(|s| s["id"] == id)
                .unwrap_or_else(|| panic!("{game}: no submission {id}"))
        };
        for id in ["alice", "bob", "smithjohn", "jdoe7", "student01"] {
            assert_eq!(by_id(id)["score"], by_id(id)["max_score"], "{game}: {id}");
        }
        // A C file that does not compile, a Python file with a syntax
        // error (found when its first case fails before reading): both
        // compile errors, no case counts.
        let broken = by_id("broken");
        assert_eq!(broken["status"], "compile-error", "{game}");
        assert_eq!(broken["score"], 0.0, "{game}");
        assert_eq!(by_id("empty-folder")["status"], "error", "{game}");
        let verdicts = |id: &str| -> Vec<String> {
            by_id(id)["cases"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["verdict"].as_str().unwrap().to_string())
                .collect()
        };
        assert!(
            verdicts("loops").iter().all(|v| v == "timeout"),
            "{game}: {:?}",
            verdicts("loops")
        );
        assert!(
            verdicts("crashes").iter().all(|v| v == "crashed"),
            "{game}: {:?}",
            verdicts("crashes")
        );
        let bugs: Vec<&Value> = submissions
            .iter()
            .filter(|s| s["id"].as_str().unwrap().starts_with("bug-"))
            .collect();
        assert!(
            bugs.iter()
                .any(|s| s["score"].as_f64() < s["max_score"].as_f64()),
            "{game}"
        );
        assert!(out.join("details").is_dir());
    }
}

#[test]
fn results_do_not_depend_on_the_number_of_workers() {
    let work = tempfile::tempdir().unwrap();
    let (_, _, one) = run_class("connect4", work.path(), "1");
    let (_, _, eight) = run_class("connect4", work.path(), "8");
    assert_same(one, eight);
}

#[test]
fn shards_merged_equal_one_run() {
    let work = tempfile::tempdir().unwrap();
    let (_, _, whole) = run_class("pentago", work.path(), "2");
    let class = work.path().join("class-pentago");
    let cases = work.path().join("cases-pentago");
    let mut shard_dirs = Vec::new();
    let mut seen = 0;
    for k in 1..=3 {
        let out = work.path().join(format!("shard{k}"));
        let output = grade(&[
            "grade",
            "--game",
            "pentago",
            "--cases",
            cases.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--shard",
            &format!("{k}/3"),
            class.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let part = read_json(&out.join("results.json"));
        validate(&part);
        assert_eq!(part["shard"], format!("{k}/3"));
        seen += part["submissions"].as_array().unwrap().len();
        shard_dirs.push(out);
    }
    assert_eq!(
        seen,
        whole["submissions"].as_array().unwrap().len(),
        "each submission in exactly one shard"
    );
    let merged_dir = work.path().join("merged");
    let mut args = vec![
        "merge".to_string(),
        "--out".into(),
        merged_dir.to_str().unwrap().into(),
    ];
    args.extend(shard_dirs.iter().map(|d| d.to_str().unwrap().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = grade(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let merged = read_json(&merged_dir.join("results.json"));
    validate(&merged);
    assert_same(merged, whole);
    // The same shard twice is refused.
    let twice = grade(&[
        "merge",
        "--out",
        work.path().join("bad").to_str().unwrap(),
        shard_dirs[0].to_str().unwrap(),
        shard_dirs[0].to_str().unwrap(),
    ]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        stderr(&twice).contains("shard 1/3 is given twice"),
        "{}",
        stderr(&twice)
    );
    // A shard missing is refused, naming it and its students.
    let total = seen;
    let third = shard_dirs[2].to_str().unwrap();
    let lacking = read_json(&shard_dirs[2].join("results.json"))["submissions"]
        .as_array()
        .unwrap()
        .len();
    let partial = |extra: &[&str], out: &str| {
        let out = work.path().join(out);
        let mut args = vec!["merge", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.extend([
            shard_dirs[0].to_str().unwrap(),
            shard_dirs[1].to_str().unwrap(),
        ]);
        (grade(&args), out)
    };
    let (refused, _) = partial(&[], "partial");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains(&format!(
            "shard 3/3 is missing ({lacking} student{} of the class): name its folder too, or \
             add --allow-missing",
            if lacking == 1 { "" } else { "s" }
        )),
        "{}",
        stderr(&refused)
    );
    // With --allow-missing, every report says what is missing.
    let (allowed, out) = partial(&["--allow-missing"], "partial");
    assert!(allowed.status.success(), "{}", stderr(&allowed));
    let results = read_json(&out.join("results.json"));
    validate(&results);
    assert_eq!(results["missing"]["shards"], serde_json::json!(["3/3"]));
    assert_eq!(results["missing"]["students"], lacking);
    assert_eq!(results["class"]["students"], total);
    let sentence = format!("Shard 3/3 was not merged: {lacking} of the class's {total} students");
    assert!(stderr(&allowed).contains(&sentence), "{}", stderr(&allowed));
    // (The pages escape the apostrophe.)
    let shown = format!("Shard 3/3 was not merged: {lacking} of the class");
    for report in ["index.html", "junit.xml"] {
        let text = std::fs::read_to_string(out.join(report)).unwrap();
        assert!(text.contains(&shown), "{report}: {text}");
    }
    // Shards of another split are refused.
    let four = work.path().join("shard1of4");
    let graded = grade(&[
        "grade",
        "--game",
        "pentago",
        "--cases",
        cases.to_str().unwrap(),
        "--out",
        four.to_str().unwrap(),
        "--shard",
        "1/4",
        class.to_str().unwrap(),
    ]);
    assert!(graded.status.success(), "{}", stderr(&graded));
    let mixed = grade(&[
        "merge",
        "--allow-missing",
        "--out",
        work.path().join("mixed").to_str().unwrap(),
        four.to_str().unwrap(),
        third,
    ]);
    assert_eq!(mixed.status.code(), Some(2));
    assert!(
        stderr(&mixed).contains("they are of different splits of the class"),
        "{}",
        stderr(&mixed)
    );
}

#[test]
fn a_rerun_regrades_only_what_changed() {
    let work = tempfile::tempdir().unwrap();
    let (out, count, first) = run_class("connect4", work.path(), "2");
    let class = work.path().join("class-connect4");
    let cases = work.path().join("cases-connect4");
    let again = |extra: &[&str]| {
        let elsewhere = tempfile::tempdir().unwrap();
        let output = grade_connect4(elsewhere.path(), &cases, &out, extra, &class);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    let text = again(&[]);
    assert!(
        text.contains(&format!("({count} unchanged since the last run)")),
        "{text}"
    );
    assert_same(read_json(&out.join("results.json")), first);
    // One student resubmits: only that one is graded again.
    fs::copy(
        test_file("fixtures/connect4/bugs/missed-diagonal.c"),
        class.join("alice.c"),
    )
    .unwrap();
    let text = again(&[]);
    assert!(
        text.contains(&format!("({} unchanged since the last run)", count - 1)),
        "{text}"
    );
    let text = again(&["--force"]);
    assert!(text.contains("(0 unchanged since the last run)"), "{text}");
}

#[test]
fn the_grader_fails_loudly_only_for_its_own_problems() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let missing = grade(&[
        "grade",
        "--game",
        "pentago",
        "--out",
        out.to_str().unwrap(),
        "/no/such/class",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("/no/such/class"),
        "{}",
        stderr(&missing)
    );
    let bad_cases = work.path().join("bad-cases");
    fs::create_dir(&bad_cases).unwrap();
    let output = grade(&[
        "grade",
        "--game",
        "pentago",
        "--cases",
        bad_cases.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        test_file("fixtures/pentago/correct.c").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("suite.yaml"),
        "{}",
        stderr(&output)
    );
}

/// `--timings` says where a grade's time went, phase by phase, counting
/// what each phase did: the suite's cases once each, every program built
/// once, every run.
#[test]
fn timings_name_every_phase_and_count_what_it_did() {
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite("connect4", work.path(), cases_of("connect4"));
    let out = work.path().join("out");
    let graded = referee_in(
        &root(),
        &[
            "grade",
            "--cases",
            cases.to_str().unwrap(),
            "--timings",
            "--out",
            out.to_str().unwrap(),
            "examples/class",
        ],
    );
    let text = stderr(&graded);
    let count = |phase: &str| -> u64 {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(phase))
            .unwrap_or_else(|| panic!("no {phase} line in:\n{text}"));
        line.split_whitespace().nth(3).unwrap().parse().unwrap()
    };
    assert!(text.contains("Timings: "), "{text}");
    assert_eq!(count("set-up"), 1, "{text}");
    assert_eq!(count("reference"), 4, "the suite's 4 cases:\n{text}");
    assert_eq!(count("compile"), 4, "alice, bob, carol and dave:\n{text}");
    // Three programs compile; each runs the 4 cases (dave does not compile).
    assert!(count("runs") >= 12, "{text}");
    assert_eq!(count("reports"), 1, "{text}");
    assert!(
        !stdout(&graded).contains("Timings"),
        "the table goes to stderr"
    );
}

/// An output folder of `students` copies of `graded`'s one student (its
/// entry in results.json and its details file, under new ids), as a
/// shard of a large class leaves it.
fn copies_of(graded: &Path, students: usize, into: &Path) {
    let mut results = read_json(&graded.join("results.json"));
    let one = results["submissions"][0].clone();
    let id = one["id"].as_str().unwrap().to_string();
    let detail = read_json(&graded.join(format!("details/{id}.json")));
    fs::create_dir_all(into.join("details")).unwrap();
    fs::copy(
        graded.join(".referee-out.json"),
        into.join(".referee-out.json"),
    )
    .unwrap();
    let mut submissions = Vec::new();
    for i in 0..students {
        let id = format!("s{i:05}");
        let (mut entry, mut whole) = (one.clone(), detail.clone());
        entry["id"] = id.clone().into();
        whole["id"] = id.clone().into();
        let details = into.join(format!("details/{id}.json"));
        fs::write(details, serde_json::to_vec(&whole).unwrap()).unwrap();
        submissions.push(entry);
    }
    results["submissions"] = Value::Array(submissions);
    let text = serde_json::to_vec_pretty(&results).unwrap();
    fs::write(into.join("results.json"), text).unwrap();
}

/// `merge` reads a shard's results.json as a stream, each student made
/// compact as soon as it is read: its memory grows by a compact result
/// per student (some 4 KiB, docs/reliability.md), not by the shard's
/// results.json, which it held whole before (a shard of 1,000 such
/// students, 19 MB of results.json, took 44 MiB to merge; 12 MiB now).
#[test]
fn merging_a_large_shard_takes_a_compact_result_per_student() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    let bugs = test_file("fixtures/connect4/bugs");
    fs::copy(bugs.join("board-upside-down.c"), class.join("bad.c")).unwrap();
    let graded = work.path().join("graded");
    let run = grade_builtin("connect4", work.path(), &graded, &[], &class);
    assert!(run.status.success(), "{}", stderr(&run));
    let peak = |students: usize| {
        let shard = work.path().join(format!("shard-{students}"));
        copies_of(&graded, students, &shard);
        let size = fs::metadata(shard.join("results.json")).unwrap().len();
        let out = work.path().join(format!("merged-{students}"));
        let args = [
            "merge",
            "--out",
            out.to_str().unwrap(),
            shard.to_str().unwrap(),
        ];
        let (status, peak) = referee_peak_kib(work.path(), &args);
        assert!(status.success(), "{status}");
        let merged = read_json(&out.join("results.json"));
        assert_eq!(merged["submissions"].as_array().unwrap().len(), students);
        (peak, size)
    };
    let (few, _) = peak(40);
    let (many, size) = peak(800);
    let per_student = (many.saturating_sub(few)) * 1024 / 760;
    assert!(size / 800 > 12 * 1024, "{size} bytes of results.json");
    assert!(
        per_student < 8 * 1024,
        "merging took {per_student} more bytes per student ({few} KiB for 40, {many} KiB for \
         800; results.json holds {} per student)",
        size / 800
    );
}

/// A Python file's syntax is checked when one of its cases fails before
/// reading any input, which every run of a file that does not parse
/// does: graded alone with its cases side by side, such a file is still
/// a compile error with Python's message and no case counted, while a
/// file that parses and fails before reading (an import that fails) is
/// graded, case by case.
#[test]
fn a_python_file_is_checked_for_syntax_when_a_case_fails_before_reading() {
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite(
        "connect4-bomb",
        work.path(),
        &[
            "game-4x4-horizontal-win-player-2",
            "game-5x7-horizontal-win-player-1",
            "board-full-empty-board",
        ],
    );
    for (name, source) in [
        (
            "broken.py",
            fs::read_to_string(test_file("programs/does-not-parse.py")).unwrap(),
        ),
        (
            "imports.py",
            "import no_such_module\nprint(input('?'))\n".to_string(),
        ),
    ] {
        let class = work.path().join(name.replace(".py", ""));
        fs::create_dir_all(&class).unwrap();
        fs::write(class.join(name), source).unwrap();
        let out = work.path().join(format!("out-{name}"));
        let done = grade_game(
            "connect4-bomb",
            work.path(),
            &cases,
            &out,
            &["--jobs", "2"],
            &class,
        );
        assert!(done.status.success(), "{}", stderr(&done));
        let results = read_json(&out.join("results.json"));
        let student = &results["submissions"][0];
        let verdicts: Vec<&str> = student["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["verdict"].as_str().unwrap())
            .collect();
        if name == "broken.py" {
            assert_eq!(student["status"], "compile-error", "{student}");
            assert!(
                verdicts.iter().all(|v| *v == "compile-error"),
                "{verdicts:?}"
            );
            let details = fs::read_to_string(out.join("feedback").join("broken.md")).unwrap();
            assert!(details.contains("SyntaxError"), "{details}");
        } else {
            assert_eq!(student["status"], "graded", "{student}");
            assert!(verdicts.iter().all(|v| *v == "crashed"), "{verdicts:?}");
        }
    }
}
