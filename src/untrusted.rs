//! Reading files that students control: a submission, a file in a
//! student's folder, a file a program left in its working folder.
//!
//! Such a file may be a symbolic link to a hidden case or `/etc/shadow`,
//! a FIFO that blocks whoever opens it, a device such as `/dev/zero` that
//! never ends, or simply far too large. Referee itself runs outside the
//! sandbox, so it never follows a link there and never opens anything
//! but a regular file: every read goes through [`open`] or [`read`], which
//! refuse the rest with a [`Refusal`] that says what the file is and what
//! to do, and read at most a given number of bytes.
//!
//! Only the last component of a path is checked here: callers build paths
//! from folders they have looked at themselves (see `class::discover`).

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The most a submission's program file may hold: far more than any
/// handout's program (a few kilobytes of source, tens of a compiled one).
pub const PROGRAM_LIMIT: u64 = 16 << 20;

/// Why a student's file was not read.
#[derive(Debug)]
pub enum Refusal {
    /// It is not there.
    Missing(PathBuf),
    /// It is a symbolic link, which referee does not follow.
    Link(PathBuf),
    /// It is something other than a regular file (a FIFO, a device, a
    /// socket, a folder): what it is, in words.
    NotRegular(PathBuf, &'static str),
    /// It holds more than the limit.
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
        /// The most accepted.
        limit: u64,
    },
    /// It could not be read.
    Io(PathBuf, io::Error),
}

impl Refusal {
    /// The file refused.
    pub fn path(&self) -> &Path {
        match self {
            Refusal::Missing(p)
            | Refusal::Link(p)
            | Refusal::NotRegular(p, _)
            | Refusal::TooLarge { path: p, .. }
            | Refusal::Io(p, _) => p,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Missing(p) => write!(f, "{}: no such file", p.display()),
            Refusal::Link(p) => write!(
                f,
                "{} is a symbolic link; referee does not follow links in submissions \
                 (replace it with the file itself)",
                p.display()
            ),
            Refusal::NotRegular(p, what) => write!(
                f,
                "{} is {what}, not a regular file; referee reads only regular files",
                p.display()
            ),
            Refusal::TooLarge { path, size, limit } => write!(
                f,
                "{} holds {} bytes, more than the {} referee accepts",
                path.display(),
                size,
                limit
            ),
            Refusal::Io(p, e) => write!(f, "{}: cannot read it: {e}", p.display()),
        }
    }
}

impl std::error::Error for Refusal {}

/// What a file is, in words, from its metadata taken without following
/// links (`symlink_metadata`).
pub fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a regular file"
    }
}

/// Opens `path` for reading if, and only if, it is a regular file (not a
/// link to one) of at most `limit` bytes. Never blocks: a FIFO is opened
/// without waiting for a writer, then refused.
pub fn open(path: &Path, limit: u64) -> Result<(File, u64), Refusal> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| match (e.kind(), e.raw_os_error()) {
            (io::ErrorKind::NotFound, _) => Refusal::Missing(path.to_path_buf()),
            (_, Some(libc::ELOOP)) => Refusal::Link(path.to_path_buf()),
            _ => Refusal::Io(path.to_path_buf(), e),
        })?;
    let meta = file
        .metadata()
        .map_err(|e| Refusal::Io(path.to_path_buf(), e))?;
    if !meta.file_type().is_file() {
        return Err(Refusal::NotRegular(path.to_path_buf(), kind(&meta)));
    }
    if meta.len() > limit {
        return Err(Refusal::TooLarge {
            path: path.to_path_buf(),
            size: meta.len(),
            limit,
        });
    }
    Ok((file, meta.len()))
}

/// The contents of `path`, under the rules of [`open`]. A file that grows
/// past `limit` while it is read is refused too.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    let (file, size) = open(path, limit)?;
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Refusal::Io(path.to_path_buf(), e))?;
    if bytes.len() as u64 > limit {
        return Err(Refusal::TooLarge {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// The first `limit` bytes of `path`, under the rules of [`open`] but
/// for its size, and whether it held more: for a file whose start is
/// worth reading however large it grew (a sanitizer's report, a
/// program's source shown line by line).
pub fn read_start(path: &Path, limit: u64) -> Result<(Vec<u8>, bool), Refusal> {
    let (file, size) = open(path, u64::MAX)?;
    let mut bytes = Vec::with_capacity(size.min(limit) as usize);
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| Refusal::Io(path.to_path_buf(), e))?;
    let cut = size > bytes.len() as u64;
    Ok((bytes, cut))
}

/// Copies the regular file `from` to `to` (created new, never through a
/// link), under the rules of [`open`]; the permissions are `mode`.
pub fn copy(from: &Path, to: &Path, limit: u64, mode: u32) -> Result<u64, Refusal> {
    let (file, _) = open(from, limit)?;
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW)
        .open(to)
        .map_err(|e| Refusal::Io(to.to_path_buf(), e))?;
    let copied = io::copy(&mut file.take(limit.saturating_add(1)), &mut out)
        .map_err(|e| Refusal::Io(to.to_path_buf(), e))?;
    if copied > limit {
        return Err(Refusal::TooLarge {
            path: from.to_path_buf(),
            size: copied,
            limit,
        });
    }
    Ok(copied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn regular_files_are_read_and_everything_else_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("lab6.c");
        std::fs::write(&file, "int main(){}").unwrap();
        assert_eq!(read(&file, 100).unwrap(), b"int main(){}");

        let link = dir.path().join("bob.c");
        symlink(&file, &link).unwrap();
        assert!(matches!(read(&link, 100), Err(Refusal::Link(_))));
        let zero = dir.path().join("zero.c");
        symlink("/dev/zero", &zero).unwrap();
        assert!(matches!(read(&zero, 100), Err(Refusal::Link(_))));

        let fifo = dir.path().join("fifo.c");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo with a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let refused = read(&fifo, 100).unwrap_err();
        assert!(matches!(
            refused,
            Refusal::NotRegular(_, "a FIFO (named pipe)")
        ));
        assert!(refused.to_string().contains("FIFO"), "{refused}");

        assert!(matches!(
            read(dir.path(), 100),
            Err(Refusal::NotRegular(_, "a folder"))
        ));
        assert!(matches!(
            read(&file, 3),
            Err(Refusal::TooLarge { size: 12, .. })
        ));
        assert!(matches!(
            read(&dir.path().join("none"), 3),
            Err(Refusal::Missing(_))
        ));
    }

    #[test]
    fn copies_never_write_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("a.c");
        std::fs::write(&from, "x").unwrap();
        let target = dir.path().join("target");
        std::fs::write(&target, "keep").unwrap();
        let to = dir.path().join("b.c");
        symlink(&target, &to).unwrap();
        assert!(copy(&from, &to, 10, 0o644).is_err());
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        let fresh = dir.path().join("c.c");
        assert_eq!(copy(&from, &fresh, 10, 0o644).unwrap(), 1);
        assert_eq!(std::fs::read(&fresh).unwrap(), b"x");
    }
}
