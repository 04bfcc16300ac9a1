//! What a run may use, and the environment it runs in.

use std::ffi::OsString;
use std::time::Duration;

/// What a run may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time on the clock, from start to end.
    pub wall: Duration,
    /// Processor time; enforced in whole seconds, rounded up.
    pub cpu: Duration,
    /// Bytes of output kept; printing more ends the run (and so does
    /// printing more than [`Limits::lines`] lines).
    pub output: u64,
    /// Memory, in bytes: the run's processes together where control
    /// groups allow it, and each process's address space everywhere;
    /// `None` for no limit.
    pub memory: Option<u64>,
    /// The largest file the program may write, in bytes.
    pub file_size: u64,
}

impl Default for Limits {
    /// Generous for first-year programs that finish in milliseconds:
    /// limits catch runaway programs, never slow ones.
    fn default() -> Self {
        Limits {
            wall: Duration::from_secs(10),
            cpu: Duration::from_secs(5),
            output: 1 << 20,
            memory: Some(512 << 20),
            file_size: 16 << 20,
        }
    }
}

/// Bytes of the output limit per line a run may print: 65,536 lines for
/// the default mebibyte.
const BYTES_PER_LINE: u64 = 16;

/// The descriptors a program may hold open.
const OPEN_FILES: u64 = 256;

impl Limits {
    /// Lines of output kept: one per 16 bytes of the output limit (65,536
    /// for the default mebibyte, at least 1,024); printing more ends the
    /// run as printing too many bytes does. A line costs judging and
    /// reports far more than its bytes (a program printing only newlines
    /// fills a mebibyte with a million lines), so the lines are bounded
    /// too; a console program's lines average far more than 16 bytes.
    pub fn lines(&self) -> usize {
        let lines = (self.output / BYTES_PER_LINE).max(1024);
        usize::try_from(lines).unwrap_or(usize::MAX)
    }

    /// The resource limits a child sets before `exec`: `(resource, soft,
    /// hard)`, with `processes` for `RLIMIT_NPROC` where it is enforced,
    /// and `address_space` for `RLIMIT_AS` where it is not the memory
    /// limit.
    pub fn rlimits(&self, processes: Option<u64>, address_space: Option<u64>) -> [[u64; 3]; 6] {
        let cpu = self.cpu.as_secs_f64().ceil().max(1.0) as u64;
        let memory = address_space.or(self.memory).unwrap_or(libc::RLIM_INFINITY);
        let unused = [u64::from(u32::MAX), 0, 0];
        [
            // SIGXCPU at the limit, SIGKILL a second later.
            [libc::RLIMIT_CPU as u64, cpu, cpu + 1],
            [libc::RLIMIT_AS as u64, memory, memory],
            [libc::RLIMIT_FSIZE as u64, self.file_size, self.file_size],
            [libc::RLIMIT_CORE as u64, 0, 0],
            [libc::RLIMIT_NOFILE as u64, OPEN_FILES, OPEN_FILES],
            processes.map_or(unused, |n| [libc::RLIMIT_NPROC as u64, n, n]),
        ]
    }
}

/// The clean environment programs run in: the same on every machine and
/// nothing of the grader's (no tokens, no `PYTHON*`). Locale and terminal
/// are fixed; `HOME` is the run's working folder and `TMPDIR` its
/// temporary folder (as the program sees them).
pub fn clean_env(home: &std::path::Path, tmp: &std::path::Path) -> Vec<(OsString, OsString)> {
    [
        ("PATH", OsString::from("/usr/local/bin:/usr/bin:/bin")),
        ("HOME", home.as_os_str().to_os_string()),
        ("TMPDIR", tmp.as_os_str().to_os_string()),
        ("LANG", OsString::from("C.UTF-8")),
        ("LC_ALL", OsString::from("C.UTF-8")),
        ("TERM", OsString::from("dumb")),
        ("USER", OsString::from("student")),
        ("LOGNAME", OsString::from("student")),
    ]
    .into_iter()
    .map(|(k, v)| (OsString::from(k), v))
    .collect()
}
