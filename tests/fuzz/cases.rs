//! Case files and suites: a TA's typos (the shipped files mutated) and
//! arbitrary YAML, loaded from a folder. Never a panic: every file
//! either loads or is reported, by its name, with a line where there is
//! one.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use referee::case::{load_suite, Problem, SUITE_FILE};

use crate::corpus::{self, YAML};
use crate::{config, timed};

/// A change a TA's editor, or a TA, could make to a YAML file.
#[derive(Clone, Debug)]
enum Edit {
    /// Text typed somewhere.
    Insert(Index, String),
    /// Characters deleted.
    Delete(Index, usize),
    /// A line's indentation changed.
    Indent(Index, usize, bool),
    /// A line doubled.
    Duplicate(Index),
    /// A line left out.
    Drop(Index),
    /// A value replaced.
    Value(Index, String),
    /// A key misspelt.
    Typo(Index, Index, char),
}

/// Things YAML reads specially, and values of the wrong kind.
const WORDS: &[&str] = &[
    "\t",
    "  ",
    ": ",
    "- ",
    "#",
    "'",
    "\"",
    "\\",
    "|",
    ">",
    "[",
    "]",
    "{",
    "}",
    "&a ",
    "*a",
    "!!binary ",
    "!!int ",
    "!custom ",
    "? ",
    "%",
    "@",
    "`",
    "~",
    "null",
    "yes",
    "no",
    "007",
    "0x1F",
    "1e400",
    "-1",
    "-0",
    ".nan",
    ".inf",
    "-.inf",
    "1e-400",
    "18446744073709551616",
    "0s",
    "25h",
    "86400s",
    "1ms",
    "0.0001ms",
    "10 parsecs",
    "1e15",
    "0B",
    "1GiB",
    "999999999999TiB",
    "exact",
    "[exact, case]",
    "[whitespace-runs, nothing]",
    "game",
    "text",
    "ending",
    "public",
    "required",
    "pentago",
    "connect4",
    "connect4-bomb",
    "chess",
    "solution.c",
    "../../etc/passwd",
    "/etc/shadow",
    "'(unclosed'",
    "'a{99999}{99999}'",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    "\u{feff}",
    "é",
    "\u{202e}",
    "\r",
];

fn edit() -> impl Strategy<Value = Edit> {
    let word = || {
        prop_oneof![
            3 => select(WORDS).prop_map(str::to_string),
            1 => "[ -~]{0,12}",
            1 => "[^\0]{0,6}",
        ]
    };
    prop_oneof![
        3 => (any::<Index>(), word()).prop_map(|(at, w)| Edit::Insert(at, w)),
        2 => (any::<Index>(), 1..20usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        2 => (any::<Index>(), 1..5usize, any::<bool>()).prop_map(|(at, n, more)| Edit::Indent(at, n, more)),
        1 => any::<Index>().prop_map(Edit::Duplicate),
        1 => any::<Index>().prop_map(Edit::Drop),
        3 => (any::<Index>(), word()).prop_map(|(at, w)| Edit::Value(at, w)),
        2 => (any::<Index>(), any::<Index>(), select(&['_', '-', 's', 'x', ' ', 'é'][..]))
            .prop_map(|(line, at, c)| Edit::Typo(line, at, c)),
    ]
}

fn edited(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for e in edits {
        apply(&mut text, e);
    }
    text
}

/// The character boundary `at` picks in `text`.
fn boundary(text: &str, at: &Index) -> usize {
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    bounds[at.index(bounds.len())]
}

fn apply(text: &mut String, edit: &Edit) {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let pick = |at: &Index, n: usize| at.index(n.max(1)).min(n.saturating_sub(1));
    match edit {
        Edit::Insert(at, word) => {
            let at = boundary(text, at);
            text.insert_str(at, word);
            return;
        }
        Edit::Delete(at, n) => {
            let from = boundary(text, at);
            let to = text[from..]
                .char_indices()
                .nth(*n)
                .map_or(text.len(), |(i, _)| from + i);
            text.replace_range(from..to, "");
            return;
        }
        Edit::Indent(at, n, more) => {
            let i = pick(at, lines.len());
            if *more {
                lines[i].insert_str(0, &" ".repeat(*n));
            } else {
                let spaces = lines[i].len() - lines[i].trim_start_matches(' ').len();
                lines[i].replace_range(..spaces.min(*n), "");
            }
        }
        Edit::Duplicate(at) => {
            let i = pick(at, lines.len());
            let line = lines[i].clone();
            lines.insert(i, line);
        }
        Edit::Drop(at) => {
            let i = pick(at, lines.len());
            lines.remove(i);
        }
        Edit::Value(at, word) => {
            let i = pick(at, lines.len());
            if let Some(colon) = lines[i].find(": ") {
                lines[i].replace_range(colon + 2.., word);
            } else if let Some(dash) = lines[i].find("- ") {
                lines[i].replace_range(dash + 2.., word);
            } else {
                lines[i].push_str(word);
            }
        }
        Edit::Typo(line, at, c) => {
            let i = pick(line, lines.len());
            let key_end = lines[i].find(':').unwrap_or(0);
            let key = &lines[i][..key_end];
            let at = boundary(key, at);
            lines[i].insert(at, *c);
        }
    }
    *text = lines.join("\n");
}

/// YAML made from scratch out of the format's own keys, and others.
fn yaml(depth: u32) -> impl Strategy<Value = String> {
    let keys = select(
        &[
            "game",
            "reference",
            "name",
            "title",
            "generator",
            "defaults",
            "ignore_regions",
            "rubric",
            "regions",
            "support",
            "compile",
            "compiler",
            "explore_points",
            "description",
            "input",
            "end_of_input",
            "call",
            "points",
            "visibility",
            "timeout",
            "cpu",
            "output_limit",
            "memory",
            "compare",
            "mode",
            "format_points",
            "move_numbers",
            "ending_points",
            "exit_status",
            "format",
            "until",
            "from",
            "item",
            "by_hand",
            "function",
            "board",
            "args",
            "c",
            "cpp",
            "flags",
            "timout",
            "Points",
            "<<",
        ][..],
    );
    let scalar = prop_oneof![
        3 => select(WORDS).prop_map(|w| format!("{w:?}")),
        2 => select(WORDS).prop_map(str::to_string),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => any::<f64>().prop_map(|n| n.to_string()),
        1 => "[ -~]{0,10}".prop_map(|s| format!("{s:?}")),
    ];
    let leaf = scalar.prop_map(Value::Scalar);
    let value = leaf.prop_recursive(depth, 64, 6, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..5).prop_map(Value::List),
            vec((keys.clone(), inner), 0..6).prop_map(|pairs| {
                Value::Map(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    });
    value.prop_map(|v| {
        let mut out = String::new();
        v.write(&mut out, 0);
        out
    })
}

#[derive(Clone, Debug)]
enum Value {
    Scalar(String),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
}

impl Value {
    /// Block-style YAML, as a TA writes it.
    fn write(&self, out: &mut String, indent: usize) {
        let pad = " ".repeat(indent);
        match self {
            Value::Scalar(s) => {
                out.push_str(s);
                out.push('\n');
            }
            Value::List(items) => {
                out.push('\n');
                for item in items {
                    out.push_str(&format!("{pad}- "));
                    item.write(out, indent + 2);
                }
            }
            Value::Map(pairs) => {
                out.push('\n');
                for (key, value) in pairs {
                    out.push_str(&format!("{pad}{key}: "));
                    value.write(out, indent + 2);
                }
            }
        }
    }
}

/// The shipped YAML files of one suite: its `suite.yaml` and case files.
fn files_of(suite: usize) -> Vec<(&'static Path, &'static str)> {
    let dir = corpus::root().join(corpus::SUITES[suite]);
    YAML.iter()
        .filter(|(p, _)| p.parent() == Some(dir.as_path()))
        .map(|(p, t)| (p.as_path(), t.as_str()))
        .collect()
}

/// A file name a case file could be given: the shipped one, or
/// anything ending in `.yaml`.
fn case_name() -> impl Strategy<Value = Option<Vec<u8>>> {
    proptest::option::weighted(
        0.2,
        prop_oneof![
            "[a-z0-9 ._é-]{0,12}".prop_map(String::into_bytes),
            vec(
                any::<u8>().prop_filter("a file name byte", |b| *b != b'/' && *b != 0),
                0..12
            ),
        ],
    )
}

/// Writes the suite's files as given into a fresh folder and loads it;
/// checks that nothing is lost and every problem names its file.
fn load(files: &[(OsString, String)]) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut written: Vec<(PathBuf, String)> = Vec::new();
    for (name, text) in files {
        let path = dir.path().join(name);
        if written.iter().any(|(p, _)| *p == path) {
            continue;
        }
        std::fs::write(&path, text).expect("a file written");
        written.push((path, text.clone()));
    }
    let loaded = timed("loading a suite", || load_suite(dir.path()));
    let suite_file = dir.path().join(SUITE_FILE);
    match loaded {
        Err(problem) => {
            assert!(
                problem.file == suite_file || problem.file == dir.path(),
                "a suite's problem names the suite: {problem}"
            );
            check_problem(&problem, &written);
        }
        Ok(suite) => {
            for problem in &suite.problems {
                check_problem(problem, &written);
            }
            for (path, _) in &written {
                let is_case = path != &suite_file
                    && path.extension().is_some_and(|e| e == "yaml" || e == "yml");
                if !is_case {
                    continue;
                }
                let loaded = suite.cases.iter().filter(|c| &c.file == path).count();
                let reported = suite.problems.iter().filter(|p| &p.file == path).count();
                assert_eq!(
                    loaded + reported.min(1),
                    1,
                    "{} loaded {loaded} times, reported {reported} times",
                    path.display()
                );
            }
        }
    }
}

/// A problem names a file that was written (or the folder), at a line
/// the file has, with a message.
fn check_problem(problem: &Problem, written: &[(PathBuf, String)]) {
    assert!(!problem.message.trim().is_empty(), "{problem:?}");
    let shown = problem.to_string();
    assert!(shown.contains(&problem.file.display().to_string()));
    if let Some((line, column)) = problem.position {
        let text = written
            .iter()
            .find(|(p, _)| *p == problem.file)
            .map(|(_, t)| t.as_str())
            .unwrap_or_default();
        let lines = text.split('\n').count();
        assert!(
            (1..=lines + 1).contains(&line) && column >= 1,
            "{problem} is outside its file of {lines} lines"
        );
    }
}

proptest! {
    #![proptest_config(config(120))]

    #[test]
    fn a_suite_with_typos_loads_or_says_where(
        suite in 0..corpus::SUITES.len(),
        picked in vec(any::<Index>(), 1..4),
        suite_edits in vec(edit(), 0..3),
        case_edits in vec(vec(edit(), 0..4), 3),
        names in vec(case_name(), 3),
    ) {
        let dir = corpus::root().join(corpus::SUITES[suite]);
        let shipped = files_of(suite);
        let cases: Vec<(&Path, &str)> =
            shipped.iter().copied().filter(|(p, _)| !p.ends_with(SUITE_FILE)).collect();
        let mut files = vec![(
            OsString::from(SUITE_FILE),
            edited(corpus::suite_yaml(&dir), &suite_edits),
        )];
        for ((at, edits), name) in picked.iter().zip(&case_edits).zip(&names) {
            let (path, text) = at.get(&cases);
            let name = match name {
                Some(bytes) => {
                    let mut bytes = bytes.clone();
                    bytes.extend_from_slice(b".yaml");
                    OsString::from_vec(bytes)
                }
                None => path.file_name().expect("a file").to_os_string(),
            };
            files.push((name, edited(text, edits)));
        }
        load(&files);
    }

    #[test]
    fn arbitrary_yaml_loads_or_says_where(
        suite in prop_oneof![
            1 => yaml(3),
            3 => Just("game: pentago\n".to_string()),
            1 => Just("reference: solution.c\n".to_string()),
        ],
        cases in vec(yaml(3), 1..4),
    ) {
        let mut files = vec![(OsString::from(SUITE_FILE), suite)];
        for (i, text) in cases.into_iter().enumerate() {
            files.push((OsString::from(format!("case-{i}.yaml")), text));
        }
        load(&files);
    }
}
