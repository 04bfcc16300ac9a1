//! Building a submission: its program file is copied into a private
//! build folder (never through a link, only a regular file, size-capped),
//! then each is built as its entry in the table of languages says
//! ([`super::languages`]): C and C++ compiled once, Python checked for
//! syntax errors (nothing of it runs), Java compiled by `javac` into
//! classes and run by `java` from the class that has `main`, a suite's
//! own language by its build command; an executable is run from its
//! copy. Build tools run in the same sandbox as programs, without a
//! terminal.

use std::any::Any;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use tempfile::TempDir;

use super::flags::Flags;
use super::java;
use super::languages::Language;
use super::languages::{self, Build, Compiler, Defined};
use super::program::Submission;
use super::python;
use super::start::Support;
use crate::call;
use crate::run::{tool, Heap, Limits, Program};
use crate::sandbox;
use crate::untrusted::{self, Refusal, PROGRAM_LIMIT};

const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);

/// What the compiler may use: far more than any handout's program needs.
const COMPILE_LIMITS: Limits = Limits {
    wall: COMPILE_TIMEOUT,
    cpu: COMPILE_TIMEOUT,
    output: 1 << 20,
    memory: Some(2 << 30),
    file_size: 256 << 20,
};
const COMPILER_OUTPUT_LIMIT: u64 = 64 * 1024;

/// The memory a compilation may use: part of what each grading worker
/// needs (see [`crate::sandbox::allocation`]).
pub const COMPILER_MEMORY: u64 = match COMPILE_LIMITS.memory {
    Some(bytes) => bytes,
    None => 0,
};

/// A submission ready to run.
#[derive(Debug)]
pub struct Built {
    /// The command that runs it.
    pub program: Program,
    /// What the compiler said when it succeeded (warnings), if anything.
    pub warnings: String,
    /// For Python: how to call one of its functions (see [`crate::call`]).
    pub caller: Option<Program>,
    /// The submission's private folder (compiled program, staged source);
    /// removed when dropped.
    pub stage: TempDir,
    /// For a Python file: whether it parses, asked the first time it
    /// matters (see [`build_lazily`]).
    syntax: Option<Syntax>,
    /// For a C or C++ program: what its checked build is made from
    /// (see [`super::checked`]).
    pub recipe: Option<Recipe>,
    /// Its checked build, once asked for (see [`super::checked`]): made
    /// once for every student who shares this build (identical programs,
    /// see [`super::shared`]).
    pub checked: Later,
}

/// Room for something made from a build when first asked for, kept with
/// it: its checked build, whose type is of [`super::checked`], a module
/// that builds on this one and so cannot be named here.
#[derive(Default)]
pub struct Later(OnceLock<Box<dyn Any + Send + Sync>>);

impl Later {
    /// What is kept, made by `make` the first time (whoever asks meanwhile
    /// waits); `None` where something of another type is kept.
    pub fn get_or_init<T: Any + Send + Sync>(&self, make: impl FnOnce() -> T) -> Option<&T> {
        self.0.get_or_init(|| Box::new(make())).downcast_ref::<T>()
    }
}

impl std::fmt::Debug for Later {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let made = if self.0.get().is_some() {
            "made"
        } else {
            "not yet made"
        };
        f.write_str(made)
    }
}

/// What a checked build is made from: kept by the ordinary build of a C
/// or C++ program.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// The compiler.
    pub compiler: &'static Compiler,
    /// The source that starts the program, staged in the build's folder.
    pub source: PathBuf,
    /// Every file of the program (its sources and headers), staged in
    /// the build's folder: what is compiled and linked.
    pub files: Vec<PathBuf>,
    /// The program's own flags.
    pub flags: Vec<String>,
    /// The suite's support files (headers, a library to link).
    pub support: Vec<Support>,
}

/// A Python file's syntax check, made once, when first asked for.
#[derive(Debug)]
struct Syntax {
    python: &'static python::Python,
    /// The program's files, each checked.
    sources: Vec<PathBuf>,
    /// Whether it parses (else Python's messages), once known. Held
    /// while checking: whoever asks meanwhile waits for the answer. A
    /// check the grader could not make is not kept: the next asker tries
    /// again.
    verdict: std::sync::Mutex<Option<Parses>>,
}

/// Whether a Python file parses.
#[derive(Clone, Debug)]
enum Parses {
    Yes,
    /// No: Python's messages.
    No(String),
}

impl Built {
    /// Whether a Python file's syntax has not been checked yet: a run
    /// that fails before reading anything is then worth checking it for
    /// (see [`build_lazily`]).
    pub fn syntax_unchecked(&self) -> bool {
        self.syntax
            .as_ref()
            .is_some_and(|s| s.verdict.lock().map_or(true, |verdict| verdict.is_none()))
    }

    /// Checks a Python file's syntax, once (every other build has nothing
    /// to check): a file that does not parse is a [`BuildError::Compile`]
    /// with Python's message.
    pub fn check_syntax(&self) -> Result<(), BuildError> {
        let Some(syntax) = &self.syntax else {
            return Ok(());
        };
        let mut verdict = syntax.verdict.lock().unwrap_or_else(|e| e.into_inner());
        if verdict.is_none() {
            let checked = crate::timings::time(crate::timings::Phase::Compile, || {
                syntax
                    .sources
                    .iter()
                    .try_for_each(|source| check_syntax(syntax.python, source, self.stage.path()))
            });
            *verdict = match checked {
                Ok(()) => Some(Parses::Yes),
                Err(BuildError::Compile(messages)) => Some(Parses::No(messages)),
                Err(other) => return Err(other),
            };
        }
        match verdict.as_ref() {
            Some(Parses::No(messages)) => Err(BuildError::Compile(messages.clone())),
            _ => Ok(()),
        }
    }
}

/// Why a submission could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The student's code does not compile: the compiler's messages.
    #[error("the compiler said:\n{0}")]
    Compile(String),
    /// The submission's file cannot be taken: a link, a FIFO, a device,
    /// too large.
    #[error("{0}")]
    Refused(Refusal),
    /// The grader could not do its part (no compiler, no Python, no disk,
    /// no process to spare): not the student's fault.
    #[error("{0}")]
    Grader(String),
    /// A source of the suite's own library (`link:`) does not compile:
    /// the suite's to fix, with the compiler's messages.
    #[error("{0}")]
    Library(String),
}

impl BuildError {
    /// Whose fault it is: code that does not compile and a file referee
    /// refuses are the student's, the rest the grader's.
    pub fn fault(&self) -> crate::fault::Fault {
        match self {
            BuildError::Compile(_) | BuildError::Refused(_) => crate::fault::Fault::Student,
            BuildError::Grader(_) => crate::fault::Fault::Grader,
            BuildError::Library(_) => crate::fault::Fault::Suite,
        }
    }
}

/// The sandbox. What programs of a language must read (the Python
/// interpreter's folders) it is told when that language is first built.
pub fn sandbox() -> &'static sandbox::Sandbox {
    sandbox::get()
}

/// Builds `submission`; C and C++ are compiled with their `flags` (the
/// defaults where none are set). The suite's `support` files sit beside
/// the source: a header is found however it is included (`#include
/// "cs50.h"` or `<cs50.h>`), a Python module is imported.
pub fn build(
    submission: &Submission,
    flags: &Flags,
    support: &[Support],
) -> Result<Built, BuildError> {
    let built = build_lazily(submission, flags, support)?;
    built.check_syntax()?;
    Ok(built)
}

/// Like [`build`], but a Python file's syntax is checked only when asked
/// ([`Built::check_syntax`]): grading asks when a run fails before
/// reading any input, which every run of a file that does not parse
/// does (Python reads the whole file before running any of it). A class
/// of files that parse then pays for no check at all, which costs a
/// start of the interpreter each (some 15 ms); one that does not parse
/// is a `compile-error` with Python's message, as with [`build`].
pub fn build_lazily(
    submission: &Submission,
    flags: &Flags,
    support: &[Support],
) -> Result<Built, BuildError> {
    crate::timings::time(crate::timings::Phase::Compile, || {
        build_timed(submission, flags, support)
    })
}

fn build_timed(
    submission: &Submission,
    flags: &Flags,
    support: &[Support],
) -> Result<Built, BuildError> {
    let stage = sandbox()
        .build_folder()
        .map_err(|e| BuildError::Grader(format!("cannot make a build folder: {e}")))?;
    let mode = if submission.language == Language::Executable {
        0o755
    } else {
        0o644
    };
    let mut staged_files = Vec::new();
    for file in files_of(submission, support) {
        let name = file
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_else(|| OsString::from("program"));
        let staged = stage.path().join(&name);
        untrusted::copy(&file, &staged, PROGRAM_LIMIT, mode).map_err(|refusal| match refusal {
            Refusal::Io(path, e) if path == staged => {
                BuildError::Grader(format!("cannot copy into the build folder: {e}"))
            }
            refusal => BuildError::Refused(refusal),
        })?;
        staged_files.push(staged);
    }
    // The file that starts the program, staged (for a student's copy of
    // a file the course gives, which is not staged: the course's).
    let staged = submission
        .file
        .file_name()
        .map(|n| stage.path().join(n))
        .filter(|p| staged_files.contains(p))
        .or_else(|| staged_files.first().cloned())
        .unwrap_or_default();
    // The sources, without the headers beside them.
    let sources: Vec<PathBuf> = staged_files
        .iter()
        .filter(|p| !super::several::is_header(p))
        .cloned()
        .collect();
    super::start::provide(stage.path(), support).map_err(|e| BuildError::Grader(e.to_string()))?;
    let language = submission.language;
    let mut caller = None;
    let mut syntax = None;
    let mut recipe = None;
    let (program, warnings) = match languages::entry(language).map(|e| &e.build) {
        Some(Build::Compiler(table)) => {
            // The suite's own choice of compiler, where it made one.
            let compiler = flags.compiler(language).unwrap_or(table);
            recipe = Some(Recipe {
                compiler,
                source: staged.clone(),
                files: staged_files.clone(),
                flags: flags.of(language).to_vec(),
                support: support.to_vec(),
            });
            compile_with_retry(
                compiler,
                &staged_files,
                stage.path(),
                &flags.of(language),
                support,
                "program",
                &[],
            )
            .map_err(|e| with_missing_headers(e, support))?
        }
        Some(Build::Java) => build_java(
            &sources,
            submission.file.file_stem(),
            stage.path(),
            &flags.of(language),
            support,
        )?,
        Some(Build::Python) => {
            let python = python::interpreter().map_err(|e| BuildError::Grader(e.to_string()))?;
            sandbox::show_read_only(python.reads());
            let run_python = |args: &[&Path]| {
                let mut argv = vec![
                    python.executable.clone().into_os_string(),
                    "-B".into(),
                    "-s".into(),
                ];
                argv.extend(args.iter().map(|a| a.as_os_str().to_os_string()));
                let mut reads = python.reads();
                reads.push(stage.path().to_path_buf());
                Program {
                    argv,
                    reads,
                    heap: None,
                }
            };
            syntax = Some(Syntax {
                python,
                sources: sources.clone(),
                verdict: std::sync::Mutex::new(None),
            });
            let helper = stage.path().join(call::HELPER_FILE);
            std::fs::write(&helper, call::HELPER)
                .map_err(|e| BuildError::Grader(format!("cannot write the call helper: {e}")))?;
            caller = Some(run_python(&[&helper, &staged]));
            (run_python(&[&staged]), String::new())
        }
        None => match languages::defined(language) {
            Some(defined) => build_defined(&defined, &staged, stage.path(), support)?,
            None => (Program::new(staged), String::new()),
        },
    };
    Ok(Built {
        program,
        warnings,
        caller,
        stage,
        syntax,
        recipe,
        checked: Later::default(),
    })
}

/// The files a submission's build takes: its program's files, but for
/// a student's copy of a file the suite gives (a `link` or `support`
/// file beside it, such as the course's own `speller.c`): the course's
/// is used.
fn files_of(submission: &Submission, support: &[Support]) -> Vec<PathBuf> {
    let given = |file: &PathBuf| {
        support
            .iter()
            .any(|s| file.file_name().is_some_and(|n| s.place.as_os_str() == n))
    };
    let files: Vec<PathBuf> = submission
        .files
        .iter()
        .filter(|f| !given(f))
        .cloned()
        .collect();
    if files.is_empty() {
        // One file of the course's own name: the build refuses it as
        // it always did, not silently.
        return vec![submission.file.clone()];
    }
    files
}

/// A compile error that names a header it cannot find gets a note
/// saying which file includes it and what to do.
fn with_missing_headers(error: BuildError, support: &[Support]) -> BuildError {
    let BuildError::Compile(messages) = error else {
        return error;
    };
    let mut notes = String::new();
    for line in messages.lines() {
        // gcc: `main.c:2:10: fatal error: stats.h: No such file or directory`
        let Some((place, rest)) = line.split_once(": fatal error: ") else {
            continue;
        };
        let Some(header) = rest.strip_suffix(": No such file or directory") else {
            continue;
        };
        let includer = place.split(':').next().unwrap_or(place);
        let given = support.iter().any(|s| s.place.as_os_str() == header);
        if includer.starts_with(char::is_whitespace) || given {
            continue;
        }
        notes.push_str(&format!(
            "\nnote: {header}, which {includer} includes, is not in your folder: hand it in beside \
             {includer} (a header of your own is included with quotes: #include \"{header}\")"
        ));
    }
    BuildError::Compile(format!("{messages}{notes}"))
}

/// The suite's own library (its `link` sources) compiled with the
/// program's compiler and flags: the objects' paths, to link. Compiled
/// once per compiler and flags in a folder of this process's, and kept
/// for every program after: a class shares its flags, and the checked
/// builds theirs, so a library is compiled once for the ordinary builds
/// and once for the checked ones, not twice per student. Compiled apart
/// from any student's files, it is the same for every student.
fn library(
    command: &Path,
    compiler: &Compiler,
    flags: &[String],
    support: &[Support],
) -> Result<Vec<PathBuf>, BuildError> {
    type Key = (&'static str, Vec<String>, Vec<PathBuf>);
    static FOLDER: OnceLock<std::io::Result<tempfile::TempDir>> = OnceLock::new();
    static MADE: Mutex<Vec<(Key, Vec<PathBuf>)>> = Mutex::new(Vec::new());
    let sources: Vec<PathBuf> = support
        .iter()
        .filter(|s| s.linked)
        .map(|s| s.source.clone())
        .collect();
    if sources.is_empty() {
        return Ok(Vec::new());
    }
    let folder = FOLDER
        .get_or_init(|| super::sandbox().build_folder())
        .as_ref()
        .map_err(|e| BuildError::Grader(format!("cannot make a folder for the library: {e}")))?
        .path();
    let key = (compiler.name, flags.to_vec(), sources);
    // Held while compiling: whoever asks meanwhile waits for it. A
    // failure is not kept (a library that does not compile stops the
    // grade; a grader's failure is tried again).
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, objects)) = made.iter().find(|(k, _)| *k == key) {
        return Ok(objects.clone());
    }
    let tag = made.len().to_string();
    let objects = compile_library(command, compiler, folder, flags, support, &tag)?;
    made.push((key, objects.clone()));
    Ok(objects)
}

/// Compiles the suite's own library (its `link` sources) with `flags`,
/// each to an object file in `stage`, named by `tag`: their paths. A
/// `.c` source is compiled as C whichever the compiler. A source that
/// does not compile is the suite's trouble ([`BuildError::Library`]),
/// never the student's.
fn compile_library(
    command: &Path,
    compiler: &Compiler,
    stage: &Path,
    flags: &[String],
    support: &[Support],
    tag: &str,
) -> Result<Vec<PathBuf>, BuildError> {
    let mut objects = Vec::new();
    for (k, source) in support.iter().filter(|s| s.linked).enumerate() {
        // Named by what it is linked into: the checked build's, compiled
        // with the sanitizers, lies beside the ordinary build's.
        let object = format!(".referee-link-{tag}-{k}.o");
        let mut argv: Vec<OsString> = vec![command.as_os_str().to_os_string(), "-I.".into()];
        let cpp = compiler.language == Language::Cpp;
        if cpp && source.place.extension().is_some_and(|e| e == "c") {
            argv.extend(["-x".into(), "c".into()]);
        }
        argv.extend(flags.iter().map(OsString::from));
        argv.extend([
            "-c".into(),
            source.place.as_os_str().to_os_string(),
            "-o".into(),
            object.clone().into(),
        ]);
        let tool = Tool {
            what: "the compiler",
            argv,
            reads: vec![stage.to_path_buf()],
            sources: Vec::new(),
            reserve: None,
        };
        let (jail, _) = run_tool_with_retry(&tool, support).map_err(|e| match e {
            BuildError::Compile(messages) => BuildError::Library(format!(
                "the suite's own library {} (suite.yaml's `link`) does not compile, so no \
                 program can be built; the compiler said:\n{}",
                source.place.display(),
                messages.trim_end()
            )),
            other => other,
        })?;
        let kept = stage.join(&object);
        untrusted::copy(&jail.workdir().join(&object), &kept, PROGRAM_LIMIT, 0o644)
            .map_err(|e| BuildError::Grader(format!("cannot keep the library's object: {e}")))?;
        objects.push(kept);
    }
    Ok(objects)
}

/// The compiler's command: the first of its names found on `PATH`.
pub fn command_of(compiler: &Compiler) -> Result<PathBuf, BuildError> {
    compiler
        .commands
        .iter()
        .find_map(|name| find_on_path(name))
        .ok_or_else(|| {
            BuildError::Grader(format!(
                "no {} found (looked for {} on PATH): install it (apt-get install {})",
                compiler.name,
                compiler.commands.join(" and "),
                compiler.package
            ))
        })
}

/// The compilers a suite chose (`flags`' own) that are not on PATH, in
/// words, with what installs each; `None` where every one is here.
pub fn missing_compilers(flags: &Flags) -> Option<String> {
    let missing: Vec<String> = flags
        .chosen()
        .into_iter()
        .filter(|(_, compiler)| command_of(compiler).is_err())
        .map(|(language, compiler)| {
            let command = compiler.commands.join(" ");
            format!(
                "suite.yaml chooses {command} to compile {language} (`compiler:`), and {command} \
                 is not installed here (not on PATH): install it (apt-get install {}), or \
                 leave {language} to referee's default by removing it from `compiler:`",
                compiler.package
            )
        })
        .collect();
    (!missing.is_empty()).then(|| missing.join("\n"))
}

/// Compiles `source` (a C source, whatever the compiler) with `flags` to
/// an object in `folder`, for linking into programs: its path.
pub(super) fn compile_object(
    compiler: &Compiler,
    source: &Support,
    folder: &Path,
    flags: &[String],
) -> Result<PathBuf, BuildError> {
    let command = command_of(compiler)?;
    let objects = compile_library(
        &command,
        compiler,
        folder,
        flags,
        std::slice::from_ref(source),
        "object",
    )?;
    objects
        .into_iter()
        .next()
        .ok_or_else(|| BuildError::Grader("the compiler made no object".into()))
}

/// Compiles `files` (sources, and headers beside them) into one
/// program; a failure of the grader's own (no process to spare, no
/// disk in its folders) is tried once more on a fresh slot before it is
/// reported, and never as the student's compile error.
pub(super) fn compile_with_retry(
    compiler: &Compiler,
    files: &[PathBuf],
    stage: &Path,
    flags: &[String],
    support: &[Support],
    output: &str,
    prebuilt: &[PathBuf],
) -> Result<(Program, String), BuildError> {
    let command = command_of(compiler)?;
    let library = library(&command, compiler, flags, support)?;
    // Referee's own objects come first: what they put in `.preinit_array`
    // (the checked build's hold) runs before anything of the source's.
    let objects: Vec<PathBuf> = prebuilt.iter().cloned().chain(library).collect();
    let named = |o: &PathBuf| o.file_name().unwrap_or_default().to_os_string();
    let mut argv: Vec<OsString> = vec![command.into_os_string()];
    if !support.is_empty() {
        // `#include <cs50.h>` as handouts write it finds the suite's own.
        argv.push("-I.".into());
    }
    argv.extend(flags.iter().map(OsString::from));
    // Objects, copied beside the source, by name.
    argv.extend(objects[..prebuilt.len()].iter().map(named));
    argv.extend(
        files
            .iter()
            .filter(|f| !super::several::is_header(f))
            .map(named),
    );
    argv.extend(objects[prebuilt.len()..].iter().map(named));
    argv.extend(["-o".into(), output.into()]);
    argv.extend(compiler.libs.iter().map(OsString::from));
    let tool = Tool {
        what: "the compiler",
        argv,
        reads: vec![stage.to_path_buf()],
        sources: files.iter().cloned().chain(objects).collect(),
        reserve: None,
    };
    let (jail, messages) = run_tool_with_retry(&tool, support)?;
    let program = take_program(&jail, stage, &messages, output)?;
    Ok((Program::new(program), messages))
}

/// The compiler's messages on each source of `files` compiled with
/// `flags` and then `args`, making nothing (a pass for its warnings
/// only; one pass per source, as `-S -o` takes one), one after another.
pub(super) fn compiler_messages(
    compiler: &Compiler,
    files: &[PathBuf],
    stage: &Path,
    flags: &[String],
    support: &[Support],
    args: &[&str],
) -> Result<String, BuildError> {
    let command = command_of(compiler)?;
    let mut said = String::new();
    for source in files.iter().filter(|f| !super::several::is_header(f)) {
        let mut argv: Vec<OsString> = vec![command.clone().into_os_string(), "-I.".into()];
        argv.extend(flags.iter().map(OsString::from));
        argv.extend(args.iter().map(OsString::from));
        argv.push(source.file_name().unwrap_or_default().to_os_string());
        let tool = Tool {
            what: "the compiler",
            argv,
            reads: vec![stage.to_path_buf()],
            sources: files.to_vec(),
            reserve: None,
        };
        let (_, messages) = run_tool_with_retry(&tool, support)?;
        said.push_str(&messages);
        said.push('\n');
    }
    Ok(said)
}

/// The program a build tool made (`program` in its folder), copied into
/// the build's folder.
fn take_program(
    jail: &sandbox::Jail,
    stage: &Path,
    messages: &str,
    name: &str,
) -> Result<PathBuf, BuildError> {
    let output = stage.join(name);
    untrusted::copy(
        &jail.workdir().join(name),
        &output,
        COMPILE_LIMITS.file_size,
        0o755,
    )
    .map_err(|e| BuildError::Compile(format!("{messages}\nthe compiler made no program ({e})")))?;
    Ok(output)
}

/// A build tool's run: what it is called in messages, its command, what
/// it reads besides the system's, the sources it is given in its
/// working folder, and the address space it may reserve (a JVM's).
struct Tool<'a> {
    what: &'a str,
    argv: Vec<OsString>,
    reads: Vec<PathBuf>,
    sources: Vec<PathBuf>,
    reserve: Option<u64>,
}

/// Runs a build tool, once more on a fresh slot after a failure of the
/// grader's own.
fn run_tool_with_retry(
    tool: &Tool<'_>,
    support: &[Support],
) -> Result<(sandbox::Jail, String), BuildError> {
    match run_tool(tool, support) {
        Err(BuildError::Grader(_)) => {
            sandbox::retire_thread_slot();
            run_tool(tool, support)
        }
        done => done,
    }
}

/// Runs a build tool in the sandbox, on copies of its sources in its
/// working folder (so that its messages name each file as the student
/// named it); what it made is in the jail's folder.
fn run_tool(tool: &Tool<'_>, support: &[Support]) -> Result<(sandbox::Jail, String), BuildError> {
    let what = tool.what;
    let mut jail = sandbox()
        .build_jail(&tool.reads, &COMPILE_LIMITS)
        .map_err(|e| BuildError::Grader(format!("cannot make a sandbox for {what}: {e}")))?;
    if let Some(reserve) = tool.reserve {
        jail.reserve_address_space(COMPILER_MEMORY.saturating_add(reserve));
    }
    for source in &tool.sources {
        let file_name = source.file_name().unwrap_or_default();
        untrusted::copy(
            source,
            &jail.workdir().join(file_name),
            PROGRAM_LIMIT,
            0o644,
        )
        .map_err(|e| BuildError::Grader(format!("cannot give {what} its source: {e}")))?;
    }
    super::start::provide(jail.workdir(), support)
        .map_err(|e| BuildError::Grader(e.to_string()))?;
    let ran = tool::run(&jail, &tool.argv, COMPILE_TIMEOUT, COMPILER_OUTPUT_LIMIT)
        .map_err(|e| BuildError::Grader(format!("cannot run {what}: {e}")))?;
    if ran.job_out_of_memory {
        return Err(BuildError::Grader(job_out_of_memory(what)));
    }
    if ran.timed_out {
        return Err(BuildError::Compile(format!(
            "{what} was still running after {} s and was stopped",
            COMPILE_TIMEOUT.as_secs()
        )));
    }
    if !ran.succeeded() {
        if let Some(trouble) = graders_trouble(&ran.messages) {
            return Err(BuildError::Grader(format!(
                "{what} could not run here ({trouble}): {}",
                ran.messages.trim()
            )));
        }
        let signal = ran.signal();
        if let Some(why) = stopped_from_outside(signal, &ran.messages) {
            return Err(BuildError::Grader(format!(
                "{what} was stopped by {why}, which referee did not send (the job \
                 being stopped?); grade it again"
            )));
        }
        let mut messages = ran.messages;
        if messages.contains("No space left on device") {
            messages.push_str(&format!(
                "\n({what} ran out of room: a program and its temporary files may take \
                 at most {} MiB)",
                sandbox::DISK >> 20
            ));
        }
        if let Some(signal) = signal {
            messages.push_str(&format!(
                "\n({what} was killed by signal {signal}: your program may make it use \
                 more than {} MiB of memory)",
                COMPILE_LIMITS.memory.unwrap_or(0) >> 20
            ));
        }
        return Err(BuildError::Compile(messages));
    }
    Ok((jail, ran.messages))
}

/// Compiles Java sources with `javac` into classes, and finds the class
/// to run: the one with `main`. A public class in a file named otherwise
/// (which `javac` refuses) is compiled again from a file of its name,
/// with a note saying so; a class in a package runs by its full name.
fn build_java(
    sources: &[PathBuf],
    entry: Option<&std::ffi::OsStr>,
    stage: &Path,
    flags: &[String],
    support: &[Support],
) -> Result<(Program, String), BuildError> {
    let jdk = java::jdk().map_err(|e| BuildError::Grader(e.to_string()))?;
    sandbox::show_read_only(jdk.reads.clone());
    let mut reads = jdk.reads.clone();
    reads.push(stage.to_path_buf());
    let mut sources = sources.to_vec();
    let mut notes = String::new();
    let (jail, messages) = loop {
        let mut argv: Vec<OsString> = jdk
            .loader
            .iter()
            .map(|p| p.clone().into_os_string())
            .collect();
        argv.extend([jdk.javac.clone().into_os_string(), java::JAVAC_HEAP.into()]);
        argv.extend(
            java::JVM_OPTIONS
                .iter()
                .map(|o| OsString::from(format!("-J{o}"))),
        );
        argv.extend(flags.iter().map(OsString::from));
        argv.extend(["-d".into(), "classes".into()]);
        argv.extend(
            sources
                .iter()
                .map(|s| s.file_name().unwrap_or_default().to_os_string()),
        );
        let tool = Tool {
            what: "javac",
            argv,
            reads: reads.clone(),
            sources: sources.clone(),
            reserve: Some(java::RESERVE),
        };
        match run_tool_with_retry(&tool, support) {
            Err(BuildError::Compile(messages)) if notes.is_empty() => {
                let renames = renamed(&mut sources, stage, &java::renames_asked(&messages));
                if renames.is_empty() {
                    return Err(BuildError::Compile(messages));
                }
                notes = renames;
            }
            Err(BuildError::Compile(messages)) => {
                return Err(BuildError::Compile(format!("{notes}{messages}")))
            }
            done => break done?,
        }
    };
    let built = jail.workdir().join("classes");
    let classes = stage.join("classes");
    let files = java::class_files(&built).map_err(|e| {
        BuildError::Compile(format!("{notes}{messages}\njavac made no classes ({e})"))
    })?;
    let mut mains = Vec::new();
    for file in &files {
        let to = classes.join(file);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                BuildError::Grader(format!("cannot make a folder for the classes: {e}"))
            })?;
        }
        untrusted::copy(&built.join(file), &to, COMPILE_LIMITS.file_size, 0o644)
            .map_err(|e| BuildError::Grader(format!("cannot copy a class javac made: {e}")))?;
        let bytes = std::fs::read(&to)
            .map_err(|e| BuildError::Grader(format!("cannot read a class javac made: {e}")))?;
        mains.extend(java::main_class(&bytes));
    }
    let main = match &mains[..] {
        [main] => main.clone(),
        [] => {
            return Err(BuildError::Compile(format!(
                "{notes}{messages}no class has a main method: the class to run needs `public                  static void main(String[] args)`"
            )))
        }
        several => {
            // The one named as a file was: Lab.java's Lab.
            let stems: Vec<String> = sources
                .iter()
                .filter_map(|s| s.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect();
            let named: Vec<&String> = several
                .iter()
                .filter(|m| stems.iter().any(|s| m.rsplit('.').next() == Some(s.as_str())))
                .collect();
            // The file that starts the program (the suite's `main:`)
            // names its class.
            let entry = entry.map(|e| e.to_string_lossy().into_owned());
            let started: Vec<&String> = several
                .iter()
                .filter(|m| entry.as_deref().is_some_and(|e| m.rsplit('.').next() == Some(e)))
                .collect();
            let named = if started.len() == 1 { started } else { named };
            match named[..] {
                [main] => main.clone(),
                _ => {
                    return Err(BuildError::Compile(format!(
                        "{notes}{messages}{} classes have a main method ({}): referee cannot                          tell which to run; keep main in one class only",
                        several.len(),
                        several.join(", ")
                    )))
                }
            }
        }
    };
    let mut argv: Vec<OsString> = jdk
        .loader
        .iter()
        .map(|p| p.clone().into_os_string())
        .collect();
    argv.push(jdk.java.clone().into_os_string());
    let heap_at = argv.len();
    argv.extend(java::JVM_OPTIONS.iter().map(OsString::from));
    argv.extend(["-cp".into(), classes.into_os_string(), main.into()]);
    let program = Program {
        argv,
        reads,
        heap: Some(Heap {
            option: Some(java::HEAP_OPTION),
            at: heap_at,
            reserve: java::RESERVE,
        }),
    };
    Ok((program, format!("{notes}{messages}")))
}

/// Renames staged sources as `javac` asked (`lab.java` to `Lab.java`),
/// where the new name is free: what was done, as notes for the
/// student; empty when nothing was.
fn renamed(sources: &mut [PathBuf], stage: &Path, asked: &[(String, String)]) -> String {
    let mut notes = String::new();
    for (from, to) in asked {
        let taken = sources
            .iter()
            .any(|s| s.file_name().is_some_and(|n| n == to.as_str()));
        let Some(source) = sources
            .iter_mut()
            .find(|s| s.file_name().is_some_and(|n| n == from.as_str()))
        else {
            continue;
        };
        if taken || std::fs::rename(&*source, stage.join(to)).is_err() {
            continue;
        }
        *source = stage.join(to);
        let class = to.trim_end_matches(".java");
        notes.push_str(&format!(
            "note: {from} declares public class {class}, which javac compiles only from a file \
             named {to}; it was compiled as {to}: rename your file {to}\n"
        ));
    }
    notes
}

/// Builds a source of a language the suite defines: its build command,
/// if it has one, in the sandbox; then its run command.
fn build_defined(
    defined: &Defined,
    source: &Path,
    stage: &Path,
    support: &[Support],
) -> Result<(Program, String), BuildError> {
    let name = source
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let mut reads = defined.reads.clone();
    reads.push(stage.to_path_buf());
    let command = |template: &[String], source: &str, program: &str, flags: &[String]| {
        let mut argv: Vec<OsString> = Vec::new();
        for (i, word) in template.iter().enumerate() {
            if word == languages::FLAGS {
                argv.extend(flags.iter().map(OsString::from));
                continue;
            }
            let word = word
                .replace(languages::SOURCE, source)
                .replace(languages::PROGRAM, program);
            if i == 0 && !word.contains('/') {
                let found = find_on_path(&word).ok_or_else(|| {
                    BuildError::Grader(format!(
                        "no {word} found on PATH, which the suite's language {} runs: install                          it, or name it by its path in suite.yaml",
                        defined.name
                    ))
                })?;
                argv.push(found.into_os_string());
            } else {
                argv.push(word.into());
            }
        }
        Ok::<_, BuildError>(argv)
    };
    sandbox::show_read_only(defined.reads.clone());
    let mut messages = String::new();
    let mut program = stage.join("program");
    if let Some(build) = &defined.build {
        let argv = command(build, &name, "program", &defined.flags)?;
        let tool = Tool {
            what: "the build command",
            argv,
            reads: reads.clone(),
            sources: vec![source.to_path_buf()],
            reserve: defined.reserve,
        };
        let (jail, said) = run_tool_with_retry(&tool, support)?;
        if jail.workdir().join("program").is_file() {
            program = take_program(&jail, stage, &said, "program")?;
        }
        messages = said;
    }
    let argv = command(
        &defined.run,
        &source.to_string_lossy(),
        &program.to_string_lossy(),
        &[],
    )?;
    let program = Program {
        argv,
        reads,
        heap: defined.reserve.map(|reserve| Heap {
            option: None,
            at: 0,
            reserve,
        }),
    };
    Ok((program, messages))
}

/// Whether a failed build tool's messages show a failure of the machine
/// rather than of the student's code: what, in a few words. Only the
/// tool's own lines count, not the lines of source it quotes (indented),
/// which a student could fill with these very words.
fn graders_trouble(messages: &str) -> Option<&'static str> {
    // (A full disk is not among them: the build's folder is the slot's
    // own, capped tmpfs, and a program too large for it is the source's.)
    const SIGNS: [(&str, &str); 3] = [
        ("Resource temporarily unavailable", "no process to spare"),
        ("Cannot allocate memory", "no memory to spare"),
        ("cannot fork", "no process to spare"),
    ];
    messages
        .lines()
        .filter(|line| !line.starts_with(char::is_whitespace))
        .find_map(|line| {
            SIGNS
                .iter()
                .find(|(text, _)| line.contains(text))
                .map(|(_, what)| *what)
        })
}

/// The signal that stopped the compiler, when it is one a job is stopped
/// with (Slurm, systemd and `docker stop` send SIGTERM to every process
/// of a job, Ctrl-C SIGINT): the source cannot make a compiler die of
/// it, so such a build says nothing of the student. Either the compiler
/// itself died of it, or gcc's driver outlived its `cc1` and said so
/// (`gcc: internal compiler error: Terminated signal terminated program
/// cc1`; a line of the driver's own, whose prefix has no `:`, unlike the
/// `file.c:1:2:` of a line a student's `#error` writes). SIGKILL is not
/// among them: it is how a compiler over its memory limit ends.
fn stopped_from_outside(signal: Option<i32>, messages: &str) -> Option<&'static str> {
    if let Some(stop) = signal.and_then(crate::run::job_stop) {
        return Some(stop.name);
    }
    messages.lines().find_map(|line| {
        let (driver, rest) = line.split_once(": internal compiler error: ")?;
        if driver.contains(':') {
            return None;
        }
        crate::run::JOB_STOPS
            .iter()
            .find(|stop| rest.starts_with(&format!("{} signal terminated program", stop.described)))
            .map(|stop| stop.name)
    })
}

/// Checks that a Python file parses, as compiling a C file does: a
/// syntax error is a `compile-error` with Python's message, once, rather
/// than a crash in every case. Only parses (nothing of the file runs),
/// with `-I -S` so that the check costs a few milliseconds.
fn check_syntax(python: &python::Python, source: &Path, stage: &Path) -> Result<(), BuildError> {
    const CHECK: &str = r#"
import sys
path = sys.argv[1]
try:
    compile(open(path, "rb").read(), path.rsplit("/", 1)[-1], "exec")
except SyntaxError as e:
    print(f"{e.filename}:{e.lineno}:{e.offset or 0}: {type(e).__name__}: {e.msg}", file=sys.stderr)
    if e.text:
        print("    " + e.text.rstrip(), file=sys.stderr)
        print("    " + " " * max((e.offset or 1) - 1, 0) + "^", file=sys.stderr)
    sys.exit(1)
except ValueError as e:
    print(f"{path.rsplit('/', 1)[-1]}: {e}", file=sys.stderr)
    sys.exit(1)
"#;
    let mut reads: Vec<PathBuf> = python.reads();
    reads.push(stage.to_path_buf());
    let check = || -> Result<(), BuildError> {
        let jail = sandbox()
            .build_jail(&reads, &COMPILE_LIMITS)
            .map_err(|e| BuildError::Grader(format!("cannot make a sandbox for Python: {e}")))?;
        let argv: Vec<OsString> = [
            python.executable.as_os_str(),
            "-I".as_ref(),
            "-S".as_ref(),
            "-B".as_ref(),
            "-c".as_ref(),
            CHECK.as_ref(),
            source.as_os_str(),
        ]
        .into_iter()
        .map(OsString::from)
        .collect();
        let ran = tool::run(&jail, &argv, COMPILE_TIMEOUT, COMPILER_OUTPUT_LIMIT)
            .map_err(|e| BuildError::Grader(format!("cannot run Python: {e}")))?;
        if ran.succeeded() {
            return Ok(());
        }
        if ran.job_out_of_memory {
            return Err(BuildError::Grader(job_out_of_memory(
                "Python's syntax check",
            )));
        }
        if let Some(trouble) = graders_trouble(&ran.messages) {
            return Err(BuildError::Grader(format!(
                "Python could not run here ({trouble}): {}",
                ran.messages.trim()
            )));
        }
        Err(BuildError::Compile(ran.messages))
    };
    match check() {
        Err(BuildError::Grader(_)) => {
            sandbox::retire_thread_slot();
            check()
        }
        done => done,
    }
}

/// Why a build tool killed for the job's memory is the grader's trouble.
fn job_out_of_memory(tool: &str) -> String {
    format!(
        "{tool} was killed because the memory of the job referee runs in ran out (not a limit \
         of the submission's): give the job more memory (Slurm: --mem), or grade with fewer \
         --jobs"
    )
}

/// The first executable called `name` on PATH.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    sandbox::find_on_path(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compiler_stopped_with_its_job_is_not_the_students() {
        let none = "";
        assert_eq!(
            stopped_from_outside(Some(libc::SIGTERM), none),
            Some("SIGTERM")
        );
        assert_eq!(
            stopped_from_outside(Some(libc::SIGINT), none),
            Some("SIGINT")
        );
        let driver = "gcc: internal compiler error: Terminated signal terminated program cc1\n";
        assert_eq!(stopped_from_outside(None, driver), Some("SIGTERM"));
        // Out of memory is the program's; so is an #error of the student's.
        assert_eq!(stopped_from_outside(Some(libc::SIGKILL), none), None);
        let killed = "gcc: internal compiler error: Killed signal terminated program cc1\n";
        assert_eq!(stopped_from_outside(None, killed), None);
        let forged = "s.c:1:2: error: #error x: internal compiler error: Terminated signal \
                      terminated program cc1\n";
        assert_eq!(stopped_from_outside(None, forged), None);
    }

    #[test]
    fn code_that_does_not_compile_is_the_students() {
        use crate::fault::Fault;
        assert_eq!(BuildError::Compile("x".into()).fault(), Fault::Student);
        assert_eq!(BuildError::Grader("no gcc".into()).fault(), Fault::Grader);
    }

    #[test]
    fn the_graders_trouble_is_told_from_the_students() {
        assert_eq!(
            graders_trouble(
                "gcc: fatal error: cannot execute 'cc1': vfork: Resource temporarily unavailable"
            ),
            Some("no process to spare")
        );
        assert_eq!(
            graders_trouble("lab6.c:3:1: error: expected ';' before '}' token"),
            None
        );
        let quoted =
            "lab6.c:5:12: error: expected ';'\n    5 |   puts(\"No space left on device\")\n";
        assert_eq!(graders_trouble(quoted), None);
    }
}
