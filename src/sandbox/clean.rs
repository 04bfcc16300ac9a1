//! Emptying a folder a program wrote in, whatever it left there: links
//! are removed, never followed; folders it made unreadable are opened
//! again; and folders nested as deep as its disk allows are removed
//! without a path or a descriptor per level (which would run past
//! `PATH_MAX`, the descriptor limit, or a thread's stack).
//!
//! Each pass over the folder removes its files and links, and for each
//! folder in it moves that folder's own folders up into the top and
//! removes it: the tree gets shallower by one level per pass, with two
//! descriptors open at a time.

use std::ffi::{CStr, CString, OsStr};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use nix::dir::Dir;
use nix::errno::Errno;
use nix::fcntl::{openat, renameat2, OFlag, RenameFlags};
use nix::sys::stat::{fchmodat, fstatat, FchmodatFlags, Mode, SFlag};
use nix::unistd::{unlinkat, UnlinkatFlags};

/// More passes than any tree on a slot's disk needs (its inodes are
/// capped): a guard against a bug, not a limit a program can reach.
const MOST_PASSES: usize = 1 << 20;

/// Removes everything in `dir`, which must be a folder (not a link to
/// one), leaving `dir` itself.
pub fn empty(dir: &Path) -> io::Result<()> {
    let top = open_folder(None, dir.as_os_str())?;
    let mut fresh = 0u64;
    for _ in 0..MOST_PASSES {
        let names = names(&top)?;
        if names.is_empty() {
            return Ok(());
        }
        for name in names {
            match kind(&top, &name)? {
                Some(SFlag::S_IFDIR) => flatten_one(&top, &name, &mut fresh)?,
                Some(_) => gone_ok(unlinkat(&top, name.as_c_str(), UnlinkatFlags::NoRemoveDir))?,
                None => {}
            }
        }
    }
    Err(io::Error::other(format!(
        "{} could not be emptied",
        dir.display()
    )))
}

/// Empties the folder `name` in `top` one level (its files removed, its
/// folders moved up into `top`) and removes it.
fn flatten_one(top: &OwnedFd, name: &CStr, fresh: &mut u64) -> io::Result<()> {
    // A folder the program made unreadable (it is a folder: no link is
    // followed, and nothing of the program still runs to swap it).
    let _ = fchmodat(top, name, Mode::S_IRWXU, FchmodatFlags::FollowSymlink);
    let folder = open_folder(Some(top), OsStr::from_bytes(name.to_bytes()))?;
    for child in names(&folder)? {
        match kind(&folder, &child)? {
            Some(SFlag::S_IFDIR) => move_up(&folder, &child, top, fresh)?,
            Some(_) => gone_ok(unlinkat(
                &folder,
                child.as_c_str(),
                UnlinkatFlags::NoRemoveDir,
            ))?,
            None => {}
        }
    }
    gone_ok(unlinkat(top, name, UnlinkatFlags::RemoveDir))
}

/// Moves the folder `name` of `from` into `top` under a name not taken.
fn move_up(from: &OwnedFd, name: &CStr, top: &OwnedFd, fresh: &mut u64) -> io::Result<()> {
    loop {
        *fresh += 1;
        let to = CString::new(format!(".referee-{}", *fresh)).map_err(io::Error::other)?;
        match renameat2(
            from,
            name,
            top,
            to.as_c_str(),
            RenameFlags::RENAME_NOREPLACE,
        ) {
            Ok(()) => return Ok(()),
            Err(Errno::EEXIST) => continue,
            Err(Errno::ENOENT) => return Ok(()),
            Err(e) => return Err(e.into()),
        }
    }
}

fn open_folder(at: Option<&OwnedFd>, name: &OsStr) -> io::Result<OwnedFd> {
    let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    let fd = match at {
        Some(dir) => openat(dir, name, flags, Mode::empty())?,
        None => nix::fcntl::open(name, flags, Mode::empty())?,
    };
    Ok(fd)
}

/// The names in a folder, `.` and `..` aside.
fn names(folder: &OwnedFd) -> io::Result<Vec<CString>> {
    let again = openat(
        folder,
        c".",
        OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
        Mode::empty(),
    )?;
    let mut dir = Dir::from_fd(again)?;
    let mut names = Vec::new();
    for entry in dir.iter() {
        let entry = entry?;
        let name = entry.file_name();
        if name.to_bytes() != b"." && name.to_bytes() != b".." {
            names.push(name.to_owned());
        }
    }
    Ok(names)
}

/// What `name` in `folder` is (never following a link); `None` if it is
/// gone.
fn kind(folder: &OwnedFd, name: &CStr) -> io::Result<Option<SFlag>> {
    match fstatat(folder, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW) {
        Ok(stat) => Ok(Some(SFlag::from_bits_truncate(
            stat.st_mode & SFlag::S_IFMT.bits(),
        ))),
        Err(Errno::ENOENT) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// A removal of something already gone is fine.
fn gone_ok(result: nix::Result<()>) -> io::Result<()> {
    match result {
        Ok(()) | Err(Errno::ENOENT) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::{symlink, PermissionsExt};

    #[test]
    fn deep_locked_and_linked_trees_are_emptied_and_nothing_outside_touched() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let outside = dir.path().join("outside");
        fs::create_dir_all(&outside).unwrap();
        fs::write(outside.join("keep.txt"), "keep").unwrap();
        fs::create_dir(&work).unwrap();
        // Deeper than PATH_MAX allows naming in one path.
        let mut fd = open_folder(None, work.as_os_str()).unwrap();
        for _ in 0..3000 {
            nix::sys::stat::mkdirat(&fd, c"deep", Mode::S_IRWXU).unwrap();
            fd = open_folder(Some(&fd), OsStr::new("deep")).unwrap();
        }
        fs::write(work.join("deep/file"), "x").unwrap();
        symlink(&outside, work.join("link-to-outside")).unwrap();
        fs::create_dir(work.join("locked")).unwrap();
        fs::write(work.join("locked/inside"), "x").unwrap();
        fs::set_permissions(work.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
        empty(&work).unwrap();
        assert_eq!(fs::read_dir(&work).unwrap().count(), 0);
        assert_eq!(
            fs::read_to_string(outside.join("keep.txt")).unwrap(),
            "keep"
        );
        // A link in place of the folder itself is refused, not followed.
        let linked = dir.path().join("linked");
        symlink(&outside, &linked).unwrap();
        assert!(empty(&linked).is_err());
        assert!(outside.join("keep.txt").exists());
    }
}
