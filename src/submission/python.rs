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

/// The interpreter: `REFEREE_PYTHON` if set, otherwise what `python3` on
/// PATH resolves to.
pub fn interpreter() -> Result<&'static Python, Error> {
    PYTHON.get_or_init(resolve).as_ref().map_err(Clone::clone)
}

fn resolve() -> Result<Python, Error> {
    let launcher = std::env::var_os("REFEREE_PYTHON").unwrap_or_else(|| "python3".into());
    let output = Command::new(&launcher)
        .args([
            "-c",
            "import sys; print(sys.executable); print(sys.prefix); print(sys.base_prefix)",
        ])
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
}
