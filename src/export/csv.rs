//! `gradebook.csv`: one row per student, ready for a spreadsheet or a
//! learning system's grade import.
//!
//! Columns: `id,score,max_score,status`, then one per case (in the
//! suite's order) holding the points earned; a case that did not run (a
//! submission that could not be graded) is left empty. The first line is
//! the header; the total is the `score` column. Fields are quoted as RFC
//! 4180 says, and a text field a spreadsheet would read as a formula
//! (starting with `=`, `+`, `-`, `@`) is prefixed with `'`.

use std::io;
use std::path::PathBuf;

use super::view::{self, rows};
use super::Exporter;
use crate::commands::points;
use crate::results::ClassResults;

/// The file's name.
pub const FILE: &str = "gradebook.csv";

/// `gradebook.csv`.
pub struct Csv;

impl Exporter for Csv {
    fn files(&self, results: &ClassResults) -> io::Result<Vec<(PathBuf, Vec<u8>)>> {
        Ok(vec![(PathBuf::from(FILE), gradebook(results).into_bytes())])
    }
}

/// The whole file.
pub fn gradebook(results: &ClassResults) -> String {
    let mut header = vec!["id", "score", "max_score", "status"];
    header.extend(results.suite.cases.iter().map(|c| c.name.as_str()));
    let mut out = line(header.iter().map(|h| text(h)));
    for submission in &results.submissions {
        let mut fields = vec![
            text(&submission.id),
            points(submission.score),
            points(submission.max_score),
            text(view::status_id(submission.status)),
        ];
        fields.extend(
            rows(&results.suite, submission)
                .iter()
                .take(results.suite.cases.len())
                .map(|row| row.result.map(|r| points(r.score)).unwrap_or_default()),
        );
        out.push_str(&line(fields.into_iter()));
    }
    out
}

/// One record, CRLF-terminated as RFC 4180 says.
fn line(fields: impl Iterator<Item = String>) -> String {
    let mut out = fields.collect::<Vec<_>>().join(",");
    out.push_str("\r\n");
    out
}

/// A text field: defused if it would be a formula, quoted if it must be.
fn text(value: &str) -> String {
    let value = view::printable(value);
    let defused = if value.starts_with(['=', '+', '-', '@']) {
        format!("'{value}")
    } else {
        value.into_owned()
    };
    if defused.contains([',', '"', '\n', '\r']) || defused.trim() != defused {
        format!("\"{}\"", defused.replace('"', "\"\""))
    } else {
        defused
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::{class, empty_class};

    #[test]
    fn one_row_per_student_with_points_per_case() {
        let csv = gradebook(&class());
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(
            lines,
            [
                "id,score,max_score,status,public-pass,public-fail,hidden-fail",
                "alice,1,4.5,graded,1,0,0",
                "\"bob, \"\"the builder\"\"\",0,4.5,compile-error,0,0,0",
                "carol,0,4.5,error,,,",
                "",
            ]
        );
    }

    #[test]
    fn text_is_quoted_and_defused() {
        assert_eq!(text("plain"), "plain");
        assert_eq!(text("a,b"), "\"a,b\"");
        assert_eq!(text("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(text("two\nlines"), "\"two\nlines\"");
        assert_eq!(text(" padded"), "\" padded\"");
        assert_eq!(text("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(text("-x,y"), "\"'-x,y\"");
        assert_eq!(text("bell\u{7}"), "bell\\x07");
    }

    #[test]
    fn an_empty_class_is_a_header() {
        assert_eq!(gradebook(&empty_class()), "id,score,max_score,status\r\n");
    }
}
