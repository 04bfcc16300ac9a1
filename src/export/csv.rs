//! `gradebook.csv`: one row per student, ready for a spreadsheet or a
//! learning system's grade import.
//!
//! Columns: `id,name,lms_id,score,max_score,status`, then one per case
//! (in the suite's order) holding the points earned, then `diagnoses`
//! (how many the student's program has: see [`crate::diagnose`]) and
//! `diagnoses_text` (what and where of each, `; `-separated, at most
//! [`TEXT_ROOM`] characters; never a case or its input). They come last
//! so that the case columns keep their places. `name` is the
//! student's name as their file or folder gives it, `lms_id` the id the
//! learning system's export gave them (Canvas user id, Moodle
//! participant number, Blackboard user name). A submission that was not
//! graded (it could not be, or grading was interrupted) has no score:
//! its `score`, case and diagnoses columns are empty, and `status` says
//! why. The
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
use crate::explain::diagnoses;
use crate::results::ClassResults;
use crate::text::points;

/// The file's name.
pub const FILE: &str = "gradebook.csv";

/// The most characters of the `diagnoses_text` column.
pub const TEXT_ROOM: usize = 300;

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
    header.extend(["diagnoses", "diagnoses_text"]);
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
        // Nothing was checked of a submission not graded.
        if scored {
            fields.push(submission.diagnostics.len().to_string());
            fields.push(text(&diagnoses::in_brief(
                &submission.diagnostics,
                TEXT_ROOM,
            )));
        } else {
            fields.extend([String::new(), String::new()]);
        }
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
                "id,name,lms_id,score,max_score,status,public-pass,public-fail,hidden-fail,\
                 diagnoses,diagnoses_text",
                "alice,alice,,1,4.5,graded,1,0,0,0,",
                "\"bob, \"\"the builder\"\"\",\"bob, \"\"the builder\"\"\",,0,4.5,compile-error,0,0,0,0,",
                "carol,carol,,,4.5,error,,,,,",
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
            "id,name,lms_id,score,max_score,status,diagnoses,diagnoses_text\r\n"
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

    #[test]
    fn diagnoses_are_counted_and_said_in_brief() {
        let mut class = crate::export::view::tests::diagnosed_class();
        let csv = gradebook(&class).unwrap();
        let mut reader = ::csv::ReaderBuilder::new().from_reader(csv.as_bytes());
        let alice = reader.records().next().unwrap().unwrap();
        let cases: Vec<&str> = alice.iter().skip(6).take(3).collect();
        assert_eq!(cases, ["1", "0", "0"], "the cases keep their places");
        assert_eq!(&alice[9], "3");
        assert_eq!(
            &alice[10],
            "a read past the end of an array in `check` (alice.c, line 4); a division by zero \
             in `score` (alice.c, line 30); a value used that was never set in `main` (alice.c, \
             line 12)"
        );
        assert!(!csv.contains("SECRET"), "{csv}");
        // Forged: escape sequences, a quote, a comma, a line break, a
        // mebibyte; and a text a spreadsheet would take for a formula.
        let mut forged = class.submissions[0].diagnostics[0].clone();
        forged.file = None;
        forged.line = None;
        forged.function = Some(format!("f\x1b[2J\",\n=x{}", "A".repeat(1 << 20)));
        class.submissions[0].diagnostics = vec![forged; 20];
        let csv = gradebook(&class).unwrap();
        assert!(!csv.contains('\x1b'), "{csv}");
        let mut reader = ::csv::ReaderBuilder::new().from_reader(csv.as_bytes());
        let row = reader.records().next().unwrap().unwrap();
        assert_eq!(&row[9], "20");
        let said = &row[10];
        assert_eq!(said.chars().count(), TEXT_ROOM, "{said}");
        assert!(
            said.starts_with("a read past the end of an array in `f\\x1b[2J\",\\x0a=xAAA"),
            "{said}"
        );
        assert_eq!(text("=HYPERLINK(1)"), "'=HYPERLINK(1)");
    }
}
