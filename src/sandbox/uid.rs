//! As root, each slot's programs run as a user of their own (as isolate's
//! boxes do): an unprivileged uid and gid nobody else uses, so file
//! permissions and `RLIMIT_NPROC` hold between slots even on a machine
//! without control groups, and nothing a program does runs as root.
//!
//! A uid is leased with a lock file, so two referee processes on one
//! machine (two TAs, or a test suite running several at once) never give
//! one uid to two slots; uids that `/etc/passwd` names, or that referee's
//! user namespace does not map, are skipped.

use std::fs::{self, File};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The first uid tried (isolate uses the same neighbourhood).
pub const FIRST: u32 = 60_000;
/// How many are tried.
const COUNT: u32 = 2_000;

/// A uid (and gid of the same number) held for one slot.
#[derive(Debug)]
pub struct Lease {
    /// The uid and gid.
    pub id: u32,
    /// Held locked while the lease lasts.
    _lock: File,
}

/// Leases a free uid.
pub fn lease() -> io::Result<Lease> {
    let dir = lock_folder()?;
    let taken = named_in_passwd();
    let mapped = mapped_ranges();
    for id in FIRST..FIRST + COUNT {
        if taken.contains(&id)
            || !mapped
                .iter()
                .any(|&(start, len)| id >= start && id - start < len)
        {
            continue;
        }
        let lock = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(dir.join(format!("{id}.lock")))?;
        // SAFETY: flock on a descriptor of ours.
        if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(Lease { id, _lock: lock });
        }
    }
    Err(io::Error::other(format!(
        "no free uid between {FIRST} and {}",
        FIRST + COUNT
    )))
}

/// Where the locks are: a folder only root can write, never one a user
/// could have put (or linked) there first.
fn lock_folder() -> io::Result<PathBuf> {
    let parent = if Path::new("/run").is_dir() {
        PathBuf::from("/run")
    } else {
        std::env::temp_dir()
    };
    let dir = parent.join("referee-uids");
    match fs::create_dir(&dir) {
        Ok(()) => fs::set_permissions(&dir, fs::Permissions::from_mode(0o700))?,
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = fs::symlink_metadata(&dir)?;
    if !meta.is_dir() || meta.uid() != 0 || meta.mode() & 0o022 != 0 {
        return Err(io::Error::other(format!(
            "{} is not a folder only root may write: remove it",
            dir.display()
        )));
    }
    Ok(dir)
}

/// The uids `/etc/passwd` gives to someone.
fn named_in_passwd() -> Vec<u32> {
    fs::read_to_string("/etc/passwd")
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split(':').nth(2)?.parse().ok())
        .collect()
}

/// The uid ranges referee's user namespace maps (`start`, `length`).
fn mapped_ranges() -> Vec<(u32, u32)> {
    parse_map(&fs::read_to_string("/proc/self/uid_map").unwrap_or_default())
}

/// Reads a `uid_map`: `inside outside length` per line.
pub fn parse_map(text: &str) -> Vec<(u32, u32)> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            let start = parts.next()?.parse().ok()?;
            let _outside: u32 = parts.next()?.parse().ok()?;
            let len = parts.next()?.parse().ok()?;
            Some((start, len))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_are_read() {
        assert_eq!(
            parse_map("         0          0 4294967295\n"),
            [(0, 4294967295)]
        );
        assert_eq!(
            parse_map("0 1000 1\n1 100000 65536\n"),
            [(0, 1), (1, 65536)]
        );
    }

    #[test]
    fn two_leases_never_share_a_uid() {
        // SAFETY: reading the effective uid.
        if unsafe { libc::geteuid() } != 0 {
            // Leases are for root; an ordinary user cannot switch uid.
            assert!(lock_folder().is_err() || lease().is_ok());
            return;
        }
        let a = lease().unwrap();
        let b = lease().unwrap();
        assert_ne!(a.id, b.id);
        let freed = a.id;
        drop(a);
        let c = lease().unwrap();
        assert!(c.id <= freed || c.id != b.id);
    }
}
