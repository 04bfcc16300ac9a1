//! The grading benchmark: `cargo bench --bench grade`.
//!
//! Grades a generated class (by default 200 C submissions on every
//! `connect4` case, and 100 Python submissions on every whole-game
//! `connect4-bomb` case) several ways on this machine, in one run, and
//! prints ratios between them:
//!
//! - the floor: each compiled program started with the case's input on a
//!   pipe and its output collected, nothing else (`std::process::Command`);
//! - a hand-written TA script (`benches/baseline.sh`: bash, `timeout`,
//!   input redirection, `diff`);
//! - `referee grade` with its default sandbox, then with each protection
//!   turned off (`REFEREE_SANDBOX_OFF`), to show what each costs;
//! - on one core (everything pinned to the first processor, one worker)
//!   and on all of them (one worker per core).
//!
//! Programs are compiled once up front and given to the floor, the script
//! and referee alike as executables, so run costs are compared like for
//! like; compiling is timed on its own. Each configuration is measured
//! [`TRIES`] times, interleaved, and the fastest counts: on a shared
//! machine noise only ever adds time. `REFEREE_BENCH_SCALE=0.1` grades a
//! tenth of the class, for a quick look.

use std::fs;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use referee::case::{load_suite, Case};
use referee::expected::run_reference;

mod common;
use common::{cores, parallel, root, scale, TRIES};

const C_SUBMISSIONS: usize = 200;

/// Not a layer: referee where it may not look into programs (see
/// [`referee`]): the slot's keeper opens their memory for it.
const NO_PTRACE: &str = "no-ptrace";
/// Not a layer: the same, each input line typed on the terminal
/// (`REFEREE_DETECT=typing`), the way left where even the keeper may not.
const TYPING: &str = "typing";
const PYTHON_SUBMISSIONS: usize = 100;

/// Where a measurement runs: pinned to the first processor with one
/// worker, or free on every core with one worker per core.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cores {
    One,
    All,
}

impl Cores {
    fn workers(self) -> usize {
        match self {
            Cores::One => 1,
            Cores::All => cores(),
        }
    }
}

/// Pins the calling thread (and the processes it starts) to processor 0.
fn pin_to_first_core() {
    // SAFETY: a CPU set on the stack, for the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(0, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

/// [`pin_to_first_core`], once per thread: the floor's timed loop then
/// makes no call of its own per case.
fn pin_this_thread_once() {
    thread_local!(static PINNED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
    if !PINNED.get() {
        pin_to_first_core();
        PINNED.set(true);
    }
}

/// Starts `command` pinned to processor 0 when `cores` says so.
fn place(command: &mut Command, cores: Cores) {
    if cores == Cores::One {
        // SAFETY: sched_setaffinity is async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                pin_to_first_core();
                Ok(())
            });
        }
    }
}

/// One measurement: how long `cases` cases took, and referee's peak memory.
struct Row {
    what: String,
    cases: usize,
    wall: Duration,
    peak_rss_kib: Option<u64>,
}

impl Row {
    fn per_case_us(&self) -> f64 {
        self.wall.as_secs_f64() * 1e6 / self.cases as f64
    }
}

/// The fastest of [`TRIES`] runs of each of `runs`, tried in turn so that
/// a slow spell of the machine does not fall on one configuration only.
fn fastest(
    runs: &mut [&mut dyn FnMut() -> (Duration, Option<u64>)],
) -> Vec<(Duration, Option<u64>)> {
    let mut best: Vec<Option<(Duration, Option<u64>)>> = vec![None; runs.len()];
    for _ in 0..TRIES {
        for (run, best) in runs.iter_mut().zip(best.iter_mut()) {
            let measured = run();
            if best.is_none_or(|(wall, _)| measured.0 < wall) {
                *best = Some(measured);
            }
        }
    }
    best.into_iter().map(|b| b.expect("measured")).collect()
}

/// The programs of a class: sources copied from the fixtures (correct
/// ones and known-bad ones), each made unique by a comment.
fn make_class(dir: &Path, game: &str, ext: &str, count: usize) -> Vec<PathBuf> {
    let fixtures = root().join("tests/fixtures").join(game);
    let mut sources = vec![fixtures.join(format!("correct.{ext}"))];
    let mut bugs: Vec<PathBuf> = fs::read_dir(fixtures.join("bugs"))
        .expect("fixtures")
        .map(|e| e.expect("a fixture").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    bugs.sort();
    sources.extend(bugs);
    fs::create_dir_all(dir).expect("a class folder");
    (0..count)
        .map(|i| {
            // Two correct programs for every buggy one, as in a real class.
            let source = if i % 3 == 2 {
                &sources[1 + (i / 3) % (sources.len() - 1)]
            } else {
                &sources[0]
            };
            let comment = if ext == "c" {
                format!("/* student {i} */\n")
            } else {
                format!("# student {i}\n")
            };
            let path = dir.join(format!("s{i:03}.{ext}"));
            let text = fs::read_to_string(source).expect("a source");
            fs::write(&path, comment + &text).expect("a copy");
            path
        })
        .collect()
}

/// Compiles every C program, `jobs` at a time; the executables.
fn compile_all(sources: &[PathBuf], out: &Path, jobs: usize) -> (Vec<PathBuf>, Duration) {
    fs::create_dir_all(out).expect("an executables folder");
    let started = Instant::now();
    let exes: Vec<PathBuf> = sources
        .iter()
        .map(|s| out.join(s.file_stem().expect("a name")))
        .collect();
    parallel(sources.len(), jobs, |i| {
        let ok = Command::new("gcc")
            .args(["-Wall", "-o"])
            .arg(&exes[i])
            .arg(&sources[i])
            .arg("-lm")
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "{} compiles", sources[i].display());
    });
    (exes, started.elapsed())
}

/// The floor: every program on every case's input through a pipe, output
/// collected, nothing checked.
fn floor(programs: &[Vec<String>], cases: &[Case], cores: Cores) -> Duration {
    let inputs: Vec<Vec<u8>> = cases
        .iter()
        .map(|c| (c.input.join("\n") + "\n").into_bytes())
        .collect();
    let started = Instant::now();
    parallel(programs.len() * cases.len(), cores.workers(), |i| {
        if cores == Cores::One {
            pin_this_thread_once();
        }
        let (p, c) = (i / cases.len(), i % cases.len());
        // Not this machine's PYTHONUNBUFFERED: a Python program's output
        // buffered, as on a student's laptop, is the cheaper floor.
        let mut child = Command::new(&programs[p][0])
            .args(&programs[p][1..])
            .env_remove("PYTHONUNBUFFERED")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the program starts");
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = stdin.write_all(&inputs[c]);
        drop(stdin);
        let _ = child.wait_with_output();
    });
    started.elapsed()
}

/// Writes the cases as the hand-written script wants them: NAME.in and
/// NAME.out (the reference's output).
fn shell_cases(cases: &[Case], game: reference::Game, dir: &Path) -> PathBuf {
    let case_dir = dir.join("shell-cases");
    fs::create_dir_all(&case_dir).expect("a folder");
    for case in cases {
        fs::write(
            case_dir.join(format!("{}.in", case.name)),
            case.input.join("\n") + "\n",
        )
        .expect("input");
        let expected = run_reference(game, &case.input).transcript.output();
        fs::write(case_dir.join(format!("{}.out", case.name)), expected).expect("output");
    }
    case_dir
}

/// The hand-written script, on the same programs and cases.
fn shell(programs: &[Vec<String>], case_dir: &Path, dir: &Path, cores: Cores) -> Duration {
    let list = dir.join("programs.txt");
    let lines: Vec<String> = programs.iter().map(|p| p.join(" ")).collect();
    fs::write(&list, lines.join("\n") + "\n").expect("a list");
    let mut command = Command::new("bash");
    command
        .arg(root().join("benches/baseline.sh"))
        .arg(&list)
        .arg(case_dir)
        .arg(cores.workers().to_string())
        .stdout(Stdio::null());
    place(&mut command, cores);
    let started = Instant::now();
    let status = command.status().expect("bash runs");
    assert!(status.success(), "the baseline script failed");
    started.elapsed()
}

/// `referee grade` on a class folder, into a fresh `out`; its wall time
/// and peak memory.
fn referee(
    class: &Path,
    game: &str,
    cases: &Path,
    out: &Path,
    cores: Cores,
    jobs: usize,
    off: &str,
) -> (Duration, Option<u64>) {
    let _ = fs::remove_dir_all(out);
    let blind = off == NO_PTRACE || off == TYPING;
    let mut command = if blind {
        // Root without CAP_SYS_PTRACE, as in a container with Docker's
        // default settings.
        let mut c = Command::new("setpriv");
        c.args(["--bounding-set=-sys_ptrace", "--inh-caps=-sys_ptrace"])
            .arg(env!("CARGO_BIN_EXE_referee"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_referee"))
    };
    if off == TYPING {
        command.env("REFEREE_DETECT", "typing");
    }
    let off = if blind { "" } else { off };
    // Every checked build made afresh, as on a first grade.
    command.env("REFEREE_CACHE", "off");
    command
        .args([
            "grade",
            "--game",
            game,
            "--force",
            "--jobs",
            &jobs.to_string(),
            "--cases",
        ])
        .arg(cases)
        .arg("--out")
        .arg(out)
        .arg(class)
        .env("REFEREE_SANDBOX_OFF", off)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    place(&mut command, cores);
    let started = Instant::now();
    // Reaped with wait4 below, for its resource use.
    #[allow(clippy::zombie_processes)]
    let child = command.spawn().expect("referee starts");
    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: wait4 on our own child, writing its status and usage.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = started.elapsed();
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "referee grade failed"
    );
    (wall, Some(usage.ru_maxrss as u64))
}

/// Only the whole-game cases (function calls run a helper, not the
/// program, and have no floor to compare with).
fn game_cases(suite_dir: &Path, into: &Path) -> (PathBuf, Vec<Case>) {
    let suite = load_suite(suite_dir).expect("the suite loads");
    fs::create_dir_all(into).expect("a folder");
    fs::copy(suite_dir.join("suite.yaml"), into.join("suite.yaml")).expect("suite.yaml");
    let cases: Vec<Case> = suite
        .cases
        .into_iter()
        .filter(|c| c.call.is_none())
        .collect();
    for case in &cases {
        fs::copy(
            &case.file,
            into.join(case.file.file_name().expect("a name")),
        )
        .expect("a case");
    }
    (into.to_path_buf(), cases)
}

fn print_table(title: &str, rows: &[(&Row, &Row, Option<&Row>)]) {
    println!("\n{title}");
    println!(
        "  {:<40} {:>7} {:>8} {:>8} {:>9} {:>8} {:>9} {:>8}",
        "", "cases", "cases/s", "µs/case", "+µs/case", "× floor", "× script", "peak MiB"
    );
    for (row, floor, script) in rows {
        let over = row.per_case_us() - floor.per_case_us();
        let same = std::ptr::eq(*row, *floor);
        println!(
            "  {:<40} {:>7} {:>8.0} {:>8.0} {:>9} {:>8.2} {:>9} {:>8}",
            row.what,
            row.cases,
            row.cases as f64 / row.wall.as_secs_f64(),
            row.per_case_us(),
            if same {
                String::new()
            } else {
                format!("{over:.0}")
            },
            row.per_case_us() / floor.per_case_us(),
            script.map_or(String::new(), |s| format!(
                "{:.2}",
                row.per_case_us() / s.per_case_us()
            )),
            row.peak_rss_kib
                .map_or(String::new(), |k| format!("{:.1}", k as f64 / 1024.0)),
        );
    }
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
    let all = cores();
    let c_count = ((C_SUBMISSIONS as f64 * scale()) as usize).max(3);
    let py_count = ((PYTHON_SUBMISSIONS as f64 * scale()) as usize).max(3);
    println!(
        "referee benchmark: {all} cores, {c_count} C and {py_count} Python submissions, fastest of {TRIES} runs"
    );

    // C: connect4, every case.
    let sources = make_class(&work.path().join("c-src"), "connect4", "c", c_count);
    let probe = &sources[..sources.len().min(20)];
    let (_, compile_probe) = compile_all(probe, &work.path().join("c-probe"), 1);
    let (exes, compile_class) = compile_all(&sources, &work.path().join("c-class"), all);
    let c_suite = root().join("cases/connect4");
    let c_cases = load_suite(&c_suite).expect("connect4 loads").cases;
    let programs: Vec<Vec<String>> = exes.iter().map(|e| vec![e.display().to_string()]).collect();
    let n = programs.len() * c_cases.len();
    let class = work.path().join("c-class");
    let out = work.path().join("out");
    let case_dir = shell_cases(&c_cases, reference::Game::Connect4, work.path());

    let row = |what: String, (wall, peak): (Duration, Option<u64>)| Row {
        what,
        cases: n,
        wall,
        peak_rss_kib: peak,
    };
    let grade = |cores: Cores, jobs: usize, off: &'static str| {
        let (class, out, suite) = (class.clone(), out.clone(), c_suite.clone());
        move || referee(&class, "connect4", &suite, &out, cores, jobs, off)
    };
    let mut floor_1 = || (floor(&programs, &c_cases, Cores::One), None);
    let mut floor_all = || (floor(&programs, &c_cases, Cores::All), None);
    let mut shell_1 = || (shell(&programs, &case_dir, work.path(), Cores::One), None);
    let mut shell_all = || (shell(&programs, &case_dir, work.path(), Cores::All), None);
    let mut referee_1 = grade(Cores::One, 1, "");
    let mut referee_all = grade(Cores::All, all, "");
    let mut referee_jobs_1 = grade(Cores::All, 1, "");
    let main = fastest(&mut [
        &mut floor_1,
        &mut floor_all,
        &mut shell_1,
        &mut shell_all,
        &mut referee_1,
        &mut referee_all,
        &mut referee_jobs_1,
    ]);
    // Each protection's cost, against the default measured in the same
    // group (the machine drifts between groups).
    let mut with_all = grade(Cores::All, all, "");
    let mut off_landlock = grade(Cores::All, all, "landlock");
    let mut off_seccomp = grade(Cores::All, all, "seccomp");
    let mut off_cgroups = grade(Cores::All, all, "cgroups");
    let mut off_tmpfs = grade(Cores::All, all, "tmpfs");
    let mut off_all = grade(Cores::All, all, "all");
    let mut no_ptrace = grade(Cores::All, all, NO_PTRACE);
    let mut typing = grade(Cores::All, all, TYPING);
    let off = fastest(&mut [
        &mut with_all,
        &mut off_landlock,
        &mut off_seccomp,
        &mut off_cgroups,
        &mut off_tmpfs,
        &mut off_all,
        &mut no_ptrace,
        &mut typing,
    ]);
    let floor_1 = row("floor, 1 core".into(), main[0]);
    let floor_all = row(format!("floor, {all} cores"), main[1]);
    let shell_1 = row("TA script (bash, timeout, diff), 1 core".into(), main[2]);
    let shell_all = row(format!("TA script, {all} cores"), main[3]);
    let referee_1 = row("referee grade, 1 core".into(), main[4]);
    let referee_all = row(format!("referee grade, {all} cores"), main[5]);
    let referee_jobs_1 = row(format!("referee grade --jobs 1, {all} cores free"), main[6]);
    let names = ["Landlock", "seccomp", "cgroups", "the tmpfs", "any sandbox"];
    let off_rows: Vec<Row> =
        std::iter::once(row(format!("  again, with all, {all} cores"), off[0]))
            .chain(
                names
                    .iter()
                    .zip(&off[1..])
                    .map(|(name, m)| row(format!("  without {name}, {all} cores"), *m)),
            )
            .chain([
                row(
                    format!("  no CAP_SYS_PTRACE (the keeper opens memory), {all} cores"),
                    off[names.len() + 1],
                ),
                row(
                    format!(
                        "  no CAP_SYS_PTRACE, input typed (REFEREE_DETECT=typing), {all} cores"
                    ),
                    off[names.len() + 2],
                ),
            ])
            .collect();
    let mut table = vec![
        (&floor_1, &floor_1, Some(&shell_1)),
        (&shell_1, &floor_1, Some(&shell_1)),
        (&referee_1, &floor_1, Some(&shell_1)),
        (&floor_all, &floor_all, Some(&shell_all)),
        (&shell_all, &floor_all, Some(&shell_all)),
        (&referee_all, &floor_all, Some(&shell_all)),
    ];
    table.extend(off_rows.iter().map(|r| (r, &floor_all, Some(&shell_all))));
    table.push((&referee_jobs_1, &floor_1, Some(&shell_1)));
    print_table(
        &format!(
            "C: {c_count} submissions × {} connect4 cases (executables; compiling is below)",
            c_cases.len()
        ),
        &table,
    );
    let compile_each = compile_probe.as_secs_f64() * 1000.0 / probe.len() as f64;
    println!(
        "  compiling: {compile_each:.0} ms per program on one core; the class on {all} cores in {:.1} s",
        compile_class.as_secs_f64()
    );
    let src_out = work.path().join("out-src");
    let (with_compile, _) = referee(
        &work.path().join("c-src"),
        "connect4",
        &c_suite,
        &src_out,
        Cores::All,
        all,
        "",
    );
    println!(
        "  referee grade on the sources, compiling included, {all} cores: {:.1} s",
        with_compile.as_secs_f64()
    );

    // Python: connect4-bomb, whole games.
    let py_class = work.path().join("py-class");
    let py_sources = make_class(&py_class, "connect4-bomb", "py", py_count);
    let (py_suite, py_cases) = game_cases(
        &root().join("cases/connect4-bomb"),
        &work.path().join("py-cases"),
    );
    let python = referee::submission::python::interpreter()
        .expect("Python 3")
        .executable
        .display()
        .to_string();
    let py_programs: Vec<Vec<String>> = py_sources
        .iter()
        .map(|s| {
            vec![
                python.clone(),
                "-B".into(),
                "-s".into(),
                s.display().to_string(),
            ]
        })
        .collect();
    let py_n = py_programs.len() * py_cases.len();
    let py_out = work.path().join("py-out");
    let mut py_floor = || (floor(&py_programs, &py_cases, Cores::All), None);
    let mut py_referee = || {
        referee(
            &py_class,
            "connect4-bomb",
            &py_suite,
            &py_out,
            Cores::All,
            all,
            "",
        )
    };
    let py = fastest(&mut [&mut py_floor, &mut py_referee]);
    let py_row = |what: String, (wall, peak): (Duration, Option<u64>)| Row {
        what,
        cases: py_n,
        wall,
        peak_rss_kib: peak,
    };
    let py_floor = py_row(format!("floor, {all} cores"), py[0]);
    let py_referee = py_row(format!("referee grade, {all} cores"), py[1]);
    print_table(
        &format!(
            "Python: {py_count} submissions × {} connect4-bomb games",
            py_cases.len()
        ),
        &[(&py_floor, &py_floor, None), (&py_referee, &py_floor, None)],
    );

    // The targets of issue 7, measured.
    let ratio = |a: &Row, b: &Row| a.per_case_us() / b.per_case_us();
    let c_1 = ratio(&referee_1, &floor_1);
    let c_all = ratio(&referee_all, &floor_all);
    let beat_1 = ratio(&shell_1, &referee_1);
    let beat_all = ratio(&shell_all, &referee_all);
    let python_ratio = ratio(&py_referee, &py_floor);
    let speedup = ratio(&referee_1, &referee_all);
    let floor_speedup = ratio(&floor_1, &floor_all);
    println!("\nTargets");
    println!(
        "  C, referee ÷ floor: {c_1:.2}× on 1 core, {c_all:.2}× on {all} (at most 2×): {}",
        verdict(c_1 <= 2.0 && c_all <= 2.0)
    );
    println!(
        "  C, script ÷ referee: {beat_1:.2}× on 1 core, {beat_all:.2}× on {all} (at least 2×): {}",
        verdict(beat_1 >= 2.0 && beat_all >= 2.0)
    );
    println!(
        "  Python, referee ÷ floor: {python_ratio:.2}× (at most 1.2×): {}",
        verdict(python_ratio <= 1.2)
    );
    println!(
        "  referee from 1 core to {all}: {speedup:.2}× faster (at least 1.7×; the floor: {floor_speedup:.2}×): {}",
        verdict(speedup >= 1.7)
    );
    // Issue 42, item 3: a default container's grade near the machine's.
    let blind = ratio(&off_rows[names.len() + 1], &off_rows[0]);
    let typed = ratio(&off_rows[names.len() + 2], &off_rows[0]);
    println!(
        "  no CAP_SYS_PTRACE ÷ the default, a case: {blind:.2}× (at most 1.3×; typed on the terminal: {typed:.2}×): {}",
        verdict(blind <= 1.3)
    );
}
