//! A program as a list of normalised tokens, each with its line.
//!
//! What copiers change without changing the program is what is thrown
//! away here: comments and white space are never tokens, every
//! identifier is one token `ID` (renaming a variable changes nothing),
//! every literal one token `LIT` (a changed message or constant changes
//! nothing), and the loops (`for`, `while`, `do`) are one token `LOOP`,
//! since a `for` made a `while` is the same loop written otherwise.
//! Braces are dropped too: `if (x) y;` and `if (x) { y; }` are one
//! statement. Keywords and operators are kept: they are the program's
//! shape, which a copier has to keep for it to still work.

use std::path::Path;

/// The language a source file is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// C (`.c`, `.h`).
    C,
    /// C++ (`.cpp`, `.cc`, `.cxx`, `.c++`, `.hpp`, `.hh`).
    Cpp,
    /// Java (`.java`).
    Java,
    /// Python (`.py`).
    Python,
    /// Anything else: words, compared as they are.
    Text,
}

impl Language {
    /// The language of a file, from its extension.
    pub fn of(path: &Path) -> Language {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "c" | "h" => Language::C,
            "cpp" | "cc" | "cxx" | "c++" | "hpp" | "hh" | "hxx" => Language::Cpp,
            "java" => Language::Java,
            "py" => Language::Python,
            _ => Language::Text,
        }
    }

    /// Its name, as reports give it.
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Java => "Java",
            Language::Python => "Python",
            Language::Text => "text",
        }
    }

    fn keywords(self) -> &'static [&'static str] {
        match self {
            Language::C => C_KEYWORDS,
            Language::Cpp => CPP_KEYWORDS,
            Language::Java => JAVA_KEYWORDS,
            Language::Python => PYTHON_KEYWORDS,
            Language::Text => &[],
        }
    }
}

const C_KEYWORDS: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "int", "long", "register", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "bool", "true", "false", "NULL", "include", "define",
];

const CPP_KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "int",
    "long",
    "register",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "bool",
    "true",
    "false",
    "include",
    "define",
    "class",
    "public",
    "private",
    "protected",
    "new",
    "delete",
    "template",
    "typename",
    "namespace",
    "using",
    "this",
    "virtual",
    "nullptr",
    "try",
    "catch",
    "throw",
    "operator",
    "const_cast",
    "static_cast",
    "friend",
    "inline",
];

const JAVA_KEYWORDS: &[&str] = &[
    "abstract",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "throws",
    "try",
    "void",
    "while",
    "true",
    "false",
];

const PYTHON_KEYWORDS: &[&str] = &[
    "and", "as", "assert", "break", "class", "continue", "def", "del", "elif", "else", "except",
    "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not",
    "or", "pass", "raise", "return", "try", "while", "with", "yield", "None", "True", "False",
];

/// One normalised token: a number standing for its kind and text, and
/// the line (from 1) it starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The normalised token, hashed.
    pub code: u64,
    /// Its line in the file, from 1.
    pub line: u32,
}

/// The tokens of `text`, read as `language`.
pub fn tokenize(text: &str, language: Language) -> Vec<Token> {
    match language {
        Language::Text => words(text),
        _ => code(text, language),
    }
}

/// The normalised spelling of the identifier or keyword `word`.
fn normalise_word(word: &str, language: Language) -> &str {
    if matches!(word, "for" | "while" | "do") {
        "LOOP"
    } else if language.keywords().contains(&word) {
        word
    } else {
        "ID"
    }
}

/// Whether the text at `rest` is a line not read: a comment, or a C
/// `#include` (which headers a program includes says nothing of who
/// wrote it).
fn skips_line(python: bool, rest: &str) -> bool {
    if python {
        return rest.starts_with('#');
    }
    rest.starts_with("//")
        || rest
            .strip_prefix('#')
            .is_some_and(|r| r.trim_start().starts_with("include"))
}

/// Whether `word` starts an import (`import`, `from` and `package`
/// lines in Python and Java), which, as C's `#include`, says nothing of
/// who wrote the program: every program of an assignment imports alike.
fn is_import(word: &str, language: Language, first_on_line: bool) -> bool {
    match language {
        Language::Python => first_on_line && matches!(word, "import" | "from"),
        Language::Java => first_on_line && matches!(word, "import" | "package"),
        _ => false,
    }
}

/// A stable hash of a token's text (FNV-1a: the same on every machine
/// and in every version, so reports can be compared from run to run).
pub fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Operators of more than one character, longest first.
const OPERATORS: &[&str] = &[
    ">>=", "<<=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "**", "//",
];

/// A reader over a source's characters that keeps the line.
struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    rest: &'a str,
    line: u32,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader {
            chars: text.chars().peekable(),
            rest: text,
            line: 1,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.rest = &self.rest[c.len_utf8()..];
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Skips to the end of the line (not past it).
    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    /// Skips past `end`, or to the end of the text.
    fn skip_past(&mut self, end: &str) {
        while !self.rest.is_empty() && !self.rest.starts_with(end) {
            self.bump();
        }
        for _ in end.chars() {
            self.bump();
        }
    }

    /// Skips a quoted literal that opens with `quote` (already at it):
    /// up to the matching quote, past escapes.
    fn skip_quoted(&mut self, quote: &str) {
        for _ in quote.chars() {
            self.bump();
        }
        let single = quote.len() == 1;
        while !self.rest.is_empty() && !self.rest.starts_with(quote) {
            match self.bump() {
                Some('\\') => {
                    self.bump();
                }
                // An unclosed string ends with its line.
                Some('\n') if single => return,
                _ => {}
            }
        }
        for _ in quote.chars() {
            self.bump();
        }
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut taken = String::new();
        while let Some(c) = self.peek().filter(|&c| keep(c)) {
            taken.push(c);
            self.bump();
        }
        taken
    }
}

/// The tokens of a program in C, C++, Java or Python.
fn code(text: &str, language: Language) -> Vec<Token> {
    let python = language == Language::Python;
    let mut tokens = Vec::new();
    let mut r = Reader::new(text);
    while let Some(c) = r.peek() {
        let line = r.line;
        let mut push = |spelling: &str| {
            tokens.push(Token {
                code: hash(spelling),
                line,
            })
        };
        if c.is_whitespace() || c == '{' || c == '}' {
            r.bump();
        } else if skips_line(python, r.rest) {
            r.skip_line();
        } else if !python && r.rest.starts_with("/*") {
            r.skip_past("*/");
        } else if python && (r.rest.starts_with("\"\"\"") || r.rest.starts_with("'''")) {
            let quote = &r.rest[..3];
            r.skip_quoted(quote);
            push("LIT");
        } else if c == '"' || c == '\'' {
            r.skip_quoted(if c == '"' { "\"" } else { "'" });
            push("LIT");
        } else if c.is_ascii_digit()
            || (c == '.' && r.rest[1..].starts_with(|d: char| d.is_ascii_digit()))
        {
            r.take_while(|d| d.is_ascii_alphanumeric() || d == '.' || d == '_');
            push("LIT");
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let word = r.take_while(|d| d.is_alphanumeric() || d == '_' || d == '$');
            // A string's prefix (`f"..."`, `L"..."`) belongs to the string.
            if r.peek().is_some_and(|q| q == '"' || q == '\'') && word.len() <= 2 {
                continue;
            }
            let first_on_line = tokens.last().is_none_or(|t: &Token| t.line < line);
            if is_import(&word, language, first_on_line) {
                r.skip_line();
                continue;
            }
            tokens.push(Token {
                code: hash(normalise_word(&word, language)),
                line,
            });
        } else {
            let op = OPERATORS
                .iter()
                .find(|op| r.rest.starts_with(**op))
                .map_or_else(|| c.to_string(), |op| op.to_string());
            for _ in op.chars() {
                r.bump();
            }
            push(&op);
        }
    }
    tokens
}

/// The words of plain text, lower case, each a token.
fn words(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_number = u32::try_from(n + 1).unwrap_or(u32::MAX);
        for word in line
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            tokens.push(Token {
                code: hash(&word.to_lowercase()),
                line: line_number,
            });
        }
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spell(text: &str, language: Language) -> Vec<u64> {
        tokenize(text, language).iter().map(|t| t.code).collect()
    }

    #[test]
    fn comments_names_literals_and_loops_do_not_count() {
        let a = "int total = 0; // sum\nfor (int i = 0; i < n; i++) { total += i; }\n";
        let b = "/* the sum */ int s=42;\nwhile (int k = 1; k < m; k++) s += k;";
        assert_eq!(spell(a, Language::C), spell(b, Language::C));
        let p = "def f(x):\n    # twice\n    return x * 2  # done\n";
        let q = "def g(y):\n    '''doc'''\n    return y * 3\n";
        let (p, q) = (spell(p, Language::Python), spell(q, Language::Python));
        // The docstring is one literal more, nothing else.
        assert_eq!(q.len(), p.len() + 1);
    }

    #[test]
    fn includes_and_imports_are_not_tokens() {
        assert!(tokenize("#include <stdio.h>\n  # include \"x.h\"\n", Language::C).is_empty());
        assert!(tokenize("import sys\nfrom os import path\n", Language::Python).is_empty());
        assert!(tokenize("package a.b;\nimport java.util.*;\n", Language::Java).is_empty());
        assert_eq!(tokenize("#define N 6", Language::C).len(), 4);
    }

    #[test]
    fn lines_are_kept_and_strings_do_not_end_early() {
        let t = tokenize("a\n\"x // y \\\" z\"\nb /* c\n d */ e", Language::C);
        let lines: Vec<u32> = t.iter().map(|t| t.line).collect();
        assert_eq!(lines, [1, 2, 3, 4]);
    }

    #[test]
    fn an_unclosed_comment_or_string_ends_the_text_quietly() {
        assert_eq!(tokenize("a /* never closed", Language::C).len(), 1);
        assert_eq!(tokenize("\"open\nb", Language::Java).len(), 2);
        assert_eq!(tokenize("'''open", Language::Python).len(), 1);
    }
}
