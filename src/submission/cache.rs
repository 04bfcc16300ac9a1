//! Checked builds kept between invocations. A TA grades the class again
//! after every fix to a case, and a student checks again after every
//! change; a checked build is some 100 ms of compiler a program
//! (docs/performance.md), most of what diagnoses cost. Each is kept under
//! a hash of everything that made it: every byte the compiler was given
//! (the program, the suite's support files, referee's options' source),
//! the flags, and the compiler itself (its path, size and time), so that
//! a change to any of them makes a new build.
//!
//! Only referee writes here: a student's program never runs with this
//! folder in its view, and a folder that anyone else may write to is
//! not used (what it holds is run). `REFEREE_CACHE` names another folder,
//! or `off`; the folder is trimmed to [`LIMIT`], least recently used
//! first.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

/// The most the folder keeps, in bytes (a checked build is about
/// 1.5 MB: some 700 programs).
pub const LIMIT: u64 = 1 << 30;

/// The most of the compiler's messages kept with a build.
const SAID_LIMIT: u64 = 4 << 20;

/// The most of a kept program read back.
const PROGRAM_LIMIT: u64 = 256 << 20;

/// The folder of kept checked builds.
#[derive(Debug)]
pub struct Cache {
    root: PathBuf,
}

/// What a build is kept under: a hash of what made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key(String);

/// The hash of what makes a build, given part by part.
#[derive(Default)]
pub struct Recipe(Sha256);

impl Recipe {
    /// Adds one part: its length first, so that no two lists of parts
    /// hash alike.
    pub fn part(&mut self, bytes: &[u8]) -> &mut Recipe {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// The key of what was given.
    pub fn key(self) -> Key {
        let digest = self.0.finalize();
        Key(digest.iter().map(|b| format!("{b:02x}")).collect())
    }
}

/// Set once this process must make every checked build itself.
static TURNED_OFF: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes every checked build of this process afresh: `doctor`, which
/// tries whether the compiler can make one here.
pub fn turn_off() {
    TURNED_OFF.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The cache this process uses, if any: opened once.
pub fn cache() -> Option<&'static Cache> {
    if TURNED_OFF.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    static OPENED: OnceLock<Option<Cache>> = OnceLock::new();
    OPENED
        .get_or_init(|| where_kept().and_then(|root| Cache::open(&root)))
        .as_ref()
}

/// Where checked builds are kept: `REFEREE_CACHE` (`off` for nowhere),
/// else the user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`).
pub fn where_kept() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    if let Some(asked) = std::env::var_os("REFEREE_CACHE") {
        if asked.is_empty() || asked == "off" {
            return None;
        }
        return absolute(asked);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .and_then(absolute)
        .or_else(|| {
            std::env::var_os("HOME")
                .and_then(absolute)
                .map(|h| h.join(".cache"))
        })?;
    Some(base.join("referee").join("checked"))
}

impl Cache {
    /// The cache in `root`, made if missing: `None` where it cannot be
    /// made, or where it is not this user's alone.
    pub fn open(root: &Path) -> Option<Cache> {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(root)
            .ok()?;
        let meta = fs::symlink_metadata(root).ok()?;
        let mine = meta.uid() == nix::unistd::geteuid().as_raw();
        let others_write = meta.permissions().mode() & 0o022 != 0;
        (meta.is_dir() && mine && !others_write).then(|| Cache {
            root: root.to_path_buf(),
        })
    }

    /// The build kept under `key`, copied to `to`, and the compiler's
    /// messages that came with it. Nothing when none is kept, or it
    /// cannot be read whole.
    pub fn find(&self, key: &Key, to: &Path) -> Option<String> {
        let entry = self.root.join(&key.0);
        let said = crate::untrusted::read(&entry.join("said"), SAID_LIMIT).ok()?;
        let said = String::from_utf8(said).ok()?;
        crate::untrusted::copy(&entry.join("program"), to, PROGRAM_LIMIT, 0o755).ok()?;
        // Recently used: trimmed last.
        if let Ok(file) = fs::File::options().write(true).open(entry.join("said")) {
            let _ = file.set_modified(SystemTime::now());
        }
        Some(said)
    }

    /// Keeps `program` and the compiler's messages under `key`. A failure
    /// to keep is no failure of the build: the next invocation makes it
    /// again.
    pub fn keep(&self, key: &Key, program: &Path, said: &str) {
        if self.keep_entry(key, program, said).is_ok() {
            self.trim(LIMIT);
        }
    }

    fn keep_entry(&self, key: &Key, program: &Path, said: &str) -> std::io::Result<()> {
        let entry = self.root.join(&key.0);
        if entry.is_dir() {
            return Ok(());
        }
        // Written whole in a folder of its own and then renamed, so that
        // another invocation never finds half of it.
        let new = tempfile::Builder::new()
            .prefix(".new-")
            .tempdir_in(&self.root)?;
        fs::copy(program, new.path().join("program"))?;
        let mut file = fs::File::create(new.path().join("said"))?;
        file.write_all(said.as_bytes())?;
        file.sync_all()?;
        let made = new.keep();
        if fs::rename(&made, &entry).is_err() {
            // Kept meanwhile by another invocation.
            let _ = fs::remove_dir_all(&made);
        }
        Ok(())
    }

    /// Removes the least recently used builds until the folder holds at
    /// most three quarters of `limit`, once it holds more than `limit`.
    pub fn trim(&self, limit: u64) {
        let mut entries = self.entries();
        let mut total: u64 = entries.iter().map(|(_, size, _)| size).sum();
        if total <= limit {
            return;
        }
        entries.sort();
        for (_, size, path) in entries {
            if total <= limit / 4 * 3 {
                break;
            }
            if fs::remove_dir_all(&path).is_ok() {
                total = total.saturating_sub(size);
            }
        }
    }

    /// Each kept build: when it was last used, its bytes, its folder.
    /// Builds being written (hidden folders) are not yet kept.
    fn entries(&self) -> Vec<(SystemTime, u64, PathBuf)> {
        let Ok(listed) = fs::read_dir(&self.root) else {
            return Vec::new();
        };
        listed
            .flatten()
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .filter_map(|e| {
                let path = e.path();
                let said = fs::metadata(path.join("said")).ok()?;
                let program = fs::metadata(path.join("program")).map_or(0, |m| m.len());
                Some((said.modified().ok()?, said.len() + program, path))
            })
            .collect()
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// How many builds it keeps, and their bytes.
    pub fn size(&self) -> (usize, u64) {
        let entries = self.entries();
        (entries.len(), entries.iter().map(|(_, size, _)| size).sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> Key {
        let mut recipe = Recipe::default();
        recipe.part(text.as_bytes());
        recipe.key()
    }

    #[test]
    fn parts_are_told_apart_by_their_lengths() {
        let mut a = Recipe::default();
        a.part(b"ab").part(b"c");
        let mut b = Recipe::default();
        b.part(b"a").part(b"bc");
        assert_ne!(a.key(), b.key());
    }

    #[test]
    fn a_kept_build_is_found_again_and_another_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(&dir.path().join("kept")).unwrap();
        let program = dir.path().join("checked");
        fs::write(&program, b"\x7fELF...").unwrap();
        cache.keep(&key("one"), &program, "{\"said\": 1}");
        let copy = dir.path().join("copy");
        assert_eq!(
            cache.find(&key("one"), &copy).as_deref(),
            Some("{\"said\": 1}")
        );
        assert_eq!(fs::read(&copy).unwrap(), b"\x7fELF...");
        assert_eq!(
            fs::metadata(&copy).unwrap().permissions().mode() & 0o777,
            0o755
        );
        assert_eq!(cache.find(&key("two"), &dir.path().join("other")), None);
    }

    #[test]
    fn a_folder_others_may_write_to_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let shared = dir.path().join("shared");
        fs::create_dir(&shared).unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o777)).unwrap();
        assert!(Cache::open(&shared).is_none());
        let own = dir.path().join("own");
        assert!(Cache::open(&own).is_some());
        assert_eq!(
            fs::metadata(&own).unwrap().permissions().mode() & 0o777,
            0o700
        );
    }

    #[test]
    fn trimming_removes_the_least_recently_used_first() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(&dir.path().join("kept")).unwrap();
        let program = dir.path().join("checked");
        fs::write(&program, vec![0u8; 1000]).unwrap();
        for name in ["old", "middle", "new"] {
            cache.keep(&key(name), &program, "");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // Used again: no longer the oldest.
        assert!(cache.find(&key("old"), &dir.path().join("c")).is_some());
        cache.trim(2900);
        let there = |name: &str| cache.root().join(&key(name).0).is_dir();
        assert!(there("old") && there("new"), "the recently used stay");
        assert!(!there("middle"), "the least recently used goes");
    }
}
