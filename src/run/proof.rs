//! Proving, before anything is graded, that this machine lets referee run
//! a program as a person would: in a real slot of the sandbox, a known
//! program's transcript must come out exactly as it must (its prompt
//! before the line that answers it, the line read, what it printed after
//! kept when the case's input runs out).
//!
//! Each way of telling that a program waits is tried in turn, best first
//! ([`How`]); the first that proves right is the one every run of the
//! process uses. Where none does (root in a container that may not look
//! at another user's process, say), referee refuses to grade rather than
//! give every student a wrong grade, and says what is missing.

use std::ffi::OsString;
use std::sync::OnceLock;
use std::time::Duration;

use super::procfs::Watcher;
use super::session::{How, Job, Session};
use super::{Ending, Limits};
use crate::sandbox::{self, listener};
use crate::transcript::{Event, Transcript};

/// What the proof program is given to read.
const NAME: &str = "world";

/// A program every Linux has (`/bin/sh`, in every slot's root), asked to
/// check that both its input and its output are a terminal, prompt, read
/// a line, answer it, prompt again and wait for a line that never comes.
const SCRIPT: &str = "if [ -t 0 ] && [ -t 1 ]; then printf 'name? '; read -r name; \
                      printf 'hello, %s\\nagain? ' \"$name\"; read -r again; \
                      else echo 'no terminal'; fi";

/// How waits are told, once proven; every run of the process uses it.
static PROVEN: OnceLock<How> = OnceLock::new();

/// The way runs tell that a program waits: the proven one, else (for a
/// library user that proved nothing) the best this machine offers.
pub(super) fn chosen(has_listener: bool) -> How {
    if let Some(how) = PROVEN.get() {
        return *how;
    }
    match listener::forced_detection() {
        Some("none") => How::AllAtOnce,
        Some("proc") if Watcher::available() => How::Watch,
        _ if has_listener => How::Notify,
        _ if Watcher::available() => How::Watch,
        _ => How::AllAtOnce,
    }
}

/// The way proven, if the proof ran and passed.
pub fn proven() -> Option<How> {
    PROVEN.get().copied()
}

/// Why referee will not grade here: every way it tried, and what went
/// wrong with each.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "referee cannot grade on this machine: a known program (/bin/sh asking for a \
     name) did not run as a person would run it in the sandbox, so every grade \
     would be wrong.\n{}\n{WHAT_TO_DO}",
    .tried.iter().map(|(how, why)| format!("  {}: {why}", describe(*how))).collect::<Vec<_>>().join("\n")
)]
pub struct Unproven {
    /// Each way tried, and what went wrong with it.
    pub tried: Vec<(How, String)>,
}

/// What to do where the proof fails: said by the refusal and by `doctor`.
pub const WHAT_TO_DO: &str = "What to do: in a container, start it with \
     `--cap-add SYS_PTRACE` or allow seccomp notifications (Linux 5.5 or later, \
     and REFEREE_DETECT unset or `notify`); or run referee on the machine itself. \
     `referee doctor` says which protections this machine allows.";

/// Proves, once for the process, that runs come out right here, and
/// fixes the way every later run tells that a program waits. The proof
/// runs in this thread's slot, which goes back to the pool after.
pub fn prove() -> Result<How, Unproven> {
    proof().clone().map(|(how, _)| how)
}

/// The better ways the proof tried before the one it kept, and why each
/// failed: for `referee doctor` to say why a slower way is used.
pub fn passed_over() -> Tried {
    proof().clone().map(|(_, over)| over).unwrap_or_default()
}

/// Each way tried and what went wrong with it.
type Tried = Vec<(How, String)>;

fn proof() -> &'static Result<(How, Tried), Unproven> {
    static RESULT: OnceLock<Result<(How, Tried), Unproven>> = OnceLock::new();
    RESULT.get_or_init(|| {
        let result = prove_now();
        sandbox::release_thread_slot();
        if let Ok((how, _)) = &result {
            let _ = PROVEN.set(*how);
        }
        result
    })
}

fn prove_now() -> Result<(How, Tried), Unproven> {
    let mut tried = Vec::new();
    for how in candidates() {
        match attempt(how) {
            Ok(()) => return Ok((how, tried)),
            Err(why) => tried.push((how, why.to_string())),
        }
    }
    if tried.is_empty() {
        tried.push((How::Watch, "no way of telling is allowed here".to_string()));
    }
    Err(Unproven { tried })
}

/// The ways to try, best first, as `REFEREE_DETECT` allows.
fn candidates() -> Vec<How> {
    match listener::forced_detection() {
        Some("none") => vec![How::AllAtOnce],
        Some("proc") => vec![How::Watch],
        Some("notify") => vec![How::Notify, How::NotifyTyping],
        Some("typing") => vec![How::NotifyTyping],
        _ => vec![How::Notify, How::NotifyTyping, How::Watch],
    }
}

/// What went wrong with one way of telling that a program waits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Wrong {
    #[error("no slot could be made: {0}")]
    NoSlot(String),
    #[error("the slot has no seccomp listener")]
    NoListener,
    #[error("/proc does not show which system call a process waits in")]
    NoSyscallFile,
    #[error("the program could not be run: {0}")]
    NotRun(String),
    #[error(
        "the program saw no terminal (referee may not answer for it: it cannot look \
         into another user's process)"
    )]
    NoTerminal,
    #[error("the line typed was not read (it printed {0:?})")]
    LineNotRead(String),
    #[error(
        "referee may not read the program's /proc/PID/syscall (it cannot look at \
         another user's process here)"
    )]
    ProcRefused,
    #[error("the program's read was never seen, nor answered")]
    NeverSeen,
    #[error("its transcript came out wrong ({0})")]
    OtherTranscript(String),
    #[error("it was not seen waiting for its second line (it ended: {0})")]
    NotWaiting(String),
}

/// Runs the proof program once with `how`; what went wrong, if anything.
fn attempt(how: How) -> Result<(), Wrong> {
    let limits = Limits {
        wall: Duration::from_secs(5),
        cpu: Duration::from_secs(2),
        ..Limits::default()
    };
    let jail = sandbox::get()
        .jail(&[], &limits)
        .map_err(|e| Wrong::NoSlot(e.to_string()))?;
    if matches!(how, How::Notify | How::NotifyTyping) && jail.listener().is_none() {
        return Err(Wrong::NoListener);
    }
    if how == How::Watch && !Watcher::available() {
        return Err(Wrong::NoSyscallFile);
    }
    let argv: Vec<OsString> = ["/bin/sh", "-c", SCRIPT].map(OsString::from).to_vec();
    let inputs = vec![NAME.to_string()];
    let job = Job {
        argv: &argv,
        inputs: &inputs,
        ends: false,
        errors_apart: false,
        limits: &limits,
        jail: &jail,
    };
    let result = Session::start(job, how)
        .and_then(Session::run)
        .map_err(|e| Wrong::NotRun(e.to_string()))?;
    judge(how, &result.transcript, &result.ending)
}

/// Whether a proof run came out as it must, and if not, what is wrong in
/// words.
fn judge(how: How, transcript: &Transcript, ending: &Ending) -> Result<(), Wrong> {
    let output = String::from_utf8_lossy(&transcript.output()).into_owned();
    if output.contains("no terminal") {
        return Err(Wrong::NoTerminal);
    }
    if how == How::AllAtOnce {
        // Typed up front: only that the line was read and answered.
        return if output.contains(&format!("hello, {NAME}")) {
            Ok(())
        } else {
            Err(Wrong::LineNotRead(output))
        };
    }
    let wanted = [
        Event::Output(b"name? ".to_vec()),
        Event::Input(NAME.to_string()),
        Event::Output(format!("hello, {NAME}\nagain? ").into_bytes()),
    ];
    if transcript.events() != wanted {
        let typed_first = matches!(transcript.events().first(), Some(Event::Input(_)));
        if how == How::Watch && typed_first {
            return Err(Wrong::ProcRefused);
        }
        return Err(match ending {
            Ending::TimedOut(_) => Wrong::NeverSeen,
            _ => Wrong::OtherTranscript(shown(transcript.events())),
        });
    }
    if *ending != Ending::WaitingForInput {
        return Err(Wrong::NotWaiting(format!("{ending:?}")));
    }
    Ok(())
}

/// A transcript's events, short, for a message.
fn shown(events: &[Event]) -> String {
    let parts: Vec<String> = events
        .iter()
        .take(6)
        .map(|e| match e {
            Event::Output(bytes) => format!("printed {:?}", String::from_utf8_lossy(bytes)),
            Event::Input(line) => format!("read {line:?}"),
        })
        .collect();
    if parts.is_empty() {
        "nothing printed, nothing read".into()
    } else {
        parts.join(", ")
    }
}

/// A way of telling that a program waits, in words.
pub fn describe(how: How) -> &'static str {
    match how {
        How::Notify => {
            "seccomp notifications: each read of stdin held and answered by the runner, \
             output through a pipe (no polling)"
        }
        How::NotifyTyping => {
            "seccomp notifications: each read of stdin held, its line typed on the \
             program's terminal (referee may not look into the program here)"
        }
        How::Watch => "watching /proc for a program asleep reading stdin",
        How::AllAtOnce => "not detected: input is typed all at once",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proof_transcript() -> Transcript {
        let mut t = Transcript::new();
        t.push_output(b"name? ");
        t.push_input(NAME);
        t.push_output(format!("hello, {NAME}\nagain? ").as_bytes());
        t
    }

    #[test]
    fn a_proof_run_passes_only_as_a_terminal_would_show_it() {
        let right = proof_transcript();
        assert_eq!(judge(How::Notify, &right, &Ending::WaitingForInput), Ok(()));
        // Output a pipe buffered until the end: the prompt after its answer.
        let mut late = Transcript::new();
        late.push_input(NAME);
        late.push_output(format!("name? hello, {NAME}\nagain? ").as_bytes());
        assert!(judge(How::Notify, &late, &Ending::WaitingForInput).is_err());
        let mut blind = Transcript::new();
        blind.push_output(b"no terminal\n");
        let why = judge(How::Notify, &blind, &Ending::Exited(0)).unwrap_err();
        assert_eq!(why, Wrong::NoTerminal);
        let mut unseen = Transcript::new();
        unseen.push_output(b"name? ");
        let why = judge(
            How::NotifyTyping,
            &unseen,
            &Ending::TimedOut(super::super::Clock::Wall),
        )
        .unwrap_err();
        assert_eq!(why, Wrong::NeverSeen);
        assert!(judge(How::Notify, &right, &Ending::Exited(0)).is_err());
    }

    #[test]
    fn the_refusal_names_every_way_tried_and_what_to_do() {
        let refusal = Unproven {
            tried: vec![(How::Watch, "cannot read /proc/7/syscall".into())],
        };
        let text = refusal.to_string();
        assert!(text.contains("watching /proc"), "{text}");
        assert!(text.contains("cannot read /proc/7/syscall"), "{text}");
        assert!(text.contains("--cap-add SYS_PTRACE"), "{text}");
    }
}
