//! A checked build's runs (see [`super::checked`]): runs like any other,
//! in the same sandbox with every layer on, with three differences
//! ([`prepare`]): the address space is not limited from outside (a
//! sanitizer reserves terabytes it never uses), so memory is held by the
//! control group, or, where there is none, by the build's own hold
//! ([`super::hold`]; refused where the program could run code before
//! it); the sanitizers write their
//! reports into a folder of the run's, never onto the terminal the
//! transcript is read from; and the runner notes that folder's size
//! before each input line, so that each report is placed after the
//! input line it followed.

use std::ffi::OsString;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::hold::Hold;
use crate::run::{Limits, Report};
use crate::sandbox::Jail;
use crate::untrusted;

/// The folder of a run's working folder the sanitizers write into.
pub const REPORTS: &str = ".referee-checks";

/// The file in [`REPORTS`] the checked build writes what the program
/// still holds when it ends into, where a run asks for it (see
/// [`super::checked`]'s options source).
pub const LEAKS: &str = "leaks";

/// What a checked run is asked for: the build's hold, and whether the
/// memory the program still holds when it ends is counted (a suite's
/// `leaks: true`).
#[derive(Clone, Copy, Debug)]
pub struct Checks<'h> {
    /// The build's hold.
    pub hold: &'h Hold,
    /// Whether leaks are counted.
    pub leaks: bool,
}

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

/// The address space a held run may add to what is mapped when its hold
/// starts, where the case has no memory limit: only its processes and
/// `exec` are refused then.
const UNLIMITED_HOLD: u64 = 1 << 46;

/// Makes `jail` ready for a checked run of the build `checks.hold` is of,
/// under `limits`: the reports' folder, writable by the program; the
/// sanitizers' options; where asked, the file leaks are counted into;
/// no limit on address space from outside. Where the slot has no control
/// group, the build's hold is asked for, and the run refused where the
/// program could run code before it.
pub fn prepare(jail: &mut Jail, limits: &Limits, checks: Checks<'_>) -> io::Result<()> {
    let hold = checks.hold;
    // Where the slot's control group holds the run, nothing more is
    // needed; elsewhere the build holds itself.
    if !jail.has_group() {
        hold.verified().map_err(|why| {
            io::Error::other(format!(
                "no control group holds a checked run's memory here, and this program's \
                 checked build cannot hold its own: {why}"
            ))
        })?;
        let bytes = limits.memory.unwrap_or(UNLIMITED_HOLD);
        jail.set_env("REFEREE_HOLD", bytes.to_string());
    }
    let folder = jail.workdir().join(REPORTS);
    std::fs::create_dir(&folder)?;
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o777))?;
    if checks.leaks {
        jail.set_env("REFEREE_LEAKS", jail.inside(&folder).join(LEAKS));
    }
    let inside = jail.inside(&folder).join("report");
    let inside = inside.to_string_lossy();
    jail.reserve_address_space(libc::RLIM_INFINITY);
    let memory = limits.memory.map(|m| (m >> 20).max(1)).unwrap_or(0);
    jail.set_env("ASAN_OPTIONS", asan_options(&inside, memory));
    jail.set_env("UBSAN_OPTIONS", ubsan_options(&inside));
    jail.watch(folder);
    Ok(())
}

/// AddressSanitizer's options: reports to `log` (with the process id
/// after it), unsymbolized (referee places them itself: no symbolizer is
/// let into the sandbox), no leak check (it needs `ptrace`, and a leak
/// is no undefined behaviour), the allocator held to `memory_mb` (so that
/// a program that allocates too much is told so by the sanitizer; what
/// holds the run's memory is the control group or the hold).
fn asan_options(log: &str, memory_mb: u64) -> OsString {
    let mut options = format!(
        "log_path={log}:symbolize=0:detect_leaks=0:print_summary=1:\
         allocator_may_return_null=0:handle_abort=1:detect_odr_violation=0"
    );
    if memory_mb > 0 {
        options.push_str(&format!(":malloc_limit_mb={memory_mb}"));
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
