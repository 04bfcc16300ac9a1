//! What a diagnosis is: its kind in plain words, where it is in the
//! source and in the case's input, how often it happened.

use serde::{Deserialize, Serialize};

/// The most characters any one text of a diagnosis keeps.
pub const TEXT_LIMIT: usize = 200;

/// The most distinct diagnoses kept for one submission: a program that
/// breaks in more places than this has its first ones said.
pub const PER_SUBMISSION: usize = 20;

/// What kind of fault a diagnosis is, in plain words ([`Kind::words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A read past the end of an array (or of a block from `malloc`).
    ReadPastEnd,
    /// A read before the start of an array.
    ReadBeforeStart,
    /// A write past the end of an array.
    WritePastEnd,
    /// A write before the start of an array.
    WriteBeforeStart,
    /// A write past the end of an array on the stack (a local array):
    /// a buffer overrun, the classic of a long input line.
    StackOverrun,
    /// A use of memory after `free`.
    UseAfterFree,
    /// A `free` of memory already freed.
    DoubleFree,
    /// A `free` of something `malloc` did not give.
    BadFree,
    /// A use of a local variable after its function returned or its
    /// block ended.
    UseAfterScope,
    /// A read or write of memory that is not the program's at all (a
    /// null or wild pointer).
    BadAddress,
    /// A recursion that never ends: the stack ran out.
    StackExhausted,
    /// A value used that was never set (the compiler's warning).
    Uninitialized,
    /// A function that ended without returning its value.
    MissingReturn,
    /// A signed integer that overflowed.
    SignedOverflow,
    /// An integer divided by zero.
    DivisionByZero,
    /// A shift by a negative amount or by more than the type's width.
    BadShift,
    /// An index out of an array's bounds, as the compiler can tell
    /// before the program runs.
    IndexOutOfBounds,
    /// A `printf`-like format that does not match its argument.
    FormatMismatch,
    /// Other undefined behaviour the sanitizer names.
    Undefined,
    /// A Python exception nothing caught.
    Exception,
    /// Memory still allocated when the program ended (a suite's
    /// `leaks: true`): what a Speller's `unload` that frees nothing
    /// leaves.
    Leak,
}

impl Kind {
    /// The kind in plain words, as a sentence's subject: "a read past the
    /// end of an array".
    pub fn words(self) -> &'static str {
        match self {
            Kind::ReadPastEnd => "a read past the end of an array",
            Kind::ReadBeforeStart => "a read before the start of an array",
            Kind::WritePastEnd => "a write past the end of an array",
            Kind::WriteBeforeStart => "a write before the start of an array",
            Kind::StackOverrun => "a buffer overrun on the stack",
            Kind::UseAfterFree => "a use of memory after `free`",
            Kind::DoubleFree => "a second `free` of the same memory",
            Kind::BadFree => "a `free` of memory `malloc` did not give",
            Kind::UseAfterScope => "a use of a variable after its scope ended",
            Kind::BadAddress => {
                "a use of memory that is not the program's (a null or wild pointer)"
            }
            Kind::StackExhausted => "a recursion that never ends (the stack ran out)",
            Kind::Uninitialized => "a value used that was never set",
            Kind::MissingReturn => "a function that ended without returning a value",
            Kind::SignedOverflow => "a signed integer overflow",
            Kind::DivisionByZero => "a division by zero",
            Kind::BadShift => "a shift by a negative amount or past the type's width",
            Kind::IndexOutOfBounds => "an array index out of bounds",
            Kind::FormatMismatch => "a format that does not match its argument",
            Kind::Undefined => "undefined behaviour",
            Kind::Exception => "an exception nothing caught",
            Kind::Leak => "memory allocated and never freed (a leak)",
        }
    }
}

/// How a diagnosis was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Found {
    /// By a sanitizer, while the checked build ran a case.
    Run,
    /// By the compiler, before anything ran: it may or may not happen
    /// on the cases.
    Compiler,
    /// In the program's transcript (a Python traceback).
    Transcript,
}

/// One fault found in a submission, placed in its source and in the
/// case's input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnosis {
    /// What kind of fault.
    pub kind: Kind,
    /// What happened, in words (the tool's own message, shortened and
    /// made safe: "index 6 out of bounds for type 'int [6]'").
    pub message: String,
    /// How it was found.
    pub found: Found,
    /// The source file, as the student named it (`lab6.c`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The line in that file (from 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The function it happened in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// That line of the source, as written (bounded, made safe).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The first case it happened in (none for the compiler's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// How many of that case's input lines the program had been given
    /// when it happened (0: before the first), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_line: Option<usize>,
    /// That input line's text (bounded, made safe).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// In how many runs it happened (1 for the compiler's).
    pub count: usize,
}

impl Diagnosis {
    /// A diagnosis of `kind` with `message`, placed nowhere yet.
    pub fn new(kind: Kind, found: Found, message: &str) -> Diagnosis {
        Diagnosis {
            kind,
            message: bounded(message),
            found,
            file: None,
            line: None,
            function: None,
            source: None,
            case: None,
            input_line: None,
            input: None,
            count: 1,
        }
    }

    /// What and where, in one phrase: "a read past the end of an array
    /// in `check_win` (lab6.c, line 42)" (for readers who may see it
    /// all: the explanations decide what a student is told, see
    /// `explain::diagnoses`).
    pub fn located(&self) -> String {
        match self.place() {
            Some(place) => format!("{} {place}", self.kind.words()),
            None => self.kind.words().to_string(),
        }
    }

    /// Where it is, in one phrase: "in `check_win` (lab6.c, line 42)".
    pub fn place(&self) -> Option<String> {
        let at = match (&self.file, self.line) {
            (Some(file), Some(line)) => Some(format!("{file}, line {line}")),
            (Some(file), None) => Some(file.clone()),
            _ => None,
        };
        match (&self.function, at) {
            (Some(function), Some(at)) => Some(format!("in `{function}` ({at})")),
            (Some(function), None) => Some(format!("in `{function}`")),
            (None, Some(at)) => Some(format!("at {at}")),
            (None, None) => None,
        }
    }

    /// When it happened, in one phrase: "after input line 7 (`6`)",
    /// "before any input".
    pub fn when(&self) -> Option<String> {
        match (self.input_line?, &self.input) {
            (0, _) => Some("before any input".into()),
            (n, Some(text)) => Some(format!("after input line {n} (`{text}`)")),
            (n, None) => Some(format!("after input line {n}")),
        }
    }
}

/// `text` from a program, safe to show and at most [`TEXT_LIMIT`]
/// characters (an ellipsis marks the cut).
pub fn bounded(text: &str) -> String {
    bounded_to(text, TEXT_LIMIT)
}

/// `text` safe to show on one line (control characters, a terminal's
/// escape sequences and line breaks become `\x1b`-style escapes) and at
/// most `limit` characters (an ellipsis marks the cut).
pub fn bounded_to(text: &str, limit: usize) -> String {
    cut_to(text.trim(), limit)
}

/// `text` made safe to show and cut to at most `limit` characters, an
/// ellipsis marking the cut; its spaces kept (a source line's indent).
pub fn cut_to(text: &str, limit: usize) -> String {
    let safe = crate::text::visible::safe(text.as_bytes());
    if safe.chars().count() <= limit {
        return safe;
    }
    let mut cut: String = safe.chars().take(limit.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnosis_says_what_and_where_and_after_which_input_line() {
        let mut d = Diagnosis::new(
            Kind::ReadPastEnd,
            Found::Run,
            "index 6 out of bounds for type 'int [6]'",
        );
        d.file = Some("lab6.c".into());
        d.line = Some(4);
        d.function = Some("check".into());
        d.case = Some("win-row".into());
        d.input_line = Some(7);
        d.input = Some("6".into());
        d.count = 3;
        assert_eq!(
            d.located(),
            "a read past the end of an array in `check` (lab6.c, line 4)"
        );
        assert_eq!(d.when().as_deref(), Some("after input line 7 (`6`)"));
    }

    #[test]
    fn what_a_program_wrote_is_bounded_and_made_safe() {
        let long = "x".repeat(10_000);
        assert_eq!(bounded(&long).chars().count(), TEXT_LIMIT);
        assert!(!bounded("a\x1b[2Jb").contains('\x1b'));
    }

    #[test]
    fn kinds_are_written_in_kebab_case() {
        let json = serde_json::to_string(&Kind::StackOverrun).unwrap();
        assert_eq!(json, "\"stack-overrun\"");
    }
}
