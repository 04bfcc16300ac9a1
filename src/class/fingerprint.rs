//! Fingerprints: what a result depends on, hashed, so a rerun regrades a
//! submission only when its files, the cases, the compiler flags or
//! referee itself changed.

use std::fs;
use std::path::Path;

use sha2::{Digest, Sha256};

/// A suite's fingerprint: every file of the case folder.
pub fn suite_fingerprint(dir: &Path) -> String {
    let mut hasher = Sha256::new();
    hash_tree(&mut hasher, dir, dir);
    hex(&hasher.finalize())
}

/// A submission's fingerprint under a suite, flags and this referee.
pub fn fingerprint(submission: &Path, suite: &str, cflags: &[String]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
    hasher.update([0]);
    hasher.update(suite.as_bytes());
    for flag in cflags {
        hasher.update(flag.as_bytes());
        hasher.update([0]);
    }
    if submission.is_dir() {
        hash_tree(&mut hasher, submission, submission);
    } else {
        hasher.update(fs::read(submission).unwrap_or_default());
    }
    hex(&hasher.finalize())
}

/// Hashes every file under `dir`: relative path and contents, in sorted
/// order.
fn hash_tree(hasher: &mut Sha256, root: &Path, dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            hash_tree(hasher, root, &path);
        } else if let Ok(bytes) = fs::read(&path) {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            hasher.update(relative.to_string_lossy().as_bytes());
            hasher.update([0]);
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(&bytes);
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
