//! Starting a built program on some input, in a fresh sandbox, with the
//! suite's support files in its working folder: the one way every run
//! starts, the reference program's and the students' alike.

use std::path::{Path, PathBuf};

use crate::run::{self, Feed, Input, Limits, Program, RunResult};
use crate::sandbox::{self, Jail};
use crate::untrusted;

use super::sanitized::Checks;

/// A file copied into every run's working folder (and beside the source
/// when a program is built), for the reference and students alike: data a
/// program opens, a header it includes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Support {
    /// The file, in the suite's folder.
    pub source: PathBuf,
    /// Where it goes, relative to the working folder.
    pub place: PathBuf,
    /// Its permission bits in the run's folder: a case's `files` are
    /// [`GIVEN_MODE`] (a program may rewrite or append to them) unless
    /// the case gives a mode; support files are [`SUPPORT_MODE`].
    pub mode: u32,
    /// Whether it is a source of the course's own library (`link:`),
    /// compiled and linked into every C and C++ program.
    pub linked: bool,
}

/// A support file's mode: read-only.
pub const SUPPORT_MODE: u32 = 0o644;

/// A case's given file's mode, unless the case says another.
pub const GIVEN_MODE: u32 = 0o666;

/// The most a support file may hold.
pub const SUPPORT_LIMIT: u64 = 16 << 20;

/// Why a program could not be run: always the grader's trouble (no slot,
/// no process to spare, a support file it cannot copy), never what the
/// program did.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// No sandbox could be made for the run.
    #[error("cannot make a sandbox for the run: {0}")]
    Sandbox(std::io::Error),
    /// A support file could not be put in the working folder.
    #[error("cannot copy the support file {file} into the run's folder: {why}")]
    Support {
        /// The file, as the suite names it.
        file: String,
        /// Why.
        why: String,
    },
    /// A checked run's folder for its reports could not be made.
    #[error("cannot make the checked run's folder for its reports: {0}")]
    Checks(std::io::Error),
    /// The program could not be started or watched.
    #[error("cannot run {program}: {source}")]
    Run {
        /// The program, as started.
        program: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Runs `program` on `input` in a fresh sandbox whose working folder holds
/// `support`. A failure of the grader's own (no slot, no process to
/// spare) is tried once more on a fresh slot, then reported as the
/// grader's, never as the program's. The jail is returned with the
/// result, so that what the program left in its folder can be read.
pub fn execute(
    program: &Program,
    input: Input<'_>,
    limits: &Limits,
    support: &[Support],
    feed: Feed,
) -> Result<(Jail, RunResult), StartError> {
    crate::timings::time(crate::timings::Phase::Runs, || {
        execute_timed(program, input, limits, support, feed, None)
    })
}

/// Like [`execute`], for a checked build ([`super::checked`]): under
/// [`super::sanitized::limits`], its sanitizers told to write their reports
/// into a folder of the run's, which the runner watches, and the reports
/// read into the result ([`RunResult::reports`]).
pub fn execute_checked(
    program: &Program,
    checks: Checks<'_>,
    input: Input<'_>,
    limits: &Limits,
    support: &[Support],
    feed: Feed,
) -> Result<(Jail, RunResult), StartError> {
    let limits = super::sanitized::limits(limits);
    crate::timings::time(crate::timings::Phase::Diagnose, || {
        execute_timed(program, input, &limits, support, feed, Some(checks))
    })
}

fn execute_timed(
    program: &Program,
    input: Input<'_>,
    limits: &Limits,
    support: &[Support],
    feed: Feed,
    checked: Option<Checks<'_>>,
) -> Result<(Jail, RunResult), StartError> {
    let attempt = || -> Result<(Jail, RunResult), StartError> {
        let mut jail = super::sandbox()
            .jail(&program.reads, limits)
            .map_err(StartError::Sandbox)?;
        provide(jail.workdir(), support)?;
        if let Some(checks) = checked {
            super::sanitized::prepare(&mut jail, limits, checks).map_err(StartError::Checks)?;
        }
        // A virtual machine's heap limit is the case's memory limit's.
        let jvm = program
            .heap
            .as_ref()
            .is_some_and(|h| h.option == Some(super::java::HEAP_OPTION));
        let (argv, address_space) = program.within(limits);
        if let Some(bytes) = address_space {
            jail.reserve_address_space(bytes);
        }
        let program = &Program {
            argv,
            reads: program.reads.clone(),
            heap: None,
        };
        let mut result =
            run::run(program, input, limits, &jail, feed).map_err(|source| StartError::Run {
                program: program_name(program),
                source,
            })?;
        if checked.is_some() {
            result.reports = super::sanitized::reports(&jail);
        }
        // A JVM whose heap (the case's memory limit) ran out ended on
        // `java.lang.OutOfMemoryError`, well before its process neared
        // the limit: it ran out of memory, as a C program over it does.
        let failed = matches!(result.ending, run::Ending::Exited(code) if code != 0);
        // (On stderr, which a case may keep apart from the output.)
        let said = |bytes: &[u8]| super::java::ran_out_of_heap(bytes);
        let transcript = &result.transcript;
        if jvm && failed && (said(&transcript.output()) || said(transcript.errors())) {
            result.ending = run::Ending::MemoryLimit;
        }
        Ok((jail, result))
    };
    attempt().or_else(|_| {
        sandbox::retire_thread_slot();
        attempt()
    })
}

/// Copies the support files into `folder`, each at its place, readable
/// by the program (and writable only where the file says: every run gets
/// them fresh).
pub fn provide(folder: &Path, support: &[Support]) -> Result<(), StartError> {
    for file in support {
        let trouble = |why: String| StartError::Support {
            file: file.place.display().to_string(),
            why,
        };
        let to = folder.join(&file.place);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| trouble(e.to_string()))?;
        }
        untrusted::copy(&file.source, &to, SUPPORT_LIMIT, file.mode)
            .map_err(|refusal| trouble(refusal.to_string()))?;
        if file.mode != SUPPORT_MODE {
            // Past the umask: the program may run as another user, and a
            // case may ask for a file it cannot read (`mode: "000"`).
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(file.mode))
                .map_err(|e| trouble(e.to_string()))?;
        }
    }
    Ok(())
}

fn program_name(program: &Program) -> String {
    program
        .argv
        .first()
        .map(|p| Path::new(p).display().to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_files_go_to_their_places_read_only() {
        let suite = tempfile::tempdir().unwrap();
        std::fs::create_dir(suite.path().join("data")).unwrap();
        std::fs::write(suite.path().join("data/words.txt"), "apple\n").unwrap();
        std::fs::write(suite.path().join("cs50.h"), "#pragma once\n").unwrap();
        let support: Vec<Support> = ["data/words.txt", "cs50.h"]
            .iter()
            .map(|place| Support {
                source: suite.path().join(place),
                place: place.into(),
                mode: SUPPORT_MODE,
                linked: false,
            })
            .collect();
        let work = tempfile::tempdir().unwrap();
        provide(work.path(), &support).unwrap();
        assert_eq!(
            std::fs::read_to_string(work.path().join("data/words.txt")).unwrap(),
            "apple\n"
        );
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(work.path().join("cs50.h"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o644);
        // A file already there (a program's own) is not written over.
        assert!(provide(work.path(), &support).is_err());
    }
}
