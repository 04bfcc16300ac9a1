//! Java: the JDK, found once (`javac` on PATH, `java` beside it, and the
//! folders the JVM reads); the options every JVM is started with; and
//! the class to run, found in the compiled classes (the one with
//! `public static void main(String[])`), read from the class files
//! themselves so that a file named otherwise than its class, or a class
//! in a package, runs all the same.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The JDK programs are built and run with.
#[derive(Clone, Debug)]
pub struct Jdk {
    /// `javac`, its real path.
    pub javac: PathBuf,
    /// `java`, beside it.
    pub java: PathBuf,
    /// What each of them is started through: the dynamic loader, told
    /// where the JDK's libraries are (`javac` and `java` find `libjli.so`
    /// through `$ORIGIN`, which the loader learns from `/proc`, and the
    /// sandbox has no `/proc`). Empty where the loader is not found:
    /// they are then started as they are.
    pub loader: Vec<PathBuf>,
    /// What the JVM must be able to read in the sandbox: its home (under
    /// `/usr` on most machines, but not always) and the configuration
    /// its `conf` folder links to (`/etc/java-17-openjdk` on Debian and
    /// Ubuntu).
    pub reads: Vec<PathBuf>,
}

/// Why no JDK was found: the machine's, never the student's.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Error {
    /// No `javac` on PATH.
    #[error(
        "no Java compiler found (looked for javac on PATH): install a JDK (Debian and Ubuntu: \
         apt install openjdk-17-jdk-headless), or put its bin folder on PATH; Java submissions \
         are reported as errors until then"
    )]
    NoJavac,
    /// `javac` without `java` beside it.
    #[error("{} has no java beside it: install a whole JDK", .0.display())]
    NoJava(PathBuf),
}

impl Error {
    /// Whose fault it is: the machine referee runs on.
    pub fn fault(&self) -> crate::fault::Fault {
        crate::fault::Fault::Grader
    }
}

/// Options every JVM starts with, `javac`'s too (each after `-J`): a
/// fast start (the class-data archive, the first compiler only, no
/// performance file in `/tmp`), few threads (the serial collector) and
/// small reservations of address space for classes and compiled code.
pub const JVM_OPTIONS: &[&str] = &[
    "-Xshare:auto",
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    "-XX:-UsePerfData",
    "-XX:CompressedClassSpaceSize=64m",
    "-XX:ReservedCodeCacheSize=32m",
];

/// The address space a JVM may reserve beyond its memory limit: a
/// thread's stack and `malloc` arena each, its class space, its code
/// cache. A JVM with a heap of 256 MiB needs some 1.5 GiB in all.
pub const RESERVE: u64 = 2 << 30;

/// The option that sets a JVM's heap, which a run's memory limit sets.
pub const HEAP_OPTION: &str = "-Xmx";

/// Whether a JVM's output ends on its heap running out: the last
/// exception nothing caught (`Exception in thread "main" ...`) is a
/// `java.lang.OutOfMemoryError`. (A program that prints such a line
/// itself only makes its failure read as running out of memory: it
/// failed all the same.)
pub fn ran_out_of_heap(output: &[u8]) -> bool {
    let text = String::from_utf8_lossy(output);
    text.lines()
        .rev()
        .find(|line| line.starts_with("Exception in thread "))
        .is_some_and(|line| line.contains("java.lang.OutOfMemoryError"))
}

/// `javac`'s heap: far more than a handout's classes need.
pub const JAVAC_HEAP: &str = "-J-Xmx512m";

/// Whether `path` is a Java submission by its name: a `.java` file, or
/// a folder holding one (looked at without following anything).
pub fn is_java(path: &Path) -> bool {
    let java = |p: &Path| p.extension().is_some_and(|e| e == "java");
    if java(path) {
        return true;
    }
    fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
        && fs::read_dir(path)
            .is_ok_and(|entries| entries.take(1024).flatten().any(|e| java(&e.path())))
}

static JDK: OnceLock<Result<Jdk, Error>> = OnceLock::new();

/// The JDK, found once: `javac` on PATH (through links, to its real
/// folder), `java` beside it.
pub fn jdk() -> Result<&'static Jdk, Error> {
    JDK.get_or_init(find).as_ref().map_err(Clone::clone)
}

fn find() -> Result<Jdk, Error> {
    let javac = crate::sandbox::find_on_path("javac").ok_or(Error::NoJavac)?;
    let javac = fs::canonicalize(&javac).unwrap_or(javac);
    let bin = javac.parent().ok_or(Error::NoJavac)?;
    let java = bin.join("java");
    if !java.is_file() {
        return Err(Error::NoJava(javac));
    }
    let home = bin.parent().unwrap_or(bin).to_path_buf();
    let loader = match interpreter_of(&java) {
        Some(loader) => vec![loader, "--library-path".into(), home.join("lib")],
        None => Vec::new(),
    };
    let mut reads = vec![home.clone()];
    reads.extend(linked_from(&home.join("conf"), &home, 0));
    reads.sort();
    reads.dedup();
    // A folder inside another shown is shown already.
    let all = reads.clone();
    reads.retain(|r| !all.iter().any(|o| o != r && r.starts_with(o)));
    Ok(Jdk {
        javac,
        java,
        loader,
        reads,
    })
}

/// The dynamic loader an ELF executable names (its `PT_INTERP`).
fn interpreter_of(executable: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut bytes = Vec::new();
    fs::File::open(executable)
        .ok()?
        .take(1 << 20)
        .read_to_end(&mut bytes)
        .ok()?;
    let at = |offset: usize, len: usize| bytes.get(offset..offset.checked_add(len)?);
    let u16_at = |o| at(o, 2).map(|b| u16::from_le_bytes([b[0], b[1]]) as usize);
    let u64_at =
        |o| at(o, 8).and_then(|b| usize::try_from(u64::from_le_bytes(b.try_into().ok()?)).ok());
    // A 64-bit, little-endian ELF file.
    if at(0, 6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let (table, size, count) = (u64_at(0x20)?, u16_at(0x36)?, u16_at(0x38)?);
    (0..count).find_map(|i| {
        let header = table.checked_add(i.checked_mul(size)?)?;
        let kind = at(header, 4)?;
        if kind != [3, 0, 0, 0] {
            return None;
        }
        let path = at(u64_at(header + 8)?, u64_at(header + 0x20)?)?;
        let path = std::str::from_utf8(path).ok()?.trim_end_matches('\0');
        Some(PathBuf::from(path)).filter(|p| p.is_file())
    })
}

/// The folders outside `home` that links under `folder` lead to.
fn linked_from(folder: &Path, home: &Path, depth: usize) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir(folder) else {
        return found;
    };
    for entry in entries.flatten().take(256) {
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            if let Ok(real) = fs::canonicalize(&path) {
                let place = if real.is_dir() {
                    real
                } else {
                    real.parent().map(PathBuf::from).unwrap_or(real)
                };
                if !place.starts_with(home) {
                    found.push(place);
                }
            }
        } else if meta.is_dir() && depth < 4 {
            found.extend(linked_from(&path, home, depth + 1));
        }
    }
    found
}

/// The most class files a submission's build may make.
pub const MAX_CLASSES: usize = 4096;

/// The class files under `folder` (no link followed), relative to it:
/// at most [`MAX_CLASSES`], none deeper than 32 folders.
pub fn class_files(folder: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    walk(folder, Path::new(""), 0, &mut files)?;
    files.sort();
    Ok(files)
}

fn walk(root: &Path, at: &Path, depth: usize, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if depth > 32 {
        return Ok(());
    }
    for entry in fs::read_dir(root.join(at))? {
        let entry = entry?;
        let relative = at.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(root, &relative, depth + 1, files)?;
        } else if kind.is_file() && relative.extension().is_some_and(|e| e == "class") {
            if files.len() >= MAX_CLASSES {
                return Err(std::io::Error::other(format!(
                    "the build made more than {MAX_CLASSES} classes"
                )));
            }
            files.push(relative);
        }
    }
    Ok(())
}

/// The class a class file defines, by its binary name (`lab2.Main`),
/// if it has `public static void main(String[])`; `None` for any other
/// class, and for bytes that are no class file.
pub fn main_class(bytes: &[u8]) -> Option<String> {
    let mut r = Reader { bytes, at: 0 };
    if r.u32()? != 0xCAFE_BABE {
        return None;
    }
    r.skip(4)?;
    let count = usize::from(r.u16()?);
    // The constant pool: what each UTF-8 entry holds, and each class
    // entry's name.
    let mut utf8: Vec<Option<&[u8]>> = vec![None; count];
    let mut class_name: Vec<Option<u16>> = vec![None; count];
    let mut i = 1;
    while i < count {
        let tag = r.u8()?;
        match tag {
            1 => {
                let len = usize::from(r.u16()?);
                utf8[i] = Some(r.take(len)?);
            }
            7 => class_name[i] = Some(r.u16()?),
            8 | 16 | 19 | 20 => r.skip(2)?,
            15 => r.skip(3)?,
            3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => r.skip(4)?,
            5 | 6 => {
                r.skip(8)?;
                i += 1;
            }
            _ => return None,
        }
        i += 1;
    }
    let text = |index: u16| utf8.get(usize::from(index)).copied().flatten();
    r.skip(2)?; // access flags
    let this = r.u16()?;
    let name = text(class_name.get(usize::from(this)).copied().flatten()?)?;
    r.skip(2)?; // the superclass
    let interfaces = usize::from(r.u16()?);
    r.skip(interfaces * 2)?;
    let mut has_main = false;
    for members in 0..2 {
        let n = r.u16()?;
        for _ in 0..n {
            let flags = r.u16()?;
            let member = text(r.u16()?)?;
            let descriptor = text(r.u16()?)?;
            const PUBLIC_STATIC: u16 = 0x0001 | 0x0008;
            if members == 1
                && flags & PUBLIC_STATIC == PUBLIC_STATIC
                && member == b"main"
                && descriptor == b"([Ljava/lang/String;)V"
            {
                has_main = true;
            }
            let attributes = r.u16()?;
            for _ in 0..attributes {
                r.skip(2)?;
                let len = usize::try_from(r.u32()?).ok()?;
                r.skip(len)?;
            }
        }
    }
    has_main.then(|| String::from_utf8_lossy(name).replace('/', "."))
}

/// A cursor over a class file's bytes; every read is bounded.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let taken = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(taken)
    }
    fn skip(&mut self, n: usize) -> Option<()> {
        self.take(n).map(|_| ())
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u16(&mut self) -> Option<u16> {
        let b = self.take(2)?;
        Some(u16::from_be_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Option<u32> {
        let b = self.take(4)?;
        Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The renames `javac`'s messages ask for: a public class in a file
/// named otherwise (`lab.java:1: error: class Lab is public, should be
/// declared in a file named Lab.java`), as `(lab.java, Lab.java)`.
pub fn renames_asked(messages: &str) -> Vec<(String, String)> {
    const SAYS: &str = "is public, should be declared in a file named ";
    let mut renames: Vec<(String, String)> = messages
        .lines()
        .filter_map(|line| {
            let (file, rest) = line.split_once(':')?;
            let (_, wanted) = rest.split_once(SAYS)?;
            let wanted = wanted.trim();
            let plain = |name: &str| {
                name.ends_with(".java")
                    && !name.contains('/')
                    && !name.starts_with('.')
                    && name.len() < 256
            };
            (plain(file) && plain(wanted)).then(|| (file.to_string(), wanted.to_string()))
        })
        .collect();
    renames.sort();
    renames.dedup();
    renames
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loader_is_read_from_the_executable() {
        let shell = fs::canonicalize("/bin/sh").unwrap();
        let loader = interpreter_of(&shell).expect("/bin/sh names its loader");
        assert!(loader.to_string_lossy().contains("ld-linux"), "{loader:?}");
        assert_eq!(interpreter_of(Path::new("/etc/hostname")), None);
    }

    #[test]
    fn a_public_class_in_a_file_named_otherwise_is_renamed() {
        let said = "lab.java:3: error: class Lab is public, should be declared in a file named \
                    Lab.java\npublic class Lab {\n       ^\n1 error\n";
        assert_eq!(
            renames_asked(said),
            [("lab.java".to_string(), "Lab.java".to_string())]
        );
        // A line a student's source prints cannot lead out of the folder.
        let forged = "x.java:1: error: class A is public, should be declared in a file named \
                      ../../A.java\n";
        assert!(renames_asked(forged).is_empty());
    }

    #[test]
    fn garbage_is_no_class() {
        assert_eq!(main_class(b""), None);
        assert_eq!(main_class(&[0xCA, 0xFE, 0xBA, 0xBE, 0, 0]), None);
        let mut bytes = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0xFF, 0xFF];
        bytes.extend([1, 0xFF, 0xFF]);
        assert_eq!(main_class(&bytes), None);
    }
}
