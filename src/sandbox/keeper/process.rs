//! The keeper process itself, from `clone` to its end.
//!
//! The keeper is a copy of referee (a `clone` without `CLONE_VM`) made
//! while other threads run, so like a child between `fork` and `exec` it
//! makes system calls only, on memory prepared before the `clone`: no
//! allocation, no locks, no standard output. Everything it reads and
//! writes is in its [`Blueprint`].

use std::ffi::CString;
use std::mem::{size_of, zeroed};
use std::os::fd::RawFd;
use std::ptr::{null, null_mut};

use super::protocol::{self, Report};
use crate::sandbox::rootfs::Step;
use crate::sandbox::seccomp;

/// How long the keeper tries to kill and reap a run's processes before
/// it reports that some are left (a process stuck in the kernel).
const CLEAR_DEADLINE_NS: i64 = 3_000_000_000;

/// Set-up steps other than the root's, numbered for [`protocol::SETUP_FAILED`]
/// (the root's steps are numbered from [`STEP_ROOT`]).
pub const STEP_MAPS: u32 = 1;
/// Joining the slot's control groups.
pub const STEP_CGROUP: u32 = 2;
/// Naming the host.
pub const STEP_HOSTNAME: u32 = 3;
/// Taking the slot's terminal.
pub const STEP_TERMINAL: u32 = 4;
/// Signals.
pub const STEP_SIGNALS: u32 = 5;
/// Becoming the slot's user and giving up privileges.
pub const STEP_IDENTITY: u32 = 6;
/// Installing the allowlist.
pub const STEP_SECCOMP: u32 = 7;
/// The first step of the root (see [`crate::sandbox::rootfs`]).
pub const STEP_ROOT: u32 = 100;

/// Everything the keeper needs, made before `clone`; the keeper works on
/// its own copy.
pub struct Blueprint {
    /// The keeper's end of its socket.
    pub socket: RawFd,
    /// The slot's terminal (its slave end).
    pub terminal: RawFd,
    /// With a user namespace of its own: the pipe end on which referee
    /// says the namespace's maps are written.
    pub maps_written: Option<RawFd>,
    /// The `cgroup.procs` files to join.
    pub cgroups: Vec<CString>,
    /// The steps that build and enter the minimal root.
    pub root: Vec<Step>,
    /// The host name in a UTS namespace of its own.
    pub hostname: Option<CString>,
    /// As root: the slot's own user and group.
    pub identity: Option<(libc::uid_t, libc::gid_t)>,
    /// Whether the keeper is the init of a PID namespace holding only the
    /// run's processes.
    pub pid_namespace: bool,
    /// The allowlist, installed on the keeper itself (with a PID
    /// namespace) or on each child (without: the keeper must be free to
    /// give each child a process group of its own).
    pub allowlist: Option<Box<[libc::sock_filter]>>,
    /// Referee's `/proc` (in referee's numbering), where the keeper is to
    /// open the memory of the slot's programs for referee (see
    /// [`protocol::OPEN_MEMORY`]).
    pub proc_dir: Option<RawFd>,
    /// The slot's listener filter (see [`crate::sandbox::listener`]),
    /// installed on the keeper last, its listener sent with the keeper's
    /// first report.
    pub listener: Option<Box<[libc::sock_filter]>>,
    /// Buffers.
    pub request: Box<[u8]>,
    /// `argv` pointers for the child.
    pub argv: Box<[*const libc::c_char]>,
    /// `envp` pointers for the child.
    pub envp: Box<[*const libc::c_char]>,
    /// The child's stack, between `clone` and `exec`.
    pub child_stack: Box<[u8]>,
    /// The keeper's own stack.
    pub stack: Box<[u8]>,
}

impl Blueprint {
    /// A blueprint with its buffers.
    pub fn new(socket: RawFd, terminal: RawFd) -> Blueprint {
        Blueprint {
            socket,
            terminal,
            maps_written: None,
            cgroups: Vec::new(),
            root: Vec::new(),
            hostname: None,
            identity: None,
            pid_namespace: false,
            allowlist: None,
            proc_dir: None,
            listener: None,
            request: vec![0u8; protocol::MAX_REQUEST].into_boxed_slice(),
            argv: vec![null(); protocol::MAX_ARGS + 1].into_boxed_slice(),
            envp: vec![null(); protocol::MAX_ENV + 1].into_boxed_slice(),
            child_stack: vec![0u8; 256 * 1024].into_boxed_slice(),
            stack: vec![0u8; 256 * 1024].into_boxed_slice(),
        }
    }
}

/// The keeper's entry point (`clone`'s function). Never returns.
pub extern "C" fn main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: referee passed its blueprint; this process has its own copy.
    let blueprint = unsafe { &mut *(arg as *mut Blueprint) };
    let code = match set_up(blueprint) {
        Ok((sigfd, listener)) => {
            send(blueprint.socket, &report(protocol::READY), listener);
            if let Some(fd) = listener {
                // SAFETY: our copy, sent: a child must not inherit it.
                unsafe { libc::close(fd) };
            }
            serve(blueprint, sigfd)
        }
        Err((step, errno)) => {
            let mut failed = report(protocol::SETUP_FAILED);
            failed.step = step;
            failed.errno = errno;
            send(blueprint.socket, &failed, None);
            1
        }
    };
    // SAFETY: leaving without running anything of referee's.
    unsafe { libc::_exit(code) }
}

type Failure = (u32, i32);

fn check(step: u32, rc: libc::c_long) -> Result<libc::c_long, Failure> {
    if rc < 0 {
        Err((step, errno()))
    } else {
        Ok(rc)
    }
}

fn errno() -> i32 {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

/// Everything up to serving: descriptors, namespaces' contents, root,
/// terminal, signals, identity, filters. The SIGCHLD descriptor, and the
/// listener if one was asked for and the kernel allows it.
fn set_up(b: &mut Blueprint) -> Result<(RawFd, Option<RawFd>), Failure> {
    // SAFETY (whole function): system calls on the blueprint's memory.
    unsafe {
        // Seen as such in `ps`, not as a second referee.
        libc::prctl(libc::PR_SET_NAME, c"referee-keeper".as_ptr(), 0, 0, 0);
        reset_signal_handlers();
        keep_only_own_descriptors(b).map_err(|e| (STEP_SIGNALS, e))?;
        if let Some(fd) = b.maps_written.take() {
            let mut byte = 0u8;
            let n = libc::read(fd, (&mut byte as *mut u8).cast(), 1);
            libc::close(fd);
            if n != 1 {
                return Err((STEP_MAPS, libc::EPIPE));
            }
        }
        for procs in &b.cgroups {
            join(procs).map_err(|e| (STEP_CGROUP, e))?;
        }
        // The out-of-memory killer's first choice, with everything the
        // keeper starts (they inherit it), before referee; among them the
        // largest goes first, never the keeper, which holds next to
        // nothing. Best effort: /proc may be missing.
        let _ = write_file(c"/proc/self/oom_score_adj", b"1000");
        for (i, step) in b.root.iter().enumerate() {
            step.run().map_err(|e| (STEP_ROOT + i as u32, e))?;
        }
        if let Some(name) = &b.hostname {
            let len = name.as_bytes().len();
            check(
                STEP_HOSTNAME,
                libc::sethostname(name.as_ptr(), len) as libc::c_long,
            )?;
        }
        check(STEP_TERMINAL, libc::setsid() as libc::c_long)?;
        check(
            STEP_TERMINAL,
            libc::ioctl(b.terminal, libc::TIOCSCTTY, 0) as libc::c_long,
        )?;
        // A run's stdin is the terminal: its descriptor 0 is the keeper's
        // own from the start, so that no child makes it anew (a call the
        // slot's listener would hold, see `prepare`).
        check(STEP_TERMINAL, libc::dup2(b.terminal, 0) as libc::c_long)?;
        let sigfd = signals(b.pid_namespace).map_err(|e| (STEP_SIGNALS, e))?;
        give_up_privileges(b.identity).map_err(|e| (STEP_IDENTITY, e))?;
        check(
            STEP_IDENTITY,
            libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) as libc::c_long,
        )?;
        if b.pid_namespace {
            if let Some(filter) = &b.allowlist {
                seccomp::install(filter.as_ptr(), filter.len() as u16, 0)
                    .map_err(|e| (STEP_SECCOMP, e.raw_os_error().unwrap_or(libc::EIO)))?;
            }
        }
        // Best effort: without a listener the runner watches /proc.
        let listener = b.listener.as_ref().and_then(|filter| {
            let flags = libc::SECCOMP_FILTER_FLAG_NEW_LISTENER as libc::c_ulong;
            seccomp::install(filter.as_ptr(), filter.len() as u16, flags)
                .ok()
                .map(|fd| fd as RawFd)
        });
        Ok((sigfd, listener))
    }
}

/// Every handler referee installed goes back to the default: a signal
/// must not run referee's code in this copy of it.
unsafe fn reset_signal_handlers() {
    for signal in 1..libc::SIGRTMAX() {
        if signal != libc::SIGKILL && signal != libc::SIGSTOP {
            libc::signal(signal, libc::SIG_DFL);
        }
    }
}

/// Keeps the socket and the terminal (at fresh numbers above 2), the
/// maps pipe and referee's `/proc`; everything else referee had open is closed; 0, 1 and 2
/// become `/dev/null`.
unsafe fn keep_only_own_descriptors(b: &mut Blueprint) -> Result<(), i32> {
    b.socket = above_stdio(b.socket)?;
    b.terminal = above_stdio(b.terminal)?;
    if let Some(fd) = b.maps_written {
        b.maps_written = Some(above_stdio(fd)?);
    }
    if let Some(fd) = b.proc_dir {
        b.proc_dir = Some(above_stdio(fd)?);
    }
    let mut keep = [
        b.socket,
        b.terminal,
        b.maps_written.unwrap_or(-1),
        b.proc_dir.unwrap_or(-1),
    ];
    keep.sort_unstable();
    let mut from: libc::c_uint = 0;
    for fd in keep.into_iter().filter(|&fd| fd >= 0) {
        if fd as libc::c_uint > from {
            libc::syscall(libc::SYS_close_range, from, fd as libc::c_uint - 1, 0);
        }
        from = fd as libc::c_uint + 1;
    }
    libc::syscall(libc::SYS_close_range, from, libc::c_uint::MAX, 0);
    let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
    if null < 0 {
        return Err(errno());
    }
    for fd in 0..3 {
        if fd != null && libc::dup2(null, fd) < 0 {
            return Err(errno());
        }
    }
    if null > 2 {
        libc::close(null);
    }
    Ok(())
}

/// `fd`, moved above the standard descriptors if it is one of them.
unsafe fn above_stdio(fd: RawFd) -> Result<RawFd, i32> {
    if fd > 2 {
        return Ok(fd);
    }
    let moved = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3);
    if moved < 0 {
        return Err(errno());
    }
    Ok(moved)
}

unsafe fn join(procs: &CString) -> Result<(), i32> {
    write_file(procs, b"0\n")
}

/// Writes `bytes` to the existing file `path`.
unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> Result<(), i32> {
    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return Err(errno());
    }
    let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
    let e = errno();
    libc::close(fd);
    if written < 0 {
        return Err(e);
    }
    Ok(())
}

/// The signals the keeper keeps blocked besides SIGCHLD: blocked rather
/// than ignored, so that each child, a new process with nothing pending,
/// has them back by unblocking them (one call instead of one per signal).
/// SIGTERM too: Slurm, systemd and `docker stop` signal every process of
/// a job they stop, and the keeper must live on to kill and reap its run
/// when referee stops (without a PID namespace it is no init, which the
/// kernel would shield).
pub const BLOCKED: [libc::c_int; 8] = [
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGTERM,
    libc::SIGQUIT,
    libc::SIGTSTP,
    libc::SIGTTIN,
    libc::SIGTTOU,
    libc::SIGPIPE,
];

/// Keeps terminal signals off, learns of children through a descriptor,
/// and (without a PID namespace, where it is not init) adopts the run's
/// orphans. Unblocks the rest.
unsafe fn signals(pid_namespace: bool) -> Result<RawFd, i32> {
    let mut chld: libc::sigset_t = zeroed();
    libc::sigemptyset(&mut chld);
    libc::sigaddset(&mut chld, libc::SIGCHLD);
    let sigfd = libc::signalfd(-1, &chld, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK);
    if sigfd < 0 {
        return Err(errno());
    }
    if !pid_namespace && libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0 {
        return Err(errno());
    }
    let mut mask = chld;
    for signal in BLOCKED {
        libc::sigaddset(&mut mask, signal);
    }
    libc::sigprocmask(libc::SIG_SETMASK, &mask, null_mut());
    Ok(sigfd)
}

/// Gives up every capability for good and, as root, becomes the slot's
/// own user. Securebits first (it needs a capability), then the user.
unsafe fn give_up_privileges(identity: Option<(libc::uid_t, libc::gid_t)>) -> Result<(), i32> {
    const NOROOT: libc::c_ulong = 1 << 0;
    const NOROOT_LOCKED: libc::c_ulong = 1 << 1;
    const NO_SETUID_FIXUP: libc::c_ulong = 1 << 2;
    const NO_SETUID_FIXUP_LOCKED: libc::c_ulong = 1 << 3;
    const KEEP_CAPS_LOCKED: libc::c_ulong = 1 << 5;
    // Best effort: without CAP_SETPCAP the empty sets and no_new_privs
    // still keep `exec` from giving any capability back.
    libc::prctl(
        libc::PR_SET_SECUREBITS,
        NOROOT | NOROOT_LOCKED | NO_SETUID_FIXUP_LOCKED | KEEP_CAPS_LOCKED,
        0,
        0,
        0,
    );
    let _ = NO_SETUID_FIXUP;
    if let Some((uid, gid)) = identity {
        // The system calls themselves, not the C library's wrappers: in a
        // multi-threaded process those signal every thread to change its
        // credentials too, and this copy of referee has threads only on
        // paper (the C library would wait for them for ever).
        let groups = libc::syscall(libc::SYS_setgroups, 0, null::<libc::gid_t>());
        if groups < 0
            || libc::syscall(libc::SYS_setresgid, gid, gid, gid) < 0
            || libc::syscall(libc::SYS_setresuid, uid, uid, uid) < 0
        {
            return Err(errno());
        }
    }
    // _LINUX_CAPABILITY_VERSION_3: two 32-bit halves per set.
    let header = [0x2008_0522u32, 0];
    let empty = [0u32; 6];
    if libc::syscall(libc::SYS_capset, header.as_ptr(), empty.as_ptr()) < 0 {
        return Err(errno());
    }
    Ok(())
}

fn report(kind: u32) -> Report {
    Report {
        kind,
        ..Report::default()
    }
}

/// Sends a report, with a descriptor if given. Errors are ignored: a
/// referee that went away is noticed when the socket closes.
fn send(socket: RawFd, report: &Report, fd: Option<RawFd>) {
    let bytes = report.as_bytes();
    // SAFETY: a sendmsg with stack buffers.
    unsafe {
        let mut iov = libc::iovec {
            iov_base: bytes.as_ptr() as *mut libc::c_void,
            iov_len: bytes.len(),
        };
        let mut control = [0u64; 4];
        let mut msg: libc::msghdr = zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        if let Some(fd) = fd {
            msg.msg_control = control.as_mut_ptr().cast();
            msg.msg_controllen = libc::CMSG_SPACE(size_of::<RawFd>() as u32) as usize;
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(size_of::<RawFd>() as u32) as usize;
            std::ptr::write_unaligned(libc::CMSG_DATA(cmsg).cast::<RawFd>(), fd);
        }
        libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL);
    }
}

/// The run being kept, if any.
#[derive(Clone, Copy)]
struct Running {
    /// The program's pid, in the keeper's numbering.
    pid: libc::pid_t,
    /// Its wait status and resource use, once reaped.
    reaped: Option<(libc::c_int, libc::rusage)>,
}

/// Serves requests until referee goes away.
fn serve(b: &mut Blueprint, sigfd: RawFd) -> libc::c_int {
    let mut running: Option<Running> = None;
    let mut terminal_held = true;
    loop {
        let mut fds = [
            libc::pollfd {
                fd: b.socket,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: sigfd,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: poll on two descriptors of ours.
        let rc = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
        if rc < 0 {
            continue;
        }
        if fds[1].revents != 0 {
            drain(sigfd);
            reap(&mut running);
            if let Some(run) = running.filter(|r| r.reaped.is_some()) {
                end(b, sigfd, run, &mut running);
            }
        }
        if fds[0].revents == 0 {
            continue;
        }
        let mut received = [-1 as RawFd; protocol::MAX_FDS];
        let n = receive(b.socket, &mut b.request, &mut received);
        if n == INTERRUPTED {
            continue;
        }
        if n <= 0 {
            if let Some(run) = running {
                clear(b, sigfd, run.pid, &mut running);
            }
            return 0;
        }
        let n = n as usize;
        match protocol::decode(&b.request[..n]).map(|d| d.header.kind) {
            Some(protocol::SPAWN) if running.is_none() => {
                running = spawn(b, n, &received, &mut terminal_held);
            }
            Some(protocol::SPAWN) => {
                let mut busy = report(protocol::SPAWN_FAILED);
                busy.errno = libc::EBUSY;
                send(b.socket, &busy, None);
            }
            Some(protocol::STOP) => {
                if let Some(run) = running {
                    end(b, sigfd, run, &mut running);
                }
            }
            Some(protocol::OPEN_MEMORY) => {
                let pid = protocol::decode(&b.request[..n]).map_or(0, |d| d.header.pid);
                open_memory(b, pid);
            }
            Some(protocol::STAT_DESCRIPTOR) => {
                let (pid, fd) = protocol::decode(&b.request[..n])
                    .map_or((0, 0), |d| (d.header.pid, d.header.args));
                stat_descriptor(b, pid, fd);
            }
            _ => {}
        }
        for fd in received.into_iter().filter(|&fd| fd >= 0) {
            // SAFETY: closing our copies of received descriptors.
            unsafe { libc::close(fd) };
        }
    }
}

/// Opens process `pid`'s memory and sends it to referee, or why not.
/// The kernel lets the keeper in where referee may not: the process is
/// of the keeper's user, a descendant, and (not having changed its user)
/// dumpable; the keeper itself is not (it changed its user), so no
/// program can do the same to it. The descriptor is never anywhere a
/// program can reach: opened close-on-exec, sent, closed.
fn open_memory(b: &Blueprint, pid: u32) {
    let mut answer = report(protocol::MEMORY);
    answer.status = pid as i32;
    let mut path = [0u8; 40];
    let fd = in_proc(b, &mut path, pid, b"/mem", None, |dir, path| {
        // SAFETY: openat on a NUL-terminated path in our buffer.
        unsafe { libc::openat(dir, path, libc::O_RDWR | libc::O_CLOEXEC | libc::O_NOFOLLOW) }
    });
    let fd = match fd {
        Ok(fd) => fd,
        Err(e) => {
            answer.errno = e;
            send(b.socket, &answer, None);
            return;
        }
    };
    send(b.socket, &answer, Some(fd));
    // SAFETY: our copy, sent.
    unsafe { libc::close(fd) };
}

/// Says which file descriptor `fd` of process `pid` is (its device and
/// inode, through `/proc/PID/fd/N`, which the kernel lets the keeper
/// follow for the same reasons as [`open_memory`]), or why not.
fn stat_descriptor(b: &Blueprint, pid: u32, fd: u32) {
    let mut answer = report(protocol::DESCRIPTOR);
    answer.status = pid as i32;
    let mut path = [0u8; 40];
    // SAFETY: a stat buffer of our own.
    let mut st: libc::stat = unsafe { zeroed() };
    let done = in_proc(b, &mut path, pid, b"/fd/", Some(fd), |dir, path| {
        // SAFETY: fstatat on a NUL-terminated path in our buffer.
        unsafe { libc::fstatat(dir, path, &mut st, 0) }
    });
    match done {
        Ok(_) => {
            answer.utime_us = st.st_dev;
            answer.stime_us = st.st_ino;
        }
        Err(e) => answer.errno = e,
    }
    send(b.socket, &answer, None);
}

/// `call` on referee's `/proc` and the path "<pid><middle>[<number>]" in
/// it (written into `buf`): what it returned, or the errno.
fn in_proc(
    b: &Blueprint,
    buf: &mut [u8],
    pid: u32,
    middle: &[u8],
    number: Option<u32>,
    call: impl FnOnce(RawFd, *const libc::c_char) -> libc::c_int,
) -> Result<libc::c_int, i32> {
    let Some(dir) = b.proc_dir else {
        return Err(libc::ENOENT);
    };
    let path = proc_path(buf, pid, middle, number).ok_or(libc::ENAMETOOLONG)?;
    match call(dir, path.as_ptr().cast()) {
        rc if rc < 0 => Err(errno()),
        rc => Ok(rc),
    }
}

/// Writes "<pid><middle>[<number>]" and a NUL into `buf`, without
/// allocating; the path, or `None` if it does not fit.
fn proc_path<'p>(
    buf: &'p mut [u8],
    pid: u32,
    middle: &[u8],
    number: Option<u32>,
) -> Option<&'p [u8]> {
    let mut at = 0;
    at = put_number(buf, at, pid)?;
    let end = at + middle.len();
    buf.get_mut(at..end)?.copy_from_slice(middle);
    at = end;
    if let Some(number) = number {
        at = put_number(buf, at, number)?;
    }
    *buf.get_mut(at)? = 0;
    Some(&buf[..=at])
}

/// Writes `n` in decimal at `at`; where it ends.
fn put_number(buf: &mut [u8], at: usize, n: u32) -> Option<usize> {
    let mut digits = [0u8; 10];
    let mut count = 0;
    let mut rest = n;
    loop {
        digits[count] = b'0' + (rest % 10) as u8;
        count += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let out = buf.get_mut(at..at + count)?;
    for (slot, digit) in out.iter_mut().zip(digits[..count].iter().rev()) {
        *slot = *digit;
    }
    Some(at + count)
}

/// Kills what is left of the run, reports its end, and forgets it.
fn end(b: &Blueprint, sigfd: RawFd, run: Running, running: &mut Option<Running>) {
    let empty = clear(b, sigfd, run.pid, running);
    // The allowlist refuses System V IPC; without it, what a run left is
    // removed here.
    if b.allowlist.is_none() {
        remove_ipc_objects();
    }
    let reaped = running.and_then(|r| r.reaped).or(run.reaped);
    let mut ended = report(protocol::ENDED);
    ended.empty = u32::from(empty);
    match reaped {
        Some((status, usage)) => {
            ended.status = status;
            ended.utime_us = micros(usage.ru_utime);
            ended.stime_us = micros(usage.ru_stime);
            ended.maxrss_kb = usage.ru_maxrss.max(0) as u64;
        }
        None => ended.status = -1,
    }
    send(b.socket, &ended, None);
    *running = None;
}

fn micros(t: libc::timeval) -> u64 {
    (t.tv_sec.max(0) as u64) * 1_000_000 + t.tv_usec.max(0) as u64
}

fn drain(sigfd: RawFd) {
    let mut info: libc::signalfd_siginfo = unsafe { zeroed() };
    // SAFETY: reading signalfd records into a stack buffer.
    while unsafe {
        libc::read(
            sigfd,
            (&mut info as *mut libc::signalfd_siginfo).cast(),
            size_of::<libc::signalfd_siginfo>(),
        )
    } > 0
    {}
}

/// Reaps every child that has ended, noting the program's status;
/// whether no child is left at all (not even one still running).
fn reap(running: &mut Option<Running>) -> bool {
    loop {
        let mut status = 0;
        // SAFETY: wait4 fills the status and the rusage.
        let mut usage: libc::rusage = unsafe { zeroed() };
        let pid = unsafe { libc::wait4(-1, &mut status, libc::WNOHANG | libc::__WALL, &mut usage) };
        if pid < 0 {
            return errno() == libc::ECHILD;
        }
        if pid == 0 {
            return false;
        }
        if let Some(run) = running.as_mut().filter(|r| r.pid == pid) {
            run.reaped = Some((status, usage));
        }
    }
}

/// Kills and reaps every process of the run: with a PID namespace, every
/// process in it but the keeper; without, the program's process group.
/// Whether none is left.
///
/// In a PID namespace every process descends from the keeper, and an
/// orphan becomes the keeper's child: a keeper with no child left has an
/// empty namespace, which after a program that simply exited is known
/// without signalling anything.
fn clear(b: &Blueprint, sigfd: RawFd, pid: libc::pid_t, running: &mut Option<Running>) -> bool {
    if b.pid_namespace && reap(running) {
        return true;
    }
    let target = if b.pid_namespace { -1 } else { -pid };
    let start = now_ns();
    loop {
        // SAFETY: signalling the run's processes, which are ours to kill.
        let rc = unsafe { libc::kill(target, libc::SIGKILL) };
        if rc < 0 && errno() == libc::ESRCH {
            reap(running);
            return true;
        }
        if reap(running) && b.pid_namespace {
            return true;
        }
        if now_ns() - start > CLEAR_DEADLINE_NS {
            return false;
        }
        // Until a child ends (or a millisecond, for one that was not a
        // child yet).
        let mut poll = libc::pollfd {
            fd: sigfd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: polling our signal descriptor, then draining it.
        unsafe { libc::poll(&mut poll, 1, 1) };
        drain(sigfd);
    }
}

/// Removes the System V shared memory, semaphores and message queues the
/// run left in the slot's IPC namespace, which the next run shares: a
/// channel from one student's program to the next. (The allowlist
/// refuses these calls; this holds where it is off.)
fn remove_ipc_objects() {
    // (the call, its INFO and STAT_ANY commands) for shm, sem and msg.
    const KINDS: [(libc::c_long, libc::c_long, libc::c_long); 3] = [
        (libc::SYS_shmctl, 14, 15),
        (libc::SYS_semctl, 19, 20),
        (libc::SYS_msgctl, 12, 13),
    ];
    let mut buf = [0u64; 64];
    for (call, info, stat_any) in KINDS {
        // SAFETY: the INFO and STAT commands write at most a few hundred
        // bytes into `buf`; RMID takes no buffer.
        unsafe {
            let semctl = call == libc::SYS_semctl;
            let highest = if semctl {
                libc::syscall(call, 0, 0, info, buf.as_mut_ptr())
            } else {
                libc::syscall(call, 0, info, buf.as_mut_ptr())
            };
            for index in 0..=highest.max(-1) {
                let id = if semctl {
                    libc::syscall(call, index, 0, stat_any, buf.as_mut_ptr())
                } else {
                    libc::syscall(call, index, stat_any, buf.as_mut_ptr())
                };
                if id < 0 {
                    continue;
                }
                if semctl {
                    libc::syscall(call, id, 0, libc::IPC_RMID, 0);
                } else {
                    libc::syscall(call, id, libc::IPC_RMID, 0);
                }
            }
        }
    }
}

fn now_ns() -> i64 {
    let mut t: libc::timespec = unsafe { zeroed() };
    // SAFETY: clock_gettime fills the struct.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    t.tv_sec * 1_000_000_000 + t.tv_nsec
}

/// What [`receive`] returns when a signal interrupted it.
const INTERRUPTED: isize = -2;

/// Receives one request and its descriptors; the request's length, 0 at
/// the end of the socket, [`INTERRUPTED`], or -1 on any other error.
fn receive(socket: RawFd, buf: &mut [u8], fds: &mut [RawFd; protocol::MAX_FDS]) -> isize {
    // SAFETY: recvmsg into buffers of the blueprint and the stack.
    unsafe {
        let mut iov = libc::iovec {
            iov_base: buf.as_mut_ptr().cast(),
            iov_len: buf.len(),
        };
        let mut control = [0u64; 16];
        let mut msg: libc::msghdr = zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = std::mem::size_of_val(&control);
        let n = libc::recvmsg(socket, &mut msg, libc::MSG_CMSG_CLOEXEC);
        if n < 0 {
            return if errno() == libc::EINTR {
                INTERRUPTED
            } else {
                -1
            };
        }
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(cmsg).cast::<RawFd>();
                let count = ((*cmsg).cmsg_len - libc::CMSG_LEN(0) as usize) / size_of::<RawFd>();
                for i in 0..count {
                    let fd = std::ptr::read_unaligned(data.add(i));
                    match fds.iter_mut().find(|slot| **slot < 0) {
                        Some(slot) => *slot = fd,
                        None => {
                            libc::close(fd);
                        }
                    }
                }
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
        n
    }
}

/// What the child needs, in the keeper's memory (the child shares it).
struct Child<'a> {
    b: &'a Blueprint,
    flags: u32,
    path: *const libc::c_char,
    cwd: *const libc::c_char,
    fds: [RawFd; protocol::MAX_FDS],
    rlimits: [[u64; 3]; protocol::RLIMITS],
    /// Set by the child when it fails before `exec`.
    errno: i32,
}

/// Starts the requested program; the run, when it started.
fn spawn(
    b: &mut Blueprint,
    len: usize,
    fds: &[RawFd; protocol::MAX_FDS],
    terminal_held: &mut bool,
) -> Option<Running> {
    let failed = |b: &Blueprint, errno: i32| {
        let mut r = report(protocol::SPAWN_FAILED);
        r.errno = errno;
        send(b.socket, &r, None);
        None
    };
    let Some(decoded) = protocol::decode(&b.request[..len]) else {
        return failed(b, libc::EINVAL);
    };
    let header = decoded.header;
    if fds[..3].iter().any(|&fd| fd < 0)
        || (header.flags & protocol::FLAG_LANDLOCK != 0 && fds[3] < 0)
    {
        return failed(b, libc::EBADF);
    }
    // Pointers to the strings, in order: cwd, path, argv..., envp...
    let strings = decoded.strings;
    let mut starts = strings
        .split(|&c| c == 0)
        .scan(0usize, |at, s| {
            let start = *at;
            *at += s.len() + 1;
            Some(start)
        })
        .map(|offset| strings[offset..].as_ptr() as *const libc::c_char);
    let (Some(cwd), Some(path)) = (starts.next(), starts.next()) else {
        return failed(b, libc::EINVAL);
    };
    let args = header.args as usize;
    let env = header.env as usize;
    for i in 0..args {
        b.argv[i] = starts.next().unwrap_or(null());
    }
    b.argv[args] = null();
    for i in 0..env {
        b.envp[i] = starts.next().unwrap_or(null());
    }
    b.envp[env] = null();
    let wants_terminal = header.flags & protocol::FLAG_TERMINAL != 0;
    // A build has no controlling terminal: give it up while it runs.
    // SAFETY: terminal ioctls on the slot's terminal, as session leader.
    unsafe {
        if wants_terminal && !*terminal_held {
            *terminal_held = libc::ioctl(b.terminal, libc::TIOCSCTTY, 0) == 0;
        } else if !wants_terminal && *terminal_held {
            *terminal_held = libc::ioctl(b.terminal, libc::TIOCNOTTY) != 0;
        }
    }
    let mut child = Child {
        b,
        flags: header.flags,
        path,
        cwd,
        fds: *fds,
        rlimits: header.rlimits,
        errno: 0,
    };
    let top = {
        let stack = &b.child_stack;
        // SAFETY: the end of the child's stack, aligned.
        (unsafe { stack.as_ptr().add(stack.len()) } as usize) & !15
    };
    // SAFETY: with CLONE_VFORK the keeper waits until the child has
    // called exec or exited; the child only makes system calls. The child
    // has a copy of the keeper's descriptors: what it makes of its 0, 1
    // and 2 is its own.
    let pid = unsafe {
        libc::clone(
            child_main,
            top as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&mut child as *mut Child<'_>).cast(),
        )
    };
    if pid < 0 {
        return failed(b, errno());
    }
    // SAFETY: the child is gone or has called exec; it wrote its errno
    // before either.
    let child_errno = unsafe { std::ptr::read_volatile(&child.errno) };
    if child_errno != 0 {
        let mut status = 0;
        // SAFETY: reaping the failed child.
        unsafe { libc::waitpid(pid, &mut status, libc::__WALL) };
        return failed(b, child_errno);
    }
    send(b.socket, &report(protocol::STARTED), None);
    Some(Running { pid, reaped: None })
}

/// The child, between `clone` and `exec`.
extern "C" fn child_main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: the keeper passed its Child and waits for us.
    let child = unsafe { &mut *(arg as *mut Child<'_>) };
    // SAFETY: system calls on memory the keeper prepared.
    let errno = unsafe {
        match prepare(child) {
            Ok(()) => {
                libc::execve(child.path, child.b.argv.as_ptr(), child.b.envp.as_ptr());
                errno()
            }
            Err(e) => e,
        }
    };
    // SAFETY: telling the keeper (sharing its memory) and leaving.
    unsafe {
        std::ptr::write_volatile(&mut child.errno, errno.max(1));
        libc::_exit(127)
    }
}

/// The child's set-up: its own process group where the keeper is not the
/// init of a PID namespace, standard descriptors, working folder, limits,
/// no other descriptor across `exec`, Landlock, the allowlist where the
/// keeper is not under it, and the hello that tells referee its pid.
unsafe fn prepare(child: &mut Child<'_>) -> Result<(), i32> {
    let b = child.b;
    let mut all: libc::sigset_t = zeroed();
    libc::sigfillset(&mut all);
    libc::sigprocmask(libc::SIG_SETMASK, &all, null_mut());
    let terminal = child.flags & protocol::FLAG_TERMINAL != 0;
    if !b.pid_namespace {
        if libc::setpgid(0, 0) < 0 {
            return Err(errno());
        }
        if terminal {
            let group = libc::getpid();
            libc::ioctl(child.fds[0], libc::TIOCSPGRP, &group);
        }
    }
    // A run's stdin is the terminal, the keeper's descriptor 0 already:
    // making it anew would be held by the slot's listener until referee
    // answered, a round trip for nothing. (A build's, /dev/null, is made.)
    let first = if terminal { 1 } else { 0 };
    for (fd, target) in child.fds[first..3].iter().zip(first as libc::c_int..) {
        if libc::dup2(*fd, target) < 0 {
            return Err(errno());
        }
    }
    if libc::chdir(child.cwd) < 0 {
        return Err(errno());
    }
    for [resource, soft, hard] in child.rlimits {
        if resource == u64::from(u32::MAX) {
            continue;
        }
        let limit = libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        if libc::setrlimit(resource as libc::__rlimit_resource_t, &limit) < 0 {
            return Err(errno());
        }
    }
    libc::syscall(
        libc::SYS_close_range,
        3u32,
        libc::c_uint::MAX,
        libc::CLOSE_RANGE_CLOEXEC,
    );
    if child.flags & protocol::FLAG_LANDLOCK != 0
        && libc::syscall(libc::SYS_landlock_restrict_self, child.fds[3], 0u32) < 0
    {
        return Err(errno());
    }
    if child.flags & protocol::FLAG_ALLOWLIST != 0 {
        if let Some(filter) = &b.allowlist {
            seccomp::install(filter.as_ptr(), filter.len() as u16, 0)
                .map_err(|e| e.raw_os_error().unwrap_or(libc::EIO))?;
        }
    }
    if child.flags & protocol::FLAG_PID != 0 {
        // The kernel puts our pid, in referee's numbering, on the message.
        send(b.socket, &report(protocol::HELLO), None);
    }
    let mut none: libc::sigset_t = zeroed();
    libc::sigemptyset(&mut none);
    libc::sigprocmask(libc::SIG_SETMASK, &none, null_mut());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_paths_are_written_whole_or_not_at_all() {
        let mut buf = [0u8; 40];
        assert_eq!(
            proc_path(&mut buf, 4242, b"/mem", None),
            Some(&b"4242/mem\0"[..])
        );
        assert_eq!(
            proc_path(&mut buf, 0, b"/fd/", Some(2)),
            Some(&b"0/fd/2\0"[..])
        );
        let most = proc_path(&mut buf, u32::MAX, b"/fd/", Some(u32::MAX));
        assert_eq!(most, Some(&b"4294967295/fd/4294967295\0"[..]));
        let mut small = [0u8; 8];
        assert_eq!(proc_path(&mut small, 4242, b"/mem", None), None);
    }
}
