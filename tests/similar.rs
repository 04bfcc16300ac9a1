//! `referee similar` on programs written for it from the shipped
//! fixtures: each disguise a copier uses, alone and all together, still
//! ranks the copy above every pair of programs written apart; starter
//! code the whole class was given makes no pair similar; bad input is
//! said and nothing else lost; and, on a class graded for it, pairs list
//! the failures they share.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use referee::similar::{self, tokens::Language, Program, Report, Source, Sources};

#[path = "similar/disguises.rs"]
mod disguises;
use disguises::{disguises, rename, INDEPENDENT};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap()
}

fn program(id: &str, name: &str, text: String) -> Program {
    Program {
        id: id.into(),
        sources: Sources {
            files: vec![Source {
                name: name.into(),
                language: Language::of(Path::new(name)),
                text,
            }],
            notes: Vec::new(),
        },
    }
}

/// The independent programs and `copy` of the one at `original`, with
/// ids `p0`, `p1`, ... and `copy`.
fn class_with(original: usize, copy: String) -> Vec<Program> {
    let mut class: Vec<Program> = INDEPENDENT
        .iter()
        .enumerate()
        .map(|(i, path)| program(&format!("p{i:02}"), path, read(path)))
        .collect();
    let name = INDEPENDENT[original];
    class.push(program("zcopy", name, copy));
    class
}

fn score(report: &Report, a: &str, b: &str) -> f64 {
    report
        .pairs
        .iter()
        .find(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
        .map_or(0.0, |p| p.similarity)
}

/// The highest score of any pair but `a` and `b`.
fn best_other(report: &Report, a: &str, b: &str) -> (f64, String) {
    report
        .pairs
        .iter()
        .filter(|p| !((p.a == a && p.b == b) || (p.a == b && p.b == a)))
        .map(|p| (p.similarity, format!("{} and {}", p.a, p.b)))
        .fold((0.0, String::new()), |x, y| if y.0 > x.0 { y } else { x })
}

#[test]
fn every_disguise_still_ranks_the_copy_above_every_independent_pair() {
    for original in [0, 1] {
        let source = read(INDEPENDENT[original]);
        for (what, disguise) in disguises() {
            let copy = disguise(&source);
            assert_ne!(copy, source, "{what} changed nothing");
            let report = similar::compare(&class_with(original, copy), &[], Vec::new(), None);
            let a = format!("p{original:02}");
            let pair = score(&report, &a, "zcopy");
            let (other, which) = best_other(&report, &a, "zcopy");
            eprintln!(
                "{}: {what}: {pair} (next: {other}, {which})",
                INDEPENDENT[original]
            );
            assert!(
                pair > other,
                "{}, {what}: the copy scores {pair}, {which} {other}",
                INDEPENDENT[original]
            );
            // Alone, a disguise keeps most of the program; together, they
            // leave a third of it (a statement added every third one
            // breaks most k-grams), still far above programs written apart.
            let least = if what == "all together" { 0.3 } else { 0.5 };
            assert!(pair >= least, "{what}: {pair}");
        }
    }
}

#[test]
fn identical_files_score_1_and_unrelated_ones_near_0() {
    let report = similar::compare(&class_with(1, read(INDEPENDENT[1])), &[], Vec::new(), None);
    assert_eq!(score(&report, "p01", "zcopy"), 1.0);
    // Most similar first, each pair once.
    let scores: Vec<f64> = report.pairs.iter().map(|p| p.similarity).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(report.pairs.iter().all(|p| p.a < p.b));
    assert_eq!(report.histogram.iter().sum::<usize>(), 13 * 12 / 2);
    // Programs written apart score near 0: at most 0.2 for two board
    // games that print their grids and look for a row in four directions
    // alike (pentago and connect4: the loops over a grid are shared), and
    // 0.05 for programs of different kinds.
    let same_kind = ["p00", "p01", "p06", "zcopy"];
    for pair in &report.pairs {
        if (pair.a.as_str(), pair.b.as_str()) == ("p01", "zcopy") {
            continue;
        }
        let limit = if same_kind.contains(&pair.a.as_str()) && same_kind.contains(&pair.b.as_str())
        {
            0.2
        } else {
            0.05
        };
        assert!(
            pair.similarity <= limit,
            "{} and {}: {}",
            pair.a,
            pair.b,
            pair.similarity
        );
    }
}

/// Runs `referee` with `args`; its exit code, stdout and stderr.
fn referee(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `referee similar FLAG FOLDER --out OUT CLASS`.
fn similar_with(flag: &str, folder: &Path, out: &Path, class: &Path) -> (i32, String, String) {
    referee(&[
        "similar".as_ref(),
        flag.as_ref(),
        folder.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        class.as_os_str(),
    ])
}

fn similar_json(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&fs::read(out.join("similarity.json")).unwrap()).unwrap()
}

fn json_score(report: &serde_json::Value, a: &str, b: &str) -> f64 {
    report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| (p["a"] == a && p["b"] == b) || (p["a"] == b && p["b"] == a))
        .map_or(0.0, |p| p["similarity"].as_f64().unwrap())
}

#[test]
fn starter_code_the_whole_class_was_given_makes_no_pair_similar() {
    // Named with `--base`, or by the suite (`starter:` in suite.yaml).
    let dir = tempfile::tempdir().unwrap();
    let starter: String = read("tests/fixtures/pentago/correct.c")
        .lines()
        .take(110)
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(dir.path().join("starter.c"), &starter).unwrap();
    let class = dir.path().join("class");
    fs::create_dir(&class).unwrap();
    let own = [
        "tests/fixtures/connect4/correct.c",
        "examples/temperature/solution.c",
        "tests/fixtures/caesar/caesar.c",
        "tests/fixtures/temperature/wc.c",
    ];
    for (i, path) in own.iter().enumerate() {
        let text = format!(
            "{starter}\n{}",
            read(path).replace("int main(", "int main2(")
        );
        fs::write(class.join(format!("s{i}.c")), text).unwrap();
    }
    // A suite that names the starter code (`starter:`), and one that
    // names a file it does not have.
    let suite = dir.path().join("suite");
    fs::create_dir_all(suite.join("handout")).unwrap();
    fs::write(suite.join("handout/starter.c"), &starter).unwrap();
    fs::write(suite.join("solution.c"), "int main(void) { return 0; }\n").unwrap();
    fs::write(
        suite.join("suite.yaml"),
        "reference: solution.c\nstarter: [handout/starter.c]\n",
    )
    .unwrap();
    let run = |given: &str| {
        let out = dir.path().join(given);
        let mut args: Vec<&std::ffi::OsStr> = vec!["similar".as_ref(), "--out".as_ref()];
        args.push(out.as_os_str());
        let starter = dir.path().join("starter.c");
        match given {
            "base" => args.extend(["--base".as_ref(), starter.as_os_str()]),
            "suite" => args.extend(["--cases".as_ref(), suite.as_os_str()]),
            _ => {}
        }
        args.push(class.as_os_str());
        let (code, stdout, stderr) = referee(&args);
        assert_eq!(code, 0, "{stdout}{stderr}");
        similar_json(&out)
    };
    // Without the starter named, every pair holds it (the test means
    // something); named, no pair scores high.
    let without = run("none");
    assert!(json_score(&without, "s0", "s1") > 0.5, "{without}");
    for given in ["base", "suite"] {
        let with = run(given);
        assert_eq!(with["method"]["base"][0], "starter.c", "{given}");
        for pair in with["pairs"].as_array().unwrap() {
            assert!(
                pair["similarity"].as_f64().unwrap() <= 0.2,
                "{given}: {pair}"
            );
        }
    }
    fs::write(
        suite.join("suite.yaml"),
        "reference: solution.c\nstarter: [handout/missing.c]\n",
    )
    .unwrap();
    let out = dir.path().join("refused");
    let (code, stdout, stderr) = similar_with("--cases", &suite, &out, &class);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("suite.yaml:2") && stderr.contains("starter file `handout/missing.c`"),
        "{stderr}"
    );
}

#[test]
fn bad_input_is_said_and_nothing_else_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    fs::create_dir(&class).unwrap();
    let c = |name: &str| class.join(name);
    let original = read("tests/fixtures/connect4/correct.c");
    fs::write(c("alice.c"), &original).unwrap();
    fs::write(c("bob.c"), rename(&original)).unwrap();
    fs::write(c("carol.c"), b"\x7fELF\x02\x01\x01\x00\x00\x00binary").unwrap();
    fs::write(c("dave.c"), b"").unwrap();
    let program = read("tests/fixtures/pentago/correct.c");
    let big = program.repeat((10 << 20) / program.len() + 1);
    assert!(big.len() > 10 << 20);
    fs::write(c("erin.c"), &big).unwrap();
    let mut latin = read("examples/temperature/solution.c").into_bytes();
    latin.extend(b"/* caf\xe9 */\n");
    fs::write(c("frank.c"), latin).unwrap();
    std::os::unix::fs::symlink(c("alice.c"), c("gina.c")).unwrap();
    let out = dir.path().join("out");
    let (code, stdout, stderr) = referee(&[
        "similar".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
        class.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report = similar_json(&out);
    assert_eq!(json_score(&report, "alice", "bob"), 1.0, "{report}");
    let reason = |id: &str| {
        report["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .map(|s| s["reason"].as_str().unwrap().to_string())
            .unwrap_or_default()
    };
    assert!(reason("carol").contains("binary"), "{report}");
    assert!(reason("dave").contains("empty"), "{report}");
    assert!(reason("gina").contains("symbolic link"), "{report}");
    let notes = |id: &str| {
        report["programs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .map(|p| p["notes"].to_string())
            .unwrap_or_default()
    };
    assert!(notes("erin").contains("only its first 1 MiB"), "{report}");
    assert!(notes("frank").contains("not UTF-8"), "{report}");
    for said in ["carol", "dave", "gina", "erin", "frank"] {
        assert!(stdout.contains(said), "{said}: {stdout}");
    }
    // Every page escapes what students wrote.
    let page = fs::read_to_string(out.join("similar/alice--bob.html")).unwrap();
    assert!(page.contains("#include &lt;stdio.h&gt;"), "{page}");
    assert!(!page.contains("<stdio.h>"));

    // A class of one has nothing to be compared with.
    let (code, _, stderr) = referee(&[
        "similar".as_ref(),
        "--out".as_ref(),
        dir.path().join("one").as_os_str(),
        c("alice.c").as_os_str(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("one submission"), "{stderr}");
}

#[test]
fn pairs_list_the_failures_they_share_in_a_graded_class() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    fs::create_dir(&class).unwrap();
    let from = root().join("examples/temperature-class");
    for name in ["alice.c", "gina.c", "hana.c"] {
        fs::copy(from.join(name), class.join(name)).unwrap();
    }
    // Hana's bug, copied with its names changed.
    let word = regex::Regex::new(r"\b(line|read_line|celsius|fahrenheit|extra)\b").unwrap();
    let hana = read("examples/temperature-class/hana.c");
    let ivan = word.replace_all(&hana, |c: &regex::Captures| format!("my_{}", &c[0]));
    fs::write(class.join("ivan.c"), ivan.as_bytes()).unwrap();
    let out = dir.path().join("out");
    let cases = root().join("examples/temperature");
    let (code, stdout, stderr) = referee(&[
        "grade".as_ref(),
        "--cases".as_ref(),
        cases.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        class.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (code, stdout, stderr) = referee(&[
        "similar".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
        class.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report = similar_json(&out);
    assert_eq!(report["method"]["behaviour"], true);
    let pair = |a: &str, b: &str| {
        report["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["a"] == a && p["b"] == b)
            .cloned()
            .unwrap_or_default()
    };
    let copied = pair("hana", "ivan");
    let same = copied["same_failures"].as_array().unwrap();
    assert!(!same.is_empty(), "{copied}");
    for failure in same {
        // Only these two printed it: the rarest, weighed 1.
        assert_eq!(failure["shared_by"], 2, "{failure}");
        assert_eq!(failure["weight"], 1.0, "{failure}");
    }
    // The correct program and the one printing numbers its own way share
    // no failure with anyone.
    for (a, b) in [("alice", "gina"), ("alice", "hana"), ("gina", "hana")] {
        let p = pair(a, b);
        if !p.is_null() {
            assert_eq!(p["same_failures"], serde_json::json!([]), "{a} and {b}");
        }
    }
    // Graded into one folder and compared into another: --results.
    let apart = dir.path().join("apart");
    let (code, stdout, stderr) = similar_with("--results", &out, &apart, &class);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report_apart = similar_json(&apart);
    assert_eq!(report_apart["pairs"], report["pairs"]);
    // A --results folder with no results is said, and the text compared.
    let (code, stdout, stderr) = referee(&[
        "similar".as_ref(),
        "--results".as_ref(),
        class.as_os_str(),
        "--out".as_ref(),
        dir.path().join("text-only").as_os_str(),
        class.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("holds no results of this class's students"),
        "{stderr}"
    );
    assert_eq!(
        similar_json(&dir.path().join("text-only"))["method"]["behaviour"],
        false
    );
    // And grade still takes its folder back.
    let (code, stdout, stderr) = referee(&[
        "grade".as_ref(),
        "--cases".as_ref(),
        cases.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        class.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

#[test]
fn pages_escape_everything_a_student_wrote() {
    let hostile = "/* <img src=x onerror=alert(1)> */\n\
                   int main(void) { printf(\"</div><script>alert(1)</script>\"); }\n";
    let text = format!("{hostile}{}", read("tests/fixtures/connect4/correct.c"));
    let programs = vec![
        program("eve&<i>", "eve.c", text.clone()),
        program("mallory", "<b>.c", text),
    ];
    let report = similar::compare(&programs, &[], Vec::new(), None);
    let dir = tempfile::tempdir().unwrap();
    let written = referee::export::similarity::write(dir.path(), &report, &programs).unwrap();
    assert_eq!(written.len(), 3, "{written:?}");
    // (The JSON keeps what they wrote as it is: JSON escapes its own.)
    for path in &written[1..] {
        let page = fs::read_to_string(path).unwrap();
        for markup in ["<script", "<img", "<i>", "<b>"] {
            assert!(!page.contains(markup), "{}: {markup}", path.display());
        }
    }
    let pair = fs::read_to_string(&written[2]).unwrap();
    assert!(pair.contains("&lt;/div&gt;&lt;script&gt;"), "{pair}");
    assert!(pair.contains("eve&amp;&lt;i&gt;"), "{pair}");
    // Matched regions are coloured, and link to their match.
    assert!(pair.contains("href=\"#b0\""), "{pair}");
    assert!(pair.contains("id=\"b0\""), "{pair}");
}

/// A suite's own language (`languages:`, JavaScript here) makes its
/// sources programs of the class for `similar --cases` as for `grade`:
/// compared as text, a copy laid out anew still scores high, a program
/// written apart does not, and nobody is skipped.
#[test]
fn a_suites_own_language_is_compared_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    fs::create_dir_all(&suite).unwrap();
    fs::write(
        suite.join("suite.yaml"),
        "reference: solution.js\nlanguages:\n  javascript:\n    extensions: [js]\n    \
         run: [node, \"{source}\"]\n    reserve: 2GiB\n",
    )
    .unwrap();
    fs::write(suite.join("solution.js"), "console.log('hi');\n").unwrap();
    let game: String = (0..40)
        .map(|i| format!("function step{i}(board) {{ return board.map(x => x * {i} + 1); }}\n"))
        .collect();
    let other: String = (0..40)
        .map(|i| format!("let total{i} = [1, 2, 3].reduce((a, b) => a - b, {i});\n"))
        .collect();
    let class = dir.path().join("class");
    for (student, text) in [
        ("alice", game.clone()),
        ("bob", game.replace(' ', "  ").replace(";\n", ";\n\n")),
        ("carol", other),
    ] {
        fs::create_dir_all(class.join(student)).unwrap();
        fs::write(class.join(student).join("game.js"), text).unwrap();
    }
    let out = dir.path().join("out");
    let (code, stdout, stderr) = similar_with("--cases", &suite, &out, &class);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report = similar_json(&out);
    assert!(json_score(&report, "alice", "bob") >= 0.9, "{report}");
    assert!(json_score(&report, "alice", "carol") < 0.3, "{report}");
    assert_eq!(report["skipped"], serde_json::json!([]), "{report}");
}
