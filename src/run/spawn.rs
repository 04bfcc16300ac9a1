//! Starting a program on the terminal, in a session of its own, under
//! resource limits.

use std::borrow::Cow;
use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::notify::{ChildSide, Installer};
use super::pty::Pty;
use super::{Limits, Place, Program};
use crate::sandbox::Confinement;

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

/// Starts `program` in the place's working folder with exactly its
/// environment, its stdin on the terminal's slave and its stdout and
/// stderr there too or on `output`, as the leader of a new session whose
/// controlling terminal is that slave, under the resource limits and the
/// sandbox's confinement. With `installer`, reads of stdin and questions
/// about the output are held for the runner (see [`super::notify`]).
///
/// The child is made with `clone(CLONE_VM | CLONE_VFORK)`, as
/// `posix_spawn` does, rather than `fork`: it borrows referee's memory
/// until `exec` instead of copying its page tables, which is most of what
/// starting a process costs a large, multi-threaded parent.
pub fn start(
    program: &Program,
    place: &Place<'_>,
    limits: &Limits,
    pty: &Pty,
    output: Option<BorrowedFd<'_>>,
    installer: Option<&Installer>,
) -> io::Result<Started> {
    let slave = pty.slave_for_child()?;
    let stdout = output.map_or(slave.as_raw_fd(), |fd| fd.as_raw_fd());
    let plan = Plan::new(
        program,
        place,
        limits,
        [slave.as_raw_fd(), stdout],
        installer,
    )?;
    let pid = plan.spawn()?;
    drop(slave);
    Ok(Started {
        pid,
        pidfd: pidfd_open(pid),
    })
}

/// Everything the child needs, prepared before `clone`: the child makes
/// system calls only, on this memory.
struct Plan {
    path: CString,
    // Owns the strings `argv_ptrs` points into.
    _argv: Vec<CString>,
    argv_ptrs: Vec<*const libc::c_char>,
    _env: Vec<CString>,
    env_ptrs: Vec<*const libc::c_char>,
    cwd: CString,
    /// The descriptors to make the child's stdin, and its stdout and
    /// stderr.
    stdio: [RawFd; 2],
    rlimits: Rlimits,
    confinement: Confinement,
    installer: Option<ChildSide>,
    /// The filter the installer installs: its own, chained after the
    /// sandbox's when there is one (held here, for the child to read).
    _filter: Option<Cow<'static, [libc::sock_filter]>>,
    /// Where the child reports a failure before `exec` (an errno).
    report: RawFd,
    /// The signals whose handling the child puts back to the default.
    signals: &'static [libc::c_int],
}

fn c_string(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a command"))
}

impl Plan {
    fn new(
        program: &Program,
        place: &Place<'_>,
        limits: &Limits,
        stdio: [RawFd; 2],
        installer: Option<&Installer>,
    ) -> io::Result<Plan> {
        let first = program
            .argv
            .first()
            .ok_or_else(|| io::Error::other("a program needs a command"))?;
        let path = c_string(resolve(first)?.as_os_str().as_bytes())?;
        let argv: Vec<CString> = program
            .argv
            .iter()
            .map(|a| c_string(a.as_bytes()))
            .collect::<io::Result<_>>()?;
        let env: Vec<CString> = place
            .env
            .iter()
            .map(|(k, v)| c_string(&[k.as_bytes(), b"=", v.as_bytes()].concat()))
            .collect::<io::Result<_>>()?;
        let pointers = |strings: &[CString]| -> Vec<*const libc::c_char> {
            strings
                .iter()
                .map(|s| s.as_ptr())
                .chain(std::iter::once(std::ptr::null()))
                .collect()
        };
        // One seccomp filter where the sandbox and the runner each want one.
        let (confinement, filter) = match (installer, place.confinement.filter()) {
            (Some(installer), Some(sandbox)) => (
                place.confinement.without_filter(),
                Some(chained(sandbox, installer.filter())),
            ),
            (Some(installer), None) => (place.confinement, Some(Cow::Borrowed(installer.filter()))),
            (None, _) => (place.confinement, None),
        };
        let child_side = match (installer, &filter) {
            (Some(installer), Some(filter)) => Some(installer.child_side(filter)),
            _ => None,
        };
        Ok(Plan {
            path,
            argv_ptrs: pointers(&argv),
            _argv: argv,
            env_ptrs: pointers(&env),
            _env: env,
            cwd: c_string(place.workdir.as_os_str().as_bytes())?,
            stdio,
            rlimits: Rlimits::from(limits),
            confinement,
            installer: child_side,
            _filter: filter,
            report: -1,
            signals: signals_to_reset(),
        })
    }

    /// Starts the child; returns its pid once it has called `exec`.
    fn spawn(mut self) -> io::Result<i32> {
        let mut fds = [0 as RawFd; 2];
        // SAFETY: pipe2 fills two fds on success.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both fds were just created and are ours.
        let (reader, writer) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        self.report = writer.as_raw_fd();
        let pid = CHILD_STACK.with_borrow_mut(|stack| self.clone_on(stack))?;
        drop(writer);
        // The report pipe closes when `exec` has gone far enough to close
        // descriptors. `clone` returns earlier (when the child lets go of
        // referee's memory); carrying on then would set the runner against
        // the child for the processor in the middle of its `exec`, which
        // measurably slows every run where processors are scarce.
        let mut errno = [0u8; 4];
        // SAFETY: reading at most 4 bytes into the buffer.
        let n = unsafe { libc::read(reader.as_raw_fd(), errno.as_mut_ptr().cast(), 4) };
        if n == 4 {
            // The child failed before exec: reap it and say why.
            let mut status = 0;
            // SAFETY: reaping our own child.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            return Err(io::Error::from_raw_os_error(i32::from_ne_bytes(errno)));
        }
        Ok(pid)
    }

    fn clone_on(&self, stack: &mut [u8]) -> io::Result<i32> {
        // SAFETY: the stack grows down from its end, suitably aligned.
        let top = unsafe { stack.as_mut_ptr().add(stack.len()) } as usize & !15;
        // Signals stay blocked until the child has reset their handlers,
        // so none of referee's handlers runs in it.
        let all = signals_blocked()?;
        // SAFETY: with CLONE_VFORK this thread waits until the child has
        // called exec or exited, so `self` and the stack outlive its use;
        // the child only makes system calls (see `child`).
        let pid = unsafe {
            libc::clone(
                child,
                top as *mut libc::c_void,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                self as *const Plan as *mut libc::c_void,
            )
        };
        let cloned = io::Error::last_os_error();
        restore_signals(&all);
        if pid < 0 {
            return Err(cloned);
        }
        Ok(pid)
    }
}

/// The runner's filter chained after the sandbox's. Both are the same
/// for every run of this process, so the chain is made once (and made
/// again only for a sandbox filter other than the first one seen).
fn chained(
    sandbox: &[libc::sock_filter],
    notify: &'static [libc::sock_filter],
) -> Cow<'static, [libc::sock_filter]> {
    type Made = ((usize, usize), Box<[libc::sock_filter]>);
    static CHAINED: OnceLock<Made> = OnceLock::new();
    let key = (sandbox.as_ptr() as usize, sandbox.len());
    let (made_for, filter) =
        CHAINED.get_or_init(|| (key, crate::sandbox::seccomp::chain(sandbox, notify)));
    if *made_for == key {
        Cow::Borrowed(filter)
    } else {
        Cow::Owned(crate::sandbox::seccomp::chain(sandbox, notify).into_vec())
    }
}

thread_local! {
    /// The stack the child runs on between `clone` and `exec`: one per
    /// thread, reused (the thread waits while its child uses it).
    static CHILD_STACK: std::cell::RefCell<Box<[u8]>> =
        std::cell::RefCell::new(vec![0u8; 256 * 1024].into_boxed_slice());
}

/// The program's path: as given when it names a file, else found on PATH.
fn resolve(program: &std::ffi::OsStr) -> io::Result<PathBuf> {
    let path = Path::new(program);
    if program.as_bytes().contains(&b'/') {
        return Ok(path.to_path_buf());
    }
    crate::submission::find_on_path(&program.to_string_lossy()).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("{} is not on PATH", path.display()),
        )
    })
}

/// Blocks every signal in this thread; the previous mask.
fn signals_blocked() -> io::Result<libc::sigset_t> {
    // SAFETY: plain sigset operations on local memory.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        let rc = libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc));
        }
        Ok(old)
    }
}

fn restore_signals(mask: &libc::sigset_t) {
    // SAFETY: restoring a mask this thread had.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, mask, std::ptr::null_mut());
    }
}

/// The child, between `clone` and `exec`: system calls only, no
/// allocation, no locks (it shares referee's memory).
extern "C" fn child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: the parent passed a valid Plan and waits for us.
    let plan = unsafe { &*(arg as *const Plan) };
    let errno = match prepare(plan) {
        // SAFETY: exec with NUL-terminated arrays prepared by the parent.
        Ok(()) => unsafe {
            libc::execve(
                plan.path.as_ptr(),
                plan.argv_ptrs.as_ptr(),
                plan.env_ptrs.as_ptr(),
            );
            io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EINVAL)
        },
        Err(e) => e.raw_os_error().unwrap_or(libc::EINVAL),
    };
    // SAFETY: reporting to the parent and leaving without unwinding.
    unsafe {
        libc::write(plan.report, errno.to_ne_bytes().as_ptr().cast(), 4);
        libc::_exit(127)
    }
}

fn check(rc: libc::c_int) -> io::Result<()> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// The child's set-up: stdio in place, a session of its own with the
/// terminal as its controlling terminal, default signal handling, limits,
/// confinement.
fn prepare(plan: &Plan) -> io::Result<()> {
    let [stdin, stdout] = plan.stdio;
    // SAFETY: system calls on fds and strings the parent prepared.
    unsafe {
        check(libc::dup2(stdin, 0))?;
        check(libc::dup2(stdout, 1))?;
        check(libc::dup2(stdout, 2))?;
        check(libc::chdir(plan.cwd.as_ptr()))?;
        check(libc::setsid())?;
        check(libc::ioctl(0, libc::TIOCSCTTY, 0))?;
        for &signal in plan.signals {
            libc::signal(signal, libc::SIG_DFL);
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
    }
    plan.rlimits.apply()?;
    plan.confinement.apply()?;
    if let Some(installer) = plan.installer {
        installer.install()?;
    }
    Ok(())
}

/// The signals a child must put back to their default handling before it
/// unblocks signals and `exec`s: those referee ignores (an ignored signal
/// stays ignored across `exec`) or handles (a handler must not run in a
/// child sharing referee's memory). Found once; the signals a Ctrl-C
/// handler takes (`SIGINT`, `SIGTERM`, `SIGHUP`) and `SIGPIPE` are always
/// included, in case a handler comes later. A few system calls per run
/// instead of one per signal.
fn signals_to_reset() -> &'static [libc::c_int] {
    static SIGNALS: OnceLock<Vec<libc::c_int>> = OnceLock::new();
    SIGNALS.get_or_init(|| {
        let always = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGPIPE];
        (1..libc::SIGRTMAX())
            .filter(|&signal| signal != libc::SIGKILL && signal != libc::SIGSTOP)
            .filter(|signal| always.contains(signal) || !is_default(*signal))
            .collect()
    })
}

/// Whether `signal` has its default handling in this process.
fn is_default(signal: libc::c_int) -> bool {
    // SAFETY: sigaction with a null new action only reads the current one.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0
            && current.sa_sigaction == libc::SIG_DFL
    }
}

fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open returns a new fd or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative result is a fresh fd we own.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}
