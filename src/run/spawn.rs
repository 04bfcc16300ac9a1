//! Starting a program on the terminal, in a session of its own, under
//! resource limits.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use super::notify::Installer;
use super::pty::Pty;
use super::{Limits, Place, Program};

/// A started program.
pub struct Started {
    /// Its process id; also its process group and session id.
    pub pid: i32,
    /// Readable once it has exited, so the runner never polls for that.
    pub pidfd: Option<OwnedFd>,
}

/// Applies `limits` to the calling process (a child before `exec`).
/// Async-signal-safe.
pub fn limit_resources(limits: &Limits) -> io::Result<()> {
    Rlimits::from(limits).apply()
}

/// The resource limits applied in the child, computed before `fork`.
#[derive(Clone, Copy)]
struct Rlimits([(libc::__rlimit_resource_t, libc::rlim_t, libc::rlim_t); 5]);

impl Rlimits {
    fn from(limits: &Limits) -> Rlimits {
        let cpu = limits.cpu.as_secs_f64().ceil().max(1.0) as libc::rlim_t;
        let memory = limits.memory.unwrap_or(libc::RLIM_INFINITY);
        Rlimits([
            // SIGXCPU at the limit, SIGKILL a second later.
            (libc::RLIMIT_CPU, cpu, cpu + 1),
            (libc::RLIMIT_AS, memory, memory),
            (libc::RLIMIT_FSIZE, limits.file_size, limits.file_size),
            (libc::RLIMIT_CORE, 0, 0),
            (libc::RLIMIT_NOFILE, 256, 256),
        ])
    }

    /// Async-signal-safe.
    fn apply(&self) -> io::Result<()> {
        for &(resource, soft, hard) in &self.0 {
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            // SAFETY: setrlimit reads one rlimit.
            if unsafe { libc::setrlimit(resource, &limit) } < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// Starts `program` in `workdir` with exactly `env`, its stdin, stdout and
/// stderr on the terminal's slave, as the leader of a new session whose
/// controlling terminal is that slave. With `installer`, reads of stdin
/// are reported to the runner (see [`super::notify`]).
pub fn start(
    program: &Program,
    place: &Place<'_>,
    limits: &Limits,
    pty: &Pty,
    installer: Option<&Installer>,
) -> io::Result<Started> {
    let (first, rest) = program
        .argv
        .split_first()
        .ok_or_else(|| io::Error::other("a program needs a command"))?;
    let mut command = Command::new(first);
    command
        .args(rest)
        .env_clear()
        .envs(place.env.iter().map(|(k, v)| (k, v)))
        .current_dir(place.workdir)
        .stdin(Stdio::from(pty.slave_for_child()?))
        .stdout(Stdio::from(pty.slave_for_child()?))
        .stderr(Stdio::from(pty.slave_for_child()?));
    let rlimits = Rlimits::from(limits);
    let installer = installer.map(Installer::child_side);
    let confinement = place.confinement;
    // SAFETY: the closure runs between fork and exec and only makes
    // async-signal-safe system calls on memory prepared before the fork.
    unsafe {
        command.pre_exec(move || {
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(io::Error::last_os_error());
            }
            rlimits.apply()?;
            confinement.apply()?;
            if let Some(installer) = installer {
                installer.install()?;
            }
            Ok(())
        });
    }
    let child = command.spawn()?;
    let pid = child.id() as i32;
    Ok(Started {
        pid,
        pidfd: pidfd_open(pid),
    })
}

fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open returns a new fd or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative result is a fresh fd we own.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}
