//! The compiler's warnings that foretell undefined behaviour: a C or C++
//! submission is compiled once more, for warnings only
//! ([`warning_args`]), and the warnings gcc writes as JSON become
//! diagnoses ([`parse`]), found before anything ran.
//!
//! Only warnings that say the program's behaviour is undefined (or that
//! it prints something other than it means) are kept: a function that
//! ends without its value, a value never set, an index the compiler can
//! see is out of bounds, a pointer used after `free`, a `printf` format
//! that does not match its argument, and a loop whose last iteration the
//! compiler proved undefined. Style warnings (unused variables,
//! comparisons of signed and unsigned) are not a diagnosis.
//!
//! gcc 12's JSON (`-fdiagnostics-format=json`) is one array of
//! diagnostics, each with `kind` ("warning", "note", "error"), `option`
//! ("-Wreturn-type", "-Wformat="), `message` and `locations` (the first
//! one's `caret` has `file` and `line`). It does not say the function a
//! warning is in (the text form's "In function 'x'" line has no JSON
//! counterpart), so [`Diagnosis::function`] is left for whoever knows
//! the program's debug information. Notes ("call to 'free' here") come
//! as diagnostics of their own, after their warning; they are skipped.

use serde::de::{self, DeserializeSeed, IgnoredAny, SeqAccess, Visitor};
use serde::Deserialize;

use super::diagnosis::{Diagnosis, Found, Kind};

/// The compiler arguments of the warnings-only pass, appended after the
/// suite's own flags (so that they win over them).
///
/// - `-O2`: `-Warray-bounds`, `-Wmaybe-uninitialized` and
///   `-Wuse-after-free` are found by the optimiser's analyses, and say
///   nothing without it (a suite's `-O0` is overridden).
/// - `-fno-sanitize=all`: a suite's sanitizers are turned off here; with
///   them gcc warns of what the sanitizer's own checks do (false alarms
///   of `-Wmaybe-uninitialized` and `-Warray-bounds` above all).
/// - `-Wno-error`: a suite's `-Werror` would make a warning an error
///   and stop the pass at the first; [`parse`] reads an error of
///   `-Werror=return-type` as the warning all the same.
/// - the warnings themselves, each of which [`parse`] knows; those on by
///   default (`-Waggressive-loop-optimizations`) are named so that a
///   suite's `-w` or `-Wno-...` before them does not hide them.
/// - `-fdiagnostics-format=json`: what [`parse`] reads (on stderr).
/// - `-S -o /dev/null`: compile to assembly and keep none of it; the
///   warnings come from compiling, not from linking. One source file per
///   pass (gcc refuses `-o` with `-S` and several files).
///
/// For gcc and g++ 12 or later (`-Wuse-after-free` is new in 12; clang
/// does not write this JSON).
pub const WARNING_ARGS: &[&str] = &[
    "-O2",
    "-fno-sanitize=all",
    "-Wno-error",
    "-Wreturn-type",
    "-Wuninitialized",
    "-Wmaybe-uninitialized",
    "-Warray-bounds",
    "-Wuse-after-free",
    "-Wformat",
    "-Waggressive-loop-optimizations",
    "-fdiagnostics-format=json",
    "-S",
    "-o",
    "/dev/null",
];

/// The compiler arguments of the warnings-only pass ([`WARNING_ARGS`]).
pub fn warning_args() -> &'static [&'static str] {
    WARNING_ARGS
}

/// What the checked build's own compile adds, so that its warnings come
/// with it and no pass is made for them: [`WARNING_ARGS`]'s warnings and
/// JSON (not its `-O2`, nor what makes it a pass of its own), at the
/// build's `-O0`. Without optimising, gcc still finds a missing return, a
/// use after free and a format mismatch, not an index past an array's end
/// nor an uninitialised value (the sanitizers find the first at run time;
/// `grade --diagnose` makes the optimised pass for both). The build's
/// linker may write after the JSON: [`parse`] reads the array alone.
pub fn in_build_args() -> &'static [&'static str] {
    &WARNING_ARGS[2..WARNING_ARGS.len() - 3]
}

/// The most of gcc's diagnostics read from one pass: a program of
/// thousands of warnings has its first ones said, and the rest of the
/// JSON is only skipped over (checked, not kept).
pub const MOST_READ: usize = 1000;

/// What a warning of gcc's `option` foretells, if it is one that
/// foretells undefined behaviour. `option` is as gcc's JSON names it:
/// `-Wformat=`, `-Wreturn-type`, or `-Werror=return-type` when a suite
/// made it an error.
pub fn kind_of(option: &str) -> Option<Kind> {
    let name = option
        .strip_prefix("-Werror=")
        .or_else(|| option.strip_prefix("-W"))?;
    // `-Wformat=` and `-Warray-bounds=` name a level after the `=`.
    let name = name.split('=').next().unwrap_or(name);
    match name {
        "return-type" => Some(Kind::MissingReturn),
        "uninitialized" | "maybe-uninitialized" => Some(Kind::Uninitialized),
        "array-bounds" => Some(Kind::IndexOutOfBounds),
        "use-after-free" => Some(Kind::UseAfterFree),
        // `-Wformat=` is a mismatch of a conversion and its argument (or
        // an argument missing). Its kin are left out on purpose:
        // `-Wformat-extra-args` and `-Wformat-zero-length` are harmless,
        // `-Wformat-security` is a risk, not a fault, and
        // `-Wformat-overflow`/`-Wformat-truncation` guess at lengths
        // from ranges and warn of correct programs.
        "format" => Some(Kind::FormatMismatch),
        // "iteration 7 invokes undefined behavior": a loop whose last
        // iteration the compiler proved undefined, most often `<=` where
        // `<` belongs and an index past the end. It may also be an
        // overflow, so it is said as undefined behaviour, not as an index.
        "aggressive-loop-optimizations" => Some(Kind::Undefined),
        _ => None,
    }
}

/// The diagnoses in gcc's JSON diagnostics `json` (what the pass of
/// [`warning_args`] writes on stderr) for the source file `source_name`
/// (its file name: `lab6.c`; the paths in the JSON are the sandbox's, and
/// only their file names are compared).
///
/// Kept: warnings whose option [`kind_of`] knows, located in that file
/// (not in a header or another file), once per kind and line (gcc warns
/// twice of a function it inlined), in gcc's order. Each has the kind,
/// file name, line, gcc's message (bounded) and [`Found::Compiler`]; no
/// function (see the module's documentation).
///
/// JSON that is not gcc's, malformed or deeper than `serde_json` allows
/// gives no diagnosis; at most [`MOST_READ`] diagnostics are read.
/// Anything the driver wrote before the JSON (a line of its own) is
/// skipped.
pub fn parse(json: &str, source_name: &str) -> Vec<Diagnosis> {
    parse_of(json, &[source_name.to_string()])
}

/// [`parse`] for a program of several files, `source_names`: gcc writes
/// one array per source it compiles, each on a line of its own; each is
/// read (one that is malformed gives nothing, the others still count).
pub fn parse_of(json: &str, source_names: &[String]) -> Vec<Diagnosis> {
    let names: Vec<&str> = source_names.iter().map(|n| file_name(n)).collect();
    let mut reader = Reader {
        source_names: &names,
        kept: Vec::new(),
    };
    let Some(start) = json_start(json) else {
        return Vec::new();
    };
    let mut rest = &json[start..];
    loop {
        // This array, up to the next line that starts another.
        let (one, next) = match rest.find("\n[") {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        let before = reader.kept.len();
        let mut de = serde_json::Deserializer::from_str(one);
        if (&mut reader).deserialize(&mut de).is_err() {
            reader.kept.truncate(before);
        }
        match next {
            Some(next) => rest = next,
            None => break,
        }
    }
    reader.kept
}

/// Where the JSON array begins: at the start, or at the first line that
/// begins with `[` (after a line the driver wrote, "gcc: warning: ...").
fn json_start(text: &str) -> Option<usize> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        return Some(text.len() - trimmed.len());
    }
    text.find("\n[").map(|at| at + 1)
}

/// The last part of a path: `/builds/abc/lab6.c` is `lab6.c`.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// One of gcc's diagnostics: only the fields read. Every field may be
/// missing (a note has no option); one of the wrong type makes the
/// whole JSON unread.
#[derive(Deserialize)]
struct GccDiagnostic {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    option: Option<String>,
    #[serde(default)]
    message: String,
    #[serde(default)]
    locations: Vec<GccLocation>,
}

#[derive(Deserialize)]
struct GccLocation {
    #[serde(default)]
    caret: Option<GccPoint>,
}

#[derive(Deserialize)]
struct GccPoint {
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    line: Option<u64>,
}

/// Reads the array of diagnostics one at a time, keeping what is a
/// diagnosis and no more than [`MOST_READ`] of them.
struct Reader<'a> {
    source_names: &'a [&'a str],
    kept: Vec<Diagnosis>,
}

impl Reader<'_> {
    fn take(&mut self, found: GccDiagnostic) {
        // A warning, or one a suite's `-Werror=...` made an error.
        if found.kind != "warning" && found.kind != "error" {
            return;
        }
        let Some(kind) = found.option.as_deref().and_then(kind_of) else {
            return;
        };
        let Some(point) = found.locations.first().and_then(|l| l.caret.as_ref()) else {
            return;
        };
        let Some(file) = point.file.as_deref() else {
            return;
        };
        if !self.source_names.contains(&file_name(file)) {
            return;
        }
        let line = point.line.and_then(|l| u32::try_from(l).ok());
        if self.kept.iter().any(|d| d.kind == kind && d.line == line) {
            return;
        }
        let mut diagnosis = Diagnosis::new(kind, Found::Compiler, &found.message);
        diagnosis.file = Some(super::diagnosis::bounded(file_name(file)));
        diagnosis.line = line;
        self.kept.push(diagnosis);
    }
}

impl<'de> DeserializeSeed<'de> for &mut Reader<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for &mut Reader<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of gcc's diagnostics")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        for _ in 0..MOST_READ {
            match seq.next_element::<GccDiagnostic>()? {
                Some(found) => self.take(found),
                None => return Ok(()),
            }
        }
        // The rest is read over without keeping any of it.
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A warning as gcc 12 writes it (trimmed of fields not read).
    fn warning(option: &str, file: &str, line: u32, message: &str) -> String {
        format!(
            r#"{{"kind": "warning", "locations": [{{"caret": {{"byte-column": 1, "line": {line},
            "file": "{file}", "column": 1}}}}], "option": "{option}", "children": [],
            "message": "{message}", "escape-source": false}}"#
        )
    }

    #[test]
    fn each_warning_that_foretells_undefined_behaviour_has_its_kind() {
        assert_eq!(kind_of("-Wreturn-type"), Some(Kind::MissingReturn));
        assert_eq!(kind_of("-Wuninitialized"), Some(Kind::Uninitialized));
        assert_eq!(kind_of("-Wmaybe-uninitialized"), Some(Kind::Uninitialized));
        assert_eq!(kind_of("-Warray-bounds"), Some(Kind::IndexOutOfBounds));
        assert_eq!(kind_of("-Warray-bounds="), Some(Kind::IndexOutOfBounds));
        assert_eq!(kind_of("-Wuse-after-free"), Some(Kind::UseAfterFree));
        assert_eq!(kind_of("-Wformat="), Some(Kind::FormatMismatch));
        assert_eq!(kind_of("-Werror=return-type"), Some(Kind::MissingReturn));
        assert_eq!(
            kind_of("-Waggressive-loop-optimizations"),
            Some(Kind::Undefined)
        );
        for other in [
            "-Wunused-variable",
            "-Wformat-overflow=",
            "-Wformat-extra-args",
            "-Wformat-security",
            "-Wsign-compare",
            "-Werror",
            "",
            "return-type",
        ] {
            assert_eq!(kind_of(other), None, "{other}");
        }
    }

    #[test]
    fn a_warning_in_the_students_file_is_a_diagnosis_placed_by_file_name() {
        let json = format!(
            "[{}]",
            warning(
                "-Wreturn-type",
                "/sandbox/builds/abc/lab6.c",
                16,
                "control reaches end of non-void function"
            )
        );
        let found = parse(&json, "lab6.c");
        assert_eq!(found.len(), 1);
        let d = &found[0];
        assert_eq!(d.kind, Kind::MissingReturn);
        assert_eq!(d.found, Found::Compiler);
        assert_eq!(d.file.as_deref(), Some("lab6.c"));
        assert_eq!(d.line, Some(16));
        assert_eq!(d.function, None);
        assert_eq!(d.message, "control reaches end of non-void function");
        assert_eq!(d.count, 1);
    }

    #[test]
    fn other_warnings_notes_and_other_files_are_no_diagnosis() {
        let json = format!(
            "[{}, {}, {}, {}]",
            warning("-Wunused-variable", "lab6.c", 3, "unused variable 'x'"),
            warning("-Wformat=", "/usr/include/stdio.h", 300, "in a header"),
            warning("-Wreturn-type", "other.c", 4, "another file of theirs"),
            r#"{"kind": "note", "locations": [{"caret": {"line": 5, "file": "lab6.c"}}],
               "message": "call to 'free' here"}"#,
        );
        assert!(parse(&json, "lab6.c").is_empty());
        // A file named like the student's in another folder is theirs: the
        // sandbox's folder is not known here, only the name.
        let json = format!("[{}]", warning("-Wformat=", "/x/lab6.c", 7, "m"));
        assert_eq!(parse(&json, "lab6.c").len(), 1);
    }

    #[test]
    fn a_warning_gcc_repeats_for_an_inlined_copy_is_said_once() {
        let one = warning("-Warray-bounds", "lab6.c", 10, "array subscript 7");
        let json = format!("[{one}, {one}]");
        assert_eq!(parse(&json, "lab6.c").len(), 1);
    }

    #[test]
    fn a_warning_a_suite_made_an_error_is_read_all_the_same() {
        let json = r#"[{"kind": "error", "option": "-Werror=return-type",
            "locations": [{"caret": {"line": 4, "file": "a.c"}}],
            "message": "control reaches end of non-void function"}]"#;
        let found = parse(json, "a.c");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, Kind::MissingReturn);
    }

    #[test]
    fn malformed_json_gives_nothing_and_never_panics() {
        for bad in [
            "",
            "   ",
            "[]",
            "[",
            "{}",
            "null",
            "not json at all",
            r#"[{"kind": 5}]"#,
            r#"[{"kind": "warning", "locations": [{"caret": {"line": -3, "file": "a.c"}}]}]"#,
            r#"[{"kind": "warning", "option": "-Wformat=", "locations": "x"}]"#,
            "[1, 2, 3]",
            "\u{0}\u{1b}[2J",
        ] {
            assert!(parse(bad, "a.c").is_empty(), "{bad:?}");
        }
        // Deeper than serde_json's recursion limit: an error, not a crash.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse(&deep, "a.c").is_empty());
    }

    #[test]
    fn a_line_number_past_u32_is_no_line() {
        let json = r#"[{"kind": "warning", "option": "-Wformat=",
            "locations": [{"caret": {"line": 99999999999, "file": "a.c"}}], "message": "m"}]"#;
        let found = parse(json, "a.c");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line, None);
    }

    #[test]
    fn what_the_driver_wrote_before_the_json_is_skipped() {
        let json = format!(
            "gcc: warning: something of the driver's\n[{}]\n",
            warning("-Wformat=", "a.c", 2, "m")
        );
        assert_eq!(parse(&json, "a.c").len(), 1);
    }

    #[test]
    fn thousands_of_warnings_are_read_up_to_the_limit_and_skipped_after() {
        let many: Vec<String> = (1..=5000)
            .map(|line| warning("-Wformat=", "a.c", line, "m"))
            .collect();
        let json = format!("[{}]", many.join(","));
        let found = parse(&json, "a.c");
        assert_eq!(found.len(), MOST_READ);
        assert_eq!(found.last().and_then(|d| d.line), Some(MOST_READ as u32));
        // The skipped rest is still checked: broken JSON after the limit
        // is broken JSON.
        let broken = format!("[{}, {{\"kind\": ]", many.join(","));
        assert!(parse(&broken, "a.c").is_empty());
    }

    #[test]
    fn a_message_the_program_wrote_into_is_bounded_and_safe() {
        let long = "x".repeat(10_000);
        let json = format!(
            "[{}, {}]",
            warning("-Wformat=", "a.c", 1, &long),
            warning("-Wformat=", "a.c", 2, "\\u001b[2Jcleared")
        );
        let found = parse(&json, "a.c");
        assert_eq!(found[0].message.chars().count(), super::super::TEXT_LIMIT);
        assert!(!found[1].message.contains('\u{1b}'));
    }

    #[test]
    fn the_pass_optimises_keeps_no_output_and_writes_json() {
        let args = warning_args();
        let in_build = in_build_args();
        assert_eq!(in_build.first(), Some(&"-Wno-error"));
        assert_eq!(in_build.last(), Some(&"-fdiagnostics-format=json"));
        assert!(!in_build.iter().any(|a| a.starts_with("-O") || *a == "-S"));
        for needed in [
            "-O2",
            "-fdiagnostics-format=json",
            "-fno-sanitize=all",
            "-S",
        ] {
            assert!(args.contains(&needed), "{needed}");
        }
        let o = args.iter().position(|a| *a == "-o").unwrap();
        assert_eq!(args[o + 1], "/dev/null");
        assert!(!args.iter().any(|a| a.starts_with("-fsanitize=")));
    }
}
