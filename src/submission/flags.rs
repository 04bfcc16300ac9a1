//! Compiler flags, per compiled language: what a suite's `compile:` or
//! the command line (`--cflags`, `--cxxflags`) sets, and the defaults
//! where neither does (the table of languages' own, [`super::languages`]).

use super::languages;
use super::languages::{Build, Compiler, Language};

/// Flags for each compiled language; `None` where nothing was said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// For C (`.c`).
    pub c: Option<Vec<String>>,
    /// For C++ (`.cpp`, `.cc`, `.cxx`, `.c++`).
    pub cpp: Option<Vec<String>>,
    /// For Java (`.java`): `javac`'s.
    pub java: Option<Vec<String>>,
    /// The compiler commands a suite chose (`compiler: {c: clang}`), for
    /// C and for C++; the table's own where `None`.
    pub compilers: Compilers,
}

/// The compilers a suite chose, by command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compilers {
    /// For C: `clang`, `clang-19`.
    pub c: Option<String>,
    /// For C++: `clang++`.
    pub cpp: Option<String>,
}

impl Flags {
    /// Each language's flags from these where set, else from `fallback`:
    /// the command line's over the suite's.
    pub fn over(&self, fallback: &Flags) -> Flags {
        Flags {
            c: self.c.clone().or_else(|| fallback.c.clone()),
            cpp: self.cpp.clone().or_else(|| fallback.cpp.clone()),
            java: self.java.clone().or_else(|| fallback.java.clone()),
            compilers: Compilers {
                c: self
                    .compilers
                    .c
                    .clone()
                    .or_else(|| fallback.compilers.c.clone()),
                cpp: (self.compilers.cpp.clone()).or_else(|| fallback.compilers.cpp.clone()),
            },
        }
    }

    /// The compiler of `language`: the one chosen, else the table's
    /// (`None` for a language no compiler of the table builds).
    pub fn compiler(&self, language: Language) -> Option<&'static Compiler> {
        let command = match language {
            Language::C => self.compilers.c.as_deref(),
            Language::Cpp => self.compilers.cpp.as_deref(),
            _ => None,
        };
        match (command, languages::entry(language).map(|e| &e.build)) {
            (Some(command), _) => languages::chosen(language, command),
            (None, Some(Build::Compiler(compiler))) => Some(compiler),
            _ => None,
        }
    }

    /// The compilers chosen, each with its language (C first).
    pub fn chosen(&self) -> Vec<(Language, &'static Compiler)> {
        let commands = [
            (Language::C, &self.compilers.c),
            (Language::Cpp, &self.compilers.cpp),
        ];
        commands
            .into_iter()
            .filter_map(|(l, command)| Some((l, languages::chosen(l, command.as_deref()?)?)))
            .collect()
    }

    /// The flags `language` is compiled with: the ones set, else the
    /// table's defaults (none for a language that is not compiled; a
    /// suite's own language has the flags its entry gives).
    pub fn of(&self, language: Language) -> Vec<String> {
        let set = match language {
            Language::C => &self.c,
            Language::Cpp => &self.cpp,
            Language::Java => &self.java,
            Language::Defined(_) => {
                return languages::defined(language).map_or_else(Vec::new, |d| d.flags)
            }
            Language::Python | Language::Executable => &None,
        };
        let defaults = languages::entry(language).map_or(&[][..], |e| e.flags);
        set.clone()
            .unwrap_or_else(|| defaults.iter().map(|f| f.to_string()).collect())
    }

    /// What a result depends on, for fingerprints: the C flags as they
    /// are (so that results cached with `--cflags` alone stay valid),
    /// then the C++ flags after a mark no flag can hold.
    pub fn fingerprinted(&self) -> Vec<String> {
        let mut parts = self.c.clone().unwrap_or_default();
        if let Some(cpp) = &self.cpp {
            parts.push("\0c++".into());
            parts.extend(cpp.iter().cloned());
        }
        if let Some(java) = &self.java {
            parts.push("\0java".into());
            parts.extend(java.iter().cloned());
        }
        // Set only by a suite that chooses: the rest stay as they were.
        for (mark, chosen) in [
            ("\0cc", &self.compilers.c),
            ("\0c++cc", &self.compilers.cpp),
        ] {
            if let Some(command) = chosen {
                parts.extend([mark.to_string(), command.clone()]);
            }
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(c: Option<&[&str]>, cpp: Option<&[&str]>) -> Flags {
        let own = |f: &[&str]| f.iter().map(|s| s.to_string()).collect();
        Flags {
            c: c.map(own),
            cpp: cpp.map(own),
            ..Flags::default()
        }
    }

    #[test]
    fn each_language_takes_its_own_flags_first_then_the_fallbacks_then_the_defaults() {
        let command_line = flags(None, Some(&["-O2"]));
        let suite = flags(Some(&["-std=c99"]), Some(&["-std=c++11"]));
        let used = command_line.over(&suite);
        assert_eq!(used.of(Language::C), ["-std=c99"]);
        assert_eq!(used.of(Language::Cpp), ["-O2"]);
        assert_eq!(Flags::default().of(Language::C), ["-Wall"]);
        assert_eq!(Flags::default().of(Language::Cpp), ["-Wall"]);
        assert!(suite.of(Language::Python).is_empty());
        assert_eq!(Flags::default().of(Language::Java), ["-encoding", "UTF-8"]);
        let java = Flags {
            java: Some(vec!["-Xlint".into()]),
            ..Flags::default()
        };
        assert_eq!(java.over(&suite).of(Language::Java), ["-Xlint"]);
        assert_ne!(java.fingerprinted(), Flags::default().fingerprinted());
        // Set to nothing: no flags at all, not the defaults.
        assert!(flags(Some(&[]), None).of(Language::C).is_empty());
    }

    #[test]
    fn a_chosen_compiler_is_the_suites_and_changes_the_fingerprint() {
        let suite = Flags {
            compilers: Compilers {
                c: Some("clang-19".into()),
                cpp: None,
            },
            ..Flags::default()
        };
        let used = flags(Some(&["-O2"]), None).over(&suite);
        assert_eq!(used.compiler(Language::C).unwrap().commands, ["clang-19"]);
        assert_eq!(
            used.compiler(Language::Cpp).unwrap().commands,
            ["g++", "c++"]
        );
        assert!(used.compiler(Language::Java).is_none());
        let chosen: Vec<_> = used.chosen().iter().map(|(l, _)| *l).collect();
        assert_eq!(chosen, [Language::C]);
        assert!(Flags::default().chosen().is_empty());
        assert_ne!(suite.fingerprinted(), Flags::default().fingerprinted());
    }

    #[test]
    fn fingerprints_tell_the_languages_apart() {
        assert!(Flags::default().fingerprinted().is_empty());
        assert_eq!(flags(Some(&["-O2"]), None).fingerprinted(), ["-O2"]);
        assert_ne!(
            flags(Some(&["-O2"]), None).fingerprinted(),
            flags(None, Some(&["-O2"])).fingerprinted()
        );
    }
}
