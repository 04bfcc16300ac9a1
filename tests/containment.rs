//! Containment: hostile and broken submissions graded in one batch next
//! to correct ones, as root, as an ordinary user and with referee as the
//! init of its PID namespace. Each attack is tested as an attack: it runs
//! for real, and the test proves its effect did not happen (nothing
//! reached the listeners, no secret is in any output, nothing is left
//! running, the correct programs keep full marks).

mod common;

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;

use common::attack::*;
use common::*;
use serde_json::Value;

const SECRET: &str = "TOP-SECRET-CANARY-31337";
const INHERITED: &str = "INHERITED-DESCRIPTOR-CANARY-4242";

/// The verdicts each program may get on the one case.
fn expected_verdicts() -> HashMap<&'static str, &'static [&'static str]> {
    HashMap::from([
        ("aaa-correct", &["pass"][..]),
        ("aborts", &["crashed"][..]),
        ("binary-garbage", &["wrong-output"][..]),
        ("busy-loop", &["timeout"][..]),
        ("closes-stdout", &["waiting-for-input", "wrong-output"][..]),
        ("disk-filler", &["crashed", "timeout"][..]),
        ("enormous-line", &["output-limit"][..]),
        ("exfiltrates-input", &["pass"][..]),
        ("flood", &["output-limit"][..]),
        ("fork-bomb", &["timeout", "crashed"][..]),
        ("ignores-sigterm", &["timeout"][..]),
        ("includes-a-secret", &["compile-error"][..]),
        ("includes-dev-tty", &["compile-error"][..]),
        // Killed at its first 32-bit call (SIGSYS).
        ("int80", &["crashed"][..]),
        ("kernel-interfaces", &["wrong-output"][..]),
        ("kills-everyone", &["crashed", "wrong-output"][..]),
        (
            "many-hogs",
            &["wrong-output", "crashed", "memory-limit"][..],
        ),
        ("memory-bomb", &["memory-limit"][..]),
        ("nests-folders", &["wrong-output", "timeout"][..]),
        ("probes-files", &["wrong-output"][..]),
        ("reads-fds", &["wrong-output"][..]),
        ("reads-outside", &["wrong-output"][..]),
        ("reads-outside-binary", &["wrong-output"][..]),
        ("reads-outside-cpp", &["wrong-output"][..]),
        ("segfault", &["crashed"][..]),
        ("setsid-escapee", &["wrong-output"][..]),
        ("sleeps", &["timeout"][..]),
        ("stack-overflow", &["crashed"][..]),
        ("tcp-connect", &["wrong-output"][..]),
        ("uses-root-powers", &["wrong-output"][..]),
        ("x32", &["wrong-output"][..]),
        ("bounded-fork-bomb", &["wrong-output"][..]),
        ("signals-a-victim", &["wrong-output"][..]),
        ("leaves-shared-memory", &["wrong-output"][..]),
        ("reads-shared-memory", &["wrong-output"][..]),
        ("reads-the-grader", &["wrong-output"][..]),
        ("tampers-with-its-keeper", &["wrong-output"][..]),
    ])
}

/// One grading of the hostile class, and what it needs around it.
struct Batch {
    work: tempfile::TempDir,
    class: PathBuf,
    cases: PathBuf,
    out: PathBuf,
    outside: PathBuf,
    listeners: Listeners,
    /// A process of the machine's, for programs to try to kill.
    victim: std::process::Child,
}

impl Drop for Batch {
    fn drop(&mut self) {
        let _ = self.victim.kill();
        let _ = self.victim.wait();
    }
}

impl Batch {
    /// Every hostile program and a correct one.
    fn new() -> Batch {
        Batch::of(None)
    }

    /// The hostile programs named (all with `None`) and a correct one.
    fn of(programs: Option<&[&str]>) -> Batch {
        let work = tempfile::tempdir().unwrap();
        let [class, cases, out, outside] =
            ["class", "cases", "out", "outside"].map(|n| work.path().join(n));
        for dir in [&class, &cases, &out, &outside] {
            fs::create_dir(dir).unwrap();
        }
        fs::write(outside.join("secret.txt"), format!("{SECRET}\n")).unwrap();
        fs::write(work.path().join("secret.txt"), format!("{SECRET}\n")).unwrap();
        fs::write(outside.join("inherited.txt"), INHERITED).unwrap();
        let listeners = Listeners::open(&outside);
        let victim = std::process::Command::new("sleep")
            .arg("600")
            .spawn()
            .unwrap();
        let batch = Batch {
            work,
            class,
            cases,
            out,
            outside,
            listeners,
            victim,
        };
        batch.write_cases();
        batch.write_class(programs);
        open_to_all(batch.work.path());
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&batch.out, fs::Permissions::from_mode(0o777)).unwrap();
        batch
    }

    /// A hostile source with its placeholders filled in.
    fn fill(&self, source: &str) -> String {
        let header = fs::read_to_string(test_file("programs/hostile/common.h")).unwrap();
        let correct = fs::read_to_string(test_file("fixtures/connect4/correct.c")).unwrap();
        let mut text = source
            .replace("#include \"common.h\"", &header)
            .replace("@CORRECT_CONNECT4@", &correct)
            .replace("@OUTSIDE@", self.outside.to_str().unwrap())
            .replace("@CASES@", self.cases.to_str().unwrap())
            .replace("@CLASS@", self.class.to_str().unwrap())
            .replace("@VICTIM@", &self.victim.id().to_string());
        for (placeholder, value) in self.listeners.placeholders() {
            text = text.replace(placeholder, &value);
        }
        text
    }

    /// Every hostile program, a compiled one given as an executable, and
    /// a correct program.
    fn write_class(&self, programs: Option<&[&str]>) {
        let hostile = test_file("programs/hostile");
        for entry in fs::read_dir(&hostile).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let wanted = programs.is_none_or(|p| p.contains(&stem.as_str()));
            if path.extension().is_some_and(|e| e == "c" || e == "cpp") && wanted {
                let source = self.fill(&fs::read_to_string(&path).unwrap());
                fs::write(self.class.join(path.file_name().unwrap()), source).unwrap();
            }
        }
        fs::copy(
            test_file("fixtures/connect4/correct.c"),
            self.class.join("aaa-correct.c"),
        )
        .unwrap();
        if programs.is_some() {
            return;
        }
        // An executable submission: run from a copy of its own, it must
        // not see its folder (classmates, the cases) either.
        let source = self.work.path().join("reads-outside-binary.c");
        fs::copy(self.class.join("reads-outside.c"), &source).unwrap();
        let built = std::process::Command::new("gcc")
            .arg(&source)
            .arg("-o")
            .arg(self.class.join("reads-outside-binary"))
            .status()
            .unwrap();
        assert!(built.success());
    }

    /// One case with tight limits, so that the batch is quick.
    fn write_cases(&self) {
        fs::write(
            self.cases.join("suite.yaml"),
            "game: connect4\ndefaults:\n  visibility: public\n  timeout: 2s\n  cpu: 1s\n  output_limit: 256KiB\n  memory: 128MiB\n",
        )
        .unwrap();
        fs::copy(
            root().join("cases/connect4/seed-example-1.yaml"),
            self.cases.join("seed-example-1.yaml"),
        )
        .unwrap();
    }

    fn grade(&self, who: As) -> Value {
        self.grade_with(who, &[], "2")
    }

    /// Grades with `env` and `jobs` workers.
    fn grade_with(&self, who: As, env: &[(&str, &str)], jobs: &str) -> Value {
        // A leftover from an earlier run (with the sandbox off) would be
        // taken for an escape by this one.
        let _ = fs::remove_file("/tmp/referee-escaped.txt");
        let out = referee_as(
            who,
            self.work.path(),
            &[
                "grade",
                "--game",
                "connect4",
                "--jobs",
                jobs,
                "--force",
                "--cases",
                self.cases.to_str().unwrap(),
                "--out",
                self.out.to_str().unwrap(),
                self.class.to_str().unwrap(),
            ],
            env,
            Some(&self.outside.join("inherited.txt")),
        );
        assert!(
            out.status.success(),
            "as {}: {}{}",
            who.name(),
            stdout(&out),
            stderr(&out)
        );
        serde_json::from_str(&fs::read_to_string(self.out.join("results.json")).unwrap()).unwrap()
    }

    /// The whole result of one student, transcripts included.
    fn details(&self, id: &str) -> String {
        fs::read_to_string(self.out.join(format!("details/{id}.json"))).unwrap()
    }

    /// Whether the victim was killed.
    fn victim_killed(&mut self) -> bool {
        self.victim.try_wait().unwrap().is_some()
    }

    /// The program's own output lines (the student's transcript).
    fn printed(&self, id: &str) -> Vec<String> {
        let details: Value = serde_json::from_str(&self.details(id)).unwrap();
        let actual = details["cases"][0]["actual"].as_str().unwrap_or("");
        actual.lines().map(String::from).collect()
    }
}

/// Hostile programs of one test would be taken for survivors of
/// another's: the tests that run them take turns.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// How many processes `bounded-fork-bomb` said it had at once.
fn forked(printed: &[String]) -> u32 {
    printed
        .iter()
        .find_map(|l| l.strip_prefix("FORKED ")?.parse().ok())
        .unwrap_or(0)
}

/// Grades the batch as `who` and checks every attack's effect.
fn grade_and_check(who: As) {
    let _turn = one_at_a_time();
    let mut batch = Batch::new();
    let results = batch.grade(who);
    let name = who.name();
    let expected = expected_verdicts();
    let submissions = results["submissions"].as_array().unwrap();
    assert_eq!(submissions.len(), expected.len(), "as {name}");
    for submission in submissions {
        let id = submission["id"].as_str().unwrap();
        let verdict = submission["cases"][0]["verdict"].as_str().unwrap_or("none");
        let allowed = expected[id];
        assert!(
            allowed.contains(&verdict),
            "as {name}: {id} got {verdict} ({}; {}), expected one of {allowed:?}",
            submission["cases"][0]["reason"],
            submission["message"]
        );
    }
    for full_marks in ["aaa-correct", "exfiltrates-input"] {
        let s = submissions.iter().find(|s| s["id"] == full_marks).unwrap();
        assert_eq!(s["score"], s["max_score"], "as {name}: {full_marks}");
    }
    // Nothing got out: not the inputs of the program that played well,
    // not through the 32-bit entry point, not over x32.
    assert_eq!(
        batch.listeners.received(),
        Vec::<String>::new(),
        "as {name}: a program reached the network"
    );
    assert_eq!(
        alive("refhostile"),
        Vec::<String>::new(),
        "as {name}: processes left running"
    );
    for canary in [SECRET, INHERITED] {
        assert_eq!(
            holding(&batch.out, canary),
            Vec::<PathBuf>::new(),
            "as {name}: a secret reached the reports"
        );
    }
    check_programs_reports(&batch, who);
    assert!(
        !batch.victim_killed(),
        "as {name}: a process of the machine's was killed"
    );
    for escaped in [
        batch.outside.join("escaped.txt"),
        PathBuf::from("/tmp/referee-escaped.txt"),
    ] {
        assert!(
            !escaped.exists(),
            "as {name}: {} was written",
            escaped.display()
        );
    }
    if who != As::Ordinary && who != As::Container {
        // Only control groups limit memory for the run as a whole; as an
        // ordinary user on a machine whose groups are root's, or in a
        // container whose groups are read-only, memory is limited per
        // process (doctor says so).
        let held = batch.printed("many-hogs").join("\n");
        assert!(
            !held.contains("HELD 12 of 12"),
            "as {name}: twelve processes held 40 MiB each under a 128 MiB limit"
        );
    }
}

/// What each program says it managed, from its own output.
fn check_programs_reports(batch: &Batch, who: As) {
    let name = who.name();
    // The file attacks, in C and in C++ (libstdc++'s fstream): each ran
    // (it wrote into its own private /tmp, which is allowed), and nothing
    // else was read or written.
    for program in ["reads-outside", "reads-outside-cpp"] {
        let reads = batch.printed(program);
        // Where the slot has no /tmp of its own (a container allows no
        // mount namespace), Landlock refuses that write too.
        assert!(
            reads
                .iter()
                .any(|l| l == "WROTE /tmp/referee-escaped.txt"
                    || l == "DENIED /tmp/referee-escaped.txt"),
            "as {name}: {program} did not run: {reads:?}"
        );
        for line in &reads {
            assert!(
                !(line.starts_with("READ ")
                    || line.starts_with("WROTE ") && line != "WROTE /tmp/referee-escaped.txt"),
                "as {name}: {program}: {line}"
            );
        }
    }
    let binary = batch.printed("reads-outside-binary");
    assert!(
        binary.iter().all(|l| !l.starts_with("READ ")),
        "as {name}: {binary:?}"
    );
    let probes = batch.printed("probes-files");
    // Without a minimal root (a container allows no mount namespace), a
    // program can tell that a file exists (Landlock does not govern
    // `stat`; doctor says "file system OFF"), but lists no folder.
    let seen =
        |l: &&String| l.starts_with("LISTED") || (who != As::Container && l.starts_with("VISIBLE"));
    assert!(
        !probes.iter().any(|l| seen(&l)),
        "as {name}: a program could tell which files exist: {probes:?}"
    );
    let kernel = batch.printed("kernel-interfaces");
    assert!(
        kernel.contains(&"done".to_string()) && kernel.iter().all(|l| !l.starts_with("OK ")),
        "as {name}: {kernel:?}"
    );
    let fds = batch.printed("reads-fds");
    assert!(
        fds.iter().all(|l| !l.starts_with("FD ")),
        "as {name}: a program inherited descriptors: {fds:?}"
    );
    let x32 = batch.printed("x32");
    assert!(
        x32.contains(&"X32 SOCKET -1".to_string()),
        "as {name}: {x32:?}"
    );
    let powers = batch.printed("uses-root-powers");
    assert!(
        powers.contains(&"done".to_string()) && powers.iter().all(|l| !l.starts_with("POWER ")),
        "as {name}: a program kept a privilege: {powers:?}"
    );
    let forked = forked(&batch.printed("bounded-fork-bomb"));
    assert!(forked <= 64, "as {name}: {forked} processes at once");
    let shared = batch.printed("reads-shared-memory");
    assert!(
        shared.iter().all(|l| !l.starts_with("FOUND")),
        "as {name}: {shared:?}"
    );
    let keeper = batch.printed("tampers-with-its-keeper");
    assert!(
        keeper.contains(&"KEEPER SAFE".to_string()),
        "as {name}: a program changed its slot's keeper: {keeper:?}"
    );
    let garbage = batch.details("binary-garbage");
    assert!(
        !garbage.contains('\u{1b}'),
        "as {name}: a raw escape sequence was kept"
    );
    let tty = batch.details("includes-dev-tty");
    assert!(
        !tty.contains("still running after"),
        "as {name}: the compiler waited on a terminal: {tty}"
    );
}

#[test]
fn hostile_programs_are_contained_as_the_current_user() {
    grade_and_check(As::Me);
}

#[test]
fn hostile_programs_are_contained_as_an_ordinary_user() {
    assert!(
        is_root(),
        "the containment tests switch users: run them as root"
    );
    grade_and_check(As::Ordinary);
}

#[test]
fn hostile_programs_are_contained_with_referee_as_pid_1() {
    assert!(
        is_root(),
        "the containment tests make a PID namespace: run them as root"
    );
    grade_and_check(As::Pid1);
}

#[test]
#[ignore = "needs a Docker engine: .ci/run starts one"]
fn hostile_programs_are_contained_in_a_default_docker_container() {
    grade_and_check(As::Container);
}

/// A fork bomb first, in the same slot as the correct programs graded
/// after it (one worker): each of them keeps full marks, none is said
/// not to compile. Referee as PID 1, where orphans are reaped by nobody
/// but their slot's keeper, and as an ordinary user.
fn fork_bomb_then_correct(who: As) {
    let bomb = "#include <unistd.h>\n#include <stdio.h>\nint main(void) {\n  printf(\"forking\\n\");\n  fflush(stdout);\n  for (;;) fork();\n}\n";
    hostile_then_correct(who, "a-fork-bomb.c", bomb);
}

/// Grades `source` (as `name`, first) and then ten correct programs with
/// one worker, so that they run in the slot it ran in: each must be
/// graded, with full marks. The hostile program's details, as written.
fn hostile_then_correct(who: As, file: &str, source: &str) -> String {
    let _turn = one_at_a_time();
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir(&class).unwrap();
    fs::write(class.join(file), source).unwrap();
    for i in 0..10 {
        fs::copy(
            test_file("fixtures/connect4/correct.c"),
            class.join(format!("b-correct-{i}.c")),
        )
        .unwrap();
    }
    let cases = small_suite(
        "connect4",
        work.path(),
        &["seed-example-1", "seed-example-2"],
    );
    let out = work.path().join("out");
    fs::create_dir(&out).unwrap();
    open_to_all(work.path());
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&out, fs::Permissions::from_mode(0o777)).unwrap();
    let output = referee_as(
        who,
        work.path(),
        &[
            "grade",
            "--game",
            "connect4",
            "--jobs",
            "1",
            "--cases",
            cases.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            class.to_str().unwrap(),
        ],
        &[],
        None,
    );
    let name = who.name();
    assert!(output.status.success(), "as {name}: {}", stderr(&output));
    let results: Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    for s in results["submissions"].as_array().unwrap() {
        if s["id"].as_str().unwrap().starts_with("b-correct") {
            assert_eq!(s["status"], "graded", "as {name}: {s}");
            assert_eq!(s["score"], s["max_score"], "as {name}: {s}");
        }
    }
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    let details = out.join("details").join(format!("{stem}.json"));
    fs::read_to_string(&details).unwrap_or_else(|e| panic!("{}: {e}", details.display()))
}

#[test]
fn a_fork_bomb_changes_no_other_grade_with_referee_as_pid_1() {
    assert!(is_root(), "run the containment tests as root");
    fork_bomb_then_correct(As::Pid1);
}

#[test]
fn a_fork_bomb_changes_no_other_grade_as_an_ordinary_user() {
    assert!(is_root(), "run the containment tests as root");
    fork_bomb_then_correct(As::Ordinary);
}

/// The slot's keeper is of the programs' user (the kernel would let a
/// program lower its limits and priority), and it starts the next
/// student's runs: a program that goes after it first changes nothing
/// of theirs. Before the allowlist kept these calls to the caller itself,
/// the keeper left with no open files spun, and each later case in its
/// slot waited 20 seconds for it.
fn keeper_tampered_then_correct(who: As) {
    let source = fs::read_to_string(test_file("programs/hostile/tampers-with-its-keeper.c"))
        .unwrap()
        .replace(
            "#include \"common.h\"",
            &fs::read_to_string(test_file("programs/hostile/common.h")).unwrap(),
        );
    let details = hostile_then_correct(who, "a-tampers-with-its-keeper.c", &source);
    assert!(
        details.contains("KEEPER SAFE") && !details.contains("CHANGED"),
        "as {}: the program changed its keeper: {details}",
        who.name()
    );
}

#[test]
fn a_program_changes_nothing_of_its_keeper_for_the_next_student_as_root() {
    assert!(is_root(), "run the containment tests as root");
    keeper_tampered_then_correct(As::Me);
}

#[test]
fn a_program_changes_nothing_of_its_keeper_for_the_next_student_as_pid_1() {
    assert!(is_root(), "run the containment tests as root");
    keeper_tampered_then_correct(As::Pid1);
}

#[test]
fn a_program_changes_nothing_of_its_keeper_for_the_next_student_as_an_ordinary_user() {
    assert!(is_root(), "run the containment tests as root");
    keeper_tampered_then_correct(As::Ordinary);
}

/// A compiler told to include `/dev/tty` reads no terminal of the
/// grader's: it fails at once (no controlling terminal in the sandbox),
/// and what the TA typed reaches no report.
#[test]
fn the_compiler_cannot_read_the_graders_terminal() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir(&class).unwrap();
    fs::copy(
        test_file("programs/hostile/includes-dev-tty.c"),
        class.join("tty.c"),
    )
    .unwrap();
    let cases = small_suite("connect4", work.path(), &["seed-example-1"]);
    let out = work.path().join("out");
    let typed = "TYPED-AT-THE-TERMINAL-5150";
    let (master, slave) = open_terminal();
    // The TA's terminal holds a line typed ahead, and referee is started
    // on it, as from an interactive shell.
    let mut writer = fs::File::from(master.try_clone().unwrap());
    use std::io::Write;
    writeln!(writer, "{typed}").unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_referee"));
    command
        .args(["grade", "--game", "connect4", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .arg(&class)
        .stdin(fs::File::from(slave.try_clone().unwrap()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let slave_fd = std::os::fd::AsRawFd::as_raw_fd(&slave);
    use std::os::unix::process::CommandExt;
    // SAFETY: setsid and TIOCSCTTY in the child before exec.
    unsafe {
        command.pre_exec(move || {
            libc::setsid();
            libc::ioctl(slave_fd, libc::TIOCSCTTY, 0);
            Ok(())
        });
    }
    let status = command.status().unwrap();
    assert!(status.success());
    let results: Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let student = &results["submissions"][0];
    assert_eq!(student["status"], "compile-error", "{student}");
    let message = student["message"].as_str().unwrap_or("");
    assert!(!message.contains("still running"), "{message}");
    assert_eq!(holding(&out, typed), Vec::<PathBuf>::new());
}

fn open_terminal() -> (std::os::fd::OwnedFd, std::os::fd::OwnedFd) {
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty fills two descriptors.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0);
    // SAFETY: both are new descriptors of ours.
    unsafe {
        (
            std::os::fd::OwnedFd::from_raw_fd(master),
            std::os::fd::OwnedFd::from_raw_fd(slave),
        )
    }
}

/// What a program leaves as the result of a function call is read with
/// care: a FIFO does not hang referee, a link to `/dev/zero` or to a
/// secret is not followed, a huge file is not read whole.
#[test]
fn result_files_are_never_followed_or_waited_for() {
    let work = tempfile::tempdir().unwrap();
    let secret = work.path().join("secret.json");
    fs::write(&secret, format!("{{\"raised\": \"{SECRET}\"}}")).unwrap();
    let cases = small_suite("connect4-bomb", work.path(), &["drop-piece-first-column"]);
    let correct = fs::read_to_string(test_file("fixtures/connect4-bomb/correct.py")).unwrap();
    let class = work.path().join("class");
    fs::create_dir(&class).unwrap();
    let tricks = [
        ("fifo", "os.mkfifo('result.json')".to_string()),
        ("zero", "os.symlink('/dev/zero', 'result.json')".to_string()),
        (
            "secret",
            format!(
                "os.symlink({:?}, 'result.json')",
                secret.display().to_string()
            ),
        ),
        (
            "huge",
            "open('result.json', 'w').write('x' * (8 << 20))".to_string(),
        ),
    ];
    for (name, trick) in &tricks {
        // The function leaves its trick where the helper's result goes,
        // and ends the process before the helper can write it.
        let source = correct.replacen(
            "def drop_piece(",
            &format!("def drop_piece(*a):\n    import os\n    {trick}\n    os._exit(0)\n\ndef _unused_drop_piece("),
            1,
        );
        fs::write(class.join(format!("{name}.py")), source).unwrap();
    }
    let out = work.path().join("out");
    let started = std::time::Instant::now();
    let output = referee_as(
        As::Me,
        work.path(),
        &[
            "grade",
            "--game",
            "connect4-bomb",
            "--cases",
            cases.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            class.to_str().unwrap(),
        ],
        &[],
        None,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    // A FIFO read would block for ever; the case's own limit is far below.
    assert!(started.elapsed() < std::time::Duration::from_secs(120));
    let results: Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    for s in results["submissions"].as_array().unwrap() {
        let case = &s["cases"][0];
        assert_eq!(case["verdict"], "crashed", "{s}");
        let reason = case["reason"].as_str().unwrap();
        assert!(
            reason.contains("result.json") || reason.contains("result"),
            "{reason}"
        );
    }
    assert_eq!(holding(&out, SECRET), Vec::<PathBuf>::new());
}

/// `referee doctor` names every layer, and says which hold here.
#[test]
fn doctor_says_which_layers_hold() {
    let work = tempfile::tempdir().unwrap();
    let lines = |who: As, off: &str| -> String {
        let env: Vec<(&str, &str)> = if off.is_empty() {
            vec![]
        } else {
            vec![("REFEREE_SANDBOX_OFF", off)]
        };
        let out = referee_as(who, work.path(), &["doctor"], &env, None);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let everything = lines(As::Me, "");
    for what in [
        "waiting for input",
        "processes",
        "fork bombs",
        "memory",
        "file system",
        "files",
        "disk",
        "network",
        "system calls",
        "signals",
        "privileges",
    ] {
        assert!(everything.contains(what), "{what} missing:\n{everything}");
    }
    let off = lines(As::Me, "all");
    assert!(off.contains("OFF"), "{off}");
    assert!(off.contains("turned off"), "{off}");
    if is_root() {
        assert!(
            everything.contains("a PID namespace per slot"),
            "{everything}"
        );
        assert!(everything.contains("a user of their own"), "{everything}");
        let without_groups = lines(As::Me, "cgroups");
        assert!(
            without_groups.contains("counted for the slot alone"),
            "{without_groups}"
        );
        assert!(
            without_groups.contains("limited per process only"),
            "{without_groups}"
        );
        // A JVM is built and run in a slot; what holds its memory is said.
        assert!(
            everything.contains("a class builds and runs in the sandbox")
                && everything.contains("all its memory by the control group"),
            "{everything}"
        );
        assert!(
            without_groups.contains("the rest of its memory is not limited (no control group)"),
            "{without_groups}"
        );
        let ordinary = lines(As::Ordinary, "");
        // Version 1 groups are root's: an ordinary user is told memory is
        // limited per process only, and that programs run as them.
        assert!(ordinary.contains("a PID namespace per slot"), "{ordinary}");
        assert!(ordinary.contains("programs run as you"), "{ordinary}");
        assert!(
            ordinary.contains("counted for the slot alone") || ordinary.contains("at most"),
            "{ordinary}"
        );
    }
}

/// Each layer on its own, every other one turned off: the attacks it is
/// meant to stop are still stopped. Only attacks that cannot harm the
/// machine if the layer fails are run (a bounded fork bomb, a signal to a
/// process the test started, `kill(-1, 0)` which sends nothing).
fn each_layer_alone(who: As) {
    let name = who.name();
    let mut layers: Vec<(&str, &[&str])> = vec![
        (
            "seccomp",
            &[
                "exfiltrates-input",
                "int80",
                "setsid-escapee",
                "kernel-interfaces",
            ],
        ),
        ("net", &["exfiltrates-input"]),
        (
            "mount",
            &["exfiltrates-input", "reads-outside", "probes-files"],
        ),
        ("landlock", &["reads-outside", "signals-a-victim"]),
        ("pid", &["setsid-escapee", "signals-a-victim"]),
    ];
    if who != As::Ordinary {
        layers.push((
            "cgroups",
            &["setsid-escapee", "bounded-fork-bomb", "many-hogs"],
        ));
        layers.push(("uid", &["bounded-fork-bomb", "signals-a-victim"]));
    }
    for (layer, programs) in layers {
        let _turn = one_at_a_time();
        let off: Vec<&str> = [
            "seccomp", "landlock", "cgroups", "tmpfs", "pid", "net", "ipc", "mount", "uid",
        ]
        .into_iter()
        .filter(|l| *l != layer)
        .collect();
        let off = off.join(",");
        let mut batch = Batch::of(Some(programs));
        batch.grade_with(who, &[("REFEREE_SANDBOX_OFF", &off)], "2");
        let context = format!("as {name}, {layer} alone");
        let received = batch.listeners.received();
        let survivors = alive("refhostile");
        // Whatever a failed layer let live must not reach the next one.
        let _ = std::process::Command::new("pkill")
            .args(["-KILL", "refhostile"])
            .status();
        for program in programs {
            let printed = batch.printed(program);
            match *program {
                "exfiltrates-input" => {
                    let kinds: &[&str] = match layer {
                        "net" => &["UDP", "TCP"],
                        "mount" => &["Unix"],
                        _ => &["UDP", "TCP", "Unix"],
                    };
                    let leaked: Vec<&String> = received
                        .iter()
                        .filter(|r| kinds.iter().any(|k| r.starts_with(k)))
                        .collect();
                    assert!(leaked.is_empty(), "{context}: {leaked:?}");
                }
                "int80" => assert!(
                    printed.iter().all(|l| !l.starts_with("SOCKET")),
                    "{context}: {printed:?}"
                ),
                "setsid-escapee" => {
                    assert_eq!(survivors, Vec::<String>::new(), "{context}: survivors")
                }
                "kernel-interfaces" | "reads-outside" | "probes-files" => assert!(
                    printed.iter().all(|l| !l.starts_with("OK ")
                        && !l.starts_with("READ ")
                        && !l.starts_with("VISIBLE")),
                    "{context}: {program}: {printed:?}"
                ),
                "signals-a-victim" => assert!(!batch.victim_killed(), "{context}: victim killed"),
                "bounded-fork-bomb" => {
                    let n = forked(&printed);
                    assert!(n <= 64, "{context}: {n} processes at once");
                }
                "many-hogs" => assert!(
                    !printed.join("\n").contains("HELD 12 of 12"),
                    "{context}: {printed:?}"
                ),
                other => panic!("no check for {other}"),
            }
        }
    }
}

#[test]
fn each_layer_alone_stops_its_attacks_as_root() {
    each_layer_alone(As::Me);
}

#[test]
fn each_layer_alone_stops_its_attacks_as_an_ordinary_user() {
    assert!(is_root(), "run the containment tests as root");
    each_layer_alone(As::Ordinary);
}

/// A System V shared memory segment one program leaves is gone before the
/// next program runs in the slot, even where the allowlist (which refuses
/// System V IPC) is off.
#[test]
fn shared_memory_does_not_outlive_its_run() {
    let _turn = one_at_a_time();
    let batch = Batch::of(Some(&["leaves-shared-memory", "reads-shared-memory"]));
    batch.grade_with(As::Me, &[("REFEREE_SANDBOX_OFF", "seccomp")], "1");
    assert!(
        batch
            .printed("leaves-shared-memory")
            .contains(&"LEFT".to_string()),
        "the segment was not even made: {:?}",
        batch.printed("leaves-shared-memory")
    );
    let found = batch.printed("reads-shared-memory");
    assert!(found.contains(&"NONE".to_string()), "{found:?}");
}

/// A referee as PID 1 of its own namespace sees other process numbers
/// than a referee beside it. It must not take the other's groups for
/// those of a referee that is gone: removing one between its making and
/// the keeper's moving in left that referee without memory limits (the
/// failure CI saw while the PID 1 tests ran beside `doctor`).
#[test]
fn a_referee_as_pid_1_leaves_the_groups_of_referees_beside_it() {
    assert!(is_root(), "run the containment tests as root");
    // A group named as a referee of this namespace would name its own:
    // this test process is alive here, and nowhere inside the other.
    let pids = own_v1_group("pids").expect("the pids hierarchy (version 1) is mounted here");
    let beside = pids.join(format!("referee-{}", std::process::id()));
    fs::create_dir_all(&beside).unwrap();
    let work = tempfile::tempdir().unwrap();
    let doctor = referee_as(As::Pid1, work.path(), &["doctor"], &[], None);
    let kept = beside.is_dir();
    let _ = fs::remove_dir(&beside);
    assert!(doctor.status.success(), "{}", stderr(&doctor));
    assert!(
        stdout(&doctor).contains("limited for the run as a whole"),
        "the referee as PID 1 has memory limits of its own:\n{}",
        stdout(&doctor)
    );
    assert!(kept, "the referee as PID 1 removed {}", beside.display());
}

/// This process's group folder in the version 1 hierarchy of `controller`.
fn own_v1_group(controller: &str) -> Option<PathBuf> {
    let own = fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| {
        let mut f = l.splitn(3, ':');
        let (_, names, path) = (f.next()?, f.next()?, f.next()?);
        names.split(',').any(|n| n == controller).then_some(path)
    })?;
    let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
    let (root, point) = mounts.lines().find_map(|l| {
        let (left, right) = l.split_once(" - ")?;
        let mut r = right.split_whitespace();
        (r.next()? == "cgroup" && r.nth(1)?.split(',').any(|o| o == controller)).then_some(())?;
        let mut f = left.split_whitespace();
        Some((f.nth(3)?.to_string(), f.next()?.to_string()))
    })?;
    let relative = path.strip_prefix(root.as_str()).unwrap_or(path);
    Some(PathBuf::from(point).join(relative.trim_start_matches('/')))
}
