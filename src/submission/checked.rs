//! A C or C++ program's checked build: the same source compiled again
//! with the compiler's sanitizers (AddressSanitizer and
//! UndefinedBehaviorSanitizer, debug information, frame pointers kept),
//! and once more for the compiler's warnings only. It is made when first
//! asked for: a default `grade` asks only for a program that failed a
//! case.
//!
//! Its runs are in [`super::sanitized`]; grades never come from them.

use std::path::{Path, PathBuf};

use std::sync::{Mutex, OnceLock};

use super::build::{compile_object, compile_with_retry, compiler_messages, Recipe};
use super::languages::Compiler;
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
   read from the environment (see referee's src/submission/checked.rs). */
#include <stdlib.h>
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
"#;

/// Its name in the build's folder.
const OPTIONS_FILE: &str = ".referee-options.c";

/// The options' object for programs compiled by `compiler` with
/// `flags`: compiled the first time, in a folder of this process's, and
/// linked into every checked build after (a class's programs share
/// their flags: one compile serves them all).
fn options_object(compiler: &'static Compiler, flags: &[String]) -> Result<PathBuf, CheckError> {
    type Made = Vec<((&'static str, Vec<String>), PathBuf)>;
    static FOLDER: OnceLock<std::io::Result<tempfile::TempDir>> = OnceLock::new();
    static MADE: Mutex<Made> = Mutex::new(Vec::new());
    let folder = FOLDER
        .get_or_init(|| super::sandbox().build_folder())
        .as_ref()
        .map_err(|e| CheckError::Folder(e.to_string()))?
        .path();
    // Held while compiling: whoever asks meanwhile waits for the object.
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    let key = (compiler.name, flags.to_vec());
    if let Some((_, object)) = made.iter().find(|(k, _)| *k == key) {
        return Ok(object.clone());
    }
    let source = folder.join(OPTIONS_FILE);
    std::fs::write(&source, OPTIONS_SOURCE).map_err(|e| CheckError::Folder(e.to_string()))?;
    let support = Support {
        source,
        place: OPTIONS_FILE.into(),
        writable: false,
        linked: true,
    };
    let compiled =
        compile_object(compiler, &support, folder, flags).map_err(|e| CheckError::Build {
            flags: SANITIZER_FLAGS.join(" "),
            why: e.to_string(),
        })?;
    // Named apart from a suite's own library objects, and from the other
    // flags' object.
    let object = folder.join(format!(".referee-options-{}.o", made.len()));
    std::fs::rename(&compiled, &object).map_err(|e| CheckError::Folder(e.to_string()))?;
    made.push((key, object.clone()));
    Ok(object)
}

/// A checked build, ready to run.
#[derive(Debug)]
pub struct Checked {
    /// The command that runs it.
    pub program: Program,
    /// The executable (referee's path), whose debug information places
    /// what its sanitizers report.
    pub binary: PathBuf,
    /// The source as the student wrote it (its staged copy).
    pub source: PathBuf,
    /// The source's file name, as the student named it.
    pub source_name: String,
    /// What the compiler said in its pass for warnings (its JSON), or
    /// why that pass could not be made.
    pub warnings: Result<String, CheckError>,
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

/// Makes the checked build of `recipe` in `stage`, the ordinary build's
/// folder; `warning_args` are the arguments of the pass for warnings
/// (see [`crate::diagnose`]). Why not, in words, when the sanitized
/// program cannot be made.
pub fn build(recipe: &Recipe, stage: &Path, warning_args: &[&str]) -> Result<Checked, CheckError> {
    let mut flags = recipe.flags.clone();
    flags.extend(SANITIZER_FLAGS.iter().map(|f| f.to_string()));
    let options = options_object(recipe.compiler, &flags)?;
    let (program, _) = compile_with_retry(
        recipe.compiler,
        &recipe.source,
        stage,
        &flags,
        &recipe.support,
        "checked",
        &[options],
    )
    .map_err(|e| CheckError::Build {
        flags: SANITIZER_FLAGS.join(" "),
        why: e.to_string().trim_end().to_string(),
    })?;
    let binary = PathBuf::from(program.argv.first().cloned().unwrap_or_default());
    let warnings = compiler_messages(
        recipe.compiler,
        &recipe.source,
        stage,
        &recipe.flags,
        &recipe.support,
        warning_args,
    )
    .map_err(|e| CheckError::Warnings(e.to_string()));
    Ok(Checked {
        program,
        binary,
        source: recipe.source.clone(),
        source_name: recipe
            .source
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        warnings,
    })
}
