//! `results.json`: every submission's results, machine-readable.
//!
//! The keys DESIGN.md documents keep their meaning; everything else in
//! [`crate::results`] is added. The full transcripts of failed cases are
//! left out here (they are in `details/<id>.json` and the feedback pages)
//! so the file stays small for a whole class. A submission that was not
//! graded (`error`, `not-graded`) has a `null` score.

use std::io;
use std::path::PathBuf;

use super::{view, Exporter};
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
            case.prompts = None;
        }
        let explored = lean
            .submissions
            .iter_mut()
            .filter_map(|s| s.exploration.as_mut()?.found.as_mut());
        for game in explored {
            game.expected = None;
            game.actual = None;
            game.prompts = None;
        }
        let mut value = serde_json::to_value(&lean).map_err(io::Error::other)?;
        // Nothing was graded: no score, rather than a 0 that looks like one.
        let unscored = results
            .submissions
            .iter()
            .map(|s| !view::has_score(s.status));
        if let Some(list) = value["submissions"].as_array_mut() {
            for (submission, unscored) in list.iter_mut().zip(unscored) {
                if unscored {
                    submission["score"] = serde_json::Value::Null;
                }
            }
        }
        let mut json = serde_json::to_vec_pretty(&value).map_err(io::Error::other)?;
        json.push(b'\n');
        Ok(vec![(PathBuf::from(FILE), json)])
    }
}
