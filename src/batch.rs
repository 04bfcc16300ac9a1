//! Grading a class: every submission built once and run on every case,
//! on every core, with the reference's transcripts computed once per
//! case; results kept per submission so a rerun skips what has not
//! changed and an interruption keeps what was graded.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::case::Suite;
use crate::class::{self, Entry};
use crate::explore;
use crate::fault::Fault;
use crate::grading::{self, CaseOutcome, Expected, Graded, Prepared, Settings, Status as Built};
use crate::queue;
use crate::results::{
    self, CaseInfo, CaseResult, ClassResults, Exploration, GivenFile, KeptFile, RegionInfo, Status,
    SubmissionResult, SuiteInfo,
};
use crate::submission;
use crate::text;

/// Where each submission's full results are kept in the output folder.
pub const DETAILS: &str = "details";

/// What a batch needs besides the class.
pub struct Batch<'a> {
    /// The suite.
    pub suite: &'a Suite,
    /// Every case, with the reference's run of it.
    pub prepared: &'a [Prepared<'a>],
    /// How to grade each submission (its `jobs` is per submission).
    pub settings: Settings,
    /// Submissions graded at once.
    pub jobs: usize,
    /// The output folder (for the per-submission cache).
    pub out: &'a Path,
    /// Regrade even what the cache holds.
    pub force: bool,
    /// Set to stop: no new submission starts; those in progress finish,
    /// unless a run of theirs failed after it was set (see
    /// [`crate::grading::Graded::disturbed`]). [`crate::run::HALT`] stops
    /// them too.
    pub stop: &'a AtomicBool,
    /// How to explore each graded submission on generated games, when
    /// asked (`grade --explore`); its `jobs` is per submission.
    pub explore: Option<explore::Settings>,
    /// How results explain what failed (see [`Explain`]).
    pub explain: Explain,
}

/// How results explain what failed, in plain text. Explaining is
/// presentation's work: the command line hands it down, so that grading a
/// class does not depend on the layer above it.
#[derive(Clone, Copy)]
pub struct Explain {
    /// A failed case.
    pub case: fn(&Suite, &Prepared<'_>, &CaseOutcome) -> String,
    /// A game exploring found played differently.
    pub found: explore::kept::ExplainFound,
}

/// What happens as submissions finish, for progress reports.
pub trait Progress: Sync {
    /// A submission is done (graded, taken from the cache, or not graded).
    fn finished(&self, result: &SubmissionResult, cached: bool);
}

impl Batch<'_> {
    /// Grades `entries`, `jobs` at a time; results in the entries' order,
    /// compact ([`SubmissionResult::compact`]) where their whole result
    /// is kept in the output folder's `details/`.
    pub fn run(&self, entries: &[Entry], progress: &dyn Progress) -> Vec<SubmissionResult> {
        let mut programs: Vec<&Path> = self.suite.generator.iter().map(|p| p.as_path()).collect();
        if let crate::case::Reference::Program(program) = &self.suite.reference {
            programs.push(program);
        }
        let suite_print = class::suite_fingerprint(&self.suite.dir, &programs);
        let shared = submission::SharedBuilds::for_class(
            entries
                .iter()
                .filter_map(|e| submission::locate_in(&e.path, &self.suite.layout).ok()),
        );
        let spare = self.settings.spare.as_deref();
        let done = queue::map_lending(entries, self.jobs, None, spare, |entry| {
            let (result, cached) = self.one(entry, &suite_print, &shared);
            progress.finished(&result, cached);
            result
        });
        done.into_iter()
            .zip(entries)
            .map(|(result, entry)| result.unwrap_or_else(|| self.not_graded(entry, String::new())))
            .collect()
    }

    /// One submission: from the cache when nothing changed, else graded
    /// (and cached, unless grading was interrupted).
    fn one(
        &self,
        entry: &Entry,
        suite_print: &str,
        shared: &submission::SharedBuilds,
    ) -> (SubmissionResult, bool) {
        let mut flags = self.settings.flags.fingerprinted();
        if let Some(explore) = &self.explore {
            // Results explored with other games are other results.
            flags.push(format!("--explore={:?}/{}", explore.budget, explore.seed));
        }
        let fingerprint = class::fingerprint(&entry.path, suite_print, &flags);
        // What is kept in details/ is held compact until the reports are
        // written (they read it back a student at a time).
        if !self.force {
            if let Some(cached) = self.cached(entry, &fingerprint) {
                return (cached.compact(), true);
            }
        }
        if self.stop.load(Ordering::Relaxed) {
            return (self.not_graded(entry, fingerprint), false);
        }
        let (mut result, keep) = self.grade(entry, shared);
        result.fingerprint = fingerprint;
        if keep && result.status != Status::NotGraded && self.store(&result) {
            return (result.compact(), false);
        }
        (result, false)
    }

    /// Grades one submission; whether its result may be kept for reruns
    /// (not when the grader failed on it: a rerun tries again).
    fn grade(&self, entry: &Entry, shared: &submission::SharedBuilds) -> (SubmissionResult, bool) {
        let found = match submission::locate_in(&entry.path, &self.suite.layout) {
            Ok(found) => found,
            Err(error) => {
                let keep = error.fault() != Fault::Grader;
                return (
                    self.ungradable(entry, Status::Error, error.to_string()),
                    keep,
                );
            }
        };
        let halt = &crate::run::HALT;
        let (suite, explain) = (self.suite, self.explain);
        // Each case becomes its bounded result as soon as it is judged, and
        // its run's output is let go: a program that floods every case
        // holds one case's output at a time.
        let digest = |prepared: &Prepared<'_>, outcome: &mut CaseOutcome| {
            let result = case_result(suite, prepared, outcome, explain);
            if let Some(run) = outcome.run.as_mut() {
                run.transcript = crate::transcript::Transcript::default();
            }
            // The terminals the explanation and the kept transcripts shared.
            outcome.diffed.take();
            // And the files the run left, once explained.
            outcome.files = Vec::new();
            result
        };
        let graded = grading::grade_each(
            &found,
            self.suite,
            self.prepared,
            &self.settings,
            halt,
            Some(shared),
            &digest,
        );
        if crate::run::halted() {
            return (self.not_graded(entry, String::new()), false);
        }
        let suspect = match &graded {
            Ok(Some((graded, _))) => graded.signaled_to_stop(),
            Ok(None) => false,
            Err(error) => error.fault() == Fault::Grader,
        };
        if suspect {
            self.await_stop();
        }
        let stopping = self.stop.load(Ordering::Relaxed);
        let result = match graded {
            Err(error) if stopping && error.fault() == Fault::Grader => {
                return (self.not_graded(entry, String::new()), false);
            }
            Err(error) => {
                let keep = error.fault() != Fault::Grader;
                return (
                    self.ungradable(entry, Status::Error, error.to_string()),
                    keep,
                );
            }
            Ok(None) => self.not_graded(entry, String::new()),
            // Stopping a job signals every process of it: a run or a build
            // that failed after the stop may have been killed by it.
            Ok(Some((graded, _))) if stopping && graded.disturbed() => {
                self.not_graded(entry, String::new())
            }
            Ok(Some((graded, cases))) => {
                let mut result = self.convert(entry, &graded, cases);
                if let (Status::Graded, Some(built)) = (&result.status, &graded.built) {
                    if let Some(exploration) = self.exploration(&found, built) {
                        result.score = text::round(result.score + exploration.score);
                        result.exploration = Some(exploration);
                    }
                }
                result
            }
        };
        (result, true)
    }

    /// Waits a little for the stop, when a run or a build died of a
    /// signal a job is stopped with: Slurm signals every process of the
    /// job at once, and a compiler or a program can die of it before
    /// referee's own handler has set the stop, which would keep a
    /// verdict the job's stop caused (seen: a correct program kept as
    /// `compile-error`). Rare otherwise (a program that raises SIGTERM),
    /// so the wait costs nothing in a normal class.
    fn await_stop(&self) {
        let start = std::time::Instant::now();
        while !self.stop.load(Ordering::Relaxed) && start.elapsed() < STOP_GRACE {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Explores a graded submission, when asked, with the program its
    /// cases ran.
    fn exploration(
        &self,
        found: &submission::Submission,
        built: &submission::Built,
    ) -> Option<Exploration> {
        let settings = self.explore.as_ref()?;
        let explored = explore::explore(built, self.suite, settings).map_err(|e| e.to_string());
        match explored {
            Ok(report) => Some(explore::kept::exploration(
                &report,
                self.suite,
                self.explain.found,
            )),
            Err(why) => {
                eprintln!(
                    "referee: warning: cannot explore {}: {why}",
                    found.file.display()
                );
                None
            }
        }
    }

    /// The points a submission can earn: the cases', and the suite's
    /// `explore_points` when exploring.
    fn max_score(&self) -> f64 {
        let explored = if self.explore.is_some() {
            self.suite.explore_points
        } else {
            0.0
        };
        text::round(self.suite.max_points() + explored)
    }

    /// A submission's results as reports see them, `cases` its cases'.
    fn convert(
        &self,
        entry: &Entry,
        graded: &Graded,
        mut cases: Vec<CaseResult>,
    ) -> SubmissionResult {
        let (status, message) = match &graded.status {
            // What was done for it to build at all (a Java file named
            // otherwise than its public class), and what to change.
            Built::Graded => {
                let notes: String = graded
                    .warnings
                    .lines()
                    .filter(|l| l.starts_with("note: "))
                    .map(|l| format!("{l}\n"))
                    .collect();
                (Status::Graded, (!notes.is_empty()).then_some(notes))
            }
            Built::CompileError(messages) => (Status::CompileError, Some(messages.clone())),
        };
        results::within_budget(&mut cases);
        SubmissionResult {
            score: text::round(graded.score()),
            status,
            message: message.map(|m| results::compiler_messages(&m)),
            cases,
            diagnostics: graded.diagnostics.clone(),
            // Why it has no diagnoses where some were looked for: the
            // TA's to know, never the student's (the grade stands).
            diagnosis_trouble: graded
                .diagnosis_trouble
                .as_deref()
                .map(results::compiler_messages),
            ..self.blank(entry)
        }
    }

    fn ungradable(&self, entry: &Entry, status: Status, message: String) -> SubmissionResult {
        SubmissionResult {
            status,
            message: Some(message),
            ..self.blank(entry)
        }
    }

    /// A result for `entry` with nothing graded yet.
    fn blank(&self, entry: &Entry) -> SubmissionResult {
        SubmissionResult {
            id: entry.id.clone(),
            name: (entry.name != entry.id).then(|| entry.name.clone()),
            lms: entry.lms.clone(),
            path: entry.path.display().to_string(),
            score: 0.0,
            max_score: self.max_score(),
            status: Status::NotGraded,
            message: None,
            fingerprint: String::new(),
            cases: Vec::new(),
            exploration: None,
            diagnostics: Vec::new(),
            diagnosis_trouble: None,
            brief: None,
        }
    }

    fn not_graded(&self, entry: &Entry, fingerprint: String) -> SubmissionResult {
        let mut result = self.ungradable(
            entry,
            Status::NotGraded,
            "grading was interrupted before this submission".into(),
        );
        result.fingerprint = fingerprint;
        result
    }

    fn detail_file(&self, id: &str) -> PathBuf {
        detail_file(self.out, id)
    }

    fn cached(&self, entry: &Entry, fingerprint: &str) -> Option<SubmissionResult> {
        let text = fs::read_to_string(self.detail_file(&entry.id)).ok()?;
        let result: SubmissionResult = serde_json::from_str(&text).ok()?;
        (result.fingerprint == fingerprint && result.path == entry.path.display().to_string())
            .then_some(result)
    }

    /// Keeps `result` in its details file; whether it could.
    fn store(&self, result: &SubmissionResult) -> bool {
        match write_detail(self.out, result) {
            Ok(()) => true,
            Err(e) => {
                eprintln!(
                    "referee: warning: cannot keep {}: {e}",
                    self.detail_file(&result.id).display()
                );
                false
            }
        }
    }
}

/// How long [`Batch::await_stop`] waits for a job's stop to reach
/// referee after it reached a child.
const STOP_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// Where a submission's whole result (transcripts included) is kept in an
/// output folder: `details/<id>.json`.
pub fn detail_file(out: &Path, id: &str) -> PathBuf {
    out.join(DETAILS).join(format!("{id}.json"))
}

/// Writes a submission's whole result to its [`detail_file`], whole but
/// not yet flushed to disk: publishing the reports flushes every details
/// file of the class at once ([`crate::atomic::flush_filesystem`]), so
/// grading does not wait on the disk once a student. A details file a
/// crash of the machine cut short does not parse or match, and its
/// student is graded again.
pub fn write_detail(out: &Path, result: &SubmissionResult) -> std::io::Result<()> {
    fs::create_dir_all(out.join(DETAILS))?;
    let json = serde_json::to_vec_pretty(result).map_err(std::io::Error::other)?;
    crate::atomic::replace(&detail_file(out, &result.id), &json)
}

/// `student`'s whole result, when it is compact: what its details file
/// in `out` keeps, with what was learnt of the student since (see
/// [`SubmissionResult::completed_by`]); why not, when that file is gone
/// or holds another grading.
pub fn whole_result(
    out: &Path,
    student: &SubmissionResult,
) -> Result<SubmissionResult, DetailError> {
    if !student.is_compact() {
        return Ok(student.clone());
    }
    let file = detail_file(out, &student.id);
    let bytes = fs::read(&file).map_err(|source| DetailError::Unreadable {
        file: file.clone(),
        source,
    })?;
    let full: SubmissionResult =
        serde_json::from_slice(&bytes).map_err(|source| DetailError::Unparsable {
            file: file.clone(),
            source,
        })?;
    if full.fingerprint != student.fingerprint {
        return Err(DetailError::Another { file });
    }
    Ok(student.completed_by(full))
}

/// Why a student's details file cannot complete their compact result:
/// grading them again (`--force`) writes it anew.
#[derive(Debug, thiserror::Error)]
pub enum DetailError {
    /// The file cannot be read (removed by hand, say).
    #[error("{}: cannot read it: {source}", file.display())]
    Unreadable {
        /// The details file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a result referee wrote (cut short by a crash).
    #[error("{}: not a whole result ({source})", file.display())]
    Unparsable {
        /// The details file.
        file: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// The file is of another grading of the student.
    #[error("{}: it holds another grading of this submission", file.display())]
    Another {
        /// The details file.
        file: PathBuf,
    },
}

/// One case's result, with the explanation and (on failure) both
/// transcripts, in plain text.
fn case_result(
    suite: &Suite,
    prepared: &Prepared<'_>,
    outcome: &CaseOutcome,
    explain: Explain,
) -> CaseResult {
    let case = prepared.case;
    let verdict = outcome.judgement.verdict;
    let passed = verdict == crate::verdict::Verdict::Pass;
    let _timed = crate::timings::Timed::new(crate::timings::Phase::Judging);
    let mut explanation = if passed {
        String::new()
    } else {
        (explain.case)(suite, prepared, outcome)
    };
    let mut reason = outcome.judgement.reason.clone();
    let mut not_shown = results::limited(&mut explanation, results::EXPLANATION_ROOM)
        + results::limited(&mut reason, results::REASON_ROOM);
    let diffed = match (&prepared.expected, passed) {
        (Expected::Play(reference), false) => {
            outcome.diffed(reference, &case.text_options(), &suite.regions)
        }
        _ => None,
    };
    let (expected, actual, prompts) = match diffed.as_deref() {
        Some(diffed) => {
            let kept = results::kept_transcripts(&diffed.want, &diffed.got, &diffed.diff);
            not_shown += kept.not_shown;
            (Some(kept.expected), Some(kept.actual), kept.prompts)
        }
        None => (None, None, None),
    };
    let files = match passed {
        false => kept_files(prepared, outcome),
        true => (Vec::new(), 0),
    };
    not_shown += files.1;
    CaseResult {
        name: case.name.clone(),
        verdict,
        score: text::round(outcome.score),
        max_score: case.points,
        wall_ms: outcome
            .run
            .as_ref()
            .map_or(0, |r| r.wall.as_millis() as u64),
        visibility: case.visibility,
        command: case.command.clone(),
        reason,
        explanation,
        expected,
        actual,
        not_shown,
        compare: case.compare.names(),
        parts: outcome.judgement.parts.clone(),
        prompts,
        exit_status: match outcome.run.as_ref().map(|r| r.ending) {
            Some(crate::run::Ending::Exited(code)) => Some(code),
            _ => None,
        },
        reference_exit_status: match &prepared.expected {
            Expected::Play(reference) if !reference.waited_at_end && case.call.is_none() => {
                Some(reference.status)
            }
            _ => None,
        },
        files: files.0,
        given: match passed {
            false => given_files(case),
            true => Vec::new(),
        },
    }
}

/// A failed case's text output files that are not as the reference's,
/// and its stderr where compared apart and not as the reference's, both
/// versions kept for reports, and the bytes left out.
fn kept_files(prepared: &Prepared<'_>, outcome: &CaseOutcome) -> (Vec<KeptFile>, u64) {
    let Expected::Play(reference) = &prepared.expected else {
        return (Vec::new(), 0);
    };
    let options = crate::judge::outputs::text_options(prepared.case);
    let mut not_shown = 0;
    let mut files: Vec<KeptFile> = outcome
        .files
        .iter()
        .filter_map(|file| {
            let (want, got, missing) = match missing_file(prepared.case, reference, file) {
                Some(want) => (want, &b""[..], true),
                None => {
                    let (want, got) =
                        crate::judge::outputs::text_difference(prepared.case, reference, file)?;
                    (want, got, false)
                }
            };
            let (kept, left) = results::kept_file(&file.name, want, got, &options);
            not_shown += left;
            Some(KeptFile { missing, ..kept })
        })
        .collect();
    if let Some((kept, left)) = kept_stderr(prepared.case, reference, outcome) {
        not_shown += left;
        files.push(kept);
    }
    (files, not_shown)
}

/// Both stderrs of a case that compares stderr apart, where they differ,
/// kept as an output file is, and the bytes left out.
fn kept_stderr(
    case: &crate::case::Case,
    reference: &crate::expected::ReferenceRun,
    outcome: &CaseOutcome,
) -> Option<(KeptFile, u64)> {
    let run = outcome.run.as_ref()?;
    if crate::judge::same_errors(case, reference, run) {
        return None;
    }
    let (want, got) = (reference.transcript.errors(), run.transcript.errors());
    let options = crate::judge::errors_options(case);
    let (kept, left) = results::kept_file("stderr", want, got, &options);
    let kept = KeptFile {
        stderr: true,
        compare: case.stderr_compare.names(),
        ..kept
    };
    Some((kept, left))
}

/// The reference's version of a text output file the program did not
/// leave as a plain file, so that the student sees what was expected of
/// it; `None` for a file it left, or one only `mode: ending` asks for.
fn missing_file<'a>(
    case: &crate::case::Case,
    reference: &'a crate::expected::ReferenceRun,
    file: &crate::judge::outputs::LeftFile,
) -> Option<&'a [u8]> {
    if file.binary || case.mode == crate::case::Mode::Ending || file.bytes().is_some() {
        return None;
    }
    crate::judge::outputs::reference_file(reference, &file.name)
}

/// The files a public case gave the program, their starts kept for its
/// feedback; none for a hidden case, whose files a student must not
/// see. A file that cannot be read now is left out (the run had it).
fn given_files(case: &crate::case::Case) -> Vec<GivenFile> {
    if case.visibility != crate::case::Visibility::Public {
        return Vec::new();
    }
    case.files
        .iter()
        .filter_map(|file| {
            let head = read_head(&file.source, results::GIVEN_ROOM).ok()?;
            let name = file.place.to_string_lossy();
            Some(results::given_file(&name, &head.0, head.1))
        })
        .collect()
}

/// The first `room` bytes of a suite's file, cut at a line's end when
/// the file goes on, and the file's whole size.
fn read_head(path: &Path, room: usize) -> std::io::Result<(Vec<u8>, u64)> {
    use std::io::Read;
    let file = fs::File::open(path)?;
    let size = file.metadata()?.len();
    let mut head = Vec::with_capacity(room);
    file.take(room as u64).read_to_end(&mut head)?;
    if (head.len() as u64) < size {
        if let Some(end) = head.iter().rposition(|&b| b == b'\n') {
            head.truncate(end + 1);
        }
    }
    Ok((head, size))
}

/// The suite as reports show it.
pub(crate) fn suite_info(suite: &Suite) -> SuiteInfo {
    SuiteInfo {
        title: suite.title.clone().unwrap_or_else(|| suite.name.clone()),
        max_score: text::round(suite.max_points()),
        cases: suite
            .cases
            .iter()
            .map(|c| CaseInfo {
                name: c.name.clone(),
                max_score: c.points,
                visibility: c.visibility,
                description: c.description.clone(),
                rubric: c.rubric.clone(),
            })
            .collect(),
        ignored: suite
            .regions
            .iter()
            .map(|r| RegionInfo {
                name: r.name.clone(),
                from: r.from.as_ref().map(|re| re.as_str().to_string()),
                until: r.until.as_str().to_string(),
            })
            .collect(),
    }
}

/// A class's results, sorted by id.
pub fn class_results(
    suite: &Suite,
    mut submissions: Vec<SubmissionResult>,
    shard: Option<String>,
) -> ClassResults {
    submissions.sort_by(|a, b| a.id.cmp(&b.id));
    ClassResults {
        game: suite.name.clone(),
        schema_version: results::SCHEMA_VERSION,
        referee_version: env!("CARGO_PKG_VERSION").to_string(),
        suite: suite_info(suite),
        shard,
        class: None,
        missing: None,
        submissions,
    }
}
