//! Rebuilds referee when a shipped case changes (the suites in `cases/`
//! are built into the binary, see `src/case/builtin.rs`), and names the
//! commit it was built from for `referee --version`.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=cases");
    // A package built from a tarball has no repository: its builder says
    // the commit (packaging/dist.sh does).
    println!("cargo:rerun-if-env-changed=REFEREE_COMMIT");
    let commit = std::env::var("REFEREE_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(git_commit)
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=REFEREE_COMMIT={}", commit.trim());
}

/// The commit checked out, where this is a git repository; and the
/// files that change when another is, so that the name stays right.
fn git_commit() -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let dir = PathBuf::from(dir);
        for watched in ["HEAD", "refs/heads", "packed-refs"] {
            if dir.join(watched).exists() {
                println!("cargo:rerun-if-changed={}", dir.join(watched).display());
            }
        }
    }
    git(&["rev-parse", "--short=12", "HEAD"]).filter(|c| !c.is_empty())
}
