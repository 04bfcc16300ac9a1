//! Verdicts: what happened to a program on one case, in a word for
//! machines (`wrong-output`) and in a sentence for students.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::compare::{self, Region};
use crate::expected::ReferenceRun;
use crate::run::{Ending, Limits, RunResult};

/// The outcome of one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Printed what the reference prints, and ended as it does.
    Pass,
    /// Played exactly as the reference does, but printed it differently:
    /// a game-mode case's format points are lost, the rest earned.
    FormatDiffers,
    /// Printed something else.
    WrongOutput,
    /// Was still waiting for input when the case's input ran out.
    WaitingForInput,
    /// Ran out of time.
    Timeout,
    /// Died of a signal, or exited with a failure status.
    Crashed,
    /// Printed more than the output limit.
    OutputLimit,
    /// Ran out of memory.
    MemoryLimit,
    /// Did not compile.
    CompileError,
}

impl Verdict {
    /// The word used in files and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::FormatDiffers => "format-differs",
            Verdict::WrongOutput => "wrong-output",
            Verdict::WaitingForInput => "waiting-for-input",
            Verdict::Timeout => "timeout",
            Verdict::Crashed => "crashed",
            Verdict::OutputLimit => "output-limit",
            Verdict::MemoryLimit => "memory-limit",
            Verdict::CompileError => "compile-error",
        }
    }

    /// A few words for a report line.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::FormatDiffers => "right play, different text",
            Verdict::WrongOutput => "wrong output",
            Verdict::WaitingForInput => "still waiting for input",
            Verdict::Timeout => "timed out",
            Verdict::Crashed => "crashed",
            Verdict::OutputLimit => "too much output",
            Verdict::MemoryLimit => "out of memory",
            Verdict::CompileError => "does not compile",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A verdict and the sentence that explains it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The verdict.
    pub verdict: Verdict,
    /// Why, in words a first-year student understands.
    pub reason: String,
    /// Whether the output matched, whatever else went wrong.
    pub output_matches: bool,
}

/// Judges one run against the reference's: how the run ended comes first
/// (a crash or a timeout is what needs fixing), then the output.
pub fn judge(
    expected: &ReferenceRun,
    run: &RunResult,
    options: &compare::Options,
    regions: &[Region],
    limits: &Limits,
) -> Judgement {
    let output_matches = compare::same_output(
        &expected.transcript.output(),
        &run.transcript.output(),
        options,
        regions,
    );
    let (verdict, reason) =
        match run.ending {
            Ending::OutputLimit => (
                Verdict::OutputLimit,
                format!(
                    "your program printed more than {} and was stopped",
                    size(limits.output)
                ),
            ),
            Ending::MemoryLimit => (
                Verdict::MemoryLimit,
                format!(
                    "your program ran out of memory (it may use {})",
                    size(limits.memory.unwrap_or(0))
                ),
            ),
            // Which clock runs out first depends on how busy the machine is,
            // so the sentence names both: the same program gets the same words.
            Ending::TimedOut(_) => (
                Verdict::Timeout,
                format!(
                    "your program was still running when its time ran out ({} on the clock, {} of \
                 processor time) and was stopped: an endless loop, or waiting for something that \
                 never comes?",
                    seconds(limits.wall),
                    seconds(limits.cpu)
                ),
            ),
            Ending::WaitingForInput if !expected.waited_at_end => (
                Verdict::WaitingForInput,
                "your program was still waiting for input when the case's input ran out".into(),
            ),
            Ending::Signaled(signal) => (
                Verdict::Crashed,
                format!("your program crashed: {}", signal_words(signal)),
            ),
            Ending::Exited(code) if code != 0 => {
                (
                    Verdict::Crashed,
                    format!(
                "your program exited with status {code}; a program that ends normally exits \
                 with 0{}",
                if output_matches { " (its output was right)" } else { "" }
            ),
                )
            }
            _ if !output_matches => (
                Verdict::WrongOutput,
                "your program's output differs from the reference's".into(),
            ),
            _ => (
                Verdict::Pass,
                "your program printed what the reference prints".into(),
            ),
        };
    Judgement {
        verdict,
        reason,
        output_matches,
    }
}

/// A signal's name and what it usually means in a student's program.
pub fn signal_words(signal: i32) -> String {
    let name = nix::sys::signal::Signal::try_from(signal)
        .map(|s| s.as_str().to_string())
        .unwrap_or_else(|_| format!("signal {signal}"));
    let meaning = match signal {
        libc::SIGSEGV => "segmentation fault: it used memory it does not own, such as an array index out of bounds",
        libc::SIGABRT => "it aborted, for example a failed assert or a corrupted heap",
        libc::SIGFPE => "an arithmetic error, such as a division by zero",
        libc::SIGBUS => "a bus error: it used memory it does not own",
        libc::SIGILL => "an illegal instruction",
        libc::SIGXFSZ => "it wrote a file larger than allowed",
        libc::SIGPIPE => "it wrote to a closed pipe",
        libc::SIGKILL => "it was killed",
        libc::SIGSYS => "it made a system call that is not allowed",
        _ => "",
    };
    if meaning.is_empty() {
        name
    } else {
        format!("{name} ({meaning})")
    }
}

/// `1 MiB`, `64 KiB`, `100 bytes`.
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 => format!("{:.0} MiB", b as f64 / (1u64 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.0} KiB", b as f64 / 1024.0),
        b => format!("{b} bytes"),
    }
}

/// `10 s`, `0.5 s`.
pub fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}
