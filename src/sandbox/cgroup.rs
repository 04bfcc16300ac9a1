//! Control groups (version 1, as root): a slot's processes counted and
//! capped (`pids`), its memory capped and its overruns counted (`memory`),
//! and every member found and killed at the end of a run, whatever
//! session or group it moved to.

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The hierarchies used.
const CONTROLLERS: [&str; 2] = ["pids", "memory"];

/// One slot's groups, created for the life of referee.
#[derive(Debug)]
pub struct Group {
    pids: PathBuf,
    memory: PathBuf,
    /// `cgroup.procs` of each, for the child to join (written before fork).
    pub join: [CString; 2],
}

/// Where this process's group sits in a controller's hierarchy.
fn own_path(controller: &str) -> Option<PathBuf> {
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
        let procs = |d: &Path| {
            CString::new(d.join("cgroup.procs").as_os_str().as_encoded_bytes())
                .map_err(io::Error::other)
        };
        Ok(Group {
            join: [procs(&dirs[0])?, procs(&dirs[1])?],
            pids: dirs[0].clone(),
            memory: dirs[1].clone(),
        })
    }

    /// Sets the limits for the next run and clears the last run's counts.
    pub fn prepare(&self, processes: u32, memory: Option<u64>) -> io::Result<()> {
        fs::write(self.pids.join("pids.max"), processes.to_string())?;
        let limit = memory.map_or_else(|| "-1".to_string(), |m| m.to_string());
        fs::write(self.memory.join("memory.limit_in_bytes"), limit)?;
        fs::write(self.memory.join("memory.failcnt"), "0")?;
        fs::write(self.memory.join("memory.max_usage_in_bytes"), "0")?;
        Ok(())
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

    fn members(&self) -> Vec<i32> {
        fs::read_to_string(self.pids.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
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
pub fn join(join: &[*const libc::c_char; 2]) -> io::Result<()> {
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
            if let Ok(slots) = fs::read_dir(entry.path()) {
                for slot in slots.flatten() {
                    let _ = fs::remove_dir(slot.path());
                }
            }
            let _ = fs::remove_dir(entry.path());
        }
    }
}
