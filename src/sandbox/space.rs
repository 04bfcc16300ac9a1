//! Referee's own private mount namespace, where each slot's working
//! folders live on a size-limited tmpfs: what a program writes is capped
//! in total, not just per file, and vanishes with referee.
//!
//! Entered once, at the start of `check` and `grade`, before any thread
//! exists: as root, a new mount namespace; as an ordinary user, a user
//! namespace (keeping the same uid) with a mount namespace inside it. The
//! user namespace also gives the per-run process limit a count of its
//! own. Where neither is possible, working folders are plain folders in
//! the system's temporary folder.

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::Path;

/// How referee's process was isolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// Not at all (not asked, or not possible here).
    None,
    /// A private mount namespace (root).
    Mounts,
    /// A user namespace and a private mount namespace (ordinary user).
    UserAndMounts,
}

/// Enters a private mount namespace (and, for an ordinary user, a user
/// namespace). Must run while the process has a single thread.
pub fn isolate(root: bool) -> Isolation {
    let result = if root {
        mounts_only()
    } else {
        user_and_mounts()
    };
    match result {
        Ok(isolation) => isolation,
        Err(_) => Isolation::None,
    }
}

fn mounts_only() -> io::Result<Isolation> {
    // SAFETY: unshare affects only this (single-threaded) process.
    if unsafe { libc::unshare(libc::CLONE_NEWNS) } < 0 {
        return Err(io::Error::last_os_error());
    }
    make_private()?;
    Ok(Isolation::Mounts)
}

fn user_and_mounts() -> io::Result<Isolation> {
    // SAFETY: reading ids.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    // SAFETY: unshare affects only this (single-threaded) process.
    if unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // Keep the same uid and gid inside, so everything referee starts runs
    // as the user, as before.
    fs::write("/proc/self/setgroups", "deny")?;
    fs::write("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
    fs::write("/proc/self/gid_map", format!("{gid} {gid} 1"))?;
    make_private()?;
    Ok(Isolation::UserAndMounts)
}

/// Mounts made from now on stay in this namespace.
fn make_private() -> io::Result<()> {
    let root = CString::new("/").map_err(io::Error::other)?;
    // SAFETY: a mount system call with valid strings.
    let rc = unsafe {
        libc::mount(
            std::ptr::null(),
            root.as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        )
    };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Mounts a tmpfs of `bytes` at `dir`, private to referee's namespace,
/// its root folder with permissions `mode`.
pub fn mount_tmpfs(dir: &Path, bytes: u64, mode: u32) -> io::Result<()> {
    let target = CString::new(dir.as_os_str().as_encoded_bytes()).map_err(io::Error::other)?;
    let fstype = CString::new("tmpfs").map_err(io::Error::other)?;
    let options = CString::new(format!("size={bytes},nr_inodes=16384,mode={mode:o}"))
        .map_err(io::Error::other)?;
    // SAFETY: a mount system call with valid strings.
    let rc = unsafe {
        libc::mount(
            fstype.as_ptr(),
            target.as_ptr(),
            fstype.as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            options.as_ptr().cast(),
        )
    };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Unmounts a slot's tmpfs (lazily: anything still using it keeps it).
pub fn unmount(dir: &Path) {
    if let Ok(target) = CString::new(dir.as_os_str().as_encoded_bytes()) {
        // SAFETY: an umount system call with a valid string.
        unsafe {
            libc::umount2(target.as_ptr(), libc::MNT_DETACH);
        }
    }
}

/// Whether something is mounted at `dir` (it is on another device than
/// its parent).
pub fn is_mounted(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let parent = dir.parent().unwrap_or(dir);
    match (fs::metadata(dir), fs::metadata(parent)) {
        (Ok(d), Ok(p)) => d.dev() != p.dev(),
        _ => false,
    }
}
