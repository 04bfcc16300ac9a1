//! The summary printed on the terminal after grading: how many students
//! of each kind (graded, not compiling, not gradable, not graded yet),
//! who the students are that were not graded and why, the score
//! distribution of those that were as a text histogram, the cases most
//! often failed, and who has diagnoses (a line each, bounded and made
//! safe: what and where, never a case or its input).

use std::fmt::Write;

use super::view::{self, Tally};
use crate::explain::diagnoses;
use crate::results::{ClassResults, SubmissionResult};
use crate::text::points;
use crate::verdict::Verdict;

/// Bars of the histogram: scores in tenths of the maximum.
const BUCKETS: usize = 10;
/// Cases listed as most failed.
const MOST_FAILED: usize = 5;
/// Students listed by name in one group before "and N more".
const LISTED: usize = 20;

/// The summary as text.
pub fn text(results: &ClassResults) -> String {
    let tally = view::tally(results);
    let mut out = counts(&tally);
    if let Some(missing) = &results.missing {
        let _ = writeln!(
            out,
            "{}",
            missing.sentence(results.class.as_ref().map(|c| c.students))
        );
    }
    list_students(&mut out, &tally);
    let scored: Vec<&SubmissionResult> = tally.scored().collect();
    if !scored.is_empty() {
        histogram(&mut out, &scored, results.suite.max_score);
        most_failed(&mut out, &scored);
    }
    out.push_str(&diagnosed(results));
    out.push_str(&undiagnosed(results));
    out.push_str(&exploration(results));
    out.push_str(&cut(results));
    out
}

/// "The reports of 2 students are cut to their size limits (what they
/// printed beyond is not shown): endless-lines (1,048,369 bytes not
/// shown), ..." Empty when nothing was cut.
pub fn cut(results: &ClassResults) -> String {
    let cut: Vec<(&SubmissionResult, u64)> = results
        .submissions
        .iter()
        .map(|s| (s, s.not_shown()))
        .filter(|(_, n)| *n > 0)
        .collect();
    if cut.is_empty() {
        return String::new();
    }
    let listed: Vec<String> = cut
        .iter()
        .take(LISTED)
        .map(|(s, n)| {
            format!(
                "{} ({} not shown)",
                view::printable(&s.id),
                crate::text::visible::bytes_count(*n)
            )
        })
        .collect();
    let more = match cut.len().saturating_sub(LISTED) {
        0 => String::new(),
        n => format!(", and {n} more"),
    };
    format!(
        "The reports of {} student{} are cut to their size limits (transcripts and explanations beyond them are not shown): {}{more}.\n",
        cut.len(),
        if cut.len() == 1 { "" } else { "s" },
        listed.join(", ")
    )
}

/// Who has diagnoses, a line each (the first [`LISTED`]): "  alice  2
/// diagnoses: a write past the end of an array in `check` (lab6.c, line
/// 4); …", each line made safe and at most
/// [`diagnoses::LINE_ROOM`] characters. Empty when nobody has one.
pub fn diagnosed(results: &ClassResults) -> String {
    let diagnosed: Vec<&SubmissionResult> = results
        .submissions
        .iter()
        .filter(|s| !s.diagnostics.is_empty())
        .collect();
    if diagnosed.is_empty() {
        return String::new();
    }
    let n = diagnosed.len();
    let mut out = format!(
        "Where programs break ({n} student{}; grades unchanged; index.html lists each fault):\n",
        if n == 1 { "" } else { "s" }
    );
    let ids: Vec<String> = diagnosed
        .iter()
        .take(LISTED)
        .map(|s| crate::diagnose::bounded_to(&s.id, 40))
        .collect();
    let width = ids.iter().map(|id| id.chars().count()).max().unwrap_or(0);
    for (s, id) in diagnosed.iter().zip(&ids) {
        let count = s.diagnostics.len();
        let head = format!(
            "  {id:<width$}  {count} diagnos{}: ",
            if count == 1 { "is" } else { "es" }
        );
        let room = diagnoses::LINE_ROOM.saturating_sub(head.chars().count());
        let _ = writeln!(out, "{head}{}", diagnoses::in_brief(&s.diagnostics, room));
    }
    if n > LISTED {
        let _ = writeln!(out, "  and {} more", n - LISTED);
    }
    out
}

/// Who has no diagnoses because referee could not make or run their
/// checked build here, with why (the first student's reason, made safe
/// and cut to a line): referee's trouble, for the TA to fix, never the
/// students'. Empty when there is none.
pub fn undiagnosed(results: &ClassResults) -> String {
    let troubled: Vec<&SubmissionResult> = results
        .submissions
        .iter()
        .filter(|s| s.diagnosis_trouble.is_some())
        .collect();
    let Some(first) = troubled.first() else {
        return String::new();
    };
    let ids: Vec<String> = troubled
        .iter()
        .take(LISTED)
        .map(|s| crate::diagnose::bounded_to(&s.id, 40))
        .collect();
    let more = match troubled.len().saturating_sub(LISTED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let head = format!(
        "No diagnoses for {} (referee's trouble, not the students'; grades unchanged): {}{more}. ",
        if troubled.len() == 1 {
            "1 student".to_string()
        } else {
            format!("{} students", troubled.len())
        },
        ids.join(", ")
    );
    let why = first.diagnosis_trouble.as_deref().unwrap_or_default();
    let first_id = crate::diagnose::bounded_to(&first.id, 40);
    let room = diagnoses::LINE_ROOM.saturating_sub(first_id.chars().count() + 3);
    format!(
        "{head}\n  {first_id}: {}\n",
        crate::diagnose::bounded_to(why, room)
    )
}

/// "Exploring 2000 generated games (seed 0) found a difference in 23
/// submissions that pass every case (alice, bob), and in 40 that fail a
/// case; 120 played every game right." Empty when nothing was explored.
pub fn exploration(results: &ClassResults) -> String {
    let explored: Vec<&SubmissionResult> = results
        .submissions
        .iter()
        .filter(|s| s.exploration.is_some())
        .collect();
    let Some(first) = explored.first().and_then(|s| s.exploration.as_ref()) else {
        return String::new();
    };
    let differs =
        |s: &&&SubmissionResult| s.exploration.as_ref().is_some_and(|e| e.found.is_some());
    let passes = |s: &SubmissionResult| s.passes_every_case();
    let surprising: Vec<&SubmissionResult> = explored
        .iter()
        .filter(differs)
        .filter(|s| passes(s))
        .copied()
        .collect();
    let failing = explored
        .iter()
        .filter(differs)
        .filter(|s| !passes(s))
        .count();
    let right = explored.len() - surprising.len() - failing;
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut text = format!(
        "Exploring generated games (seed {}) found a difference in {} submission{} that pass{} every case",
        first.seed,
        surprising.len(),
        plural(surprising.len()),
        if surprising.len() == 1 { "es" } else { "" }
    );
    if !surprising.is_empty() {
        let list: Vec<&SubmissionResult> = surprising.iter().copied().take(LISTED).collect();
        let _ = write!(text, " ({})", names(&list));
    }
    let _ = writeln!(
        text,
        ", and in {failing} that fail{} a case; {right} played every game as the reference does.",
        if failing == 1 { "s" } else { "" }
    );
    text
}

/// "26 graded, 2 do not compile, 3 could not be graded, 29 not graded yet."
pub fn counts(tally: &Tally<'_>) -> String {
    let mut parts = vec![format!("{} graded", tally.graded.len())];
    if !tally.compile_errors.is_empty() {
        let n = tally.compile_errors.len();
        parts.push(format!(
            "{n} {} not compile",
            if n == 1 { "does" } else { "do" }
        ));
    }
    if !tally.ungradable.is_empty() {
        parts.push(format!("{} could not be graded", tally.ungradable.len()));
    }
    if !tally.not_graded.is_empty() {
        parts.push(format!(
            "{} not graded yet (interrupted)",
            tally.not_graded.len()
        ));
    }
    format!("{}.\n", parts.join(", "))
}

fn list_students(out: &mut String, tally: &Tally<'_>) {
    if !tally.ungradable.is_empty() {
        let _ = writeln!(out, "Could not be graded ({}):", tally.ungradable.len());
        let width = tally
            .ungradable
            .iter()
            .map(|s| s.id.chars().count())
            .max()
            .unwrap_or(0);
        for s in &tally.ungradable {
            let why = s.message.as_deref().unwrap_or("no reason given");
            let first = why.lines().next().unwrap_or_default();
            let _ = writeln!(out, "  {:<width$}  {}", s.id, view::printable(first));
        }
    }
    if !tally.compile_errors.is_empty() {
        let _ = writeln!(
            out,
            "Do not compile ({}): {}",
            tally.compile_errors.len(),
            names(&tally.compile_errors)
        );
    }
    if !tally.not_graded.is_empty() {
        let _ = writeln!(
            out,
            "Not graded yet ({}; run the same command again to grade them): {}",
            tally.not_graded.len(),
            names(&tally.not_graded)
        );
    }
}

/// Ids, the first [`LISTED`] of them.
fn names(students: &[&SubmissionResult]) -> String {
    let mut text: Vec<&str> = students
        .iter()
        .take(LISTED)
        .map(|s| s.id.as_str())
        .collect();
    let more = students.len().saturating_sub(LISTED);
    let more = format!("and {more} more");
    if students.len() > LISTED {
        text.push(&more);
    }
    text.join(", ")
}

/// The most bars of a histogram with one bar per score.
const MOST_STEPS: f64 = 20.0;

fn histogram(out: &mut String, scored: &[&SubmissionResult], max: f64) {
    let n = scored.len();
    let _ = writeln!(
        out,
        "Scores of the {n} student{} with a score (out of {}):",
        if n == 1 { "" } else { "s" },
        points(max)
    );
    let bars = match step_of(scored, max) {
        Some(step) => bars_per_score(scored, max, step),
        None => bars_per_tenth(scored, max),
    };
    let widest = bars.iter().map(|(_, c)| *c).max().unwrap_or(1).max(1);
    for (label, count) in bars.iter().rev() {
        let bar = "█".repeat((count * 40).div_ceil(widest));
        let _ = writeln!(out, "  {label:<15} {count:>4}  {bar}");
    }
}

/// The step every score (and the maximum) is a whole number of, where
/// there are few enough of them for one bar each: whole points, or
/// halves. Bins of a tenth of the maximum would put 2 and 2.5 together
/// and leave every other bin of a whole-number class empty.
fn step_of(scored: &[&SubmissionResult], max: f64) -> Option<f64> {
    let whole = |x: f64, step: f64| ((x / step).round() * step - x).abs() < 1e-9;
    [1.0, 0.5].into_iter().find(|&step| {
        max > 0.0
            && max / step <= MOST_STEPS
            && whole(max, step)
            && scored.iter().all(|s| whole(s.score, step))
    })
}

/// One bar per score from 0 to `max`, `step` apart: its label and count.
fn bars_per_score(scored: &[&SubmissionResult], max: f64, step: f64) -> Vec<(String, usize)> {
    let steps = (max / step).round() as usize;
    let mut counts = vec![0usize; steps + 1];
    for s in scored {
        let at = ((s.score.max(0.0) / step).round() as usize).min(steps);
        counts[at] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, c)| (format!("{:>6}", points(i as f64 * step)), c))
        .collect()
}

/// Ten bars, each a tenth of `max`: its label and count.
fn bars_per_tenth(scored: &[&SubmissionResult], max: f64) -> Vec<(String, usize)> {
    let mut counts = [0usize; BUCKETS];
    for s in scored {
        let bucket = ((s.fraction() * BUCKETS as f64) as usize).min(BUCKETS - 1);
        counts[bucket] += 1;
    }
    counts
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let low = max * i as f64 / BUCKETS as f64;
            let high = max * (i + 1) as f64 / BUCKETS as f64;
            (format!("{:>6} – {:<6}", points(low), points(high)), c)
        })
        .collect()
}

fn most_failed(out: &mut String, scored: &[&SubmissionResult]) {
    let mut failures: Vec<(String, usize)> = Vec::new();
    for (name, verdict, _) in scored.iter().flat_map(|s| s.marks()) {
        if verdict != Verdict::Pass {
            match failures.iter_mut().find(|(n, _)| n == name) {
                Some((_, n)) => *n += 1,
                None => failures.push((name.to_string(), 1)),
            }
        }
    }
    failures.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    if !failures.is_empty() {
        let _ = writeln!(out, "Cases most often failed:");
        for (name, n) in failures.iter().take(MOST_FAILED) {
            let _ = writeln!(out, "  {n:>4} of {}  {name}", scored.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::view::tests::{class, explored_game};
    use crate::results::Status;

    #[test]
    fn exploring_is_counted_for_those_that_pass_every_case() {
        use crate::results::{Exploration, ExploredGame};
        let mut class = class();
        assert_eq!(exploration(&class), "", "nothing explored, nothing said");
        let found = explored_game();
        let explored = |found: Option<ExploredGame>| Exploration {
            games: 2000,
            seed: 4,
            score: 0.0,
            max_score: 0.0,
            found,
        };
        // alice fails a case; a copy of her passing every case differs too.
        class.submissions[0].exploration = Some(explored(Some(found.clone())));
        let mut passing = class.submissions[0].clone();
        passing.id = "erin".into();
        for case in &mut passing.cases {
            case.verdict = Verdict::Pass;
        }
        class.submissions.push(passing);
        let mut right = class.submissions[0].clone();
        right.id = "finn".into();
        right.exploration = Some(explored(None));
        class.submissions.push(right);
        let text = text(&class);
        assert!(
            text.ends_with(
                "Exploring generated games (seed 4) found a difference in 1 submission that \
                 passes every case (erin), and in 1 that fails a case; 1 played every game as \
                 the reference does.\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn every_kind_of_student_is_counted_apart_and_listed() {
        let mut class = class();
        let mut waiting = class.submissions[2].clone();
        waiting.id = "dave".into();
        waiting.status = Status::NotGraded;
        waiting.message = Some("grading was interrupted before this submission".into());
        class.submissions.push(waiting);
        let text = text(&class);
        assert!(
            text.starts_with(
                "1 graded, 1 does not compile, 1 could not be graded, 1 not graded yet (interrupted).\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "Could not be graded (1):\n  carol  class/carol: no program in this folder\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("Do not compile (1): bob, \"the builder\"\n"),
            "{text}"
        );
        assert!(
            text.contains("Not graded yet (1; run the same command again to grade them): dave\n"),
            "{text}"
        );
        // Only the graded and the non-compiling have a score to count.
        assert!(
            text.contains("Scores of the 2 students with a score (out of 4.5):"),
            "{text}"
        );
    }

    #[test]
    fn whole_number_scores_have_a_bar_each_and_others_a_tenth_each() {
        let mut class = crate::export::view::tests::class();
        class.suite.max_score = 5.0;
        let mut students = Vec::new();
        for (i, score) in [5.0, 5.0, 4.0, 2.0, 0.0].into_iter().enumerate() {
            let mut s = class.submissions[0].clone();
            s.id = format!("s{i}");
            s.score = score;
            s.max_score = 5.0;
            students.push(s);
        }
        let scored: Vec<&SubmissionResult> = students.iter().collect();
        let mut out = String::new();
        histogram(&mut out, &scored, 5.0);
        let bars: Vec<&str> = out.lines().skip(1).collect();
        // 5, 4, 3, 2, 1, 0: no bin of half a point stays empty between.
        assert_eq!(bars.len(), 6, "{out}");
        assert!(
            bars[0].trim_start().starts_with("5 ") && bars[0].contains("   2  "),
            "{out}"
        );
        assert!(
            bars[2].trim_start().starts_with("3 ") && bars[2].ends_with("   0  "),
            "{out}"
        );
        // A score of a third of a point: tenths of the maximum.
        students[0].score = 4.0 / 3.0;
        let scored: Vec<&SubmissionResult> = students.iter().collect();
        let mut out = String::new();
        histogram(&mut out, &scored, 5.0);
        assert_eq!(out.lines().count(), 11, "{out}");
        assert!(out.contains("4.5 – 5"), "{out}");
    }

    #[test]
    fn who_has_diagnoses_is_said_a_line_each_bounded_and_safe() {
        let mut class = crate::export::view::tests::diagnosed_class();
        assert_eq!(diagnosed(&super::super::view::tests::class()), "");
        let said = text(&class);
        assert!(
            said.contains(
                "Where programs break (1 student; grades unchanged; index.html lists each \
                 fault):\n  alice  3 diagnoses: a read past the end of an array in `check` \
                 (alice.c, line 4); a division by zero in `score` (alice.c, line 30); a value \
                 used that was never set in `main` (alice.c, line 12)\n"
            ),
            "{said}"
        );
        // For the TA, but no case or input all the same: a terminal is
        // shared, and the line must stay short.
        assert!(!said.contains("SECRET"), "{said}");
        // Forged texts: escape sequences, line breaks, a mebibyte.
        let mut forged = class.submissions[0].diagnostics[0].clone();
        forged.function = Some(format!("f\x1b[2J\n{}", "A".repeat(1 << 20)));
        class.submissions[0].diagnostics = vec![forged; 20];
        class.submissions[0].id = "al\x1b]0;x\x07ice".into();
        let line = diagnosed(&class);
        assert!(!line.contains('\x1b') && !line.contains('\x07'), "{line}");
        let lines: Vec<&str> = line.lines().collect();
        assert_eq!(lines.len(), 2, "{line}");
        assert!(lines[1].starts_with("  al\\x1b]0;x\\x07ice  20 diagnoses: a read past"));
        assert_eq!(lines[1].chars().count(), diagnoses::LINE_ROOM, "{line}");
        assert!(lines[1].ends_with('…'));
    }

    /// A checked build referee could not make is said to the TA with
    /// why, made safe and short.
    #[test]
    fn students_without_diagnoses_are_named_with_why() {
        let mut class = super::super::view::tests::class();
        assert_eq!(undiagnosed(&class), "");
        class.submissions[0].diagnosis_trouble = Some(format!(
            "the checked build could not be made: \x1b[2J{}",
            "A".repeat(1 << 20)
        ));
        let said = undiagnosed(&class);
        let lines: Vec<&str> = said.lines().collect();
        assert_eq!(lines.len(), 2, "{said}");
        assert!(
            lines[0].starts_with("No diagnoses for 1 student (referee's trouble"),
            "{said}"
        );
        assert!(
            lines[1].contains("the checked build could not be made"),
            "{said}"
        );
        assert!(!said.contains('\x1b'), "{said}");
        assert!(
            lines[1].chars().count() <= diagnoses::LINE_ROOM + 2,
            "{said}"
        );
    }
}
