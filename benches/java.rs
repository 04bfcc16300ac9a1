//! The Java benchmark: `cargo bench --bench java`.
//!
//! What a Java run costs when referee grades it, against a bare `java`
//! start of the same classes in the same run: the temperature lab's
//! suite with its reference in Java (`tests/fixtures/java/Solution.java`),
//! every case graded on one worker (the sandbox, feeding on read,
//! judging), and beside it the floor: `java` with the same options
//! started by `std::process::Command` on each case's input through a
//! pipe, its output drained, nothing else. Each is measured [`TRIES`]
//! times, interleaved, and the fastest counts. The target is a Java run
//! at most 1.2× the floor. `REFEREE_BENCH_SCALE=0.2` runs a fifth.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use referee::case::load_suite;
use referee::grading;
use referee::run::Feed;
use referee::submission::{self, java};

mod common;
use common::{cores, fastest_of, root, scale, TRIES};

/// Rounds of every case per measurement, at full scale.
const ROUNDS: usize = 10;

fn main() {
    let rounds = ((ROUNDS as f64 * scale()).round() as usize).max(1);
    let work = tempfile::tempdir().expect("a temporary folder");
    let suite_dir = work.path().join("suite");
    fs::create_dir(&suite_dir).unwrap();
    let example = root().join("examples/temperature");
    for entry in fs::read_dir(&example).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let keep =
            (name.ends_with(".yaml") || name.ends_with(".transcript")) && name != "suite.yaml";
        if keep {
            fs::copy(&path, suite_dir.join(&name)).unwrap();
        }
    }
    // The C solution's pins are the Java one's too (tests/java.rs).
    let yaml = fs::read_to_string(example.join("suite.yaml")).unwrap();
    let yaml = yaml
        .replace("reference: solution.c", "reference: Solution.java")
        .lines()
        .filter(|l| !l.starts_with("generator:"))
        .collect::<Vec<_>>()
        .join("\n");
    fs::write(suite_dir.join("suite.yaml"), yaml).unwrap();
    let source = root().join("tests/fixtures/java/Solution.java");
    fs::copy(&source, suite_dir.join("Solution.java")).unwrap();
    let suite = load_suite(&suite_dir).expect("the suite loads");
    referee::run::proof::prove().expect("this machine runs programs as a person would");

    let found = submission::locate(&source).unwrap();
    let start = Instant::now();
    let built = submission::build(&found, &suite.compile, &[]).expect("it compiles");
    let compile = start.elapsed();
    let prepared = grading::prepare(&suite, &suite.cases).expect("the reference runs");

    // The floor's classes: javac outside the sandbox, the same options.
    let jdk = java::jdk().expect("a JDK");
    let classes = work.path().join("classes");
    let status = Command::new(&jdk.javac)
        .args(["-d"])
        .arg(&classes)
        .arg(&source)
        .status()
        .unwrap();
    assert!(status.success());
    let memory = suite.cases[0].limits.memory.unwrap_or(512 << 20);
    let heap = format!("-Xmx{}m", (memory / 2) >> 20);

    let runs = rounds * prepared.len();
    let mut referee_run = || {
        let start = Instant::now();
        for _ in 0..rounds {
            for case in &prepared {
                let outcome = grading::run_case(&built, &suite, case, Feed::Interactive).unwrap();
                assert_eq!(outcome.score, case.case.points, "{}", case.case.name);
            }
        }
        start.elapsed()
    };
    let mut bare_run = || {
        let start = Instant::now();
        for _ in 0..rounds {
            for case in &suite.cases {
                bare(&jdk.java, &heap, &classes, &case.input);
            }
        }
        start.elapsed()
    };
    let best = fastest_of(TRIES, &mut [&mut referee_run, &mut bare_run]);
    let per = |d: Duration| d.as_secs_f64() * 1000.0 / runs as f64;
    let (graded, floor) = (per(best[0]), per(best[1]));
    println!(
        "Java: the temperature lab's reference, {} cases x {rounds} rounds, 1 worker of {} cores",
        prepared.len(),
        cores()
    );
    println!(
        "  compile in the sandbox (javac)   {:.0} ms",
        compile.as_secs_f64() * 1000.0
    );
    println!("  bare java start per run          {floor:.1} ms");
    println!("  referee per graded run           {graded:.1} ms");
    let ratio = graded / floor;
    let verdict = if ratio <= 1.2 { "met" } else { "not met" };
    println!("  ratio                            {ratio:.2}x (target <= 1.2x: {verdict})");
}

/// One bare run: `java` with the options referee uses, the input on a
/// pipe, the output drained.
fn bare(java_bin: &Path, heap: &str, classes: &Path, input: &[String]) {
    let mut child = Command::new(java_bin)
        .arg(heap)
        .args(java::JVM_OPTIONS)
        .arg("-cp")
        .arg(classes)
        .arg("Solution")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("java starts");
    let mut text = input.join("\n");
    text.push('\n');
    let mut stdin = child.stdin.take().unwrap();
    // A program may stop reading before the end: a closed pipe is fine.
    let _ = stdin.write_all(text.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
}
