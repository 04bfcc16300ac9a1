//! The trait every report format implements.

use std::io;
use std::path::PathBuf;

use crate::results::ClassResults;

/// A report format.
pub trait Exporter {
    /// The files this format makes: paths relative to the output folder,
    /// and their contents.
    fn files(&self, results: &ClassResults) -> io::Result<Vec<(PathBuf, Vec<u8>)>>;
}
