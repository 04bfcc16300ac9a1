//! Knowing, without polling, when a program is about to read its terminal,
//! and answering its terminal's calls from the runner.
//!
//! A seccomp filter installed in the child just before `exec` turns some
//! system calls into notifications to the runner, holding the caller
//! until the runner answers:
//!
//! - every `read` of file descriptor 0: the program is about to wait for
//!   input, so the runner collects what it printed and gives it the next
//!   line (or ends the run when the case has none left);
//! - `ioctl`, `fstat`, `newfstatat` and `statx` on descriptors 1 and 2:
//!   with notifications the program's output goes to a pipe, and these
//!   are the calls by which it asks whether that is a terminal (see
//!   [`super::serve`]).
//!
//! Every process the program starts inherits the filter, so wrappers
//! (`sh -c`, a Python script started by a shell script) are followed too.
//! The filter restricts nothing (the sandbox's allowlist does), and it is
//! small enough to read: it checks the architecture first and lets every
//! other call through. seccompiler cannot express `SECCOMP_RET_USER_NOTIF`,
//! so this one filter is written out here. Linux 5.5 or later; where it
//! cannot be installed the runner falls back to [`super::procfs`].

use std::io;
use std::mem::zeroed;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};

/// The audit architecture the filter matches, so a 32-bit syscall with the
/// same number is not mistaken for `read`.
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;

/// `SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP` (Linux 6.6): wake the waiting
/// program on the runner's CPU, which halves the cost of each read.
const SYNC_WAKE_UP: u64 = 1;

/// The runner's end: one notification per held call.
pub struct Notifier {
    fd: OwnedFd,
}

/// A held system call, waiting for the runner's answer.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    /// Identifies the call when answering.
    pub id: u64,
    /// The process (thread) making it.
    pub pid: i32,
    /// The system call's number.
    pub nr: i64,
    /// Its arguments.
    pub args: [u64; 6],
}

impl Call {
    /// The first argument as the file descriptor it is.
    pub fn fd(&self) -> i32 {
        self.args[0] as u32 as i32
    }
}

/// How the runner answers a held call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Let the kernel carry it out as if nothing had held it.
    Continue,
    /// It returns this value without the kernel carrying it out.
    Return(i64),
    /// It fails with this errno.
    Fail(i32),
}

/// Whether this build can use notifications at all.
pub const SUPPORTED: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// The filter a run's program installs last before `exec`, whose
/// listener it hands to the runner (see [`crate::sandbox::Jail::spawn`]).
pub fn filter() -> &'static [libc::sock_filter] {
    notifying_filter()
}

impl Notifier {
    /// The runner's end of a program's filter.
    pub fn new(fd: OwnedFd) -> Notifier {
        // Best effort: older kernels lack the flag and work without it.
        // SAFETY: the ioctl takes a u64 flag value.
        unsafe {
            libc::ioctl(
                fd.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_SET_FLAGS,
                SYNC_WAKE_UP,
            );
        }
        Notifier { fd }
    }

    /// The descriptor to poll: readable when a read call is held.
    pub fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    /// The held call, if it is still there (the caller may have been
    /// killed meanwhile).
    pub fn receive(&self) -> io::Result<Option<Call>> {
        // SAFETY: the kernel requires a zeroed struct and fills it in.
        let mut notif: libc::seccomp_notif = unsafe { zeroed() };
        // SAFETY: RECV writes one seccomp_notif through the pointer.
        let rc = unsafe {
            libc::ioctl(
                self.fd.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_RECV,
                &mut notif,
            )
        };
        if rc < 0 {
            let err = io::Error::last_os_error();
            return match err.raw_os_error() {
                Some(libc::ENOENT) | Some(libc::EINTR) | Some(libc::EAGAIN) => Ok(None),
                _ => Err(err),
            };
        }
        Ok(Some(Call {
            id: notif.id,
            pid: notif.pid as i32,
            nr: i64::from(notif.data.nr),
            args: notif.data.args,
        }))
    }

    /// Whether the held call is still held: its process has not been
    /// killed since, so its pid still names it. Checked before touching
    /// the process's memory.
    pub fn still_held(&self, call: &Call) -> bool {
        let mut id = call.id;
        // SAFETY: ID_VALID reads one u64 through the pointer.
        unsafe {
            libc::ioctl(
                self.fd.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_ID_VALID,
                &mut id,
            ) == 0
        }
    }

    /// Answers a held call.
    pub fn reply(&self, call: &Call, reply: Reply) -> io::Result<()> {
        let (val, error, flags) = match reply {
            Reply::Continue => (0, 0, libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32),
            Reply::Return(val) => (val, 0, 0),
            Reply::Fail(errno) => (0, -errno, 0),
        };
        let mut resp = libc::seccomp_notif_resp {
            id: call.id,
            val,
            error,
            flags,
        };
        // SAFETY: SEND reads one seccomp_notif_resp through the pointer.
        let rc = unsafe {
            libc::ioctl(
                self.fd.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_SEND,
                &mut resp,
            )
        };
        if rc < 0 {
            let err = io::Error::last_os_error();
            // The caller died while held: nothing to answer.
            if err.raw_os_error() == Some(libc::ENOENT) {
                return Ok(());
            }
            return Err(err);
        }
        Ok(())
    }
}

/// The calls that ask about a terminal, held when made on descriptor 1
/// or 2.
pub const TERMINAL_QUESTIONS: [libc::c_long; 4] = [
    libc::SYS_ioctl,
    libc::SYS_fstat,
    libc::SYS_newfstatat,
    libc::SYS_statx,
];

/// `read` on descriptor 0 and [`TERMINAL_QUESTIONS`] on descriptors 1 and
/// 2 notify; everything else is allowed. The same for every run: made
/// once.
fn notifying_filter() -> &'static [libc::sock_filter] {
    static FILTER: std::sync::OnceLock<Box<[libc::sock_filter]>> = std::sync::OnceLock::new();
    FILTER.get_or_init(build_notifying_filter)
}

fn build_notifying_filter() -> Box<[libc::sock_filter]> {
    const ARCH: u32 = 4; // offsetof(struct seccomp_data, arch)
    const NR: u32 = 0; // offsetof(struct seccomp_data, nr)
    const ARG0_LOW: u32 = 16; // low 32 bits of args[0] (little-endian)
    let load = |offset| stmt((libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16, offset);
    let jeq = |value: libc::c_long, jt: u8, jf: u8| {
        jump(
            (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
            value as u32,
            jt,
            jf,
        )
    };
    let ret = |value| stmt((libc::BPF_RET | libc::BPF_K) as u16, value);
    let [ioctl, fstat, fstatat, statx] = TERMINAL_QUESTIONS;
    // Jumps count the instructions skipped; the labels on the right are
    // where they land.
    vec![
        load(ARCH),                             // 0
        jeq(AUDIT_ARCH as libc::c_long, 0, 12), // 1: else ALLOW
        load(NR),                               // 2
        jeq(libc::SYS_read, 4, 0),              // 3: READ
        jeq(ioctl, 5, 0),                       // 4: OUTPUT
        jeq(fstat, 4, 0),                       // 5: OUTPUT
        jeq(fstatat, 3, 0),                     // 6: OUTPUT
        jeq(statx, 2, 6),                       // 7: OUTPUT, else ALLOW
        load(ARG0_LOW),                         // 8: READ
        jeq(0, 3, 4),                           // 9: NOTIFY, else ALLOW
        load(ARG0_LOW),                         // 10: OUTPUT
        jeq(1, 1, 0),                           // 11: NOTIFY
        jeq(2, 0, 1),                           // 12: NOTIFY, else ALLOW
        ret(libc::SECCOMP_RET_USER_NOTIF),      // 13: NOTIFY
        ret(libc::SECCOMP_RET_ALLOW),           // 14: ALLOW
    ]
    .into_boxed_slice()
}

fn stmt(code: u16, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u16, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}
