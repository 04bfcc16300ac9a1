//! Version 2, the unified hierarchy (Documentation/admin-guide/cgroup-v2.rst).
//!
//! Referee makes its subtree `referee-<pid>` below the group it runs in,
//! with the `pids` and `memory` controllers enabled for its children, one
//! child per slot. Two rules of version 2 shape this:
//!
//! - a group's controllers must be enabled in its parent's
//!   `cgroup.subtree_control`, and
//! - a group other than the root may not both hold processes and enable
//!   controllers for its children ("no internal processes").
//!
//! So when the group referee runs in has not enabled `pids` and `memory`
//! for its children, and referee is the only process in it (the usual
//! case for `docker run … referee`, or a `systemd-run --scope -p
//! Delegate=yes`), referee moves itself into a leaf `referee-<pid>/referee`
//! and enables them; when other processes share the group, referee leaves
//! it alone and says so. As an ordinary user this works only in a
//! delegated subtree (files owned by the user).
//!
//! Per slot: `pids.max`, `memory.max` for everything the run holds
//! together, `memory.swap.max` 0 (a run must not swap its way past its
//! limit), and `memory.events` (`max`, `oom_kill`) read before and after
//! each run to tell an overrun exactly. `cgroup.kill` is not used: the
//! slot's keeper lives in the group and kills the run itself; what
//! remains is killed one by one from `cgroup.procs`.

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::PathBuf;
use std::sync::Mutex;

use super::files::{
    below, c_path, own_path, remove_tree, stale_groups, Control, Here, Mounts, Refusal,
    Unavailable, Written,
};

const WANTED: [&str; 2] = ["pids", "memory"];

/// Referee's subtree of the unified hierarchy, set up.
#[derive(Clone, Debug)]
pub struct Base {
    /// The group referee was started in.
    start: PathBuf,
    /// `start/referee-<pid>`: the slots' parent.
    mine: PathBuf,
}

/// What referee finds in the group it runs in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// `cgroup.controllers`: what the group may use.
    pub controllers: String,
    /// `cgroup.subtree_control`: what it enables for its children.
    pub subtree_control: String,
    /// `cgroup.procs`: the processes in it.
    pub procs: Vec<u32>,
}

/// What referee must do to have groups with both controllers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The controllers are enabled for children already.
    Ready,
    /// Enable them in the group (it holds no process).
    Enable,
    /// Move referee into a leaf of its own, then enable them.
    MoveThenEnable,
    /// Not possible, and why.
    Impossible(Refusal),
}

fn has_all(list: &str) -> bool {
    WANTED
        .iter()
        .all(|w| list.split_whitespace().any(|c| c == *w))
}

/// Decides what to do in the group `view` shows, for referee's process
/// `me`.
pub fn plan(view: &View, me: u32) -> Plan {
    if !has_all(&view.controllers) {
        return Plan::Impossible(Refusal::NotDelegated {
            has: view.controllers.trim().to_string(),
        });
    }
    if has_all(&view.subtree_control) {
        return Plan::Ready;
    }
    let others = view.procs.iter().filter(|&&p| p != me).count();
    match (view.procs.is_empty(), others) {
        (true, _) => Plan::Enable,
        (false, 0) => Plan::MoveThenEnable,
        (false, others) => Plan::Impossible(Refusal::Shared { others }),
    }
}

impl Base {
    /// Referee's subtree, made ready, or why it cannot be.
    pub fn find(cgroup: &str, mounts: &Mounts) -> Result<Base, Unavailable> {
        let (point, root) = mounts.unified.as_ref().ok_or(Unavailable::NotMounted {
            version: 2,
            controller: None,
        })?;
        let path = own_path(cgroup, None).ok_or(Unavailable::NotListed("version 2"))?;
        let start = below(point, root, &path);
        let read = |file: &str| fs::read_to_string(start.join(file)).unwrap_or_default();
        let view = View {
            controllers: read("cgroup.controllers"),
            subtree_control: read("cgroup.subtree_control"),
            procs: read("cgroup.procs")
                .lines()
                .filter_map(|l| l.trim().parse().ok())
                .collect(),
        };
        let me = std::process::id();
        let mine = start.join(Here::now().group_name(me));
        let fail = |what: &'static str, source: io::Error| Unavailable::Setup {
            what,
            dir: start.clone(),
            source,
        };
        let enable = |dir: &PathBuf| fs::write(dir.join("cgroup.subtree_control"), "+pids +memory");
        match plan(&view, me) {
            Plan::Impossible(why) => return Err(why.into()),
            Plan::Ready => {}
            Plan::Enable => enable(&start).map_err(|e| fail("enable pids and memory", e))?,
            Plan::MoveThenEnable => {
                let leaf = mine.join("referee");
                fs::create_dir_all(&leaf).map_err(|e| fail("make a group", e))?;
                fs::write(leaf.join("cgroup.procs"), me.to_string())
                    .map_err(|e| fail("move referee into its own group", e))?;
                enable(&start).map_err(|e| fail("enable pids and memory", e))?;
            }
        }
        fs::create_dir_all(&mine).map_err(|e| fail("make a group", e))?;
        enable(&mine).map_err(|e| fail("enable pids and memory", e))?;
        Ok(Base { start, mine })
    }

    /// Makes the group `name`.
    pub fn group(&self, name: &str) -> io::Result<Group> {
        let dir = self.mine.join(name);
        fs::create_dir_all(&dir)?;
        // No swapping past the limit; absent without swap accounting.
        let _ = fs::write(dir.join("memory.swap.max"), "0");
        Ok(Group {
            events_file: Control::open(dir.join("memory.events"), false),
            dir,
            limits: Written::default(),
            events: Mutex::new(Events::default()),
        })
    }

    /// See [`super::Hierarchy::clean_up`]. Referee's own leaf stays while
    /// referee is in it; a later referee removes it.
    pub fn clean_up(&self, all_of_mine: bool) {
        for stale in stale_groups(&self.start) {
            remove_tree(&stale);
        }
        if all_of_mine {
            remove_tree(&self.mine);
        }
    }
}

/// A slot's group.
#[derive(Debug)]
pub struct Group {
    dir: PathBuf,
    limits: Written,
    /// `memory.events`, read before and after each run.
    events_file: Control,
    /// `memory.events` when the run started.
    events: Mutex<Events>,
}

/// The counters of `memory.events` that tell an overrun.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// Times usage was about to go over `memory.max`.
    pub max: u64,
    /// Processes the out-of-memory killer killed.
    pub oom_kill: u64,
}

impl Events {
    /// Reads `memory.events` (`name value` per line).
    pub fn parse(text: &str) -> Events {
        let mut events = Events::default();
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            let (Some(name), Some(value)) = (parts.next(), parts.next()) else {
                continue;
            };
            let value = value.parse().unwrap_or(0);
            match name {
                "max" => events.max = value,
                "oom_kill" => events.oom_kill = value,
                _ => {}
            }
        }
        events
    }
}

impl Group {
    /// The group's `cgroup.procs`.
    pub fn procs(&self) -> Vec<CString> {
        c_path(&self.procs_file()).into_iter().collect()
    }

    /// The file listing the group's processes.
    pub fn procs_file(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }

    fn read_events(&self) -> Events {
        Events::parse(&self.events_file.read().unwrap_or_default())
    }

    /// See [`super::Group::prepare`].
    pub fn prepare(&self, processes: u32, memory: Option<u64>) -> io::Result<()> {
        self.limits.apply(processes, memory, || {
            fs::write(self.dir.join("pids.max"), processes.to_string())?;
            let limit = memory.map_or_else(|| "max".to_string(), |m| m.to_string());
            fs::write(self.dir.join("memory.max"), limit)
        })?;
        let now = self.read_events();
        if let Ok(mut events) = self.events.lock() {
            *events = now;
        }
        Ok(())
    }

    /// See [`super::Group::hit_memory_limit`]: `max` counts only the
    /// times this group's own `memory.max` was reached (an ancestor's
    /// limit counts in the ancestor).
    pub fn hit_memory_limit(&self) -> bool {
        let now = self.read_events();
        self.events
            .lock()
            .map(|before| now.max > before.max)
            .unwrap_or(false)
    }

    /// See [`super::Group::oom_killed`]: `oom_kill` counts the group's
    /// processes killed, whichever limit the killer enforced.
    pub fn oom_killed(&self) -> bool {
        let now = self.read_events();
        self.events
            .lock()
            .map(|before| now.oom_kill > before.oom_kill)
            .unwrap_or(false)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let _ = fs::remove_dir(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(controllers: &str, subtree: &str, procs: &[u32]) -> View {
        View {
            controllers: controllers.into(),
            subtree_control: subtree.into(),
            procs: procs.to_vec(),
        }
    }

    #[test]
    fn referee_moves_itself_only_when_it_is_alone() {
        let all = "cpuset cpu io memory hugetlb pids rdma misc\n";
        assert_eq!(plan(&view(all, "memory pids", &[7, 8]), 7), Plan::Ready);
        assert_eq!(plan(&view(all, "", &[]), 7), Plan::Enable);
        assert_eq!(plan(&view(all, "cpu", &[7]), 7), Plan::MoveThenEnable);
        let Plan::Impossible(why) = plan(&view(all, "", &[7, 8, 9]), 7) else {
            panic!("a shared group must be left alone");
        };
        assert_eq!(why, Refusal::Shared { others: 2 });
        assert!(why.to_string().contains("2 other process"), "{why}");
        let Plan::Impossible(why) = plan(&view("cpu io\n", "", &[7]), 7) else {
            panic!("missing controllers");
        };
        assert!(why.to_string().contains("not delegated"), "{why}");
    }

    #[test]
    fn memory_events_are_read() {
        let text = "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n";
        assert_eq!(
            Events::parse(text),
            Events {
                max: 12,
                oom_kill: 1
            }
        );
        assert_eq!(Events::parse(""), Events::default());
    }
}
