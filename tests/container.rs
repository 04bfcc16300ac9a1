//! referee where courses run it: inside a container started with
//! Docker's default settings (its seccomp profile and capabilities, not
//! privileged, control groups read-only, root inside), as Gradescope
//! starts an autograder; as root, as an ordinary user, and with
//! `--cap-add SYS_PTRACE`. Every grade must equal the machine's.
//!
//! These need a Docker engine and the image of tests/container/image.sh,
//! which `.ci/run` installs and makes; run them with
//! `cargo test --test container -- --ignored` (as root). Without an
//! engine they fail, never pass.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::attack::{container_image, docker_run};
use common::{comparable_results, root};

/// Words of a built-in hidden case, which no program may find.
const HIDDEN_CASE: &str = "with a gap (columns 0, 1, 3 and 4)";

/// How a container is started, besides Docker's defaults.
#[derive(Clone, Copy, Debug)]
enum Setting {
    /// Docker's defaults, root inside (Gradescope's).
    Root,
    /// Docker's defaults, an ordinary user inside.
    User,
    /// Root with `--cap-add SYS_PTRACE`.
    Ptrace,
}

/// Runs `script` with `sh` in a fresh container: referee at
/// /usr/local/bin (read-only), the repository at /repo (read-only),
/// `out` at /out.
fn in_container(setting: Setting, out: &Path, script: &str, env: &[(&str, &str)]) -> Output {
    in_container_with(setting, out, script, env, true)
}

/// [`in_container`], with referee installed by the script itself when
/// not `installed`.
fn in_container_with(
    setting: Setting,
    out: &Path,
    script: &str,
    env: &[(&str, &str)],
    installed: bool,
) -> Output {
    let mut command = docker_run(env, installed);
    match setting {
        Setting::Root => {}
        Setting::User => {
            command.args(["--user", "65534:65534", "-e", "HOME=/tmp"]);
        }
        Setting::Ptrace => {
            command.args(["--cap-add", "SYS_PTRACE"]);
        }
    }
    command
        .arg("-v")
        .arg(format!("{}:/repo:ro", root().display()))
        .arg("-v")
        .arg(format!("{}:/out", out.display()))
        .args([container_image(), "sh", "-c", script]);
    command.output().expect("docker runs")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A folder the container's user may write.
fn shared_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    dir
}

/// The classes graded, in the folder [`copy_classes`] makes: a built-in
/// game, a lab of one's own (C, C++ and Python students, its own
/// reference), and the same lab's Java students (the image has a JDK).
const CLASSES: [(&str, &str); 3] = [
    ("--game connect4", "examples/class"),
    (
        "--cases /repo/examples/temperature",
        "examples/temperature-class",
    ),
    ("--cases /repo/examples/temperature", "java-class"),
];

/// Copies the examples and the Java students into `into`: the repository
/// may sit in a folder only its owner may enter (a clone made in `mktemp
/// -d`), so the container's user reads a copy. The Java student whose
/// program never reads (it would cost the time limit of every case in
/// every setting) is left out.
fn copy_classes(into: &Path) {
    let copied = Command::new("cp")
        .arg("-r")
        .arg(root().join("examples"))
        .arg(into)
        .status()
        .expect("cp runs");
    assert!(copied.success());
    let java = into.join("java-class");
    fs::create_dir_all(&java).unwrap();
    for entry in fs::read_dir(root().join("tests/fixtures/java/class")).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n != "frank.java") {
            let copied = Command::new("cp").arg("-r").arg(&path).arg(&java).status();
            assert!(copied.expect("cp runs").success());
        }
    }
}

/// Grades each class on the machine; the results folders.
fn graded_on_the_machine(work: &Path) -> Vec<PathBuf> {
    let tree = work.join("tree");
    fs::create_dir_all(&tree).unwrap();
    copy_classes(&tree);
    CLASSES
        .iter()
        .enumerate()
        .map(|(i, (suite, class))| {
            let out = work.join(format!("machine{i}"));
            let suite = suite.replace("/repo", tree.to_str().unwrap());
            let mut args: Vec<String> = vec!["grade".into()];
            args.extend(suite.split(' ').map(String::from));
            args.extend(["--jobs", "2", "--out"].map(String::from));
            args.push(out.display().to_string());
            args.push(tree.join(class).display().to_string());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let output = common::referee_in(work, &args);
            assert!(output.status.success(), "{}", text(&output));
            out
        })
        .collect()
}

#[test]
#[ignore = "needs a Docker engine: .ci/run starts one"]
fn a_class_grades_in_a_default_container_exactly_as_on_the_machine() {
    let work = shared_folder();
    let machine = graded_on_the_machine(work.path());
    for setting in [Setting::Root, Setting::User, Setting::Ptrace] {
        let out = shared_folder();
        copy_classes(out.path());
        let mut script = String::from("set -e; cd /tmp; referee doctor; ");
        for (i, (suite, class)) in CLASSES.iter().enumerate() {
            script.push_str(&format!(
                "referee grade {} --jobs 2 --out /out/box{i} /out/{class}; ",
                suite.replace("/repo/", "/out/")
            ));
        }
        let started = std::time::Instant::now();
        let output = in_container(setting, out.path(), &script, &[]);
        let said = text(&output);
        eprintln!(
            "{setting:?}: graded in the container in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        assert!(output.status.success(), "{setting:?}: {said}");
        assert!(said.contains("Grading works"), "{setting:?}: {said}");
        // The image's JDK builds and runs a class in the sandbox there.
        assert!(
            said.contains("a class builds and runs in the sandbox (the JDK at"),
            "{setting:?}: {said}"
        );
        // Checked builds run there too, holding their own memory where
        // the container's groups are read-only (tests/held.rs attacks it).
        assert!(
            said.contains("finds a write past the end of an array in `main` (probe.c, line 9)")
                && said.contains("held by the build itself"),
            "{setting:?}: {said}"
        );
        for (i, on_machine) in machine.iter().enumerate() {
            let boxed = out.path().join(format!("box{i}"));
            assert_eq!(
                comparable_results(&on_machine.join("results.json")),
                comparable_results(&boxed.join("results.json")),
                "{setting:?}: {} grades differently in the container",
                CLASSES[i].1
            );
            for entry in fs::read_dir(on_machine.join("feedback")).unwrap().flatten() {
                let theirs = boxed.join("feedback").join(entry.file_name());
                assert_eq!(
                    fs::read(entry.path()).unwrap(),
                    fs::read(&theirs).unwrap(),
                    "{setting:?}: {}",
                    entry.path().display()
                );
            }
        }
    }
}

#[test]
#[ignore = "needs a Docker engine: .ci/run starts one"]
fn in_a_default_container_that_cannot_watch_programs_referee_refuses_to_grade() {
    let out = shared_folder();
    let script = "cd /tmp; referee check --game connect4 /repo/examples/class/alice.c; \
                  echo \"check exited $?\"; referee doctor; echo \"doctor exited $?\"";
    let output = in_container(
        Setting::Root,
        out.path(),
        script,
        &[("REFEREE_DETECT", "proc")],
    );
    let said = text(&output);
    assert!(said.contains("check exited 2"), "{said}");
    assert!(
        said.contains("referee cannot grade on this machine"),
        "{said}"
    );
    assert!(said.contains("--cap-add SYS_PTRACE"), "{said}");
    assert!(!said.contains("Score:"), "{said}");
    assert!(said.contains("doctor exited 1"), "{said}");
    assert!(!said.contains("Grading works"), "{said}");
}

/// The autograder zip of gradescope/README.md with referee's build added
/// (tests/dist.rs makes the one with the Debian package).
fn autograder_zip(work: &Path) -> PathBuf {
    let place = |clone: &Path| {
        fs::create_dir_all(clone.join("target/release")).unwrap();
        fs::copy(
            env!("CARGO_BIN_EXE_referee"),
            clone.join("target/release/referee"),
        )
        .unwrap();
    };
    common::autograder_zip(work, &place, ".deb")
}

#[test]
#[ignore = "needs a Docker engine: .ci/run starts one"]
fn the_gradescope_autograder_builds_and_grades_in_a_default_container_as_on_the_machine() {
    let work = shared_folder();
    let zip = autograder_zip(work.path());
    fs::copy(&zip, work.path().join("autograder.zip")).unwrap();
    let submissions = [
        ("correct", "tests/fixtures/pentago/correct.c"),
        ("buggy", "examples/prog3.c"),
        ("not-compiling", "tests/programs/does-not-compile.c"),
        ("hostile", "tests/programs/hostile/reads-the-grader.c"),
    ];
    let mut script = String::from(
        "set -e; mkdir -p /autograder/source /autograder/results; \
         cd /autograder/source; unzip -q /out/autograder.zip; \
         cp setup.sh run_autograder /autograder/; bash /autograder/setup.sh > /out/setup.log 2>&1; \
         echo setup-ok; ",
    );
    // An image that cannot grade fails its build: here, forced to watch
    // /proc, which root in the container may not read.
    script.push_str(
        "if REFEREE_DETECT=proc bash /autograder/setup.sh > /out/setup-broken.log 2>&1; \
         then echo 'broken setup exited 0'; else echo \"broken setup exited $?\"; fi; ",
    );
    for (name, path) in submissions {
        script.push_str(&format!(
            "rm -rf /autograder/submission; mkdir -p /autograder/submission; \
             cp /repo/{path} /autograder/submission/; bash /autograder/run_autograder; \
             cp /autograder/results/results.json /out/{name}.json; "
        ));
    }
    let output = in_container_with(Setting::Root, work.path(), &script, &[], false);
    let said = text(&output);
    let setup = fs::read_to_string(work.path().join("setup.log")).unwrap_or_default();
    assert!(output.status.success(), "{said}\nsetup.sh said:\n{setup}");
    assert!(said.contains("setup-ok"), "{said}");
    assert!(setup.contains("Grading works"), "{setup}");
    assert!(
        said.contains("broken setup exited 1"),
        "an image that cannot grade must fail its build: {said}"
    );
    let broken = fs::read_to_string(work.path().join("setup-broken.log")).unwrap_or_default();
    assert!(broken.contains("Grading does NOT work here"), "{broken}");
    for (name, path) in submissions {
        let results = work.path().join(format!("machine-{name}.json"));
        let on_machine = common::referee_in(
            work.path(),
            &[
                "gradescope",
                "--game",
                "pentago",
                "--submission",
                root().join(path).to_str().unwrap(),
                "--results",
                results.to_str().unwrap(),
            ],
        );
        assert!(on_machine.status.success(), "{}", text(&on_machine));
        let boxed = work.path().join(format!("{name}.json"));
        assert_eq!(
            comparable_results(&results),
            comparable_results(&boxed),
            "{name}"
        );
        let written = fs::read_to_string(&boxed).unwrap();
        assert!(!written.contains(HIDDEN_CASE), "{name}: {written}");
    }
    let hostile = fs::read_to_string(work.path().join("hostile.json")).unwrap();
    assert!(
        hostile.contains("REFUSED /usr/local/bin/referee"),
        "the probe was graded and refused: {hostile}"
    );
}

#[test]
#[ignore = "needs a Docker engine: .ci/run starts one"]
fn in_a_default_container_a_program_sends_nothing_out_over_udp_or_tcp() {
    let out = shared_folder();
    let correct = fs::read_to_string(root().join("tests/fixtures/connect4/correct.c")).unwrap();
    let program = fs::read_to_string(root().join("tests/programs/hostile/exfiltrates-input.c"))
        .unwrap()
        .replace("@UDP_PORT@", "40001")
        .replace("@TCP_PORT@", "40002")
        .replace("@UNIX_SOCKET@", "/tmp/referee-leak.sock")
        .replace("@CORRECT_CONNECT4@", &correct);
    fs::write(out.path().join("exfiltrates-input.c"), program).unwrap();
    // Listeners on the container's own loopback (no namespace of the
    // slot's own is allowed there: seccomp alone must stop the program),
    // writing whatever reaches them to /out/heard.
    let listen = "import socket,threading,time\n\
        u=socket.socket(socket.AF_INET,socket.SOCK_DGRAM);u.bind(('127.0.0.1',40001))\n\
        t=socket.socket();t.bind(('127.0.0.1',40002));t.listen()\n\
        x=socket.socket(socket.AF_UNIX);x.bind('/tmp/referee-leak.sock');x.listen()\n\
        import os;os.chmod('/tmp/referee-leak.sock',0o777)\n\
        heard=open('/out/heard','ab',buffering=0)\n\
        def udp():\n  while True: heard.write(u.recv(4096))\n\
        def accept(s):\n  while True:\n    c,_=s.accept();heard.write(b'connected\\n')\n\
        for f,a in ((udp,()),(accept,(t,)),(accept,(x,))): threading.Thread(target=f,args=a,daemon=True).start()\n\
        open('/out/listening','w').close();time.sleep(120)\n";
    fs::write(out.path().join("listen.py"), listen).unwrap();
    let script = "python3 /out/listen.py & \
                  for i in $(seq 100); do [ -e /out/listening ] && break; sleep 0.1; done; \
                  cd /tmp; referee check --game connect4 --all /out/exfiltrates-input.c; \
                  echo \"check exited $?\"";
    for setting in [Setting::Root, Setting::User] {
        let _ = fs::remove_file(out.path().join("listening"));
        let _ = fs::remove_file(out.path().join("heard"));
        let output = in_container(setting, out.path(), script, &[]);
        let said = text(&output);
        assert!(
            out.path().join("listening").exists(),
            "{setting:?}: the listeners did not start: {said}"
        );
        assert!(said.contains("check exited 0"), "{setting:?}: {said}");
        assert!(said.contains("Every case passes"), "{setting:?}: {said}");
        let heard = fs::read(out.path().join("heard")).unwrap_or_default();
        assert!(
            heard.is_empty(),
            "{setting:?}: the listeners heard {:?}",
            String::from_utf8_lossy(&heard)
        );
    }
}
