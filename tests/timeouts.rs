//! A program that loops on some inputs is judged case by case: after
//! `--max-timeouts` timeouts its later cases still run, each under a
//! short limit, so a case it answers earns its points whatever came
//! before it, and a case it loops on costs a second, not its whole limit.
//! The suite is CS50P's "Fuel Gauge", with a Python reference, and the
//! student a real one's: right on every fraction it can read, looping on
//! the others.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::*;
use referee::case::{load_suite, Case};
use referee::grading::{self, Settings};
use referee::submission;
use referee::verdict::Verdict;
use serde_json::Value;

/// Fractions the looping student cannot read, each followed by one it
/// can (which the reference, asking again, reads).
const BAD: [(&str, &str); 4] = [
    ("cat-dog", "cat/dog"),
    ("one-and-a-half", "1.5/4"),
    ("three-words", "three/four"),
    ("no-slash", "3 4"),
];

/// Fractions everyone can read.
const GOOD: [(&str, &str); 5] = [
    ("full", "100/100"),
    ("one-third", "1/3"),
    ("two-thirds", "2/3"),
    ("empty", "1/100"),
    ("three-quarters", "3/4"),
];

fn fixture(name: &str) -> PathBuf {
    test_file(&format!("fixtures/fuel/{name}"))
}

/// The suite in `dir`: `bad` cases then `good` ones, named so that the
/// suite's order (by name) is the order given; limits of `timeout` on
/// the clock and `cpu` of processor time.
fn fuel_suite(dir: &Path, cases: &[(&str, &str)], timeout: &str, cpu: &str) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    fs::copy(fixture("fuel.py"), dir.join("fuel.py")).unwrap();
    fs::write(
        dir.join("suite.yaml"),
        format!(
            "reference: fuel.py\nname: fuel\ndefaults:\n  points: 1\n  timeout: {timeout}\n  \
             cpu: {cpu}\n"
        ),
    )
    .unwrap();
    for (i, (name, fraction)) in cases.iter().enumerate() {
        let input = if BAD.iter().any(|(bad, _)| bad == name) {
            format!("input: |\n  {fraction}\n  3/4\n")
        } else {
            format!("input: |\n  {fraction}\n")
        };
        fs::write(dir.join(format!("{i:02}-{name}.yaml")), input).unwrap();
    }
    dir.to_path_buf()
}

fn is_bad(case: &str) -> bool {
    BAD.iter().any(|(bad, _)| case.ends_with(bad))
}

/// The CLI, as a TA grades: the default three timeouts, then short
/// limits. Every case the program can read is right, whatever came
/// before; every case it loops on is a timeout, the later ones saying
/// the short limit they had.
#[test]
fn a_python_program_that_loops_on_bad_input_earns_every_good_case() {
    let work = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, &str)> = BAD.iter().chain(&GOOD).copied().collect();
    let suite = fuel_suite(&work.path().join("fuel"), &cases, "4s", "2s");
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    fs::copy(fixture("loops-on-bad-input.py"), class.join("looper.py")).unwrap();
    fs::copy(fixture("fuel.py"), class.join("careful.py")).unwrap();
    let out = work.path().join("out");
    let started = Instant::now();
    let run = referee_in(
        work.path(),
        &[
            "grade",
            "--jobs",
            "1",
            "--cases",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            class.to_str().unwrap(),
        ],
    );
    println!("graded in {:.1} s", started.elapsed().as_secs_f64());
    assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
    let results = read_json(&out.join("results.json"));
    let student = |id: &str| -> Value {
        results["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("{id} in {results}"))
            .clone()
    };
    let careful = student("careful");
    assert_eq!(careful["score"], careful["max_score"], "{careful}");
    let looper = student("looper");
    assert_eq!(
        looper["score"].as_f64(),
        Some(GOOD.len() as f64),
        "{looper}"
    );
    let mut short = 0;
    for case in looper["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let reason = case["reason"].as_str().unwrap_or("");
        if is_bad(name) {
            assert_eq!(case["verdict"], "timeout", "{case}");
            assert!(!reason.starts_with("not run"), "{case}");
            short += usize::from(reason.contains("rather than the case's own 4 s"));
        } else {
            assert_eq!(case["verdict"], "pass", "{case}");
        }
    }
    assert_eq!(short, BAD.len() - 3, "after three timeouts: {looper}");
}

/// Every order of two looping cases and two good ones (which looping
/// case or good case comes first does not matter: each of a kind is
/// judged alike), graded one case at a time and two at once, after one
/// timeout: the good cases pass, the looping ones time out, the first of
/// them in the suite's order under its own limit and the other under the
/// short one, with the same words from one worker as from two. What each
/// grade took is printed beside what it may take.
#[test]
fn every_order_and_worker_count_gives_the_same_grade() {
    let work = tempfile::tempdir().unwrap();
    let cases = [BAD[0], BAD[1], GOOD[0], GOOD[1]];
    let dir = fuel_suite(&work.path().join("fuel"), &cases, "3s", "2s");
    let suite = load_suite(&dir).unwrap();
    assert!(suite.problems.is_empty(), "{:?}", suite.problems);
    let prepared = grading::prepare(&suite, &suite.cases).expect("the reference runs");
    let looper = submission::locate(&fixture("loops-on-bad-input.py")).unwrap();
    for order in arrangements() {
        let ordered: Vec<_> = order.iter().map(|&i| prepared[i].clone()).collect();
        let mut reasons = Vec::new();
        for jobs in [1, 2] {
            let settings = Settings {
                jobs,
                max_timeouts: 1,
                ..Settings::default()
            };
            let started = Instant::now();
            let graded = grading::grade(&looper, &suite, &ordered, &settings).unwrap();
            let took = started.elapsed();
            let judged: Vec<(&Case, &str, Verdict)> = ordered
                .iter()
                .zip(&graded.outcomes)
                .map(|(p, o)| (p.case, o.judgement.reason.as_str(), o.judgement.verdict))
                .collect();
            check(&judged);
            let short = ordered[0].short_limits().expect("shorter than 3 s");
            let bound = Duration::from_secs(2) + short.cpu;
            println!(
                "order {order:?}, {jobs} worker(s): {:.1} s (one timeout of 2 s of processor \
                 time, then one of {:.0} s: {:.0} s, and the good cases)",
                took.as_secs_f64(),
                short.cpu.as_secs_f64(),
                bound.as_secs_f64()
            );
            reasons.push(
                judged
                    .iter()
                    .map(|(case, reason, _)| format!("{}: {reason}", case.name))
                    .collect::<Vec<_>>(),
            );
        }
        assert_eq!(reasons[0], reasons[1], "one worker against two");
    }
}

/// The good cases pass; the looping ones time out, the first under its
/// own limit and the second under the short one, saying so.
fn check(judged: &[(&Case, &str, Verdict)]) {
    let mut timeouts = 0;
    for (case, reason, verdict) in judged {
        if !is_bad(&case.name) {
            assert_eq!(*verdict, Verdict::Pass, "{}: {reason}", case.name);
            continue;
        }
        assert_eq!(*verdict, Verdict::Timeout, "{}: {reason}", case.name);
        let shortened = reason.contains("rather than the case's own 3 s");
        assert_eq!(shortened, timeouts > 0, "{}: {reason}", case.name);
        timeouts += 1;
    }
}

/// The orders of two cases of one kind (0 and 1) and two of another (2
/// and 3), as indices.
fn arrangements() -> Vec<[usize; 4]> {
    let mut orders = Vec::new();
    for first in 0..4 {
        for second in first + 1..4 {
            let mut order = [0; 4];
            let (mut bad, mut good) = (0, 2);
            for (place, slot) in order.iter_mut().enumerate() {
                if place == first || place == second {
                    *slot = bad;
                    bad += 1;
                } else {
                    *slot = good;
                    good += 1;
                }
            }
            orders.push(order);
        }
    }
    orders
}
