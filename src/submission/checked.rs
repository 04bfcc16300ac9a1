//! A C or C++ program's checked build: the same source compiled again
//! with the compiler's sanitizers (AddressSanitizer and
//! UndefinedBehaviorSanitizer, debug information, frame pointers kept),
//! and once more for the compiler's warnings only. It is made when first
//! asked for: a default `grade` asks only for a program that failed a
//! case.
//!
//! Its runs are in [`super::sanitized`]; grades never come from them.

use std::path::{Path, PathBuf};

use std::sync::{Arc, Mutex, OnceLock};

use super::build::{compile_object, compile_with_retry, compiler_messages, Recipe};
use super::cache;
use super::hold::{Facts, Hold, Probe, Unheld};
use super::languages::{Compiler, Family};
use super::linker;
use super::start::Support;
use crate::run::Program;

/// What the checked build adds to the program's own flags. The
/// sanitizers' libraries are linked statically: linked dynamically, gcc's
/// two runtimes each keep a report file of their own, and one of them
/// prints on the terminal whatever its options say.
pub const SANITIZER_FLAGS: &[&str] = &[
    "-g",
    "-O0",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-static-libasan",
    "-static-libubsan",
];

/// clang's: its sanitizers' runtime (one, for both) is linked
/// statically by `-static-libsan` (clang's default on Linux, said all
/// the same); gcc's `-static-libasan` is unknown to it.
pub const CLANG_SANITIZER_FLAGS: &[&str] = &[
    "-g",
    "-O0",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-static-libsan",
];

/// What the checked build of a program compiled by `compiler` adds.
pub fn sanitizer_flags(compiler: &Compiler) -> &'static [&'static str] {
    match compiler.family {
        Family::Gcc => SANITIZER_FLAGS,
        Family::Clang => CLANG_SANITIZER_FLAGS,
    }
}

/// The source linked into every checked build that gives the
/// sanitizers their options. They read `ASAN_OPTIONS` and
/// `UBSAN_OPTIONS` through `/proc/self/environ`, which the sandbox's
/// minimal root does not have, and before the C library knows its
/// environment; these functions, which they call first, find the same
/// variables where the kernel put them, above the start of the stack
/// (as the sanitizers find `argv`). Both must say the same report file:
/// the two runtimes share one. The functions are not instrumented
/// (they run before the sanitizers are ready), and the file is compiled
/// as C with the program's own flags, so it is written to draw no
/// warning.
const OPTIONS_SOURCE: &str = r#"/* Written by referee for the checked build: the sanitizers' options,
   read from the environment, and, where nothing else holds a run's memory,
   the hold (see referee's src/submission/checked.rs and hold.rs). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
extern void *__libc_stack_end __attribute__((weak));
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

__attribute__((no_sanitize("address", "undefined")))
static const char *referee_option(const char *name)
{
    char **envp;
    unsigned long argc;
    if (&__libc_stack_end == 0 || __libc_stack_end == 0)
        return "";
    argc = *(unsigned long *)__libc_stack_end;
    for (envp = (char **)__libc_stack_end + argc + 2; *envp != 0; envp++) {
        const char *a = *envp;
        const char *b = name;
        while (*b != 0 && *a == *b) {
            a++;
            b++;
        }
        if (*b == 0 && *a == '=')
            return a + 1;
    }
    return "";
}

__attribute__((no_sanitize("address", "undefined")))
const char *__asan_default_options(void)
{
    return referee_option("ASAN_OPTIONS");
}

__attribute__((no_sanitize("address", "undefined")))
const char *__ubsan_default_options(void)
{
    return referee_option("UBSAN_OPTIONS");
}

/* The hold: with REFEREE_HOLD=<bytes> in the environment, run from
   .preinit_array right after the sanitizer's start (its shadow is reserved
   by then) and before anything of the program's. A thread ends the process
   once its resident memory passes <bytes> (looked at every 10 ms, through
   getrusage: nothing of /proc is needed); the address space is limited to
   what is mapped then plus <bytes>; and a seccomp filter refuses every new
   process and every exec. A run that cannot be held ends at once, with
   status 125. */
#ifdef SYS_fork
#define REFEREE_FORKS 2
#else
#define REFEREE_FORKS 0
#endif
#if defined(__x86_64__)
#define REFEREE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define REFEREE_ARCH AUDIT_ARCH_AARCH64
#endif

static unsigned long referee_held_kib;

__attribute__((no_sanitize("address", "undefined")))
static void referee_say(const char *what)
{
    const char *end = what;
    while (*end != 0)
        end++;
    syscall(SYS_write, 2, what, (size_t)(end - what));
}

__attribute__((no_sanitize("address", "undefined"), noreturn))
static void referee_refuse(const char *why)
{
    referee_say("referee: this checked run cannot be held: ");
    referee_say(why);
    referee_say("\n");
    syscall(SYS_exit_group, 125);
    for (;;) {
    }
}

__attribute__((no_sanitize("address", "undefined")))
static void *referee_watch(void *unused)
{
    struct rusage use;
    struct timespec tick;
    (void)unused;
    tick.tv_sec = 0;
    tick.tv_nsec = 10000000;
    for (;;) {
        if (syscall(SYS_getrusage, RUSAGE_SELF, &use) == 0
            && (unsigned long)use.ru_maxrss > referee_held_kib) {
            referee_say("referee: this checked run held more memory than its limit\n");
            syscall(SYS_kill, syscall(SYS_getpid), SIGKILL);
        }
        syscall(SYS_nanosleep, &tick, 0);
    }
    return 0;
}

/* Whether one more page can be mapped with the address space limited to
   `limit` (-1: the limit cannot be set). */
__attribute__((no_sanitize("address", "undefined")))
static int referee_fits(unsigned long limit, unsigned long most)
{
    struct rlimit r;
    long page;
    r.rlim_cur = limit;
    r.rlim_max = most;
    if (syscall(SYS_prlimit64, 0, RLIMIT_AS, &r, 0) != 0)
        return -1;
    page = syscall(SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == -1)
        return 0;
    syscall(SYS_munmap, page, 4096);
    return 1;
}

/* What the process has mapped, to a page: the least address-space limit
   under which one more page fits, found by halving (no /proc needed). */
__attribute__((no_sanitize("address", "undefined")))
static unsigned long referee_mapped(unsigned long most)
{
    unsigned long low = 0;
    unsigned long high = most;
    if (referee_fits(high, most) != 1)
        return 0;
    while (high - low > 4096) {
        unsigned long middle = low + (high - low) / 2;
        int fits = referee_fits(middle, most);
        if (fits < 0)
            return 0;
        if (fits)
            high = middle;
        else
            low = middle;
    }
    return high - 4096;
}

__attribute__((no_sanitize("address", "undefined")))
static void referee_hold(void)
{
    const char *hold = referee_option("REFEREE_HOLD");
    unsigned long extra = 0;
    unsigned long mapped;
    struct rlimit limit;
    pthread_t watcher;
#ifdef REFEREE_ARCH
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, REFEREE_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 2),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 6 + REFEREE_FORKS, 5 + REFEREE_FORKS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execve, 2 + REFEREE_FORKS, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 1 + REFEREE_FORKS, 0),
#ifdef SYS_fork
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fork, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_vfork, 1, 0),
#endif
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program;
#endif
    if (*hold == 0)
        return;
    for (; *hold >= '0' && *hold <= '9'; hold++)
        extra = extra * 10 + (unsigned long)(*hold - '0');
    referee_held_kib = extra >> 10;
    /* Measured while this is the only thread: the limit is low for a
       moment while it is halved, and a thread starting meanwhile (its
       stack, the sanitizer's own records of it) could not map. */
    if (syscall(SYS_prlimit64, 0, RLIMIT_AS, 0, &limit) != 0)
        referee_refuse("its address space cannot be read");
    mapped = referee_mapped(limit.rlim_max < (1UL << 47) ? limit.rlim_max : 1UL << 47);
    if (mapped == 0)
        referee_refuse("its address space cannot be measured");
    limit.rlim_cur = mapped + extra;
    limit.rlim_max = mapped + extra;
    if (syscall(SYS_prlimit64, 0, RLIMIT_AS, &limit, 0) != 0)
        referee_refuse("its address space cannot be limited");
    if (pthread_create(&watcher, 0, referee_watch, 0) != 0)
        referee_refuse("no thread can watch its memory");
#ifdef REFEREE_ARCH
    program.len = (unsigned short)(sizeof filter / sizeof filter[0]);
    program.filter = filter;
    if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0)
        referee_refuse("no seccomp filter can be installed");
#else
    referee_refuse("referee does not know this processor's system calls");
#endif
}

__attribute__((used, section(".preinit_array")))
static void (*const referee_hold_first)(void) = referee_hold;
"#;

/// The checked build's program, in the build's folder.
const CHECKED_NAME: &str = "checked";

/// Its name in the build's folder.
const OPTIONS_FILE: &str = ".referee-options.c";

/// What is made once per compiler and flags and kept for the process:
/// the options' object, a probe.
type PerFlags<T> = Mutex<Vec<((&'static str, Vec<String>), T)>>;

/// What `made` keeps for `compiler` and `flags`, made by `make` (given
/// how many are kept already, to name it apart) the first time it is
/// asked for and made. The lock is held while making: whoever asks
/// meanwhile waits for it. A failure is not kept: the next asker tries
/// again.
fn once_per<T: Clone, E>(
    made: &PerFlags<T>,
    compiler: &'static Compiler,
    flags: &[String],
    make: impl FnOnce(usize) -> Result<T, E>,
) -> Result<T, E> {
    let mut made = made.lock().unwrap_or_else(|e| e.into_inner());
    let key = (compiler.name, flags.to_vec());
    if let Some((_, kept)) = made.iter().find(|(k, _)| *k == key) {
        return Ok(kept.clone());
    }
    let kept = make(made.len())?;
    made.push((key, kept.clone()));
    Ok(kept)
}

/// The options' object for programs compiled by `compiler` with
/// `flags`, and whether the compiler knows `warnings` (the arguments a
/// checked build's own compile may add for the compiler's warnings: gcc
/// before 12 knows no `-Wuse-after-free`, and refuses to compile with
/// it). Compiled the first time, in a folder of this process's, and
/// linked into every checked build after (a class's programs share their
/// flags: one compile serves them all); the options' source, which is
/// ours and draws no warning, is what tells whether the compiler knows
/// them.
fn options_object(
    compiler: &'static Compiler,
    flags: &[String],
    warnings: &[&str],
) -> Result<(PathBuf, bool), CheckError> {
    static FOLDER: OnceLock<std::io::Result<tempfile::TempDir>> = OnceLock::new();
    static MADE: PerFlags<(PathBuf, bool)> = Mutex::new(Vec::new());
    let folder = FOLDER
        .get_or_init(|| super::sandbox().build_folder())
        .as_ref()
        .map_err(|e| CheckError::Folder(e.to_string()))?
        .path();
    let mut asked = flags.to_vec();
    asked.extend(warnings.iter().map(|w| w.to_string()));
    once_per(&MADE, compiler, &asked, |n| {
        // Named apart from a suite's own library objects, and from the
        // other flags' object.
        let object = folder.join(format!(".referee-options-{n}.o"));
        let kept = cache::cache().zip(options_key(compiler, &asked));
        if let Some(said) = kept.as_ref().and_then(|(c, key)| c.find(key, &object)) {
            return Ok((object, said == KNOWN));
        }
        let (compiled, known) = compile_options(compiler, folder, flags, &asked, warnings)?;
        std::fs::rename(&compiled, &object).map_err(|e| CheckError::Folder(e.to_string()))?;
        if let Some((c, key)) = kept {
            c.keep(&key, &object, if known { KNOWN } else { "" });
        }
        Ok((object, known))
    })
}

/// What a kept options' object says of the warnings asked of the
/// compiler: that it knows them.
const KNOWN: &str = "the compiler knows the warnings asked";

/// What the options' object of `compiler` with `asked` (the flags and
/// the warnings) is kept under between invocations.
fn options_key(compiler: &Compiler, asked: &[String]) -> Option<cache::Key> {
    let mut key = key_start(b"referee's options object, 1", compiler)?;
    for flag in asked {
        key.part(flag.as_bytes());
    }
    Some(key.key())
}

/// Compiles the options' source in `folder` with `asked` (`flags` and
/// `warnings`), or with `flags` alone where the compiler refuses the
/// warnings: the object, and whether it knew them.
fn compile_options(
    compiler: &'static Compiler,
    folder: &Path,
    flags: &[String],
    asked: &[String],
    warnings: &[&str],
) -> Result<(PathBuf, bool), CheckError> {
    let source = folder.join(OPTIONS_FILE);
    std::fs::write(&source, OPTIONS_SOURCE).map_err(|e| CheckError::Folder(e.to_string()))?;
    let support = Support {
        source,
        place: OPTIONS_FILE.into(),
        writable: false,
        linked: true,
    };
    let failed = |e: super::BuildError| CheckError::Build {
        flags: sanitizer_flags(compiler).join(" "),
        why: e.to_string(),
    };
    let made = match compile_object(compiler, &support, folder, asked) {
        Ok(compiled) => (compiled, true),
        Err(_) if !warnings.is_empty() => (
            compile_object(compiler, &support, folder, flags).map_err(failed)?,
            false,
        ),
        Err(e) => return Err(failed(e)),
    };
    Ok(made)
}

/// A checked build, ready to run.
#[derive(Debug)]
pub struct Checked {
    /// The command that runs it.
    pub program: Program,
    /// The executable (referee's path), whose debug information places
    /// what its sanitizers report.
    pub binary: PathBuf,
    /// The program's files as the student wrote them (their staged
    /// copies: sources and headers).
    pub sources: Vec<PathBuf>,
    /// What the compiler said in its pass for warnings (its JSON), or
    /// why that pass could not be made.
    pub warnings: Result<String, CheckError>,
    /// Whether its runs can hold themselves, where nothing else holds
    /// them.
    pub hold: Hold,
}

/// How the probe of a checked build of `recipe`, with `flags` and the
/// options' object, is had: built once per compiler and flags.
fn probe_of(recipe: &Recipe, flags: Vec<String>, options: PathBuf) -> Probe {
    let compiler = recipe.compiler;
    let extension = recipe
        .source
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_else(|| "c".into());
    Arc::new(move || probe(compiler, &flags, &options, &extension))
}

/// The facts of a program of one line built by `compiler` with `flags`
/// and the options' object: built once, in that object's folder, and
/// kept for every checked build after.
fn probe(
    compiler: &'static Compiler,
    flags: &[String],
    options: &Path,
    extension: &str,
) -> Result<Facts, Unheld> {
    static MADE: PerFlags<Result<Facts, Unheld>> = Mutex::new(Vec::new());
    let made = once_per(&MADE, compiler, flags, |n| {
        let folder = options.parent().unwrap_or(Path::new("."));
        let name = format!(".referee-probe-{n}");
        let source = folder.join(format!("{name}.{extension}"));
        let objects = [options.to_path_buf()];
        // Kept whatever it came to: a probe that cannot be built says so
        // to every checked build after.
        Ok::<_, std::convert::Infallible>(
            std::fs::write(&source, "int main(void) { return 0; }\n")
                .map_err(|e| Unheld::Probe(e.to_string()))
                .and_then(|()| {
                    compile_with_retry(
                        compiler,
                        std::slice::from_ref(&source),
                        folder,
                        flags,
                        &[],
                        &name,
                        &objects,
                    )
                    .map_err(|e| Unheld::Probe(e.to_string()))
                })
                .and_then(|(program, _)| {
                    let binary = program.argv.first().map(|a| a.as_os_str());
                    super::hold::facts(Path::new(binary.unwrap_or_default()))
                }),
        )
    });
    made.unwrap_or_else(|never| match never {})
}

/// Why a program has no checked build: never a grade's concern (the
/// program is graded from its ordinary build all the same), said in
/// the report and by `doctor`.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CheckError {
    /// Only C and C++ programs have one.
    #[error("only C and C++ programs have a checked build")]
    NotCompiled,
    /// The compiler could not make it.
    #[error("the checked build (the program compiled with {flags}) could not be made: {why}")]
    Build {
        /// The flags it adds.
        flags: String,
        /// What went wrong.
        why: String,
    },
    /// The pass for warnings could not be made.
    #[error("the compiler's pass for warnings could not be made: {0}")]
    Warnings(String),
    /// Referee could not write into its folder for the sanitizers' options.
    #[error("cannot write the checked build's options into referee's build folder: {0}")]
    Folder(String),
}

/// Where a checked build's compiler warnings come from (the arguments
/// are [`crate::diagnose`]'s).
#[derive(Clone, Copy, Debug)]
pub enum Warnings<'a> {
    /// Its own compile, with these arguments added: no more compiling.
    FromTheBuild(&'a [&'a str]),
    /// One more pass with these (optimised: it finds more, and costs
    /// about as much as the build again).
    FromAPass(&'a [&'a str]),
}

/// Makes the checked build of `recipe` in `stage`, the ordinary build's
/// folder, its compiler warnings had as `warnings` says. Why not, in
/// words, when the sanitized program cannot be made.
pub fn build(recipe: &Recipe, stage: &Path, warnings: Warnings<'_>) -> Result<Checked, CheckError> {
    let mut flags = recipe.flags.clone();
    flags.extend(
        sanitizer_flags(recipe.compiler)
            .iter()
            .map(|f| f.to_string()),
    );
    let warnings = warnings_of(recipe.compiler, warnings);
    match build_with(
        recipe,
        stage,
        warnings,
        flags.clone(),
        linker::faster(recipe.compiler),
    ) {
        // A linker that was there when asked but fails here (not in the
        // sandbox's view, or broken) is not asked again: the default's
        // build is what counts.
        Err(CheckError::Build { .. }) if linker::faster(recipe.compiler).is_some() => {
            linker::refuse(recipe.compiler);
            build_with(recipe, stage, warnings, flags, None)
        }
        made => made,
    }
}

/// [`build`], linked by `linker` (the compiler's own when `None`).
fn build_with(
    recipe: &Recipe,
    stage: &Path,
    warnings: Warnings<'_>,
    mut flags: Vec<String>,
    linker: Option<&'static str>,
) -> Result<Checked, CheckError> {
    // The probe the hold compares with is linked the same way.
    flags.extend(linker.map(str::to_string));
    let in_build = match warnings {
        Warnings::FromTheBuild(args) => args,
        Warnings::FromAPass(_) => &[],
    };
    let (options, known) = options_object(recipe.compiler, &flags, in_build)?;
    let mut build_flags = flags.clone();
    if known {
        build_flags.extend(in_build.iter().map(|a| a.to_string()));
    }
    let kept = cache::cache().zip(key_of(recipe, &build_flags, warnings));
    let output = stage.join(CHECKED_NAME);
    let found = kept.as_ref().and_then(|(c, key)| c.find(key, &output));
    let (program, warnings) = match found {
        Some(said) => {
            crate::timings::kept_build();
            (Program::new(output), Ok(said))
        }
        None => {
            let made = make(recipe, stage, warnings, &build_flags, known, &options)?;
            if let (Some((c, key)), Some(program), Ok(said)) = (&kept, made.0.argv.first(), &made.1)
            {
                c.keep(key, Path::new(program), said);
            }
            made
        }
    };
    let binary = PathBuf::from(program.argv.first().cloned().unwrap_or_default());
    Ok(Checked {
        program,
        binary: binary.clone(),
        sources: recipe.files.clone(),
        warnings,
        hold: Hold::new(binary, probe_of(recipe, flags, options)),
    })
}

/// Why a program compiled by clang has no diagnoses from its compiler's
/// warnings.
const CLANG_WARNINGS: &str = "clang's warnings are not read as diagnoses (referee reads gcc's \
                              JSON, which clang does not write); its sanitizers' findings are";

/// Where the warnings of a checked build by `compiler` come from: for
/// clang, nothing is added to its build and no pass is made (the
/// arguments are gcc's: `-fdiagnostics-format=json` stops clang).
fn warnings_of<'a>(compiler: &Compiler, warnings: Warnings<'a>) -> Warnings<'a> {
    match compiler.family {
        Family::Gcc => warnings,
        Family::Clang => Warnings::FromTheBuild(&[]),
    }
}

/// Compiles the checked build of `recipe` with `build_flags` and the
/// options' object, and has its compiler warnings as `warnings` says.
fn make(
    recipe: &Recipe,
    stage: &Path,
    warnings: Warnings<'_>,
    build_flags: &[String],
    known: bool,
    options: &Path,
) -> Result<(Program, Result<String, CheckError>), CheckError> {
    let (program, said) = compile_with_retry(
        recipe.compiler,
        &recipe.files,
        stage,
        build_flags,
        &recipe.support,
        CHECKED_NAME,
        &[options.to_path_buf()],
    )
    .map_err(|e| CheckError::Build {
        flags: sanitizer_flags(recipe.compiler).join(" "),
        why: e.to_string().trim_end().to_string(),
    })?;
    let warnings = match warnings {
        Warnings::FromTheBuild(_) if recipe.compiler.family == Family::Clang => {
            Err(CheckError::Warnings(CLANG_WARNINGS.into()))
        }
        Warnings::FromTheBuild(_) if known => Ok(said),
        Warnings::FromTheBuild(_) => Err(CheckError::Warnings(
            "the compiler does not know the warnings asked of it (gcc 12 or later does)".into(),
        )),
        Warnings::FromAPass(args) => compiler_messages(
            recipe.compiler,
            &recipe.files,
            stage,
            &recipe.flags,
            &recipe.support,
            args,
        )
        .map_err(|e| CheckError::Warnings(e.to_string())),
    };
    Ok((program, warnings))
}

/// What a checked build of `recipe` with `flags` (and its warnings had
/// as `warnings` says) is kept under between invocations: everything
/// the compiler is given, and the compiler. Nothing where a file cannot
/// be read, or the compiler not found: such a build is not kept.
fn key_of(recipe: &Recipe, flags: &[String], warnings: Warnings<'_>) -> Option<cache::Key> {
    use std::os::unix::ffi::OsStrExt;
    let mut key = key_start(b"referee's checked build, 1", recipe.compiler)?;
    key.part(&(flags.len() as u64).to_le_bytes());
    for flag in flags {
        key.part(flag.as_bytes());
    }
    let (how, args) = match warnings {
        Warnings::FromTheBuild(args) => (&b"warnings from the build"[..], args),
        Warnings::FromAPass(args) => (&b"warnings from a pass"[..], args),
    };
    key.part(how).part(&(args.len() as u64).to_le_bytes());
    for arg in args {
        key.part(arg.as_bytes());
    }
    // Every file of the program, and which one starts it.
    key.part(recipe.source.file_name()?.as_bytes())
        .part(&(recipe.files.len() as u64).to_le_bytes());
    for file in &recipe.files {
        key.part(file.file_name()?.as_bytes())
            .part(&crate::untrusted::read(file, crate::untrusted::PROGRAM_LIMIT).ok()?);
    }
    key.part(&(recipe.support.len() as u64).to_le_bytes());
    for support in &recipe.support {
        key.part(support.place.as_os_str().as_bytes())
            .part(&[u8::from(support.writable), u8::from(support.linked)])
            .part(&crate::untrusted::read(&support.source, super::SUPPORT_LIMIT).ok()?);
    }
    Some(key.key())
}

/// What every key of a thing kept starts with: what it is, referee's
/// version and options' source, and the compiler.
fn key_start(what: &[u8], compiler: &Compiler) -> Option<cache::Recipe> {
    let mut key = cache::Recipe::default();
    key.part(what)
        .part(env!("CARGO_PKG_VERSION").as_bytes())
        .part(OPTIONS_SOURCE.as_bytes())
        .part(compiler_identity(compiler)?.as_bytes());
    Some(key)
}

/// The compiler as a kept build knows it: the file its command is, with
/// its size and time, which a new version of the compiler changes.
fn compiler_identity(compiler: &Compiler) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let command = super::build::command_of(compiler).ok()?;
    let real = std::fs::canonicalize(command).ok()?;
    let meta = std::fs::metadata(&real).ok()?;
    Some(format!(
        "{} {} {} {}.{}",
        real.display(),
        meta.len(),
        meta.ino(),
        meta.mtime(),
        meta.mtime_nsec()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::languages::{self, Language};

    /// clang gets its own sanitizer flags and none of gcc's warnings'
    /// arguments (`-fdiagnostics-format=json` would stop it); gcc keeps
    /// its own.
    #[test]
    fn each_compiler_gets_only_the_arguments_it_knows() {
        let clang = languages::chosen(Language::C, "clang-19").unwrap();
        let gcc = languages::chosen(Language::C, "gcc").unwrap();
        assert!(sanitizer_flags(clang).contains(&"-static-libsan"));
        assert!(!sanitizer_flags(clang).contains(&"-static-libasan"));
        assert_eq!(sanitizer_flags(gcc), SANITIZER_FLAGS);
        let asked = ["-Wuse-after-free", "-fdiagnostics-format=json"];
        for warnings in [Warnings::FromAPass(&asked), Warnings::FromTheBuild(&asked)] {
            assert!(matches!(
                warnings_of(clang, warnings),
                Warnings::FromTheBuild([])
            ));
            assert!(matches!(
                warnings_of(gcc, warnings),
                Warnings::FromAPass(a) | Warnings::FromTheBuild(a) if a == asked
            ));
        }
    }
}
