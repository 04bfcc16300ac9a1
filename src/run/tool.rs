//! Running a build tool (the C compiler, Python's syntax check) in the
//! sandbox: stdin and stdout empty, its messages into a file, no
//! terminal at all, stopped (with everything it started) after a time
//! limit.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Seek};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use super::stop::{halted, halted_error, Pressure, HALT_EVERY};
use crate::sandbox::{Ended, Jail, Stdio};

/// How a tool's run ended.
#[derive(Debug)]
pub struct ToolRun {
    /// Its wait status, unless it was stopped.
    pub status: Option<i32>,
    /// Whether it was stopped at the time limit.
    pub timed_out: bool,
    /// What it wrote to stderr (and stdout), up to the limit.
    pub messages: String,
    /// It failed after an out-of-memory killer struck for a limit not its
    /// own (the job's or the machine's memory ran out): no fault of the
    /// code it was given.
    pub job_out_of_memory: bool,
}

impl ToolRun {
    /// Whether it exited with status 0.
    pub fn succeeded(&self) -> bool {
        self.status
            .is_some_and(|s| libc::WIFEXITED(s) && libc::WEXITSTATUS(s) == 0)
    }

    /// The signal that killed it, if one did.
    pub fn signal(&self) -> Option<i32> {
        self.status
            .filter(|&s| libc::WIFSIGNALED(s))
            .map(|s| libc::WTERMSIG(s))
    }
}

/// Runs `argv` in `jail` for at most `timeout`, keeping at most
/// `messages_limit` bytes of what it says.
pub fn run(
    jail: &Jail,
    argv: &[OsString],
    timeout: Duration,
    messages_limit: u64,
) -> io::Result<ToolRun> {
    let null = File::open("/dev/null")?;
    // An anonymous file: nothing to drain while the tool runs.
    let mut messages = tempfile::tempfile()?;
    let pressure = Pressure::before(jail);
    jail.spawn(
        argv,
        Stdio {
            stdin: null.as_fd(),
            stdout: messages.as_fd(),
            stderr: messages.as_fd(),
        },
        false,
    )?;
    let (ended, timed_out) = wait(jail, timeout)?;
    let mut text = Vec::new();
    messages.rewind()?;
    messages.take(messages_limit).read_to_end(&mut text)?;
    let mut ran = ToolRun {
        status: if timed_out { None } else { ended.status },
        timed_out,
        messages: String::from_utf8_lossy(&text).into_owned(),
        job_out_of_memory: false,
    };
    ran.job_out_of_memory =
        !ran.succeeded() && jail.hit_memory_limit() != Some(true) && pressure.grew(jail);
    Ok(ran)
}

/// Waits for the run's end, stopping it at `timeout`; whether it timed out.
fn wait(jail: &Jail, timeout: Duration) -> io::Result<(Ended, bool)> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok((jail.stop()?, true));
        }
        if halted() {
            jail.stop()?;
            return Err(halted_error());
        }
        jail.wait_letting_through(left.min(HALT_EVERY))?;
        if let Some(ended) = jail.ended()? {
            return Ok((ended, false));
        }
    }
}
