//! `blackboard-grades.csv`: the file Blackboard Learn's Grade Center
//! "Upload" takes, for a class downloaded from Blackboard (its "Download
//! Assignment" names each file
//! `<assignment>_<username>_attempt_<date>_<file>`) or mapped with
//! `--roster`.
//!
//! Blackboard's columns, as its Grade Center download writes them:
//! `Last Name,First Name,Username`, then one column per grade column,
//! named `<name> [Total Pts: <points> Score]`. Blackboard matches a row by
//! `Username` and reads the grade column; the name columns are for the
//! reader (split from the student's name at its last space, empty when
//! the export gave only the user name). The column is named after the
//! suite: Blackboard makes a new grade column, or, renamed to the header
//! of an existing one in your Grade Center download (which ends in
//! `|<column id>`), fills that one in. Students not graded have no row.

use std::io;

use super::csv::{text, write};
use super::view;
use super::{Exporter, Sink};
use crate::results::{ClassResults, SubmissionResult};
use crate::text::points;

/// The file's name.
pub const FILE: &str = "blackboard-grades.csv";

/// `blackboard-grades.csv`, when some student has a Blackboard user name.
pub struct Blackboard;

impl Exporter for Blackboard {
    fn finish(&mut self, results: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        super::file_if(out, FILE, grade_center(results)?)
    }
}

/// The upload file; `None` when no student has a Blackboard user name.
pub fn grade_center(results: &ClassResults) -> io::Result<Option<String>> {
    let Some(students) = view::graded_from(results, "blackboard") else {
        return Ok(None);
    };
    let column = format!(
        "{} [Total Pts: {} Score]",
        results.suite.title,
        points(results.suite.max_score)
    );
    let header = ["Last Name", "First Name", "Username", &column];
    let mut records = vec![header.iter().map(|h| text(h)).collect::<Vec<_>>()];
    for (s, lms) in students {
        let (first, last) = names(s, &lms.id);
        records.push(vec![
            text(last),
            text(first),
            text(&lms.id),
            points(s.score),
        ]);
    }
    write(&records).map(Some)
}

/// First and last name from the student's name, when it is more than the
/// user name: split at its last space (`Mary Ann Smith` → `Mary Ann`,
/// `Smith`).
fn names<'a>(s: &'a SubmissionResult, username: &str) -> (&'a str, &'a str) {
    match s.name.as_deref() {
        Some(name) if name != username => name.rsplit_once(' ').unwrap_or(("", name)),
        _ => ("", ""),
    }
}
