//! What the job referee runs in was given: the processors and the memory
//! it may use, read from the process's affinity mask, the control groups
//! around it (its own and their ancestors), Slurm's `SLURM_*` variables
//! and the machine itself; and how many workers fit in that.
//!
//! Under a batch system the machine is not the allocation: Slurm's
//! `task/none` leaves a job every core of its node visible, and a job's
//! memory is a limit of its control group that the out-of-memory killer
//! enforces on whichever of its processes it picks. A worker started
//! beyond the allocation does not fail cleanly: a student's run is killed
//! by the job's limit and looks like the student's fault. So referee runs
//! no more workers than fit, says so once when that is fewer than it
//! would run, and refuses when not even one fits.
//!
//! Everything is read through [`System`], so the reading is tested on
//! parsed files and variables (version 1 and 2, with and without Slurm).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::cgroup::{below, field, own_path, Control, Mounts};

/// Where the limits are read: the machine's files and environment, or a
/// test's.
pub trait System {
    /// A file's text, if it can be read.
    fn read(&self, path: &Path) -> Option<String>;
    /// An environment variable, if set.
    fn var(&self, name: &str) -> Option<String>;
    /// How many processors the process's affinity mask holds.
    fn affinity(&self) -> Option<usize>;
}

/// This machine and this process.
pub struct Machine;

impl System for Machine {
    fn read(&self, path: &Path) -> Option<String> {
        fs::read_to_string(path).ok()
    }

    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }

    fn affinity(&self) -> Option<usize> {
        // The process's, not the asking thread's, which may have been
        // given a processor of its own (see `cpus`).
        Some(super::cpus::allowed().len()).filter(|&n| n > 0)
    }
}

/// A limit and where it was read, in words for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limit<T> {
    /// The limit.
    pub value: T,
    /// Where it comes from ("SLURM_MEM_PER_NODE", "the control group
    /// /slurm/job_5's memory.max").
    pub source: String,
}

/// The processors and memory the job may use: every limit found, the
/// smallest of each kind counting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Allocation {
    /// Processors, one limit per source.
    pub cpus: Vec<Limit<usize>>,
    /// Memory in bytes, one limit per source.
    pub memory: Vec<Limit<u64>>,
}

impl Allocation {
    /// The fewest processors any source allows.
    pub fn cpus(&self) -> Option<&Limit<usize>> {
        self.cpus.iter().min_by_key(|l| l.value)
    }

    /// The least memory any source allows.
    pub fn memory(&self) -> Option<&Limit<u64>> {
        self.memory.iter().min_by_key(|l| l.value)
    }
}

/// Reads what this process was given.
pub fn read() -> Allocation {
    read_from(&Machine)
}

/// Reads what `system` gives the process.
pub fn read_from(system: &dyn System) -> Allocation {
    let mut allocation = Allocation::default();
    if let Some(n) = system.affinity().filter(|&n| n > 0) {
        allocation.cpus.push(Limit {
            value: n,
            source: "the processors this process may run on (its affinity mask)".into(),
        });
    }
    let groups = Groups::find(system);
    allocation.cpus.extend(groups.cpu_quotas(system));
    let slurm_cpus = slurm_cpus(system);
    allocation.cpus.extend(slurm_cpus.iter().cloned());
    allocation.memory.extend(groups.memory_limits(system));
    let cpus_on_node = slurm_cpus.iter().map(|l| l.value).min();
    allocation.memory.extend(slurm_memory(system, cpus_on_node));
    if let Some(total) = system
        .read(Path::new("/proc/meminfo"))
        .as_deref()
        .and_then(mem_total)
    {
        allocation.memory.push(Limit {
            value: total,
            source: "the machine's memory, MemTotal in /proc/meminfo".into(),
        });
    }
    allocation
}

/// The control groups around the process: for each controller, the
/// folders of its own group and of every ancestor up to the hierarchy's
/// root as this process sees it.
#[derive(Debug, Default)]
struct Groups {
    /// Version 2: the unified hierarchy's chain, own group first.
    unified: Vec<PathBuf>,
    /// Version 1: the `cpu` hierarchy's chain.
    cpu: Vec<PathBuf>,
    /// Version 1: the `memory` hierarchy's chain.
    memory: Vec<PathBuf>,
}

impl Groups {
    fn find(system: &dyn System) -> Groups {
        let (Some(cgroup), Some(mountinfo)) = (
            system.read(Path::new("/proc/self/cgroup")),
            system.read(Path::new("/proc/self/mountinfo")),
        ) else {
            return Groups::default();
        };
        let mounts = Mounts::parse(&mountinfo);
        let chain = |point: &Path, root: &str, path: Option<String>| {
            path.map(|path| ancestors(point, &below(point, root, &path)))
                .unwrap_or_default()
        };
        let v1 = |controller: &str| {
            mounts
                .v1
                .iter()
                .find(|(_, _, controllers)| controllers.iter().any(|c| c == controller))
                .map(|(point, root, _)| chain(point, root, own_path(&cgroup, Some(controller))))
                .unwrap_or_default()
        };
        Groups {
            unified: mounts
                .unified
                .as_ref()
                .map(|(point, root)| chain(point, root, own_path(&cgroup, None)))
                .unwrap_or_default(),
            cpu: v1("cpu"),
            memory: v1("memory"),
        }
    }

    /// The processors each group's CPU quota amounts to (rounded up).
    fn cpu_quotas(&self, system: &dyn System) -> Vec<Limit<usize>> {
        let mut found = Vec::new();
        for dir in &self.unified {
            let quota = system.read(&dir.join("cpu.max"));
            if let Some(n) = quota.as_deref().and_then(cpu_max) {
                found.push(group_limit(n, dir, "cpu.max"));
            }
        }
        for dir in &self.cpu {
            let quota = system.read(&dir.join("cpu.cfs_quota_us"));
            let period = system.read(&dir.join("cpu.cfs_period_us"));
            if let (Some(quota), Some(period)) = (quota, period) {
                if let Some(n) = cfs_quota(&quota, &period) {
                    found.push(group_limit(n, dir, "cpu.cfs_quota_us"));
                }
            }
        }
        found
    }

    /// Each group's memory limit.
    fn memory_limits(&self, system: &dyn System) -> Vec<Limit<u64>> {
        let mut found = Vec::new();
        for dir in &self.unified {
            let max = system.read(&dir.join("memory.max"));
            if let Some(bytes) = max.as_deref().and_then(memory_max) {
                found.push(group_limit(bytes, dir, "memory.max"));
            }
        }
        for dir in &self.memory {
            let limit = system.read(&dir.join("memory.limit_in_bytes"));
            if let Some(bytes) = limit.as_deref().and_then(limit_in_bytes) {
                found.push(group_limit(bytes, dir, "memory.limit_in_bytes"));
            }
        }
        found
    }
}

fn group_limit<T>(value: T, dir: &Path, file: &str) -> Limit<T> {
    Limit {
        value,
        source: format!("the control group {}'s {file}", dir.display()),
    }
}

/// `group` and its ancestors up to `point` (the mount), own group first.
fn ancestors(point: &Path, group: &Path) -> Vec<PathBuf> {
    let mut chain = Vec::new();
    let mut dir = Some(group);
    while let Some(d) = dir {
        if !d.starts_with(point) {
            break;
        }
        chain.push(d.to_path_buf());
        dir = d.parent();
    }
    chain
}

/// Version 2's `cpu.max`, `$MAX $PERIOD` or `max $PERIOD`: the
/// processors it allows, rounded up.
pub fn cpu_max(text: &str) -> Option<usize> {
    let mut parts = text.split_whitespace();
    let quota = parts.next()?;
    let period = parts.next().unwrap_or("100000");
    if quota == "max" {
        return None;
    }
    processors(quota.parse().ok()?, period.parse().ok()?)
}

/// Version 1's `cpu.cfs_quota_us` and `cpu.cfs_period_us` (a quota of
/// -1 is none).
pub fn cfs_quota(quota: &str, period: &str) -> Option<usize> {
    let quota: i64 = quota.trim().parse().ok()?;
    let period: i64 = period.trim().parse().ok()?;
    processors(u64::try_from(quota).ok()?, u64::try_from(period).ok()?)
}

fn processors(quota: u64, period: u64) -> Option<usize> {
    if period == 0 || quota == 0 {
        return None;
    }
    usize::try_from(quota.div_ceil(period)).ok()
}

/// Version 2's `memory.max`: bytes, or `max` for none.
pub fn memory_max(text: &str) -> Option<u64> {
    text.trim().parse().ok()
}

/// Version 1's `memory.limit_in_bytes`; "unlimited" is the largest
/// multiple of the page size below 2^63, read here as anything from 2^60.
pub fn limit_in_bytes(text: &str) -> Option<u64> {
    let bytes: u64 = text.trim().parse().ok()?;
    (bytes < 1 << 60).then_some(bytes)
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
pub fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The processors Slurm gave the task: `SLURM_CPUS_PER_TASK`, and this
/// node's entry of `SLURM_JOB_CPUS_PER_NODE`.
fn slurm_cpus(system: &dyn System) -> Vec<Limit<usize>> {
    let mut found = Vec::new();
    let number = |name: &str| {
        system
            .var(name)
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
    };
    if let Some(n) = number("SLURM_CPUS_PER_TASK") {
        found.push(Limit {
            value: n,
            source: "SLURM_CPUS_PER_TASK".into(),
        });
    }
    let node = number("SLURM_NODEID").unwrap_or(0);
    let per_node = system.var("SLURM_JOB_CPUS_PER_NODE");
    if let Some(n) = per_node.as_deref().and_then(|t| cpus_per_node(t, node)) {
        found.push(Limit {
            value: n,
            source: "SLURM_JOB_CPUS_PER_NODE".into(),
        });
    }
    found
}

/// The `node`-th (from 0) count of `SLURM_JOB_CPUS_PER_NODE`, written
/// `4` or `4(x2),2` (four on each of two nodes, then two).
pub fn cpus_per_node(text: &str, node: usize) -> Option<usize> {
    let mut seen = 0;
    for entry in text.split(',') {
        let (count, times) = match entry.split_once("(x") {
            Some((count, rest)) => (count, rest.strip_suffix(')')?.parse::<usize>().ok()?),
            None => (entry, 1),
        };
        seen += times;
        if node < seen {
            return count.trim().parse().ok().filter(|&n| n > 0);
        }
    }
    None
}

/// The memory Slurm gave the job on this node: `SLURM_MEM_PER_NODE`, or
/// `SLURM_MEM_PER_CPU` times its processors (both in MiB).
fn slurm_memory(system: &dyn System, cpus: Option<usize>) -> Vec<Limit<u64>> {
    let mebibytes = |name: &str| {
        system
            .var(name)
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|&n| n > 0)
    };
    let mut found = Vec::new();
    if let Some(mib) = mebibytes("SLURM_MEM_PER_NODE") {
        found.push(Limit {
            value: mib << 20,
            source: "SLURM_MEM_PER_NODE".into(),
        });
    }
    if let (Some(mib), Some(cpus)) = (mebibytes("SLURM_MEM_PER_CPU"), cpus) {
        found.push(Limit {
            value: (mib << 20).saturating_mul(cpus as u64),
            source: format!("SLURM_MEM_PER_CPU for {cpus} processor(s)"),
        });
    }
    found
}

/// What referee itself needs besides its workers: its threads, the
/// reference's transcripts, the reports it writes.
pub const REFEREE_MEMORY: u64 = 128 << 20;

/// What one worker may use at most, and what referee itself needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// The largest memory limit of a run of the suite.
    pub run: u64,
    /// The compiler's memory limit.
    pub compiler: u64,
    /// Referee itself: its threads, the reference's transcripts, reports.
    pub referee: u64,
}

impl Need {
    /// One worker's share: a run and a compilation.
    pub fn per_worker(&self) -> u64 {
        self.run.saturating_add(self.compiler)
    }

    /// What `workers` workers and referee need together.
    pub fn total(&self, workers: usize) -> u64 {
        self.per_worker()
            .saturating_mul(workers as u64)
            .saturating_add(self.referee)
    }

    /// "2.6 GiB (a run's 512 MiB and the compiler's 2 GiB)".
    fn describe(&self) -> String {
        format!(
            "{} (a run's memory limit, {}, and the compiler's, {})",
            size(self.per_worker()),
            size(self.run),
            size(self.compiler)
        )
    }
}

/// How many workers to run, and what to say about it (once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workers {
    /// Workers.
    pub jobs: usize,
    /// Why fewer than asked for (or than the processors) run.
    pub note: Option<String>,
}

/// Not even one worker fits the job's memory.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "not enough memory for one worker: {has} may be used here ({source}), and one worker needs \
     {need}, with {referee} for referee itself; {what}",
    has = size(memory.value),
    source = memory.source,
    need = need.describe(),
    referee = size(need.referee),
    what = ask_for(memory, need.total(1))
)]
pub struct TooLittleMemory {
    /// The memory the job may use.
    pub memory: Limit<u64>,
    /// What one worker needs.
    pub need: Need,
}

/// What to do to have `needed` bytes, where `memory` came from.
fn ask_for(memory: &Limit<u64>, needed: u64) -> String {
    let mebibytes = needed.div_ceil(100 << 20) * 100;
    if memory.source.starts_with("SLURM_MEM_PER_CPU") {
        let cpus = memory
            .source
            .split_whitespace()
            .find_map(|w| w.parse::<u64>().ok())
            .unwrap_or(1)
            .max(1);
        let per_cpu = (needed.div_ceil(cpus) >> 20).div_ceil(100) * 100;
        return format!("ask Slurm for at least --mem-per-cpu={per_cpu}M (or --mem={mebibytes}M)");
    }
    if memory.source.starts_with("the machine") {
        return format!(
            "run on a machine with at least {} of memory, or lower the suite's memory limit",
            size(needed)
        );
    }
    format!(
        "give the job at least {mebibytes} MiB (Slurm: --mem={mebibytes}M; a container: \
         --memory={mebibytes}m), or lower the suite's memory limit"
    )
}

/// How many workers to run: `requested` (`--jobs`), else one per
/// processor the allocation has; fewer when they would not fit in its
/// memory, with a note saying why; an error when not even one fits.
pub fn workers(
    allocation: &Allocation,
    requested: Option<usize>,
    need: Need,
) -> Result<Workers, TooLittleMemory> {
    let cpus = allocation.cpus().map_or(1, |l| l.value).max(1);
    let wanted = requested.unwrap_or(cpus).max(1);
    let Some(memory) = allocation.memory() else {
        return Ok(Workers {
            jobs: wanted,
            note: None,
        });
    };
    let room = memory.value.saturating_sub(need.referee);
    let fit = usize::try_from(room / need.per_worker().max(1)).unwrap_or(usize::MAX);
    if fit == 0 {
        return Err(TooLittleMemory {
            memory: memory.clone(),
            need,
        });
    }
    if fit >= wanted {
        return Ok(Workers {
            jobs: wanted,
            note: None,
        });
    }
    let note = format!(
        "running {fit} worker{} instead of {wanted}: each needs {}, and {} of memory may be used \
         here ({}); for {wanted}, {}",
        if fit == 1 { "" } else { "s" },
        need.describe(),
        size(memory.value),
        memory.source,
        ask_for(memory, need.total(wanted)),
    );
    Ok(Workers {
        jobs: fit,
        note: Some(note),
    })
}

/// Bytes as people read them, to the nearest: "600 MiB", "2.5 GiB".
pub fn size(bytes: u64) -> String {
    const GIB: u64 = 1 << 30;
    if bytes >= GIB {
        let tenths = (bytes.saturating_mul(10) + GIB / 2) / GIB;
        if tenths % 10 == 0 {
            format!("{} GiB", tenths / 10)
        } else {
            format!("{}.{} GiB", tenths / 10, tenths % 10)
        }
    } else {
        format!("{} MiB", (bytes + (1 << 19)) >> 20)
    }
}

/// A [`System`] of given files and variables, for tests (and for anyone
/// asking "what would referee run there?").
#[derive(Debug, Default)]
pub struct Given {
    /// Files by path.
    pub files: HashMap<PathBuf, String>,
    /// Variables by name.
    pub vars: HashMap<String, String>,
    /// The affinity mask's size.
    pub affinity: Option<usize>,
}

impl Given {
    /// Adds a file.
    pub fn file(mut self, path: &str, text: &str) -> Given {
        self.files.insert(PathBuf::from(path), text.to_string());
        self
    }

    /// Adds a variable.
    pub fn var(mut self, name: &str, value: &str) -> Given {
        self.vars.insert(name.to_string(), value.to_string());
        self
    }
}

impl System for Given {
    fn read(&self, path: &Path) -> Option<String> {
        self.files.get(path).cloned()
    }

    fn var(&self, name: &str) -> Option<String> {
        self.vars.get(name).cloned()
    }

    fn affinity(&self) -> Option<usize> {
        self.affinity
    }
}

/// A count that grows whenever memory ran short for a limit not a run's
/// own, read before and after each run: each time a group enclosing
/// referee (the one it runs in and its ancestors: a Slurm job's, a
/// container's) refused memory at its own limit (version 1 `failcnt`,
/// version 2 `max` of `memory.events.local`), and, with `own_kills`
/// (where runs have no group of their own), each process the
/// out-of-memory killer killed in referee's group. `None` where nothing
/// can be read.
pub fn enclosing_pressure(own_kills: bool) -> Option<u64> {
    // Read before and after every run: opened once (see Control).
    static FILES: std::sync::OnceLock<Vec<(Counter, Control)>> = std::sync::OnceLock::new();
    let counters = FILES.get_or_init(|| {
        let open = |c: Counter| {
            let file = Control::open(c.file.clone(), false);
            (c, file)
        };
        counters(&Machine).into_iter().map(open).collect()
    });
    let mut total = None;
    for (counter, file) in counters.iter().filter(|(c, _)| own_kills || !c.kills) {
        let text = file.read().ok();
        let value = match counter.field {
            Some(name) => text.as_deref().and_then(|t| field(t, name)),
            None => text.and_then(|t| t.trim().parse().ok()),
        };
        if let Some(value) = value {
            total = Some(total.unwrap_or(0u64).saturating_add(value));
        }
    }
    total
}

/// A file [`enclosing_pressure`] adds up.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Counter {
    file: PathBuf,
    /// The line to read, or the whole file.
    field: Option<&'static str>,
    /// Whether it counts killed processes (see [`enclosing_pressure`]).
    kills: bool,
}

/// The counters of the groups around referee, version 2's where the
/// unified hierarchy has the memory controller, else version 1's.
fn counters(system: &dyn System) -> Vec<Counter> {
    let groups = Groups::find(system);
    let counter = |file: PathBuf, field, kills| Counter { file, field, kills };
    let v2 = groups
        .unified
        .first()
        .filter(|own| system.read(&own.join("memory.events")).is_some());
    if let Some(own) = v2 {
        let mut found = vec![counter(own.join("memory.events"), Some("oom_kill"), true)];
        found.extend(
            groups
                .unified
                .iter()
                .map(|dir| counter(dir.join("memory.events.local"), Some("max"), false))
                .filter(|c| system.read(&c.file).is_some()),
        );
        return found;
    }
    let Some(own) = groups.memory.first() else {
        return Vec::new();
    };
    let mut found = vec![counter(
        own.join("memory.oom_control"),
        Some("oom_kill"),
        true,
    )];
    found.extend(
        groups
            .memory
            .iter()
            .map(|dir| counter(dir.join("memory.failcnt"), None, false))
            .filter(|c| system.read(&c.file).is_some()),
    );
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1_MOUNTS: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
33 31 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
34 31 0:31 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
";
    const V1_SELF: &str = "\
5:pids:/slurm/uid_0/job_7/step_batch
4:memory:/slurm/uid_0/job_7/step_batch
2:cpu,cpuacct:/slurm/uid_0/job_7/step_batch
0::/
";
    const V2_MOUNTS: &str = "\
22 1 0:21 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate
";
    const V2_SELF: &str = "0::/system.slice/slurmstepd.scope/job_9/step_batch/user/task_0\n";
    const MEMINFO: &str = "MemTotal:       25165824 kB\nMemFree:         1000 kB\n";
    const UNLIMITED_V1: &str = "9223372036854771712\n";

    fn v1() -> Given {
        let job = "/sys/fs/cgroup/memory/slurm/uid_0/job_7";
        Given {
            affinity: Some(16),
            ..Given::default()
        }
        .file("/proc/self/mountinfo", V1_MOUNTS)
        .file("/proc/self/cgroup", V1_SELF)
        .file("/proc/meminfo", MEMINFO)
        .file("/sys/fs/cgroup/memory/memory.limit_in_bytes", UNLIMITED_V1)
        .file(&format!("{job}/memory.limit_in_bytes"), "3221225472\n")
        .file(
            &format!("{job}/step_batch/memory.limit_in_bytes"),
            UNLIMITED_V1,
        )
        .file(
            "/sys/fs/cgroup/cpu,cpuacct/slurm/uid_0/job_7/cpu.cfs_quota_us",
            "300000\n",
        )
        .file(
            "/sys/fs/cgroup/cpu,cpuacct/slurm/uid_0/job_7/cpu.cfs_period_us",
            "100000\n",
        )
        .file(
            "/sys/fs/cgroup/cpu,cpuacct/slurm/uid_0/job_7/step_batch/cpu.cfs_quota_us",
            "-1\n",
        )
        .file(
            "/sys/fs/cgroup/cpu,cpuacct/slurm/uid_0/job_7/step_batch/cpu.cfs_period_us",
            "100000\n",
        )
    }

    fn v2() -> Given {
        let job = "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_9";
        Given {
            affinity: Some(2),
            ..Given::default()
        }
        .file("/proc/self/mountinfo", V2_MOUNTS)
        .file("/proc/self/cgroup", V2_SELF)
        .file("/proc/meminfo", MEMINFO)
        .file(&format!("{job}/memory.max"), "629145600\n")
        .file(&format!("{job}/cpu.max"), "max 100000\n")
        .file(&format!("{job}/step_batch/memory.max"), "max\n")
        .file(&format!("{job}/step_batch/user/task_0/memory.max"), "max\n")
        .file(
            &format!("{job}/step_batch/user/task_0/cpu.max"),
            "150000 100000\n",
        )
        .file(
            &format!("{job}/step_batch/user/task_0/memory.events"),
            "oom_kill 3\n",
        )
    }

    const NEED: Need = Need {
        run: 512 << 20,
        compiler: 2 << 30,
        referee: 128 << 20,
    };

    #[test]
    fn version_1_groups_and_their_ancestors_limit_the_job() {
        let found = read_from(&v1());
        let cpus = found.cpus().unwrap();
        assert_eq!(cpus.value, 3);
        assert_eq!(
            cpus.source,
            "the control group /sys/fs/cgroup/cpu,cpuacct/slurm/uid_0/job_7's cpu.cfs_quota_us"
        );
        let memory = found.memory().unwrap();
        assert_eq!(memory.value, 3 << 30);
        assert!(
            memory.source.contains("job_7's memory.limit_in_bytes"),
            "{memory:?}"
        );
        let step = "/sys/fs/cgroup/memory/slurm/uid_0/job_7/step_batch";
        let given = v1()
            .file(&format!("{step}/memory.oom_control"), "oom_kill 0\n")
            .file(&format!("{step}/memory.failcnt"), "0\n")
            .file(
                "/sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.failcnt",
                "12\n",
            );
        let files: Vec<String> = counters(&given)
            .iter()
            .map(|c| c.file.display().to_string())
            .collect();
        assert_eq!(
            files,
            [
                format!("{step}/memory.oom_control"),
                format!("{step}/memory.failcnt"),
                "/sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.failcnt".to_string(),
            ]
        );
        // Unlimited groups and the -1 quota are no limits.
        assert_eq!(found.memory.len(), 2, "{:?}", found.memory);
        assert_eq!(found.cpus.len(), 2, "{:?}", found.cpus);
    }

    #[test]
    fn version_2_groups_limit_the_job() {
        let found = read_from(&v2());
        assert_eq!(found.cpus().unwrap().value, 2, "{:?}", found.cpus);
        assert!(found
            .cpus
            .iter()
            .any(|l| l.value == 2 && l.source.contains("task_0's cpu.max")));
        let memory = found.memory().unwrap();
        assert_eq!(memory.value, 600 << 20);
        assert!(memory.source.ends_with("job_9's memory.max"), "{memory:?}");
        let task = "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_9/step_batch/user/task_0";
        let job = "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_9";
        let given = v2()
            .file(&format!("{task}/memory.events.local"), "max 0\n")
            .file(&format!("{job}/memory.events.local"), "max 4\n");
        assert_eq!(
            counters(&given),
            [
                Counter {
                    file: PathBuf::from(format!("{task}/memory.events")),
                    field: Some("oom_kill"),
                    kills: true
                },
                Counter {
                    file: PathBuf::from(format!("{task}/memory.events.local")),
                    field: Some("max"),
                    kills: false
                },
                Counter {
                    file: PathBuf::from(format!("{job}/memory.events.local")),
                    field: Some("max"),
                    kills: false
                },
            ]
        );
    }

    #[test]
    fn slurm_variables_limit_what_no_group_does() {
        // task/none, no cgroup plugin: the whole node is visible.
        let none = Given {
            affinity: Some(64),
            ..Given::default()
        }
        .file("/proc/meminfo", MEMINFO);
        assert_eq!(read_from(&none).cpus().unwrap().value, 64);
        let slurm = none
            .var("SLURM_CPUS_PER_TASK", "4")
            .var("SLURM_JOB_CPUS_PER_NODE", "8(x2),2")
            .var("SLURM_NODEID", "2")
            .var("SLURM_MEM_PER_CPU", "1000");
        let found = read_from(&slurm);
        let cpus = found.cpus().unwrap();
        assert_eq!(
            (cpus.value, cpus.source.as_str()),
            (2, "SLURM_JOB_CPUS_PER_NODE")
        );
        let memory = found.memory().unwrap();
        assert_eq!(
            memory.value,
            2000 << 20,
            "per CPU, for the task's processors"
        );
        assert_eq!(memory.source, "SLURM_MEM_PER_CPU for 2 processor(s)");
        let per_node = Given::default().var("SLURM_MEM_PER_NODE", "600");
        let memory = read_from(&per_node).memory().cloned().unwrap();
        assert_eq!(
            (memory.value, memory.source.as_str()),
            (600 << 20, "SLURM_MEM_PER_NODE")
        );
        // Without Slurm and groups, the machine's memory.
        let machine = read_from(&Given::default().file("/proc/meminfo", MEMINFO));
        assert_eq!(machine.memory().unwrap().value, 24 << 30);
    }

    #[test]
    fn the_files_are_read_as_the_kernel_writes_them() {
        assert_eq!(cpu_max("max 100000\n"), None);
        assert_eq!(cpu_max("50000 100000\n"), Some(1));
        assert_eq!(cpu_max("250000 100000"), Some(3));
        assert_eq!(cpu_max("garbage"), None);
        assert_eq!(cfs_quota("-1\n", "100000\n"), None);
        assert_eq!(cfs_quota("200000", "100000"), Some(2));
        assert_eq!(cfs_quota("1", "0"), None);
        assert_eq!(memory_max("max\n"), None);
        assert_eq!(memory_max("1073741824\n"), Some(1 << 30));
        assert_eq!(limit_in_bytes(UNLIMITED_V1), None);
        assert_eq!(limit_in_bytes("1073741824"), Some(1 << 30));
        assert_eq!(mem_total(MEMINFO), Some(24 << 30));
        assert_eq!(mem_total("nothing"), None);
        assert_eq!(cpus_per_node("4", 0), Some(4));
        assert_eq!(cpus_per_node("4", 1), None);
        assert_eq!(cpus_per_node("8(x2),2", 1), Some(8));
        assert_eq!(cpus_per_node("8(x2),2", 2), Some(2));
        assert_eq!(cpus_per_node("8(x", 0), None);
        assert_eq!(field("oom 1\noom_kill 4\n", "oom_kill"), Some(4));
        assert_eq!(
            field("oom_kill_disable 0\noom_kill 2\n", "oom_kill"),
            Some(2)
        );
        assert_eq!(field("", "oom_kill"), None);
    }

    #[test]
    fn workers_fit_the_memory_or_referee_refuses() {
        let job = |bytes: u64, source: &str| Allocation {
            cpus: vec![Limit {
                value: 4,
                source: "SLURM_CPUS_PER_TASK".into(),
            }],
            memory: vec![Limit {
                value: bytes,
                source: source.into(),
            }],
        };
        // Enough for all four.
        let plenty = workers(&job(16 << 30, "SLURM_MEM_PER_NODE"), None, NEED).unwrap();
        assert_eq!(
            plenty,
            Workers {
                jobs: 4,
                note: None
            }
        );
        // Room for two: two run, and the note says what to ask for.
        let two = workers(&job(6 << 30, "SLURM_MEM_PER_NODE"), None, NEED).unwrap();
        assert_eq!(two.jobs, 2);
        assert_eq!(
            two.note.as_deref(),
            Some(
                "running 2 workers instead of 4: each needs 2.5 GiB (a run's memory limit, 512 \
                 MiB, and the compiler's, 2 GiB), and 6 GiB of memory may be used here \
                 (SLURM_MEM_PER_NODE); for 4, give the job at least 10400 MiB (Slurm: \
                 --mem=10400M; a container: --memory=10400m), or lower the suite's memory limit"
            )
        );
        // An explicit --jobs above what fits is lowered the same way.
        let asked = workers(&job(6 << 30, "SLURM_MEM_PER_NODE"), Some(8), NEED).unwrap();
        assert_eq!(asked.jobs, 2);
        assert!(asked.note.unwrap().contains("instead of 8"));
        // Below what fits, --jobs is as given, even above the processors.
        let fewer = workers(&job(16 << 30, "SLURM_MEM_PER_NODE"), Some(5), NEED).unwrap();
        assert_eq!(fewer.jobs, 5);
        // Not even one: refused, saying what to ask for.
        let refused = workers(&job(600 << 20, "SLURM_MEM_PER_NODE"), None, NEED).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "not enough memory for one worker: 600 MiB may be used here (SLURM_MEM_PER_NODE), \
             and one worker needs 2.5 GiB (a run's memory limit, 512 MiB, and the compiler's, 2 \
             GiB), with 128 MiB for referee itself; give the job at least 2700 MiB (Slurm: --mem=2700M; a container: \
             --memory=2700m), or lower the suite's memory limit"
        );
        let per_cpu = workers(
            &job(1 << 30, "SLURM_MEM_PER_CPU for 2 processor(s)"),
            None,
            NEED,
        )
        .unwrap_err();
        assert!(
            per_cpu
                .to_string()
                .ends_with("--mem-per-cpu=1400M (or --mem=2700M)"),
            "{per_cpu}"
        );
        // Nothing known about memory: the processors decide.
        let unknown = Allocation {
            cpus: job(0, "").cpus,
            memory: Vec::new(),
        };
        assert_eq!(workers(&unknown, None, NEED).unwrap().jobs, 4);
        assert_eq!(workers(&Allocation::default(), None, NEED).unwrap().jobs, 1);
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size(600 << 20), "600 MiB");
        assert_eq!(size(2560 << 20), "2.5 GiB");
        assert_eq!(size(3 << 30), "3 GiB");
    }
}
