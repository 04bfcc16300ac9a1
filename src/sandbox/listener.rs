//! The slot's listener: a seccomp filter, installed once on the slot's
//! keeper and so inherited by everything the slot runs, that holds some
//! system calls until referee answers them.
//!
//! The held calls are those by which a program waits for input or asks
//! about its terminal:
//!
//! - every `read` of file descriptor 0: the program is about to wait for
//!   input, so the runner collects what it printed and gives it the next
//!   line (or ends the run when the case has none left);
//! - `ioctl`, `fstat`, `newfstatat` and `statx` on descriptors 1 and 2:
//!   a run's output goes to a pipe, and these are the calls by which a
//!   program asks whether that is a terminal (the runner answers for the
//!   terminal).
//!
//! The filter restricts nothing (the allowlist, [`super::seccomp`], does)
//! and is small enough to read: it checks the architecture first and lets
//! every other call through. seccompiler cannot express
//! `SECCOMP_RET_USER_NOTIF`, so it is written out here.
//!
//! Why once per slot, not once per run: installing a filter compiles it
//! to machine code and tearing the program down frees that again, some
//! 45 µs a run on a virtual machine (measured: a `vfork` and `_exit`
//! loop, 45 µs a child bare, 90 µs with a 15-instruction filter), as much
//! as a fifth of what referee adds to a run. A slot's listener is made
//! with its keeper and lives as long; the keeper itself never makes a
//! held call (its standard descriptors are `/dev/null`, which it never
//! reads or asks about), so every notification is a program's. Whoever
//! runs something in a slot with a listener answers every notification
//! (`Continue` lets the call go ahead as if nothing held it): a build
//! tool's questions about its output included.
//!
//! Linux 5.5 or later; where the filter cannot be
//! installed, the slot has no listener and the runner watches `/proc`.

use std::io;
use std::mem::zeroed;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};

/// Whether this build can use a listener at all.
pub const SUPPORTED: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// The audit architecture the filter matches, so a 32-bit call with the
/// same number is not mistaken for `read`.
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const AUDIT_ARCH: u32 = 0;

/// `SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP` (Linux 6.6): wake the waiting
/// program on the answering thread's CPU, which halves the cost of each
/// read.
const SYNC_WAKE_UP: u64 = 1;

/// Whether slots are to have a listener: this build supports it, the
/// kernel has seccomp, and `REFEREE_DETECT` does not ask for another way
/// of telling that a program waits (see [`forced_detection`]).
pub fn wanted() -> bool {
    SUPPORTED
        && super::seccomp::available()
        && matches!(forced_detection(), None | Some("notify" | "typing"))
}

/// How waits are detected, when `REFEREE_DETECT` forces it: `notify`
/// (the listener), `typing` (the listener, each line typed on the
/// terminal), `proc` (watching `/proc`) or `none` (every line typed at the
/// start). Read once.
pub fn forced_detection() -> Option<&'static str> {
    static FORCED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    FORCED
        .get_or_init(|| std::env::var("REFEREE_DETECT").ok())
        .as_deref()
}

/// Asks the kernel to wake a held program on the answering thread's CPU;
/// older kernels lack the flag and work without it.
pub fn wake_synchronously(listener: &OwnedFd) {
    // SAFETY: the ioctl takes a u64 flag value.
    unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_SET_FLAGS,
            SYNC_WAKE_UP,
        );
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

/// `ioctl(fd, FIOCLEX)`: close `fd` when the process calls `exec`.
const FIOCLEX: u32 = 0x5451;

/// Whether a held call is one by which a process may make one of its
/// standard descriptors another file than the one it had: `close`,
/// `close_range` from one of them, `dup2` or `dup3` onto one,
/// `fcntl(fd, F_SETFD)` or `ioctl(fd, FIOCLEX)` (the last two close it at
/// the next `exec`). The filter holds these for descriptor 0, and, in the
/// filter for [`Standard::All`], for 1 and 2 too. The runner, which checks
/// once per process that descriptor 0 is the terminal it answers for,
/// checks again after any of these; where it may not look at the
/// program's descriptors at all, it then stops taking them for its own.
pub fn changes_standard(call: &Call) -> bool {
    let nr = call.nr;
    if nr == libc::SYS_ioctl {
        return call.args[1] as u32 == FIOCLEX;
    }
    nr == libc::SYS_close
        || nr == libc::SYS_close_range
        || nr == libc::SYS_dup3
        || nr == libc::SYS_fcntl
        || DUP2.is_some_and(|dup2| nr == dup2)
}

/// Which standard descriptors' changes the filter holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standard {
    /// Descriptor 0's: the runner asks the kernel about 1 and 2 whenever
    /// it answers for them.
    Stdin,
    /// All three: for a runner that may not ask the kernel (see
    /// [`crate::run`]'s memory through the keeper). A run's child then
    /// says hello once its own descriptors are set (`dup2` onto 1 and 2,
    /// held too), so that the runner lets those through and no other.
    All,
}

/// `dup2`, where the architecture has it (aarch64 has only `dup3`).
#[cfg(target_arch = "x86_64")]
const DUP2: Option<libc::c_long> = Some(libc::SYS_dup2);
#[cfg(not(target_arch = "x86_64"))]
const DUP2: Option<libc::c_long> = None;

/// The filter: `read` on descriptor 0, [`TERMINAL_QUESTIONS`] on
/// descriptors 1 and 2, and the calls [`changes_standard`] names (on the
/// descriptors `standard` says) notify; everything else is allowed. Made
/// once each.
pub fn filter(standard: Standard) -> &'static [libc::sock_filter] {
    static STDIN: std::sync::OnceLock<Box<[libc::sock_filter]>> = std::sync::OnceLock::new();
    static ALL: std::sync::OnceLock<Box<[libc::sock_filter]>> = std::sync::OnceLock::new();
    match standard {
        Standard::Stdin => STDIN.get_or_init(|| build_filter(0)),
        Standard::All => ALL.get_or_init(|| build_filter(2)),
    }
}

/// Where a jump of the filter lands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Label {
    Next,
    Allow,
    Notify,
    ReadFd,
    QuestionFd,
    IoctlFd,
    Arg0Standard,
    Arg1Standard,
    FcntlFd,
    Ioctl0,
    FcntlSetFd,
}

/// A filter instruction before its jumps are counted.
enum Op {
    At(Label),
    /// Load the 32-bit word at this offset of `struct seccomp_data`.
    Load(u32),
    /// Jump to the first label when the word loaded equals the value,
    /// else to the second.
    Jeq(u32, Label, Label),
    /// Jump to the first label when the word loaded is above the value
    /// (unsigned), else to the second.
    Jgt(u32, Label, Label),
    Return(u32),
}

/// The filter, holding changes of descriptors 0 to `most`.
fn build_filter(most: u32) -> Box<[libc::sock_filter]> {
    const NR: u32 = 0; // offsetof(struct seccomp_data, nr)
    const ARCH: u32 = 4; // offsetof(struct seccomp_data, arch)
    const ARG0: u32 = 16; // low 32 bits of args[0] (little-endian)
    const ARG1: u32 = 24; // low 32 bits of args[1]
    use Label::*;
    let [ioctl, fstat, fstatat, statx] = TERMINAL_QUESTIONS.map(|nr| nr as u32);
    let mut ops = vec![
        Op::Load(ARCH),
        Op::Jeq(AUDIT_ARCH, Next, Allow),
        Op::Load(NR),
        Op::Jeq(libc::SYS_read as u32, ReadFd, Next),
        Op::Jeq(ioctl, IoctlFd, Next),
        Op::Jeq(fstat, QuestionFd, Next),
        Op::Jeq(fstatat, QuestionFd, Next),
        Op::Jeq(statx, QuestionFd, Next),
        Op::Jeq(libc::SYS_close as u32, Arg0Standard, Next),
        Op::Jeq(libc::SYS_close_range as u32, Arg0Standard, Next),
        Op::Jeq(libc::SYS_dup3 as u32, Arg1Standard, Next),
        Op::Jeq(libc::SYS_fcntl as u32, FcntlFd, Next),
    ];
    if let Some(dup2) = DUP2 {
        ops.push(Op::Jeq(dup2 as u32, Arg1Standard, Next));
    }
    ops.extend([
        Op::Return(libc::SECCOMP_RET_ALLOW),
        Op::At(ReadFd),
        Op::Load(ARG0),
        Op::Jeq(0, Notify, Allow),
        Op::At(IoctlFd),
        Op::Load(ARG0),
        Op::Jeq(0, Ioctl0, Next),
        Op::At(QuestionFd),
        Op::Load(ARG0),
        Op::Jeq(1, Notify, Next),
        Op::Jeq(2, Notify, Allow),
        Op::At(Ioctl0),
        Op::Load(ARG1),
        Op::Jeq(FIOCLEX, Notify, Allow),
        Op::At(Arg0Standard),
        Op::Load(ARG0),
        Op::Jgt(most, Allow, Notify),
        Op::At(Arg1Standard),
        Op::Load(ARG1),
        Op::Jgt(most, Allow, Notify),
        Op::At(FcntlFd),
        Op::Load(ARG0),
        Op::Jgt(most, Allow, FcntlSetFd),
        Op::At(FcntlSetFd),
        Op::Load(ARG1),
        Op::Jeq(libc::F_SETFD as u32, Notify, Allow),
        Op::At(Notify),
        Op::Return(libc::SECCOMP_RET_USER_NOTIF),
        Op::At(Allow),
        Op::Return(libc::SECCOMP_RET_ALLOW),
    ]);
    assemble(&ops)
}

/// The instructions of `ops`, each jump counted to where its label is.
/// (`Next` is the instruction after the jump.)
fn assemble(ops: &[Op]) -> Box<[libc::sock_filter]> {
    let mut at = Vec::new();
    let mut index = 0usize;
    for op in ops {
        match op {
            Op::At(label) => at.push((*label, index)),
            _ => index += 1,
        }
    }
    let place = |label: Label, from: usize| -> u8 {
        if label == Label::Next {
            return 0;
        }
        let (_, to) = at
            .iter()
            .find(|(l, _)| *l == label)
            .expect("every label of the filter is placed");
        u8::try_from(to - from - 1).expect("the filter's jumps are short")
    };
    let mut program = Vec::new();
    for op in ops {
        let here = program.len();
        program.push(match *op {
            Op::At(_) => continue,
            Op::Load(offset) => libc::sock_filter {
                code: (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16,
                jt: 0,
                jf: 0,
                k: offset,
            },
            Op::Jeq(value, yes, no) => libc::sock_filter {
                code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
                jt: place(yes, here),
                jf: place(no, here),
                k: value,
            },
            Op::Jgt(value, yes, no) => libc::sock_filter {
                code: (libc::BPF_JMP | libc::BPF_JGT | libc::BPF_K) as u16,
                jt: place(yes, here),
                jf: place(no, here),
                k: value,
            },
            Op::Return(value) => libc::sock_filter {
                code: (libc::BPF_RET | libc::BPF_K) as u16,
                jt: 0,
                jf: 0,
                k: value,
            },
        });
    }
    program.into_boxed_slice()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// What `filter` returns for a call, as the kernel runs it (the few
    /// instructions the filter uses: loads, equality jumps, returns).
    fn run(filter: &[libc::sock_filter], arch: u32, nr: libc::c_long, args: [u64; 2]) -> u32 {
        let word = |offset: u32| -> u32 {
            match offset {
                0 => nr as u32,
                4 => arch,
                16 => args[0] as u32,
                24 => args[1] as u32,
                other => panic!("the filter reads offset {other}"),
            }
        };
        let (mut pc, mut a) = (0usize, 0u32);
        loop {
            let insn = filter[pc];
            let code = u32::from(insn.code);
            if code == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS {
                a = word(insn.k);
                pc += 1;
            } else if code == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K {
                let skip = if a == insn.k { insn.jt } else { insn.jf };
                pc += 1 + usize::from(skip);
            } else if code == libc::BPF_JMP | libc::BPF_JGT | libc::BPF_K {
                let skip = if a > insn.k { insn.jt } else { insn.jf };
                pc += 1 + usize::from(skip);
            } else if code == libc::BPF_RET | libc::BPF_K {
                return insn.k;
            } else {
                panic!("an instruction the test does not know: {code:#x}");
            }
        }
    }

    #[test]
    fn the_filter_holds_reads_of_stdin_questions_about_the_output_and_changes_of_stdin() {
        let filter = filter(Standard::Stdin);
        let held = |nr, args| run(filter, AUDIT_ARCH, nr, args) == libc::SECCOMP_RET_USER_NOTIF;
        let tcgets = libc::TCGETS;
        let setfd = libc::F_SETFD as u64;
        let getfl = libc::F_GETFL as u64;
        for (what, nr, args, expected) in [
            ("read(0)", libc::SYS_read, [0, 0], true),
            ("read(3)", libc::SYS_read, [3, 0], false),
            ("write(0)", libc::SYS_write, [0, 0], false),
            ("ioctl(1, TCGETS)", libc::SYS_ioctl, [1, tcgets], true),
            ("ioctl(2, TCGETS)", libc::SYS_ioctl, [2, tcgets], true),
            ("ioctl(0, TCGETS)", libc::SYS_ioctl, [0, tcgets], false),
            (
                "ioctl(0, FIOCLEX)",
                libc::SYS_ioctl,
                [0, u64::from(FIOCLEX)],
                true,
            ),
            (
                "ioctl(3, FIOCLEX)",
                libc::SYS_ioctl,
                [3, u64::from(FIOCLEX)],
                false,
            ),
            ("fstat(1)", libc::SYS_fstat, [1, 0], true),
            ("fstat(0)", libc::SYS_fstat, [0, 0], false),
            ("newfstatat(2)", libc::SYS_newfstatat, [2, 0], true),
            ("statx(1)", libc::SYS_statx, [1, 0], true),
            ("statx(3)", libc::SYS_statx, [3, 0], false),
            ("close(0)", libc::SYS_close, [0, 0], true),
            ("close(1)", libc::SYS_close, [1, 0], false),
            ("close(-1)", libc::SYS_close, [u64::MAX, 0], false),
            ("close_range(0, 5)", libc::SYS_close_range, [0, 5], true),
            ("close_range(3, 5)", libc::SYS_close_range, [3, 5], false),
            ("dup3(5, 0)", libc::SYS_dup3, [5, 0], true),
            ("dup3(5, 2)", libc::SYS_dup3, [5, 2], false),
            ("dup3(0, 5)", libc::SYS_dup3, [0, 5], false),
            ("fcntl(0, F_SETFD)", libc::SYS_fcntl, [0, setfd], true),
            ("fcntl(1, F_SETFD)", libc::SYS_fcntl, [1, setfd], false),
            ("fcntl(0, F_GETFL)", libc::SYS_fcntl, [0, getfl], false),
            ("fcntl(5, F_SETFD)", libc::SYS_fcntl, [5, setfd], false),
            ("openat", libc::SYS_openat, [0, 0], false),
        ] {
            assert_eq!(held(nr, args), expected, "{what}");
        }
        #[cfg(target_arch = "x86_64")]
        {
            assert!(held(libc::SYS_dup2, [5, 0]), "dup2(5, 0)");
            assert!(!held(libc::SYS_dup2, [5, 1]), "dup2(5, 1)");
            assert!(!held(libc::SYS_dup2, [0, 5]), "dup2(0, 5)");
        }
        // The kernel takes a descriptor's low 32 bits: so does the filter.
        assert!(held(libc::SYS_read, [1 << 32, 0]));
        // Another architecture's numbers are not this one's calls.
        let i386 = 0x4000_0003;
        assert_eq!(run(filter, i386, 3, [0, 0]), libc::SECCOMP_RET_ALLOW);
    }

    #[test]
    fn the_filter_for_all_three_holds_changes_of_1_and_2_too_and_nothing_more() {
        let all = filter(Standard::All);
        let stdin = filter(Standard::Stdin);
        let held = |f, nr, args| run(f, AUDIT_ARCH, nr, args) == libc::SECCOMP_RET_USER_NOTIF;
        let setfd = libc::F_SETFD as u64;
        for (what, nr, args) in [
            ("close(1)", libc::SYS_close, [1, 0]),
            ("close(2)", libc::SYS_close, [2, 0]),
            ("close_range(2, 5)", libc::SYS_close_range, [2, 5]),
            ("dup3(5, 1)", libc::SYS_dup3, [5, 1]),
            ("dup3(5, 2)", libc::SYS_dup3, [5, 2]),
            ("fcntl(2, F_SETFD)", libc::SYS_fcntl, [2, setfd]),
        ] {
            assert!(held(all, nr, args), "{what}");
            assert!(!held(stdin, nr, args), "{what}");
        }
        for (what, nr, args) in [
            ("close(3)", libc::SYS_close, [3, 0]),
            ("close(-1)", libc::SYS_close, [u64::MAX, 0]),
            ("close_range(3, 5)", libc::SYS_close_range, [3, 5]),
            ("dup3(1, 5)", libc::SYS_dup3, [1, 5]),
            ("fcntl(3, F_SETFD)", libc::SYS_fcntl, [3, setfd]),
            (
                "fcntl(1, F_GETFL)",
                libc::SYS_fcntl,
                [1, libc::F_GETFL as u64],
            ),
            ("write(1)", libc::SYS_write, [1, 0]),
        ] {
            assert!(!held(all, nr, args), "{what}");
        }
        // Everything the other filter holds, this one holds too.
        for (nr, args) in [
            (libc::SYS_read, [0, 0]),
            (libc::SYS_close, [0, 0]),
            (libc::SYS_fstat, [1, 0]),
        ] {
            assert!(held(all, nr, args));
        }
    }

    #[test]
    fn the_calls_that_change_a_standard_descriptor_are_told_from_questions() {
        let call = |nr: i64, fd: u64, request: u64| Call {
            id: 0,
            pid: 1,
            nr,
            args: [fd, request, 0, 0, 0, 0],
        };
        let fioclex = u64::from(FIOCLEX);
        assert!(changes_standard(&call(libc::SYS_close, 0, 0)));
        assert!(changes_standard(&call(libc::SYS_close, 2, 0)));
        assert!(changes_standard(&call(libc::SYS_dup3, 5, 1)));
        assert!(changes_standard(&call(libc::SYS_ioctl, 0, fioclex)));
        assert!(changes_standard(&call(libc::SYS_ioctl, 1, fioclex)));
        assert!(!changes_standard(&call(libc::SYS_ioctl, 1, libc::TCGETS)));
        assert!(!changes_standard(&call(libc::SYS_fstat, 1, 0)));
        assert!(!changes_standard(&call(libc::SYS_read, 0, 0)));
    }
}
