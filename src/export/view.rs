//! What the reports show of a submission, shared by every format: its
//! cases in the suite's order, what a student may see of each, safe file
//! names, and text cleaned of control characters.
//!
//! The rule that keeps hidden cases hidden lives here ([`Row::details`]):
//! students see a hidden case's name, verdict and points, never its
//! reason, explanation or transcripts, which would reveal its input.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write;

use crate::case::Visibility;
use crate::results::{CaseResult, ClassResults, LmsId, Status, SubmissionResult, SuiteInfo};
use crate::verdict::Verdict;

/// One case of a submission, as reports list it.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    /// The case's name.
    pub name: &'a str,
    /// Its points.
    pub max_score: f64,
    /// Who sees it.
    pub visibility: Visibility,
    /// What it checks (from the suite).
    pub description: Option<&'a str>,
    /// The result, unless the case was not run (the submission could not
    /// be graded).
    pub result: Option<&'a CaseResult>,
}

impl<'a> Row<'a> {
    /// Points earned (0 when not run).
    pub fn score(&self) -> f64 {
        self.result.map_or(0.0, |r| r.score)
    }

    /// Whether the case cost points (a case that did not run costs all
    /// of its points).
    pub fn lost_points(&self) -> bool {
        crate::text::round(self.score()) < crate::text::round(self.max_score)
    }

    /// Whether the case passed.
    pub fn passed(&self) -> bool {
        self.result.is_some_and(|r| r.verdict == Verdict::Pass)
    }

    /// The verdict in a few words, or why the case did not run; a wrong
    /// exit status of a public case with both statuses ("wrong exit
    /// status: 0, not 1"; a hidden case's shows only its verdict).
    pub fn verdict_label(&self) -> std::borrow::Cow<'static, str> {
        match self.result {
            None => "not run".into(),
            Some(r) => match (r.verdict, r.exit_status, r.reference_exit_status) {
                (Verdict::ExitStatus, Some(code), Some(reference))
                    if self.visibility == Visibility::Public =>
                {
                    format!("{}: {code}, not {reference}", r.verdict.label()).into()
                }
                (verdict, _, _) => verdict.label().into(),
            },
        }
    }

    /// The result's details a student may see: those of a public case
    /// that ran and did not pass; `None` for a hidden case, whatever
    /// happened, and for a program that did not compile (the compiler's
    /// messages say it once for every case).
    pub fn details(&self) -> Option<&'a CaseResult> {
        match (self.visibility, self.result) {
            (Visibility::Public, Some(r))
                if !matches!(r.verdict, Verdict::Pass | Verdict::CompileError) =>
            {
                Some(r)
            }
            _ => None,
        }
    }
}

/// A submission's cases in the suite's order, each with its result
/// (matched by name); results for cases the suite does not list (a
/// hand-edited results file) come last, so nothing is dropped.
pub fn rows<'a>(suite: &'a SuiteInfo, submission: &'a SubmissionResult) -> Vec<Row<'a>> {
    let mut rows: Vec<Row<'a>> = suite
        .cases
        .iter()
        .map(|info| Row {
            name: &info.name,
            max_score: info.max_score,
            visibility: info.visibility,
            description: info.description.as_deref(),
            result: submission.cases.iter().find(|c| c.name == info.name),
        })
        .collect();
    for result in &submission.cases {
        if !suite.cases.iter().any(|info| info.name == result.name) {
            rows.push(Row {
                name: &result.name,
                max_score: result.max_score,
                visibility: result.visibility,
                description: None,
                result: Some(result),
            });
        }
    }
    rows
}

/// Whether the student of `submission` may not see case `name` in
/// detail: it is hidden, or it is neither in the suite nor in their
/// results (a case not known might have been a hidden one). What tells
/// a diagnosis's case apart (see [`crate::explain::diagnoses::Told`]).
pub fn hidden_from_student<'a>(
    suite: &'a SuiteInfo,
    submission: &'a SubmissionResult,
) -> impl Fn(&str) -> bool + 'a {
    move |name| {
        let visibility = suite
            .cases
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.visibility)
            .or_else(|| {
                submission
                    .cases
                    .iter()
                    .find(|c| c.name == name)
                    .map(|c| c.visibility)
            });
        visibility != Some(Visibility::Public)
    }
}

/// Rows as a student reads them: first the cases that cost points
/// (public, then hidden), then those that cost nothing (passed, worth no
/// points, or a difference in text that lost no points), public before
/// hidden, each group in the suite's order. A page opens on what the
/// student has to fix, not on a case worth nothing.
pub fn for_student(mut rows: Vec<Row<'_>>) -> Vec<Row<'_>> {
    rows.sort_by_key(|r| (!r.lost_points(), r.visibility != Visibility::Public));
    rows
}

/// The graded students whose id comes from learning system `system`
/// (`canvas`, `blackboard`, `moodle`), each with that id; `None` when no
/// student of the class has one, so that no file is written for it.
pub fn graded_from<'a>(
    results: &'a ClassResults,
    system: &str,
) -> Option<Vec<(&'a SubmissionResult, &'a LmsId)>> {
    let from: Vec<_> = results
        .submissions
        .iter()
        .filter_map(|s| Some((s, s.lms.as_ref().filter(|l| l.system == system)?)))
        .collect();
    if from.is_empty() {
        return None;
    }
    Some(
        from.into_iter()
            .filter(|(s, _)| has_score(s.status))
            .collect(),
    )
}

/// A failure's reason as a sentence for the student, unless its
/// explanation already opens with it (it usually does, capitalised or,
/// when it starts with a function's name, as it is).
pub fn reason(result: &CaseResult) -> Option<String> {
    let reason = result.reason.trim();
    if reason.is_empty() {
        return None;
    }
    let sentence = crate::text::capitalized(reason);
    // The explanation opens with the reason, after the command line the
    // case ran when it gives arguments.
    let opening = result
        .explanation
        .lines()
        .map(str::trim_start)
        .find(|line| !line.is_empty() && !line.starts_with("Run as:"))
        .unwrap_or_default();
    (!opening.starts_with(&sentence)).then(|| printable(&sentence).into_owned())
}

/// One side of a row of two texts side by side: its line number (from
/// 0) and text, and, where the row pairs two lines as changed, the bytes
/// of it that changed.
pub type Side<'a> = (Option<(usize, &'a str)>, Option<std::ops::Range<usize>>);

/// The two sides of `row` ([`crate::compare::side_by_side`]'s) of the
/// texts whose lines are `want` and `got`, as the page and the Markdown
/// show them.
pub fn sides<'a>(row: &crate::compare::Row, want: &[&'a str], got: &[&'a str]) -> [Side<'a>; 2] {
    let left = row.expected.and_then(|i| want.get(i).map(|t| (i, *t)));
    let right = row.actual.and_then(|i| got.get(i).map(|t| (i, *t)));
    // Two lines paired as changed: what changed inside them is marked.
    let spans = match (left, right, row.kind) {
        (Some((_, a)), Some((_, b)), crate::compare::RowKind::Differs) => {
            crate::text::visible::changed_spans(a, b)
        }
        _ => None,
    };
    let (a, b) = spans.map_or((None, None), |(a, b)| (Some(a), Some(b)));
    [(left, a), (right, b)]
}

/// A submission's status in a word, as files spell it.
pub fn status_id(status: Status) -> &'static str {
    match status {
        Status::Graded => "graded",
        Status::CompileError => "compile-error",
        Status::Error => "error",
        Status::NotGraded => "not-graded",
    }
}

/// The students of a class by what happened to them, each group in the
/// class's order.
#[derive(Debug, Default)]
pub struct Tally<'a> {
    /// Every case ran.
    pub graded: Vec<&'a SubmissionResult>,
    /// The program does not compile (a real score: 0).
    pub compile_errors: Vec<&'a SubmissionResult>,
    /// No program could be graded: the message says why.
    pub ungradable: Vec<&'a SubmissionResult>,
    /// Grading stopped before them.
    pub not_graded: Vec<&'a SubmissionResult>,
}

impl<'a> Tally<'a> {
    /// The students whose score is a grade: graded, or not compiling.
    pub fn scored(&self) -> impl Iterator<Item = &'a SubmissionResult> + '_ {
        self.graded.iter().chain(&self.compile_errors).copied()
    }
}

/// The class's students by what happened to them.
pub fn tally(results: &ClassResults) -> Tally<'_> {
    let mut tally = Tally::default();
    for s in &results.submissions {
        match s.status {
            Status::Graded => tally.graded.push(s),
            Status::CompileError => tally.compile_errors.push(s),
            Status::Error => tally.ungradable.push(s),
            Status::NotGraded => tally.not_graded.push(s),
        }
    }
    tally
}

/// Whether a submission's score is a grade (it was graded, or does not
/// compile); reports show no score for the others.
pub fn has_score(status: Status) -> bool {
    matches!(status, Status::Graded | Status::CompileError)
}

/// Why a submission has no per-case results, for its student: `None`
/// when it was graded.
pub fn problem(submission: &SubmissionResult) -> Option<(&'static str, String)> {
    let message = printable(submission.message.as_deref().unwrap_or_default()).into_owned();
    match submission.status {
        Status::Graded if message.is_empty() => None,
        Status::Graded => Some(("A note on building your program:", message)),
        Status::CompileError => {
            Some(("Your program does not compile. The compiler said:", message))
        }
        Status::Error => Some(("Your submission could not be graded:", message)),
        Status::NotGraded => Some((
            "Your submission has not been graded yet:",
            "Grading stopped before it; it will be graded when grading goes on.".into(),
        )),
    }
}

/// `text` without control characters other than newline and tab: each
/// becomes a visible `\x1b`-style escape, as everywhere in referee, so
/// nothing a program printed acts on a terminal, and XML (which forbids
/// them) can hold it. U+FFFE and U+FFFF, also forbidden in XML, become
/// `\u{fffe}`.
pub fn printable(text: &str) -> Cow<'_, str> {
    let bad = |c: char| (c.is_control() && c != '\n' && c != '\t') || is_nonchar(c);
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_nonchar(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else if bad(c) {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn is_nonchar(c: char) -> bool {
    matches!(c, '\u{fffe}' | '\u{ffff}')
}

/// The name reports give each submission's files (`feedback/<name>.md`),
/// in the class's order: the id made safe as a file name (see
/// [`crate::class::readable`]: readable, never empty, never `.`-led, so
/// no hidden files and no `..`), never `index`, and unique.
pub fn file_names(results: &ClassResults) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::from(["index".to_string()]);
    results
        .submissions
        .iter()
        .map(|s| {
            let base = clean_name(&s.id);
            let mut name = base.clone();
            let mut n = 1;
            while !taken.insert(name.clone()) {
                n += 1;
                name = format!("{base}-{n}");
            }
            name
        })
        .collect()
}

fn clean_name(id: &str) -> String {
    crate::class::readable(id)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::results::CaseInfo;

    /// A case result for tests.
    pub fn case(name: &str, verdict: Verdict, score: f64, max: f64, vis: Visibility) -> CaseResult {
        let failed = verdict != Verdict::Pass;
        CaseResult {
            name: name.into(),
            verdict,
            score,
            max_score: max,
            wall_ms: 1234,
            visibility: vis,
            // A hidden case's arguments are as secret as its input.
            command: Some(format!("./p SECRET-{name}")),
            reason: if failed {
                format!("{name} reason: typed `SECRET-{name}` <b>")
            } else {
                String::new()
            },
            explanation: if failed {
                format!(
                    "  After input 1 (`SECRET-{name}`), ```fence``` & <tag>\n  \x1b[31mred\u{7}\n"
                )
            } else {
                String::new()
            },
            expected: failed.then(|| format!("Prompt: SECRET-{name}\nboard\nX wins\n")),
            actual: failed.then(|| format!("Prompt: SECRET-{name}\nboard\nO wins <script>\n")),
            not_shown: 0,
            compare: Vec::new(),
            prompts: None,
            parts: Vec::new(),
            exit_status: None,
            reference_exit_status: None,
            files: if failed {
                vec![crate::results::KeptFile {
                    name: "after.csv".into(),
                    expected: format!("first\nSECRET-{name}-file <i>\n"),
                    actual: format!("first\n SECRET-{name}-file <i>\n"),
                    missing: false,
                    stderr: false,
                    compare: Vec::new(),
                }]
            } else {
                Vec::new()
            },
            given: if failed {
                vec![crate::results::GivenFile {
                    name: "before.csv".into(),
                    text: format!("SECRET-{name}-given <u>\n"),
                }]
            } else {
                Vec::new()
            },
        }
    }

    #[test]
    fn a_reason_the_explanation_opens_with_is_not_said_twice() {
        let mut result = case("c", Verdict::WrongOutput, 0.0, 1.0, Visibility::Public);
        result.reason = "drop_piece(board, 4, 1) returned 2".into();
        result.explanation =
            "  drop_piece(board, 4, 1) returned 2; the reference returns 3.\n".into();
        assert_eq!(reason(&result), None, "code keeps its lower case");
        result.explanation = format!("  Run as: $ ./p x\n{}", result.explanation);
        assert_eq!(
            reason(&result),
            None,
            "said once after the command line too"
        );
        result.explanation = "  The board differs.\n".into();
        assert_eq!(
            reason(&result).as_deref(),
            Some("drop_piece(board, 4, 1) returned 2")
        );
        result.reason = "the board differs".into();
        assert_eq!(reason(&result), None);
        result.explanation = "  After input 3 ...\n".into();
        assert_eq!(reason(&result).as_deref(), Some("The board differs"));
    }

    /// A game exploring found played differently: 7 moves, nothing
    /// kept of its transcripts.
    pub fn explored_game() -> crate::results::ExploredGame {
        crate::results::ExploredGame {
            game: 3,
            verdict: Verdict::WrongOutput,
            reason: "differs".into(),
            description: "7 moves, Red wins".into(),
            moves: 7,
            input: Some(vec!["0".into()]),
            call: None,
            explanation: String::new(),
            expected: None,
            actual: None,
            not_shown: 0,
            compare: Vec::new(),
            prompts: None,
            case: String::new(),
        }
    }

    /// A small class: a graded student with a public and a hidden
    /// failure, one that does not compile, one with no program.
    pub fn class() -> ClassResults {
        let info = |name: &str, max: f64, visibility| CaseInfo {
            name: name.into(),
            max_score: max,
            visibility,
            description: Some(format!("{name} description")),
            rubric: None,
        };
        let suite = SuiteInfo {
            title: "Test \"suite\" <1>".into(),
            max_score: 4.5,
            cases: vec![
                info("public-pass", 1.0, Visibility::Public),
                info("public-fail", 2.0, Visibility::Public),
                info("hidden-fail", 1.5, Visibility::Hidden),
            ],
            ignored: Vec::new(),
        };
        let graded = SubmissionResult {
            id: "alice".into(),
            name: None,
            lms: None,
            path: "class/alice.c".into(),
            score: 1.0,
            max_score: 4.5,
            status: Status::Graded,
            message: None,
            fingerprint: String::new(),
            cases: vec![
                case("public-pass", Verdict::Pass, 1.0, 1.0, Visibility::Public),
                case(
                    "public-fail",
                    Verdict::WrongOutput,
                    0.0,
                    2.0,
                    Visibility::Public,
                ),
                case(
                    "hidden-fail",
                    Verdict::Timeout,
                    0.0,
                    1.5,
                    Visibility::Hidden,
                ),
            ],
            exploration: None,
            diagnostics: Vec::new(),
            diagnosis_trouble: None,
            brief: None,
        };
        let compile = SubmissionResult {
            id: "bob, \"the builder\"".into(),
            name: None,
            lms: None,
            path: "class/bob.c".into(),
            score: 0.0,
            max_score: 4.5,
            status: Status::CompileError,
            message: Some("bob.c:1: error: expected `;` before <eof> & \u{1b}".into()),
            fingerprint: String::new(),
            cases: suite
                .cases
                .iter()
                .map(|c| {
                    let mut r = case(
                        &c.name,
                        Verdict::CompileError,
                        0.0,
                        c.max_score,
                        c.visibility,
                    );
                    r.reason = "your program does not compile".into();
                    r.explanation = "  Your program does not compile.\n".into();
                    r.expected = None;
                    r.actual = None;
                    r
                })
                .collect(),
            exploration: None,
            diagnostics: Vec::new(),
            diagnosis_trouble: None,
            brief: None,
        };
        let empty = SubmissionResult {
            id: "carol".into(),
            name: None,
            lms: None,
            path: "class/carol".into(),
            score: 0.0,
            max_score: 4.5,
            status: Status::Error,
            message: Some("class/carol: no program in this folder".into()),
            fingerprint: String::new(),
            cases: vec![],
            exploration: None,
            diagnostics: Vec::new(),
            diagnosis_trouble: None,
            brief: None,
        };
        ClassResults {
            game: "pentago".into(),
            schema_version: crate::results::SCHEMA_VERSION,
            referee_version: "0.0.0".into(),
            suite,
            shard: None,
            class: None,
            missing: None,
            submissions: vec![graded, compile, empty],
        }
    }

    /// Three diagnoses: in the public case `public-fail`, in the hidden
    /// case `hidden-fail` (its input and the message quoting it
    /// `SECRET`), and the compiler's.
    pub fn diagnoses() -> Vec<crate::diagnose::Diagnosis> {
        use crate::diagnose::{Diagnosis, Found, Kind};
        let mut visible = Diagnosis::new(
            Kind::ReadPastEnd,
            Found::Run,
            "index 6 out of bounds for type 'int [6]' <b>",
        );
        visible.file = Some("alice.c".into());
        visible.line = Some(4);
        visible.function = Some("check".into());
        visible.source = Some("    if (board[r][c + 1] == p && `x` < 2)".into());
        visible.case = Some("public-fail".into());
        visible.input_line = Some(7);
        visible.input = Some("6".into());
        visible.count = 3;
        let mut hidden = Diagnosis::new(
            Kind::DivisionByZero,
            Found::Run,
            "division by zero after reading SECRET-input",
        );
        hidden.file = Some("alice.c".into());
        hidden.line = Some(30);
        hidden.function = Some("score".into());
        hidden.source = Some("    return total / moves;".into());
        hidden.case = Some("hidden-fail".into());
        hidden.input_line = Some(2);
        hidden.input = Some("SECRET-input".into());
        let mut compiler = Diagnosis::new(
            Kind::Uninitialized,
            Found::Compiler,
            "'x' is used uninitialized",
        );
        compiler.file = Some("alice.c".into());
        compiler.line = Some(12);
        compiler.function = Some("main".into());
        compiler.source = Some("    int x; printf(\"%d\", x);".into());
        vec![visible, hidden, compiler]
    }

    /// [`class`], alice with [`diagnoses`].
    pub fn diagnosed_class() -> ClassResults {
        let mut class = class();
        class.submissions[0].diagnostics = diagnoses();
        class
    }

    #[test]
    fn a_case_a_student_cannot_see_is_hidden_from_them() {
        let class = class();
        let hidden = hidden_from_student(&class.suite, &class.submissions[0]);
        assert!(!hidden("public-fail"));
        assert!(hidden("hidden-fail"));
        assert!(
            hidden("no-such-case"),
            "a case not known may be a hidden one"
        );
    }

    /// A class with no submissions and no cases.
    pub fn empty_class() -> ClassResults {
        let mut class = class();
        class.submissions.clear();
        class.suite.cases.clear();
        class.suite.max_score = 0.0;
        class
    }

    #[test]
    fn a_student_reads_the_cases_that_cost_points_first() {
        use Verdict::{FormatDiffers, Pass, WrongOutput};
        use Visibility::{Hidden, Public};
        let results = [
            case("worth-nothing", FormatDiffers, 0.0, 0.0, Public),
            case("passed", Pass, 2.0, 2.0, Public),
            case("hidden-lost", WrongOutput, 0.0, 1.0, Hidden),
            case("text-lost-nothing", FormatDiffers, 1.0, 1.0, Hidden),
            case("public-lost", WrongOutput, 0.0, 3.0, Public),
            case("part-lost", FormatDiffers, 0.5, 1.0, Public),
        ];
        let rows = results
            .iter()
            .map(|r| Row {
                name: &r.name,
                max_score: r.max_score,
                visibility: r.visibility,
                description: None,
                result: Some(r),
            })
            .collect();
        let names: Vec<&str> = for_student(rows).iter().map(|r| r.name).collect();
        assert_eq!(
            names,
            [
                "public-lost",
                "part-lost",
                "hidden-lost",
                "worth-nothing",
                "passed",
                "text-lost-nothing"
            ]
        );
    }

    #[test]
    fn rows_follow_the_suite_and_keep_strays() {
        let class = class();
        let rows = rows(&class.suite, &class.submissions[0]);
        let names: Vec<&str> = rows.iter().map(|r| r.name).collect();
        assert_eq!(names, ["public-pass", "public-fail", "hidden-fail"]);
        assert!(rows[0].details().is_none(), "a pass has nothing to explain");
        assert!(rows[1].details().is_some());
        assert!(rows[2].details().is_none(), "hidden details never shown");
        let carol = super::rows(&class.suite, &class.submissions[2]);
        assert!(carol.iter().all(|r| r.result.is_none() && r.score() == 0.0));
        assert_eq!(carol[0].verdict_label(), "not run");
        let mut stray = class.submissions[0].clone();
        stray
            .cases
            .push(case("extra", Verdict::Pass, 1.0, 1.0, Visibility::Public));
        assert_eq!(super::rows(&class.suite, &stray).len(), 4);
    }

    #[test]
    fn a_wrong_exit_status_is_labelled_with_both_statuses_where_public() {
        let mut result = case("c", Verdict::ExitStatus, 0.0, 1.0, Visibility::Public);
        let row = |result: &CaseResult, visibility| {
            Row {
                name: "c",
                max_score: 1.0,
                visibility,
                description: None,
                result: Some(result),
            }
            .verdict_label()
            .into_owned()
        };
        assert_eq!(row(&result, Visibility::Public), "wrong exit status");
        (result.exit_status, result.reference_exit_status) = (Some(0), Some(1));
        assert_eq!(
            row(&result, Visibility::Public),
            "wrong exit status: 0, not 1"
        );
        assert_eq!(row(&result, Visibility::Hidden), "wrong exit status");
        result.verdict = Verdict::Crashed;
        assert_eq!(row(&result, Visibility::Public), "crashed");
    }

    #[test]
    fn a_reason_the_explanation_repeats_is_left_out() {
        let mut result = case("c", Verdict::WrongOutput, 0.0, 1.0, Visibility::Public);
        assert_eq!(
            reason(&result).as_deref(),
            Some("C reason: typed `SECRET-c` <b>")
        );
        result.explanation = "  C reason: typed `SECRET-c` <b>.\n  more\n".into();
        assert_eq!(reason(&result), None);
        result.reason = String::new();
        assert_eq!(reason(&result), None);
    }

    #[test]
    fn control_characters_become_visible() {
        assert_eq!(printable("a\tb\nc"), "a\tb\nc");
        assert_eq!(
            printable("\u{1b}[2J\0\r\u{ffff}"),
            "\\x1b[2J\\x00\\x0d\\u{ffff}"
        );
        assert!(matches!(printable("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn file_names_are_safe_and_unique() {
        let mut class = class();
        for id in ["index", "a/b", "a-b", "..", "", "a-b"] {
            let mut s = class.submissions[0].clone();
            s.id = id.into();
            class.submissions.push(s);
        }
        let names = file_names(&class);
        assert_eq!(
            names[3..],
            ["index-2", "a-b", "a-b-2", "_..", "submission", "a-b-3"]
        );
        assert_eq!(names[1], "bob-the-builder");
        let unique: HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
    }
}
