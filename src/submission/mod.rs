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
mod shared;
mod start;

pub use build::{build, build_lazily, find_on_path, sandbox, BuildError, Built, COMPILER_MEMORY};
pub use error::Error;
pub use flags::Flags;
pub use languages::Language;
pub use program::Submission;
pub use shared::SharedBuilds;
pub use start::{execute, execute_checked, provide, StartError, Support, SUPPORT_LIMIT};

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
    let mut listing = Listing::default();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
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
                None => {}
            }
        }
    }
    listing.programs.sort();
    listing.unusable.sort_by(|a, b| a.0.cmp(&b.0));
    listing.special.sort();
    listing.folders.sort();
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
/// exactly one and nothing referee would have to refuse to open.
pub fn locate(path: &Path) -> Result<Submission, Error> {
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
        return found(path, path, language);
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
    let (programs, mut unusable) = (listing.programs, listing.unusable);
    if programs.len() > 1
        && unusable.is_empty()
        && programs.iter().all(|(_, l)| *l == Language::Java)
    {
        // Several classes in files of their own: one program.
        for (file, _) in &programs {
            check_text(file, Language::Java)?;
        }
        return Ok(Submission {
            id: stem(path),
            file: std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
            language: Language::Java,
        });
    }
    match (&programs[..], &unusable[..]) {
        ([(file, language)], []) => found(path, file, *language),
        ([], []) => Err(Error::NoProgram(path.to_path_buf())),
        ([], [_]) => Err(unusable.remove(0).1),
        (programs, unusable) => {
            let names: Vec<String> = programs
                .iter()
                .map(|(f, _)| f)
                .chain(unusable.iter().map(|(f, _)| f))
                .map(|f| {
                    f.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            Err(Error::Several {
                path: path.to_path_buf(),
                names,
            })
        }
    }
}

/// The submission `given` (a file or folder), whose program is `file`:
/// checked to be what its name says.
fn found(given: &Path, file: &Path, language: Language) -> Result<Submission, Error> {
    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    if language != Language::Executable {
        check_text(&absolute, language)?;
    }
    Ok(Submission {
        id: stem(given),
        file: absolute,
        language,
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
