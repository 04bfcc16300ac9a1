//! One student's output cannot make everyone's reports huge: a class of
//! 30 where seven programs flood their output (a line of a mebibyte,
//! endless lines, endless empty lines, endless output without a newline,
//! binary bytes, only carriage returns, a 200 KiB line per input) is
//! graded on every
//! Connect Four case, and its reports stay within the documented
//! bounds, while the feedback still explains each first difference and
//! every cut says exactly how many bytes it left out.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::*;
use serde_json::Value;

/// The flooding programs (`tests/programs/floods/`).
const FLOODS: [&str; 7] = [
    "one-mebibyte-line",
    "endless-lines",
    "endless-newlines",
    "endless-no-newline",
    "binary-output",
    "endless-carriage-returns",
    "long-line-per-input",
];

/// The documented bounds (docs/reports.md, "Reports are bounded"). The
/// class's total was 5 MB until each case kept both exit statuses and
/// the class page its table in three orders (about 90 KB more here).
const CLASS_TOTAL: u64 = 5_500_000;
const RESULTS_PER_STUDENT: usize = 300 * 1024;
const DETAILS_PER_STUDENT: u64 = 320 * 1024;
const PAGE_PER_STUDENT: u64 = 512 * 1024;

struct Graded {
    out: PathBuf,
    results: Value,
    summary: String,
}

fn graded() -> &'static Graded {
    static GRADED: OnceLock<Graded> = OnceLock::new();
    GRADED.get_or_init(|| {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("floods");
        let _ = fs::remove_dir_all(&root);
        let class = root.join("class");
        fs::create_dir_all(&class).unwrap();
        for name in FLOODS {
            fs::copy(
                test_file(&format!("programs/floods/{name}.c")),
                class.join(format!("{name}.c")),
            )
            .unwrap();
        }
        // The rest of the class: correct programs and buggy ones.
        let bugs: Vec<PathBuf> = fs::read_dir(test_file("fixtures/connect4/bugs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        for i in 0..23 {
            let program = match i % 2 {
                0 => test_file("fixtures/connect4/correct.c"),
                _ => bugs[i / 2 % bugs.len()].clone(),
            };
            fs::copy(program, class.join(format!("student{i:02}.c"))).unwrap();
        }
        let cases = cases_with_bigger_limit(&root);
        let out = root.join("out");
        let run = referee_in(
            &root,
            &[
                "grade",
                "--game",
                "connect4",
                "--cases",
                cases.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                class.to_str().unwrap(),
            ],
        );
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let results = serde_json::from_slice(&fs::read(out.join("results.json")).unwrap()).unwrap();
        Graded {
            out,
            results,
            summary: stdout(&run),
        }
    })
}

/// Every Connect Four case, with a 2 MiB output limit so that the
/// mebibyte line is printed whole.
fn cases_with_bigger_limit(root: &Path) -> PathBuf {
    let to = root.join("cases");
    fs::create_dir_all(&to).unwrap();
    for entry in fs::read_dir(root_dir().join("cases/connect4")).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
    let suite = fs::read_to_string(to.join("suite.yaml")).unwrap().replace(
        "  visibility: hidden\n",
        "  visibility: hidden\n  output_limit: 2MiB\n",
    );
    assert!(suite.contains("output_limit: 2MiB"));
    fs::write(to.join("suite.yaml"), suite).unwrap();
    to
}

fn root_dir() -> PathBuf {
    root()
}

fn size_of(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let meta = e.metadata().unwrap();
            if meta.is_dir() {
                size_of(&e.path())
            } else {
                meta.len()
            }
        })
        .sum()
}

#[test]
fn the_reports_of_a_class_with_floods_stay_within_their_bounds() {
    let graded = graded();
    let total = size_of(&graded.out);
    assert!(total < CLASS_TOTAL, "{total} bytes of reports");
    let submissions = graded.results["submissions"].as_array().unwrap();
    assert_eq!(submissions.len(), 30);
    for s in submissions {
        let id = s["id"].as_str().unwrap();
        let json = serde_json::to_vec(s).unwrap();
        assert!(json.len() < RESULTS_PER_STUDENT, "{id}: {}", json.len());
        let details = fs::metadata(graded.out.join(format!("details/{id}.json"))).unwrap();
        assert!(
            details.len() < DETAILS_PER_STUDENT,
            "{id}: {}",
            details.len()
        );
        let page = fs::metadata(graded.out.join(format!("feedback/{id}.html"))).unwrap();
        assert!(page.len() < PAGE_PER_STUDENT, "{id}: {}", page.len());
        for case in s["cases"].as_array().unwrap() {
            assert!(
                case.get("expected").is_none() && case.get("actual").is_none(),
                "no transcript in results.json"
            );
        }
    }
    let junit = fs::metadata(graded.out.join("junit.xml")).unwrap().len();
    assert!(junit < 30 * RESULTS_PER_STUDENT as u64, "{junit}");
    // The marks of what was cut are in the documented schema.
    assert_follows_schema(&graded.results);
    // Stopped at the line limit (131,072 lines of 7 bytes under a 2 MiB
    // limit: 917,504 bytes), nearly all of it left out of the reports.
    let cut = student(&graded.results, "endless-lines")["cases"][0]["not_shown"].as_u64();
    assert!(cut.unwrap_or(0) > 900_000, "{cut:?}");
}

#[test]
fn the_flooding_students_are_graded_and_the_others_unharmed() {
    let graded = graded();
    for name in FLOODS {
        let s = student(&graded.results, name);
        assert_eq!(s["status"], "graded", "{name}");
        assert!(s["score"].as_f64().unwrap() < 1.0, "{name}: {}", s["score"]);
    }
    // The correct students keep every point.
    for i in (0..24).step_by(2) {
        let s = student(&graded.results, &format!("student{i:02}"));
        assert_eq!(s["score"], s["max_score"], "student{i:02}");
    }
    assert!(
        graded
            .summary
            .contains("are cut to their size limits (transcripts and explanations beyond them are not shown): "),
        "{}",
        graded.summary
    );
    assert!(graded.summary.contains("one-mebibyte-line ("));
    assert!(
        !graded.summary.contains("student00 ("),
        "nothing of theirs cut"
    );
}

#[test]
fn the_feedback_still_explains_the_first_difference_and_counts_what_it_cut() {
    let graded = graded();
    let page = fs::read_to_string(graded.out.join("feedback/one-mebibyte-line.md")).unwrap();
    // The handout's first example: after the first column, the board.
    let sentence =
        "After input line 1 (`0`), the reference printed `------`; your program printed `";
    let at = page.find(sentence).unwrap_or_else(|| panic!("{page}"));
    let quoted = &page[at + sentence.len()..];
    let quoted = &quoted[..quoted.find('`').unwrap()];
    // The line of a mebibyte: its start, its end, and the count between.
    let (head, rest) = quoted.split_once("… ").unwrap();
    let (count, tail) = rest.split_once(" bytes not shown …").unwrap();
    let count: usize = count.replace(',', "").parse().unwrap();
    assert!(head.chars().all(|c| c == 'R') && tail.chars().all(|c| c == 'R'));
    assert_eq!(head.len() + count + tail.len(), 1 << 20, "{quoted}");
    // The HTML page shows both transcripts, cut the same exact way.
    let html = fs::read_to_string(graded.out.join("feedback/one-mebibyte-line.html")).unwrap();
    assert!(html.contains("bytes not shown"), "the cut is marked");
    assert!(html.contains("Red, please enter a valid column number (0-5): "));
}

#[test]
fn endless_output_keeps_its_start_and_end_and_counts_the_lines_between() {
    let graded = graded();
    let details: Value =
        serde_json::from_slice(&fs::read(graded.out.join("details/endless-lines.json")).unwrap())
            .unwrap();
    let case = details["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["visibility"] == "public")
        .unwrap();
    let actual = case["actual"].as_str().unwrap();
    assert!(actual.starts_with("------\n"));
    let mark = actual
        .lines()
        .find(|l| l.starts_with("… ") && l.ends_with(" not shown …"))
        .unwrap_or_else(|| panic!("{actual}"));
    // `… 2,097,102 bytes (299,586 lines) not shown …`: seven bytes a line.
    let numbers: Vec<u64> = mark
        .split(|c: char| !c.is_ascii_digit() && c != ',')
        .filter(|n| !n.is_empty())
        .map(|n| n.replace(',', "").parse().unwrap())
        .collect();
    assert_eq!(numbers[0], numbers[1] * 7, "{mark}");
    assert!(case["not_shown"].as_u64().unwrap() >= numbers[0]);
}

/// Referee's own peak memory grading `program` alone, with `--jobs 1`,
/// on `cases` (a case folder) or the built-in Connect Four suite; and its
/// results.
fn peak_grading(root: &Path, program: &Path, name: &str, cases: Option<&Path>) -> (u64, Value) {
    let class = root.join(format!("class-{name}"));
    fs::create_dir_all(&class).unwrap();
    fs::copy(program, class.join(format!("{name}.c"))).unwrap();
    let out = root.join(format!("out-{name}"));
    let mut args = vec!["grade", "--game", "connect4", "--jobs", "1"];
    if let Some(cases) = cases {
        args.extend(["--cases", cases.to_str().unwrap()]);
    }
    args.extend(["--out", out.to_str().unwrap(), class.to_str().unwrap()]);
    let (status, peak) = referee_peak_kib(root, &args);
    assert!(status.success(), "{name}: {status}");
    let results = read_json(&out.join("results.json"));
    assert_eq!(results["submissions"][0]["status"], "graded", "{name}");
    (peak, results)
}

/// A program that floods every case costs referee one case's output at
/// a time: each case becomes its bounded result as soon as it is judged,
/// and the run's mebibyte of output is let go. Graded on all 29 Connect
/// Four cases, such a program raised referee's peak by some 27 MiB over
/// the same program graded on two of them, a mebibyte a case.
#[test]
fn a_program_that_floods_every_case_holds_one_cases_output_at_a_time() {
    let root = tempfile::tempdir().unwrap();
    let flood = test_file("programs/floods/endless-lines.c");
    let two = small_suite(
        "connect4",
        root.path(),
        &["seed-example-1", "invalid-column-full"],
    );
    let (on_two, _) = peak_grading(root.path(), &flood, "two", Some(&two));
    let (on_all, results) = peak_grading(root.path(), &flood, "all", None);
    let cases = results["submissions"][0]["cases"].as_array().unwrap().len();
    assert!(cases > 20, "{cases} cases");
    assert!(
        on_all < on_two + 8 * 1024,
        "referee's peak grading a flood on {cases} cases: {on_all} KiB, on 2: {on_two} KiB"
    );
}

/// Lines are bounded as bytes are: a program printing only newlines
/// (a million lines in a mebibyte) is stopped at 65,536 lines, with the
/// reason said, and costs referee little more than a correct program
/// (it cost some 250 MiB and half a second of judging per case before).
#[test]
fn a_flood_of_empty_lines_is_stopped_at_the_line_limit() {
    let root = tempfile::tempdir().unwrap();
    let correct = test_file("fixtures/connect4/correct.c");
    let newlines = test_file("programs/floods/endless-newlines.c");
    let (correct, _) = peak_grading(root.path(), &correct, "correct", None);
    let (flood, results) = peak_grading(root.path(), &newlines, "newlines", None);
    let case = &results["submissions"][0]["cases"][0];
    assert_eq!(case["verdict"], "output-limit");
    assert_eq!(
        case["reason"],
        "your program printed more than 1 MiB (or 65,536 lines) and was stopped"
    );
    assert!(
        flood < correct + 32 * 1024,
        "referee's peak grading empty lines: {flood} KiB, a correct program: {correct} KiB"
    );
}
