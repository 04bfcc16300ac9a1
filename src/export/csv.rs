//! `gradebook.csv`: one row per student, ready for a spreadsheet or a
//! learning system's grade import.
//!
//! Columns: `id,name,lms_id,score,max_score,status`, then one per case
//! (in the suite's order) holding the points earned. `name` is the
//! student's name as their file or folder gives it, `lms_id` the id the
//! learning system's export gave them (Canvas user id, Moodle
//! participant number, Blackboard user name). A submission that was not
//! graded (it could not be, or grading was interrupted) has no score:
//! its `score` and case columns are empty, and `status` says why. The
//! first line is the header; the total is the `score` column. Fields are
//! quoted as RFC 4180 says (by the `csv` crate), and a text field a spreadsheet would read as
//! a formula (starting with `=`, `+`, `-`, `@`) is prefixed with `'`.
//!
//! [`Moodle`] writes `moodle-grades.csv`, Moodle's assignment grading
//! worksheet (`Identifier,Full name,Grade,Maximum Grade`), for a class
//! downloaded from Moodle: the assignment's "Upload grading worksheet"
//! takes it as it is.

use std::io;
use std::path::Path;

use super::view;
use super::{Exporter, Sink};
use crate::results::ClassResults;
use crate::text::points;

/// The file's name.
pub const FILE: &str = "gradebook.csv";

/// `gradebook.csv`.
pub struct Csv;

impl Exporter for Csv {
    fn finish(&mut self, results: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        out.file(Path::new(FILE), gradebook(results)?.as_bytes())
    }
}

/// The whole file.
pub fn gradebook(results: &ClassResults) -> io::Result<String> {
    let mut header = vec!["id", "name", "lms_id", "score", "max_score", "status"];
    header.extend(results.suite.cases.iter().map(|c| c.name.as_str()));
    let mut records = vec![header.iter().map(|h| text(h)).collect::<Vec<_>>()];
    for submission in &results.submissions {
        let scored = view::has_score(submission.status);
        let mut fields = vec![
            text(&submission.id),
            text(submission.name.as_deref().unwrap_or(&submission.id)),
            text(submission.lms.as_ref().map_or("", |l| l.id.as_str())),
            if scored {
                points(submission.score)
            } else {
                String::new()
            },
            points(submission.max_score),
            text(view::status_id(submission.status)),
        ];
        fields.extend(results.suite.cases.iter().map(|case| {
            submission
                .mark_of(&case.name)
                .map(|(_, score)| points(score))
                .unwrap_or_default()
        }));
        records.push(fields);
    }
    write(&records)
}

/// The Moodle grading worksheet's file name.
pub const MOODLE_FILE: &str = "moodle-grades.csv";

/// `moodle-grades.csv`, when the class came from Moodle.
pub struct Moodle;

impl Exporter for Moodle {
    fn finish(&mut self, results: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        super::file_if(out, MOODLE_FILE, moodle_worksheet(results)?)
    }
}

/// Moodle's grading worksheet: a row per student whose submission came
/// from Moodle (its name carries the participant number) and has a
/// score; `None` when no submission came from Moodle. Moodle matches
/// rows by `Identifier` (`Participant 123`) and reads `Grade`; the other
/// columns are for the reader.
pub fn moodle_worksheet(results: &ClassResults) -> io::Result<Option<String>> {
    let Some(students) = view::graded_from(results, "moodle") else {
        return Ok(None);
    };
    let header = ["Identifier", "Full name", "Grade", "Maximum Grade"];
    let mut records = vec![header.iter().map(|h| text(h)).collect::<Vec<_>>()];
    for (s, lms) in students {
        records.push(vec![
            text(&format!("Participant {}", lms.id)),
            text(s.name.as_deref().unwrap_or(&s.id)),
            points(s.score),
            points(s.max_score),
        ]);
    }
    write(&records).map(Some)
}

/// The records as CSV: written by the `csv` crate (quoting as RFC 4180
/// says, quotes doubled), each line CRLF-terminated as RFC 4180 says.
pub(crate) fn write(records: &[Vec<String>]) -> io::Result<String> {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    for record in records {
        writer.write_record(record)?;
    }
    let bytes = writer.into_inner().map_err(|e| e.into_error())?;
    String::from_utf8(bytes).map_err(io::Error::other)
}

/// A text field, defused if a spreadsheet would read it as a formula;
/// [`write`] quotes it if it must be.
pub(crate) fn text(value: &str) -> String {
    let value = view::printable(value);
    if value.starts_with(['=', '+', '-', '@']) {
        format!("'{value}")
    } else {
        value.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::{class, empty_class};

    #[test]
    fn one_row_per_student_with_points_per_case() {
        let csv = gradebook(&class()).unwrap();
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(
            lines,
            [
                "id,name,lms_id,score,max_score,status,public-pass,public-fail,hidden-fail",
                "alice,alice,,1,4.5,graded,1,0,0",
                "\"bob, \"\"the builder\"\"\",\"bob, \"\"the builder\"\"\",,0,4.5,compile-error,0,0,0",
                "carol,carol,,,4.5,error,,,",
                "",
            ]
        );
    }

    #[test]
    fn text_is_quoted_and_defused() {
        let field = |value: &str| write(&[vec![text(value)]]).unwrap();
        assert_eq!(field("plain"), "plain\r\n");
        assert_eq!(field("a,b"), "\"a,b\"\r\n");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"\r\n");
        assert_eq!(field("two\nlines"), "\"two\nlines\"\r\n");
        assert_eq!(field("cr\r"), "cr\\x0d\r\n");
        assert_eq!(field(" padded"), " padded\r\n");
        assert_eq!(field("=SUM(A1)"), "'=SUM(A1)\r\n");
        assert_eq!(field("-x,y"), "\"'-x,y\"\r\n");
        assert_eq!(field("bell\u{7}"), "bell\\x07\r\n");
    }

    #[test]
    fn an_empty_class_is_a_header() {
        assert_eq!(
            gradebook(&empty_class()).unwrap(),
            "id,name,lms_id,score,max_score,status\r\n"
        );
        assert_eq!(moodle_worksheet(&empty_class()).unwrap(), None);
    }

    #[test]
    fn moodle_gets_its_worksheet() {
        let mut class = class();
        for (s, n) in class.submissions.iter_mut().zip([7, 8, 9]) {
            s.name = Some(format!("Zoë {n}"));
            s.lms = Some(crate::results::LmsId {
                system: "moodle".into(),
                id: n.to_string(),
            });
        }
        let sheet = moodle_worksheet(&class).unwrap().unwrap();
        // carol could not be graded: no grade is uploaded for her.
        assert_eq!(
            sheet,
            "Identifier,Full name,Grade,Maximum Grade\r\n\
             Participant 7,Zoë 7,1,4.5\r\n\
             Participant 8,Zoë 8,0,4.5\r\n"
        );
    }
}
