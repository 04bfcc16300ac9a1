//! Verdicts: what happened to a program on one case, in a word for
//! machines (`wrong-output`) and in a sentence for students.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::run::{Ending, Limits, Uncaught};
use crate::text::{seconds, size};

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
    /// Printed (and wrote) what the reference does, and ended where it
    /// ends, but with another exit status: the status is the only
    /// difference.
    ExitStatus,
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
            Verdict::ExitStatus => "exit-status",
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
            Verdict::ExitStatus => "wrong exit status",
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

/// The parts a case's points are made of. Each is judged on its own, so
/// that one fault costs the points of the part it is in, once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    /// What the program did: its play in the game (game mode), its text
    /// (text mode, as an autograder sees it), or what a function did.
    Play,
    /// How it printed the parts of its text the case names (game mode's
    /// `format_points`).
    Format,
    /// How its run ended: where it stopped and how (`ending_points`).
    Ending,
}

impl Part {
    /// How a sentence names the part.
    pub fn words(self) -> &'static str {
        match self {
            Part::Play => "the play",
            Part::Format => "the text",
            Part::Ending => "how it ends",
        }
    }
}

/// One part of a case: the points it is worth and whether they were
/// earned.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartScore {
    /// Which part.
    pub part: Part,
    /// The points it is worth.
    pub points: f64,
    /// Whether they were earned.
    pub earned: bool,
}

/// A verdict, the sentence that explains it, and the case's parts.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The verdict: the fault that cost points, or `pass`.
    pub verdict: Verdict,
    /// Why, in words a first-year student understands.
    pub reason: String,
    /// What each part was worth and whether it was earned; empty when the
    /// program never ran.
    pub parts: Vec<PartScore>,
}

impl Judgement {
    /// A judgement in which nothing was earned.
    pub fn nothing(verdict: Verdict, reason: impl Into<String>) -> Judgement {
        Judgement {
            verdict,
            reason: reason.into(),
            parts: Vec::new(),
        }
    }

    /// The points earned.
    pub fn score(&self) -> f64 {
        // (A fold from 0.0: an empty float sum is -0.0.)
        self.parts
            .iter()
            .filter(|p| p.earned)
            .fold(0.0, |total, p| total + p.points)
    }

    /// The part `part`, if the case has it.
    pub fn part(&self, part: Part) -> Option<&PartScore> {
        self.parts.iter().find(|p| p.part == part)
    }
}

/// How the reference's run of a case ended: what a program's ending is
/// judged against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReferenceEnd {
    /// Input lines it read.
    pub read: usize,
    /// Whether it was still waiting for input at the end (it asked for
    /// more than the case has).
    pub waited: bool,
    /// The status it exited with, when it did not wait (0 for the
    /// built-in games).
    pub status: i32,
}

impl ReferenceEnd {
    /// What the reference did at the end, to follow "your program":
    /// "asked again for input after input line 2", "stopped after input
    /// line 3 with exit status 0".
    pub fn what(&self) -> String {
        if self.waited {
            format!("asked again for input {}", after_reading(self.read))
        } else {
            format!(
                "stopped {} with exit status {}",
                after_reading(self.read),
                self.status
            )
        }
    }
}

/// How a run ended when it did not end as the reference's did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndingFault {
    /// It was still waiting for input where the reference had stopped.
    Waiting,
    /// It exited after reading fewer lines than the reference read.
    Stopped {
        /// Lines it read.
        read: usize,
        /// Lines the reference read.
        reference: usize,
    },
    /// It exited with another status than the reference's; `early` when
    /// that was before reading input the reference read (then the status
    /// always counts: the program stopped abnormally).
    Status {
        /// The status.
        code: i32,
        /// Whether it exited before the reference's end.
        early: bool,
        /// The reference's status.
        reference: i32,
    },
    /// It exited where the reference asked again for input (judged only
    /// in `mode: ending`, where asking again is the point).
    NotAsked {
        /// The status it exited with.
        code: i32,
    },
    /// It read more input lines than the reference, which had stopped
    /// (judged only in `mode: ending`).
    ReadOn {
        /// Lines it read.
        read: usize,
        /// Lines the reference read.
        reference: usize,
    },
    /// A signal killed it.
    Signal(i32),
    /// An exception nothing caught ended it (Python's traceback, Java's
    /// `Exception in thread "main"`): a crash, whatever status the
    /// interpreter then exits with, as a signal is for C.
    Exception(Uncaught),
    /// A time limit ran out.
    Timeout,
    /// It printed more than the output limit.
    OutputLimit,
    /// It failed close to its memory limit.
    MemoryLimit,
}

impl EndingFault {
    /// How a run ended, against how the reference's did: `None` when the
    /// same. `read`: input lines the program read.
    pub fn of(ending: Ending, read: usize, reference: ReferenceEnd) -> Option<EndingFault> {
        let early = read < reference.read;
        match ending {
            // A program that exits at the end of the input stops as the
            // reference does there (SPEC: it stops quietly); one that
            // stops sooner does not.
            Ending::Exited(code) if code == reference.status && early => {
                Some(EndingFault::Stopped {
                    read,
                    reference: reference.read,
                })
            }
            Ending::Exited(code) if code == reference.status => None,
            Ending::Exited(code) => Some(EndingFault::Status {
                code,
                early,
                reference: reference.status,
            }),
            Ending::WaitingForInput if reference.waited => None,
            Ending::WaitingForInput => Some(EndingFault::Waiting),
            Ending::Signaled(signal) => Some(EndingFault::Signal(signal)),
            Ending::TimedOut(_) => Some(EndingFault::Timeout),
            Ending::OutputLimit => Some(EndingFault::OutputLimit),
            Ending::MemoryLimit => Some(EndingFault::MemoryLimit),
        }
    }

    /// How a run ended, judged as `mode: ending` judges it: as
    /// [`EndingFault::of`], and moreover a program must ask again where
    /// the reference asks again (not stop at the end of the input), and
    /// stop where it stops (not read on).
    pub fn exactly(ending: Ending, read: usize, reference: ReferenceEnd) -> Option<EndingFault> {
        match ending {
            Ending::Exited(code) if reference.waited && read >= reference.read => {
                Some(EndingFault::NotAsked { code })
            }
            Ending::Exited(_) if read > reference.read => Some(EndingFault::ReadOn {
                read,
                reference: reference.read,
            }),
            _ => Self::of(ending, read, reference),
        }
    }

    /// The verdict a case gets when this fault costs it points.
    pub fn verdict(self) -> Verdict {
        match self {
            EndingFault::Waiting => Verdict::WaitingForInput,
            EndingFault::Stopped { .. }
            | EndingFault::NotAsked { .. }
            | EndingFault::ReadOn { .. }
            | EndingFault::Status { code: 0, .. } => Verdict::WrongOutput,
            EndingFault::Status { .. } | EndingFault::Signal(_) | EndingFault::Exception(_) => {
                Verdict::Crashed
            }
            EndingFault::Timeout => Verdict::Timeout,
            EndingFault::OutputLimit => Verdict::OutputLimit,
            EndingFault::MemoryLimit => Verdict::MemoryLimit,
        }
    }

    /// The statuses, the program's and the reference's, when the fault
    /// is only that: it exited where the reference exits, with another
    /// status.
    pub fn only_status(self) -> Option<(i32, i32)> {
        match self {
            EndingFault::Status {
                code,
                early: false,
                reference,
            } => Some((code, reference)),
            _ => None,
        }
    }

    /// The verdict when this fault is the case's only difference: its
    /// own words for a status alone, else [`EndingFault::verdict`].
    pub fn verdict_alone(self) -> Verdict {
        match self.only_status() {
            Some(_) => Verdict::ExitStatus,
            None => self.verdict(),
        }
    }

    /// Whether the program was stopped, or stopped itself abnormally,
    /// rather than ending in the wrong place: such a fault names the
    /// verdict even when the play was wrong too.
    pub(crate) fn is_abnormal(self) -> bool {
        !matches!(
            self,
            EndingFault::Stopped { .. }
                | EndingFault::NotAsked { .. }
                | EndingFault::ReadOn { .. }
                | EndingFault::Status { early: false, .. }
        )
    }

    /// The fault in a sentence, starting "your program ...".
    pub fn sentence(self, limits: &Limits) -> String {
        format!("your program {}", self.what(limits))
    }

    /// What the program did, to follow "your program": "was still
    /// waiting for input when the case's input ran out".
    pub fn what(self, limits: &Limits) -> String {
        match self {
            EndingFault::Waiting => {
                "was still waiting for input when the case's input ran out".into()
            }
            EndingFault::Stopped { read, reference } => format!(
                "stopped {}; the reference went on to read input {}",
                after_reading(read),
                lines_from(read + 1, reference)
            ),
            EndingFault::ReadOn { read, reference } => format!(
                "went on to read input {} where the reference stopped {}",
                lines_from(reference + 1, read),
                after_reading(reference)
            ),
            EndingFault::NotAsked { code } => {
                format!("stopped (exit status {code}) where the reference asked again for input")
            }
            EndingFault::Status {
                code,
                early,
                reference,
            } => {
                let when = if early {
                    " before the reference's game was over"
                } else {
                    ""
                };
                if reference == 0 {
                    format!("exited with status {code}{when}; a program that ends normally exits with 0")
                } else {
                    format!("exited with status {code}{when}; the reference exits with {reference}")
                }
            }
            EndingFault::Signal(signal) => {
                format!("crashed: {}", signal_words(signal))
            }
            EndingFault::Exception(uncaught) => {
                format!("crashed: {}", uncaught.describe())
            }
            EndingFault::OutputLimit => {
                format!(
                    "printed more than {} (or {} lines) and was stopped",
                    size(limits.output),
                    crate::text::visible::thousands(limits.lines() as u64)
                )
            }
            EndingFault::MemoryLimit => format!(
                "ran out of memory (it may use {})",
                size(limits.memory.unwrap_or(0))
            ),
            // Which clock runs out first depends on how busy the machine
            // is, so the sentence names both: the same program gets the
            // same words.
            EndingFault::Timeout => format!(
                "was still running when its time ran out ({} on the clock, {} of \
                 processor time) and was stopped: an endless loop, or waiting for something that \
                 never comes?",
                seconds(limits.wall),
                seconds(limits.cpu)
            ),
        }
    }
}

/// "exited with status 0 where the reference exits with 1": a status
/// that is the only difference, said plainly.
pub fn status_apart(code: i32, reference: i32) -> String {
    format!("exited with status {code} where the reference exits with {reference}")
}

/// "after input line 3", "before reading any input".
fn after_reading(read: usize) -> String {
    match read {
        0 => "before reading any input".to_string(),
        n => format!("after input line {n}"),
    }
}

/// "line 4", "lines 4 to 6".
fn lines_from(first: usize, last: usize) -> String {
    if first >= last {
        format!("line {last}")
    } else {
        format!("lines {first} to {last}")
    }
}

/// A signal's name and what it usually means in a student's program.
pub(crate) fn signal_words(signal: i32) -> String {
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
