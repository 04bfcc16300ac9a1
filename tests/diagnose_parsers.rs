//! The compiler's warnings that foretell undefined behaviour, with the
//! real gcc and g++ (12 or later): each program of
//! `tests/programs/unsafe/` plants one fault, and the warnings-only pass
//! of `diagnose::warnings` finds it at its line; and no correct program
//! shipped with referee has any diagnosis (a false alarm beside a
//! student's grade is worse than none).
//!
//! The tracebacks' parser has its tests in its module: it needs no
//! tool.

use std::path::{Path, PathBuf};
use std::process::Command;

use referee::diagnose::warnings::{parse, warning_args};
use referee::diagnose::{Diagnosis, Found, Kind};
use referee::explain::diagnoses::Told;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The diagnoses of the warnings-only pass over `source`, compiled with
/// the suite's `flags` first (gcc for `.c`, g++ otherwise), as the
/// checked build does.
fn diagnoses(source: &Path, flags: &[&str]) -> Vec<Diagnosis> {
    let compiler = match source.extension().and_then(|e| e.to_str()) {
        Some("c") => "gcc",
        _ => "g++",
    };
    let output = Command::new(compiler)
        .args(flags)
        .args(warning_args())
        .arg(source)
        .output()
        .expect("the compiler starts");
    let stderr = String::from_utf8(output.stderr).expect("gcc's JSON is UTF-8");
    assert!(
        output.status.success(),
        "{} does not compile: {stderr}",
        source.display()
    );
    let name = source.file_name().unwrap().to_str().unwrap();
    parse(&stderr, name)
}

/// The one diagnosis of a planted program, as the default suite
/// (`-Wall`) and as a suite of its own flags that the pass must
/// override (no optimiser, sanitizers, `-Werror`) both see it.
fn planted(name: &str) -> Diagnosis {
    let source = root().join("tests/programs/unsafe").join(name);
    let found = diagnoses(&source, &["-Wall"]);
    assert_eq!(found.len(), 1, "{name}: {found:#?}");
    let overridden = diagnoses(
        &source,
        &[
            "-O0",
            "-g",
            "-fsanitize=address,undefined",
            "-Werror",
            "-Wall",
        ],
    );
    assert_eq!(overridden, found, "{name} with a suite's own flags");
    let d = found.into_iter().next().unwrap();
    assert_eq!(d.found, Found::Compiler);
    assert_eq!(d.file.as_deref(), Some(name), "only the file's name");
    assert_eq!(d.function, None, "gcc's JSON does not say the function");
    assert_eq!(d.count, 1);
    d
}

#[test]
fn a_win_check_that_falls_off_its_end_is_a_missing_return() {
    let d = planted("missing-return.c");
    assert_eq!((d.kind, d.line), (Kind::MissingReturn, Some(16)));
    assert_eq!(d.message, "control reaches end of non-void function");
    let d = planted("missing-return.cpp");
    assert_eq!((d.kind, d.line), (Kind::MissingReturn, Some(14)));
}

#[test]
fn a_total_never_set_to_zero_is_uninitialised() {
    let d = planted("uninitialized.c");
    assert_eq!((d.kind, d.line), (Kind::Uninitialized, Some(10)));
    assert!(d.message.contains("count"), "{}", d.message);
    let d = planted("never-set.cpp");
    assert_eq!((d.kind, d.line), (Kind::Uninitialized, Some(8)));
    assert!(d.message.contains("winner"), "{}", d.message);
}

#[test]
fn a_square_past_a_rows_end_is_an_index_out_of_bounds() {
    let d = planted("past-row-end.c");
    assert_eq!((d.kind, d.line), (Kind::IndexOutOfBounds, Some(10)));
    assert!(d.message.contains("array subscript 7"), "{}", d.message);
}

#[test]
fn a_loop_with_one_iteration_too_many_is_undefined_behaviour() {
    let d = planted("loop-past-row-end.c");
    assert_eq!((d.kind, d.line), (Kind::Undefined, Some(11)));
    assert!(d.message.contains("iteration 7"), "{}", d.message);
}

#[test]
fn a_board_read_after_free_is_a_use_after_free() {
    let d = planted("use-after-free.c");
    assert_eq!((d.kind, d.line), (Kind::UseAfterFree, Some(21)));
    let d = planted("use-after-free.cpp");
    assert_eq!((d.kind, d.line), (Kind::UseAfterFree, Some(15)));
}

#[test]
fn a_double_printed_with_percent_d_is_a_format_mismatch() {
    let d = planted("format-mismatch.c");
    assert_eq!((d.kind, d.line), (Kind::FormatMismatch, Some(10)));
    assert!(d.message.contains("double"), "{}", d.message);
}

/// The correct programs shipped with referee, and the programs whose
/// faults are of logic only (a missed diagonal, a wrong prompt): none of
/// them has undefined behaviour, so none may have a diagnosis.
///
/// Left out: programs that do not compile (`examples/class/dave.c`,
/// `examples/temperature-class/erin.c`, the `does-not-compile`
/// fixtures); programs that misbehave on purpose, whose faults are no
/// false alarm (`tests/programs/hostile/` and `floods/`, the
/// `memory-bomb`s, `segfault-after-first-move.c`,
/// `tests/fixtures/temperature/crashes.c` and `loops.c`, and
/// `tests/programs/` programs that test the runner's handling of
/// signals, terminals and children rather than being a student's).
const CORRECT: &[&str] = &[
    "examples/lab6.c",
    "examples/prog3.c",
    "examples/class/alice.c",
    "examples/class/bob.c",
    "examples/class/carol/lab6.c",
    "examples/temperature/solution.c",
    "examples/temperature-class/alice.c",
    "examples/temperature-class/bob.c",
    "examples/temperature-class/dave.cpp",
    "examples/temperature-class/frank.c",
    "examples/temperature-class/gina.c",
    "examples/temperature-class/hana.c",
    "tests/fixtures/caesar/caesar.c",
    "tests/fixtures/caesar/exits_zero.c",
    "tests/fixtures/caesar/no_argc_check.c",
    "tests/fixtures/caesar/no_digit_check.c",
    "tests/fixtures/connect4/correct.c",
    "tests/fixtures/languages/pentago.cpp",
    "tests/fixtures/languages/connect4-missed-diagonal.cpp",
    "tests/fixtures/library/course.c",
    "tests/fixtures/library/sum.cpp",
    "tests/fixtures/pentago/correct.c",
    "tests/fixtures/temperature/solution.cpp",
    "tests/fixtures/temperature/wc.c",
    "tests/programs/asks-to-play-again.c",
    "tests/programs/connect4-own-words.c",
    "tests/programs/connect4-range-off.c",
    "tests/programs/fahrenheit-exits-0.c",
    "tests/programs/fahrenheit-own-words.c",
    "tests/programs/fahrenheit-reference.c",
];

/// Folders whose every C source is a correct program or one with faults
/// of logic only (`bugs/`, `formats/`, `rubric/`, `unseen/`).
const CORRECT_FOLDERS: &[&str] = &[
    "tests/fixtures/connect4/bugs",
    "tests/fixtures/pentago/bugs",
    "tests/fixtures/pentago/formats",
    "tests/fixtures/pentago/rubric",
    "tests/fixtures/pentago/unseen",
];

/// Programs that include a course's header from their own folder (as a
/// suite's `-I` makes them).
const WITH_THEIR_HEADERS: &[&str] = &[
    "tests/fixtures/library/hidden.c",
    "tests/fixtures/library/sum.c",
    "tests/fixtures/temperature/support.c",
];

#[test]
fn no_correct_program_has_a_diagnosis() {
    let mut sources: Vec<(PathBuf, Vec<String>)> = CORRECT
        .iter()
        .map(|p| (root().join(p), vec!["-Wall".to_string()]))
        .collect();
    for folder in CORRECT_FOLDERS {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "c"))
            .collect();
        found.sort();
        assert!(!found.is_empty(), "{folder} has programs");
        sources.extend(found.into_iter().map(|p| (p, vec!["-Wall".to_string()])));
    }
    for p in WITH_THEIR_HEADERS {
        let source = root().join(p);
        let folder = format!("-I{}", source.parent().unwrap().display());
        sources.push((source, vec!["-Wall".to_string(), folder]));
    }
    let mut alarms = Vec::new();
    for (source, flags) in &sources {
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        for d in diagnoses(source, &flags) {
            alarms.push(format!(
                "{}: {}",
                source.display(),
                Told::new(&d, |_| false).sentence()
            ));
        }
    }
    assert!(sources.len() > 60, "{} programs", sources.len());
    assert!(alarms.is_empty(), "false alarms:\n{}", alarms.join("\n"));
}
