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

use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::Path;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use super::view::{self, rows, Row};
use super::{Exporter, Sink};
use crate::results::{ClassResults, Status, SubmissionResult};
use crate::text::points;
use crate::verdict::Verdict;

/// The file's name.
pub const FILE: &str = "junit.xml";

/// `junit.xml`, written a student at a time: each student's
/// `<testsuite>` is spilled to a temporary file as it comes, since the
/// class's totals open the document; the document is put together at the
/// end, the same bytes as `quick-junit` writes of the whole report.
#[derive(Default)]
pub struct Junit {
    /// The `<testsuite>` elements so far.
    body: Option<File>,
    /// The class's counts, its suites left out.
    totals: Counts,
}

/// What the document's root counts.
#[derive(Default)]
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    millis: u64,
}

impl Exporter for Junit {
    fn start(&mut self, _class: &ClassResults, _out: &mut dyn Sink) -> io::Result<()> {
        self.body = Some(tempfile::tempfile()?);
        self.totals = Counts::default();
        Ok(())
    }

    fn student(
        &mut self,
        class: &ClassResults,
        _name: &str,
        student: &SubmissionResult,
        _out: &mut dyn Sink,
    ) -> io::Result<()> {
        let (suite, millis) = testsuite(class, student);
        self.totals.millis += millis;
        self.spill(suite)
    }

    fn finish(&mut self, class: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        if let Some(missing) = &class.missing {
            self.spill(missing_shards(class, missing))?;
        }
        let mut report = Report::new(shown(&format!("referee: {}", class.suite.title)));
        let totals = &self.totals;
        report.tests = totals.tests;
        report.failures = totals.failures;
        report.errors = totals.errors;
        report.skipped = totals.skipped;
        report.set_time(Duration::from_millis(totals.millis));
        let empty = report.to_string().map_err(io::Error::other)?;
        let file = Path::new(FILE);
        let Some(mut body) = self
            .body
            .take()
            .filter(|_| totals.tests > 0 || class.missing.is_some())
        else {
            return out.append(file, empty.as_bytes());
        };
        let (opening, closing) = split_root(&empty)?;
        out.append(file, opening.as_bytes())?;
        body.rewind()?;
        let mut chunk = vec![0; 64 * 1024];
        loop {
            let n = body.read(&mut chunk)?;
            if n == 0 {
                break;
            }
            out.append(file, &chunk[..n])?;
        }
        out.append(file, closing.as_bytes())
    }
}

impl Junit {
    /// Adds `suite` to the document's body and its counts to the totals.
    fn spill(&mut self, suite: TestSuite) -> io::Result<()> {
        let totals = &mut self.totals;
        totals.tests += suite.tests;
        totals.failures += suite.failures;
        totals.errors += suite.errors;
        totals.skipped += suite.skipped;
        let mut alone = Report::unnamed();
        alone.add_test_suite(suite);
        let document = alone.to_string().map_err(io::Error::other)?;
        let (opening, closing) = split_root(&document)?;
        let inner = &document[opening.len()..document.len() - closing.len()];
        let body = self
            .body
            .as_mut()
            .ok_or_else(|| io::Error::other("junit.xml was not started"))?;
        body.write_all(inner.as_bytes())
    }
}

/// A document's opening up to its root's start tag (and the line break
/// after it), and its closing from the root's end tag. Attribute values
/// are escaped, so the first `>` after `<testsuites` ends the tag.
fn split_root(document: &str) -> io::Result<(&str, &str)> {
    let malformed = || io::Error::other("quick-junit wrote an unexpected document");
    let root = document.find("<testsuites").ok_or_else(malformed)?;
    let tag_end = root + document[root..].find('>').ok_or_else(malformed)? + 1;
    let opening_end = if document[tag_end..].starts_with('\n') {
        tag_end + 1
    } else {
        tag_end
    };
    let closing = "</testsuites>\n";
    let closing_start = document.rfind(closing).ok_or_else(malformed)?;
    if closing_start < opening_end {
        return Err(malformed());
    }
    Ok((&document[..opening_end], &document[closing_start..]))
}

/// The whole document, in memory.
pub fn document(results: &ClassResults) -> io::Result<String> {
    let files = Junit::default().files(results)?;
    let bytes = files.into_iter().next().map(|(_, b)| b).unwrap_or_default();
    String::from_utf8(bytes).map_err(io::Error::other)
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

    /// The document as `quick-junit` writes the whole report at once.
    fn at_once(results: &ClassResults) -> String {
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
        report.to_string().unwrap()
    }

    #[test]
    fn written_a_student_at_a_time_it_is_the_whole_report() {
        let mut missing = class();
        missing.missing = Some(crate::results::Missing {
            shards: vec!["2/2".into()],
            students: 4,
        });
        let mut only_missing = empty_class();
        only_missing.missing = missing.missing.clone();
        for results in [class(), empty_class(), missing, only_missing] {
            assert_eq!(document(&results).unwrap(), at_once(&results));
        }
    }

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
