//! Reading a submission's sources, as a student left them: never through
//! a link, never more than [`FILE_LIMIT`] bytes of a file, never a
//! compiled program; what was cut or could not be read said in words.

use std::fs;
use std::path::Path;

use super::tokens::Language;
use crate::fault::Fault;
use crate::untrusted;

/// Why a submission, or one of its files, cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A symbolic link.
    #[error("{0} is a symbolic link, which referee does not follow")]
    Link(String),
    /// A FIFO, a device, a socket: what it is.
    #[error("{0} is {1}, not a file")]
    NotRegular(String, &'static str),
    /// Another refusal of [`untrusted::read_start`], in its words.
    #[error("{0}")]
    Refused(String),
    /// Not text.
    #[error("{0} is a compiled program or other binary file, not source text: nothing to compare")]
    Binary(String),
    /// A student's folder without a source file.
    #[error("the folder holds no source file (.c, .cpp, .h, .java, .py)")]
    NoSource,
    /// The folder or file could not be read.
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// Nothing was left to compare, for the reasons noted.
    #[error("{}", if .0.is_empty() { "nothing to compare".to_string() } else { .0.join("; ") })]
    Nothing(Vec<String>),
}

impl Error {
    /// Whose fault it is: the student's, who submitted it.
    pub fn fault(&self) -> Fault {
        Fault::Student
    }
}

/// The most of one file that is compared: about 30,000 lines, a hundred
/// times a first-year program. A larger file is compared on its start,
/// and the report says so.
pub const FILE_LIMIT: u64 = 1 << 20;

/// The most source files of one student's folder that are compared.
pub const FILES_LIMIT: usize = 64;

/// One source file of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Its name in the reports: the file's name, or its path in the
    /// student's folder.
    pub name: String,
    /// How it is read.
    pub language: Language,
    /// Its text (cut to [`FILE_LIMIT`]).
    pub text: String,
}

/// A submission's sources and what was noted reading them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sources {
    /// The files, in name order.
    pub files: Vec<Source>,
    /// What the TA should know: a file cut short, bytes that are not
    /// UTF-8, files left out.
    pub notes: Vec<String>,
}

/// The sources of the submission at `path` (a file, or a student's
/// folder); why there are none to compare.
pub fn read(path: &Path) -> Result<Sources, Error> {
    let meta = fs::symlink_metadata(path)?;
    let mut sources = Sources::default();
    if meta.is_dir() {
        read_folder(path, &mut sources)?;
    } else {
        let name = file_name(path);
        if let Some(source) = read_file(path, name, &mut sources.notes)? {
            sources.files.push(source);
        }
    }
    if sources.files.is_empty() {
        return Err(Error::Nothing(sources.notes));
    }
    Ok(sources)
}

/// Whether referee's language table (a suite's own languages included)
/// takes `path` for a program's source.
fn is_program(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .and_then(crate::submission::languages::of_extension)
        .is_some()
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// A student's folder: its source files (not its subfolders, as `grade`
/// compiles them), in name order. A source of a language a suite adds
/// (`languages:`) is one too, compared as text.
fn read_folder(dir: &Path, sources: &mut Sources) -> Result<(), Error> {
    let mut paths: Vec<_> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| !file_name(p).starts_with('.'))
        .filter(|p| Language::of(p) != Language::Text || is_program(p))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(Error::NoSource);
    }
    if paths.len() > FILES_LIMIT {
        sources.notes.push(format!(
            "the folder holds {} source files; the first {FILES_LIMIT} were compared",
            paths.len()
        ));
        paths.truncate(FILES_LIMIT);
    }
    for path in paths {
        let name = file_name(&path);
        match read_file(&path, name.clone(), &mut sources.notes) {
            Ok(Some(source)) => sources.files.push(source),
            Ok(None) => {}
            Err(why) => sources.notes.push(why.to_string()),
        }
    }
    Ok(())
}

/// One file: `None` when it is empty (noted), an error when it cannot
/// be compared at all.
fn read_file(path: &Path, name: String, notes: &mut Vec<String>) -> Result<Option<Source>, Error> {
    let (bytes, cut) = untrusted::read_start(path, FILE_LIMIT).map_err(|r| refusal(&r))?;
    if is_binary(&bytes) {
        return Err(Error::Binary(name));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        notes.push(format!("{name} is empty"));
        return Ok(None);
    }
    if cut {
        notes.push(format!(
            "{name} is larger than {} MiB: only its first {} MiB were compared",
            FILE_LIMIT >> 20,
            FILE_LIMIT >> 20
        ));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            notes.push(format!(
                "{name} is not UTF-8 text: the bytes that are not were read as \u{FFFD}"
            ));
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    };
    Ok(Some(Source {
        language: Language::of(path),
        name,
        text,
    }))
}

/// Why a file was refused, without its folder (reports name the
/// student).
fn refusal(refusal: &untrusted::Refusal) -> Error {
    let name = file_name(refusal.path());
    match refusal {
        untrusted::Refusal::Link(_) => Error::Link(name),
        untrusted::Refusal::NotRegular(_, what) => Error::NotRegular(name, what),
        other => Error::Refused(other.to_string()),
    }
}

/// Whether `bytes` are not text: an executable's header, or a NUL byte
/// in its first 8 KiB (no source file holds one).
fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF") || bytes.iter().take(8192).any(|&b| b == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_are_refused_or_noted_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        fs::write(p("bin.c"), b"\x7fELF\x02\x01\x00\x00").unwrap();
        fs::write(p("empty.c"), b"").unwrap();
        fs::write(p("latin.c"), b"int main() { /* caf\xe9 */ }").unwrap();
        std::os::unix::fs::symlink(p("latin.c"), p("link.c")).unwrap();
        let why = |n: &str| read(&p(n)).unwrap_err().to_string();
        assert!(why("bin.c").contains("binary"));
        assert_eq!(why("empty.c"), "empty.c is empty");
        assert!(why("link.c").contains("symbolic link"));
        assert_eq!(read(&p("link.c")).unwrap_err().fault(), Fault::Student);
        let latin = read(&p("latin.c")).unwrap();
        assert!(latin.notes[0].contains("not UTF-8"), "{:?}", latin.notes);
        assert!(latin.files[0].text.contains("caf\u{FFFD}"));
    }
}
