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

/// The filter program.
pub fn filter() -> Box<[sock_filter]> {
    let allow = ins(RET, libc::SECCOMP_RET_ALLOW, 0, 0);
    let eperm = ins(RET, errno(libc::EPERM), 0, 0);
    let mut prog = vec![
        ins(LD_W_ABS, ARCH, 0, 0),
        ins(JEQ, AUDIT_ARCH, 1, 0),
        allow,
        ins(LD_W_ABS, NR, 0, 0),
    ];
    for &nr in DENIED {
        prog.push(ins(JEQ, nr as u32, 0, 1));
        prog.push(eperm);
    }
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
