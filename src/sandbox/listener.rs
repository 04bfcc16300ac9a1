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

use std::os::fd::{AsRawFd, OwnedFd};

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

/// The calls that ask about a terminal, held when made on descriptor 1
/// or 2.
pub const TERMINAL_QUESTIONS: [libc::c_long; 4] = [
    libc::SYS_ioctl,
    libc::SYS_fstat,
    libc::SYS_newfstatat,
    libc::SYS_statx,
];

/// Whether slots are to have a listener: this build supports it, the
/// kernel has seccomp, and `REFEREE_DETECT` does not ask for another way
/// of telling that a program waits (see [`forced_detection`]).
pub fn wanted() -> bool {
    SUPPORTED && super::seccomp::available() && matches!(forced_detection(), None | Some("notify"))
}

/// How waits are detected, when `REFEREE_DETECT` forces it: `notify`
/// (the listener), `proc` (watching `/proc`) or `none` (every line typed
/// at the start). Read once.
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

/// The filter: `read` on descriptor 0 and [`TERMINAL_QUESTIONS`] on
/// descriptors 1 and 2 notify; everything else is allowed.
pub fn filter() -> &'static [libc::sock_filter] {
    static FILTER: std::sync::OnceLock<Box<[libc::sock_filter]>> = std::sync::OnceLock::new();
    FILTER.get_or_init(build_filter)
}

fn build_filter() -> Box<[libc::sock_filter]> {
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
