//! C++ submissions: compiled with g++ in the sandbox and graded as C
//! ones are, for the games whose handouts are in C; a class may mix C,
//! C++ and Python; `--cxxflags` and a suite's `compile: {cpp: ...}` reach
//! g++ only, `--cflags` and `compile: {c: ...}` (or the older `flags`)
//! the C compiler only.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    test_file(&format!("fixtures/languages/{name}"))
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Pentago in idiomatic C++, its game told from its text as a C
/// program's is: every case of the shipped suite, hidden ones too, full
/// marks.
#[test]
fn a_cpp_pentago_gets_full_marks() {
    let work = tempfile::tempdir().unwrap();
    let out = referee_in(
        work.path(),
        &[
            "check",
            arg(&fixture("pentago.cpp")),
            "--all",
            "--color",
            "never",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("(pentago, 60 cases)"), "{text}");
    assert!(
        text.contains("Score: 57/57 points. Every case passes."),
        "{text}"
    );
}

/// The cases `check --all` fails for `program`.
fn failed_cases(work: &Path, program: &Path) -> (Vec<String>, String) {
    let out = referee_in(
        work,
        &[
            "check",
            arg(program),
            "--all",
            "--game",
            "connect4",
            "--color",
            "never",
        ],
    );
    let text = stdout(&out);
    let failed = text
        .lines()
        .filter(|l| l.starts_with("  ✗ "))
        .filter_map(|l| l.split_whitespace().nth(1))
        .map(String::from)
        .collect();
    (failed, text)
}

/// Connect Four in C++ with the bug of `connect4/bugs/missed-diagonal.c`
/// loses the points of the very cases the C program with that bug loses,
/// those its `bugs.yaml` entry names among them.
#[test]
fn a_cpp_connect4_with_a_bug_loses_its_points() {
    let work = tempfile::tempdir().unwrap();
    let (cpp, text) = failed_cases(work.path(), &fixture("connect4-missed-diagonal.cpp"));
    let (c, _) = failed_cases(
        work.path(),
        &test_file("fixtures/connect4/bugs/missed-diagonal.c"),
    );
    assert_eq!(cpp, c, "{text}");
    for case in [
        "win-diagonal-from-bottom-left-corner",
        "win-diagonal-to-top-right-corner",
        "seed-example-2",
    ] {
        assert!(cpp.iter().any(|f| f == case), "{case} passes:\n{text}");
    }
    assert!(text.contains("Score: 5/7 points."), "{text}");
}

/// A C++ file that does not compile is a compile error, with g++'s own
/// messages (which name the file as the student named it).
#[test]
fn a_cpp_file_that_does_not_compile_shows_gpps_messages() {
    let work = tempfile::tempdir().unwrap();
    let out = referee_in(
        work.path(),
        &[
            "check",
            arg(&fixture("does-not-compile.cpp")),
            "--game",
            "connect4",
            "--color",
            "never",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(text.contains("does not compile"), "{text}");
    assert!(
        text.contains("does-not-compile.cpp:7:9: error:")
            && text.contains("did you mean 'push_back'?"),
        "{text}"
    );
}

/// One student of each kind, in C, C++ and Python.
fn write_class(class: &Path) {
    fs::create_dir_all(class.join("dave")).unwrap();
    for (to, from) in [
        ("alice.c", test_file("fixtures/connect4/correct.c")),
        ("bob.cpp", fixture("connect4-missed-diagonal.cpp")),
        ("carol.py", fixture("connect4.py")),
        ("dave/lab6.cc", fixture("does-not-compile.cpp")),
        ("erin.C", test_file("fixtures/connect4/correct.c")),
    ] {
        fs::copy(from, class.join(to)).unwrap();
    }
}

/// A class mixing C, C++ and Python, each built and run in its own
/// language; `.C` is refused with what to do; `--cxxflags` is in the
/// rerun fingerprint, and reaches the C++ students only.
#[test]
fn a_class_mixing_c_cpp_and_python_is_graded_each_in_its_language() {
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite(
        "connect4",
        work.path(),
        &["seed-example-1", "seed-example-2", "invalid-column-full"],
    );
    let class = work.path().join("class");
    write_class(&class);
    let grade = |extra: &[&str]| {
        let mut args = vec![
            "grade",
            "--game",
            "connect4",
            "--cases",
            arg(&cases),
            "--out",
            "out",
        ];
        args.extend(extra);
        args.push("class");
        let out = referee_in(work.path(), &args);
        assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
        let results: Value = serde_json::from_str(
            &fs::read_to_string(work.path().join("out/results.json")).unwrap(),
        )
        .unwrap();
        (stdout(&out), results)
    };
    let (text, results) = grade(&[]);
    for full in ["alice", "carol"] {
        let s = student(&results, full);
        assert_eq!(s["status"], "graded", "{full}: {s}");
        assert_eq!(s["score"], s["max_score"], "{full}: {s}");
    }
    let bob = student(&results, "bob");
    assert_eq!(bob["status"], "graded", "{bob}");
    let verdict = |s: &Value, case: &str| {
        s["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == case)
            .map(|c| c["verdict"].as_str().unwrap().to_string())
    };
    assert_ne!(verdict(bob, "seed-example-2").as_deref(), Some("pass"));
    assert_eq!(verdict(bob, "seed-example-1").as_deref(), Some("pass"));
    let dave = student(&results, "dave");
    assert_eq!(dave["status"], "compile-error", "{dave}");
    let erin = student(&results, "erin");
    assert_ne!(erin["status"], "graded", "{erin}");
    assert!(
        erin["message"]
            .as_str()
            .unwrap()
            .contains("ends in .C, which g++ compiles as C++"),
        "{erin}"
    );
    assert!(
        text.contains("3 graded, 1 does not compile, 1 could not be graded."),
        "{text}"
    );
    let (again, _) = grade(&[]);
    assert!(
        again.contains("(5 unchanged since the last run)"),
        "{again}"
    );
    // C++03 has no constexpr: bob's program no longer compiles, alice's
    // C is compiled as before.
    let (other, results) = grade(&["--cxxflags", "-std=c++03"]);
    assert!(
        other.contains("(0 unchanged since the last run)"),
        "{other}"
    );
    assert_eq!(student(&results, "bob")["status"], "compile-error");
    let alice = student(&results, "alice");
    assert_eq!(alice["score"], alice["max_score"], "{alice}");
    let carol = student(&results, "carol");
    assert_eq!(carol["score"], carol["max_score"], "{carol}");
}

/// Runs `check` on the public cases with `args`; its exit code and
/// output.
fn check(work: &Path, program: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["check", arg(program), "--color", "never"];
    all.extend(args);
    let out = referee_in(work, &all);
    (out.status.code(), stdout(&out) + &stderr(&out))
}

/// `--cxxflags` reaches g++ and not the C compiler; `--cflags` the C
/// compiler and not g++.
#[test]
fn each_languages_flags_reach_its_compiler_only() {
    let work = tempfile::tempdir().unwrap();
    let cpp = fixture("pentago.cpp");
    let c = test_file("fixtures/pentago/correct.c");
    let (code, text) = check(work.path(), &cpp, &["--cxxflags", "-std=c++03"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("does not compile"), "{text}");
    let (code, text) = check(work.path(), &cpp, &["--cflags", "-std=c++03"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = check(work.path(), &c, &["--cxxflags", "-std=c++03"]);
    assert_eq!(code, Some(0), "{text}");
    // C89 has no `//` comments: the C fixture does not compile.
    let strict_c = ["--cflags", "-std=c89 -pedantic-errors"];
    let (code, text) = check(work.path(), &c, &strict_c);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("does not compile"), "{text}");
    let (code, text) = check(work.path(), &cpp, &strict_c);
    assert_eq!(code, Some(0), "{text}");
}

/// A suite's `compile:` sets each language's flags: `cpp` for g++, `c`
/// (or its older name `flags`) for the C compiler; both `c` and `flags`
/// is a mistake, said with what to do.
#[test]
fn a_suites_flags_are_per_language() {
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite("pentago", work.path(), &["seed-sample-run"]);
    let settings = cases.join("suite.yaml");
    let shipped = fs::read_to_string(&settings).unwrap();
    assert!(!shipped.contains("compile:"), "{shipped}");
    let with = |compile: &str| fs::write(&settings, format!("{shipped}{compile}")).unwrap();
    let cases_arg = ["--cases", arg(&cases)];
    let cpp = fixture("pentago.cpp");
    let c = test_file("fixtures/pentago/correct.c");
    with("compile:\n  cpp: [-std=c++03]\n");
    assert_eq!(check(work.path(), &cpp, &cases_arg).0, Some(1));
    assert_eq!(check(work.path(), &c, &cases_arg).0, Some(0));
    for key in ["c", "flags"] {
        with(&format!(
            "compile:\n  {key}: [-std=c89, -pedantic-errors]\n"
        ));
        assert_eq!(check(work.path(), &c, &cases_arg).0, Some(1), "{key}");
        assert_eq!(check(work.path(), &cpp, &cases_arg).0, Some(0), "{key}");
    }
    // The command line's flags replace the suite's, language by language.
    let over = ["--cases", arg(&cases), "--cflags", "-Wall"];
    assert_eq!(check(work.path(), &c, &over).0, Some(0));
    with("compile:\n  c: [-Wall]\n  flags: [-Wall]\n");
    let (code, text) = check(work.path(), &c, &cases_arg);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("suite.yaml: compile: gives both `c` and `flags`")
            && text.contains("keep one of them"),
        "{text}"
    );
}
