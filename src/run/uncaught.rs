//! An exception nothing caught: a Python program's traceback or a Java
//! program's `Exception in thread "main"` as the interpreter writes it
//! when the program dies of it (issue 46). Such a run exits with status
//! 1, as a program that calls `sys.exit(1)` or `System.exit(1)` on
//! purpose does: what tells them apart is the report the interpreter
//! printed last.
//!
//! A program's stdout and stderr share its terminal, and a program can
//! print anything, a report that looks like a traceback too. So only
//! this is taken for an uncaught exception, all of it bounded:
//!
//! - the run exited with status 1 (an interpreter's status for it);
//! - the text after the program's last read (at most [`TAIL`] bytes,
//!   [`LINES`] lines) ends with the report, in the exact shape the
//!   interpreter writes it: for Python, `Traceback (most recent call
//!   last):`, at least one `  File "...", line N` frame (with its
//!   indented source lines) and the exception's line, `Name` or `Name:
//!   message`, as the last line printed; for Java, `Exception in thread
//!   "main" Name[: message]`, then only its stack (`\tat ...` lines, at
//!   least one, `\t... N more`, `Caused by: ...`) to the end.
//!
//! A program that prints such a report itself and then exits with
//! status 1 is taken at its word: it says it crashed, and only its own
//! grade can change. Anything printed after the report (the program
//! went on) makes it no report of the interpreter's.

use crate::transcript::{Event, Transcript};

use super::Ending;

/// The most bytes, from the end of the output after the last read,
/// looked at.
pub const TAIL: usize = 256 * 1024;

/// The most lines, from the end, looked at (Java prints at most 1,024
/// frames of a stack overflow).
pub const LINES: usize = 4096;

/// The most bytes kept of a name (an exception's, a file's).
const NAME_ROOM: usize = 60;

/// Which interpreter wrote the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// Python's traceback.
    Python,
    /// The Java virtual machine's report.
    Java,
}

/// A short name (an exception's, a source file's): at most
/// [`NAME_ROOM`] bytes of letters, digits and `_ . $ -`, kept in place
/// so that an [`Uncaught`] is `Copy` as the endings it stands in are.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Name {
    bytes: [u8; NAME_ROOM],
    len: u8,
}

impl Name {
    /// `text` as a name: `None` when it holds anything else or nothing.
    fn new(text: &str) -> Option<Name> {
        let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-');
        if text.is_empty() || !text.chars().all(ok) {
            return None;
        }
        let kept = &text.as_bytes()[..text.len().min(NAME_ROOM)];
        let mut bytes = [0; NAME_ROOM];
        bytes[..kept.len()].copy_from_slice(kept);
        Some(Name {
            bytes,
            len: kept.len() as u8,
        })
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// An exception that ended a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uncaught {
    /// Whose report it is.
    pub runtime: Runtime,
    /// The exception's kind, as the report names it, without a Java
    /// package (`IndexError`, `ArrayIndexOutOfBoundsException`).
    pub kind: Name,
    /// Where it was raised: the innermost frame not in the language's
    /// own library, as its file's name and line, when the report gives
    /// one.
    pub file: Option<Name>,
    /// That frame's line.
    pub line: Option<u32>,
}

impl Uncaught {
    /// "an uncaught IndexError at line 5 of app.py".
    pub fn describe(&self) -> String {
        let at = match (self.line, self.file) {
            (Some(line), Some(file)) => format!(" at line {line} of {}", file.as_str()),
            (Some(line), None) => format!(" at line {line}"),
            _ => String::new(),
        };
        format!("an uncaught {}{at}", self.kind.as_str())
    }
}

/// The exception that ended a run that ended so: `None` unless it
/// exited with status 1 and its output ends with an interpreter's report
/// of an exception nothing caught (see the module's documentation).
pub fn uncaught(transcript: &Transcript, ending: Ending) -> Option<Uncaught> {
    if ending != Ending::Exited(1) {
        return None;
    }
    let tail = tail(transcript);
    let mut lines: Vec<String> = tail.split(|b| *b == b'\n').map(plain).collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let start = lines.len().saturating_sub(LINES);
    let lines = &lines[start..];
    python(lines).or_else(|| java(lines))
}

/// The output after the last read, its last [`TAIL`] bytes; for a run
/// whose stderr was kept apart, where a traceback goes, stderr's.
fn tail(transcript: &Transcript) -> Vec<u8> {
    let errors = transcript.errors();
    if !errors.is_empty() {
        return errors[errors.len().saturating_sub(TAIL)..].to_vec();
    }
    let events = transcript.events();
    let after = events
        .iter()
        .rposition(|e| matches!(e, Event::Input(_)))
        .map_or(0, |i| i + 1);
    let mut chunks = Vec::new();
    let mut room = TAIL;
    for event in events[after..].iter().rev() {
        if room == 0 {
            break;
        }
        if let Event::Output(bytes) = event {
            let from = bytes.len().saturating_sub(room);
            chunks.push(&bytes[from..]);
            room -= bytes.len() - from;
        }
    }
    chunks.into_iter().rev().flatten().copied().collect()
}

/// A line of output as text, without its carriage return and without
/// terminal escapes (Python 3.13 colours its tracebacks on a terminal).
/// Also what [`crate::diagnose`] reads tracebacks with.
pub fn plain(bytes: &[u8]) -> String {
    let mut kept = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b {
            i += 1;
            if bytes.get(i) == Some(&b'[') {
                // A control sequence: parameters, then a final byte.
                i += 1;
                while i < bytes.len() && !(0x40..=0x7e).contains(&bytes[i]) {
                    i += 1;
                }
            }
            i += 1;
            continue;
        }
        if bytes[i] != b'\r' {
            kept.push(bytes[i]);
        }
        i += 1;
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// A Python traceback ending `lines`.
fn python(lines: &[String]) -> Option<Uncaught> {
    const HEADER: &str = "Traceback (most recent call last):";
    let header = lines.iter().rposition(|l| l.ends_with(HEADER))?;
    let (last, frames) = lines[header + 1..].split_last()?;
    let mut at = None;
    let mut framed = false;
    for line in frames {
        if let Some((file, number, _)) = python_frame(line) {
            framed = true;
            if !is_library(file) {
                at = Some((file, number));
            }
        } else if !line.starts_with(' ') {
            return None;
        }
    }
    if !framed {
        return None;
    }
    let kind = exception_name(last)?;
    Some(Uncaught {
        runtime: Runtime::Python,
        kind: Name::new(kind.rsplit('.').next().unwrap_or(kind))?,
        file: at.and_then(|(file, _)| Name::new(base_name(file))),
        line: at.and_then(|(_, number)| number),
    })
}

/// `  File "/build/app.py", line 42, in main` as its file, line and
/// function; a `SyntaxError`'s frame has no function.
pub fn python_frame(line: &str) -> Option<(&str, Option<u32>, Option<&str>)> {
    let rest = line.strip_prefix("  File \"")?;
    let at = rest.rfind("\", line ")?;
    let file = &rest[..at];
    let rest = &rest[at + "\", line ".len()..];
    let (number, function) = match rest.split_once(", in ") {
        Some((number, function)) => (number, Some(function)),
        None => (rest, None),
    };
    Some((file, number.trim().parse().ok(), function))
}

/// Whether a frame's file is the interpreter's own library's.
fn is_library(file: &str) -> bool {
    file.starts_with('<') || file.contains("/lib/python") || file.contains("/usr/lib/")
}

/// The last part of a path: `/builds/abc/connect4.py` is `connect4.py`.
pub fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The exception's name in its line, `Name` or `Name: message`: a
/// dotted name of identifiers (`json.decoder.JSONDecodeError`, Java's
/// `Outer$Inner`).
pub fn exception_name(line: &str) -> Option<&str> {
    let name = match line.split_once(':') {
        Some((name, message)) if message.is_empty() || message.starts_with(' ') => name,
        Some(_) => return None,
        None => line,
    };
    let identifier = |part: &str| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    (!name.is_empty() && name.split('.').all(identifier)).then_some(name)
}

/// Java's report of an exception nothing caught ending `lines`.
fn java(lines: &[String]) -> Option<Uncaught> {
    const HEADER: &str = "Exception in thread \"";
    let header = lines.iter().rposition(|l| l.contains(HEADER))?;
    let first = &lines[header];
    let after_thread = &first[first.find(HEADER)? + HEADER.len()..];
    let (_, exception) = after_thread.split_once("\" ")?;
    let kind = exception_name(exception)?;
    let mut at = None;
    let mut framed = false;
    for line in &lines[header + 1..] {
        if let Some(frame) = line.strip_prefix("\tat ") {
            framed = true;
            if at.is_none() {
                at = java_frame(frame);
            }
        } else if !(line.starts_with('\t') || line.starts_with("Caused by: ")) {
            return None;
        }
    }
    if !framed {
        return None;
    }
    Some(Uncaught {
        runtime: Runtime::Java,
        kind: Name::new(kind.rsplit('.').next().unwrap_or(kind))?,
        file: at.and_then(|(file, _)| Name::new(file)),
        line: at.map(|(_, line)| line),
    })
}

/// `Main.main(Main.java:5)` as its file and line, unless it is the
/// Java library's own (`java.`, `jdk.`, `sun.` ...).
fn java_frame(frame: &str) -> Option<(&str, u32)> {
    let frame = frame.rsplit_once('/').map_or(frame, |(_, f)| f);
    let library = ["java.", "javax.", "jdk.", "sun.", "com.sun."];
    if library.iter().any(|l| frame.starts_with(l)) {
        return None;
    }
    let inside = frame.rsplit_once('(')?.1.strip_suffix(')')?;
    let (file, line) = inside.rsplit_once(':')?;
    Some((file, line.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(parts: &[&str]) -> Transcript {
        let mut t = Transcript::new();
        for part in parts {
            match part.strip_prefix('>') {
                Some(typed) => t.push_input(typed),
                None => t.push_output(part.as_bytes()),
            }
        }
        t
    }

    const PYTHON: &str = "Traceback (most recent call last):\n  \
        File \"/tmp/referee-x/build/app.py\", line 9, in <module>\n    main()\n  \
        File \"/tmp/referee-x/build/app.py\", line 5, in main\n    print(sys.argv[1])\n          \
        ~~~~~~~~^^^\nIndexError: list index out of range\n";

    const JAVA: &str = "Exception in thread \"main\" \
        java.lang.ArrayIndexOutOfBoundsException: Index 0 out of bounds for length 0\n\
        \tat Lab.check(Lab.java:12)\n\tat Lab.main(Lab.java:4)\n";

    #[test]
    fn pythons_traceback_at_the_end_with_status_1_is_an_uncaught_exception() {
        let t = run(&["Name? ", ">ann", PYTHON]);
        let found = uncaught(&t, Ending::Exited(1)).unwrap();
        assert_eq!(found.runtime, Runtime::Python);
        assert_eq!(found.kind.as_str(), "IndexError");
        assert_eq!(found.line, Some(5));
        assert_eq!(
            found.describe(),
            "an uncaught IndexError at line 5 of app.py"
        );
        // Another status: not the interpreter's.
        assert_eq!(uncaught(&t, Ending::Exited(0)), None);
        assert_eq!(uncaught(&t, Ending::Exited(2)), None);
        // Colours, and a prompt the header ends.
        let coloured = PYTHON.replace("IndexError", "\x1b[1;35mIndexError\x1b[0m");
        let t = run(&["Col? ", &coloured]);
        assert!(uncaught(&t, Ending::Exited(1)).is_some());
    }

    #[test]
    fn javas_report_at_the_end_with_status_1_is_an_uncaught_exception() {
        let t = run(&["> ", JAVA]);
        let found = uncaught(&t, Ending::Exited(1)).unwrap();
        assert_eq!(found.runtime, Runtime::Java);
        assert_eq!(
            found.describe(),
            "an uncaught ArrayIndexOutOfBoundsException at line 12 of Lab.java"
        );
        let caused = "Exception in thread \"main\" java.lang.RuntimeException: x\n\
            \tat java.base/java.util.Scanner.next(Scanner.java:1)\n\tat Lab.main(Lab.java:7)\n\
            Caused by: java.io.IOException\n\t... 1 more\n";
        let found = uncaught(&run(&[caused]), Ending::Exited(1)).unwrap();
        assert_eq!(
            found.describe(),
            "an uncaught RuntimeException at line 7 of Lab.java"
        );
    }

    #[test]
    fn anything_after_the_report_or_before_the_last_read_is_no_crash() {
        // The program went on after printing it.
        let went_on = format!("{PYTHON}Bye.\n");
        assert_eq!(uncaught(&run(&[&went_on]), Ending::Exited(1)), None);
        let went_on = format!("{JAVA}Bye.\n");
        assert_eq!(uncaught(&run(&[&went_on]), Ending::Exited(1)), None);
        // Printed, then more input read, then sys.exit(1).
        assert_eq!(
            uncaught(&run(&[PYTHON, ">q", "Usage\n"]), Ending::Exited(1)),
            None
        );
        // A header with no frame, a frame with no exception's line.
        let bare = "Traceback (most recent call last):\nIndexError: x\n";
        assert_eq!(uncaught(&run(&[bare]), Ending::Exited(1)), None);
        let cut = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n";
        assert_eq!(uncaught(&run(&[cut]), Ending::Exited(1)), None);
        assert_eq!(
            uncaught(&run(&["Usage: app FILE\n"]), Ending::Exited(1)),
            None
        );
    }

    #[test]
    fn hostile_names_are_refused_or_cut() {
        let long = format!(
            "Traceback (most recent call last):\n  File \"{}.py\", line 1, in <module>\n{}: x\n",
            "f".repeat(500),
            "E".repeat(500)
        );
        let found = uncaught(&run(&[&long]), Ending::Exited(1)).unwrap();
        assert_eq!(found.kind.as_str().len(), NAME_ROOM);
        assert_eq!(found.file.map(|f| f.as_str().len()), Some(NAME_ROOM));
        let odd =
            "Traceback (most recent call last):\n  File \"<x>\\u{202e}.py\", line 1\nÉrror: x\n";
        assert_eq!(uncaught(&run(&[odd]), Ending::Exited(1)), None);
        // A flood before the report is looked at by its tail only.
        let flood = "x".repeat(10 * TAIL);
        assert!(uncaught(&run(&[&flood, "\n", PYTHON]), Ending::Exited(1)).is_some());
        assert_eq!(uncaught(&run(&[PYTHON, &flood]), Ending::Exited(1)), None);
    }
}
