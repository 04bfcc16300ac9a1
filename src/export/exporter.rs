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

/// The one file `name` of a format that writes it only for some classes
/// (a learning system's grades), or none.
pub(crate) fn file_if(name: &str, text: Option<String>) -> Vec<(PathBuf, Vec<u8>)> {
    text.map(|text| (PathBuf::from(name), text.into_bytes()))
        .into_iter()
        .collect()
}
