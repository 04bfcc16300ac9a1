//! Finding the real Python 3 interpreter, once.
//!
//! `python3` on PATH is often a shim (pyenv, asdf) that starts a shell
//! before Python, several times slower than Python itself. Students'
//! programs run with the interpreter the shim would have chosen, asked for
//! once per run of referee.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The interpreter programs run with.
#[derive(Clone, Debug)]
pub struct Python {
    /// The interpreter itself, not a shim.
    pub executable: PathBuf,
    /// Where its standard library lives (for the sandbox).
    pub prefixes: Vec<PathBuf>,
}

impl Python {
    /// What it must be able to read in the sandbox: its standard library
    /// and the folder it is in.
    pub fn reads(&self) -> Vec<PathBuf> {
        let mut reads = self.prefixes.clone();
        reads.extend(self.executable.parent().map(PathBuf::from));
        reads
    }
}

/// Why no interpreter was found: the machine's, never the student's.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Error {
    /// The launcher could not be started.
    #[error(
        "cannot start {launcher} ({why}): install Python 3, or set REFEREE_PYTHON to its path"
    )]
    Start {
        /// `python3`, or what `REFEREE_PYTHON` names.
        launcher: String,
        /// Why (an I/O error, kept as text: the answer is given to every
        /// caller).
        why: String,
    },
    /// It ran, but did not name an interpreter that exists.
    #[error("{launcher} did not say where its interpreter is: {stderr}")]
    Unanswered {
        /// `python3`, or what `REFEREE_PYTHON` names.
        launcher: String,
        /// What it wrote on stderr, trimmed.
        stderr: String,
    },
}

impl Error {
    /// Whose fault it is: the machine referee runs on.
    pub fn fault(&self) -> crate::fault::Fault {
        crate::fault::Fault::Grader
    }
}

static PYTHON: OnceLock<Result<Python, Error>> = OnceLock::new();

/// What the launcher is asked: its interpreter, the virtual environment
/// it belongs to (if any) and its installation. Without `site` (`-S`),
/// which on some machines imports whatever a `.pth` file of
/// site-packages names (a third of the answer's time here), and without
/// the environment's `PYTHON*` variables (`-I`), which programs do not
/// run with either. `site` is what sets `sys.prefix` to a virtual
/// environment: its `pyvenv.cfg`, beside the interpreter or a folder
/// above, is looked for here as `site` looks for it.
const WHERE: &str = "import os, sys
exe = sys.executable
here = os.path.dirname(exe)
venv = [d for d in (here, os.path.dirname(here)) if os.path.isfile(os.path.join(d, 'pyvenv.cfg'))]
print(exe)
print(venv[0] if venv else sys.prefix)
print(sys.base_prefix)";

/// The interpreter: `REFEREE_PYTHON` if set, otherwise what `python3` on
/// PATH resolves to.
pub fn interpreter() -> Result<&'static Python, Error> {
    PYTHON.get_or_init(resolve).as_ref().map_err(Clone::clone)
}

/// Starts finding the interpreter now, in the background, for a class or
/// a check that holds Python: asking a shim takes tens of milliseconds,
/// which the rest of referee's set-up (the suite, the first sandbox slot)
/// can take meanwhile. Its folders are shown to the sandbox as soon as
/// they are known. The first build that needs the interpreter waits for
/// the answer; nothing is asked twice.
pub fn warm_up() {
    let _ = std::thread::Builder::new().name("python".into()).spawn(|| {
        if let Ok(python) = interpreter() {
            crate::sandbox::show_read_only(python.reads());
        }
    });
}

fn resolve() -> Result<Python, Error> {
    ask(&std::env::var_os("REFEREE_PYTHON").unwrap_or_else(|| "python3".into()))
}

/// The interpreter `launcher` starts.
fn ask(launcher: &std::ffi::OsStr) -> Result<Python, Error> {
    let output = Command::new(launcher)
        .args(["-I", "-S", "-c", WHERE])
        .output()
        .map_err(|e| Error::Start {
            launcher: launcher.to_string_lossy().into_owned(),
            why: e.to_string(),
        })?;
    let text = String::from_utf8_lossy(&output.stdout);
    let mut lines = text.lines().map(PathBuf::from);
    let executable = lines
        .next()
        .filter(|p| p.is_file())
        .ok_or_else(|| Error::Unanswered {
            launcher: launcher.to_string_lossy().into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        })?;
    let mut prefixes: Vec<PathBuf> = lines.collect();
    prefixes.dedup();
    Ok(Python {
        executable,
        prefixes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_python_is_the_machines() {
        let error = Error::Start {
            launcher: "python3".into(),
            why: "not found".into(),
        };
        assert_eq!(error.fault(), crate::fault::Fault::Grader);
        assert_eq!(
            error.to_string(),
            "cannot start python3 (not found): install Python 3, or set REFEREE_PYTHON to its path"
        );
    }

    /// What `python` says of itself with `site`, as programs run.
    fn prefix_with_site(python: &std::path::Path) -> PathBuf {
        let out = Command::new(python)
            .args(["-c", "import sys; print(sys.prefix)"])
            .output()
            .unwrap();
        PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
    }

    #[test]
    fn a_virtual_environment_is_found_as_site_finds_it() {
        let base = ask("python3".as_ref()).unwrap();
        assert_eq!(base.prefixes[0], prefix_with_site(&base.executable));
        let dir = tempfile::tempdir().unwrap();
        let venv = dir.path().join("venv");
        let made = Command::new(&base.executable)
            .args(["-m", "venv", "--without-pip"])
            .arg(&venv)
            .status()
            .unwrap();
        assert!(made.success());
        let inside = ask(venv.join("bin/python3").as_os_str()).unwrap();
        assert_eq!(inside.prefixes[0], venv);
        assert_eq!(inside.prefixes[0], prefix_with_site(&inside.executable));
        // Its installation too: the standard library is there.
        assert!(inside.prefixes.contains(&base.prefixes[0]), "{inside:?}");
    }
}
