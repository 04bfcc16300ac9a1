//! Finding the submissions in the paths a TA named.
//!
//! A file is one submission. A folder holding at most one program and no
//! folders is one submission, and so is one whose files are one program
//! of several (see [`crate::submission::is_one_program`]: several `.java`
//! files are each a student only where they do not make one program
//! whose `main` is in one of them). Any other folder is a class: each program
//! file in it, and each folder in it, is one student's submission (hidden
//! files, and files that are not programs, such as a gradebook export,
//! are skipped). Nothing is followed: a symbolic link, FIFO, device or
//! socket where a program or a student's folder could be is a student
//! too, whose submission is refused with the reason (see
//! [`crate::submission::locate`]), so nobody silently disappears from the
//! gradebook and nothing outside the class is ever read.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::fault::Fault;
use crate::results::LmsId;
use crate::submission;

/// One student's submission, before it is looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The student's id: unique in the class, the same on every run,
    /// readable (see [`readable`]).
    pub id: String,
    /// The student's name as the file or folder gives it (`Zoë Müller`).
    pub name: String,
    /// The id a learning system gave the student, from its export's name.
    pub lms: Option<LmsId>,
    /// The file or folder.
    pub path: PathBuf,
}

impl Entry {
    /// The entry for `path`, with the id its name gives (not yet made
    /// unique in a class).
    pub fn new(path: &Path) -> Entry {
        let (name, lms) = identify(path);
        Entry {
            id: readable(&name),
            name,
            lms,
            path: path.to_path_buf(),
        }
    }
}

/// Why a class cannot be found: the grader named the wrong paths.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A path named cannot be read.
    #[error("{}: cannot read it: {source}", path.display())]
    Unreadable {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A folder named cannot be listed.
    #[error("{}: cannot list it: {source}", path.display())]
    Unlistable {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Nothing that could be a submission in any of the paths.
    #[error(
        "no submissions found in {} (a submission is a C, C++ or Python file, an executable, or \
         a folder holding one)",
        .0.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    Nothing(Vec<PathBuf>),
}

impl Error {
    /// Whose fault it is: the paths are the grader's to name.
    pub fn fault(&self) -> Fault {
        Fault::Grader
    }
}

/// The submissions under `paths`, sorted by id. Fails when a path cannot
/// be read, or nothing at all is found.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Entry>, Error> {
    let mut found: Vec<PathBuf> = Vec::new();
    for path in paths {
        found.extend(expand(path)?);
    }
    if found.is_empty() {
        return Err(Error::Nothing(paths.to_vec()));
    }
    found.sort();
    found.dedup();
    Ok(with_unique_ids(found))
}

/// The submissions one path stands for.
fn expand(path: &Path) -> Result<Vec<PathBuf>, Error> {
    let meta = fs::symlink_metadata(path).map_err(|source| Error::Unreadable {
        path: path.to_path_buf(),
        source,
    })?;
    if !meta.is_dir() {
        // A file, or a link or special file that `locate` will refuse.
        return Ok(vec![path.to_path_buf()]);
    }
    let listing = submission::list(path).map_err(|source| Error::Unlistable {
        path: path.to_path_buf(),
        source,
    })?;
    // One program (or none: a student's empty folder, graded as such),
    // or one of several files (`main.c`, `stats.c` and `stats.h`).
    if listing.folders.is_empty()
        && (listing.candidates() <= 1 || submission::is_one_program(&listing))
    {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut entries: Vec<PathBuf> = listing.programs.into_iter().map(|(p, _)| p).collect();
    entries.extend(listing.unusable.into_iter().map(|(p, _)| p));
    for (special, why, named) in listing.special {
        if named {
            entries.push(special);
        } else {
            eprintln!("referee: warning: {why}; it is not a submission and was left alone");
        }
    }
    entries.extend(listing.folders);
    Ok(entries)
}

/// Entries with ids made unique: a name two submissions share gets `-2`,
/// `-3`, ... in path order, skipping any id another name already gives
/// (`alice-2.c` beside `alice.c` and `alice.py`: the second `alice` is
/// `alice-3`).
fn with_unique_ids(paths: Vec<PathBuf>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = paths.iter().map(|path| Entry::new(path)).collect();
    let mut taken: HashSet<String> = entries.iter().map(|e| e.id.clone()).collect();
    let mut first: HashSet<String> = HashSet::new();
    for entry in &mut entries {
        if first.insert(entry.id.clone()) {
            continue;
        }
        let mut n = 2;
        while taken.contains(&format!("{}-{n}", entry.id)) {
            n += 1;
        }
        entry.id = format!("{}-{n}", entry.id);
        taken.insert(entry.id.clone());
    }
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    entries
}

static BLACKBOARD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^.+?_([^_]+)_attempt_\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}")
        .expect("a valid pattern")
});
static CANVAS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{Nd}]*)(?:_(?i:late))?_(\d+)_\d+_")
        .expect("a valid pattern")
});
static MOODLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(.+?)_(\d+)_assignsubmission_").expect("a valid pattern"));

/// A student's name from a submission's file or folder name, and the id a
/// learning system gave them, recognising the exports of common ones:
///
/// - Blackboard: `Program 3_jsmith2_attempt_2017-02-20-23-59-59_prog3.c` →
///   `jsmith2` (the user name is Blackboard's id);
/// - Canvas: `smithjohn_12345_67890_lab6.c` (or `smithjohn_late_...`) →
///   `smithjohn`, Canvas user id `12345`;
/// - Moodle: `John Smith_123_assignsubmission_file_` → `John Smith`,
///   participant `123` (the grading worksheet's "Participant 123");
/// - anything else: the name without its extension (`alice.c` → `alice`).
pub fn identify(path: &Path) -> (String, Option<LmsId>) {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let lms = |system: &str, id: &str| {
        Some(LmsId {
            system: system.into(),
            id: id.into(),
        })
    };
    if let Some(c) = BLACKBOARD.captures(&file_name) {
        return (c[1].to_string(), lms("blackboard", &c[1]));
    }
    if let Some(c) = CANVAS.captures(&file_name) {
        return (c[1].to_string(), lms("canvas", &c[2]));
    }
    if let Some(c) = MOODLE.captures(&file_name) {
        return (c[1].trim().to_string(), lms("moodle", &c[2]));
    }
    let is_dir = fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
    let name = if is_dir {
        file_name
    } else {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or(file_name)
    };
    (name.trim().to_string(), None)
}

/// A student's id from a submission's file or folder name (see
/// [`identify`] and [`readable`]).
pub fn student_id(path: &Path) -> String {
    readable(&identify(path).0)
}

/// The longest id, in bytes: reports are files named after ids
/// (`feedback/<id>.html`), and a file name holds at most 255 bytes; a
/// student's file name can hold all of them.
pub const ID_ROOM: usize = 100;

/// A name as an id that is safe as a file name and still readable:
/// Latin letters with accents are folded to ASCII (`Zoë Müller` →
/// `Zoe-Muller`, `ß` → `ss`), letters and digits of other scripts are
/// kept as they are (`李雷`), and every run of anything else (spaces,
/// punctuation, `/`) becomes one `-`. Never empty, never `.`-led, at
/// most [`ID_ROOM`] bytes (a longer name keeps its start; in a class,
/// the `-2` that makes an id unique may follow).
pub fn readable(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_') {
            out.push(c);
        } else if is_latin(c) {
            let folded = deunicode::deunicode_char(c).unwrap_or("-");
            out.extend(folded.chars().filter(char::is_ascii_alphanumeric));
        } else if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    // (Room for the `_` a `.`-led id takes.)
    let mut end = out.len().min(ID_ROOM - 1);
    while !out.is_char_boundary(end) {
        end -= 1;
    }
    let trimmed = out[..end].trim_matches('-');
    if trimmed.is_empty() {
        "submission".into()
    } else if trimmed.starts_with('.') {
        format!("_{trimmed}")
    } else {
        trimmed.to_string()
    }
}

/// Latin letters beyond ASCII (accented letters, `ß`, `æ`, `ø`, ...),
/// which have an ASCII spelling every reader knows.
fn is_latin(c: char) -> bool {
    matches!(c as u32, 0x00C0..=0x024F | 0x1E00..=0x1EFF) && c != '×' && c != '÷'
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

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
        let (name, lms) = identify(Path::new("smithjohn_12345_67890_lab6.c"));
        assert_eq!(name, "smithjohn");
        assert_eq!(lms.unwrap().id, "12345");
        let (name, lms) = identify(Path::new("Zoë Müller_123_assignsubmission_file_"));
        assert_eq!(name, "Zoë Müller");
        let lms = lms.unwrap();
        assert_eq!((lms.system.as_str(), lms.id.as_str()), ("moodle", "123"));
    }

    #[test]
    fn names_stay_readable() {
        assert_eq!(readable("Zoë Müller"), "Zoe-Muller");
        assert_eq!(readable("José García"), "Jose-Garcia");
        assert_eq!(readable("Straße Ærø"), "Strasse-AEro");
        assert_eq!(readable("李雷"), "李雷");
        assert_eq!(readable("Анна Петрова"), "Анна-Петрова");
        assert_eq!(readable("../x"), "_..-x");
        assert_eq!(readable("  "), "submission");
        assert_eq!(readable("a / b"), "a-b");
    }

    #[test]
    fn ids_fit_in_a_file_name_and_stay_unique() {
        // Found by fuzzing: a name of 255 bytes made an id too long for
        // `<id>.html`, and no report of the class could be written; and
        // `alice-2.c` beside two `alice`s gave two students one id.
        let long = "李".repeat(85);
        let id = readable(&long);
        assert!(id.len() <= ID_ROOM, "{}", id.len());
        assert!(long.starts_with(&id));
        assert_eq!(readable(&format!(".{}", "a".repeat(300))).len(), ID_ROOM);
        let paths: Vec<PathBuf> = ["alice-2.c", "alice.c", "alice.py", "alice-3.c"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let ids: Vec<String> = with_unique_ids(paths).into_iter().map(|e| e.id).collect();
        assert_eq!(ids, ["alice", "alice-2", "alice-3", "alice-4"]);
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
        fs::write(class.join("erin.cpp"), "").unwrap();
        symlink("/etc/shadow", class.join("mallory.c")).unwrap();
        symlink("/etc", class.join("trent")).unwrap();
        symlink("/dev/zero", class.join("grades.csv")).unwrap();
        let found = discover(std::slice::from_ref(&class)).unwrap();
        let ids: Vec<&str> = found.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(
            ids,
            ["alice", "bob", "carol", "dave", "erin", "mallory", "sub", "trent"]
        );
        // One student's folder on its own is one submission.
        let one = discover(&[class.join("carol")]).unwrap();
        assert_eq!((one.len(), one[0].id.as_str()), (1, "carol"));
        // The same name twice: unique, stable ids.
        let twice = discover(&[class.join("alice.c"), class.join("sub/alice")]).unwrap();
        let ids: Vec<&str> = twice.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["alice", "alice-2"]);
        let missing = discover(&[dir.path().join("missing")]).unwrap_err();
        assert!(matches!(missing, Error::Unreadable { .. }), "{missing}");
        assert_eq!(missing.fault(), Fault::Grader);
    }
}
