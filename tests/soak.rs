//! A term in one run: a generated class of all three games, mixing
//! correct, buggy and hostile programs, graded into the same `--out` over
//! five "weeks", as root and as an ordinary user.
//!
//! 1. the first grade;
//! 2. new submissions, and some students re-submit (a changed source):
//!    the unchanged ones come from the last run, unchanged;
//! 3. a case changed (its points) in the suite's folder, as a TA edits
//!    it (an --out graded on another folder is refused): only that
//!    case's results may change;
//! 4. SIGTERM in the middle, then the same command again into the same
//!    `--out`: the same results as an uninterrupted run;
//! 5. `--shard i/3` into three folders, then `referee merge`: the same
//!    results as one machine.
//!
//! Every week: exactly the class's ids in results.json, no program left
//! running (no process of the ordinary user, no `refleftover`), no
//! `referee-*` folder left in TMPDIR, and the `--out` within the bounds
//! docs/reliability.md gives per student.
//!
//! The class: of every 20 students, 12 hand in the game's correct
//! program, 6 a buggy one (the fixtures' bugs in turn) and 2 a hostile
//! one (a segfault, a child left behind, a memory bomb, a 1 MiB line,
//! an endless flood). One student in 8 adds a comment with their number,
//! so that their file is distinct byte-wise; the others' identical
//! sources are built once per class (src/submission/shared.rs). At 2,000
//! students that is about 250 distinct sources plus some 70 shared ones
//! per run: the compile cost stays affordable while most of the work
//! (runs, judging, reports) is per student.
//!
//! `cargo test --test soak` grades 60 students (20 per game) as root and
//! as an ordinary user. The full soak, 200 and then 2,000 students, is
//! ignored (it takes a long time) and prints its figures: peak RSS of the
//! referee process itself (VmHWM sampled from /proc every 5 ms) and
//! seconds per submission of the first grade:
//!
//! ```sh
//! cargo test --test soak -- --ignored --nocapture
//! ```

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::attack::{alive, is_root, open_to_all, processes_of, referee_command, As, ORDINARY};
use common::*;
use serde_json::Value;
use wait_timeout::ChildExt;

/// The games, each with its two cases (the second is the one week 3
/// changes).
const GAMES: [(&str, [&str; 2]); 3] = [
    ("connect4", ["seed-example-1", "invalid-column-full"]),
    ("pentago", ["seed-sample-run", "display-board-exact"]),
    (
        "connect4-bomb",
        [
            "drop-piece-handout-example",
            "horizontal-player-2-returns-2",
        ],
    ),
];

/// The hostile programs, standalone sources from tests/programs.
const HOSTILE: [&str; 5] = [
    "programs/segfault-after-first-move.c",
    "programs/leaves-a-child-behind.c",
    "programs/memory-bomb.c",
    "programs/floods/one-mebibyte-line.c",
    "programs/flood.c",
];

/// Most a student adds to `--out` (docs/reliability.md "Bounded reports":
/// 128 KiB of transcripts per student, kept in the details and shown in
/// both feedback pages, plus explanations and reasons), and the class's
/// own files.
const PER_STUDENT: u64 = 512 * 1024;
const PER_CLASS: u64 = 4 * 1024 * 1024;

/// The sources of a game's class: (file extension, source) for correct,
/// buggy and hostile students.
struct Sources {
    correct: (String, String),
    bugs: Vec<(String, String)>,
    hostile: Vec<(String, String)>,
}

fn sources(game: &str) -> Sources {
    let fixtures = test_file(&format!("fixtures/{game}"));
    let ext_of = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .unwrap_or("c")
            .to_string()
    };
    let read = |p: &Path| (ext_of(p), fs::read_to_string(p).unwrap());
    let correct = fs::read_dir(&fixtures)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_stem().is_some_and(|s| s == "correct"))
        .unwrap();
    let mut bugs: Vec<PathBuf> = fs::read_dir(fixtures.join("bugs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    bugs.sort();
    Sources {
        correct: read(&correct),
        bugs: bugs.iter().map(|p| read(p)).collect(),
        // The child's pid, which leaves-a-child-behind prints, changes
        // from run to run: the soak compares runs, so it prints none.
        hostile: HOSTILE
            .iter()
            .map(|p| {
                let (ext, text) = read(&test_file(p));
                let text = text.replace(
                    "printf(\"started %d\\n\", (int)child);",
                    "printf(\"started\\n\");",
                );
                (ext, text)
            })
            .collect(),
    }
}

/// A line comment in the source's language.
fn comment(ext: &str, text: &str) -> String {
    if ext == "py" {
        format!("# {text}\n")
    } else {
        format!("/* {text} */\n")
    }
}

/// Student `n`'s source in week `resubmitted` (0: as first handed in).
fn student_source(s: &Sources, n: usize, resubmitted: usize) -> (String, String) {
    let (ext, text) = match n % 20 {
        0..=11 => s.correct.clone(),
        12..=17 => s.bugs[(n / 20 + n % 20) % s.bugs.len()].clone(),
        _ => s.hostile[(n / 20 + n) % s.hostile.len()].clone(),
    };
    let mut text = text;
    if n % 8 == 0 {
        text = comment(&ext, &format!("student {n}")) + &text;
    }
    if resubmitted > 0 {
        text = comment(&ext, &format!("re-submitted in week {resubmitted}")) + &text;
    }
    (ext, text)
}

fn id(n: usize) -> String {
    format!("s{n:05}")
}

/// Writes students `range` of `game`'s class into `class`.
fn write_students(s: &Sources, class: &Path, range: std::ops::Range<usize>, week: usize) {
    fs::create_dir_all(class).unwrap();
    for n in range {
        let (ext, text) = student_source(s, n, week);
        // A student's old file of another language goes.
        for other in ["c", "py"] {
            let _ = fs::remove_file(class.join(format!("{}.{other}", id(n))));
        }
        fs::write(class.join(format!("{}.{ext}", id(n))), text).unwrap();
    }
}

/// What referee ran, measured.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
    peak_kib: u64,
}

/// Runs referee as `who` in `dir` with `args` and TMPDIR `tmp`; with
/// `interrupt_at`, sends SIGTERM once stderr shows that many submissions
/// done. The peak RSS is referee's own (VmHWM), not its programs'.
fn run(who: As, dir: &Path, tmp: &Path, args: &[String], interrupt_at: Option<usize>) -> Ran {
    let mut command = referee_command(who);
    command
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("HOME", dir)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = command.spawn().expect("referee starts");
    let pid = child.id() as libc::pid_t;
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut peak = 0;
            while !done.load(Ordering::Relaxed) {
                // setpriv execs referee in the same process.
                let is_referee = fs::read_to_string(format!("/proc/{pid}/comm"))
                    .is_ok_and(|name| name.contains("referee"));
                if let Some(kib) = vm_hwm_kib(pid as u32).filter(|_| is_referee) {
                    peak = peak.max(kib);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        })
    };
    let err = BufReader::new(child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut seen = String::new();
        let mut sent = false;
        for line in err.lines().map_while(Result::ok) {
            if let (Some(at), false) = (interrupt_at, sent) {
                let done = line
                    .strip_prefix('[')
                    .and_then(|l| l.split('/').next())
                    .and_then(|n| n.parse::<usize>().ok());
                if done.is_some_and(|d| d >= at) {
                    // SAFETY: signalling our own child.
                    unsafe { libc::kill(pid, libc::SIGTERM) };
                    sent = true;
                }
            }
            seen.push_str(&line);
            seen.push('\n');
        }
        seen
    });
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    let status = child
        .wait_timeout(Duration::from_secs(3600))
        .unwrap()
        .expect("referee finishes within the hour");
    let seconds = started.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    Ran {
        code: status.code(),
        stdout: out,
        stderr: reader.join().unwrap(),
        seconds,
        peak_kib: sampler.join().unwrap(),
    }
}

/// Each submission by id, without the times that vary from run to run.
fn by_id(results: &Value) -> BTreeMap<String, Value> {
    results["submissions"]
        .as_array()
        .expect("results.json lists submissions")
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                without_times(s.clone()),
            )
        })
        .collect()
}

/// Fails, saying which students differ and how (the first few), unless
/// both weeks hold the same students with the same results.
fn assert_same(week: &BTreeMap<String, Value>, expected: &BTreeMap<String, Value>, what: &str) {
    let ids = |m: &BTreeMap<String, Value>| m.keys().cloned().collect::<BTreeSet<String>>();
    assert_eq!(ids(week), ids(expected), "{what}: the same students");
    let differ: Vec<&String> = week
        .keys()
        .filter(|id| week[*id] != expected[*id])
        .collect();
    let shown: Vec<String> = differ
        .iter()
        .take(3)
        .map(|id| format!("{id}:\n  {}\n  expected {}", week[*id], expected[*id]))
        .collect();
    assert!(
        differ.is_empty(),
        "{what}: {} of {} students differ:\n{}",
        differ.len(),
        week.len(),
        shown.join("\n")
    );
}

/// A submission without `case`, the scores it sums into and its
/// fingerprint (which covers the suite).
fn without_case(s: &Value, case: &str) -> Value {
    let mut s = s.clone();
    s["fingerprint"] = Value::Null;
    s["score"] = Value::Null;
    s["max_score"] = Value::Null;
    if let Some(cases) = s["cases"].as_array_mut() {
        cases.retain(|c| c["name"] != case);
    }
    s
}

fn size_of(dir: &Path) -> u64 {
    all_files(dir).iter().map(|(_, b)| b.len() as u64).sum()
}

/// A game's class in a soak: its folders and how it is graded.
struct Soak {
    who: As,
    work: PathBuf,
    tmp: PathBuf,
    game: &'static str,
    cases: [&'static str; 2],
    sources: Sources,
}

/// The figures of one game's soak.
#[derive(Default)]
struct Figures {
    graded: usize,
    first_seconds: f64,
    peak_kib: u64,
}

impl Soak {
    fn grade_args(&self, cases: &Path, out: &Path, extra: &[&str], class: &Path) -> Vec<String> {
        let mut args: Vec<String> = ["grade", "--game", self.game, "--cases"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.push(cases.display().to_string());
        args.push("--out".into());
        args.push(out.display().to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        args.push(class.display().to_string());
        args
    }

    fn run(&self, args: &[String], interrupt_at: Option<usize>) -> Ran {
        // The ordinary user reads the class and suites, and writes the
        // reports beside them.
        open_to_all(&self.work);
        fs::set_permissions(&self.work, fs::Permissions::from_mode(0o777)).unwrap();
        fs::set_permissions(&self.tmp, fs::Permissions::from_mode(0o1777)).unwrap();
        let ran = run(self.who, &self.work, &self.tmp, args, interrupt_at);
        // Nothing left running, nothing left in TMPDIR.
        assert!(alive("refleftover").is_empty(), "a program's child is left");
        if self.who == As::Ordinary {
            let left = processes_of(ORDINARY);
            assert!(left.is_empty(), "processes of the grading uid: {left:?}");
        }
        let tmp = referee_folders(&self.tmp);
        assert!(tmp.is_empty(), "left in TMPDIR: {tmp:?}");
        ran
    }

    /// Checks a finished week's `--out`: exactly `ids`, every one graded
    /// (or an error the class's program explains), within its bounds.
    fn check_out(&self, out: &Path, ids: &BTreeSet<String>) -> BTreeMap<String, Value> {
        let results = by_id(&read_json(&out.join("results.json")));
        let found: BTreeSet<String> = results.keys().cloned().collect();
        assert_eq!(&found, ids, "{}: every student accounted for", self.game);
        for (id, s) in &results {
            assert_ne!(s["status"], "not-graded", "{id}: {s}");
            assert!(
                out.join(format!("feedback/{id}.md")).is_file(),
                "{id}'s feedback"
            );
        }
        let size = size_of(out);
        let bound = PER_CLASS + PER_STUDENT * ids.len() as u64;
        assert!(
            size <= bound,
            "{}: --out is {size} bytes, over {bound}",
            self.game
        );
        results
    }

    fn expect_ok(&self, ran: &Ran, week: &str) {
        assert_eq!(
            ran.code,
            Some(0),
            "{} week {week}:\n{}{}",
            self.game,
            ran.stdout,
            ran.stderr
        );
    }

    /// The five weeks with `students` students.
    fn term(&self, students: usize) -> Figures {
        let mut figures = Figures::default();
        let class = self.work.join("class");
        let cases = small_suite(self.game, &self.work, &self.cases);
        let out = self.work.join("out");
        let first = students * 9 / 10;
        let mut ids: BTreeSet<String> = (0..first).map(id).collect();

        // Week 1: the first grade.
        write_students(&self.sources, &class, 0..first, 0);
        let ran = self.run(&self.grade_args(&cases, &out, &[], &class), None);
        self.expect_ok(&ran, "1");
        figures.first_seconds = ran.seconds;
        figures.peak_kib = ran.peak_kib;
        figures.graded += first;
        let week1 = self.check_out(&out, &ids);
        let correct = week1
            .values()
            .filter(|s| s["status"] == "graded" && s["score"] == s["max_score"])
            .count();
        assert!(
            correct >= first / 2,
            "{}: {correct} of {first} correct",
            self.game
        );

        // Week 2: late submissions, and one student in 10 re-submits.
        write_students(&self.sources, &class, first..students, 0);
        let resubmitted: Vec<usize> = (0..first).filter(|n| n % 10 == 3).collect();
        for &n in &resubmitted {
            write_students(&self.sources, &class, n..n + 1, 2);
        }
        ids.extend((first..students).map(id));
        let ran = self.run(&self.grade_args(&cases, &out, &[], &class), None);
        self.expect_ok(&ran, "2");
        figures.graded += students - first + resubmitted.len();
        let unchanged = first - resubmitted.len();
        assert!(
            ran.stdout
                .contains(&format!("({unchanged} unchanged since the last run)")),
            "{}: {}",
            self.game,
            ran.stdout
        );
        let week2 = self.check_out(&out, &ids);
        for (id, s) in &week1 {
            let changed = resubmitted.iter().any(|&n| &self::id(n) == id);
            if !changed {
                assert_eq!(&week2[id], s, "{id} was not re-submitted");
            } else {
                // The comment changes no verdict.
                assert_eq!(week2[id]["score"], s["score"], "{id} re-submitted");
            }
        }

        // Week 3: the second case's points change.
        let changed_case = self.cases[1];
        let file = cases.join(format!("{changed_case}.yaml"));
        let text = fs::read_to_string(&file).unwrap();
        let text = text
            .lines()
            .map(|l| {
                if l.starts_with("points:") {
                    "points: 7".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n";
        fs::write(&file, text).unwrap();
        let ran = self.run(&self.grade_args(&cases, &out, &[], &class), None);
        self.expect_ok(&ran, "3");
        figures.graded += students;
        let week3 = self.check_out(&out, &ids);
        for (id, s) in &week2 {
            assert_eq!(
                without_case(&week3[id], changed_case),
                without_case(s, changed_case),
                "{id}: only {changed_case} may change:\n{}\n{}",
                without_case(&week3[id], changed_case),
                without_case(s, changed_case)
            );
        }
        let maxed = week3
            .values()
            .filter(|s| s["max_score"].as_f64().is_some_and(|m| m >= 7.0))
            .count();
        assert!(maxed > 0, "the changed points count");

        // Week 4: SIGTERM in the middle, then a resume into the same --out.
        let out4 = self.work.join("out-4");
        let args = self.grade_args(&cases, &out4, &["--jobs", "1"], &class);
        let ran = self.run(&args, Some(students / 3));
        assert_eq!(ran.code, Some(143), "{}{}", ran.stdout, ran.stderr);
        let stopped = by_id(&read_json(&out4.join("results.json")));
        assert_eq!(stopped.len(), students, "every student in the reports");
        let ran = self.run(&args, None);
        self.expect_ok(&ran, "4 (resumed)");
        figures.graded += students;
        let week4 = self.check_out(&out4, &ids);
        assert_same(
            &week4,
            &week3,
            "a resumed run grades as an uninterrupted one",
        );

        // Week 5: three shards and a merge.
        let mut shards = Vec::new();
        for k in 1..=3 {
            let dir = self.work.join(format!("out-5-{k}"));
            let shard = format!("{k}/3");
            let ran = self.run(
                &self.grade_args(&cases, &dir, &["--shard", &shard], &class),
                None,
            );
            self.expect_ok(&ran, &format!("5 (shard {shard})"));
            shards.push(dir.display().to_string());
        }
        let merged = self.work.join("merged");
        let mut args = vec![
            "merge".to_string(),
            "--out".into(),
            merged.display().to_string(),
        ];
        args.extend(shards);
        let ran = self.run(&args, None);
        self.expect_ok(&ran, "5 (merge)");
        figures.graded += students;
        let week5 = self.check_out(&merged, &ids);
        assert_same(&week5, &week3, "merged shards grade as one machine");
        figures
    }
}

/// The term of a class of `per_game` students of each game, as `who`.
fn soak(who: As, per_game: usize) -> Vec<(&'static str, Figures)> {
    let mut all = Vec::new();
    for (game, cases) in GAMES {
        let work = tempfile::tempdir().unwrap();
        let tmp = work.path().join("tmp");
        fs::create_dir(&tmp).unwrap();
        let soak = Soak {
            who,
            work: work.path().to_path_buf(),
            tmp,
            game,
            cases,
            sources: sources(game),
        };
        all.push((game, soak.term(per_game)));
    }
    all
}

#[test]
fn a_small_term_as_the_current_user() {
    let figures = soak(As::Me, 20);
    assert_eq!(
        figures.iter().map(|(_, f)| f.graded).sum::<usize>(),
        3 * (18 + 2 + 2 + 20 * 3)
    );
}

#[test]
fn a_small_term_as_an_ordinary_user() {
    assert!(
        is_root(),
        "switching to an ordinary user needs root: run the tests as root"
    );
    soak(As::Ordinary, 20);
}

#[test]
#[ignore = "the full soak: classes of 200 and 2,000 through five weeks, an hour or more"]
fn a_term_at_full_scale() {
    let who = if is_root() { As::Ordinary } else { As::Me };
    let mut rows = Vec::new();
    for per_game in [200 / 3 + 1, 2000 / 3 + 1] {
        let figures = soak(who, per_game);
        let first = figures.len() * (per_game * 9 / 10);
        let seconds: f64 = figures.iter().map(|(_, f)| f.first_seconds).sum();
        let peak = figures.iter().map(|(_, f)| f.peak_kib).max().unwrap_or(0);
        let graded: usize = figures.iter().map(|(_, f)| f.graded).sum();
        for (game, f) in &figures {
            println!(
                "{} per game, {game}: first grade {:.1} s, peak RSS {} KiB",
                per_game, f.first_seconds, f.peak_kib
            );
        }
        rows.push((3 * per_game, graded, peak, seconds / first as f64));
    }
    println!("| class | submissions graded | referee's peak RSS | seconds per submission |");
    println!("|---|---|---|---|");
    for (class, graded, peak, per) in &rows {
        println!(
            "| {class} | {graded} | {:.1} MiB | {per:.3} |",
            *peak as f64 / 1024.0
        );
    }
}
