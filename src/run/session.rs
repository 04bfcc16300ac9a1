//! One run of a program: the loop that reads what it prints, types each
//! input line when it waits to read, and stops it when it exits, runs out
//! of input, time or output.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags};
use nix::sys::time::TimeSpec;

use super::notify::Notifier;
use super::procfs::Watcher;
use super::pty::Pty;
use super::{Clock, Ending, Limits, RunResult};
use crate::sandbox::Jail;
use crate::transcript::Transcript;

/// How the session learns that the program waits for input.
pub enum Detector {
    /// Seccomp notifications: each `read(0)` is reported as it happens.
    Notify(Notifier),
    /// Looking at `/proc` with a back-off.
    Watch(Watcher),
    /// Not at all: every line was typed up front.
    AllAtOnce,
}

/// Why the loop stopped.
enum Stop {
    /// The program exited (or was killed by a signal) by itself.
    Exited,
    /// The runner stopped it.
    Stopped(Ending),
}

/// What became ready during one wait.
#[derive(Default)]
struct Ready {
    output: bool,
    read_call: bool,
    exited: bool,
}

/// A running program and everything recorded about it so far.
pub struct Session<'a> {
    pub pty: Pty,
    pub pid: i32,
    pub pidfd: Option<OwnedFd>,
    pub detector: Detector,
    pub inputs: &'a [String],
    pub limits: &'a Limits,
    pub started: Instant,
    pub next: usize,
    pub transcript: Transcript,
    pub buf: Vec<u8>,
    pub jail: &'a Jail<'a>,
}

impl Session<'_> {
    /// Runs the program to its end and reaps it.
    pub fn run(mut self) -> io::Result<RunResult> {
        if matches!(self.detector, Detector::AllAtOnce) {
            self.type_everything()?;
        }
        let deadline = self.started + self.limits.wall;
        let stop = match self.drive(deadline) {
            Ok(stop) => stop,
            Err(e) => {
                self.kill_all();
                let _ = self.reap();
                return Err(e);
            }
        };
        self.finish(stop)
    }

    fn drive(&mut self, deadline: Instant) -> io::Result<Stop> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Ok(Stop::Stopped(Ending::TimedOut(Clock::Wall)));
            }
            let mut timeout = deadline - now;
            if let Detector::Watch(w) = &self.detector {
                timeout = timeout.min(w.delay());
            }
            if self.pidfd.is_none() {
                timeout = timeout.min(Duration::from_millis(1));
            }
            let ready = self.wait(timeout)?;
            if ready.output && self.read_output()? {
                return Ok(Stop::Stopped(Ending::OutputLimit));
            }
            if ready.read_call {
                if let Some(ending) = self.answer_read_call()? {
                    return Ok(Stop::Stopped(ending));
                }
            }
            if ready.exited || (self.pidfd.is_none() && self.has_exited()) {
                return Ok(Stop::Exited);
            }
            if let Some(ending) = self.look_for_waiting(ready.output)? {
                return Ok(Stop::Stopped(ending));
            }
        }
    }

    /// Waits up to `timeout` for output, a read call or the exit.
    fn wait(&self, timeout: Duration) -> io::Result<Ready> {
        let mut fds = vec![PollFd::new(self.pty.master(), PollFlags::POLLIN)];
        if let Some(pidfd) = &self.pidfd {
            fds.push(PollFd::new(pidfd.as_fd(), PollFlags::POLLIN));
        }
        if let Detector::Notify(n) = &self.detector {
            fds.push(PollFd::new(n.as_fd(), PollFlags::POLLIN));
        }
        match nix::poll::ppoll(&mut fds, Some(TimeSpec::from_duration(timeout)), None) {
            Ok(_) => {}
            Err(nix::errno::Errno::EINTR) => return Ok(Ready::default()),
            Err(e) => return Err(e.into()),
        }
        let is_ready = |fd: &PollFd| fd.revents().is_some_and(|r| !r.is_empty());
        let mut ready = Ready {
            output: is_ready(&fds[0]),
            ..Ready::default()
        };
        let mut rest = fds[1..].iter();
        if self.pidfd.is_some() {
            ready.exited = rest.next().is_some_and(is_ready);
        }
        if matches!(self.detector, Detector::Notify(_)) {
            ready.read_call = rest.next().is_some_and(is_ready);
        }
        Ok(ready)
    }

    /// Moves everything printed so far into the transcript; true when the
    /// output limit is passed (what is past the limit is dropped).
    fn read_output(&mut self) -> io::Result<bool> {
        loop {
            let n = self.pty.read_output(&mut self.buf)?;
            if n == 0 {
                return Ok(false);
            }
            let room = (self.limits.output as usize).saturating_sub(self.transcript.output_len());
            self.transcript.push_output(&self.buf[..n.min(room)]);
            if n > room {
                return Ok(true);
            }
        }
    }

    /// A read of stdin is held: let it go ahead, typing the next line
    /// first if the terminal holds nothing unread.
    fn answer_read_call(&mut self) -> io::Result<Option<Ending>> {
        let Detector::Notify(notifier) = &self.detector else {
            return Ok(None);
        };
        let Some(call) = notifier.receive()? else {
            return Ok(None);
        };
        if self.pty.unread_input()? == 0 && self.reads_this_terminal(call.pid) {
            if let Some(ending) = self.type_next_line()? {
                return Ok(Some(ending));
            }
        }
        if let Detector::Notify(notifier) = &self.detector {
            notifier.proceed(call)?;
        }
        Ok(None)
    }

    /// With the `/proc` fallback: after a pause in the program's activity,
    /// look whether it sleeps reading an empty terminal.
    fn look_for_waiting(&mut self, printed: bool) -> io::Result<Option<Ending>> {
        let Detector::Watch(watcher) = &mut self.detector else {
            return Ok(None);
        };
        if printed {
            watcher.reset();
            return Ok(None);
        }
        if watcher.sleeps_reading_stdin()? && self.pty.unread_input()? == 0 {
            let ending = self.type_next_line()?;
            if let Detector::Watch(watcher) = &mut self.detector {
                watcher.reset();
            }
            return Ok(ending);
        }
        Ok(None)
    }

    /// The program waits on an empty terminal: collect everything it
    /// printed before (so each prompt precedes its answer), then type the
    /// next line, or end the run if the case has no more input.
    fn type_next_line(&mut self) -> io::Result<Option<Ending>> {
        if self.read_output()? {
            return Ok(Some(Ending::OutputLimit));
        }
        let Some(line) = self.inputs.get(self.next) else {
            return Ok(Some(Ending::WaitingForInput));
        };
        self.transcript.push_input(line);
        self.pty.type_line(line)?;
        self.next += 1;
        Ok(None)
    }

    /// Without a way to tell when the program waits: type every line at the
    /// start. The terminal holds about 4 KiB of typed input; cases are far
    /// smaller.
    fn type_everything(&mut self) -> io::Result<()> {
        for line in self.inputs {
            self.transcript.push_input(line);
            self.pty.type_line(line)?;
        }
        self.next = self.inputs.len();
        Ok(())
    }

    /// Whether process `pid` reads from this run's terminal (and not from a
    /// file it opened as stdin).
    fn reads_this_terminal(&self, pid: i32) -> bool {
        std::fs::read_link(format!("/proc/{pid}/fd/0"))
            .map(|target| target == self.pty.slave_path())
            // Where /proc cannot say, assume the terminal.
            .unwrap_or(true)
    }

    fn has_exited(&self) -> bool {
        // SAFETY: waitid with WNOWAIT only inspects the child.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let rc = libc::waitid(
                libc::P_PID,
                self.pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            rc == 0 && info.si_pid() != 0
        }
    }

    /// Kills the program's whole process group, and whatever else the
    /// sandbox knows is the run's. Done before reaping, so the group id
    /// cannot have been reused by then.
    fn kill_all(&self) {
        // SAFETY: signalling our own child's process group.
        unsafe {
            libc::kill(-self.pid, libc::SIGKILL);
        }
        self.jail.kill_all();
    }

    /// Waits for the program to be gone; its status and resource use.
    fn reap(&self) -> io::Result<(i32, libc::rusage)> {
        let mut status = 0;
        // SAFETY: wait4 writes the status and rusage.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: see above.
            let rc = unsafe { libc::wait4(self.pid, &mut status, 0, &mut usage) };
            if rc >= 0 {
                return Ok((status, usage));
            }
            let err = io::Error::last_os_error();
            if err.raw_os_error() != Some(libc::EINTR) {
                return Err(err);
            }
        }
    }

    fn finish(mut self, stop: Stop) -> io::Result<RunResult> {
        let over_limit = matches!(stop, Stop::Stopped(Ending::OutputLimit));
        let mut over_limit_now = false;
        if !over_limit {
            over_limit_now = self.read_output()?;
        }
        self.kill_all();
        let (status, usage) = self.reap()?;
        let wall = self.started.elapsed();
        if !over_limit && !over_limit_now {
            // What a killed program printed just before the kill.
            over_limit_now = self.read_output()?;
        }
        let cpu = timeval(usage.ru_utime) + timeval(usage.ru_stime);
        let max_rss = (usage.ru_maxrss.max(0) as u64) * 1024;
        let ending = match stop {
            Stop::Stopped(ending) => ending,
            Stop::Exited if over_limit_now => Ending::OutputLimit,
            Stop::Exited => classify(status, cpu, max_rss, self.limits),
        };
        Ok(RunResult {
            transcript: self.transcript,
            ending,
            wall,
            cpu,
            max_rss,
            unread_inputs: self.inputs.len() - self.next,
        })
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// Turns a wait status into an ending. A program that died of its CPU
/// limit timed out; one that failed close to its memory limit ran out of
/// memory (the limit is on address space, so allocation fails and the
/// program crashes or raises, with most of the limit resident).
fn classify(status: i32, cpu: Duration, max_rss: u64, limits: &Limits) -> Ending {
    let near_memory_limit = limits
        .memory
        .is_some_and(|m| max_rss.saturating_mul(10) >= m.saturating_mul(7));
    if libc::WIFEXITED(status) {
        let code = libc::WEXITSTATUS(status);
        if code != 0 && near_memory_limit {
            return Ending::MemoryLimit;
        }
        return Ending::Exited(code);
    }
    let signal = libc::WTERMSIG(status);
    if signal == libc::SIGXCPU || (signal == libc::SIGKILL && cpu >= limits.cpu) {
        return Ending::TimedOut(Clock::Cpu);
    }
    if near_memory_limit {
        return Ending::MemoryLimit;
    }
    Ending::Signaled(signal)
}
