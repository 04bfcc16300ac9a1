//! Reports, one module per format behind one trait (the shape of
//! hyperfine's `export/`): each turns a class's results into the files it
//! writes in the output folder.
//!
//! | format | files |
//! |---|---|
//! | [`json`] | `results.json`: every result, the documented schema |

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::results::ClassResults;

pub mod json;
pub mod summary;

/// A report format.
pub trait Exporter {
    /// The files this format makes: paths relative to the output folder,
    /// and their contents.
    fn files(&self, results: &ClassResults) -> io::Result<Vec<(PathBuf, Vec<u8>)>>;
}

/// Every format `grade` and `merge` write.
pub fn all() -> Vec<Box<dyn Exporter>> {
    vec![Box::new(json::Json)]
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
