//! Whether a checked build's runs can be held where no control group
//! holds them (a container with Docker's default settings).
//!
//! A checked run's address space cannot be limited from outside: the
//! sanitizer reserves some 20 TiB of it for its shadow before the
//! program's first line. So the checked build holds itself: code of
//! referee's, linked into it ([`super::checked`]'s options source), runs
//! right after the sanitizer has made its reservations and before any of
//! the program's own code, and there limits the address space to what is
//! mapped then plus the run's memory limit, and installs a seccomp filter
//! that refuses every new process (`fork`, `vfork`, `clone` of anything
//! but a thread) and every `exec` (an image without the sanitizer would
//! inherit the unlimited address space). What is left, memory touched in
//! the sanitizer's own reserved ranges, is held by its resident-memory
//! watchdog (see [`super::sanitized`]).
//!
//! That holds only if nothing of the student's runs before it. The
//! dynamic loader and the sanitizer's start-up are not the student's, but
//! a program can put code in three places that run earlier: an indirect
//! function's resolver (run while the loader relocates), an entry of its
//! own in `.preinit_array` ahead of referee's, and a function that
//! replaces one the sanitizer's runtime defines weakly (the runtime calls
//! some while it starts). And it can name another loader. Each is read
//! off the linked program here and compared with a probe: a program of
//! one line built the same way ([`Facts`] of both). A program that has
//! any of them is not run from its checked build where nothing else would
//! hold it; its grade is made as ever.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use object::elf;
use object::read::elf::{ElfFile64, ProgramHeader, Sym};
use object::{Endianness, Object, ObjectSection, RelocationFlags};

/// What a linked program does before its `main`, as far as holding its
/// checked runs is concerned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// The dynamic loader it names.
    pub interpreter: Option<Vec<u8>>,
    /// The functions its `.preinit_array` calls, in order (their symbol
    /// names; `?` where none is named).
    pub preinit: Vec<String>,
    /// Indirect functions it defines, and relocations that call one.
    pub indirect: usize,
    /// Symbols it defines weakly, whose names are the sanitizers'.
    pub weak: BTreeSet<String>,
    /// Symbols it references weakly and leaves undefined.
    pub undefined_weak: BTreeSet<String>,
    /// Every symbol it defines that others could see (not local ones).
    pub defined: BTreeSet<String>,
}

/// The most of a program file that is read.
const READ_LIMIT: u64 = 256 << 20;

/// Why a checked build's runs cannot hold themselves: what of the
/// program's would run before its hold, in words for the TA.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unheld {
    /// The linked program could not be read.
    #[error("cannot read the checked build: {0}")]
    Unreadable(String),
    /// It is larger than referee reads.
    #[error("the checked build is larger than referee reads")]
    TooLarge,
    /// It is no ELF program.
    #[error("the checked build is not an ELF program: {0}")]
    NotElf(String),
    /// It names another loader.
    #[error("it names another dynamic loader ({0}) than the compiler's")]
    OtherLoader(String),
    /// It defines an indirect function.
    #[error(
        "it defines an indirect function (`ifunc`), whose resolver runs before anything else \
         of a program"
    )]
    Indirect,
    /// It has an entry of its own ahead of referee's.
    #[error("it puts code of its own in `.preinit_array` ahead of referee's")]
    Preinit,
    /// It replaces a function the sanitizers' runtime defines weakly.
    #[error("it defines `{0}`, a function of the sanitizers' runtime")]
    Replaces(String),
    /// It defines a function the runtime calls where one is defined.
    #[error("it defines `{0}`, which the sanitizers' runtime calls if it is there")]
    Hooks(String),
    /// The probe it is compared with could not be made.
    #[error("the probe it is compared with could not be built: {0}")]
    Probe(String),
}

/// What a checked build is compared with: the facts of a probe built the
/// same way, made by whoever made the build (see [`super::checked`]).
pub type Probe = Arc<dyn Fn() -> Result<Facts, Unheld> + Send + Sync>;

/// Whether a checked build's runs can hold themselves: found when first
/// asked (only where no control group holds them), by comparing the
/// program with its probe.
pub struct Hold {
    binary: PathBuf,
    probe: Probe,
    verdict: OnceLock<Result<(), Unheld>>,
}

impl Hold {
    /// The hold of the checked build at `binary`, compared with `probe`.
    pub fn new(binary: PathBuf, probe: Probe) -> Hold {
        Hold {
            binary,
            probe,
            verdict: OnceLock::new(),
        }
    }

    /// `Ok` where nothing of the program's runs before its hold; else
    /// what does.
    pub fn verified(&self) -> Result<(), Unheld> {
        self.verdict
            .get_or_init(|| compare(&(self.probe)()?, &facts(&self.binary)?))
            .clone()
    }
}

impl std::fmt::Debug for Hold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hold")
            .field("binary", &self.binary)
            .field("verdict", &self.verdict.get())
            .finish_non_exhaustive()
    }
}

/// Reads the facts of the program at `path`.
pub fn facts(path: &Path) -> Result<Facts, Unheld> {
    let (data, cut) = crate::untrusted::read_start(path, READ_LIMIT)
        .map_err(|e| Unheld::Unreadable(e.to_string()))?;
    if cut {
        return Err(Unheld::TooLarge);
    }
    parse(&data)
}

fn parse(data: &[u8]) -> Result<Facts, Unheld> {
    let bad = |e: object::Error| Unheld::NotElf(e.to_string());
    let file = ElfFile64::<Endianness>::parse(data).map_err(bad)?;
    let endian = file.endian();
    let mut facts = Facts::default();
    for segment in file.elf_program_headers() {
        if let Some(path) = segment.interpreter(endian, data).map_err(bad)? {
            facts.interpreter = Some(path.to_vec());
        }
    }
    let table = file.elf_symbol_table();
    let strings = table.strings();
    let mut functions = std::collections::BTreeMap::new();
    for symbol in table.symbols() {
        let name = String::from_utf8_lossy(symbol.name(endian, strings).unwrap_or_default());
        let defined = symbol.st_shndx(endian) != elf::SHN_UNDEF;
        let weak = symbol.st_bind() == elf::STB_WEAK;
        if symbol.st_type() == elf::STT_GNU_IFUNC && defined {
            facts.indirect += 1;
        }
        if weak && defined && is_sanitizers(&name) {
            facts.weak.insert(name.to_string());
        }
        if weak && !defined {
            facts.undefined_weak.insert(name.to_string());
        }
        if defined && symbol.st_bind() != elf::STB_LOCAL {
            facts.defined.insert(name.to_string());
        }
        if defined && symbol.st_type() == elf::STT_FUNC {
            functions
                .entry(symbol.st_value(endian))
                .or_insert_with(|| name.to_string());
        }
    }
    // One pass over the loader's relocations: those a program's own
    // function resolves, and those that fill `.preinit_array`'s words.
    let preinit = file.section_by_name(".preinit_array");
    let range = preinit
        .as_ref()
        .map_or(0..0, |s| s.address()..s.address() + s.size());
    let mut addends = std::collections::BTreeMap::new();
    for (at, r) in file.dynamic_relocations().into_iter().flatten() {
        if matches!(r.flags(), RelocationFlags::Elf { r_type } if is_irelative(r_type)) {
            facts.indirect += 1;
        }
        if range.contains(&at) {
            addends.insert(at, r.addend());
        }
    }
    if let Some(section) = preinit {
        facts.preinit = preinit_calls(&section, endian, &addends, &functions)?;
    }
    Ok(facts)
}

/// The functions `.preinit_array` calls: its words, or where the linker
/// left a word to the loader, the relocation's addend.
fn preinit_calls(
    section: &object::read::elf::ElfSection64<'_, '_, Endianness>,
    endian: Endianness,
    addends: &std::collections::BTreeMap<u64, i64>,
    functions: &std::collections::BTreeMap<u64, String>,
) -> Result<Vec<String>, Unheld> {
    let start = section.address();
    let words = section.data().map_err(|e| Unheld::NotElf(e.to_string()))?;
    Ok(words
        .chunks_exact(8)
        .enumerate()
        .map(|(i, word)| {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(word);
            let at = start + 8 * i as u64;
            let value = match endian {
                Endianness::Little => u64::from_le_bytes(bytes),
                Endianness::Big => u64::from_be_bytes(bytes),
            };
            let value = if value == 0 {
                addends.get(&at).map(|&a| a as u64).unwrap_or(0)
            } else {
                value
            };
            functions.get(&value).cloned().unwrap_or_else(|| "?".into())
        })
        .collect())
}

/// `R_X86_64_IRELATIVE` and `R_AARCH64_IRELATIVE`: a relocation whose
/// value a function of the program's computes, while the loader works.
fn is_irelative(r_type: u32) -> bool {
    r_type == elf::R_X86_64_IRELATIVE || r_type == elf::R_AARCH64_IRELATIVE
}

/// Whether `name` is of the sanitizers' runtimes (C names and C++
/// namespaces alike), which nothing of a student's should define.
fn is_sanitizers(name: &str) -> bool {
    [
        "__asan",
        "__lsan",
        "__ubsan",
        "__sanitizer",
        "__interception",
        "__interceptor",
        "__sancov",
    ]
    .iter()
    .any(|word| name.contains(word))
}

/// Why `program`'s checked runs cannot be held as `probe`'s are: the
/// first thing of the student's that would run before the hold, in words
/// for the TA.
pub fn compare(probe: &Facts, program: &Facts) -> Result<(), Unheld> {
    let safe = |name: &[u8]| crate::text::visible::safe(name).to_string();
    if program.interpreter != probe.interpreter {
        let named = program.interpreter.as_deref().unwrap_or(b"none");
        return Err(Unheld::OtherLoader(safe(named)));
    }
    if program.indirect > probe.indirect {
        return Err(Unheld::Indirect);
    }
    let ours = probe.preinit.len();
    if program.preinit.len() < ours || program.preinit[..ours] != probe.preinit[..] {
        return Err(Unheld::Preinit);
    }
    if let Some(name) = probe.weak.difference(&program.weak).next() {
        return Err(Unheld::Replaces(safe(name.as_bytes())));
    }
    if let Some(name) = probe
        .undefined_weak
        .iter()
        .find(|name| program.defined.contains(*name))
    {
        return Err(Unheld::Hooks(safe(name.as_bytes())));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe() -> Facts {
        Facts {
            interpreter: Some(b"/lib64/ld-linux-x86-64.so.2".to_vec()),
            preinit: vec!["__asan_init".into(), "referee_hold".into()],
            indirect: 0,
            weak: ["__asan_default_suppressions".to_string()].into(),
            undefined_weak: ["__sanitizer_malloc_hook".to_string()].into(),
            defined: ["main".to_string()].into(),
        }
    }

    #[test]
    fn a_program_like_the_probe_is_held_and_each_way_before_the_hold_is_refused() {
        let probe = probe();
        assert_eq!(compare(&probe, &probe), Ok(()));
        let mut after = probe.clone();
        after.preinit.push("its_own".into());
        assert_eq!(compare(&probe, &after), Ok(()), "its own entry after ours");

        type Change = fn(&mut Facts);
        let cases: [(&str, Change); 5] = [
            ("loader", |f| f.interpreter = Some(b"/tmp/x".to_vec())),
            ("indirect", |f| f.indirect = 1),
            ("preinit", |f| f.preinit.insert(1, "its_own".into())),
            ("__asan_default_suppressions", |f| f.weak.clear()),
            ("__sanitizer_malloc_hook", |f| {
                f.defined.insert("__sanitizer_malloc_hook".into());
            }),
        ];
        for (word, change) in cases {
            let mut program = probe.clone();
            change(&mut program);
            let why = compare(&probe, &program).unwrap_err().to_string();
            assert!(why.contains(word), "{word}: {why}");
        }
    }

    #[test]
    fn what_is_not_an_elf_program_is_said_not_to_be() {
        let why = parse(b"#!/bin/sh\n").unwrap_err().to_string();
        assert!(why.contains("not an ELF"), "{why}");
    }
}
