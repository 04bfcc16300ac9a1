//! The release's artifacts where people install them (issue 45): the
//! Debian package on a bare Debian 12, the portable archive on a bare
//! Debian 11 (glibc 2.31), the autograder image of packaging/Containerfile,
//! and Gradescope's zip holding the package. Each grades the example
//! class exactly as referee grades it on this machine.
//!
//! They need what `packaging/dist.sh` made in target/dist/, a Docker
//! engine and the bare images of tests/container/bare.sh (made here on
//! first use); `.ci/run` runs them after dist.sh with
//! `cargo test --test dist -- --ignored`. Without any of those they fail,
//! never pass.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

use common::attack::docker_run;
use common::{comparable_results, referee_in, root};

/// The class every artifact grades.
const CLASS: &str = "examples/class";

/// The file of target/dist/ whose name ends with `suffix`.
fn artifact(suffix: &str) -> PathBuf {
    let dist = root().join("target/dist");
    fs::read_dir(&dist)
        .unwrap_or_else(|e| panic!("{}: {e}: run packaging/dist.sh first", dist.display()))
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(suffix))
        .unwrap_or_else(|| {
            panic!(
                "no *{suffix} in {}: run packaging/dist.sh first",
                dist.display()
            )
        })
}

/// The bare image of a Debian release, made once.
fn bare(release: &str) -> String {
    let made = Command::new("bash")
        .arg(root().join("tests/container/bare.sh"))
        .arg(release)
        .status()
        .expect("bash runs tests/container/bare.sh");
    assert!(made.success(), "the {release} image could not be made");
    format!("referee-bare:{release}")
}

/// A folder every user may write, holding a copy of the examples (the
/// repository may be in a folder only its owner may enter).
fn shared_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let copied = Command::new("cp")
        .arg("-r")
        .arg(root().join("examples"))
        .arg(dir.path())
        .status()
        .expect("cp runs");
    assert!(copied.success());
    dir
}

/// The class graded here by the binary under test: the results to match.
fn graded_here(work: &Path) -> PathBuf {
    let out = work.join("machine");
    let class = root().join(CLASS);
    let done = referee_in(
        work,
        &[
            "grade",
            "--game",
            "connect4",
            "--out",
            out.to_str().unwrap(),
            class.to_str().unwrap(),
        ],
    );
    assert!(done.status.success(), "{}", text(&done));
    out.join("results.json")
}

/// Runs `script` with `sh -e` in a fresh container of `image` (Docker's
/// default settings), target/dist at /dist and `work` at /work; how long
/// it took is printed, for the docs.
fn in_image(image: &str, work: &Path, script: &str, what: &str) -> Output {
    let mut command = docker_run(&[], false);
    command
        .arg("-v")
        .arg(format!("{}:/dist:ro", root().join("target/dist").display()))
        .arg("-v")
        .arg(format!("{}:/work", work.display()))
        .args([image, "sh", "-ec", script]);
    let started = Instant::now();
    let output = command.output().expect("docker runs");
    eprintln!("{what}: {:.1} s", started.elapsed().as_secs_f64());
    output
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// `results` graded the same as the machine's.
fn same_grades(machine: &Path, results: &Path, what: &str) {
    assert_eq!(
        comparable_results(machine),
        comparable_results(results),
        "{what} grades the class differently from the machine"
    );
}

#[test]
#[ignore = "needs packaging/dist.sh's artifacts and a Docker engine: .ci/run makes both"]
fn the_package_installs_grades_and_removes_cleanly_on_a_bare_debian_12() {
    let deb = artifact("_amd64.deb");
    let work = shared_folder();
    let machine = graded_here(work.path());
    let script = format!(
        "apt-get install -y /dist/{deb}\n\
         referee --version\n\
         cd /tmp && referee doctor\n\
         man -w referee-grade\n\
         referee grade --game connect4 --out /work/deb /work/{CLASS}\n\
         apt-get remove -y referee\n\
         ! command -v referee\n\
         test ! -e /usr/share/man/man1/referee-grade.1.gz\n\
         test ! -e /usr/share/bash-completion/completions/referee\n\
         echo removed cleanly\n",
        deb = deb.file_name().unwrap().to_string_lossy()
    );
    let output = in_image(
        &bare("bookworm"),
        work.path(),
        &script,
        "the .deb on Debian 12",
    );
    let said = text(&output);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("Grading works"), "{said}");
    assert!(
        said.contains("/usr/share/man/man1/referee-grade.1.gz"),
        "{said}"
    );
    assert!(said.contains("removed cleanly"), "{said}");
    let version = format!("referee {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(said.contains(&version), "no `{version}` in {said}");
    same_grades(&machine, &work.path().join("deb/results.json"), "the .deb");
}

#[test]
#[ignore = "needs packaging/dist.sh's artifacts and a Docker engine: .ci/run makes both"]
fn the_package_is_refused_by_apt_where_gcc_cannot_be_had() {
    let deb = artifact("_amd64.deb");
    let work = shared_folder();
    // Without gcc, and with no package list to fetch it from, apt must
    // refuse, saying what is missing.
    let script = format!(
        "dpkg --purge g++ gcc >/dev/null\n\
         rm -rf /var/lib/apt/lists/*\n\
         if apt-get install -y /dist/{} 2>&1; then echo INSTALLED; fi\n",
        deb.file_name().unwrap().to_string_lossy()
    );
    let output = in_image(
        &bare("bookworm"),
        work.path(),
        &script,
        "the .deb without gcc",
    );
    let said = text(&output);
    assert!(output.status.success(), "{said}");
    assert!(!said.contains("INSTALLED"), "{said}");
    assert!(said.contains("Depends: gcc"), "{said}");
}

#[test]
#[ignore = "needs packaging/dist.sh's artifacts and a Docker engine: .ci/run makes both"]
fn the_archive_runs_and_grades_on_a_bare_debian_11() {
    let archive = artifact("-x86_64-linux.tar.gz");
    let name = archive.file_name().unwrap().to_string_lossy().into_owned();
    let folder = name.trim_end_matches(".tar.gz").to_string();
    let work = shared_folder();
    let machine = graded_here(work.path());
    let script = format!(
        "cd /tmp\n\
         cp /dist/{name} /dist/{name}.sha256 .\n\
         sha256sum -c {name}.sha256\n\
         tar xzf {name}\n\
         ldd --version | head -n 1\n\
         export PATH=/tmp/{folder}:$PATH\n\
         referee --version\n\
         referee doctor\n\
         man -w -l {folder}/man/referee-grade.1\n\
         test -s {folder}/complete/referee.bash -a -s {folder}/complete/_referee -a -s {folder}/complete/referee.fish\n\
         test -s {folder}/LICENSE-MIT -a -s {folder}/LICENSE-APACHE -a -s {folder}/README.md\n\
         referee grade --game connect4 --out /work/archive /work/{CLASS}\n"
    );
    let output = in_image(
        &bare("bullseye"),
        work.path(),
        &script,
        "the archive on Debian 11",
    );
    let said = text(&output);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("2.31"), "not glibc 2.31: {said}");
    assert!(said.contains(": OK"), "{said}");
    assert!(said.contains("Grading works"), "{said}");
    same_grades(
        &machine,
        &work.path().join("archive/results.json"),
        "the archive",
    );
}

#[test]
#[ignore = "needs packaging/dist.sh's artifacts and a Docker engine: .ci/run makes both"]
fn the_autograder_image_builds_from_the_package_and_grades() {
    let deb = artifact("_amd64.deb");
    let work = shared_folder();
    let machine = graded_here(work.path());
    // The image's build context: the Containerfile's own folder holds
    // only what it copies.
    let context = tempfile::tempdir().unwrap();
    fs::copy(&deb, context.path().join(deb.file_name().unwrap())).unwrap();
    let base = bare("bookworm");
    let started = Instant::now();
    let built = Command::new("docker")
        .args([
            "build",
            "-q",
            "-t",
            "referee-autograder:test",
            "--build-arg",
        ])
        .arg(format!("BASE={base}"))
        .arg("-f")
        .arg(root().join("packaging/Containerfile"))
        .arg(context.path())
        .env("DOCKER_BUILDKIT", "0")
        .stdin(Stdio::null())
        .output()
        .expect("docker runs");
    eprintln!(
        "the autograder image built in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(built.status.success(), "{}", text(&built));
    let output = in_image(
        "referee-autograder:test",
        work.path(),
        &format!("cd /tmp && referee grade --game connect4 --out /work/image /work/{CLASS}"),
        "the autograder image grades the class",
    );
    assert!(output.status.success(), "{}", text(&output));
    same_grades(
        &machine,
        &work.path().join("image/results.json"),
        "the image",
    );
}

/// The zip of gradescope/README.md with the package in place of a build.
fn autograder_zip_with_the_package(work: &Path) -> PathBuf {
    let place = |clone: &Path| {
        let deb = artifact("_amd64.deb");
        fs::create_dir_all(clone.join("target/dist")).unwrap();
        fs::copy(
            &deb,
            clone.join("target/dist").join(deb.file_name().unwrap()),
        )
        .unwrap();
    };
    common::autograder_zip(work, &place, "target/release")
}

#[test]
#[ignore = "needs packaging/dist.sh's artifacts and a Docker engine: .ci/run makes both"]
fn the_gradescope_zip_with_the_package_sets_up_without_rust_and_grades_as_here() {
    let work = shared_folder();
    let zip = autograder_zip_with_the_package(work.path());
    fs::copy(&zip, work.path().join("autograder.zip")).unwrap();
    // run_autograder's game is Pentago; examples/prog3.c is a buggy one.
    let submission = root().join("examples/prog3.c");
    let here = work.path().join("here.json");
    let graded = referee_in(
        work.path(),
        &[
            "gradescope",
            "--game",
            "pentago",
            "--results",
            here.to_str().unwrap(),
            "--submission",
            submission.to_str().unwrap(),
        ],
    );
    assert!(graded.status.success(), "{}", text(&graded));
    let script = "mkdir -p /autograder/source /autograder/submission /autograder/results\n\
         cd /autograder/source && python3 -m zipfile -e /work/autograder.zip .\n\
         cp setup.sh run_autograder /autograder/\n\
         ! command -v cargo\n\
         bash /autograder/setup.sh >/work/setup.log 2>&1\n\
         cp /work/examples/prog3.c /autograder/submission/\n\
         bash /autograder/run_autograder\n\
         cp /autograder/results/results.json /work/there.json\n";
    let output = in_image(
        &bare("bookworm"),
        work.path(),
        script,
        "Gradescope's setup and one grade",
    );
    let setup = fs::read_to_string(work.path().join("setup.log")).unwrap_or_default();
    assert!(output.status.success(), "{}\n{setup}", text(&output));
    assert!(
        setup.contains("referee_"),
        "setup.sh did not install the package: {setup}"
    );
    same_grades(&here, &work.path().join("there.json"), "Gradescope's zip");
}

/// `packaging/dist.sh` on a machine without a tool it needs says which
/// and how to install it, and makes nothing.
#[test]
fn dist_says_which_tool_is_missing_and_how_to_install_it() {
    let run = |path: &str| {
        Command::new("bash")
            .arg(root().join("packaging/dist.sh"))
            .env("PATH", path)
            .stdin(Stdio::null())
            .output()
            .expect("bash runs")
    };
    let bare = run("/usr/bin:/bin");
    assert_eq!(bare.status.code(), Some(1), "{}", text(&bare));
    assert!(
        text(&bare).contains("cargo is missing: install Rust with rustup"),
        "{}",
        text(&bare)
    );
    // Rust's own folder, and the system's: no cargo-zigbuild.
    let cargo = Command::new("sh")
        .args(["-c", "command -v cargo"])
        .output()
        .expect("sh runs");
    let cargo = String::from_utf8_lossy(&cargo.stdout).trim().to_string();
    let folder = Path::new(&cargo).parent().unwrap().display().to_string();
    let without_zig = run(&format!("{folder}:/usr/bin:/bin"));
    assert_eq!(without_zig.status.code(), Some(1), "{}", text(&without_zig));
    assert!(
        text(&without_zig)
            .contains("cargo-zigbuild is missing: pip install ziglang cargo-zigbuild"),
        "{}",
        text(&without_zig)
    );
}
