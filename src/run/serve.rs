//! Answering a program's terminal calls from the runner, so that its
//! output need not go through the kernel's terminal.
//!
//! A pseudo-terminal hands every write on to a kernel worker thread, and
//! the runner must wait for that worker before it can read what was
//! written; the same again for every line typed. On a virtual machine
//! each of these hand-overs costs tens of microseconds, and a board game
//! prints a dozen lines per move: most of a run's time went there. So
//! where notifications work ([`crate::sandbox::listener`]), the program's stdout and
//! stderr are one pipe, which it writes without waking anybody, and its
//! stdin stays the terminal. The runner answers, as the terminal would:
//!
//! - each `read` of stdin, by copying the next input line into the
//!   program's buffer (at most one line per read, as a terminal in line
//!   mode gives);
//! - the calls by which a program asks whether its output is a terminal
//!   (`fstat`, `newfstatat` and `statx` of descriptor 1 or 2, and their
//!   `ioctl`s), with the terminal's own answers. C's stdio then buffers
//!   by line and Python's `input()` prints its prompt, exactly as on the
//!   terminal.
//!
//! A call on a descriptor that is no longer ours (the program reopened
//! it), or into memory nobody may write for the runner
//! ([`super::memory`]), goes ahead unanswered. Where a container's
//! seccomp profile refuses `kcmp`, the descriptors are compared through
//! `/proc/PID/fd`, which the kernel allows for a program of referee's
//! own user. Where referee may look at neither (root without
//! `CAP_SYS_PTRACE`, the program of the slot's user), the runner knows a
//! standard descriptor is still the one it gave from the calls the
//! listener holds: none of the run's processes has closed or replaced
//! one (see [`crate::sandbox::listener::changes_standard`]).

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};

use super::memory::Memory;
use crate::sandbox::listener::{Call, Reply};

/// Referee's process id, asked once: it is asked for every held read,
/// and the C library no longer caches it.
fn own_pid() -> u32 {
    static PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *PID.get_or_init(std::process::id)
}

/// Whether descriptor `fd` of process `pid` is the same open file as
/// `ours`: the program may have closed or replaced it since it started.
/// `None` when referee may not look (the program is another user's and
/// referee lacks `CAP_SYS_PTRACE`, as root in a default container).
pub fn same_file(pid: i32, fd: i32, ours: BorrowedFd<'_>) -> Option<bool> {
    const KCMP_FILE: libc::c_int = 0;
    // SAFETY: kcmp compares two processes' descriptors; no memory.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_kcmp,
            pid,
            own_pid(),
            KCMP_FILE,
            fd,
            ours.as_raw_fd(),
        )
    };
    if rc >= 0 {
        return Some(rc == 0);
    }
    // Kernels built without kcmp, or a seccomp profile that refuses it:
    // compare what the descriptors point at.
    let theirs = std::fs::metadata(format!("/proc/{pid}/fd/{fd}"));
    let mine = std::fs::metadata(format!("/proc/self/fd/{}", ours.as_raw_fd()));
    match (theirs, mine) {
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            Some(a.dev() == b.dev() && a.ino() == b.ino())
        }
        (Err(e), _) if e.kind() == std::io::ErrorKind::NotFound => Some(false),
        _ => None,
    }
}

/// Answers a [`crate::sandbox::listener::TERMINAL_QUESTIONS`] call made on the
/// program's output (already known to be ours) as `terminal` would.
/// `leader` is the program's process group, for the calls that ask it.
pub fn answer_question(
    call: &Call,
    terminal: BorrowedFd<'_>,
    leader: i32,
    memory: &mut Memory<'_>,
) -> Reply {
    let answer = match call.nr {
        n if n == libc::SYS_ioctl => ioctl(call, terminal, leader, memory),
        n if n == libc::SYS_fstat => stat(call, terminal, call.args[1], memory),
        n if n == libc::SYS_newfstatat => stat_at(call, terminal, memory),
        n if n == libc::SYS_statx => statx(call, terminal, memory),
        _ => Ok(Reply::Continue),
    };
    // A call the runner could not answer (memory it may not touch) goes
    // ahead: the program then sees a pipe, which it handles anyway.
    answer.unwrap_or(Reply::Continue)
}

/// The terminal `ioctl`s a program may make on its output: the ones that
/// read or change its settings and size are done on the terminal itself;
/// flushing and waiting for output succeed at once (a pipe holds
/// nothing back); the rest fail as they would on something that is not a
/// terminal.
fn ioctl(
    call: &Call,
    terminal: BorrowedFd<'_>,
    leader: i32,
    memory: &mut Memory<'_>,
) -> io::Result<Reply> {
    // Kernel structure sizes: termios (36 bytes), termios2 (44), winsize (8).
    const TERMIOS: usize = 36;
    const TERMIOS2: usize = 44;
    const WINSIZE: usize = 8;
    let request = call.args[1] as u32 as libc::Ioctl;
    let argument = call.args[2];
    let gets = [
        (libc::TCGETS, TERMIOS),
        (libc::TCGETS2, TERMIOS2),
        (libc::TIOCGWINSZ, WINSIZE),
    ];
    let sets = [
        (libc::TCSETS, TERMIOS),
        (libc::TCSETSW, TERMIOS),
        (libc::TCSETSF, TERMIOS),
        (libc::TCSETS2, TERMIOS2),
        (libc::TCSETSW2, TERMIOS2),
        (libc::TCSETSF2, TERMIOS2),
        (libc::TIOCSWINSZ, WINSIZE),
    ];
    if let Some(&(_, size)) = gets.iter().find(|(r, _)| *r == request) {
        let mut buf = [0u8; 64];
        // SAFETY: the request writes at most `size` bytes, all within buf.
        if unsafe { libc::ioctl(terminal.as_raw_fd(), request, buf.as_mut_ptr()) } < 0 {
            return Ok(Reply::Fail(errno()));
        }
        return copy_out(memory, call, argument, &buf[..size]);
    }
    if let Some(&(_, size)) = sets.iter().find(|(r, _)| *r == request) {
        let mut buf = [0u8; 64];
        if memory.read(call.pid, argument, &mut buf[..size])? < size {
            return Ok(Reply::Fail(libc::EFAULT));
        }
        // SAFETY: the request reads `size` bytes, all within buf.
        if unsafe { libc::ioctl(terminal.as_raw_fd(), request, buf.as_ptr()) } < 0 {
            return Ok(Reply::Fail(errno()));
        }
        return Ok(Reply::Return(0));
    }
    match request {
        libc::TIOCGPGRP | libc::TIOCGSID => copy_out(memory, call, argument, &leader.to_ne_bytes()),
        libc::TIOCOUTQ => copy_out(memory, call, argument, &0i32.to_ne_bytes()),
        libc::TCFLSH | libc::TCXONC | libc::TCSBRK | libc::TCSBRKP => Ok(Reply::Return(0)),
        _ => Ok(Reply::Fail(libc::ENOTTY)),
    }
}

/// `fstat(fd, buf)`: the terminal's status.
fn stat(
    call: &Call,
    terminal: BorrowedFd<'_>,
    buf: u64,
    memory: &mut Memory<'_>,
) -> io::Result<Reply> {
    let mut st = [0u8; std::mem::size_of::<libc::stat>()];
    // SAFETY: fstat writes one struct stat, the size of `st`.
    if unsafe { libc::fstat(terminal.as_raw_fd(), st.as_mut_ptr().cast()) } < 0 {
        return Ok(Reply::Fail(errno()));
    }
    copy_out(memory, call, buf, &st)
}

/// `newfstatat(fd, "", buf, AT_EMPTY_PATH)` is `fstat`; with a path, the
/// descriptor is a directory to look in, and the kernel answers.
fn stat_at(call: &Call, terminal: BorrowedFd<'_>, memory: &mut Memory<'_>) -> io::Result<Reply> {
    let flags = call.args[3] as i32;
    if !empty_path(call, call.args[1], flags, memory)? {
        return Ok(Reply::Continue);
    }
    stat(call, terminal, call.args[2], memory)
}

/// `statx(fd, "", AT_EMPTY_PATH, mask, buf)`: the terminal's status.
fn statx(call: &Call, terminal: BorrowedFd<'_>, memory: &mut Memory<'_>) -> io::Result<Reply> {
    let flags = call.args[2] as i32;
    if !empty_path(call, call.args[1], flags, memory)? {
        return Ok(Reply::Continue);
    }
    let mask = call.args[3] as u32;
    let mut st = [0u8; std::mem::size_of::<libc::statx>()];
    // SAFETY: statx writes one struct statx, the size of `st`.
    let rc = unsafe {
        libc::statx(
            terminal.as_raw_fd(),
            c"".as_ptr(),
            flags | libc::AT_EMPTY_PATH,
            mask,
            st.as_mut_ptr().cast(),
        )
    };
    if rc < 0 {
        return Ok(Reply::Fail(errno()));
    }
    copy_out(memory, call, call.args[4], &st)
}

/// Whether a `*at` call names its descriptor itself: an empty path with
/// `AT_EMPTY_PATH` (or no path at all, which Linux 6.11 accepts).
fn empty_path(call: &Call, path: u64, flags: i32, memory: &mut Memory<'_>) -> io::Result<bool> {
    if flags & libc::AT_EMPTY_PATH == 0 {
        return Ok(false);
    }
    if path == 0 {
        return Ok(true);
    }
    let mut first = [1u8];
    memory.read(call.pid, path, &mut first)?;
    Ok(first[0] == 0)
}

/// Gives the program `bytes` at `address`: the call returns 0, or fails
/// as the kernel would with a bad address.
fn copy_out(memory: &mut Memory<'_>, call: &Call, address: u64, bytes: &[u8]) -> io::Result<Reply> {
    match memory.write(call.pid, address, bytes) {
        Ok(n) if n == bytes.len() => Ok(Reply::Return(0)),
        Ok(_) => Ok(Reply::Fail(libc::EFAULT)),
        Err(e) if e.raw_os_error() == Some(libc::EFAULT) => Ok(Reply::Fail(libc::EFAULT)),
        Err(e) => Err(e),
    }
}

fn errno() -> i32 {
    io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}
