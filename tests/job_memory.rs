//! The job's memory is not the student's: a program killed because the
//! group referee runs in (a Slurm job's, a container's) ran out of
//! memory is retried alone and then reported as the grader's error,
//! never judged `memory-limit` or `crashed`; and referee runs only as
//! many workers as that group holds.
//!
//! Needs root on a machine with the version 1 memory hierarchy (as CI
//! and this project's machines have): a group with a limit is made below
//! the test's own, and another process of the "job" holds most of it.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use common::*;
use serde_json::Value;

/// The test's own version 1 memory group, if it may make groups in it.
fn own_memory_group() -> Option<PathBuf> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let cgroup = fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
        names
            .split(',')
            .any(|n| n == "memory")
            .then(|| path.to_string())
    })?;
    let dir = Path::new("/sys/fs/cgroup/memory").join(path.trim_start_matches('/'));
    dir.join("memory.limit_in_bytes").exists().then_some(dir)
}

/// A memory group of `limit` bytes below `parent`, removed when dropped
/// (once the processes in it are gone).
struct Group(PathBuf);

impl Group {
    fn new(parent: &Path, limit: u64) -> Group {
        let dir = parent.join(format!("referee-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("memory.limit_in_bytes"), limit.to_string()).unwrap();
        Group(dir)
    }

    /// `command` started inside the group (through a shell that moves
    /// itself in, then becomes the command).
    fn start(&self, command: &str) -> Command {
        let mut shell = Command::new("sh");
        shell.arg("-c").arg(format!(
            "echo $$ > '{}/cgroup.procs' && exec {command}",
            self.0.display()
        ));
        shell
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        for _ in 0..50 {
            if fs::remove_dir(&self.0).is_ok() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

/// Compiles `source` (C) into `dir`/`name`.
fn compile(dir: &Path, name: &str, source: &str) -> PathBuf {
    let c = dir.join(format!("{name}.c"));
    fs::write(&c, source).unwrap();
    let binary = dir.join(name);
    let built = Command::new("gcc")
        .arg(&c)
        .arg("-o")
        .arg(&binary)
        .status()
        .unwrap();
    assert!(built.success());
    binary
}

/// Another process of the job holding `bytes` of it, which the
/// out-of-memory killer may not pick, so that it picks a run.
const HOG: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    FILE *adj = fopen("/proc/self/oom_score_adj", "w");
    if (adj) { fputs("-1000", adj); fclose(adj); }
    size_t bytes = strtoull(argv[1], NULL, 10);
    char *held = malloc(bytes);
    if (!held) return 1;
    memset(held, 1, bytes);
    puts("holding");
    fflush(stdout);
    pause();
    return 0;
}
"#;

/// Referee's grade of `class`, in `group` when given.
fn grade(
    work: &Path,
    cases: &Path,
    class: &Path,
    out: &str,
    group: Option<&Group>,
) -> (i32, String, Value) {
    let referee = env!("CARGO_BIN_EXE_referee");
    let args = format!(
        "'{referee}' grade --game connect4 --cases '{}' --out '{}' '{}'",
        cases.display(),
        work.join(out).display(),
        class.display()
    );
    let mut command = match group {
        Some(group) => group.start(&args),
        None => {
            let mut shell = Command::new("sh");
            shell.arg("-c").arg(format!("exec {args}"));
            shell
        }
    };
    let ran = command
        .current_dir(work)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let results = fs::read_to_string(work.join(out).join("results.json"))
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or(Value::Null);
    (
        ran.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&ran.stderr).into_owned(),
        results,
    )
}

struct Hog(Child);

impl Drop for Hog {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_run_killed_by_the_jobs_memory_is_the_graders_error_never_the_students() {
    let Some(parent) = own_memory_group() else {
        eprintln!("skipped: needs root and the version 1 memory hierarchy");
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite("connect4", work.path(), &["seed-example-1"]);
    // The suite's own limits, not small_suite's quick ones: on a busy
    // machine, touching 400 MiB could take the hungry program past 1 s of
    // processor time before it reached the job's memory, a timeout that
    // is no part of what this test is about.
    let suite_file = cases.join("suite.yaml");
    let suite = fs::read_to_string(&suite_file)
        .unwrap()
        .replace("timeout: 2s", "timeout: 5s")
        .replace("cpu: 1s", "cpu: 2s");
    fs::write(&suite_file, suite).unwrap();
    let class = work.path().join("class");
    fs::create_dir(&class).unwrap();
    let correct = fs::read_to_string(test_file("fixtures/connect4/correct.c")).unwrap();
    fs::write(class.join("modest.c"), &correct).unwrap();
    // Correct, and within the case's 512 MiB: 400 MiB touched first.
    fs::write(
        class.join("hungry.c"),
        format!(
            "{correct}\n#include <stdlib.h>\n#include <string.h>\n\
             __attribute__((constructor)) static void hungry(void) {{\n\
             char *p = malloc(400 << 20); if (p) memset(p, 1, 400 << 20); }}\n"
        ),
    )
    .unwrap();
    // On a machine with room, both pass.
    let (code, err, plenty) = grade(work.path(), &cases, &class, "plenty", None);
    assert_eq!(code, 0, "{err}");
    let full = student(&plenty, "modest")["score"].clone();
    assert_eq!(student(&plenty, "hungry")["status"], "graded", "{plenty}");
    assert_eq!(student(&plenty, "hungry")["score"], full, "{plenty}");

    // A job of 3 GiB: room for one worker on paper (2.5 GiB each), but
    // another of its processes holds 2.7 GiB, so a run of 400 MiB does
    // not fit.
    let job = Group::new(&parent, 3 << 30);
    let hog_binary = compile(work.path(), "hog", HOG);
    let mut hog = job
        .start(&format!("'{}' {}", hog_binary.display(), 2700u64 << 20))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(hog.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line, "holding\n");
    let hog = Hog(hog);
    let (code, err, tight) = grade(work.path(), &cases, &class, "tight", Some(&job));
    drop(hog);
    assert_eq!(code, 0, "{err}");
    if std::thread::available_parallelism().map_or(1, |n| n.get()) > 1 {
        assert!(
            err.contains("referee: note: running 1 worker instead of"),
            "{err}"
        );
    }
    let hungry = student(&tight, "hungry");
    assert_eq!(hungry["status"], "error", "{hungry}");
    let message = hungry["message"].as_str().unwrap();
    assert!(
        message.contains("the job's memory is too small"),
        "{message}"
    );
    assert!(message.contains("seed-example-1"), "{message}");
    assert_eq!(student(&tight, "modest")["score"], full, "{tight}");
    // Not kept: the same command with enough memory grades it.
    let (code, err, _) = grade(work.path(), &cases, &class, "tight", None);
    assert_eq!(code, 0, "{err}");
    let again: Value =
        serde_json::from_str(&fs::read_to_string(work.path().join("tight/results.json")).unwrap())
            .unwrap();
    assert_eq!(student(&again, "hungry")["score"], full, "{again}");
}

#[test]
fn a_job_too_small_for_one_worker_is_refused_with_what_to_ask_for() {
    let Some(parent) = own_memory_group() else {
        eprintln!("skipped: needs root and the version 1 memory hierarchy");
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite("connect4", work.path(), &["seed-example-1"]);
    let class = work.path().join("class");
    fs::create_dir(&class).unwrap();
    fs::copy(test_file("fixtures/connect4/correct.c"), class.join("a.c")).unwrap();
    let job = Group::new(&parent, 1 << 30);
    let (code, err, results) = grade(work.path(), &cases, &class, "out", Some(&job));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("not enough memory for one worker: 1 GiB may be used here"),
        "{err}"
    );
    assert!(err.contains("--mem=2700M"), "{err}");
    assert_eq!(results, Value::Null, "nothing graded");
}
