//! Stopping runs: grading stopped now (a second SIGTERM or SIGINT), and
//! telling that a run failed because the job's memory ran short. A leaf
//! of `run`: the runner, the session loop and build tools use it.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::sandbox::Jail;

/// Set to stop every run in progress now (a second SIGTERM or SIGINT):
/// each run's loop kills its program and fails with
/// [`io::ErrorKind::Interrupted`], and no new run starts.
pub static HALT: AtomicBool = AtomicBool::new(false);

/// A signal a whole job is stopped with (Slurm, systemd and `docker
/// stop` send SIGTERM to every process of a job; Ctrl-C SIGINT; a closed
/// terminal SIGHUP): a compiler or a program that died of one says
/// nothing of the student.
pub struct JobStop {
    /// The signal.
    pub signal: i32,
    /// Its name.
    pub name: &'static str,
    /// What `strsignal` calls it, as gcc's driver quotes it when its
    /// `cc1` dies of it.
    pub described: &'static str,
}

/// Every [`JobStop`].
pub const JOB_STOPS: [JobStop; 3] = [
    JobStop {
        signal: libc::SIGTERM,
        name: "SIGTERM",
        described: "Terminated",
    },
    JobStop {
        signal: libc::SIGINT,
        name: "SIGINT",
        described: "Interrupt",
    },
    JobStop {
        signal: libc::SIGHUP,
        name: "SIGHUP",
        described: "Hangup",
    },
];

/// The [`JobStop`] `signal` is, if it is one.
pub fn job_stop(signal: i32) -> Option<&'static JobStop> {
    JOB_STOPS.iter().find(|stop| stop.signal == signal)
}

/// Whether [`HALT`] is set.
pub fn halted() -> bool {
    HALT.load(Ordering::Relaxed)
}

/// The error of a run stopped by [`HALT`].
pub(crate) fn halted_error() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "grading was stopped")
}

/// How long a run's loop waits at most before looking whether grading
/// was stopped ([`HALT`]).
pub(crate) const HALT_EVERY: Duration = Duration::from_millis(50);

/// What tells that memory ran short during a run for a limit not the
/// run's own: the slot's control group had a process killed for memory,
/// or a group enclosing referee reached its limit (see
/// [`crate::sandbox::allocation::enclosing_pressure`]).
pub(crate) struct Pressure(Option<u64>);

impl Pressure {
    /// The count before the run.
    pub(crate) fn before(jail: &Jail) -> Pressure {
        Pressure(Self::now(jail))
    }

    fn now(jail: &Jail) -> Option<u64> {
        crate::sandbox::allocation::enclosing_pressure(!jail.has_group())
    }

    /// Whether memory ran short since [`Pressure::before`] (the caller
    /// knows the run did not reach its own limit).
    pub(crate) fn grew(&self, jail: &Jail) -> bool {
        if jail.oom_killed() == Some(true) {
            return true;
        }
        match (self.0, Self::now(jail)) {
            (Some(before), Some(now)) => now > before,
            _ => false,
        }
    }
}
