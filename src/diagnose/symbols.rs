//! Placing a sanitizer's frames in the student's source: each frame's
//! module and offset turned into file, line and function from the checked
//! build's debug information, by referee itself (the `addr2line` crate),
//! not by a symbolizer the sandbox would have to let in.
//!
//! The checked build is made from the student's source, whose debug
//! sections the student could have written by hand: the reader returns
//! errors for what it cannot read, and a lookup that fails is a frame not
//! placed, never a failure of the grader.

use std::path::Path;

use super::sanitizer::Frame;

/// A frame placed in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The source file's name (without its folder).
    pub file: String,
    /// The line.
    pub line: u32,
    /// The function, where known (for an inlined call, the innermost).
    pub function: Option<String>,
}

/// The most bytes a checked build may hold to be read: far more than any
/// student's program with the sanitizers linked in.
const BINARY_LIMIT: u64 = 256 << 20;

/// The most rows of a line table looked through for a line: a student's
/// program has a few thousand.
const ROWS_LIMIT: usize = 1 << 20;

/// The debug information of one checked build.
pub struct Symbols {
    loader: addr2line::Loader,
    /// The executable's file name: frames in a module of that name (or in
    /// `/proc/self/exe`, as the sanitizer names it where it cannot read
    /// its own path) are the program's.
    name: String,
}

impl Symbols {
    /// The debug information of `binary`; `None` where it cannot be read.
    pub fn open(binary: &Path) -> Option<Symbols> {
        let size = std::fs::symlink_metadata(binary).ok()?.len();
        if size > BINARY_LIMIT {
            return None;
        }
        let loader = addr2line::Loader::new(binary).ok()?;
        Some(Symbols {
            loader,
            name: binary.file_name()?.to_string_lossy().into_owned(),
        })
    }

    /// The first of `frames` that lies in a file named one of `sources`
    /// (the student's own; frames in the C library, in the sanitizers'
    /// code and in the suite's own library are passed over).
    pub fn first_in(&self, frames: &[Frame], sources: &[String]) -> Option<Placed> {
        frames
            .iter()
            .filter(|f| self.is_program(&f.module))
            .filter_map(|f| self.place(f.offset))
            .find(|p| sources.contains(&p.file))
    }

    /// The function that holds line `line` of the file named `source`:
    /// for what the compiler warned of, which it places by line only.
    /// The line table is read for the first of that line's code.
    pub fn function_at(&self, source: &str, line: u32) -> Option<String> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let rows = self.loader.find_location_range(0, u64::MAX).ok()?;
            let (address, _, _) = rows.take(ROWS_LIMIT).find(|(_, _, at)| {
                at.line == Some(line)
                    && at
                        .file
                        .and_then(|f| Path::new(f).file_name())
                        .is_some_and(|f| f.to_string_lossy() == source)
            })?;
            self.lookup(address)?.function
        }))
        .ok()
        .flatten()
    }

    fn is_program(&self, module: &str) -> bool {
        module == super::sanitizer::PROGRAM
            || Path::new(module)
                .file_name()
                .is_some_and(|n| n.to_string_lossy() == self.name)
    }

    /// Where `offset` is: its file, line and innermost function.
    fn place(&self, offset: u64) -> Option<Placed> {
        // A panic in the reader on a forged debug section is a frame not
        // placed.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.lookup(offset)))
            .ok()
            .flatten()
    }

    fn lookup(&self, offset: u64) -> Option<Placed> {
        let mut frames = self.loader.find_frames(offset).ok()?;
        let first = frames.next().ok()??;
        let location = first.location?;
        let file = Path::new(location.file?)
            .file_name()?
            .to_string_lossy()
            .into_owned();
        let function = first
            .function
            .and_then(|f| f.demangle().ok().map(|n| n.into_owned()));
        Some(Placed {
            file: super::diagnosis::bounded(&file),
            line: location.line?,
            function: function.map(|f| super::diagnosis::bounded(&f)),
        })
    }
}
