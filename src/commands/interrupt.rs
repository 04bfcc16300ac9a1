//! Stopping `grade` cleanly when asked to: SIGINT (Ctrl-C, GNU `timeout
//! -s INT`) and SIGTERM (Slurm, Kubernetes, `docker stop`, systemd,
//! `timeout`'s default).
//!
//! The first signal stops new submissions from starting: those in
//! progress finish. The second stops the runs in progress now (their
//! submissions are not graded). Either way grading returns, the reports
//! of what was graded are written, the output folder is left for the
//! same command to finish, referee's temporary folders and control
//! groups are removed, and referee exits 128 + the first signal's number
//! (130 for SIGINT, 143 for SIGTERM). A third signal exits at once.
//!
//! The handler only counts and writes a byte to a pipe (all a signal
//! handler may safely do); a thread reading the pipe does the rest.

use std::os::fd::{AsFd, IntoRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

/// Signals received so far.
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// The first signal received, 0 before any.
static FIRST: AtomicI32 = AtomicI32::new(0);
/// The pipe's writing end, -1 before [`install`].
static PIPE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_signal(signal: libc::c_int) {
    let n = COUNT.fetch_add(1, Ordering::SeqCst) + 1;
    if n == 1 {
        FIRST.store(signal, Ordering::SeqCst);
    }
    if n >= 3 {
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(128 + signal) };
    }
    let byte = n as u8;
    // SAFETY: write is async-signal-safe; the pipe outlives the process.
    unsafe {
        libc::write(PIPE.load(Ordering::SeqCst), (&byte as *const u8).cast(), 1);
    }
}

/// Why SIGINT and SIGTERM cannot be handled: grading goes on, and a
/// signal then stops it at once, with no reports (the caller says so).
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The pipe from the handler to its thread could not be made.
    #[error("cannot make a pipe: {0} (too many open files? raise `ulimit -n`)")]
    Pipe(nix::Error),
    /// The thread that acts on signals could not start.
    #[error("cannot start a thread: {0} (too many processes? raise `ulimit -u`)")]
    Thread(std::io::Error),
    /// The handler could not be installed.
    #[error("cannot handle {signal}: {source}")]
    Handler {
        /// The signal.
        signal: nix::sys::signal::Signal,
        /// Why.
        source: nix::Error,
    },
}

/// Handles SIGINT and SIGTERM as the module says: `stop` is set on the
/// first, [`referee::run::HALT`] on the second.
pub fn install(stop: &'static AtomicBool) -> Result<(), InstallError> {
    let (read, write) =
        nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(InstallError::Pipe)?;
    PIPE.store(write.into_raw_fd(), Ordering::SeqCst);
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || watch(read, stop))
        .map_err(InstallError::Thread)?;
    let action = nix::sys::signal::SigAction::new(
        nix::sys::signal::SigHandler::Handler(on_signal),
        nix::sys::signal::SaFlags::SA_RESTART,
        nix::sys::signal::SigSet::empty(),
    );
    for signal in [nix::sys::signal::SIGINT, nix::sys::signal::SIGTERM] {
        // SAFETY: the handler only touches atomics and calls write and
        // _exit, which are async-signal-safe.
        unsafe { nix::sys::signal::sigaction(signal, &action) }
            .map_err(|source| InstallError::Handler { signal, source })?;
    }
    Ok(())
}

/// What the signals ask for, as they come.
fn watch(read: OwnedFd, stop: &AtomicBool) {
    let mut byte = [0u8; 1];
    while let Ok(1) = nix::unistd::read(read.as_fd(), &mut byte) {
        let name = name(FIRST.load(Ordering::SeqCst));
        if byte[0] == 1 {
            stop.store(true, Ordering::SeqCst);
            eprintln!(
                "\nreferee: {name}: stopping after the submissions in progress ({} again to stop \
                 them now; what was graded is kept)",
                if name == "SIGINT" {
                    "Ctrl-C"
                } else {
                    "the same signal"
                }
            );
        } else {
            stop.store(true, Ordering::SeqCst);
            referee::run::HALT.store(true, Ordering::SeqCst);
            eprintln!(
                "\nreferee: stopping the runs in progress now: their submissions are not graded \
                 (a third signal exits at once, without reports)"
            );
        }
    }
}

/// "SIGINT", "SIGTERM".
fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// The exit code for a run a signal stopped (128 + its number), if one
/// did.
pub fn exit_code() -> Option<u8> {
    let first = FIRST.load(Ordering::SeqCst);
    u8::try_from(128 + first).ok().filter(|_| first > 0)
}

/// The first signal's name, once one came.
pub fn first_name() -> Option<&'static str> {
    let first = FIRST.load(Ordering::SeqCst);
    (first > 0).then(|| name(first))
}
