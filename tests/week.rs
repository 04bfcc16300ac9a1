//! A TA's week with referee: each situation that once lost or misstated
//! a result, reproduced. A full disk during a rerun, Ctrl-C in the middle
//! of a class, names from learning systems, a compiled binary beside its
//! source, C++ and `.C` files, a looping program, stale output folders, a binary
//! copied away from its source tree, and the messages for bad arguments.

mod common;

use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::*;
use serde_json::Value;
use wait_timeout::ChildExt;

fn referee() -> &'static str {
    env!("CARGO_BIN_EXE_referee")
}

fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    fs::copy(from, to).unwrap();
}

fn correct_c() -> PathBuf {
    test_file("fixtures/connect4/correct.c")
}

/// `referee grade` of `class` on `cases` into `out`, from `dir`.
fn connect4_cases(dir: &Path) -> PathBuf {
    small_suite(
        "connect4",
        dir,
        &["seed-example-1", "seed-example-2", "invalid-column-full"],
    )
}

/// A shell command run in a private mount namespace (as root, or as an
/// ordinary user through a user namespace), so that it can mount a
/// tmpfs of its own without touching the machine's folders.
fn in_mount_namespace(script: &str) -> Output {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let mut command = Command::new("unshare");
    if !root {
        command.arg("--map-root-user");
    }
    command
        .args(["--mount", "--propagation", "private", "sh", "-c", script])
        .stdin(Stdio::null())
        .output()
        .expect("unshare (util-linux) runs")
}

#[test]
fn a_full_disk_leaves_the_previous_reports_intact() {
    let work = tempfile::tempdir().unwrap();
    let cases = connect4_cases(work.path());
    let class = work.path().join("class");
    copy(&correct_c(), &class.join("alice.c"));
    copy(
        &test_file("fixtures/connect4/bugs/missed-diagonal.c"),
        &class.join("bob.c"),
    );
    let disk = work.path().join("disk");
    fs::create_dir(&disk).unwrap();
    let out = disk.join("out");
    let run = |extra: &str| {
        format!(
            "'{referee}' grade --game connect4 --cases '{cases}' --out '{out}' {extra} '{class}'",
            referee = referee(),
            cases = cases.display(),
            out = out.display(),
            class = class.display()
        )
    };
    let w = work.path().display();
    let script = format!(
        "set -e
         mount -t tmpfs -o size=400k referee-test '{disk}'
         {first} > '{w}/first.out' 2>&1
         cp '{out}/results.json' '{w}/before.json'
         ls -R '{out}' > '{w}/before.ls'
         dd if=/dev/zero of='{disk}/filler' bs=1k 2>/dev/null || true
         set +e
         {second} > '{w}/second.out' 2> '{w}/second.err'
         echo $? > '{w}/second.code'
         cp '{out}/results.json' '{w}/after.json'
         ls -R '{out}' > '{w}/after.ls'",
        disk = disk.display(),
        out = out.display(),
        first = run(""),
        second = run("--force"),
    );
    let ran = in_mount_namespace(&script);
    assert!(
        ran.status.success(),
        "{}{}\n{}",
        stdout(&ran),
        stderr(&ran),
        fs::read_to_string(work.path().join("first.out")).unwrap_or_default()
    );
    let code = fs::read_to_string(work.path().join("second.code")).unwrap();
    let err = fs::read_to_string(work.path().join("second.err")).unwrap();
    assert_eq!(code.trim(), "2", "the rerun on a full disk fails: {err}");
    assert!(
        err.contains("No space left") && err.contains("the previous reports are as they were"),
        "{err}"
    );
    // The previous set is whole: the same results, the same files.
    let before = read_json(&work.path().join("before.json"));
    let after = read_json(&work.path().join("after.json"));
    assert_eq!(before, after);
    assert_eq!(
        fs::read_to_string(work.path().join("before.ls")).unwrap(),
        fs::read_to_string(work.path().join("after.ls")).unwrap()
    );
    assert!(fs::read_dir(&disk).is_ok(), "the tmpfs was the test's own");
    assert!(
        !disk.join("filler").exists(),
        "mounted in its own namespace"
    );
}

/// A class of `students` in `dir`/class, each taking about a second: a
/// program that waits 0.3 s on every case (long enough for a signal to
/// land in the middle of the class, short enough that grading the rest
/// again costs seconds).
fn slow_class(dir: &Path, students: usize) -> PathBuf {
    let class = dir.join("class");
    let slow = dir.join("slow.c");
    fs::write(
        &slow,
        "#include <unistd.h>\nint main(void) { usleep(300000); return 0; }\n",
    )
    .unwrap();
    for i in 1..=students {
        copy(&slow, &class.join(format!("student{i:02}.c")));
    }
    class
}

#[test]
fn an_interrupted_class_is_reported_as_it_is() {
    let work = tempfile::tempdir().unwrap();
    let cases = connect4_cases(work.path());
    let class = slow_class(work.path(), 12);
    let out = work.path().join("out");
    let args = [
        "grade",
        "--game",
        "connect4",
        "--cases",
        cases.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "1",
        class.to_str().unwrap(),
    ];
    let mut child = Command::new(referee())
        .args(args)
        .current_dir(work.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let stderr_lines = BufReader::new(child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut sent = false;
        for line in stderr_lines.lines().map_while(Result::ok) {
            if !sent && line.starts_with("[2/12]") {
                // SAFETY: signalling our own child.
                unsafe { libc::kill(pid, libc::SIGINT) };
                sent = true;
            }
            seen.push(line);
        }
        seen
    });
    let status = child
        .wait_timeout(Duration::from_secs(120))
        .unwrap()
        .expect("grade stops after Ctrl-C");
    let err = reader.join().unwrap().join("\n");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut text).unwrap();
    assert_eq!(status.code(), Some(130), "{text}{err}");
    let results = read_json(&out.join("results.json"));
    let list = results["submissions"].as_array().unwrap();
    assert_eq!(list.len(), 12, "every student is in the reports");
    let waiting: Vec<&Value> = list
        .iter()
        .filter(|s| s["status"] == "not-graded")
        .collect();
    let graded = list.iter().filter(|s| s["status"] == "graded").count();
    assert!(graded >= 2 && !waiting.is_empty(), "{results}");
    assert_eq!(graded + waiting.len(), 12);
    // The summary says what happened, and names who is left.
    assert!(
        text.contains(&format!(
            "{graded} graded, {} not graded yet (interrupted).",
            waiting.len()
        )),
        "{text}"
    );
    assert!(text.contains("students with a score"), "{text}");
    assert!(!text.contains("Graded 12"), "{text}");
    assert!(
        err.contains(&format!(
            "{} of 12 submissions not graded yet",
            waiting.len()
        )),
        "{err}"
    );
    let gradebook = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    for s in &waiting {
        let id = s["id"].as_str().unwrap();
        assert!(text.contains(id), "{id} is not listed: {text}");
        assert!(s["score"].is_null(), "{s}");
        let row = gradebook.lines().find(|l| l.starts_with(id)).unwrap();
        assert_eq!(
            row,
            format!("{id},{id},,,3.125,not-graded,,,,,"),
            "no score shown"
        );
        for ext in ["md", "html"] {
            let page = fs::read_to_string(out.join(format!("feedback/{id}.{ext}"))).unwrap();
            assert!(page.contains("not been graded yet"), "{page}");
            assert!(!page.contains("points"), "no score on {id}'s page: {page}");
        }
    }
    // Run again: what was graded is kept, the rest is graded.
    let again = referee_in(work.path(), &args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&again).contains(&format!("({graded} unchanged since the last run)")),
        "{}",
        stdout(&again)
    );
    let results = read_json(&out.join("results.json"));
    assert!(results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["status"] == "graded"));
}

#[test]
fn names_from_learning_systems_stay_readable_and_keep_their_ids() {
    let work = tempfile::tempdir().unwrap();
    let cases = connect4_cases(work.path());
    let class = work.path().join("class");
    let c = correct_c();
    copy(
        &c,
        &class.join("Zoë Müller_123_assignsubmission_file_/lab6.c"),
    );
    copy(
        &c,
        &class.join("José García_124_assignsubmission_file_lab6.c"),
    );
    copy(&c, &class.join("李雷_125_assignsubmission_file_/lab6.c"));
    copy(&c, &class.join("smithjohn_12345_67890_lab6.c"));
    copy(&c, &class.join("Zoe Muller.c"));
    let out = work.path().join("out");
    let run = grade_connect4(work.path(), &cases, &out, &[], &class);
    assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
    let results = read_json(&out.join("results.json"));
    // The same name twice: numbered, in path order.
    assert_eq!(student(&results, "Zoe-Muller")["name"], "Zoe Muller");
    let zoe = student(&results, "Zoe-Muller-2");
    assert_eq!(zoe["name"], "Zoë Müller");
    assert_eq!(zoe["lms"]["system"], "moodle");
    assert_eq!(zoe["lms"]["id"], "123");
    assert_eq!(student(&results, "Jose-Garcia")["lms"]["id"], "124");
    assert_eq!(student(&results, "李雷")["lms"]["id"], "125");
    assert_eq!(student(&results, "smithjohn")["lms"]["id"], "12345");
    assert!(out.join("feedback/李雷.html").is_file());
    assert!(out.join("feedback/Zoe-Muller-2.md").is_file());
    let gradebook = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert!(
        gradebook.contains("Jose-Garcia,José García,124,3.125,3.125,graded,"),
        "{gradebook}"
    );
    assert!(
        gradebook.contains("smithjohn,smithjohn,12345,3.125,3.125,graded,"),
        "{gradebook}"
    );
    // Moodle's grading worksheet, as its upload takes it.
    let sheet = fs::read_to_string(out.join("moodle-grades.csv")).unwrap();
    assert_eq!(
        sheet,
        "Identifier,Full name,Grade,Maximum Grade\r\n\
         Participant 124,José García,3.125,3.125\r\n\
         Participant 123,Zoë Müller,3.125,3.125\r\n\
         Participant 125,李雷,3.125,3.125\r\n"
    );
}

#[test]
fn sources_win_over_binaries_and_ambiguous_sources_are_reported() {
    let work = tempfile::tempdir().unwrap();
    let cases = connect4_cases(work.path());
    let class = work.path().join("class");
    // alice compiled a broken version beside her source: the source wins.
    copy(&correct_c(), &class.join("alice/lab6.c"));
    let compiled = class.join("alice/lab6");
    let gcc = Command::new("gcc")
        .arg("-o")
        .arg(&compiled)
        .arg(test_file("programs/loops-after-first-move.c"))
        .status()
        .unwrap();
    assert!(gcc.success());
    copy(&correct_c(), &class.join("bob/lab6.c"));
    copy(&correct_c(), &class.join("bob/lab6.cpp"));
    // carol's name ends in .C: C++ to g++, or a .c a system renamed.
    copy(&correct_c(), &class.join("carol.C"));
    // erin's C compiles as C++ too, and is graded as such.
    copy(&correct_c(), &class.join("erin.cpp"));
    // dave handed in his compiled program under the source's name.
    copy(&compiled, &class.join("dave.c"));
    let out = work.path().join("out");
    let run = grade_connect4(work.path(), &cases, &out, &[], &class);
    assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
    let results = read_json(&out.join("results.json"));
    let alice = student(&results, "alice");
    assert_eq!(alice["status"], "graded");
    assert_eq!(alice["score"], alice["max_score"], "{alice}");
    let message = |id: &str| {
        let s = student(&results, id);
        assert_eq!(s["status"], "error", "{s}");
        s["message"].as_str().unwrap().to_string()
    };
    let bob = message("bob");
    assert!(
        bob.contains("2 programs") && bob.contains("lab6.cpp"),
        "{bob}"
    );
    assert!(message("carol").contains("rename it to end in .c"));
    let erin = student(&results, "erin");
    assert_eq!(erin["score"], erin["max_score"], "{erin}");
    let dave = message("dave");
    assert!(dave.contains("binary data") && dave.len() < 400, "{dave}");
    // Each of them is in the summary with the reason.
    let text = stdout(&run);
    assert!(text.contains("Could not be graded (3):"), "{text}");
    for id in ["bob", "carol", "dave"] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(id)),
            "{text}"
        );
    }
    let carol = fs::read_to_string(out.join("feedback/carol.md")).unwrap();
    assert!(
        carol.contains("ends in .C") && !carol.contains("use `referee grade`"),
        "{carol}"
    );
}

/// Its cost is three runs of the looper (each its 2 s of processor
/// time), then a second for each other case (its short limit), not the
/// case's whole limit: the class is graded with the looper and without
/// it, and the two times printed.
#[test]
fn one_looping_program_costs_seconds_not_minutes() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    for i in 1..=13 {
        copy(&correct_c(), &class.join(format!("student{i:02}.c")));
    }
    let without = work.path().join("out-without");
    let started = std::time::Instant::now();
    let run = grade_builtin("connect4", work.path(), &without, &[], &class);
    assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
    let alone = started.elapsed();
    copy(
        &test_file("programs/loops-after-first-move.c"),
        &class.join("looper.c"),
    );
    let out = work.path().join("out");
    // The shipped suite, as a TA grades with it.
    let started = std::time::Instant::now();
    let run = grade_builtin("connect4", work.path(), &out, &[], &class);
    let with = started.elapsed();
    assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
    let results = read_json(&out.join("results.json"));
    let looper = student(&results, "looper");
    let cases = looper["cases"].as_array().unwrap();
    assert!(cases.len() > 20, "the whole suite");
    println!(
        "13 students: {:.1} s; with a 14th who loops on all {} cases: {:.1} s",
        alone.as_secs_f64(),
        cases.len(),
        with.as_secs_f64()
    );
    assert!(cases.iter().all(|c| c["verdict"] == "timeout"), "{looper}");
    assert_eq!(
        shortened(looper),
        cases.len() - 3,
        "three runs under the case's own limit, then short ones: {looper}"
    );
    for i in 1..=13 {
        let s = student(&results, &format!("student{i:02}"));
        assert_eq!(s["score"], s["max_score"]);
    }
}

/// How many of a submission's cases ran under their short limit, after
/// its timeouts, and say so.
fn shortened(submission: &serde_json::Value) -> usize {
    let cases = submission["cases"].as_array().unwrap();
    cases
        .iter()
        .filter(|c| {
            let reason = c["reason"].as_str().unwrap();
            assert!(!reason.starts_with("not run"), "every case runs: {reason}");
            reason.contains("rather than the case's own")
        })
        .count()
}

/// A looper graded alone has both workers run its cases side by side
/// (see `share_workers` in src/commands/grade.rs), and fails fast exactly
/// as graded one case at a time: a case that started under its own limit
/// before the third timeout was counted runs again under its short one,
/// as it would have alone.
#[test]
fn a_submission_graded_alone_gets_the_same_grade_from_two_workers_as_from_one() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    copy(
        &test_file("programs/loops-after-first-move.c"),
        &class.join("looper.c"),
    );
    let graded = |jobs: &str| {
        let out = work.path().join(format!("out-{jobs}"));
        let run = grade_builtin("connect4", work.path(), &out, &["--jobs", jobs], &class);
        assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
        without_times(read_json(&out.join("results.json")))["submissions"][0].clone()
    };
    let alone = graded("1");
    let cases = alone["cases"].as_array().unwrap();
    assert_eq!(
        shortened(&alone),
        cases.len() - 3,
        "three timeouts, then short limits"
    );
    let reasons = |s: &serde_json::Value| -> Vec<String> {
        let cases = s["cases"].as_array().unwrap();
        cases
            .iter()
            .map(|c| format!("{}: {}", c["name"], c["reason"]))
            .collect()
    };
    let two = graded("2");
    assert_eq!(reasons(&two), reasons(&alone));
    assert!(two == alone, "the same results, explanations included");
}

#[test]
fn an_out_folder_of_another_run_is_refused_or_replaced_whole() {
    let work = tempfile::tempdir().unwrap();
    let cases = connect4_cases(work.path());
    let class = work.path().join("class");
    copy(&correct_c(), &class.join("alice.c"));
    copy(&correct_c(), &class.join("bob.c"));
    let out = work.path().join("out");
    assert!(grade_connect4(work.path(), &cases, &out, &[], &class)
        .status
        .success());
    let before = fs::read(out.join("results.json")).unwrap();
    // Pentago into a Connect Four folder.
    let pentago_class = work.path().join("pentago");
    for id in ["carol", "dave"] {
        copy(
            &test_file("fixtures/pentago/correct.c"),
            &pentago_class.join(format!("{id}.c")),
        );
    }
    let pentago_cases = small_suite("pentago", work.path(), &["seed-sample-run"]);
    let pentago = |extra: &[&str]| {
        grade_game(
            "pentago",
            work.path(),
            &pentago_cases,
            &out,
            extra,
            &pentago_class,
        )
    };
    let refused = pentago(&[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("they are for connect4, not pentago")
            && stderr(&refused).contains("--force"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(fs::read(out.join("results.json")).unwrap(), before);
    // A shard into the whole class's folder.
    let shard = grade_connect4(work.path(), &cases, &out, &["--shard", "1/2"], &class);
    assert_eq!(shard.status.code(), Some(2));
    assert!(stderr(&shard).contains("shard 1/2"), "{}", stderr(&shard));
    // With --force, the folder holds the new run and nothing stale.
    let forced = pentago(&["--force"]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    let mut pages: Vec<String> = fs::read_dir(out.join("feedback"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    assert_eq!(pages, ["carol.html", "carol.md", "dave.html", "dave.md"]);
    let details: Vec<_> = fs::read_dir(out.join("details")).unwrap().collect();
    assert_eq!(details.len(), 2);
    assert!(out.join("index.html").is_file());
    // A folder referee did not make is never used.
    let mine = work.path().join("mine");
    fs::create_dir(&mine).unwrap();
    fs::write(mine.join("thesis.tex"), "keep").unwrap();
    let refused = grade_connect4(work.path(), &cases, &mine, &["--force"], &class);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("holds no referee reports"));
    assert_eq!(fs::read_to_string(mine.join("thesis.tex")).unwrap(), "keep");
}

#[test]
fn a_copied_binary_brings_its_suites_and_records_where_it_is_told() {
    let work = tempfile::tempdir().unwrap();
    let bin = work.path().join("bin/referee");
    copy(Path::new(referee()), &bin);
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
    let elsewhere = work.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    copy(&correct_c(), &elsewhere.join("lab6.c"));
    let run = |args: &[&str], input: &str| {
        let mut child = Command::new(&bin)
            .args(args)
            .current_dir(&elsewhere)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let checked = run(&["check", "lab6.c"], "");
    assert!(
        checked.status.success(),
        "{}{}",
        stdout(&checked),
        stderr(&checked)
    );
    assert!(stdout(&checked).contains("seed-example-1"));
    // Recording outside a course folder: into ./cases/<game>, said aloud.
    let recorded = run(
        &[
            "cases",
            "record",
            "connect4",
            "--name",
            "quick-win",
            "--public",
        ],
        "0\n1\n0\n1\n0\n1\n0\n",
    );
    assert!(recorded.status.success(), "{}", stderr(&recorded));
    let file = elsewhere.join("cases/connect4/quick-win.yaml");
    assert!(file.is_file());
    assert!(
        stderr(&recorded).contains(&file.display().to_string()),
        "{}",
        stderr(&recorded)
    );
    assert!(!root().join("cases/connect4/quick-win.yaml").exists());
    // From this folder, check now uses that folder, and says so in its
    // first line.
    let again = run(&["check", "lab6.c"], "");
    assert!(stdout(&again).contains("1 case"), "{}", stdout(&again));
}

#[test]
fn bad_arguments_say_what_to_do() {
    let work = tempfile::tempdir().unwrap();
    let cases = connect4_cases(work.path());
    let class = work.path().join("class");
    copy(&correct_c(), &class.join("alice.c"));
    let out = work.path().join("out");
    let zero = grade_connect4(work.path(), &cases, &out, &["--jobs", "0"], &class);
    assert_eq!(zero.status.code(), Some(2));
    assert!(stderr(&zero).contains("1 or more"), "{}", stderr(&zero));
    let shard = grade_connect4(work.path(), &cases, &out, &["--shard", "3/2"], &class);
    assert_eq!(shard.status.code(), Some(2));
    assert!(
        stderr(&shard).contains("there are 2 shards, numbered 1 to 2"),
        "{}",
        stderr(&shard)
    );
    let file = work.path().join("afile");
    fs::write(&file, "").unwrap();
    let not_folder = grade_connect4(work.path(), &cases, &file, &[], &class);
    assert_eq!(not_folder.status.code(), Some(2));
    assert!(
        stderr(&not_folder).contains("is a file, not a folder"),
        "{}",
        stderr(&not_folder)
    );
    let listed = referee_in(work.path(), &["cases", "list", cases.to_str().unwrap()]);
    assert!(
        stdout(&listed)
            .contains("3 cases (2 public, 1 hidden), 3.125 points (3 public, 0.125 hidden)"),
        "{}",
        stdout(&listed)
    );
}

#[test]
fn what_a_killed_referee_left_is_removed_by_the_next_one() {
    let work = tempfile::tempdir().unwrap();
    let tmp = work.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    fs::set_permissions(&tmp, fs::Permissions::from_mode(0o1777)).unwrap();
    let cases = connect4_cases(work.path());
    let class = slow_class(work.path(), 3);
    let out = work.path().join("out");
    let mut killed = Command::new(referee())
        .args(["grade", "--game", "connect4", "--jobs", "1", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .arg(&class)
        .env("TMPDIR", &tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(killed.stderr.take().unwrap()).lines();
    // Killed in the middle of a run, where nothing can clean up.
    let started = lines.any(|l| l.is_ok_and(|l| l.starts_with("[1/3]")));
    assert!(started, "grading started");
    killed.kill().unwrap();
    killed.wait().unwrap();
    let left = referee_folders(&tmp);
    assert_eq!(left.len(), 1, "the killed referee's folder stays: {left:?}");
    // A folder a living referee holds (here: this test holds its lock),
    // and one a referee has just made, are not touched.
    let alive = tmp.join("referee-alive");
    fs::create_dir(&alive).unwrap();
    let held = fs::File::create(alive.join(".lock")).unwrap();
    // SAFETY: locking a file this test opened.
    assert_eq!(
        unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&held), libc::LOCK_EX) },
        0
    );
    let aged = |dir: &str| {
        let lock = tmp.join(dir).join(".lock");
        let touched = Command::new("touch")
            .args(["-d", "2 minutes ago"])
            .arg(&lock)
            .status()
            .unwrap();
        assert!(touched.success());
    };
    aged(&left[0]);
    aged("referee-alive");
    let fresh = tmp.join("referee-fresh");
    fs::create_dir(&fresh).unwrap();
    fs::write(fresh.join(".lock"), "").unwrap();
    let doctor = Command::new(referee())
        .arg("doctor")
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    assert!(doctor.status.success(), "{doctor:?}");
    assert_eq!(
        referee_folders(&tmp),
        ["referee-alive", "referee-fresh"],
        "only the killed referee's folder is gone"
    );
    drop(held);
}
