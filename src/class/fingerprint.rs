//! Fingerprints: what a result depends on, hashed, so a rerun regrades a
//! submission only when its files, the cases, the compiler flags or
//! referee itself changed.
//!
//! A student's folder is walked without following anything: a link is
//! hashed as the text it points to, a FIFO or device as what it is (never
//! opened), a regular file streamed through [`crate::untrusted`] up to a
//! cap, and the walk stops at a depth and a number of entries, so a
//! folder of links to itself or a `/dev/zero` costs nothing.

use std::fs;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::untrusted::{self, PROGRAM_LIMIT};

/// Folders deeper than this inside a submission are not looked into.
const MAX_DEPTH: usize = 8;
/// Entries looked at in one submission, at most.
const MAX_ENTRIES: usize = 10_000;

/// A suite's fingerprint: every file of the case folder.
pub fn suite_fingerprint(dir: &Path, programs: &[&Path]) -> String {
    let mut hasher = Sha256::new();
    Walk::new(&mut hasher, dir).folder(dir, 0);
    // A suite's programs may live outside its folder (an instructor's
    // solution kept apart): what they print is what is expected.
    for program in programs.iter().filter(|p| !p.starts_with(dir)) {
        Walk::new(&mut hasher, program).entry(program, 0);
    }
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
    Walk::new(&mut hasher, submission).entry(submission, 0);
    hex(&hasher.finalize())
}

/// A walk of one tree into a hasher.
struct Walk<'h> {
    hasher: &'h mut Sha256,
    root: &'h Path,
    entries: usize,
}

impl<'h> Walk<'h> {
    fn new(hasher: &'h mut Sha256, root: &'h Path) -> Walk<'h> {
        Walk {
            hasher,
            root,
            entries: 0,
        }
    }

    /// Hashes one entry: its path from the root, what it is, and its
    /// contents when it is a regular file.
    fn entry(&mut self, path: &Path, depth: usize) {
        self.entries += 1;
        if self.entries > MAX_ENTRIES {
            return;
        }
        let relative = path.strip_prefix(self.root).unwrap_or(path);
        self.hasher.update(relative.to_string_lossy().as_bytes());
        self.hasher.update([0]);
        let Ok(meta) = fs::symlink_metadata(path) else {
            self.hasher.update(b"missing");
            return;
        };
        let kind = meta.file_type();
        if kind.is_dir() {
            self.hasher.update(b"folder");
            if depth < MAX_DEPTH {
                self.folder(path, depth + 1);
            }
        } else if kind.is_symlink() {
            self.hasher.update(b"link");
            if let Ok(target) = fs::read_link(path) {
                self.hasher.update(target.as_os_str().as_encoded_bytes());
            }
        } else if kind.is_file() {
            self.file(path);
        } else {
            self.hasher.update(untrusted::kind(&meta).as_bytes());
        }
    }

    fn folder(&mut self, dir: &Path, depth: usize) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .take(MAX_ENTRIES)
            .collect();
        paths.sort();
        for path in paths {
            self.entry(&path, depth);
        }
    }

    /// A regular file's size and contents, streamed; past the cap, only
    /// its size and modification time stand for it.
    fn file(&mut self, path: &Path) {
        match untrusted::open(path, PROGRAM_LIMIT) {
            Ok((file, size)) => {
                self.hasher.update(size.to_le_bytes());
                let mut reader = file.take(PROGRAM_LIMIT);
                let mut buffer = [0u8; 64 * 1024];
                while let Ok(n) = reader.read(&mut buffer) {
                    if n == 0 {
                        break;
                    }
                    self.hasher.update(&buffer[..n]);
                }
            }
            Err(refusal) => {
                self.hasher.update(refusal.to_string().as_bytes());
                if let Ok(meta) = fs::symlink_metadata(path) {
                    self.hasher.update(meta.len().to_le_bytes());
                    if let Ok(modified) = meta.modified() {
                        self.hasher.update(format!("{modified:?}").as_bytes());
                    }
                }
            }
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn loops_links_and_devices_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let student = dir.path().join("mallory");
        fs::create_dir(&student).unwrap();
        fs::write(student.join("lab6.c"), "int main(){}").unwrap();
        symlink(".", student.join("a")).unwrap();
        symlink(".", student.join("b")).unwrap();
        symlink("/dev/zero", student.join("notes.txt")).unwrap();
        let first = fingerprint(&student, "suite", &[]);
        assert_eq!(first, fingerprint(&student, "suite", &[]));
        fs::write(student.join("lab6.c"), "int main(){return 1;}").unwrap();
        assert_ne!(first, fingerprint(&student, "suite", &[]));
        // A link to a file: the link, not the file, is what counts.
        let target = dir.path().join("target");
        fs::write(&target, "one").unwrap();
        let link = dir.path().join("bob.c");
        symlink(&target, &link).unwrap();
        let before = fingerprint(&link, "suite", &[]);
        fs::write(&target, "two").unwrap();
        assert_eq!(before, fingerprint(&link, "suite", &[]));
    }
}
