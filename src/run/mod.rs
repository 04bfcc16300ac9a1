//! Running a program against a case's input: on a pseudo-terminal, one
//! input line each time it waits to read, under limits, and recording a
//! [`Transcript`].
//!
//! This is the one place processes are started and stopped. The pieces:
//! [`pty`] (the terminal), [`spawn`] (starting the program in its own
//! session under resource limits), the slot's listener
//! ([`crate::sandbox::listener`]) and [`procfs`] (knowing when it waits
//! for input), and the session loop that ties them together.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;

use crate::notice;
use crate::sandbox::{listener, Jail};

mod memory;
mod outcome;
mod procfs;
pub mod proof;
mod serve;
mod session;
mod stop;
pub mod tool;
pub mod uncaught;

pub use crate::sandbox::pty;
pub use crate::sandbox::{clean_env, Limits};
pub use outcome::{Clock, Ending, Report, RunResult};
pub use session::How;
pub use session::WATCHED_FILES;
use session::{Job, Session};
pub use stop::{halted, job_stop, JobStop, HALT, JOB_STOPS};
use stop::{halted_error, Pressure};
pub use uncaught::{uncaught, Uncaught};

/// A command to run: the program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// `argv`, starting with the program's path.
    pub argv: Vec<OsString>,
    /// Folders it needs to read besides the system's (its build folder,
    /// its interpreter's library): the sandbox allows these.
    pub reads: Vec<PathBuf>,
    /// For a program on a virtual machine that reserves far more address
    /// space than it uses (the JVM): how its memory is limited instead.
    pub heap: Option<Heap>,
}

/// How a virtual machine's memory is limited: its heap by an option of
/// its own, set from the run's memory limit, and the rest by the
/// control group; its address space may reach the memory limit and
/// `reserve` more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heap {
    /// The option, followed by the heap's size (`-Xmx`, then `256m`),
    /// if the machine takes one.
    pub option: Option<&'static str>,
    /// Where in `argv` the option goes.
    pub at: usize,
    /// The address space each process may reserve beyond the memory
    /// limit.
    pub reserve: u64,
}

/// The least heap a virtual machine is given, whatever the memory
/// limit: below it the JVM does not start.
const LEAST_HEAP: u64 = 16 << 20;

impl Program {
    /// The command and address-space limit of a run under `limits`: for
    /// a virtual machine, its heap limit (half the memory limit; the
    /// other half is the machine's own: its code, its classes, its
    /// threads) put in the command, and the address space the memory
    /// limit and its reservation. `None` for the address space means
    /// the memory limit's.
    pub fn within(&self, limits: &Limits) -> (Vec<OsString>, Option<u64>) {
        let Some(heap) = &self.heap else {
            return (self.argv.clone(), None);
        };
        let Some(memory) = limits.memory else {
            return (self.argv.clone(), None);
        };
        let size = (memory / 2).max(LEAST_HEAP) >> 20;
        let mut argv = self.argv.clone();
        if let Some(option) = heap.option {
            let at = heap.at.min(argv.len());
            argv.insert(at, format!("{option}{size}m").into());
        }
        (argv, Some(memory.saturating_add(heap.reserve)))
    }
}

impl Program {
    /// A program run without arguments, reading only its own folder.
    pub fn new(path: impl Into<PathBuf>) -> Program {
        let path: PathBuf = path.into();
        let reads = path
            .parent()
            .map(|p| vec![p.to_path_buf()])
            .unwrap_or_default();
        Program {
            argv: vec![path.into_os_string()],
            reads,
            heap: None,
        }
    }
}

impl Program {
    /// This program given `args` after its own: each reaches `argv` as
    /// written, with no shell between.
    pub fn with_args(&self, args: &[String]) -> Program {
        let mut program = self.clone();
        program.argv.extend(args.iter().map(OsString::from));
        program
    }
}

/// How input is given to the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feed {
    /// One line each time the program waits to read, detected by the best
    /// means this machine has.
    Interactive,
    /// Every line at once, at the start (where waiting cannot be detected).
    AllAtOnce,
}

/// How this machine tells that a program waits for input, in words:
/// the way proven by [`proof::prove`], else the one runs would take.
pub fn detection_method() -> &'static str {
    let has_listener = listener::wanted();
    proof::describe(proof::chosen(has_listener))
}

/// What a run is given to read: lines (without newlines), and whether
/// the input then ends, as Ctrl-D ends it on a terminal.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The lines, one given each time the program waits to read.
    pub lines: &'a [String],
    /// Whether a read after the last line gets the end of input (once)
    /// rather than ending the run with the program still waiting.
    pub ends: bool,
    /// Whether stderr goes to a pipe of its own, kept apart from the
    /// terminal (a case that grades it apart), rather than to the
    /// terminal with stdout.
    pub errors_apart: bool,
}

impl<'a> From<&'a [String]> for Input<'a> {
    fn from(lines: &'a [String]) -> Input<'a> {
        Input {
            lines,
            ends: false,
            errors_apart: false,
        }
    }
}

impl<'a> From<&'a Vec<String>> for Input<'a> {
    fn from(lines: &'a Vec<String>) -> Input<'a> {
        Input::from(lines.as_slice())
    }
}

/// Runs `program` in `jail`'s working folder, under its rules, giving it
/// `input`. Errors are the runner's own (no terminal, no such program);
/// everything the program does is in the [`RunResult`].
pub fn run<'a>(
    program: &Program,
    input: impl Into<Input<'a>>,
    limits: &Limits,
    jail: &Jail,
    feed: Feed,
) -> io::Result<RunResult> {
    if halted() {
        return Err(halted_error());
    }
    let input = input.into();
    let job = Job {
        argv: &program.argv,
        inputs: input.lines,
        ends: input.ends,
        errors_apart: input.errors_apart,
        limits,
        jail,
    };
    let pressure = Pressure::before(jail);
    let mut result = attempt(job, feed)?;
    // A program that failed after its group ran into the memory limit ran
    // out of memory; one that finished despite it (the kernel dropped
    // caches) did not. One that failed while memory ran short for the
    // job around it (killed, or stalled reclaiming until its time ran
    // out) cannot be judged.
    let failed = match result.ending {
        Ending::Signaled(_) | Ending::MemoryLimit | Ending::TimedOut(_) => true,
        Ending::Exited(code) => code != 0,
        _ => false,
    };
    if failed && jail.hit_memory_limit() == Some(true) {
        result.ending = Ending::MemoryLimit;
    } else if failed && pressure.grew(jail) {
        result.job_out_of_memory = true;
    }
    Ok(result)
}

/// Runs with the way of detecting waits this machine was proven to
/// allow ([`proof::prove`]): the slot's listener where it has one (see
/// [`listener`]), else watching `/proc`, else (saying so once) typing
/// everything at the start.
fn attempt(job: Job<'_>, feed: Feed) -> io::Result<RunResult> {
    let how = match feed {
        Feed::Interactive => proof::chosen(job.jail.listener().is_some()),
        Feed::AllAtOnce => How::AllAtOnce,
    };
    // A slot without a listener (seccomp turned off since) cannot be
    // notified: watch it instead.
    let how = match how {
        How::Notify | How::NotifyTyping if job.jail.listener().is_none() => {
            if procfs::Watcher::available() {
                How::Watch
            } else {
                How::AllAtOnce
            }
        }
        how => how,
    };
    if feed == Feed::Interactive && how == How::AllAtOnce {
        notice::once(
            "all-at-once",
            "this system cannot tell when a program waits for input, so each case's \
             input is typed all at once at the start; transcripts show every input first",
        );
    }
    Session::start(job, how)?.run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_virtual_machines_heap_is_half_the_memory_limit_and_its_address_space_reserved() {
        let limits = Limits {
            memory: Some(512 << 20),
            ..Limits::default()
        };
        let plain = Program::new("/builds/x/program");
        assert_eq!(plain.within(&limits), (plain.argv.clone(), None));
        let jvm = Program {
            argv: vec!["java".into(), "-cp".into(), "c".into(), "Main".into()],
            reads: Vec::new(),
            heap: Some(Heap {
                option: Some("-Xmx"),
                at: 1,
                reserve: 2 << 30,
            }),
        };
        let (argv, space) = jvm.within(&limits);
        assert_eq!(argv, ["java", "-Xmx256m", "-cp", "c", "Main"]);
        assert_eq!(space, Some((512 << 20) + (2 << 30)));
        // A tiny limit still leaves the JVM a heap it can start with.
        let tiny = Limits {
            memory: Some(8 << 20),
            ..Limits::default()
        };
        assert_eq!(jvm.within(&tiny).0[1], "-Xmx16m");
    }
}
