//! Files and signals: a Landlock ruleset per run, built by the runner and
//! enforced in the child just before `exec`.
//!
//! The program may read and execute the system's folders (`/usr`, `/lib`,
//! `/bin`, the loader's files of `/etc`) and its own (the build folder,
//! Python's library),
//! read and write its working folder and a few devices, and nothing else:
//! not the cases, not other submissions, not the grader's output, not the
//! user's home. It may not connect or bind TCP ports, and (Landlock ABI
//! 6) may not signal processes or reach abstract Unix sockets outside its
//! sandbox.

use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, Scope, ABI,
};

/// The newest ABI this build asks for; older kernels get what they have.
const ABI_WANTED: ABI = ABI::V6;

/// Folders and files every program may read and execute: the system's
/// programs and libraries, and the few files of `/etc` that loaders,
/// compilers and interpreters read (not all of `/etc`, which holds the
/// machine's secrets).
pub const SYSTEM: &[&str] = &[
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/bin",
    "/sbin",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/alternatives",
];

/// The Landlock ABI of the running kernel (0 without Landlock).
pub fn kernel_abi() -> i32 {
    const VERSION: u32 = 1; // LANDLOCK_CREATE_RULESET_VERSION
                            // SAFETY: asking for the version reads no memory.
    let abi = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, 0usize, 0usize, VERSION) };
    i32::try_from(abi).unwrap_or(0).max(0)
}

/// A ruleset for one run: `read` and the system folders readable and
/// executable, but for what is `hidden` in them (referee's own program,
/// say, installed under `/usr`), `write` readable and writable, and the
/// devices of [`super::rootfs::DEVICES`] (the terminal only with
/// `terminal`: a build has none).
pub fn ruleset(
    read: &[PathBuf],
    hidden: &[PathBuf],
    write: &[PathBuf],
    terminal: bool,
) -> io::Result<Option<OwnedFd>> {
    let abi = ABI_WANTED;
    let fs_read = AccessFs::from_read(abi);
    let fs_all = AccessFs::from_all(abi);
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(fs_all)
        .map_err(io::Error::other)?
        .handle_access(AccessNet::from_all(abi))
        .map_err(io::Error::other)?
        .scope(Scope::from_all(abi))
        .map_err(io::Error::other)?
        .create()
        .map_err(io::Error::other)?;
    let roots: Vec<PathBuf> = SYSTEM
        .iter()
        .map(PathBuf::from)
        .chain(read.iter().cloned())
        .collect();
    for path in without(&roots, hidden) {
        if let Ok(fd) = PathFd::new(&path) {
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, fs_read))
                .map_err(io::Error::other)?;
        }
    }
    let devices = super::rootfs::DEVICES
        .iter()
        .filter(|d| terminal || **d != "/dev/tty")
        .map(Path::new);
    for path in devices.chain(write.iter().map(PathBuf::as_path)) {
        if let Ok(fd) = PathFd::new(path) {
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, fs_all))
                .map_err(io::Error::other)?;
        }
    }
    Ok(ruleset.into())
}

/// `roots`, but for `hidden`: a root that holds a hidden path is given
/// entry by entry instead, down the folders that lead to it, leaving it
/// out. Landlock can only allow, so leaving out is the only way to keep
/// one file of an allowed folder from programs. Links are left out too:
/// the kernel checks whatever a link leads to where that lies.
pub fn without(roots: &[PathBuf], hidden: &[PathBuf]) -> Vec<PathBuf> {
    let hidden: Vec<PathBuf> = hidden
        .iter()
        .filter_map(|h| std::fs::canonicalize(h).ok())
        .collect();
    let mut kept = Vec::new();
    for root in roots {
        let Ok(real) = std::fs::canonicalize(root) else {
            continue;
        };
        if hidden.iter().any(|h| real.starts_with(h)) {
            continue;
        }
        if hidden.iter().any(|h| h.starts_with(&real)) {
            entries_without(&real, &hidden, &mut kept);
        } else {
            kept.push(root.clone());
        }
    }
    kept
}

/// The entries of folder `dir` (canonical), but for `hidden` and the
/// links, opening the folders that lead to a hidden path.
fn entries_without(dir: &Path, hidden: &[PathBuf], kept: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_symlink() || hidden.contains(&path) {
            continue;
        }
        if kind.is_dir() && hidden.iter().any(|h| h.starts_with(&path)) {
            entries_without(&path, hidden, kept);
        } else {
            kept.push(path);
        }
    }
}

/// Enforces a ruleset on the calling thread. Async-signal-safe; needs
/// `PR_SET_NO_NEW_PRIVS` set first.
pub fn restrict(ruleset: RawFd) -> io::Result<()> {
    // SAFETY: a system call on an fd the caller keeps open.
    let rc = unsafe { libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0u32) };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_file_is_left_out_of_the_folder_that_holds_it_and_nothing_else_is() {
        let top = tempfile::tempdir().expect("a temporary folder");
        let root = top.path().join("usr");
        let bin = root.join("local/bin");
        std::fs::create_dir_all(&bin).expect("folders");
        std::fs::create_dir_all(root.join("lib")).expect("folders");
        std::fs::write(bin.join("referee"), "secret").expect("a file");
        std::fs::write(bin.join("tool"), "").expect("a file");
        std::os::unix::fs::symlink(bin.join("referee"), root.join("lib/link")).expect("a link");
        let root = std::fs::canonicalize(&root).expect("canonical");
        let secret = root.join("local/bin/referee");
        let mut kept = without(std::slice::from_ref(&root), std::slice::from_ref(&secret));
        kept.sort();
        assert_eq!(kept, vec![root.join("lib"), root.join("local/bin/tool")]);
        // A root that is hidden, or inside what is hidden, is left out whole.
        assert!(without(std::slice::from_ref(&secret), std::slice::from_ref(&secret)).is_empty());
        // Nothing hidden: the roots as they are.
        assert_eq!(
            without(std::slice::from_ref(&root), &[]),
            vec![root.clone()]
        );
    }
}
