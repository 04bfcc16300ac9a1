//! GitHub Classroom's autograding, for one submission: what `referee
//! classroom` hands to GitHub's reporter
//! (`classroom-resources/autograding-grading-reporter`), the step's
//! Markdown summary, and the diagnoses as annotations on the student's
//! code.
//!
//! The reporter reads one JSON document per runner, base64-encoded in a
//! step output: `{"version": 1, "status", "max_score", "tests": [{"name",
//! "status", "score", "message", "line_no"}]}`. GitHub Classroom records
//! the sum of the tests' `score` (added in their order) against
//! `max_score`, so the scores here add up, exactly, to referee's own
//! score: each is the case's points, and where those (rounded to 4
//! decimals) do not add up to the score, the last test that earned points
//! carries the difference ([`scores`]).
//!
//! A student can read everything their repository holds and everything
//! their workflow's log shows. A hidden case is therefore never named:
//! [`anonymized`] renames it `hidden case K` (its rank among the hidden
//! cases), and drops its description, its reason, its explanation and
//! its transcripts, and the input and message of a diagnosis made in it,
//! before anything is written. The payload, the summary and the
//! annotations are all made from that copy.
//!
//! Every text a student's program printed is made safe for the log the
//! reporter prints it into: control characters become visible escapes,
//! and a line that would read as a workflow command (`::error::`,
//! `##[...]`) is prefixed, so that no line of it can start one
//! ([`log_safe`]). Annotations are escaped by GitHub's rules for
//! workflow commands ([`escape_data`], [`escape_property`]) and bounded
//! in number ([`MAX_ANNOTATIONS`]) and length ([`MAX_MESSAGE`]).

use std::collections::HashMap;
use std::io;
use std::path::Path;

use serde::Serialize;

use super::exporter::only_submission;
use super::markdown::feedback;
use super::view::{self, rows, Row};
use super::{Exporter, Sink};
use crate::case::Visibility;
use crate::explain::diagnoses::Told;
use crate::results::{ClassResults, Status, SubmissionResult};
use crate::text::points;

/// The payload's file (its JSON, before base64).
pub const PAYLOAD: &str = "classroom.json";
/// The step summary's file.
pub const SUMMARY: &str = "classroom.md";
/// The annotations' file: one workflow command a line.
pub const ANNOTATIONS: &str = "classroom-annotations.txt";

/// Annotations written at most: GitHub shows ten warnings of a step.
pub const MAX_ANNOTATIONS: usize = 10;
/// Characters of an annotation's message at most (before escaping).
pub const MAX_MESSAGE: usize = 600;
/// Characters of a test's message at most.
pub const MAX_TEST_MESSAGE: usize = 6000;

/// GitHub Classroom's files for a class of one submission.
pub struct Classroom {
    /// The folder holding the program's sources, relative to the
    /// repository's root (`""` for the root itself, else ending in `/`):
    /// an annotation's file is there.
    pub source_dir: String,
}

/// What the reporter reads.
#[derive(Debug, Serialize)]
pub struct Payload {
    /// The format's version: 1.
    pub version: u32,
    /// `pass` (every test passed), `fail`, or `error` (not graded).
    pub status: &'static str,
    /// The points possible.
    pub max_score: f64,
    /// One per case, in the suite's order.
    pub tests: Vec<Test>,
}

/// One case, as a test of the reporter's.
#[derive(Debug, Serialize)]
pub struct Test {
    /// The case's name (`hidden case K` for a hidden one).
    pub name: String,
    /// `pass`, `fail` or `error` (did not run).
    pub status: &'static str,
    /// Points earned.
    pub score: f64,
    /// What the student may learn of it.
    pub message: String,
    /// Its position in the suite, from 1 (the reporter orders by it).
    pub line_no: usize,
}

impl Exporter for Classroom {
    fn finish(&mut self, results: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        only_submission(results, "GitHub Classroom's")?;
        let safe = anonymized(results);
        let submission = &safe.submissions[0];
        let json = serde_json::to_vec(&payload(&safe, submission)).map_err(io::Error::other)?;
        out.file(Path::new(PAYLOAD), &json)?;
        out.file(Path::new(SUMMARY), summary(&safe, submission).as_bytes())?;
        let lines = annotations(&safe, submission, &self.source_dir);
        out.file(Path::new(ANNOTATIONS), lines.concat().as_bytes())
    }
}

/// The name a hidden case is given: `hidden case K`.
pub fn hidden_name(rank: usize) -> String {
    format!("hidden case {rank}")
}

/// `results` with every hidden case unnamed: renamed `hidden case K` in
/// the suite's order, with no description, rubric item, reason,
/// explanation or transcript, and a diagnosis made in it with no input
/// or message. What a repository's owner may read.
pub fn anonymized(results: &ClassResults) -> ClassResults {
    let mut safe = results.clone();
    let mut names: HashMap<String, String> = HashMap::new();
    for info in safe.suite.cases.iter_mut() {
        if info.visibility == Visibility::Hidden {
            let name = hidden_name(names.len() + 1);
            names.insert(std::mem::replace(&mut info.name, name.clone()), name);
            info.description = None;
            info.rubric = None;
        }
    }
    for submission in safe.submissions.iter_mut() {
        anonymize_cases(submission, &mut names);
        anonymize_diagnoses(submission, &names);
    }
    safe
}

/// A submission's hidden case results renamed and emptied; a hidden one
/// the suite does not list gets a name of its own.
fn anonymize_cases(submission: &mut SubmissionResult, names: &mut HashMap<String, String>) {
    for case in submission.cases.iter_mut() {
        let known = names.get(&case.name).cloned();
        if known.is_none() && case.visibility != Visibility::Hidden {
            continue;
        }
        let name = known.unwrap_or_else(|| {
            let name = hidden_name(names.len() + 1);
            names.insert(case.name.clone(), name.clone());
            name
        });
        case.name = name;
        case.visibility = Visibility::Hidden;
        case.reason.clear();
        case.explanation.clear();
        case.expected = None;
        case.actual = None;
        case.not_shown = 0;
        case.prompts = None;
        case.files.clear();
        case.given.clear();
    }
}

/// A diagnosis made in a hidden case keeps only its kind and its place
/// in the source: the case's new name, no input, no message (which may
/// quote the input).
fn anonymize_diagnoses(submission: &mut SubmissionResult, names: &HashMap<String, String>) {
    for d in submission.diagnostics.iter_mut() {
        if let Some(name) = d.case.as_ref().and_then(|c| names.get(c)) {
            d.case = Some(name.clone());
            d.input = None;
            d.input_line = None;
            d.message.clear();
        }
    }
}

/// The reporter's document for `submission` of (anonymized) `results`.
pub fn payload(results: &ClassResults, submission: &SubmissionResult) -> Payload {
    let rows = rows(&results.suite, submission);
    let graded = submission.status == Status::Graded;
    let scores = scores(&rows, submission.score);
    let tests: Vec<Test> = rows
        .iter()
        .zip(scores)
        .enumerate()
        .map(|(i, (row, score))| test(i, row, score, submission))
        .collect();
    let status = match (graded, tests.iter().all(|t| t.status == "pass")) {
        (false, _) => "error",
        (true, true) => "pass",
        (true, false) => "fail",
    };
    Payload {
        version: 1,
        status,
        max_score: submission.max_score,
        tests: if tests.is_empty() {
            vec![not_graded(submission)]
        } else {
            tests
        },
    }
}

/// Each row's points, adding up (in order, as the reporter adds them)
/// to `total` exactly: the cases' points, the last that earned any
/// carrying what rounding each to 4 decimals left over.
pub fn scores(rows: &[Row<'_>], total: f64) -> Vec<f64> {
    let mut scores: Vec<f64> = rows.iter().map(Row::score).collect();
    if sum(&scores) == total {
        return scores;
    }
    let Some(last) = scores.iter().rposition(|s| *s > 0.0) else {
        return scores;
    };
    let before: f64 = scores[..last].iter().sum();
    let after: f64 = scores[last + 1..].iter().sum(); // zeros
    scores[last] = total - before - after;
    // Where the subtraction rounded, the nearest neighbours of that
    // value are tried: one of them adds up exactly.
    for _ in 0..4 {
        let got = sum(&scores);
        if got == total || scores[last] <= 0.0 {
            break;
        }
        let bits = scores[last].to_bits();
        scores[last] = f64::from_bits(if got < total { bits + 1 } else { bits - 1 });
    }
    scores
}

/// The sum the reporter makes: from 0, in order.
pub fn sum(scores: &[f64]) -> f64 {
    scores.iter().fold(0.0, |acc, s| acc + s)
}

fn test(index: usize, row: &Row<'_>, score: f64, submission: &SubmissionResult) -> Test {
    let (status, message) = match (submission.status, row.result) {
        (Status::Graded, Some(_)) if row.passed() => ("pass", verdict(row)),
        (Status::Graded, Some(_)) => ("fail", failure(row)),
        _ if index == 0 => ("error", why_not_graded(submission)),
        _ => (
            "error",
            "Not run: the first test's message says why.".to_string(),
        ),
    };
    Test {
        name: row.name.to_string(),
        status,
        score,
        message: log_safe(&message, MAX_TEST_MESSAGE),
        line_no: index + 1,
    }
}

/// The one test of a submission with no cases to list (referee could
/// not find the suite): why.
fn not_graded(submission: &SubmissionResult) -> Test {
    Test {
        name: "referee".into(),
        status: "error",
        score: 0.0,
        message: log_safe(&why_not_graded(submission), MAX_TEST_MESSAGE),
        line_no: 1,
    }
}

fn verdict(row: &Row<'_>) -> String {
    format!("Verdict: {}", row.verdict_label())
}

/// A public failure's description, reason and explanation; for a hidden
/// one its verdict alone.
fn failure(row: &Row<'_>) -> String {
    let Some(result) = row.details() else {
        return verdict(row);
    };
    let mut text = format!("{}\n", verdict(row));
    if let Some(description) = row.description {
        text.push_str(&format!("This case: {description}\n"));
    }
    if let Some(reason) = view::reason(result) {
        text.push_str(&format!("{reason}\n"));
    }
    if !result.explanation.trim().is_empty() {
        text.push_str(&format!("\n{}", result.explanation));
    }
    text
}

fn why_not_graded(submission: &SubmissionResult) -> String {
    match view::problem(submission) {
        Some((heading, message)) => format!("{heading}\n\n{}", message.trim_end()),
        None => "Not run.".to_string(),
    }
}

/// The step summary: the score, then the feedback `grade` writes for a
/// student (of the anonymized results).
pub fn summary(results: &ClassResults, submission: &SubmissionResult) -> String {
    let score = if view::has_score(submission.status) {
        format!(
            "{} / {} points",
            points(submission.score),
            points(submission.max_score)
        )
    } else {
        "not graded".to_string()
    };
    format!(
        "## referee: {score}\n\n{}\n",
        feedback(results, submission).trim_end()
    )
}

/// The diagnoses as `::warning` commands, one a line, each on the
/// student's source file and line where known; at most
/// [`MAX_ANNOTATIONS`], and a `::notice` saying how many more the
/// summary lists.
pub fn annotations(
    results: &ClassResults,
    submission: &SubmissionResult,
    source_dir: &str,
) -> Vec<String> {
    let hidden = view::hidden_from_student(&results.suite, submission);
    let all = &submission.diagnostics;
    let mut lines: Vec<String> = all
        .iter()
        .take(MAX_ANNOTATIONS)
        .map(|d| {
            let told = Told::new(d, &hidden);
            let mut properties = Vec::new();
            if let Some(file) = &d.file {
                properties.push(format!(
                    "file={}",
                    escape_property(&format!("{source_dir}{file}"))
                ));
                if let Some(line) = d.line {
                    properties.push(format!("line={line}"));
                }
            }
            properties.push(format!("title={}", escape_property(&told.heading())));
            let message = bounded(&view::printable(&told.sentence()), MAX_MESSAGE);
            format!(
                "::warning {}::{}\n",
                properties.join(","),
                escape_data(&message)
            )
        })
        .collect();
    if all.len() > MAX_ANNOTATIONS {
        lines.push(format!(
            "::notice title=More diagnoses::{} more faults found: the step's summary lists them all.\n",
            all.len() - MAX_ANNOTATIONS
        ));
    }
    lines
}

/// A workflow command's message, escaped as GitHub's runner unescapes
/// it: `%`, carriage return and line feed.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: as [`escape_data`], and `:` and
/// `,`, which would end the value.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `text` for a log the runner reads commands from: control characters
/// as visible escapes, each line that would start a workflow command
/// (`::name::`, or the older `##[name]`) prefixed with `> `, and at most
/// `max` characters.
pub fn log_safe(text: &str, max: usize) -> String {
    let text = bounded(&view::printable(text), max);
    text.split('\n')
        .map(|line| {
            let opening = line.trim_start();
            if opening.starts_with("::") || opening.starts_with("##[") {
                format!("> {line}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` cut to `max` characters, saying so.
fn bounded(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{} [cut]", &text[..at]),
    }
}

/// `bytes` in standard base64, with padding (as the reporter's
/// `Buffer.from(s, "base64")` reads it), by the `base64` crate.
pub fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::{case, class, diagnosed_class};
    use crate::verdict::Verdict;

    fn one(mut class: ClassResults, i: usize) -> ClassResults {
        class.submissions = vec![class.submissions.remove(i)];
        class
    }

    fn files(results: &ClassResults) -> HashMap<String, String> {
        Classroom {
            source_dir: "src/".into(),
        }
        .files(results)
        .unwrap()
        .into_iter()
        .map(|(p, b)| (p.display().to_string(), String::from_utf8(b).unwrap()))
        .collect()
    }

    #[test]
    fn the_payload_has_every_field_and_hidden_cases_unnamed() {
        let files = files(&one(diagnosed_class(), 0));
        let doc: serde_json::Value = serde_json::from_str(&files[PAYLOAD]).unwrap();
        assert_eq!(doc["version"], 1);
        assert_eq!(doc["status"], "fail");
        assert_eq!(doc["max_score"], 4.5);
        let tests = doc["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 3);
        assert_eq!(tests[0]["name"], "public-pass");
        assert_eq!(tests[0]["status"], "pass");
        assert_eq!(tests[0]["score"], 1.0);
        assert_eq!(tests[0]["line_no"], 1);
        assert_eq!(tests[1]["status"], "fail");
        assert!(tests[1]["message"]
            .as_str()
            .unwrap()
            .contains("SECRET-public-fail"));
        assert_eq!(tests[2]["name"], "hidden case 1");
        assert_eq!(tests[2]["message"], "Verdict: timed out");
        assert_eq!(tests[2]["line_no"], 3);
        for (name, text) in &files {
            assert!(!text.contains("hidden-fail"), "{name}: {text}");
            assert!(!text.contains("SECRET-input"), "{name}: {text}");
            assert!(!text.contains("SECRET-hidden"), "{name}: {text}");
        }
    }

    #[test]
    fn an_ungradable_submission_is_an_error_with_its_reason_first() {
        let doc: serde_json::Value =
            serde_json::from_str(&files(&one(class(), 1))[PAYLOAD]).unwrap();
        assert_eq!(doc["status"], "error");
        let tests = doc["tests"].as_array().unwrap();
        assert!(tests
            .iter()
            .all(|t| t["status"] == "error" && t["score"] == 0.0));
        let first = tests[0]["message"].as_str().unwrap();
        assert!(
            first.starts_with("Your program does not compile."),
            "{first}"
        );
        assert!(
            first.contains("\\x1b"),
            "control characters escaped: {first}"
        );
        let mut nothing = one(class(), 2);
        nothing.suite.cases.clear();
        let doc: serde_json::Value = serde_json::from_str(&files(&nothing)[PAYLOAD]).unwrap();
        assert_eq!(doc["tests"][0]["name"], "referee");
        assert!(doc["tests"][0]["message"]
            .as_str()
            .unwrap()
            .contains("no program in this folder"));
    }

    #[test]
    fn annotations_are_placed_escaped_and_bounded() {
        let files = files(&one(diagnosed_class(), 0));
        let lines: Vec<&str> = files[ANNOTATIONS].lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[0].starts_with("::warning file=src/alice.c,line=4,title="),
            "{}",
            lines[0]
        );
        assert!(lines[1].contains("in a hidden case"), "{}", lines[1]);
        let mut many = one(diagnosed_class(), 0);
        let d = many.submissions[0].diagnostics[0].clone();
        many.submissions[0].diagnostics = vec![d; 25];
        many.submissions[0].diagnostics[0].message = "x\n::error::y%".repeat(500);
        let text = annotations(&many, &many.submissions[0], "");
        assert_eq!(text.len(), MAX_ANNOTATIONS + 1);
        assert!(text[MAX_ANNOTATIONS].starts_with("::notice "));
        assert!(text
            .iter()
            .all(|l| l.matches('\n').count() == 1 && l.len() < 3 * MAX_MESSAGE + 200));
    }

    #[test]
    fn workflow_command_escapes_are_githubs() {
        assert_eq!(escape_data("a%b\r\nc:d,e"), "a%25b%0D%0Ac:d,e");
        assert_eq!(escape_property("a%b\r\nc:d,e"), "a%25b%0D%0Ac%3Ad%2Ce");
        assert_eq!(
            log_safe("ok\n::error::x\n  ##[group]y\r\nz", 100),
            "ok\n> ::error::x\n>   ##[group]y\\x0d\nz"
        );
    }

    #[test]
    fn base64_is_the_standard_alphabet_with_padding() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
            ("\u{ff}\u{fe}?", "w7/Dvj8="),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded, "{plain:?}");
        }
    }

    #[test]
    fn scores_add_up_to_the_score_exactly() {
        let third = 1.0 / 3.0;
        let results: Vec<_> = (0..3)
            .map(|i| {
                let mut r = case(
                    &format!("c{i}"),
                    Verdict::Pass,
                    0.0,
                    1.0,
                    Visibility::Public,
                );
                r.score = crate::text::round(third);
                r
            })
            .chain([case(
                "c3",
                Verdict::WrongOutput,
                0.0,
                1.0,
                Visibility::Public,
            )])
            .collect();
        let rows: Vec<Row<'_>> = results
            .iter()
            .map(|r| Row {
                name: &r.name,
                max_score: 1.0,
                visibility: Visibility::Public,
                description: None,
                result: Some(r),
            })
            .collect();
        for total in [1.0, 0.9999, 0.9998 + 0.0001] {
            let scores = scores(&rows, total);
            assert_eq!(sum(&scores), total, "{scores:?}");
        }
    }
}
