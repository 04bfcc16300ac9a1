//! Reports, one module per format behind one trait (the shape of
//! hyperfine's `export/`): each turns a class's results into the files it
//! writes in the output folder.
//!
//! | format | files | for |
//! |---|---|---|
//! | [`json`] | `results.json`: every result, the documented schema | scripts |
//! | [`csv`] | `gradebook.csv`: a row per student, points per case | the gradebook |
//! | [`junit`] | `junit.xml`: a test suite per student | CI dashboards |
//! | [`markdown`] | `feedback/<id>.md`: a student's feedback | students |
//! | [`html`] | `feedback/<id>.html`, `feedback/index.html`: the same as pages, transcripts side by side; the class for TAs | students, TAs |
//! | [`gradescope`] | Gradescope's `results.json` for one submission (written by `referee gradescope`, not by `grade`) | Gradescope |
//!
//! What a student may see of a case (never a hidden case's details) is
//! decided once, in [`view`].

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::results::ClassResults;

pub mod csv;
pub mod gradescope;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod summary;
pub mod view;

/// A report format.
pub trait Exporter {
    /// The files this format makes: paths relative to the output folder,
    /// and their contents.
    fn files(&self, results: &ClassResults) -> io::Result<Vec<(PathBuf, Vec<u8>)>>;
}

/// Every format `grade` and `merge` write.
pub fn all() -> Vec<Box<dyn Exporter>> {
    vec![
        Box::new(json::Json),
        Box::new(csv::Csv),
        Box::new(junit::Junit),
        Box::new(markdown::Markdown),
        Box::new(html::Html),
    ]
}

/// Writes every format's files under `out`; the paths written.
pub fn write_all(out: &Path, results: &ClassResults) -> io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for exporter in all() {
        for (relative, contents) in exporter.files(results)? {
            let path = out.join(relative);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::write(&path, contents)?;
            written.push(path);
        }
    }
    Ok(written)
}
