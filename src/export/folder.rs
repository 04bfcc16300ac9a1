//! The output folder of `grade` and `merge`: which run it belongs to,
//! and replacing its reports as one set.
//!
//! A folder holds the reports of one run: one game, one case folder, one
//! set of submissions named, one shard. Its `.referee-out.json` (the
//! stamp) says which. A run into a folder made for another is refused
//! with the reason; with `--force` it replaces that folder's reports
//! whole. Reports are first written into a staging folder inside the
//! output folder (so a full disk or any other failure leaves the
//! previous set as it was), then moved into place one rename each, and
//! every report file of the previous set that the new one does not have
//! (the feedback of a student no longer in the class) is removed.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{all, blackboard, canvas, csv, html, json, junit, markdown, similarity, Sink};
use crate::batch::DETAILS;
use crate::fault::Fault;
use crate::results::{ClassResults, SubmissionResult};

/// The stamp's file name.
pub const STAMP: &str = ".referee-out.json";

/// How the staging folders inside an output folder begin.
const STAGING: &str = ".referee-staging-";

/// What run an output folder holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// The game id.
    pub game: String,
    /// The case folder graded against, as an absolute path, or
    /// `built-in <game>`.
    pub suite: String,
    /// The submissions named on the command line, absolute and sorted;
    /// for `merge`, the shard folders.
    pub class: Vec<String>,
    /// The shard (`K/N`) when the run was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

impl Stamp {
    /// The stamp of a run of `game` on `suite` over `paths`.
    pub fn new(game: &str, suite: String, paths: &[PathBuf], shard: Option<String>) -> Stamp {
        let mut class: Vec<String> = paths
            .iter()
            .map(|p| {
                std::path::absolute(p)
                    .unwrap_or_else(|_| p.clone())
                    .display()
                    .to_string()
            })
            .collect();
        class.sort();
        class.dedup();
        Stamp {
            game: game.into(),
            suite,
            class,
            shard,
        }
    }

    /// How `self` (the folder's) differs from `new` (this run's), in
    /// words; `None` when they are the same run.
    fn difference(&self, new: &Stamp) -> Option<String> {
        if self.game != new.game {
            return Some(format!("they are for {}, not {}", self.game, new.game));
        }
        if self.suite != new.suite {
            return Some(format!(
                "they were graded on {}, not {}",
                self.suite, new.suite
            ));
        }
        if self.shard != new.shard {
            let shard = |s: &Option<String>| {
                s.as_ref()
                    .map_or("the whole class".to_string(), |s| format!("shard {s}"))
            };
            return Some(format!(
                "they are {}, not {}",
                shard(&self.shard),
                shard(&new.shard)
            ));
        }
        if self.class != new.class {
            return Some(format!("they are of {}", self.class.join(", ")));
        }
        None
    }
}

/// The report files a run writes at the top of an output folder (each
/// format's own, when it has one): a later run that does not write one
/// removes it.
const TOP_FILES: [&str; 7] = [
    json::FILE,
    csv::FILE,
    csv::MOODLE_FILE,
    canvas::FILE,
    blackboard::FILE,
    junit::FILE,
    html::INDEX,
];

/// Whether `name`, at the top of an output folder, is something referee
/// writes there.
fn is_report_name(name: &str) -> bool {
    TOP_FILES.contains(&name)
        || [
            markdown::DIR,
            DETAILS,
            STAMP,
            // Where older versions put the TAs' page: removed with the rest.
            "feedback/index.html",
            // `referee similar`'s, which a grade leaves as they are.
            similarity::FILE,
            similarity::INDEX,
            similarity::DIR,
        ]
        .contains(&name)
}

/// Why an output folder cannot take a run's reports: always the
/// grader's to fix (another `--out`, `--force`, room on the disk).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The folder cannot be looked at.
    #[error("{}: cannot read it: {source}", out.display())]
    Unreadable {
        /// The output folder.
        out: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// `--out` names a file.
    #[error(
        "{} is a file, not a folder: --out names the folder the reports go in; choose another \
         name",
        .0.display()
    )]
    NotAFolder(PathBuf),
    /// The folder cannot be listed.
    #[error("{}: cannot list it: {source}", out.display())]
    Unlistable {
        /// The output folder.
        out: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The folder holds something else than referee's reports.
    #[error(
        "{} is not empty and holds no referee reports; name a new or empty folder with --out \
         (referee never removes what it did not write)",
        .0.display()
    )]
    NotReports(PathBuf),
    /// The folder holds another run's reports, and `--force` was not given.
    #[error(
        "{} holds the reports of another run ({why}); name another --out, or add --force to \
         replace them",
        out.display()
    )]
    AnotherRun {
        /// The output folder.
        out: PathBuf,
        /// How the runs differ.
        why: String,
    },
    /// The reports could not be written or moved into place.
    #[error("{}: cannot write the reports: {source}", out.display())]
    Write {
        /// The output folder.
        out: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The new set could not be staged; the previous one is untouched.
    #[error(
        "{}: cannot write the reports ({source}); the previous reports are as they were",
        out.display()
    )]
    Staging {
        /// The output folder.
        out: PathBuf,
        /// Why.
        source: io::Error,
    },
}

impl Error {
    /// Whose fault it is: the output folder is the grader's choice.
    pub fn fault(&self) -> Fault {
        Fault::Grader
    }
}

/// Checks that `out` may take this run's reports: a new or empty folder,
/// or one holding this same run's; with `force`, also one holding
/// another run's (whose reports the new set then replaces whole). A file,
/// or a folder holding anything but referee's reports, is refused.
pub fn check(out: &Path, stamp: &Stamp, force: bool) -> Result<(), Error> {
    let meta = match fs::symlink_metadata(out) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(Error::Unreadable {
                out: out.to_path_buf(),
                source,
            })
        }
    };
    if !meta.is_dir() {
        return Err(Error::NotAFolder(out.to_path_buf()));
    }
    let entries: Vec<String> = fs::read_dir(out)
        .map_err(|source| Error::Unlistable {
            out: out.to_path_buf(),
            source,
        })?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| !n.starts_with(STAGING))
        .collect();
    if entries.is_empty() {
        return Ok(());
    }
    if !entries.iter().any(|n| n == json::FILE || n == STAMP) {
        return Err(Error::NotReports(out.to_path_buf()));
    }
    let theirs = read_stamp(out);
    let difference = match &theirs {
        Some(theirs) => theirs.difference(stamp),
        None => Some("they were written by an older referee".to_string()),
    };
    match difference {
        None => Ok(()),
        Some(_) if force => {
            let strangers: Vec<&String> = entries.iter().filter(|n| !is_report_name(n)).collect();
            if !strangers.is_empty() {
                eprintln!(
                    "referee: note: {} also holds files referee did not write; they are left as they are",
                    out.display()
                );
            }
            Ok(())
        }
        Some(why) => Err(Error::AnotherRun {
            out: out.to_path_buf(),
            why,
        }),
    }
}

/// Makes `out` this run's before anything is graded into it (after
/// [`check`] allowed it): the folder is made and the stamp written, so
/// that a run killed outright (SIGKILL, a node lost) leaves a folder the
/// same command resumes, its kept results intact. Another run's reports
/// there (replaced under `--force`) stay until [`publish`] replaces them.
pub fn claim(out: &Path, stamp: &Stamp) -> Result<(), Error> {
    let cannot = |source: io::Error| Error::Write {
        out: out.to_path_buf(),
        source,
    };
    fs::create_dir_all(out).map_err(cannot)?;
    if read_stamp(out).as_ref() == Some(stamp) {
        return Ok(());
    }
    let json = serde_json::to_vec_pretty(stamp).map_err(|e| cannot(io::Error::other(e)))?;
    crate::atomic::write(&out.join(STAMP), &json).map_err(cannot)
}

fn read_stamp(out: &Path) -> Option<Stamp> {
    let text = fs::read_to_string(out.join(STAMP)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Writes `results`' reports into `out` as one set (see the module's
/// documentation); the paths of the reports written.
///
/// `results` may hold compact results
/// ([`SubmissionResult::compact`]): each student's whole result is then
/// read from their `details/<id>.json` in `out` when their turn comes,
/// so the reports of a class of any size take one student's memory.
pub fn publish(out: &Path, results: &ClassResults, stamp: &Stamp) -> Result<Vec<PathBuf>, Error> {
    let _timed = crate::timings::Timed::new(crate::timings::Phase::Reports);
    let cannot = |source: io::Error| Error::Write {
        out: out.to_path_buf(),
        source,
    };
    let staging_failed = |source: io::Error| Error::Staging {
        out: out.to_path_buf(),
        source,
    };
    fs::create_dir_all(out).map_err(cannot)?;
    let stamp_json = serde_json::to_vec_pretty(stamp).map_err(|e| cannot(io::Error::other(e)))?;
    remove_leftover_staging(out);
    let staging = tempfile::Builder::new()
        .prefix(STAGING)
        .tempdir_in(out)
        .map_err(cannot)?;
    let mut sink = Staging::new(staging.path());
    write_reports(out, results, &mut sink).map_err(staging_failed)?;
    sink.file(Path::new(STAMP), &stamp_json)
        .and_then(|()| sink.close())
        .and_then(|()| crate::atomic::flush_filesystem(out))
        .map_err(staging_failed)?;
    let mut moved = Vec::new();
    for relative in &sink.written {
        let target = out.join(relative);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(cannot)?;
        }
        fs::rename(staging.path().join(relative), &target).map_err(cannot)?;
        moved.push(target);
    }
    remove_stale(out, &sink.written, &results.submissions);
    moved.pop(); // the stamp is not a report
    Ok(moved)
}

/// Every format's files of `results`, a student at a time.
fn write_reports(out: &Path, results: &ClassResults, sink: &mut Staging) -> io::Result<()> {
    let mut formats = all();
    for format in &mut formats {
        format.start(results, sink)?;
    }
    let names = super::view::file_names(results);
    for (student, name) in results.submissions.iter().zip(&names) {
        let whole = whole(out, student);
        for format in &mut formats {
            format.student(results, name, &whole, sink)?;
        }
    }
    for format in &mut formats {
        format.finish(results, sink)?;
    }
    Ok(())
}

/// A student's whole result: `student` itself, or, when it is compact,
/// what their details file in `out` keeps. A details file gone or
/// changed since grading (removed by hand) is said, and the compact
/// result stands: the student's pages then show their score and no case.
fn whole<'a>(out: &Path, student: &'a SubmissionResult) -> Cow<'a, SubmissionResult> {
    if !student.is_compact() {
        return Cow::Borrowed(student);
    }
    match crate::batch::whole_result(out, student) {
        Ok(full) => Cow::Owned(full),
        Err(why) => {
            eprintln!(
                "referee: warning: {why}; the feedback of {} shows no case: grade again with \
                 --force to remake it",
                crate::export::view::printable(&student.id)
            );
            Cow::Borrowed(student)
        }
    }
}

/// The staging folder, as formats write into it. Nothing is flushed file
/// by file: [`publish`] flushes the output folder's filesystem once the
/// set is whole (the details files of the grading with it), and a full
/// disk is found then, or as a file is written, before anything is
/// replaced.
struct Staging<'a> {
    dir: &'a Path,
    /// Every file made, in the order they were begun.
    written: Vec<PathBuf>,
    /// The same, to tell a file written again (a class has thousands).
    made: HashSet<PathBuf>,
    /// The files being written in pieces.
    open: Vec<(PathBuf, io::BufWriter<fs::File>)>,
}

impl<'a> Staging<'a> {
    fn new(dir: &'a Path) -> Staging<'a> {
        Staging {
            dir,
            written: Vec::new(),
            made: HashSet::new(),
            open: Vec::new(),
        }
    }

    /// Notes that `relative` is one of the set.
    fn made(&mut self, relative: &Path) {
        if self.made.insert(relative.to_path_buf()) {
            self.written.push(relative.to_path_buf());
        }
    }

    /// Finishes the files written in pieces.
    fn close(&mut self) -> io::Result<()> {
        for (_, file) in self.open.drain(..) {
            file.into_inner().map_err(|e| e.into_error())?;
        }
        Ok(())
    }
}

impl super::Sink for Staging<'_> {
    fn file(&mut self, relative: &Path, contents: &[u8]) -> io::Result<()> {
        write_new(&self.dir.join(relative), contents)?;
        self.made(relative);
        Ok(())
    }

    fn append(&mut self, relative: &Path, piece: &[u8]) -> io::Result<()> {
        if let Some((_, file)) = self.open.iter_mut().find(|(p, _)| p == relative) {
            return file.write_all(piece);
        }
        let path = self.dir.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        let mut file = io::BufWriter::new(fs::File::create(path)?);
        file.write_all(piece)?;
        self.open.push((relative.to_path_buf(), file));
        self.made(relative);
        Ok(())
    }
}

/// Removes the staging folders a run stopped at once (a second Ctrl-C)
/// left behind.
fn remove_leftover_staging(out: &Path) {
    let Ok(entries) = fs::read_dir(out) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(STAGING) && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Writes a new file (flushed with the rest of the set by [`publish`]).
fn write_new(path: &Path, contents: &[u8]) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::File::create(path)?.write_all(contents)
}

/// Removes the report files of a previous set that this one does not
/// have, and the kept results of students no longer in the class.
fn remove_stale(out: &Path, files: &[PathBuf], submissions: &[SubmissionResult]) {
    let new: HashSet<&Path> = files.iter().map(|p| p.as_path()).collect();
    for name in TOP_FILES {
        if !new.contains(Path::new(name)) {
            let _ = fs::remove_file(out.join(name));
        }
    }
    remove_unlisted(&out.join(markdown::DIR), |name| {
        new.contains(Path::new(markdown::DIR).join(name).as_path())
    });
    let ids: HashSet<String> = submissions
        .iter()
        .map(|s| format!("{}.json", s.id))
        .collect();
    remove_unlisted(&out.join(DETAILS), |name| ids.contains(name));
}

/// Removes each regular file of `dir` that `keep` does not want.
fn remove_unlisted(dir: &Path, keep: impl Fn(&str) -> bool) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && !keep(&name) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test class as grading holds it: compact, each whole result
    /// kept in `out`'s details/ (but `missing`'s).
    fn kept(out: &Path, missing: &str) -> ClassResults {
        let mut class = crate::export::view::tests::class();
        for s in &mut class.submissions {
            s.fingerprint = format!("print-{}", s.id);
            if s.id != missing {
                crate::batch::write_detail(out, s).unwrap();
            }
            *s = s.compact();
        }
        class
    }

    #[test]
    fn each_students_reports_are_made_from_their_details_file() {
        let out = tempfile::tempdir().unwrap();
        let results = kept(out.path(), "");
        let stamp = Stamp::new("pentago", "suite".into(), &[], None);
        let written = publish(out.path(), &results, &stamp).unwrap();
        assert!(written.contains(&out.path().join("feedback/alice.html")));
        let page = fs::read_to_string(out.path().join("feedback/alice.html")).unwrap();
        assert!(
            page.contains("O wins &lt;script&gt;"),
            "alice's transcript is on her page"
        );
        let json = fs::read_to_string(out.path().join(json::FILE)).unwrap();
        let back: ClassResults = serde_json::from_str(&json).unwrap();
        assert_eq!(back.submissions.len(), 3);
        assert!(
            json.contains("SECRET-hidden-fail"),
            "explanations are in results.json"
        );
        assert!(!json.contains("O wins"), "transcripts are not");
        let junit = fs::read_to_string(out.path().join(junit::FILE)).unwrap();
        assert!(junit.contains("hidden-fail reason"));
    }

    #[test]
    fn a_details_file_gone_before_the_reports_costs_that_students_cases_only() {
        let out = tempfile::tempdir().unwrap();
        let results = kept(out.path(), "alice");
        let stamp = Stamp::new("pentago", "suite".into(), &[], None);
        publish(out.path(), &results, &stamp).unwrap();
        let page = fs::read_to_string(out.path().join("feedback/alice.md")).unwrap();
        assert!(!page.contains("O wins"), "no transcript to show");
        let json = fs::read_to_string(out.path().join(json::FILE)).unwrap();
        let back: ClassResults = serde_json::from_str(&json).unwrap();
        let ids: Vec<&str> = back.submissions.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["alice", "bob, \"the builder\"", "carol"]);
        assert_eq!(back.submissions[0].score, results.submissions[0].score);
        let gradebook = fs::read_to_string(out.path().join(csv::FILE)).unwrap();
        assert_eq!(gradebook.lines().count(), 4, "every student has a row");
    }

    #[test]
    fn an_unusable_output_folder_is_the_graders() {
        let error = Error::NotAFolder(PathBuf::from("out"));
        assert_eq!(error.fault(), Fault::Grader);
        assert!(error
            .to_string()
            .starts_with("out is a file, not a folder: --out"));
    }
}
