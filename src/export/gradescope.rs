//! Gradescope's autograder `results.json`, for one submission: what
//! `referee gradescope` writes to `/autograder/results/results.json`.
//!
//! The format is Gradescope's ("Autograder Specifications"): top-level
//! `score`, `execution_time` (seconds), `output`, `visibility`,
//! `stdout_visibility` and `tests`; each test `score`, `max_score`,
//! `name`, `number`, `output`, `status` (`passed` or `failed`) and
//! `visibility`.
//!
//! Public cases are `visible`. Hidden cases are `after_published`: their
//! points count, and Gradescope documents `hidden` for tests that carry
//! none (a `hidden` test is never shown at all, so a student could not
//! see why points were lost even after grades are out);
//! `after_published` shows them once the TA publishes the grades. Either
//! way, a hidden case's `output` is its verdict alone, never its reason,
//! explanation or transcripts, which would reveal its input. The
//! top-level `output` is the summary, or why the submission could not be
//! graded (the compiler's messages, no program found), which Gradescope
//! shows the student, and where the program breaks (its diagnoses, at
//! most a few, each line bounded and made safe, a hidden case unnamed as
//! in the student's Markdown feedback: see [`crate::explain::diagnoses`]).
//! A public case's own `output` says the diagnoses that happened first in
//! it; a hidden case's says none, so that none is tied to it. Referee's
//! own standard output is for the instructor (`stdout_visibility:
//! hidden`).

use std::io;
use std::path::Path;

use serde::Serialize;

use super::exporter::only_submission;
use super::markdown::summary;
use super::view::{self, rows, Row};
use super::{Exporter, Sink};
use crate::case::Visibility;
use crate::explain::diagnoses;
use crate::results::{ClassResults, SubmissionResult};
use crate::text::points;

/// The file's name.
pub const FILE: &str = "results.json";

/// Gradescope's `results.json` for a class of one submission.
pub struct Gradescope {
    /// How long grading took, in seconds.
    pub execution_time: u64,
}

/// The whole document, as Gradescope reads it.
#[derive(Debug, Serialize)]
pub struct Results {
    /// Points earned.
    pub score: f64,
    /// How long grading took, in seconds.
    pub execution_time: u64,
    /// Text for the whole submission, shown to the student.
    pub output: String,
    /// Default visibility of the tests.
    pub visibility: &'static str,
    /// Who sees the autograder's standard output.
    pub stdout_visibility: &'static str,
    /// One per case.
    pub tests: Vec<Test>,
}

/// One case, as a Gradescope test.
#[derive(Debug, Serialize)]
pub struct Test {
    /// Points earned.
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
    /// The case's name.
    pub name: String,
    /// Its position, from 1 (Gradescope orders tests by it).
    pub number: String,
    /// What the student may learn about it.
    pub output: String,
    /// `passed` or `failed`.
    pub status: &'static str,
    /// `visible` or `after_published`.
    pub visibility: &'static str,
}

impl Exporter for Gradescope {
    fn finish(&mut self, results: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        let submission = only_submission(results, "Gradescope's")?;
        let doc = document(results, submission, self.execution_time);
        let mut json = serde_json::to_vec_pretty(&doc).map_err(io::Error::other)?;
        json.push(b'\n');
        out.file(Path::new(FILE), &json)
    }
}

/// Gradescope's results for `submission`.
pub fn document(results: &ClassResults, submission: &SubmissionResult, seconds: u64) -> Results {
    let rows = rows(&results.suite, submission);
    let hidden = view::hidden_from_student(&results.suite, submission);
    let mut output = overall(submission, &rows);
    let said = diagnoses::for_text(&submission.diagnostics, &hidden);
    if !said.is_empty() {
        output.push_str("\n\n");
        output.push_str(said.trim_end());
    }
    Results {
        score: submission.score,
        execution_time: seconds,
        output,
        visibility: "visible",
        stdout_visibility: "hidden",
        tests: rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let mut test = test(i, row);
                let said = diagnoses::of_case(&submission.diagnostics, row.name, &hidden);
                if !said.is_empty() {
                    test.output = format!("{}\n\n{}", test.output.trim_end(), said.trim_end());
                }
                test
            })
            .collect(),
    }
}

/// The top-level text: the score and what to look at, or why nothing ran.
fn overall(submission: &SubmissionResult, rows: &[Row<'_>]) -> String {
    // With no suite (referee could not find the cases) there is no score
    // worth stating.
    let mut text = if submission.max_score > 0.0 {
        format!(
            "Score: {} / {} points. ",
            points(submission.score),
            points(submission.max_score)
        )
    } else {
        String::new()
    };
    match view::problem(submission) {
        Some((heading, message)) if submission.status == crate::results::Status::Graded => {
            text.push_str(&summary(rows));
            text.push_str(&format!("\n\n{heading}\n{}", message.trim_end()));
        }
        Some((heading, message)) => {
            text.push_str(&format!("{heading}\n\n{}", message.trim_end()));
        }
        None => text.push_str(&summary(rows)),
    }
    if rows.iter().any(|r| r.visibility == Visibility::Hidden) {
        text.push_str(
            "\n\nHidden cases show only their verdict, once grades are published: they \
             test what the handout asks with input you have not seen.",
        );
    }
    text
}

fn test(index: usize, row: &Row<'_>) -> Test {
    Test {
        score: row.score(),
        max_score: row.max_score,
        name: row.name.to_string(),
        number: (index + 1).to_string(),
        output: test_output(row),
        status: if row.passed() { "passed" } else { "failed" },
        visibility: match row.visibility {
            Visibility::Public => "visible",
            Visibility::Hidden => "after_published",
        },
    }
}

/// A public failure's description, reason and explanation; for anything
/// else the verdict alone.
fn test_output(row: &Row<'_>) -> String {
    let Some(result) = row.details() else {
        return format!("Verdict: {}", row.verdict_label());
    };
    let mut text = format!("Verdict: {}\n", row.verdict_label());
    if let Some(description) = row.description {
        text.push_str(&format!("This case: {}\n", view::printable(description)));
    }
    if let Some(reason) = view::reason(result) {
        text.push_str(&format!("{reason}\n"));
    }
    if !result.explanation.trim().is_empty() {
        text.push_str(&format!("\n{}", view::printable(&result.explanation)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::class;

    fn one(i: usize) -> ClassResults {
        let mut class = class();
        class.submissions = vec![class.submissions.remove(i)];
        class
    }

    fn json(i: usize) -> serde_json::Value {
        json_of(&one(i))
    }

    fn json_of(class: &ClassResults) -> serde_json::Value {
        let files = Gradescope { execution_time: 7 }.files(class).unwrap();
        assert_eq!(files[0].0, std::path::PathBuf::from("results.json"));
        serde_json::from_slice(&files[0].1).unwrap()
    }

    #[test]
    fn every_documented_field_is_there() {
        let doc = json(0);
        assert_eq!(doc["score"], 1.0);
        assert_eq!(doc["execution_time"], 7);
        assert_eq!(doc["visibility"], "visible");
        assert_eq!(doc["stdout_visibility"], "hidden");
        let output = doc["output"].as_str().unwrap();
        assert!(
            output.starts_with("Score: 1 / 4.5 points. 2 of 3 cases did not pass."),
            "{output}"
        );
        let tests = doc["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 3);
        assert_eq!(tests[0]["name"], "public-pass");
        assert_eq!(tests[0]["number"], "1");
        assert_eq!(tests[0]["status"], "passed");
        assert_eq!(tests[0]["score"], 1.0);
        assert_eq!(tests[0]["max_score"], 1.0);
        assert_eq!(tests[0]["visibility"], "visible");
        assert_eq!(tests[1]["status"], "failed");
        let explained = tests[1]["output"].as_str().unwrap();
        assert!(explained.contains("Public-fail reason: typed `SECRET-public-fail`"));
        assert!(explained.contains("\\x1b[31mred\\x07"), "{explained}");
    }

    #[test]
    fn hidden_cases_wait_for_publication_and_tell_only_the_verdict() {
        let doc = json(0);
        let hidden = &doc["tests"][2];
        assert_eq!(hidden["visibility"], "after_published");
        assert_eq!(hidden["output"], "Verdict: timed out");
        assert!(!doc.to_string().contains("SECRET-hidden-fail"));
    }

    #[test]
    fn an_ungradable_submission_says_why() {
        let doc = json(1);
        let output = doc["output"].as_str().unwrap();
        assert!(
            output.contains("Your program does not compile. The compiler said:\n\nbob.c:1: error"),
            "{output}"
        );
        let doc = json(2);
        assert_eq!(doc["score"], 0.0);
        assert!(doc["output"]
            .as_str()
            .unwrap()
            .contains("could not be graded:\n\nclass/carol: no program"));
        assert_eq!(doc["tests"][0]["output"], "Verdict: not run");
    }

    #[test]
    fn only_one_submission_fits() {
        assert!(Gradescope { execution_time: 0 }.files(&class()).is_err());
    }

    #[test]
    fn diagnoses_are_said_with_a_hidden_case_unnamed() {
        let mut class = crate::export::view::tests::diagnosed_class();
        class.submissions.truncate(1);
        let doc = json_of(&class);
        let output = doc["output"].as_str().unwrap();
        let section = &output[output.find("Where your program breaks:").expect(output)..];
        assert!(
            section.contains("They do not change your grade."),
            "{output}"
        );
        assert!(
            section.contains(
                "  • A read past the end of an array in `check` (alice.c, line 4), in case \
                 `public-fail`, after input line 7 (`6`), in 3 runs: index 6 out of bounds for \
                 type 'int [6]' <b>.\n      4 |     if (board[r][c + 1] == p && `x` < 2)\n"
            ),
            "{output}"
        );
        assert!(
            section.contains(
                "  • A division by zero in `score` (alice.c, line 30), in a hidden case.\n"
            ),
            "{output}"
        );
        assert!(section.contains("as the compiler warned"), "{output}");
        // The public case's own output says its diagnosis; the hidden
        // case's, its verdict alone.
        let tests = doc["tests"].as_array().unwrap();
        let public = tests[1]["output"].as_str().unwrap();
        assert!(
            public.contains("\n\nWhere your program breaks:\n  • A read past the end"),
            "{public}"
        );
        assert!(!public.contains("division"), "{public}");
        assert_eq!(tests[2]["output"], "Verdict: timed out");
        // Nothing of the hidden case but its own name and verdict.
        let all = doc.to_string();
        assert!(!all.contains("SECRET-input"), "{all}");
        assert!(!all.contains("SECRET-hidden-fail"), "{all}");
        for test in tests {
            let text = test["output"].as_str().unwrap();
            assert!(!text.contains("hidden-fail"), "{text}");
        }
        assert!(!output.contains("hidden-fail"), "{output}");
    }

    #[test]
    fn forged_diagnoses_are_few_bounded_and_safe() {
        let mut class = crate::export::view::tests::diagnosed_class();
        class.submissions.truncate(1);
        let mut forged = class.submissions[0].diagnostics[0].clone();
        forged.message = format!("\x1b[2J\x1b]0;pwned\x07{}", "A".repeat(1 << 20));
        forged.source = Some(format!("\x1b[31m{}", "B".repeat(1 << 20)));
        class.submissions[0].diagnostics = vec![forged; 20];
        let doc = json_of(&class);
        let all = doc.to_string();
        assert!(all.len() < 20_000, "{} bytes", all.len());
        assert!(
            !all.contains("\\u001b") && !all.contains("\\u0007"),
            "{all}"
        );
        let output = doc["output"].as_str().unwrap();
        assert_eq!(output.matches("  • ").count(), diagnoses::SHORT_LIST);
        assert!(output.ends_with("  … and 15 more."), "{output}");
        let public = doc["tests"][1]["output"].as_str().unwrap();
        assert_eq!(public.matches("  • ").count(), diagnoses::IN_A_CASE);
        for text in [output, public] {
            for line in text.lines() {
                assert!(line.chars().count() <= diagnoses::LINE_ROOM, "{line}");
            }
        }
    }
}
