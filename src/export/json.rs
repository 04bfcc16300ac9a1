//! `results.json`: every submission's results, machine-readable.
//!
//! The keys DESIGN.md documents keep their meaning; everything else in
//! [`crate::results`] is added. The full transcripts of failed cases are
//! left out here (they are in `details/<id>.json` and the feedback pages)
//! so the file stays small for a whole class.

use std::io;
use std::path::PathBuf;

use super::Exporter;
use crate::results::ClassResults;

/// The file's name.
pub const FILE: &str = "results.json";

/// `results.json`.
pub struct Json;

impl Exporter for Json {
    fn files(&self, results: &ClassResults) -> io::Result<Vec<(PathBuf, Vec<u8>)>> {
        let mut lean = results.clone();
        for case in lean.submissions.iter_mut().flat_map(|s| s.cases.iter_mut()) {
            case.expected = None;
            case.actual = None;
        }
        let mut json = serde_json::to_vec_pretty(&lean).map_err(io::Error::other)?;
        json.push(b'\n');
        Ok(vec![(PathBuf::from(FILE), json)])
    }
}
