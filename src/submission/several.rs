//! Programs of several files: which files of a student's folder are one
//! program, and which of them starts it.
//!
//! A folder holding several sources of one language is one program: C
//! and C++ sources compiled and linked together (with the headers beside
//! them), Java classes compiled together, Python modules beside the one
//! that runs. Which file starts the program is the one the suite names
//! (`main:`), else the one that has the entry point: `main` in C and
//! C++, `static void main` in Java, and in Python the only file run as
//! a script (the only one with `if __name__ == "__main__":`, else the
//! only one no other file imports). The entry point is read from the
//! text, with C's and Java's comments and literals left out; a file that
//! only calls `main` does not define it.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use super::languages::Language;

/// What a suite says of the files a student hands in: the file that
/// starts the program, the files the student must hand in, and the
/// files the course gives itself (its `support` and `link` files), of
/// which a student's copy is not the student's program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The file that starts the program (`main: game.c`), by name.
    pub main: Option<String>,
    /// The files a student must hand in (`hand_in: [dictionary.c]`), by
    /// name.
    pub hand_in: Vec<String>,
    /// The names of the files the course gives in the working folder: a
    /// student's copy of one is left out (the course's is used).
    pub given: Vec<String>,
}

impl Layout {
    /// Whether `path`'s name is one of the course's own files.
    pub fn is_given(&self, path: &Path) -> bool {
        path.file_name()
            .is_some_and(|n| self.given.iter().any(|g| n == g.as_str()))
    }
}

/// The extensions of C and C++ headers.
pub const HEADERS: &[&str] = &["h", "hpp", "hh", "hxx", "h++", "inc"];

/// Whether `path` is named as a C or C++ header.
pub fn is_header(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| HEADERS.contains(&e))
}

/// Whether a language's programs may be several files (the others are
/// one file each).
pub fn may_be_several(language: Language) -> bool {
    matches!(
        language,
        Language::C | Language::Cpp | Language::Java | Language::Python
    )
}

static C_MAIN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bmain\s*\([^()]*\)\s*\{").expect("a valid pattern"));
static JAVA_MAIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bstatic\s+(?:final\s+)?void\s+main\s*\(").expect("a valid pattern")
});
static PYTHON_MAIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?m)^\s*if\s+\(?\s*(?:__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)"#,
    )
    .expect("a valid pattern")
});
static PYTHON_IMPORT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*(?:from\s+\.?([A-Za-z_][\w.]*)\s+import\b|import\s+([^#;\n]+))")
        .expect("a valid pattern")
});

/// Whether `text`, a source of `language`, has the program's entry
/// point: defines `main` (C, C++, Java), or runs as a script (Python's
/// `if __name__ == "__main__":`).
pub fn has_entry(language: Language, text: &str) -> bool {
    match language {
        Language::C | Language::Cpp => C_MAIN.is_match(&code_only(text)),
        Language::Java => JAVA_MAIN.is_match(&code_only(text)),
        Language::Python => PYTHON_MAIN.is_match(text),
        _ => false,
    }
}

/// The names of the modules a Python source imports (the first part of
/// each dotted name: `import game.board` imports `game`).
pub fn python_imports(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for found in PYTHON_IMPORT.captures_iter(text) {
        if let Some(from) = found.get(1) {
            names.extend(from.as_str().split('.').next().map(str::to_string));
        } else if let Some(list) = found.get(2) {
            for one in list.as_str().split(',') {
                let name = one.split_whitespace().next().unwrap_or_default();
                names.extend(name.split('.').next().map(str::to_string));
            }
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

/// C's or Java's text with its comments, string and character literals
/// blanked out (their lines kept), so that `main` in a comment or a
/// string is not taken for a definition.
fn code_only(text: &str) -> String {
    #[derive(PartialEq)]
    enum In {
        Code,
        Line,
        Block,
        Quoted(char),
    }
    let mut out = String::with_capacity(text.len());
    let mut state = In::Code;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match state {
            In::Code => match (c, chars.peek()) {
                ('/', Some('/')) => {
                    chars.next();
                    state = In::Line;
                    out.push(' ');
                }
                ('/', Some('*')) => {
                    chars.next();
                    state = In::Block;
                    out.push(' ');
                }
                ('"' | '\'', _) => {
                    state = In::Quoted(c);
                    out.push(' ');
                }
                _ => out.push(c),
            },
            In::Line => {
                if c == '\n' {
                    state = In::Code;
                    out.push('\n');
                }
            }
            In::Block => {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    state = In::Code;
                } else if c == '\n' {
                    out.push('\n');
                }
            }
            In::Quoted(quote) => {
                if c == '\\' {
                    chars.next();
                } else if c == quote {
                    state = In::Code;
                } else if c == '\n' {
                    // An unterminated literal ends with its line.
                    state = In::Code;
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// The file names of `paths`, joined for a message.
pub fn names(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| {
            p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_is_found_where_it_is_defined_not_where_it_is_named() {
        let c = Language::C;
        assert!(has_entry(c, "int main(void) {\n return 0;\n}\n"));
        assert!(has_entry(c, "int\nmain (int argc, char *argv[])\n{\n}\n"));
        assert!(!has_entry(c, "int mean(int *v, int n) { return 0; }\n"));
        assert!(!has_entry(
            c,
            "// int main(void) { }\nint f(void) { return 1; }\n"
        ));
        assert!(!has_entry(c, "/* int main(void) {\n} */\n"));
        assert!(!has_entry(c, "const char *s = \"int main() {\";\n"));
        assert!(!has_entry(c, "int main(void);\n"));
        let java = Language::Java;
        assert!(has_entry(
            java,
            "public class Main {\n  public static void main(String[] args) {}\n}\n"
        ));
        assert!(!has_entry(
            java,
            "class Stats { static int mean() { return 0; } }\n"
        ));
        assert!(!has_entry(java, "// public static void main(String[] a)\n"));
        let python = Language::Python;
        assert!(has_entry(
            python,
            "def main():\n    pass\n\nif __name__ == \"__main__\":\n    main()\n"
        ));
        assert!(has_entry(
            python,
            "if '__main__' == __name__:\n    main()\n"
        ));
        assert!(!has_entry(python, "def mean(xs):\n    return sum(xs)\n"));
        assert!(!has_entry(python, "# if __name__ == '__main__':\n"));
    }

    #[test]
    fn a_python_files_imports_are_read() {
        let text = "import sys, stats as s\nfrom board import Board\nfrom .helpers import x\nimport game.rules\n# import nothing\n";
        assert_eq!(
            python_imports(text),
            ["sys", "stats", "board", "helpers", "game"]
        );
    }
}
