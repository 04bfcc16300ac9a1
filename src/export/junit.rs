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
//! Everything is escaped, and characters XML 1.0 forbids (control
//! characters a program printed) are replaced by visible `\x1b`-style
//! escapes, so the file is well-formed whatever the programs printed.

use std::fmt::Write;
use std::io;
use std::path::PathBuf;

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
        Ok(vec![(PathBuf::from(FILE), document(results).into_bytes())])
    }
}

/// Counts for a `<testsuite>` or `<testsuites>` element.
#[derive(Default)]
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    millis: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.tests += other.tests;
        self.failures += other.failures;
        self.errors += other.errors;
        self.skipped += other.skipped;
        self.millis += other.millis;
    }

    fn attributes(&self) -> String {
        format!(
            "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\"",
            self.tests,
            self.failures,
            self.errors,
            self.skipped,
            seconds(self.millis)
        )
    }
}

/// The whole document.
pub fn document(results: &ClassResults) -> String {
    let mut total = Counts::default();
    let mut suites = String::new();
    for submission in &results.submissions {
        let (xml, counts) = testsuite(results, submission);
        suites.push_str(&xml);
        total.add(&counts);
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"{}\" {}>\n{suites}</testsuites>\n",
        attr(&format!("referee: {}", results.suite.title)),
        total.attributes()
    )
}

/// One submission's `<testsuite>`, and its counts.
fn testsuite(results: &ClassResults, submission: &SubmissionResult) -> (String, Counts) {
    let mut counts = Counts::default();
    let mut cases = String::new();
    for row in rows(&results.suite, submission) {
        counts.tests += 1;
        counts.millis += row.result.map_or(0, |r| r.wall_ms);
        let body = match outcome(submission, &row) {
            Outcome::Pass => String::new(),
            Outcome::Failure(xml) => {
                counts.failures += 1;
                xml
            }
            Outcome::Error(xml) => {
                counts.errors += 1;
                xml
            }
            Outcome::Skipped(xml) => {
                counts.skipped += 1;
                xml
            }
        };
        cases.push_str(&testcase(&results.game, &row, &body));
    }
    let mut xml = format!(
        "  <testsuite name=\"{}\" {}>\n",
        attr(&submission.id),
        counts.attributes()
    );
    xml.push_str(&properties(submission));
    xml.push_str(&cases);
    if let Some(message) = submission.message.as_deref().filter(|m| !m.is_empty()) {
        let _ = writeln!(xml, "    <system-err>{}</system-err>", text(message));
    }
    xml.push_str("  </testsuite>\n");
    (xml, counts)
}

fn properties(submission: &SubmissionResult) -> String {
    let property = |name: &str, value: &str| {
        format!(
            "      <property name=\"{name}\" value=\"{}\"/>\n",
            attr(value)
        )
    };
    format!(
        "    <properties>\n{}{}{}{}    </properties>\n",
        property("score", &points(submission.score)),
        property("max_score", &points(submission.max_score)),
        property("status", view::status_id(submission.status)),
        property("path", &submission.path),
    )
}

enum Outcome {
    Pass,
    Failure(String),
    Error(String),
    /// Not graded yet: grading was interrupted before it.
    Skipped(String),
}

/// What a case's `<testcase>` holds.
fn outcome(submission: &SubmissionResult, row: &Row<'_>) -> Outcome {
    if submission.status == Status::NotGraded {
        return Outcome::Skipped(
            "      <skipped message=\"not graded yet: grading was interrupted\"/>\n".into(),
        );
    }
    let Some(result) = row.result else {
        let why = submission.message.as_deref().unwrap_or("not run");
        return Outcome::Error(element("error", "not-run", why, ""));
    };
    let kind = result.verdict.id();
    match result.verdict {
        Verdict::Pass => Outcome::Pass,
        // It never ran (the compiler's messages are in <system-err>), or
        // its submission could not be graded.
        _ if result.verdict == Verdict::CompileError || submission.status != Status::Graded => {
            Outcome::Error(element("error", kind, &result.reason, ""))
        }
        _ => Outcome::Failure(element(
            "failure",
            kind,
            &result.reason,
            &result.explanation,
        )),
    }
}

fn element(name: &str, kind: &str, message: &str, body: &str) -> String {
    if body.is_empty() {
        format!(
            "      <{name} type=\"{}\" message=\"{}\"/>\n",
            attr(kind),
            attr(message)
        )
    } else {
        format!(
            "      <{name} type=\"{}\" message=\"{}\">{}</{name}>\n",
            attr(kind),
            attr(message),
            text(body)
        )
    }
}

fn testcase(game: &str, row: &Row<'_>, body: &str) -> String {
    let open = format!(
        "    <testcase name=\"{}\" classname=\"{}\" time=\"{}\"",
        attr(row.name),
        attr(game),
        seconds(row.result.map_or(0, |r| r.wall_ms))
    );
    if body.is_empty() {
        format!("{open}/>\n")
    } else {
        format!("{open}>\n{body}    </testcase>\n")
    }
}

fn seconds(millis: u64) -> String {
    format!("{}.{:03}", millis / 1000, millis % 1000)
}

/// `value` for an attribute: escaped, with line breaks and tabs as
/// character references (a parser would turn them into spaces).
pub fn attr(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in view::printable(value).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

/// `value` as element text, escaped.
pub fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in view::printable(value).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::{class, empty_class};

    #[test]
    fn one_suite_per_submission_one_case_per_case() {
        let xml = document(&class());
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"referee: Test &quot;suite&quot; &lt;1&gt;\" tests=\"9\" failures=\"2\" errors=\"6\""), "{xml}");
        assert!(xml.contains("<testsuite name=\"alice\" tests=\"3\" failures=\"2\" errors=\"0\" skipped=\"0\" time=\"3.702\">"), "{xml}");
        assert!(
            xml.contains("<testcase name=\"public-pass\" classname=\"pentago\" time=\"1.234\"/>")
        );
        assert!(xml.contains("<failure type=\"timeout\" message=\"hidden-fail reason: typed `SECRET-hidden-fail` &lt;b&gt;\">  After input 1 (`SECRET-hidden-fail`), ```fence``` &amp; &lt;tag&gt;\n  \\x1b[31mred\\x07\n</failure>"), "{xml}");
        assert!(xml.contains("<testsuite name=\"bob, &quot;the builder&quot;\" tests=\"3\" failures=\"0\" errors=\"3\""));
        assert!(xml
            .contains("<error type=\"compile-error\" message=\"your program does not compile\"/>"));
        assert!(xml.contains(
            "<system-err>bob.c:1: error: expected `;` before &lt;eof&gt; &amp; \\x1b</system-err>"
        ));
        assert!(xml.contains(
            "<error type=\"not-run\" message=\"class/carol: no program in this folder\"/>"
        ));
        assert!(xml.contains("<property name=\"status\" value=\"error\"/>"));
    }

    #[test]
    fn forbidden_characters_never_reach_the_file() {
        let mut class = class();
        class.submissions[0].cases[1].explanation = "\0\u{1}\u{8}\u{b}\u{c}\u{1f}\u{fffe}\r".into();
        let xml = document(&class);
        let forbidden = |c: char| {
            (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}')
        };
        assert!(!xml.chars().any(forbidden));
        assert!(xml.contains("\\x00\\x01\\x08\\x0b\\x0c\\x1f\\u{fffe}\\x0d"));
    }

    #[test]
    fn escaping() {
        assert_eq!(attr("a<b>&\"'\n\t"), "a&lt;b&gt;&amp;&quot;&apos;&#10;&#9;");
        assert_eq!(text("a<b>&\"'\n"), "a&lt;b&gt;&amp;\"'\n");
    }

    #[test]
    fn an_empty_class_is_an_empty_testsuites() {
        let xml = document(&empty_class());
        assert!(xml.contains("<testsuites name=\"referee: Test &quot;suite&quot; &lt;1&gt;\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n</testsuites>"), "{xml}");
    }
}
