//! Programs of several files (issue 46, item 2): a C program of
//! `main.c`, `stats.c` and `stats.h`, a C++ program of `main.cpp`,
//! `stats.cpp` and `stats.hpp`, a Java program of two classes and
//! a Python program of two modules are each one student; what is wrong
//! with a folder (two `main`s, a header missing, a link out of it, an
//! empty folder) is said for that student, and the rest of the class is
//! graded all the same; a suite names the file a program starts from,
//! the files a student must hand in, and gives files of its own, of
//! which a student's copy is not used. Also item 7's loose ends: Java
//! out of heap is `memory-limit`, and several `.java` files given
//! straight to `grade` are one program unless each has its own `main`.
//! These use `gcc`, `javac` and `python3` for real.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The reference: reads how many numbers, then each, and prints their
/// mean and largest.
const REFERENCE: &str = r#"#include <stdio.h>
int main(void) {
    int n;
    printf("How many? ");
    if (scanf("%d", &n) != 1 || n <= 0 || n > 100) { printf("Bad count\n"); return 1; }
    int v[100];
    for (int i = 0; i < n; i++) {
        printf("Number %d: ", i + 1);
        if (scanf("%d", &v[i]) != 1) return 1;
    }
    int sum = 0, max = v[0];
    for (int i = 0; i < n; i++) { sum += v[i]; if (v[i] > max) max = v[i]; }
    printf("Mean: %.2f\nLargest: %d\n", (double)sum / n, max);
    return 0;
}
"#;

const STATS_H: &str = "#ifndef STATS_H\n#define STATS_H\ndouble mean(const int *v, int n);\nint largest(const int *v, int n);\n#endif\n";

const STATS_C: &str = r#"#include "stats.h"
double mean(const int *v, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    return (double)sum / n;
}
int largest(const int *v, int n) {
    int max = v[0];
    for (int i = 1; i < n; i++) if (v[i] > max) max = v[i];
    return max;
}
"#;

const MAIN_C: &str = r#"#include <stdio.h>
#include "stats.h"
int main(void) {
    int n;
    printf("How many? ");
    if (scanf("%d", &n) != 1 || n <= 0 || n > 100) { printf("Bad count\n"); return 1; }
    int v[100];
    for (int i = 0; i < n; i++) {
        printf("Number %d: ", i + 1);
        if (scanf("%d", &v[i]) != 1) return 1;
    }
    printf("Mean: %.2f\nLargest: %d\n", mean(v, n), largest(v, n));
    return 0;
}
"#;

const STATS_HPP: &str = "#pragma once\n#include <vector>\nnamespace stats {\ndouble mean(const std::vector<int> &v);\nint largest(const std::vector<int> &v);\n}\n";

const STATS_CPP: &str = r#"#include "stats.hpp"
#include <algorithm>
#include <numeric>
namespace stats {
double mean(const std::vector<int> &v) {
    return static_cast<double>(std::accumulate(v.begin(), v.end(), 0)) / v.size();
}
int largest(const std::vector<int> &v) { return *std::max_element(v.begin(), v.end()); }
}
"#;

const MAIN_CPP: &str = r#"#include <cstdio>
#include <iostream>
#include "stats.hpp"
int main() {
    int n;
    std::cout << "How many? " << std::flush;
    if (!(std::cin >> n) || n <= 0 || n > 100) { std::cout << "Bad count\n"; return 1; }
    std::vector<int> v(n);
    for (int i = 0; i < n; i++) {
        std::cout << "Number " << i + 1 << ": " << std::flush;
        if (!(std::cin >> v[i])) return 1;
    }
    std::printf("Mean: %.2f\nLargest: %d\n", stats::mean(v), stats::largest(v));
    return 0;
}
"#;

const MAIN_JAVA: &str = r#"import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.print("How many? ");
        int n = in.nextInt();
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            System.out.print("Number " + (i + 1) + ": ");
            v[i] = in.nextInt();
        }
        System.out.printf("Mean: %.2f%nLargest: %d%n", Stats.mean(v), Stats.largest(v));
    }
}
"#;

const STATS_JAVA: &str = r#"public class Stats {
    static double mean(int[] v) {
        int sum = 0;
        for (int x : v) sum += x;
        return (double) sum / v.length;
    }
    static int largest(int[] v) {
        int max = v[0];
        for (int x : v) if (x > max) max = x;
        return max;
    }
}
"#;

const APP_PY: &str = r#"from stats import mean, largest

def main():
    n = int(input("How many? "))
    v = [int(input(f"Number {i + 1}: ")) for i in range(n)]
    print(f"Mean: {mean(v):.2f}")
    print(f"Largest: {largest(v)}")

main()
"#;

const STATS_PY: &str = r#"def mean(v):
    return sum(v) / len(v)

def largest(v):
    return max(v)
"#;

/// A suite of two cases whose reference is [`REFERENCE`], pinned, with
/// `extra` lines in its `suite.yaml` and `files` of its own.
fn stats_suite(work: &Path, extra: &str, files: &[(&str, &str)]) -> PathBuf {
    suite_of(work, REFERENCE, extra, files)
}

/// [`stats_suite`] whose reference is `reference`.
fn suite_of(work: &Path, reference: &str, extra: &str, files: &[(&str, &str)]) -> PathBuf {
    let suite = work.join("suite");
    fs::create_dir(&suite).unwrap();
    fs::write(suite.join("solution.c"), reference).unwrap();
    for (name, text) in files {
        fs::write(suite.join(name), text).unwrap();
    }
    fs::write(
        suite.join("suite.yaml"),
        format!(
            "reference: solution.c\nname: stats\ndefaults:\n  points: 1\n  timeout: 10s\n{extra}"
        ),
    )
    .unwrap();
    fs::write(
        suite.join("three.yaml"),
        "input: [\"3\", \"4\", \"9\", \"2\"]\n",
    )
    .unwrap();
    fs::write(suite.join("one.yaml"), "input: [\"1\", \"-7\"]\n").unwrap();
    for args in [
        &["cases", "update", arg(&suite)][..],
        &["cases", "update", "--accept", arg(&suite)],
    ] {
        let out = referee_in(work, args);
        assert!(out.status.code().is_some(), "{}", stderr(&out));
    }
    let out = referee_in(work, &["cases", "validate", arg(&suite)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    suite
}

/// A student's folder in `class` holding `files`.
fn hand_in(class: &Path, id: &str, files: &[(&str, &str)]) -> PathBuf {
    let folder = class.join(id);
    fs::create_dir_all(&folder).unwrap();
    for (name, text) in files {
        fs::write(folder.join(name), text).unwrap();
    }
    folder
}

fn graded(results: &Value, id: &str) -> (String, f64, String) {
    let s = student(results, id);
    (
        s["status"].as_str().unwrap_or_default().to_string(),
        s["score"].as_f64().unwrap_or(-1.0),
        s.to_string(),
    )
}

#[test]
fn programs_of_several_files_are_one_student_each_and_bad_folders_are_said() {
    let work = tempfile::tempdir().unwrap();
    let suite = stats_suite(work.path(), "", &[]);
    let class = work.path().join("class");
    hand_in(
        &class,
        "c-three-files",
        &[
            ("main.c", MAIN_C),
            ("stats.c", STATS_C),
            ("stats.h", STATS_H),
        ],
    );
    hand_in(
        &class,
        "cpp-three-files",
        &[
            ("main.cpp", MAIN_CPP),
            ("stats.cpp", STATS_CPP),
            ("stats.hpp", STATS_HPP),
        ],
    );
    hand_in(
        &class,
        "java-two-classes",
        &[("Main.java", MAIN_JAVA), ("Stats.java", STATS_JAVA)],
    );
    hand_in(
        &class,
        "python-two-modules",
        &[("app.py", APP_PY), ("stats.py", STATS_PY)],
    );
    // The same C program with a wrong largest: graded, and wrong.
    hand_in(
        &class,
        "c-wrong",
        &[
            ("main.c", MAIN_C),
            ("stats.c", &STATS_C.replace("v[i] > max", "v[i] < max")),
            ("stats.h", STATS_H),
        ],
    );
    // Bad folders.
    let test_c = "#include <stdio.h>\nint main(void) { puts(\"test\"); return 0; }\n";
    hand_in(
        &class,
        "two-mains",
        &[
            ("main.c", MAIN_C),
            ("stats.c", STATS_C),
            ("stats.h", STATS_H),
            ("test.c", test_c),
        ],
    );
    hand_in(
        &class,
        "no-header",
        &[("main.c", MAIN_C), ("stats.c", STATS_C)],
    );
    let linked = hand_in(
        &class,
        "linked",
        &[("main.c", MAIN_C), ("stats.c", STATS_C)],
    );
    fs::write(work.path().join("outside.h"), STATS_H).unwrap();
    std::os::unix::fs::symlink(work.path().join("outside.h"), linked.join("stats.h")).unwrap();
    fs::create_dir_all(class.join("empty")).unwrap();

    let out = work.path().join("out");
    let results = grade_class(work.path(), &suite, &out, &class);
    assert_eq!(
        results["submissions"].as_array().unwrap().len(),
        9,
        "{results}"
    );
    for id in [
        "c-three-files",
        "cpp-three-files",
        "java-two-classes",
        "python-two-modules",
    ] {
        let (status, score, all) = graded(&results, id);
        assert_eq!((status.as_str(), score), ("graded", 2.0), "{id}: {all}");
    }
    let (status, score, all) = graded(&results, "c-wrong");
    assert_eq!((status.as_str(), score), ("graded", 1.0), "{all}");

    let (status, _, all) = graded(&results, "two-mains");
    assert_eq!(status, "error", "{all}");
    assert!(
        all.contains("main.c and test.c each define main")
            && all.contains("keep main in the file that starts your program"),
        "{all}"
    );
    let (status, _, all) = graded(&results, "no-header");
    assert_eq!(status, "compile-error", "{all}");
    assert!(
        all.contains("stats.h: No such file or directory")
            && all.contains("stats.h, which main.c includes, is not in your folder"),
        "{all}"
    );
    let (status, _, all) = graded(&results, "linked");
    assert_eq!(status, "error", "{all}");
    assert!(
        all.contains("stats.h is a symbolic link")
            && all.contains("replace it with the file itself"),
        "{all}"
    );
    let (status, _, all) = graded(&results, "empty");
    assert_eq!(status, "error", "{all}");
    assert!(all.contains("the folder is empty; hand in"), "{all}");
}

/// The course gives `driver.c` (with `main`) and `stats.h`; the student
/// hands in `stats.c`. A student's own copies of the course's files are
/// not theirs: the course's are used.
#[test]
fn a_suite_names_what_is_handed_in_and_its_own_files_are_the_courses() {
    let work = tempfile::tempdir().unwrap();
    let driver = MAIN_C;
    // The reference is the course's own solution of the part handed in.
    let suite = suite_of(
        work.path(),
        STATS_C,
        "link: [driver.c]\nsupport: [stats.h]\nhand_in: [stats.c]\n",
        &[("driver.c", driver), ("stats.h", STATS_H)],
    );
    let class = work.path().join("class");
    hand_in(&class, "alone", &[("stats.c", STATS_C)]);
    // Copies of the course's files, one of them broken: not used.
    hand_in(
        &class,
        "with-copies",
        &[
            ("stats.c", STATS_C),
            ("driver.c", "int main(void) { return 3; }\n"),
            ("stats.h", "#error not the course's\n"),
        ],
    );
    hand_in(&class, "misnamed", &[("statistics.c", STATS_C)]);
    let out = work.path().join("out");
    let results = grade_class(work.path(), &suite, &out, &class);
    for id in ["alone", "with-copies"] {
        let (status, score, all) = graded(&results, id);
        assert_eq!((status.as_str(), score), ("graded", 2.0), "{id}: {all}");
    }
    let (status, _, all) = graded(&results, "misnamed");
    assert_eq!(status, "error", "{all}");
    assert!(
        all.contains("stats.c is missing: the assignment asks you to hand in stats.c"),
        "{all}"
    );
}

/// `main:` names the file that starts the program: a Python module
/// that also runs as a script for its own tests, two C files that
/// define main where the suite names one.
#[test]
fn the_suite_names_the_file_a_program_starts_from() {
    let work = tempfile::tempdir().unwrap();
    let suite = stats_suite(work.path(), "main: app.py\n", &[]);
    let class = work.path().join("class");
    let guarded = APP_PY.replace("main()\n", "if __name__ == \"__main__\":\n    main()\n");
    let self_test = format!("{STATS_PY}\nif __name__ == \"__main__\":\n    print(mean([1, 2]))\n");
    hand_in(
        &class,
        "py",
        &[("app.py", &guarded), ("stats.py", &self_test)],
    );
    let test_c = "#include <stdio.h>\nint main(void) { puts(\"test\"); return 0; }\n";
    hand_in(
        &class,
        "c",
        &[
            ("app.c", MAIN_C),
            ("stats.c", STATS_C),
            ("stats.h", STATS_H),
            ("test.c", test_c),
        ],
    );
    let out = work.path().join("out");
    let results = grade_class(work.path(), &suite, &out, &class);
    let (status, score, all) = graded(&results, "py");
    assert_eq!((status.as_str(), score), ("graded", 2.0), "{all}");
    let (status, _, all) = graded(&results, "c");
    assert_eq!(status, "error", "{all}");
    assert!(all.contains("app.c and test.c each define main"), "{all}");
}

/// Without `main:`, a Python folder whose two files both run as scripts
/// runs the one the other does not import; one with two files that could
/// each start the program is refused, saying what to do. A C program
/// checked with `check` builds from its several files.
#[test]
fn a_python_program_whose_start_cannot_be_told_is_refused() {
    let work = tempfile::tempdir().unwrap();
    let suite = stats_suite(work.path(), "", &[]);
    let class = work.path().join("class");
    let guarded = APP_PY.replace("main()\n", "if __name__ == \"__main__\":\n    main()\n");
    let self_test = format!("{STATS_PY}\nif __name__ == \"__main__\":\n    print(mean([1, 2]))\n");
    hand_in(
        &class,
        "scripts",
        &[("app.py", &guarded), ("stats.py", &self_test)],
    );
    hand_in(
        &class,
        "py",
        &[
            ("app.py", APP_PY),
            ("menu.py", APP_PY),
            ("stats.py", STATS_PY),
        ],
    );
    let c = hand_in(
        &class,
        "c",
        &[
            ("main.c", MAIN_C),
            ("stats.c", STATS_C),
            ("stats.h", STATS_H),
        ],
    );
    let out = work.path().join("out");
    let results = grade_class(work.path(), &suite, &out, &class);
    let (status, score, all) = graded(&results, "scripts");
    assert_eq!((status.as_str(), score), ("graded", 2.0), "{all}");
    let (status, _, all) = graded(&results, "py");
    assert_eq!(status, "error", "{all}");
    assert!(
        all.contains("cannot tell which of app.py, menu.py starts your program"),
        "{all}"
    );
    let checked = referee_in(
        work.path(),
        &[
            "check",
            "--all",
            "--cases",
            arg(&suite),
            arg(&c),
            "--color",
            "never",
        ],
    );
    assert_eq!(
        checked.status.code(),
        Some(0),
        "{}{}",
        stdout(&checked),
        stderr(&checked)
    );
}

/// Several `.java` (or C) files given straight to `grade`: one program
/// where one of them has `main`, a class of students where each has its
/// own.
#[test]
fn files_given_straight_to_grade_are_a_class_only_where_each_has_its_main() {
    let work = tempfile::tempdir().unwrap();
    let suite = stats_suite(work.path(), "", &[]);
    let one = hand_in(
        work.path(),
        "lab",
        &[("Main.java", MAIN_JAVA), ("Stats.java", STATS_JAVA)],
    );
    let out = work.path().join("out-one");
    let results = grade_class(work.path(), &suite, &out, &one);
    let all = results["submissions"].as_array().unwrap();
    assert_eq!(all.len(), 1, "{results}");
    assert_eq!(all[0]["id"], "lab");
    assert_eq!(all[0]["score"], 2.0, "{results}");

    let c = hand_in(
        work.path(),
        "clab",
        &[
            ("main.c", MAIN_C),
            ("stats.c", STATS_C),
            ("stats.h", STATS_H),
        ],
    );
    let out = work.path().join("out-c");
    let results = grade_class(work.path(), &suite, &out, &c);
    let all = results["submissions"].as_array().unwrap();
    assert_eq!(all.len(), 1, "{results}");
    assert_eq!(all[0]["score"], 2.0, "{results}");

    // Each with its own main: a class of two students.
    let whole = |class: &str| {
        MAIN_JAVA
            .replace("public class Main", &format!("public class {class}"))
            .replace("Stats.mean(v)", "0.0")
            .replace("Stats.largest(v)", "v[0]")
    };
    let class = hand_in(
        work.path(),
        "class",
        &[("Alice.java", &whole("Alice")), ("Bob.java", &whole("Bob"))],
    );
    let out = work.path().join("out-class");
    let results = grade_class(work.path(), &suite, &out, &class);
    let ids: Vec<&str> = results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["Alice", "Bob"], "{results}");
}

/// A sanitizer's report on a program of several files names the file
/// and line where it happened: a write past an array in `stats.c`; and
/// so does a Python exception raised in a module the program imports.
#[test]
fn a_diagnosis_names_the_file_of_several_it_happened_in() {
    let work = tempfile::tempdir().unwrap();
    let suite = stats_suite(work.path(), "", &[]);
    let class = work.path().join("class");
    let overflow = STATS_C.replace(
        "int largest(const int *v, int n) {\n",
        "int largest(const int *v, int n) {\n    int seen[2];\n    for (int i = 0; i <= n; i++) seen[i] = v[0];\n    (void)seen;\n",
    );
    hand_in(
        &class,
        "over",
        &[
            ("main.c", MAIN_C),
            ("stats.c", &overflow),
            ("stats.h", STATS_H),
        ],
    );
    hand_in(
        &class,
        "fine",
        &[
            ("main.c", MAIN_C),
            ("stats.c", STATS_C),
            ("stats.h", STATS_H),
        ],
    );
    let raises = STATS_PY.replace("return max(v)", "return v[len(v)]");
    hand_in(&class, "py", &[("app.py", APP_PY), ("stats.py", &raises)]);
    let out = work.path().join("out");
    let done = referee_in(
        work.path(),
        &[
            "grade",
            "--cases",
            arg(&suite),
            "--out",
            arg(&out),
            "--diagnose",
            arg(&class),
        ],
    );
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    let results = read_json(&out.join("results.json"));
    let over = student(&results, "over");
    let found = over["diagnostics"].as_array().cloned().unwrap_or_default();
    let write = found
        .iter()
        .find(|d| d["file"] == "stats.c" && d["line"] == 9)
        .unwrap_or_else(|| panic!("no diagnosis at stats.c:9: {over}"));
    assert!(
        write["source"]
            .as_str()
            .unwrap_or_default()
            .contains("seen[i] = v[0]"),
        "{write}"
    );
    let py = student(&results, "py");
    let found = py["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(
        found.iter().any(|d| d["file"] == "stats.py"
            && d["line"] == 5
            && d["message"]
                .as_str()
                .unwrap_or_default()
                .starts_with("IndexError")),
        "{py}"
    );
    let fine = student(&results, "fine");
    assert!(
        fine["diagnostics"].as_array().is_none_or(|d| d.is_empty()),
        "{fine}"
    );
}

/// A Java program whose heap runs out is `memory-limit`, as a C program
/// over its memory is, not `crashed`.
#[test]
fn java_out_of_heap_is_memory_limit() {
    let work = tempfile::tempdir().unwrap();
    let suite = stats_suite(work.path(), "", &[]);
    let yaml = fs::read_to_string(suite.join("suite.yaml")).unwrap();
    fs::write(
        suite.join("suite.yaml"),
        yaml.replace("  points: 1\n", "  points: 1\n  memory: 128MiB\n"),
    )
    .unwrap();
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    fs::copy(test_file("fixtures/java/Hog.java"), class.join("Hog.java")).unwrap();
    let thrower = "public class Thrower {\n    public static void main(String[] a) {\n        throw new IllegalStateException(\"no\");\n    }\n}\n";
    fs::write(class.join("Thrower.java"), thrower).unwrap();
    let out = work.path().join("out");
    let results = grade_class(work.path(), &suite, &out, &class);
    let verdicts = |id: &str| -> Vec<String> {
        student(&results, id)["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["verdict"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        verdicts("Hog"),
        ["memory-limit", "memory-limit"],
        "{results}"
    );
    assert!(
        verdicts("Thrower").iter().all(|v| v != "memory-limit"),
        "{results}"
    );
}
