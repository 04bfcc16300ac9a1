//! Compiler flags, per compiled language: what a suite's `compile:` or
//! the command line (`--cflags`, `--cxxflags`) sets, and the defaults
//! where neither does.

use super::program::Language;

/// C compiler flags when neither the suite nor the command line sets
/// them: the compiler's own defaults, as on a student's laptop, with
/// warnings shown.
pub const DEFAULT_CFLAGS: &[&str] = &["-Wall"];

/// C++ compiler flags when neither the suite nor the command line sets
/// them: as for C (`g++` links the maths library by itself).
pub const DEFAULT_CXXFLAGS: &[&str] = &["-Wall"];

/// Flags for each compiled language; `None` where nothing was said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// For C (`.c`).
    pub c: Option<Vec<String>>,
    /// For C++ (`.cpp`, `.cc`, `.cxx`, `.c++`).
    pub cpp: Option<Vec<String>>,
}

impl Flags {
    /// Each language's flags from these where set, else from `fallback`:
    /// the command line's over the suite's.
    pub fn over(&self, fallback: &Flags) -> Flags {
        Flags {
            c: self.c.clone().or_else(|| fallback.c.clone()),
            cpp: self.cpp.clone().or_else(|| fallback.cpp.clone()),
        }
    }

    /// The flags `language` is compiled with: the ones set, else the
    /// defaults (none for a language that is not compiled).
    pub fn of(&self, language: Language) -> Vec<String> {
        let (set, defaults) = match language {
            Language::C => (&self.c, DEFAULT_CFLAGS),
            Language::Cpp => (&self.cpp, DEFAULT_CXXFLAGS),
            Language::Python | Language::Executable => return Vec::new(),
        };
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
        // Set to nothing: no flags at all, not the defaults.
        assert!(flags(Some(&[]), None).of(Language::C).is_empty());
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
