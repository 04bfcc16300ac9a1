//! Why a submission cannot be located or placed in a game.

use std::io;
use std::path::PathBuf;

use super::languages::Language;
use crate::fault::Fault;
use crate::untrusted::Refusal;

/// Why a submission cannot be graded before anything of it runs.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Nothing is at the path given.
    #[error("{}: no such file or folder", .0.display())]
    Missing(PathBuf),
    /// The path or folder cannot be read.
    #[error("{}: cannot read it: {source}", path.display())]
    Unreadable {
        /// What was read.
        path: PathBuf,
        /// Why it failed.
        source: io::Error,
    },
    /// The folder cannot be listed.
    #[error("{}: cannot list it: {source}", path.display())]
    Unlistable {
        /// The folder.
        path: PathBuf,
        /// Why it failed.
        source: io::Error,
    },
    /// A file that is no program.
    #[error(
        "{}: not a program: a submission is {}, an executable, or a folder holding one of them",
        .0.display(),
        super::languages::sources_in_words()
    )]
    NotAProgram(PathBuf),
    /// A source named `.C`: C++ to `g++`, but as likely a `.c` whose
    /// name a case-insensitive system changed.
    #[error(
        "{} ends in .C, which g++ compiles as C++ but which a system that ignores case may have \
         made of .c: rename it to end in .c if it is C, or .cpp if it is C++",
        .0.display()
    )]
    UpperCaseC(PathBuf),
    /// A file referee refuses to open (a link, a FIFO, too large).
    #[error("{0}")]
    Refused(Refusal),
    /// A folder holding what referee never opens.
    #[error("{} holds what referee never opens in a submission: {}", path.display(), reasons.join("; "))]
    Special {
        /// The folder.
        path: PathBuf,
        /// What each such entry is.
        reasons: Vec<String>,
    },
    /// A folder with no program in it.
    #[error(
        "{}: no program in this folder (looked for {}, or an executable)",
        .0.display(),
        super::languages::sources_in_words()
    )]
    NoProgram(PathBuf),
    /// A folder with nothing in it.
    #[error(
        "{}: no program in this folder: the folder is empty; hand in your program's source \
         files in it",
        .0.display()
    )]
    Empty(PathBuf),
    /// A folder without a file the suite asks for (`hand_in`).
    #[error(
        "{}: {} {} missing: the assignment asks you to hand in {} (named exactly so), beside the \
         rest of your program",
        path.display(),
        missing.join(", "),
        if missing.len() == 1 { "is" } else { "are" },
        asked.join(", ")
    )]
    NotHandedIn {
        /// The folder.
        path: PathBuf,
        /// The files it lacks.
        missing: Vec<String>,
        /// Every file the suite asks for.
        asked: Vec<String>,
    },
    /// A C or C++ program whose files define `main` more than once.
    #[error(
        "{}: {} each define main, and a program has one main: {}",
        path.display(),
        names.join(" and "),
        match main {
            Some(main) => format!(
                "this assignment's program starts in {main}; remove main from the others"
            ),
            None => "keep main in the file that starts your program and remove it from the \
                     others (they are compiled and linked together)"
                .to_string(),
        }
    )]
    TwoMains {
        /// The folder.
        path: PathBuf,
        /// The files that define `main`.
        names: Vec<String>,
        /// The file the suite says starts the program.
        main: Option<String>,
    },
    /// A Python program of several files none of which, or several of
    /// which, could be the one that starts it.
    #[error(
        "{}: cannot tell which of {} starts your program: put its start under \
         `if __name__ == \"__main__\":` in that file only (the others are modules it imports)",
        path.display(),
        names.join(", ")
    )]
    NoEntry {
        /// The folder.
        path: PathBuf,
        /// The files that could start it.
        names: Vec<String>,
    },
    /// A folder with more than one program.
    #[error(
        "{}: this folder holds {} programs ({}); a submission holds exactly one: remove the \
         others",
        path.display(),
        names.len(),
        names.join(", ")
    )]
    Several {
        /// The folder.
        path: PathBuf,
        /// The programs' file names.
        names: Vec<String>,
    },
    /// A "source" holding binary data.
    #[error(
        "{} is not {language} source: it holds binary data (a compiled program given the name \
         of a source?); hand in the source file",
        path.display()
    )]
    Binary {
        /// The file.
        path: PathBuf,
        /// The language its name says.
        language: Language,
    },
    /// Which game the program plays cannot be told: the grader must say.
    #[error("cannot tell which game {} plays: name it with --game ({games})", path.display())]
    UnknownGame {
        /// The program.
        path: PathBuf,
        /// The games that can be named.
        games: String,
    },
    /// The program could not be read again to tell its game.
    #[error("{0}")]
    Unsniffable(Refusal),
}

impl Error {
    /// Whose fault it is: what is (or is not) in the submission is the
    /// student's; which game it plays, when it cannot be told, is for the
    /// grader to say.
    pub fn fault(&self) -> Fault {
        match self {
            Error::UnknownGame { .. } | Error::Unsniffable(_) => Fault::Grader,
            _ => Fault::Student,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_was_submitted_is_the_students_and_its_game_the_graders() {
        let path = PathBuf::from("alice");
        assert_eq!(Error::NoProgram(path.clone()).fault(), Fault::Student);
        let link = Error::Refused(Refusal::Link(path.clone()));
        assert_eq!(link.fault(), Fault::Student);
        let games = "connect4".to_string();
        assert_eq!(Error::UnknownGame { path, games }.fault(), Fault::Grader);
    }
}
