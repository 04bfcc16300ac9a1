//! What a run comes to: how it ended and what it printed. A leaf of
//! `run`: the session loop and the runner both use it.

use std::time::Duration;

use crate::sandbox::Limits;
use crate::transcript::Transcript;

/// Which clock ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Time on the clock.
    Wall,
    /// Processor time.
    Cpu,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The program exited with this status.
    Exited(i32),
    /// A signal killed it (not one the runner sent).
    Signaled(i32),
    /// It was waiting to read when the case's input had run out.
    WaitingForInput,
    /// A time limit ran out.
    TimedOut(Clock),
    /// It printed more than the output limit.
    OutputLimit,
    /// It failed close to its memory limit.
    MemoryLimit,
}

/// Everything recorded about one run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// What it printed, with input where it read it.
    pub transcript: Transcript,
    /// How it ended.
    pub ending: Ending,
    /// Time on the clock.
    pub wall: Duration,
    /// Processor time used.
    pub cpu: Duration,
    /// Peak resident memory, in bytes.
    pub max_rss: u64,
    /// Input lines never given to the program.
    pub unread_inputs: usize,
    /// An out-of-memory killer ended the run for a limit not the run's
    /// own: the job's (an enclosing control group's) or the machine's
    /// memory ran out. What the program did then is no verdict of its.
    pub job_out_of_memory: bool,
    /// For a run whose jail watched a folder ([`crate::sandbox::Jail::watch`]):
    /// how many bytes its files held before each input line was given.
    pub report_marks: Vec<u64>,
    /// A checked build's run: the sanitizer's report files it left.
    pub reports: Vec<Report>,
}

/// One report file a checked build's run left, as read (bounded: the
/// program writes it, and may have written anything there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The file's name (the sanitizer names it after the process id).
    pub name: String,
    /// Its first bytes.
    pub text: Vec<u8>,
    /// Whether it held more than was read.
    pub cut: bool,
}

/// Turns a wait status into an ending. A program that died of its CPU
/// limit timed out; one that failed close to its memory limit ran out of
/// memory (the limit is on address space, so allocation fails and the
/// program crashes or raises, with most of the limit resident).
pub(super) fn classify(status: i32, cpu: Duration, max_rss: u64, limits: &Limits) -> Ending {
    let near_memory_limit = limits
        .memory
        .is_some_and(|m| max_rss.saturating_mul(10) >= m.saturating_mul(7));
    if libc::WIFEXITED(status) {
        let code = libc::WEXITSTATUS(status);
        if code != 0 && near_memory_limit {
            return Ending::MemoryLimit;
        }
        return Ending::Exited(code);
    }
    let signal = libc::WTERMSIG(status);
    if signal == libc::SIGXCPU || (signal == libc::SIGKILL && cpu >= limits.cpu) {
        return Ending::TimedOut(Clock::Cpu);
    }
    if near_memory_limit {
        return Ending::MemoryLimit;
    }
    Ending::Signaled(signal)
}
