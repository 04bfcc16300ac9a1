//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file under `tests/`.
pub fn test_file(relative: &str) -> PathBuf {
    root().join("tests").join(relative)
}

/// Runs the referee binary with `args` in `dir`, without colour.
pub fn referee_in(dir: &Path, args: &[&str]) -> Output {
    referee_with(dir, args, &[])
}

/// Runs the referee binary with extra environment variables.
pub fn referee_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = referee_at(dir, args);
    command.env_remove("NO_COLOR");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("referee starts")
}

/// The referee binary with `args`, in `dir`, reading nothing.
fn referee_at(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command.args(args).current_dir(dir).stdin(Stdio::null());
    command
}

/// The peak resident memory (VmHWM) of process `pid` itself so far, in
/// KiB: its programs' memory is theirs, not counted.
pub fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Runs the referee binary with `args` in `dir` (its output thrown
/// away), and its own peak resident memory in KiB: VmHWM, read every
/// 2 ms until it ends (it only grows, so the last reading is the peak
/// up to a few milliseconds before the end).
pub fn referee_peak_kib(dir: &Path, args: &[&str]) -> (std::process::ExitStatus, u64) {
    let mut child = referee_at(dir, args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("referee starts");
    let mut peak = 0;
    loop {
        if let Some(kib) = vm_hwm_kib(child.id()) {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().expect("referee can be waited for") {
            return (status, peak);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// `referee grade --game connect4 --cases CASES --out OUT EXTRA.. CLASS`
/// in `dir`.
pub fn grade_connect4(
    dir: &Path,
    cases: &Path,
    out: &Path,
    extra: &[&str],
    class: &Path,
) -> Output {
    grade_game("connect4", dir, cases, out, extra, class)
}

/// `referee grade --game GAME --out OUT EXTRA.. CLASS` in `dir`: the
/// game's built-in suite, as a TA grades with it.
pub fn grade_builtin(game: &str, dir: &Path, out: &Path, extra: &[&str], class: &Path) -> Output {
    let mut args = vec!["grade", "--game", game, "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.push(class.to_str().unwrap());
    referee_in(dir, &args)
}

/// `referee grade --game GAME --cases CASES --out OUT EXTRA.. CLASS` in
/// `dir`.
pub fn grade_game(
    game: &str,
    dir: &Path,
    cases: &Path,
    out: &Path,
    extra: &[&str],
    class: &Path,
) -> Output {
    let mut args = vec![
        "grade",
        "--game",
        game,
        "--cases",
        cases.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.push(class.to_str().unwrap());
    referee_in(dir, &args)
}

/// A student's entry in a results.json (a test's failure names the
/// student and shows the results).
pub fn student<'a>(results: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {results}"))
}

/// A JSON file, read and parsed (a test's failure names the file).
pub fn read_json(path: &Path) -> serde_json::Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `value` without what changes from run to run: every `wall_ms`.
pub fn without_times(mut value: serde_json::Value) -> serde_json::Value {
    match &mut value {
        serde_json::Value::Object(map) => {
            map.remove("wall_ms");
            for v in map.values_mut() {
                *v = without_times(v.take());
            }
        }
        serde_json::Value::Array(items) => {
            for v in items.iter_mut() {
                *v = without_times(v.take());
            }
        }
        _ => {}
    }
    value
}

/// The `referee-*` working folders in `tmp`, sorted.
pub fn referee_folders(tmp: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("referee-"))
        .collect();
    names.sort();
    names
}

/// stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A case folder for `game` in a fresh temporary folder, with `suite`
/// extra lines in suite.yaml and the given case files.
pub fn suite(game: &str, suite_extra: &str, cases: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::write(
        dir.path().join("suite.yaml"),
        format!("game: {game}\n{suite_extra}"),
    )
    .unwrap();
    for (name, text) in cases {
        fs::write(dir.path().join(format!("{name}.yaml")), text).unwrap();
    }
    dir
}

/// A few cases of a game's shipped suite, with quick limits, in `dir`: a
/// class test needs every kind of case, not every case.
pub fn small_suite(game: &str, dir: &Path, cases: &[&str]) -> PathBuf {
    let from = root().join("cases").join(game);
    let to = dir.join(format!("cases-{game}"));
    fs::create_dir_all(&to).unwrap();
    let suite = fs::read_to_string(from.join("suite.yaml"))
        .unwrap()
        .replace("timeout: 5s", "timeout: 2s")
        .replace("cpu: 2s", "cpu: 1s");
    fs::write(to.join("suite.yaml"), suite).unwrap();
    for case in cases {
        fs::copy(
            from.join(format!("{case}.yaml")),
            to.join(format!("{case}.yaml")),
        )
        .unwrap();
    }
    to
}

/// Every file under `dir`, recursively, as (path, contents).
pub mod attack;
/// A class whose results carry diagnoses.
pub mod diagnosed;

pub fn all_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return found;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let meta = fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            found.extend(all_files(&path));
        } else if meta.is_file() {
            found.push((path.clone(), fs::read(&path).unwrap()));
        }
    }
    found
}

/// A results.json (a class's, or Gradescope's) without what differs from
/// run to run or by place: times and paths. For comparing a grade made
/// one way with the same grade made another.
pub fn comparable_results(file: &Path) -> serde_json::Value {
    let text =
        fs::read_to_string(file).unwrap_or_else(|e| panic!("{} is not there: {e}", file.display()));
    let mut value: serde_json::Value = serde_json::from_str(&text).expect("the results parse");
    strip_times_and_paths(&mut value);
    value
}

fn strip_times_and_paths(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for key in ["wall_ms", "path", "execution_time"] {
                map.remove(key);
            }
            // A sanitizer's own words differ by place: AddressSanitizer
            // names the local variable a stack overrun hit only where it
            // can read /proc/self/maps (a container, not the minimal
            // root). The kind, the line, the function, the case and the
            // input line are compared.
            if let Some(serde_json::Value::Array(found)) = map.get_mut("diagnostics") {
                for d in found.iter_mut().filter_map(|d| d.as_object_mut()) {
                    d.remove("message");
                }
            }
            map.values_mut().for_each(strip_times_and_paths);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_times_and_paths),
        _ => {}
    }
}

/// `referee grade --cases CASES --out OUT CLASS` in `work`, which must
/// succeed: its results.json.
pub fn grade_class(work: &Path, cases: &Path, out: &Path, class: &Path) -> serde_json::Value {
    grade_class_with(work, cases, out, class, &[], &[])
}

/// [`grade_class`] with `extra` arguments before the class and `env`
/// set for referee.
pub fn grade_class_with(
    work: &Path,
    cases: &Path,
    out: &Path,
    class: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> serde_json::Value {
    let mut args = vec![
        "grade",
        "--cases",
        cases.to_str().expect("a UTF-8 path"),
        "--out",
        out.to_str().expect("a UTF-8 path"),
    ];
    args.extend(extra);
    args.push(class.to_str().expect("a UTF-8 path"));
    let done = referee_with(work, &args, env);
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    read_json(&out.join("results.json"))
}

/// The autograder zip of gradescope/README.md, made from a fresh clone of
/// this repository with the README's own commands: `place` puts what the
/// zip takes from a build into the clone first, and the README's lines
/// that name `leave_out` (the other way of adding referee) are not run.
pub fn autograder_zip(work: &Path, place: &dyn Fn(&Path), leave_out: &str) -> PathBuf {
    let clone = work.join("clone");
    let cloned = std::process::Command::new("git")
        .args(["clone", "--quiet"])
        .arg(root())
        .arg(&clone)
        .status()
        .expect("git runs");
    assert!(cloned.success(), "the repository could not be cloned");
    place(&clone);
    let readme = fs::read_to_string(clone.join("gradescope/README.md")).unwrap();
    let commands: Vec<&str> = readme
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("zip ") || l.starts_with("rm -f autograder.zip"))
        .filter(|l| !l.contains(leave_out))
        .collect();
    assert!(
        commands.len() >= 3,
        "the README's zip commands: {commands:?}"
    );
    for command in commands {
        let command = command.split("  #").next().unwrap_or(command);
        let ran = std::process::Command::new("bash")
            .args(["-c", command])
            .current_dir(&clone)
            .stdout(Stdio::null())
            .status()
            .expect("bash runs");
        assert!(ran.success(), "{command}");
    }
    clone.join("autograder.zip")
}

/// Asserts that `results` follows the documented results.json schema
/// (docs/results.schema.json), naming each place it does not.
pub fn assert_follows_schema(results: &serde_json::Value) {
    let schema = read_json(&root().join("docs/results.schema.json"));
    let validator = jsonschema::validator_for(&schema).expect("the schema is a schema");
    let errors: Vec<String> = validator
        .iter_errors(results)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "results.json does not follow its schema:\n{}",
        errors.join("\n")
    );
}
