//! Class folders as students leave them, hostile ones included: referee
//! never follows a student's link nor opens a student's special file
//! outside the sandbox. Every such entry is a student in every report,
//! with the reason, and nothing it points to reaches any output.

mod common;

use std::ffi::CString;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;
use serde_json::Value;
use wait_timeout::ChildExt;

const CASE_CANARY: &str = "CANARY-7f3a-hidden-case";
const ENV_CANARY: &str = "CANARY-91bd-environment";

fn mkfifo(path: &Path) {
    let c = CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo with a valid, NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn links_and_special_files_are_students_with_a_reason_never_followed() {
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite("connect4", work.path(), &["seed-example-1"]);
    // A hidden case of another suite (one of the graded suite is in the
    // TAs' reports by design).
    let secret = work.path().join("secret-cases");
    fs::create_dir(&secret).unwrap();
    let hidden = secret.join("secret-case.yaml");
    fs::write(
        &hidden,
        format!("description: {CASE_CANARY}\ninput: |\n  {CASE_CANARY}\n"),
    )
    .unwrap();
    let class = work.path().join("class");
    fs::create_dir(&class).unwrap();
    fs::copy(
        test_file("fixtures/connect4/correct.c"),
        class.join("alice.c"),
    )
    .unwrap();
    symlink(&hidden, class.join("bob.c")).unwrap();
    symlink("/proc/self/environ", class.join("eve.c")).unwrap();
    symlink("/etc/shadow", class.join("mallory.c")).unwrap();
    mkfifo(&class.join("fifo.c"));
    symlink("/dev/zero", class.join("zero.c")).unwrap();
    symlink(class.join("nowhere.c"), class.join("broken.c")).unwrap();
    symlink(&cases, class.join("linked-folder")).unwrap();
    let trudy = class.join("trudy");
    fs::create_dir(&trudy).unwrap();
    fs::copy(
        test_file("fixtures/connect4/correct.c"),
        trudy.join("lab6.c"),
    )
    .unwrap();
    symlink(".", trudy.join("a")).unwrap();
    symlink(".", trudy.join("b")).unwrap();
    symlink("/dev/zero", trudy.join("notes.txt")).unwrap();

    let out = work.path().join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["grade", "--game", "connect4", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .arg(&class)
        .env("REFEREE_TEST_SECRET", ENV_CANARY)
        .current_dir(work.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = child
        .wait_timeout(Duration::from_secs(120))
        .unwrap()
        .unwrap_or_else(|| {
            let _ = child.kill();
            panic!("grade did not finish: it blocked on a FIFO or looped on a link")
        });
    let output = child.wait_with_output().unwrap();
    assert!(status.success(), "{}{}", stdout(&output), stderr(&output));
    let text = stdout(&output);
    let results: Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let expected = [
        ("bob", "symbolic link"),
        ("eve", "symbolic link"),
        ("mallory", "symbolic link"),
        ("fifo", "FIFO"),
        ("zero", "symbolic link"),
        ("broken", "symbolic link"),
        ("linked-folder", "symbolic link"),
        ("trudy", "notes.txt is a symbolic link"),
    ];
    let gradebook = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    for (id, why) in expected {
        let s = results["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("{id} is missing from results.json"));
        assert_eq!(s["status"], "error", "{s}");
        let message = s["message"].as_str().unwrap();
        assert!(message.contains(why), "{id}: {message}");
        assert!(
            gradebook.lines().any(|l| l.starts_with(&format!("{id},"))),
            "{id} is not in the gradebook"
        );
        let page = fs::read_to_string(out.join(format!("feedback/{id}.md"))).unwrap();
        assert!(page.contains(why), "{id}'s feedback: {page}");
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(id) && l.contains(why)),
            "{id} is not in the summary:\n{text}"
        );
    }
    let trudy = results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "trudy")
        .unwrap();
    let message = trudy["message"].as_str().unwrap();
    for name in ["a is a symbolic link", "b is a symbolic link"] {
        assert!(message.contains(name), "{message}");
    }
    assert!(text.contains("Could not be graded (8):"), "{text}");
    let alice = results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "alice")
        .unwrap();
    assert_eq!(alice["score"], alice["max_score"]);
    // Nothing any link points to reached any output.
    let mut outputs = all_files(&out);
    outputs.push(("stdout".into(), output.stdout.clone()));
    outputs.push(("stderr".into(), output.stderr.clone()));
    for (path, bytes) in outputs {
        let text = String::from_utf8_lossy(&bytes);
        for canary in [CASE_CANARY, ENV_CANARY, "root:"] {
            assert!(!text.contains(canary), "{canary} in {}", path.display());
        }
    }
}

#[test]
fn a_link_named_on_the_command_line_is_refused_too() {
    let work = tempfile::tempdir().unwrap();
    let link = work.path().join("bob.c");
    symlink("/etc/shadow", &link).unwrap();
    let out = referee_in(work.path(), &["check", "--game", "connect4", "bob.c"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("bob.c is a symbolic link"),
        "{}",
        stderr(&out)
    );
    assert!(!stdout(&out).contains("root:") && !stderr(&out).contains("root:"));
}
