//! `junit.xml`: the class as JUnit XML, for CI dashboards and tools that
//! read test reports (GitLab, Jenkins, GitHub test reporters).
//!
//! One `<testsuite>` per submission, named by its id; one `<testcase>`
//! per case, its `classname` the game and its `time` in seconds. A case
//! that did not pass is a `<failure>` (its `type` the verdict, its
//! `message` the reason, its text the explanation). A submission that does
//! not compile, or could not be graded, has an `<error>` in every case and
//! the compiler's messages (or why) in the suite's `<system-err>`; one
//! not graded yet (grading was interrupted) has every case `<skipped>`. This is
//! a file for TAs: hidden cases are reported in full.
//!
//! The XML is written by `quick-junit`, the crate cargo-nextest writes its
//! reports with: it escapes, and it counts tests, failures, errors and
//! skips. Control characters a program printed (which XML 1.0 forbids)
//! are first made visible as `\x1b`-style escapes ([`view::printable`])
//! and tabs as `␉`, so the file keeps them readable (`quick-junit` would
//! drop them). A line break in an attribute (a message) is written as it
//! is, which XML readers take for a space.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use super::view::{self, rows, Row};
use super::Exporter;
use crate::results::{ClassResults, Status, SubmissionResult};
use crate::text::points;
use crate::verdict::Verdict;

/// The file's name.
pub const FILE: &str = "junit.xml";

/// `junit.xml`.
pub struct Junit;

impl Exporter for Junit {
    fn files(&self, results: &ClassResults) -> io::Result<Vec<(PathBuf, Vec<u8>)>> {
        Ok(vec![(PathBuf::from(FILE), document(results)?.into_bytes())])
    }
}

/// The whole document.
pub fn document(results: &ClassResults) -> io::Result<String> {
    let mut report = Report::new(shown(&format!("referee: {}", results.suite.title)));
    let mut millis = 0;
    for submission in &results.submissions {
        let (suite, suite_millis) = testsuite(results, submission);
        report.add_test_suite(suite);
        millis += suite_millis;
    }
    if let Some(missing) = &results.missing {
        report.add_test_suite(missing_shards(results, missing));
    }
    report.set_time(Duration::from_millis(millis));
    report.to_string().map_err(io::Error::other)
}

/// The shards a merge lacked, as a suite of skipped tests: CI pages show
/// them beside the students.
fn missing_shards(results: &ClassResults, missing: &crate::results::Missing) -> TestSuite {
    let mut suite = TestSuite::new("referee: shards not merged");
    let sentence = missing.sentence(results.class.as_ref().map(|c| c.students));
    for shard in &missing.shards {
        let mut status = TestCaseStatus::skipped();
        status.set_message(sentence.clone());
        suite.add_test_case(TestCase::new(format!("shard {shard}"), status));
    }
    suite
}

/// Text as the file shows it: control characters made visible, and tabs
/// as `␉` (as explanations mark them), since `quick-junit` would drop them.
fn shown(text: &str) -> String {
    view::printable(text).replace('\t', "␉")
}

/// One submission's `<testsuite>`, and its time in milliseconds.
fn testsuite(results: &ClassResults, submission: &SubmissionResult) -> (TestSuite, u64) {
    let mut suite = TestSuite::new(shown(&submission.id));
    suite.add_properties([
        Property::new("score", points(submission.score)),
        Property::new("max_score", points(submission.max_score)),
        Property::new("status", view::status_id(submission.status)),
        Property::new("path", shown(&submission.path)),
    ]);
    let mut millis = 0;
    for row in rows(&results.suite, submission) {
        let case_millis = row.result.map_or(0, |r| r.wall_ms);
        millis += case_millis;
        let mut case = TestCase::new(shown(row.name), outcome(submission, &row));
        case.set_classname(shown(&results.game))
            .set_time(Duration::from_millis(case_millis));
        suite.add_test_case(case);
    }
    suite.set_time(Duration::from_millis(millis));
    if let Some(message) = submission.message.as_deref().filter(|m| !m.is_empty()) {
        suite.set_system_err(shown(message));
    }
    (suite, millis)
}

/// What a case's `<testcase>` holds.
fn outcome(submission: &SubmissionResult, row: &Row<'_>) -> TestCaseStatus {
    if submission.status == Status::NotGraded {
        let mut status = TestCaseStatus::skipped();
        status.set_message("not graded yet: grading was interrupted");
        return status;
    }
    let Some(result) = row.result else {
        let why = submission.message.as_deref().unwrap_or("not run");
        return non_success(NonSuccessKind::Error, "not-run", why, "");
    };
    let kind = result.verdict.id();
    match result.verdict {
        Verdict::Pass => TestCaseStatus::success(),
        // It never ran (the compiler's messages are in <system-err>), or
        // its submission could not be graded.
        _ if result.verdict == Verdict::CompileError || submission.status != Status::Graded => {
            non_success(NonSuccessKind::Error, kind, &result.reason, "")
        }
        _ => non_success(
            NonSuccessKind::Failure,
            kind,
            &result.reason,
            &result.explanation,
        ),
    }
}

/// A `<failure>` or `<error>`: its `type`, its `message`, and its text
/// when there is one.
fn non_success(kind: NonSuccessKind, ty: &str, message: &str, body: &str) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(kind);
    status.set_type(ty).set_message(shown(message));
    if !body.is_empty() {
        status.set_description(shown(body));
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::{class, empty_class};

    /// The document, parsed.
    fn parsed(xml: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(xml).expect("well-formed XML")
    }

    /// `name="value"` of each attribute of an element, in a fixed order.
    fn attributes(node: roxmltree::Node<'_, '_>) -> Vec<String> {
        let mut all: Vec<String> = node
            .attributes()
            .map(|a| format!("{}={:?}", a.name(), a.value()))
            .collect();
        all.sort();
        all
    }

    #[test]
    fn one_suite_per_submission_one_case_per_case() {
        let xml = document(&class()).unwrap();
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
        let doc = parsed(&xml);
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        assert_eq!(
            attributes(root),
            [
                "errors=\"6\"",
                "failures=\"2\"",
                "name=\"referee: Test \\\"suite\\\" <1>\"",
                "skipped=\"0\"",
                "tests=\"9\"",
                "time=\"7.404\"",
            ]
        );
        let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
        assert_eq!(suites.len(), 3);
        assert_eq!(
            attributes(suites[0]),
            [
                "errors=\"0\"",
                "failures=\"2\"",
                "name=\"alice\"",
                "skipped=\"0\"",
                "tests=\"3\"",
                "time=\"3.702\"",
            ]
        );
        let cases: Vec<_> = suites[0]
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(
            attributes(cases[0]),
            [
                "classname=\"pentago\"",
                "name=\"public-pass\"",
                "time=\"1.234\""
            ]
        );
        assert!(!cases[0].has_children());
        let failure = cases[2].first_element_child().unwrap();
        assert_eq!(failure.tag_name().name(), "failure");
        assert_eq!(failure.attribute("type"), Some("timeout"));
        assert_eq!(
            failure.attribute("message"),
            Some("hidden-fail reason: typed `SECRET-hidden-fail` <b>")
        );
        assert_eq!(
            failure.text(),
            Some("  After input 1 (`SECRET-hidden-fail`), ```fence``` & <tag>\n  \\x1b[31mred\\x07\n")
        );
        assert_eq!(suites[1].attribute("name"), Some("bob, \"the builder\""));
        assert_eq!(suites[1].attribute("errors"), Some("3"));
        let error = suites[1]
            .descendants()
            .find(|n| n.has_tag_name("error"))
            .unwrap();
        assert_eq!(
            attributes(error),
            [
                "message=\"your program does not compile\"",
                "type=\"compile-error\""
            ]
        );
        let system_err = suites[1]
            .children()
            .find(|n| n.has_tag_name("system-err"))
            .unwrap();
        assert_eq!(
            system_err.text(),
            Some("bob.c:1: error: expected `;` before <eof> & \\x1b")
        );
        let not_run = suites[2]
            .descendants()
            .find(|n| n.has_tag_name("error"))
            .unwrap();
        assert_eq!(not_run.attribute("type"), Some("not-run"));
        assert_eq!(
            not_run.attribute("message"),
            Some("class/carol: no program in this folder")
        );
        let status = suites[2]
            .descendants()
            .find(|n| n.has_tag_name("property") && n.attribute("name") == Some("status"))
            .unwrap();
        assert_eq!(status.attribute("value"), Some("error"));
    }

    #[test]
    fn forbidden_characters_never_reach_the_file() {
        let mut class = class();
        class.submissions[0].cases[1].explanation = "\0\u{1}\u{8}\u{b}\u{c}\u{1f}\u{fffe}\r".into();
        let xml = document(&class).unwrap();
        let forbidden = |c: char| {
            (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}')
        };
        assert!(!xml.chars().any(forbidden));
        assert!(xml.contains("\\x00\\x01\\x08\\x0b\\x0c\\x1f\\u{fffe}\\x0d"));
        parsed(&xml);
    }

    #[test]
    fn markup_in_names_and_messages_stays_text_and_tabs_are_shown() {
        let mut class = class();
        class.submissions[0].id = "a<b>&\"'".into();
        class.submissions[0].cases[1].reason = "</failure><x y='1'>\tz".into();
        let xml = document(&class).unwrap();
        let doc = parsed(&xml);
        let suite = doc.root_element().first_element_child().unwrap();
        assert_eq!(suite.attribute("name"), Some("a<b>&\"'"));
        let failure = suite
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        assert_eq!(failure.attribute("message"), Some("</failure><x y='1'>␉z"));
    }

    #[test]
    fn an_interrupted_submission_has_every_case_skipped() {
        let mut class = class();
        class.submissions[0].status = Status::NotGraded;
        let xml = document(&class).unwrap();
        let doc = parsed(&xml);
        let suite = doc.root_element().first_element_child().unwrap();
        assert_eq!(suite.attribute("skipped"), Some("3"));
        let skipped: Vec<_> = suite
            .descendants()
            .filter(|n| n.has_tag_name("skipped"))
            .map(|n| n.attribute("message"))
            .collect();
        assert_eq!(
            skipped,
            [Some("not graded yet: grading was interrupted"); 3]
        );
    }

    #[test]
    fn an_empty_class_is_an_empty_testsuites() {
        let xml = document(&empty_class()).unwrap();
        let doc = parsed(&xml);
        let root = doc.root_element();
        assert_eq!(root.attribute("tests"), Some("0"));
        assert_eq!(root.attribute("time"), Some("0.000"));
        assert_eq!(root.attribute("name"), Some("referee: Test \"suite\" <1>"));
        assert_eq!(root.children().filter(|n| n.is_element()).count(), 0);
    }
}
