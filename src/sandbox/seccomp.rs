//! The system calls a graded program may not make, as a seccomp filter.
//!
//! - `setsid` and `setpgid`: the program and everything it starts stay in
//!   the process group the runner kills at the end of the case, so no
//!   child can escape by starting a session of its own;
//! - `socket` for anything but local Unix sockets: no network;
//! - reaching into other processes (`ptrace`, `process_vm_*`), signals to
//!   process groups other than its own (`kill(-1)`, `kill(-pgid)`);
//! - namespaces, mounts, kernel modules, BPF, keyrings, `io_uring` (which
//!   would bypass this filter), clocks, reboot, swap, accounting.
//!
//! Refused calls fail with `EPERM` (`ENOSYS` for `clone3`, so that the C
//! library falls back to `clone`, whose namespace flags are checked).

use libc::sock_filter;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;

/// Whether this build has the filter.
pub const SUPPORTED: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// Calls refused outright.
const DENIED: &[libc::c_long] = &[
    libc::SYS_setsid,
    libc::SYS_setpgid,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_io_uring_setup,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_userfaultfd,
    libc::SYS_fanotify_init,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
];

/// Namespace flags a `clone` may not carry.
const NEW_NAMESPACES: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWCGROUP) as u32;

const LD_W_ABS: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
const JEQ: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
const JSET: u16 = (libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K) as u16;
const JGE: u16 = (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16;
const RET: u16 = (libc::BPF_RET | libc::BPF_K) as u16;

const NR: u32 = 0;
const ARCH: u32 = 4;
const ARG0_LOW: u32 = 16;

fn ins(code: u16, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter { code, jt, jf, k }
}

fn errno(e: i32) -> u32 {
    libc::SECCOMP_RET_ERRNO | (e as u32 & libc::SECCOMP_RET_DATA)
}

/// Where a comparison in [`search`] goes.
#[derive(Clone, Copy)]
enum To {
    /// This many instructions past the next one.
    Skip(u8),
    /// The call is refused.
    Deny,
    /// The call is not in the list.
    Pass,
}

/// A comparison of the call number, its two ways to go.
struct Compare {
    code: u16,
    k: u32,
    yes: To,
    no: To,
}

/// Binary search for the call number in `sorted`: a handful of
/// comparisons for any call. A list of comparisons would take every
/// allowed call through all of them, and the kernel tries every call
/// number through the filter when it is installed (to cache the calls it
/// always allows), once per run.
fn search(sorted: &[u32]) -> Vec<Compare> {
    if sorted.len() <= 3 {
        return sorted
            .iter()
            .enumerate()
            .map(|(i, &nr)| Compare {
                code: JEQ,
                k: nr,
                yes: To::Deny,
                no: if i + 1 == sorted.len() {
                    To::Pass
                } else {
                    To::Skip(0)
                },
            })
            .collect();
    }
    let (low, high) = sorted.split_at(sorted.len() / 2);
    let low = search(low);
    let mut out = vec![Compare {
        code: JGE,
        k: high[0],
        yes: To::Skip(low.len() as u8),
        no: To::Skip(0),
    }];
    out.extend(low);
    out.extend(search(high));
    out
}

/// [`search`] as instructions, followed by the refusal; a call not in
/// the list goes on after it.
fn denied(list: &[libc::c_long], refusal: sock_filter) -> Vec<sock_filter> {
    let mut sorted: Vec<u32> = list.iter().map(|&nr| nr as u32).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let tree = search(&sorted);
    let deny = tree.len();
    let offset = |i: usize, to: To| match to {
        To::Skip(n) => n,
        To::Deny => (deny - i - 1) as u8,
        To::Pass => (deny - i) as u8,
    };
    let mut out: Vec<sock_filter> = tree
        .iter()
        .enumerate()
        .map(|(i, c)| ins(c.code, c.k, offset(i, c.yes), offset(i, c.no)))
        .collect();
    out.push(refusal);
    out
}

/// The filter program.
pub fn filter() -> Box<[sock_filter]> {
    let allow = ins(RET, libc::SECCOMP_RET_ALLOW, 0, 0);
    let eperm = ins(RET, errno(libc::EPERM), 0, 0);
    let mut prog = vec![
        ins(LD_W_ABS, ARCH, 0, 0),
        ins(JEQ, AUDIT_ARCH, 1, 0),
        allow,
        ins(LD_W_ABS, NR, 0, 0),
        // Most calls a program makes are these: decide them first.
        ins(JEQ, libc::SYS_write as u32, 1, 0),
        ins(JEQ, libc::SYS_read as u32, 0, 1),
        allow,
    ];
    prog.extend(denied(DENIED, eperm));
    // clone3 passes its flags in memory the filter cannot read.
    prog.push(ins(JEQ, libc::SYS_clone3 as u32, 0, 1));
    prog.push(ins(RET, errno(libc::ENOSYS), 0, 0));
    // clone: no new namespaces (flags are the first argument).
    prog.extend([
        ins(JEQ, libc::SYS_clone as u32, 0, 3),
        ins(LD_W_ABS, ARG0_LOW, 0, 0),
        ins(JSET, NEW_NAMESPACES, 0, 1),
        eperm,
        ins(LD_W_ABS, NR, 0, 0),
    ]);
    // socket: only AF_UNIX.
    prog.extend([
        ins(JEQ, libc::SYS_socket as u32, 0, 4),
        ins(LD_W_ABS, ARG0_LOW, 0, 0),
        ins(JEQ, libc::AF_UNIX as u32, 1, 0),
        ins(RET, errno(libc::EACCES), 0, 0),
        ins(LD_W_ABS, NR, 0, 0),
    ]);
    // kill: the pid must not be negative (a process group other than its
    // own, or every process); 0 is its own group.
    prog.extend([
        ins(JEQ, libc::SYS_kill as u32, 0, 4),
        ins(LD_W_ABS, ARG0_LOW, 0, 0),
        ins(JGE, 0x8000_0000, 0, 1),
        eperm,
        ins(LD_W_ABS, NR, 0, 0),
    ]);
    prog.push(allow);
    prog.into_boxed_slice()
}

/// `first`, then `then`: one program that refuses what `first` refuses
/// and otherwise does what `then` says. Each `first` instruction that
/// would allow the call jumps to the start of `then` instead.
///
/// Every filter installed costs the child tens of microseconds (the
/// kernel checks and compiles it), and every system call the program
/// makes runs every filter: one program halves both.
pub fn chain(first: &[sock_filter], then: &[sock_filter]) -> Box<[sock_filter]> {
    const JUMP: u16 = (libc::BPF_JMP | libc::BPF_JA) as u16;
    let mut out: Vec<sock_filter> = first
        .iter()
        .enumerate()
        .map(|(i, ins)| {
            if ins.code == RET && ins.k == libc::SECCOMP_RET_ALLOW {
                let to_then = (first.len() - i - 1) as u32;
                sock_filter {
                    code: JUMP,
                    jt: 0,
                    jf: 0,
                    k: to_then,
                }
            } else {
                *ins
            }
        })
        .collect();
    out.extend_from_slice(then);
    out.into_boxed_slice()
}

/// Installs `filter` on the calling thread. Async-signal-safe; needs
/// `PR_SET_NO_NEW_PRIVS` (set by the caller) or `CAP_SYS_ADMIN`.
///
/// # Safety
///
/// `filter` and `len` must describe a valid filter program that outlives
/// the call.
pub unsafe fn install(filter: *const sock_filter, len: u16) -> std::io::Result<()> {
    let prog = libc::sock_fprog {
        len,
        filter: filter as *mut sock_filter,
    };
    let rc = libc::syscall(
        libc::SYS_seccomp,
        libc::SECCOMP_SET_MODE_FILTER,
        0,
        &prog as *const libc::sock_fprog,
    );
    if rc < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the filter answers for call `nr` with first argument `arg0`
    /// (a tiny emulator of the instructions the filter uses).
    fn answer(prog: &[sock_filter], nr: u32, arg0: u32) -> u32 {
        let (mut a, mut pc) = (0u32, 0usize);
        loop {
            let i = prog[pc];
            pc += 1;
            match i.code {
                LD_W_ABS => {
                    a = match i.k {
                        NR => nr,
                        ARCH => AUDIT_ARCH,
                        ARG0_LOW => arg0,
                        _ => panic!("load of {}", i.k),
                    }
                }
                RET => return i.k,
                JEQ | JGE | JSET => {
                    let taken = match i.code {
                        JEQ => a == i.k,
                        JGE => a >= i.k,
                        _ => a & i.k != 0,
                    };
                    pc += usize::from(if taken { i.jt } else { i.jf });
                }
                c if c == (libc::BPF_JMP | libc::BPF_JA) as u16 => pc += i.k as usize,
                c => panic!("instruction {c:#x}"),
            }
        }
    }

    #[test]
    fn every_denied_call_is_refused_and_every_other_allowed() {
        let prog = filter();
        let eperm = errno(libc::EPERM);
        for &nr in DENIED {
            assert_eq!(answer(&prog, nr as u32, 0), eperm, "call {nr}");
        }
        for nr in 0..500u32 {
            let special = [libc::SYS_clone3, libc::SYS_socket, libc::SYS_kill]
                .iter()
                .any(|&s| s as u32 == nr);
            if !DENIED.iter().any(|&d| d as u32 == nr) && !special {
                assert_eq!(answer(&prog, nr, 0), libc::SECCOMP_RET_ALLOW, "call {nr}");
            }
        }
        assert_eq!(
            answer(&prog, libc::SYS_clone3 as u32, 0),
            errno(libc::ENOSYS)
        );
        assert_eq!(
            answer(&prog, libc::SYS_socket as u32, libc::AF_INET as u32),
            errno(libc::EACCES)
        );
        assert_eq!(
            answer(&prog, libc::SYS_socket as u32, libc::AF_UNIX as u32),
            libc::SECCOMP_RET_ALLOW
        );
        assert_eq!(answer(&prog, libc::SYS_kill as u32, (-1i32) as u32), eperm);
        assert_eq!(
            answer(&prog, libc::SYS_kill as u32, 0),
            libc::SECCOMP_RET_ALLOW
        );
        let flags = libc::CLONE_NEWUSER as u32;
        assert_eq!(answer(&prog, libc::SYS_clone as u32, flags), eperm);
        assert_eq!(
            answer(&prog, libc::SYS_clone as u32, libc::SIGCHLD as u32),
            libc::SECCOMP_RET_ALLOW
        );
    }

    #[test]
    fn a_chained_program_refuses_the_same_and_asks_the_rest() {
        let notify = [ins(RET, libc::SECCOMP_RET_USER_NOTIF, 0, 0)];
        let both = chain(&filter(), &notify);
        assert_eq!(
            answer(&both, libc::SYS_ptrace as u32, 0),
            errno(libc::EPERM)
        );
        assert_eq!(
            answer(&both, libc::SYS_read as u32, 0),
            libc::SECCOMP_RET_USER_NOTIF
        );
        assert_eq!(
            answer(&both, libc::SYS_getpid as u32, 0),
            libc::SECCOMP_RET_USER_NOTIF
        );
    }

    #[test]
    fn a_chained_program_goes_on_where_the_first_would_allow() {
        let first = filter();
        let then = [ins(RET, libc::SECCOMP_RET_USER_NOTIF, 0, 0)];
        let both = chain(&first, &then);
        assert_eq!(both.len(), first.len() + 1);
        for (i, (was, is)) in first.iter().zip(both.iter()).enumerate() {
            if was.code == RET && was.k == libc::SECCOMP_RET_ALLOW {
                assert_eq!(is.code, (libc::BPF_JMP | libc::BPF_JA) as u16);
                // A jump lands `k` instructions past the next one.
                assert_eq!(i + 1 + is.k as usize, first.len(), "at {i}");
            } else {
                assert_eq!(
                    (was.code, was.k, was.jt, was.jf),
                    (is.code, is.k, is.jt, is.jf)
                );
            }
        }
        assert_eq!(both[first.len()].k, libc::SECCOMP_RET_USER_NOTIF);
    }
}
