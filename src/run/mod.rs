//! Running a program against a case's input: on a pseudo-terminal, one
//! input line each time it waits to read, under limits, and recording a
//! [`Transcript`].
//!
//! This is the one place processes are started and stopped. The pieces:
//! [`pty`] (the terminal), [`spawn`] (starting the program in its own
//! session under resource limits), [`notify`] and [`procfs`] (knowing when
//! it waits for input), and the session loop that ties them together.

use std::ffi::OsString;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::notice;
use crate::transcript::Transcript;

mod notify;
mod procfs;
pub mod pty;
mod session;
mod spawn;

use session::{Detector, Session};

/// A command to run: the program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// `argv`, starting with the program's path.
    pub argv: Vec<OsString>,
}

impl Program {
    /// A program run without arguments.
    pub fn new(path: impl Into<OsString>) -> Program {
        Program {
            argv: vec![path.into()],
        }
    }
}

/// What a run may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time on the clock, from start to end.
    pub wall: Duration,
    /// Processor time; enforced in whole seconds, rounded up.
    pub cpu: Duration,
    /// Bytes of output kept; printing more ends the run.
    pub output: u64,
    /// Address space, in bytes; `None` for no limit.
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

/// How input is given to the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feed {
    /// One line each time the program waits to read, detected by the best
    /// means this machine has.
    Interactive,
    /// Every line at once, at the start (where waiting cannot be detected).
    AllAtOnce,
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
}

/// The clean environment programs run in: the same on every machine and
/// nothing of the grader's (no tokens, no `PYTHON*`). Locale and terminal
/// are fixed; `HOME` and `TMPDIR` are the run's own directory.
pub fn clean_env(workdir: &Path) -> Vec<(OsString, OsString)> {
    let dir = workdir.as_os_str().to_os_string();
    [
        ("PATH", OsString::from("/usr/local/bin:/usr/bin:/bin")),
        ("HOME", dir.clone()),
        ("TMPDIR", dir),
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

/// How waits are detected, when `REFEREE_DETECT` forces it: `notify`
/// (seccomp notifications), `proc` (the `/proc` fallback) or `none` (type
/// everything at once). For tests, and for machines where detection
/// misbehaves.
fn forced_detection() -> Option<&'static str> {
    static FORCED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    FORCED
        .get_or_init(|| std::env::var("REFEREE_DETECT").ok())
        .as_deref()
}

/// What this process has learnt about detecting waits.
static DETECTION: AtomicU8 = AtomicU8::new(UNTRIED);
const UNTRIED: u8 = 0;
const NOTIFY_WORKS: u8 = 1;
const NOTIFY_FAILS: u8 = 2;

/// Runs `program` in `workdir` with `env`, giving it `inputs` (lines
/// without newlines). Errors are the runner's own (no terminal, no such
/// program); everything the program does is in the [`RunResult`].
pub fn run(
    program: &Program,
    inputs: &[String],
    limits: &Limits,
    workdir: &Path,
    env: &[(OsString, OsString)],
    feed: Feed,
) -> io::Result<RunResult> {
    let forced = forced_detection();
    if feed == Feed::Interactive
        && notify::SUPPORTED
        && matches!(forced, None | Some("notify"))
        && DETECTION.load(Ordering::Relaxed) != NOTIFY_FAILS
    {
        match run_notified(program, inputs, limits, workdir, env) {
            Ok(result) => {
                DETECTION.store(NOTIFY_WORKS, Ordering::Relaxed);
                return Ok(result);
            }
            // Once notifications worked, a failure is the program's (say,
            // a missing file), not the filter's.
            Err(e) if DETECTION.load(Ordering::Relaxed) == NOTIFY_WORKS => return Err(e),
            Err(_) => DETECTION.store(NOTIFY_FAILS, Ordering::Relaxed),
        }
    }
    let start = |pty: &pty::Pty| spawn::start(program, workdir, env, limits, pty, None);
    if feed == Feed::Interactive && forced != Some("none") && procfs::Watcher::available() {
        let pty = pty::Pty::open()?;
        let started_at = Instant::now();
        let started = start(&pty)?;
        if let Ok(watcher) = procfs::Watcher::new(started.pid) {
            return session(
                pty,
                started,
                Detector::Watch(watcher),
                inputs,
                limits,
                started_at,
            )
            .run();
        }
        return session(
            pty,
            started,
            Detector::AllAtOnce,
            inputs,
            limits,
            started_at,
        )
        .run();
    }
    if feed == Feed::Interactive {
        notice::once(
            "all-at-once",
            "this system cannot tell when a program waits for input, so each case's \
             input is typed all at once at the start; transcripts show every input first",
        );
    }
    let pty = pty::Pty::open()?;
    let started_at = Instant::now();
    let started = start(&pty)?;
    session(
        pty,
        started,
        Detector::AllAtOnce,
        inputs,
        limits,
        started_at,
    )
    .run()
}

fn run_notified(
    program: &Program,
    inputs: &[String],
    limits: &Limits,
    workdir: &Path,
    env: &[(OsString, OsString)],
) -> io::Result<RunResult> {
    let pty = pty::Pty::open()?;
    let (installer, parent_end) = notify::Installer::new()?;
    let started_at = Instant::now();
    let started = spawn::start(program, workdir, env, limits, &pty, Some(&installer))?;
    drop(installer);
    let notifier = parent_end.receive()?;
    session(
        pty,
        started,
        Detector::Notify(notifier),
        inputs,
        limits,
        started_at,
    )
    .run()
}

fn session<'a>(
    pty: pty::Pty,
    started: spawn::Started,
    detector: Detector,
    inputs: &'a [String],
    limits: &'a Limits,
    started_at: Instant,
) -> Session<'a> {
    Session {
        pty,
        pid: started.pid,
        pidfd: started.pidfd,
        detector,
        inputs,
        limits,
        started: started_at,
        next: 0,
        transcript: Transcript::new(),
        buf: vec![0; 64 * 1024],
    }
}
