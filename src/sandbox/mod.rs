//! The sandbox around every run of a student's program, and around every
//! compilation: whether referee runs as root, as an ordinary user, in a
//! container, or as PID 1, a program cannot hang the grader, fill the
//! disk, exhaust memory or processes, reach the network, read the cases
//! or other students' files, change another student's grade, or outlive
//! its run.
//!
//! Programs run in *slots*, one per referee worker thread, each set up
//! once and reused run after run. Each slot has a keeper process
//! ([`keeper`]) that holds the slot's layers:
//!
//! - **namespaces**: a PID namespace whose init is the keeper (everything a
//!   run started is killed and reaped before the slot is used again), an
//!   empty network namespace, IPC and UTS namespaces, and a mount
//!   namespace with a minimal root ([`rootfs`]); for an ordinary user, a
//!   user namespace of the slot's own;
//! - **seccomp**: an allowlist ([`seccomp`]), architecture checked first;
//! - **Landlock** ([`landlock`]): files limited to the system's folders,
//!   the program's own, and its working folder; signals and abstract
//!   sockets kept inside;
//! - **control groups** ([`cgroup`], version 1 or 2): processes and memory
//!   capped for the run as a whole, overruns told exactly;
//! - **a user of the slot's own** ([`uid`], as root): no program runs as
//!   root, and file permissions and `RLIMIT_NPROC` hold between slots;
//! - **a private tmpfs** per slot ([`space`]): the disk a run can fill is
//!   capped in total;
//! - resource limits, no capabilities, `no_new_privs`, only stdin, stdout
//!   and stderr inherited, and a clean environment ([`limits`]).
//!
//! Each layer can be turned off for measuring or for a machine where one
//! misbehaves (`REFEREE_SANDBOX_OFF`, see [`turned_off`]); where the
//! machine lacks one, the others still hold, and [`Sandbox::protections`]
//! (`referee doctor`) says exactly which hold.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

pub mod allocation;
pub mod cgroup;
mod clean;
pub mod cpus;
pub mod keeper;
pub mod landlock;
pub mod limits;
pub mod listener;
pub mod pty;
pub mod rootfs;
pub mod seccomp;
pub mod space;
pub mod uid;

pub use keeper::{Ended, Spawned};
pub use limits::{clean_env, Limits};
pub use seccomp::available as seccomp_available;
pub use space::Isolation;

use keeper::{protocol, Blueprint, Keeper, LetThrough};
use pty::Pty;

/// Processes a run may have at once, counting the program itself.
pub const PROCESSES: u32 = 64;

/// What a slot's working folders may hold in all, where they are on a
/// tmpfs.
pub const DISK: u64 = 64 << 20;

/// What the built programs of the submissions being graded may hold in
/// all, where they are on a tmpfs.
const BUILDS_DISK: u64 = 1 << 30;

static ISOLATION: OnceLock<Isolation> = OnceLock::new();
static ROOT_AT_START: OnceLock<bool> = OnceLock::new();
static SANDBOX: OnceLock<Sandbox> = OnceLock::new();

/// Puts referee in its own mount (and, for an ordinary user, user)
/// namespace, and keeps descriptors it inherited from reaching anything
/// it starts. Call first thing in `main`, while there is one thread.
pub fn isolate_process() {
    close_inherited_on_exec();
    // Asked before referee enters a mount namespace of its own: from
    // there, a program started from a mount of the old one is named
    // relative to that mount (`/referee` for `/usr/local/bin/referee`).
    let _ = own_program();
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

/// Marks every descriptor above stderr close-on-exec: one a TA's shell
/// left open (`exec 8<secret; referee grade ...`) reaches no tool referee
/// starts. (Programs are protected anyway: their keeper closes all.)
fn close_inherited_on_exec() {
    // SAFETY: close_range only changes descriptor flags.
    unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        );
    }
}

/// The process's sandbox, probed on first use.
pub fn get() -> &'static Sandbox {
    SANDBOX.get_or_init(Sandbox::probe)
}

/// Folders every program may read, shown read-only at their own paths in
/// every slot's root (an interpreter's, say), said by whoever knows them
/// (the sandbox knows nothing of languages) when it first needs them: a
/// class of C programs never pays for finding Python. A slot made before
/// a folder was shown is made anew when next used.
pub fn show_read_only(folders: Vec<PathBuf>) {
    let Ok(mut shown) = SHOWN.lock() else {
        return;
    };
    let new: Vec<PathBuf> = folders.into_iter().filter(|f| !shown.contains(f)).collect();
    if !new.is_empty() {
        shown.extend(new);
        SHOWN_GENERATION.fetch_add(1, Ordering::Relaxed);
    }
}

static SHOWN: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Keeps `path` (a file or a folder) from every program referee runs,
/// even where it lies in a folder programs may read (a course's suite
/// installed under `/usr/share`, say). Referee's own program, which
/// holds the built-in suites, hidden cases included, is always kept
/// from them ([`hidden`]). Rulesets made before are made anew.
pub fn hide_from_programs(path: &Path) {
    let Ok(real) = fs::canonicalize(path) else {
        return;
    };
    let Ok(mut hidden) = HIDDEN.lock() else {
        return;
    };
    if !hidden.contains(&real) {
        hidden.push(real);
        HIDDEN_GENERATION.fetch_add(1, Ordering::Relaxed);
    }
}

static HIDDEN: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Where referee's own program is, found once.
fn own_program() -> &'static Option<PathBuf> {
    static OWN: OnceLock<Option<PathBuf>> = OnceLock::new();
    OWN.get_or_init(|| std::env::current_exe().and_then(fs::canonicalize).ok())
}

/// How many times [`hide_from_programs`] hid something new.
static HIDDEN_GENERATION: AtomicU64 = AtomicU64::new(0);

/// Everything kept from programs: referee's own program, and what
/// [`hide_from_programs`] was given.
/// A folder named in `REFEREE_ALLOW_READ` is shown whole, as the TA
/// said: what lies in it is not hidden.
fn hidden() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = own_program().iter().cloned().collect();
    all.extend(HIDDEN.lock().map(|h| h.clone()).unwrap_or_default());
    let allowed: Vec<PathBuf> = extra_reads()
        .iter()
        .filter_map(|p| fs::canonicalize(p).ok())
        .collect();
    all.retain(|h| !allowed.iter().any(|a| h.starts_with(a)));
    all
}

/// How many times [`show_read_only`] showed new folders: a slot made
/// under an older count lacks them.
static SHOWN_GENERATION: AtomicU64 = AtomicU64::new(0);

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

/// The layers that can be turned off, by the names `REFEREE_SANDBOX_OFF`
/// takes.
const LAYERS: &[&str] = &[
    "seccomp", "landlock", "cgroups", "tmpfs", "pid", "net", "ipc", "mount", "uid",
];

/// Whether `REFEREE_SANDBOX_OFF` (a comma-separated list of `seccomp`,
/// `landlock`, `cgroups`, `tmpfs`, `pid`, `net`, `ipc`, `mount`, `uid`,
/// or `namespaces` for `pid,net,ipc,mount`, or `all`) turns a layer off:
/// for showing what each layer stops on its own, for measuring what each
/// costs, and for machines where one misbehaves.
pub fn turned_off(name: &str) -> bool {
    std::env::var("REFEREE_SANDBOX_OFF")
        .map(|v| {
            v.split(',').map(str::trim).any(|p| {
                p == name
                    || p == "all"
                    || (p == "namespaces" && matches!(name, "pid" | "net" | "ipc" | "mount"))
            })
        })
        .unwrap_or(false)
}

/// The names of every layer, for messages.
pub fn layer_names() -> &'static [&'static str] {
    LAYERS
}

/// Which layers a slot's keeper is made with; narrowed, once for the
/// process, when the machine refuses one.
#[derive(Clone, Debug)]
struct Layers {
    pid: bool,
    net: bool,
    ipc: bool,
    mount: bool,
    uid: bool,
    cgroups: bool,
    /// Why a layer is off (its name, the reason).
    off: Vec<(&'static str, String)>,
}

impl Layers {
    fn namespaces(&self) -> bool {
        self.pid || self.net || self.ipc || self.mount
    }

    fn turn_off(&mut self, layer: &'static str, why: String) {
        match layer {
            "pid" => self.pid = false,
            "net" => self.net = false,
            "ipc" => self.ipc = false,
            "mount" => self.mount = false,
            "uid" => self.uid = false,
            "cgroups" => self.cgroups = false,
            _ => {}
        }
        self.off.retain(|(l, _)| *l != layer);
        self.off.push((layer, why));
    }

    fn why_off(&self, layer: &str) -> Option<&str> {
        self.off
            .iter()
            .find(|(l, _)| *l == layer)
            .map(|(_, why)| why.as_str())
    }
}

/// What this machine offers, and the slots runs take turns in.
pub struct Sandbox {
    root: bool,
    isolation: Isolation,
    landlock_abi: i32,
    seccomp: bool,
    /// The allowlist for a keeper with a PID namespace, and without.
    allowlists: Option<[Box<[libc::sock_filter]>; 2]>,
    hierarchy: Option<cgroup::Hierarchy>,
    layers: Mutex<Layers>,
    /// Set once a keeper started: `layers` will not narrow any more.
    settled: AtomicBool,
    dir: tempfile::TempDir,
    /// Held while referee lives: tells a later referee the folder is in
    /// use (see [`sweep_abandoned`]).
    _in_use: nix::fcntl::Flock<fs::File>,
    builds: PathBuf,
    free: Mutex<Vec<Arc<Slot>>>,
    made: AtomicUsize,
    /// Threads making slots in the background
    /// ([`Sandbox::make_slots_meanwhile`]): [`shutdown`] waits for them.
    making: AtomicUsize,
}

/// A place for one run at a time: working folders on a tmpfs, a terminal,
/// a keeper in the slot's namespaces, control groups, a user of its own.
/// A slot belongs to one referee thread at a time and goes back to the
/// pool when the thread ends, unless it was retired (something of it
/// could not be made clean again).
pub struct Slot {
    work: PathBuf,
    tmp: PathBuf,
    /// On a tmpfs of the slot's own, the size an empty folder has there
    /// (see [`Slot::empty_folders`]).
    empty_size: Option<u64>,
    pty: Pty,
    keeper: Keeper,
    group: Option<cgroup::Group>,
    /// Held while the slot lives.
    _lease: Option<uid::Lease>,
    /// What this slot's keeper has: a PID namespace, and a minimal root
    /// (with the places of the run's folders in it).
    pid_namespace: bool,
    /// Which standard descriptors' changes the slot's listener holds: all
    /// three where its keeper opens the programs' memory for referee.
    standard: listener::Standard,
    places: Option<rootfs::Places>,
    /// The last Landlock ruleset made for this slot, and what for.
    rules: Mutex<Option<MadeRules>>,
    retired: AtomicBool,
    /// The [`SHOWN_GENERATION`] its root was made under.
    shown: u64,
    /// Removed last, once the keeper (and with it the run) is gone.
    _folders: Folders,
}

/// A slot's folders, removed when the slot goes.
struct Folders {
    dir: PathBuf,
    new_root: PathBuf,
    tmpfs: bool,
}

impl Drop for Folders {
    fn drop(&mut self) {
        if self.tmpfs {
            space::unmount(&self.dir);
        }
        let _ = fs::remove_dir_all(&self.dir);
        let _ = fs::remove_dir(&self.new_root);
    }
}

type MadeRules = (RulesFor, Arc<OwnedFd>);

/// What a Landlock ruleset allows.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RulesFor {
    read: Vec<PathBuf>,
    terminal: bool,
    /// The [`HIDDEN_GENERATION`] it leaves out.
    hidden: u64,
}

thread_local! {
    /// The slot this thread runs programs in.
    static THREAD_SLOT: std::cell::RefCell<Option<ThreadSlot>> =
        const { std::cell::RefCell::new(None) };
}

/// A thread's slot, given back to the pool when the thread ends, and the
/// processor the thread and the slot's programs run on, if one was free.
struct ThreadSlot {
    slot: Arc<Slot>,
    _cpu: Option<cpus::Claim>,
}

impl Drop for ThreadSlot {
    fn drop(&mut self) {
        if let Some(sandbox) = SANDBOX.get() {
            sandbox.give_back(Arc::clone(&self.slot));
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
        let (dir, in_use) = match temporary_folder() {
            Ok(made) => made,
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
        let builds = dir.path().join("builds");
        let builds_on_tmpfs = make_builds_folder(&builds, isolation);
        let mut layers = Layers {
            pid: on("pid"),
            net: on("net"),
            ipc: on("ipc"),
            mount: on("mount"),
            uid: root && on("uid"),
            cgroups: false,
            off: Vec::new(),
        };
        for name in ["pid", "net", "ipc", "mount"] {
            if turned_off(name) {
                layers.turn_off(name, "turned off (REFEREE_SANDBOX_OFF)".into());
            }
        }
        if !root {
            layers
                .off
                .push(("uid", "referee is not root: programs run as you".into()));
        } else if turned_off("uid") {
            layers.turn_off("uid", "turned off (REFEREE_SANDBOX_OFF)".into());
        }
        let hierarchy = if on("cgroups") {
            match cgroup::Hierarchy::find() {
                Ok(h) => {
                    h.clean_up(false);
                    layers.cgroups = true;
                    Some(h)
                }
                Err(why) => {
                    layers.turn_off("cgroups", why.to_string());
                    None
                }
            }
        } else {
            layers.turn_off("cgroups", "turned off (REFEREE_SANDBOX_OFF)".into());
            None
        };
        let seccomp = on("seccomp") && seccomp::SUPPORTED && seccomp_available();
        let allowlists = seccomp
            .then(|| {
                Some([
                    seccomp::allowlist(true).ok()?,
                    seccomp::allowlist(false).ok()?,
                ])
            })
            .flatten();
        if !builds_on_tmpfs && isolation != Isolation::None {
            layers
                .off
                .push(("builds", "built programs are on the disk".into()));
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
            seccomp: allowlists.is_some(),
            allowlists,
            hierarchy,
            layers: Mutex::new(layers),
            settled: AtomicBool::new(false),
            dir,
            _in_use: in_use,
            builds,
            free: Mutex::new(Vec::new()),
            made: AtomicUsize::new(0),
            making: AtomicUsize::new(0),
        }
    }

    /// A private folder for a submission's built program, removed when
    /// dropped: readable by every slot's programs (at `/builds` inside),
    /// by name only (the folder of all builds cannot be listed).
    pub fn build_folder(&self) -> io::Result<tempfile::TempDir> {
        let dir = tempfile::Builder::new()
            .prefix("b")
            .rand_bytes(16)
            .tempdir_in(&self.builds)?;
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755))?;
        Ok(dir)
    }

    /// A jail for one run of a program: the working folders of a free
    /// slot, emptied, and the rules the program will be held to. `reads`
    /// are the folders it needs besides the system's.
    pub fn jail(&self, reads: &[PathBuf], limits: &Limits) -> io::Result<Jail> {
        self.jail_for(reads, limits, Kind::Run)
    }

    /// A jail for a build tool (the compiler, Python's syntax check): no
    /// terminal, no controlling terminal.
    pub fn build_jail(&self, reads: &[PathBuf], limits: &Limits) -> io::Result<Jail> {
        self.jail_for(reads, limits, Kind::Build)
    }

    fn jail_for(&self, reads: &[PathBuf], limits: &Limits, kind: Kind) -> io::Result<Jail> {
        // A slot that cannot be made ready is the grader's trouble, not
        // the program's: give it up and try once more on a fresh one.
        match self.ready_jail(reads, limits, kind) {
            Ok(jail) => Ok(jail),
            Err(_) => {
                retire_thread_slot();
                self.ready_jail(reads, limits, kind)
            }
        }
    }

    fn ready_jail(&self, reads: &[PathBuf], limits: &Limits, kind: Kind) -> io::Result<Jail> {
        let slot = self.thread_slot()?;
        slot.empty_folders()
            .map_err(|e| context(e, "cannot empty a slot's working folders"))?;
        if let Some(group) = &slot.group {
            group
                .prepare(PROCESSES + 1, limits.memory)
                .map_err(|e| context(e, "cannot set a slot's control group's limits"))?;
        }
        if kind == Kind::Run {
            slot.pty
                .reset()
                .map_err(|e| context(e, "cannot reset a slot's terminal"))?;
        }
        let landlock = if self.landlock_abi >= 1 {
            let mut read: Vec<PathBuf> = reads.to_vec();
            read.extend_from_slice(extra_reads());
            slot.rules(RulesFor {
                read,
                terminal: kind == Kind::Run,
                hidden: HIDDEN_GENERATION.load(Ordering::Relaxed),
            })
            .map_err(|e| context(e, "cannot make a Landlock ruleset"))?
        } else {
            None
        };
        Ok(Jail {
            slot,
            kind,
            landlock,
            limits: limits.clone(),
            running: std::cell::Cell::new(false),
            nproc: self.nproc(),
            allowlist_in_child: self.seccomp,
            address_space: None,
            env: Vec::new(),
            watched: None,
        })
    }

    /// The `RLIMIT_NPROC` for runs. It counts the tasks of the program's
    /// user in its user namespace: with a user of the slot's own (root) or
    /// a user namespace of the slot's own, only the slot's, the keeper
    /// included; otherwise every task of the user, so the limit leaves
    /// room for referee and the user's own. As root without a user of its
    /// own, none (the limit does not bind root).
    fn nproc(&self) -> Option<u64> {
        let layers = self.layers.lock().ok()?;
        if self.root {
            return layers.uid.then_some(u64::from(PROCESSES) + 1);
        }
        if layers.namespaces() {
            return Some(u64::from(PROCESSES) + 1);
        }
        let mine = if self.isolation == Isolation::UserAndMounts {
            64
        } else {
            user_tasks()
        };
        Some(mine + 4 * u64::from(PROCESSES))
    }

    /// This thread's slot, made or taken from the pool the first time.
    fn thread_slot(&self) -> io::Result<Arc<Slot>> {
        THREAD_SLOT.with(|cell| {
            if let Some(bound) = cell.borrow().as_ref() {
                if !bound.slot.retired.load(Ordering::Relaxed) && bound.slot.is_current() {
                    return Ok(Arc::clone(&bound.slot));
                }
                // A slot whose root lacks folders shown since is made anew.
                bound.slot.retired.store(true, Ordering::Relaxed);
            }
            // The slot of before is given back first, with its processor.
            drop(cell.borrow_mut().take());
            let slot = self.take_slot()?;
            let claim = cpus::claim();
            cpus::follow(slot.keeper.pid(), claim.as_ref());
            *cell.borrow_mut() = Some(ThreadSlot {
                slot: Arc::clone(&slot),
                _cpu: claim,
            });
            Ok(slot)
        })
    }

    /// Makes slots in the background until `count` are free, for threads
    /// about to run programs: a slot takes some 15 ms to make
    /// (namespaces, a root, control groups), which a compile on the
    /// calling thread can cover. What is made goes to the pool; a thread
    /// that finds none there yet makes its own, as always.
    pub fn make_slots_meanwhile(&'static self, count: usize) {
        let free = self.free.lock().map_or(0, |f| f.len());
        let missing = count.saturating_sub(free);
        if missing == 0 {
            return;
        }
        self.making.fetch_add(1, Ordering::AcqRel);
        let spawned = std::thread::Builder::new()
            .name("slots".into())
            .spawn(move || {
                // Started from a thread that may hold a processor (and
                // compile there): the slots are made on any other.
                cpus::free_this_thread();
                for _ in 0..missing {
                    let index = self.made.fetch_add(1, Ordering::Relaxed) + 1;
                    match self.make_slot(index) {
                        Ok(slot) => self.give_back(Arc::new(slot)),
                        Err(_) => break,
                    }
                }
                self.making.fetch_sub(1, Ordering::AcqRel);
            });
        if spawned.is_err() {
            self.making.fetch_sub(1, Ordering::AcqRel);
        }
    }

    fn take_slot(&self) -> io::Result<Arc<Slot>> {
        while let Some(slot) = self.free.lock().ok().and_then(|mut f| f.pop()) {
            if slot.is_current() {
                return Ok(slot);
            }
        }
        let index = self.made.fetch_add(1, Ordering::Relaxed) + 1;
        self.make_slot(index).map(Arc::new)
    }

    fn give_back(&self, slot: Arc<Slot>) {
        if slot.retired.load(Ordering::Relaxed) {
            return;
        }
        if let Ok(mut free) = self.free.lock() {
            free.push(slot);
        }
    }

    /// Makes slot `index`. The first slot finds out which layers this
    /// machine allows: each one the machine refuses is turned off, with
    /// the reason, and the slot made again without it.
    fn make_slot(&self, index: usize) -> io::Result<Slot> {
        loop {
            let layers = self
                .layers
                .lock()
                .map_err(|_| io::Error::other("the sandbox's layers were lost"))?
                .clone();
            match self.try_slot(index, &layers) {
                Ok(slot) => {
                    self.settled.store(true, Ordering::Relaxed);
                    return Ok(slot);
                }
                Err(SlotError::Layer(layer, why)) if !self.settled.load(Ordering::Relaxed) => {
                    if let Ok(mut l) = self.layers.lock() {
                        l.turn_off(layer, why);
                    }
                }
                Err(SlotError::Layer(layer, why)) => {
                    return Err(io::Error::other(format!(
                        "cannot make a slot ({layer}): {why}"
                    )))
                }
                Err(SlotError::Io(e)) => return Err(e),
            }
        }
    }

    fn try_slot(&self, index: usize, layers: &Layers) -> Result<Slot, SlotError> {
        let dir = self.dir.path().join(format!("slot{index}"));
        let new_root = self.dir.path().join(format!("slot{index}.root"));
        let fresh = |p: &Path, mode| -> io::Result<()> {
            match fs::create_dir(p) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            fs::set_permissions(p, fs::Permissions::from_mode(mode))
        };
        fresh(&dir, 0o755).map_err(|e| context(e, "cannot make a slot's folder"))?;
        let tmpfs = self.isolation != Isolation::None && !space::is_mounted(&dir);
        if tmpfs {
            space::mount_tmpfs(&dir, DISK, 0o755)
                .map_err(|e| context(e, "cannot mount a slot's tmpfs"))?;
        }
        let lease = if layers.uid {
            Some(uid::lease().map_err(|e| SlotError::Layer("uid", e.to_string()))?)
        } else {
            None
        };
        let empty_size = if tmpfs {
            Some(empty_folder_size(&dir).map_err(|e| context(e, "cannot make a slot's folder"))?)
        } else {
            None
        };
        let (work, tmp) = (dir.join("work"), dir.join("tmp"));
        for folder in [&work, &tmp] {
            fresh(folder, 0o700).map_err(|e| context(e, "cannot make a slot's folder"))?;
            if let Some(lease) = &lease {
                chown(folder, lease.id)
                    .map_err(|e| context(e, "cannot give a slot its folders"))?;
            }
        }
        let group = match (&self.hierarchy, layers.cgroups) {
            (Some(h), true) => Some(
                h.group(index)
                    .map_err(|e| SlotError::Layer("cgroups", e.to_string()))?,
            ),
            _ => None,
        };
        let pty = Pty::open().map_err(|e| context(e, "cannot open a terminal"))?;
        let mut blueprint = Blueprint::new(-1, pty.slave().as_raw_fd());
        let mut namespaces = 0;
        if layers.pid {
            namespaces |= libc::CLONE_NEWPID;
            blueprint.pid_namespace = true;
        }
        if layers.net {
            namespaces |= libc::CLONE_NEWNET;
        }
        if layers.ipc {
            namespaces |= libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
            blueprint.hostname = Some(c"sandbox".to_owned());
        }
        let shown = SHOWN_GENERATION.load(Ordering::Relaxed);
        let mirrors = mirrors();
        let places = rootfs::Places::avoiding(&mirrors);
        if layers.mount {
            fresh(&new_root, 0o755).map_err(|e| context(e, "cannot make a slot's folder"))?;
            namespaces |= libc::CLONE_NEWNS;
            blueprint.root = rootfs::plan(&rootfs::Layout {
                places: &places,
                new_root: &new_root,
                work: &work,
                tmp: &tmp,
                builds: &self.builds,
                mirrors: &mirrors,
            })
            .map_err(|e| context(e, "cannot plan a slot's root"))?;
        }
        // An ordinary user makes namespaces inside a user namespace of
        // the slot's own, which also gives the slot a process count of
        // its own.
        // SAFETY: reading ids.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let user = (!self.root && namespaces != 0).then_some((uid, gid));
        if user.is_some() {
            namespaces |= libc::CLONE_NEWUSER;
        }
        if let Some(group) = &group {
            blueprint.cgroups = group.procs();
        }
        blueprint.identity = lease.as_ref().map(|l| (l.id, l.id));
        // Programs of another user than referee's, where referee may not
        // look into them (root without `CAP_SYS_PTRACE`, as in a default
        // container): their keeper opens their memory for it, and the
        // listener holds every change of their standard descriptors,
        // which referee cannot compare.
        let keeper_opens_memory =
            lease.is_some() && !may_look_into_other_users() && own_proc().is_some();
        let standard = if keeper_opens_memory {
            blueprint.proc_dir = own_proc().map(|fd| fd.as_raw_fd());
            listener::Standard::All
        } else {
            listener::Standard::Stdin
        };
        if let Some([with_pid_ns, without]) = &self.allowlists {
            blueprint.allowlist = Some(if layers.pid {
                with_pid_ns.clone()
            } else {
                without.clone()
            });
        }
        blueprint.listener = listener::wanted().then(|| listener::filter(standard).into());
        let keeper = Keeper::start(blueprint, namespaces, user).map_err(|e| blame(&e, layers))?;
        if let Some(fd) = keeper.listener() {
            listener::wake_synchronously(fd);
        }
        Ok(Slot {
            _folders: Folders {
                dir: dir.clone(),
                new_root,
                tmpfs,
            },
            work,
            tmp,
            empty_size,
            pty,
            keeper,
            group,
            _lease: lease,
            pid_namespace: layers.pid,
            standard,
            places: layers.mount.then_some(places),
            rules: Mutex::new(None),
            retired: AtomicBool::new(false),
            shown,
        })
    }

    /// Whether runs have control groups of their own here (settled once
    /// a slot was made): what holds a checked run's memory, if so.
    pub fn has_control_groups(&self) -> bool {
        if !self.settled.load(Ordering::Relaxed) {
            if let Ok(slot) = self.take_slot() {
                self.give_back(slot);
            }
        }
        self.layers.lock().map(|l| l.cgroups).unwrap_or(false)
    }

    /// Every protection, on or off, in words. Makes a slot first, so that
    /// what the machine refused is known.
    pub fn protections(&self) -> Vec<Protection> {
        // Which layers the machine allows is settled by making a slot; it
        // goes to the pool, for the first worker to take, not to this
        // thread (which runs nothing: a slot kept here was one more made
        // for every invocation, some 15 ms).
        if !self.settled.load(Ordering::Relaxed) {
            if let Ok(slot) = self.take_slot() {
                self.give_back(slot);
            }
        }
        let layers = match self.layers.lock() {
            Ok(l) => l.clone(),
            Err(_) => return Vec::new(),
        };
        describe(self, &layers)
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
}

/// Why a slot could not be made.
enum SlotError {
    /// The machine refused a layer: its name and why.
    Layer(&'static str, String),
    /// Something else (no disk, no terminal).
    Io(io::Error),
}

impl From<io::Error> for SlotError {
    fn from(e: io::Error) -> Self {
        SlotError::Io(e)
    }
}

/// Which layer to blame for a keeper that did not start.
fn blame(error: &keeper::StartError, layers: &Layers) -> SlotError {
    use keeper::StartError;
    let why = error.to_string();
    match error {
        // The machine allows no namespaces (a container, a hardened
        // system): all of them go.
        StartError::Clone(_) if layers.namespaces() => {
            let first = ["pid", "net", "ipc", "mount"]
                .into_iter()
                .find(|l| match *l {
                    "pid" => layers.pid,
                    "net" => layers.net,
                    "ipc" => layers.ipc,
                    _ => layers.mount,
                })
                .unwrap_or("pid");
            SlotError::Layer(first, why)
        }
        StartError::Setup { step, .. } if step.contains("mount") || step.contains("root") => {
            SlotError::Layer("mount", why)
        }
        StartError::Setup { step, .. } if step.contains("control groups") => {
            SlotError::Layer("cgroups", why)
        }
        StartError::Setup { step, .. } if step.contains("privileges") && layers.uid => {
            SlotError::Layer("uid", why)
        }
        StartError::Setup { step, .. } if step.contains("host") => SlotError::Layer("ipc", why),
        _ => SlotError::Io(io::Error::other(why)),
    }
}

/// What a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A program on a terminal.
    Run,
    /// A build tool: no terminal.
    Build,
}

impl Slot {
    /// Whether its root shows every folder shown so far.
    fn is_current(&self) -> bool {
        self.shown == SHOWN_GENERATION.load(Ordering::Relaxed)
    }

    /// Empties the working and temporary folders; what a program left
    /// that cannot be removed makes the slot unusable. A folder a program
    /// replaced (by a link, say, where it could reach the slot's own
    /// folder) is made again, never followed.
    fn empty_folders(&self) -> io::Result<()> {
        use std::os::unix::fs::MetadataExt;
        for folder in [&self.work, &self.tmp] {
            let meta = match fs::symlink_metadata(folder) {
                Ok(meta) if meta.is_dir() => {
                    // Most runs leave nothing. On a tmpfs a folder's size
                    // grows with each entry and shrinks with each removal,
                    // and a folder within adds a link: one look says so.
                    // Elsewhere one listing does.
                    let seen_empty = self.empty_size == Some(meta.size()) && meta.nlink() == 2;
                    if !seen_empty && fs::read_dir(folder)?.next().is_some() {
                        clean::empty(folder)?;
                    }
                    Some(meta)
                }
                Ok(_) => {
                    fs::remove_file(folder)?;
                    None
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => None,
                Err(e) => return Err(e),
            };
            if meta.is_none() {
                fs::create_dir(folder)?;
            }
            let owner = self._lease.as_ref().map(|l| l.id);
            let as_made = meta.as_ref().is_some_and(|m| {
                m.mode() & 0o7777 == 0o700 && owner.is_none_or(|id| m.uid() == id && m.gid() == id)
            });
            if !as_made {
                fs::set_permissions(folder, fs::Permissions::from_mode(0o700))?;
                if let Some(id) = owner {
                    chown(folder, id)?;
                }
            }
        }
        Ok(())
    }

    /// The ruleset for `wanted`, made only when it differs from the last.
    fn rules(&self, wanted: RulesFor) -> io::Result<Option<Arc<OwnedFd>>> {
        let mut cached = self
            .rules
            .lock()
            .map_err(|_| io::Error::other("a slot's rules were lost"))?;
        if let Some((made_for, fd)) = cached.as_ref() {
            if *made_for == wanted {
                return Ok(Some(Arc::clone(fd)));
            }
        }
        let write = [self.work.clone(), self.tmp.clone()];
        let made =
            landlock::ruleset(&wanted.read, &hidden(), &write, wanted.terminal)?.map(Arc::new);
        *cached = made.clone().map(|fd| (wanted, fd));
        Ok(made)
    }

    /// `host` as programs in this slot see it.
    fn inside(&self, host: &Path, builds: &Path) -> PathBuf {
        let Some(places) = &self.places else {
            return host.to_path_buf();
        };
        let swaps = [
            (builds, &places.builds),
            (self.work.as_path(), &places.work),
            (self.tmp.as_path(), &places.tmp),
        ];
        for (from, to) in swaps {
            if let Ok(rest) = host.strip_prefix(from) {
                return to.join(rest);
            }
        }
        host.to_path_buf()
    }
}

/// Gives this thread's slot back to the pool now, not when the thread
/// ends: for a worker whose place another thread is about to take (see
/// [`crate::queue::Spare`]), which then finds the slot ready.
pub fn release_thread_slot() {
    let slot = THREAD_SLOT.with(|cell| cell.borrow_mut().take());
    drop(slot);
}

/// Gives up this thread's slot: the next jail is made in a fresh one.
/// For a slot something went wrong in (the grader's trouble, not a
/// program's).
pub fn retire_thread_slot() {
    THREAD_SLOT.with(|cell| {
        if let Some(bound) = cell.borrow_mut().take() {
            bound.slot.retired.store(true, Ordering::Relaxed);
        }
    });
}

/// The size of an empty folder on the file system of `dir` (a tmpfs
/// counts a little for each entry of a folder), measured on a fresh one.
fn empty_folder_size(dir: &Path) -> io::Result<u64> {
    let probe = tempfile::Builder::new().prefix(".empty").tempdir_in(dir)?;
    let size = fs::symlink_metadata(probe.path())?.size();
    probe.close()?;
    Ok(size)
}

/// `e` with what referee was doing when it happened.
fn context(e: io::Error, doing: &str) -> io::Error {
    io::Error::new(e.kind(), format!("{doing}: {e}"))
}

fn chown(path: &Path, id: u32) -> io::Result<()> {
    std::os::unix::fs::lchown(path, Some(id), Some(id))
}

/// The folder for everything referee makes: traversable by the slots'
/// users, listable by nobody else; and the lock on its `.lock` file,
/// held while referee lives. Folders of referee processes killed before
/// they could remove theirs are removed first.
fn temporary_folder() -> io::Result<(tempfile::TempDir, nix::fcntl::Flock<fs::File>)> {
    sweep_abandoned(&std::env::temp_dir());
    let dir = tempfile::Builder::new().prefix("referee-").tempdir()?;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711))?;
    let file = fs::File::create(dir.path().join(IN_USE))?;
    let lock = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock)
        .map_err(|(_, e)| io::Error::from(e))?;
    Ok((dir, lock))
}

/// The file a living referee keeps locked in its temporary folder.
const IN_USE: &str = ".lock";

/// How old an unlocked `.lock` must be before its folder counts as
/// abandoned: a referee starting at this moment has made it but not yet
/// locked it.
const ABANDONED_AFTER: Duration = Duration::from_secs(60);

/// Removes the temporary folders of referee processes that are gone (a
/// referee killed by SIGKILL leaves its own): folders of this user named
/// `referee-*` whose `.lock` nobody holds. The lock, not the process id,
/// tells: a referee in another PID namespace shares `/tmp` with other
/// numbers. Best effort: what cannot be removed stays.
fn sweep_abandoned(tmp: &Path) {
    let Ok(entries) = fs::read_dir(tmp) else {
        return;
    };
    // SAFETY: reading the effective uid.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let abandoned = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with("referee-"))
            && entry.file_type().is_ok_and(|t| t.is_dir())
            && entry.metadata().is_ok_and(|m| m.uid() == me)
            && nobody_holds(&entry.path().join(IN_USE));
        if abandoned {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether `lock` is an old enough file (not a link) that nobody holds.
fn nobody_holds(lock: &Path) -> bool {
    let old = fs::symlink_metadata(lock).is_ok_and(|m| {
        m.file_type().is_file()
            && m.modified()
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age >= ABANDONED_AFTER)
    });
    if !old {
        return false;
    }
    let Ok(file) = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(lock)
    else {
        return false;
    };
    nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock).is_ok()
}

/// The builds folder may be entered but not listed, even by its owner:
/// a program run as the user who runs referee cannot find its
/// classmates' builds there (their names are random).
const BUILDS_MODE: u32 = 0o311;

/// Makes the builds folder (a tmpfs where referee has a mount namespace);
/// whether it is on a tmpfs.
fn make_builds_folder(builds: &Path, isolation: Isolation) -> bool {
    if fs::create_dir(builds).is_err() {
        return false;
    }
    let tmpfs = isolation != Isolation::None
        && space::mount_tmpfs(builds, BUILDS_DISK, BUILDS_MODE).is_ok();
    let _ = fs::set_permissions(builds, fs::Permissions::from_mode(BUILDS_MODE));
    tmpfs
}

/// Folders a slot's root shows at their own paths: those of
/// [`show_read_only`], and `REFEREE_ALLOW_READ`.
fn mirrors() -> Vec<PathBuf> {
    let mut mirrors: Vec<PathBuf> = extra_reads().to_vec();
    mirrors.extend(SHOWN.lock().map(|s| s.clone()).unwrap_or_default());
    mirrors
        .into_iter()
        .filter_map(|p| fs::canonicalize(p).ok())
        .collect()
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

/// The standard descriptors of a program.
pub struct Stdio<'a> {
    /// Its stdin: for a run, always the slot's terminal ([`Jail::pty`]),
    /// which its keeper holds as its own stdin for every run to inherit.
    pub stdin: BorrowedFd<'a>,
    /// Its stdout.
    pub stdout: BorrowedFd<'a>,
    /// Its stderr.
    pub stderr: BorrowedFd<'a>,
}

/// One run's confinement: a slot made ready for it.
pub struct Jail {
    slot: Arc<Slot>,
    kind: Kind,
    landlock: Option<Arc<OwnedFd>>,
    limits: Limits,
    /// Whether a program was started and its end not yet seen.
    running: std::cell::Cell<bool>,
    nproc: Option<u64>,
    allowlist_in_child: bool,
    /// The address-space limit, where it is not the memory limit (see
    /// [`Jail::reserve_address_space`]).
    address_space: Option<u64>,
    /// Variables the run's environment has besides the clean one.
    env: Vec<(OsString, OsString)>,
    /// A folder of the run's whose size the runner notes at each input
    /// line (see [`Jail::watch`]).
    watched: Option<PathBuf>,
}

impl Jail {
    /// Lets each process of the run reserve `bytes` of address space
    /// instead of the memory limit: for a virtual machine (the JVM) that
    /// reserves far more than it uses (its heap, its class space, a
    /// stack and a `malloc` arena per thread). The memory it uses stays
    /// limited by the control group, and by whatever limit of its own
    /// it is given (the JVM's heap limit).
    pub fn reserve_address_space(&mut self, bytes: u64) {
        self.address_space = Some(bytes);
    }

    /// Gives the run `key=value` in its environment, besides the clean
    /// one's (a checked build's sanitizer options).
    pub fn set_env(&mut self, key: &str, value: impl Into<OsString>) {
        self.env.push((key.into(), value.into()));
    }

    /// Has the runner note, before each input line it gives, how many
    /// bytes the files in `folder` (referee's path) hold: the sanitizer
    /// writes its reports there, and the notes tell after which input
    /// line each report was written.
    pub fn watch(&mut self, folder: PathBuf) {
        self.watched = Some(folder);
    }

    /// The folder [`Jail::watch`] named.
    pub fn watched(&self) -> Option<&Path> {
        self.watched.as_deref()
    }

    /// The run's working folder (as referee sees it), fresh and empty.
    pub fn workdir(&self) -> &Path {
        &self.slot.work
    }

    /// `host`, a path of referee's, as the program sees it.
    pub fn inside(&self, host: &Path) -> PathBuf {
        self.slot.inside(host, &get().builds)
    }

    /// The clean environment the program runs in.
    pub fn env(&self) -> Vec<(OsString, OsString)> {
        let home = self.inside(&self.slot.work);
        let tmp = self.inside(&self.slot.tmp);
        let mut env = clean_env(&home, &tmp);
        env.extend(self.env.iter().cloned());
        if self.kind == Kind::Build {
            // The compiler's messages in plain ASCII quotes.
            for (k, v) in &mut env {
                if k == "LC_ALL" {
                    *v = OsString::from("C");
                }
            }
        }
        env
    }

    /// The slot's terminal.
    pub fn pty(&self) -> &Pty {
        &self.slot.pty
    }

    /// The slot's listener (see [`listener`]): whoever runs a program in
    /// a jail with one answers every call it holds.
    pub fn listener(&self) -> Option<BorrowedFd<'_>> {
        self.slot.keeper.listener().map(|fd| fd.as_fd())
    }

    /// Whether referee may not look into this slot's programs itself, and
    /// asks their keeper for their memory (see [`Jail::open_memory`]).
    pub fn memory_through_keeper(&self) -> bool {
        self.slot.standard == listener::Standard::All
    }

    /// Process `pid`'s memory (in referee's numbering), opened by the
    /// slot's keeper, for a runner that may not open it itself (see
    /// [`keeper::Keeper::open_memory`]).
    pub fn open_memory(&self, pid: i32) -> io::Result<OwnedFd> {
        self.slot.keeper.open_memory(pid)
    }

    /// Whether descriptor `fd` of process `pid` (in referee's numbering)
    /// is the same file as `ours`, as the slot's keeper sees it: for a
    /// runner that may not look (see [`Jail::memory_through_keeper`]).
    pub fn same_file_as(&self, pid: i32, fd: i32, ours: BorrowedFd<'_>) -> io::Result<bool> {
        if !self.memory_through_keeper() {
            return Err(io::Error::from_raw_os_error(libc::EPERM));
        }
        let theirs = self.slot.keeper.stat_descriptor(pid, fd)?;
        let mine = fs::File::from(ours.try_clone_to_owned()?).metadata()?;
        Ok(theirs == (mine.dev(), mine.ino()))
    }

    /// Starts `argv` (its first element the program's path, as referee
    /// sees it, or a name to find on `PATH`) in the working folder with
    /// `stdio`, under every layer; with `tell_pid`, the program's pid is
    /// told (for watching it in `/proc`).
    pub fn spawn(
        &self,
        argv: &[OsString],
        stdio: Stdio<'_>,
        tell_pid: bool,
    ) -> io::Result<Spawned> {
        let first = argv
            .first()
            .ok_or_else(|| io::Error::other("a program needs a command"))?;
        let path = self.inside(&resolve(first)?);
        let args: Vec<Vec<u8>> = argv
            .iter()
            .map(|a| self.inside(Path::new(a)).into_os_string().into_vec())
            .collect();
        let args: Vec<&[u8]> = args.iter().map(Vec::as_slice).collect();
        let env: Vec<Vec<u8>> = self
            .env()
            .into_iter()
            .map(|(k, v)| [k.as_bytes(), b"=", v.as_bytes()].concat())
            .collect();
        let env: Vec<&[u8]> = env.iter().map(Vec::as_slice).collect();
        let cwd = self.inside(&self.slot.work);
        let mut flags = 0;
        // A child whose `dup2` onto 1 and 2 the listener holds says hello
        // once they are done: until then, what it holds is let through.
        let hello_first = self.kind == Kind::Run && self.slot.standard == listener::Standard::All;
        if self.kind == Kind::Run {
            flags |= protocol::FLAG_TERMINAL;
            if tell_pid || hello_first {
                flags |= protocol::FLAG_PID;
            }
        }
        if self.allowlist_in_child && !self.slot.pid_namespace {
            flags |= protocol::FLAG_ALLOWLIST;
        }
        debug_assert!(
            self.kind == Kind::Build
                || stdio.stdin.as_raw_fd() == self.slot.pty.slave().as_raw_fd(),
            "a run's stdin is the slot's terminal"
        );
        let mut fds: Vec<RawFd> = vec![
            stdio.stdin.as_raw_fd(),
            stdio.stdout.as_raw_fd(),
            stdio.stderr.as_raw_fd(),
        ];
        if let Some(rules) = &self.landlock {
            flags |= protocol::FLAG_LANDLOCK;
            fds.push(rules.as_raw_fd());
        }
        let request = protocol::Spawn {
            flags,
            cwd: cwd.as_os_str().as_bytes(),
            path: path.as_os_str().as_bytes(),
            args: &args,
            env: &env,
            rlimits: self.limits.rlimits(self.nproc, self.address_space),
        }
        .encode()
        .map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "a command too long, or holding a NUL byte",
            )
        })?;
        let let_through = match self.kind {
            Kind::Build => LetThrough::UntilStarted,
            Kind::Run if hello_first => LetThrough::UntilHello,
            Kind::Run => LetThrough::Nothing,
        };
        let spawned = self.slot.keeper.spawn(&request, &fds, let_through);
        if spawned.is_ok() {
            self.running.set(true);
        }
        spawned
    }

    /// Readable when the run has ended (see [`Jail::ended`]).
    pub fn as_fd(&self) -> BorrowedFd<'_> {
        self.slot.keeper.as_fd()
    }

    /// Waits up to `within` for the run's end ([`Jail::ended`] then
    /// says), letting through every call the slot's listener holds: for a
    /// build tool, whose questions are its own.
    pub fn wait_letting_through(&self, within: Duration) -> io::Result<()> {
        self.slot.keeper.let_through_until_report(within)
    }

    /// The run's end, once its program exited and everything it left was
    /// killed and reaped.
    pub fn ended(&self) -> io::Result<Option<Ended>> {
        let ended = self.slot.keeper.ended()?;
        if let Some(ended) = ended {
            self.after(&ended);
        }
        Ok(ended)
    }

    /// Kills everything of the run and reaps it; how it ended.
    pub fn stop(&self) -> io::Result<Ended> {
        let ended = self.slot.keeper.stop();
        match &ended {
            Ok(ended) => self.after(ended),
            Err(_) => self.slot.retired.store(true, Ordering::Relaxed),
        }
        ended
    }

    /// After a run: whatever the control group still holds is killed (as
    /// root without a PID namespace, a process that left its group); a
    /// slot the keeper could not empty is not used again.
    fn after(&self, ended: &Ended) {
        self.running.set(false);
        // In a PID namespace the keeper's clearing leaves nothing: no
        // process can leave the namespace.
        if let Some(group) = self
            .slot
            .group
            .as_ref()
            .filter(|_| !self.slot.pid_namespace)
        {
            group.kill_all_but(self.slot.keeper.pid());
        }
        if !ended.empty {
            self.slot.retired.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the run hit its own memory limit, where the machine can
    /// tell.
    pub fn hit_memory_limit(&self) -> Option<bool> {
        self.slot.group.as_ref().map(|g| g.hit_memory_limit())
    }

    /// Whether runs in this jail have a control group of their own (whose
    /// counters [`Jail::hit_memory_limit`] and [`Jail::oom_killed`] read).
    pub fn has_group(&self) -> bool {
        self.slot.group.is_some()
    }

    /// Whether an out-of-memory killer killed a process of the run,
    /// whichever limit it enforced, where the machine can tell.
    pub fn oom_killed(&self) -> Option<bool> {
        self.slot.group.as_ref().map(|g| g.oom_killed())
    }

    /// The process group the program sees itself in (its answer to
    /// `tcgetpgrp`): the keeper's (1, the init of its namespace), or its
    /// own.
    pub fn program_group(&self, pid: i32) -> i32 {
        if self.slot.pid_namespace {
            1
        } else {
            pid
        }
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        if self.running.get() {
            let _ = self.stop();
        }
    }
}

/// Whether referee may look into a process of another user
/// (`CAP_SYS_PTRACE` in its effective set): root on a machine may, root
/// in a container with Docker's default settings may not.
fn may_look_into_other_users() -> bool {
    const CAP_SYS_PTRACE: u32 = 19;
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    let mut header = Header {
        version: 0x2008_0522,
        pid: 0,
    };
    let mut data = [Data::default(); 2];
    // SAFETY: capget fills two Data for version 3.
    let rc = unsafe { libc::syscall(libc::SYS_capget, &mut header, data.as_mut_ptr()) };
    rc == 0 && data[0].effective & (1 << CAP_SYS_PTRACE) != 0
}

/// Referee's `/proc`, where it shows processes in referee's own numbering
/// (the numbering of the pids the slot's listener reports): opened once.
fn own_proc() -> Option<&'static OwnedFd> {
    static PROC: std::sync::OnceLock<Option<OwnedFd>> = std::sync::OnceLock::new();
    PROC.get_or_init(|| {
        let dir = std::fs::File::open("/proc").ok()?;
        let me = std::fs::read_link("/proc/self").ok()?;
        (me.as_os_str().as_bytes() == std::process::id().to_string().as_bytes())
            .then(|| OwnedFd::from(dir))
    })
    .as_ref()
}

/// The program's path: as given when it names a file, else found on PATH.
fn resolve(program: &std::ffi::OsStr) -> io::Result<PathBuf> {
    let path = Path::new(program);
    if program.as_bytes().contains(&b'/') {
        return Ok(path.to_path_buf());
    }
    find_on_path(&program.to_string_lossy()).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("{} is not on PATH", path.display()),
        )
    })
}

/// The first executable called `name` on PATH.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

extern "C" fn shutdown_at_exit() {
    shutdown();
}

/// Removes what referee left in shared places (its slots, their keepers
/// and control groups, its working folders); called at exit.
pub fn shutdown() {
    let Some(sandbox) = SANDBOX.get() else {
        return;
    };
    // At exit the main thread's slot may be gone already.
    let _ = THREAD_SLOT.try_with(|cell| {
        if let Ok(mut cell) = cell.try_borrow_mut() {
            if let Some(bound) = cell.take() {
                bound.slot.retired.store(true, Ordering::Relaxed);
            }
        }
    });
    // A slot still being made in the background would be made in a folder
    // being removed: it is finished first (it takes milliseconds).
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    while sandbox.making.load(Ordering::Acquire) > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    if let Ok(mut free) = sandbox.free.lock() {
        free.clear();
    }
    if sandbox.isolation != Isolation::None {
        space::unmount(&sandbox.builds);
    }
    // Listable again, so that it can be removed.
    let _ = fs::set_permissions(&sandbox.builds, fs::Permissions::from_mode(0o700));
    let _ = fs::remove_dir_all(sandbox.dir.path());
    if let Some(hierarchy) = &sandbox.hierarchy {
        hierarchy.clean_up(true);
    }
}

/// The protections, in words, for `doctor` and for the warning that some
/// are off.
fn describe(sandbox: &Sandbox, layers: &Layers) -> Vec<Protection> {
    let on = |what, how: String| Protection {
        what,
        on: Some(how),
        off: None,
    };
    let off = |what, why: String| Protection {
        what,
        on: None,
        off: Some(why),
    };
    let why = |layer: &str| {
        layers
            .why_off(layer)
            .unwrap_or("not available here")
            .to_string()
    };
    let mut list = Vec::new();
    list.push(if layers.pid {
        on("processes", "a PID namespace per slot: everything a run starts is killed and reaped before the next run".into())
    } else if sandbox.seccomp {
        off("processes", format!("no PID namespace ({}); each run is a process group it cannot leave (seccomp), killed at its end", why("pid")))
    } else {
        off("processes", format!("no PID namespace ({}) and no seccomp: a child that starts a session of its own may outlive its run", why("pid")))
    });
    list.push(match (layers.cgroups, sandbox.nproc()) {
        (true, _) => on(
            "fork bombs",
            format!(
                "at most {PROCESSES} processes per run (control groups {}, pids)",
                sandbox.hierarchy.as_ref().map_or("", |h| h.name())
            ),
        ),
        (false, Some(_)) if layers.uid || layers.namespaces() => on(
            "fork bombs",
            format!("at most {PROCESSES} processes per run (RLIMIT_NPROC, counted for the slot alone)"),
        ),
        (false, Some(_)) => on("fork bombs", "limited to a few hundred more processes than you run now (RLIMIT_NPROC)".into()),
        (false, None) => off("fork bombs", format!("as root with neither control groups ({}) nor a user per slot ({}): the number of processes is not limited", why("cgroups"), why("uid"))),
    });
    list.push(if layers.cgroups {
        on("memory", "limited for the run as a whole, every process together, and overruns told exactly (control groups, memory); and per process (address space)".into())
    } else {
        off("memory", format!("limited per process only (address space), not for the run as a whole: no control groups ({})", why("cgroups")))
    });
    list.push(if layers.mount {
        on("file system", "a minimal root per slot: the system's programs and libraries read-only, the loader's files of /etc, null, zero, random, urandom and the terminal in /dev, the run's folders; nothing else exists".into())
    } else {
        off("file system", format!("no minimal root ({}): the machine's folders are visible (Landlock, where on, still refuses them)", why("mount")))
    });
    list.push(if sandbox.landlock_abi >= 1 {
        on("files", format!("Landlock ABI {}: reads only system folders and the program's own; writes only its working folders", sandbox.landlock_abi))
    } else {
        off("files", "Landlock is not available or turned off".into())
    });
    list.push(if sandbox.isolation != Isolation::None {
        on("disk", format!("working folders on a private {} MiB tmpfs per slot; each file capped in size", DISK >> 20))
    } else {
        on("disk", "each file capped in size (RLIMIT_FSIZE); the total is not capped (no private mount namespace)".into())
    });
    let mut network = Vec::new();
    if layers.net {
        network.push("an empty network namespace per slot");
    }
    if sandbox.seccomp {
        network.push("no sockets at all (seccomp)");
    }
    if sandbox.landlock_abi >= 4 {
        network.push("no TCP (Landlock)");
    }
    list.push(if layers.net || sandbox.seccomp {
        on("network", network.join("; "))
    } else if sandbox.landlock_abi >= 4 {
        off("network", format!("no network namespace ({}) and no seccomp: only TCP is refused (Landlock)", why("net")))
    } else {
        off("network", "neither a network namespace, seccomp nor Landlock 4: the program can reach the network".into())
    });
    list.push(if sandbox.seccomp {
        on("system calls", "an allowlist (seccompiler): other architectures killed, x32 and everything unlisted refused; no namespaces, mounts, ptrace, BPF, perf, keyrings, io_uring".into())
    } else {
        off("system calls", "seccomp is not available or turned off".into())
    });
    list.push(if sandbox.landlock_abi >= 6 || layers.pid {
        on("signals", "cannot signal processes outside its run".into())
    } else if sandbox.seccomp {
        on("signals", "cannot signal other process groups (seccomp); single processes of the same user can still be signalled".into())
    } else {
        off("signals", "can signal any process of the same user".into())
    });
    list.push(if layers.uid && !may_look_into_other_users() {
        on(
            "privileges",
            "as root, each slot's programs run as a user of their own, with no capabilities \
             (referee may not look into another user's process here, without CAP_SYS_PTRACE: \
             each slot's keeper opens its programs' memory for it)"
                .into(),
        )
    } else if layers.uid {
        on(
            "privileges",
            "as root, each slot's programs run as a user of their own, with no capabilities".into(),
        )
    } else if sandbox.root {
        on(
            "privileges",
            format!(
                "every capability dropped before the program starts (no user per slot: {})",
                why("uid")
            ),
        )
    } else {
        on(
            "privileges",
            "programs run as you, with no capabilities".into(),
        )
    });
    list.push(if layers.ipc {
        on(
            "shared memory",
            "IPC and UTS namespaces of the slot's own".into(),
        )
    } else {
        off(
            "shared memory",
            format!(
                "no IPC namespace ({}): System V IPC is shared with the machine",
                why("ipc")
            ),
        )
    });
    list.push(on(
        "environment",
        "clean: nothing of the grader's, fixed locale, HOME and TMPDIR the run's own; only stdin, stdout and stderr open".into(),
    ));
    list
}
