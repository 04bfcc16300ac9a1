//! `feedback/<id>.md`: feedback for the student, in Markdown (for a
//! learning system's comment box, an email, or a repository).
//!
//! The score; every case with its verdict and points; for each public
//! case that did not pass, its description, reason and explanation (in a
//! fenced code block whose fence is longer than any run of backticks in
//! the text), each output file that differs as a table beside the
//! reference's, and the files the case gave. Hidden cases show their
//! name, verdict and points only: their reason, explanation, files and
//! transcripts would reveal their input.
//! A program that does not compile gets the compiler's messages. Where
//! the program breaks (its diagnoses) has a section of its own, a hidden
//! case unnamed (see [`crate::explain::diagnoses`]); it never changes
//! the score.
//!
//! Text from programs and files is escaped, so nothing in it becomes a
//! link, an image, HTML or a table cell break.

use std::fmt::Write;
use std::io;
use std::path::PathBuf;

use super::view::{self, rows, Row};
use super::{Exporter, Sink};
use crate::case::Visibility;
use crate::compare::{self, Options, RowKind};
use crate::explain::diagnoses::{self, Told};
use crate::results::{ClassResults, Exploration, KeptFile, SubmissionResult};
use crate::text::{points, visible};

/// The folder feedback goes in.
pub const DIR: &str = "feedback";

/// `feedback/<id>.md`.
pub struct Markdown;

impl Exporter for Markdown {
    fn student(
        &mut self,
        results: &ClassResults,
        name: &str,
        student: &SubmissionResult,
        out: &mut dyn Sink,
    ) -> io::Result<()> {
        let path = PathBuf::from(DIR).join(format!("{name}.md"));
        out.file(&path, feedback(results, student).as_bytes())
    }
}

/// One student's feedback.
pub fn feedback(results: &ClassResults, submission: &SubmissionResult) -> String {
    let rows = view::for_student(rows(&results.suite, submission));
    let mut out = format!(
        "# Feedback for {}: {}\n\n",
        inline(&submission.id),
        inline(&results.suite.title)
    );
    if !view::has_score(submission.status) {
        // Nothing ran: no score to show, no cases to list.
        let (heading, message) = view::problem(submission).unwrap_or_default();
        let _ = write!(
            out,
            "**Not graded.** {}\n\n{}",
            inline(heading),
            fenced(&message)
        );
        return out;
    }
    let _ = write!(
        out,
        "**Score: {} / {} points.** {}\n\n",
        points(submission.score),
        points(submission.max_score),
        summary(&rows)
    );
    if let Some((heading, message)) = view::problem(submission) {
        let _ = write!(out, "## {}\n\n{}\n", inline(heading), fenced(&message));
    }
    if !rows.is_empty() {
        out.push_str(&table(&rows));
    }
    let explained: Vec<String> = rows.iter().filter_map(explanation).collect();
    if !explained.is_empty() {
        out.push_str("\n## What went wrong in the public cases\n");
        for section in explained {
            out.push_str(&section);
        }
    }
    if rows.iter().any(|r| r.visibility == Visibility::Hidden) {
        out.push_str(
            "\nHidden cases show only their verdict: they test what the handout asks \
             with input you have not seen.\n",
        );
    }
    out.push_str(&diagnoses(results, submission));
    if let Some(exploration) = &submission.exploration {
        out.push_str(&explored(exploration));
    }
    out
}

/// Where the program breaks: each diagnosis with its kind, place,
/// source line, case and input line, how often and the tool's message,
/// as the student may see them (a hidden case unnamed); empty when there
/// is none.
fn diagnoses(results: &ClassResults, submission: &SubmissionResult) -> String {
    if submission.diagnostics.is_empty() {
        return String::new();
    }
    let hidden = view::hidden_from_student(&results.suite, submission);
    let (found_by, not_a_grade) = diagnoses::preamble(&submission.diagnostics);
    let mut out = format!(
        "\n## {}\n\n{} {}\n",
        inline(diagnoses::HEADING),
        inline(found_by),
        inline(not_a_grade)
    );
    for d in &submission.diagnostics {
        let told = Told::new(d, &hidden);
        let _ = write!(out, "\n### {}\n\n", inline(&told.heading()));
        match (told.place(), told.source()) {
            (Some(place), Some((_, source))) => {
                let _ = write!(out, "{}:\n\n{}\n", inline(&place), fenced(source));
            }
            (Some(place), None) => {
                let _ = write!(out, "{}.\n\n", inline(&place));
            }
            (None, Some((_, source))) => {
                let _ = writeln!(out, "{}", fenced(source));
            }
            (None, None) => {}
        }
        let _ = writeln!(out, "{}", inline(&told.occasion()));
        if let Some((who, message)) = told.message() {
            let _ = write!(out, "\n{} {}\n", inline(who), inline(message));
        }
    }
    out
}

/// What exploring generated games found: the shortest game played
/// differently, typed out and explained, or that there was none. The
/// games are generated, never a case of the suite: nothing hidden shows.
fn explored(exploration: &Exploration) -> String {
    let worth = if exploration.max_score > 0.0 {
        format!(
            " ({} / {} points)",
            points(exploration.score),
            points(exploration.max_score)
        )
    } else {
        String::new()
    };
    let Some(game) = &exploration.found else {
        return format!(
            "\n## Generated games{worth}\n\nYour program played {} generated games (seed {}) \
             as the reference plays them.\n",
            exploration.games, exploration.seed
        );
    };
    let mut out = format!(
        "\n## A generated game your program plays differently{worth}\n\n\
         Game {} of the generated games (seed {}), shrunk to {}: {}.\n\n",
        game.game,
        exploration.seed,
        inline(&game.description),
        game.verdict.label()
    );
    let _ = write!(out, "What was typed:\n\n{}\n", fenced(&game.typed()));
    if !game.explanation.trim().is_empty() {
        out.push_str(&fenced(&game.explanation));
    }
    out
}

/// "3 of 54 cases did not pass." and the like.
pub fn summary(rows: &[Row<'_>]) -> String {
    let failed = rows.iter().filter(|r| !r.passed()).count();
    match (rows.len(), failed) {
        (0, _) => "There are no cases.".to_string(),
        (_, 0) => "Every case passes.".to_string(),
        (n, f) => format!("{f} of {n} cases did not pass."),
    }
}

fn table(rows: &[Row<'_>]) -> String {
    let mut out = String::from("| | case | points | verdict |\n|---|---|---:|---|\n");
    for row in rows {
        let mark = if row.passed() { "✓" } else { "✗" };
        let hidden = match row.visibility {
            Visibility::Hidden => " *(hidden)*",
            Visibility::Public => "",
        };
        let _ = writeln!(
            out,
            "| {mark} | {}{hidden} | {} / {} | {} |",
            inline(row.name),
            points(row.score()),
            points(row.max_score),
            row.verdict_label()
        );
    }
    out
}

/// A public failure's section; `None` for a pass, a hidden case, or a
/// case that did not run.
fn explanation(row: &Row<'_>) -> Option<String> {
    let result = row.details()?;
    let mut out = format!("\n### ✗ {}: {}\n\n", inline(row.name), row.verdict_label());
    if let Some(description) = row.description {
        let _ = write!(out, "This case: {}\n\n", inline(description));
    }
    if let Some(reason) = view::reason(result) {
        let _ = write!(out, "{}\n\n", inline(&reason));
    }
    if !result.explanation.trim().is_empty() {
        out.push_str(&fenced(&result.explanation));
    }
    for file in &result.files {
        out.push_str(&output_file(file, &file.options(result.options())));
    }
    for file in &result.given {
        let _ = write!(
            out,
            "\nThe case gave your program {}:\n\n{}",
            inline(&file.name),
            fenced(&file.text)
        );
    }
    Some(out)
}

/// An output file that differs as a table, the reference's beside the
/// program's, paired as the comparison pairs them (as the page's table
/// does), under a sentence that says how it was compared.
fn output_file(file: &KeptFile, options: &Options) -> String {
    let options = Options {
        prompts: false,
        ..*options
    };
    let heading = if file.missing {
        format!(
            "{}: your program left no such file; the reference's is on the left.",
            inline(&file.name)
        )
    } else {
        format!(
            "{}, compared {}: ✗ marks the lines that count as different, **bold** what \
             changed in a line.",
            if file.stderr {
                file.title()
            } else {
                inline(&file.name)
            },
            inline(&options.file_comparison())
        )
    };
    let mut out = format!(
        "\n{heading}\n\n| | line | the reference's | line | your program's |\n\
         |---|---:|---|---:|---|\n"
    );
    let want: Vec<&str> = file.expected.lines().collect();
    let got: Vec<&str> = file.actual.lines().collect();
    let rows = compare::side_by_side(
        file.expected.as_bytes(),
        file.actual.as_bytes(),
        &options,
        &[],
        None,
    );
    for row in rows {
        let [left, right] = view::sides(&row, &want, &got);
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            if row.kind == RowKind::Differs {
                "✗"
            } else {
                ""
            },
            cells(left),
            cells(right)
        );
    }
    out
}

/// A line's number and text as two cells of a table, what changed in it
/// (`changed`) in bold, spaces there and at its end shown as `·`.
fn cells((line, changed): view::Side<'_>) -> String {
    let Some((n, text)) = line else {
        return " | ".to_string();
    };
    let body = text.trim_end_matches(' ');
    let trailing = "·".repeat(text.len() - body.len());
    let parts = changed.and_then(|span| {
        let part = body.get(span.clone()).filter(|p| !p.is_empty())?;
        Some((body.get(..span.start)?, part, body.get(span.end..)?))
    });
    let shown = match parts {
        Some((before, part, after)) => format!(
            "{}**{}**{}",
            inline(before),
            inline(&visible::changed_part(part)),
            inline(after)
        ),
        None => inline(body),
    };
    format!("{} | {shown}{trailing}", n + 1)
}

/// `text` in a fenced code block that nothing in it can close: the fence
/// is one backtick longer than its longest run of backticks (at least 3).
pub fn fenced(text: &str) -> String {
    let body = view::printable(text);
    let body = body.trim_end_matches('\n');
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}text\n{body}\n{fence}\n")
}

/// `text` for one line of Markdown: Markdown's punctuation is
/// backslash-escaped (so it shows as typed: no emphasis, links, HTML,
/// code spans or cell breaks), and line breaks become spaces.
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in view::printable(text).chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '#' | '!' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::{class, empty_class};

    fn student(i: usize) -> String {
        let class = class();
        feedback(&class, &class.submissions[i])
    }

    #[test]
    fn public_failures_are_explained_hidden_ones_only_named() {
        let md = student(0);
        assert!(md.starts_with("# Feedback for alice: Test \"suite\" \\<1\\>\n\n**Score: 1 / 4.5 points.** 2 of 3 cases did not pass."), "{md}");
        assert!(md.contains("| ✓ | public-pass | 1 / 1 | pass |"), "{md}");
        assert!(
            md.contains("| ✗ | hidden-fail *(hidden)* | 0 / 1.5 | timed out |"),
            "{md}"
        );
        assert!(md.contains("### ✗ public-fail: wrong output"));
        assert!(md.contains("This case: public-fail description"));
        assert!(
            md.contains("Public-fail reason: typed \\`SECRET-public-fail\\` \\<b\\>"),
            "{md}"
        );
        assert!(md.contains("````text\n  After input 1 (`SECRET-public-fail`), ```fence``` & <tag>\n  \\x1b[31mred\\x07\n````\n"), "{md}");
        assert!(!md.contains("SECRET-hidden-fail"), "{md}");
        assert!(!md.contains("hidden-fail description"), "{md}");
        assert!(!md.contains('\u{1b}'));
    }

    #[test]
    fn a_public_failures_files_are_shown_a_hidden_ones_never() {
        let md = student(0);
        // The output file side by side, what changed in a line in bold
        // (the leading space as `·`), Markdown in it escaped.
        assert!(
            md.contains("after.csv, compared line by line, exactly: ✗ marks"),
            "{md}"
        );
        assert!(md.contains("|  | 1 | first | 1 | first |\n"), "{md}");
        assert!(
            md.contains("| ✗ | 2 | SECRET-public-fail-file \\<i\\> | 2 | **·**SECRET-public-fail-file \\<i\\> |"),
            "{md}"
        );
        assert!(md.contains("The case gave your program before.csv:\n\n```text\nSECRET-public-fail-given <u>\n```"), "{md}");
        // A hidden case's given file (and its output files) show nowhere.
        assert!(!md.contains("SECRET-hidden-fail-given"), "{md}");
        assert!(!md.contains("SECRET-hidden-fail-file"), "{md}");
    }

    #[test]
    fn diagnoses_are_said_with_a_hidden_case_unnamed() {
        let class = crate::export::view::tests::diagnosed_class();
        let md = feedback(&class, &class.submissions[0]);
        let section = &md[md.find("## Where your program breaks").expect(&md)..];
        assert!(section.contains("They do not change your grade."), "{md}");
        assert!(
            section.contains(
                "### A read past the end of an array\n\nIn \\`check\\` (alice.c, line 4):\n\n\
                 ```text\n    if (board[r][c + 1] == p && `x` < 2)\n```\n\n\
                 In case \\`public-fail\\`, after input line 7 (\\`6\\`). It happened in 3 runs.\n\n\
                 The checks said: index 6 out of bounds for type 'int \\[6\\]' \\<b\\>\n"
            ),
            "{md}"
        );
        assert!(
            section.contains("In a hidden case. It happened once."),
            "{md}"
        );
        assert!(!md.contains("SECRET-input"), "{md}");
        assert!(!section.contains("hidden-fail"), "{md}");
        assert!(
            section.contains("The compiler warned of it before your program ran"),
            "{md}"
        );
        assert!(!student(0).contains("Where your program breaks"));
    }

    #[test]
    fn compile_errors_show_the_compiler() {
        let md = student(1);
        assert!(md.contains("## Your program does not compile. The compiler said:\n\n```text\nbob.c:1: error: expected `;` before <eof> & \\x1b\n```\n"), "{md}");
        assert!(md.contains("| ✗ | public-fail | 0 / 2 | does not compile |"));
        assert!(!md.contains("What went wrong"), "nothing ran: {md}");
    }

    #[test]
    fn an_ungradable_submission_says_why() {
        let md = student(2);
        assert!(md.contains("**Not graded.** Your submission could not be graded:\n\n```text\nclass/carol: no program in this folder\n```"), "{md}");
        assert!(
            !md.contains("points"),
            "no score for what was not graded: {md}"
        );
        assert!(!md.contains("not run"), "no cases listed: {md}");
    }

    #[test]
    fn fences_outlast_the_text() {
        assert_eq!(fenced("a\n"), "```text\na\n```\n");
        assert_eq!(fenced("``````"), "```````text\n``````\n```````\n");
        assert_eq!(fenced(""), "```text\n\n```\n");
    }

    #[test]
    fn files_are_named_by_id() {
        let files = Markdown.files(&class()).unwrap();
        let names: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
        assert_eq!(
            names,
            [
                "feedback/alice.md",
                "feedback/bob-the-builder.md",
                "feedback/carol.md"
            ]
        );
        assert!(Markdown.files(&empty_class()).unwrap().is_empty());
    }
}
