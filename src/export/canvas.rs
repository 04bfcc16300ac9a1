//! `canvas-grades.csv`: the file Canvas's Gradebook "Import" takes, for a
//! class downloaded from Canvas (its "Download Submissions" names each file
//! `lastfirst_<user id>_<submission id>_<file>`) or mapped with `--roster`.
//!
//! Canvas's columns, as its own Gradebook export writes them:
//! `Student,ID,SIS User ID,SIS Login ID,Section`, then one column per
//! assignment; the second row is "Points Possible" with the assignment's
//! points. Canvas matches a row by `ID` (the Canvas user id) and reads the
//! assignment column; the SIS and section columns are left empty (Canvas
//! does not need them to match). The assignment column is named after the
//! suite: Canvas makes a new assignment of that name, or, renamed to the
//! header of an existing one in your Canvas export (`Prog 3 (123456)`),
//! fills that one in. Students not graded have no row: an import leaves
//! their grade as it is.

use std::io;

use super::csv::{text, write};
use super::view;
use super::{Exporter, Sink};
use crate::results::ClassResults;
use crate::text::points;

/// The file's name.
pub const FILE: &str = "canvas-grades.csv";

/// `canvas-grades.csv`, when some student has a Canvas id.
pub struct Canvas;

impl Exporter for Canvas {
    fn finish(&mut self, results: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        super::file_if(out, FILE, gradebook(results)?)
    }
}

/// The import file; `None` when no student has a Canvas id.
pub fn gradebook(results: &ClassResults) -> io::Result<Option<String>> {
    let Some(students) = view::graded_from(results, "canvas") else {
        return Ok(None);
    };
    let header = [
        "Student",
        "ID",
        "SIS User ID",
        "SIS Login ID",
        "Section",
        &results.suite.title,
    ];
    let mut records = vec![header.iter().map(|h| text(h)).collect::<Vec<_>>()];
    let mut possible = vec![text("Points Possible")];
    possible.extend(std::iter::repeat_n(String::new(), 4));
    possible.push(points(results.suite.max_score));
    records.push(possible);
    for (s, lms) in students {
        records.push(vec![
            text(s.name.as_deref().unwrap_or(&s.id)),
            text(&lms.id),
            String::new(),
            String::new(),
            String::new(),
            points(s.score),
        ]);
    }
    write(&records).map(Some)
}
