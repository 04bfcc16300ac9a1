//! What a submission is: a program file and the language it is written
//! in.

use std::fmt;
use std::path::PathBuf;

/// The language a submission is written in, which decides how it is
/// built and run: an entry of the one table of languages
/// ([`super::languages`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    /// Compiled with the system C compiler.
    C,
    /// Compiled with the system C++ compiler (`g++`).
    Cpp,
    /// Run with Python 3.
    Python,
    /// Compiled with `javac`, run with `java`.
    Java,
    /// A language a suite adds (`languages:` in `suite.yaml`): its place
    /// in the table of those defined.
    Defined(u16),
    /// Run as it is.
    Executable,
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::languages::name(*self))
    }
}

impl Language {
    /// The language a game's entry in the registry names for a
    /// submission in this one: C++ is graded wherever C is (a handout's C
    /// game takes a C++ program too, as course servers compile either).
    pub fn registered_as(self) -> Language {
        match self {
            Language::Cpp => Language::C,
            language => language,
        }
    }

    /// Whether building it runs a compiler (a build worth doing other
    /// work beside).
    pub fn is_compiled(self) -> bool {
        super::languages::is_compiled(self)
    }

    /// What a game registered in this language takes, in words.
    pub fn taken(self) -> String {
        match self {
            Language::C | Language::Cpp => "C or C++".into(),
            language => language.to_string(),
        }
    }
}

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
