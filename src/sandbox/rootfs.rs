//! The minimal root a slot's programs see, as a list of steps a slot's
//! keeper carries out in its own mount namespace (see [`super::keeper`]).
//!
//! The root is a small tmpfs holding, read-only, the system folders
//! compilers and interpreters need (`/usr`, `/lib*`, `/bin`, `/sbin`, or
//! the links to them of a merged `/usr`: `gcc`'s `cc1` and `g++`'s
//! `cc1plus`, the C and C++ headers, libstdc++ for compiling and at run
//! time), an `/etc` with only the loader's
//! and the clock's files (no `passwd`, `shadow`, `hostname`), the folders
//! of the Python interpreter and of `REFEREE_ALLOW_READ`, and `/dev` with
//! only `null`, `zero`, `random`, `urandom` and `tty` (the run's own
//! terminal). Writable: `/home/student` (the run's working folder, its
//! `HOME`) and `/tmp`, both on the slot's size-capped tmpfs. `/builds`
//! holds the submissions' built programs, read-only. (Where a folder the
//! programs must read sits at one of these places, the place moves under
//! `/sandbox`: see [`Places::avoiding`].) There is no `/proc`, `/sys`, `/home`, `/root`
//! or `/run`: paths outside the root are simply not there, so a program
//! cannot even tell which exist.
//!
//! Steps are plain values (paths as C strings) prepared by referee, so
//! the keeper, a copy of a multi-threaded process, carries them out with
//! system calls only.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Where the run's working folder, its temporary folder and the built
/// programs are inside the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Places {
    /// The working folder (also `HOME`).
    pub work: PathBuf,
    /// The temporary folder (`TMPDIR`).
    pub tmp: PathBuf,
    /// The built programs.
    pub builds: PathBuf,
}

/// The places tried for each, in order: the first that no mirrored folder
/// is in or above. (A Python installed under `/tmp`, or a CI checkout
/// under `/builds`, as GitLab's are, must stay where it is.)
const WORK_AT: [&str; 2] = ["/home/student", "/sandbox/home"];
const TMP_AT: [&str; 2] = ["/tmp", "/sandbox/tmp"];
const BUILDS_AT: [&str; 2] = ["/builds", "/sandbox/builds"];

impl Places {
    /// Places that none of `mirrors` collides with.
    pub fn avoiding(mirrors: &[PathBuf]) -> Places {
        let pick = |candidates: [&str; 2]| {
            let free = |place: &&str| {
                !mirrors
                    .iter()
                    .any(|m| m.starts_with(place) || Path::new(place).starts_with(m))
            };
            let chosen = candidates.into_iter().find(free);
            PathBuf::from(chosen.unwrap_or(candidates[1]))
        };
        Places {
            work: pick(WORK_AT),
            tmp: pick(TMP_AT),
            builds: pick(BUILDS_AT),
        }
    }
}

/// System folders bound read-only when they exist (or recreated as the
/// links they are, for a merged `/usr`).
const SYSTEM: &[&str] = &[
    "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin",
];

/// What of `/etc` loaders, compilers and interpreters read.
const ETC: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/alternatives",
];

/// The devices a program may open.
pub const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
];

/// One step of building the root, carried out by [`run`].
#[derive(Debug)]
pub enum Step {
    /// `mount(2)`.
    Mount {
        /// What is mounted (none for a change of flags).
        source: Option<CString>,
        /// Where.
        target: CString,
        /// The file system type, for a new mount.
        fstype: Option<CString>,
        /// `MS_*` flags.
        flags: libc::c_ulong,
        /// Options.
        data: Option<CString>,
    },
    /// A folder to mount on.
    Folder(CString),
    /// An empty file to mount a file on.
    File(CString),
    /// A symbolic link, as the host has it.
    Link {
        /// What it points to.
        target: CString,
        /// The link.
        link: CString,
    },
    /// Make the prepared root the process's root, and drop the old one.
    Enter(CString),
}

/// What the root must hold besides the system's folders.
pub struct Layout<'a> {
    /// Where the run's folders go inside.
    pub places: &'a Places,
    /// The (empty) folder the root is built in.
    pub new_root: &'a Path,
    /// The run's working folder, bound at `places.work`.
    pub work: &'a Path,
    /// The run's temporary folder, bound at `places.tmp`.
    pub tmp: &'a Path,
    /// Built programs, bound read-only at `places.builds`.
    pub builds: &'a Path,
    /// Folders bound read-only at their own paths (the Python
    /// interpreter's, `REFEREE_ALLOW_READ`).
    pub mirrors: &'a [PathBuf],
}

/// The steps that build `layout`'s root and enter it.
pub fn plan(layout: &Layout<'_>) -> io::Result<Vec<Step>> {
    let mut plan = Plan {
        root: layout.new_root.to_path_buf(),
        steps: Vec::new(),
        made: Vec::new(),
    };
    // Mount propagation first: nothing done here reaches the host.
    plan.private_mounts()?;
    plan.mount(
        Some("tmpfs"),
        layout.new_root,
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some("size=1m,nr_inodes=4096,mode=0755"),
    )?;
    for dir in SYSTEM {
        plan.system(Path::new(dir))?;
    }
    plan.folder(Path::new("/etc"))?;
    for file in ETC {
        plan.system(Path::new(file))?;
    }
    plan.folder(Path::new("/dev"))?;
    for device in DEVICES {
        plan.device(Path::new(device))?;
    }
    let places = layout.places;
    plan.bind(layout.work, &places.work, Access::Write)?;
    plan.bind(layout.tmp, &places.tmp, Access::Write)?;
    plan.bind(layout.builds, &places.builds, Access::Read)?;
    let mut mirrors: Vec<&PathBuf> = layout.mirrors.iter().filter(|p| p.exists()).collect();
    mirrors.sort();
    let mut bound: Vec<&PathBuf> = Vec::new();
    for mirror in mirrors {
        // A folder inside one already bound is there already.
        if bound.iter().any(|b| mirror.starts_with(b)) || is_system(mirror) {
            continue;
        }
        plan.bind(mirror, mirror, Access::Read)?;
        bound.push(mirror);
    }
    plan.steps.push(Step::Enter(c_path(layout.new_root)?));
    // The root's own tmpfs, with its mount points, becomes read-only.
    plan.steps.push(Step::Mount {
        source: None,
        target: c_path(Path::new("/"))?,
        fstype: None,
        flags: libc::MS_REMOUNT
            | libc::MS_BIND
            | libc::MS_RDONLY
            | libc::MS_NOSUID
            | libc::MS_NODEV,
        data: None,
    });
    Ok(plan.steps)
}

/// Whether `path` is under one of the system folders (bound anyway).
fn is_system(path: &Path) -> bool {
    SYSTEM
        .iter()
        .any(|s| path.starts_with(s) && !Path::new(s).is_symlink())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
}

struct Plan {
    root: PathBuf,
    steps: Vec<Step>,
    /// Folders inside the root already made.
    made: Vec<PathBuf>,
}

impl Plan {
    fn private_mounts(&mut self) -> io::Result<()> {
        self.steps.push(Step::Mount {
            source: None,
            target: c_path(Path::new("/"))?,
            fstype: None,
            flags: libc::MS_REC | libc::MS_PRIVATE,
            data: None,
        });
        Ok(())
    }

    /// `inside` as a path under the new root, on the host.
    fn at(&self, inside: &Path) -> PathBuf {
        self.root.join(inside.strip_prefix("/").unwrap_or(inside))
    }

    fn mount(
        &mut self,
        source: Option<&str>,
        target: &Path,
        fstype: Option<&str>,
        flags: libc::c_ulong,
        data: Option<&str>,
    ) -> io::Result<()> {
        let c = |s: &str| CString::new(s).map_err(io::Error::other);
        self.steps.push(Step::Mount {
            source: source.map(c).transpose()?,
            target: c_path(target)?,
            fstype: fstype.map(c).transpose()?,
            flags,
            data: data.map(c).transpose()?,
        });
        Ok(())
    }

    /// Makes the folder `inside` and the folders above it.
    fn folder(&mut self, inside: &Path) -> io::Result<()> {
        let mut at = PathBuf::from("/");
        for part in inside.components().skip(1) {
            at.push(part);
            if !self.made.contains(&at) {
                self.steps.push(Step::Folder(c_path(&self.at(&at))?));
                self.made.push(at.clone());
            }
        }
        Ok(())
    }

    /// A system file or folder at its own path, read-only; a link stays
    /// the link it is; what the host lacks is left out.
    fn system(&mut self, path: &Path) -> io::Result<()> {
        let Ok(meta) = path.symlink_metadata() else {
            return Ok(());
        };
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(path)?;
            if let Some(parent) = path.parent() {
                self.folder(parent)?;
            }
            self.steps.push(Step::Link {
                target: c_path(&target)?,
                link: c_path(&self.at(path))?,
            });
            return Ok(());
        }
        self.bind(path, path, Access::Read)
    }

    /// A device, bound from the host's: usable, but nothing may be
    /// executed from it.
    fn device(&mut self, path: &Path) -> io::Result<()> {
        if !path.exists() {
            return Ok(());
        }
        self.steps.push(Step::File(c_path(&self.at(path))?));
        let target = self.at(path);
        self.mount(
            Some(&path.to_string_lossy()),
            &target,
            None,
            libc::MS_BIND,
            None,
        )?;
        self.remount(&target, path, libc::MS_NOSUID | libc::MS_NOEXEC)
    }

    /// Binds `from` (host) at `inside`, then makes it read-only (or
    /// leaves it writable) with no set-uid programs and no devices.
    fn bind(&mut self, from: &Path, inside: &Path, access: Access) -> io::Result<()> {
        let meta = from.metadata()?;
        let target = self.at(inside);
        if meta.is_dir() {
            self.folder(inside)?;
        } else {
            if let Some(parent) = inside.parent() {
                self.folder(parent)?;
            }
            self.steps.push(Step::File(c_path(&target)?));
        }
        self.mount(
            Some(&from.to_string_lossy()),
            &target,
            None,
            libc::MS_BIND | libc::MS_REC,
            None,
        )?;
        let mut flags = libc::MS_NOSUID | libc::MS_NODEV;
        if access == Access::Read {
            flags |= libc::MS_RDONLY;
        }
        self.remount(&target, from, flags)
    }

    /// Changes a bind mount's flags, keeping those of the original that a
    /// user namespace may not drop (`noexec`).
    fn remount(&mut self, target: &Path, original: &Path, flags: libc::c_ulong) -> io::Result<()> {
        let mut flags = flags | libc::MS_REMOUNT | libc::MS_BIND;
        if mount_flags(original)? & libc::ST_NOEXEC != 0 {
            flags |= libc::MS_NOEXEC;
        }
        self.mount(None, target, None, flags, None)
    }
}

/// `statvfs`'s flags for the mount holding `path`.
fn mount_flags(path: &Path) -> io::Result<libc::c_ulong> {
    let c = c_path(path)?;
    // SAFETY: statvfs fills the struct on success.
    unsafe {
        let mut stat: libc::statvfs = std::mem::zeroed();
        if libc::statvfs(c.as_ptr(), &mut stat) < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(stat.f_flag)
    }
}

fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::other(format!("{} holds a NUL byte", path.display())))
}

impl Step {
    /// What the step does, for a message when it fails.
    pub fn describe(&self) -> String {
        let s = |c: &CString| c.to_string_lossy().into_owned();
        match self {
            Step::Mount {
                source: Some(source),
                target,
                ..
            } => format!("mount {} on {}", s(source), s(target)),
            Step::Mount { target, .. } => format!("change the mount flags of {}", s(target)),
            Step::Folder(path) => format!("make the folder {}", s(path)),
            Step::File(path) => format!("make the file {}", s(path)),
            Step::Link { link, .. } => format!("make the link {}", s(link)),
            Step::Enter(root) => format!("enter the new root {}", s(root)),
        }
    }

    /// Carries the step out. Async-signal-safe: system calls only.
    pub fn run(&self) -> Result<(), i32> {
        let ptr = |c: &Option<CString>| c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
        // SAFETY: system calls on NUL-terminated strings owned by the step.
        let rc = unsafe {
            match self {
                Step::Mount {
                    source,
                    target,
                    fstype,
                    flags,
                    data,
                } => libc::mount(
                    ptr(source),
                    target.as_ptr(),
                    ptr(fstype),
                    *flags,
                    ptr(data).cast(),
                ),
                Step::Folder(path) => {
                    let rc = libc::mkdir(path.as_ptr(), 0o755);
                    if rc < 0 && errno() == libc::EEXIST {
                        0
                    } else {
                        rc
                    }
                }
                Step::File(path) => {
                    let fd = libc::open(
                        path.as_ptr(),
                        libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC | libc::O_NOFOLLOW,
                        0o644,
                    );
                    if fd >= 0 {
                        libc::close(fd);
                    }
                    fd
                }
                Step::Link { target, link } => libc::symlink(target.as_ptr(), link.as_ptr()),
                Step::Enter(root) => enter(root),
            }
        };
        if rc < 0 {
            Err(errno())
        } else {
            Ok(())
        }
    }
}

/// `pivot_root` into `root`, the old root stacked under it and detached.
///
/// # Safety
///
/// System calls only; changes the calling process's root.
unsafe fn enter(root: &CString) -> libc::c_int {
    let dot = c".".as_ptr();
    if libc::chdir(root.as_ptr()) < 0 {
        return -1;
    }
    if libc::syscall(libc::SYS_pivot_root, dot, dot) < 0 {
        return -1;
    }
    if libc::umount2(dot, libc::MNT_DETACH) < 0 {
        return -1;
    }
    libc::chdir(c"/".as_ptr())
}

fn errno() -> i32 {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_binds_what_programs_need_and_nothing_of_etc_else() {
        let dir = tempfile::tempdir().unwrap();
        let [root, work, tmp, builds] = ["root", "work", "tmp", "builds"].map(|n| {
            let p = dir.path().join(n);
            std::fs::create_dir(&p).unwrap();
            p
        });
        let places = Places::avoiding(&[PathBuf::from("/usr/lib"), dir.path().to_path_buf()]);
        let steps = plan(&Layout {
            places: &places,
            new_root: &root,
            work: &work,
            tmp: &tmp,
            builds: &builds,
            mirrors: &[PathBuf::from("/usr/lib"), dir.path().to_path_buf()],
        })
        .unwrap();
        let described: Vec<String> = steps.iter().map(Step::describe).collect();
        let text = described.join("\n");
        let inside = |p: &str| format!("{}{p}", root.display());
        assert!(matches!(steps[0], Step::Mount { .. }), "{text}");
        assert!(
            text.contains(&format!("on {}", inside("/home/student"))),
            "{text}"
        );
        assert!(
            text.contains(&format!("on {}", inside("/builds"))),
            "{text}"
        );
        assert!(
            text.contains(&format!("on {}", inside("/dev/null"))),
            "{text}"
        );
        for secret in [
            "/etc/passwd",
            "/etc/shadow",
            "/etc/hostname",
            "/proc",
            "/root",
            "/run",
        ] {
            assert!(!text.contains(&inside(secret)), "{secret} in\n{text}");
        }
        // /usr/lib is under /usr, bound already; the other mirror is bound.
        assert!(!text.contains("mount /usr/lib on"), "{text}");
        assert!(text.contains(&format!("on {}", inside(&dir.path().to_string_lossy()))));
        assert!(matches!(steps[steps.len() - 2], Step::Enter(_)));
    }

    /// Where `g++` says a file it uses is.
    fn gpp(args: &[&str], input: &str) -> String {
        use std::io::Write;
        let mut child = std::process::Command::new("g++")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("g++ is installed");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    #[test]
    fn what_gpp_needs_is_in_the_system_folders_bound() {
        let iostream = gpp(&["-x", "c++", "-E", "-"], "#include <iostream>\n");
        let header = iostream
            .lines()
            .filter_map(|l| l.split('"').nth(1))
            .find(|p| p.ends_with("/iostream"))
            .expect("g++ finds <iostream>")
            .to_string();
        let mut needed = vec![header];
        for file in ["-print-prog-name=cc1plus", "-print-file-name=libstdc++.so"] {
            needed.push(gpp(&[file], "").trim().to_string());
        }
        let runtime = gpp(&["-print-file-name=libstdc++.so.6"], "");
        needed.push(runtime.trim().to_string());
        for path in needed {
            let path = Path::new(&path);
            assert!(path.is_absolute() && path.exists(), "{}", path.display());
            let real = path.canonicalize().unwrap();
            assert!(
                is_system(path) || is_system(&real),
                "{} is in no folder the root binds",
                path.display()
            );
        }
    }

    #[test]
    fn places_move_out_of_the_way_of_mirrored_folders() {
        let usual = Places::avoiding(&[PathBuf::from("/root/.pyenv/versions/3.11.7")]);
        assert_eq!(usual.work, PathBuf::from("/home/student"));
        assert_eq!(usual.tmp, PathBuf::from("/tmp"));
        assert_eq!(usual.builds, PathBuf::from("/builds"));
        let ci = Places::avoiding(&[
            PathBuf::from("/builds/course/referee/target/debug"),
            PathBuf::from("/tmp/python"),
            PathBuf::from("/home"),
        ]);
        assert_eq!(ci.builds, PathBuf::from("/sandbox/builds"));
        assert_eq!(ci.tmp, PathBuf::from("/sandbox/tmp"));
        assert_eq!(ci.work, PathBuf::from("/sandbox/home"));
    }
}
