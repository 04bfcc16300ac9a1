//! A suite as grading uses it: its cases with the suite's defaults
//! applied, its rubric, and the problems found reading its files.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use reference::Game;

use super::file::{ExitStatus, Mode, MoveNumbers, Stderr, TextPart, Visibility};
use crate::call::Call;
use crate::compare::{Options, Region};
use crate::fault::Fault;
use crate::run::Limits;
use crate::submission::{Flags, Support};

/// One case, with the suite's defaults applied.
#[derive(Clone, Debug)]
pub struct Case {
    /// Its name: the file name without `.yaml`.
    pub name: String,
    /// The file it was read from.
    pub file: PathBuf,
    /// What it checks, in a sentence.
    pub description: Option<String>,
    /// The rubric item its points come from.
    pub rubric: Option<String>,
    /// Points for passing it.
    pub points: f64,
    /// Who sees it.
    pub visibility: Visibility,
    /// The lines typed, without newlines (empty for a call).
    pub input: Vec<String>,
    /// Whether the input then ends (Ctrl-D): a program's next read gets
    /// the end of input instead of the case ending while it waits.
    pub end_of_input: bool,
    /// The function called, for a function-level case.
    pub call: Option<Call>,
    /// Limits on each run.
    pub limits: Limits,
    /// Which differences do not count.
    pub compare: Options,
    /// Text or game judging.
    pub mode: Mode,
    /// In game mode, the points that need the text to match too.
    pub format_points: f64,
    /// In game mode, whether prompts must show move numbers.
    pub move_numbers: MoveNumbers,
    /// In game mode, the points that need the run to end as the
    /// reference's does (where it stops, and how).
    pub ending_points: f64,
    /// Whether the exit status counts.
    pub exit_status: ExitStatus,
    /// How what the program writes to stderr is graded.
    pub stderr: Stderr,
    /// Which differences in stderr do not count, when it is compared on
    /// its own (the case's `compare` unless it says).
    pub stderr_compare: Options,
    /// In game mode, the parts of the text the format points grade;
    /// `None` for the whole text.
    pub format: Option<Vec<TextPart>>,
    /// The program's command-line arguments, after its own name: the
    /// reference's and the student's alike, reaching `argv` as written.
    pub args: Vec<String>,
    /// The command as a student types it (`./caesar 13`), quoted and
    /// bounded ([`crate::text::command_line`]), when the case (or its
    /// suite's defaults) gives `args`: explanations, pages and pins show
    /// it.
    pub command: Option<String>,
    /// Files put in the run's working folder before it starts (`files:`),
    /// besides the suite's support files: the reference's and the
    /// student's alike.
    pub files: Vec<Support>,
    /// Names a case says its run has no file by (`files: {after.csv:
    /// {absent: true}}`): nothing is put there; explanations say so.
    pub absent: Vec<String>,
    /// Files the run must leave in its working folder (`outputs:`), each
    /// compared with the reference's.
    pub outputs: Vec<OutputFile>,
}

/// A file a case's run must leave in its working folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// Its name there: a plain file name.
    pub name: String,
    /// Compared byte for byte rather than as text under `compare`.
    pub binary: bool,
}

impl Case {
    /// The points that need the play to be right: the rest.
    pub fn play_points(&self) -> f64 {
        (self.points - self.format_points - self.ending_points).max(0.0)
    }
}

impl Case {
    /// What a run of the case is given to read.
    pub fn typed(&self) -> crate::run::Input<'_> {
        crate::run::Input {
            lines: &self.input,
            ends: self.end_of_input,
            errors_apart: self.stderr != Stderr::Together,
        }
    }

    /// The options its whole text is compared under, in reports too:
    /// `prompts` is text mode's (in game mode the reader reads prompts
    /// itself).
    pub fn text_options(&self) -> Options {
        Options {
            prompts: self.compare.prompts && self.mode == Mode::Text,
            ..self.compare
        }
    }

    /// Where its pinned reference transcript is kept.
    pub fn pin_file(&self) -> PathBuf {
        self.file.with_extension("transcript")
    }
}

/// Where a suite's expected output comes from: a game built into
/// referee, or a program of the suite's own (the instructor's
/// solution). Both are one kind of reference to everything downstream:
/// pinning, grading, exploring and reports ask [`crate::oracle`], which
/// runs either.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    /// A game built into referee (`game: pentago`), run in-process.
    Game(Game),
    /// The suite's own program (`reference: solution.c`): its path, in
    /// the suite's folder. It may be absent when every case is pinned.
    Program(PathBuf),
}

/// A folder of cases, with the reference they are judged against.
#[derive(Clone, Debug)]
pub struct Suite {
    /// What the expected output comes from.
    pub reference: Reference,
    /// What reports call the assignment: the game's id, or the suite's
    /// `name` (its folder's name when it gives none).
    pub name: String,
    /// The folder.
    pub dir: PathBuf,
    /// A title for reports.
    pub title: Option<String>,
    /// The cases that loaded, sorted by name.
    pub cases: Vec<Case>,
    /// Output never graded.
    pub regions: Vec<Region>,
    /// Compiler flags per language, where the suite sets them.
    pub compile: Flags,
    /// Points for playing every generated game as the reference does
    /// (`grade --explore`); 0 unless the suite says.
    pub explore_points: f64,
    /// Whether a C or C++ program's memory still allocated when it ends
    /// is diagnosed (`leaks: true`): its first case then runs from the
    /// checked build even where it passes.
    pub leaks: bool,
    /// Case files that could not be loaded, each with why.
    pub problems: Vec<Problem>,
    /// The handout's rubric, when `suite.yaml` gives it.
    pub rubric: Vec<RubricItem>,
    /// Regions of the output that cases' `format` can grade.
    pub graded: Vec<GradedRegion>,
    /// Files every run finds in its working folder.
    pub support: Vec<Support>,
    /// The code every student was given to start from (`starter:`), in
    /// the suite's folder: `referee similar` never counts it as shared.
    pub starter: Vec<PathBuf>,
    /// The program that writes a generated case's input from a seed, for
    /// exploring a suite of the suite's own.
    pub generator: Option<PathBuf>,
    /// What the suite says of the files a student hands in (`main`,
    /// `hand_in`) and the names of the files it gives itself.
    pub layout: crate::submission::Layout,
}

/// A region of the output a case's format can grade: from the first
/// line matching `from` (the first line when `None`) up to, not
/// including, the next line matching `until` (the end when `None`).
#[derive(Clone, Debug)]
pub struct GradedRegion {
    /// Its name, as cases' `format` gives it.
    pub name: String,
    /// Where it starts.
    pub from: Option<regex::bytes::Regex>,
    /// The first line after it.
    pub until: Option<regex::bytes::Regex>,
}

/// One item of a handout's rubric.
#[derive(Clone, Debug, PartialEq)]
pub struct RubricItem {
    /// Its name, as cases give it.
    pub name: String,
    /// The points the handout gives it.
    pub points: f64,
    /// Graded by a person: no case earns its points.
    pub by_hand: bool,
}

impl Suite {
    /// The built-in game whose reference this suite uses, if it does: its
    /// reader judges game mode, its generator makes explored games.
    pub fn game(&self) -> Option<Game> {
        match self.reference {
            Reference::Game(game) => Some(game),
            Reference::Program(_) => None,
        }
    }

    /// The cases students may see and run.
    pub fn public_cases(&self) -> impl Iterator<Item = &Case> {
        self.cases
            .iter()
            .filter(|c| c.visibility == Visibility::Public)
    }

    /// The points all cases are worth together.
    pub fn max_points(&self) -> f64 {
        self.cases.iter().map(|c| c.points).sum()
    }

    /// The names of the regions cases can grade, in order.
    pub fn graded_names(&self) -> Vec<String> {
        self.graded.iter().map(|r| r.name.clone()).collect()
    }

    /// The cases earning points for `item`, in order.
    pub fn cases_for<'s>(&'s self, item: &'s str) -> impl Iterator<Item = &'s Case> {
        self.cases
            .iter()
            .filter(move |c| c.rubric.as_deref() == Some(item))
    }

    /// What is wrong with the suite's points against its rubric: an item
    /// whose cases earn other points than the handout gives it. Empty
    /// when the suite has no rubric, or all is well.
    pub fn rubric_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for item in &self.rubric {
            let earned = self
                .cases_for(&item.name)
                .fold(0.0, |total, c| total + c.points);
            let wanted = if item.by_hand { 0.0 } else { item.points };
            if (earned - wanted).abs() > 1e-6 {
                problems.push(format!(
                    "rubric item `{}` is worth {} in the handout{}, but its cases earn {}",
                    item.name,
                    crate::text::points(item.points),
                    if item.by_hand {
                        " (graded by hand, so no case should earn it)"
                    } else {
                        ""
                    },
                    crate::text::points(earned)
                ));
            }
        }
        problems
    }
}

/// Something wrong with a file of a case folder: which file, where in it,
/// and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file.
    pub file: PathBuf,
    /// Line and column, from 1, where known.
    pub position: Option<(usize, usize)>,
    /// What is wrong and what to do.
    pub message: String,
}

impl Problem {
    /// A problem with a whole file.
    pub fn new(file: &Path, message: impl Into<String>) -> Problem {
        Problem {
            file: file.to_path_buf(),
            position: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some((line, column)) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Problem {}

impl Problem {
    /// Whose fault it is: a case folder's file is the suite's.
    pub fn fault(&self) -> Fault {
        Fault::Suite
    }
}

/// Why a suite cannot be had.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Error {
    /// The suites built into referee could not be written out.
    #[error("cannot write out the built-in cases: {0}")]
    Builtin(Arc<std::io::Error>),
    /// A file of the suite is wrong.
    #[error(transparent)]
    Problem(#[from] Problem),
}

impl Error {
    /// Whose fault it is: the machine's when referee cannot write its
    /// own suites out, the suite's when one of its files is wrong.
    pub fn fault(&self) -> Fault {
        match self {
            Error::Builtin(_) => Fault::Grader,
            Error::Problem(problem) => problem.fault(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_file_is_the_suites_and_unwritten_suites_the_graders() {
        let problem = Problem::new(Path::new("cases/pentago/a.yaml"), "no input");
        assert_eq!(problem.fault(), Fault::Suite);
        assert_eq!(Error::from(problem).fault(), Fault::Suite);
        let io = std::io::Error::other("disk full");
        let builtin = Error::Builtin(Arc::new(io));
        assert_eq!(builtin.fault(), Fault::Grader);
        assert_eq!(
            builtin.to_string(),
            "cannot write out the built-in cases: disk full"
        );
    }
}
