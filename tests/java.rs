//! Java, and languages a suite adds: a class of Java students graded on
//! a suite whose reference is itself in Java (the temperature lab), with
//! every layer of the sandbox this machine has; a file named otherwise
//! than its public class, and a class in a package, run; `javac` missing
//! is said once and costs only the Java students; a suite's own
//! language (JavaScript, with `node`) is built and run in the same
//! sandbox. These use `javac`, `java`, `gcc` and `node` for real.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The temperature lab's suite (its cases, without their pins), with
/// `reference` and `extra` lines in its `suite.yaml`.
fn temperature_suite(dir: &Path, reference: &str, extra: &str) -> PathBuf {
    let suite = dir.join("suite");
    fs::create_dir(&suite).unwrap();
    let example = root().join("examples/temperature");
    for entry in fs::read_dir(&example).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".yaml") && name != "suite.yaml" {
            fs::copy(&path, suite.join(&name)).unwrap();
        }
    }
    let yaml = fs::read_to_string(example.join("suite.yaml")).unwrap();
    let yaml: String = yaml
        .lines()
        .filter(|l| !l.starts_with("generator:"))
        .map(|l| {
            if l.starts_with("reference:") {
                format!("reference: {reference}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    fs::write(suite.join("suite.yaml"), format!("{yaml}{extra}")).unwrap();
    suite
}

/// Pins every case of `suite` from its reference.
fn pin(work: &Path, suite: &Path) {
    for args in [
        &["cases", "update", arg(suite)][..],
        &["cases", "update", "--accept", arg(suite)],
    ] {
        let out = referee_in(work, args);
        assert!(out.status.code().is_some(), "{}", stderr(&out));
    }
    let out = referee_in(work, &["cases", "validate", arg(suite)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

fn results(out: &Path) -> Vec<Value> {
    let json: Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    json["submissions"].as_array().unwrap().clone()
}

fn student<'a>(results: &'a [Value], id: &str) -> &'a Value {
    results
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

fn verdicts(student: &Value) -> Vec<(String, String)> {
    student["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A Java reference prints what the C solution prints, byte for byte
/// (its pins are the shipped ones); a class of Java students graded on
/// it gets the scores a TA would give: the correct one and the one whose
/// file is named otherwise than its public class full marks, the one in
/// a package of two files full marks, integer division the cases it
/// shows in, a file that does not compile javac's message, a loop the
/// time limit, a program asking for a line the case does not have
/// `waiting-for-input`.
#[test]
fn a_class_of_java_students_is_graded_on_a_java_reference() {
    let work = tempfile::tempdir().unwrap();
    let suite = temperature_suite(work.path(), "Solution.java", "");
    fs::copy(
        test_file("fixtures/java/Solution.java"),
        suite.join("Solution.java"),
    )
    .unwrap();
    // A loop costs its time limit on every case: keep it short.
    let yaml = fs::read_to_string(suite.join("suite.yaml")).unwrap();
    fs::write(
        suite.join("suite.yaml"),
        yaml.replace("timeout: 5s", "timeout: 3s"),
    )
    .unwrap();
    pin(work.path(), &suite);
    let example = root().join("examples/temperature");
    for entry in fs::read_dir(&example).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "transcript") {
            let ours = fs::read(suite.join(path.file_name().unwrap())).unwrap();
            assert_eq!(ours, fs::read(&path).unwrap(), "{}", path.display());
        }
    }
    let out_dir = work.path().join("out");
    let out = referee_in(
        work.path(),
        &[
            "grade",
            "--cases",
            arg(&suite),
            "--out",
            arg(&out_dir),
            arg(&test_file("fixtures/java/class")),
        ],
    );
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(out.status.code().is_some(), "{said}");
    let results = results(&out_dir);
    let score = |id: &str| student(&results, id)["score"].as_f64().unwrap();
    for id in ["alice", "carol", "dave"] {
        assert_eq!(score(id), 9.0, "{id}: {said}");
    }
    // What was done for carol's file, and what to rename it, is in her
    // feedback.
    let carol = fs::read_to_string(out_dir.join("feedback/carol.md")).unwrap();
    assert!(
        carol.contains("## A note on building your program:")
            && carol.contains("rename your file TemperatureConverter.java"),
        "{carol}"
    );
    let bob = verdicts(student(&results, "bob"));
    let wrong: Vec<&str> = bob
        .iter()
        .filter(|(_, v)| v != "pass")
        .map(|(c, _)| c.as_str())
        .collect();
    assert_eq!(
        wrong,
        ["body-temperature", "several-conversions"],
        "{bob:?}"
    );
    assert_eq!(score("bob"), 6.0);
    let erin = student(&results, "erin");
    assert_eq!(erin["status"], "compile-error");
    let feedback = fs::read_to_string(out_dir.join("feedback/erin.md")).unwrap();
    assert!(
        feedback.contains("erin.java:3: error: ';' expected"),
        "{feedback}"
    );
    let frank = verdicts(student(&results, "frank"));
    assert!(frank.iter().all(|(_, v)| v == "timeout"), "{frank:?}");
    let gina = verdicts(student(&results, "gina"));
    for (case, verdict) in &gina {
        let expected = if case == "end-of-input" {
            "pass"
        } else {
            "waiting-for-input"
        };
        assert_eq!(verdict, expected, "{case}: {gina:?}");
    }
    assert_eq!(score("gina"), 1.0);
}

/// A file named otherwise than its public class runs, and `check` says
/// what was done and what to rename it; a folder of two files in a
/// package is one program, run by its class's full name.
#[test]
fn a_file_named_otherwise_runs_with_a_note_and_a_package_runs() {
    let work = tempfile::tempdir().unwrap();
    let suite = temperature_suite(work.path(), "solution.c", "");
    fs::copy(
        root().join("examples/temperature/solution.c"),
        suite.join("solution.c"),
    )
    .unwrap();
    pin(work.path(), &suite);
    let carol = test_file("fixtures/java/class/carol.java");
    let out = referee_in(
        work.path(),
        &[
            "check",
            "--cases",
            arg(&suite),
            arg(&carol),
            "--color",
            "never",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains(
            "note: carol.java declares public class TemperatureConverter, which javac compiles \
             only from a file named TemperatureConverter.java; it was compiled as \
             TemperatureConverter.java: rename your file TemperatureConverter.java"
        ),
        "{text}"
    );
    let dave = test_file("fixtures/java/class/dave");
    let out = referee_in(
        work.path(),
        &[
            "check",
            "--all",
            "--cases",
            arg(&suite),
            arg(&dave),
            "--color",
            "never",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("Score: 9/9 points. Every case passes."),
        "{text}"
    );
}

/// A PATH with the C compiler and its tools but no `javac` (links to
/// them in a folder of its own).
fn path_without_javac(dir: &Path) -> String {
    let bin = dir.join("bin");
    fs::create_dir(&bin).unwrap();
    for tool in ["gcc", "cc", "as", "ld", "python3"] {
        let real = Path::new("/usr/bin").join(tool);
        if real.exists() {
            std::os::unix::fs::symlink(fs::canonicalize(&real).unwrap(), bin.join(tool)).unwrap();
        }
    }
    assert!(!bin.join("javac").exists());
    bin.display().to_string()
}

/// Without `javac`, a class of C and Java students is graded: the
/// missing JDK is said once, at the start, with what to install; each
/// Java student is reported with that reason as the grader's error (not
/// a compile error of theirs); the C student's grade is whole.
#[test]
fn javac_missing_is_said_once_and_costs_only_the_java_students() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir(&class).unwrap();
    fs::copy(
        root().join("examples/temperature-class/alice.c"),
        class.join("alice.c"),
    )
    .unwrap();
    for id in ["bob", "carol"] {
        fs::copy(
            test_file(&format!("fixtures/java/class/{id}.java")),
            class.join(format!("{id}.java")),
        )
        .unwrap();
    }
    let path = path_without_javac(work.path());
    let out_dir = work.path().join("out");
    let out = referee_with(
        work.path(),
        &[
            "grade",
            "--cases",
            arg(&root().join("examples/temperature")),
            "--out",
            arg(&out_dir),
            arg(&class),
        ],
        // The folder is shown to the sandbox, where the compiler runs.
        &[("PATH", &path), ("REFEREE_ALLOW_READ", &path)],
    );
    let err = stderr(&out);
    assert!(out.status.code().is_some(), "{err}");
    let warning =
        "referee: warning: no Java compiler found (looked for javac on PATH): install a JDK";
    assert_eq!(err.matches(warning).count(), 1, "{err}");
    let results = results(&out_dir);
    let alice = student(&results, "alice");
    assert_eq!(alice["status"], "graded", "{alice}");
    assert_eq!(alice["score"].as_f64(), Some(9.0), "{alice}");
    for id in ["bob", "carol"] {
        let java = student(&results, id);
        assert_eq!(java["status"], "error", "{java}");
        let message = java["message"].as_str().unwrap_or_default();
        assert!(message.contains("no Java compiler found"), "{java}");
    }
}

/// A suite adds JavaScript (`languages:` with node): a correct program
/// gets full marks in the sandbox, one that does not parse is a compile
/// error with node's message, and `compile: {java: ...}` reaches javac.
#[test]
fn a_suite_adds_a_language_and_sets_javas_flags() {
    let work = tempfile::tempdir().unwrap();
    let languages = "languages:\n  javascript:\n    extensions: [js]\n    build: [node, --check, \"{source}\"]\n    run: [node, \"{source}\"]\n    reserve: 2GiB\ncompile:\n  java: [-Werror, -Xlint:all]\n";
    let suite = temperature_suite(work.path(), "solution.c", languages);
    fs::copy(
        root().join("examples/temperature/solution.c"),
        suite.join("solution.c"),
    )
    .unwrap();
    pin(work.path(), &suite);
    let check = |program: &Path| {
        let out = referee_in(
            work.path(),
            &[
                "check",
                "--all",
                "--cases",
                arg(&suite),
                arg(program),
                "--color",
                "never",
            ],
        );
        (out.status.code(), stdout(&out))
    };
    let (code, text) = check(&test_file("fixtures/javascript/temperature.js"));
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("Score: 9/9 points. Every case passes."),
        "{text}"
    );
    let (code, text) = check(&test_file("fixtures/javascript/broken.js"));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("does not compile") && text.contains("SyntaxError: Unexpected token ';'"),
        "{text}"
    );
    // -Werror with every lint: a raw type is now an error.
    let raw = work.path().join("Raw.java");
    fs::write(
        &raw,
        "import java.util.*;\npublic class Raw { public static void main(String[] a) { List l = new ArrayList(); l.add(1); } }\n",
    )
    .unwrap();
    let (code, text) = check(&raw);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("does not compile") && text.contains("warnings found and -Werror specified"),
        "{text}"
    );
}

/// `referee new` takes a Java reference: the suite it makes names it,
/// and the example case is pinned from what it prints.
#[test]
fn new_takes_a_java_reference() {
    let work = tempfile::tempdir().unwrap();
    let lab = work.path().join("lab2");
    let solution = test_file("fixtures/java/Solution.java");
    let out = referee_in(
        work.path(),
        &[
            "new",
            arg(&lab),
            "--reference",
            arg(&solution),
            "--input",
            "C",
            "--input",
            "100",
            "--input",
            "q",
            "--arg",
            "two words",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let yaml = fs::read_to_string(lab.join("suite.yaml")).unwrap();
    assert!(yaml.contains("reference: Solution.java"), "{yaml}");
    let pinned: String = fs::read_dir(&lab)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "transcript"))
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    assert!(pinned.contains("100.0 C is 212.0 F\n"), "{pinned}");
    // The command as a student types it: the class, not `./lab2`.
    assert!(
        pinned.starts_with("$ java Solution 'two words'\n"),
        "{pinned}"
    );
}

/// A Java program that keeps allocating is stopped by its heap limit
/// (half the case's memory) and fails with Java's own message, within
/// the case's time: the JVM's address space may exceed the memory
/// limit, its memory may not.
#[test]
fn a_java_program_that_hogs_memory_is_stopped() {
    let work = tempfile::tempdir().unwrap();
    let suite = temperature_suite(work.path(), "solution.c", "");
    fs::copy(
        root().join("examples/temperature/solution.c"),
        suite.join("solution.c"),
    )
    .unwrap();
    let yaml = fs::read_to_string(suite.join("suite.yaml")).unwrap();
    fs::write(
        suite.join("suite.yaml"),
        yaml.replace("  points: 1\n", "  points: 1\n  memory: 128MiB\n"),
    )
    .unwrap();
    pin(work.path(), &suite);
    let out = referee_in(
        work.path(),
        &[
            "check",
            "--cases",
            arg(&suite),
            arg(&test_file("fixtures/java/Hog.java")),
            "--color",
            "never",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(text.contains("Score: 0/3 points."), "{text}");
    assert!(
        text.contains("java.lang.OutOfMemoryError: Java heap space"),
        "{text}"
    );
}

/// A suite's language may not take a built-in language's extension: the
/// problem names the line and says what to write instead.
#[test]
fn a_suites_language_may_not_take_a_built_in_extension() {
    let work = tempfile::tempdir().unwrap();
    let extra = "languages:\n  mine:\n    extensions: [.java]\n    run: [\"{program}\"]\n";
    let suite = temperature_suite(work.path(), "solution.c", extra);
    let out = referee_in(work.path(), &["cases", "validate", arg(&suite)]);
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert_ne!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains("suite.yaml:")
            && said.contains(
                "language `mine`: .java is Java's, which referee knows already; to change how \
                 it is compiled, use `compile: {java: [...]}`"
            ),
        "{said}"
    );
}
