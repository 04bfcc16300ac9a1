//! What a submission is: a program file and the language it is written
//! in.

use std::path::PathBuf;

use super::languages::Language;

/// A student's program, found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// A name for it: the file's name without extension, or the folder's.
    pub id: String,
    /// The program file, absolute: for a program of several files, the
    /// one that starts it (where the course's own file has `main`, the
    /// student's first source).
    pub file: PathBuf,
    /// How it runs.
    pub language: Language,
    /// Every file of the program, absolute and sorted: its sources and,
    /// for C and C++, the headers beside them; `file` among them.
    pub files: Vec<PathBuf>,
}
