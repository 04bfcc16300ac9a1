//! Version 1: referee's groups in the `pids` and `memory` hierarchies,
//! below the groups referee runs in (`referee-<pid>/slotN`). Only root may
//! make them on most machines.

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::files::{
    below, c_path, field, own_path, remove_tree, stale_groups, Control, Here, Mounts, Unavailable,
    Written,
};

/// Where referee's groups go in each hierarchy.
#[derive(Clone, Debug)]
pub struct Base {
    pids: PathBuf,
    memory: PathBuf,
    /// This referee's groups' name in each (see [`Here::group_name`]).
    name: String,
}

impl Base {
    /// Referee's own groups of the `pids` and `memory` hierarchies, if
    /// both are mounted and referee may make groups there.
    pub fn find(cgroup: &str, mounts: &Mounts) -> Result<Base, Unavailable> {
        let dir = |controller: &'static str| -> Result<PathBuf, Unavailable> {
            let (point, root, _) = mounts
                .v1
                .iter()
                .find(|(_, _, controllers)| controllers.iter().any(|c| c == controller))
                .ok_or(Unavailable::NotMounted {
                    version: 1,
                    controller: Some(controller),
                })?;
            let path =
                own_path(cgroup, Some(controller)).ok_or(Unavailable::NotListed(controller))?;
            let dir = below(point, root, &path);
            if !writable(&dir) {
                return Err(if read_only(&dir) {
                    Unavailable::ReadOnly(dir)
                } else {
                    Unavailable::NotWritable(dir)
                });
            }
            Ok(dir)
        };
        Ok(Base {
            pids: dir("pids")?,
            memory: dir("memory")?,
            name: Here::now().group_name(std::process::id()),
        })
    }

    fn mine(&self) -> [PathBuf; 2] {
        [self.pids.join(&self.name), self.memory.join(&self.name)]
    }

    /// Makes the group `name` in both hierarchies.
    pub fn group(&self, name: &str) -> io::Result<Group> {
        let [pids, memory] = self.mine().map(|dir| dir.join(name));
        for dir in [&pids, &memory] {
            fs::create_dir_all(dir)?;
        }
        Ok(Group {
            failcnt: Control::open(memory.join("memory.failcnt"), true),
            oom_control: Control::open(memory.join("memory.oom_control"), false),
            pids,
            memory,
            limits: Written::default(),
            oom_kills: std::sync::Mutex::new(0),
        })
    }

    /// See [`super::Hierarchy::clean_up`].
    pub fn clean_up(&self, all_of_mine: bool) {
        for base in [&self.pids, &self.memory] {
            for stale in stale_groups(base) {
                remove_tree(&stale);
            }
        }
        if all_of_mine {
            for dir in self.mine() {
                remove_tree(&dir);
            }
        }
    }
}

/// Whether referee may make folders in `dir`.
fn writable(dir: &Path) -> bool {
    c_path(dir).is_ok_and(|c| {
        // SAFETY: access on a valid path.
        unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
    })
}

/// A slot's groups.
#[derive(Debug)]
pub struct Group {
    pids: PathBuf,
    memory: PathBuf,
    limits: Written,
    /// `memory.failcnt`, zeroed before each run, read after.
    failcnt: Control,
    /// `memory.oom_control`, read before and after each run.
    oom_control: Control,
    /// `oom_kill` when the run started.
    oom_kills: std::sync::Mutex<u64>,
}

impl Group {
    /// Both groups' `cgroup.procs`.
    pub fn procs(&self) -> Vec<CString> {
        [&self.pids, &self.memory]
            .into_iter()
            .filter_map(|dir| c_path(&dir.join("cgroup.procs")).ok())
            .collect()
    }

    /// The file listing the group's processes.
    pub fn procs_file(&self) -> PathBuf {
        self.pids.join("cgroup.procs")
    }

    /// See [`super::Group::prepare`].
    pub fn prepare(&self, processes: u32, memory: Option<u64>) -> io::Result<()> {
        self.limits.apply(processes, memory, || {
            fs::write(self.pids.join("pids.max"), processes.to_string())?;
            let limit = memory.map_or_else(|| "-1".to_string(), |m| m.to_string());
            // With swap accounting, swap counts too (else a run could swap
            // out past its limit); the files are absent without it. The
            // memory-and-swap limit may never be below the memory limit,
            // so it is lifted first, then both are set.
            let memsw = self.memory.join("memory.memsw.limit_in_bytes");
            let _ = fs::write(&memsw, "-1");
            fs::write(self.memory.join("memory.limit_in_bytes"), &limit)?;
            let _ = fs::write(&memsw, &limit);
            Ok(())
        })?;
        self.failcnt.write("0")?;
        if let Ok(mut kills) = self.oom_kills.lock() {
            *kills = self.read_oom_kills();
        }
        Ok(())
    }

    /// `oom_kill` of `memory.oom_control`: the group's processes killed
    /// for memory, whichever limit (its own, an ancestor's, the
    /// machine's) the killer enforced.
    fn read_oom_kills(&self) -> u64 {
        let text = self.oom_control.read().unwrap_or_default();
        field(&text, "oom_kill").unwrap_or(0)
    }

    /// See [`super::Group::oom_killed`].
    pub fn oom_killed(&self) -> bool {
        let now = self.read_oom_kills();
        self.oom_kills.lock().is_ok_and(|before| now > *before)
    }

    /// See [`super::Group::hit_memory_limit`]: `failcnt` counts the
    /// charges refused by this group's own limit (an ancestor's refusals
    /// count in the ancestor).
    pub fn hit_memory_limit(&self) -> bool {
        self.failcnt
            .read()
            .ok()
            .and_then(|t| t.trim().parse::<u64>().ok())
            .is_some_and(|n| n > 0)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let _ = fs::remove_dir(&self.pids);
        let _ = fs::remove_dir(&self.memory);
    }
}

/// Whether the file system holding `dir` is mounted read-only.
fn read_only(dir: &std::path::Path) -> bool {
    nix::sys::statvfs::statvfs(dir)
        .is_ok_and(|s| s.flags().contains(nix::sys::statvfs::FsFlags::ST_RDONLY))
}
