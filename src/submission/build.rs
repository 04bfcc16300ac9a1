//! Building a submission: C is compiled once, Python is checked for
//! syntax errors (nothing of it runs), executables are staged as they
//! are. Each submission gets a private folder of its own
//! for what it runs from.

use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use tempfile::TempDir;
use wait_timeout::ChildExt;

use super::{python, Language, Submission};
use crate::call;
use crate::run::{Limits, Program};
use crate::sandbox;

/// C compiler flags when neither the suite nor the command line sets
/// them: the compiler's own defaults, as on a student's laptop, with
/// warnings shown.
pub const DEFAULT_CFLAGS: &[&str] = &["-Wall"];

/// Libraries linked after the source: the maths library, which the
/// handouts allow.
const LIBS: &[&str] = &["-lm"];

const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);

/// What the compiler may use: far more than any handout's program needs.
const COMPILE_LIMITS: Limits = Limits {
    wall: COMPILE_TIMEOUT,
    cpu: COMPILE_TIMEOUT,
    output: 1 << 20,
    memory: Some(2 << 30),
    file_size: 256 << 20,
};
const COMPILER_OUTPUT_LIMIT: u64 = 64 * 1024;

/// A submission ready to run.
#[derive(Debug)]
pub struct Built {
    /// The command that runs it.
    pub program: Program,
    /// What the compiler said when it succeeded (warnings), if anything.
    pub warnings: String,
    /// For Python: how to call one of its functions (see [`crate::call`]).
    pub caller: Option<Program>,
    /// The submission's private folder (compiled program, staged source);
    /// removed when dropped.
    pub stage: TempDir,
}

/// Why a submission could not be built.
#[derive(Debug)]
pub enum BuildError {
    /// The student's code does not compile: the compiler's messages.
    Compile(String),
    /// The grader could not do its part (no compiler, no Python, no disk):
    /// not the student's fault.
    Grader(String),
}

/// Builds `submission`; C is compiled with `cflags`.
pub fn build(submission: &Submission, cflags: &[String]) -> Result<Built, BuildError> {
    let stage = sandbox::get()
        .build_folder()
        .map_err(|e| BuildError::Grader(format!("cannot make a build folder: {e}")))?;
    let name = submission
        .file
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| OsString::from("program"));
    let staged = stage.path().join(&name);
    if submission.language != Language::Executable {
        fs::copy(&submission.file, &staged).map_err(|e| {
            BuildError::Grader(format!("cannot read {}: {e}", submission.file.display()))
        })?;
    }
    let mut caller = None;
    let (program, warnings) = match submission.language {
        Language::C => compile(&staged, stage.path(), cflags)?,
        Language::Python => {
            let python = python::interpreter().map_err(BuildError::Grader)?;
            let run_python = |args: &[&Path]| {
                let mut argv = vec![
                    python.executable.clone().into_os_string(),
                    "-B".into(),
                    "-s".into(),
                ];
                argv.extend(args.iter().map(|a| a.as_os_str().to_os_string()));
                let mut reads = python.reads();
                reads.push(stage.path().to_path_buf());
                Program { argv, reads }
            };
            check_syntax(python, &staged, stage.path())?;
            let helper = stage.path().join(call::HELPER_FILE);
            fs::write(&helper, call::HELPER)
                .map_err(|e| BuildError::Grader(format!("cannot write the call helper: {e}")))?;
            caller = Some(run_python(&[&helper, &staged]));
            (run_python(&[&staged]), String::new())
        }
        Language::Executable => (Program::new(submission.file.clone()), String::new()),
    };
    Ok(Built {
        program,
        warnings,
        caller,
        stage,
    })
}

fn compile(source: &Path, dir: &Path, cflags: &[String]) -> Result<(Program, String), BuildError> {
    let compiler = c_compiler().ok_or_else(|| {
        BuildError::Grader(
            "no C compiler found (looked for gcc and cc on PATH): install gcc".into(),
        )
    })?;
    let output = dir.join("program");
    let file_name = source.file_name().unwrap_or_default();
    let mut command = Command::new(&compiler);
    command
        .args(cflags)
        .arg(file_name)
        .arg("-o")
        .arg(&output)
        .args(LIBS);
    let (ok, messages) = run_tool(command, dir, &[], "the compiler")?;
    if !ok || !output.is_file() {
        return Err(BuildError::Compile(messages));
    }
    Ok((Program::new(output), messages))
}

/// Checks that a Python file parses, as compiling a C file does: a
/// syntax error is a `compile-error` with Python's message, once, rather
/// than a crash in every case. Only parses (nothing of the file runs),
/// with `-I -S` so that the check costs a few milliseconds.
fn check_syntax(python: &python::Python, source: &Path, dir: &Path) -> Result<(), BuildError> {
    const CHECK: &str = r#"
import sys
path = sys.argv[1]
try:
    compile(open(path, "rb").read(), path.rsplit("/", 1)[-1], "exec")
except SyntaxError as e:
    print(f"{e.filename}:{e.lineno}:{e.offset or 0}: {type(e).__name__}: {e.msg}", file=sys.stderr)
    if e.text:
        print("    " + e.text.rstrip(), file=sys.stderr)
        print("    " + " " * max((e.offset or 1) - 1, 0) + "^", file=sys.stderr)
    sys.exit(1)
except ValueError as e:
    print(f"{path.rsplit('/', 1)[-1]}: {e}", file=sys.stderr)
    sys.exit(1)
"#;
    let mut command = Command::new(&python.executable);
    command.args(["-I", "-S", "-B", "-c", CHECK]).arg(source);
    let (ok, messages) = run_tool(command, dir, &python.reads(), "Python")?;
    if ok {
        Ok(())
    } else {
        Err(BuildError::Compile(messages))
    }
}

/// Runs a build tool (the C compiler, Python's syntax check) in `dir`,
/// in the sandbox, under the build limits: whether it succeeded, and
/// what it said on stderr.
fn run_tool(
    mut command: Command,
    dir: &Path,
    reads: &[std::path::PathBuf],
    what: &str,
) -> Result<(bool, String), BuildError> {
    // The tool runs in the sandbox too: `#include "../cases/..."` must
    // not print the hidden cases into the compiler's messages.
    let jail = sandbox::get()
        .jail_writing(reads, &[dir], &COMPILE_LIMITS)
        .map_err(|e| BuildError::Grader(format!("cannot make a sandbox for {what}: {e}")))?;
    let confinement = jail.confinement();
    // The messages go to a file rather than a pipe: nothing to drain
    // while it runs, so no thread (which the slot's process limit could
    // refuse after a program that forked all it could).
    let messages = tempfile::tempfile_in(dir).map_err(grader_io)?;
    command
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("LC_ALL", "C")
        .env("TMPDIR", dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(messages.try_clone().map_err(grader_io)?));
    // SAFETY: the closure only makes system calls (see Confinement::apply).
    unsafe {
        command.pre_exec(move || {
            crate::run::limit_resources(&COMPILE_LIMITS)?;
            confinement.apply()
        });
    }
    let program = command.get_program().to_string_lossy().into_owned();
    let mut child = command
        .spawn()
        .map_err(|e| BuildError::Grader(format!("cannot start {program}: {e}")))?;
    let status = match child.wait_timeout(COMPILE_TIMEOUT) {
        Ok(Some(status)) => status,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(BuildError::Compile(format!(
                "{what} was still running after {} s and was stopped",
                COMPILE_TIMEOUT.as_secs()
            )));
        }
        Err(e) => return Err(BuildError::Grader(format!("waiting for {what}: {e}"))),
    };
    Ok((status.success(), read_messages(messages)))
}

fn grader_io(e: std::io::Error) -> BuildError {
    BuildError::Grader(format!("cannot keep a build tool's messages: {e}"))
}

/// A build tool's messages, up to [`COMPILER_OUTPUT_LIMIT`] bytes.
fn read_messages(mut file: std::fs::File) -> String {
    use std::io::Seek;
    let mut text = Vec::new();
    if file.rewind().is_ok() {
        let _ = file.take(COMPILER_OUTPUT_LIMIT).read_to_end(&mut text);
    }
    String::from_utf8_lossy(&text).into_owned()
}

fn c_compiler() -> Option<std::path::PathBuf> {
    ["gcc", "cc"].iter().find_map(|name| find_on_path(name))
}

/// The first executable called `name` on PATH.
pub fn find_on_path(name: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}
