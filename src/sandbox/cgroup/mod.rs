//! Control groups: a slot's processes counted and capped, its memory
//! capped for the whole run (every process together, not each one) and
//! its overruns told exactly, and whatever escaped the keeper found and
//! killed. Version 2 (the unified hierarchy of current distributions and
//! most containers) or version 1, whichever the machine has; referee
//! never remounts or reconfigures the machine's hierarchies, it only
//! makes groups below its own.
//!
//! A slot's keeper joins the slot's group when it starts, so every
//! program it starts is born inside: nothing is moved between groups per
//! run (a move can wait for an RCU grace period, tens of milliseconds).

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::Path;

mod files;
pub mod v1;
pub mod v2;

pub(crate) use files::{below, field, own_path, Control, Mounts};
pub use files::{Refusal, Unavailable};

/// Which hierarchy referee uses here, found once.
#[derive(Clone, Debug)]
pub enum Hierarchy {
    /// Version 1: the `pids` and `memory` hierarchies, referee's own
    /// groups in each.
    V1(v1::Base),
    /// Version 2: referee's own subtree of the unified hierarchy.
    V2(v2::Base),
}

impl Hierarchy {
    /// The hierarchy referee can make groups in, or why none.
    pub fn find() -> Result<Hierarchy, Unavailable> {
        let read = |file: &'static str| {
            fs::read_to_string(file).map_err(|source| Unavailable::Unreadable { file, source })
        };
        let cgroup = read("/proc/self/cgroup")?;
        let mountinfo = read("/proc/self/mountinfo")?;
        let mounts = Mounts::parse(&mountinfo);
        let v2_reason = match v2::Base::find(&cgroup, &mounts) {
            Ok(base) => return Ok(Hierarchy::V2(base)),
            Err(reason) => reason,
        };
        match v1::Base::find(&cgroup, &mounts) {
            Ok(base) => Ok(Hierarchy::V1(base)),
            Err(v1_reason) => Err(Unavailable::Neither {
                v2: Box::new(v2_reason),
                v1: Box::new(v1_reason),
            }),
        }
    }

    /// "version 1" or "version 2", for `doctor`.
    pub fn name(&self) -> &'static str {
        match self {
            Hierarchy::V1(_) => "version 1",
            Hierarchy::V2(_) => "version 2",
        }
    }

    /// Makes the group of slot `index`.
    pub fn group(&self, index: usize) -> io::Result<Group> {
        let name = format!("slot{index}");
        match self {
            Hierarchy::V1(base) => base.group(&name).map(Group::V1),
            Hierarchy::V2(base) => base.group(&name).map(Group::V2),
        }
    }

    /// Removes the groups referee made (at exit), and those of referee
    /// processes that are gone.
    pub fn clean_up(&self, all_of_mine: bool) {
        match self {
            Hierarchy::V1(base) => base.clean_up(all_of_mine),
            Hierarchy::V2(base) => base.clean_up(all_of_mine),
        }
    }
}

/// One slot's group.
#[derive(Debug)]
pub enum Group {
    /// See [`v1::Group`].
    V1(v1::Group),
    /// See [`v2::Group`].
    V2(v2::Group),
}

impl Group {
    /// The `cgroup.procs` files the keeper writes itself into.
    pub fn procs(&self) -> Vec<CString> {
        match self {
            Group::V1(g) => g.procs(),
            Group::V2(g) => g.procs(),
        }
    }

    /// Sets the limits for the next run (`processes`, the keeper
    /// included; `memory` for everything together) and starts counting
    /// memory overruns afresh. Limits already in place are not written
    /// again.
    pub fn prepare(&self, processes: u32, memory: Option<u64>) -> io::Result<()> {
        match self {
            Group::V1(g) => g.prepare(processes, memory),
            Group::V2(g) => g.prepare(processes, memory),
        }
    }

    /// Whether the run since [`Group::prepare`] hit its own memory
    /// limit.
    pub fn hit_memory_limit(&self) -> bool {
        match self {
            Group::V1(g) => g.hit_memory_limit(),
            Group::V2(g) => g.hit_memory_limit(),
        }
    }

    /// Whether an out-of-memory killer killed a process of the run since
    /// [`Group::prepare`]: for the run's own limit, or (when
    /// [`Group::hit_memory_limit`] says it was not) for an enclosing
    /// group's or the machine's, which is no fault of the program.
    pub fn oom_killed(&self) -> bool {
        match self {
            Group::V1(g) => g.oom_killed(),
            Group::V2(g) => g.oom_killed(),
        }
    }

    /// Kills every process in the group but `keeper`, until none is left
    /// (one may fork while the others die); how many were killed.
    pub fn kill_all_but(&self, keeper: i32) -> usize {
        let procs = match self {
            Group::V1(g) => g.procs_file(),
            Group::V2(g) => g.procs_file(),
        };
        kill_members(&procs, keeper)
    }
}

/// Kills the processes listed in `procs` but `spare`, until none is left.
fn kill_members(procs: &Path, spare: i32) -> usize {
    let me = std::process::id() as i32;
    let mut killed = 0;
    for _ in 0..100 {
        let members: Vec<i32> = fs::read_to_string(procs)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .filter(|&pid| pid != spare && pid != me)
            .collect();
        if members.is_empty() {
            break;
        }
        for pid in &members {
            // SAFETY: signalling a process of the slot's group.
            unsafe {
                libc::kill(*pid, libc::SIGKILL);
            }
        }
        killed += members.len();
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    killed
}

#[cfg(test)]
mod tests {
    use super::files::*;
    use super::*;
    use std::path::PathBuf;

    const HYBRID: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
33 31 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
34 31 0:31 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
35 31 0:32 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw,nsdelegate
";

    const UNIFIED: &str = "\
22 1 0:21 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
";

    #[test]
    fn mounts_are_read_from_mountinfo() {
        let hybrid = Mounts::parse(HYBRID);
        assert_eq!(hybrid.v1.len(), 3);
        assert_eq!(hybrid.v1[0].2, ["pids"]);
        assert_eq!(hybrid.v1[2].2, ["xattr"]);
        assert_eq!(
            hybrid.unified,
            Some((PathBuf::from("/sys/fs/cgroup/unified"), "/".to_string()))
        );
        let unified = Mounts::parse(UNIFIED);
        assert!(unified.v1.is_empty());
        assert_eq!(unified.unified.unwrap().0, PathBuf::from("/sys/fs/cgroup"));
        let spaced = Mounts::parse("1 0 0:1 / /mnt/my\\040cgroups rw - cgroup2 none rw\n");
        assert_eq!(spaced.unified.unwrap().0, PathBuf::from("/mnt/my cgroups"));
    }

    #[test]
    fn own_paths_are_read_from_proc_self_cgroup() {
        let text = "12:pids:/user.slice\n4:memory:/ci/job\n1:name=systemd:/x\n0::/user.slice/session-2.scope\n";
        assert_eq!(own_path(text, Some("pids")).as_deref(), Some("/user.slice"));
        assert_eq!(own_path(text, Some("memory")).as_deref(), Some("/ci/job"));
        assert_eq!(
            own_path(text, None).as_deref(),
            Some("/user.slice/session-2.scope")
        );
        assert_eq!(own_path("4:memory:/a\n", None), None);
        // A container's namespace shows its own cgroup as the root.
        assert_eq!(
            below(Path::new("/sys/fs/cgroup"), "/", "/docker/abc"),
            PathBuf::from("/sys/fs/cgroup/docker/abc")
        );
        assert_eq!(
            below(Path::new("/sys/fs/cgroup"), "/docker/abc", "/docker/abc/x"),
            PathBuf::from("/sys/fs/cgroup/x")
        );
    }
}
