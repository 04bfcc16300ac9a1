//! The one table of languages: for each, the extensions of its sources,
//! how it is built, how it is run and its default flags. C, C++, Python
//! and Java are built in ([`TABLE`]); a suite may add a language of its
//! own (`languages:` in `suite.yaml`), with a build command and a run
//! command ([`Defined`]), built and run in the same sandbox.
//!
//! Languages a suite defines are kept for the whole run of referee
//! ([`define`]): one run grades one suite, and what a submission is
//! (its extension) must be known wherever it is looked for.

use std::fmt;
use std::path::PathBuf;
use std::sync::RwLock;

/// The language a submission is written in, which decides how it is
/// built and run: an entry of the one table of languages
/// (this module).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    /// Compiled with the system C compiler.
    C,
    /// Compiled with the system C++ compiler (`g++`).
    Cpp,
    /// Run with Python 3.
    Python,
    /// Compiled with `javac`, run with `java`.
    Java,
    /// A language a suite adds (`languages:` in `suite.yaml`): its place
    /// in the table of those defined.
    Defined(u16),
    /// Run as it is.
    Executable,
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&name(*self))
    }
}

impl Language {
    /// The language a game's entry in the registry names for a
    /// submission in this one: C++ is graded wherever C is (a handout's C
    /// game takes a C++ program too, as course servers compile either).
    pub fn registered_as(self) -> Language {
        match self {
            Language::Cpp => Language::C,
            language => language,
        }
    }

    /// Whether building it runs a compiler (a build worth doing other
    /// work beside).
    pub fn is_compiled(self) -> bool {
        is_compiled(self)
    }

    /// What a game registered in this language takes, in words.
    pub fn taken(self) -> String {
        match self {
            Language::C | Language::Cpp => "C or C++".into(),
            language => language.to_string(),
        }
    }
}

/// A compiler of one language, as referee looks for it and calls it.
#[derive(Debug)]
pub struct Compiler {
    /// The language it compiles (C or C++): a C++ compiler is told that
    /// a `.c` source of the suite's is C.
    pub language: Language,
    /// What it is called in messages.
    pub name: &'static str,
    /// The commands tried on PATH, in order.
    pub commands: &'static [&'static str],
    /// What to install when none is found.
    pub package: &'static str,
    /// Libraries linked after the source.
    pub libs: &'static [&'static str],
    /// Whose arguments it takes beyond gcc's usual ones: its sanitizers'
    /// and its warnings'.
    pub family: Family,
}

/// The two kinds of compiler referee knows the sanitizers and warnings
/// of. Both take gcc's usual arguments (`-Wall`, `-std=c99`, `-o`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// gcc and g++, and any other command not named for clang.
    Gcc,
    /// clang and clang++ (and their versioned names, `clang-19`).
    Clang,
}

/// How a language is built, and so how it runs.
#[derive(Debug)]
pub enum Build {
    /// Compiled into an executable, which runs as it is.
    Compiler(Compiler),
    /// Run by the Python interpreter; its syntax checked once.
    Python,
    /// Compiled by `javac` into classes, run by `java` from the class
    /// that has `main` (see [`super::java`]).
    Java,
}

/// One built-in language.
#[derive(Debug)]
pub struct Entry {
    /// The language.
    pub language: Language,
    /// Its name in messages.
    pub name: &'static str,
    /// Its key under `compile:` in `suite.yaml`.
    pub key: &'static str,
    /// The extensions of its sources.
    pub extensions: &'static [&'static str],
    /// The flags it is compiled with where neither the suite nor the
    /// command line sets any.
    pub flags: &'static [&'static str],
    /// How it is built and run.
    pub build: Build,
}

/// The built-in languages. The C compiler links the maths library after
/// the source (the handouts allow it, and `gcc` does not link it by
/// itself); `g++` links it itself.
pub const TABLE: &[Entry] = &[
    Entry {
        language: Language::C,
        name: "C",
        key: "c",
        extensions: &["c"],
        flags: &["-Wall"],
        build: Build::Compiler(Compiler {
            language: Language::C,
            name: "C compiler",
            commands: &["gcc", "cc"],
            package: "gcc",
            libs: &["-lm"],
            family: Family::Gcc,
        }),
    },
    Entry {
        language: Language::Cpp,
        name: "C++",
        key: "cpp",
        extensions: &["cpp", "cc", "cxx", "c++"],
        flags: &["-Wall"],
        build: Build::Compiler(Compiler {
            language: Language::Cpp,
            name: "C++ compiler",
            commands: &["g++", "c++"],
            package: "g++",
            libs: &[],
            family: Family::Gcc,
        }),
    },
    Entry {
        language: Language::Python,
        name: "Python",
        key: "python",
        extensions: &["py"],
        flags: &[],
        build: Build::Python,
    },
    Entry {
        language: Language::Java,
        name: "Java",
        key: "java",
        extensions: &["java"],
        flags: &["-encoding", "UTF-8"],
        build: Build::Java,
    },
];

/// A language a suite adds: `languages: {rust: {extensions: [rs],
/// build: [rustc, "{source}", -o, "{program}"], run: ["{program}"]}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defined {
    /// Its name, the key it has under `languages:`.
    pub name: String,
    /// The extensions of its sources, without the dot.
    pub extensions: Vec<String>,
    /// The command that builds a source, if it is built: run in a
    /// folder holding the source (and the suite's support files), with
    /// `{source}` standing for the source's name, `{program}` for the
    /// file it must make (`program`) and `{flags}` for the flags.
    pub build: Option<Vec<String>>,
    /// The command that runs it, with `{source}` and `{program}` as
    /// above (the built program, or the source itself).
    pub run: Vec<String>,
    /// Its build flags.
    pub flags: Vec<String>,
    /// Folders its tools need to read besides the system's (a compiler
    /// installed in a home folder).
    pub reads: Vec<PathBuf>,
    /// The address space each process may reserve beyond the memory
    /// limit, for a virtual machine that reserves far more than it uses
    /// (`node`): its memory is then held by the control group alone.
    pub reserve: Option<u64>,
}

/// What `{source}` stands for in a defined language's commands.
pub const SOURCE: &str = "{source}";
/// What `{program}` stands for in a defined language's commands.
pub const PROGRAM: &str = "{program}";
/// What `{flags}` stands for in a defined language's build command.
pub const FLAGS: &str = "{flags}";

static DEFINED: RwLock<Vec<Defined>> = RwLock::new(Vec::new());

/// Adds a suite's language to the table (one of the same name is
/// replaced), and returns it.
pub fn define(language: Defined) -> Language {
    let mut table = DEFINED.write().unwrap_or_else(|e| e.into_inner());
    let place = match table.iter().position(|d| d.name == language.name) {
        Some(place) => {
            table[place] = language;
            place
        }
        None => {
            table.push(language);
            table.len() - 1
        }
    };
    Language::Defined(u16::try_from(place).unwrap_or(u16::MAX))
}

/// A language a suite added, as it was defined.
pub fn defined(language: Language) -> Option<Defined> {
    let Language::Defined(place) = language else {
        return None;
    };
    let table = DEFINED.read().unwrap_or_else(|e| e.into_inner());
    table.get(usize::from(place)).cloned()
}

/// A built-in language's entry.
pub fn entry(language: Language) -> Option<&'static Entry> {
    TABLE.iter().find(|e| e.language == language)
}

/// The language whose sources end in `.ext`: a built-in one first, then
/// one a suite added.
pub fn of_extension(ext: &str) -> Option<Language> {
    if let Some(entry) = TABLE.iter().find(|e| e.extensions.contains(&ext)) {
        return Some(entry.language);
    }
    let table = DEFINED.read().unwrap_or_else(|e| e.into_inner());
    table
        .iter()
        .position(|d| d.extensions.iter().any(|e| e == ext))
        .map(|place| Language::Defined(u16::try_from(place).unwrap_or(u16::MAX)))
}

/// The compiler of `language` (C or C++) that a suite chose by its
/// command (`compiler: {c: clang-19}`): the table's entry with that
/// command alone, and the package that installs it. Made once per command
/// and kept for the process (a run grades one suite: a few at most), as
/// the table's own are.
pub fn chosen(language: Language, command: &str) -> Option<&'static Compiler> {
    static CHOSEN: std::sync::Mutex<Vec<(Language, &'static Compiler)>> =
        std::sync::Mutex::new(Vec::new());
    let Some(Entry {
        build: Build::Compiler(base),
        ..
    }) = entry(language)
    else {
        return None;
    };
    let mut chosen = CHOSEN.lock().unwrap_or_else(|e| e.into_inner());
    let known = chosen
        .iter()
        .find(|(l, c)| *l == language && c.commands == [command]);
    if let Some((_, compiler)) = known {
        return Some(compiler);
    }
    let command: &'static str = Box::leak(command.to_string().into_boxed_str());
    let compiler: &'static Compiler = Box::leak(Box::new(Compiler {
        language,
        // Its own name: what is made once per compiler is keyed by it.
        name: Box::leak(format!("{} {command}", base.name).into_boxed_str()),
        commands: Box::leak(Box::new([command])),
        package: Box::leak(package_of(command).into_boxed_str()),
        libs: base.libs,
        family: family_of(command),
    }));
    chosen.push((language, compiler));
    Some(compiler)
}

/// The kind of compiler `command` is, by its name: `clang`, `clang++`,
/// `clang-19` and `/usr/bin/clang` are clang's.
pub fn family_of(command: &str) -> Family {
    let name = command.rsplit('/').next().unwrap_or(command);
    if name.starts_with("clang") {
        Family::Clang
    } else {
        Family::Gcc
    }
}

/// The Debian packages that install `command`: clang++ comes with clang
/// (`clang++-19` with `clang-19`), with its sanitizers' static runtime
/// (`libclang-rt-19-dev`, which `clang-19` only recommends); every other
/// compiler comes with its own name (`gcc-13`, `g++`).
pub fn package_of(command: &str) -> String {
    let name = command.rsplit('/').next().unwrap_or(command);
    let clang = name.strip_prefix("clang++").or(name.strip_prefix("clang"));
    match clang {
        Some(version) => format!("clang{version} libclang-rt{version}-dev"),
        None => name.to_string(),
    }
}

/// A language's name in messages.
pub fn name(language: Language) -> String {
    match language {
        Language::Executable => "executable".into(),
        Language::Defined(_) => {
            defined(language).map_or_else(|| "a suite's language".into(), |d| d.name)
        }
        built_in => entry(built_in).map_or("?", |e| e.name).into(),
    }
}

/// Whether building it runs a compiler.
pub fn is_compiled(language: Language) -> bool {
    match language {
        Language::Executable | Language::Python => false,
        Language::Defined(_) => defined(language).is_some_and(|d| d.build.is_some()),
        _ => true,
    }
}

/// The sources referee takes, in words: `a C (.c), C++ (.cpp, .cc, .cxx,
/// .c++), Python (.py) or Java (.java) file`, with the suite's own
/// languages.
pub fn sources_in_words() -> String {
    let mut kinds: Vec<String> = TABLE
        .iter()
        .map(|e| format!("{} ({})", e.name, dotted(e.extensions.iter().copied())))
        .collect();
    let table = DEFINED.read().unwrap_or_else(|e| e.into_inner());
    kinds.extend(table.iter().map(|d| {
        format!(
            "{} ({})",
            d.name,
            dotted(d.extensions.iter().map(String::as_str))
        )
    }));
    let last = kinds.pop().unwrap_or_default();
    format!("a {} or {last} file", kinds.join(", "))
}

fn dotted<'a>(extensions: impl Iterator<Item = &'a str>) -> String {
    extensions
        .map(|e| format!(".{e}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_language_is_one_entry_of_the_table() {
        for (ext, language) in [
            ("c", Language::C),
            ("cc", Language::Cpp),
            ("py", Language::Python),
            ("java", Language::Java),
        ] {
            assert_eq!(of_extension(ext), Some(language), "{ext}");
        }
        assert_eq!(of_extension("C"), None);
        assert_eq!(Language::Java.to_string(), "Java");
        assert!(Language::Java.is_compiled() && !Language::Python.is_compiled());
        let words = sources_in_words();
        assert!(words.contains("Java (.java)"), "{words}");
    }

    #[test]
    fn a_chosen_compiler_is_its_command_alone_with_its_package() {
        let clang = chosen(Language::Cpp, "clang++-19").unwrap();
        assert_eq!(clang.commands, ["clang++-19"]);
        assert_eq!(clang.package, "clang-19 libclang-rt-19-dev");
        assert_eq!(clang.family, Family::Clang);
        assert_eq!(clang.name, "C++ compiler clang++-19");
        // Chosen again: the same one, not a second.
        assert!(std::ptr::eq(
            clang,
            chosen(Language::Cpp, "clang++-19").unwrap()
        ));
        let gcc = chosen(Language::C, "gcc-12").unwrap();
        assert_eq!((gcc.package, gcc.family), ("gcc-12", Family::Gcc));
        assert_eq!(gcc.libs, ["-lm"]);
        assert_eq!(package_of("clang"), "clang libclang-rt-dev");
        assert_eq!(family_of("/usr/bin/clang"), Family::Clang);
        assert!(chosen(Language::Python, "clang").is_none());
    }

    #[test]
    fn a_suite_adds_a_language_by_its_extensions() {
        let language = define(Defined {
            name: "table-test-lang".into(),
            extensions: vec!["ttl".into()],
            build: None,
            run: vec!["cat".into(), SOURCE.into()],
            flags: Vec::new(),
            reads: Vec::new(),
            reserve: None,
        });
        assert_eq!(of_extension("ttl"), Some(language));
        assert_eq!(language.to_string(), "table-test-lang");
        assert!(!language.is_compiled());
        // Defined again (a suite loaded twice): the same entry.
        let again = define(defined(language).unwrap());
        assert_eq!(again, language);
    }
}
