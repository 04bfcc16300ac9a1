//! Whose fault an error is: what lets a caller react to a kind of
//! failure (Gradescope tells a student "fix your submission" for their
//! own mistakes, "tell your instructor" for the rest) without reading
//! the message.

use std::fmt;

/// Who has to act for an error to go away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Referee or the machine it runs on: no compiler, no sandbox, a
    /// folder it cannot write, a command line it cannot use.
    Grader,
    /// The suite: a case file, a suite folder, its settings.
    Suite,
    /// The student: what was submitted (no program, several, a link, a
    /// binary named `.c`).
    Student,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::Grader => "the grader's",
            Fault::Suite => "the suite's",
            Fault::Student => "the student's",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_say_whose_they_are() {
        assert_eq!(Fault::Grader.to_string(), "the grader's");
        assert_eq!(Fault::Suite.to_string(), "the suite's");
        assert_eq!(Fault::Student.to_string(), "the student's");
    }
}
