//! The machine referee grades on (src/run/proof.rs, src/sandbox/landlock.rs):
//! a machine that cannot run programs as a person would grades the same
//! by another way, or not at all; and the grader's own files stay the
//! grader's wherever referee is installed.
//!
//! "Cannot look at another user's process" is made real here as Docker's
//! default settings make it: root without `CAP_SYS_PTRACE` (dropped from
//! the bounding set with `setpriv`). There each slot's keeper opens its
//! programs' memory for referee; `REFEREE_DETECT=typing` forces the way
//! left where even the keeper may not (each line typed on the terminal).
//! The same in a real container is in tests/container.rs.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::attack::{As, ORDINARY};
use common::{comparable_results, root};

/// Words of a built-in hidden case (cases/connect4), which no program
/// may find anywhere it can read.
const HIDDEN_CASE: &str = "with a gap (columns 0, 1, 3 and 4)";

/// referee, as root without `CAP_SYS_PTRACE`: it may not look into a
/// program that runs as a user of its slot.
fn without_ptrace(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new("setpriv");
    command
        .args(["--bounding-set=-sys_ptrace", "--inh-caps=-sys_ptrace"])
        .arg(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("setpriv (util-linux) runs referee")
}

/// Variables set for one way of running referee.
type Env<'a> = &'a [(&'a str, &'a str)];

fn plain(dir: &Path, args: &[&str]) -> Output {
    common::referee_in(dir, args)
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn where_referee_may_not_look_into_programs_a_class_grades_exactly_as_where_it_may() {
    let work = tempfile::tempdir().unwrap();
    // A built-in game in C, and a lab of one's own with C, C++ and Python
    // students.
    let classes = [
        ("--game", "connect4".to_string(), "examples/class"),
        (
            "--cases",
            root().join("examples/temperature").display().to_string(),
            "examples/temperature-class",
        ),
    ];
    for (i, (flag, suite, class)) in classes.iter().enumerate() {
        let class = root().join(class);
        let seen = work.path().join(format!("seen{i}"));
        let kept = work.path().join(format!("kept{i}"));
        let typed = work.path().join(format!("typed{i}"));
        let ways: [(&Path, bool, Env); 3] = [
            (&seen, false, &[]),
            (&kept, true, &[]),
            (&typed, true, &[("REFEREE_DETECT", "typing")]),
        ];
        for (out, blind, env) in ways {
            let args = [
                "grade",
                flag,
                suite,
                "--jobs",
                "2",
                "--out",
                out.to_str().unwrap(),
                class.to_str().unwrap(),
            ];
            let output = if blind {
                without_ptrace(work.path(), &args, env)
            } else {
                plain(work.path(), &args)
            };
            assert!(output.status.success(), "{}", text(&output));
        }
        for other in [&kept, &typed] {
            assert_eq!(
                comparable_results(&seen.join("results.json")),
                comparable_results(&other.join("results.json")),
                "{} in {}",
                class.display(),
                other.display()
            );
            // Every student's feedback, word for word.
            for entry in fs::read_dir(seen.join("feedback")).unwrap().flatten() {
                let theirs = other.join("feedback").join(entry.file_name());
                assert_eq!(
                    fs::read(entry.path()).unwrap(),
                    fs::read(&theirs).unwrap(),
                    "{}",
                    theirs.display()
                );
            }
        }
    }
    // The keeper opens the programs' memory: the runner answers.
    let doctor = without_ptrace(work.path(), &["doctor"], &[]);
    let said = text(&doctor);
    assert!(doctor.status.success(), "{said}");
    assert!(
        said.contains("each read of stdin held and answered by the runner"),
        "{said}"
    );
    assert!(
        said.contains("each slot's keeper opens its programs' memory for it"),
        "{said}"
    );
    assert!(said.contains("Grading works"), "{said}");
    let typing = without_ptrace(work.path(), &["doctor"], &[("REFEREE_DETECT", "typing")]);
    let said = text(&typing);
    assert!(typing.status.success(), "{said}");
    assert!(
        said.contains("its line typed on the program's terminal"),
        "{said}"
    );
}

/// Checks `program` on one public case typing `input`, against a
/// reference that prints, as constants, what the program prints on the
/// machine: it must pass there and without `CAP_SYS_PTRACE` alike.
fn passes_on_the_machine_and_without_ptrace(reference: &str, program: &str, input: &str) {
    let work = tempfile::tempdir().unwrap();
    let suite = work.path().join("suite");
    fs::create_dir(&suite).unwrap();
    fs::write(
        suite.join("suite.yaml"),
        "reference: reference.c\nname: lab\n",
    )
    .unwrap();
    fs::write(suite.join("reference.c"), reference).unwrap();
    let case = format!(
        "visibility: public\ninput: |\n  {}\n",
        input.replace('\n', "\n  ")
    );
    fs::write(suite.join("one.yaml"), case).unwrap();
    let program = root().join("tests/programs").join(program);
    let args = [
        "check",
        "--cases",
        suite.to_str().unwrap(),
        program.to_str().unwrap(),
    ];
    for (output, way) in [
        (plain(work.path(), &args), "on the machine"),
        (
            without_ptrace(work.path(), &args, &[]),
            "without CAP_SYS_PTRACE",
        ),
    ] {
        let said = text(&output);
        assert!(output.status.success(), "{way}: {said}");
        assert!(said.contains("Every case passes"), "{way}: {said}");
    }
}

/// A program that points its stdout at a file asks whether that is a
/// terminal: where referee cannot compare the program's descriptors with
/// its own, it must still not answer for the terminal (the slot's
/// listener told it the descriptor changed, and the keeper says which
/// file it is now).
#[test]
fn where_referee_may_not_look_a_program_that_redirects_its_stdout_is_told_the_truth() {
    let reference = "#include <stdio.h>\nint main(void)\n{\n    char line[64];\n    \
         printf(\"stdout is a terminal: 1\\n\");\n    \
         printf(\"redirected to a file: 0\\n\");\n    printf(\"name? \");\n    \
         if (!fgets(line, sizeof line, stdin))\n        return 1;\n    \
         printf(\"hello %s\", line);\n    return 0;\n}\n";
    passes_on_the_machine_and_without_ptrace(reference, "redirects-its-stdout.c", "Ada");
}

/// A program whose child reads a line, and which then makes a file its
/// stdin and reads it: where referee may not look, the keeper says that
/// descriptor 0 is the file, and the reads read it (typed, the run
/// waited for input the case does not have).
#[test]
fn where_referee_may_not_look_a_program_that_reads_another_stdin_reads_it() {
    let reference = "#include <stdio.h>\n#include <unistd.h>\n\
         static void line(const char *what)\n{\n    char b[64] = {0};\n    \
         ssize_t n = read(0, b, sizeof b - 1);\n    \
         printf(\"%s: %s\", what, n > 0 ? b : \"(nothing)\\n\");\n    fflush(stdout);\n}\n\
         int main(void)\n{\n    line(\"first\");\n    line(\"child\");\n    \
         printf(\"second: from the file\\nthird: from the file\\n\");\n    return 0;\n}\n";
    passes_on_the_machine_and_without_ptrace(reference, "reads-another-stdin.c", "one\ntwo");
}

#[test]
fn where_no_way_of_telling_a_wait_proves_right_referee_refuses_to_grade_and_says_why() {
    let work = tempfile::tempdir().unwrap();
    let program = root().join("examples/class/alice.c");
    let program = program.to_str().unwrap();
    // Watching /proc is all it may do, and it may not look there either.
    let only_proc = [("REFEREE_DETECT", "proc")];
    let check = without_ptrace(
        work.path(),
        &["check", "--game", "connect4", program],
        &only_proc,
    );
    let said = text(&check);
    assert_eq!(check.status.code(), Some(2), "{said}");
    assert!(
        said.contains("referee cannot grade on this machine"),
        "{said}"
    );
    assert!(said.contains("/proc/PID/syscall"), "{said}");
    assert!(said.contains("--cap-add SYS_PTRACE"), "{said}");
    assert!(!said.contains("Score:"), "no score is given: {said}");

    let out = work.path().join("out");
    let grade = without_ptrace(
        work.path(),
        &[
            "grade",
            "--game",
            "connect4",
            "--out",
            out.to_str().unwrap(),
            root().join("examples/class").to_str().unwrap(),
        ],
        &only_proc,
    );
    assert_eq!(grade.status.code(), Some(2), "{}", text(&grade));
    assert!(!out.join("results.json").exists(), "no student got a grade");

    let results = work.path().join("results.json");
    let gradescope = without_ptrace(
        work.path(),
        &[
            "gradescope",
            "--game",
            "connect4",
            "--submission",
            program,
            "--results",
            results.to_str().unwrap(),
        ],
        &only_proc,
    );
    assert_eq!(gradescope.status.code(), Some(2), "{}", text(&gradescope));
    let written = fs::read_to_string(&results).expect("Gradescope's results are written");
    assert!(written.contains("Please tell your instructor"), "{written}");
    assert!(written.contains("\"score\": 0"), "{written}");

    let doctor = without_ptrace(work.path(), &["doctor"], &only_proc);
    let said = text(&doctor);
    assert_eq!(doctor.status.code(), Some(1), "{said}");
    assert!(!said.contains("Grading works"), "{said}");
    assert!(said.contains("Grading does NOT work here"), "{said}");
}

/// Runs `referee check` on the leak probe with referee installed at
/// /usr/local/bin (a tmpfs there, in a mount namespace of its own), as
/// `who`; everything it printed and wrote.
fn probe_installed(who: As) -> String {
    let work = tempfile::tempdir().unwrap();
    fs::set_permissions(
        work.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let probe = work.path().join("reads-the-grader.c");
    fs::copy(
        root().join("tests/programs/hostile/reads-the-grader.c"),
        &probe,
    )
    .unwrap();
    let switch = match who {
        As::Ordinary => format!("setpriv --reuid={ORDINARY} --regid={ORDINARY} --clear-groups "),
        As::Pid1 => "unshare --pid --fork --mount-proc --kill-child ".into(),
        As::Me => String::new(),
        As::Container => unreachable!("tests/container.rs installs referee in a container"),
    };
    let script = format!(
        "mount -t tmpfs -o mode=0755 none /usr/local/bin && \
         cp '{referee}' /usr/local/bin/referee && \
         exec {switch}/usr/local/bin/referee check --game connect4 '{probe}'",
        referee = env!("CARGO_BIN_EXE_referee"),
        probe = probe.display(),
    );
    let output = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", &script])
        .current_dir(work.path())
        .env("HOME", work.path())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .expect("unshare (util-linux) runs");
    let mut everything = text(&output);
    for file in walk(work.path()) {
        everything.push_str(&String::from_utf8_lossy(
            &fs::read(file).unwrap_or_default(),
        ));
    }
    assert!(
        everything.contains("seed-example-1"),
        "the probe was graded: {everything}"
    );
    everything
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if path.is_file() {
            files.push(path);
        }
    }
    files
}

#[test]
fn a_program_cannot_read_referee_installed_under_usr_nor_the_hidden_cases_it_holds() {
    for who in [As::Me, As::Ordinary, As::Pid1] {
        let everything = probe_installed(who);
        assert!(
            !everything.contains(HIDDEN_CASE),
            "{}: a hidden case leaked: {everything}",
            who.name()
        );
        assert!(
            everything.contains("REFUSED /usr/local/bin/referee"),
            "{}: the probe was not refused: {everything}",
            who.name()
        );
    }
}
