//! A checked build's runs (see [`super::checked`]): runs like any other,
//! in the same sandbox with every layer on, with three differences
//! ([`prepare`]): the address space is not limited (a sanitizer reserves
//! terabytes it never uses), so memory is held by the control group, or
//! by the sanitizer's own limits where it can read `/proc` (refused
//! otherwise); the sanitizers write their
//! reports into a folder of the run's, never onto the terminal the
//! transcript is read from; and the runner notes that folder's size
//! before each input line, so that each report is placed after the
//! input line it followed.

use std::ffi::OsString;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::run::{Limits, Report};
use crate::sandbox::Jail;
use crate::untrusted;

/// The folder of a run's working folder the sanitizers write into.
pub const REPORTS: &str = ".referee-checks";

/// The most of one report file that is read.
const REPORT_LIMIT: u64 = 256 << 10;

/// The most of all a run's report files that is read.
const REPORTS_LIMIT: u64 = 1 << 20;

/// How much more time and memory a checked run gets than the case's own
/// limits: a sanitized program runs two to three times slower and holds
/// its shadow memory besides its own.
const SLOWER: u32 = 3;
const LARGER: u64 = 3;

/// The limits of a checked run of a case run under `limits`.
pub fn limits(limits: &Limits) -> Limits {
    Limits {
        wall: limits.wall.saturating_mul(SLOWER),
        cpu: limits.cpu.saturating_mul(SLOWER),
        memory: limits.memory.map(|m| m.saturating_mul(LARGER)),
        ..limits.clone()
    }
}

/// Makes `jail` ready for a checked run under `limits`: the reports'
/// folder, writable by the program; the sanitizers' options; no limit on
/// address space. Refused where nothing would hold the run's memory in
/// its place (see [`memory_held`]).
pub fn prepare(jail: &mut Jail, limits: &Limits) -> io::Result<()> {
    let watched = memory_held(jail)?;
    let folder = jail.workdir().join(REPORTS);
    std::fs::create_dir(&folder)?;
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o777))?;
    let inside = jail.inside(&folder).join("report");
    let inside = inside.to_string_lossy();
    jail.reserve_address_space(libc::RLIM_INFINITY);
    let memory = limits.memory.map(|m| (m >> 20).max(1)).unwrap_or(0);
    jail.set_env("ASAN_OPTIONS", asan_options(&inside, memory, watched));
    jail.set_env("UBSAN_OPTIONS", ubsan_options(&inside));
    jail.watch(folder);
    Ok(())
}

/// What holds a checked run's memory once its address space is not
/// limited: the slot's control group, where there is one (`Ok(false)`);
/// else, where programs see the machine's `/proc` (no minimal root: a
/// container), the sanitizer itself, which then watches the process's
/// resident memory (`Ok(true)`). Elsewhere nothing would, and a program
/// could take the machine's memory with `mmap`: the run is refused, and
/// the program has no diagnoses of its runs (its grade is made as ever).
fn memory_held(jail: &Jail) -> io::Result<bool> {
    if jail.has_group() {
        return Ok(false);
    }
    let sees_proc = jail.inside(jail.workdir()) == jail.workdir();
    if sees_proc {
        return Ok(true);
    }
    Err(io::Error::other(
        "no control group holds a checked run's memory here, and the sanitizer cannot watch it          without /proc (as root, or where control groups are delegated, it can)",
    ))
}

/// AddressSanitizer's options: reports to `log` (with the process id
/// after it), unsymbolized (referee places them itself: no symbolizer is
/// let into the sandbox), no leak check (it needs `ptrace`, and a leak
/// is no undefined behaviour), the allocator held to `memory_mb`, and,
/// where `watched`, the resident memory too (checked every tenth of a
/// second by a thread of the sanitizer's).
fn asan_options(log: &str, memory_mb: u64, watched: bool) -> OsString {
    let mut options = format!(
        "log_path={log}:symbolize=0:detect_leaks=0:print_summary=1:\
         allocator_may_return_null=0:handle_abort=1:detect_odr_violation=0"
    );
    if memory_mb > 0 {
        options.push_str(&format!(":malloc_limit_mb={memory_mb}"));
        if watched {
            options.push_str(&format!(":hard_rss_limit_mb={memory_mb}"));
        }
    }
    options.into()
}

/// UndefinedBehaviorSanitizer's options: the same report file, a stack
/// for each report (its first frame is the function), and going on after
/// each (each place is reported once).
fn ubsan_options(log: &str) -> OsString {
    format!("log_path={log}:print_stacktrace=1:symbolize=0:halt_on_error=0").into()
}

/// The report files a checked run left in its folder, read as far as the
/// limits allow, in the order of their names. A link, a folder or a
/// FIFO the program put there is passed over.
pub fn reports(jail: &Jail) -> Vec<Report> {
    let folder = jail.workdir().join(REPORTS);
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return Vec::new();
    };
    let mut names: Vec<OsString> = entries
        .take(crate::run::WATCHED_FILES)
        .filter_map(|e| Some(e.ok()?.file_name()))
        .collect();
    names.sort();
    let mut left = REPORTS_LIMIT;
    let mut found = Vec::new();
    for name in names {
        if left == 0 {
            break;
        }
        if let Some(report) = read_report(&folder.join(&name), left.min(REPORT_LIMIT)) {
            left = left.saturating_sub(report.text.len() as u64);
            found.push(report);
        }
    }
    found
}

fn read_report(path: &Path, limit: u64) -> Option<Report> {
    let (text, cut) = untrusted::read_start(path, limit).ok()?;
    // The program may have named a file anything: a name is kept short
    // and safe to show.
    let name = path.file_name()?.to_string_lossy();
    let name: String = crate::text::visible::safe(name.as_bytes())
        .chars()
        .take(64)
        .collect();
    Some(Report { name, text, cut })
}
