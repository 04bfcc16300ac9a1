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
use crate::compare::LineDiff;
use crate::diagnose::diagnosis::Diagnosis;
use crate::transcript::{self, TermLine};
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
    /// The whole class graded (of which a shard is part), so that
    /// `merge` tells the shards of one class from those of another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<ClassInfo>,
    /// What a merge lacked (`merge --allow-missing`): these reports do
    /// not hold every student.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<Missing>,
    /// Every submission, sorted by id.
    pub submissions: Vec<SubmissionResult>,
}

impl ClassResults {
    /// The class's keys without its submissions (a copy of those would
    /// take as much memory as the class).
    pub fn header(&self) -> ClassResults {
        ClassResults {
            game: self.game.clone(),
            schema_version: self.schema_version,
            referee_version: self.referee_version.clone(),
            suite: self.suite.clone(),
            shard: self.shard.clone(),
            class: self.class.clone(),
            missing: self.missing.clone(),
            submissions: Vec::new(),
        }
    }
}

/// The class a run was given, before `--shard` chose its part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassInfo {
    /// Its students.
    pub students: usize,
    /// A digest of their ids (the same class gives the same digest on
    /// every machine, wherever its folder is).
    pub digest: String,
}

/// The shards a merge did not have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Missing {
    /// Each missing shard, `K/N`.
    pub shards: Vec<String>,
    /// The students of the class not in the merged reports.
    pub students: usize,
}

impl Missing {
    /// "Shards 3/4 and 4/4 were not merged: 6 of the class's 21 students
    /// are not in these reports."
    pub fn sentence(&self, class_students: Option<usize>) -> String {
        let shards = match self.shards.as_slice() {
            [one] => format!("Shard {one} was"),
            [rest @ .., last] => format!("Shards {} and {last} were", rest.join(", ")),
            [] => "No shard was".to_string(),
        };
        let of = class_students.map_or(String::new(), |n| format!(" of the class's {n}"));
        format!(
            "{shards} not merged: {}{of} student{} {} not in these reports.",
            self.students,
            if self.students == 1 { "" } else { "s" },
            if self.students == 1 { "is" } else { "are" }
        )
    }
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
    /// Why not, or the compiler's messages; for a program graded, what
    /// was done for it to build (a note), if anything.
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
    /// Where the program breaks (memory errors, undefined behaviour, an
    /// uncaught exception), each said once, in the order found; never
    /// part of the score (see [`crate::diagnose`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnosis>,
    /// Why it has no diagnoses where some were looked for (its checked
    /// build could not be made or run here): referee's trouble, never the
    /// student's, so the TA's page and the summary say it and a
    /// student's feedback does not. The grade stands all the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnosis_trouble: Option<String>,
    /// Set on a compact result ([`SubmissionResult::compact`]), whose
    /// `cases` are left out: what the class-wide reports count of them.
    /// Never written to a file.
    #[serde(skip)]
    pub brief: Option<Brief>,
}

/// A case's outcome in brief: all the class-wide reports (the class page,
/// the gradebooks, the summary) read of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// The case's name, shared by every student's mark of that case.
    pub name: std::sync::Arc<str>,
    /// The verdict.
    pub verdict: Verdict,
    /// Points earned.
    pub score: f64,
}

/// What a compact result keeps of its cases.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Brief {
    /// Each case's mark, in the result's order.
    pub marks: Vec<Mark>,
    /// [`SubmissionResult::not_shown`] of the whole result.
    pub not_shown: u64,
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
    /// The reference's terminal transcript (cut to size), for a whole
    /// game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The program's terminal transcript (cut to size), for a whole game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
    /// Bytes of the transcripts and the explanation left out for size.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub not_shown: u64,
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
    /// The command line the case ran, as a student types it (`./caesar
    /// 13`), when the case gives arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The verdict in a sentence.
    pub reason: String,
    /// The explanation of a failure, as plain text (empty on a pass).
    #[serde(default)]
    pub explanation: String,
    /// The reference's terminal transcript, for failures (cut to size,
    /// see [`kept_transcripts`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The program's terminal transcript, for failures (cut to size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
    /// Bytes of the transcripts and the explanation that reports leave
    /// out to keep within their limits (0 when nothing was cut).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub not_shown: u64,
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
    /// The status the program exited with, when it exited (not when it
    /// was stopped, killed or still waiting for input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_status: Option<i32>,
    /// The status the reference exits with on this case, when it exits
    /// (not when it waits for more input, nor for a function call).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_exit_status: Option<i32>,
    /// For a failed case, each output file (of `outputs`, compared as
    /// text) that is not as the reference's: both versions, cut to size
    /// as transcripts are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<KeptFile>,
    /// For a failed public case, the files the case gave the program
    /// (`files:`), each cut to [`GIVEN_ROOM`]; never for a hidden case.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub given: Vec<GivenFile>,
}

/// An output file of a failed case, the reference's and the program's,
/// as reports keep them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptFile {
    /// Its name in the working folder.
    pub name: String,
    /// The reference's, cut to size as a transcript is.
    pub expected: String,
    /// The program's, cut to size (empty when missing).
    pub actual: String,
    /// True when the program left no plain file by that name (nothing,
    /// a link, a folder, one too large): the reference's is shown alone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub missing: bool,
    /// True for what the program printed on stderr, where the case
    /// compares it apart from stdout (`stderr: apart` or `only`): shown
    /// as a file is, under `compare`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stderr: bool,
    /// How stderr was compared, where it is ([`KeptFile::stderr`]): the
    /// differences ignored, named as a case result's `compare` names them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<String>,
}

impl KeptFile {
    /// What it was compared under: stderr under its own options, a file
    /// under the case's (`case`).
    pub(crate) fn options(&self, case: crate::compare::Options) -> crate::compare::Options {
        if !self.stderr {
            return case;
        }
        crate::compare::Options::from_names(&self.compare)
    }

    /// How reports name it: a file by its name, stderr as what it is.
    pub fn title(&self) -> String {
        if self.stderr {
            "What was printed on stderr".into()
        } else {
            self.name.clone()
        }
    }
}

/// A file a case gave the program, as reports keep it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GivenFile {
    /// Where it was put, relative to the working folder.
    pub name: String,
    /// Its text, control characters escaped, cut to [`GIVEN_ROOM`].
    pub text: String,
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
        crate::compare::Options::from_names(&self.compare)
    }
}

impl ExploredGame {
    /// Leaves out what only the student's own reports show (the
    /// transcripts, the explanation, the replay case): what a compact
    /// result keeps.
    fn slim(&mut self) {
        self.input = None;
        self.call = None;
        self.explanation = String::new();
        self.expected = None;
        self.actual = None;
        self.prompts = None;
        self.case = String::new();
    }

    /// The comparison's options, as far as this referee knows their names.
    pub(crate) fn options(&self) -> crate::compare::Options {
        crate::compare::Options::from_names(&self.compare)
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
    /// The result as a class's reports hold it while they are written, a
    /// student at a time: everything but the cases, which only their marks
    /// stand for, and the heavy parts of an exploration's game (a few
    /// hundred bytes a student, so a class of any size fits in little
    /// memory). The whole result is read again from its details file for
    /// the reports that show it (see `export::folder::publish`).
    pub fn compact(&self) -> SubmissionResult {
        let marks = self
            .marks()
            .map(|(name, verdict, score)| Mark {
                name: shared_name(name),
                verdict,
                score,
            })
            .collect();
        let brief = Brief {
            marks,
            not_shown: self.not_shown(),
        };
        let mut exploration = self.exploration.clone();
        if let Some(found) = exploration.as_mut().and_then(|e| e.found.as_mut()) {
            found.slim();
        }
        // Only why it could not be graded is shown class-wide, in a line.
        let message = match self.status {
            Status::Error | Status::NotGraded => self.message.clone(),
            Status::Graded | Status::CompileError => None,
        };
        SubmissionResult {
            id: self.id.clone(),
            name: self.name.clone(),
            lms: self.lms.clone(),
            path: self.path.clone(),
            score: self.score,
            max_score: self.max_score,
            status: self.status,
            message,
            fingerprint: self.fingerprint.clone(),
            cases: Vec::new(),
            exploration,
            // The class page says who has a diagnosis, and of what.
            diagnostics: self.diagnostics.clone(),
            // And the TA's page why someone has none.
            diagnosis_trouble: self.diagnosis_trouble.clone(),
            brief: Some(brief),
        }
    }

    /// Whether this is a compact result, its cases left out.
    pub fn is_compact(&self) -> bool {
        self.brief.is_some()
    }

    /// `full`, this student's whole result as its details file kept it,
    /// with what was learnt of the student since (a roster's name and
    /// learning system id).
    pub fn completed_by(&self, mut full: SubmissionResult) -> SubmissionResult {
        full.name.clone_from(&self.name);
        full.lms.clone_from(&self.lms);
        full
    }

    /// Each case's name, verdict and points, in the result's order, from
    /// its cases or, on a compact result, its marks.
    pub fn marks(&self) -> Box<dyn Iterator<Item = (&str, Verdict, f64)> + '_> {
        match &self.brief {
            Some(brief) => Box::new(brief.marks.iter().map(|m| (&*m.name, m.verdict, m.score))),
            None => Box::new(
                self.cases
                    .iter()
                    .map(|c| (c.name.as_str(), c.verdict, c.score)),
            ),
        }
    }

    /// The verdict and points of the case named `name`, if it ran.
    pub fn mark_of(&self, name: &str) -> Option<(Verdict, f64)> {
        self.marks()
            .find(|(n, _, _)| *n == name)
            .map(|(_, verdict, score)| (verdict, score))
    }

    /// How many of its cases passed.
    pub fn passed(&self) -> usize {
        self.marks().filter(|(_, v, _)| *v == Verdict::Pass).count()
    }

    /// Whether every case it ran passed.
    pub fn passes_every_case(&self) -> bool {
        self.marks().all(|(_, v, _)| v == Verdict::Pass)
    }

    /// Bytes its reports leave out to keep within their limits.
    pub fn not_shown(&self) -> u64 {
        if let Some(brief) = &self.brief {
            return brief.not_shown;
        }
        let explored = self
            .exploration
            .as_ref()
            .and_then(|e| e.found.as_ref())
            .map_or(0, |f| f.not_shown);
        self.cases.iter().map(|c| c.not_shown).sum::<u64>() + explored
    }

    /// The share of the points earned, 0 to 1.
    pub(crate) fn fraction(&self) -> f64 {
        if self.max_score > 0.0 {
            self.score / self.max_score
        } else {
            0.0
        }
    }
}

/// `name` as one shared string: a class's students mark the same few
/// cases, so each case's name is held once however large the class.
fn shared_name(name: &str) -> std::sync::Arc<str> {
    use std::collections::HashSet;
    use std::sync::{Arc, Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashSet<Arc<str>>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(name) = names.get(name) {
        return Arc::clone(name);
    }
    let shared: Arc<str> = Arc::from(name);
    names.insert(Arc::clone(&shared));
    shared
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A score that may be `null` (a submission that was not graded).
fn zero_when_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(0.0))
}

/// The most an explanation holds in any report, in bytes: it is kept in
/// `results.json` and `junit.xml` for every case of every student.
pub const EXPLANATION_ROOM: usize = 4 * 1024;

/// The most a case's reason (its verdict in a sentence) holds: it can
/// quote what a program raised.
pub const REASON_ROOM: usize = 1024;

/// The most bytes of transcripts one student's results keep (both sides
/// of every failed case together): past it, later cases keep their
/// explanation and no transcripts. Public cases come first, since the
/// student's feedback shows theirs.
pub const STUDENT_TRANSCRIPTS: usize = 128 * 1024;

/// The most of one given file (a case's `files:`) a failed case keeps:
/// every failing student's results hold a copy, and a student needs its
/// start to see what the program was given.
pub const GIVEN_ROOM: usize = 2 * 1024;

/// The transcripts reports keep of a failed run.
#[derive(Clone, Debug)]
pub struct Kept {
    /// The reference's.
    pub expected: String,
    /// The program's.
    pub actual: String,
    /// The bytes of both left out.
    pub not_shown: u64,
    /// Under `prompts`, both transcripts' turns as grading compared
    /// them, by the kept transcripts' lines.
    pub prompts: Option<Prompts>,
}

/// The transcripts reports keep of a failed run: the reference's and the
/// program's, each whole when small, else cut around where they first
/// differ (under the case's comparison), with how many bytes were left
/// out, and under `prompts` where their turns and prompts are: `want`
/// and `got` are both terminals and `diff` their diff under the case's
/// options (see [`crate::grading::Diffed`]).
pub fn kept_transcripts(want: &[TermLine], got: &[TermLine], diff: &LineDiff) -> Kept {
    let focus = crate::compare::focus(diff, want, got);
    let expected = transcript::excerpt(want, focus.map(|f| f.0));
    let actual = transcript::excerpt(got, focus.map(|f| f.1));
    let prompts = diff.turns.as_ref().map(|(want_turns, got_turns)| Prompts {
        expected: kept_turns(want_turns, &expected.lines, want.len()),
        actual: kept_turns(got_turns, &actual.lines, got.len()),
    });
    Kept {
        expected: expected.text,
        actual: actual.text,
        not_shown: expected.not_shown + actual.not_shown,
        prompts,
    }
}

/// Output file `name` of a failed case, the reference's bytes `want`
/// and the program's `got`, kept as transcripts are (whole when small,
/// else cut around where they first differ under `options`); with the
/// bytes left out.
pub fn kept_file(
    name: &str,
    want: &[u8],
    got: &[u8],
    options: &crate::compare::Options,
) -> (KeptFile, u64) {
    let (want, got) = (transcript::of_output(want), transcript::of_output(got));
    let diff = crate::compare::terminal_diff(&want, &got, options, &[]);
    let kept = kept_transcripts(&want, &got, &diff);
    let file = KeptFile {
        name: name.to_string(),
        expected: kept.expected,
        actual: kept.actual,
        missing: false,
        stderr: false,
        compare: Vec::new(),
    };
    (file, kept.not_shown)
}

/// A given file as reports keep it: `head`, its first bytes (at most
/// [`GIVEN_ROOM`]), shown as a transcript shows output, and a mark of
/// the rest of its `size` bytes left out.
pub fn given_file(name: &str, head: &[u8], size: u64) -> GivenFile {
    let head = &head[..head.len().min(GIVEN_ROOM)];
    let mut text = transcript::printable(&transcript::of_output(head));
    let left = size.saturating_sub(head.len() as u64);
    if left > 0 {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        let count = crate::text::visible::bytes_count(left);
        text.push_str(&format!("  … {count} more not shown\n"));
    }
    GivenFile {
        name: name.to_string(),
        text,
    }
}

/// `turns` by the lines of a kept transcript (`shown`: the terminal line
/// each kept line shows); what was left out is left out of them too.
fn kept_turns(
    turns: &crate::compare::Turns,
    shown: &[Option<usize>],
    n: usize,
) -> crate::compare::Turns {
    let mut at = vec![None; n];
    for (kept, line) in shown.iter().enumerate() {
        if let Some(slot) = line.and_then(|l| at.get_mut(l)) {
            *slot = Some(kept);
        }
    }
    let map = |lines: &[usize]| -> Vec<usize> {
        lines
            .iter()
            .filter_map(|&l| at.get(l).copied().flatten())
            .collect()
    };
    crate::compare::Turns {
        reads: map(&turns.reads),
        prompts: map(&turns.prompts),
        parts: turns
            .parts
            .iter()
            .filter_map(|p| {
                Some(crate::compare::turns::Part {
                    line: at.get(p.line).copied().flatten()?,
                    ..*p
                })
            })
            .collect(),
    }
}

/// `text` cut to at most `room` bytes, with a mark that says how much
/// was left out: at a line's end for text of several lines, else at a
/// character. Returns the bytes left out.
pub fn limited(text: &mut String, room: usize) -> u64 {
    if text.len() <= room {
        return 0;
    }
    let mut end = room;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let line_end = text[..end].rfind('\n').map(|at| at + 1);
    let end = line_end.unwrap_or(end);
    let left = (text.len() - end) as u64;
    text.truncate(end);
    let count = crate::text::visible::bytes_count(left);
    match line_end {
        Some(_) => text.push_str(&format!("  … {count} more not shown\n")),
        None => text.push_str(&format!("… {count} more not shown")),
    }
    left
}

/// Keeps one student's transcripts (and output files) within
/// [`STUDENT_TRANSCRIPTS`]: public cases first, then hidden ones, in the suite's order; a case
/// past the budget keeps none, and what it lost is counted in its
/// `not_shown`.
pub fn within_budget(cases: &mut [CaseResult]) {
    let mut order: Vec<usize> = (0..cases.len()).collect();
    order.sort_by_key(|&i| cases[i].visibility != Visibility::Public);
    let mut used = 0;
    for i in order {
        let case = &mut cases[i];
        let files: usize = case
            .files
            .iter()
            .map(|f| f.expected.len() + f.actual.len())
            .sum();
        let size = case.expected.as_ref().map_or(0, String::len)
            + case.actual.as_ref().map_or(0, String::len)
            + files;
        if used + size <= STUDENT_TRANSCRIPTS {
            used += size;
            continue;
        }
        case.expected = None;
        case.actual = None;
        case.prompts = None;
        case.files.clear();
        case.not_shown += size as u64;
    }
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
    fn explanations_and_reasons_are_cut_to_their_room_with_the_count() {
        let mut explanation: String = (0..1000).map(|i| format!("  line {i}\n")).collect();
        let whole = explanation.len();
        let left = limited(&mut explanation, EXPLANATION_ROOM);
        assert!(explanation.len() <= EXPLANATION_ROOM + 40);
        let kept = explanation.len() - explanation.lines().last().unwrap().len() - 1;
        assert_eq!(kept as u64 + left, whole as u64);
        assert!(explanation.ends_with(&format!(
            "  … {} more not shown\n",
            crate::text::visible::bytes_count(left)
        )));
        let mut reason = format!("raised ValueError: {}", "é".repeat(5000));
        let left = limited(&mut reason, REASON_ROOM);
        assert!(reason.len() < REASON_ROOM + 40 && left > 8000, "{reason}");
        let mut short = "fine".to_string();
        assert_eq!(limited(&mut short, 10), 0);
        assert_eq!(short, "fine");
    }

    #[test]
    fn prompts_follow_the_lines_a_cut_transcript_keeps() {
        let turns = crate::compare::Turns {
            reads: vec![1, 500, 900],
            prompts: vec![0, 1, 499, 500, 900],
            parts: vec![crate::compare::turns::Part {
                line: 499,
                from: 2,
                to: 9,
            }],
        };
        // Lines 0 and 1, a mark, lines 498 to 500, a mark.
        let shown = [
            Some(0),
            Some(1),
            None,
            Some(498),
            Some(499),
            Some(500),
            None,
        ];
        assert_eq!(
            kept_turns(&turns, &shown, 1000),
            crate::compare::Turns {
                reads: vec![1, 5],
                prompts: vec![0, 1, 4, 5],
                parts: vec![crate::compare::turns::Part {
                    line: 4,
                    from: 2,
                    to: 9,
                }],
            }
        );
    }

    #[test]
    fn a_students_transcripts_keep_within_budget_public_cases_first() {
        let case = |name: &str, visibility, size: usize| CaseResult {
            name: name.into(),
            verdict: Verdict::WrongOutput,
            score: 0.0,
            max_score: 1.0,
            wall_ms: 1,
            visibility,
            command: None,
            reason: String::new(),
            explanation: String::new(),
            expected: Some("e".repeat(size)),
            actual: Some("a".repeat(size)),
            not_shown: 0,
            compare: Vec::new(),
            parts: Vec::new(),
            exit_status: None,
            reference_exit_status: None,
            files: Vec::new(),
            given: Vec::new(),
            prompts: Some(Prompts {
                expected: crate::compare::Turns::default(),
                actual: crate::compare::Turns::default(),
            }),
        };
        let half = STUDENT_TRANSCRIPTS / 4;
        let mut cases = vec![
            case("hidden-1", Visibility::Hidden, half),
            case("hidden-2", Visibility::Hidden, half),
            case("public", Visibility::Public, half),
        ];
        within_budget(&mut cases);
        assert!(cases[2].actual.is_some(), "the public case first");
        assert!(cases[0].actual.is_some());
        assert!(cases[1].actual.is_none() && cases[1].expected.is_none());
        assert!(cases[1].prompts.is_none() && cases[0].prompts.is_some());
        assert_eq!(cases[1].not_shown, 2 * half as u64);
        // Output files count toward the budget and go with the transcripts.
        let mut cases = vec![
            case("public", Visibility::Public, half),
            case("files", Visibility::Public, 0),
        ];
        cases[1].files = vec![KeptFile {
            name: "out.txt".into(),
            expected: "e".repeat(STUDENT_TRANSCRIPTS),
            actual: String::new(),
            missing: true,
            stderr: false,
            compare: Vec::new(),
        }];
        within_budget(&mut cases);
        assert!(cases[0].actual.is_some() && cases[1].files.is_empty());
        assert_eq!(cases[1].not_shown, STUDENT_TRANSCRIPTS as u64);
    }

    #[test]
    fn output_files_and_given_files_are_kept_within_their_bounds() {
        let want: Vec<u8> = (0..100_000)
            .flat_map(|i| format!("row {i}\n").into_bytes())
            .collect();
        let mut got = want.clone();
        got[50_000] = b'X';
        let options = crate::compare::Options::default();
        let (file, left) = kept_file("out.txt", &want, &got, &options);
        let room = transcript::excerpt::TRANSCRIPT_ROOM + 1024;
        assert!(file.expected.len() <= room && file.actual.len() <= room);
        assert!(file.actual.contains('X'), "the difference is kept");
        assert!(left > 1_000_000, "{left}");
        let (small, left) = kept_file("a.csv", b"a\n b\n", b"a\nb\n", &options);
        assert_eq!(
            (small.expected.as_str(), small.actual.as_str(), left),
            ("a\n b\n", "a\nb\n", 0)
        );
        let head = vec![b'x'; GIVEN_ROOM * 3];
        let given = given_file("in.txt", &head, 1 << 20);
        assert!(given.text.len() < GIVEN_ROOM + 60, "{}", given.text.len());
        let more = crate::text::visible::bytes_count((1 << 20) - GIVEN_ROOM as u64);
        assert!(
            given
                .text
                .ends_with(&format!("  … {more} more not shown\n")),
            "{}",
            given.text
        );
        assert_eq!(given_file("b", b"a\x1b\n", 3).text, "a\\x1b\n");
    }

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
