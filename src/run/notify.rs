//! Answering the calls a slot's listener holds (see
//! [`crate::sandbox::listener`]): receiving each held call, checking it is
//! still held, and replying.
//!
//! Every process a run starts inherits the filter, so wrappers (`sh -c`,
//! a Python script started by a shell script) are followed too.

use std::io;
use std::mem::zeroed;
use std::os::fd::{AsRawFd, BorrowedFd};

/// The runner's end of a slot's listener: one notification per held
/// call.
pub struct Notifier<'a> {
    fd: BorrowedFd<'a>,
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

impl<'a> Notifier<'a> {
    /// The runner's end of a slot's listener.
    pub fn new(fd: BorrowedFd<'a>) -> Notifier<'a> {
        Notifier { fd }
    }

    /// The descriptor to poll: readable when a read call is held.
    pub fn as_fd(&self) -> BorrowedFd<'a> {
        self.fd
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

    /// Lets the held call go ahead unanswered, for whoever runs a program
    /// without answering for its terminal (a build tool, a program watched
    /// in `/proc`).
    pub fn let_through(&self) -> io::Result<()> {
        match self.receive()? {
            Some(call) => self.reply(&call, Reply::Continue),
            None => Ok(()),
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
