//! What grading a class produced, as data every report is made from.
//!
//! `results.json` is this, serialized: the keys of DESIGN.md (`game`;
//! per submission `id`, `score`, `max_score`, `status`, `cases`; per case
//! `name`, `verdict`, `score`, `max_score`, `wall_ms`) keep their meaning,
//! and the other fields add what feedback needs. Shards' results merge by
//! concatenating submissions, so every report can be remade from the
//! merged file alone.

use serde::{Deserialize, Serialize};

use crate::case::Visibility;
use crate::verdict::{PartScore, Verdict};

/// The format's version, written in every `results.json`.
pub const SCHEMA_VERSION: u32 = 1;

/// A graded class (or one shard of it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassResults {
    /// The game id.
    pub game: String,
    /// This format's version ([`SCHEMA_VERSION`]).
    pub schema_version: u32,
    /// The referee version that graded.
    pub referee_version: String,
    /// The suite graded against.
    pub suite: SuiteInfo,
    /// When this set was a shard, which one (`K/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Every submission, sorted by id.
    pub submissions: Vec<SubmissionResult>,
}

/// The suite, as reports show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteInfo {
    /// Its title.
    pub title: String,
    /// Points of all cases.
    pub max_score: f64,
    /// Its cases, in order.
    pub cases: Vec<CaseInfo>,
    /// The output never compared (an identifying header), so that
    /// reports can show those lines as not compared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<RegionInfo>,
}

/// A region of output the suite never compares: from the first line
/// matching `from` (the first line when absent) up to the next line
/// matching `until` (see [`crate::compare::Region`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegionInfo {
    /// What it is.
    pub name: String,
    /// Where it starts, a regular expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The first line after it, a regular expression.
    pub until: String,
}

impl RegionInfo {
    /// The region, if its expressions still compile.
    pub(crate) fn region(&self) -> Option<crate::compare::Region> {
        let compile = |re: &str| regex::bytes::Regex::new(re).ok();
        Some(crate::compare::Region {
            name: self.name.clone(),
            from: match &self.from {
                Some(from) => Some(compile(from)?),
                None => None,
            },
            until: compile(&self.until)?,
        })
    }
}

/// One case of the suite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseInfo {
    /// Its name.
    pub name: String,
    /// Its points.
    pub max_score: f64,
    /// Who sees it.
    pub visibility: Visibility,
    /// What it checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its rubric item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rubric: Option<String>,
}

/// Whether a submission could be graded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Every case ran.
    Graded,
    /// It does not compile.
    CompileError,
    /// It could not be graded: no program found, or the grader failed on
    /// it (see `message`).
    Error,
    /// Grading was interrupted before it.
    NotGraded,
}

/// The id a learning system gave a student, read from the name of its
/// export's file or folder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LmsId {
    /// `canvas`, `moodle` or `blackboard`.
    pub system: String,
    /// The id: Canvas's user id, Moodle's participant number,
    /// Blackboard's user name.
    pub id: String,
}

/// One student's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubmissionResult {
    /// The student's id, unique in the class.
    pub id: String,
    /// The student's name as their file or folder gives it (`Zoë
    /// Müller`); absent when it is the id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The learning system's id for the student, when the submission's
    /// name carries one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lms: Option<LmsId>,
    /// The submission's path as given.
    pub path: String,
    /// Points earned (`null` in `results.json` when nothing was graded).
    #[serde(deserialize_with = "zero_when_null")]
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
    /// Whether it could be graded.
    pub status: Status,
    /// Why not, or the compiler's messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The key its results are cached under: the submission, the cases
    /// and the referee version.
    #[serde(default)]
    pub fingerprint: String,
    /// One result per case, in the suite's order.
    pub cases: Vec<CaseResult>,
    /// What exploring generated games found (`grade --explore`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exploration: Option<Exploration>,
}

/// What exploring generated games found in one submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exploration {
    /// Games played: up to and including the one played differently, or
    /// every game of the budget.
    pub games: usize,
    /// The seed the games were made from (the same for every student).
    pub seed: u64,
    /// Points earned: the suite's `explore_points` when no game was played
    /// differently, else 0.
    pub score: f64,
    /// The suite's `explore_points`.
    pub max_score: f64,
    /// The shortest game found that the program plays differently.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<ExploredGame>,
}

/// A generated game a program plays differently from the reference,
/// shrunk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExploredGame {
    /// Which generated game of the seed it was, from 1.
    pub game: usize,
    /// The verdict on the shrunk game.
    pub verdict: Verdict,
    /// The verdict in a sentence.
    pub reason: String,
    /// The shrunk game in words ("11 moves, Red wins").
    pub description: String,
    /// Its moves: lines typed, turns, or the pieces of a called board.
    pub moves: usize,
    /// The lines typed, for a whole game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Vec<String>>,
    /// The call made and its board, for a function.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
    /// The explanation, as plain text.
    pub explanation: String,
    /// The reference's terminal transcript (trimmed), for a whole game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The program's terminal transcript (trimmed), for a whole game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
    /// The differences the comparison ignores (as [`CaseResult::compare`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<String>,
    /// Under `prompts`, the turns of both transcripts (as
    /// [`CaseResult::prompts`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<Prompts>,
    /// The case file that replays it (YAML, ready for a case folder).
    pub case: String,
}

/// One case's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Points earned.
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
    /// Time on the clock, in milliseconds.
    pub wall_ms: u64,
    /// Who sees the case.
    pub visibility: Visibility,
    /// The verdict in a sentence.
    pub reason: String,
    /// The explanation of a failure, as plain text (empty on a pass).
    #[serde(default)]
    pub explanation: String,
    /// The reference's terminal transcript, for failures (trimmed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The program's terminal transcript, for failures (trimmed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
    /// The differences the case's text comparison ignores, by their case
    /// file names (`whitespace-runs`, ...); empty when exact.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<String>,
    /// What each part of the case (the play, the format, the ending) was
    /// worth and whether it was earned; empty when the program never ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<PartScore>,
    /// Under `prompts`, the turns and prompts of both transcripts, so
    /// that reports pair their lines as grading did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<Prompts>,
}

/// Where each transcript of a failed case under `prompts` read input,
/// and which of its lines were prompts, by terminal line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompts {
    /// The reference's.
    pub expected: crate::compare::Turns,
    /// The program's.
    pub actual: crate::compare::Turns,
}

/// Under `prompts`, in a text-mode case, both transcripts' turns as
/// grading compared them; `None` otherwise.
pub(crate) fn prompts(
    case: &crate::case::Case,
    regions: &[crate::compare::Region],
    reference: &crate::expected::ReferenceRun,
    run: &crate::run::RunResult,
) -> Option<Prompts> {
    if !case.compare.prompts || case.mode != crate::case::Mode::Text {
        return None;
    }
    let (expected, actual) = crate::compare::terminal_turns(
        &crate::terminal::reference_lines(reference),
        &crate::terminal::run_lines(run),
        &case.compare,
        regions,
    );
    Some(Prompts { expected, actual })
}

impl Prompts {
    /// Both sides, as the comparison takes them.
    pub(crate) fn pair(&self) -> (&crate::compare::Turns, &crate::compare::Turns) {
        (&self.expected, &self.actual)
    }
}

impl CaseResult {
    /// Whether the case judged only how the run ended (`mode: ending`):
    /// its one part is the ending.
    pub(crate) fn judges_only_the_ending(&self) -> bool {
        matches!(
            self.parts.as_slice(),
            [PartScore {
                part: crate::verdict::Part::Ending,
                ..
            }]
        )
    }

    /// The case's comparison options, as far as this referee knows
    /// their names.
    pub(crate) fn options(&self) -> crate::compare::Options {
        self.compare
            .iter()
            .fold(crate::compare::Options::default(), |options, name| {
                options.relax(name).unwrap_or(options)
            })
    }
}

impl ExploredGame {
    /// The comparison's options, as far as this referee knows their names.
    pub(crate) fn options(&self) -> crate::compare::Options {
        self.compare
            .iter()
            .fold(crate::compare::Options::default(), |options, name| {
                options.relax(name).unwrap_or(options)
            })
    }

    /// The game as typed (one line each, an empty line shown as such), or
    /// the call and its board.
    pub fn typed(&self) -> String {
        match (&self.input, &self.call) {
            (Some(lines), _) if lines.is_empty() => "(nothing typed)".into(),
            (Some(lines), _) => lines
                .iter()
                .map(|l| {
                    if l.is_empty() {
                        "(an empty line)"
                    } else {
                        l.as_str()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n"),
            (None, Some(call)) => call.clone(),
            (None, None) => String::new(),
        }
    }
}

impl SubmissionResult {
    /// The share of the points earned, 0 to 1.
    pub(crate) fn fraction(&self) -> f64 {
        if self.max_score > 0.0 {
            self.score / self.max_score
        } else {
            0.0
        }
    }
}

/// A score that may be `null` (a submission that was not graded).
fn zero_when_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(0.0))
}

/// The longest transcript kept in results, in bytes; reports show the
/// start of longer ones and say so.
pub const TRANSCRIPT_LIMIT: usize = 64 * 1024;

/// `text`, cut to [`TRANSCRIPT_LIMIT`] at a character boundary, with a
/// note when cut.
pub fn trimmed(text: &str) -> String {
    if text.len() <= TRANSCRIPT_LIMIT {
        return text.to_string();
    }
    let mut end = TRANSCRIPT_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n[… {} more bytes not kept]\n",
        &text[..end],
        text.len() - end
    )
}

/// The most lines of compiler messages kept: the first errors are the
/// ones that matter, and a student reads no further.
pub const COMPILER_LINES: usize = 60;
/// The most bytes of compiler messages kept.
pub const COMPILER_BYTES: usize = 8 * 1024;

/// A compiler's messages, cut at a line's end to [`COMPILER_LINES`] lines
/// and [`COMPILER_BYTES`] bytes, with a note saying how much was left out.
pub fn compiler_messages(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = String::new();
    let mut count = 0;
    for line in &lines {
        if count == COMPILER_LINES || kept.len() + line.len() + 1 > COMPILER_BYTES {
            break;
        }
        kept.push_str(line);
        kept.push('\n');
        count += 1;
    }
    if count == 0 && !lines.is_empty() {
        // One enormous line: keep its start, at a character boundary.
        let mut end = COMPILER_BYTES.min(lines[0].len());
        while !lines[0].is_char_boundary(end) {
            end -= 1;
        }
        kept = format!("{}…\n", &lines[0][..end]);
        count = 1;
    }
    if count < lines.len() {
        let left = lines.len() - count;
        kept.push_str(&format!(
            "[… {left} more line{} of compiler messages not shown]\n",
            if left == 1 { "" } else { "s" }
        ));
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_messages_are_cut_at_a_line() {
        let long: String = (0..500).map(|i| format!("line {i}\n")).collect();
        let kept = compiler_messages(&long);
        assert!(kept.starts_with("line 0\nline 1\n"));
        assert!(kept.ends_with("line 59\n[… 440 more lines of compiler messages not shown]\n"));
        assert_eq!(compiler_messages("a: error\n"), "a: error\n");
        let huge = "x".repeat(100_000);
        assert!(compiler_messages(&huge).len() < COMPILER_BYTES + 10);
    }
}
