//! Knowing when a program waits for input by looking at it in `/proc`:
//! the fallback where [`crate::sandbox::listener`] is not available (seccomp blocked
//! by a container, an old kernel).
//!
//! A program is waiting for input when it is sleeping (`S` in
//! `/proc/PID/stat`) inside `read` on file descriptor 0
//! (`/proc/PID/syscall`) and the terminal holds no unread input. Only the
//! program's own process is watched, and the runner must look repeatedly,
//! backing off while the program computes.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::time::Duration;

/// Reads a running process's state through files opened once.
pub struct Watcher {
    stat: File,
    syscall: File,
    status: File,
    delay: Duration,
}

const FIRST_DELAY: Duration = Duration::from_micros(20);
const LONGEST_DELAY: Duration = Duration::from_millis(5);

impl Watcher {
    /// Opens the files of process `pid`; fails where `/proc` does not show
    /// system calls.
    pub fn new(pid: i32) -> io::Result<Watcher> {
        let watcher = Watcher {
            stat: File::open(format!("/proc/{pid}/stat"))?,
            syscall: File::open(format!("/proc/{pid}/syscall"))?,
            status: File::open(format!("/proc/{pid}/status"))?,
            delay: FIRST_DELAY,
        };
        watcher.current_syscall()?;
        Ok(watcher)
    }

    /// Whether this machine's `/proc` shows the system call a process is
    /// blocked in. Looked at once.
    pub fn available() -> bool {
        static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *AVAILABLE.get_or_init(|| {
            let mut buf = [0u8; 64];
            File::open("/proc/self/syscall")
                .and_then(|f| f.read_at(&mut buf, 0))
                .is_ok()
        })
    }

    /// How long to wait before looking again.
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// The program did something (printed, or was given input): look again
    /// soon.
    pub fn reset(&mut self) {
        self.delay = FIRST_DELAY;
    }

    /// How many times the process has gone to sleep: once it has read
    /// the end of input it was given (which leaves nothing unread on the
    /// terminal to tell by), a read it sleeps in again is a new one.
    pub fn sleeps(&self) -> io::Result<u64> {
        let mut buf = [0u8; 4096];
        let n = self.status.read_at(&mut buf, 0)?;
        let text = String::from_utf8_lossy(&buf[..n]);
        Ok(text
            .lines()
            .find_map(|line| line.strip_prefix("voluntary_ctxt_switches:"))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0))
    }

    /// Whether the process sleeps in `read(0, ...)`. Doubles the delay
    /// before the next look when it does not.
    pub fn sleeps_reading_stdin(&mut self) -> io::Result<bool> {
        let waiting = self.is_sleeping()? && self.current_syscall()?.is_some_and(is_read_of_stdin);
        if !waiting {
            self.delay = (self.delay * 2).min(LONGEST_DELAY);
        }
        Ok(waiting)
    }

    fn is_sleeping(&self) -> io::Result<bool> {
        let mut buf = [0u8; 512];
        let n = self.stat.read_at(&mut buf, 0)?;
        let text = &buf[..n];
        // The state follows the command name, which is in parentheses and
        // may itself contain parentheses and spaces.
        let Some(close) = text.iter().rposition(|&b| b == b')') else {
            return Ok(false);
        };
        Ok(text.get(close + 2) == Some(&b'S'))
    }

    fn current_syscall(&self) -> io::Result<Option<(i64, u64)>> {
        let mut buf = [0u8; 256];
        let n = self.syscall.read_at(&mut buf, 0)?;
        let text = String::from_utf8_lossy(&buf[..n]);
        let mut fields = text.split_whitespace();
        let nr = fields.next().and_then(|f| f.parse::<i64>().ok());
        let arg0 = fields
            .next()
            .and_then(|f| u64::from_str_radix(f.trim_start_matches("0x"), 16).ok());
        Ok(nr.zip(arg0))
    }
}

fn is_read_of_stdin((nr, fd): (i64, u64)) -> bool {
    nr == libc::SYS_read && fd as u32 == 0
}
