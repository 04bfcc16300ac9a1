//! The Slurm recipe of docs/grading-a-class.md, run as written on a one-node cluster this
//! test starts itself (its own `munged`, `slurmctld` and `slurmd`, with a
//! configuration it writes; no system service): a job array grades the
//! class and a dependent job merges it, to the scores of one machine; an
//! array cancelled with `scancel` and submitted again resumes to the same
//! scores; a job given too little memory runs fewer workers or is
//! refused, never changing a grade; a merge with a shard missing fails.
//!
//! Needs Debian's `slurm-wlm` and `munge` and root, so it is run on its
//! own, like the browser test: `cargo test --test slurm -- --ignored`
//! (`.ci/run` installs both and runs it). Run without them, it fails and
//! says what to install.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

const TOOLS: [&str; 7] = [
    "munged",
    "slurmctld",
    "slurmd",
    "sbatch",
    "squeue",
    "scancel",
    "scontrol",
];

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| dir.join(tool).is_file())
            || Path::new("/usr/sbin").join(tool).is_file()
    })
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A one-node cluster in `dir`, stopped when dropped.
struct Cluster {
    dir: PathBuf,
    daemons: Vec<Child>,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let munge = dir.join("munge");
        fs::create_dir_all(munge.join("key")).unwrap();
        for sub in ["state", "spool", "log"] {
            fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let key: Vec<u8> = (0..1024).map(|i| (i * 7919 % 251) as u8).collect();
        let key_file = munge.join("key/munge.key");
        fs::write(&key_file, key).unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&key_file, fs::Permissions::from_mode(0o400)).unwrap();
        fs::set_permissions(munge.join("key"), fs::Permissions::from_mode(0o700)).unwrap();
        fs::set_permissions(&munge, fs::Permissions::from_mode(0o755)).unwrap();
        let socket = munge.join("munge.socket");
        let mut cluster = Cluster {
            dir: dir.to_path_buf(),
            daemons: Vec::new(),
        };
        let munged = Command::new(sbin("munged"))
            .arg("--foreground")
            .arg("--force")
            .arg(format!("--key-file={}", key_file.display()))
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--pid-file={}", munge.join("munged.pid").display()))
            .arg(format!("--log-file={}", munge.join("munged.log").display()))
            .arg(format!(
                "--seed-file={}",
                munge.join("munged.seed").display()
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        cluster.daemons.push(munged);
        cluster.wait_until("munged's socket", || socket.exists());
        let conf = cluster.write_config(&socket);
        for (daemon, args) in [
            ("slurmctld", vec!["-D", "-f"]),
            ("slurmd", vec!["-D", "-N", "refnode", "-f"]),
        ] {
            let child = Command::new(sbin(daemon))
                .args(args)
                .arg(&conf)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            cluster.daemons.push(child);
        }
        cluster.wait_until("the node to be idle", || {
            let info = cluster.slurm("sinfo", &["-h", "-o", "%T"]);
            String::from_utf8_lossy(&info.stdout).trim() == "idle"
        });
        cluster
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }

    fn write_config(&self, socket: &Path) -> PathBuf {
        let host = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        let meminfo = fs::read_to_string("/proc/meminfo").unwrap();
        let total_kib: u64 = meminfo
            .lines()
            .find(|l| l.starts_with("MemTotal:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let d = self.dir.display();
        let config = format!(
            "ClusterName=referee-test\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmctldPort={ctld}\n\
             SlurmdPort={slurmd}\n\
             SlurmUser=root\n\
             SlurmdUser=root\n\
             AuthType=auth/munge\n\
             AuthInfo=socket={socket}\n\
             CredType=cred/munge\n\
             MailProg=/bin/true\n\
             StateSaveLocation={d}/state\n\
             SlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\n\
             SlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/log/slurmctld.log\n\
             SlurmdLogFile={d}/log/slurmd.log\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_CPU_Memory\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\n\
             MpiDefault=none\n\
             ReturnToService=2\n\
             KillWait=30\n\
             MinJobAge=600\n\
             SchedulerParameters=sched_interval=1\n\
             NodeName=refnode NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem} State=UNKNOWN\n\
             PartitionName=test Nodes=refnode Default=YES MaxTime=INFINITE State=UP\n",
            host = host.trim(),
            ctld = free_port(),
            slurmd = free_port(),
            socket = socket.display(),
            mem = total_kib / 1024 - 1024,
        );
        fs::write(self.conf(), config).unwrap();
        self.conf()
    }

    fn wait_until(&self, what: &str, mut done: impl FnMut() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited a minute for {what}; slurmctld's log: {}",
                fs::read_to_string(self.dir.join("log/slurmctld.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// A Slurm command against this cluster.
    fn slurm(&self, tool: &str, args: &[&str]) -> Output {
        self.shell(&self.dir, &format!("{tool} {}", args.join(" ")))
    }

    /// A shell command in `dir`, with this cluster's configuration and
    /// referee on PATH (as a TA's shell has them).
    fn shell(&self, dir: &Path, script: &str) -> Output {
        let referee = Path::new(env!("CARGO_BIN_EXE_referee"));
        let path = format!(
            "{}:/usr/sbin:{}",
            referee.parent().unwrap().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(dir)
            .env("SLURM_CONF", self.conf())
            .env("PATH", path)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// Waits until `job` (a job or an array) has left the queue.
    fn wait_for(&self, job: &str) {
        let start = Instant::now();
        loop {
            let queue = self.slurm("squeue", &["-h", "-j", job, "-o", "%T"]);
            if String::from_utf8_lossy(&queue.stdout).trim().is_empty() {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(300),
                "job {job} still queued after 5 minutes: {}",
                String::from_utf8_lossy(&queue.stdout)
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }

    /// Each state and exit code of `job`'s tasks, as `scontrol` says.
    fn states(&self, job: &str) -> Vec<(String, String)> {
        let shown = self.slurm("scontrol", &["show", "job", job]);
        let text = String::from_utf8_lossy(&shown.stdout).into_owned();
        let field = |line: &str, name: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(name))
                .unwrap_or("")
                .to_string()
        };
        let states: Vec<String> = text
            .lines()
            .filter(|l| l.contains("JobState="))
            .map(|l| field(l, "JobState="))
            .collect();
        let codes: Vec<String> = text
            .lines()
            .filter(|l| l.contains(" ExitCode="))
            .map(|l| field(l, "ExitCode="))
            .collect();
        states.into_iter().zip(codes).collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.slurm("scancel", &["--quiet", "--user=root"]);
        for daemon in self.daemons.iter_mut().rev() {
            // SAFETY: signalling a daemon this test started.
            unsafe { libc::kill(daemon.id() as libc::pid_t, libc::SIGTERM) };
            let deadline = Instant::now() + Duration::from_secs(10);
            while daemon.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = daemon.kill();
            let _ = daemon.wait();
        }
    }
}

fn sbin(tool: &str) -> PathBuf {
    let system = Path::new("/usr/sbin").join(tool);
    if system.is_file() {
        system
    } else {
        PathBuf::from(tool)
    }
}

/// The guide's Slurm scripts: grade.sh, merge.sh and the submission,
/// with `--game pentago` made this test's small connect4 suite.
fn recipe(cases: &Path) -> (String, String, String) {
    let readme = fs::read_to_string(root().join("docs/grading-a-class.md")).unwrap();
    let blocks: Vec<&str> = readme
        .split("```sh\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    let find = |mark: &str| {
        blocks
            .iter()
            .find(|b| b.contains(mark))
            .unwrap_or_else(|| panic!("docs/grading-a-class.md has a block with {mark}"))
            .to_string()
    };
    let grade = find("# grade.sh");
    assert!(grade.contains("--game pentago"), "{grade}");
    let grade = grade.replace(
        "--game pentago",
        &format!("--game connect4 --cases '{}'", cases.display()),
    );
    (grade, find("# merge.sh"), find("array=$(sbatch"))
}

/// Each student's status and score in `out`.
fn scores(out: &Path) -> BTreeMap<String, (String, Value)> {
    let text = fs::read_to_string(out.join("results.json"))
        .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let results: Value = serde_json::from_str(&text).unwrap();
    results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                (
                    s["status"].as_str().unwrap().to_string(),
                    s["score"].clone(),
                ),
            )
        })
        .collect()
}

/// Students in the class: four per shard, so that a task can be
/// cancelled with some graded and some not.
const STUDENTS: usize = 16;

/// A folder with the class (`submissions/`, correct and buggy programs
/// slowed to a few tenths of a second per case) and the two scripts.
fn job_folder(work: &Path, name: &str, cases: &Path) -> PathBuf {
    let dir = work.join(name);
    let class = dir.join("submissions");
    fs::create_dir_all(&class).unwrap();
    let programs = [
        "correct.c",
        "bugs/accepts-column-6.c",
        "bugs/board-upside-down.c",
        "bugs/full-column-accepted.c",
        "bugs/horizontal-misses-top-row.c",
        "bugs/counts-four-with-a-gap.c",
        "bugs/diagonal-misses-top-right.c",
        "bugs/horizontal-right-edge.c",
    ];
    for (i, program) in programs.iter().cycle().take(STUDENTS).enumerate() {
        let source =
            fs::read_to_string(test_file(&format!("fixtures/connect4/{program}"))).unwrap();
        fs::write(
            class.join(format!("student{i}.c")),
            format!(
                "{source}\n#include <unistd.h>\n__attribute__((constructor)) static void \
                 slowly(void) {{ usleep(300000); }}\n"
            ),
        )
        .unwrap();
    }
    let (grade, merge, _) = recipe(cases);
    fs::write(dir.join("grade.sh"), grade).unwrap();
    fs::write(dir.join("merge.sh"), merge).unwrap();
    dir
}

/// Submits the guide's two jobs in `dir`: the array's id and the merge's.
fn submit(cluster: &Cluster, dir: &Path, cases: &Path) -> (String, String) {
    let (_, _, submit) = recipe(cases);
    let submitted = cluster.shell(dir, &format!("{submit}\necho \"array $array\""));
    let out = String::from_utf8_lossy(&submitted.stdout).into_owned();
    assert!(
        submitted.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&submitted.stderr)
    );
    let array = out
        .lines()
        .find_map(|l| l.strip_prefix("array "))
        .unwrap()
        .trim()
        .to_string();
    let merge = out
        .lines()
        .find(|l| !l.starts_with("array ") && !l.trim().is_empty())
        .unwrap()
        .trim()
        .to_string();
    (array, merge)
}

fn task_output(dir: &Path, array: &str, task: u32) -> String {
    fs::read_to_string(dir.join(format!("slurm-{array}_{task}.out"))).unwrap_or_default()
}

#[test]
#[ignore = "needs root and Debian's slurm-wlm and munge: cargo test --test slurm -- --ignored"]
fn the_readme_job_array_grades_as_one_machine_does() {
    let missing: Vec<&str> = TOOLS.iter().copied().filter(|t| !on_path(t)).collect();
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    assert!(
        missing.is_empty() && root,
        "a one-node Slurm cluster needs root and Debian's slurm-wlm and munge \
         (`apt-get install slurm-wlm munge`; missing: {missing:?}, root: {root})"
    );
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite(
        "connect4",
        work.path(),
        &["seed-example-1", "seed-example-2", "invalid-column-full"],
    );
    let cluster = Cluster::start(&work.path().join("cluster"));

    // One machine.
    let single = job_folder(work.path(), "single", &cases);
    let graded = cluster.shell(
        &single,
        &format!(
            "referee grade --game connect4 --cases '{}' --out results submissions/",
            cases.display()
        ),
    );
    assert!(graded.status.success(), "{}", stderr(&graded));
    let expected = scores(&single.join("results"));
    assert_eq!(expected.len(), STUDENTS);

    // The guide's array and its dependent merge.
    let run = job_folder(work.path(), "array", &cases);
    let (array, merge) = submit(&cluster, &run, &cases);
    cluster.wait_for(&array);
    cluster.wait_for(&merge);
    let states = cluster.states(&array);
    assert_eq!(states.len(), 4, "{states:?}");
    assert!(
        states
            .iter()
            .all(|(s, code)| s == "COMPLETED" && code == "0:0"),
        "{states:?}"
    );
    assert_eq!(cluster.states(&merge), [("COMPLETED".into(), "0:0".into())]);
    for task in 1..=4 {
        let output = task_output(&run, &array, task);
        assert!(
            !output.contains("instead of"),
            "one worker per CPU fits: {output}"
        );
    }
    assert_eq!(scores(&run.join("results")), expected);

    // A merge with a shard missing fails, naming it.
    let partial = cluster.shell(&run, "referee merge --out partial shard-1 shard-2 shard-3");
    assert_eq!(partial.status.code(), Some(2));
    assert!(
        stderr(&partial).contains("shard 4/4 is missing"),
        "{}",
        stderr(&partial)
    );

    // Cancelled while its second task grades, then submitted again.
    let resumed = job_folder(work.path(), "cancelled", &cases);
    let (array, merge) = submit(&cluster, &resumed, &cases);
    let start = Instant::now();
    let grading = |t| {
        let output = task_output(&resumed, &array, t);
        output.contains("[1/") && !output.contains("Reports:")
    };
    while !(1..=4).any(grading) {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no task started grading"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let cancelled = cluster.slurm("scancel", &[&array]);
    assert!(cancelled.status.success(), "{}", stderr(&cancelled));
    cluster.wait_for(&array);
    cluster.wait_for(&merge);
    let stopped: Vec<String> = (1..=4)
        .map(|t| task_output(&resumed, &array, t))
        .filter(|o| o.contains("referee: SIGTERM"))
        .collect();
    let all: Vec<String> = (1..=4).map(|t| task_output(&resumed, &array, t)).collect();
    assert!(
        !stopped.is_empty(),
        "a task was stopped by SIGTERM: {all:#?} {:?}",
        cluster.states(&array)
    );
    assert!(
        stopped.iter().all(|o| o.contains("interrupted (SIGTERM)")),
        "reports written: {stopped:?}"
    );
    assert!(!resumed.join("results").exists(), "the merge did not run");
    let (array, merge) = submit(&cluster, &resumed, &cases);
    cluster.wait_for(&array);
    cluster.wait_for(&merge);
    assert_eq!(cluster.states(&merge), [("COMPLETED".into(), "0:0".into())]);
    assert_eq!(scores(&resumed.join("results")), expected);
    let kept: usize = (1..=4)
        .map(|t| task_output(&resumed, &array, t))
        .filter_map(|o| {
            o.split(" unchanged since the last run")
                .next()?
                .rsplit('(')
                .next()?
                .trim()
                .parse::<usize>()
                .ok()
        })
        .sum();
    assert!(kept >= 1, "what was graded before the cancel was kept");

    // Too little memory: fewer workers, or a refusal; never another grade.
    let tight = job_folder(work.path(), "tight", &cases);
    let script = |mem: &str| {
        format!(
            "#!/bin/bash\n#SBATCH --cpus-per-task=2 --mem={mem}\n\
             referee grade --game connect4 --cases '{}' --out results-{mem} submissions/\n",
            cases.display()
        )
    };
    for mem in ["3G", "1G"] {
        fs::write(tight.join(format!("grade-{mem}.sh")), script(mem)).unwrap();
    }
    let one_worker = cluster.shell(&tight, "sbatch --parsable --output=3G.out grade-3G.sh");
    let refused = cluster.shell(&tight, "sbatch --parsable --output=1G.out grade-1G.sh");
    for job in [&one_worker, &refused] {
        cluster.wait_for(String::from_utf8_lossy(&job.stdout).trim());
    }
    let said = fs::read_to_string(tight.join("3G.out")).unwrap();
    assert!(
        said.contains("referee: note: running 1 worker instead of 2")
            && said.contains("SLURM_MEM_PER_NODE"),
        "{said}"
    );
    assert_eq!(scores(&tight.join("results-3G")), expected);
    let said = fs::read_to_string(tight.join("1G.out")).unwrap();
    assert!(
        said.contains(
            "not enough memory for one worker: 1 GiB may be used here (SLURM_MEM_PER_NODE)"
        ) && said.contains("--mem=2700M"),
        "{said}"
    );
    assert!(!tight.join("results-1G").exists());
    let job = String::from_utf8_lossy(&refused.stdout).trim().to_string();
    assert_eq!(cluster.states(&job), [("FAILED".into(), "2:0".into())]);
}
