//! Which linker a checked build asks for. Its sanitizers' runtimes are
//! linked statically, some 1.5 MB of code a program, and GNU gold links
//! them in about half the time of the default linker (bfd): some 25 ms
//! of the 110 ms a checked build costs (docs/performance.md). Gold is
//! part of binutils where the compiler is gcc on most machines, but not
//! on every one, so it is asked for only where the compiler finds it;
//! elsewhere, or where it then fails, the compiler's own linker links.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

use wait_timeout::ChildExt;

use super::languages::Compiler;

/// The argument that asks the compiler for gold.
const GOLD: &str = "-fuse-ld=gold";

/// How long the compiler may take to say which linker it finds.
const ASKING: Duration = Duration::from_secs(10);

/// What each compiler (by name) was found to link with: `true` when
/// gold, asked once per process.
static FOUND: Mutex<Vec<(&'static str, bool)>> = Mutex::new(Vec::new());

/// The argument for a faster linker than `compiler`'s own, where it has
/// one that works.
pub fn faster(compiler: &'static Compiler) -> Option<&'static str> {
    let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, gold)) = found.iter().find(|(name, _)| *name == compiler.name) {
        return gold.then_some(GOLD);
    }
    let gold = finds_gold(compiler);
    found.push((compiler.name, gold));
    gold.then_some(GOLD)
}

/// Never asks for a faster linker for `compiler` again in this process:
/// it failed where the compiler's own did not.
pub fn refuse(compiler: &'static Compiler) {
    let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    found.retain(|(name, _)| *name != compiler.name);
    found.push((compiler.name, false));
}

/// Whether `compiler` links with gold when asked to: it says so when
/// asked for the linker's version (and refuses `-fuse-ld=gold` where
/// gold is missing).
fn finds_gold(compiler: &Compiler) -> bool {
    let Ok(command) = super::build::command_of(compiler) else {
        return false;
    };
    let child = Command::new(command)
        .args([GOLD, "-Wl,--version"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return false;
    };
    let mut said = Vec::new();
    if let Some(out) = child.stdout.take() {
        // The first lines are enough; a compiler is not made to flood.
        let _ = out.take(64 << 10).read_to_end(&mut said);
    }
    let ended = match child.wait_timeout(ASKING) {
        Ok(Some(status)) => status.success(),
        _ => {
            let _ = child.kill();
            let _ = child.wait();
            false
        }
    };
    ended && String::from_utf8_lossy(&said).contains("GNU gold")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::languages;

    /// A compiler that is not installed has no faster linker, and asking
    /// again costs nothing.
    #[test]
    fn a_missing_compiler_links_with_nothing_faster() {
        static MISSING: Compiler = Compiler {
            language: crate::submission::Language::C,
            name: "missing-cc",
            commands: &["referee-no-such-compiler"],
            package: "nothing",
            libs: &[],
            family: languages::Family::Gcc,
        };
        assert_eq!(faster(&MISSING), None);
        assert_eq!(faster(&MISSING), None);
    }

    /// gcc finds gold where binutils ships it (this machine's does), and
    /// once refused it is not asked for again.
    #[test]
    fn gcc_finds_gold_where_it_is_installed_and_not_once_refused() {
        let Some(languages::Entry {
            build: languages::Build::Compiler(gcc),
            ..
        }) = languages::entry(crate::submission::Language::C)
        else {
            panic!("C is compiled");
        };
        let installed = std::path::Path::new("/usr/bin/ld.gold").exists();
        assert_eq!(faster(gcc).is_some(), installed);
        refuse(gcc);
        assert_eq!(faster(gcc), None);
    }
}
