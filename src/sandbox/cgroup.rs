//! Control groups (version 1, as root): a slot's processes counted and
//! capped (`pids`), its memory capped and its overruns counted (`memory`),
//! and every member found and killed at the end of a run, whatever
//! session or group it moved to.

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The hierarchies used.
const CONTROLLERS: [&str; 2] = ["pids", "memory"];

/// One slot's groups, created for the life of referee.
///
/// Moving a process between version-1 groups often waits for an RCU grace
/// period (up to tens of milliseconds), so programs are not moved: the
/// referee thread that runs the slot's programs joins both groups once,
/// and every program it starts is born inside. The thread's own memory is
/// still counted where referee's is (version 1 charges a process's memory
/// to the group of its first thread), and programs make themselves the
/// out-of-memory killer's first choice ([`prefer_for_oom_killer`]), so
/// that a program running out of memory in the group cannot take referee
/// with it. Referee's main thread never joins (it would take all of referee's
/// memory along): programs it starts join their groups themselves.
#[derive(Debug)]
pub struct Group {
    pids: PathBuf,
    memory: PathBuf,
    /// Both groups' `cgroup.procs`, for a child to join itself.
    pub join: [CString; 2],
    /// The limits last written, to write only changes.
    limits: Mutex<Option<(u32, Option<u64>)>>,
}

/// Where this process's group sits in a controller's hierarchy, as it was
/// the first time this was asked: before any thread of referee joined a
/// slot's group.
pub(super) fn own_path(controller: &str) -> Option<PathBuf> {
    static PIDS: OnceLock<Option<PathBuf>> = OnceLock::new();
    static MEMORY: OnceLock<Option<PathBuf>> = OnceLock::new();
    let cell = if controller == "pids" { &PIDS } else { &MEMORY };
    cell.get_or_init(|| read_own_path(controller)).clone()
}

fn read_own_path(controller: &str) -> Option<PathBuf> {
    let text = fs::read_to_string("/proc/self/cgroup").ok()?;
    let relative = text.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let _id = parts.next()?;
        let names = parts.next()?;
        let path = parts.next()?;
        names
            .split(',')
            .any(|n| n == controller)
            .then(|| path.trim_start_matches('/').to_string())
    })?;
    let root = Path::new("/sys/fs/cgroup").join(controller);
    root.is_dir().then(|| root.join(relative))
}

impl Group {
    /// Creates the group `name` in both hierarchies, below referee's own.
    pub fn create(name: &str) -> io::Result<Group> {
        let dirs: Vec<PathBuf> = CONTROLLERS
            .iter()
            .map(|c| {
                own_path(c)
                    .map(|p| p.join(name))
                    .ok_or_else(|| io::Error::other(format!("no {c} controller")))
            })
            .collect::<io::Result<_>>()?;
        for dir in &dirs {
            fs::create_dir_all(dir)?;
        }
        let procs = |dir: &Path| {
            CString::new(dir.join("cgroup.procs").as_os_str().as_encoded_bytes())
                .map_err(io::Error::other)
        };
        Ok(Group {
            join: [procs(&dirs[0])?, procs(&dirs[1])?],
            limits: Mutex::new(None),
            pids: dirs[0].clone(),
            memory: dirs[1].clone(),
        })
    }

    /// Puts the calling thread (only it) in both groups, so the programs
    /// it starts are born there; false for referee's main thread, which
    /// stays out.
    pub fn adopt_this_thread(&self) -> io::Result<bool> {
        // SAFETY: gettid and getpid have no arguments.
        let (tid, pid) = unsafe { (libc::gettid(), libc::getpid()) };
        if tid == pid {
            return Ok(false);
        }
        fs::write(self.pids.join("tasks"), format!("{tid}\n"))?;
        fs::write(self.memory.join("tasks"), format!("{tid}\n"))?;
        Ok(true)
    }

    /// Sets the limits for the next run and clears the last run's count
    /// of memory overruns. `processes` counts the program's; the referee
    /// thread in the group is added. Limits already in place are not
    /// written again: every case of a suite usually has the same.
    pub fn prepare(&self, processes: u32, memory: Option<u64>) -> io::Result<()> {
        let mut set = self
            .limits
            .lock()
            .map_err(|_| io::Error::other("a slot's limits were lost"))?;
        if *set != Some((processes, memory)) {
            *set = None;
            fs::write(self.pids.join("pids.max"), (processes + 1).to_string())?;
            let limit = memory.map_or_else(|| "-1".to_string(), |m| m.to_string());
            fs::write(self.memory.join("memory.limit_in_bytes"), limit)?;
            *set = Some((processes, memory));
        }
        fs::write(self.memory.join("memory.failcnt"), "0")?;
        self.wait_for_leftovers();
        Ok(())
    }

    /// Waits a little for the last run's killed or orphaned processes to
    /// be reaped (by the system, once they are no longer referee's
    /// children): until then they count against the next run's limit.
    /// Only this slot's referee thread should be left.
    fn wait_for_leftovers(&self) {
        let current = || {
            fs::read_to_string(self.pids.join("pids.current"))
                .ok()
                .and_then(|t| t.trim().parse::<u32>().ok())
                .unwrap_or(0)
        };
        for _ in 0..500 {
            if current() <= 1 {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Whether the last run hit its memory limit.
    pub fn hit_memory_limit(&self) -> bool {
        fs::read_to_string(self.memory.join("memory.failcnt"))
            .ok()
            .and_then(|t| t.trim().parse::<u64>().ok())
            .is_some_and(|n| n > 0)
    }

    /// Kills every process in the group, until none is left (a process
    /// may fork while the others are being killed). The number killed.
    pub fn kill_all(&self) -> usize {
        let mut killed = 0;
        for _ in 0..100 {
            let members = self.members();
            if members.is_empty() {
                break;
            }
            for pid in &members {
                // SAFETY: signalling a process of this sandbox's group.
                unsafe {
                    libc::kill(*pid, libc::SIGKILL);
                }
            }
            killed += members.len();
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        killed
    }

    /// The processes in the group, referee itself (whose thread may be in
    /// it) aside.
    fn members(&self) -> Vec<i32> {
        let me = std::process::id() as i32;
        fs::read_to_string(self.pids.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .filter(|&pid| pid != me)
            .collect()
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill_all();
        let _ = fs::remove_dir(&self.pids);
        let _ = fs::remove_dir(&self.memory);
    }
}

/// Joins the groups whose `cgroup.procs` are `join`: called in the child
/// before `exec`. Async-signal-safe.
pub fn join(join: &[*const libc::c_char]) -> io::Result<()> {
    for path in join {
        // SAFETY: plain system calls on NUL-terminated paths prepared
        // before fork.
        unsafe {
            let fd = libc::open(*path, libc::O_WRONLY | libc::O_CLOEXEC);
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            let written = libc::write(fd, b"0\n".as_ptr().cast(), 2);
            libc::close(fd);
            if written < 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// Whether referee can make groups here (as root, with both controllers
/// mounted, version 1): makes one and removes it again.
pub fn probe() -> bool {
    Group::create(&format!("referee-{}/probe", std::process::id())).is_ok()
}

/// In a child before `exec`: makes it the out-of-memory killer's first
/// choice, before referee, whose thread shares its group (see [`Group`]).
/// Raising the score needs no privilege, and affects only the child: a
/// child sharing referee's memory until `exec` (`CLONE_VFORK`) has a
/// setting of its own. Async-signal-safe.
pub fn prefer_for_oom_killer() -> io::Result<()> {
    // SAFETY: plain system calls on a static NUL-terminated path.
    unsafe {
        let fd = libc::open(
            c"/proc/self/oom_score_adj".as_ptr(),
            libc::O_WRONLY | libc::O_CLOEXEC,
        );
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let written = libc::write(fd, b"1000".as_ptr().cast(), 4);
        libc::close(fd);
        if written < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Removes the empty groups of referee processes that are gone (killed
/// before they could clean up).
pub fn remove_stale() {
    for controller in CONTROLLERS {
        let Some(base) = own_path(controller) else {
            continue;
        };
        let Ok(entries) = fs::read_dir(&base) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name
                .strip_prefix("referee-")
                .and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            if Path::new(&format!("/proc/{pid}")).exists() {
                continue;
            }
            remove_tree(&entry.path());
        }
    }
}

/// Removes an empty group and the empty groups below it (a group cannot
/// be removed before its children).
pub fn remove_tree(dir: &Path) {
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                remove_tree(&entry.path());
            }
        }
    }
    let _ = fs::remove_dir(dir);
}
