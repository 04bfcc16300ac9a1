//! The course's own compiler (issue 46, item 3): a suite chooses the
//! compiler of C and C++ (`compiler: {c: clang}`), for its students and
//! its reference alike. CS50's Speller hands out `const unsigned int N =
//! 26; node *table[N];` at file scope, which gcc refuses and clang
//! accepts: graded with clang it earns full marks, and its checked build
//! (clang's own sanitizers) finds and places a planted fault.
//!
//! The tests that need clang are ignored on a machine without it (the
//! README's `cargo test` needs gcc alone); CI installs clang-19 and runs
//! them with `cargo test --test compiler -- --ignored`. The rest (a
//! compiler missing said once with what to install, the key's
//! validation, a suite naming gcc graded as before) run everywhere.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The clang CI installs (Debian 12's `clang-19`).
const CLANG: &str = "clang-19";

/// The Speller-like lab in `work/name`: its reference (the lab's own
/// program, with the handout's file-scope `const` size), `suite_extra`
/// in its suite.yaml, and one case whose words reach every bucket the
/// planted fault needs (a word starting with Z).
fn lab(work: &Path, name: &str, suite_extra: &str) -> PathBuf {
    let suite = work.join(name).join("speller");
    fs::create_dir_all(&suite).unwrap();
    fs::copy(
        test_file("fixtures/speller/hashes.c"),
        suite.join("hashes.c"),
    )
    .unwrap();
    fs::write(
        suite.join("suite.yaml"),
        format!("reference: hashes.c\n{suite_extra}defaults:\n  visibility: public\n"),
    )
    .unwrap();
    fs::write(
        suite.join("words.yaml"),
        "input: ['3', apple, zebra, banana]\n",
    )
    .unwrap();
    suite
}

/// A class in `work/class` of the lab's own program (`right.c`) and the
/// planted one (`overflows.c`).
fn class(work: &Path) -> PathBuf {
    let class = work.join("class");
    fs::create_dir_all(&class).unwrap();
    for (from, to) in [("hashes.c", "right.c"), ("overflows.c", "overflows.c")] {
        fs::copy(
            test_file(&format!("fixtures/speller/{from}")),
            class.join(to),
        )
        .unwrap();
    }
    class
}

fn grade(work: &Path, suite: &Path, class: &Path, out: &str, extra: &[&str]) -> Value {
    let out = work.join(out);
    let mut args = vec!["grade", "--cases", arg(suite), "--out", arg(&out)];
    args.extend(extra);
    args.push(arg(class));
    let done = referee_in(work, &args);
    assert!(done.status.success(), "{}", stderr(&done));
    read_json(&out.join("results.json"))
}

#[test]
#[ignore = "needs clang-19 (apt-get install clang-19); CI runs it"]
fn the_handouts_const_size_earns_full_marks_with_clang_and_its_checked_build_places_a_fault() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = lab(w, "clang", &format!("compiler: {{c: {CLANG}}}\n"));
    let class = class(w);
    let results = grade(w, &suite, &class, "out", &["--diagnose"]);
    let right = student(&results, "right");
    assert_eq!(right["status"], "graded", "{right}");
    assert_eq!(right["score"], right["max_score"], "{right}");
    assert_eq!(right["diagnostics"], Value::Null, "no diagnosis: {right}");
    // The planted fault: found by clang's sanitizers and placed at the
    // line that reads the bucket past the table's end.
    let planted = student(&results, "overflows");
    assert_eq!(planted["diagnosis_trouble"], Value::Null, "{planted}");
    let found = planted["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let first = found
        .first()
        .unwrap_or_else(|| panic!("no diagnosis: {planted}"));
    assert_eq!(first["file"], "overflows.c", "{first}");
    assert_eq!(first["line"], 40, "{first}");
    assert_eq!(first["function"], "main", "{first}");
    assert_eq!(first["found"], "run", "{first}");
    assert_eq!(first["case"], "words", "{first}");
    assert_eq!(first["input_line"], 3, "{first}");
}

/// The same lab graded with gcc, referee's default (its reference
/// written with `#define N 26`, which gcc takes): the handout's own
/// `const` size does not compile, as 25 real students' did not.
#[test]
fn gcc_refuses_the_handouts_const_size() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = lab(w, "gcc", "");
    let reference = fs::read_to_string(suite.join("hashes.c")).unwrap();
    let defined = reference.replace("const unsigned int N = 26;", "#define N 26");
    assert_ne!(defined, reference);
    fs::write(suite.join("hashes.c"), defined).unwrap();
    let results = grade(w, &suite, &class(w), "out", &[]);
    let right = student(&results, "right");
    assert_eq!(right["status"], "compile-error", "{right}");
    let said = right["message"].to_string();
    assert!(said.contains("variably modified"), "{right}");
}
