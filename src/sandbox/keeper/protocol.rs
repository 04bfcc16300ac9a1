//! What referee and a slot's keeper say to each other, over a
//! `SOCK_SEQPACKET` socket pair: one message per request or report, file
//! descriptors passed alongside (`SCM_RIGHTS`), and the sender's process
//! id attached by the kernel (`SO_PASSCRED`), in referee's numbering.
//!
//! The keeper decodes requests with system calls only (it is a copy of a
//! multi-threaded process), so requests are plain bytes laid out here:
//! a [`Header`], then NUL-terminated strings (the working folder, the
//! program, its arguments, its environment).

use std::mem::size_of;

/// Resource limits carried per run: `(resource, soft, hard)`; a resource
/// of `u32::MAX` is unused.
pub const RLIMITS: usize = 6;

/// The most arguments and environment entries a request carries.
pub const MAX_ARGS: usize = 256;
/// See [`MAX_ARGS`].
pub const MAX_ENV: usize = 128;
/// The largest request.
pub const MAX_REQUEST: usize = 64 * 1024;
/// The most descriptors passed with a request: stdin, stdout, stderr and a
/// Landlock ruleset.
pub const MAX_FDS: usize = 4;

/// Request kinds.
pub const SPAWN: u32 = 1;
/// Kill everything of the current run and report its end.
pub const STOP: u32 = 2;
/// Open a process's memory (`/proc/PID/mem`, in referee's numbering) and
/// send it back: where referee may not look into the slot's programs
/// itself (root without `CAP_SYS_PTRACE`), the keeper, their ancestor
/// and of their user, may. Answered by a [`MEMORY`] report.
pub const OPEN_MEMORY: u32 = 3;
/// Say which file a process's descriptor is (`fstatat` of
/// `/proc/PID/fd/N`, in referee's numbering): where referee may not look,
/// the keeper may. Answered by a [`DESCRIPTOR`] report.
pub const STAT_DESCRIPTOR: u32 = 4;

/// The run's stdin is the slot's terminal, which is to be its controlling
/// terminal (a build has none).
pub const FLAG_TERMINAL: u32 = 1;
/// Install the allowlist in the child (the keeper does not run under it).
pub const FLAG_ALLOWLIST: u32 = 2;
/// The fourth descriptor is a Landlock ruleset to enforce.
pub const FLAG_LANDLOCK: u32 = 4;
/// Say the child's pid (in a hello, before `exec`): the runner watches
/// the program in `/proc` where it has no listener.
pub const FLAG_PID: u32 = 8;

/// The fixed part of a request.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Header {
    /// [`SPAWN`] or [`STOP`].
    pub kind: u32,
    /// `FLAG_*`.
    pub flags: u32,
    /// Arguments, the program's path first; for [`STAT_DESCRIPTOR`], the
    /// descriptor.
    pub args: u32,
    /// Environment entries.
    pub env: u32,
    /// Bytes of strings after the header.
    pub strings: u32,
    /// For [`OPEN_MEMORY`] and [`STAT_DESCRIPTOR`], the process, in
    /// referee's numbering.
    pub pid: u32,
    /// Resource limits.
    pub rlimits: [[u64; 3]; RLIMITS],
}

/// Report kinds. Set up and serving; the slot's listener attached, if
/// it has one.
pub const READY: u32 = 1;
/// The keeper could not set up its sandbox: `step`, `errno`.
pub const SETUP_FAILED: u32 = 2;
/// From the child, just before `exec`, when asked ([`FLAG_PID`]): its pid
/// is in the credentials.
pub const HELLO: u32 = 3;
/// The child called `exec`.
pub const STARTED: u32 = 4;
/// The child failed before or at `exec`: `errno`.
pub const SPAWN_FAILED: u32 = 5;
/// The run ended and its processes are gone (or not: `empty`).
pub const ENDED: u32 = 6;
/// The answer to [`OPEN_MEMORY`]: the process in `status`, its memory
/// attached, or `errno`.
pub const MEMORY: u32 = 7;
/// The answer to [`STAT_DESCRIPTOR`]: the process in `status`, the file's
/// device in `utime_us` and its inode in `stime_us`, or `errno`.
pub const DESCRIPTOR: u32 = 8;

/// A report from the keeper or its child.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// `READY`, `SETUP_FAILED`, ...
    pub kind: u32,
    /// An errno, for failures.
    pub errno: i32,
    /// The set-up step that failed.
    pub step: u32,
    /// The program's wait status, for `ENDED`.
    pub status: i32,
    /// Whether everything of the run is gone.
    pub empty: u32,
    /// Unused.
    pub pad: u32,
    /// User time, microseconds.
    pub utime_us: u64,
    /// System time, microseconds.
    pub stime_us: u64,
    /// Peak resident memory, KiB.
    pub maxrss_kb: u64,
}

impl Report {
    /// A report's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: Report is plain old data without padding bytes.
        unsafe { std::slice::from_raw_parts((self as *const Report).cast(), size_of::<Report>()) }
    }

    /// A report from its bytes.
    pub fn from_bytes(bytes: &[u8]) -> Option<Report> {
        if bytes.len() != size_of::<Report>() {
            return None;
        }
        // SAFETY: the length is right and every bit pattern is a Report.
        Some(unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast()) })
    }
}

/// A spawn request, built by referee.
pub struct Spawn<'a> {
    /// `FLAG_*`.
    pub flags: u32,
    /// The working folder, inside the sandbox.
    pub cwd: &'a [u8],
    /// The program's path, then its arguments (`argv[0]` included).
    pub path: &'a [u8],
    /// `argv`.
    pub args: &'a [&'a [u8]],
    /// `KEY=value` entries.
    pub env: &'a [&'a [u8]],
    /// Resource limits.
    pub rlimits: [[u64; 3]; RLIMITS],
}

/// A request could not be encoded.
#[derive(Debug)]
pub struct TooLarge;

impl Spawn<'_> {
    /// The request's bytes.
    pub fn encode(&self) -> Result<Vec<u8>, TooLarge> {
        if self.args.len() > MAX_ARGS || self.env.len() > MAX_ENV {
            return Err(TooLarge);
        }
        let mut strings = Vec::new();
        for s in [self.cwd, self.path]
            .into_iter()
            .chain(self.args.iter().copied())
            .chain(self.env.iter().copied())
        {
            if s.contains(&0) {
                return Err(TooLarge);
            }
            strings.extend_from_slice(s);
            strings.push(0);
        }
        while strings.len() % 8 != 0 {
            strings.push(0);
        }
        let header = Header {
            kind: SPAWN,
            flags: self.flags,
            args: self.args.len() as u32,
            env: self.env.len() as u32,
            strings: strings.len() as u32,
            pid: 0,
            rlimits: self.rlimits,
        };
        let mut bytes = Vec::with_capacity(size_of::<Header>() + strings.len());
        // SAFETY: Header is plain old data.
        bytes.extend_from_slice(unsafe {
            std::slice::from_raw_parts((&header as *const Header).cast::<u8>(), size_of::<Header>())
        });
        bytes.extend_from_slice(&strings);
        if bytes.len() > MAX_REQUEST {
            return Err(TooLarge);
        }
        Ok(bytes)
    }
}

/// A stop request's bytes.
pub fn stop() -> Vec<u8> {
    let header = Header {
        kind: STOP,
        ..Header::default()
    };
    // SAFETY: Header is plain old data.
    unsafe {
        std::slice::from_raw_parts((&header as *const Header).cast::<u8>(), size_of::<Header>())
    }
    .to_vec()
}

/// The bytes of a request for process `pid`'s memory.
pub fn open_memory(pid: u32) -> Vec<u8> {
    about(OPEN_MEMORY, pid, 0)
}

/// The bytes of a request for which file descriptor `fd` of process
/// `pid` is.
pub fn stat_descriptor(pid: u32, fd: u32) -> Vec<u8> {
    about(STAT_DESCRIPTOR, pid, fd)
}

/// A request of `kind` about process `pid` (and descriptor `fd`).
fn about(kind: u32, pid: u32, fd: u32) -> Vec<u8> {
    let header = Header {
        kind,
        pid,
        args: fd,
        ..Header::default()
    };
    // SAFETY: Header is plain old data.
    unsafe {
        std::slice::from_raw_parts((&header as *const Header).cast::<u8>(), size_of::<Header>())
    }
    .to_vec()
}

/// A request as the keeper sees it: pointers into its receive buffer.
/// Decoding checks every length, without allocating.
pub struct Decoded<'b> {
    /// The header.
    pub header: Header,
    /// The strings, NUL-terminated, one after the other.
    pub strings: &'b [u8],
}

/// Decodes a request received into `bytes`.
pub fn decode(bytes: &[u8]) -> Option<Decoded<'_>> {
    if bytes.len() < size_of::<Header>() {
        return None;
    }
    // SAFETY: the length is checked and every bit pattern is a Header.
    let header: Header = unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast()) };
    let rest = &bytes[size_of::<Header>()..];
    if rest.len() != header.strings as usize {
        return None;
    }
    let strings = rest;
    // Two paths, the arguments and the environment: each NUL-terminated.
    let wanted = 2 + header.args as usize + header.env as usize;
    let spawn = header.kind == SPAWN;
    if spawn
        && (header.args as usize > MAX_ARGS
            || header.env as usize > MAX_ENV
            || strings.iter().filter(|&&b| b == 0).count() < wanted)
    {
        return None;
    }
    Some(Decoded { header, strings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_survives_encoding() {
        let spawn = Spawn {
            flags: FLAG_TERMINAL,
            cwd: b"/work",
            path: b"/builds/x/program",
            args: &[b"program", b"arg"],
            env: &[b"HOME=/work"],
            rlimits: [[1, 2, 3]; RLIMITS],
        };
        let bytes = spawn.encode().unwrap();
        let decoded = decode(&bytes).unwrap();
        assert_eq!(decoded.header.args, 2);
        assert_eq!(decoded.header.rlimits[5], [1, 2, 3]);
        let parts: Vec<&[u8]> = decoded.strings.split(|&b| b == 0).take(5).collect();
        assert_eq!(
            parts,
            [
                &b"/work"[..],
                b"/builds/x/program",
                b"program",
                b"arg",
                b"HOME=/work"
            ]
        );
        assert!(decode(&bytes[..bytes.len() - 1]).is_none());
        assert!(decode(&stop()).is_some_and(|d| d.header.kind == STOP));
        let memory = decode(&open_memory(4242)).unwrap().header;
        assert_eq!((memory.kind, memory.pid), (OPEN_MEMORY, 4242));
        let fd = decode(&stat_descriptor(7, 2)).unwrap().header;
        assert_eq!((fd.kind, fd.pid, fd.args), (STAT_DESCRIPTOR, 7, 2));
        // A spawn request must hold its strings.
        let mut short = bytes.clone();
        short.truncate(size_of::<Header>());
        short[16..20].copy_from_slice(&0u32.to_ne_bytes());
        short[20..24].copy_from_slice(&0u32.to_ne_bytes());
        assert!(decode(&short).is_none());
        let nul = Spawn {
            args: &[b"a\0b"],
            ..spawn
        };
        assert!(nul.encode().is_err());
    }

    #[test]
    fn reports_survive_their_bytes() {
        let report = Report {
            kind: ENDED,
            status: 9,
            empty: 1,
            utime_us: 5,
            ..Report::default()
        };
        assert_eq!(Report::from_bytes(report.as_bytes()), Some(report));
        assert_eq!(Report::from_bytes(&[0; 3]), None);
    }
}
