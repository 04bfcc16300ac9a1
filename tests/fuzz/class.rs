//! Class folders: entries of any name a Linux file may have (invalid
//! UTF-8, spaces, leading dots and dashes, learning systems' exports),
//! of every kind (sources, executables, other files, folders, links,
//! FIFOs), found by `class::discover`. Every student is accounted for,
//! with an id that is unique, stable and usable as a file name.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use referee::class::discover;

use crate::{config, raw_control, timed};

/// What an entry of a class folder is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A regular file, executable or not.
    File { executable: bool },
    /// A folder (a student's, with a program in it).
    Folder,
    /// A symbolic link (to a file outside the class).
    Link,
    /// A FIFO.
    Fifo,
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        6 => any::<bool>().prop_map(|executable| Kind::File { executable }),
        3 => Just(Kind::Folder),
        1 => Just(Kind::Link),
        1 => Just(Kind::Fifo),
    ]
}

/// Names as students and learning systems make them, and any bytes.
fn stem() -> impl Strategy<Value = Vec<u8>> {
    let exports = select(
        &[
            "Program 3_jsmith2_attempt_2017-02-20-23-59-59_prog3",
            "Program 3_jsmith2_attempt_2017-02-20-23-59-59_lab6",
            "smithjohn_12345_67890_lab6",
            "smithjohn_late_12345_67890_lab6-1",
            "John Smith_123_assignsubmission_file_",
            "Zoë Müller_124_assignsubmission_file_",
            "alice",
            "alice-2",
            "alice-3",
            "Alice",
            "alice ",
            " alice",
            "-alice",
            "--help",
            "-",
            "_",
            "..alice",
            "李雷",
            "Анна Петрова",
            "a/b",
            "submission",
            "submission-2",
        ][..],
    );
    prop_oneof![
        4 => exports.prop_map(|s| s.replace('/', "-").into_bytes()),
        2 => "[a-zA-Z0-9 ._-]{1,16}".prop_map(String::into_bytes),
        1 => "[^/\0]{1,8}".prop_map(String::into_bytes),
        1 => vec(any::<u8>().prop_filter("allowed in a name", |b| *b != b'/' && *b != 0), 1..16),
        1 => ("[a-z]", 200..250usize).prop_map(|(s, n)| s.repeat(n).into_bytes()),
        1 => ("[é李]", 60..85usize).prop_map(|(s, n)| s.repeat(n).into_bytes()),
    ]
}

fn extension() -> impl Strategy<Value = &'static str> {
    select(
        &[
            "", ".c", ".c", ".py", ".py", ".cpp", ".cc", ".cxx", ".c++", ".C", ".txt", ".csv",
            ".h", ".c.txt", ".tar.gz", ".",
        ][..],
    )
}

/// An entry's file name: at most 255 bytes, never `.` or `..`.
fn entry() -> impl Strategy<Value = (Vec<u8>, Kind)> {
    (stem(), extension(), kind()).prop_filter_map("a file name", |(mut name, ext, kind)| {
        name.extend_from_slice(ext.as_bytes());
        name.truncate(255);
        let ok = !name.is_empty() && name != b"." && name != b"..";
        ok.then_some((name, kind))
    })
}

/// Whether a name could be a program's (what a link or FIFO is counted
/// as a student for): a program's extension, or none.
fn program_extension(path: &Path) -> Option<bool> {
    path.extension()
        .and_then(OsStr::to_str)
        .map(|ext| matches!(ext, "c" | "py" | "C" | "cpp" | "cc" | "cxx" | "c++"))
}

/// The entries a class with these entries stands for, by the rules of
/// `class::discover`'s documentation: every folder, program file (an
/// executable only when no source of its name is beside it and it is no
/// header), `.C` file,
/// and link or FIFO with a program's name, hidden ones aside.
fn expected(class: &Path, entries: &[(Vec<u8>, Kind)]) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    let mut executables = Vec::new();
    let mut sources = BTreeSet::new();
    for (name, kind) in entries {
        let path = class.join(OsStr::from_bytes(name));
        if String::from_utf8_lossy(name).starts_with('.') {
            continue;
        }
        let named = program_extension(&path);
        match kind {
            Kind::Folder => {
                found.insert(path);
            }
            Kind::Link | Kind::Fifo => {
                if named != Some(false) {
                    found.insert(path);
                }
            }
            Kind::File { executable } => match named {
                Some(true) => {
                    if path.extension() != Some(OsStr::new("C")) {
                        sources.insert(path.with_extension(""));
                    }
                    found.insert(path);
                }
                // A C or C++ header is part of a program, never one,
                // whatever its mode (a zip made on Windows marks every
                // file executable).
                _ if *executable && !is_header(&path) => executables.push(path),
                _ => {}
            },
        }
    }
    for path in executables {
        if !sources.contains(&path) {
            found.insert(path);
        }
    }
    found
}

/// Whether `path` is named as a C or C++ header (what
/// `submission::several::HEADERS` names).
fn is_header(path: &Path) -> bool {
    path.extension()
        .and_then(OsStr::to_str)
        .is_some_and(|e| ["h", "hpp", "hh", "hxx", "h++", "inc"].contains(&e))
}

/// Makes the class folder; the entries' names are unique.
fn make(class: &Path, entries: &[(Vec<u8>, Kind)]) {
    std::fs::create_dir(class).expect("a class folder");
    for (name, kind) in entries {
        let path = class.join(OsStr::from_bytes(name));
        match kind {
            Kind::File { executable } => {
                std::fs::write(&path, b"int main(void) { return 0; }\n").expect("a file");
                let mode = if *executable { 0o755 } else { 0o644 };
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
                    .expect("its mode");
            }
            Kind::Folder => {
                std::fs::create_dir(&path).expect("a folder");
                std::fs::write(path.join("lab6.c"), b"").expect("a program in it");
            }
            Kind::Link => symlink("/etc/passwd", &path).expect("a link"),
            Kind::Fifo => {
                let c = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("no NUL");
                // SAFETY: `c` is a valid NUL-terminated path.
                let made = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
                assert_eq!(made, 0, "a FIFO");
            }
        }
    }
}

/// Each entry's id, by its file name.
fn ids(class: &Path) -> BTreeMap<OsString, String> {
    let found = timed("discovering a class", || discover(&[class.to_path_buf()]))
        .expect("a class with entries is found");
    found
        .into_iter()
        .map(|e| {
            let name = e
                .path
                .strip_prefix(class)
                .map(|p| p.as_os_str().to_os_string())
                .unwrap_or_default();
            (name, e.id)
        })
        .collect()
}

proptest! {
    #![proptest_config(config(80))]

    #[test]
    fn every_student_is_found_with_a_unique_stable_id(
        entries in vec(entry(), 1..10)
            .prop_map(|mut e| {
                let mut seen = BTreeSet::new();
                e.retain(|(name, _)| seen.insert(name.clone()));
                e
            })
            .prop_filter("a class has a student", |e| !e.is_empty()),
    ) {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let class = dir.path().join("class");
        make(&class, &entries);
        let want = expected(&class, &entries);
        let found = timed("discovering a class", || discover(std::slice::from_ref(&class)));
        let found = match found {
            Ok(found) => found,
            Err(e) => {
                prop_assert!(want.is_empty(), "{e}, but {want:?} are students");
                return Ok(());
            }
        };
        let paths: Vec<&PathBuf> = found.iter().map(|e| &e.path).collect();
        let folders = entries.iter().filter(|(n, k)| *k == Kind::Folder && n[0] != b'.').count();
        if want.len() <= 1 && folders == 0 {
            // One program, or none: the folder is one student's.
            prop_assert_eq!(paths, vec![&class]);
        } else {
            let distinct: BTreeSet<PathBuf> = paths.iter().map(|p| (*p).clone()).collect();
            prop_assert_eq!(distinct.len(), paths.len(), "each student once");
            prop_assert_eq!(&distinct, &want);
        }
        let unique: BTreeSet<&str> = found.iter().map(|e| e.id.as_str()).collect();
        prop_assert_eq!(unique.len(), found.len(), "ids unique: {:?}", found);
        let reports = dir.path().join("reports");
        std::fs::create_dir(&reports).expect("a folder for reports");
        for entry in &found {
            let id = &entry.id;
            prop_assert!(!id.is_empty() && !id.starts_with('.') && !id.contains('/'), "{id:?}");
            prop_assert!(raw_control(id).is_none(), "{id:?}");
            // Reports are written as `<id>.html`, `<id>.json`, `<id>.md`.
            let report = reports.join(format!("{id}.html"));
            prop_assert!(std::fs::write(&report, b"").is_ok(), "{id:?} is no file name");
        }
        // Stable: the same again, and the same for the same names made
        // in another order.
        let first = ids_of(&found, &class);
        prop_assert_eq!(&ids(&class), &first);
        let other = tempfile::tempdir().expect("a temporary folder");
        let again = other.path().join("class");
        let mut reversed = entries.clone();
        reversed.reverse();
        make(&again, &reversed);
        prop_assert_eq!(&ids(&again), &first);
    }
}

fn ids_of(found: &[referee::class::Entry], class: &Path) -> BTreeMap<OsString, String> {
    found
        .iter()
        .map(|e| {
            let name = e
                .path
                .strip_prefix(class)
                .map(|p| p.as_os_str().to_os_string())
                .unwrap_or_default();
            (name, e.id.clone())
        })
        .collect()
}

/// Two folders whose names differ only in bytes that are not UTF-8 are
/// two students.
#[test]
fn names_that_read_the_same_are_two_students() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let class = dir.path().join("class");
    let entries: Vec<(Vec<u8>, Kind)> = [
        b"ab\xff".to_vec(),
        b"ab\xfe".to_vec(),
        b"ab\xef\xbf\xbd".to_vec(),
    ]
    .into_iter()
    .map(|n| (n, Kind::Folder))
    .collect();
    make(&class, &entries);
    let found = ids(&class);
    assert_eq!(found.len(), 3, "{found:?}");
    let unique: BTreeSet<&String> = found.values().collect();
    assert_eq!(unique.len(), 3, "{found:?}");
}
