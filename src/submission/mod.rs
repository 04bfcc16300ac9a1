//! Submissions: finding the program in what a student handed in, telling
//! which game it plays, and building it into something the runner can
//! start.
//!
//! A submission is a source of one of the table of languages
//! ([`languages`]: a `.c` file compiled with the system C compiler, a
//! C++ file (`.cpp`, `.cc`, `.cxx`, `.c++`) compiled with `g++`, a `.py`
//! file run with Python 3, a `.java` file compiled with `javac` and run
//! with `java`, or a source of a language the suite adds), an
//! executable, or a folder holding exactly one of those; a folder
//! holding only `.java` files, one or several, is one Java program. A
//! `.C` file is refused with what to do: `g++` takes it for C++, but on
//! a system that ignores case it is as likely a `.c`.
//!
//! Everything here looks at what students control without following it:
//! folders are listed with the type of each entry as it is on disk
//! (`symlink_metadata`), only regular files count as programs, and a
//! symbolic link, FIFO, device, socket or oversized file is refused with
//! its reason, never opened. Contents are read only through
//! [`crate::untrusted`].

use std::fs::{self, Metadata};
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::untrusted::{self, Refusal, PROGRAM_LIMIT};

mod build;
pub mod cache;
pub mod checked;
mod error;
mod flags;
pub mod hold;
pub mod java;
pub mod languages;
mod linker;
mod program;
pub mod python;
pub mod sanitized;
pub mod several;
mod shared;
mod start;

pub use build::{
    build, build_lazily, command_of, find_on_path, missing_compilers, sandbox, BuildError, Built,
    COMPILER_MEMORY,
};
pub use error::Error;
pub use flags::{Compilers, Flags};
pub use languages::Language;
pub use program::Submission;
pub use several::Layout;
pub use shared::SharedBuilds;
pub use start::{
    execute, execute_checked, provide, StartError, Support, GIVEN_MODE, SUPPORT_LIMIT, SUPPORT_MODE,
};

/// The extension `g++` takes for C++ and a case-insensitive file system
/// (or an upload through one) may have made of `.c`: refused, with what
/// to do.
const UPPER_C: &str = "C";

/// How much of a source is looked at to tell text from a binary.
const SNIFF: u64 = 64 * 1024;

/// What one folder holds, looked at without following anything.
#[derive(Debug, Default)]
pub struct Listing {
    /// Regular program files, sorted; a compiled binary that has a source
    /// of the same name beside it (`lab6` beside `lab6.c`) is left out:
    /// the source wins.
    pub programs: Vec<(PathBuf, Language)>,
    /// Files that look like programs but cannot be graded (a `.C`
    /// source, an oversized file), each with why.
    pub unusable: Vec<(PathBuf, Error)>,
    /// Symbolic links, FIFOs, devices and sockets, each with what it is;
    /// `true` when its name is one a program could have (a program's
    /// extension, or none).
    pub special: Vec<(PathBuf, String, bool)>,
    /// Real folders (not links to one), sorted.
    pub folders: Vec<PathBuf>,
    /// C and C++ headers (regular files), sorted: part of a C or C++
    /// program of the folder.
    pub headers: Vec<PathBuf>,
    /// Whether the folder holds nothing but hidden entries.
    pub empty: bool,
}

impl Listing {
    /// How many entries could be a student's program or folder.
    pub(crate) fn candidates(&self) -> usize {
        self.programs.len()
            + self.unusable.len()
            + self.special.iter().filter(|(_, _, named)| *named).count()
    }
}

/// Lists `dir`: hidden entries (a leading `.`) are skipped, files that are
/// no program (a README, a gradebook export) ignored.
pub fn list(dir: &Path) -> std::io::Result<Listing> {
    let mut listing = Listing {
        empty: true,
        ..Listing::default()
    };
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        listing.empty = false;
        // `DirEntry::metadata` does not follow a link.
        let meta = entry.metadata()?;
        let kind = meta.file_type();
        if kind.is_dir() {
            listing.folders.push(path);
        } else if !kind.is_file() {
            let why = refusal_of(&path, &meta).to_string();
            listing
                .special
                .push((path.clone(), why, could_be_program(&path)));
        } else {
            match classify(&path, &meta) {
                Some(Ok(language)) => listing.programs.push((path, language)),
                Some(Err(why)) => listing.unusable.push((path, why)),
                None if several::is_header(&path) => listing.headers.push(path),
                None => {}
            }
        }
    }
    listing.programs.sort();
    listing.unusable.sort_by(|a, b| a.0.cmp(&b.0));
    listing.special.sort();
    listing.folders.sort();
    listing.headers.sort();
    sources_win(&mut listing.programs);
    Ok(listing)
}

/// Drops each executable named like a source beside it (`lab6`, `lab6.c`).
fn sources_win(programs: &mut Vec<(PathBuf, Language)>) {
    let sources: Vec<PathBuf> = programs
        .iter()
        .filter(|(_, l)| *l != Language::Executable)
        .map(|(p, _)| p.with_extension(""))
        .collect();
    programs.retain(|(p, l)| *l != Language::Executable || !sources.contains(p));
}

/// Whether a file of this name could be a program: a program's
/// extension, or none (an executable).
fn could_be_program(path: &Path) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        None => true,
        Some(ext) => ext == UPPER_C || languages::of_extension(ext).is_some(),
    }
}

/// Why a file that is not a regular file is not read.
fn refusal_of(path: &Path, meta: &Metadata) -> Refusal {
    if meta.file_type().is_symlink() {
        Refusal::Link(path.to_path_buf())
    } else {
        Refusal::NotRegular(path.to_path_buf(), untrusted::kind(meta))
    }
}

/// A regular file: its language if it is a program, why not if it looks
/// like one but cannot be graded, `None` if it is no program at all.
fn classify(path: &Path, meta: &Metadata) -> Option<Result<Language, Error>> {
    let ext = path.extension().and_then(|e| e.to_str());
    let language = match ext {
        Some(UPPER_C) => return Some(Err(Error::UpperCaseC(path.to_path_buf()))),
        Some(ext) if languages::of_extension(ext).is_some() => languages::of_extension(ext)?,
        Some(ext) if several::HEADERS.contains(&ext) => return None,
        _ if meta.permissions().mode() & 0o111 != 0 => Language::Executable,
        _ => return None,
    };
    if meta.len() > PROGRAM_LIMIT {
        let too_large = Refusal::TooLarge {
            path: path.to_path_buf(),
            size: meta.len(),
            limit: PROGRAM_LIMIT,
        };
        return Some(Err(Error::Refused(too_large)));
    }
    Some(Ok(language))
}

/// Finds the program at `path`: a program file, or a folder holding
/// one program (one file, or several of one language: see
/// [`several`]) and nothing referee would have to refuse to open.
pub fn locate(path: &Path) -> Result<Submission, Error> {
    locate_in(path, &Layout::default())
}

/// Like [`locate`], with what the suite says of the files a student
/// hands in ([`Layout`]): the file that starts the program, the files
/// that must be there, the course's own files (a student's copy of one
/// is left out).
pub fn locate_in(path: &Path, layout: &Layout) -> Result<Submission, Error> {
    // `symlink_metadata` looks at the entry itself: a link is refused,
    // not followed. (`folder/` with a slash names the folder a link
    // points to, which is the TA's own choice.)
    let meta = fs::symlink_metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::Missing(path.to_path_buf()),
        _ => Error::Unreadable {
            path: path.to_path_buf(),
            source: e,
        },
    })?;
    let kind = meta.file_type();
    if kind.is_file() {
        let language = match classify(path, &meta) {
            Some(found) => found?,
            None => return Err(Error::NotAProgram(path.to_path_buf())),
        };
        return found(path, path, language, Vec::new());
    }
    if !kind.is_dir() {
        return Err(Error::Refused(refusal_of(path, &meta)));
    }
    let listing = list(path).map_err(|source| Error::Unlistable {
        path: path.to_path_buf(),
        source,
    })?;
    if !listing.special.is_empty() {
        let reasons = listing.special.into_iter().map(|(_, why, _)| why).collect();
        return Err(Error::Special {
            path: path.to_path_buf(),
            reasons,
        });
    }
    if listing.empty {
        return Err(Error::Empty(path.to_path_buf()));
    }
    let missing: Vec<String> = layout
        .hand_in
        .iter()
        .filter(|name| {
            !listing
                .programs
                .iter()
                .map(|(p, _)| p)
                .chain(&listing.headers)
                .chain(listing.unusable.iter().map(|(p, _)| p))
                .any(|p| p.file_name().is_some_and(|n| n == name.as_str()))
        })
        .cloned()
        .collect();
    if !missing.is_empty() {
        return Err(Error::NotHandedIn {
            path: path.to_path_buf(),
            missing,
            asked: layout.hand_in.clone(),
        });
    }
    // A student's copy of a file the course gives is the course's.
    let programs: Vec<(PathBuf, Language)> = listing
        .programs
        .into_iter()
        .filter(|(p, _)| !layout.is_given(p))
        .collect();
    let headers: Vec<PathBuf> = listing
        .headers
        .into_iter()
        .filter(|p| !layout.is_given(p))
        .collect();
    let mut unusable = listing.unusable;
    if programs.len() > 1 && unusable.is_empty() {
        let language = programs[0].1;
        if several::may_be_several(language) && programs.iter().all(|(_, l)| *l == language) {
            let sources: Vec<PathBuf> = programs.into_iter().map(|(p, _)| p).collect();
            return one_of_several(path, sources, headers, language, layout);
        }
    }
    match (&programs[..], &unusable[..]) {
        ([(file, language)], []) => {
            let headers = match language {
                Language::C | Language::Cpp => headers,
                _ => Vec::new(),
            };
            found(path, file, *language, headers)
        }
        ([], []) => Err(Error::NoProgram(path.to_path_buf())),
        ([], [_]) => Err(unusable.remove(0).1),
        (programs, unusable) => {
            let files: Vec<PathBuf> = programs
                .iter()
                .map(|(f, _)| f.clone())
                .chain(unusable.iter().map(|(f, _)| f.clone()))
                .collect();
            Err(Error::Several {
                path: path.to_path_buf(),
                names: several::names(&files),
            })
        }
    }
}

/// The one program a folder's several `sources` of `language` make
/// (with its C or C++ `headers`), started from the file the suite names,
/// else the one with the entry point ([`several`]).
fn one_of_several(
    folder: &Path,
    sources: Vec<PathBuf>,
    headers: Vec<PathBuf>,
    language: Language,
    layout: &Layout,
) -> Result<Submission, Error> {
    let mut texts = Vec::new();
    for file in &sources {
        check_text(file, language)?;
        let bytes = untrusted::read(file, PROGRAM_LIMIT).map_err(Error::Refused)?;
        texts.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    let with_entry: Vec<PathBuf> = sources
        .iter()
        .zip(&texts)
        .filter(|(_, text)| several::has_entry(language, text))
        .map(|(p, _)| p.clone())
        .collect();
    let named = layout.main.as_ref().and_then(|main| {
        sources
            .iter()
            .find(|p| p.file_name().is_some_and(|n| n == main.as_str()))
    });
    let compiled = matches!(language, Language::C | Language::Cpp);
    let entry = match (named, &with_entry[..]) {
        // Linked together, one `main` only.
        (Some(named), _) if compiled && with_entry.iter().any(|p| p != named) => {
            return Err(Error::TwoMains {
                path: folder.to_path_buf(),
                names: several::names(&with_entry),
                main: Some(several::names(std::slice::from_ref(named)).remove(0)),
            })
        }
        (Some(named), _) => named.clone(),
        (None, [one]) => one.clone(),
        (None, [_, _, ..]) if compiled => {
            return Err(Error::TwoMains {
                path: folder.to_path_buf(),
                names: several::names(&with_entry),
                main: None,
            })
        }
        (None, _) if language == Language::Python => {
            python_entry(folder, &sources, &texts, &with_entry)?
        }
        // No `main` of the student's (the course's own file may have
        // it; else the compiler says so), or Java's classes, which
        // the build tells apart from the classes javac makes.
        (None, _) => layout
            .hand_in
            .iter()
            .find_map(|name| {
                sources
                    .iter()
                    .find(|p| p.file_name().is_some_and(|n| n == name.as_str()))
            })
            .unwrap_or(&sources[0])
            .clone(),
    };
    let mut files = sources;
    if compiled {
        files.extend(headers);
    }
    files.sort();
    found(folder, &entry, language, files)
}

/// The Python file that starts a program of several: the only one no
/// other file imports, where none or several run as scripts.
fn python_entry(
    folder: &Path,
    sources: &[PathBuf],
    texts: &[String],
    scripts: &[PathBuf],
) -> Result<PathBuf, Error> {
    let imported: Vec<String> = texts
        .iter()
        .flat_map(|t| several::python_imports(t))
        .collect();
    let candidates: Vec<PathBuf> = if scripts.is_empty() {
        sources.to_vec()
    } else {
        scripts.to_vec()
    };
    let not_imported: Vec<PathBuf> = candidates
        .iter()
        .filter(|p| {
            let stem = p.file_stem().unwrap_or_default().to_string_lossy();
            !imported.iter().any(|i| *i == stem)
        })
        .cloned()
        .collect();
    match &not_imported[..] {
        [one] => Ok(one.clone()),
        [] => Err(Error::NoEntry {
            path: folder.to_path_buf(),
            names: several::names(&candidates),
        }),
        several => Err(Error::NoEntry {
            path: folder.to_path_buf(),
            names: several::names(several),
        }),
    }
}

/// Whether a folder's listing, given straight to `grade`, is one
/// program rather than a class of one file per student: its programs
/// are several sources of one language that may be several files, and
/// exactly one of them starts the program (for C and C++, with a header
/// beside them; for Python, every other file imported by one of the
/// folder's). A class where one student's file has no `main` stays a
/// class.
pub fn is_one_program(listing: &Listing) -> bool {
    let Some((_, language)) = listing.programs.first() else {
        return false;
    };
    let language = *language;
    if listing.programs.len() < 2
        || !listing.unusable.is_empty()
        || !listing.folders.is_empty()
        || listing.special.iter().any(|(_, _, named)| *named)
        || !several::may_be_several(language)
        || listing.programs.iter().any(|(_, l)| *l != language)
    {
        return false;
    }
    let compiled = matches!(language, Language::C | Language::Cpp);
    if compiled && listing.headers.is_empty() {
        return false;
    }
    let mut texts = Vec::new();
    for (file, _) in &listing.programs {
        let Ok(bytes) = untrusted::read(file, PROGRAM_LIMIT) else {
            return false;
        };
        texts.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    let entries = texts
        .iter()
        .filter(|t| several::has_entry(language, t))
        .count();
    match language {
        Language::C | Language::Cpp => entries == 1,
        Language::Java => entries == 1,
        _ => {
            let imported: Vec<String> = texts
                .iter()
                .flat_map(|t| several::python_imports(t))
                .collect();
            let free = listing
                .programs
                .iter()
                .filter(|(p, _)| {
                    let stem = p.file_stem().unwrap_or_default().to_string_lossy();
                    !imported.iter().any(|i| *i == stem)
                })
                .count();
            free == 1
        }
    }
}

/// The submission `given` (a file or folder), whose program is `file`
/// with the other `files` of it (none where it is one file): checked to
/// be what its name says.
fn found(
    given: &Path,
    file: &Path,
    language: Language,
    files: Vec<PathBuf>,
) -> Result<Submission, Error> {
    let absolute = |f: &Path| std::path::absolute(f).unwrap_or_else(|_| f.to_path_buf());
    let file = absolute(file);
    if language != Language::Executable {
        check_text(&file, language)?;
    }
    let mut files: Vec<PathBuf> = files.iter().map(|f| absolute(f)).collect();
    if !files.contains(&file) {
        files.push(file.clone());
        files.sort();
    }
    Ok(Submission {
        id: stem(given),
        file,
        language,
        files,
    })
}

/// Refuses a "source" that holds binary data (a compiled program named
/// `.c`): the compiler would only pour out pages of garbage about it.
fn check_text(file: &Path, language: Language) -> Result<(), Error> {
    let (handle, _) = untrusted::open(file, PROGRAM_LIMIT).map_err(Error::Refused)?;
    let mut start = Vec::new();
    handle
        .take(SNIFF)
        .read_to_end(&mut start)
        .map_err(|source| Error::Unreadable {
            path: file.to_path_buf(),
            source,
        })?;
    if start.contains(&0) {
        return Err(Error::Binary {
            path: file.to_path_buf(),
            language,
        });
    }
    Ok(())
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "submission".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn files_and_folders_are_located() {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("lab6.c");
        fs::write(&c, "int main(){}").unwrap();
        let found = locate(&c).unwrap();
        assert_eq!((found.id.as_str(), found.language), ("lab6", Language::C));
        // A folder with one program (and other files) is that program.
        let one = dir.path().join("alice");
        fs::create_dir(&one).unwrap();
        fs::write(one.join("game.py"), "print(1)").unwrap();
        fs::write(one.join("README.md"), "hi").unwrap();
        let found = locate(&one).unwrap();
        assert_eq!(
            (found.id.as_str(), found.language),
            ("alice", Language::Python)
        );
        // Several programs: refused, naming them.
        fs::write(one.join("other.c"), "").unwrap();
        let err = locate(&one).unwrap_err().to_string();
        assert!(err.contains("game.py") && err.contains("other.c"), "{err}");
        // Nothing there, or not a program.
        assert!(locate(&dir.path().join("missing.c"))
            .unwrap_err()
            .to_string()
            .contains("no such"));
        let txt = dir.path().join("notes.txt");
        fs::write(&txt, "").unwrap();
        assert!(locate(&txt)
            .unwrap_err()
            .to_string()
            .contains("not a program"));
    }

    #[test]
    fn a_folder_of_several_sources_is_one_program_started_from_its_main() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("alice");
        fs::create_dir(&folder).unwrap();
        fs::write(
            folder.join("main.c"),
            "#include \"stats.h\"\nint main(void) { return f(); }\n",
        )
        .unwrap();
        fs::write(folder.join("stats.c"), "int f(void) { return 0; }\n").unwrap();
        // A header with the executable bit (an upload from Windows) is a
        // header, not a second program.
        executable(&folder.join("stats.h"), b"int f(void);\n");
        let found = locate(&folder).unwrap();
        assert_eq!((found.id.as_str(), found.language), ("alice", Language::C));
        assert!(found.file.ends_with("main.c"), "{found:?}");
        let names: Vec<String> = several::names(&found.files);
        assert_eq!(names, ["main.c", "stats.c", "stats.h"]);
        // The suite's own file is the course's: the student's copy is left
        // out, and a file it asks for must be there.
        let layout = Layout {
            main: None,
            hand_in: vec!["stats.c".into()],
            given: vec!["main.c".into()],
        };
        let found = locate_in(&folder, &layout).unwrap();
        assert!(found.file.ends_with("stats.c"), "{found:?}");
        assert_eq!(several::names(&found.files), ["stats.c", "stats.h"]);
        let asks = Layout {
            hand_in: vec!["dictionary.c".into()],
            ..Layout::default()
        };
        let err = locate_in(&folder, &asks).unwrap_err().to_string();
        assert!(err.contains("dictionary.c is missing"), "{err}");
        // Two mains, whichever the suite names.
        fs::write(folder.join("test.c"), "int main(void) { return 1; }\n").unwrap();
        let err = locate(&folder).unwrap_err().to_string();
        assert!(err.contains("main.c and test.c each define main"), "{err}");
        let named = Layout {
            main: Some("main.c".into()),
            ..Layout::default()
        };
        let err = locate_in(&folder, &named).unwrap_err().to_string();
        assert!(err.contains("starts in main.c"), "{err}");
    }

    #[test]
    fn an_empty_folder_is_said_to_be_empty() {
        let dir = tempfile::tempdir().unwrap();
        let err = locate(dir.path()).unwrap_err().to_string();
        assert!(err.contains("the folder is empty; hand in"), "{err}");
        fs::write(dir.path().join("README.md"), "hi").unwrap();
        let err = locate(dir.path()).unwrap_err().to_string();
        assert!(err.contains("no program in this folder"), "{err}");
    }

    #[test]
    fn files_given_straight_are_one_program_only_where_one_starts_it() {
        let dir = tempfile::tempdir().unwrap();
        let java = |name: &str, main: bool| {
            let body = if main {
                "public static void main(String[] a) {}"
            } else {
                "static int f() { return 1; }"
            };
            fs::write(
                dir.path().join(format!("{name}.java")),
                format!("public class {name} {{ {body} }}\n"),
            )
            .unwrap();
        };
        java("Main", true);
        java("Stats", false);
        assert!(is_one_program(&list(dir.path()).unwrap()));
        java("Stats", true);
        assert!(!is_one_program(&list(dir.path()).unwrap()));
        // A class of Python scripts that import nothing of each other.
        let py = tempfile::tempdir().unwrap();
        fs::write(py.path().join("alice.py"), "print(1)\n").unwrap();
        fs::write(py.path().join("bob.py"), "import sys\nprint(2)\n").unwrap();
        assert!(!is_one_program(&list(py.path()).unwrap()));
        fs::write(py.path().join("bob.py"), "import alice\n").unwrap();
        assert!(is_one_program(&list(py.path()).unwrap()));
        // C files without a header beside them stay a class.
        let c = tempfile::tempdir().unwrap();
        fs::write(c.path().join("alice.c"), "int main(void) { return 0; }\n").unwrap();
        fs::write(c.path().join("bob.c"), "int mian(void) { return 0; }\n").unwrap();
        assert!(!is_one_program(&list(c.path()).unwrap()));
    }

    fn executable(path: &Path, bytes: &[u8]) {
        fs::write(path, bytes).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_source_wins_over_its_compiled_binary() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("lab6.c"), "int main(){}").unwrap();
        executable(&dir.path().join("lab6"), b"\x7fELF\0\0binary");
        let found = locate(dir.path()).unwrap();
        assert_eq!(found.language, Language::C);
        assert!(found.file.ends_with("lab6.c"));
        // Another binary beside it is a second program.
        executable(&dir.path().join("a.out"), b"\x7fELF\0\0binary");
        assert!(locate(dir.path())
            .unwrap_err()
            .to_string()
            .contains("2 programs"));
    }

    #[test]
    fn cpp_sources_are_programs_and_an_upper_case_c_is_refused_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["lab6.cpp", "lab6.cc", "lab6.cxx", "lab6.c++"] {
            let cpp = dir.path().join(name);
            fs::write(&cpp, "int main(){}").unwrap();
            assert_eq!(locate(&cpp).unwrap().language, Language::Cpp, "{name}");
            fs::remove_file(&cpp).unwrap();
        }
        fs::write(dir.path().join("lab6.cpp"), "int main(){}").unwrap();
        assert_eq!(locate(dir.path()).unwrap().language, Language::Cpp);
        fs::write(dir.path().join("lab6.c"), "int main(){}").unwrap();
        let err = locate(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("2 programs") && err.contains("lab6.cpp"),
            "{err}"
        );
        let upper = dir.path().join("PROG3.C");
        fs::write(&upper, "int main(){}").unwrap();
        let err = locate(&upper).unwrap_err().to_string();
        assert!(err.contains("rename it to end in .c"), "{err}");
        let alone = dir.path().join("alone");
        fs::create_dir(&alone).unwrap();
        fs::rename(&upper, alone.join("PROG3.C")).unwrap();
        let err = locate(&alone).unwrap_err().to_string();
        assert!(err.contains("PROG3.C ends in .C"), "{err}");
    }

    #[test]
    fn binaries_named_as_sources_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["binary.c", "binary.cpp"] {
            let binary = dir.path().join(name);
            fs::write(&binary, b"\x7fELF\x02\x01\x01\0\0\0").unwrap();
            let err = locate(&binary).unwrap_err().to_string();
            assert!(err.contains("binary data"), "{err}");
        }
        let err = locate(&dir.path().join("binary.cpp"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("is not C++ source"), "{err}");
    }

    #[test]
    fn links_and_special_files_are_refused_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("secret.yaml");
        fs::write(&secret, "CANARY").unwrap();
        let link = dir.path().join("bob.c");
        symlink(&secret, &link).unwrap();
        let err = locate(&link).unwrap_err().to_string();
        assert!(
            err.contains("symbolic link") && !err.contains("CANARY"),
            "{err}"
        );
        let folder = dir.path().join("mallory");
        fs::create_dir(&folder).unwrap();
        fs::write(folder.join("lab6.c"), "int main(){}").unwrap();
        symlink("/dev/zero", folder.join("notes.txt")).unwrap();
        let err = locate(&folder).unwrap_err().to_string();
        assert!(err.contains("notes.txt is a symbolic link"), "{err}");
        let listing = list(&folder).unwrap();
        assert_eq!(listing.programs.len(), 1);
        assert_eq!(listing.special.len(), 1);
        assert!(!listing.special[0].2, "notes.txt cannot be a program");
    }
}
