//! One run of a program: the loop that reads what it prints, types each
//! input line when it waits to read, and stops it when it exits, runs out
//! of input, time or output.

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags};
use nix::sys::time::TimeSpec;

use super::memory::Memory;
use super::outcome::{classify, Clock, Ending, RunResult};
use super::procfs::Watcher;
use super::serve;
use super::stop::{halted, halted_error, HALT_EVERY};
use crate::sandbox::listener::{self, Call, Notifier, Reply};
use crate::sandbox::pty::Pty;
use crate::sandbox::{Ended, Jail, Limits, Stdio};
use crate::transcript::Transcript;

/// What one run is given: the program, its input, its limits and the jail
/// it runs in.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    /// `argv`, starting with the program's path.
    pub argv: &'a [OsString],
    /// The case's input lines, without newlines.
    pub inputs: &'a [String],
    /// Whether the input ends after its last line (Ctrl-D on a terminal):
    /// a read then gets the end of input once, instead of the run ending
    /// with the program waiting.
    pub ends: bool,
    /// Whether stderr goes to a pipe of its own ([`OutputPipe`]), not
    /// with stdout: it is then not a terminal in any mode.
    pub errors_apart: bool,
    pub limits: &'a Limits,
    pub jail: &'a Jail,
}

/// What typing Ctrl-D sends: the terminal's end-of-input character (its
/// line discipline is canonical, so a read of an empty line returns 0).
const END_OF_INPUT: u8 = 0x04;

/// How a run learns the program waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// Seccomp notifications of its reads, answered by the runner as the
    /// terminal would (output through a pipe; see [`serve`]): needs leave
    /// to read and write the program's memory.
    Notify,
    /// Seccomp notifications of its reads, each answered by typing the
    /// line on the real terminal and letting the read go ahead: for a
    /// machine where referee may not look into the program (root in a
    /// container without `CAP_SYS_PTRACE`, the program another user).
    NotifyTyping,
    /// Watching `/proc`.
    Watch,
    /// It does not: every line is typed at the start.
    AllAtOnce,
}

/// How the session learns that the program waits for input.
enum Detector {
    /// The slot's listener: each `read(0)` is held for the runner to
    /// answer, and so are questions about the output (see [`serve`]);
    /// with `typing`, reads are answered on the terminal and questions
    /// let through (the output is the terminal itself).
    Notify { typing: bool },
    /// Looking at `/proc` with a back-off.
    Watch(Watcher),
    /// Not at all: every line was typed up front.
    AllAtOnce,
}

/// How often output is collected while the program neither reads nor
/// ends (with notifications): a program printing without pause fills the
/// terminal's buffer and waits until then.
const COLLECT_EVERY: Duration = Duration::from_millis(10);

/// Why the loop stopped.
enum Stop {
    /// The program exited (or was killed by a signal) by itself, and the
    /// slot's keeper cleared what it left.
    Exited(Ended),
    /// The runner stopped it.
    Stopped(Ending),
}

/// What became ready during one wait.
#[derive(Default)]
struct Ready {
    output: bool,
    read_call: bool,
    exited: bool,
    /// The stderr pipe, when kept apart, has something.
    errors: bool,
}

/// The pipe a program's stdout and stderr go to, when notifications let
/// the runner answer for the terminal (see [`serve`]).
struct OutputPipe {
    /// The runner's end, non-blocking.
    reader: OwnedFd,
    /// The program's end, kept to recognise it in the program's calls.
    writer: OwnedFd,
}

impl OutputPipe {
    /// A pipe holding up to `limit` bytes where the system allows, so a
    /// program printing more than a terminal screen between two reads
    /// does not wait for the runner to empty it.
    fn open(limit: u64) -> io::Result<OutputPipe> {
        let (reader, writer) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
        let flags = nix::fcntl::OFlag::O_NONBLOCK;
        nix::fcntl::fcntl(reader.as_fd(), nix::fcntl::FcntlArg::F_SETFL(flags))?;
        let size = limit.saturating_add(1).min(1 << 20) as libc::c_int;
        // Best effort: past the system's limit the pipe keeps 64 KiB.
        let _ = nix::fcntl::fcntl(writer.as_fd(), nix::fcntl::FcntlArg::F_SETPIPE_SZ(size));
        Ok(OutputPipe { reader, writer })
    }
}

/// A running program and everything recorded about it so far.
pub struct Session<'a> {
    job: Job<'a>,
    pty: &'a Pty,
    /// Where its output goes, if not to the terminal.
    output: Option<OutputPipe>,
    /// Where its stderr goes when the case keeps it apart.
    errors: Option<OutputPipe>,
    /// The program's process id.
    pid: i32,
    detector: Detector,
    /// The slot's listener, if it has one: answered as the terminal would
    /// with [`Detector::Notify`], let through otherwise.
    listener: Option<Notifier<'a>>,
    started: Instant,
    /// The next input line to give.
    next: usize,
    transcript: Transcript,
    buf: Vec<u8>,
    /// What is left of the line being given to the program, when it read
    /// less than a whole line.
    pending: Vec<u8>,
    /// Whether any input was typed on the terminal itself (which the
    /// program then reads without the runner's help).
    typed: bool,
    /// The processes whose descriptor 0 was seen to be the terminal,
    /// since any process last changed its own (see
    /// [`Session::reads_the_terminal`]).
    reading_the_terminal: Vec<i32>,
    /// Whether the end of input was given.
    ended: bool,
    /// The memory of the run's processes, where the runner answers their
    /// calls.
    memory: Memory<'a>,
    /// Whether some process of the run made one of its standard
    /// descriptors another file (see [`listener::changes_standard`]).
    changed_standard: bool,
    /// Watching `/proc`: how many times the program had slept when the
    /// end of input was typed, until it is seen to have read it.
    end_unread: Option<u64>,
    /// For a jail that watches a folder: its size before each input line
    /// was given (see [`Jail::watch`]).
    marks: Vec<u64>,
}

impl<'a> Session<'a> {
    /// Starts `job`'s program in its jail, its output going where `how`
    /// needs it.
    pub fn start(job: Job<'a>, how: How) -> io::Result<Session<'a>> {
        let jail = job.jail;
        let pty = jail.pty();
        let output = match how {
            How::Notify => Some(OutputPipe::open(job.limits.output)?),
            _ => None,
        };
        let notified = matches!(how, How::Notify | How::NotifyTyping);
        let stdout = output
            .as_ref()
            .map_or(pty.slave(), |pipe| pipe.writer.as_fd());
        let errors = match job.errors_apart {
            true => Some(OutputPipe::open(job.limits.output)?),
            false => None,
        };
        let stderr = errors.as_ref().map_or(stdout, |pipe| pipe.writer.as_fd());
        let listener = jail.listener().map(Notifier::new);
        if notified && listener.is_none() {
            return Err(io::Error::other("the slot has no listener"));
        }
        if job.ends && !notified {
            pty.allow_end_of_input(END_OF_INPUT)?;
        }
        let started = Instant::now();
        let stdio = Stdio {
            stdin: pty.slave(),
            stdout,
            stderr,
        };
        let spawned = jail.spawn(job.argv, stdio, how == How::Watch)?;
        let detector = match how {
            How::Notify => Detector::Notify { typing: false },
            How::NotifyTyping => Detector::Notify { typing: true },
            // A watcher that cannot start leaves the program typed to all
            // at once, as on a machine without /proc.
            How::Watch => Watcher::new(spawned.pid).map_or(Detector::AllAtOnce, Detector::Watch),
            How::AllAtOnce => Detector::AllAtOnce,
        };
        Ok(Session {
            job,
            pty,
            output,
            errors,
            pid: spawned.pid,
            detector,
            listener,
            started,
            next: 0,
            transcript: Transcript::new(),
            buf: vec![0; 64 * 1024],
            pending: Vec::new(),
            typed: false,
            reading_the_terminal: Vec::new(),
            ended: false,
            memory: Memory::new(jail),
            changed_standard: false,
            end_unread: None,
            marks: Vec::new(),
        })
    }

    /// Runs the program to its end and reaps it.
    pub fn run(mut self) -> io::Result<RunResult> {
        if matches!(self.detector, Detector::AllAtOnce) {
            self.type_everything()?;
        }
        let deadline = self.started + self.job.limits.wall;
        let stop = match self.drive(deadline) {
            Ok(stop) => stop,
            Err(e) => {
                let _ = self.job.jail.stop();
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
            if halted() {
                return Err(halted_error());
            }
            let mut timeout = (deadline - now).min(HALT_EVERY);
            if let Detector::Watch(w) = &self.detector {
                timeout = timeout.min(w.delay());
            }
            if matches!(self.detector, Detector::Notify { .. }) {
                timeout = timeout.min(COLLECT_EVERY);
            }
            let ready = self.wait(timeout)?;
            let idle = !(ready.read_call || ready.exited);
            if ready.output && self.collect(false)? {
                return Ok(Stop::Stopped(Ending::OutputLimit));
            }
            if ready.errors && self.collect_errors()? {
                return Ok(Stop::Stopped(Ending::OutputLimit));
            }
            if idle && self.output.is_some() && self.read_output()? {
                return Ok(Stop::Stopped(Ending::OutputLimit));
            }
            if ready.read_call {
                if let Some(ending) = self.answer_call()? {
                    return Ok(Stop::Stopped(ending));
                }
            }
            if ready.exited {
                if let Some(ended) = self.job.jail.ended()? {
                    return Ok(Stop::Exited(ended));
                }
            }
            if let Some(ending) = self.look_for_waiting(ready.output)? {
                return Ok(Stop::Stopped(ending));
            }
        }
    }

    /// Waits up to `timeout` for output, a read call or the exit.
    fn wait(&self, timeout: Duration) -> io::Result<Ready> {
        // With the output on a pipe, the program's output is collected when
        // it reads or ends, and every few milliseconds in between: waking
        // for each line would cost a switch for nothing. The terminal is
        // then looked at on the same occasions, not watched: whatever looks
        // at it takes a lock all the kernel's terminals share, and only a
        // program writing to `/dev/tty` itself writes there.
        let watch_terminal = self.output.is_none();
        let mut fds = Vec::with_capacity(4);
        if watch_terminal {
            fds.push(PollFd::new(self.pty.master(), PollFlags::POLLIN));
        }
        // A program writing to stderr without pause would fill its pipe
        // and wait: it is emptied as it fills.
        if let Some(errors) = &self.errors {
            fds.push(PollFd::new(errors.reader.as_fd(), PollFlags::POLLIN));
        }
        fds.push(PollFd::new(self.job.jail.as_fd(), PollFlags::POLLIN));
        if let Some(listener) = &self.listener {
            fds.push(PollFd::new(listener.as_fd(), PollFlags::POLLIN));
        }
        match nix::poll::ppoll(&mut fds, Some(TimeSpec::from_duration(timeout)), None) {
            Ok(_) => {}
            Err(nix::errno::Errno::EINTR) => return Ok(Ready::default()),
            Err(e) => return Err(e.into()),
        }
        let is_ready = |fd: &PollFd| fd.revents().is_some_and(|r| !r.is_empty());
        let mut rest = fds.iter();
        let mut ready = Ready::default();
        if watch_terminal {
            ready.output = rest.next().is_some_and(is_ready);
        }
        if self.errors.is_some() {
            ready.errors = rest.next().is_some_and(is_ready);
        }
        ready.exited = rest.next().is_some_and(is_ready);
        ready.read_call = rest
            .next()
            .is_some_and(|fd| fd.revents().is_some_and(|r| r.contains(PollFlags::POLLIN)));
        Ok(ready)
    }

    /// Moves everything printed so far into the transcript; true when the
    /// output limit is passed (what is past the limit is dropped). What
    /// went to the terminal (a program that opened `/dev/tty`) comes
    /// first.
    fn read_output(&mut self) -> io::Result<bool> {
        Ok(self.collect(false)?
            || (self.output.is_some() && self.collect(true)?)
            || self.collect_errors()?)
    }

    /// Moves what the program wrote to stderr, when kept apart, into the
    /// transcript; true when the output limit (stdout's and stderr's
    /// bytes and lines together) is passed.
    fn collect_errors(&mut self) -> io::Result<bool> {
        let Some(pipe) = &self.errors else {
            return Ok(false);
        };
        loop {
            let n = read_pipe(pipe.reader.as_fd(), &mut self.buf)?;
            if n == 0 {
                return Ok(false);
            }
            let (kept, over) = self.room_for(n);
            self.transcript.push_errors(&self.buf[..kept]);
            if over {
                return Ok(true);
            }
            if n < self.buf.len() {
                return Ok(false);
            }
        }
    }

    /// How many of the first `n` bytes read into the buffer fit within
    /// the output's limits, and whether any did not.
    fn room_for(&self, n: usize) -> (usize, bool) {
        let room = (self.job.limits.output as usize).saturating_sub(self.transcript.output_len());
        let printed = &self.buf[..n.min(room)];
        let lines_room = self
            .job
            .limits
            .lines()
            .saturating_sub(self.transcript.output_lines());
        let kept = crate::transcript::within_lines(printed, lines_room);
        (kept, n > room || kept < printed.len())
    }

    /// Like [`Session::read_output`], as the program stops to read. With
    /// the output on a pipe, only the pipe: what a program writes to the
    /// terminal device itself (rare) is collected every few milliseconds
    /// and at the end, so it may come later in the transcript than it was
    /// printed (see [`Session::wait`]).
    fn read_printed(&mut self) -> io::Result<bool> {
        self.collect(self.output.is_some())
    }

    fn collect(&mut self, from_pipe: bool) -> io::Result<bool> {
        loop {
            let n = match (&self.output, from_pipe) {
                (Some(pipe), true) => read_pipe(pipe.reader.as_fd(), &mut self.buf)?,
                _ => self.pty.read_output(&mut self.buf)?,
            };
            if n == 0 {
                return Ok(false);
            }
            let (kept, over) = self.room_for(n);
            self.transcript.push_output(&self.buf[..kept]);
            if over {
                return Ok(true);
            }
            // One read empties a pipe of all it holds, up to the buffer's
            // size; a terminal may give less than it holds.
            if from_pipe && n < self.buf.len() {
                return Ok(false);
            }
        }
    }

    /// A call is held: answer it.
    fn answer_call(&mut self) -> io::Result<Option<Ending>> {
        let Some(notifier) = &self.listener else {
            return Ok(None);
        };
        if !matches!(self.detector, Detector::Notify { .. }) {
            notifier.let_through()?;
            return Ok(None);
        }
        let Some(call) = notifier.receive()? else {
            return Ok(None);
        };
        let reply = if call.nr == libc::SYS_read {
            match self.answer_read(&call)? {
                Ok(reply) => reply,
                Err(ending) => return Ok(Some(ending)),
            }
        } else if listener::changes_standard(&call) {
            // Its descriptor 0 may be another file from now on: every
            // process is checked again at its next read.
            self.reading_the_terminal.clear();
            self.changed_standard = true;
            Reply::Continue
        } else {
            self.answer_question(&call)
        };
        if let Some(notifier) = &self.listener {
            notifier.reply(&call, reply)?;
        }
        Ok(None)
    }

    /// The program is about to read stdin: give it the next line (or the
    /// rest of one it did not read whole), or end the run if the case has
    /// no more input. Ends with an [`Ending`] instead of a reply.
    fn answer_read(&mut self, call: &Call) -> io::Result<Result<Reply, Ending>> {
        let wanted = call.args[2] as usize;
        let terminal = self.reads_the_terminal(call.pid);
        if wanted == 0 || terminal == Some(false) {
            return Ok(Ok(Reply::Continue));
        }
        if self.typed && self.pty.unread_input()? > 0 {
            return Ok(Ok(Reply::Continue));
        }
        if self.pending.is_empty() {
            if self.read_printed()? {
                return Ok(Err(Ending::OutputLimit));
            }
            let Some(line) = self.job.inputs.get(self.next) else {
                if self.job.ends && !self.ended && self.still_held(call) {
                    // A read of nothing: the end of input, once.
                    self.ended = true;
                    return Ok(Ok(Reply::Return(0)));
                }
                return Ok(Err(Ending::WaitingForInput));
            };
            self.mark();
            self.transcript.push_input(line);
            self.next += 1;
            self.pending.extend_from_slice(line.as_bytes());
            self.pending.push(b'\n');
        }
        if !self.still_held(call) {
            return Ok(Ok(Reply::Continue));
        }
        // Typing, or not sure the read is of the terminal: the line is
        // typed there, for the program to read from whatever it reads.
        if matches!(self.detector, Detector::Notify { typing: true }) || terminal.is_none() {
            return Ok(Ok(self.type_pending()?));
        }
        let give = wanted.min(self.pending.len());
        match self
            .memory
            .write(call.pid, call.args[1], &self.pending[..give])
        {
            Ok(n) if n > 0 => {
                self.pending.drain(..n);
                Ok(Ok(Reply::Return(n as i64)))
            }
            // Memory the runner may not write: type the rest of the line
            // on the terminal, for the program to read itself.
            Err(e) if e.raw_os_error() != Some(libc::EFAULT) => Ok(Ok(self.type_pending()?)),
            _ => Ok(Ok(Reply::Fail(libc::EFAULT))),
        }
    }

    /// Types what is left of the line on the terminal and lets the held
    /// read go ahead: the kernel gives the program the line itself.
    fn type_pending(&mut self) -> io::Result<Reply> {
        self.pty.type_bytes(&self.pending, false)?;
        self.pending.clear();
        self.typed = true;
        Ok(Reply::Continue)
    }

    /// Whether process `pid`'s descriptor 0 is the run's terminal: asked
    /// of the kernel (`kcmp`, a couple of microseconds) once per process,
    /// and again only after some process of the run made its descriptor 0
    /// another file (see [`listener::changes_standard`]), not at every
    /// read. `None` when nobody can tell.
    fn reads_the_terminal(&mut self, pid: i32) -> Option<bool> {
        if self.reading_the_terminal.contains(&pid) {
            return Some(true);
        }
        let ours = match self.is_ours(pid, 0, self.pty.slave(), true) {
            Some(ours) => ours,
            // Typing, a descriptor nobody can compare is taken to be the
            // terminal: a program that made its descriptor 0 another file
            // and reads it then finds the line still typed on its
            // terminal, a cost to its own transcript alone.
            None => {
                return matches!(self.detector, Detector::Notify { typing: true }).then_some(true)
            }
        };
        if ours {
            // A program that keeps starting processes makes a long list:
            // forgetting costs only a check.
            if self.reading_the_terminal.len() >= 64 {
                self.reading_the_terminal.clear();
            }
            self.reading_the_terminal.push(pid);
        }
        Some(ours)
    }

    /// Whether descriptor `fd` of process `pid` is `ours`: asked of the
    /// kernel. Where referee may not look: `given` (whether the run was
    /// started with it so) while no process of the run has made a
    /// standard descriptor another file, else asked of the slot's keeper.
    /// `None` when nobody can tell.
    fn is_ours(&self, pid: i32, fd: i32, ours: BorrowedFd<'_>, given: bool) -> Option<bool> {
        // Where the keeper opens memory, the kernel refuses referee both
        // ways of asking: not asked.
        let asked = match self.job.jail.memory_through_keeper() {
            true => None,
            false => serve::same_file(pid, fd, ours),
        };
        asked.or_else(|| {
            if !self.changed_standard {
                return Some(given);
            }
            self.job.jail.same_file_as(pid, fd, ours).ok()
        })
    }

    /// The program asks whether its output is a terminal: answer for the
    /// terminal, if that output is still the pipe the run gave it.
    fn answer_question(&mut self, call: &Call) -> Reply {
        let Some(pipe) = &self.output else {
            return Reply::Continue;
        };
        // Stderr is another pipe where the case keeps it apart.
        let given = !(call.fd() == 2 && self.errors.is_some());
        let ours = self
            .is_ours(call.pid, call.fd(), pipe.writer.as_fd(), given)
            .unwrap_or(false);
        if !ours || !self.still_held(call) {
            return Reply::Continue;
        }
        serve::answer_question(
            call,
            self.pty.slave(),
            self.job.jail.program_group(self.pid),
            &mut self.memory,
        )
    }

    /// Whether `call`'s process still waits for the answer, so that its
    /// pid still names it and its memory may be written. (Every process
    /// of the run is the slot keeper's child, reaped by the keeper, so
    /// even the program's own pid is asked about.)
    fn still_held(&self, call: &Call) -> bool {
        self.listener.as_ref().is_some_and(|n| n.still_held(call))
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
        // A program that is gone (its keeper reaps it at once) does not
        // wait: its end is on its way.
        let asleep = watcher.sleeps_reading_stdin().unwrap_or(false);
        if let Some(before) = self.end_unread {
            // The end of input leaves nothing unread to tell by: the read
            // it answered is over once the program has run or slept anew.
            if asleep && watcher.sleeps().unwrap_or(u64::MAX) <= before {
                return Ok(None);
            }
            self.end_unread = None;
        }
        if asleep && self.pty.unread_input()? == 0 {
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
        let Some(line) = self.job.inputs.get(self.next) else {
            if self.job.ends && !self.ended {
                self.ended = true;
                if let Detector::Watch(watcher) = &self.detector {
                    self.end_unread = Some(watcher.sleeps().unwrap_or(0));
                }
                self.pty.type_bytes(&[END_OF_INPUT], true)?;
                return Ok(None);
            }
            return Ok(Some(Ending::WaitingForInput));
        };
        self.mark();
        self.transcript.push_input(line);
        self.pty.type_line(line)?;
        self.next += 1;
        Ok(None)
    }

    /// Without a way to tell when the program waits: type every line at the
    /// start. The terminal holds about 4 KiB of typed input; cases are far
    /// smaller.
    fn type_everything(&mut self) -> io::Result<()> {
        for line in self.job.inputs {
            self.mark();
            self.transcript.push_input(line);
            self.pty.type_line(line)?;
        }
        self.next = self.job.inputs.len();
        if self.job.ends {
            self.ended = true;
            self.pty.type_bytes(&[END_OF_INPUT], true)?;
        }
        Ok(())
    }

    /// Notes the watched folder's size before an input line is given.
    fn mark(&mut self) {
        if let Some(folder) = self.job.jail.watched() {
            self.marks.push(folder_bytes(folder));
        }
    }

    fn finish(mut self, stop: Stop) -> io::Result<RunResult> {
        let over_limit = matches!(stop, Stop::Stopped(Ending::OutputLimit));
        let mut over_limit_now = false;
        if !over_limit {
            over_limit_now = self.read_output()?;
        }
        let ended = match stop {
            Stop::Exited(ended) => ended,
            Stop::Stopped(_) => self.job.jail.stop()?,
        };
        let wall = self.started.elapsed();
        // What a killed program printed just before the kill (one that
        // exited had printed everything before its end was reported).
        if !over_limit && !over_limit_now && matches!(stop, Stop::Stopped(_)) {
            over_limit_now = self.read_output()?;
        }
        let ending = match stop {
            Stop::Stopped(ending) => ending,
            Stop::Exited(_) if over_limit_now => Ending::OutputLimit,
            Stop::Exited(ended) => {
                // A status the keeper could not reap: killed, for all we know.
                let status = ended.status.unwrap_or(libc::SIGKILL);
                classify(status, ended.cpu, ended.max_rss, self.job.limits)
            }
        };
        Ok(RunResult {
            transcript: self.transcript,
            ending,
            wall,
            cpu: ended.cpu,
            max_rss: ended.max_rss,
            unread_inputs: self.job.inputs.len() - self.next,
            job_out_of_memory: false,
            report_marks: self.marks,
            reports: Vec::new(),
        })
    }
}

/// How many bytes the regular files directly in `folder` hold (links and
/// folders the program put there are not followed). Only the first
/// [`WATCHED_FILES`] entries count: the program can fill the folder.
fn folder_bytes(folder: &std::path::Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    entries
        .take(WATCHED_FILES)
        .filter_map(|e| e.ok()?.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// How many entries of a watched folder are looked at.
pub const WATCHED_FILES: usize = 64;

/// Reads what is waiting in the output pipe; 0 when nothing is.
fn read_pipe(pipe: BorrowedFd<'_>, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match nix::unistd::read(pipe, buf) {
            Ok(n) => return Ok(n),
            Err(nix::errno::Errno::EAGAIN) => return Ok(0),
            Err(nix::errno::Errno::EINTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}
