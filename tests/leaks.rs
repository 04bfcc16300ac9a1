//! Leaks: in a suite that counts them (`leaks: true`), memory a C or C++
//! program still holds when it ends is a diagnosis, with how much and
//! where it was allocated, found in the sandbox (no `ptrace`) and never
//! changing a score. The C library's own buffers are not the program's;
//! a run that crashed or was stopped has no leak verdict. The programs
//! are in tests/fixtures/leaks, beside a Speller-like suite.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

/// The Speller-like suite, copied into `w` (`leaks: true` taken out
/// where `!leaks`).
fn speller(w: &Path, leaks: bool) -> PathBuf {
    let name = if leaks { "speller" } else { "speller-no-leaks" };
    let suite = copied(&test_file("fixtures/leaks/speller"), &w.join(name));
    if !leaks {
        let yaml = fs::read_to_string(suite.join("suite.yaml")).unwrap();
        assert!(yaml.contains("leaks: true\n"), "{yaml}");
        fs::write(suite.join("suite.yaml"), yaml.replace("leaks: true\n", "")).unwrap();
    }
    suite
}

/// The files of the folder `from` copied into a new folder `to`.
fn copied(from: &Path, to: &Path) -> PathBuf {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
    to.to_path_buf()
}

/// A class in `w` of the fixtures named `programs` (file names).
fn class(w: &Path, programs: &[&str]) -> PathBuf {
    let class = w.join("class");
    fs::create_dir_all(&class).unwrap();
    for name in programs {
        let from = test_file(&format!("fixtures/leaks/{name}"));
        fs::copy(from, class.join(name)).unwrap();
    }
    class
}

/// `class` graded on `suite` with `extra` arguments: its results.json.
fn graded(w: &Path, suite: &Path, class: &Path, name: &str, extra: &[&str]) -> Value {
    graded_with(w, suite, class, name, extra, &[])
}

/// [`graded`], with `env` set for referee.
fn graded_with(
    w: &Path,
    suite: &Path,
    class: &Path,
    name: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Value {
    grade_class_with(w, suite, &w.join(name), class, extra, env)
}

fn diagnoses(results: &Value, id: &str) -> Vec<Value> {
    let s = student(results, id);
    assert_eq!(s["diagnosis_trouble"], Value::Null, "{id}: {s}");
    s["diagnostics"].as_array().cloned().unwrap_or_default()
}

/// The leak diagnoses of `id`.
fn leaks(results: &Value, id: &str) -> Vec<Value> {
    diagnoses(results, id)
        .into_iter()
        .filter(|d| d["kind"] == "leak")
        .collect()
}

/// A Speller whose `unload` frees nothing is told how much it still
/// held and where it allocated it, on its first case, where every case
/// passes (as check50's valgrind check tells it); the same program with
/// an `unload` that frees, and one that frees all its own while the C
/// library keeps buffers of its own, are quiet; so is a C++ program's
/// `std::string` and `std::vector`, while its `new` without `delete` is
/// found. No score moves.
#[test]
fn a_planted_leak_is_found_with_its_bytes_and_the_line_of_its_malloc() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = speller(w, true);
    let class = class(
        w,
        &["leaks.c", "frees.c", "buffers.c", "new-without-delete.cpp"],
    );
    let results = graded(w, &suite, &class, "out", &[]);
    for id in ["leaks", "frees", "buffers"] {
        assert_eq!(student(&results, id)["score"], 2.0, "{id}");
    }
    let found = leaks(&results, "leaks");
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    // Three nodes of 56 bytes, from the `malloc` in `load`.
    assert_eq!(
        d["message"],
        "168 bytes in 3 blocks still allocated when the program ended, \
         allocated at leaks.c:23 in load",
        "{d}"
    );
    assert_eq!(d["file"], "leaks.c", "{d}");
    assert_eq!(d["line"], 23, "{d}");
    assert_eq!(d["function"], "load", "{d}");
    assert_eq!(d["source"], "node *n = malloc(sizeof(node));", "{d}");
    // Passed everywhere: only the first case ran from the checked build.
    assert_eq!(d["case"], "fruit", "{d}");
    assert_eq!(d["count"], 1, "{d}");
    assert_eq!(diagnoses(&results, "frees"), Vec::<Value>::new());
    assert_eq!(diagnoses(&results, "buffers"), Vec::<Value>::new());

    let cpp = leaks(&results, "new-without-delete");
    assert_eq!(cpp.len(), 1, "{cpp:?}");
    assert_eq!(cpp[0]["line"], 21, "{}", cpp[0]);
    assert_eq!(cpp[0]["function"], "main", "{}", cpp[0]);
    let message = cpp[0]["message"].as_str().unwrap();
    assert!(
        message.contains(" in 3 blocks still allocated"),
        "{message}"
    );

    // Every case run again: the leak is one diagnosis of two runs, and
    // the scores are the same.
    let every = graded(w, &suite, &class, "every", &["--diagnose"]);
    let again = leaks(&every, "leaks");
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0]["count"], 2, "{}", again[0]);
    assert_eq!(diagnoses(&every, "frees"), Vec::<Value>::new());
    assert_eq!(diagnoses(&every, "buffers"), Vec::<Value>::new());
    for id in ["leaks", "frees", "buffers", "new-without-delete"] {
        assert_eq!(
            student(&every, id)["score"],
            student(&results, id)["score"],
            "{id}"
        );
    }
}

/// A suite that does not ask for leaks says none, even with every case
/// run from the checked build.
#[test]
fn a_suite_without_leaks_says_none() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = speller(w, false);
    let program = class(w, &["leaks.c"]).join("leaks.c");
    let results = graded(w, &suite, &program, "out", &["--diagnose"]);
    assert_eq!(diagnoses(&results, "leaks"), Vec::<Value>::new());
}

/// A run that crashed, or was stopped when its time ran out, holding
/// every node it loaded, has no leak verdict: the crash is diagnosed as
/// ever, and nothing more.
#[test]
fn a_run_that_crashed_or_timed_out_has_no_leak() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = speller(w, true);
    let class = class(w, &["leaks-then-crashes.c", "leaks-then-loops.c"]);
    let results = graded(w, &suite, &class, "out", &["--diagnose"]);
    let verdicts = |id: &str| -> Vec<String> {
        student(&results, id)["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["verdict"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(verdicts("leaks-then-crashes"), ["crashed", "crashed"]);
    assert_eq!(verdicts("leaks-then-loops"), ["timeout", "timeout"]);
    let crashed = diagnoses(&results, "leaks-then-crashes");
    let kinds: Vec<&str> = crashed
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["bad-address"], "{crashed:?}");
    assert_eq!(leaks(&results, "leaks-then-loops"), Vec::<Value>::new());
}

/// Where no control group holds a checked run, the build holds itself
/// (tests/held.rs): its leak count is found all the same, the table it
/// keeps mapped before the hold measures what is mapped.
#[test]
fn a_leak_is_found_where_the_build_holds_itself() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = speller(w, true);
    let program = class(w, &["leaks.c"]).join("leaks.c");
    let env = [("REFEREE_SANDBOX_OFF", "cgroups")];
    let results = graded_with(w, &suite, &program, "out", &[], &env);
    let found = leaks(&results, "leaks");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["line"], 23, "{}", found[0]);
}

/// A course library (`link:`) that keeps memory of its own to the end
/// (a buffer it allocates once) is no student's leak: only what the
/// student's own code allocated counts, and is placed there.
#[test]
fn a_course_librarys_own_memory_is_not_the_students_leak() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = w.join("sum-lab");
    fs::create_dir_all(&suite).unwrap();
    for file in ["course.h", "sum.c"] {
        fs::copy(
            test_file(&format!("fixtures/library/{file}")),
            suite.join(file),
        )
        .unwrap();
    }
    // The library's line is kept in a block allocated once and never
    // freed.
    fs::write(
        suite.join("course.c"),
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"course.h\"\n\
         static char *line;\n\
         char *get_word(const char *prompt) {\n    printf(\"%s\", prompt);\n    fflush(stdout);\n    \
         if (line == NULL && (line = malloc(256)) == NULL) return NULL;\n    \
         if (!fgets(line, 256, stdin)) return NULL;\n    \
         line[strcspn(line, \"\\n\")] = '\\0';\n    return line;\n}\n\
         int add(int a, int b) { return a + b; }\n",
    )
    .unwrap();
    fs::write(
        suite.join("suite.yaml"),
        "reference: sum.c\nsupport: [course.h]\nlink: [course.c]\nleaks: true\n\
         defaults:\n  visibility: public\n",
    )
    .unwrap();
    fs::write(suite.join("adds.yaml"), "input: ['2', '3']\n").unwrap();
    let class = w.join("class");
    fs::create_dir_all(&class).unwrap();
    fs::copy(suite.join("sum.c"), class.join("right.c")).unwrap();
    // Keeps a copy of each number it read, and frees neither.
    fs::write(
        class.join("keeps.c"),
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <course.h>\n\n\
         int main(void) {\n    char *a = strdup(get_word(\"a: \"));\n    \
         char *b = strdup(get_word(\"b: \"));\n    \
         printf(\"%d\\n\", add(atoi(a), atoi(b)));\n    return 0;\n}\n",
    )
    .unwrap();
    let results = graded(w, &suite, &class, "out", &[]);
    assert_eq!(diagnoses(&results, "right"), Vec::<Value>::new());
    let found = leaks(&results, "keeps");
    assert_eq!(found.len(), 1, "{found:?}");
    // Two copies of two bytes ("2" and "3"), not the library's 256.
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("4 bytes in 2 blocks still allocated"),
        "{}",
        found[0]
    );
    assert_eq!(found[0]["file"], "keeps.c", "{}", found[0]);
}

/// The count keeps every block through many allocations freed in a
/// scattered order: of 200,000 blocks, the 200 never freed are said,
/// exactly, and realloc's moves are followed.
#[test]
fn many_blocks_freed_in_any_order_leave_exactly_the_unfreed_ones() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = speller(w, true);
    let program = w.join("scatters.c");
    fs::write(
        &program,
        "#include <stdio.h>\n#include <stdlib.h>\n\n#define N 200000\n\
         static void *blocks[N];\n\n\
         int main(void) {\n    for (int i = 0; i < N; i++) {\n        \
         blocks[i] = malloc(8);\n        blocks[i] = realloc(blocks[i], 16);\n    }\n    \
         for (long k = 0; k < N; k++) {\n        long i = k * 7919 % N;\n        \
         if (i % 1000 != 0) free(blocks[i]);\n    }\n    \
         puts(\"done\");\n    return 0;\n}\n",
    )
    .unwrap();
    let results = graded(w, &suite, &program, "out", &["--diagnose"]);
    let found = leaks(&results, "scatters");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0]["message"],
        "3200 bytes in 200 blocks still allocated when the program ended, \
         allocated at scatters.c:10 in main",
        "{}",
        found[0]
    );
}

/// The project's correct programs, which free what they allocate (or
/// allocate nothing but what the C and C++ libraries keep for
/// themselves: stdio's buffers, `std::cout`'s, `std::string`'s), stay
/// quiet with leaks counted on every case: the temperature class (C and
/// C++ students) and Pentago's correct programs in C and C++.
#[test]
fn correct_programs_stay_quiet_with_leaks_counted() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let with_leaks = |from: &Path, name: &str| {
        let suite = copied(from, &w.join(name));
        let yaml = fs::read_to_string(suite.join("suite.yaml")).unwrap();
        fs::write(suite.join("suite.yaml"), format!("{yaml}\nleaks: true\n")).unwrap();
        suite
    };
    let quiet = |results: &Value| {
        for s in results["submissions"].as_array().unwrap() {
            let id = s["id"].as_str().unwrap();
            assert_eq!(leaks(results, id), Vec::<Value>::new(), "{id}");
        }
    };
    let temperature = with_leaks(&root().join("examples/temperature"), "temperature");
    let class = root().join("examples/temperature-class");
    quiet(&graded(
        w,
        &temperature,
        &class,
        "temperature-out",
        &["--diagnose"],
    ));

    let pentago = with_leaks(&root().join("cases/pentago"), "pentago");
    let players = w.join("pentago-class");
    fs::create_dir_all(&players).unwrap();
    for (from, name) in [
        ("fixtures/pentago/correct.c", "correct.c"),
        ("fixtures/languages/pentago.cpp", "correct-cpp.cpp"),
    ] {
        fs::copy(test_file(from), players.join(name)).unwrap();
    }
    quiet(&graded(
        w,
        &pentago,
        &players,
        "pentago-out",
        &["--diagnose"],
    ));
}

/// Leaks are counted in C and C++ only: a Python program checked on a
/// suite that counts them is graded as ever, and the student is told once
/// that its memory is not looked at, where a C program is told nothing.
#[test]
fn a_suite_counting_leaks_says_it_looks_at_c_and_cpp_only() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = speller(w, true);
    let program = w.join("speller.py");
    fs::write(
        &program,
        "import sys\nfor line in sys.stdin:\n    print(line.strip())\n",
    )
    .unwrap();
    let note = "which referee does for C and C++ programs only";
    let cases = suite.to_str().unwrap();
    let python = referee_in(w, &["check", "--cases", cases, program.to_str().unwrap()]);
    assert!(
        stdout(&python).contains("Score: 0/2"),
        "{}",
        stdout(&python)
    );
    assert_eq!(
        stderr(&python).matches(note).count(),
        1,
        "{}",
        stderr(&python)
    );
    let c = test_file("fixtures/leaks/leaks.c");
    let c = referee_in(w, &["check", "--cases", cases, c.to_str().unwrap()]);
    assert!(stdout(&c).contains("Score: 2/2"), "{}", stdout(&c));
    assert!(!stderr(&c).contains(note), "{}", stderr(&c));
}
