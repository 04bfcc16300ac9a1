//! A slot's keeper: one small process per slot that holds the slot's
//! namespaces, starts each of the slot's programs, and at the end of each
//! run kills and reaps everything the run left, before the slot is used
//! again.
//!
//! Where the machine allows it, the keeper is the init of a PID namespace
//! of its own (as isolate's and nsjail's are), in empty network, IPC and
//! UTS namespaces, inside a mount namespace with a minimal root (see
//! [`super::rootfs`]); for an ordinary user, inside a user namespace of
//! its own too, so that the slot's process count is its own. As root it
//! runs as the slot's own unprivileged user. It joins the slot's control
//! groups, so every program is born inside them, and it installs the
//! allowlist ([`super::seccomp`]) on itself, once, so that each run only
//! adds the small filter the runner listens on. Everything a run starts is
//! a descendant of the keeper: orphans are reparented to it (as init, or
//! as a child subreaper where there is no PID namespace), so nothing piles
//! up when referee itself is PID 1, and "kill the run" is `kill(-1)` in the
//! namespace, repeated until nothing is left.
//!
//! Without a PID namespace, each program gets a process group of its own
//! (and the allowlist, which then forbids leaving it, is installed on
//! each child): the run is that group.

use std::io;
use std::mem::{size_of, zeroed};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

pub mod process;
pub mod protocol;

use super::listener;

pub use process::Blueprint;
use protocol::Report;

/// How long referee waits for the keeper to answer before it gives the
/// slot up: far longer than any answer takes.
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

/// A running keeper, seen from referee.
#[derive(Debug)]
pub struct Keeper {
    pid: libc::pid_t,
    socket: OwnedFd,
    /// The slot's listener, when the keeper installed one.
    listener: Option<OwnedFd>,
}

/// What the slot's listener holds while a program is started is let
/// through (the calls go ahead as if nothing held them)...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LetThrough {
    /// ...never: a run's first calls are its runner's to answer.
    Nothing,
    /// ...until the child says hello, just before `exec`: its own
    /// `dup2` onto 1 and 2, where the listener holds those.
    UntilHello,
    /// ...until it started: a build tool's questions are its own.
    UntilStarted,
}

/// A program the keeper started.
#[derive(Debug)]
pub struct Spawned {
    /// Its process id, in referee's numbering, when asked for
    /// ([`protocol::FLAG_PID`]); 0 otherwise.
    pub pid: i32,
}

/// How a run ended, as the keeper saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The program's wait status (`None` if it could not be reaped).
    pub status: Option<i32>,
    /// Processor time it and its reaped children used.
    pub cpu: Duration,
    /// Its peak resident memory, in bytes.
    pub max_rss: u64,
    /// Whether every process of the run is gone.
    pub empty: bool,
}

/// Why a keeper could not be started.
#[derive(Debug)]
pub enum StartError {
    /// `clone` itself failed (namespaces not allowed here, no memory).
    Clone(io::Error),
    /// A step of its set-up failed: which, and the error.
    Setup {
        /// The step, in words.
        step: String,
        /// What went wrong.
        error: io::Error,
    },
    /// It did not answer, or referee could not talk to it.
    Talk(io::Error),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Clone(e) => write!(f, "cannot start a slot's keeper: {e}"),
            StartError::Setup { step, error } => {
                write!(f, "a slot's keeper could not {step}: {error}")
            }
            StartError::Talk(e) => write!(f, "a slot's keeper did not answer: {e}"),
        }
    }
}

impl std::error::Error for StartError {}

/// The namespaces a keeper is made in, as `clone` flags.
pub type Namespaces = libc::c_int;

impl Keeper {
    /// Starts a keeper from `blueprint` in `namespaces`. With
    /// `CLONE_NEWUSER`, `user` is the uid and gid referee runs as, kept
    /// inside.
    pub fn start(
        mut blueprint: Blueprint,
        namespaces: Namespaces,
        user: Option<(u32, u32)>,
    ) -> Result<Keeper, StartError> {
        let (mine, theirs) = socket_pair().map_err(StartError::Clone)?;
        blueprint.socket = theirs.as_raw_fd();
        let maps = match user {
            Some(_) => Some(pipe().map_err(StartError::Clone)?),
            None => None,
        };
        blueprint.maps_written = maps.as_ref().map(|(read, _)| read.as_raw_fd());
        let pid = clone_keeper(&mut blueprint, namespaces).map_err(StartError::Clone)?;
        drop(theirs);
        let mut keeper = Keeper {
            pid,
            socket: mine,
            listener: None,
        };
        if let (Some((read, write)), Some((uid, gid))) = (maps, user) {
            drop(read);
            write_maps(pid, uid, gid).map_err(StartError::Talk)?;
            // SAFETY: writing one byte to our pipe.
            unsafe { libc::write(write.as_raw_fd(), b"m".as_ptr().cast(), 1) };
        }
        let (report, message) = keeper
            .receive(Some(ANSWER_WITHIN))
            .map_err(StartError::Talk)?;
        match report.kind {
            protocol::READY => {
                keeper.listener = message.fd;
                Ok(keeper)
            }
            protocol::SETUP_FAILED => Err(StartError::Setup {
                step: describe_step(&blueprint, report.step),
                error: io::Error::from_raw_os_error(report.errno),
            }),
            _ => Err(StartError::Talk(io::Error::other("an unexpected report"))),
        }
    }

    /// The keeper's process id.
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// The slot's listener (see [`crate::sandbox::listener`]), if the
    /// keeper could install one.
    pub fn listener(&self) -> Option<&OwnedFd> {
        self.listener.as_ref()
    }

    /// Asks the keeper to start a program (`request`, from
    /// [`protocol::Spawn::encode`]) with `fds` (stdin, stdout, stderr,
    /// then a Landlock ruleset if the request says so).
    ///
    /// `let_through` says what the slot's listener holds meanwhile that
    /// goes ahead: for a build, everything until the keeper reports (a
    /// build tool's child makes `/dev/null` its stdin before `exec`, which
    /// the listener holds, and everything a build holds goes ahead
    /// anyway); for a run, at most its child's own set-up, until its
    /// hello: the program's first calls (whether its output is a
    /// terminal, its first read) may come before the keeper's report, and
    /// are its runner's to answer.
    pub fn spawn(
        &self,
        request: &[u8],
        fds: &[RawFd],
        let_through: LetThrough,
    ) -> io::Result<Spawned> {
        send_with_fds(self.socket.as_raw_fd(), request, fds)?;
        let mut spawned = Spawned { pid: 0 };
        let mut letting = let_through != LetThrough::Nothing;
        loop {
            if letting {
                self.let_through_until_report(ANSWER_WITHIN)?;
            }
            let (report, message) = self.receive(Some(ANSWER_WITHIN))?;
            match report.kind {
                protocol::HELLO => {
                    spawned.pid = message.pid;
                    letting &= let_through == LetThrough::UntilStarted;
                }
                protocol::STARTED => return Ok(spawned),
                protocol::SPAWN_FAILED => return Err(io::Error::from_raw_os_error(report.errno)),
                // A stale report of an earlier run: not this one's.
                _ => {}
            }
        }
    }

    /// Waits up to `within` for a report, letting through meanwhile
    /// whatever the slot's listener holds: what a build tool asks (its
    /// child making `/dev/null` its stdin before `exec`, whether stderr
    /// is a terminal) is its own to ask, and nobody else answers it.
    pub fn let_through_until_report(&self, within: Duration) -> io::Result<()> {
        let notifier = self
            .listener
            .as_ref()
            .map(|fd| listener::Notifier::new(fd.as_fd()));
        let deadline = std::time::Instant::now() + within;
        loop {
            let mut fds = [self.socket.as_raw_fd(), -1].map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            });
            if let Some(notifier) = &notifier {
                fds[1].fd = notifier.as_fd().as_raw_fd();
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            // Rounded up: a wait of less than a millisecond still waits.
            let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            let ready = poll(&mut fds, ms)?;
            if fds[0].revents != 0 || ready == 0 {
                return Ok(());
            }
            if let Some(notifier) = &notifier {
                notifier.let_through()?;
            }
        }
    }

    /// The descriptor to poll: readable when the run has ended.
    pub fn as_fd(&self) -> BorrowedFd<'_> {
        self.socket.as_fd()
    }

    /// Process `pid`'s memory (`/proc/PID/mem`), opened by the keeper:
    /// for a runner that may not open it itself.
    pub fn open_memory(&self, pid: i32) -> io::Result<OwnedFd> {
        let pid = u32::try_from(pid).map_err(|_| io::Error::from_raw_os_error(libc::ESRCH))?;
        let (report, message) = self.ask(&protocol::open_memory(pid), protocol::MEMORY, pid)?;
        match message.fd {
            Some(fd) => Ok(fd),
            None => Err(io::Error::from_raw_os_error(report.errno.max(1))),
        }
    }

    /// Which file descriptor `fd` of process `pid` is (its device and
    /// inode), as the keeper sees it: for a runner that may not look.
    pub fn stat_descriptor(&self, pid: i32, fd: i32) -> io::Result<(u64, u64)> {
        let pid = u32::try_from(pid).map_err(|_| io::Error::from_raw_os_error(libc::ESRCH))?;
        let fd = u32::try_from(fd).map_err(|_| io::Error::from_raw_os_error(libc::EBADF))?;
        let request = protocol::stat_descriptor(pid, fd);
        let (report, _) = self.ask(&request, protocol::DESCRIPTOR, pid)?;
        if report.errno != 0 {
            return Err(io::Error::from_raw_os_error(report.errno));
        }
        Ok((report.utime_us, report.stime_us))
    }

    /// Sends `request` about process `pid` and waits for its answer, a
    /// report of `kind`. The keeper's reports of the run (its end) are
    /// left where they are for [`Keeper::ended`]: a run that ended
    /// meanwhile needs no answer.
    fn ask(&self, request: &[u8], kind: u32, pid: u32) -> io::Result<(Report, Message)> {
        send_with_fds(self.socket.as_raw_fd(), request, &[])?;
        loop {
            self.wait_for_report(Some(ANSWER_WITHIN))?;
            let next = peek_report(self.socket.as_raw_fd())?;
            if next.kind != protocol::MEMORY && next.kind != protocol::DESCRIPTOR {
                return Err(io::Error::other("the run ended first"));
            }
            let (report, message) = self.receive(Some(Duration::ZERO))?;
            // An answer to an earlier question, given up on: not this one.
            if report.kind == kind && report.status as u32 == pid {
                return Ok((report, message));
            }
        }
    }

    /// The run's end, if the keeper has reported it.
    pub fn ended(&self) -> io::Result<Option<Ended>> {
        loop {
            match self.receive(Some(Duration::ZERO)) {
                Ok((report, _)) if report.kind == protocol::ENDED => {
                    return Ok(Some(ended(&report)))
                }
                Ok(_) => continue,
                Err(e) if e.kind() == io::ErrorKind::TimedOut => return Ok(None),
                Err(e) => return Err(e),
            }
        }
    }

    /// Has everything of the current run killed and reaped; how it ended.
    pub fn stop(&self) -> io::Result<Ended> {
        send_with_fds(self.socket.as_raw_fd(), &protocol::stop(), &[])?;
        loop {
            let (report, _) = self.receive(Some(ANSWER_WITHIN))?;
            if report.kind == protocol::ENDED {
                return Ok(ended(&report));
            }
        }
    }

    /// Waits at most `wait` (`None`: for ever) until a report is there.
    fn wait_for_report(&self, wait: Option<Duration>) -> io::Result<()> {
        let timeout = wait.map_or(-1, |w| w.as_millis().min(i32::MAX as u128) as i32);
        let mut fds = [libc::pollfd {
            fd: self.socket.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        }];
        if poll(&mut fds, timeout)? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the slot's keeper did not answer in time",
            ));
        }
        Ok(())
    }

    /// One report, waiting at most `wait` (`None`: for ever).
    fn receive(&self, wait: Option<Duration>) -> io::Result<(Report, Message)> {
        let fd = self.socket.as_raw_fd();
        // Not waiting at all, a receive that finds nothing says so itself.
        if wait != Some(Duration::ZERO) {
            self.wait_for_report(wait)?;
        }
        let mut bytes = [0u8; size_of::<Report>()];
        let message = receive_message(fd, &mut bytes)?;
        if message.len == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the slot's keeper is gone",
            ));
        }
        let report = Report::from_bytes(&bytes[..message.len])
            .ok_or_else(|| io::Error::other("a garbled report from a slot's keeper"))?;
        Ok((report, message))
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        // SAFETY: the keeper is our child; killing it (the init of its PID
        // namespace) kills what is left in there, and reaping it frees it.
        unsafe {
            libc::shutdown(self.socket.as_raw_fd(), libc::SHUT_RDWR);
            libc::kill(self.pid, libc::SIGKILL);
            let mut status = 0;
            while libc::waitpid(self.pid, &mut status, libc::__WALL) < 0
                && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
            {}
        }
    }
}

/// `poll(2)` on descriptors of ours (a negative one is skipped), again
/// when a signal interrupts it: how many are ready, 0 when `timeout_ms`
/// passed.
fn poll(fds: &mut [libc::pollfd], timeout_ms: i32) -> io::Result<i32> {
    loop {
        // SAFETY: the kernel reads and writes `fds.len()` pollfds.
        let rc = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
        if rc >= 0 {
            return Ok(rc);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

fn ended(report: &Report) -> Ended {
    Ended {
        status: (report.status != -1).then_some(report.status),
        cpu: Duration::from_micros(report.utime_us + report.stime_us),
        max_rss: report.maxrss_kb * 1024,
        empty: report.empty != 0,
    }
}

fn describe_step(blueprint: &Blueprint, step: u32) -> String {
    match step {
        process::STEP_MAPS => "map its user namespace".into(),
        process::STEP_CGROUP => "join the slot's control groups".into(),
        process::STEP_HOSTNAME => "name its host".into(),
        process::STEP_TERMINAL => "take the slot's terminal".into(),
        process::STEP_SIGNALS => "set up its signals and descriptors".into(),
        process::STEP_IDENTITY => "give up its privileges".into(),
        process::STEP_SECCOMP => "install the system call allowlist".into(),
        n => blueprint
            .root
            .get(n.saturating_sub(process::STEP_ROOT) as usize)
            .map_or_else(|| format!("do step {n}"), |s| s.describe()),
    }
}

/// Clones the keeper on its own stack, with every signal blocked meanwhile
/// (it resets referee's handlers before unblocking them).
fn clone_keeper(blueprint: &mut Blueprint, namespaces: Namespaces) -> io::Result<libc::pid_t> {
    let top = {
        let stack = &blueprint.stack;
        // SAFETY: the end of the keeper's stack (in its copy of memory).
        (unsafe { stack.as_ptr().add(stack.len()) } as usize) & !15
    };
    // SAFETY: sigset operations on local memory.
    let old = unsafe {
        let mut all: libc::sigset_t = zeroed();
        let mut old: libc::sigset_t = zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        old
    };
    // SAFETY: without CLONE_VM the keeper runs on its own copy of memory;
    // it only makes system calls (see `process`).
    let pid = unsafe {
        libc::clone(
            process::main,
            top as *mut libc::c_void,
            namespaces | libc::SIGCHLD,
            (blueprint as *mut Blueprint).cast(),
        )
    };
    let cloned = io::Error::last_os_error();
    // SAFETY: restoring this thread's mask.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut()) };
    if pid < 0 {
        return Err(cloned);
    }
    Ok(pid)
}

/// The keeper's user namespace maps referee's own uid and gid, nothing
/// else: the programs run as the user who runs referee.
fn write_maps(pid: libc::pid_t, uid: u32, gid: u32) -> io::Result<()> {
    std::fs::write(format!("/proc/{pid}/setgroups"), "deny")?;
    std::fs::write(format!("/proc/{pid}/uid_map"), format!("{uid} {uid} 1"))?;
    std::fs::write(format!("/proc/{pid}/gid_map"), format!("{gid} {gid} 1"))
}

fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: socketpair fills two descriptors on success.
    let rc = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors are new and ours.
    let (mine, theirs) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let on: libc::c_int = 1;
    // SAFETY: setsockopt reads one int. With SO_PASSCRED the kernel tells
    // referee each sender's pid, translated into referee's numbering.
    let rc = unsafe {
        libc::setsockopt(
            mine.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PASSCRED,
            (&on as *const libc::c_int).cast(),
            size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((mine, theirs))
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: pipe2 fills two descriptors on success.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors are new and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn send_with_fds(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    let fds = &fds[..fds.len().min(protocol::MAX_FDS)];
    let mut control = [0u64; 8];
    // SAFETY: a sendmsg with local buffers.
    unsafe {
        let mut iov = libc::iovec {
            iov_base: bytes.as_ptr() as *mut libc::c_void,
            iov_len: bytes.len(),
        };
        let mut msg: libc::msghdr = zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        if !fds.is_empty() {
            let len = std::mem::size_of_val(fds) as u32;
            msg.msg_control = control.as_mut_ptr().cast();
            msg.msg_controllen = libc::CMSG_SPACE(len) as usize;
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(len) as usize;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr(),
                libc::CMSG_DATA(cmsg).cast::<RawFd>(),
                fds.len(),
            );
        }
        if libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The next report, left where it is (descriptors sent with it stay
/// with it).
fn peek_report(socket: RawFd) -> io::Result<Report> {
    let mut bytes = [0u8; size_of::<Report>()];
    // SAFETY: a peek into a local buffer, without room for descriptors.
    let n = unsafe {
        libc::recv(
            socket,
            bytes.as_mut_ptr().cast(),
            bytes.len(),
            libc::MSG_PEEK | libc::MSG_DONTWAIT,
        )
    };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    if n == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the slot's keeper is gone",
        ));
    }
    Report::from_bytes(&bytes[..n as usize])
        .ok_or_else(|| io::Error::other("a garbled report from a slot's keeper"))
}

/// What came with a report.
struct Message {
    len: usize,
    /// The sender's pid, in referee's numbering.
    pid: i32,
    /// A descriptor sent along.
    fd: Option<OwnedFd>,
}

fn receive_message(socket: RawFd, buf: &mut [u8]) -> io::Result<Message> {
    let mut control = [0u64; 16];
    // SAFETY: recvmsg into local buffers; descriptors received are ours.
    unsafe {
        let mut iov = libc::iovec {
            iov_base: buf.as_mut_ptr().cast(),
            iov_len: buf.len(),
        };
        let mut msg: libc::msghdr = zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = std::mem::size_of_val(&control);
        let n = libc::recvmsg(
            socket,
            &mut msg,
            libc::MSG_CMSG_CLOEXEC | libc::MSG_DONTWAIT,
        );
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::WouldBlock {
                return Err(io::Error::new(io::ErrorKind::TimedOut, "no report yet"));
            }
            return Err(e);
        }
        let mut message = Message {
            len: n as usize,
            pid: 0,
            fd: None,
        };
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            let data = libc::CMSG_DATA(cmsg);
            match ((*cmsg).cmsg_level, (*cmsg).cmsg_type) {
                (libc::SOL_SOCKET, libc::SCM_RIGHTS) => {
                    let count =
                        ((*cmsg).cmsg_len - libc::CMSG_LEN(0) as usize) / size_of::<RawFd>();
                    for i in 0..count {
                        let fd = OwnedFd::from_raw_fd(std::ptr::read_unaligned(
                            data.cast::<RawFd>().add(i),
                        ));
                        if message.fd.is_none() {
                            message.fd = Some(fd);
                        }
                    }
                }
                (libc::SOL_SOCKET, libc::SCM_CREDENTIALS) => {
                    let cred: libc::ucred = std::ptr::read_unaligned(data.cast());
                    message.pid = cred.pid;
                }
                _ => {}
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
        Ok(message)
    }
}
