//! Diagnoses in words, for whoever reads them: where a program breaks,
//! said beside its grade and never part of it (see [`crate::diagnose`]).
//!
//! What a reader may be told of a diagnosis is decided here, once, for
//! `check`'s terminal and a student's feedback alike ([`Told::new`]): a
//! diagnosis in a case the reader may not see says "in a hidden case",
//! with no case name, no input line and not the tool's message (a
//! Python exception's message quotes the input it choked on). The
//! formats render a [`Told`] each in their own way.

use std::fmt::Write;

use super::Style;
use crate::diagnose::{bounded_to, cut_to, Diagnosis, Found, Kind};
use crate::text::{capitalized, visible};

/// The heading of a list of diagnoses a student reads.
pub const HEADING: &str = "Where your program breaks";

/// What a student's list of diagnoses opens with: what they are.
pub const FOUND_BY: &str = "Running your program with extra checks (for memory errors, \
     undefined behaviour and exceptions nothing caught), and the compiler's warnings, \
     found these faults in it.";

/// What every list of diagnoses a student reads says of them.
pub const NOT_A_GRADE: &str = "They do not change your grade. But a fault like these can make \
     your program behave differently on another machine or another day, even where every \
     case passes here: fix them.";

/// What a list of only exceptions nothing caught (Python, Java) opens
/// with: C's words (memory errors, another machine) are not theirs.
const FOUND_BY_EXCEPTIONS: &str = "Running your program found exceptions nothing caught in it.";

/// What a list of only exceptions says of them.
const NOT_A_GRADE_EXCEPTIONS: &str = "They do not change your grade beyond the cases they \
     ended (a crash costs its case's points already). But an exception nothing caught ends \
     your program wherever other input reaches it: fix them.";

/// What a list of only leaks opens with.
const FOUND_BY_LEAKS: &str = "Counting what your program allocates found memory it still \
     held when it ended.";

/// What a list of only leaks says of them.
const NOT_A_GRADE_LEAKS: &str = "They do not change your grade. But memory a program never \
     frees is lost until it ends, and a longer run can run out of it: free what you allocate.";

/// What a student's list of `diagnoses` opens with and says of them, in
/// the words of what they are: a C program's faults, only exceptions
/// nothing caught, or only leaks.
pub fn preamble(diagnoses: &[Diagnosis]) -> (&'static str, &'static str) {
    let all = |kind: Kind| !diagnoses.is_empty() && diagnoses.iter().all(|d| d.kind == kind);
    if all(Kind::Exception) {
        (FOUND_BY_EXCEPTIONS, NOT_A_GRADE_EXCEPTIONS)
    } else if all(Kind::Leak) {
        (FOUND_BY_LEAKS, NOT_A_GRADE_LEAKS)
    } else {
        (FOUND_BY, NOT_A_GRADE)
    }
}

/// Where a diagnosis happened, as far as its reader may know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occasion<'a> {
    /// The compiler warned of it, before anything ran.
    Compiler,
    /// In a case the reader may see: its name, and after which input
    /// line ("after input line 7 (`6`)"), where known.
    Case {
        /// The case's name.
        name: &'a str,
        /// [`Diagnosis::when`].
        when: Option<String>,
    },
    /// In a case the reader may not see.
    HiddenCase,
    /// While the program ran, in a case not known (so not named, and
    /// its input not shown: it may have been a hidden one).
    Run,
}

/// A diagnosis as its reader may be told it.
#[derive(Clone, Debug)]
pub struct Told<'a> {
    /// The diagnosis.
    pub diagnosis: &'a Diagnosis,
    /// Where it happened, as far as the reader may know.
    pub occasion: Occasion<'a>,
}

impl<'a> Told<'a> {
    /// `diagnosis` for a reader who may not see a case when
    /// `hidden(case)`.
    pub fn new(diagnosis: &'a Diagnosis, hidden: impl Fn(&str) -> bool) -> Told<'a> {
        let occasion = match (&diagnosis.case, diagnosis.found) {
            (_, Found::Compiler) => Occasion::Compiler,
            (Some(case), _) if hidden(case) => Occasion::HiddenCase,
            (Some(case), _) => Occasion::Case {
                name: case,
                when: diagnosis.when(),
            },
            (None, _) => Occasion::Run,
        };
        Told {
            diagnosis,
            occasion,
        }
    }

    /// The kind in words, as a heading: "A read past the end of an
    /// array".
    pub fn heading(&self) -> String {
        capitalized(self.diagnosis.kind.words())
    }

    /// Where in the source, as a sentence's opening: "In `check`
    /// (lab6.c, line 4)".
    pub fn place(&self) -> Option<String> {
        self.diagnosis.place().map(|p| capitalized(&p))
    }

    /// The source line, as written, with its line number when known.
    pub fn source(&self) -> Option<(Option<u32>, &'a str)> {
        let source = self.diagnosis.source.as_deref()?;
        (!source.trim().is_empty()).then_some((self.diagnosis.line, source))
    }

    /// When it happened, and how often, as a sentence or two: "In case
    /// `win-row`, after input line 7 (`6`). It happened in 3 runs."
    pub fn occasion(&self) -> String {
        let mut s = match &self.occasion {
            Occasion::Compiler => {
                "The compiler warned of it before your program ran, so no case is named: \
                 it may happen in every run, or only on some input."
                    .to_string()
            }
            Occasion::Case { name, when } => match when {
                Some(when) => format!("In case `{name}`, {when}."),
                None => format!("In case `{name}`."),
            },
            Occasion::HiddenCase => "In a hidden case.".to_string(),
            Occasion::Run => "While your program ran.".to_string(),
        };
        if let Some(often) = self.how_often() {
            s.push(' ');
            s.push_str(&often);
        }
        s
    }

    /// "It happened in 3 runs.", "It happened once."; nothing for the
    /// compiler's, which ran nothing.
    pub fn how_often(&self) -> Option<String> {
        match (self.diagnosis.found, self.diagnosis.count) {
            (Found::Compiler, _) | (_, 0) => None,
            (_, 1) => Some("It happened once.".into()),
            (_, n) => Some(format!("It happened in {n} runs.")),
        }
    }

    /// The tool's message with who said it ("The compiler said: ...");
    /// nothing when there is none, or in a hidden case (it may quote
    /// the case's input).
    pub fn message(&self) -> Option<(&'static str, &'a str)> {
        let message = self.diagnosis.message.trim();
        if message.is_empty() || self.occasion == Occasion::HiddenCase {
            return None;
        }
        let who = match self.diagnosis.found {
            Found::Run => "The checks said:",
            Found::Compiler => "The compiler said:",
            Found::Transcript => "Python said:",
        };
        Some((who, message))
    }

    /// The whole of it in one sentence: "A read past the end of an
    /// array in `check` (lab6.c, line 4), in case `win-row`, after
    /// input line 7 (`6`), in 3 runs: index 6 out of bounds for type
    /// 'int [6]'." (less what the reader may not see).
    pub fn sentence(&self) -> String {
        let d = self.diagnosis;
        let mut s = capitalized(&d.located());
        match &self.occasion {
            Occasion::Compiler => s.push_str(", as the compiler warned"),
            Occasion::Case { name, when } => {
                let _ = write!(s, ", in case `{name}`");
                if let Some(when) = when {
                    let _ = write!(s, ", {when}");
                }
            }
            Occasion::HiddenCase => s.push_str(", in a hidden case"),
            Occasion::Run => {}
        }
        if d.found != Found::Compiler && d.count > 1 {
            let _ = write!(s, ", in {} runs", d.count);
        }
        if let Some((_, message)) = self.message() {
            s.push_str(": ");
            s.push_str(message);
        }
        if !s.ends_with('.') {
            s.push('.');
        }
        s
    }
}

/// The most diagnoses a short list says ([`for_text`], [`in_brief`]):
/// the others are counted ("… and 3 more").
pub const SHORT_LIST: usize = 5;

/// The most diagnoses said in one case's own text ([`of_case`]).
pub const IN_A_CASE: usize = 3;

/// The most characters of one line of a short list: a line as long as
/// reports show of a program's output (a diagnosis's texts come from
/// what the program wrote).
pub const LINE_ROOM: usize = crate::text::visible::LINE_ROOM;

/// The diagnoses for `check`'s terminal, after the cases: a heading, one
/// sentence each with its source line beneath, and that they do not
/// change the score. Empty when there are none.
pub fn for_terminal(
    diagnoses: &[Diagnosis],
    hidden: impl Fn(&str) -> bool,
    style: &Style,
) -> String {
    if diagnoses.is_empty() {
        return String::new();
    }
    let mut out = format!("\n{}\n", style.strong(&format!("{HEADING}:")));
    let all: Vec<&Diagnosis> = diagnoses.iter().collect();
    bullets(&mut out, &all, &hidden, style, usize::MAX, None);
    let _ = writeln!(out, "  {}", style.dim(terminal_note(diagnoses)));
    out
}

/// What `check` says beneath its list of `diagnoses`, in the words of
/// what they are (see [`preamble`]).
fn terminal_note(diagnoses: &[Diagnosis]) -> &'static str {
    match preamble(diagnoses).1 {
        NOT_A_GRADE_EXCEPTIONS => {
            "Saying these does not change your score (a crash is in its case's verdict \
             already), but an exception nothing caught ends your program wherever other \
             input reaches it."
        }
        NOT_A_GRADE_LEAKS => {
            "Saying these does not change your score, but memory never freed is lost until \
             your program ends: free what you allocate."
        }
        _ => {
            "Saying these does not change your score (a crash is in its case's verdict \
             already), but such faults can make your program behave differently on \
             another machine."
        }
    }
}

/// The diagnoses for a student who reads plain text and may have no
/// other feedback (Gradescope's output): the heading, what they are and
/// that they do not change the grade (a line each), then at most [`SHORT_LIST`] of
/// them as `check` lists them (a hidden case unnamed), each line made
/// safe and at most [`LINE_ROOM`] characters. Empty when there are
/// none.
pub fn for_text(diagnoses: &[Diagnosis], hidden: impl Fn(&str) -> bool) -> String {
    if diagnoses.is_empty() {
        return String::new();
    }
    let (found_by, not_a_grade) = preamble(diagnoses);
    let mut out = format!("{HEADING}:\n{found_by}\n{not_a_grade}\n");
    let all: Vec<&Diagnosis> = diagnoses.iter().collect();
    bullets(
        &mut out,
        &all,
        &hidden,
        &Style::PLAIN,
        SHORT_LIST,
        Some(LINE_ROOM),
    );
    out
}

/// The diagnoses that happened first in `case`, for that case's own
/// text, listed as [`for_text`] lists them (at most [`IN_A_CASE`]):
/// empty when there is none, or when the reader may not see the case
/// (a hidden case's diagnoses are said only in the whole list, "in a
/// hidden case", so that none is tied to it). The compiler's name no
/// case.
pub fn of_case(diagnoses: &[Diagnosis], case: &str, hidden: impl Fn(&str) -> bool) -> String {
    if hidden(case) {
        return String::new();
    }
    let here: Vec<&Diagnosis> = diagnoses
        .iter()
        .filter(|d| d.found != Found::Compiler && d.case.as_deref() == Some(case))
        .collect();
    if here.is_empty() {
        return String::new();
    }
    let mut out = format!("{HEADING}:\n");
    bullets(
        &mut out,
        &here,
        &hidden,
        &Style::PLAIN,
        IN_A_CASE,
        Some(LINE_ROOM),
    );
    out
}

/// A submission's diagnoses in one line for whoever grades (`grade`'s
/// summary, the gradebook): what and where of each ([`Diagnosis::located`],
/// no case, no input, no message), `; `-separated, made safe and at most
/// `room` characters (an ellipsis marks the cut). Empty when there are
/// none.
pub fn in_brief(diagnoses: &[Diagnosis], room: usize) -> String {
    let mut out = String::new();
    for d in diagnoses {
        if !out.is_empty() {
            out.push_str("; ");
        }
        out.push_str(&d.located());
        // Enough to fill the room: the rest would be cut anyway.
        if out.len() > room * 4 {
            break;
        }
    }
    bounded_to(&out, room)
}

/// At most `at_most` of `diagnoses`, each `  • ` and its sentence with
/// its source line beneath, then how many more there are; each line made
/// safe, and at most `room` characters (its indentation included) when
/// there is one.
fn bullets(
    out: &mut String,
    diagnoses: &[&Diagnosis],
    hidden: &impl Fn(&str) -> bool,
    style: &Style,
    at_most: usize,
    room: Option<usize>,
) {
    // `text` made safe, and cut to what is left of the room after `used`
    // characters.
    let line = |text: &str, used: usize| match room {
        Some(room) => cut_to(text, room.saturating_sub(used)),
        None => safe(text),
    };
    for d in diagnoses.iter().take(at_most) {
        let told = Told::new(d, hidden);
        let _ = writeln!(out, "  • {}", line(&told.sentence(), 4));
        if let Some((number, source)) = told.source() {
            let number = number.map_or(String::new(), |n| format!("{n} | "));
            let source = line(source, 6 + number.chars().count());
            let _ = writeln!(out, "      {}{}", style.dim(&number), source);
        }
    }
    let more = diagnoses.len().saturating_sub(at_most);
    if more > 0 {
        let _ = writeln!(out, "  … and {more} more.");
    }
}

/// Text made safe for a terminal (a diagnosis's texts already are, when
/// made by [`crate::diagnose`]; this holds whatever made them).
fn safe(text: &str) -> String {
    visible::safe(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_past_end() -> Diagnosis {
        let mut d = Diagnosis::new(
            Kind::ReadPastEnd,
            Found::Run,
            "index 6 out of bounds for type 'int [6]'",
        );
        d.file = Some("lab6.c".into());
        d.line = Some(4);
        d.function = Some("check".into());
        d.source = Some("    if (board[r][c + 1] == p)".into());
        d.case = Some("win-row".into());
        d.input_line = Some(7);
        d.input = Some("6".into());
        d.count = 3;
        d
    }

    #[test]
    fn a_list_says_what_its_diagnoses_are_in_their_own_words() {
        let exception = Diagnosis::new(Kind::Exception, Found::Run, "IndexError: list index");
        let leak = Diagnosis::new(Kind::Leak, Found::Run, "168 bytes in 3 blocks");
        let c = read_past_end();
        let text = |list: &[Diagnosis]| for_text(list, |_| false);
        // A Python traceback is not told of memory errors or machines.
        let python = text(std::slice::from_ref(&exception));
        assert!(python.contains(FOUND_BY_EXCEPTIONS), "{python}");
        assert!(
            !python.contains("memory") && !python.contains("machine"),
            "{python}"
        );
        let leaks = text(std::slice::from_ref(&leak));
        assert!(leaks.contains(NOT_A_GRADE_LEAKS), "{leaks}");
        // A C fault among them: the C words, which cover them all.
        for list in [vec![c.clone()], vec![exception, c.clone()], vec![leak, c]] {
            assert_eq!(preamble(&list), (FOUND_BY, NOT_A_GRADE));
        }
        let style = Style::PLAIN;
        let said = for_terminal(
            &[Diagnosis::new(Kind::Exception, Found::Run, "x")],
            |_| false,
            &style,
        );
        assert!(said.contains("ends your program wherever"), "{said}");
    }

    #[test]
    fn a_visible_case_is_named_with_its_input_line() {
        let d = read_past_end();
        let told = Told::new(&d, |_| false);
        assert_eq!(
            told.sentence(),
            "A read past the end of an array in `check` (lab6.c, line 4), in case `win-row`, \
             after input line 7 (`6`), in 3 runs: index 6 out of bounds for type 'int [6]'."
        );
        assert_eq!(
            told.occasion(),
            "In case `win-row`, after input line 7 (`6`). It happened in 3 runs."
        );
    }

    #[test]
    fn a_hidden_case_gives_away_neither_its_name_nor_its_input() {
        let mut d = read_past_end();
        d.case = Some("SECRET-case".into());
        d.input = Some("SECRET-input".into());
        d.message = "invalid literal for int(): 'SECRET-input'".into();
        let told = Told::new(&d, |case| case == "SECRET-case");
        assert_eq!(told.occasion, Occasion::HiddenCase);
        for text in [told.sentence(), told.occasion()] {
            assert!(!text.contains("SECRET"), "{text}");
            assert!(!text.contains("input line"), "{text}");
        }
        assert!(told.sentence().contains("in a hidden case"));
        assert_eq!(told.message(), None);
        // The student's own source is theirs to see.
        assert!(told.source().is_some());
    }

    #[test]
    fn a_run_in_no_known_case_shows_no_input() {
        let mut d = read_past_end();
        d.case = None;
        let told = Told::new(&d, |_| false);
        assert_eq!(told.occasion, Occasion::Run);
        assert!(
            !told.sentence().contains("input line"),
            "{}",
            told.sentence()
        );
    }

    #[test]
    fn the_compilers_warning_names_no_case_and_no_count() {
        let mut d = Diagnosis::new(
            Kind::Uninitialized,
            Found::Compiler,
            "'x' is used uninitialized",
        );
        d.file = Some("lab6.c".into());
        d.line = Some(12);
        d.function = Some("main".into());
        let told = Told::new(&d, |_| true);
        assert_eq!(
            told.sentence(),
            "A value used that was never set in `main` (lab6.c, line 12), as the compiler \
             warned: 'x' is used uninitialized."
        );
        assert_eq!(told.how_often(), None);
        assert_eq!(
            told.message(),
            Some(("The compiler said:", "'x' is used uninitialized"))
        );
    }

    #[test]
    fn the_terminal_shows_each_with_its_source_line() {
        let d = read_past_end();
        let text = for_terminal(std::slice::from_ref(&d), |_| false, &Style::PLAIN);
        assert!(
            text.starts_with("\nWhere your program breaks:\n  • A read past"),
            "{text}"
        );
        assert!(
            text.contains("\n      4 |     if (board[r][c + 1] == p)\n"),
            "{text}"
        );
        assert!(text.contains("does not change your score"), "{text}");
        assert_eq!(for_terminal(&[], |_| false, &Style::PLAIN), "");
    }

    /// A diagnosis no parser made: its texts raw, with a terminal's
    /// escape sequences, line breaks and a mebibyte of message (as a
    /// hand-edited or forged results file could hold).
    fn forged() -> Diagnosis {
        let mut d = read_past_end();
        d.message = format!("\x1b[2J\x1b]0;pwned\x07{}", "A".repeat(1 << 20));
        d.function = Some("f\x1b[31m\nx".into());
        d.source = Some(format!("  int a;\x1b[2J{}", "B".repeat(100_000)));
        d
    }

    #[test]
    fn a_short_list_is_bounded_and_safe_whatever_it_holds() {
        let many: Vec<Diagnosis> = std::iter::repeat_with(forged).take(12).collect();
        let text = for_text(&many, |_| false);
        assert!(text.starts_with("Where your program breaks:\nRunning your program"));
        assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text}");
        assert!(text.contains("\\x1b[2J"), "{text}");
        assert_eq!(text.matches("  • ").count(), SHORT_LIST, "{text}");
        assert!(text.ends_with("  … and 7 more.\n"), "{text}");
        for line in text.lines() {
            assert!(line.chars().count() <= LINE_ROOM, "{line}");
        }
        // The source keeps its indentation.
        assert!(text.contains("      4 |   int a;\\x1b[2JBBB"), "{text}");
        assert_eq!(for_text(&[], |_| false), "");
    }

    #[test]
    fn a_case_says_its_own_diagnoses_and_a_hidden_one_none() {
        let d = read_past_end();
        let mut compiler = d.clone();
        compiler.found = Found::Compiler;
        let all = [d, compiler];
        let text = of_case(&all, "win-row", |_| false);
        assert_eq!(text.matches("  • ").count(), 1, "{text}");
        assert!(
            text.starts_with("Where your program breaks:\n  • A read past the end of an array in `check` (lab6.c, line 4), in case `win-row`"),
            "{text}"
        );
        assert_eq!(of_case(&all, "win-row", |_| true), "");
        assert_eq!(of_case(&all, "other", |_| false), "");
    }

    #[test]
    fn in_brief_says_what_and_where_of_each_in_one_bounded_line() {
        let d = read_past_end();
        let mut compiler = d.clone();
        compiler.kind = crate::diagnose::Kind::Uninitialized;
        compiler.found = Found::Compiler;
        compiler.line = Some(12);
        compiler.function = Some("main".into());
        assert_eq!(
            in_brief(&[d.clone(), compiler], 300),
            "a read past the end of an array in `check` (lab6.c, line 4); a value used that \
             was never set in `main` (lab6.c, line 12)"
        );
        // No case, input or message: nothing a hidden case could give away.
        assert!(!in_brief(std::slice::from_ref(&d), 300).contains("win-row"));
        let many: Vec<Diagnosis> = std::iter::repeat_with(forged).take(20).collect();
        let brief = in_brief(&many, 120);
        assert_eq!(brief.chars().count(), 120, "{brief}");
        assert!(brief.ends_with('…') && !brief.contains('\x1b') && !brief.contains('\n'));
        assert_eq!(in_brief(&[], 120), "");
    }
}
