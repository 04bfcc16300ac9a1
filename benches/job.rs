//! What a user waits for: `cargo bench --bench job`.
//!
//! The job the project's peers measure: the 21 Connect Four programs of
//! the fixtures (the correct one and its 20 bugs) on 16 game inputs each
//! (336 runs), exact comparison, every report written, beside
//!
//! - the floors: bare `gcc -Wall` two at a time (compiling), and a bare
//!   spawn loop with two workers, each program started with its input
//!   file on stdin and its output drained (running);
//! - a TA's loop (`benches/ta-loop.sh`): `gcc -O1`, `timeout`, `diff -q`,
//!   two programs at a time;
//! - `referee grade`, for the whole job (sources, compiling included)
//!   and for the runs only (the programs given compiled), and one
//!   student's `referee check` on the three public cases.
//!
//! Everything is measured in one run, [`TRIES`] times interleaved, and
//! the fastest counts (noise on a shared machine only ever adds time),
//! so the ratios are between figures of the same moment. It also prints
//! referee's fixed cost per invocation, the cost per run on one core and
//! on two against the floor's, Python's, compiling in the sandbox
//! against bare `gcc`, exploring's games per second against what the
//! floor allows for the same runs, what `referee doctor` says of every
//! layer, the timing breakdown of one graded class, where a C run's time
//! goes (each line read, each line printed, the rest of a run, against
//! the floor's), and whether each target of the performance issue is met. `REFEREE_BENCH_SCALE=0.3`
//! runs fewer tries of the slow parts, for a quick look.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use referee::case::{load_suite, Case};
use referee::expected::run_reference;

mod common;
use common::{cores, fastest_of, parallel, root, scale, TRIES};

/// Cases of the job: the first 16 whole games of the Connect Four suite.
const CASES: usize = 16;

fn referee() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command.stdout(Stdio::null()).stderr(Stdio::null());
    command.env("REFEREE_CACHE", kept_in());
    command
}

/// Where referee keeps checked builds between invocations in this
/// benchmark: nowhere (`off`), but in the rows that measure a first
/// grade with an empty folder and a grade again with a full one.
static KEPT_IN: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

fn kept_in() -> String {
    let kept = KEPT_IN.lock().unwrap_or_else(|e| e.into_inner());
    if kept.is_empty() {
        "off".into()
    } else {
        kept.clone()
    }
}

/// Runs `measure` with checked builds kept in `folder`.
fn keeping_in(folder: &Path, measure: impl FnOnce() -> Duration) -> Duration {
    *KEPT_IN.lock().unwrap_or_else(|e| e.into_inner()) = folder.display().to_string();
    let took = measure();
    KEPT_IN.lock().unwrap_or_else(|e| e.into_inner()).clear();
    took
}

/// Runs `measure` as a first invocation: with an empty folder to keep
/// checked builds in (the cost of keeping them counted), removed after.
fn first_time(w: &Path, measure: impl FnOnce() -> Duration) -> Duration {
    let folder = w.join("kept-first");
    let _ = fs::remove_dir_all(&folder);
    let took = keeping_in(&folder, measure);
    let _ = fs::remove_dir_all(&folder);
    took
}

/// The class's sources: the fixture's correct program and its bugs.
fn class_sources(dir: &Path) -> Vec<PathBuf> {
    let fixtures = root().join("tests/fixtures/connect4");
    let mut sources = vec![fixtures.join("correct.c")];
    // The peers' class: the correct program and 20 bugs.
    let mut bugs: Vec<PathBuf> = fs::read_dir(fixtures.join("bugs"))
        .expect("fixtures")
        .map(|e| e.expect("a fixture").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    bugs.sort();
    sources.extend(bugs.into_iter().take(20));
    fs::create_dir_all(dir).expect("a class folder");
    sources
        .iter()
        .enumerate()
        .map(|(i, source)| {
            let path = dir.join(format!("s{i:02}.c"));
            fs::copy(source, &path).expect("a copy");
            path
        })
        .collect()
}

/// The job's cases, in a suite folder of their own.
fn job_cases(into: &Path) -> (PathBuf, Vec<Case>) {
    let from = root().join("cases/connect4");
    let suite = load_suite(&from).expect("the suite loads");
    fs::create_dir_all(into).expect("a folder");
    fs::copy(from.join("suite.yaml"), into.join("suite.yaml")).expect("suite.yaml");
    let cases: Vec<Case> = suite.cases.into_iter().take(CASES).collect();
    for case in &cases {
        for file in [case.file.clone(), case.pin_file()] {
            fs::copy(&file, into.join(file.file_name().expect("a name"))).expect("a case");
        }
    }
    (into.to_path_buf(), cases)
}

/// Compiles `sources` with `flags`, `jobs` at a time, into `out`.
fn compile(sources: &[PathBuf], out: &Path, flags: &[&str], jobs: usize) -> Vec<PathBuf> {
    fs::create_dir_all(out).expect("a folder");
    let exes: Vec<PathBuf> = sources
        .iter()
        .map(|s| out.join(s.file_stem().expect("a name")))
        .collect();
    parallel(sources.len(), jobs, |i| {
        let ok = Command::new("gcc")
            .args(flags)
            .arg("-o")
            .arg(&exes[i])
            .arg(&sources[i])
            .arg("-lm")
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "{} compiles", sources[i].display());
    });
    exes
}

/// Each case's input, as a file for stdin.
fn input_files(cases: &[Case], dir: &Path) -> Vec<PathBuf> {
    fs::create_dir_all(dir).expect("a folder");
    cases
        .iter()
        .map(|case| {
            let path = dir.join(format!("{}.in", case.name));
            fs::write(&path, case.input.join("\n") + "\n").expect("an input");
            path
        })
        .collect()
}

/// The spawn floor: every program on every input, its input file on
/// stdin and its output drained, `workers` at a time.
fn spawn_floor(programs: &[Vec<String>], inputs: &[PathBuf], workers: usize) -> Duration {
    let started = Instant::now();
    parallel(programs.len() * inputs.len(), workers, |i| {
        if workers == 1 {
            pin_to_first_core();
        }
        let (p, c) = (i / inputs.len(), i % inputs.len());
        let stdin = fs::File::open(&inputs[c]).expect("the input");
        let _ = Command::new(&programs[p][0])
            .args(&programs[p][1..])
            .env_remove("PYTHONUNBUFFERED")
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .output();
    });
    started.elapsed()
}

/// The TA's loop on `programs` (sources compiled by it when `compile`).
fn ta_loop(programs: &[PathBuf], cases: &Path, work: &Path, compile: bool) -> Duration {
    let list = work.join("ta-programs.txt");
    let lines: Vec<String> = programs.iter().map(|p| p.display().to_string()).collect();
    fs::write(&list, lines.join("\n") + "\n").expect("a list");
    let started = Instant::now();
    let status = Command::new("bash")
        .arg(root().join("benches/ta-loop.sh"))
        .arg(&list)
        .arg(cases)
        .arg("2")
        .arg(if compile { "compile" } else { "run" })
        .stdout(Stdio::null())
        .status()
        .expect("bash runs");
    assert!(status.success(), "the TA loop failed");
    started.elapsed()
}

/// The reference's inputs and outputs, as the TA loop wants them.
fn ta_cases(cases: &[Case], dir: &Path) -> PathBuf {
    fs::create_dir_all(dir).expect("a folder");
    for case in cases {
        fs::write(
            dir.join(format!("{}.in", case.name)),
            case.input.join("\n") + "\n",
        )
        .expect("input");
        let expected = run_reference(reference::Game::Connect4, &case.input)
            .transcript
            .output();
        fs::write(dir.join(format!("{}.out", case.name)), expected).expect("output");
    }
    dir.to_path_buf()
}

/// `referee grade` of `class` into a fresh `out`, pinned to one core when
/// `one_core`; its wall time.
fn grade(class: &Path, cases: &Path, out: &Path, jobs: usize, one_core: bool) -> Duration {
    grade_with(class, cases, out, jobs, one_core, &[])
}

/// [`grade`], with `extra` arguments (`--diagnose`, `--no-diagnose`).
fn grade_with(
    class: &Path,
    cases: &Path,
    out: &Path,
    jobs: usize,
    one_core: bool,
    extra: &[&str],
) -> Duration {
    let _ = fs::remove_dir_all(out);
    let mut command = if one_core {
        let mut c = Command::new("taskset");
        c.args(["-c", "0"]).arg(env!("CARGO_BIN_EXE_referee"));
        c.stdout(Stdio::null()).stderr(Stdio::null());
        c.env("REFEREE_CACHE", kept_in());
        c
    } else {
        referee()
    };
    command
        .args(["grade", "--jobs", &jobs.to_string(), "--cases"])
        .arg(cases)
        .arg("--out")
        .arg(out)
        .args(extra)
        .arg(class);
    let started = Instant::now();
    let status = command.status().expect("referee starts");
    assert!(status.success(), "referee grade failed");
    started.elapsed()
}

/// `referee check` of `program` on the public cases of `cases`, with
/// `extra` arguments.
fn check(program: &Path, cases: &Path, dir: &Path, extra: &[&str]) -> Duration {
    let started = Instant::now();
    let _ = referee()
        .arg("check")
        .arg("--cases")
        .arg(cases)
        .args(extra)
        .arg(program)
        .current_dir(dir)
        .status()
        .expect("referee starts");
    started.elapsed()
}

/// `referee grade --timings` of the class: the breakdown it prints.
fn breakdown(class: &Path, cases: &Path, out: &Path, jobs: usize) -> String {
    let _ = fs::remove_dir_all(out);
    let done = Command::new(env!("CARGO_BIN_EXE_referee"))
        .env("REFEREE_CACHE", kept_in())
        .args(["grade", "--timings", "--jobs", &jobs.to_string(), "--cases"])
        .arg(cases)
        .arg("--out")
        .arg(out)
        .arg(class)
        .stdout(Stdio::null())
        .output()
        .expect("referee starts");
    let text = String::from_utf8_lossy(&done.stderr);
    text.lines()
        .skip_while(|l| !l.starts_with("Timings:"))
        .map(|l| format!("  {l}\n"))
        .collect()
}

/// What `compile ... ms each` says in a breakdown.
fn compile_each_ms(breakdown: &str) -> Option<f64> {
    let line = breakdown
        .lines()
        .find(|l| l.trim_start().starts_with("compile"))?;
    let each = line.split(", ").nth(1)?;
    each.trim_end_matches(" ms each").trim().parse().ok()
}

/// Pins the calling thread, and what it starts, to processor 0: as
/// `taskset -c 0` does to referee.
fn pin_to_first_core() {
    // SAFETY: a CPU set on the stack, for the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(0, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "NOT met"
    }
}

fn main() {
    let work = tempfile::tempdir().expect("a temporary folder");
    let w = work.path();
    let tries = if scale() < 1.0 { 1 } else { TRIES + 1 };
    let sources = class_sources(&w.join("class"));
    let (suite, cases) = job_cases(&w.join("cases"));
    let exes = compile(&sources, &w.join("exes"), &["-Wall"], 2);
    let inputs = input_files(&cases, &w.join("inputs"));
    let ta = ta_cases(&cases, &w.join("ta-cases"));
    let programs: Vec<Vec<String>> = exes.iter().map(|e| vec![e.display().to_string()]).collect();
    let runs = programs.len() * cases.len();
    println!(
        "referee's job benchmark: {} programs × {} cases ({runs} runs), {} cores, fastest of {tries}",
        programs.len(),
        cases.len(),
        cores()
    );

    // One program on one case: what an invocation costs beyond its runs.
    let one = w.join("one");
    fs::create_dir_all(&one).expect("a folder");
    fs::copy(&exes[0], one.join("s00")).expect("a copy");
    let one_suite = w.join("one-case");
    fs::create_dir_all(&one_suite).expect("a folder");
    fs::copy(suite.join("suite.yaml"), one_suite.join("suite.yaml")).expect("suite.yaml");
    for file in [cases[0].file.clone(), cases[0].pin_file()] {
        fs::copy(&file, one_suite.join(file.file_name().expect("a name"))).expect("a case");
    }
    let out = w.join("out");
    let class = w.join("class");
    let exe_class = w.join("exes");
    let correct = sources[0].clone();
    let check_cases = root().join("cases/connect4");
    let one_input = [inputs[0].clone()];
    let m = fastest_of(
        tries,
        &mut [
            &mut || {
                let started = Instant::now();
                compile(&sources, &w.join("floor-exes"), &["-Wall"], 2);
                started.elapsed()
            },
            &mut || spawn_floor(&programs, &inputs, 2),
            &mut || spawn_floor(&programs, &inputs, 1),
            &mut || ta_loop(&sources, &ta, w, true),
            &mut || ta_loop(&exes, &ta, w, false),
            &mut || grade(&class, &suite, &out, 2, false),
            &mut || grade(&exe_class, &suite, &out, 2, false),
            &mut || grade(&exe_class, &suite, &out, 1, true),
            &mut || grade(&one, &one_suite, &out, 1, false),
            &mut || spawn_floor(&programs[..1], &one_input, 1),
            &mut || check(&correct, &check_cases, w, &[]),
            &mut || {
                let started = Instant::now();
                compile(&sources[..1], &w.join("check-exe"), &["-Wall"], 1);
                spawn_floor(&programs[..1], &inputs[..3], 2) + started.elapsed()
            },
        ],
    );
    let [compile_floor, spawn_2, spawn_1, ta_whole, ta_runs, referee_whole, referee_runs, referee_runs_1, referee_one, spawn_one, check_wall, check_floor] =
        m[..]
    else {
        unreachable!("twelve measurements")
    };
    let floors = compile_floor + spawn_2;
    println!(
        "\nThe class ({} programs, {runs} runs), 2 workers:",
        programs.len()
    );
    println!("  {:<46} {:>9} {:>9}", "", "whole job", "runs only");
    let row = |what: &str, whole: Option<Duration>, runs_only: Duration| {
        println!(
            "  {what:<46} {:>9} {:>7.3} s",
            whole.map_or(String::new(), |d| format!("{:.3} s", d.as_secs_f64())),
            runs_only.as_secs_f64()
        );
    };
    row(
        "TA's loop (gcc -O1, timeout, diff -q)",
        Some(ta_whole),
        ta_runs,
    );
    row(
        "floors: gcc -Wall, and a bare spawn loop",
        Some(floors),
        spawn_2,
    );
    row("referee grade", Some(referee_whole), referee_runs);
    println!(
        "  (compile floor alone {:.3} s; referee {:.2}× the floors, {:.2}× faster than the TA's loop)",
        compile_floor.as_secs_f64(),
        ms(referee_whole) / ms(floors),
        ms(ta_whole) / ms(referee_whole)
    );

    // Per run, once the fixed cost is taken out.
    let fixed = referee_one.saturating_sub(spawn_one);
    let per_run = |wall: Duration| (ms(wall) - ms(referee_one)) / (runs - 1) as f64;
    let floor_per_run = |wall: Duration| ms(wall) / runs as f64;
    let c_2 = per_run(referee_runs) / floor_per_run(spawn_2);
    let c_1 = per_run(referee_runs_1) / floor_per_run(spawn_1);
    println!("\nPer run and per invocation:");
    println!(
        "  fixed cost of one invocation (one program, one case, minus the run): {:.1} ms",
        ms(fixed)
    );
    println!(
        "  C per run, 2 workers: referee {:.3} ms, floor {:.3} ms: {c_2:.2}×",
        per_run(referee_runs),
        floor_per_run(spawn_2)
    );
    println!(
        "  C per run, 1 core: referee {:.3} ms, floor {:.3} ms: {c_1:.2}×",
        per_run(referee_runs_1),
        floor_per_run(spawn_1)
    );
    println!(
        "  one check (compile + 3 public cases): referee {:.1} ms, floor {:.1} ms: {:.1} ms above",
        ms(check_wall),
        ms(check_floor),
        ms(check_wall) - ms(check_floor)
    );

    // Compiling in the sandbox, from referee's own timings, against gcc.
    let timings = breakdown(&class, &suite, &w.join("out-timings"), 2);
    let one_worker = breakdown(&class, &suite, &w.join("out-timings-1"), 1);
    let gcc_each = {
        let started = Instant::now();
        compile(&sources, &w.join("one-at-a-time"), &["-Wall"], 1);
        ms(started.elapsed()) / sources.len() as f64
    };
    let sandboxed_each = compile_each_ms(&one_worker).unwrap_or(f64::NAN);
    let compile_ratio = sandboxed_each / gcc_each;
    println!(
        "  compile in the sandbox: {sandboxed_each:.1} ms per program, bare gcc {gcc_each:.1} ms, \
         both one at a time: {compile_ratio:.2}×"
    );

    diagnosis_costs(w, tries, &class, &suite, &sources, &check_cases);
    let python = python_per_run(w, tries);
    let explore = explore_rate(w, tries);
    per_line_costs(w, tries, &cases, ms(fixed));
    let doctor = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("doctor")
        .output()
        .expect("doctor runs");
    let doctor = String::from_utf8_lossy(&doctor.stdout).into_owned();
    let every_layer = doctor.contains("every protection is on.");
    println!(
        "  referee doctor: {}",
        if every_layer {
            "every protection is on"
        } else {
            "some protections are OFF (see `referee doctor`)"
        }
    );
    println!("\nWhere the time of one graded class goes (`referee grade --timings`):");
    print!("{timings}");

    let whole_ratio = ms(referee_whole) / ms(floors);
    println!("\nTargets (ratios of this run)");
    println!(
        "  fixed cost per invocation ≤ 30 ms: {:.1} ms: {}",
        ms(fixed),
        verdict(ms(fixed) <= 30.0)
    );
    println!(
        "  C per run ≤ 1.3× the floor: {c_1:.2}× on 1 core, {c_2:.2}× on 2: {}",
        verdict(c_1 <= 1.3 && c_2 <= 1.3)
    );
    println!(
        "  Python per run ≤ 1.1× the floor: {python:.2}×: {}",
        verdict(python <= 1.1)
    );
    println!(
        "  compile ≤ 1.1× bare gcc: {compile_ratio:.2}×: {}",
        verdict(compile_ratio <= 1.1)
    );
    println!(
        "  whole job ≤ 1.25× the floors: {whole_ratio:.2}×: {}",
        verdict(whole_ratio <= 1.25)
    );
    println!(
        "  ≥ 2.5× faster than the TA's loop: {:.2}×: {}",
        ms(ta_whole) / ms(referee_whole),
        verdict(ms(ta_whole) / ms(referee_whole) >= 2.5)
    );
    println!(
        "  explore ≥ 0.7× the games per second the floor allows, while playing: {explore:.2}×: {}",
        verdict(explore >= 0.7)
    );
    println!("  every layer on: {}", verdict(every_layer));
}

/// What the checked build costs (issue 38): the class graded by default
/// (its failed cases run again from each program's checked build), with
/// `--no-diagnose` (none) and with `--diagnose` (every case); `check` of
/// the correct program and of one with a bug, with and without it.
fn diagnosis_costs(
    w: &Path,
    tries: usize,
    class: &Path,
    suite: &Path,
    sources: &[PathBuf],
    check_cases: &Path,
) {
    let out = w.join("out-diagnose");
    let (correct, buggy) = (&sources[0], &sources[1]);
    // Checked builds kept from one earlier grade and check: what a TA's
    // grade again after a fix to a case, and a student's check again,
    // find.
    let kept = w.join("kept-again");
    let _ = fs::remove_dir_all(&kept);
    keeping_in(&kept, || {
        grade_with(class, suite, &out, 2, false, &[]);
        check(correct, check_cases, w, &[]);
        check(buggy, check_cases, w, &[])
    });
    let m = fastest_of(
        tries,
        &mut [
            &mut || first_time(w, || grade_with(class, suite, &out, 2, false, &[])),
            &mut || grade_with(class, suite, &out, 2, false, &["--no-diagnose"]),
            &mut || {
                first_time(w, || {
                    grade_with(class, suite, &out, 2, false, &["--diagnose"])
                })
            },
            &mut || first_time(w, || check(correct, check_cases, w, &[])),
            &mut || check(correct, check_cases, w, &["--no-diagnose"]),
            &mut || first_time(w, || check(buggy, check_cases, w, &[])),
            &mut || check(buggy, check_cases, w, &["--no-diagnose"]),
            &mut || first_time(w, || check(correct, check_cases, w, &["--diagnose"])),
            &mut || first_time(w, || check(buggy, check_cases, w, &["--diagnose"])),
            &mut || keeping_in(&kept, || grade_with(class, suite, &out, 2, false, &[])),
            &mut || keeping_in(&kept, || check(buggy, check_cases, w, &[])),
        ],
    );
    let _ = fs::remove_dir_all(&kept);
    let [grade_default, grade_none, grade_every, check_ok, check_ok_none, check_bug, check_bug_none, check_ok_every, check_bug_every, grade_again, check_bug_again] =
        m[..]
    else {
        unreachable!("eleven measurements")
    };
    println!(
        "
Diagnoses: what the checked build costs, 2 workers:"
    );
    println!(
        "  grade, the whole class: {:.3} s by default (failed cases again), {:.3} s with \
         --no-diagnose: {:.2}×; {:.3} s with --diagnose (every case): {:.2}×",
        grade_default.as_secs_f64(),
        grade_none.as_secs_f64(),
        ms(grade_default) / ms(grade_none),
        grade_every.as_secs_f64(),
        ms(grade_every) / ms(grade_none)
    );
    println!(
        "  check of the correct program: {:.1} ms, --no-diagnose {:.1} ms: {:.2}×; \
         --diagnose (every public case) {:.1} ms: {:.2}×",
        ms(check_ok),
        ms(check_ok_none),
        ms(check_ok) / ms(check_ok_none),
        ms(check_ok_every),
        ms(check_ok_every) / ms(check_ok_none)
    );
    println!(
        "  check of {}: {:.1} ms, --no-diagnose {:.1} ms: {:.2}×; --diagnose {:.1} ms: {:.2}×",
        buggy
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        ms(check_bug),
        ms(check_bug_none),
        ms(check_bug) / ms(check_bug_none),
        ms(check_bug_every),
        ms(check_bug_every) / ms(check_bug_none)
    );
    println!(
        "  again, checked builds kept from an earlier invocation: grade {:.3} s ({:.2}× \
         --no-diagnose), check of the program with a bug {:.1} ms ({:.2}×)",
        grade_again.as_secs_f64(),
        ms(grade_again) / ms(grade_none),
        ms(check_bug_again),
        ms(check_bug_again) / ms(check_bug_none)
    );
}

/// Python per run: the connect4-bomb fixture's correct program on the
/// whole-game cases, referee against the floor.
fn python_per_run(w: &Path, tries: usize) -> f64 {
    let from = root().join("cases/connect4-bomb");
    let suite = load_suite(&from).expect("the suite loads");
    let dir = w.join("py-cases");
    fs::create_dir_all(&dir).expect("a folder");
    fs::copy(from.join("suite.yaml"), dir.join("suite.yaml")).expect("suite.yaml");
    let cases: Vec<Case> = suite
        .cases
        .into_iter()
        .filter(|c| c.call.is_none())
        .collect();
    for case in &cases {
        for file in [case.file.clone(), case.pin_file()] {
            fs::copy(&file, dir.join(file.file_name().expect("a name"))).expect("a case");
        }
    }
    let class = w.join("py-class");
    fs::create_dir_all(&class).expect("a folder");
    let students = 6;
    for i in 0..students {
        fs::copy(
            root().join("tests/fixtures/connect4-bomb/correct.py"),
            class.join(format!("p{i}.py")),
        )
        .expect("a copy");
    }
    let python = referee::submission::python::interpreter()
        .expect("Python 3")
        .executable
        .display()
        .to_string();
    let programs: Vec<Vec<String>> = (0..students)
        .map(|i| {
            let file = class.join(format!("p{i}.py")).display().to_string();
            vec![python.clone(), "-B".into(), "-s".into(), file]
        })
        .collect();
    let inputs = input_files(&cases, &w.join("py-inputs"));
    let out = w.join("py-out");
    let m = fastest_of(
        tries,
        &mut [&mut || spawn_floor(&programs, &inputs, 2), &mut || {
            grade(&class, &dir, &out, 2, false)
        }],
    );
    let runs = students * cases.len();
    let ratio = ms(m[1]) / ms(m[0]);
    println!(
        "  Python per run ({runs} runs, 2 workers): referee {:.1} ms, floor {:.1} ms: {ratio:.2}×",
        ms(m[1]) / runs as f64,
        ms(m[0]) / runs as f64
    );
    ratio
}

/// Exploring: games per second of `referee explore` on the correct
/// Connect Four program, against what the spawn floor allows for the same
/// games' runs. Two rates: the whole invocation's (which also compiles the
/// program and starts referee, as `check` does), and the rate while it
/// plays, from the difference between exploring all the games and a fifth
/// of them (what one more game costs: the floor, a loop of runs, has no
/// part to take away). The target is on the second: the compile and the
/// start have targets of their own.
fn explore_rate(w: &Path, tries: usize) -> f64 {
    let games = ((500.0 * scale()) as usize).max(50);
    let fewer = games / 5;
    let program = root().join("tests/fixtures/connect4/correct.c");
    let exe = compile(
        std::slice::from_ref(&program),
        &w.join("explore-exe"),
        &["-Wall"],
        1,
    );
    let tasks = referee::explore::generated(reference::Game::Connect4, 0, games);
    let dir = w.join("explore-inputs");
    fs::create_dir_all(&dir).expect("a folder");
    let inputs: Vec<PathBuf> = tasks
        .iter()
        .enumerate()
        .filter_map(|(i, task)| match task {
            referee::explore::Task::Input(lines) => {
                let path = dir.join(format!("{i}.in"));
                fs::write(&path, lines.join("\n") + "\n").expect("an input");
                Some(path)
            }
            referee::explore::Task::Call(_) => None,
        })
        .collect();
    let programs = vec![vec![exe[0].display().to_string()]];
    let explore = |n: usize| {
        let started = Instant::now();
        let _ = referee()
            .args(["explore", "--jobs", "2", "--games", &n.to_string()])
            .arg(&program)
            .current_dir(w)
            .status();
        started.elapsed()
    };
    let m = fastest_of(
        tries,
        &mut [
            &mut || spawn_floor(&programs, &inputs, 2),
            &mut || explore(games),
            &mut || explore(fewer),
        ],
    );
    let floor_rate = games as f64 / m[0].as_secs_f64();
    let whole_rate = games as f64 / m[1].as_secs_f64();
    let playing = m[1].saturating_sub(m[2]).as_secs_f64().max(1e-9);
    let rate = (games - fewer) as f64 / playing;
    println!(
        "  explore: {rate:.0} games per second while playing ({whole_rate:.0} over the whole \
         invocation, compile and start included), the floor allows {floor_rate:.0} for the same \
         runs: {:.2}× ({:.2}×)",
        rate / floor_rate,
        whole_rate / floor_rate
    );
    rate / floor_rate
}

/// A program that asks for lines and says each back, until `q`.
const ECHO: &str = r#"#include <stdio.h>
int main(void) {
  char s[100];
  for (;;) {
    printf("Enter a word: ");
    if (scanf("%99s", s) != 1 || s[0] == 'q') return 0;
    printf("you typed %s\n", s);
  }
}
"#;

/// A program that reads a count and prints that many lines of a board.
const PRINTER: &str = r#"#include <stdio.h>
int main(void) {
  int n = 0;
  if (scanf("%d", &n) != 1) return 1;
  for (int i = 0; i < n; i++) printf("%d: . . . . . . . . . . . . . . . .\n", i);
  return 0;
}
"#;

/// Programs of one source for a suite of its own: `copies` executables,
/// and one suite per input of `inputs`, each holding `cases` copies of a
/// case typing that input (pinned by `referee new`).
fn line_suites(
    dir: &Path,
    source: &str,
    inputs: &[Vec<String>],
    copies: usize,
    cases: usize,
) -> (PathBuf, Vec<PathBuf>) {
    fs::create_dir_all(dir).expect("a folder");
    let file = dir.join("program.c");
    fs::write(&file, source).expect("a source");
    let exes = compile(std::slice::from_ref(&file), &dir.join("one"), &["-O2"], 1);
    let class = dir.join("class");
    fs::create_dir_all(&class).expect("a folder");
    for i in 0..copies {
        fs::copy(&exes[0], class.join(format!("p{i:02}"))).expect("a copy");
    }
    let suites = inputs
        .iter()
        .enumerate()
        .map(|(k, input)| {
            let suite = dir.join(format!("suite{k}"));
            let mut new = Command::new(env!("CARGO_BIN_EXE_referee"));
            new.arg("new").arg(&suite).arg("--reference").arg(&file);
            for line in input {
                new.args(["--input", line]);
            }
            let made = new.stdout(Stdio::null()).status().expect("referee new");
            assert!(made.success(), "referee new {}", suite.display());
            for c in 1..cases {
                for ext in ["yaml", "transcript"] {
                    fs::copy(
                        suite.join(format!("example.{ext}")),
                        suite.join(format!("copy{c}.{ext}")),
                    )
                    .expect("a case");
                }
            }
            suite
        })
        .collect();
    (class, suites)
}

/// What one more line read, one more line printed, and the rest of a run
/// cost, pinned to one core, against the spawn floor's: the grade of a
/// class of one small program on suites that differ only in how many
/// lines a case types or prints. Prints them beside the job's cases'
/// averages, which say what a run of the job pays for each.
fn per_line_costs(w: &Path, tries: usize, cases: &[Case], fixed_ms: f64) {
    let (copies, each) = (20, 10);
    let runs = (copies * each) as f64;
    let words: Vec<String> = (0..100)
        .map(|i| format!("w{i}"))
        .chain(["q".into()])
        .collect();
    let (echo_class, echo) = line_suites(
        &w.join("lines-read"),
        ECHO,
        &[vec!["q".into()], words.clone()],
        copies,
        each,
    );
    let (print_class, print) = line_suites(
        &w.join("lines-printed"),
        PRINTER,
        &[vec!["1".into()], vec!["1000".into()]],
        copies,
        each,
    );
    let floor_of = |class: &Path, input: &[String], name: &str| {
        let file = w.join(format!("{name}.in"));
        fs::write(&file, input.join("\n") + "\n").expect("an input");
        let programs: Vec<Vec<String>> = (0..copies)
            .map(|i| vec![class.join(format!("p{i:02}")).display().to_string()])
            .collect();
        let inputs = vec![file; each];
        move || spawn_floor(&programs, &inputs, 1)
    };
    let out = w.join("lines-out");
    let mut floor_echo_1 = floor_of(&echo_class, &["q".to_string()], "echo-1");
    let mut floor_echo_101 = floor_of(&echo_class, &words, "echo-101");
    let mut floor_print_1 = floor_of(&print_class, &["1".to_string()], "print-1");
    let mut floor_print_1000 = floor_of(&print_class, &["1000".to_string()], "print-1000");
    let m = fastest_of(
        tries,
        &mut [
            &mut || grade(&echo_class, &echo[0], &out, 1, true),
            &mut || grade(&echo_class, &echo[1], &out, 1, true),
            &mut || grade(&print_class, &print[0], &out, 1, true),
            &mut || grade(&print_class, &print[1], &out, 1, true),
            &mut floor_echo_1,
            &mut floor_echo_101,
            &mut floor_print_1,
            &mut floor_print_1000,
        ],
    );
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let read = (us(m[1]) - us(m[0])) / (runs * 100.0);
    let printed = (us(m[3]) - us(m[2])) / (runs * 999.0);
    let floor_read = (us(m[5]) - us(m[4])) / (runs * 100.0);
    let floor_printed = (us(m[7]) - us(m[6])) / (runs * 999.0);
    let rest = (us(m[0]) - fixed_ms * 1e3) / runs;
    let floor_rest = us(m[4]) / runs;
    let lines_read = cases.iter().map(|c| c.input.len()).sum::<usize>() as f64 / cases.len() as f64;
    let lines_printed = cases
        .iter()
        .map(|c| {
            run_reference(reference::Game::Connect4, &c.input)
                .transcript
                .output()
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
        })
        .sum::<usize>() as f64
        / cases.len() as f64;
    println!("\nWhere a C run's time goes, one core (a class of one small program, {runs} runs a suite):");
    println!(
        "  each line read: referee {read:.1} us, floor {floor_read:.1} us (the program waits, \
         referee collects what it printed and answers with the line)"
    );
    println!(
        "  each line printed: referee {printed:.2} us, floor {floor_printed:.2} us (a terminal \
         flushes stdout at each line; referee keeps and compares it)"
    );
    println!(
        "  the rest of a run: referee {:.3} ms, floor {:.3} ms (starting, limits, the slot made \
         ready again)",
        rest / 1e3,
        floor_rest / 1e3
    );
    println!(
        "  the job's cases read {lines_read:.1} lines and print {lines_printed:.1} on average: \
         {:.3} + {:.3} + {:.3} ms a run above the floor",
        lines_read * (read - floor_read) / 1e3,
        lines_printed * (printed - floor_printed) / 1e3,
        (rest - floor_rest) / 1e3
    );
}
