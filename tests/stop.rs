//! Stopping `grade` as job runners stop it: SIGTERM once (Slurm's
//! `scancel`, `docker stop`, systemd), SIGTERM twice, SIGINT twice (GNU
//! `timeout -s INT`, which signals referee and then its process group),
//! and SIGKILL. Each time the reports of what was graded are written, the
//! same command then grades the rest to the scores of one uninterrupted
//! run, and nothing is left in the temporary folder or the control
//! groups.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use common::*;
use serde_json::Value;
use wait_timeout::ChildExt;

const STUDENTS: usize = 6;

/// A class whose programs each take a few tenths of a second per case,
/// with different scores: the correct program and five bugs, slowed by a
/// constructor that sleeps before `main`.
fn slow_class(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    fs::create_dir_all(&class).unwrap();
    let programs = [
        "correct.c",
        "bugs/accepts-column-6.c",
        "bugs/board-upside-down.c",
        "bugs/full-column-accepted.c",
        "bugs/horizontal-misses-top-row.c",
        "bugs/counts-four-with-a-gap.c",
    ];
    for (i, program) in programs.iter().enumerate().take(STUDENTS) {
        let source =
            fs::read_to_string(test_file(&format!("fixtures/connect4/{program}"))).unwrap();
        let slowed = format!(
            "{source}\n#include <unistd.h>\n__attribute__((constructor)) static void slowly(void) \
             {{ usleep(400000); }}\n"
        );
        fs::write(class.join(format!("student{i}.c")), slowed).unwrap();
    }
    class
}

/// A fresh folder with the class, its cases and a temporary folder of
/// its own (so that what referee leaves there can be seen).
struct Setup {
    work: tempfile::TempDir,
    cases: PathBuf,
    class: PathBuf,
    tmp: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let work = tempfile::tempdir().unwrap();
        let cases = small_suite(
            "connect4",
            work.path(),
            &["seed-example-1", "seed-example-2", "invalid-column-full"],
        );
        let class = slow_class(work.path());
        let tmp = work.path().join("tmp");
        fs::create_dir(&tmp).unwrap();
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o1777)).unwrap();
        Setup {
            work,
            cases,
            class,
            tmp,
        }
    }

    fn out(&self) -> PathBuf {
        self.work.path().join("out")
    }

    fn command(&self, out: &Path) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
        command
            .args(["grade", "--game", "connect4", "--jobs", "2", "--cases"])
            .arg(&self.cases)
            .arg("--out")
            .arg(out)
            .arg(&self.class)
            .env("TMPDIR", &self.tmp)
            .current_dir(self.work.path())
            .stdin(Stdio::null());
        command
    }
}

/// Each student's status and score in `out`'s results.
fn scores(out: &Path) -> BTreeMap<String, (String, Value)> {
    let text = fs::read_to_string(out.join("results.json")).unwrap();
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

/// The scores of one uninterrupted run of the class.
fn uninterrupted() -> &'static BTreeMap<String, (String, Value)> {
    static SCORES: OnceLock<BTreeMap<String, (String, Value)>> = OnceLock::new();
    SCORES.get_or_init(|| {
        let setup = Setup::new();
        let ran = setup.command(&setup.out()).output().unwrap();
        assert!(
            ran.status.success(),
            "{}",
            String::from_utf8_lossy(&ran.stderr)
        );
        let scores = scores(&setup.out());
        assert_eq!(scores.len(), STUDENTS);
        assert!(
            scores.values().all(|(status, _)| status == "graded"),
            "{scores:?}"
        );
        let distinct: std::collections::HashSet<String> =
            scores.values().map(|(_, s)| s.to_string()).collect();
        assert!(
            distinct.len() > 1,
            "the class has different scores: {scores:?}"
        );
        scores
    })
}

/// Folders `referee-<pid>` anywhere in the control group hierarchies.
fn groups_of(pid: u32) -> Vec<String> {
    let found = Command::new("find")
        .args(["/sys/fs/cgroup", "-maxdepth", "8", "-type", "d", "-name"])
        .arg(format!("referee-{pid}"))
        .stderr(Stdio::null())
        .output()
        .unwrap();
    String::from_utf8_lossy(&found.stdout)
        .lines()
        .map(String::from)
        .collect()
}

/// Runs the grade, sends `signals` (with `pause` between them) once the
/// first submission is done, and checks what an interruption must leave:
/// the exit code, reports of every student with some graded and some
/// not, nothing in the temporary folder or the control groups; then the
/// same command finishes the class with the uninterrupted run's scores.
fn stopped_by(signals: &[libc::c_int], pause: Duration, code: i32) {
    stopped(signals, pause, code, None);
}

/// As [`stopped_by`]; with `children_first`, the first signal reaches
/// every process under referee (its compilers, students' programs) that
/// long before referee, as a job runner's one sweep over a job can.
fn stopped(signals: &[libc::c_int], pause: Duration, code: i32, children_first: Option<Duration>) {
    let expected = uninterrupted();
    let setup = Setup::new();
    let out = setup.out();
    let mut child = setup
        .command(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let lines = BufReader::new(child.stderr.take().unwrap());
    let signals = signals.to_vec();
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut sent = false;
        for line in lines.lines().map_while(Result::ok) {
            if !sent && line.starts_with(&format!("[1/{STUDENTS}]")) {
                for (i, signal) in signals.iter().enumerate() {
                    if i > 0 {
                        std::thread::sleep(pause);
                    } else if let Some(lead) = children_first {
                        for child in common::attack::descendants(pid) {
                            // SAFETY: signalling our child's processes.
                            unsafe { libc::kill(child as libc::pid_t, *signal) };
                        }
                        std::thread::sleep(lead);
                    }
                    // SAFETY: signalling our own child.
                    unsafe { libc::kill(pid as libc::pid_t, *signal) };
                }
                sent = true;
            }
            seen.push(line);
        }
        seen.join("\n")
    });
    let status = child
        .wait_timeout(Duration::from_secs(120))
        .unwrap()
        .expect("grade stops");
    let err = reader.join().unwrap();
    assert_eq!(status.code(), Some(code), "{err}");
    let interrupted = scores(&out);
    assert_eq!(
        interrupted.len(),
        STUDENTS,
        "every student is in the reports: {err}"
    );
    let graded: Vec<&String> = interrupted
        .iter()
        .filter(|(_, (status, _))| status == "graded")
        .map(|(id, _)| id)
        .collect();
    let waiting = interrupted
        .values()
        .filter(|(status, _)| status == "not-graded")
        .count();
    assert!(!graded.is_empty() && waiting > 0, "{interrupted:?}\n{err}");
    assert_eq!(graded.len() + waiting, STUDENTS, "{interrupted:?}");
    for id in graded {
        assert_eq!(
            interrupted[id], expected[id],
            "{id} was graded as one run grades it"
        );
    }
    assert!(err.contains("Run the same command again"), "{err}");
    let left: Vec<_> = fs::read_dir(&setup.tmp).unwrap().flatten().collect();
    assert!(left.is_empty(), "the temporary folder is empty: {left:?}");
    assert_eq!(
        groups_of(pid),
        Vec::<String>::new(),
        "no control group is left"
    );
    // The same command grades the rest.
    let again = setup.command(&out).output().unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(&scores(&out), expected);
}

#[test]
fn one_sigterm_finishes_the_submissions_in_progress_and_stops() {
    stopped_by(&[libc::SIGTERM], Duration::ZERO, 143);
}

#[test]
fn a_sigterm_that_reaches_the_programs_before_referee_changes_no_grade() {
    stopped(
        &[libc::SIGTERM],
        Duration::ZERO,
        143,
        Some(Duration::from_millis(50)),
    );
}

#[test]
fn a_second_sigterm_stops_the_runs_in_progress() {
    stopped_by(
        &[libc::SIGTERM, libc::SIGTERM],
        Duration::from_millis(100),
        143,
    );
}

#[test]
fn sigint_twice_at_once_as_timeout_sends_it() {
    stopped_by(&[libc::SIGINT, libc::SIGINT], Duration::ZERO, 130);
}

#[test]
fn an_out_folder_left_by_sigkill_is_resumed() {
    let expected = uninterrupted();
    let setup = Setup::new();
    let out = setup.out();
    let mut child = setup
        .command(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let started = lines.any(|l| l.is_ok_and(|l| l.starts_with(&format!("[1/{STUDENTS}]"))));
    assert!(started, "grading started");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !out.join("results.json").exists(),
        "killed before any report was written"
    );
    let again = setup.command(&out).output().unwrap();
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{err}");
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("unchanged since the last run"),
        "{err}"
    );
    assert_eq!(&scores(&out), expected);
    // What was graded before the kill was kept, not graded again.
    let unchanged = String::from_utf8_lossy(&again.stdout)
        .split(" unchanged since")
        .next()
        .and_then(|s| s.rsplit('(').next())
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap();
    assert!(unchanged >= 1, "{}", String::from_utf8_lossy(&again.stdout));
}

#[test]
fn what_a_killed_referee_left_in_the_temporary_folder_goes_with_the_next_one() {
    let setup = Setup::new();
    let names = || -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&setup.tmp)
            .unwrap()
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    };
    // The built-in suite (no --cases): written out to the temporary folder.
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["grade", "--game", "connect4", "--jobs", "1", "--out"])
        .arg(setup.out())
        .arg(&setup.class)
        .env("TMPDIR", &setup.tmp)
        .current_dir(setup.work.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let both = |names: &[String]| {
        names.iter().any(|n| n.starts_with("referee-cases-"))
            && names
                .iter()
                .any(|n| n.starts_with("referee-") && !n.starts_with("referee-cases-"))
    };
    while !both(&names()) {
        assert!(start.elapsed() < Duration::from_secs(60), "{:?}", names());
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left = names();
    assert_eq!(left.len(), 2, "{left:?}");
    for name in &left {
        let lock = setup.tmp.join(name).join(".lock");
        assert!(lock.is_file(), "{name} has a .lock");
        let aged = Command::new("touch")
            .args(["-c", "-d", "2 minutes ago"])
            .arg(setup.tmp.join(name).join(".lock"))
            .status()
            .unwrap();
        assert!(aged.success());
    }
    let doctor = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("doctor")
        .env("TMPDIR", &setup.tmp)
        .output()
        .unwrap();
    assert!(doctor.status.success(), "{doctor:?}");
    assert_eq!(names(), Vec::<String>::new(), "both are gone");
}
