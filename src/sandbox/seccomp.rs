//! The system calls a graded program may make, as an allowlist compiled
//! into a seccomp filter by [`seccompiler`] (the Firecracker project's
//! library): the filter is built from the list below, not assembled by
//! hand.
//!
//! - The architecture is checked first: a call made through another entry
//!   point (the 32-bit `int $0x80` on x86-64) kills the process.
//! - Everything not listed is refused with `ENOSYS`, as an older kernel
//!   would answer, so that the C library falls back where it can (`clone3`
//!   to `clone`, whose flags the filter can read; `faccessat2` to
//!   `faccessat`). The x32 numbers (`nr | 0x40000000`) are not listed, so
//!   they are refused too.
//! - Refused on purpose: sockets (only `socketpair` is left: nothing can
//!   reach a network or another program's socket), new namespaces
//!   (`unshare`, `setns`, `clone` with namespace flags), mounts, `ptrace`
//!   and `process_vm_*`, `kcmp`, pidfds, BPF, `perf_event_open`, keyrings,
//!   `io_uring`, `userfaultfd`, `fanotify`, file handles, `personality`,
//!   System V IPC and message queues (a channel to the next run),
//!   kernel modules, clocks, reboot, swap, accounting, identity changes
//!   (`setuid` and the like), and leaving the run's session or process
//!   group (`setsid`, `setpgid`).
//! - `kill` of a negative pid (a process group, or every process) is
//!   allowed only where the run has a PID namespace of its own, whose
//!   processes are all the run's.
//! - The calls that change another process's limits, priority or
//!   processors (`prlimit64`, `setpriority`, `sched_setaffinity`,
//!   `sched_setattr`, `ioprio_set`) are allowed on the caller alone (pid
//!   0): the slot's keeper is of the programs' user, which the kernel
//!   would let them change, and it serves the next student's runs too.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// Whether this build has the filter.
pub const SUPPORTED: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

#[cfg(target_arch = "x86_64")]
const ARCH: TargetArch = TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: TargetArch = TargetArch::aarch64;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const ARCH: TargetArch = TargetArch::riscv64;

/// Calls allowed whatever their arguments: what compilers, interpreters
/// and C programs use to read, write, allocate, wait, run programs and
/// tell the time.
const ALLOWED: &[libc::c_long] = &[
    // Files and descriptors.
    libc::SYS_read,
    libc::SYS_write,
    libc::SYS_readv,
    libc::SYS_writev,
    libc::SYS_pread64,
    libc::SYS_pwrite64,
    libc::SYS_preadv,
    libc::SYS_pwritev,
    libc::SYS_preadv2,
    libc::SYS_pwritev2,
    libc::SYS_openat,
    libc::SYS_openat2,
    libc::SYS_close,
    libc::SYS_close_range,
    libc::SYS_fstat,
    libc::SYS_newfstatat,
    libc::SYS_statx,
    libc::SYS_statfs,
    libc::SYS_fstatfs,
    libc::SYS_lseek,
    libc::SYS_ioctl,
    libc::SYS_fcntl,
    libc::SYS_flock,
    libc::SYS_fsync,
    libc::SYS_fdatasync,
    libc::SYS_truncate,
    libc::SYS_ftruncate,
    libc::SYS_fallocate,
    libc::SYS_getdents64,
    libc::SYS_getcwd,
    libc::SYS_chdir,
    libc::SYS_fchdir,
    libc::SYS_renameat,
    libc::SYS_renameat2,
    libc::SYS_mkdirat,
    libc::SYS_unlinkat,
    libc::SYS_linkat,
    libc::SYS_symlinkat,
    libc::SYS_readlinkat,
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    libc::SYS_fchownat,
    libc::SYS_fchown,
    libc::SYS_umask,
    libc::SYS_utimensat,
    libc::SYS_faccessat,
    libc::SYS_faccessat2,
    libc::SYS_dup,
    libc::SYS_dup3,
    libc::SYS_pipe2,
    libc::SYS_copy_file_range,
    libc::SYS_sendfile,
    libc::SYS_splice,
    libc::SYS_tee,
    libc::SYS_memfd_create,
    libc::SYS_fchmodat2,
    libc::SYS_mknodat,
    libc::SYS_fadvise64,
    libc::SYS_readahead,
    libc::SYS_sync,
    libc::SYS_syncfs,
    libc::SYS_sync_file_range,
    libc::SYS_vmsplice,
    // Extended attributes of its own files (copying a file keeps them).
    libc::SYS_getxattr,
    libc::SYS_lgetxattr,
    libc::SYS_fgetxattr,
    libc::SYS_listxattr,
    libc::SYS_llistxattr,
    libc::SYS_flistxattr,
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_fsetxattr,
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fremovexattr,
    // Watching its own files.
    libc::SYS_inotify_init1,
    libc::SYS_inotify_add_watch,
    libc::SYS_inotify_rm_watch,
    // Waiting for descriptors.
    libc::SYS_pselect6,
    libc::SYS_ppoll,
    libc::SYS_epoll_create1,
    libc::SYS_epoll_ctl,
    libc::SYS_epoll_pwait,
    libc::SYS_epoll_pwait2,
    libc::SYS_eventfd2,
    libc::SYS_signalfd4,
    libc::SYS_timerfd_create,
    libc::SYS_timerfd_settime,
    libc::SYS_timerfd_gettime,
    // A pair of connected sockets is only a pipe in both directions.
    libc::SYS_socketpair,
    libc::SYS_sendto,
    libc::SYS_recvfrom,
    libc::SYS_sendmsg,
    libc::SYS_recvmsg,
    libc::SYS_sendmmsg,
    libc::SYS_recvmmsg,
    libc::SYS_shutdown,
    libc::SYS_getsockopt,
    libc::SYS_setsockopt,
    libc::SYS_getsockname,
    libc::SYS_getpeername,
    // Memory.
    libc::SYS_brk,
    libc::SYS_mmap,
    libc::SYS_munmap,
    libc::SYS_mprotect,
    libc::SYS_mremap,
    libc::SYS_msync,
    libc::SYS_mincore,
    libc::SYS_madvise,
    libc::SYS_mlock,
    libc::SYS_mlock2,
    libc::SYS_munlock,
    libc::SYS_mlockall,
    libc::SYS_munlockall,
    libc::SYS_mseal,
    libc::SYS_remap_file_pages,
    libc::SYS_pkey_alloc,
    libc::SYS_pkey_free,
    libc::SYS_pkey_mprotect,
    libc::SYS_get_mempolicy,
    libc::SYS_membarrier,
    // Processes and threads (`clone` is below: its flags are checked).
    libc::SYS_execve,
    libc::SYS_execveat,
    libc::SYS_exit,
    libc::SYS_exit_group,
    libc::SYS_wait4,
    libc::SYS_waitid,
    libc::SYS_set_tid_address,
    libc::SYS_set_robust_list,
    libc::SYS_get_robust_list,
    libc::SYS_futex,
    libc::SYS_futex_waitv,
    libc::SYS_rseq,
    libc::SYS_sched_yield,
    libc::SYS_sched_getaffinity,
    libc::SYS_sched_getparam,
    libc::SYS_sched_getscheduler,
    libc::SYS_sched_get_priority_max,
    libc::SYS_sched_get_priority_min,
    libc::SYS_sched_rr_get_interval,
    libc::SYS_sched_getattr,
    libc::SYS_getcpu,
    libc::SYS_ioprio_get,
    libc::SYS_getpriority,
    libc::SYS_prctl,
    libc::SYS_getrlimit,
    libc::SYS_setrlimit,
    libc::SYS_getrusage,
    libc::SYS_capget,
    // Who and where it is.
    libc::SYS_getpid,
    libc::SYS_getppid,
    libc::SYS_gettid,
    libc::SYS_getuid,
    libc::SYS_geteuid,
    libc::SYS_getgid,
    libc::SYS_getegid,
    libc::SYS_getgroups,
    libc::SYS_getresuid,
    libc::SYS_getresgid,
    libc::SYS_getpgid,
    libc::SYS_getsid,
    libc::SYS_uname,
    libc::SYS_sysinfo,
    libc::SYS_getrandom,
    // Signals (`kill` is below).
    libc::SYS_rt_sigaction,
    libc::SYS_rt_sigprocmask,
    libc::SYS_rt_sigreturn,
    libc::SYS_rt_sigpending,
    libc::SYS_rt_sigtimedwait,
    libc::SYS_rt_sigsuspend,
    libc::SYS_sigaltstack,
    libc::SYS_tgkill,
    libc::SYS_tkill,
    libc::SYS_restart_syscall,
    // Time.
    libc::SYS_clock_gettime,
    libc::SYS_clock_getres,
    libc::SYS_clock_nanosleep,
    libc::SYS_nanosleep,
    libc::SYS_gettimeofday,
    libc::SYS_times,
    libc::SYS_getitimer,
    libc::SYS_setitimer,
    libc::SYS_timer_create,
    libc::SYS_timer_settime,
    libc::SYS_timer_gettime,
    libc::SYS_timer_getoverrun,
    libc::SYS_timer_delete,
    // Restricting itself further, which the runner does before `exec`.
    libc::SYS_seccomp,
    libc::SYS_landlock_create_ruleset,
    libc::SYS_landlock_add_rule,
    libc::SYS_landlock_restrict_self,
];

/// The x86-64 C library still uses these older forms.
#[cfg(target_arch = "x86_64")]
const ALLOWED_X86_64: &[libc::c_long] = &[
    libc::SYS_open,
    libc::SYS_creat,
    libc::SYS_stat,
    libc::SYS_lstat,
    libc::SYS_access,
    libc::SYS_pipe,
    libc::SYS_dup2,
    libc::SYS_select,
    libc::SYS_poll,
    libc::SYS_epoll_create,
    libc::SYS_epoll_wait,
    libc::SYS_eventfd,
    libc::SYS_signalfd,
    libc::SYS_getdents,
    libc::SYS_readlink,
    libc::SYS_mkdir,
    libc::SYS_rmdir,
    libc::SYS_unlink,
    libc::SYS_rename,
    libc::SYS_link,
    libc::SYS_symlink,
    libc::SYS_chmod,
    libc::SYS_mknod,
    libc::SYS_inotify_init,
    libc::SYS_chown,
    libc::SYS_lchown,
    libc::SYS_utime,
    libc::SYS_utimes,
    libc::SYS_futimesat,
    libc::SYS_time,
    libc::SYS_alarm,
    libc::SYS_pause,
    libc::SYS_fork,
    libc::SYS_vfork,
    libc::SYS_getpgrp,
    libc::SYS_arch_prctl,
];
#[cfg(not(target_arch = "x86_64"))]
const ALLOWED_X86_64: &[libc::c_long] = &[];

/// Flags of `clone` that make a namespace.
const NEW_NAMESPACES: u64 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWCGROUP) as u64;

/// A filter could not be built (a bug in the lists above).
#[derive(Debug)]
pub struct BuildError(String);

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the seccomp allowlist could not be compiled: {}", self.0)
    }
}

impl std::error::Error for BuildError {}

/// The allowlist as a filter program. With `own_pid_namespace`, every
/// process the program could signal is the run's, so `kill` of a process
/// group or of every process (`kill(-1)`) is allowed; otherwise only
/// `kill` of one process, or of its own group (pid 0).
pub fn allowlist(own_pid_namespace: bool) -> Result<Box<[libc::sock_filter]>, BuildError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = ALLOWED
        .iter()
        .chain(ALLOWED_X86_64)
        .map(|&nr| (nr, Vec::new()))
        .collect();
    rules.insert(
        libc::SYS_clone,
        vec![rule(0, SeccompCmpOp::MaskedEq(NEW_NAMESPACES), 0)?],
    );
    let kill = if own_pid_namespace {
        Vec::new()
    } else {
        // pid_t is 32 bits: a negative pid has its top bit set.
        vec![rule(0, SeccompCmpOp::Lt, 0x8000_0000)?]
    };
    rules.insert(libc::SYS_kill, kill);
    for (nr, rules_of) in on_itself()? {
        rules.insert(nr, rules_of);
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Errno(libc::ENOSYS as u32),
        SeccompAction::Allow,
        ARCH,
    )
    .map_err(|e| BuildError(e.to_string()))?;
    let program: BpfProgram = filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| BuildError(e.to_string()))?;
    Ok(program
        .into_iter()
        .map(|i| libc::sock_filter {
            code: i.code,
            jt: i.jt,
            jf: i.jf,
            k: i.k,
        })
        .collect())
}

/// The calls allowed only on the caller itself, as the C library makes
/// them (`setrlimit`, `nice`, `sched_setaffinity(0, ...)`): the pid (or
/// "who") argument 0, and for `setpriority` and `ioprio_set` a process,
/// not a group or a user.
fn on_itself() -> Result<Vec<(i64, Vec<SeccompRule>)>, BuildError> {
    let zero = |arg| {
        SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, 0)
            .map_err(|e| BuildError(e.to_string()))
    };
    let only = |conditions: Vec<SeccompCondition>| {
        SeccompRule::new(conditions)
            .map(|r| vec![r])
            .map_err(|e| BuildError(e.to_string()))
    };
    const PRIO_PROCESS: u64 = 0;
    const IOPRIO_WHO_PROCESS: u64 = 1;
    let process = |arg, value| {
        SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)
            .map_err(|e| BuildError(e.to_string()))
    };
    Ok(vec![
        (libc::SYS_prlimit64, only(vec![zero(0)?])?),
        (libc::SYS_sched_setaffinity, only(vec![zero(0)?])?),
        (libc::SYS_sched_setattr, only(vec![zero(0)?])?),
        (
            libc::SYS_setpriority,
            only(vec![process(0, PRIO_PROCESS)?, zero(1)?])?,
        ),
        (
            libc::SYS_ioprio_set,
            only(vec![process(0, IOPRIO_WHO_PROCESS)?, zero(1)?])?,
        ),
    ])
}

/// One condition on the 32-bit argument `arg`.
fn rule(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompRule, BuildError> {
    let condition = SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value)
        .map_err(|e| BuildError(e.to_string()))?;
    SeccompRule::new(vec![condition]).map_err(|e| BuildError(e.to_string()))
}

/// Whether seccomp filters can be installed here.
pub fn available() -> bool {
    // SAFETY: asking for the calling thread's seccomp mode.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 }
}

/// Installs `filter` on the calling thread with `flags` (0, or
/// `SECCOMP_FILTER_FLAG_NEW_LISTENER` for a filter that notifies);
/// returns what the kernel returns: the listener's descriptor with that
/// flag, else 0. Async-signal-safe; needs `PR_SET_NO_NEW_PRIVS` (set by
/// the caller) or `CAP_SYS_ADMIN`.
///
/// # Safety
///
/// `filter` and `len` must describe a valid filter program that outlives
/// the call.
pub unsafe fn install(
    filter: *const libc::sock_filter,
    len: u16,
    flags: libc::c_ulong,
) -> std::io::Result<libc::c_long> {
    let prog = libc::sock_fprog {
        len,
        filter: filter as *mut libc::sock_filter,
    };
    let rc = libc::syscall(
        libc::SYS_seccomp,
        libc::SECCOMP_SET_MODE_FILTER,
        flags,
        &prog as *const libc::sock_fprog,
    );
    if rc < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(rc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lists_compile_and_name_no_call_twice() {
        for own in [false, true] {
            let program = allowlist(own).unwrap();
            assert!(program.len() < 4096);
        }
        let mut all: Vec<libc::c_long> = ALLOWED.iter().chain(ALLOWED_X86_64).copied().collect();
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count, "a call is listed twice");
        for refused in [
            libc::SYS_clone3,
            libc::SYS_socket,
            libc::SYS_connect,
            libc::SYS_unshare,
            libc::SYS_setns,
            libc::SYS_mount,
            libc::SYS_ptrace,
            libc::SYS_process_vm_readv,
            libc::SYS_process_vm_writev,
            libc::SYS_bpf,
            libc::SYS_perf_event_open,
            libc::SYS_keyctl,
            libc::SYS_add_key,
            libc::SYS_io_uring_setup,
            libc::SYS_io_uring_enter,
            libc::SYS_io_uring_register,
            libc::SYS_userfaultfd,
            libc::SYS_setsid,
            libc::SYS_setpgid,
            libc::SYS_setuid,
            libc::SYS_kcmp,
            libc::SYS_pidfd_open,
            libc::SYS_personality,
        ] {
            assert!(!all.contains(&refused), "{refused} must not be allowed");
        }
    }
}
