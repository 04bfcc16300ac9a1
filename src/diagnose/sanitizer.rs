//! Reading what AddressSanitizer and UndefinedBehaviorSanitizer wrote in
//! a checked run's report file: each report's kind, its words, where in
//! the file it starts, and its stack as the sanitizer gave it (module and
//! offset: the sanitizers are told not to symbolize, and referee places
//! the frames itself, [`super::symbols`]).
//!
//! The file is the program's to write: a program can fill it, cut it or
//! write a report of its own making there. Parsing is line by line, each
//! line cut to [`LINE_LIMIT`], at most [`REPORTS_LIMIT`] reports and
//! [`FRAMES_LIMIT`] frames each: a report that makes no sense is no
//! diagnosis, never an error.

use super::diagnosis::{bounded, Kind};

/// The most bytes of a line that are looked at.
const LINE_LIMIT: usize = 1024;

/// The most reports read from one run.
pub const REPORTS_LIMIT: usize = 64;

/// The most frames kept of one report's stack.
const FRAMES_LIMIT: usize = 32;

/// The module a sanitizer names the program itself by where it cannot
/// read its own path; the leak count names its places so too.
pub const PROGRAM: &str = "/proc/self/exe";

/// One frame of a report's stack: the module (an executable or library,
/// as the sanitizer named it) and the offset in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The module's path, as the program saw it.
    pub module: String,
    /// The offset in the module.
    pub offset: u64,
}

/// One report of a sanitizer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// What kind of fault.
    pub kind: Kind,
    /// The sanitizer's words (its first line's, shortened).
    pub message: String,
    /// Where the report starts in the text.
    pub at: usize,
    /// The place UndefinedBehaviorSanitizer names itself (file, line,
    /// column).
    pub place: Option<(String, u32, u32)>,
    /// The stack where it happened, innermost first.
    pub frames: Vec<Frame>,
}

/// The reports in `text`, in order.
pub fn parse(text: &[u8]) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    // Whether the frames that follow belong to the last report (an
    // AddressSanitizer report goes on with the stacks of where memory was
    // allocated or freed, which are not where the fault happened).
    let mut in_stack = false;
    let mut frames_done = false;
    let mut at = 0;
    for raw in text.split_inclusive(|&b| b == b'\n') {
        let start = at;
        at += raw.len();
        let line = String::from_utf8_lossy(&raw[..raw.len().min(LINE_LIMIT)]);
        let line = line.trim_end();
        if let Some(report) = report_start(line, start) {
            if found.len() == REPORTS_LIMIT {
                break;
            }
            found.push(report);
            in_stack = true;
            frames_done = false;
            continue;
        }
        let Some(last) = found.last_mut() else {
            continue;
        };
        if let Some(frame) = frame(line) {
            if in_stack && !frames_done && last.frames.len() < FRAMES_LIMIT {
                last.frames.push(frame);
            }
            continue;
        }
        if !last.frames.is_empty() {
            // The first stack has ended: what follows describes it.
            frames_done = true;
        }
        refine(last, line);
    }
    found
}

/// A line that starts a report, made into one.
fn report_start(line: &str, at: usize) -> Option<Found> {
    if let Some(rest) = after(line, "ERROR: AddressSanitizer: ") {
        let what = rest.split(" on ").next().unwrap_or(rest);
        let what = what.split_whitespace().next().unwrap_or("");
        return Some(Found {
            kind: address_kind(what, rest),
            // Its addresses say nothing to a student.
            message: bounded(rest.split(" on address ").next().unwrap_or(rest)),
            at,
            place: None,
            frames: Vec::new(),
        });
    }
    let (place, message) = line.split_once(": runtime error: ")?;
    let mut parts = place.rsplitn(3, ':');
    let column: u32 = parts.next()?.parse().ok()?;
    let line_number: u32 = parts.next()?.parse().ok()?;
    let file = parts.next()?;
    Some(Found {
        kind: undefined_kind(message),
        message: bounded(message),
        at,
        place: Some((bounded(file), line_number, column)),
        frames: Vec::new(),
    })
}

/// What follows `marker` in `line`, where the marker comes after the
/// sanitizer's `==PID==`.
fn after<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let at = line.find(marker)?;
    line[..at]
        .starts_with("==")
        .then(|| &line[at + marker.len()..])
}

/// A stack frame line: `    #0 0x55d0c7b0a1b9  (/builds/x/checked+0x11b9)`
/// (or, symbolized by the sanitizer, `#0 0x… in f (/path+0x…)`);
/// clang's runtime adds the module's build id after it, `(BuildId: 9a…)`.
fn frame(line: &str) -> Option<Frame> {
    let line = line.trim();
    let line = match line.rfind(" (BuildId: ") {
        Some(at) if line.ends_with(')') => &line[..at],
        _ => line,
    };
    let rest = line.strip_prefix('#')?;
    let open = rest.rfind('(')?;
    let inner = rest[open + 1..].strip_suffix(')')?;
    let (module, offset) = inner.rsplit_once("+0x")?;
    Some(Frame {
        module: module.to_string(),
        offset: u64::from_str_radix(offset, 16).ok()?,
    })
}

/// What a line after a report's first says of it: which access, and on
/// which side of the memory.
fn refine(found: &mut Found, line: &str) {
    let kind = found.kind;
    let write = line.starts_with("WRITE of size");
    let read = line.starts_with("READ of size");
    // gcc's runtime says "to the left of", clang's (19) "before".
    let before = line.contains("to the left of")
        || line.contains(" bytes before ")
        || line.contains("underflows this variable");
    found.kind = match kind {
        Kind::ReadPastEnd | Kind::WritePastEnd | Kind::StackOverrun if write => {
            if found.message.starts_with("stack-buffer-overflow") {
                Kind::StackOverrun
            } else {
                Kind::WritePastEnd
            }
        }
        Kind::ReadPastEnd | Kind::WritePastEnd | Kind::StackOverrun if read => Kind::ReadPastEnd,
        Kind::ReadPastEnd if before => Kind::ReadBeforeStart,
        Kind::WritePastEnd | Kind::StackOverrun if before => Kind::WriteBeforeStart,
        kind => kind,
    };
    if write || read {
        let size = line.split_whitespace().nth(3).unwrap_or("?");
        let access = if write { "a write" } else { "a read" };
        found.message = bounded(&format!("{} ({access} of {size} bytes)", found.message));
    }
    if let Some(variable) = described(line) {
        found.message = bounded(&format!("{}; {variable}", found.message));
    }
}

/// The memory a report's description names, in short: "global variable
/// 'board' defined in 'lab6.c:3:5' of size 144".
fn described(line: &str) -> Option<String> {
    if let Some(at) = line.find(" global variable '") {
        let rest = &line[at + 1..];
        let name_end = rest.find("' defined")?;
        let size = line.rsplit("of size ").next()?;
        return Some(format!("{}' of {size} bytes", &rest[..name_end]));
    }
    if line.contains("<== Memory access at offset") {
        let name = line.split('\'').nth(1)?;
        return Some(format!("the local variable '{name}'"));
    }
    if let Some(at) = line.find("-byte region") {
        let size = line[..at].rsplit(' ').next()?;
        return Some(format!("a block of {size} bytes from malloc"));
    }
    None
}

/// AddressSanitizer's name for a fault, as a kind (the access, read or
/// write, and its side are refined from the lines that follow).
fn address_kind(what: &str, rest: &str) -> Kind {
    match what {
        "heap-buffer-overflow"
        | "global-buffer-overflow"
        | "stack-buffer-overflow"
        | "stack-buffer-underflow"
        | "dynamic-stack-buffer-overflow" => Kind::ReadPastEnd,
        "heap-use-after-free" => Kind::UseAfterFree,
        "attempting" if rest.starts_with("attempting double-free") => Kind::DoubleFree,
        "attempting" | "bad-free" | "alloc-dealloc-mismatch" => Kind::BadFree,
        "stack-use-after-return" | "stack-use-after-scope" => Kind::UseAfterScope,
        "SEGV" | "BUS" | "unknown-crash" => Kind::BadAddress,
        "stack-overflow" => Kind::StackExhausted,
        "FPE" => Kind::DivisionByZero,
        _ => Kind::Undefined,
    }
}

/// UndefinedBehaviorSanitizer's words, as a kind.
fn undefined_kind(message: &str) -> Kind {
    let has = |words: &str| message.contains(words);
    if has("out of bounds for type") {
        Kind::IndexOutOfBounds
    } else if message.starts_with("load of address") && has("insufficient space") {
        Kind::ReadPastEnd
    } else if message.starts_with("store to address") && has("insufficient space") {
        Kind::WritePastEnd
    } else if has("signed integer overflow") || has("negation of") && has("cannot be represented") {
        Kind::SignedOverflow
    } else if has("division by zero") {
        Kind::DivisionByZero
    } else if has("shift exponent") || has("left shift of") {
        Kind::BadShift
    } else if has("null pointer") {
        Kind::BadAddress
    } else if has("without returning a value") {
        Kind::MissingReturn
    } else {
        Kind::Undefined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GLOBAL: &str = "\
oob.c:4:61: runtime error: index 6 out of bounds for type 'int [6]'
    #0 0x560bd4370ebe  (/proc/self/exe+0xe4ebe)
    #1 0x560bd43711f7  (/proc/self/exe+0xe51f7)
    #2 0x7fcfb293a249  (/lib/x86_64-linux-gnu/libc.so.6+0x27249)

=================================================================
==17==ERROR: AddressSanitizer: global-buffer-overflow on address 0x560bd4918fb0 at pc 0x560bd4370ffd bp 0x7ffd1504ea90 sp 0x7ffd1504ea88
READ of size 4 at 0x560bd4918fb0 thread T0
    #0 0x560bd4370ffc  (/proc/self/exe+0xe4ffc)
    #1 0x560bd43711f7  (/proc/self/exe+0xe51f7)

0x560bd4918fb0 is located 0 bytes to the right of global variable 'board' defined in 'oob.c:3:5' (0x560bd4918f20) of size 144
SUMMARY: AddressSanitizer: global-buffer-overflow (/proc/self/exe+0xe4ffc)
";

    #[test]
    fn both_sanitizers_reports_are_read_with_their_stacks() {
        let found = parse(GLOBAL.as_bytes());
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].kind, Kind::IndexOutOfBounds);
        assert_eq!(found[0].place, Some(("oob.c".into(), 4, 61)));
        assert_eq!(found[0].frames.len(), 3);
        assert_eq!(found[0].frames[0].offset, 0xe4ebe);
        assert_eq!(found[1].kind, Kind::ReadPastEnd);
        assert_eq!(found[1].frames.len(), 2);
        assert!(found[1].message.contains("'board' of 144 bytes"));
        assert!(GLOBAL[found[1].at..].starts_with("==17==ERROR"));
    }

    /// clang 19's runtime: each frame with its module's build id, and a
    /// side said "after" and "before".
    #[test]
    fn clangs_reports_are_read_as_gccs() {
        let text = "\
speller.c:40:23: runtime error: index 26 out of bounds for type 'node *[26]'
    #0 0x55d02f92bdf3  (/tmp/cl/o+0x10bdf3) (BuildId: ba36fc7018bcc4f5a45eaa8e4983ba117eb4498f)
    #1 0x7f0858d47249  (/lib/x86_64-linux-gnu/libc.so.6+0x27249) (BuildId: 93ac61ec)

==1507==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6 at pc 0x1 bp 0x2 sp 0x3
WRITE of size 4 at 0x6 thread T0
    #0 0x55d02f92bec0  (/tmp/cl/o+0x10bec0) (BuildId: ba36fc7018bcc4f5a45eaa8e4983ba117eb4498f)

0x6 is located 4 bytes before 24-byte region [0x60,0x78)
";
        let found = parse(text.as_bytes());
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].frames.len(), 2);
        assert_eq!(found[0].frames[0].module, "/tmp/cl/o");
        assert_eq!(found[0].frames[0].offset, 0x10bdf3);
        assert_eq!(found[1].frames[0].offset, 0x10bec0);
        assert_eq!(found[1].kind, Kind::WriteBeforeStart);
        assert!(
            found[1].message.contains("a block of 24 bytes"),
            "{}",
            found[1].message
        );
    }

    #[test]
    fn a_write_past_a_local_array_is_a_stack_overrun() {
        let text = "==9==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7f at pc 0x1 bp 0x2 sp 0x3
WRITE of size 12 at 0x7f thread T0
    #0 0x1  (/builds/x/checked+0x10)
    [32, 40) 'name' (line 5) <== Memory access at offset 40 overflows this variable
";
        let found = parse(text.as_bytes());
        assert_eq!(found[0].kind, Kind::StackOverrun);
        assert!(found[0].message.contains("'name'"));
    }

    #[test]
    fn heap_faults_are_placed_on_their_side_and_only_the_first_stack_counts() {
        let text = "==9==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6 at pc 0x1 bp 0x2 sp 0x3
WRITE of size 4 at 0x6 thread T0
    #0 0x1  (/builds/x/checked+0x10)

0x6 is located 4 bytes to the left of 24-byte region [0x60,0x78)
allocated by thread T0 here:
    #0 0x1  (/builds/x/checked+0x99)
";
        let found = parse(text.as_bytes());
        assert_eq!(found[0].kind, Kind::WriteBeforeStart);
        assert_eq!(found[0].frames.len(), 1);
    }

    #[test]
    fn text_that_is_no_report_is_nothing_and_floods_are_bounded() {
        assert!(parse(b"hello\n#0 (x+0x1)\n").is_empty());
        let flood = "a.c:1:1: runtime error: signed integer overflow\n".repeat(100_000);
        assert_eq!(parse(flood.as_bytes()).len(), REPORTS_LIMIT);
        let long = format!("a.c:1:1: runtime error: {}\n", "x".repeat(1 << 20));
        assert!(
            parse(long.as_bytes())[0].message.chars().count()
                <= crate::diagnose::diagnosis::TEXT_LIMIT
        );
    }
}
