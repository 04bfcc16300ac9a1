//! A checked run's memory is held wherever it runs (issue 42, item 4).
//!
//! Each program of tests/programs/held takes memory in its checked build
//! only (a forked child, an `mmap` bomb, an `exec` of Python, the
//! sanitizer's own shadow); it is graded with `--diagnose` on a suite
//! whose cases have 128 MiB (so 384 MiB for a checked run), and the most
//! memory any process of the whole grade held is measured by the kernel
//! (`RUSAGE_CHILDREN` of a wrapper around referee). Held means at most the
//! checked run's limit and a margin of 64 MiB: on the machine with its
//! control groups, without them as root and as an ordinary user (the
//! build's own hold), as PID 1, and in a container with Docker's default
//! settings as root and as a user (`--ignored`, with tests/container.rs).

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::attack::{is_root, open_to_all, referee_command, As};
use common::{read_json, root, student, test_file};
use serde_json::Value;

/// A checked run's memory limit (three times the cases' 128 MiB), and
/// what it may go past it by.
const LIMIT_KIB: u64 = 384 << 10;
const MARGIN_KIB: u64 = 64 << 10;

/// The programs that take memory in their checked build.
const ATTACKS: [&str; 4] = [
    "forks-a-child",
    "maps-and-touches",
    "execs-python",
    "touches-the-shadow",
];

/// Measures the most memory any process it waited for (its children and
/// theirs) held, as the kernel counts it.
const PEAK: &str = "import resource, subprocess, sys\n\
done = subprocess.run(sys.argv[1:])\n\
print('peak-kib', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, flush=True)\n\
sys.exit(done.returncode)\n";

/// A folder holding the suite (the temperature lab, its cases at
/// 128 MiB), the measuring wrapper, and a class of one for each program.
struct Work {
    dir: tempfile::TempDir,
}

impl Work {
    fn new(programs: &[&str]) -> Work {
        let dir = tempfile::tempdir().unwrap();
        let suite = dir.path().join("suite");
        fs::create_dir_all(&suite).unwrap();
        let from = root().join("examples/temperature");
        for entry in fs::read_dir(&from).unwrap() {
            let path = entry.unwrap().path();
            fs::copy(&path, suite.join(path.file_name().unwrap())).unwrap();
        }
        let yaml = fs::read_to_string(suite.join("suite.yaml")).unwrap();
        assert!(yaml.contains("  timeout: 5s\n"), "{yaml}");
        let yaml = yaml.replace("  timeout: 5s\n", "  timeout: 5s\n  memory: 128MiB\n");
        fs::write(suite.join("suite.yaml"), yaml).unwrap();
        fs::write(dir.path().join("peak.py"), PEAK).unwrap();
        let common = fs::read_to_string(test_file("programs/held/common.h")).unwrap();
        for name in programs {
            let class = dir.path().join(format!("class-{name}"));
            fs::create_dir_all(&class).unwrap();
            let source = fs::read_to_string(test_file(&format!("programs/held/{name}.c"))).unwrap();
            fs::write(
                class.join(format!("{name}.c")),
                source.replace("#include \"common.h\"\n", &common),
            )
            .unwrap();
        }
        let out = dir.path().join("out");
        fs::create_dir_all(&out).unwrap();
        open_to_all(dir.path());
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&out, fs::Permissions::from_mode(0o777)).unwrap();
        Work { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The arguments that grade `name`'s class of one, every case run
    /// again from the checked build, into `out/<name>-<tag>` (`at` is
    /// where the work folder is seen from).
    fn grade_args(&self, at: &Path, name: &str, tag: &str) -> Vec<String> {
        vec![
            "grade".into(),
            "--cases".into(),
            at.join("suite").display().to_string(),
            "--diagnose".into(),
            "--jobs".into(),
            "1".into(),
            "--out".into(),
            at.join(format!("out/{name}-{tag}")).display().to_string(),
            at.join(format!("class-{name}")).display().to_string(),
        ]
    }

    fn results(&self, name: &str, tag: &str) -> Value {
        read_json(&self.path().join(format!("out/{name}-{tag}/results.json")))
    }
}

/// The peak the wrapper printed, in KiB.
fn peak_of(output: &Output) -> u64 {
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("peak-kib "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| {
            panic!(
                "no peak in:\n{text}\n{}",
                String::from_utf8_lossy(&output.stderr)
            )
        })
}

/// Grades `name` as `who` on the machine (with `env`) under the
/// measuring wrapper: its results and the peak.
fn graded_here(work: &Work, who: As, name: &str, tag: &str, env: &[(&str, &str)]) -> (Value, u64) {
    // The wrapper waits for the whole command (setpriv and unshare
    // included), so it sees every process of the grade.
    let referee = referee_command(who);
    let mut command = Command::new("/usr/bin/python3");
    command
        .arg(work.path().join("peak.py"))
        .arg(referee.get_program())
        .args(referee.get_args());
    command
        .args(work.grade_args(work.path(), name, tag))
        .current_dir(work.path())
        .env("HOME", work.path())
        .stdin(Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    let output = command.output().expect("the wrapper runs");
    assert!(
        output.status.success(),
        "{name} as {}: {}",
        who.name(),
        String::from_utf8_lossy(&output.stderr)
    );
    (work.results(name, tag), peak_of(&output))
}

/// The submission `name` in `results` (its class is the folder of one).
fn of<'a>(results: &'a Value, name: &str) -> &'a Value {
    student(results, &format!("class-{name}"))
}

/// The diagnoses of `name` in `results`.
fn diagnoses(results: &Value, name: &str) -> Vec<Value> {
    of(results, name)["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Every attack held as `who`, and the fault of `writes-past` found:
/// checked runs are made, not refused.
fn held_as(who: As, tag: &str, env: &[(&str, &str)]) {
    let mut programs = ATTACKS.to_vec();
    programs.push("writes-past");
    let work = Work::new(&programs);
    let (results, peak) = graded_here(&work, who, "writes-past", tag, env);
    assert!(
        !diagnoses(&results, "writes-past").is_empty(),
        "as {} ({tag}) no checked run was made: {}",
        who.name(),
        of(&results, "writes-past")
    );
    eprintln!("{tag}: writes-past peaked at {} MiB", peak >> 10);
    for name in ATTACKS {
        let (results, peak) = graded_here(&work, who, name, tag, env);
        eprintln!(
            "{tag}: {name} peaked at {} MiB (limit {} MiB)",
            peak >> 10,
            LIMIT_KIB >> 10
        );
        assert!(
            peak <= LIMIT_KIB + MARGIN_KIB,
            "{name} as {} ({tag}) held {} MiB, more than {} MiB and {} MiB: {}",
            who.name(),
            peak >> 10,
            LIMIT_KIB >> 10,
            MARGIN_KIB >> 10,
            of(&results, name)
        );
        assert_eq!(of(&results, name)["status"], "graded", "{name}");
    }
}

#[test]
fn the_measure_counts_what_a_child_of_a_child_holds() {
    // Without this, a peak below the limit could be a measure that sees
    // nothing: a grandchild holding 1 GiB must show.
    let work = Work::new(&[]);
    let output = Command::new("/usr/bin/python3")
        .arg(work.path().join("peak.py"))
        .args([
            "sh",
            "-c",
            "/usr/bin/python3 -c 'b = bytearray(1 << 30); b[::4096] = bytes(len(b[::4096]))'",
        ])
        .output()
        .unwrap();
    let peak = peak_of(&output);
    assert!(peak >= 1 << 20, "{peak} KiB");
}

#[test]
fn checked_runs_are_held_by_the_control_group_as_root() {
    assert!(
        is_root(),
        "run as root: the machine's control groups are root's"
    );
    held_as(As::Me, "root", &[]);
}

#[test]
fn checked_runs_hold_themselves_as_root_without_control_groups() {
    assert!(is_root(), "run as root");
    held_as(
        As::Me,
        "root-no-groups",
        &[("REFEREE_SANDBOX_OFF", "cgroups")],
    );
}

#[test]
fn checked_runs_hold_themselves_as_an_ordinary_user() {
    assert!(
        is_root(),
        "this test switches to an ordinary user: run it as root"
    );
    held_as(As::Ordinary, "user", &[]);
}

#[test]
fn checked_runs_are_held_with_referee_as_pid_1() {
    assert!(is_root(), "run as root");
    held_as(As::Pid1, "pid1", &[]);
}

/// A program whose code would run before the hold (an `ifunc` resolver)
/// gets no checked run where the build must hold itself, with the reason
/// in its results, and its grade as ever; with a control group it is run
/// from its checked build as any other.
#[test]
fn a_program_that_would_run_before_the_hold_gets_no_checked_run_without_a_control_group() {
    assert!(is_root(), "run as root");
    let name = "resolves-an-ifunc";
    let work = Work::new(&[name]);
    let (held, _) = graded_here(&work, As::Ordinary, name, "user", &[]);
    let (grouped, _) = graded_here(&work, As::Me, name, "root", &[]);
    assert_eq!(diagnoses(&held, name), Vec::<Value>::new());
    assert!(
        !diagnoses(&grouped, name).is_empty(),
        "{}",
        of(&grouped, name)
    );
    assert_eq!(of(&held, name)["score"], of(&grouped, name)["score"]);
    // Said to the TA (the student did nothing wrong).
    let why = of(&held, name)["diagnosis_trouble"]
        .as_str()
        .unwrap_or_default();
    assert!(
        why.contains("cannot hold its own") && why.contains("indirect function"),
        "{}",
        of(&held, name)
    );
    assert_eq!(of(&held, name)["message"], Value::Null);
}

/// In a container with Docker's default settings, `who` inside.
fn held_in_container(user: bool) {
    use common::attack::{container_image, docker_run};
    let mut programs = ATTACKS.to_vec();
    programs.push("writes-past");
    let work = Work::new(&programs);
    let tag = if user {
        "container-user"
    } else {
        "container-root"
    };
    for name in programs {
        let args = work.grade_args(Path::new("/work"), name, tag).join(" ");
        let mut command = docker_run(&[], true);
        if user {
            command.args(["--user", "65534:65534", "-e", "HOME=/tmp"]);
        }
        command
            .arg("-v")
            .arg(format!("{}:/work", work.path().display()))
            .args([container_image(), "sh", "-c"])
            .arg(format!("cd /tmp && python3 /work/peak.py referee {args}"));
        let output = command.output().expect("docker runs");
        assert!(
            output.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let peak = peak_of(&output);
        let results = work.results(name, tag);
        eprintln!("{tag}: {name} peaked at {} MiB", peak >> 10);
        if name == "writes-past" {
            assert!(
                !diagnoses(&results, name).is_empty(),
                "{tag}: no checked run was made: {}",
                of(&results, name)
            );
        } else {
            assert!(
                peak <= LIMIT_KIB + MARGIN_KIB,
                "{name} ({tag}) held {} MiB: {}",
                peak >> 10,
                of(&results, name)
            );
        }
    }
}

#[test]
#[ignore = "needs a Docker engine: .ci/run starts one"]
fn checked_runs_hold_themselves_in_a_default_container_as_root() {
    held_in_container(false);
}

#[test]
#[ignore = "needs a Docker engine: .ci/run starts one"]
fn checked_runs_hold_themselves_in_a_default_container_as_a_user() {
    held_in_container(true);
}
