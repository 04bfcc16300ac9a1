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
use crate::diagnose::{Diagnosis, Found};
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
    for d in diagnoses {
        let told = Told::new(d, &hidden);
        let _ = writeln!(out, "  • {}", safe(&told.sentence()));
        if let Some((line, source)) = told.source() {
            let number = line.map_or(String::new(), |n| format!("{n} | "));
            let _ = writeln!(out, "      {}{}", style.dim(&number), safe(source));
        }
    }
    let _ = writeln!(
        out,
        "  {}",
        style.dim(
            "These do not change your score, but such faults can make your program \
             behave differently on another machine."
        )
    );
    out
}

/// Text made safe for a terminal (a diagnosis's texts already are, when
/// made by [`crate::diagnose`]; this holds whatever made them).
fn safe(text: &str) -> String {
    visible::safe(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::Kind;

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
        assert!(text.contains("do not change your score"), "{text}");
        assert_eq!(for_terminal(&[], |_| false, &Style::PLAIN), "");
    }
}
