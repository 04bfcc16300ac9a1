//! The files of control groups both versions read and write: the mounts,
//! referee's own place in a hierarchy, removing groups, and the limits
//! last written to a group. A leaf: `v1` and `v2` build on it.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why referee has no control groups here.
#[derive(Debug, thiserror::Error)]
pub enum Unavailable {
    /// A file of `/proc/self` could not be read.
    #[error("cannot read {file}: {source}")]
    Unreadable {
        /// The file.
        file: &'static str,
        /// Why.
        source: io::Error,
    },
    /// No hierarchy of this version (with this controller) is mounted.
    #[error("no version {version} {}hierarchy is mounted", controller.map(|c| format!("{c} ")).unwrap_or_default())]
    NotMounted {
        /// 1 or 2.
        version: u8,
        /// The version 1 controller looked for.
        controller: Option<&'static str>,
    },
    /// `/proc/self/cgroup` does not list referee's group.
    #[error("referee's {0} group is not listed")]
    NotListed(&'static str),
    /// Referee may not make groups where its own is.
    #[error("referee may not make groups in {} (version 1 groups need root)", .0.display())]
    NotWritable(PathBuf),
    /// The groups are mounted read-only (a container's default), whoever
    /// referee is.
    #[error(
        "the control groups are mounted read-only in {} (a container's default: \
         give the container a group of its own it may write, e.g. Docker's \
         `--cgroupns=private` on a version 2 host)",
        .0.display()
    )]
    ReadOnly(PathBuf),
    /// The group referee runs in does not allow what referee needs.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// Setting up referee's groups failed.
    #[error("cannot {what} in {}: {source}", dir.display())]
    Setup {
        /// What referee was doing.
        what: &'static str,
        /// In which group.
        dir: PathBuf,
        /// Why it failed.
        source: io::Error,
    },
    /// Neither version is usable: why not, for each.
    #[error("{v2}; {v1}")]
    Neither {
        /// Why not version 2.
        v2: Box<Unavailable>,
        /// Why not version 1.
        v1: Box<Unavailable>,
    },
}

/// Why the version 2 group referee runs in cannot hold its groups.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The controllers are not delegated to it.
    #[error(
        "the controllers pids and memory are not delegated to referee's group (it has: {has})"
    )]
    NotDelegated {
        /// The controllers it has.
        has: String,
    },
    /// Other processes share it, so it cannot enable controllers.
    #[error(
        "referee's group holds {others} other process(es), so it cannot enable pids and \
         memory for groups of its own: run referee in a group of its own (for example \
         `systemd-run --scope -p Delegate=yes referee ...`, or as its container's \
         only process)"
    )]
    Shared {
        /// How many.
        others: usize,
    },
}

/// A control file read (or written) before and after every run: opened
/// once, then read from its start each time, which shows its values as
/// they are then (the kernel makes a control file's text anew for a read
/// at offset 0). Opening a control file costs more than reading it, and a
/// slot's files are read several times a run. Where it could not be
/// opened, each use opens it by its path, as before.
#[derive(Debug)]
pub struct Control {
    path: PathBuf,
    file: Option<fs::File>,
}

impl Control {
    /// `path`, opened for reading and, with `write`, writing.
    pub fn open(path: PathBuf, write: bool) -> Control {
        let file = fs::OpenOptions::new()
            .read(true)
            .write(write)
            .open(&path)
            .ok();
        Control { path, file }
    }

    /// The file's text now.
    pub fn read(&self) -> io::Result<String> {
        let Some(file) = &self.file else {
            return fs::read_to_string(&self.path);
        };
        let mut bytes = Vec::with_capacity(256);
        let mut chunk = [0u8; 1024];
        loop {
            let n = file.read_at(&mut chunk, bytes.len() as u64)?;
            bytes.extend_from_slice(&chunk[..n]);
            // A control file's text is made whole for each read from its
            // start: a read that did not fill the buffer and ends a line
            // has all of it, and asking again for the end costs a call.
            if n == 0 || (n < chunk.len() && bytes.ends_with(b"\n")) {
                break;
            }
        }
        String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    /// Writes `value` (a control file takes each write whole).
    pub fn write(&self, value: &str) -> io::Result<()> {
        match &self.file {
            Some(file) => file.write_at(value.as_bytes(), 0).map(|_| ()),
            None => fs::write(&self.path, value),
        }
    }
}

/// The limits last written to a slot's group: a run with the same limits
/// as the one before writes nothing.
#[derive(Debug, Default)]
pub struct Written(Mutex<Option<(u32, Option<u64>)>>);

impl Written {
    /// Calls `write` unless `processes` and `memory` are in place already.
    /// After a failed write nothing counts as in place.
    pub fn apply(
        &self,
        processes: u32,
        memory: Option<u64>,
        write: impl FnOnce() -> io::Result<()>,
    ) -> io::Result<()> {
        let mut set = self
            .0
            .lock()
            .map_err(|_| io::Error::other("a slot's limits were lost"))?;
        if *set != Some((processes, memory)) {
            *set = None;
            write()?;
            *set = Some((processes, memory));
        }
        Ok(())
    }
}

/// The mounts of `/proc/self/mountinfo` that matter here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mounts {
    /// The unified (version 2) hierarchy's mount point, and the root of
    /// the hierarchy it shows.
    pub unified: Option<(PathBuf, String)>,
    /// Version 1 hierarchies: mount point, root shown, controllers.
    pub v1: Vec<(PathBuf, String, Vec<String>)>,
}

impl Mounts {
    /// Reads `mountinfo` lines: `id parent major:minor root mountpoint
    /// options [optional fields] - fstype source superoptions`.
    pub fn parse(mountinfo: &str) -> Mounts {
        let mut mounts = Mounts::default();
        for line in mountinfo.lines() {
            let Some((before, after)) = line.split_once(" - ") else {
                continue;
            };
            let fields: Vec<&str> = before.split_whitespace().collect();
            let rest: Vec<&str> = after.split_whitespace().collect();
            let (Some(root), Some(point), Some(fstype)) =
                (fields.get(3), fields.get(4), rest.first())
            else {
                continue;
            };
            let point = PathBuf::from(unescape(point));
            match *fstype {
                "cgroup2" if mounts.unified.is_none() => {
                    mounts.unified = Some((point, unescape(root)));
                }
                "cgroup" => {
                    let options = rest.get(2).copied().unwrap_or("");
                    let controllers = options
                        .split(',')
                        .filter(|o| !matches!(*o, "rw" | "ro") && !o.contains('='))
                        .map(String::from)
                        .collect();
                    mounts.v1.push((point, unescape(root), controllers));
                }
                _ => {}
            }
        }
        mounts
    }
}

/// mountinfo escapes spaces and the like as `\040`.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 3 < bytes.len() {
            let digits = &bytes[i + 1..i + 4];
            let octal = std::str::from_utf8(digits).ok();
            if let Some(value) = octal.and_then(|d| u8::from_str_radix(d, 8).ok()) {
                out.push(value);
                i += 4;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The path of `/proc/self/cgroup`'s entry for a version 1 controller, or
/// (with `None`) the unified hierarchy's (`0::/path`).
pub fn own_path(cgroup: &str, controller: Option<&str>) -> Option<String> {
    cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let id = parts.next()?;
        let names = parts.next()?;
        let path = parts.next()?;
        let found = match controller {
            None => id == "0" && names.is_empty(),
            Some(c) => names.split(',').any(|n| n == c),
        };
        found.then(|| path.to_string())
    })
}

/// `dir` joined with a cgroup path (`/a/b`) seen from a mount showing
/// the hierarchy from `root`.
pub fn below(point: &Path, root: &str, path: &str) -> PathBuf {
    let relative = path
        .strip_prefix(root)
        .unwrap_or(path)
        .trim_start_matches('/');
    point.join(relative)
}

/// Whether the process `pid` is alive.
fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes a group and the groups below it (a group cannot be removed
/// before its children; one still holding processes stays).
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

/// Where this referee sees processes from: its PID namespace, and whether
/// `/proc` shows that namespace's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Here {
    /// The inode of `/proc/self/ns/pid`.
    namespace: u64,
    /// Whether `/proc/self` is this process's own number, so that
    /// `/proc/<pid>` answers for this namespace.
    proc_is_ours: bool,
}

/// The inode of the machine's first PID namespace (the kernel's
/// `PROC_PID_INIT_INO`): the one every process not in a container or an
/// `unshare --pid` is in.
const INITIAL_PID_NAMESPACE: u64 = 0xEFFF_FFFC;

impl Here {
    /// Read from `/proc/self`.
    pub fn now() -> Here {
        use std::os::unix::fs::MetadataExt;
        let namespace = fs::metadata("/proc/self/ns/pid").map_or(0, |m| m.ino());
        let proc_is_ours = fs::read_link("/proc/self")
            .is_ok_and(|p| p.to_str() == Some(&std::process::id().to_string()));
        Here {
            namespace,
            proc_is_ours,
        }
    }

    /// The name of this referee's groups: `referee-<pid>`, and the PID
    /// namespace after it when that is not the machine's first, since
    /// numbers repeat from one namespace to the next.
    pub fn group_name(&self, pid: u32) -> String {
        if self.namespace == INITIAL_PID_NAMESPACE {
            format!("referee-{pid}")
        } else {
            format!("referee-{pid}-ns{}", self.namespace)
        }
    }

    /// Whether the group `name` was left by a referee that is gone. Only a
    /// referee of this namespace can tell: another namespace's process
    /// numbers mean nothing here, and removing a living referee's group
    /// between making it and moving its keeper in fails that referee.
    fn is_stale(&self, name: &str, alive: impl Fn(u32) -> bool) -> bool {
        let Some(rest) = name.strip_prefix("referee-") else {
            return false;
        };
        let (pid, namespace) = match rest.split_once("-ns") {
            Some((pid, ns)) => (pid, ns.parse::<u64>().ok()),
            None => (rest, Some(INITIAL_PID_NAMESPACE)),
        };
        let (Ok(pid), Some(namespace)) = (pid.parse::<u32>(), namespace) else {
            return false;
        };
        self.proc_is_ours && namespace == self.namespace && !alive(pid)
    }
}

/// The groups in `dir` of referee processes of this PID namespace that
/// are gone.
pub fn stale_groups(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let here = Here::now();
    entries
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .is_some_and(|name| here.is_stale(name, alive))
        })
        .map(|entry| entry.path())
        .collect()
}

pub fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_encoded_bytes()).map_err(io::Error::other)
}

/// The value of `name` in a `name value` per line file (`memory.stat`,
/// `memory.oom_control`, `memory.events`): read by `v1` and by the
/// allocation's memory counters alike.
pub fn field(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let mut parts = line.split_whitespace();
        (parts.next()? == name).then(|| parts.next()?.parse().ok())?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_gone_referee_of_this_pid_namespace_is_stale() {
        let first = Here {
            namespace: INITIAL_PID_NAMESPACE,
            proc_is_ours: true,
        };
        let inner = Here {
            namespace: 4026532100,
            proc_is_ours: true,
        };
        let gone = |_| false;
        assert_eq!(first.group_name(42), "referee-42");
        assert_eq!(inner.group_name(1), "referee-1-ns4026532100");
        assert!(first.is_stale("referee-42", gone));
        assert!(!first.is_stale("referee-42", |_| true));
        // A referee as PID 1 of its own namespace sees other numbers: it
        // leaves the first namespace's groups, and they leave its.
        assert!(!inner.is_stale("referee-42", gone));
        assert!(!first.is_stale("referee-1-ns4026532100", gone));
        assert!(inner.is_stale("referee-1-ns4026532100", gone));
        assert!(!inner.is_stale("referee-1-ns4026532101", gone));
        // A /proc of another namespace cannot say who is alive.
        let blind = Here {
            proc_is_ours: false,
            ..first
        };
        assert!(!blind.is_stale("referee-42", gone));
        for other in [
            "referee-",
            "referee-x",
            "referee-1-nsx",
            "slot0",
            "referee-uids",
        ] {
            assert!(!first.is_stale(other, gone), "{other}");
        }
    }

    #[test]
    fn a_kept_control_file_reads_what_it_holds_now() {
        // A file of /proc makes its text anew at each read from its
        // start, as a control file does. This thread's own count of
        // voluntary switches moves only when this thread sleeps, so
        // other tests running beside it cannot change what it reads.
        let status = Control::open(PathBuf::from("/proc/thread-self/status"), false);
        assert!(status.file.is_some());
        let switches = |text: String| {
            text.lines()
                .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
                .and_then(|n| n.trim().parse::<u64>().ok())
                .expect("a count of voluntary switches")
        };
        let before = switches(status.read().unwrap());
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(switches(status.read().unwrap()) > before);
    }

    #[test]
    fn a_control_file_that_could_not_be_opened_is_used_by_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let file = Control::open(dir.path().join("memory.failcnt"), true);
        assert!(file.read().is_err());
        fs::write(&file.path, "7").unwrap();
        assert_eq!(file.read().unwrap(), "7");
        file.write("0").unwrap();
        assert_eq!(fs::read_to_string(&file.path).unwrap(), "0");
    }
}
