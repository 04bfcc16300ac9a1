//! Diagnoses: planted memory errors and undefined behaviour in C
//! Connect Four programs are found by their checked builds and placed in
//! the source (file, line, function) and in the case's input (after
//! which line), and a diagnosis never changes a score.

mod common;

use std::fs;
use std::path::Path;

use common::*;
use serde_json::Value;

/// Cases that lead each planted fault to happen, and a plain game.
const CASES: &[(&str, &str)] = &[
    (
        "a-row-won-from-column-5",
        "input: |\n  5\n  5\n  4\n  4\n  3\n  3\n  2\n",
    ),
    (
        "column-6-then-a-game",
        "input: |\n  6\n  0\n  1\n  0\n  1\n  0\n  1\n  0\n",
    ),
    (
        "a-long-line",
        "input: |\n  0\n  0123456789012345678901234567890123456789\n  1\n  0\n  1\n  0\n  1\n  0\n",
    ),
    (
        "a-huge-number",
        "input: |\n  99999999999\n  0\n  1\n  0\n  1\n  0\n  1\n  0\n",
    ),
];

/// The planted programs, and the correct one they were made from.
const CLASS: &[&str] = &[
    "connect4-reads-past-row",
    "connect4-writes-past-row",
    "connect4-long-line-overruns",
    "connect4-number-overflows",
    "connect4-uses-freed-board",
];

/// A class in `dir` of `planted` (programs of tests/programs/unsafe) and
/// the correct program.
fn class(dir: &Path, planted: &[&str]) -> std::path::PathBuf {
    let class = dir.join("class");
    fs::create_dir_all(&class).unwrap();
    for name in planted {
        let from = test_file(&format!("programs/unsafe/{name}.c"));
        fs::copy(from, class.join(format!("{name}.c"))).unwrap();
    }
    fs::copy(
        test_file("fixtures/connect4/correct.c"),
        class.join("correct.c"),
    )
    .unwrap();
    class
}

fn diagnoses(results: &Value, id: &str) -> Vec<Value> {
    student(results, id)["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The one diagnosis of `kind` a student has, whole.
fn one<'a>(found: &'a [Value], kind: &str, id: &str) -> &'a Value {
    let of_kind: Vec<&Value> = found.iter().filter(|d| d["kind"] == kind).collect();
    assert!(
        !of_kind.is_empty(),
        "{id}: no {kind} among {}",
        serde_json::to_string_pretty(found).unwrap()
    );
    of_kind[0]
}

fn assert_placed(d: &Value, line: u64, function: &str, case: &str, input_line: u64) {
    assert_eq!(d["line"], line, "{d}");
    assert_eq!(d["function"], function, "{d}");
    assert_eq!(d["case"], case, "{d}");
    assert_eq!(d["input_line"], input_line, "{d}");
    assert_eq!(d["found"], "run", "{d}");
    assert!(d["source"].as_str().is_some_and(|s| !s.is_empty()), "{d}");
}

#[test]
fn planted_faults_are_found_placed_and_never_change_a_score() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite("connect4", "", CASES);
    let class = class(work.path(), CLASS);
    let plain = work.path().join("plain");
    let diagnosed = work.path().join("diagnosed");
    let out = grade_connect4(work.path(), cases.path(), &plain, &[], &class);
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "{}",
        stderr(&out)
    );
    let out = grade_connect4(
        work.path(),
        cases.path(),
        &diagnosed,
        &["--diagnose"],
        &class,
    );
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "{}",
        stderr(&out)
    );
    let summary = stdout(&out);
    let none = work.path().join("none");
    let out = grade_connect4(work.path(), cases.path(), &none, &["--no-diagnose"], &class);
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "{}",
        stderr(&out)
    );
    let plain = read_json(&plain.join("results.json"));
    let all = read_json(&diagnosed.join("results.json"));
    let none = read_json(&none.join("results.json"));

    // A diagnosis never changes a score.
    for id in CLASS.iter().chain(&["correct"]) {
        assert_eq!(
            student(&plain, id)["score"],
            student(&all, id)["score"],
            "{id}"
        );
        let cases = |r: &Value| student(r, id)["cases"].clone();
        let verdicts = |c: Value| -> Vec<Value> {
            c.as_array()
                .unwrap()
                .iter()
                .map(|c| c["verdict"].clone())
                .collect()
        };
        assert_eq!(verdicts(cases(&plain)), verdicts(cases(&all)), "{id}");
        // --no-diagnose runs nothing again: the same grade, no diagnosis.
        assert_eq!(
            student(&plain, id)["score"],
            student(&none, id)["score"],
            "{id}"
        );
        assert_eq!(verdicts(cases(&plain)), verdicts(cases(&none)), "{id}");
        assert_eq!(diagnoses(&none, id), Vec::<Value>::new(), "{id}");
    }

    // The correct program has none, with every case checked.
    assert_eq!(diagnoses(&all, "correct"), Vec::<Value>::new());

    let found = diagnoses(&all, "connect4-reads-past-row");
    let d = one(&found, "read-past-end", "reads");
    assert_placed(d, 76, "checkOneDirection", "a-row-won-from-column-5", 1);
    assert_eq!(d["input"], "5");
    assert_eq!(d["file"], "connect4-reads-past-row.c");

    let found = diagnoses(&all, "connect4-writes-past-row");
    let d = one(&found, "write-past-end", "writes");
    assert_placed(d, 49, "insertPiece", "column-6-then-a-game", 1);
    assert_eq!(d["input"], "6");
    let d = one(&found, "read-past-end", "writes");
    assert_eq!(d["line"], 48);
    assert_eq!(d["function"], "insertPiece");

    let found = diagnoses(&all, "connect4-long-line-overruns");
    let d = one(&found, "stack-overrun", "overruns");
    // A number of 11 digits overruns `char word[8]` too, and comes first.
    assert_placed(d, 32, "getInput", "a-huge-number", 1);
    assert_eq!(d["count"], 2, "{d}");
    assert!(d["message"].as_str().unwrap().contains("a write of"), "{d}");

    let found = diagnoses(&all, "connect4-number-overflows");
    let d = one(&found, "signed-overflow", "overflows");
    assert_placed(d, 37, "getInput", "a-huge-number", 1);
    assert_eq!(d["input"], "99999999999");

    // The summary names each student with diagnoses, a line each; the
    // gradebook counts them and says what and where.
    let write = "a write past the end of an array in `insertPiece` \
                 (connect4-writes-past-row.c, line 49)";
    let line = summary
        .lines()
        .find(|l| l.trim_start().starts_with("connect4-writes-past-row "))
        .unwrap_or_else(|| panic!("no line for the writer in:\n{summary}"));
    let count = diagnoses(&all, "connect4-writes-past-row").len();
    assert!(
        line.contains(&format!("{count} diagnoses: ")) && line.contains(write),
        "{line}"
    );
    assert!(
        summary.contains(&format!("Where programs break ({} students;", CLASS.len())),
        "{summary}"
    );
    assert!(!summary.contains("\n  correct "), "{summary}");
    let gradebook = read_csv(&diagnosed.join("gradebook.csv"));
    let column = |name: &str| gradebook[0].iter().position(|h| h == name).unwrap();
    let (counted, said) = (column("diagnoses"), column("diagnoses_text"));
    let row = |id: &str| gradebook.iter().find(|r| r[0] == id).unwrap().clone();
    let writer = row("connect4-writes-past-row");
    assert_eq!(writer[counted], count.to_string(), "{writer:?}");
    assert!(writer[said].contains(write), "{writer:?}");
    assert_eq!(row("correct")[counted], "0");
    assert_eq!(row("correct")[said], "");

    let found = diagnoses(&all, "connect4-uses-freed-board");
    let d = one(&found, "use-after-free", "freed");
    assert_eq!(d["function"], "printBoard", "{d}");
    assert_eq!(d["line"], 16, "{d}");
    // The compiler saw it coming too.
    let warned = found
        .iter()
        .any(|d| d["found"] == "compiler" && d["kind"] == "use-after-free");
    assert!(warned, "{found:?}");
}

#[test]
fn a_report_printed_or_forged_by_the_program_is_bounded_and_changes_nothing() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite("connect4", "", &CASES[..1]);
    let class = class(work.path(), &["prints-a-fake-report", "forges-its-report"]);
    let out_dir = work.path().join("out");
    let out = grade_connect4(work.path(), cases.path(), &out_dir, &["--diagnose"], &class);
    assert!(out.status.success(), "{}", stderr(&out));
    let all = read_json(&out_dir.join("results.json"));
    // What a program prints is never a report.
    assert_eq!(diagnoses(&all, "prints-a-fake-report"), Vec::<Value>::new());
    // A forged flood is cut to a few diagnoses, each bounded and safe.
    let forged = diagnoses(&all, "forges-its-report");
    assert!(forged.len() <= 20, "{}", forged.len());
    for d in &forged {
        let message = d["message"].as_str().unwrap();
        assert!(message.chars().count() <= 200, "{message}");
        assert!(!message.contains('\u{1b}'), "{message}");
    }
    // What the summary and the gradebook say of them is bounded and safe too.
    let summary = stdout(&out);
    assert!(!summary.contains('\u{1b}'), "{summary}");
    assert!(
        summary.lines().all(|l| l.chars().count() <= 240),
        "{summary}"
    );
    if !forged.is_empty() {
        assert!(
            summary.contains(&format!("  forges-its-report  {} diagnos", forged.len())),
            "{summary}"
        );
    }
    let gradebook = read_csv(&out_dir.join("gradebook.csv"));
    let row = gradebook
        .iter()
        .find(|r| r[0] == "forges-its-report")
        .unwrap();
    let said = row.last().unwrap();
    assert!(
        said.chars().count() <= 300 && !said.contains('\u{1b}'),
        "{said}"
    );
    // The other student is untouched.
    assert_eq!(diagnoses(&all, "correct"), Vec::<Value>::new());
    assert_eq!(
        student(&all, "correct")["score"],
        student(&all, "correct")["max_score"]
    );
}

#[test]
fn a_cpp_program_is_checked_too() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite("connect4", "", &CASES[..1]);
    let class = class(work.path(), &[]);
    fs::copy(
        test_file("programs/unsafe/use-after-free.cpp"),
        class.join("use-after-free.cpp"),
    )
    .unwrap();
    let out_dir = work.path().join("out");
    let out = grade_connect4(work.path(), cases.path(), &out_dir, &[], &class);
    assert!(out.status.success(), "{}", stderr(&out));
    let all = read_json(&out_dir.join("results.json"));
    // It fails the case (it plays no Connect Four), so its checked build
    // runs it again: g++ builds it, with the options object compiled as C.
    let found = diagnoses(&all, "use-after-free");
    let d = one(&found, "use-after-free", "cpp");
    assert_placed(d, 15, "main", "a-row-won-from-column-5", 1);
    assert_eq!(d["file"], "use-after-free.cpp");
}

/// A CSV file's records, its header first.
fn read_csv(path: &Path) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// `referee gradescope` of `program` (of tests/programs/unsafe) on
/// `cases`: Gradescope's results.json.
fn gradescope(work: &Path, cases: &Path, program: &str) -> Value {
    let results = work.join(format!("{program}.json"));
    let out = referee_in(
        work,
        &[
            "gradescope",
            "--game",
            "connect4",
            "--cases",
            cases.to_str().unwrap(),
            "--submission",
            test_file(&format!("programs/unsafe/{program}.c"))
                .to_str()
                .unwrap(),
            "--results",
            results.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    read_json(&results)
}

/// A Gradescope student has no other feedback: the diagnoses are in the
/// top-level output and in the public case's own, and a hidden case's
/// are said "in a hidden case", no name, no input, no message.
#[test]
fn gradescope_says_where_the_program_breaks_and_a_hidden_case_unnamed() {
    let work = tempfile::tempdir().unwrap();
    let program = "connect4-writes-past-row";
    let write = "A write past the end of an array in `insertPiece` \
                 (connect4-writes-past-row.c, line 49)";

    let (name, case) = CASES[1];
    let public = suite(
        "connect4",
        "",
        &[(name, &format!("visibility: public\n{case}"))],
    );
    let doc = gradescope(work.path(), public.path(), program);
    let output = doc["output"].as_str().unwrap();
    assert!(
        output.contains("\n\nWhere your program breaks:\nRunning your program with extra checks"),
        "{output}"
    );
    assert!(
        output.contains(&format!(
            "  • {write}, in case `column-6-then-a-game`, after input line 1 (`6`)"
        )),
        "{output}"
    );
    assert!(
        output.contains("\n      49 | "),
        "the line of code: {output}"
    );
    let test = &doc["tests"][0];
    assert_eq!(test["status"], "failed", "{test}");
    let own = test["output"].as_str().unwrap();
    assert!(
        own.contains("\n\nWhere your program breaks:\n  • ")
            && own.contains(&format!("  • {write}, in case `column-6-then-a-game`")),
        "{own}"
    );

    // The same case, hidden: its own output is its verdict alone, and the
    // whole output says "in a hidden case", without its input or the
    // checks' message.
    let hidden = suite(
        "connect4",
        "",
        &[(
            "zz-secret-column",
            "description: SECRET-description\nvisibility: hidden\ninput: |\n  6\n  0\n  1\n  0\n  1\n  0\n  1\n  0\n",
        )],
    );
    let doc = gradescope(work.path(), hidden.path(), program);
    let output = doc["output"].as_str().unwrap();
    assert!(
        output.contains(&format!("  • {write}, in a hidden case")),
        "{output}"
    );
    let test = &doc["tests"][0];
    assert_eq!(test["name"], "zz-secret-column");
    assert_eq!(test["visibility"], "after_published");
    let own = test["output"].as_str().unwrap();
    assert!(own.starts_with("Verdict: ") && !own.contains('\n'), "{own}");
    for text in [output, own] {
        for secret in [
            "zz-secret",
            "SECRET",
            "input line",
            "(`6`)",
            "The checks said",
        ] {
            assert!(!text.contains(secret), "{secret} in: {text}");
        }
    }
    assert!(!doc.to_string().contains("SECRET"), "{doc}");
}

/// `class` graded on `cases` with `args`: its results.json.
fn graded(work: &Path, cases: &Path, class: &Path, name: &str, args: &[&str]) -> Value {
    let out_dir = work.join(name);
    let out = grade_connect4(work, cases, &out_dir, args, class);
    assert!(out.status.success(), "{}", stderr(&out));
    read_json(&out_dir.join("results.json"))
}

#[test]
fn a_program_without_a_checked_build_or_its_reports_keeps_its_grade_and_is_told_why() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite("connect4", "", &CASES[1..2]);
    let class = class(
        work.path(),
        &[
            "connect4-own-sanitizer-options",
            "connect4-removes-its-reports",
        ],
    );
    let all = graded(work.path(), cases.path(), &class, "all", &["--diagnose"]);
    let none = graded(
        work.path(),
        cases.path(),
        &class,
        "none",
        &["--no-diagnose"],
    );
    for id in [
        "connect4-own-sanitizer-options",
        "connect4-removes-its-reports",
        "correct",
    ] {
        assert_eq!(
            student(&all, id)["score"],
            student(&none, id)["score"],
            "{id}"
        );
        assert_eq!(student(&all, id)["status"], "graded", "{id}");
    }
    // The checked build cannot be linked: the grade stands, and the
    // results say why there are no diagnoses, to the TA only: it is
    // nothing the student did wrong.
    let id = "connect4-own-sanitizer-options";
    let own = student(&all, id);
    assert_eq!(diagnoses(&all, id), Vec::<Value>::new());
    let trouble = own["diagnosis_trouble"].as_str().unwrap_or_default();
    assert!(trouble.contains("checked build"), "{own}");
    assert!(trouble.contains("__asan_default_options"), "{own}");
    assert_eq!(own["message"], Value::Null, "{own}");
    let feedback = fs::read_to_string(work.path().join(format!("all/feedback/{id}.md"))).unwrap();
    assert!(!feedback.contains("__asan_default_options"), "{feedback}");
    assert!(!feedback.contains("checked build"), "{feedback}");
    let page = fs::read_to_string(work.path().join("all/index.html")).unwrap();
    assert!(page.contains("No diagnoses made"), "{page}");
    assert!(page.contains("__asan_default_options"), "{page}");
    let plain = student(&none, id);
    assert_eq!(plain["message"], Value::Null, "{plain}");
    assert_eq!(plain["diagnosis_trouble"], Value::Null, "{plain}");
    // Its reports' folder taken away: nothing found while it ran, nothing
    // lost (the compiler's own warning may still be said).
    let removed = diagnoses(&all, "connect4-removes-its-reports");
    assert!(removed.iter().all(|d| d["found"] != "run"), "{removed:?}");
}

/// Every correct program shipped, and the examples, graded on their
/// game's whole built-in suite with every case run again from their
/// checked builds: no diagnosis (a false alarm is a bug).
#[test]
fn correct_programs_and_examples_have_no_diagnosis_on_every_shipped_case() {
    let work = tempfile::tempdir().unwrap();
    let classes: [(&str, Vec<std::path::PathBuf>); 2] = [
        (
            "pentago",
            std::iter::once(test_file("fixtures/pentago/correct.c"))
                .chain(std::iter::once(root().join("examples/prog3.c")))
                .chain(
                    fs::read_dir(test_file("fixtures/pentago/formats"))
                        .unwrap()
                        .map(|e| e.unwrap().path())
                        .filter(|p| {
                            p.file_name()
                                .unwrap()
                                .to_string_lossy()
                                .starts_with("correct-")
                        }),
                )
                .collect(),
        ),
        (
            "connect4",
            vec![
                test_file("fixtures/connect4/correct.c"),
                root().join("examples/lab6.c"),
                root().join("examples/class/alice.c"),
                root().join("examples/class/bob.c"),
                root().join("examples/class/carol/lab6.c"),
            ],
        ),
    ];
    for (game, programs) in classes {
        let class = work.path().join(format!("class-{game}"));
        fs::create_dir_all(&class).unwrap();
        for (k, program) in programs.iter().enumerate() {
            fs::copy(program, class.join(format!("p{k}.c"))).unwrap();
        }
        let out_dir = work.path().join(format!("out-{game}"));
        let out = grade_builtin(game, work.path(), &out_dir, &["--diagnose"], &class);
        assert!(out.status.success(), "{}", stderr(&out));
        let all = read_json(&out_dir.join("results.json"));
        for (k, program) in programs.iter().enumerate() {
            let found = diagnoses(&all, &format!("p{k}"));
            assert_eq!(found, Vec::<Value>::new(), "{}", program.display());
            let message = student(&all, &format!("p{k}"))["message"].clone();
            assert_eq!(message, Value::Null, "{}", program.display());
        }
    }
    // The lab of one's own: its class (C, C++ and Python; one does not
    // compile, and its message is the compiler's) on its own suite.
    let out_dir = work.path().join("out-temperature");
    let out = referee_in(
        work.path(),
        &[
            "grade",
            "--cases",
            root().join("examples/temperature").to_str().unwrap(),
            "--diagnose",
            "--out",
            out_dir.to_str().unwrap(),
            root().join("examples/temperature-class").to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let all = read_json(&out_dir.join("results.json"));
    for s in all["submissions"].as_array().unwrap() {
        assert_eq!(s.get("diagnostics"), None, "{s}");
    }
}

#[test]
fn doctor_says_whether_diagnoses_work_here() {
    let work = tempfile::tempdir().unwrap();
    let out = referee_in(work.path(), &["doctor"]);
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("diagnoses"))
        .unwrap_or_else(|| panic!("no diagnoses line in:\n{text}"));
    assert!(
        line.contains(
            "finds a write past the end of an array in `main` (probe.c, line 9), after input \
             line 1 (`7`)"
        ),
        "{line}"
    );
}

#[test]
fn the_compilers_warnings_and_a_python_exception_are_placed_too() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite("connect4", "", &CASES[1..2]);
    let class = class(work.path(), &[]);
    for file in ["missing-return.c", "connect4-index-error.py"] {
        fs::copy(
            test_file(&format!("programs/unsafe/{file}")),
            class.join(file),
        )
        .unwrap();
    }
    let all = graded(work.path(), cases.path(), &class, "out", &[]);

    // A function that can end without its value: the compiler's warning,
    // placed in its function from the checked build's debug information.
    let found = diagnoses(&all, "missing-return");
    let d = one(&found, "missing-return", "missing-return");
    assert_eq!(d["found"], "compiler", "{d}");
    assert_eq!(d["line"], 16, "{d}");
    assert_eq!(d["function"], "check_win", "{d}");
    assert_eq!(d["file"], "missing-return.c", "{d}");

    // Python's IndexError, from the transcript the case already holds.
    let found = diagnoses(&all, "connect4-index-error");
    let d = one(&found, "exception", "python");
    assert_eq!(d["found"], "transcript", "{d}");
    assert_eq!(d["line"], 9, "{d}");
    assert_eq!(d["function"], "drop", "{d}");
    assert_eq!(d["case"], "column-6-then-a-game", "{d}");
    assert_eq!(d["input_line"], 1, "{d}");
    assert_eq!(d["input"], "6", "{d}");
    assert!(
        d["message"].as_str().unwrap().starts_with("IndexError"),
        "{d}"
    );
}

/// Where no control group would hold a checked run's memory (an ordinary
/// user on a machine whose control groups are root's), the checked build
/// holds itself (tests/held.rs attacks it): its diagnoses are root's,
/// the grade is as ever, and doctor says what holds the memory.
#[test]
fn without_a_control_group_the_checked_build_holds_itself() {
    use common::attack::{is_root, open_to_all, referee_as, As};
    assert!(
        is_root(),
        "this test switches to an ordinary user: run it as root"
    );
    let work = tempfile::tempdir().unwrap();
    let cases = suite("connect4", "", &CASES[..1]);
    let class = class(work.path(), &["connect4-reads-past-row"]);
    let suite_dir = work.path().join("suite");
    fs::create_dir_all(&suite_dir).unwrap();
    for entry in fs::read_dir(cases.path()).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, suite_dir.join(path.file_name().unwrap())).unwrap();
    }
    let out = work.path().join("out");
    fs::create_dir_all(&out).unwrap();
    open_to_all(work.path());
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&out, fs::Permissions::from_mode(0o777)).unwrap();
    let args = [
        "grade",
        "--game",
        "connect4",
        "--cases",
        suite_dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--diagnose",
        class.to_str().unwrap(),
    ];
    let graded = referee_as(As::Ordinary, work.path(), &args, &[], None);
    assert!(graded.status.success(), "{}", stderr(&graded));
    let as_user = read_json(&out.join("results.json"));
    let as_root = graded_here(work.path(), &suite_dir, &class);
    let id = "connect4-reads-past-row";
    assert_eq!(
        student(&as_user, id)["score"],
        student(&as_root, id)["score"]
    );
    assert!(!diagnoses(&as_root, id).is_empty());
    assert_eq!(diagnoses(&as_user, id), diagnoses(&as_root, id));

    let doctor = referee_as(As::Ordinary, work.path(), &["doctor"], &[], None);
    let said = stdout(&doctor);
    let line = said
        .lines()
        .find(|l| l.trim_start().starts_with("diagnoses"))
        .unwrap_or_else(|| panic!("no diagnoses line in:\n{said}"));
    assert!(
        !line.contains("NOT WORKING") && line.contains("held by the build itself"),
        "{line}"
    );
}

/// `class` graded here (as the tests' own user) on `cases`, every case
/// run again from the checked builds.
fn graded_here(work: &Path, cases: &Path, class: &Path) -> Value {
    graded(work, cases, class, "here", &["--diagnose"])
}

/// `cases validate` runs a C reference from its checked build, as a
/// check of the suite: one that overflows an int (printing the same by
/// luck, its pins matching) is a problem, said with its place.
#[test]
fn cases_validate_checks_the_reference_too() {
    let work = tempfile::tempdir().unwrap();
    let suite = work.path().join("temperature");
    fs::create_dir_all(&suite).unwrap();
    for entry in fs::read_dir(root().join("examples/temperature")).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, suite.join(path.file_name().unwrap())).unwrap();
    }
    let validate =
        |dir: &Path| referee_in(work.path(), &["cases", "validate", dir.to_str().unwrap()]);
    let clean = validate(&suite);
    assert!(clean.status.success(), "{}", stdout(&clean));

    let solution = suite.join("solution.c");
    let text = fs::read_to_string(&solution).unwrap();
    let planted = text
        .replace(
            "  char line[100];\n",
            "  char line[100];\n  int conversions = 2147483646; /* counted, never printed */\n",
        )
        .replace(
            "    if (celsius)\n",
            "    conversions += 2;\n    if (celsius)\n",
        );
    assert_ne!(planted, text, "the solution changed: plant the fault again");
    fs::write(&solution, planted).unwrap();
    let broken = validate(&suite);
    let said = stdout(&broken);
    assert_eq!(broken.status.code(), Some(1), "{said}");
    assert!(
        said.contains(
            "the reference breaks: A signed integer overflow in `main` (solution.c, line"
        ),
        "{said}"
    );
    // Its pins still match: only the checked build tells.
    assert!(!said.contains("no longer prints"), "{said}");
}

/// Identical programs (copied from one student to another, or a class
/// handed in twice) share one checked build, as they share their
/// ordinary one: `--timings` counts checked builds and runs together in
/// its diagnose phase, so three students of one program, every case run
/// again (`--diagnose`), count one build and each student's own runs.
#[test]
fn identical_programs_make_one_checked_build() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite("connect4", "", &CASES[..2]);
    let class = work.path().join("class");
    for who in ["ann", "ben", "cal"] {
        fs::create_dir_all(class.join(who)).unwrap();
        fs::copy(
            test_file("programs/unsafe/connect4-reads-past-row.c"),
            class.join(who).join("lab6.c"),
        )
        .unwrap();
    }
    let out = work.path().join("out");
    let graded = grade_connect4(
        work.path(),
        cases.path(),
        &out,
        &["--timings", "--jobs", "1", "--diagnose"],
        &class,
    );
    let text = stderr(&graded);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("diagnose"))
        .unwrap_or_else(|| panic!("no diagnose line in:\n{text}"));
    let counted: u64 = line.split_whitespace().nth(3).unwrap().parse().unwrap();
    let results = read_json(&out.join("results.json"));
    let mut runs = 0;
    for who in ["ann", "ben", "cal"] {
        let cases = student(&results, who)["cases"].as_array().unwrap().clone();
        runs += cases.len() as u64;
        assert!(!diagnoses(&results, who).is_empty(), "{who}");
    }
    assert_eq!(counted, runs + 1, "one checked build, {runs} runs:\n{line}");
}

/// A suite in `w/echo-lab` whose C reference prints the line it reads;
/// every case public, with `defaults` added to its defaults.
fn echo_lab(w: &Path, defaults: &str) -> std::path::PathBuf {
    let suite = w.join("echo-lab");
    fs::create_dir_all(&suite).unwrap();
    fs::write(
        suite.join("echo.c"),
        "#include <stdio.h>\nint main(void) {\n    char line[64];\n    \
         if (fgets(line, sizeof line, stdin)) printf(\"%s\", line);\n    return 0;\n}\n",
    )
    .unwrap();
    fs::write(
        suite.join("suite.yaml"),
        format!("reference: echo.c\nname: echo\ndefaults:\n  visibility: public\n{defaults}"),
    )
    .unwrap();
    suite
}

/// A program wrong on every case for one reason is run again from its
/// checked build on each case it crashed on and on its first three other
/// failures, in the suite's order, whatever the number of workers; with
/// `--diagnose`, on every case.
#[test]
fn a_program_wrong_everywhere_runs_its_crashes_and_first_three_failures_again() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = echo_lab(w, "  timeout: 5s\n");
    // Six cases it prints the wrong thing on, then two it crashes on.
    let inputs = ["a", "b", "c", "d", "e", "f", "crash", "crash!"];
    for (n, input) in inputs.iter().enumerate() {
        fs::write(
            suite.join(format!("case-{n}.yaml")),
            format!("input: [\"{input}\"]\n"),
        )
        .unwrap();
    }
    let class = w.join("class");
    fs::create_dir_all(&class).unwrap();
    fs::copy(suite.join("echo.c"), class.join("right.c")).unwrap();
    // Every run reads past the end of `table` (its index depends on the
    // input, so the compiler cannot tell), and prints what it found.
    fs::write(
        class.join("peeks.c"),
        "#include <stdio.h>\n#include <string.h>\nint table[4];\n\
         int main(void) {\n    char line[64];\n    \
         if (!fgets(line, sizeof line, stdin)) return 0;\n    \
         int i = 4 + (int)(strlen(line) % 2);\n    \
         printf(\"%d\\n\", table[i] + 1000);\n    \
         if (strncmp(line, \"crash\", 5) == 0) { volatile int *p = 0; *p = 1; }\n    \
         return 0;\n}\n",
    )
    .unwrap();
    let graded =
        |name: &str, extra: &[&str]| grade_class_with(w, &suite, &w.join(name), &class, extra, &[]);
    let read_past = |results: &Value| {
        let found = diagnoses(results, "peeks");
        one(&found, "read-past-end", "peeks").clone()
    };
    let verdicts = |results: &Value| -> Vec<String> {
        student(results, "peeks")["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["verdict"].as_str().unwrap().to_string())
            .collect()
    };

    let one_worker = graded("one", &["--jobs", "1"]);
    assert_eq!(
        verdicts(&one_worker),
        [&["wrong-output"; 6][..], &["crashed"; 2][..]].concat()
    );
    let d = read_past(&one_worker);
    // Cases 0, 1 and 2, then both crashes: five runs.
    assert_eq!(d["count"], 5, "{d}");
    assert_eq!(d["case"], "case-0", "{d}");
    // Each crash's reason says what its checked run found.
    for case in student(&one_worker, "peeks")["cases"].as_array().unwrap() {
        let reason = case["reason"].as_str().unwrap_or_default();
        assert_eq!(
            reason.contains("as its checked build found"),
            case["verdict"] == "crashed",
            "{case}"
        );
    }

    // The same with two workers, which finish cases in any order.
    let two_workers = graded("two", &["--jobs", "2"]);
    assert_eq!(read_past(&two_workers), d);

    // --diagnose runs all eight again; grades never move.
    let every = graded("every", &["--diagnose"]);
    assert_eq!(read_past(&every)["count"], 8);
    assert_eq!(
        student(&every, "peeks")["score"],
        student(&one_worker, "peeks")["score"]
    );
}

/// A lab that links the course's own library (`link:`) has its checked
/// build too: the library is compiled again with the sanitizers beside
/// the ordinary build's object, and a planted overflow is found and
/// placed in the student's file.
#[test]
fn a_lab_linking_a_course_library_is_diagnosed() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = w.join("sum-lab");
    fs::create_dir_all(&suite).unwrap();
    for file in ["course.h", "course.c", "sum.c"] {
        fs::copy(
            test_file(&format!("fixtures/library/{file}")),
            suite.join(file),
        )
        .unwrap();
    }
    fs::write(
        suite.join("suite.yaml"),
        "reference: sum.c\nsupport: [course.h]\nlink: [course.c]\ndefaults:\n  visibility: public\n",
    )
    .unwrap();
    fs::write(suite.join("adds.yaml"), "input: ['2', '3']\n").unwrap();
    let class = w.join("class");
    fs::create_dir_all(&class).unwrap();
    fs::copy(suite.join("sum.c"), class.join("right.c")).unwrap();
    // Keeps its two numbers in an array of two, at the index of the
    // first: 2 writes past its end.
    fs::write(
        class.join("overflows.c"),
        "#include <stdio.h>\n#include <stdlib.h>\n#include <course.h>\n\n\
         int main(void) {\n    int kept[2] = {0, 0};\n    int a = atoi(get_word(\"a: \"));\n    \
         int b = atoi(get_word(\"b: \"));\n    kept[a] = b;\n    \
         printf(\"%d\\n\", add(a, b) + kept[0]);\n    return 0;\n}\n",
    )
    .unwrap();
    let out_dir = w.join("out");
    let out = referee_in(
        w,
        &[
            "grade",
            "--diagnose",
            "--cases",
            suite.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            class.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let results = read_json(&out_dir.join("results.json"));
    let s = student(&results, "overflows");
    assert_eq!(s["diagnosis_trouble"], Value::Null, "{s}");
    let found = diagnoses(&results, "overflows");
    let d = one(&found, "stack-overrun", "overflows");
    assert_eq!(d["line"], 9, "{d}");
    assert_eq!(d["file"], "overflows.c", "{d}");
    assert_eq!(d["function"], "main", "{d}");
    assert_eq!(diagnoses(&results, "right"), Vec::<Value>::new());
}

/// `check` looks for faults in the cases a program fails; `check
/// --diagnose` in every case it runs, and so finds one that did no harm.
#[test]
fn check_diagnose_finds_a_fault_in_a_case_passed_by_luck() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = echo_lab(w, "");
    fs::write(suite.join("word.yaml"), "input: [\"word\"]\n").unwrap();
    // Right output, and a read past the end of `table` on the way.
    let program = w.join("lucky.c");
    fs::write(
        &program,
        "#include <stdio.h>\n#include <string.h>\nint table[4];\n\
         int main(void) {\n    char line[64];\n    \
         if (!fgets(line, sizeof line, stdin)) return 0;\n    \
         volatile int peek = table[4 + (int)(strlen(line) % 2)];\n    \
         (void)peek;\n    printf(\"%s\", line);\n    return 0;\n}\n",
    )
    .unwrap();
    let checked = |extra: &[&str]| {
        let mut args = vec![
            "check",
            program.to_str().unwrap(),
            "--cases",
            suite.to_str().unwrap(),
        ];
        args.extend(extra);
        let out = referee_in(w, &args);
        assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
        stdout(&out)
    };
    let plain = checked(&[]);
    assert!(!plain.contains("Where your program breaks"), "{plain}");
    let every = checked(&["--diagnose"]);
    assert!(every.contains("Where your program breaks"), "{every}");
    assert!(every.contains("lucky.c, line 7"), "{every}");
}

/// A checked build is kept between invocations, under everything that
/// made it: the class graded again makes none and says the same; a
/// program changed is built afresh; `REFEREE_CACHE=off` keeps nothing.
#[test]
fn a_class_graded_again_finds_its_checked_builds_kept() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let cases = suite("connect4", "", &CASES[..2]);
    let class = class(w, &CLASS[..2]);
    let kept = w.join("kept");
    let grade = |name: &str, cache: &str| {
        let out = w.join(name);
        let mut args = vec!["grade", "--game", "connect4", "--cases"];
        args.push(cases.path().to_str().unwrap());
        args.extend([
            "--out",
            out.to_str().unwrap(),
            "--timings",
            "--jobs",
            "1",
            "--diagnose",
        ]);
        args.push(class.to_str().unwrap());
        let ran = referee_with(w, &args, &[("REFEREE_CACHE", cache)]);
        assert!(ran.status.success(), "{}", stderr(&ran));
        (read_json(&out.join("results.json")), stderr(&ran))
    };
    let entries = || fs::read_dir(&kept).map_or(0, |d| d.count());
    let every = |results: &Value| {
        CLASS[..2]
            .iter()
            .map(|id| diagnoses(results, id))
            .collect::<Vec<_>>()
    };
    let (first, timings) = grade("first", kept.to_str().unwrap());
    assert!(!timings.contains("found kept"), "{timings}");
    // A checked build for each program, and the sanitizers' options
    // linked into them all.
    assert_eq!(entries(), 4);
    assert!(every(&first).iter().all(|d| !d.is_empty()));

    let (again, timings) = grade("again", kept.to_str().unwrap());
    assert!(
        timings.contains("(3 checked builds found kept from an earlier invocation"),
        "{timings}"
    );
    assert_eq!(every(&again), every(&first), "the same diagnoses");

    // A comment added is another program: built afresh, and kept too.
    let changed = class.join(format!("{}.c", CLASS[0]));
    let mut source = fs::read_to_string(&changed).unwrap();
    source.push_str("/* changed */\n");
    fs::write(&changed, source).unwrap();
    let (_, timings) = grade("changed", kept.to_str().unwrap());
    assert!(
        timings.contains("(2 checked builds found kept"),
        "{timings}"
    );
    assert_eq!(entries(), 5);

    let (off, timings) = grade("off", "off");
    assert!(!timings.contains("found kept"), "{timings}");
    assert_eq!(entries(), 5, "nothing kept when off");
    assert_eq!(every(&off), every(&first));
}
