//! `feedback/<id>.html`: the student's feedback as a self-contained web
//! page, and `feedback/index.html`, the class at a glance for TAs.
//!
//! A student's page holds what their Markdown feedback holds (see
//! [`super::markdown`]: hidden cases show only their name, verdict and
//! points), and, for each public whole-game case that did not pass, the
//! reference's and the program's terminal transcripts side by side, the
//! lines that differ highlighted as the case's comparison sees them (its
//! options, the suite's ignored regions: see [`crate::compare::side_by_side`]),
//! lines it does not compare greyed, what changed inside a line paired as
//! changed marked; each output file that differs shown the same way
//! under a legend of its own; and the files a public case gave.
//!
//! Pages are self-contained: an inline stylesheet, no scripts, fonts,
//! images or links outside the folder, and a Content-Security-Policy that
//! forbids loading anything, so a page opened from a mail attachment or
//! a learning system shows the same. Everything a program printed is
//! HTML-escaped.

use std::fmt::Write;
use std::io;
use std::path::{Path, PathBuf};

use super::markdown::{summary, DIR};
use super::view::{self, rows, Row};
use super::{Exporter, Sink};
use crate::case::Visibility;
use crate::compare::{self, Options, Region, RowKind, Turns};
use crate::explain::diagnoses::{self, Told};
use crate::results::{CaseResult, ClassResults, Exploration, KeptFile, Status, SubmissionResult};
use crate::text::{points, visible};
use crate::verdict::Verdict;

/// The TAs' page, beside `feedback/` (not in it: that folder is what
/// students are given).
pub const INDEX: &str = "index.html";

/// Transcript lines shown around each difference; longer runs of lines
/// between them are folded.
const CONTEXT: usize = 3;

/// `feedback/<id>.html` and `index.html`.
#[derive(Default)]
pub struct Html {
    /// The suite's ignored regions, compiled once for the class.
    regions: Vec<Region>,
}

impl Exporter for Html {
    fn start(&mut self, results: &ClassResults, _out: &mut dyn Sink) -> io::Result<()> {
        self.regions = ignored_regions(results);
        Ok(())
    }

    fn student(
        &mut self,
        results: &ClassResults,
        name: &str,
        student: &SubmissionResult,
        out: &mut dyn Sink,
    ) -> io::Result<()> {
        let path = PathBuf::from(DIR).join(format!("{name}.html"));
        out.file(
            &path,
            student_page(results, student, &self.regions).as_bytes(),
        )
    }

    /// The class's page, from its compact results.
    fn finish(&mut self, results: &ClassResults, out: &mut dyn Sink) -> io::Result<()> {
        let names = view::file_names(results);
        out.file(Path::new(INDEX), index(results, &names).as_bytes())
    }
}

/// The stylesheet every page carries.
pub(crate) const STYLE: &str = "
:root { --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9;
  --part: #9a6700; --part-bg: #fff8c5; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { margin: 0; background: #f6f8fa; color: #1f2328;
  font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 0 0 8px; }
h3 { font-size: 16px; margin: 16px 0 4px; }
.sub { color: var(--muted); margin: 0 0 16px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin: 0 0 20px; }
.score { font-size: 22px; font-weight: 600; }
.bar { height: 10px; background: var(--fail-bg); border-radius: 5px; overflow: hidden; margin: 8px 0; }
.bar span { display: block; height: 100%; background: var(--pass); }
table { border-collapse: collapse; width: 100%; }
.sort { color: var(--muted); margin: 0 0 8px; }
.sort label { margin: 0 12px 0 2px; }
table.students tbody { display: none; }
#by-name:checked ~ table.students tbody.by-name,
#by-lowest:checked ~ table.students tbody.by-lowest,
#by-highest:checked ~ table.students tbody.by-highest { display: table-row-group; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 13px; color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
.mark { width: 1.5em; font-weight: 700; }
tr.pass .mark { color: var(--pass); }
tr.fail .mark { color: var(--fail); }
tr.part .mark { color: var(--part); }
.verdict { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 13px; white-space: nowrap; }
.verdict.pass { background: var(--pass-bg); color: var(--pass); }
.verdict.fail { background: var(--fail-bg); color: var(--fail); }
.verdict.part { background: var(--part-bg); color: var(--part); }
.tag { font-size: 12px; color: var(--muted); border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; margin-left: 6px; }
a { color: #0969da; text-decoration: none; }
a:hover { text-decoration: underline; }
pre, .diff td.t { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: 8px 0; }
.problem { border-left: 4px solid var(--fail); }
.reason { font-weight: 600; }
.legend { color: var(--muted); font-size: 13px; margin: 12px 0 6px; }
.legend .ref, .legend .you, .reason .ref, .reason .you { padding: 0 6px; border-radius: 3px; }
.legend .ref, .reason .ref, .diff td.ref { background: var(--pass-bg); }
.legend .you, .reason .you, .diff td.you { background: var(--fail-bg); }
.diff { table-layout: fixed; background: #111; color: #e6edf3; border-radius: 6px; overflow: hidden; }
.diff th { background: #24292f; color: #e6edf3; font-size: 13px; }
.diff td { border: 0; padding: 0 6px; }
.diff td.n { width: 2.8em; color: #8b949e; text-align: right; user-select: none; font-size: 11px; padding-top: 2px; }
.diff td.t { white-space: pre-wrap; overflow-wrap: anywhere; }
.diff td.t.ref, .diff td.t.you { color: #1f2328; }
.diff td.gap { background: #2d333b; }
.diff td.t.skip, .legend .skip { color: #8b949e; }
.ws { color: var(--fail); }
mark.change { background: #ffd33d; color: #1f2328; border-radius: 2px; }
.legend mark.change { padding: 0 4px; }
pre.explain { background: #fff; }
pre.explain .ref { display: inline-block; width: 100%; background: var(--pass-bg); }
pre.explain .you { display: inline-block; width: 100%; background: var(--fail-bg); }
pre.explain .hunk { color: var(--muted); }
details.fold summary { cursor: pointer; color: #8b949e; background: #24292f; font-size: 12px; padding: 2px 8px; }
details.fold[open] summary { border-bottom: 1px solid #57606a; }
.diff + .diff, details.fold .diff, details.fold + .diff { border-radius: 0; }
footer { color: var(--muted); font-size: 12px; text-align: center; margin: 24px 0; }
";

/// One student's page.
pub fn feedback(results: &ClassResults, submission: &SubmissionResult) -> String {
    student_page(results, submission, &ignored_regions(results))
}

/// The suite's ignored regions, compiled once for every page.
fn ignored_regions(results: &ClassResults) -> Vec<Region> {
    results
        .suite
        .ignored
        .iter()
        .filter_map(|r| r.region())
        .collect()
}

fn student_page(
    results: &ClassResults,
    submission: &SubmissionResult,
    regions: &[Region],
) -> String {
    let rows = view::for_student(rows(&results.suite, submission));
    let title = format!("Feedback for {}", submission.id);
    let mut body = format!(
        "<h1>{}</h1>\n<p class=\"sub\">{}</p>\n",
        esc(&title),
        esc(&results.suite.title)
    );
    if !view::has_score(submission.status) {
        // Nothing ran: no score to show, no cases to list.
        let (heading, message) = view::problem(submission).unwrap_or_default();
        let _ = writeln!(
            body,
            "<section class=\"card problem\"><h2>Not graded</h2><p>{}</p><pre>{}</pre></section>",
            esc(heading),
            esc(&message)
        );
        return page(&title, &body, &results.referee_version);
    }
    body.push_str(&score_card(submission, &summary(&rows)));
    if let Some((heading, message)) = view::problem(submission) {
        let _ = writeln!(
            body,
            "<section class=\"card problem\"><h2>{}</h2><pre>{}</pre></section>",
            esc(heading),
            esc(&message)
        );
    }
    // What failed comes first, so the first screen shows it.
    for (i, row) in rows.iter().enumerate() {
        body.push_str(&failure(i, row, regions));
    }
    body.push_str(&diagnoses(results, submission));
    if let Some(exploration) = &submission.exploration {
        body.push_str(&explored(exploration, regions));
    }
    if !rows.is_empty() {
        body.push_str(&case_table(&rows));
    }
    page(&title, &body, &results.referee_version)
}

/// Where the program breaks, as a card: each diagnosis with its kind,
/// place, source line, case and input line, how often and the tool's
/// message, as the student may see them (see
/// [`super::markdown`]); empty when there is none.
fn diagnoses(results: &ClassResults, submission: &SubmissionResult) -> String {
    if submission.diagnostics.is_empty() {
        return String::new();
    }
    let hidden = view::hidden_from_student(&results.suite, submission);
    let (found_by, not_a_grade) = diagnoses::preamble(&submission.diagnostics);
    let mut out = format!(
        "<section class=\"card\" id=\"diagnoses\"><h2>{}</h2>\n<p class=\"sub\">{} {}</p>\n",
        esc(diagnoses::HEADING),
        esc(found_by),
        esc(not_a_grade)
    );
    for d in &submission.diagnostics {
        let told = Told::new(d, &hidden);
        let _ = writeln!(
            out,
            "<div class=\"diagnosis\"><h3>{}</h3>",
            esc(&told.heading())
        );
        match (told.place(), told.source()) {
            (Some(place), Some((_, source))) => {
                let _ = writeln!(out, "<p>{}:</p><pre>{}</pre>", esc(&place), esc(source));
            }
            (Some(place), None) => {
                let _ = writeln!(out, "<p>{}.</p>", esc(&place));
            }
            (None, Some((_, source))) => {
                let _ = writeln!(out, "<pre>{}</pre>", esc(source));
            }
            (None, None) => {}
        }
        let _ = writeln!(out, "<p>{}</p>", esc(&told.occasion()));
        if let Some((who, message)) = told.message() {
            let _ = writeln!(out, "<p class=\"sub\">{} {}</p>", esc(who), esc(message));
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
    out
}

/// What exploring generated games found, as a card: the shortest game
/// played differently, typed out, explained, and its transcripts side by
/// side; or that there was none.
fn explored(exploration: &Exploration, regions: &[Region]) -> String {
    let worth = if exploration.max_score > 0.0 {
        format!(
            " <span class=\"sub\">{} / {} points</span>",
            points(exploration.score),
            points(exploration.max_score)
        )
    } else {
        String::new()
    };
    let Some(game) = &exploration.found else {
        return format!(
            "<section class=\"card\" id=\"explored\"><h2>✓ Generated games{worth}</h2><p>Your \
             program played {} generated games (seed {}) as the reference plays them.</p></section>\n",
            exploration.games, exploration.seed
        );
    };
    let mut out = format!(
        "<section class=\"card\" id=\"explored\"><h2>✗ A generated game your program plays \
         differently <span class=\"verdict fail\">{}</span>{worth}</h2>\n<p class=\"sub\">Game {} of \
         the generated games (seed {}), shrunk to {}.</p>\n<p>What was typed:</p><pre>{}</pre>\n",
        esc(game.verdict.label()),
        game.game,
        exploration.seed,
        esc(&game.description),
        esc(&game.typed())
    );
    if !game.explanation.trim().is_empty() {
        out.push_str(&explanation(&game.explanation));
    }
    if let (Some(expected), Some(actual)) = (&game.expected, &game.actual) {
        let prompts = game.prompts.as_ref().map(|p| p.pair());
        out.push_str(&side_by_side(
            expected,
            actual,
            &game.options(),
            regions,
            prompts,
        ));
    }
    out.push_str("</section>\n");
    out
}

fn score_card(submission: &SubmissionResult, summary: &str) -> String {
    format!(
        "<section class=\"card\"><div class=\"score\">{} / {} points</div>{}<div>{}</div></section>\n",
        points(submission.score),
        points(submission.max_score),
        bar(submission.fraction()),
        esc(summary)
    )
}

fn bar(fraction: f64) -> String {
    let percent = (fraction * 100.0).clamp(0.0, 100.0);
    format!("<div class=\"bar\"><span style=\"width: {percent:.1}%\"></span></div>")
}

/// `pass`, `part` (some points) or `fail`: the colour of a result.
fn tone(row: &Row<'_>) -> &'static str {
    match row.result.map(|r| r.verdict) {
        Some(Verdict::Pass) => "pass",
        Some(Verdict::FormatDiffers) => "part",
        _ => "fail",
    }
}

fn case_table(rows: &[Row<'_>]) -> String {
    let mut out = String::from(
        "<section class=\"card\"><h2>Cases</h2><table class=\"cases\">\
         <thead><tr><th></th><th>Case</th><th class=\"num\">Points</th><th>Verdict</th></tr></thead><tbody>\n",
    );
    for (i, row) in rows.iter().enumerate() {
        let tone = tone(row);
        let mark = if tone == "pass" { "✓" } else { "✗" };
        let name = match row.details() {
            Some(_) => format!("<a href=\"#case-{i}\">{}</a>", esc(row.name)),
            None => esc(row.name),
        };
        let hidden = match row.visibility {
            Visibility::Hidden => "<span class=\"tag\">hidden</span>",
            Visibility::Public => "",
        };
        let _ = writeln!(
            out,
            "<tr class=\"{tone}\"><td class=\"mark\">{mark}</td><td>{name}{hidden}</td>\
             <td class=\"num\">{} / {}</td><td><span class=\"verdict {tone}\">{}</span></td></tr>",
            points(row.score()),
            points(row.max_score),
            esc(&row.verdict_label())
        );
    }
    out.push_str("</tbody></table>");
    if rows.iter().any(|r| r.visibility == Visibility::Hidden) {
        out.push_str(
            "<p class=\"sub\">Hidden cases show only their verdict: they test what the \
             handout asks with input you have not seen.</p>",
        );
    }
    out.push_str("</section>\n");
    out
}

/// A public failure's section: description, reason, explanation, and
/// the transcripts side by side when the case was a whole game. Empty for
/// anything a student may not see in detail.
fn failure(index: usize, row: &Row<'_>, regions: &[Region]) -> String {
    let Some(result) = row.details() else {
        return String::new();
    };
    let mut out = format!(
        "<section class=\"card\" id=\"case-{index}\"><h2>✗ {} <span class=\"verdict {}\">{}</span></h2>\n",
        esc(row.name),
        tone(row),
        esc(&row.verdict_label())
    );
    if let Some(description) = row.description {
        let _ = writeln!(out, "<p class=\"sub\">This case: {}</p>", esc(description));
    }
    if let Some(reason) = view::reason(result) {
        let _ = writeln!(out, "<p class=\"reason\">{}</p>", esc(&reason));
    }
    if !result.explanation.trim().is_empty() {
        out.push_str(&explanation(&result.explanation));
    }
    if let (Some(reference), Some(code)) = (result.reference_exit_status, result.exit_status) {
        // Both statuses, coloured as the transcripts are: the tables
        // below show only what was printed. A wrong status alone is the
        // verdict, said by the explanation already.
        if reference != code && result.verdict != Verdict::ExitStatus {
            let _ = writeln!(
                out,
                "<p class=\"reason\">Exit status: <span class=\"ref\">the reference exits \
                 with {reference}</span>, <span class=\"you\">your program exited with \
                 {code}</span>.</p>"
            );
        }
    }
    for file in &result.files {
        out.push_str(&output_file(file, &file.options(result.options())));
    }
    if let (Some(expected), Some(actual)) = (&result.expected, &result.actual) {
        if expected.is_empty() && actual.is_empty() {
            // Neither printed anything (a case that judges its files):
            // an empty table would say nothing.
            out.push_str(&given_files(result));
            out.push_str("</section>\n");
            return out;
        }
        let prompts = result.prompts.as_ref().map(|p| p.pair());
        let shown = if result.judges_only_the_ending() {
            transcripts_only(expected, actual)
        } else {
            side_by_side(expected, actual, &result.options(), regions, prompts)
        };
        out.push_str(&shown);
    }
    out.push_str(&given_files(result));
    out.push_str("</section>\n");
    out
}

/// An output file that differs, the reference's beside the program's as
/// transcripts are shown, under a legend that says how it was compared.
fn output_file(file: &KeptFile, options: &Options) -> String {
    let options = Options {
        prompts: false,
        ..*options
    };
    if file.missing {
        let legend = format!(
            "<strong>{}</strong>: your program left no such file (see above); \
             <span class=\"ref\">the reference&#39;s</span> is on the left",
            esc(&file.name)
        );
        return paired(&file.expected, "", &options, &[], None, legend);
    }
    let legend = format!(
        "<strong>{}</strong>, compared {}: <span class=\"ref\">the reference&#39;s</span> and \
         <span class=\"you\">your program&#39;s</span>, the lines that count as different \
         highlighted and <mark class=\"change\">what changed</mark> in a line marked",
        esc(&file.title()),
        esc(&options.file_comparison())
    );
    paired(&file.expected, &file.actual, &options, &[], None, legend)
}

/// The files a public case gave the program, each in a `<pre>`.
fn given_files(result: &CaseResult) -> String {
    let mut out = String::new();
    for file in &result.given {
        let _ = write!(
            out,
            "<p class=\"legend\">The case gave your program <strong>{}</strong>:</p>\n<pre>{}</pre>\n",
            esc(&file.name),
            esc(&file.text)
        );
    }
    out
}

/// An explanation in a `<pre>`, its diff coloured as the transcripts
/// are: the reference's lines (`-`) as the reference's, the program's
/// (`+`) as the program's, `@@` positions dimmed.
fn explanation(text: &str) -> String {
    let mut out = String::from("<pre class=\"explain\">");
    for line in text.trim_end().lines() {
        let t = line.trim_start();
        let class = if t.starts_with("- the reference") {
            Some("hunk")
        } else if t.starts_with("- ") || t == "-" {
            Some("ref")
        } else if t.starts_with("+ ") || t == "+" {
            Some("you")
        } else if t.starts_with("@@") {
            Some("hunk")
        } else if t.starts_with("~ ") {
            Some("skip")
        } else {
            None
        };
        match class {
            Some(class) => {
                let _ = writeln!(out, "<span class=\"{class}\">{}</span>", esc(line));
            }
            None => {
                let _ = writeln!(out, "{}", esc(line));
            }
        }
    }
    out.push_str("</pre>\n");
    out
}

/// The two transcripts as a table, reference on the left, paired as the
/// comparison pairs them: lines that differ have the class `ref` (left)
/// or `you` (right), a line with no counterpart faces a `gap`, lines not
/// compared (an ignored header, blank lines the options ignore, prompts
/// under `prompts`, whose turns grading kept) are `skip`.
pub fn side_by_side(
    expected: &str,
    actual: &str,
    options: &Options,
    regions: &[Region],
    prompts: Option<(&Turns, &Turns)>,
) -> String {
    let mut legend = String::from(
        "The whole transcripts, as a terminal shows them (what was typed follows the prompt). \
         Lines that count as different are highlighted: <span class=\"ref\">the \
         reference</span> and <span class=\"you\">your program</span>",
    );
    if *options != Options::default() {
        let _ = write!(legend, " ({})", esc(&options.describe()));
    }
    paired(expected, actual, options, regions, prompts, legend)
}

/// Two texts as tables side by side, paired as the comparison pairs
/// them, under `legend` (HTML, its sentence not yet ended).
fn paired(
    expected: &str,
    actual: &str,
    options: &Options,
    regions: &[Region],
    prompts: Option<(&Turns, &Turns)>,
    legend: String,
) -> String {
    let want: Vec<&str> = expected.lines().collect();
    let got: Vec<&str> = actual.lines().collect();
    let prompts = prompts.filter(|_| options.prompts);
    let rows = compare::side_by_side(
        expected.as_bytes(),
        actual.as_bytes(),
        options,
        regions,
        prompts,
    );
    let mut out = format!("<p class=\"legend\">{legend}");
    // A prompt at the start of a line of the program's (issue 46): greyed
    // as the lines not compared are.
    let starts: Vec<(usize, usize)> = prompts
        .iter()
        .flat_map(|(_, yours)| &yours.parts)
        .filter(|p| p.from > 0)
        .map(|p| (p.line, p.from))
        .collect();
    if rows.iter().any(|r| r.kind == RowKind::NotCompared) {
        out.push_str("; <span class=\"skip\">greyed lines are not compared</span>");
    }
    if !starts.is_empty() {
        out.push_str(
            "; <span class=\"skip\">~ a prompt</span> greyed at the start of a line is not \
             compared",
        );
    }
    out.push_str(".</p>\n");
    out.push_str(&tables(&rows, &want, &got, ", the same in both", &starts));
    out
}

/// The two transcripts of a case that judges only how the run ends
/// (`mode: ending`): line by line, none of them compared, the last
/// ones shown.
pub fn transcripts_only(expected: &str, actual: &str) -> String {
    let want: Vec<&str> = expected.lines().collect();
    let got: Vec<&str> = actual.lines().collect();
    let rows: Vec<compare::Row> = (0..want.len().max(got.len()))
        .map(|i| compare::Row {
            expected: (i < want.len()).then_some(i),
            actual: (i < got.len()).then_some(i),
            kind: RowKind::NotCompared,
        })
        .collect();
    let mut out = String::from(
        "<p class=\"legend\">The whole transcripts, as a terminal shows them (what was typed \
         follows the prompt). This case judges only how the run ends, so <span \
         class=\"skip\">no line is compared</span>: the last lines show where each one \
         stopped.</p>\n",
    );
    out.push_str(&tables(&rows, &want, &got, " before the end", &[]));
    out
}

/// The rows as tables, the runs [`folds`] folds in a `<details>` whose
/// summary says what they are: "3 more lines{folded}" (", the same in
/// both").
fn tables(
    rows: &[compare::Row],
    want: &[&str],
    got: &[&str],
    folded: &str,
    starts: &[(usize, usize)],
) -> String {
    let mut out = String::new();
    let mut first = true;
    if rows.is_empty() {
        out.push_str(&diff_table(&[], want, got, true, starts));
    }
    for (shown, part) in folds(rows) {
        let table = diff_table(part, want, got, first, starts);
        first = false;
        if shown {
            out.push_str(&table);
        } else {
            let _ = writeln!(
                out,
                "<details class=\"fold\"><summary>{} more line{}{folded}: show them</summary>{table}</details>",
                part.len(),
                if part.len() == 1 { "" } else { "s" }
            );
        }
    }
    out
}

/// The rows cut into runs shown (within [`CONTEXT`] lines of a
/// difference, or of the end when nothing differs) and runs folded
/// (longer stretches of lines the same in both).
fn folds(rows: &[compare::Row]) -> Vec<(bool, &[compare::Row])> {
    let mut near = vec![false; rows.len()];
    let mut marks: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].kind == RowKind::Differs)
        .collect();
    if marks.is_empty() && !rows.is_empty() {
        marks.push(rows.len() - 1);
    }
    for i in marks {
        let (low, high) = (i.saturating_sub(CONTEXT), (i + CONTEXT).min(rows.len() - 1));
        near[low..=high].iter_mut().for_each(|n| *n = true);
    }
    // Runs of rows near a difference or not; a short run far from one is
    // shown too, since folding it would save nothing.
    let mut parts: Vec<(bool, std::ops::Range<usize>)> = Vec::new();
    let mut start = 0;
    for i in 1..=rows.len() {
        if i < rows.len() && near[i] == near[start] {
            continue;
        }
        let shown = near[start] || i - start <= CONTEXT;
        match parts.last_mut() {
            Some((true, last)) if shown => last.end = i,
            _ => parts.push((shown, start..i)),
        }
        start = i;
    }
    parts
        .into_iter()
        .map(|(shown, range)| (shown, &rows[range]))
        .collect()
}

/// One table of transcript rows; the first carries the headings.
/// `starts`: the program's lines that begin with a prompt, each with
/// the prompt's length.
fn diff_table(
    rows: &[compare::Row],
    want: &[&str],
    got: &[&str],
    headings: bool,
    starts: &[(usize, usize)],
) -> String {
    let mut out = String::from(
        "<table class=\"diff\"><colgroup><col style=\"width: 2.8em\"><col><col style=\"width: 2.8em\"><col></colgroup>",
    );
    if headings {
        out.push_str(
            "<thead><tr><th colspan=\"2\">The reference</th><th colspan=\"2\">Your program</th></tr></thead>",
        );
    }
    out.push_str("<tbody>\n");
    for row in rows {
        let [(left, left_changed), (right, right_changed)] = view::sides(row, want, got);
        out.push_str("<tr>");
        out.push_str(&diff_cells(left, row.kind, "ref", left_changed));
        let prompt = row
            .actual
            .and_then(|i| starts.iter().find(|(line, _)| *line == i))
            .map(|&(_, from)| from);
        let cells = match (right, prompt) {
            (Some((n, text)), Some(from)) if text.is_char_boundary(from) => {
                with_prompt(n, text, from, row.kind)
            }
            _ => diff_cells(right, row.kind, "you", right_changed),
        };
        out.push_str(&cells);
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    out
}

/// A line number and a line of one side; `side` is its class when the
/// line differs, and `changed` what changed in it when it is paired
/// with a line of the other side.
fn diff_cells(
    line: Option<(usize, &str)>,
    kind: RowKind,
    side: &str,
    changed: Option<std::ops::Range<usize>>,
) -> String {
    match (line, kind) {
        (None, _) => "<td class=\"n gap\"></td><td class=\"t gap\"></td>".to_string(),
        (Some((n, text)), RowKind::Differs) => format!(
            "<td class=\"n\">{}</td><td class=\"t {side}\">{}</td>",
            n + 1,
            match changed {
                Some(span) => marked_change(text, span),
                None => marked(text),
            }
        ),
        (Some((n, text)), RowKind::NotCompared) => format!(
            "<td class=\"n\">{}</td><td class=\"t skip\">{}</td>",
            n + 1,
            esc(text)
        ),
        (Some((n, text)), RowKind::Same) => format!(
            "<td class=\"n\">{}</td><td class=\"t\">{}</td>",
            n + 1,
            esc(text)
        ),
    }
}

/// The program's line `n`, whose first `from` bytes were taken for a
/// prompt: greyed, marked `~` in its title, the rest as the row says.
fn with_prompt(n: usize, text: &str, from: usize, kind: RowKind) -> String {
    let (prompt, rest) = text.split_at(from);
    let (class, rest) = match kind {
        RowKind::Differs => ("t you", marked(rest)),
        RowKind::NotCompared => ("t skip", esc(rest)),
        RowKind::Same => ("t", esc(rest)),
    };
    format!(
        "<td class=\"n\">{}</td><td class=\"{class}\"><span class=\"skip\" title=\"~ a prompt, \
         not compared\">{}</span>{rest}</td>",
        n + 1,
        esc(prompt)
    )
}

/// A changed line whose bytes `span` are what changed: those in a
/// `<mark>`, spaces and tabs in them shown (a leading space too), the
/// rest as [`marked`] shows a changed line.
fn marked_change(text: &str, span: std::ops::Range<usize>) -> String {
    let (Some(before), Some(part), Some(after)) = (
        text.get(..span.start),
        text.get(span.clone()),
        text.get(span.end..),
    ) else {
        return marked(text);
    };
    if part.is_empty() {
        return marked(text);
    }
    format!(
        "{}<mark class=\"change\">{}</mark>{}",
        esc(before).replace('\t', "<span class=\"ws\">␉</span>"),
        esc(&visible::changed_part(part)),
        marked(after)
    )
}

/// A changed line, escaped, its trailing spaces and tabs shown (`·`,
/// `␉`): otherwise a line that differs only there would look the same.
fn marked(text: &str) -> String {
    let body = text.trim_end_matches(' ');
    let trailing = text.len() - body.len();
    let mut out = esc(body).replace('\t', "<span class=\"ws\">␉</span>");
    if trailing > 0 {
        let _ = write!(out, "<span class=\"ws\">{}</span>", "·".repeat(trailing));
    }
    out
}

/// The TAs' page: every student with score, status and links, and how
/// often each case passed.
pub fn index(results: &ClassResults, names: &[String]) -> String {
    let title = format!("{}: the class", results.suite.title);
    let mut body = format!(
        "<h1>{}</h1>\n<p class=\"sub\">For TAs: scores of every student (students get only \
         their own page). {}</p>\n",
        esc(&title),
        esc(&class_summary(results))
    );
    body.push_str(&student_table(results, names));
    body.push_str(&class_diagnoses(results, names));
    body.push_str(&undiagnosed(results, names));
    if !results.suite.cases.is_empty() && !results.submissions.is_empty() {
        body.push_str(&pass_rates(results));
    }
    page(&title, &body, &results.referee_version)
}

fn class_summary(results: &ClassResults) -> String {
    let n = results.submissions.len();
    if n == 0 {
        return "No submissions.".into();
    }
    let tally = view::tally(results);
    let mut text = format!(
        "{n} submission{}: {}",
        if n == 1 { "" } else { "s" },
        super::summary::counts(&tally).trim_end()
    );
    text.push_str(&mean_sentence(results, &tally));
    if let Some(missing) = &results.missing {
        text.push(' ');
        text.push_str(&missing.sentence(results.class.as_ref().map(|c| c.students)));
    }
    let explored = super::summary::exploration(results);
    if !explored.is_empty() {
        text.push(' ');
        text.push_str(explored.trim_end());
    }
    text
}

/// The class's mean score, of the graded programs alone: a program that
/// does not compile has a score (0, or what its suite gives), and a TA
/// reading "the graded" counts it apart, so the mean with it is said
/// apart too.
fn mean_sentence(results: &ClassResults, tally: &view::Tally<'_>) -> String {
    let mean = |scores: &[f64]| scores.iter().sum::<f64>() / scores.len() as f64;
    let decimals = crate::text::decimals(results.suite.cases.iter().map(|c| c.max_score));
    let figure = |m: f64| crate::text::figure(m, decimals);
    let graded: Vec<f64> = tally.graded.iter().map(|s| s.score).collect();
    let scored: Vec<f64> = tally.scored().map(|s| s.score).collect();
    let max = points(results.suite.max_score);
    let failing = tally.compile_errors.len();
    match (graded.is_empty(), failing) {
        (true, 0) => String::new(),
        (false, 0) => format!(
            " Mean score of the graded: {} of {max}.",
            figure(mean(&graded))
        ),
        (true, _) => format!(
            " Mean score: {} of {max}, of programs that do not compile.",
            figure(mean(&scored))
        ),
        (false, _) => {
            format!(
            " Mean score of the graded: {} of {max} ({} counting the {} that do{} not compile).",
            figure(mean(&graded)),
            figure(mean(&scored)),
            if failing == 1 { "one".to_string() } else { failing.to_string() },
            if failing == 1 { "es" } else { "" }
        )
        }
    }
}

/// The orders a TA may list the class in, each its radio button's id and
/// label: a page holds no script, so each order is a `<tbody>` of its
/// own, shown while its button is checked (the page's style says so).
const ORDERS: [(&str, &str, Order); 3] = [
    ("by-name", "by name", Order::Listed),
    ("by-lowest", "lowest score first", Order::Lowest),
    ("by-highest", "highest score first", Order::Highest),
];

/// An order of the class table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    /// As the class lists its students.
    Listed,
    /// By score, lowest first.
    Lowest,
    /// By score, highest first.
    Highest,
}

fn student_table(results: &ClassResults, names: &[String]) -> String {
    // The buttons come before the table, at its level, for the style to
    // reach it.
    let mut out = String::from(
        "<section class=\"card\"><h2>Students</h2>\n<span class=\"sort\">Sort:</span>",
    );
    for (i, (id, label, _)) in ORDERS.iter().enumerate() {
        let checked = if i == 0 { " checked" } else { "" };
        let _ = write!(
            out,
            " <input type=\"radio\" name=\"sort\" id=\"{id}\"{checked}><label for=\"{id}\">{label}</label>"
        );
    }
    out.push_str(
        "\n<table class=\"students\"><thead><tr><th>Student</th>\
         <th class=\"num\">Score</th><th style=\"width: 30%\"></th><th>Status</th>\
         <th class=\"num\">Cases passed</th><th>Diagnoses</th><th>Feedback</th></tr></thead>\n",
    );
    let rows: Vec<(String, &SubmissionResult)> = results
        .submissions
        .iter()
        .zip(names)
        .map(|(s, name)| (student_row(results, s, name), s))
        .collect();
    for (id, _, order) in ORDERS {
        let _ = writeln!(out, "<tbody class=\"{id}\">");
        for (row, _) in in_order(&rows, order) {
            out.push_str(row);
        }
        out.push_str("</tbody>\n");
    }
    out.push_str("</table></section>\n");
    out
}

/// `rows` in `order`: as the class lists them, or by score (ties as the
/// class lists them; students with no score last).
fn in_order<'r>(
    rows: &'r [(String, &SubmissionResult)],
    order: Order,
) -> Vec<&'r (String, &'r SubmissionResult)> {
    let mut ordered: Vec<&(String, &SubmissionResult)> = rows.iter().collect();
    let score = |s: &SubmissionResult| view::has_score(s.status).then_some(s.score);
    if order != Order::Listed {
        let highest = order == Order::Highest;
        ordered.sort_by(|(_, a), (_, b)| by_score(score(a), score(b), highest));
    }
    ordered
}

/// Two students' scores compared, highest first when `highest`, a
/// student with no score after every score.
fn by_score(a: Option<f64>, b: Option<f64>, highest: bool) -> std::cmp::Ordering {
    match (a, b) {
        (Some(a), Some(b)) if highest => b.total_cmp(&a),
        (Some(a), Some(b)) => a.total_cmp(&b),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    }
}

/// One student's row of the class table.
fn student_row(results: &ClassResults, s: &SubmissionResult, name: &str) -> String {
    let passed = s.passed();
    let tone = match s.status {
        Status::Graded => "pass",
        _ => "fail",
    };
    let (score, bar, cases) = if view::has_score(s.status) {
        (
            format!("{} / {}", points(s.score), points(s.max_score)),
            bar(s.fraction()),
            format!("{passed} / {}", results.suite.cases.len()),
        )
    } else {
        ("—".to_string(), String::new(), "—".to_string())
    };
    let why = match (s.status, &s.message) {
        (Status::Error | Status::NotGraded, Some(message)) => format!(
            "<div class=\"sub\">{}</div>",
            esc(message.lines().next().unwrap_or_default())
        ),
        _ => String::new(),
    };
    format!(
        "<tr><td><a href=\"{DIR}/{name}.html\">{}</a></td><td class=\"num\">{score}</td><td>{bar}</td>\
         <td><span class=\"verdict {tone}\">{}</span>{why}</td><td class=\"num\">{cases}</td>\
         <td>{}</td><td><a href=\"{DIR}/{name}.html\">page</a> · <a href=\"{DIR}/{name}.md\">Markdown</a></td></tr>\n",
        esc(&s.id),
        view::status_id(s.status),
        diagnosed(s, name),
    )
}

/// A student's diagnoses in a cell: how many, and their kinds (each
/// once); empty when none.
fn diagnosed(s: &SubmissionResult, name: &str) -> String {
    if s.diagnostics.is_empty() {
        return String::new();
    }
    let mut kinds: Vec<&str> = Vec::new();
    for d in &s.diagnostics {
        let words = d.kind.words();
        if !kinds.contains(&words) {
            kinds.push(words);
        }
    }
    format!(
        "<a href=\"#diagnoses-{name}\">{}</a> <span class=\"sub\">{}</span>",
        s.diagnostics.len(),
        esc(&kinds.join("; "))
    )
}

/// Every diagnosis of the class, by student, whatever their score: for
/// the TA, so hidden cases are named and their input shown. Empty when
/// no student has one.
fn class_diagnoses(results: &ClassResults, names: &[String]) -> String {
    let diagnosed: Vec<(&SubmissionResult, &String)> = results
        .submissions
        .iter()
        .zip(names)
        .filter(|(s, _)| !s.diagnostics.is_empty())
        .collect();
    if diagnosed.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<section class=\"card\" id=\"diagnoses\"><h2>Where programs break</h2>\n<p class=\"sub\">\
         {} of {} students: memory errors, undefined behaviour and uncaught exceptions found by \
         a checked build, the compiler's warnings and Python's tracebacks. They never change a \
         grade; each student's page lists their own (a hidden case unnamed).</p>\n",
        diagnosed.len(),
        results.submissions.len()
    );
    for (s, name) in diagnosed {
        let score = if view::has_score(s.status) {
            format!("{} / {} points", points(s.score), points(s.max_score))
        } else {
            view::status_id(s.status).to_string()
        };
        let _ = writeln!(
            out,
            "<h3 id=\"diagnoses-{name}\"><a href=\"{DIR}/{name}.html\">{}</a> <span class=\"sub\">{score}</span></h3><ul>",
            esc(&s.id),
        );
        for d in &s.diagnostics {
            let told = Told::new(d, |_| false);
            let source = match told.source() {
                // A line of code in a list: its indentation would be
                // lost anyway.
                Some((Some(line), text)) => {
                    format!("<br><code>{line} | {}</code>", esc(text.trim()))
                }
                Some((None, text)) => format!("<br><code>{}</code>", esc(text.trim())),
                None => String::new(),
            };
            let _ = writeln!(out, "<li>{}{source}</li>", esc(&told.sentence()));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
    out
}

/// The students whose checked build referee could not make or run here,
/// each with why: for the TA (the students' pages say nothing of it).
/// Empty when there is none.
fn undiagnosed(results: &ClassResults, names: &[String]) -> String {
    let troubled: Vec<(&SubmissionResult, &String)> = results
        .submissions
        .iter()
        .zip(names)
        .filter(|(s, _)| s.diagnosis_trouble.is_some())
        .collect();
    if troubled.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<section class=\"card\" id=\"undiagnosed\"><h2>No diagnoses made</h2>\n<p class=\"sub\">\
         {} of {} students: referee could not make or run their checked build on this machine, \
         so nothing says where their programs break. This is referee's to fix, not theirs: their \
         grades stand, and their pages do not mention it.</p><ul>\n",
        troubled.len(),
        results.submissions.len()
    );
    for (s, name) in troubled {
        let why = view::printable(s.diagnosis_trouble.as_deref().unwrap_or_default());
        let _ = writeln!(
            out,
            "<li><a href=\"{DIR}/{name}.html\">{}</a>: <code>{}</code></li>",
            esc(&s.id),
            esc(&why)
        );
    }
    out.push_str("</ul></section>\n");
    out
}

fn pass_rates(results: &ClassResults) -> String {
    let mut out = String::from(
        "<section class=\"card\"><h2>Cases</h2><table><thead><tr><th>Case</th><th>Visibility</th>\
         <th class=\"num\">Points</th><th class=\"num\">Passed by</th><th style=\"width: 30%\"></th></tr></thead><tbody>\n",
    );
    let n = results.submissions.len();
    for case in &results.suite.cases {
        let passed = results
            .submissions
            .iter()
            .filter(|s| {
                s.marks()
                    .any(|(name, verdict, _)| name == case.name && verdict == Verdict::Pass)
            })
            .count();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{passed} of {n}</td><td>{}</td></tr>",
            esc(&case.name),
            case.visibility,
            points(case.max_score),
            bar(passed as f64 / n as f64)
        );
    }
    out.push_str("</tbody></table></section>\n");
    out
}

/// A whole page around `body`.
fn page(title: &str, body: &str, version: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}\
         <footer>Graded by referee {}</footer>\n</main>\n</body>\n</html>\n",
        esc(title),
        esc(version)
    )
}

/// `text` escaped for HTML text and attribute values, control
/// characters made visible: nothing a program printed can become markup.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in view::printable(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
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
    fn the_class_table_sorts_by_name_and_by_score_with_no_script() {
        let class = class();
        let names = view::file_names(&class);
        let page = index(&class, &names);
        assert!(!page.contains("<script"), "{page}");
        // Each order a body of its own, the students in it as it says.
        let order_in = |id: &str| -> Vec<String> {
            let start = page.find(&format!("<tbody class=\"{id}\">")).unwrap();
            let body = &page[start..start + page[start..].find("</tbody>").unwrap()];
            body.split("<tr><td><a href=\"feedback/")
                .skip(1)
                .map(|row| row.split(".html").next().unwrap().to_string())
                .collect()
        };
        let by_name = order_in("by-name");
        assert_eq!(by_name, names);
        let scores: Vec<Option<f64>> = order_in("by-lowest")
            .iter()
            .map(|n| {
                let s = &class.submissions[names.iter().position(|m| m == n).unwrap()];
                view::has_score(s.status).then_some(s.score)
            })
            .collect();
        let graded: Vec<f64> = scores.iter().flatten().copied().collect();
        assert!(graded.windows(2).all(|w| w[0] <= w[1]), "{scores:?}");
        // Those with no score come last, in both directions.
        let first_none = scores
            .iter()
            .position(Option::is_none)
            .unwrap_or(scores.len());
        assert!(
            scores[first_none..].iter().all(Option::is_none),
            "{scores:?}"
        );
        let mut highest = order_in("by-highest");
        highest.truncate(graded.len());
        let mut lowest = order_in("by-lowest");
        lowest.truncate(graded.len());
        let lowest_scores: Vec<f64> = graded.clone();
        let highest_scores: Vec<f64> = highest
            .iter()
            .map(|n| class.submissions[names.iter().position(|m| m == n).unwrap()].score)
            .collect();
        assert_eq!(
            highest_scores,
            lowest_scores.iter().rev().copied().collect::<Vec<_>>()
        );
        // Only the checked order is shown.
        assert!(page.contains("id=\"by-name\" checked"));
        assert!(STYLE.contains("table.students tbody { display: none; }"));
    }

    #[test]
    fn a_page_shows_public_failures_side_by_side() {
        let html = student(0);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<title>Feedback for alice</title>"));
        assert!(html.contains("1 / 4.5 points"));
        assert!(html.contains("<a href=\"#case-0\">public-fail</a>"));
        assert!(html.contains("id=\"case-0\""));
        assert!(html.contains("Public-fail reason: typed `SECRET-public-fail` &lt;b&gt;"));
        assert!(
            html.contains("&lt;tag&gt;\n  \\x1b[31mred\\x07\n</pre>"),
            "{html}"
        );
        // What failed comes before the table of every case.
        let failure = html.find("id=\"case-0\"").unwrap();
        let table = html.find("<h2>Cases</h2>").unwrap();
        assert!(failure < table, "{html}");
        // Equal lines plain, the differing one highlighted on both sides.
        assert!(html.contains("<td class=\"n\">2</td><td class=\"t\">board</td><td class=\"n\">2</td><td class=\"t\">board</td>"));
        assert!(html.contains("<td class=\"t ref\">X wins</td><td class=\"n\">3</td><td class=\"t you\">O wins &lt;script&gt;</td>"), "{html}");
        assert!(!html.contains("<script"));
        // The output file beside the reference's, under its own legend,
        // what changed marked; the file the case gave, escaped.
        assert!(
            html.contains(
                "<p class=\"legend\"><strong>after.csv</strong>, compared line by line, exactly:"
            ),
            "{html}"
        );
        assert!(html.contains("<td class=\"t you\"><mark class=\"change\">·</mark>SECRET-public-fail-file &lt;i&gt;</td>"), "{html}");
        assert!(
            html.contains(
                "<strong>before.csv</strong>:</p>\n<pre>SECRET-public-fail-given &lt;u&gt;\n</pre>"
            ),
            "{html}"
        );
        assert!(
            !html.contains("SECRET-hidden-fail-given") && !html.contains("SECRET-hidden-fail-file")
        );
    }

    #[test]
    fn no_empty_transcripts_table_when_nothing_was_printed() {
        let mut class = class();
        let cases = &mut class.submissions[0].cases;
        let Some(case) = cases.iter_mut().find(|c| c.name == "public-fail") else {
            panic!("the test class has a failed public case");
        };
        case.expected = Some(String::new());
        case.actual = Some(String::new());
        let html = feedback(&class, &class.submissions[0]);
        assert!(!html.contains("The whole transcripts"), "{html}");
        assert!(html.contains("<strong>after.csv</strong>"), "{html}");
    }

    #[test]
    fn hidden_cases_show_only_name_and_verdict() {
        let html = student(0);
        assert!(
            html.contains(">hidden-fail<span class=\"tag\">hidden</span>"),
            "{html}"
        );
        assert!(html.contains("timed out"));
        assert!(!html.contains("SECRET-hidden-fail"));
        assert!(!html.contains("hidden-fail description"));
        assert!(!html.contains("id=\"case-2\""));
    }

    #[test]
    fn diagnoses_are_a_card_with_a_hidden_case_unnamed() {
        let class = crate::export::view::tests::diagnosed_class();
        let html = feedback(&class, &class.submissions[0]);
        assert!(
            html.contains("<h2>Where your program breaks</h2>"),
            "{html}"
        );
        assert!(
            html.contains(
                "<h3>A read past the end of an array</h3>\n<p>In `check` (alice.c, line 4):</p>\
                 <pre>    if (board[r][c + 1] == p &amp;&amp; `x` &lt; 2)</pre>\n\
                 <p>In case `public-fail`, after input line 7 (`6`). It happened in 3 runs.</p>\n\
                 <p class=\"sub\">The checks said: index 6 out of bounds for type &#39;int [6]&#39; &lt;b&gt;</p>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<p>In a hidden case. It happened once.</p>"),
            "{html}"
        );
        assert!(!html.contains("SECRET-input"), "{html}");
        let card = &html[html.find("id=\"diagnoses\"").expect(&html)..];
        assert!(
            !card[..card.find("</section>").expect(&html)].contains("hidden-fail"),
            "{html}"
        );
        assert!(!html.contains("<b>"), "{html}");
    }

    #[test]
    fn the_index_names_every_diagnosis_for_the_ta() {
        let class = crate::export::view::tests::diagnosed_class();
        let names = view::file_names(&class);
        let html = index(&class, &names);
        assert!(
            html.contains("<td><a href=\"#diagnoses-alice\">3</a> <span class=\"sub\">a read past the end of an array; a division by zero; a value used that was never set</span></td>"),
            "{html}"
        );
        assert!(html.contains("<h2>Where programs break</h2>"), "{html}");
        assert!(html.contains("1 of 3 students"), "{html}");
        // The TA sees the hidden case and its input.
        assert!(
            html.contains("in case `hidden-fail`, after input line 2 (`SECRET-input`)"),
            "{html}"
        );
        assert!(
            !index(&crate::export::view::tests::class(), &names).contains("Where programs break")
        );
    }

    #[test]
    fn compile_errors_and_ungradable_submissions_say_why() {
        let html = student(1);
        assert!(html.contains("<h2>Your program does not compile. The compiler said:</h2><pre>bob.c:1: error: expected `;` before &lt;eof&gt; &amp; \\x1b</pre>"), "{html}");
        assert!(html.contains("does not compile</span>"));
        let html = student(2);
        assert!(html.contains("class/carol: no program in this folder"));
        assert!(html.contains("<h2>Not graded</h2>"), "{html}");
        assert!(!html.contains("points"), "no score for what was not graded");
        assert!(!html.contains("not run"), "no cases listed");
    }

    #[test]
    fn pages_are_self_contained() {
        let files = Html::default().files(&class()).unwrap();
        assert_eq!(files.len(), 4);
        for (path, bytes) in &files {
            let text = String::from_utf8_lossy(bytes);
            for banned in ["http://", "https://", "src=", "<script", "<link", "url("] {
                assert!(!text.contains(banned), "{banned} in {}", path.display());
            }
        }
    }

    #[test]
    fn the_index_links_every_student() {
        let class = class();
        let names = view::file_names(&class);
        let html = index(&class, &names);
        assert!(html.contains("<a href=\"feedback/alice.html\">alice</a>"));
        assert!(html.contains(
            "<a href=\"feedback/bob-the-builder.html\">bob, &quot;the builder&quot;</a>"
        ));
        assert!(
            html.contains("3 submissions: 1 graded, 1 does not compile, 1 could not be graded. Mean score of the graded: 1 of 4.5 (0.5 counting the one that does not compile)."),
            "{html}"
        );
        // Who could not be graded says why, with no score.
        assert!(html.contains("<td class=\"num\">—</td>"), "{html}");
        assert!(html.contains("1 of 3"));
        let empty = empty_class();
        let html = index(&empty, &[]);
        assert!(html.contains("No submissions."));
    }

    #[test]
    fn explanations_are_coloured_like_the_transcripts() {
        let html = explanation(
            "  After input 1 (`4`), the reference printed `X`.\n  - the reference  + your program\n  @@ line 3 @@\n     same\n   - X <b>\n   + O\n",
        );
        assert!(
            html.contains("<span class=\"hunk\">  - the reference  + your program</span>"),
            "{html}"
        );
        assert!(
            html.contains(
                "<span class=\"ref\">   - X &lt;b&gt;</span>\n<span class=\"you\">   + O</span>"
            ),
            "{html}"
        );
        assert!(html.contains("\n     same\n"), "{html}");
    }

    #[test]
    fn long_runs_of_equal_lines_are_folded() {
        let same: String = (1..=40).map(|i| format!("line {i}\n")).collect();
        let table = side_by_side(
            &format!("{same}Red wins!\n"),
            &format!("{same}Yellow wins!\n"),
            &Options::default(),
            &[],
            None,
        );
        assert!(
            table.contains("<details class=\"fold\"><summary>37 more lines, the same in both: show them</summary>"),
            "{table}"
        );
        // The lines around the difference are shown, the rest folded.
        let folded = &table[..table.find("</details>").unwrap()];
        assert!(folded.contains(">line 37<"), "{table}");
        let shown = &table[table.find("</details>").unwrap()..];
        assert!(
            shown.contains(">line 38<") && shown.contains(">Red wins!<"),
            "{table}"
        );
        assert_eq!(table.matches("<thead>").count(), 1);
        // Short outputs are not folded.
        assert!(
            !side_by_side("a\nb\n", "a\nc\n", &Options::default(), &[], None).contains("<details")
        );
    }

    #[test]
    fn printed_markup_stays_text() {
        let text = esc("Play online at: https://perfect-pentago.net <img src=x onerror='a'>");
        for banned in ["<img", "'"] {
            assert!(!text.contains(banned), "{banned} in {text}");
        }
        assert_eq!(esc("a:b=c <i>"), "a:b=c &lt;i&gt;");
    }

    #[test]
    fn lines_differing_in_invisible_ways_are_marked() {
        assert_eq!(marked("a <b>  "), "a &lt;b&gt;<span class=\"ws\">··</span>");
        assert_eq!(marked("a\tb"), "a<span class=\"ws\">␉</span>b");
        let exact = Options::default();
        let table = side_by_side("same\nend \n", "same\nend\nmore\n", &exact, &[], None);
        assert!(
            table.contains("<td class=\"t ref\">end<mark class=\"change\">·</mark></td>"),
            "{table}"
        );
        assert!(table.contains("<td class=\"n gap\"></td><td class=\"t gap\"></td><td class=\"n\">3</td><td class=\"t you\">more</td>"), "{table}");
        assert!(side_by_side("", "", &exact, &[], None).contains("<tbody>\n</tbody>"));
    }

    #[test]
    fn only_what_the_comparison_counts_is_highlighted() {
        let options = Options::default()
            .relax("whitespace-runs")
            .and_then(|o| o.relax("blank-lines"))
            .unwrap();
        let header = crate::results::RegionInfo {
            name: "header".into(),
            from: None,
            until: "^Play".into(),
        };
        let regions = [header.region().unwrap()];
        let table = side_by_side(
            "Author: Ref\nPlay\n. .\n\nX wins\n",
            "Me, a student\nPlay\n.   .\nO wins\n",
            &options,
            &regions,
            None,
        );
        assert!(table.contains("whitespace-runs, blank-lines"), "{table}");
        assert!(table.contains("greyed lines are not compared"), "{table}");
        assert!(
            table.contains("<td class=\"t skip\">Author: Ref</td><td class=\"n\">1</td><td class=\"t skip\">Me, a student</td>"),
            "{table}"
        );
        assert!(
            table.contains(
                "<td class=\"t\">. .</td><td class=\"n\">3</td><td class=\"t\">.   .</td>"
            ),
            "spacing the options ignore is not highlighted: {table}"
        );
        assert!(
            table.contains("<td class=\"t ref\"><mark class=\"change\">X</mark> wins</td><td class=\"n\">4</td><td class=\"t you\"><mark class=\"change\">O</mark> wins</td>"),
            "{table}"
        );
    }

    #[test]
    fn prompts_are_greyed_where_grading_left_them_out() {
        use crate::transcript::{lines, printable, Transcript};
        let terminal = |parts: &[&str]| {
            let mut t = Transcript::new();
            for (i, part) in parts.iter().enumerate() {
                t.push_output(part.as_bytes());
                if i + 1 < parts.len() {
                    t.push_input("5");
                }
            }
            lines(&t, false)
        };
        let want = terminal(&["Height: ", "You are 5 feet tall.\nWeight: ", "BMI 20\n"]);
        let got = terminal(&[
            "Your height?\n",
            "You are 6 feet tall.\nWeight? ",
            "BMI 20\n",
        ]);
        let options = Options::default().relax("prompts").unwrap();
        let (expected, actual) = compare::terminal_diff(&want, &got, &options, &[])
            .turns
            .unwrap();
        let table = side_by_side(
            &printable(&want),
            &printable(&got),
            &options,
            &[],
            Some((&expected, &actual)),
        );
        assert!(table.contains("greyed lines are not compared"), "{table}");
        for prompt in ["Your height?", "Weight? 5"] {
            assert!(
                table.contains(&format!("<td class=\"t skip\">{prompt}</td>")),
                "{prompt}: {table}"
            );
        }
        assert!(
            table.contains("<td class=\"t ref\">You are <mark class=\"change\">5</mark> feet tall.</td><td class=\"n\">3</td><td class=\"t you\">You are <mark class=\"change\">6</mark> feet tall.</td>"),
            "{table}"
        );
        assert!(
            table.contains(
                "<td class=\"t\">BMI 20</td><td class=\"n\">5</td><td class=\"t\">BMI 20</td>"
            ),
            "{table}"
        );
        // Without the turns grading kept, every line is compared.
        let unknown = side_by_side(&printable(&want), &printable(&got), &options, &[], None);
        assert!(
            unknown.contains("<td class=\"t you\">Your height?</td>"),
            "{unknown}"
        );
    }
}
