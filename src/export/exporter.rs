//! The trait every report format implements, and where formats write.
//!
//! A class's reports are written a student at a time, so that the memory
//! they take is one student's whatever the size of the class: each format
//! is started, shown every student's whole result in the class's order,
//! then finished with the class as a whole, whose results are compact
//! ([`crate::results::SubmissionResult::compact`]: scores and verdicts,
//! no transcripts). A format writes through a [`Sink`]: a file whole, or
//! one file in pieces as its students come.

use std::io;
use std::path::{Path, PathBuf};

use crate::results::{ClassResults, SubmissionResult};

/// Where a format's files go: paths relative to the output folder.
pub trait Sink {
    /// Writes the file `relative` whole.
    fn file(&mut self, relative: &Path, contents: &[u8]) -> io::Result<()>;
    /// Adds `piece` to the end of `relative`, made on its first piece: a
    /// file written as its students come.
    fn append(&mut self, relative: &Path, piece: &[u8]) -> io::Result<()>;
}

/// A report format.
pub trait Exporter {
    /// Begins, before any student: the opening of a file written in
    /// pieces.
    fn start(&mut self, _class: &ClassResults, _out: &mut dyn Sink) -> io::Result<()> {
        Ok(())
    }

    /// One student, `name` the name of their feedback files (see
    /// [`super::view::file_names`]); `student` is their whole result.
    fn student(
        &mut self,
        _class: &ClassResults,
        _name: &str,
        _student: &SubmissionResult,
        _out: &mut dyn Sink,
    ) -> io::Result<()> {
        Ok(())
    }

    /// Ends, once every student was shown: what is made of the class as
    /// a whole.
    fn finish(&mut self, _class: &ClassResults, _out: &mut dyn Sink) -> io::Result<()> {
        Ok(())
    }

    /// The files this format makes of `results`, in memory: for one
    /// submission (`gradescope`) and for tests. `results` holds whole
    /// results.
    fn files(&mut self, results: &ClassResults) -> io::Result<Vec<(PathBuf, Vec<u8>)>>
    where
        Self: Sized,
    {
        let mut out = Memory::default();
        self.start(results, &mut out)?;
        let names = super::view::file_names(results);
        for (student, name) in results.submissions.iter().zip(&names) {
            self.student(results, name, student, &mut out)?;
        }
        self.finish(results, &mut out)?;
        Ok(out.files)
    }
}

/// Writes the file `name` of a format that writes it only for some
/// classes (a learning system's grades): `text`, or nothing.
pub(crate) fn file_if(out: &mut dyn Sink, name: &str, text: Option<String>) -> io::Result<()> {
    match text {
        Some(text) => out.file(Path::new(name), text.as_bytes()),
        None => Ok(()),
    }
}

/// Files kept in memory, in the order they were first written.
#[derive(Default)]
pub struct Memory {
    /// The files.
    pub files: Vec<(PathBuf, Vec<u8>)>,
}

impl Sink for Memory {
    fn file(&mut self, relative: &Path, contents: &[u8]) -> io::Result<()> {
        self.files.retain(|(p, _)| p != relative);
        self.files.push((relative.to_path_buf(), contents.to_vec()));
        Ok(())
    }

    fn append(&mut self, relative: &Path, piece: &[u8]) -> io::Result<()> {
        match self.files.iter_mut().find(|(p, _)| p == relative) {
            Some((_, contents)) => contents.extend_from_slice(piece),
            None => self.files.push((relative.to_path_buf(), piece.to_vec())),
        }
        Ok(())
    }
}

/// The one submission of `results`, for a format that holds one (an
/// autograder's: `whose` names it); an error where there are more or none.
pub fn only_submission<'r>(
    results: &'r ClassResults,
    whose: &str,
) -> io::Result<&'r SubmissionResult> {
    match &results.submissions[..] {
        [submission] => Ok(submission),
        all => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{whose} results hold one submission, and these hold {}",
                all.len()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::{class, explored_game};
    use crate::export::{blackboard, canvas, csv, html, summary};
    use crate::results::{Exploration, ExploredGame, LmsId};

    /// The test class with what the class-wide reports also read: ids of
    /// each learning system, an exploration that found a game, and a cut.
    fn rich_class() -> ClassResults {
        let mut class = class();
        for (s, system) in class
            .submissions
            .iter_mut()
            .zip(["canvas", "moodle", "blackboard"])
        {
            s.lms = Some(LmsId {
                system: system.into(),
                id: format!("{}-id", s.id),
            });
        }
        class.submissions[0].cases[1].not_shown = 1234;
        class.submissions[0].exploration = Some(Exploration {
            games: 3,
            seed: 7,
            score: 0.0,
            max_score: 1.0,
            found: Some(ExploredGame {
                explanation: "x".repeat(2000),
                expected: Some("y".repeat(2000)),
                actual: Some("z".repeat(2000)),
                not_shown: 99,
                case: "input: [0]".into(),
                ..explored_game()
            }),
        });
        class
    }

    /// What a class-wide format writes when it is finished.
    fn finished(mut format: impl Exporter, results: &ClassResults) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out = Memory::default();
        format.finish(results, &mut out).unwrap();
        out.files
    }

    #[test]
    fn class_wide_reports_of_compact_results_are_those_of_whole_ones() {
        let whole = rich_class();
        let compact = ClassResults {
            submissions: whole.submissions.iter().map(|s| s.compact()).collect(),
            ..whole.clone()
        };
        assert!(compact.submissions.iter().all(|s| s.cases.is_empty()));
        let pairs = [
            (finished(csv::Csv, &whole), finished(csv::Csv, &compact)),
            (
                finished(csv::Moodle, &whole),
                finished(csv::Moodle, &compact),
            ),
            (
                finished(canvas::Canvas, &whole),
                finished(canvas::Canvas, &compact),
            ),
            (
                finished(blackboard::Blackboard, &whole),
                finished(blackboard::Blackboard, &compact),
            ),
            (
                finished(html::Html::default(), &whole),
                finished(html::Html::default(), &compact),
            ),
        ];
        for (from_whole, from_compact) in pairs {
            assert_eq!(
                from_whole.len(),
                1,
                "each of these formats writes one file here"
            );
            assert_eq!(from_whole, from_compact);
        }
        assert_eq!(summary::text(&whole), summary::text(&compact));
        assert!(
            summary::cut(&compact).contains("(1,333 bytes not shown)"),
            "{}",
            summary::cut(&compact)
        );
        assert!(!summary::exploration(&compact).is_empty());
    }

    #[test]
    fn a_compact_result_is_small_and_completed_by_its_whole_one() {
        let whole = rich_class().submissions[0].clone();
        let compact = whole.compact();
        let size = |s: &SubmissionResult| serde_json::to_vec(s).unwrap().len();
        assert!(
            size(&compact) * 4 < size(&whole),
            "{} of {}",
            size(&compact),
            size(&whole)
        );
        assert_eq!(compact.not_shown(), whole.not_shown());
        assert_eq!(compact.passed(), whole.passed());
        let mut renamed = compact.clone();
        renamed.name = Some("Ada Lovelace".into());
        let completed = renamed.completed_by(whole.clone());
        assert_eq!(completed.name.as_deref(), Some("Ada Lovelace"));
        assert_eq!(completed.cases, whole.cases);
        assert!(!completed.is_compact());
    }
}
