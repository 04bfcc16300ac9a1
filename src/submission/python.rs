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

static PYTHON: OnceLock<Result<Python, String>> = OnceLock::new();

/// The interpreter: `REFEREE_PYTHON` if set, otherwise what `python3` on
/// PATH resolves to.
pub fn interpreter() -> Result<&'static Python, String> {
    PYTHON.get_or_init(resolve).as_ref().map_err(Clone::clone)
}

fn resolve() -> Result<Python, String> {
    let launcher = std::env::var_os("REFEREE_PYTHON").unwrap_or_else(|| "python3".into());
    let output = Command::new(&launcher)
        .args([
            "-c",
            "import sys; print(sys.executable); print(sys.prefix); print(sys.base_prefix)",
        ])
        .output()
        .map_err(|e| {
            format!(
                "cannot start {} ({e}): install Python 3, or set REFEREE_PYTHON to its path",
                launcher.to_string_lossy()
            )
        })?;
    let text = String::from_utf8_lossy(&output.stdout);
    let mut lines = text.lines().map(PathBuf::from);
    let executable = lines.next().filter(|p| p.is_file()).ok_or_else(|| {
        format!(
            "{} did not say where its interpreter is: {}",
            launcher.to_string_lossy(),
            String::from_utf8_lossy(&output.stderr).trim()
        )
    })?;
    let mut prefixes: Vec<PathBuf> = lines.collect();
    prefixes.dedup();
    Ok(Python {
        executable,
        prefixes,
    })
}
