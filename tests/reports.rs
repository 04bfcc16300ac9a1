//! The reports `referee grade` writes for a small class, and
//! `referee gradescope`: every file is there and sane, and no student's
//! feedback reveals a hidden case.
//!
//! The class: a correct Pentago program (in a folder), a buggy one (R and
//! L swapped: it fails public and hidden cases), one that does not
//! compile, and an empty student folder.

mod common;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use common::*;
use serde_json::Value;
use wait_timeout::ChildExt;

/// The buggy student, and a hidden case their program fails.
const BUGGY: &str = "bob";
const HIDDEN_FAILED: &str = "rotate-quadrant-1-left";

/// A graded class: its folder and the `--out` folder.
struct Graded {
    class: PathBuf,
    out: PathBuf,
    results: Value,
}

/// The class, graded once for every test (under the target folder).
fn graded() -> &'static Graded {
    static GRADED: OnceLock<Graded> = OnceLock::new();
    GRADED.get_or_init(|| {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reports");
        let _ = fs::remove_dir_all(&root);
        let class = root.join("class");
        let fixture = |name: &str| test_file(&format!("fixtures/pentago/{name}"));
        fs::create_dir_all(class.join("alice")).unwrap();
        fs::create_dir_all(class.join("dave")).unwrap();
        fs::copy(fixture("correct.c"), class.join("alice/pentago.c")).unwrap();
        fs::copy(
            fixture("bugs/rotation-direction-swapped.c"),
            class.join(format!("{BUGGY}.c")),
        )
        .unwrap();
        fs::write(class.join("carol.c"), "int main( { return 0 }\n").unwrap();
        let out = root.join("out");
        let run = referee_in(
            &root,
            &[
                "grade",
                "--game",
                "pentago",
                "--out",
                out.to_str().unwrap(),
                class.to_str().unwrap(),
            ],
        );
        assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
        let results = serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap())
            .expect("results.json is JSON");
        Graded {
            class,
            out,
            results,
        }
    })
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn submissions(results: &Value) -> &Vec<Value> {
    results["submissions"].as_array().expect("submissions")
}

fn scores(results: &Value) -> HashMap<String, f64> {
    submissions(results)
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                s["score"].as_f64().unwrap_or(0.0),
            )
        })
        .collect()
}

fn case_count(results: &Value) -> usize {
    results["suite"]["cases"].as_array().unwrap().len()
}

#[test]
fn every_report_is_written() {
    let g = graded();
    let ids = ["alice", "bob", "carol", "dave"];
    assert_eq!(submissions(&g.results).len(), ids.len());
    let mut files = vec!["results.json", "gradebook.csv", "junit.xml", "index.html"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    for id in ids {
        files.push(format!("feedback/{id}.md"));
        files.push(format!("feedback/{id}.html"));
        files.push(format!("details/{id}.json"));
    }
    for file in files {
        let len = fs::metadata(g.out.join(&file))
            .map(|m| m.len())
            .unwrap_or(0);
        assert!(len > 0, "{file} is missing or empty");
    }
    let statuses: Vec<&str> = submissions(&g.results)
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["graded", "graded", "compile-error", "error"]);
    // The folder handed to students holds only their pages.
    for entry in fs::read_dir(g.out.join("feedback")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            ids.iter()
                .any(|id| name == format!("{id}.md") || name == format!("{id}.html")),
            "feedback/{name} is not a student's page"
        );
    }
    // dave has no program: no score anywhere.
    let dave = &submissions(&g.results)[3];
    assert!(dave["score"].is_null(), "{dave}");
}

/// A CSV record's fields, quotes undone.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

#[test]
fn the_gradebook_has_a_row_per_student_totalling_their_score() {
    let g = graded();
    let text = read(&g.out.join("gradebook.csv"));
    let lines: Vec<&str> = text.lines().collect();
    let header = csv_fields(lines[0]);
    assert_eq!(
        header[..6],
        ["id", "name", "lms_id", "score", "max_score", "status"]
    );
    let cases = case_count(&g.results);
    assert_eq!(header.len(), 6 + cases + 2);
    assert_eq!(header[6 + cases..], ["diagnoses", "diagnoses_text"]);
    let rows = &lines[1..];
    assert_eq!(rows.len(), 4, "{text}");
    let scores = scores(&g.results);
    for row in rows {
        let fields = csv_fields(row);
        assert_eq!(fields.len(), header.len(), "{row}");
        if fields[5] == "error" {
            assert_eq!(fields[3], "", "no score for what was not graded: {row}");
            continue;
        }
        let score: f64 = fields[3].parse().unwrap();
        assert_eq!(Some(&score), scores.get(&fields[0]), "{row}");
        let total: f64 = fields[6..6 + cases]
            .iter()
            .filter(|f| !f.is_empty())
            .map(|f| f.parse::<f64>().unwrap())
            .sum();
        assert!(
            (total - score).abs() < 1e-6,
            "cases add up to {total}, not {score}: {row}"
        );
    }
}

#[test]
fn junit_is_well_formed_with_a_suite_per_student() {
    let g = graded();
    let text = read(&g.out.join("junit.xml"));
    let doc = roxmltree::Document::parse(&text).expect("junit.xml is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    let names: Vec<&str> = suites.iter().filter_map(|s| s.attribute("name")).collect();
    assert_eq!(names, ["alice", "bob", "carol", "dave"]);
    for suite in &suites {
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases.len(), case_count(&g.results));
        assert_eq!(
            suite.attribute("tests"),
            Some(cases.len().to_string().as_str())
        );
        for case in &cases {
            assert_eq!(case.attribute("classname"), Some("pentago"));
            let time: f64 = case.attribute("time").unwrap().parse().unwrap();
            assert!(time >= 0.0);
        }
        let count = |tag: &str| {
            cases
                .iter()
                .filter(|c| c.children().any(|n| n.has_tag_name(tag)))
                .count()
        };
        let attr = |name: &str| suite.attribute(name).unwrap().parse::<usize>().unwrap();
        assert_eq!(attr("failures"), count("failure"));
        assert_eq!(attr("errors"), count("error"));
    }
    let failures = |i: usize| {
        suites[i]
            .attribute("failures")
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    let errors = |i: usize| {
        suites[i]
            .attribute("errors")
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    assert_eq!(
        (failures(0), errors(0)),
        (0, 0),
        "the correct program passes"
    );
    assert!(failures(1) > 0, "the buggy program fails");
    assert_eq!(errors(2), case_count(&g.results), "nothing compiled ran");
    assert_eq!(errors(3), case_count(&g.results), "no program, nothing ran");
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert!(!failure.attribute("message").unwrap().is_empty());
    assert!(
        !failure.text().unwrap_or_default().is_empty(),
        "the explanation is the text"
    );
}

/// The HTML's text as shown: the entities referee writes undone.
fn shown(html: &str) -> String {
    html.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The lines of a case's `input: |` block.
fn case_input(name: &str) -> Vec<String> {
    let file = root().join("cases/pentago").join(format!("{name}.yaml"));
    let yaml: serde_yaml::Value = serde_yaml::from_str(&read(&file)).unwrap();
    yaml["input"]
        .as_str()
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Every input line of the public cases.
fn public_inputs() -> Vec<String> {
    let mut lines = Vec::new();
    for entry in fs::read_dir(root().join("cases/pentago")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "yaml") && name != "suite" {
            let yaml: serde_yaml::Value = serde_yaml::from_str(&read(&path)).unwrap();
            if yaml["visibility"].as_str() == Some("public") {
                lines.extend(case_input(&name));
            }
        }
    }
    lines
}

#[test]
fn feedback_never_reveals_a_hidden_case() {
    let g = graded();
    let details: Value =
        serde_json::from_str(&read(&g.out.join(format!("details/{BUGGY}.json")))).unwrap();
    let case = details["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == HIDDEN_FAILED)
        .unwrap();
    assert_eq!(case["visibility"], "hidden");
    assert_ne!(case["verdict"], "pass", "{BUGGY} must fail {HIDDEN_FAILED}");
    // What would give the case away: its input lines (those no public
    // case types), the explanation's account of the first difference, its
    // description.
    let public = public_inputs();
    let mut secrets: Vec<String> = case_input(HIDDEN_FAILED)
        .into_iter()
        .filter(|line| line.len() >= 3 && !public.contains(line))
        .collect();
    assert!(
        !secrets.is_empty(),
        "{HIDDEN_FAILED} has no input of its own"
    );
    let explanation = case["explanation"].as_str().unwrap();
    let first = explanation
        .lines()
        .find(|l| l.contains("After input line"))
        .expect("a first difference");
    secrets.push(first.trim().to_string());
    let yaml: serde_yaml::Value = serde_yaml::from_str(&read(
        &root().join(format!("cases/pentago/{HIDDEN_FAILED}.yaml")),
    ))
    .unwrap();
    secrets.push(yaml["description"].as_str().unwrap().to_string());
    let md = read(&g.out.join(format!("feedback/{BUGGY}.md")));
    let html = shown(&read(&g.out.join(format!("feedback/{BUGGY}.html"))));
    for page in [&md, &html] {
        assert!(
            page.contains(HIDDEN_FAILED),
            "the hidden case is listed by name"
        );
        for secret in &secrets {
            assert!(!page.contains(secret.as_str()), "feedback shows `{secret}`");
        }
    }
    // Public failures are explained, with the transcripts side by side.
    assert!(md.contains("## What went wrong in the public cases"));
    assert!(html.contains("class=\"diff\"") && html.contains("class=\"t you\""));
}

#[test]
fn feedback_pages_are_self_contained() {
    let g = graded();
    for entry in fs::read_dir(g.out.join("feedback")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let html = read(&path);
            assert!(html.starts_with("<!DOCTYPE html>"));
            // Only the page's own markup can hold references: what programs
            // printed is escaped text (and may well say "https://").
            for tag in html
                .split('<')
                .skip(1)
                .filter_map(|t| t.split_once('>').map(|(tag, _)| tag))
            {
                let tag = tag.to_ascii_lowercase();
                for banned in ["src=", "href=\"http", "href=\"//", "url(", "@import"] {
                    assert!(
                        !tag.contains(banned),
                        "{banned} in <{tag}> of {}",
                        path.display()
                    );
                }
                assert!(
                    !tag.starts_with("script") && !tag.starts_with("link"),
                    "<{tag}> in {}",
                    path.display()
                );
            }
        }
    }
    let index = read(&g.out.join("index.html"));
    for id in ["alice", "bob", "carol", "dave"] {
        assert!(
            index.contains(&format!("href=\"feedback/{id}.html\"")),
            "{id} not linked"
        );
    }
    let carol = read(&g.out.join("feedback/carol.md"));
    assert!(carol.contains("Your program does not compile. The compiler said:"));
    assert!(carol.contains("error"), "{carol}");
}

/// Runs `referee gradescope` on `submission`; its exit code and JSON.
fn gradescope(submission: &Path, name: &str) -> (i32, Value) {
    let g = graded();
    let file = g.out.join(format!("gradescope/{name}/results.json"));
    let run = referee_in(
        &g.out,
        &[
            "gradescope",
            "--game",
            "pentago",
            "--submission",
            submission.to_str().unwrap(),
            "--results",
            file.to_str().unwrap(),
        ],
    );
    let json = serde_json::from_str(&read(&file)).expect("Gradescope's results are JSON");
    (run.status.code().unwrap_or(-1), json)
}

/// The fields Gradescope documents, with their types.
fn assert_gradescope_schema(doc: &Value) {
    assert!(doc["score"].is_number());
    assert!(doc["execution_time"].is_number());
    assert!(doc["output"].is_string());
    assert_eq!(doc["visibility"], "visible");
    assert_eq!(doc["stdout_visibility"], "hidden");
    for test in doc["tests"].as_array().unwrap() {
        for key in ["score", "max_score"] {
            assert!(test[key].is_number(), "{key}: {test}");
        }
        for key in ["name", "number", "output"] {
            assert!(test[key].is_string(), "{key}: {test}");
        }
        assert!(
            matches!(test["status"].as_str(), Some("passed" | "failed")),
            "{test}"
        );
        assert!(
            matches!(
                test["visibility"].as_str(),
                Some("visible" | "after_published")
            ),
            "{test}"
        );
    }
}

#[test]
fn gradescope_results_for_a_correct_and_a_buggy_program() {
    let g = graded();
    let (code, correct) = gradescope(&g.class.join("alice"), "alice");
    assert_eq!(code, 0);
    assert_gradescope_schema(&correct);
    let tests = correct["tests"].as_array().unwrap();
    assert_eq!(tests.len(), case_count(&g.results));
    assert!(tests
        .iter()
        .all(|t| t["status"] == "passed" && t["score"] == t["max_score"]));
    assert_eq!(correct["score"], g.results["suite"]["max_score"]);

    let (code, buggy) = gradescope(&g.class.join(format!("{BUGGY}.c")), BUGGY);
    assert_eq!(code, 0);
    assert_gradescope_schema(&buggy);
    assert_eq!(
        buggy["score"].as_f64(),
        scores(&g.results).get(BUGGY).copied()
    );
    let tests = buggy["tests"].as_array().unwrap();
    let hidden = tests.iter().find(|t| t["name"] == HIDDEN_FAILED).unwrap();
    assert_eq!(hidden["status"], "failed");
    assert_eq!(hidden["visibility"], "after_published");
    assert_eq!(hidden["output"], "Verdict: wrong output");
    let public_failure = tests
        .iter()
        .find(|t| t["visibility"] == "visible" && t["status"] == "failed")
        .expect("a public case fails");
    assert!(public_failure["output"]
        .as_str()
        .unwrap()
        .contains("After input line"));
}

#[test]
fn gradescope_says_why_a_submission_cannot_be_graded() {
    let g = graded();
    let (code, doc) = gradescope(&g.class.join("dave"), "dave");
    assert_eq!(code, 0, "the student's problem, not referee's");
    assert_gradescope_schema(&doc);
    assert_eq!(doc["score"], 0.0);
    assert!(
        doc["output"].as_str().unwrap().contains("no program"),
        "{doc}"
    );
    let (_, doc) = gradescope(&g.class.join("carol.c"), "carol");
    assert!(
        doc["output"].as_str().unwrap().contains("does not compile"),
        "{doc}"
    );
}

/// Chromium, at /usr/bin/chromium or on PATH.
fn chromium() -> Option<PathBuf> {
    let usual = PathBuf::from("/usr/bin/chromium");
    if usual.is_file() {
        return Some(usual);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// A PNG's width and height, from its IHDR chunk.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Some((be(16), be(20)))
}

/// Run by the README's browser step (`cargo test --test reports --
/// --ignored`), which `.ci/run` runs too: it needs Chromium, which the
/// README's test command does not install.
#[test]
#[ignore = "needs Chromium: run with `cargo test --test reports -- --ignored` (see the README)"]
fn a_browser_renders_the_feedback() {
    let Some(browser) = chromium() else {
        panic!(
            "chromium is not installed, and this test renders a feedback page with it: \
             install it with `apt-get install -y chromium`"
        );
    };
    let g = graded();
    let page = g.out.join(format!("feedback/{BUGGY}.html"));
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reports-screenshot");
    let _ = fs::remove_dir_all(&shots);
    fs::create_dir_all(&shots).unwrap();
    screenshot(&browser, &page, &shots.join(format!("{BUGGY}.png")));
}

/// Renders `page` in `browser` at 1200x1600 into `png`, and checks that
/// it is a PNG of that size and not blank.
fn screenshot(browser: &Path, page: &Path, png: &Path) {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
        ])
        .args([
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg("--window-size=1200,1600")
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: cannot start it: {e}", browser.display()));
    let status = match child.wait_timeout(Duration::from_secs(90)).unwrap() {
        Some(status) => status,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{} took more than 90 s to render {}",
                browser.display(),
                page.display()
            );
        }
    };
    let bytes = fs::read(png).unwrap_or_else(|e| panic!("no screenshot ({status}): {e}"));
    assert_eq!(png_size(&bytes), Some((1200, 1600)), "not a 1200x1600 PNG");
    // A blank page of that size compresses to a few kilobytes.
    assert!(
        bytes.len() > 20_000,
        "the screenshot of {} looks blank: {} bytes",
        page.display(),
        bytes.len()
    );
}

/// `referee similar`'s pages render in a real browser (issue 44): the
/// ranking page of docs/similarity.md's example class and the page of
/// its most similar pair, both sources side by side. The screenshots in
/// docs/similarity.md were taken this way.
#[test]
#[ignore = "needs Chromium: run with `cargo test --test reports -- --ignored` (see the README)"]
fn a_browser_renders_the_similarity_pages() {
    let Some(browser) = chromium() else {
        panic!(
            "chromium is not installed, and this test renders the similarity pages with it: \
             install it with `apt-get install -y chromium`"
        );
    };
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("similar");
    let class = root().join("examples/temperature-class");
    let run = referee_in(
        work.path(),
        &[
            "similar",
            "--out",
            out.to_str().unwrap(),
            class.to_str().unwrap(),
        ],
    );
    assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
    let ranking = out.join("similarity.html");
    assert!(
        read(&ranking).contains("alice"),
        "the ranking names the pairs"
    );
    let pair = out.join("similar/alice--gina.html");
    assert!(read(&pair).contains("alice"), "the pair's page is written");
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("similar-screenshot");
    let _ = fs::remove_dir_all(&shots);
    fs::create_dir_all(&shots).unwrap();
    screenshot(&browser, &ranking, &shots.join("similarity-page.png"));
    screenshot(&browser, &pair, &shots.join("similarity-pair.png"));
}

/// A page leads with what cost points: a Pentago that misses a diagonal
/// and prints its own instructions fails `instructions-exact` (worth no
/// points, listed early in the suite), and its pages open on the cases
/// that cost it points, that one after them; the class page's mean is
/// rounded as the points are (to hundredths: the suite has 0.15 points).
#[test]
fn pages_lead_with_the_failures_that_cost_points() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    for (name, fixture) in [
        ("erin", "formats/bug-missed-diagonal.c"),
        ("frank", "bugs/rotation-direction-swapped.c"),
        ("grace", "correct.c"),
    ] {
        let from = test_file(&format!("fixtures/pentago/{fixture}"));
        fs::copy(from, class.join(format!("{name}.c"))).unwrap();
    }
    let out = work.path().join("out");
    let run = referee_in(
        work.path(),
        &["grade", "--game", "pentago", "--out", "out", "class"],
    );
    assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
    let html = read(&out.join("feedback/erin.html"));
    let sections: Vec<&str> = html
        .split("<h2>✗ ")
        .skip(1)
        .map(|s| s.split(' ').next().unwrap_or_default())
        .collect();
    assert_eq!(
        sections.first(),
        Some(&"seed-sample-run"),
        "the page opens on a case that cost points: {sections:?}"
    );
    assert_eq!(
        sections.last(),
        Some(&"instructions-exact"),
        "the case worth nothing comes last: {sections:?}"
    );
    let markdown = read(&out.join("feedback/erin.md"));
    let first = markdown.find("### ✗ seed-sample-run").unwrap();
    let worthless = markdown.find("### ✗ instructions-exact").unwrap();
    assert!(first < worthless, "{markdown}");
    let results: Value = serde_json::from_str(&read(&out.join("results.json"))).unwrap();
    let scores = scores(&results);
    let mean = scores.values().sum::<f64>() / scores.len() as f64;
    assert!(
        ((mean * 100.0).round() - mean * 100.0).abs() > 1e-6,
        "the mean {mean} needs rounding for this test to show it"
    );
    let index = read(&out.join("index.html"));
    let shown = format!(
        "Mean score of the graded: {} of 57.",
        format!("{mean:.2}")
            .trim_end_matches('0')
            .trim_end_matches('.')
    );
    assert!(index.contains(&shown), "{shown} not in the class page");
}

/// Every kind of diagnosis there is: a kind added to the code and not
/// here does not compile (the match has no catch-all), so the schema's
/// list of kinds is checked against the code's.
fn every_kind() -> Vec<referee::diagnose::Kind> {
    use referee::diagnose::Kind::*;
    let all = [
        ReadPastEnd,
        ReadBeforeStart,
        WritePastEnd,
        WriteBeforeStart,
        StackOverrun,
        UseAfterFree,
        DoubleFree,
        BadFree,
        UseAfterScope,
        BadAddress,
        StackExhausted,
        Uninitialized,
        MissingReturn,
        SignedOverflow,
        DivisionByZero,
        BadShift,
        IndexOutOfBounds,
        FormatMismatch,
        Undefined,
        Exception,
        Leak,
    ];
    for kind in all {
        match kind {
            ReadPastEnd | ReadBeforeStart | WritePastEnd | WriteBeforeStart | StackOverrun
            | UseAfterFree | DoubleFree | BadFree | UseAfterScope | BadAddress | StackExhausted
            | Uninitialized | MissingReturn | SignedOverflow | DivisionByZero | BadShift
            | IndexOutOfBounds | FormatMismatch | Undefined | Exception | Leak => {}
        }
    }
    all.to_vec()
}

/// `results.json` with diagnoses (every kind, every way of finding one)
/// follows its documented schema, and the schema does hold them to it.
#[test]
fn results_with_diagnoses_follow_the_schema() {
    use referee::diagnose::{Diagnosis, Found};
    use referee::export::Exporter;
    let mut class = diagnosed::class();
    let found = [Found::Run, Found::Compiler, Found::Transcript];
    for (kind, found) in every_kind().into_iter().zip(found.iter().cycle()) {
        class.submissions[1]
            .diagnostics
            .push(Diagnosis::new(kind, *found, "what the tool said"));
    }
    let files = referee::export::json::Json::default()
        .files(&class)
        .expect("results.json is written");
    let (_, bytes) = files
        .iter()
        .find(|(path, _)| path == Path::new("results.json"))
        .expect("results.json");
    let results: Value = serde_json::from_slice(bytes).expect("results.json is JSON");
    let first = &results["submissions"][0]["diagnostics"][0];
    for (key, value) in [
        ("kind", Value::from("read-past-end")),
        (
            "message",
            Value::from("index 6 out of bounds for type 'char [6]'"),
        ),
        ("file", Value::from("lab6.c")),
        ("line", Value::from(41)),
        ("function", Value::from("check_row")),
        ("case", Value::from("win-row")),
        ("input_line", Value::from(7)),
        ("count", Value::from(3)),
    ] {
        assert_eq!(first[key], value, "{key} in {first}");
    }
    assert_eq!(
        results["submissions"][1]["diagnostics"]
            .as_array()
            .map(Vec::len),
        Some(every_kind().len())
    );
    let schema: Value = serde_json::from_str(&read(&root().join("docs/results.schema.json")))
        .expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema is a schema");
    let errors: Vec<String> = validator
        .iter_errors(&results)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // What the schema holds them to: a kind it does not know, or a
    // diagnosis with no kind, does not pass.
    let mut unknown = results.clone();
    unknown["submissions"][0]["diagnostics"][0]["kind"] = Value::from("bad-luck");
    assert!(!validator.is_valid(&unknown));
    let mut kindless = results.clone();
    if let Some(d) = kindless["submissions"][0]["diagnostics"][0].as_object_mut() {
        d.remove("kind");
    }
    assert!(!validator.is_valid(&kindless));
}
