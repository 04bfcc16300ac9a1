//! Identical programs built once per class: a class re-submitted into
//! another folder, or code copied from one student to another, costs one
//! compile. The class is looked at first (each program's contents
//! hashed), and only programs that more than one student handed in are
//! kept built, until the last of those students has been graded.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use sha2::{Digest, Sha256};

use super::build::{build_lazily, BuildError, Built};
use super::flags::Flags;
use super::program::Submission;
use super::start::Support;
use crate::untrusted::{self, PROGRAM_LIMIT};

/// What makes two builds the same: the program's bytes, its language,
/// and its file's name (which the compiler's messages quote).
type Key = ([u8; 32], super::Language, std::ffi::OsString);

/// One shared build, made once.
type Cell = Arc<OnceLock<Made>>;

/// What the first student's build of a shared program came to.
#[derive(Debug)]
enum Made {
    /// Built: every student of the program runs it.
    Built(Arc<Built>),
    /// It does not compile: the compiler's messages, the same for all.
    DoesNotCompile(String),
    /// The grader could not build it: never shared, each student tries
    /// again.
    GraderFailed,
}

/// A build shared by the students who handed in the same program, and
/// how many of them are still to be graded.
struct Entry {
    built: Cell,
    left: usize,
}

/// The builds of the programs several students of one class share.
#[derive(Default)]
pub struct SharedBuilds {
    entries: Mutex<HashMap<Key, Entry>>,
}

impl SharedBuilds {
    /// Looks at each program of the class (those found: a submission
    /// whose program cannot be found or read is graded, and refused, on
    /// its own), and keeps a place for every program that more than one
    /// student holds.
    pub fn for_class(programs: impl IntoIterator<Item = Submission>) -> SharedBuilds {
        let mut counts: HashMap<Key, usize> = HashMap::new();
        for program in programs {
            if let Some(key) = key_of(&program) {
                *counts.entry(key).or_default() += 1;
            }
        }
        let entries = counts
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(key, left)| {
                let entry = Entry {
                    built: Arc::new(OnceLock::new()),
                    left,
                };
                (key, entry)
            })
            .collect();
        SharedBuilds {
            entries: Mutex::new(entries),
        }
    }

    /// `submission` built: shared with the students who handed in the
    /// same program (built by the first who needs it; the others wait for
    /// that build), else built for it alone. A build the grader could not
    /// make is never shared: each tries again.
    pub fn build(
        &self,
        submission: &Submission,
        flags: &Flags,
        support: &[Support],
    ) -> Result<Arc<Built>, BuildError> {
        let shared = key_of(submission).and_then(|key| self.take(key));
        let Some(cell) = shared else {
            return build_lazily(submission, flags, support).map(Arc::new);
        };
        let mut failed = None;
        let done = cell.get_or_init(|| match build_lazily(submission, flags, support) {
            Ok(built) => Made::Built(Arc::new(built)),
            Err(BuildError::Compile(messages)) => Made::DoesNotCompile(messages),
            Err(other) => {
                failed = Some(other);
                Made::GraderFailed
            }
        });
        if let Some(other) = failed {
            return Err(other);
        }
        match done {
            Made::Built(built) => Ok(Arc::clone(built)),
            Made::GraderFailed => build_lazily(submission, flags, support).map(Arc::new),
            Made::DoesNotCompile(messages) => Err(BuildError::Compile(messages.clone())),
        }
    }

    /// The shared build's place for `key`, counting one use; forgotten
    /// after its last use, so that its folder goes with the last student.
    fn take(&self, key: Key) -> Option<Cell> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let entry = entries.get_mut(&key)?;
        let built = Arc::clone(&entry.built);
        entry.left -= 1;
        if entry.left == 0 {
            entries.remove(&key);
        }
        Some(built)
    }
}

/// The key of a submission's program: `None` when it cannot be read
/// (it is then refused when built, as always).
fn key_of(submission: &Submission) -> Option<Key> {
    let name = submission.file.file_name()?.to_os_string();
    if submission.files.len() <= 1 {
        let bytes = untrusted::read(&submission.file, PROGRAM_LIMIT).ok()?;
        return Some((Sha256::digest(&bytes).into(), submission.language, name));
    }
    // A program of several files is the same only where every file is,
    // by name and content.
    let mut hasher = Sha256::new();
    for file in &submission.files {
        let bytes = untrusted::read(file, PROGRAM_LIMIT).ok()?;
        let file_name = file.file_name()?.to_string_lossy().into_owned();
        hasher.update((file_name.len() as u64).to_le_bytes());
        hasher.update(file_name.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Some((hasher.finalize().into(), submission.language, name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::locate;

    #[test]
    fn the_same_program_is_built_once_and_forgotten_after_its_last_student() {
        let class = tempfile::tempdir().unwrap();
        let program = "int main(void) { return 0; }\n";
        for name in ["a", "b", "c"] {
            std::fs::create_dir(class.path().join(name)).unwrap();
        }
        for name in ["a/lab.c", "b/lab.c"] {
            std::fs::write(class.path().join(name), program).unwrap();
        }
        std::fs::write(
            class.path().join("c/lab.c"),
            "int main(void) { return 1; }\n",
        )
        .unwrap();
        let paths: Vec<std::path::PathBuf> = ["a", "b", "c"]
            .iter()
            .map(|n| class.path().join(n))
            .collect();
        let shared = SharedBuilds::for_class(paths.iter().filter_map(|p| locate(p).ok()));
        assert_eq!(
            shared.entries.lock().unwrap().len(),
            1,
            "only a and b share"
        );
        let a = shared
            .build(&locate(&paths[0]).unwrap(), &Flags::default(), &[])
            .unwrap();
        let b = shared
            .build(&locate(&paths[1]).unwrap(), &Flags::default(), &[])
            .unwrap();
        assert!(Arc::ptr_eq(&a, &b), "built once");
        assert!(
            shared.entries.lock().unwrap().is_empty(),
            "forgotten after b"
        );
        // The same program under another name is another build: the
        // compiler's messages quote the name.
        let other = tempfile::tempdir().unwrap();
        std::fs::write(other.path().join("x.c"), program).unwrap();
        std::fs::write(other.path().join("y.c"), program).unwrap();
        let named = [other.path().join("x.c"), other.path().join("y.c")];
        let apart = SharedBuilds::for_class(named.iter().filter_map(|p| locate(p).ok()));
        assert!(apart.entries.lock().unwrap().is_empty());
        let c = shared
            .build(&locate(&paths[2]).unwrap(), &Flags::default(), &[])
            .unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
    }
}
