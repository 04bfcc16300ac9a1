//! The runner itself: deterministic transcripts under load, nothing left
//! running after a case.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::*;
use referee::expected::run_reference;
use referee::run::{self, Ending, Feed, Limits};
use referee::sandbox;
use referee::submission::{self, build};
use referee::Game;

/// A test program, built with the default flags.
fn built(file: &str) -> submission::Built {
    let submission = submission::locate(&test_file(file)).unwrap();
    build(&submission, &submission::Flags::default(), &[]).unwrap()
}

/// One run of `built` on `inputs` in this thread's slot, with default
/// limits: the jail (its working folder still holds what the run left)
/// and the result.
fn run_once(built: &submission::Built, inputs: &[String]) -> (sandbox::Jail, run::RunResult) {
    let limits = Limits::default();
    let jail = sandbox::get().jail(&built.program.reads, &limits).unwrap();
    let result = run::run(&built.program, inputs, &limits, &jail, Feed::Interactive).unwrap();
    (jail, result)
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(String::from).collect()
}

/// Keeps every core busy until dropped.
struct Load(Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl Load {
    fn start() -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..cores)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut x: u64 = 1;
                    while !stop.load(Ordering::Relaxed) {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                        std::hint::black_box(x);
                    }
                })
            })
            .collect();
        Load(stop, threads)
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        for t in self.1.drain(..) {
            let _ = t.join();
        }
    }
}

/// Runs `file` on `inputs` `times` times, `parallel` at once, under full
/// load; returns every terminal transcript.
fn transcripts(file: &str, inputs: &[String], times: usize, parallel: usize) -> Vec<Vec<u8>> {
    let submission = submission::locate(&test_file(file)).unwrap();
    let built = build(
        &submission,
        &submission::Flags {
            c: Some(vec!["-O2".to_string()]),
            ..Default::default()
        },
        &[],
    )
    .unwrap();
    let _load = Load::start();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let found = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..parallel {
            s.spawn(|| {
                while next.fetch_add(1, Ordering::Relaxed) < times {
                    let limits = Limits::default();
                    let jail = sandbox::get().jail(&built.program.reads, &limits).unwrap();
                    let result =
                        run::run(&built.program, inputs, &limits, &jail, Feed::Interactive)
                            .unwrap();
                    assert_eq!(result.ending, Ending::Exited(0));
                    found.lock().unwrap().push(result.transcript.terminal());
                }
            });
        }
    });
    found.into_inner().unwrap()
}

#[test]
fn transcripts_are_identical_under_load_and_match_the_reference() {
    let seed = std::fs::read_to_string(root().join("cases/connect4/seed-example-3.yaml")).unwrap();
    let inputs: Vec<String> = seed
        .lines()
        .skip_while(|l| !l.starts_with("input:"))
        .skip(1)
        .map(|l| l.trim().to_string())
        .collect();
    assert_eq!(inputs.len(), 36);
    let expected = run_reference(Game::Connect4, &inputs).transcript.terminal();
    let runs = transcripts("fixtures/connect4/correct.c", &inputs, 40, 4);
    assert_eq!(runs.len(), 40);
    for (i, t) in runs.iter().enumerate() {
        assert_eq!(
            String::from_utf8_lossy(t),
            String::from_utf8_lossy(&expected),
            "run {i} differs"
        );
    }
}

#[test]
fn python_transcripts_are_identical_under_load() {
    // 5 rows by 4: player 2 bombs an empty column, player 1 wins in column 4.
    let inputs = lines("5\n4\n4\nn\n1\ny\n4\nn\n1\n4\nn\n2\n4\nn");
    let expected = run_reference(Game::Connect4Bomb, &inputs)
        .transcript
        .terminal();
    let runs = transcripts("fixtures/connect4-bomb/correct.py", &inputs, 15, 3);
    for t in &runs {
        assert_eq!(
            String::from_utf8_lossy(t),
            String::from_utf8_lossy(&expected)
        );
    }
}

#[test]
fn prompts_come_before_their_answers_in_python_too() {
    let inputs = lines("a\nb c\nquit");
    let runs = transcripts("programs/echo-lines.py", &inputs, 1, 1);
    assert_eq!(
        String::from_utf8_lossy(&runs[0]),
        "line 1? a\n1: a\nline 2? b c\n2: b c\nline 3? quit\nbye\n"
    );
}

/// A child started by the program is gone when the case ends, even
/// though the program exited normally and left it sleeping.
#[test]
fn nothing_the_program_started_outlives_its_case() {
    let built = built("programs/leaves-a-child-behind.c");
    let (jail, result) = run_once(&built, &[]);
    assert_eq!(result.ending, Ending::Exited(0));
    assert_eq!(
        std::fs::read_to_string(jail.workdir().join("child.pid")).unwrap(),
        "child started\n"
    );
    // The run is over: nothing of it may still run anywhere.
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            let comm = std::fs::read_to_string(e.path().join("comm")).unwrap_or_default();
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            let zombie = stat
                .rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'));
            comm.trim() == "refleftover" && !zombie
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(left.is_empty(), "still running: {left:?}");
}

/// Whatever a run leaves in its working folder or its TMPDIR (a file,
/// a folder) is gone before the next run in the same slot: the next run
/// may be another student's.
#[test]
fn the_next_run_in_a_slot_finds_its_folders_empty() {
    let built = built("programs/leaves-things.py");
    for leave in ["file", "nothing", "folder", "file", "nothing"] {
        // One thread, one slot: each jail is the same slot made ready.
        let (_jail, result) = run_once(&built, &lines(leave));
        assert_eq!(result.ending, Ending::Exited(0));
        let output = String::from_utf8_lossy(&result.transcript.terminal()).into_owned();
        assert!(
            output.starts_with("found [[], []]\n"),
            "before leaving {leave}: {output}"
        );
        assert!(output.ends_with(&format!("left {leave}\n")), "{output}");
    }
}

/// The processors the calling thread may run on, as the program prints
/// its own.
fn my_processors() -> String {
    let cpus: Vec<String> = sandbox::cpus::this_thread()
        .iter()
        .map(|cpu| cpu.to_string())
        .collect();
    cpus.join(",")
}

/// A worker's programs run on the processor its thread was given (one of
/// its own while one is free), so that the runner, the slot's keeper and
/// the program never wait for each other on two busy processors.
#[test]
fn a_program_runs_where_its_worker_does() {
    let built = built("programs/says-its-processors.c");
    let seen = std::thread::spawn(move || {
        let (_jail, result) = run_once(&built, &[]);
        let output = String::from_utf8_lossy(&result.transcript.terminal()).into_owned();
        (my_processors(), output)
    })
    .join()
    .unwrap();
    let (worker, output) = seen;
    assert_eq!(output.trim(), worker);
}

/// The runner answers a read of the terminal with the case's next line,
/// whichever process of the program reads (a child too), and lets a
/// process that made another file its stdin (`dup2` onto 0, or `close(0)`
/// and `open`) read that file.
#[test]
fn reads_of_a_stdin_the_program_replaced_read_its_file() {
    let (_jail, result) = run_once(&built("programs/reads-another-stdin.c"), &lines("one\ntwo"));
    assert_eq!(result.ending, Ending::Exited(0));
    assert_eq!(
        String::from_utf8_lossy(&result.transcript.output()),
        "first: one\nchild: two\nsecond: from the file\nthird: from the file\n"
    );
    assert_eq!(result.unread_inputs, 0);
}
