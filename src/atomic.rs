//! Writing a file so that a reader sees the old contents or the new,
//! never a part of them, whatever happens while it is written (a full
//! disk, an interrupt, a crash).
//!
//! [`write`] flushes each file to disk before it replaces the old one.
//! Flushing costs a wait on the disk (a tenth of a millisecond or more a
//! file), so the files written by the thousand while a class is graded
//! (each student's details) are [`replace`]d unflushed instead, and their
//! folder's filesystem is flushed once, by [`flush_filesystem`], before
//! anything that depends on them (the report set's stamp) is published.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

/// Writes `contents` to `path` through a temporary file beside it, flushed
/// to disk, then renamed over `path`.
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    put(path, contents, true)
}

/// Writes `contents` to `path` through a temporary file beside it renamed
/// over `path`, not flushed: a reader sees the old contents or the new
/// whole, and after a crash of the machine before the next
/// [`flush_filesystem`] the file may be empty or missing. For files a
/// crash may cost (a cache: each student's details are read back only
/// when their fingerprint still matches and they parse).
pub fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    put(path, contents, false)
}

/// Flushes to disk everything written to the filesystem that holds `dir`
/// (one `syncfs`), and reports any write to it that failed since `dir`
/// was opened here: in one wait on the disk, what flushing each file
/// written would have made sure of.
pub fn flush_filesystem(dir: &Path) -> io::Result<()> {
    let dir = fs::File::open(dir)?;
    nix::unistd::syncfs(&dir).map_err(io::Error::from)
}

fn put(path: &Path, contents: &[u8], flush: bool) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut file = tempfile::Builder::new()
        .prefix(".referee-")
        .tempfile_in(dir)?;
    file.write_all(contents)?;
    if flush {
        file.as_file().sync_all()?;
    }
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.json");
        write(&path, b"old").unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left behind");
    }

    #[test]
    fn a_file_replaced_unflushed_is_whole_and_flushed_with_its_filesystem() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("details").join("s1.json");
        replace(&path, b"old").unwrap();
        replace(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        flush_filesystem(dir.path()).unwrap();
        let names: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left behind");
        assert!(flush_filesystem(&dir.path().join("gone")).is_err());
    }
}
