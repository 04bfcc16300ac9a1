//! `grade --roster FILE`: the ids a learning system gave students whose
//! file names do not carry them (a class collected by hand, from a Git
//! server, or renamed), so that Canvas's, Blackboard's and Moodle's grade
//! files can still be written.
//!
//! The file is CSV with a header line naming its columns, in any order:
//! `id` (the student's id in referee's reports, as `gradebook.csv` shows
//! it), `lms` (`canvas`, `blackboard` or `moodle`), `lms_id` (Canvas's user
//! id, Blackboard's user name, Moodle's participant number) and, if
//! wanted, `name` (shown in the grade files instead of the file's name).
//! A roster row takes the place of what a file name said: the TA's map is
//! the one meant.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::results::{LmsId, SubmissionResult};

/// A roster that could not be used, and where.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("{}: cannot read the roster: {source}", path.display())]
    Read {
        /// The roster.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not what a roster holds.
    #[error("{}:{line}: {message}", path.display())]
    Line {
        /// The roster.
        path: PathBuf,
        /// The line (1 is the header).
        line: u64,
        /// What is wrong and what to do.
        message: String,
    },
}

/// The learning systems whose grade files referee writes.
const SYSTEMS: [&str; 3] = ["canvas", "blackboard", "moodle"];

/// One student's row.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    lms: LmsId,
    name: Option<String>,
}

/// The roster, by referee id.
#[derive(Debug, Default)]
pub struct Roster {
    rows: HashMap<String, Row>,
}

impl Roster {
    /// Reads the roster at `path`.
    pub fn load(path: &Path) -> Result<Roster, Error> {
        let bytes = std::fs::read(path).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Roster::parse(path, &bytes)
    }

    /// Reads a roster's bytes; `path` names it in messages.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Roster, Error> {
        let at = |line: u64, message: String| Error::Line {
            path: path.to_path_buf(),
            line,
            message,
        };
        let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(bytes);
        let header = reader
            .headers()
            .map_err(|e| at(1, format!("not CSV: {e}")))?
            .clone();
        let column = |name: &str| header.iter().position(|h| h.trim() == name);
        let (Some(id), Some(lms), Some(lms_id)) = (column("id"), column("lms"), column("lms_id"))
        else {
            return Err(at(
                1,
                "the header must name the columns id, lms and lms_id (and, if wanted, name)".into(),
            ));
        };
        let name = column("name");
        let mut roster = Roster::default();
        for record in reader.records() {
            let record = record.map_err(|e| {
                let line = e.position().map_or(0, |p| p.line());
                at(line, format!("not a roster row: {e}"))
            })?;
            let line = record.position().map_or(0, |p| p.line());
            let field = |i: usize| record.get(i).unwrap_or_default().trim().to_string();
            let (student, system, lms_id) = (field(id), field(lms), field(lms_id));
            if student.is_empty() || lms_id.is_empty() {
                return Err(at(line, "id and lms_id must not be empty".into()));
            }
            if !SYSTEMS.contains(&system.as_str()) {
                return Err(at(
                    line,
                    format!("lms is `{system}`: give canvas, blackboard or moodle"),
                ));
            }
            let row = Row {
                lms: LmsId { system, id: lms_id },
                name: name.map(field).filter(|n| !n.is_empty()),
            };
            if roster.rows.insert(student.clone(), row).is_some() {
                return Err(at(line, format!("`{student}` is on the roster twice")));
            }
        }
        Ok(roster)
    }

    /// Gives each student on the roster its learning system's id (and
    /// name), in place of what their file's name said; returns the
    /// students left with no id from the roster or their file's name.
    pub fn apply(&self, submissions: &mut [SubmissionResult]) -> Vec<String> {
        let mut without_id = Vec::new();
        for s in submissions {
            if let Some(row) = self.rows.get(&s.id) {
                s.lms = Some(row.lms.clone());
                if row.name.is_some() {
                    s.name.clone_from(&row.name);
                }
            } else if s.lms.is_none() {
                without_id.push(s.id.clone());
            }
        }
        without_id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Roster, Error> {
        Roster::parse(Path::new("roster.csv"), text.as_bytes())
    }

    #[test]
    fn rows_are_read_by_their_column_names() {
        let roster =
            parse("name,lms_id,id,lms\nAda Lovelace,12345,ada,canvas\n,jdoe2,jd,blackboard\n")
                .unwrap();
        assert_eq!(roster.rows["ada"].lms.id, "12345");
        assert_eq!(roster.rows["ada"].name.as_deref(), Some("Ada Lovelace"));
        assert_eq!(roster.rows["jd"].lms.system, "blackboard");
        assert_eq!(roster.rows["jd"].name, None);
    }

    #[test]
    fn a_bad_roster_says_which_line_and_what_to_do() {
        assert_eq!(
            parse("id,system\nada,canvas\n").unwrap_err().to_string(),
            "roster.csv:1: the header must name the columns id, lms and lms_id (and, if wanted, name)"
        );
        assert_eq!(
            parse("id,lms,lms_id\nada,canvas,1\nbob,canva,2\n")
                .unwrap_err()
                .to_string(),
            "roster.csv:3: lms is `canva`: give canvas, blackboard or moodle"
        );
        assert_eq!(
            parse("id,lms,lms_id\nada,canvas,1\nada,canvas,2\n")
                .unwrap_err()
                .to_string(),
            "roster.csv:3: `ada` is on the roster twice"
        );
        assert_eq!(
            parse("id,lms,lms_id\nada,canvas,\n")
                .unwrap_err()
                .to_string(),
            "roster.csv:2: id and lms_id must not be empty"
        );
        assert!(parse("id,lms,lms_id\nada,canvas\n")
            .unwrap_err()
            .to_string()
            .starts_with("roster.csv:2: not a roster row"));
    }
}
