//! What a submission is: a program file and the language it is written
//! in.

use std::path::PathBuf;

use super::languages::Language;

/// A student's program, found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// A name for it: the file's name without extension, or the folder's.
    pub id: String,
    /// The program file, absolute; for a Java program of several files,
    /// the folder that holds them.
    pub file: PathBuf,
    /// How it runs.
    pub language: Language,
}
