//! The sandbox around every run of a student's program (and around its
//! compilation): whether referee runs as root or as an ordinary user, a
//! program cannot hang the grader, fill the disk, exhaust memory or
//! processes, reach the network, read the cases or other students' files,
//! or outlive its run.
//!
//! The layers, each used where the machine has it ([`Sandbox::protections`]
//! says which, and `referee doctor` prints them):
//!
//! - a session and process group of its own, killed whole at the end of
//!   the run; [`seccomp`] refuses `setsid`/`setpgid`, so nothing leaves it;
//! - [`seccomp`] also refuses the network (sockets other than local Unix
//!   ones), other processes, namespaces, mounts and kernel interfaces;
//! - [`landlock`] limits files to the system's folders and the program's
//!   own, and writes to its working folder; signals stay inside;
//! - resource limits on processor time, address space, file size, open
//!   files; and on processes: a control group per slot as root
//!   ([`cgroup`], which also tells a memory overrun exactly and finds
//!   every process to kill), `RLIMIT_NPROC` counted in referee's user
//!   namespace otherwise;
//! - working folders on a size-limited tmpfs per slot, in referee's own
//!   mount namespace ([`space`]);
//! - as root, every capability dropped before `exec`;
//! - a clean environment (see [`crate::run::clean_env`]).

use std::cell::RefCell;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

pub mod cgroup;
pub mod landlock;
pub mod seccomp;
pub mod space;

pub use space::Isolation;

use crate::run::Limits;

/// Processes a run may have at once, counting the program itself.
pub const PROCESSES: u32 = 64;

/// What a slot's working folders may hold in all, where they are on a
/// tmpfs.
pub const DISK: u64 = 64 << 20;

static ISOLATION: OnceLock<Isolation> = OnceLock::new();
static SANDBOX: OnceLock<Sandbox> = OnceLock::new();

/// Puts referee in its own mount (and, for an ordinary user, user)
/// namespace. Call first thing in `main`, while there is one thread;
/// without it, working folders are plain folders.
pub fn isolate_process() {
    // SAFETY: reading the effective uid.
    let root = unsafe { libc::geteuid() } == 0;
    let _ = ROOT_AT_START.set(root);
    let isolation = if turned_off("tmpfs") {
        Isolation::None
    } else {
        space::isolate(root)
    };
    let _ = ISOLATION.set(isolation);
}

static ROOT_AT_START: OnceLock<bool> = OnceLock::new();

/// The process's sandbox, probed on first use.
pub fn get() -> &'static Sandbox {
    SANDBOX.get_or_init(Sandbox::probe)
}

/// One protection and whether it is on here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Protection {
    /// What it protects.
    pub what: &'static str,
    /// How, when on.
    pub on: Option<String>,
    /// Why not, when off.
    pub off: Option<String>,
}

/// What this machine offers, and the slots runs take turns in.
pub struct Sandbox {
    root: bool,
    isolation: Isolation,
    landlock_abi: i32,
    seccomp: bool,
    cgroups: bool,
    nproc: Option<u64>,
    filter: Box<[libc::sock_filter]>,
    dir: tempfile::TempDir,
    free: Mutex<Vec<Slot>>,
    made: Mutex<usize>,
}

/// A place for one run at a time: a folder (a tmpfs where possible) and,
/// as root, control groups. A slot belongs to one referee thread at a time
/// (the thread's programs are born in its process group), and goes back
/// to the pool when the thread ends.
#[derive(Clone)]
struct Slot {
    dir: PathBuf,
    group: Option<Arc<cgroup::Group>>,
    /// The last Landlock ruleset made for this slot, and what it was made
    /// for: a suite's runs all need the same one.
    rules: Arc<Mutex<Option<MadeRules>>>,
}

/// A Landlock ruleset and what it was made for.
type MadeRules = (RulesFor, Arc<OwnedFd>);

/// What a Landlock ruleset allows: the folders read and written (by
/// inode: the rules hold the folders themselves, not their names).
#[derive(Clone, Debug, PartialEq, Eq)]
struct RulesFor {
    read: Vec<PathBuf>,
    write: Vec<PathBuf>,
    workdir: u64,
}

thread_local! {
    /// The slot this thread runs programs in.
    static THREAD_SLOT: RefCell<Option<ThreadSlot>> = const { RefCell::new(None) };
}

/// A thread's slot, given back to the pool when the thread ends; and
/// whether the thread joined the slot's control groups (see
/// [`cgroup::Group`]).
struct ThreadSlot(Slot, bool);

impl Drop for ThreadSlot {
    fn drop(&mut self) {
        if let Some(sandbox) = SANDBOX.get() {
            sandbox.give_back(self.0.clone());
        }
    }
}

impl Sandbox {
    fn probe() -> Sandbox {
        let on = |name: &str| !turned_off(name);
        // SAFETY: reading the effective uid.
        let root = *ROOT_AT_START
            .get()
            .unwrap_or(&(unsafe { libc::geteuid() } == 0));
        let isolation = *ISOLATION.get().unwrap_or(&Isolation::None);
        let dir = match tempfile::Builder::new().prefix("referee-").tempdir() {
            Ok(dir) => dir,
            Err(e) => {
                // Nothing can run without working folders: say what to do.
                eprintln!(
                    "referee: cannot make a temporary folder in {}: {e}\n\
                     Set TMPDIR to a writable folder and run again.",
                    std::env::temp_dir().display()
                );
                std::process::exit(2);
            }
        };
        let cgroups = root && on("cgroups") && cgroup::probe();
        if cgroups {
            cgroup::remove_stale();
        }
        // Library users (tests) do not call shutdown(); clean up at exit.
        // SAFETY: registering a plain function to run at exit.
        unsafe {
            libc::atexit(shutdown_at_exit);
        }
        Sandbox {
            root,
            isolation,
            landlock_abi: if on("landlock") {
                landlock::kernel_abi()
            } else {
                0
            },
            seccomp: on("seccomp") && seccomp::SUPPORTED && seccomp_available(),
            cgroups,
            nproc: process_limit(root, isolation),
            filter: seccomp::filter(),
            dir,
            free: Mutex::new(Vec::new()),
            made: Mutex::new(0),
        }
    }

    /// Every protection, on or off, in words.
    pub fn protections(&self) -> Vec<Protection> {
        let on = |what, how: String| Protection {
            what,
            on: Some(how),
            off: None,
        };
        let off = |what, why: &str| Protection {
            what,
            on: None,
            off: Some(why.to_string()),
        };
        let mut list = Vec::new();
        list.push(if self.seccomp {
            on("child processes", "kept in the program's process group (setsid refused) and killed at the end of each case".into())
        } else {
            off("child processes", "seccomp is not available: a child that starts its own session may outlive its case")
        });
        list.push(match (self.cgroups, self.nproc) {
            (true, _) => on("fork bombs", format!("at most {PROCESSES} processes per run (cgroup pids controller)")),
            (false, Some(_)) => on(
                "fork bombs",
                match self.isolation {
                    Isolation::UserAndMounts => "limited to a few hundred processes (RLIMIT_NPROC, counted in referee's own user namespace)".into(),
                    _ => "limited to a few hundred more processes than you run now (RLIMIT_NPROC)".into(),
                },
            ),
            (false, None) => off("fork bombs", "running as root without the cgroup pids controller: the number of processes is not limited"),
        });
        list.push(if self.cgroups {
            on(
                "memory",
                "address-space limit, and overruns told exactly (cgroup memory controller)".into(),
            )
        } else {
            on(
                "memory",
                "address-space limit (a run that fails near its limit is judged out of memory)"
                    .into(),
            )
        });
        list.push(if self.landlock_abi >= 1 {
            on("files", format!("Landlock ABI {}: reads only system folders and the program's own; writes only its working folder", self.landlock_abi))
        } else {
            off("files", "Landlock is not available: the program can read and write whatever your user can")
        });
        list.push(if self.isolation != Isolation::None {
            on("disk", format!("working folders on a private {} MiB tmpfs; each file capped in size", DISK >> 20))
        } else {
            on("disk", "each file capped in size (RLIMIT_FSIZE); the total is not capped (no private mount namespace)".into())
        });
        list.push(if self.seccomp {
            on("network", "no sockets but local Unix ones (seccomp)".into())
        } else if self.landlock_abi >= 4 {
            on("network", "no TCP connections (Landlock)".into())
        } else {
            off(
                "network",
                "neither seccomp nor Landlock 4: the program can reach the network",
            )
        });
        list.push(if self.landlock_abi >= 6 {
            on("signals", "cannot signal processes outside its sandbox (Landlock)".into())
        } else if self.seccomp {
            on("signals", "cannot signal other process groups (seccomp); single processes of the same user can still be signalled".into())
        } else {
            off("signals", "can signal any process of the same user")
        });
        if self.root {
            list.push(on(
                "privileges",
                "every capability dropped before the program starts".into(),
            ));
        }
        list.push(on(
            "environment",
            "clean: nothing of the grader's, fixed locale, HOME and TMPDIR in the working folder"
                .into(),
        ));
        list
    }

    /// The protections that are off, in one sentence, or `None`.
    pub fn missing(&self) -> Option<String> {
        let off: Vec<String> = self
            .protections()
            .into_iter()
            .filter_map(|p| p.off.map(|why| format!("{} ({why})", p.what)))
            .collect();
        (!off.is_empty()).then(|| {
            format!(
                "these protections are off on this machine: {}",
                off.join("; ")
            )
        })
    }

    /// A jail for one run: a fresh working folder in a free slot, and the
    /// rules the program will be held to. `reads` are the folders the
    /// program needs besides the system's.
    pub fn jail(&self, reads: &[PathBuf], limits: &Limits) -> io::Result<Jail<'_>> {
        self.jail_writing(reads, &[], limits)
    }

    /// Like [`Sandbox::jail`], with more folders the program may write
    /// (a compiler's build folder).
    pub fn jail_writing(
        &self,
        reads: &[PathBuf],
        writes: &[&Path],
        limits: &Limits,
    ) -> io::Result<Jail<'_>> {
        let (slot, adopted) = self.thread_slot()?;
        let workdir = slot.dir.join("work");
        let inode = empty_workdir(&slot.dir, &workdir)?;
        if let Some(group) = &slot.group {
            group.prepare(PROCESSES, limits.memory)?;
        }
        let mut read: Vec<PathBuf> = reads.to_vec();
        read.extend_from_slice(extra_reads());
        let landlock = if self.landlock_abi >= 1 {
            let mut write: Vec<PathBuf> = writes.iter().map(|w| w.to_path_buf()).collect();
            write.push(workdir.clone());
            let wanted = RulesFor {
                read,
                write,
                workdir: inode,
            };
            slot_rules(&slot, wanted)?
        } else {
            None
        };
        Ok(Jail {
            sandbox: self,
            slot: Some(slot),
            adopted,
            workdir,
            landlock,
            emptied: std::cell::Cell::new(false),
        })
    }

    /// A private folder for building a submission, removed when dropped:
    /// in this thread's slot, so on its tmpfs where there is one. Making
    /// and removing folders on a disk can cost milliseconds each (a disk
    /// mounted with `discard` trims a folder's block as it goes).
    pub fn build_folder(&self) -> io::Result<tempfile::TempDir> {
        let (slot, _) = self.thread_slot()?;
        tempfile::Builder::new()
            .prefix("build-")
            .tempdir_in(&slot.dir)
    }

    /// This thread's slot, taking one from the pool the first time; and
    /// whether the thread is in the slot's control groups.
    fn thread_slot(&self) -> io::Result<(Slot, bool)> {
        THREAD_SLOT.with(|cell| {
            if let Some(bound) = cell.borrow().as_ref() {
                return Ok((bound.0.clone(), bound.1));
            }
            let slot = self.take_slot()?;
            let adopted = match &slot.group {
                Some(group) => group.adopt_this_thread()?,
                None => false,
            };
            *cell.borrow_mut() = Some(ThreadSlot(slot.clone(), adopted));
            Ok((slot, adopted))
        })
    }

    fn take_slot(&self) -> io::Result<Slot> {
        if let Some(slot) = self
            .free
            .lock()
            .map_err(|_| io::Error::other("slots lost"))?
            .pop()
        {
            return Ok(slot);
        }
        let index = {
            let mut made = self
                .made
                .lock()
                .map_err(|_| io::Error::other("slots lost"))?;
            *made += 1;
            *made
        };
        let dir = self.dir.path().join(format!("slot{index}"));
        fs::create_dir(&dir)?;
        if self.isolation != Isolation::None {
            space::mount_tmpfs(&dir, DISK)?;
        }
        let group = if self.cgroups {
            Some(Arc::new(cgroup::Group::create(&format!(
                "referee-{}/slot{index}",
                std::process::id()
            ))?))
        } else {
            None
        };
        Ok(Slot {
            dir,
            group,
            rules: Arc::new(Mutex::new(None)),
        })
    }

    fn give_back(&self, slot: Slot) {
        if let Ok(mut free) = self.free.lock() {
            free.push(slot);
        }
    }
}

/// The slot's ruleset for `wanted`, made only when it differs from the
/// last one.
fn slot_rules(slot: &Slot, wanted: RulesFor) -> io::Result<Option<Arc<OwnedFd>>> {
    let mut cached = slot
        .rules
        .lock()
        .map_err(|_| io::Error::other("a slot's rules were lost"))?;
    if let Some((made_for, fd)) = cached.as_ref() {
        if *made_for == wanted {
            return Ok(Some(fd.clone()));
        }
    }
    let write: Vec<&Path> = wanted.write.iter().map(PathBuf::as_path).collect();
    let made = landlock::ruleset(&wanted.read, &write)?.map(Arc::new);
    *cached = made.clone().map(|fd| (wanted, fd));
    Ok(made)
}

/// Makes the slot's working folder ready for a run: there, empty, and
/// writable; its inode. The folder is kept from run to run (so a ruleset
/// naming it stays valid); when what a program left cannot be removed,
/// it is set aside and a new folder made.
fn empty_workdir(slot_dir: &Path, workdir: &Path) -> io::Result<u64> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let ready = fs::set_permissions(workdir, fs::Permissions::from_mode(0o755))
        .and_then(|_| empty_folder(workdir));
    if ready.is_err() {
        if workdir.exists() {
            let aside = tempfile::Builder::new()
                .prefix("left-")
                .tempdir_in(slot_dir)?
                .keep();
            fs::rename(workdir, aside.join("work"))?;
        }
        fs::create_dir(workdir)?;
    }
    Ok(fs::metadata(workdir)?.ino())
}

/// Removes everything in `dir`, leaving it.
fn empty_folder(dir: &Path) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            fs::remove_dir_all(entry.path())?;
        } else {
            fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// Whether `REFEREE_SANDBOX_OFF` (a comma-separated list of `landlock`,
/// `seccomp`, `cgroups`, `tmpfs`, or `all`) turns a protection off: for
/// measuring what each costs, and for machines where one misbehaves.
pub fn turned_off(name: &str) -> bool {
    std::env::var("REFEREE_SANDBOX_OFF")
        .map(|v| v.split(',').any(|p| p.trim() == name || p.trim() == "all"))
        .unwrap_or(false)
}

/// Whether seccomp filters can be installed here.
pub fn seccomp_available() -> bool {
    // SAFETY: asking for the calling thread's seccomp mode.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 }
}

/// The `RLIMIT_NPROC` for runs: it counts every process of the user in
/// the user namespace, so the limit leaves room for referee and the
/// user's own processes. As root (which the limit does not bind), none.
fn process_limit(root: bool, isolation: Isolation) -> Option<u64> {
    if root {
        return None;
    }
    let mine = if isolation == Isolation::UserAndMounts {
        64
    } else {
        user_tasks()
    };
    Some(mine + 4 * u64::from(PROCESSES))
}

/// How many tasks (threads included) this user runs now.
fn user_tasks() -> u64 {
    // SAFETY: reading the real uid.
    let uid = unsafe { libc::getuid() };
    let Ok(entries) = fs::read_dir("/proc") else {
        return 1024;
    };
    let mut count = 0;
    for entry in entries.flatten() {
        let status = fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let owned = status
            .lines()
            .find(|l| l.starts_with("Uid:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .is_some_and(|u| u == uid.to_string());
        if owned {
            count += status
                .lines()
                .find(|l| l.starts_with("Threads:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(1);
        }
    }
    count
}

/// Folders named in `REFEREE_ALLOW_READ` (separated by `:`): read-only
/// access for programs that need more than their own folder, such as an
/// executable that runs another program. Read once.
fn extra_reads() -> &'static [PathBuf] {
    static EXTRA: OnceLock<Vec<PathBuf>> = OnceLock::new();
    EXTRA.get_or_init(|| {
        std::env::var_os("REFEREE_ALLOW_READ")
            .map(|v| std::env::split_paths(&v).collect())
            .unwrap_or_default()
    })
}

/// One run's confinement: its working folder and the rules.
pub struct Jail<'s> {
    sandbox: &'s Sandbox,
    slot: Option<Slot>,
    /// Whether programs are born in the slot's control groups, or must
    /// join them.
    adopted: bool,
    workdir: PathBuf,
    landlock: Option<Arc<OwnedFd>>,
    /// Whether the run's control group was found empty after the run, so
    /// dropping the jail need not look again.
    emptied: std::cell::Cell<bool>,
}

impl Jail<'_> {
    /// The run's working folder, fresh and empty.
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// The clean environment the program runs in.
    pub fn env(&self) -> Vec<(OsString, OsString)> {
        crate::run::clean_env(&self.workdir)
    }

    /// The rules as plain values for the child between `fork` and `exec`.
    pub fn confinement(&self) -> Confinement {
        // A program is about to start: its group must be looked at again.
        self.emptied.set(false);
        let sandbox = self.sandbox;
        let group = self.slot.as_ref().and_then(|s| s.group.as_ref());
        let join = group
            .filter(|_| !self.adopted)
            .map(|g| [g.join[0].as_ptr() as usize, g.join[1].as_ptr() as usize]);
        Confinement {
            landlock: self.landlock.as_ref().map_or(-1, |fd| fd.as_raw_fd()),
            filter: sandbox.seccomp.then_some((
                sandbox.filter.as_ptr() as usize,
                sandbox.filter.len() as u16,
            )),
            join,
            oom_first: group.is_some(),
            drop_capabilities: sandbox.root,
            nproc: sandbox.nproc,
        }
    }

    /// Kills every process still in the run's control group (as root;
    /// elsewhere the runner's process-group kill does it).
    pub fn kill_all(&self) {
        if let Some(group) = self.slot.as_ref().and_then(|s| s.group.as_ref()) {
            group.kill_all();
            self.emptied.set(true);
        }
    }

    /// Whether the run hit its memory limit, where the machine can tell.
    pub fn hit_memory_limit(&self) -> Option<bool> {
        self.slot
            .as_ref()
            .and_then(|s| s.group.as_ref())
            .map(|g| g.hit_memory_limit())
    }
}

impl Drop for Jail<'_> {
    fn drop(&mut self) {
        if !self.emptied.get() {
            self.kill_all();
        }
        // What cannot be removed now is set aside by the next jail.
        let _ = empty_folder(&self.workdir);
    }
}

/// A jail's rules as plain values (pointers into memory the jail and the
/// sandbox own), for a `pre_exec` closure. Valid while the jail lives.
#[derive(Clone, Copy, Debug)]
pub struct Confinement {
    landlock: RawFd,
    filter: Option<(usize, u16)>,
    /// The `cgroup.procs` to join, when the child is not born in them.
    join: Option<[usize; 2]>,
    /// Make the program the out-of-memory killer's first choice.
    oom_first: bool,
    /// As root: give up every capability for good.
    drop_capabilities: bool,
    nproc: Option<u64>,
}

impl Confinement {
    /// The seccomp filter, if the rules have one: a caller that installs
    /// a filter of its own chains the two into one (see
    /// [`seccomp::chain`]) and applies [`Confinement::without_filter`].
    pub fn filter(&self) -> Option<&[libc::sock_filter]> {
        // SAFETY: the pointer and length describe the sandbox's filter,
        // which lives as long as the process.
        self.filter.map(|(ptr, len)| unsafe {
            std::slice::from_raw_parts(ptr as *const libc::sock_filter, usize::from(len))
        })
    }

    /// The same rules, the seccomp filter left to the caller.
    pub fn without_filter(&self) -> Confinement {
        Confinement {
            filter: None,
            ..*self
        }
    }

    /// Applies the rules to the calling process: in the child, between
    /// `fork` and `exec`. Async-signal-safe: system calls only.
    pub fn apply(&self) -> io::Result<()> {
        if let Some(paths) = self.join {
            cgroup::join(&paths.map(|p| p as *const libc::c_char))?;
        }
        if self.oom_first {
            cgroup::prefer_for_oom_killer()?;
        }
        if let Some(n) = self.nproc {
            set_limit(libc::RLIMIT_NPROC, n)?;
        }
        // SAFETY: prctl with constant arguments.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } < 0 {
            return Err(io::Error::last_os_error());
        }
        if self.drop_capabilities {
            drop_capabilities()?;
        }
        if self.landlock >= 0 {
            landlock::restrict(self.landlock)?;
        }
        if let Some((filter, len)) = self.filter {
            // SAFETY: the filter lives in the sandbox, which outlives the
            // process.
            unsafe { seccomp::install(filter as *const libc::sock_filter, len)? };
        }
        Ok(())
    }
}

fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: setrlimit reads one rlimit.
    if unsafe { libc::setrlimit(resource, &limit) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Leaves the program (root or not) with no capabilities, now or after
/// `exec`: every capability set is emptied, and with `no_new_privs`
/// already set `exec` gives none back (not root's usual full set, not a
/// binary's file capabilities); root's regaining at `exec` is also
/// turned off and locked (`SECBIT_NOROOT`) where allowed. Two system calls,
/// where emptying the bounding set one capability at a time took forty.
fn drop_capabilities() -> io::Result<()> {
    const NOROOT: libc::c_ulong = 1 << 0;
    const NOROOT_LOCKED: libc::c_ulong = 1 << 1;
    const NO_SETUID_FIXUP: libc::c_ulong = 1 << 2;
    const NO_SETUID_FIXUP_LOCKED: libc::c_ulong = 1 << 3;
    const KEEP_CAPS_LOCKED: libc::c_ulong = 1 << 5;
    let bits = NOROOT | NOROOT_LOCKED | NO_SETUID_FIXUP | NO_SETUID_FIXUP_LOCKED | KEEP_CAPS_LOCKED;
    // Best effort: a container may withhold CAP_SETPCAP, and the empty
    // sets with `no_new_privs` already keep `exec` from giving any back.
    // SAFETY: prctl with integer arguments.
    unsafe { libc::prctl(libc::PR_SET_SECUREBITS, bits, 0, 0, 0) };
    // _LINUX_CAPABILITY_VERSION_3: two 32-bit halves per set.
    let header = [0x2008_0522u32, 0];
    let empty = [0u32; 6];
    // SAFETY: capset reads a header and two data structs of three u32s.
    if unsafe { libc::syscall(libc::SYS_capset, header.as_ptr(), empty.as_ptr()) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

extern "C" fn shutdown_at_exit() {
    shutdown();
}

/// Removes what referee left in shared places (its control groups, its
/// working folders); called at exit.
pub fn shutdown() {
    if let Some(sandbox) = SANDBOX.get() {
        if let Ok(mut free) = sandbox.free.lock() {
            for slot in free.drain(..) {
                if sandbox.isolation != Isolation::None {
                    space::unmount(&slot.dir);
                }
            }
        }
        let _ = fs::remove_dir_all(sandbox.dir.path());
        if sandbox.cgroups {
            for controller in ["pids", "memory"] {
                remove_own_groups(controller);
            }
        }
    }
}

/// Removes the groups referee made below its own (see [`cgroup::Group::create`]).
fn remove_own_groups(controller: &str) {
    if let Some(own) = cgroup::own_path(controller) {
        cgroup::remove_tree(&own.join(format!("referee-{}", std::process::id())));
    }
}
