//! Finding the submissions in the paths a TA named.
//!
//! A file is one submission. A folder holding at most one program and no
//! folders is one submission. Any other folder is a class: each program
//! file in it, and each folder in it, is one student's submission (hidden
//! files, and files that are not programs, such as a gradebook export,
//! are skipped). A student's folder without exactly one program becomes a
//! submission that cannot be graded, with the reason, so nobody silently
//! disappears from the gradebook.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::submission::programs_in;

/// One student's submission, before it is looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The student's id: unique in the class, the same on every run.
    pub id: String,
    /// The file or folder.
    pub path: PathBuf,
}

/// The submissions under `paths`, sorted by id. Fails when a path cannot
/// be read, or nothing at all is found.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Entry>, String> {
    let mut found: Vec<PathBuf> = Vec::new();
    for path in paths {
        found.extend(expand(path)?);
    }
    if found.is_empty() {
        return Err(format!(
            "no submissions found in {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    found.sort();
    found.dedup();
    Ok(with_unique_ids(found))
}

/// The submissions one path stands for.
fn expand(path: &Path) -> Result<Vec<PathBuf>, String> {
    let meta =
        fs::metadata(path).map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
    if meta.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let programs =
        programs_in(path).map_err(|e| format!("{}: cannot list it: {e}", path.display()))?;
    let folders = subfolders(path)?;
    // One program (or none: a student's empty folder, graded as such).
    if folders.is_empty() && programs.len() <= 1 {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut entries: Vec<PathBuf> = programs.into_iter().map(|(p, _)| p).collect();
    entries.extend(folders);
    Ok(entries)
}

fn subfolders(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut folders = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| format!("{}: cannot list it: {e}", dir.display()))? {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if path.is_dir() && !hidden {
            folders.push(path);
        }
    }
    Ok(folders)
}

/// Ids from names; a name two submissions share gets `-2`, `-3`, ... in
/// path order.
fn with_unique_ids(paths: Vec<PathBuf>) -> Vec<Entry> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut entries: Vec<Entry> = paths
        .into_iter()
        .map(|path| {
            let base = student_id(&path);
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            let id = if *n == 1 { base } else { format!("{base}-{n}") };
            Entry { id, path }
        })
        .collect();
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    entries
}

static BLACKBOARD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^.+?_([^_]+)_attempt_\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}")
        .expect("a valid pattern")
});
static CANVAS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([a-z][a-z0-9]*)(?:_late)?_\d+_\d+_").expect("a valid pattern"));
static MOODLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(.+?)_\d+_assignsubmission_").expect("a valid pattern"));

/// A student's id from a submission's file or folder name, recognising
/// the exports of common learning systems:
///
/// - Blackboard: `Program 3_jsmith2_attempt_2017-02-20-23-59-59_prog3.c` → `jsmith2`;
/// - Canvas: `smithjohn_12345_67890_lab6.c` (or `smithjohn_late_...`) → `smithjohn`;
/// - Moodle: `John Smith_123_assignsubmission_file_` → `John-Smith`;
/// - anything else: the name without its extension (`alice.c` → `alice`).
///
/// Characters other than letters, digits, `.`, `_` and `-` become `-`.
pub fn student_id(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = if let Some(c) = BLACKBOARD.captures(&name) {
        c[1].to_string()
    } else if let Some(c) = CANVAS.captures(&name) {
        c[1].to_string()
    } else if let Some(c) = MOODLE.captures(&name) {
        c[1].to_string()
    } else if path.is_dir() {
        name
    } else {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or(name)
    };
    let cleaned: String = id
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "submission".into()
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_learning_system_exports() {
        let id = |name: &str| student_id(Path::new(name));
        assert_eq!(
            id("Program 3_jsmith2_attempt_2017-02-20-23-59-59_prog3Pentagojsmith2.c"),
            "jsmith2"
        );
        assert_eq!(id("smithjohn_12345_67890_lab6.c"), "smithjohn");
        assert_eq!(id("smithjohn_late_12345_67890_lab6-1.c"), "smithjohn");
        assert_eq!(id("alice.c"), "alice");
        assert_eq!(id("Bob Lee's lab6.c"), "Bob-Lee-s-lab6");
    }

    #[test]
    fn a_class_folder_holds_files_and_folders() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path().join("class");
        fs::create_dir(&class).unwrap();
        fs::write(class.join("alice.c"), "").unwrap();
        fs::write(class.join("bob.py"), "").unwrap();
        fs::write(class.join("notes.txt"), "").unwrap();
        fs::write(class.join(".DS_Store"), "").unwrap();
        fs::create_dir(class.join("carol")).unwrap();
        fs::write(class.join("carol/lab6.c"), "").unwrap();
        fs::create_dir(class.join("dave")).unwrap();
        fs::create_dir_all(class.join("sub/alice")).unwrap();
        let found = discover(std::slice::from_ref(&class)).unwrap();
        let ids: Vec<&str> = found.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["alice", "bob", "carol", "dave", "sub"]);
        // One student's folder on its own is one submission.
        let one = discover(&[class.join("carol")]).unwrap();
        assert_eq!((one.len(), one[0].id.as_str()), (1, "carol"));
        // The same name twice: unique, stable ids.
        let twice = discover(&[class.join("alice.c"), class.join("sub/alice")]).unwrap();
        let ids: Vec<&str> = twice.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["alice", "alice-2"]);
        assert!(discover(&[dir.path().join("missing")]).is_err());
    }
}
