//! `referee similar` on a generated class: 1,000 programs of C of 300
//! lines or more each (about 380; at full scale), a tenth of them copies
//! of another with names changed and functions reordered. Prints how long reading
//! and comparing the class takes, and what it found; asserts nothing
//! about speed. `REFEREE_BENCH_SCALE=0.1` compares a tenth of the class.
//!
//! Beside it, a peer run the same way on the same programs: Dolos
//! (Ghent University's, `@dodona/dolos-lib` from npm, installed into
//! `target/dolos` the first time; its time measured inside node, as
//! referee's is measured inside this process), on the generated class and
//! on each disguise of tests/similar.rs applied to a shipped C program
//! among the other shipped C programs: how often each tool ranks the
//! copy first, and by how much. Where npm or node cannot be had, the
//! peer's rows say so and referee's are printed alone.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

#[path = "../tests/similar/disguises.rs"]
mod disguises;

use referee::similar::{self, tokens::Language, Program, Source, Sources};

/// `REFEREE_BENCH_SCALE`: the share of the class to compare (1 by
/// default), as the other benchmarks read it.
fn scale() -> f64 {
    std::env::var("REFEREE_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0)
}

/// Programs in the class at full scale.
const CLASS: usize = 1000;

/// Functions per program: each about 25 lines.
const FUNCTIONS: usize = 12;

/// A small, seeded random number generator (xorshift64*): the same class
/// on every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const OPS: [&str; 8] = ["+", "-", "*", "/", "%", "&", "|", "^"];
const COMPARE: [&str; 6] = ["<", ">", "<=", ">=", "==", "!="];
const TYPES: [&str; 4] = ["int", "long", "double", "char"];

fn name(r: &mut Random) -> String {
    format!("v{}", r.below(40))
}

fn expression(r: &mut Random) -> String {
    let mut text = name(r);
    for _ in 0..r.below(4) {
        let operand = if r.below(2) == 0 {
            name(r)
        } else {
            r.below(100).to_string()
        };
        let _ = write!(text, " {} {operand}", r.pick(&OPS));
    }
    text
}

fn statement(r: &mut Random, depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth);
    let kind = if depth > 3 { r.below(3) } else { r.below(7) };
    match kind {
        0 => {
            let _ = writeln!(out, "{indent}{} = {};", name(r), expression(r));
        }
        1 => {
            let _ = writeln!(out, "{indent}printf(\"%d\\n\", {});", expression(r));
        }
        2 => {
            let _ = writeln!(
                out,
                "{indent}{} {} = {};",
                r.pick(&TYPES),
                name(r),
                expression(r)
            );
        }
        3 | 4 => {
            let _ = writeln!(
                out,
                "{indent}if ({} {} {}) {{",
                expression(r),
                r.pick(&COMPARE),
                expression(r)
            );
            for _ in 0..1 + r.below(3) {
                statement(r, depth + 1, out);
            }
            let _ = writeln!(out, "{indent}}}");
        }
        5 => {
            let i = name(r);
            let _ = writeln!(
                out,
                "{indent}for ({i} = 0; {i} < {}; {i}++) {{",
                expression(r)
            );
            for _ in 0..1 + r.below(3) {
                statement(r, depth + 1, out);
            }
            let _ = writeln!(out, "{indent}}}");
        }
        _ => {
            let _ = writeln!(
                out,
                "{indent}while ({} {} 0) {{",
                expression(r),
                r.pick(&COMPARE)
            );
            statement(r, depth + 1, out);
            let _ = writeln!(out, "{indent}  {}--;", name(r));
            let _ = writeln!(out, "{indent}}}");
        }
    }
}

/// One program's functions.
fn functions(r: &mut Random) -> Vec<String> {
    (0..FUNCTIONS)
        .map(|f| {
            let mut text = format!("int f{f}(int v0, int v1) {{\n");
            while text.lines().count() < 24 {
                statement(r, 1, &mut text);
            }
            text.push_str("  return v0;\n}\n");
            text
        })
        .collect()
}

fn program(id: String, text: String) -> Program {
    Program {
        id,
        sources: Sources {
            files: vec![Source {
                name: "main.c".into(),
                language: Language::C,
                text,
            }],
            notes: Vec::new(),
        },
    }
}

/// The class: independent programs, and every tenth a copy of the one
/// before it, its names changed and functions reversed.
fn class(size: usize) -> Vec<Program> {
    let mut r = Random(0x5eed_1234_abcd_ef01);
    let mut programs = Vec::with_capacity(size);
    let mut last: Vec<String> = Vec::new();
    for n in 0..size {
        let parts = if n % 10 == 9 {
            let mut copy: Vec<String> = last.iter().map(|f| f.replace('v', "w")).collect();
            copy.reverse();
            copy
        } else {
            functions(&mut r)
        };
        let text = format!("#include <stdio.h>\n\n{}", parts.concat());
        last = parts;
        programs.push(program(format!("s{n:04}"), text));
    }
    programs
}

fn main() {
    let size = ((CLASS as f64 * scale()).round() as usize).max(2);
    let peer = Dolos::install();
    if let Err(why) = &peer {
        println!("Dolos: not measured ({why})");
    }
    // The peer on a tenth and three tenths of the class too: it compares
    // every pair that shares a fingerprint in full, and this generator's
    // programs all share some, so the whole class may take it longer
    // than its budget.
    let mut sizes = vec![size / 10, size * 3 / 10, size];
    sizes.retain(|&n| n >= 20 || n == size);
    sizes.dedup();
    let mut peer_on = peer.as_ref().ok();
    for n in sizes {
        if !one_class(n, peer_on) {
            peer_on = None;
        }
    }
    disguised(peer.as_ref().ok());
}

/// referee, and `peer` where given, on the first `size` programs of the
/// generated class. False when the peer did not finish.
fn one_class(size: usize, peer: Option<&Dolos>) -> bool {
    let started = Instant::now();
    let programs = class(size);
    let lines: usize = programs
        .iter()
        .map(|p| p.sources.files[0].text.lines().count())
        .sum();
    let made = started.elapsed();
    let started = Instant::now();
    let report = similar::compare(&programs, &[], Vec::new(), None);
    let compared = started.elapsed();
    let copies = report.pairs.iter().filter(|p| p.similarity >= 0.9).count();
    let ours: Vec<Scored> = report
        .pairs
        .iter()
        .map(|p| (p.a.clone(), p.b.clone(), p.similarity))
        .collect();
    println!(
        "\nsimilar: {size} programs of {} lines on average (made in {:.2} s)",
        lines / size,
        made.as_secs_f64()
    );
    println!(
        "  referee: compared in {:.2} s: {} pairs share code, {copies} score 0.9 or more; {} of the \
         {} copies are the {} most similar pairs; the most similar pair written apart scores {:.2}",
        compared.as_secs_f64(),
        report.pairs.len() + report.pairs_not_shown,
        copies_on_top(&ours, size / 10),
        size / 10,
        size / 10,
        best_apart(&ours)
    );
    let Some(dolos) = peer else {
        return true;
    };
    match dolos.run_class(&programs) {
        Ok((took, pairs)) => {
            println!(
                "  Dolos {DOLOS_VERSION}: compared in {:.2} s ({:.1}x referee's time); {} of the {} \
                 copies are its {} most similar pairs; the most similar pair written apart scores {:.2}",
                took.as_secs_f64(),
                took.as_secs_f64() / compared.as_secs_f64().max(1e-9),
                copies_on_top(&pairs, size / 10),
                size / 10,
                size / 10,
                best_apart(&pairs)
            );
            true
        }
        Err(why) => {
            println!("  Dolos {DOLOS_VERSION}: {why}");
            false
        }
    }
}

/// The highest score of a pair that is not a copy and its original.
fn best_apart(pairs: &[Scored]) -> f64 {
    pairs
        .iter()
        .filter(|(a, b, _)| !planted(a, b))
        .map(|p| p.2)
        .fold(0.0, f64::max)
}

/// A pair of a report: two ids and their similarity, most similar first.
type Scored = (String, String, f64);

/// Whether `a` and `b` are a copy and its original in the generated
/// class: every tenth program copies the one before it.
fn planted(a: &str, b: &str) -> bool {
    let n = |id: &str| id.get(1..).and_then(|n| n.parse::<usize>().ok());
    match (n(a), n(b)) {
        (Some(x), Some(y)) => {
            let (low, high) = (x.min(y), x.max(y));
            high % 10 == 9 && high == low + 1
        }
        _ => false,
    }
}

/// How many of the `count` most similar pairs of `pairs` are planted.
fn copies_on_top(pairs: &[Scored], count: usize) -> usize {
    let mut sorted = pairs.to_vec();
    sorted.sort_by(|x, y| y.2.total_cmp(&x.2));
    sorted
        .iter()
        .take(count)
        .filter(|(a, b, _)| planted(a, b))
        .count()
}

/// The shipped C programs written apart from each other (the first six
/// of tests/similar.rs's, whose others are of other languages: a Dolos
/// report is of one language), the class the disguised copy joins.
const WRITTEN_APART: &[&str] = disguises::INDEPENDENT.split_at(6).0;

/// Each disguise of tests/similar.rs applied to each of the two larger
/// programs, the copy among the programs written apart: the copy's score
/// and the best score of a pair written apart, for referee and the peer.
fn disguised(peer: Option<&Dolos>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let apart: Vec<String> = WRITTEN_APART
        .iter()
        .map(|path| fs::read_to_string(root.join(path)).unwrap_or_default())
        .collect();
    println!("\nEach disguise of tests/similar.rs, the copy among {} C programs written apart (the copy's score / the best pair written apart):", apart.len());
    println!(
        "  {:<44} {:>14} {:>14}",
        "original, disguise", "referee", "Dolos"
    );
    let (mut first_ours, mut first_peer, mut cases) = (0, 0, 0);
    for original in [0, 1] {
        for (what, disguise) in disguises::disguises() {
            let mut class: Vec<Program> = apart
                .iter()
                .enumerate()
                .map(|(i, text)| program(format!("p{i}"), text.clone()))
                .collect();
            class.push(program("copy".into(), disguise(&apart[original])));
            let report = similar::compare(&class, &[], Vec::new(), None);
            let ours: Vec<Scored> = report
                .pairs
                .iter()
                .map(|p| (p.a.clone(), p.b.clone(), p.similarity))
                .collect();
            let theirs = peer.and_then(|dolos| dolos.run_class(&class).ok());
            let copy = format!("p{original}");
            let shown = |pairs: &[Scored], first: &mut usize| {
                let (pair, other) = copy_and_next(pairs, &copy);
                if pair > other {
                    *first += 1;
                }
                format!("{pair:.2} / {other:.2}")
            };
            let ours = shown(&ours, &mut first_ours);
            let theirs =
                theirs.map_or("-".to_string(), |(_, pairs)| shown(&pairs, &mut first_peer));
            let name = WRITTEN_APART[original].rsplit('/').nth(1).unwrap_or("");
            println!(
                "  {:<44} {ours:>14} {theirs:>14}",
                format!("{name}, {what}")
            );
            cases += 1;
        }
    }
    println!(
        "  the copy ranked first: referee {first_ours} of {cases}, Dolos {}",
        if peer.is_some() {
            format!("{first_peer} of {cases}")
        } else {
            "not measured".into()
        }
    );
}

/// The score of `original` and `copy`, and the best of any other pair.
fn copy_and_next(pairs: &[Scored], original: &str) -> (f64, f64) {
    let is_copy =
        |a: &str, b: &str| (a == original && b == "copy") || (a == "copy" && b == original);
    let pair = pairs
        .iter()
        .find(|(a, b, _)| is_copy(a, b))
        .map_or(0.0, |p| p.2);
    let other = pairs
        .iter()
        .filter(|(a, b, _)| !is_copy(a, b))
        .map(|p| p.2)
        .fold(0.0, f64::max);
    (pair, other)
}

/// The version of Dolos's library installed and measured.
const DOLOS_VERSION: &str = "3.5.1";

/// Dolos, installed where node finds it.
struct Dolos {
    /// `target/dolos`: its `node_modules` and the script that runs it.
    folder: PathBuf,
}

impl Dolos {
    /// Dolos's library in `target/dolos`, installed from npm's registry
    /// the first time (its parsers come prebuilt), with
    /// benches/dolos.mjs beside it; why not, when it cannot be had.
    fn install() -> Result<Dolos, String> {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let folder = root.join("target/dolos");
        let library = folder.join("node_modules/@dodona/dolos-lib");
        if !library.exists() {
            fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
            eprintln!(
                "installing @dodona/dolos-lib@{DOLOS_VERSION} into {} (npm)",
                folder.display()
            );
            let done = Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--prefix"])
                .arg(&folder)
                .arg(format!("@dodona/dolos-lib@{DOLOS_VERSION}"))
                .stdout(Stdio::null())
                .status()
                .map_err(|e| format!("npm: {e}"))?;
            if !done.success() {
                return Err(format!("npm install failed: {done}"));
            }
        }
        fs::copy(root.join("benches/dolos.mjs"), folder.join("dolos.mjs"))
            .map_err(|e| e.to_string())?;
        Ok(Dolos { folder })
    }

    /// Dolos on `programs` (C, one file each), written to a folder as
    /// `ID.c`: its time and its pairs by id, or why not (it took longer
    /// than [`PEER_BUDGET`], or failed).
    fn run_class(&self, programs: &[Program]) -> Result<(Duration, Vec<Scored>), String> {
        let work = tempfile::tempdir().map_err(|e| e.to_string())?;
        let files: Vec<PathBuf> = programs
            .iter()
            .map(|p| {
                let path = work.path().join(format!("{}.c", p.id));
                fs::write(&path, &p.sources.files[0].text).map(|_| path)
            })
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        // Its report goes to a file: a pipe nobody reads while waiting
        // would stop it.
        let said = work.path().join("said.txt");
        let mut child = Command::new("node")
            .arg(self.folder.join("dolos.mjs"))
            .arg("c")
            .args(&files)
            .stdout(fs::File::create(&said).map_err(|e| e.to_string())?)
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("node: {e}"))?;
        match child.wait_timeout(PEER_BUDGET).map_err(|e| e.to_string())? {
            Some(status) if status.success() => {}
            Some(status) => return Err(format!("failed ({status})")),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "did not finish in {} s (stopped)",
                    PEER_BUDGET.as_secs()
                ));
            }
        }
        let text = fs::read_to_string(&said).map_err(|e| e.to_string())?;
        parse_dolos(&text).ok_or_else(|| "said nothing readable".to_string())
    }
}

/// The longest the peer may take on one class.
const PEER_BUDGET: Duration = Duration::from_secs(600);

/// benches/dolos.mjs's lines: each pair by its files' stems, then its time.
fn parse_dolos(text: &str) -> Option<(Duration, Vec<Scored>)> {
    let stem = |path: &str| {
        Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut pairs = Vec::new();
    let mut took = None;
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            ["ms", ms] => {
                took = ms
                    .parse::<f64>()
                    .ok()
                    .map(|ms| Duration::from_secs_f64(ms / 1000.0))
            }
            [a, b, similarity] => pairs.push((stem(a), stem(b), similarity.parse().ok()?)),
            _ => {}
        }
    }
    Some((took?, pairs))
}
