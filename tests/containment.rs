//! Containment: hostile and broken submissions graded in one batch next
//! to a correct one. Each gets its verdict, the batch finishes, the
//! correct one keeps full marks, nothing is left running, nothing outside
//! the sandbox is read or written, no connection is made. As root, the
//! same batch is also graded by an unprivileged user.

mod common;

use std::collections::HashMap;
use std::fs;
use std::io::ErrorKind;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// The verdicts each program may get on the one case.
fn expected_verdicts() -> HashMap<&'static str, &'static [&'static str]> {
    HashMap::from([
        ("aaa-correct", &["pass"][..]),
        ("aborts", &["crashed"][..]),
        ("binary-garbage", &["wrong-output"][..]),
        ("busy-loop", &["timeout"][..]),
        ("closes-stdout", &["waiting-for-input", "wrong-output"][..]),
        ("disk-filler", &["crashed", "timeout"][..]),
        ("enormous-line", &["output-limit"][..]),
        ("flood", &["output-limit"][..]),
        ("fork-bomb", &["timeout", "crashed"][..]),
        ("ignores-sigterm", &["timeout"][..]),
        ("memory-bomb", &["memory-limit"][..]),
        ("reads-outside", &["wrong-output"][..]),
        ("segfault", &["crashed"][..]),
        ("setsid-escapee", &["wrong-output"][..]),
        ("sleeps", &["timeout"][..]),
        ("stack-overflow", &["crashed"][..]),
        ("tcp-connect", &["wrong-output"][..]),
        ("uses-root-powers", &["wrong-output"][..]),
    ])
}

fn open_to_all(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// The class: every hostile program (its shared header pasted in, the
/// paths of the outside, cases and class folders filled in) and a
/// correct program.
fn write_class(dir: &Path, outside: &Path, cases: &Path) {
    let hostile = test_file("programs/hostile");
    let header = fs::read_to_string(hostile.join("common.h")).unwrap();
    for entry in fs::read_dir(&hostile).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "c") {
            let source = fs::read_to_string(&path)
                .unwrap()
                .replace("#include \"common.h\"", &header)
                .replace("@OUTSIDE@", outside.to_str().unwrap())
                .replace("@CASES@", cases.to_str().unwrap())
                .replace("@CLASS@", dir.to_str().unwrap());
            fs::write(dir.join(path.file_name().unwrap()), source).unwrap();
        }
    }
    fs::copy(
        test_file("fixtures/connect4/correct.c"),
        dir.join("aaa-correct.c"),
    )
    .unwrap();
}

/// One case with tight limits, so that the batch is quick.
fn write_cases(dir: &Path) {
    fs::write(
        dir.join("suite.yaml"),
        "game: connect4\ndefaults:\n  visibility: public\n  timeout: 2s\n  cpu: 1s\n  output_limit: 256KiB\n  memory: 128MiB\n",
    )
    .unwrap();
    fs::copy(
        root().join("cases/connect4/seed-example-1.yaml"),
        dir.join("seed-example-1.yaml"),
    )
    .unwrap();
}

/// Processes named by the hostile programs still alive.
fn hostile_processes() -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let comm = fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
        let stat = fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('Z'));
        if comm.trim() == "refhostile" && !zombie {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

/// Every file under `dir`, with its contents.
fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push((path.clone(), fs::read(&path).unwrap_or_default()));
        }
    }
    found
}

/// Grades the class, as `user` (a uid) when given, and checks everything.
fn grade_and_check(user: Option<u32>) {
    let work = tempfile::tempdir().unwrap();
    let [class, cases, out, outside] =
        ["class", "cases", "out", "outside"].map(|n| work.path().join(n));
    for dir in [&class, &cases, &out, &outside] {
        fs::create_dir(dir).unwrap();
    }
    // A leftover from an earlier run (with the sandbox off) would be
    // taken for an escape by this one.
    let _ = fs::remove_file("/tmp/referee-escaped.txt");
    let secret = "TOP-SECRET-CANARY-31337";
    fs::write(outside.join("secret.txt"), secret).unwrap();
    fs::write(work.path().join("secret.txt"), secret).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    fs::write(
        outside.join("port"),
        listener.local_addr().unwrap().port().to_string(),
    )
    .unwrap();
    write_class(&class, &outside, &cases);
    write_cases(&cases);
    // Everything readable by the unprivileged user, as a class folder
    // would be; only the output folder writable. The sandbox, not file
    // permissions, must keep the secret.
    for dir in [work.path(), &class, &cases, &outside] {
        open_to_all(dir, 0o755);
    }
    open_to_all(&out, 0o777);
    for (file, _) in files_under(work.path()) {
        open_to_all(&file, 0o644);
    }

    let referee = env!("CARGO_BIN_EXE_referee");
    let mut command = match user {
        Some(uid) => {
            let mut c = Command::new("setpriv");
            c.args([
                format!("--reuid={uid}"),
                format!("--regid={uid}"),
                "--clear-groups".into(),
            ])
            .arg(referee);
            c
        }
        None => Command::new(referee),
    };
    let output = command
        .args(["grade", "--game", "connect4", "--jobs", "2", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .arg(&class)
        .env("HOME", &out)
        .output()
        .expect("referee starts");
    let who = user.map_or("the current user".to_string(), |u| format!("uid {u}"));
    assert!(
        output.status.success(),
        "as {who}: {}{}",
        stdout(&output),
        stderr(&output)
    );

    let results: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let expected = expected_verdicts();
    let submissions = results["submissions"].as_array().unwrap();
    assert_eq!(submissions.len(), expected.len(), "as {who}");
    for submission in submissions {
        let id = submission["id"].as_str().unwrap();
        let verdict = submission["cases"][0]["verdict"].as_str().unwrap_or("none");
        let allowed = expected[id];
        assert!(
            allowed.contains(&verdict),
            "as {who}: {id} got {verdict} ({}), expected one of {allowed:?}",
            submission["cases"][0]["reason"]
        );
    }
    let correct = submissions
        .iter()
        .find(|s| s["id"] == "aaa-correct")
        .unwrap();
    assert_eq!(correct["score"], correct["max_score"], "as {who}");

    assert_eq!(
        hostile_processes(),
        Vec::<String>::new(),
        "as {who}: processes left running"
    );
    for (file, contents) in files_under(&out) {
        let text = String::from_utf8_lossy(&contents);
        assert!(
            !text.contains(secret),
            "as {who}: the secret reached {}",
            file.display()
        );
    }
    let reads = fs::read_to_string(out.join("details/reads-outside.json")).unwrap();
    // Writing into its own private /tmp is allowed; nothing else is.
    let wrote_outside = reads
        .split("\\n")
        .any(|line| line.starts_with("WROTE ") && line != "WROTE /tmp/referee-escaped.txt");
    assert!(
        !reads.contains("READ ") && !wrote_outside,
        "as {who}: {reads}"
    );
    for escaped in [
        outside.join("escaped.txt"),
        PathBuf::from("/tmp/referee-escaped.txt"),
    ] {
        assert!(
            !escaped.exists(),
            "as {who}: {} was written",
            escaped.display()
        );
    }
    match listener.accept() {
        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
        other => panic!("as {who}: a program reached the network: {other:?}"),
    }
    let powers = fs::read_to_string(out.join("details/uses-root-powers.json")).unwrap();
    assert!(
        powers.contains("done") && !powers.contains("POWER "),
        "as {who}: a program kept a privilege: {powers}"
    );
    let garbage = fs::read_to_string(out.join("details/binary-garbage.json")).unwrap();
    assert!(
        !garbage.contains('\u{1b}'),
        "as {who}: a raw escape sequence was kept"
    );
}

#[test]
fn hostile_programs_are_contained() {
    grade_and_check(None);
    // SAFETY: reading the effective uid.
    if unsafe { libc::geteuid() } == 0 {
        grade_and_check(Some(65534));
    }
}

/// `referee doctor` reports every protection, on or off.
#[test]
fn doctor_reports_the_protections() {
    let work = tempfile::tempdir().unwrap();
    let out = referee_in(work.path(), &["doctor"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for what in [
        "waiting for input",
        "processes",
        "fork bombs",
        "memory",
        "file system",
        "files",
        "disk",
        "network",
        "system calls",
    ] {
        assert!(text.contains(what), "{what} missing:\n{text}");
    }
}
