//! `results.json`: every submission's results, machine-readable.
//!
//! The keys DESIGN.md documents keep their meaning; everything else in
//! [`crate::results`] is added. The full transcripts of failed cases are
//! left out here (they are in `details/<id>.json` and the feedback pages)
//! so the file stays small for a whole class. A submission that was not
//! graded (`error`, `not-graded`) has a `null` score.
//!
//! The file is written a student at a time (see [`super::Exporter`]):
//! the class's keys around the `submissions` array, then each student in
//! turn, the same bytes as the whole document serialized at once (keys
//! sorted, two spaces of indent).

use std::io;
use std::path::Path;

use serde_json::Value;

use super::{view, Exporter, Sink};
use crate::results::{ClassResults, SubmissionResult};

/// The file's name.
pub const FILE: &str = "results.json";

/// Stands for the `submissions` array in the class's document while its
/// keys are written: a string no serialized result can hold (JSON
/// escapes a NUL).
const HOLE: &str = "\0referee: the submissions\0";

/// `results.json`.
#[derive(Default)]
pub struct Json {
    /// The class's document after the `submissions` array.
    end: String,
    /// Students written so far.
    written: usize,
}

impl Exporter for Json {
    fn start(&mut self, class: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        let header = class.header();
        let mut value = serde_json::to_value(&header).map_err(io::Error::other)?;
        value["submissions"] = Value::String(HOLE.into());
        let document = serde_json::to_string_pretty(&value).map_err(io::Error::other)?;
        let hole = serde_json::to_string(HOLE).map_err(io::Error::other)?;
        let (start, end) = document
            .split_once(&hole)
            .ok_or_else(|| io::Error::other("the class's keys hold no submissions"))?;
        self.end = end.to_string();
        self.written = 0;
        out.append(Path::new(FILE), start.as_bytes())
    }

    fn student(
        &mut self,
        _class: &ClassResults,
        _name: &str,
        student: &SubmissionResult,
        out: &mut dyn Sink,
    ) -> io::Result<()> {
        let mut value = serde_json::to_value(lean(student)).map_err(io::Error::other)?;
        // Nothing was graded: no score, rather than a 0 that looks like one.
        if !view::has_score(student.status) {
            value["score"] = Value::Null;
        }
        let text = serde_json::to_string_pretty(&value).map_err(io::Error::other)?;
        let opening = if self.written == 0 { "[\n" } else { ",\n" };
        self.written += 1;
        // An element of the array is two levels in: four spaces a line (a
        // JSON string holds no line break, so every break is layout).
        let piece = format!("{opening}    {}", text.replace('\n', "\n    "));
        out.append(Path::new(FILE), piece.as_bytes())
    }

    fn finish(&mut self, _class: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        let close = if self.written == 0 { "[]" } else { "\n  ]" };
        let piece = format!("{close}{}\n", self.end);
        out.append(Path::new(FILE), piece.as_bytes())
    }
}

/// A student's result as this file holds it: without the transcripts
/// and files (their details file has them).
fn lean(student: &SubmissionResult) -> SubmissionResult {
    let mut lean = student.clone();
    for case in &mut lean.cases {
        case.expected = None;
        case.actual = None;
        case.prompts = None;
        case.files.clear();
        case.given.clear();
    }
    if let Some(game) = lean.exploration.as_mut().and_then(|e| e.found.as_mut()) {
        game.expected = None;
        game.actual = None;
        game.prompts = None;
    }
    lean
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::{class, empty_class};

    /// The whole document serialized at once, as the file was written
    /// before it was written a student at a time.
    fn at_once(results: &ClassResults) -> Vec<u8> {
        let mut whole = results.clone();
        whole.submissions = results.submissions.iter().map(lean).collect();
        let mut value = serde_json::to_value(&whole).unwrap();
        for (i, s) in results.submissions.iter().enumerate() {
            if !view::has_score(s.status) {
                value["submissions"][i]["score"] = Value::Null;
            }
        }
        let mut bytes = serde_json::to_vec_pretty(&value).unwrap();
        bytes.push(b'\n');
        bytes
    }

    #[test]
    fn written_a_student_at_a_time_it_is_the_whole_document() {
        for results in [class(), empty_class()] {
            let files = Json::default().files(&results).unwrap();
            assert_eq!(files.len(), 1);
            assert_eq!(files[0].0, Path::new(FILE));
            assert_eq!(
                String::from_utf8(files[0].1.clone()).unwrap(),
                String::from_utf8(at_once(&results)).unwrap()
            );
            let back: ClassResults = serde_json::from_slice(&files[0].1).unwrap();
            assert_eq!(back.submissions.len(), results.submissions.len());
        }
    }
}
