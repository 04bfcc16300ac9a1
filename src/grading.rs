//! Grading one submission: build it once, run it on each case against the
//! reference, and judge every run. Used by `check` (one student) and
//! `grade` (a class).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use reference::Game;

mod reruns;
pub use reruns::WRONG_RERUNS;
use reruns::{Judging, Kind, Reruns};

use crate::call::{self, Call};
use crate::case::{Case, Suite};
use crate::compare::{self, LineDiff, Options, Region};
use crate::diagnose::checks::{self, Checker};
use crate::diagnose::diagnosis::{Diagnosis, Found, Kind as DiagnosisKind};
use crate::diagnose::Diagnoses;
use crate::expected::ReferenceRun;
use crate::fault::Fault;
use crate::game::{self, Reading};
use crate::judge::{self, Faults};
use crate::oracle;
use crate::queue;
use crate::run::{Feed, Limits, Program, RunResult};
use crate::sandbox::Jail;
use crate::submission::{self, BuildError, Built, Submission, Support};
use crate::terminal;
use crate::timings::{Phase, Timed};
use crate::transcript::TermLine;
use crate::untrusted::{self, Refusal};
use crate::verdict::{Judgement, Verdict};

/// How to grade.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Compiler flags per language, over the suite's (the defaults where
    /// neither sets them).
    pub flags: submission::Flags,
    /// How input is given.
    pub feed: Feed,
    /// Cases run at once.
    pub jobs: usize,
    /// Timeouts after which the remaining cases of the same kind run
    /// under their short limits (see [`Timeouts`]); 0 gives every case
    /// its own limits.
    pub max_timeouts: usize,
    /// Workers of a class that have no submission left, which help with
    /// the cases of those still graded (with `jobs` 1).
    pub spare: Option<std::sync::Arc<queue::Spare>>,
    /// Which cases a C or C++ program runs again from its checked build
    /// (see [`crate::diagnose`]).
    pub diagnose: Diagnose,
}

/// Which cases a C or C++ program runs again from its checked build, to
/// say where it breaks. The grade never comes from these runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagnose {
    /// None.
    Never,
    /// Each case it crashed on, and the first few others it failed
    /// ([`WRONG_RERUNS`]), never those it ran out of time on (a checked
    /// run would take three times as long again): what `grade` and
    /// `check` do, paying only for failures.
    Failing,
    /// Its public cases, and its failed cases as [`Diagnose::Failing`]:
    /// what GitHub Classroom's tests do, for a student reading them.
    PublicAndFailing,
    /// Every case (`grade --diagnose`): what passes by luck is found too.
    Every,
}

impl Diagnose {
    /// Whether `case`, with `outcome`, runs again from the checked build.
    fn wants(self, case: &Case, kind: Kind) -> Wanted {
        let public = case.visibility == crate::case::Visibility::Public;
        match (self, kind) {
            (Diagnose::Never, _) => Wanted::No,
            (Diagnose::Every, _) => Wanted::Yes,
            (Diagnose::PublicAndFailing, _) if public => Wanted::Yes,
            (_, Kind::Crashed) => Wanted::Yes,
            (_, Kind::Wrong) => Wanted::IfAmongFirst,
            (_, Kind::Passed | Kind::Looped) => Wanted::No,
        }
    }
}

/// Whether a case runs again from the checked build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wanted {
    No,
    Yes,
    /// If it is among the first failures of its kind (see [`reruns`]).
    IfAmongFirst,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            flags: submission::Flags::default(),
            feed: Feed::Interactive,
            jobs: crate::sandbox::cpus::parallelism(),
            max_timeouts: MAX_TIMEOUTS,
            spare: None,
            diagnose: Diagnose::Failing,
        }
    }
}

/// How many timeouts a submission may have before its remaining cases of
/// the same kind run under their short limits.
pub const MAX_TIMEOUTS: usize = 3;

/// The least a case's short limit is ([`Prepared::short_limits`]), and
/// what it is where the reference's time is unknown (a built-in game,
/// run in-process, or a pinned transcript): a first-year program that
/// answers a case needs milliseconds, Python's start included.
pub const SHORT_LIMIT: Duration = Duration::from_secs(1);

/// How many times the reference program's time a short limit allows:
/// room for a slower language or a slower way, never for a loop.
const SHORT_FACTOR: u32 = 10;

/// What the reference does on a case: computed once per suite.
#[derive(Clone, Debug)]
pub enum Expected {
    /// A whole game: the reference's transcript.
    Play(ReferenceRun),
    /// One function: what the reference's function returns and leaves.
    Call(call::Expected),
}

/// A case with the reference's run of it.
#[derive(Clone, Debug)]
pub struct Prepared<'s> {
    /// The case.
    pub case: &'s Case,
    /// What the reference does.
    pub expected: Expected,
    /// The reference program's time on the clock on this case, when it
    /// ran for it (not for a pin or a built-in game).
    pub reference_time: Option<Duration>,
    /// The reference's play in game terms, read when a submission is
    /// first judged in game mode: once per case, not per submission.
    reading: OnceLock<Reading>,
}

impl<'s> Prepared<'s> {
    /// A case with what the reference did on it, already known (a game
    /// exploring found).
    pub fn with(case: &'s Case, expected: Expected) -> Prepared<'s> {
        Prepared {
            case,
            expected,
            reference_time: None,
            reading: OnceLock::new(),
        }
    }

    /// The limits this case runs under once the submission has run out
    /// of time on `--max-timeouts` cases of its kind: the larger of
    /// [`SHORT_LIMIT`] and ten times the reference's time, in whole
    /// seconds, on the clock and of processor time, never more than the
    /// case's own. `None` when that is no shorter than the case's own.
    pub fn short_limits(&self) -> Option<Limits> {
        let needs = self.reference_time.map_or(SHORT_LIMIT, |took| {
            whole_seconds(took * SHORT_FACTOR).max(SHORT_LIMIT)
        });
        let own = &self.case.limits;
        let short = Limits {
            wall: own.wall.min(needs),
            cpu: own.cpu.min(needs),
            ..own.clone()
        };
        (short != *own).then_some(short)
    }

    /// The reference's play in game terms (`reference` is this case's),
    /// read by `game`'s reader: only game mode asks, and only a suite of
    /// a built-in game has game mode.
    fn reading(&self, game: Option<Game>, reference: &ReferenceRun) -> &Reading {
        self.reading.get_or_init(|| match game {
            Some(game) => game::read(
                crate::games::rules(game),
                &terminal::reference_lines(reference),
            ),
            None => Reading::default(),
        })
    }
}

/// Rounded up to whole seconds, so that a short limit reads plainly and
/// seldom changes from one run of the reference to the next.
fn whole_seconds(d: Duration) -> Duration {
    Duration::from_secs(d.as_secs() + u64::from(d.subsec_nanos() > 0))
}

/// What the reference does on each case, from its pin or a run of it
/// ([`oracle::expected_timed`]): once per case, whatever number of
/// students.
pub fn prepare<'s>(
    suite: &'s Suite,
    cases: impl IntoIterator<Item = &'s Case>,
) -> Result<Vec<Prepared<'s>>, oracle::Error> {
    // Said once, here, rather than as every C student's build failing.
    if let Some(missing) = submission::missing_compilers(&suite.compile) {
        return Err(oracle::Error::NoCompiler(missing));
    }
    let cases: Vec<&Case> = cases.into_iter().collect();
    let _timed = Timed::of(Phase::Reference, cases.len() as u64);
    cases
        .into_iter()
        .map(|case| {
            let (expected, reference_time) = match &case.call {
                Some(call) => (Expected::Call(call.expected()), None),
                None => {
                    let (run, took) = oracle::expected_timed(suite, case)?;
                    (Expected::Play(run), took)
                }
            };
            Ok(Prepared {
                case,
                expected,
                reference_time,
                reading: OnceLock::new(),
            })
        })
        .collect()
}

/// What happened on one case.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    /// The verdict, why, and what each part of the case earned.
    pub judgement: Judgement,
    /// Points earned.
    pub score: f64,
    /// The run, if the program ran (not after a compile error).
    pub run: Option<RunResult>,
    /// For a function call: what the function did, if it got that far.
    pub call: Option<call::Outcome>,
    /// What was wrong, part by part, for explanations.
    pub faults: Faults,
    /// The short limits it ran under ([`Prepared::short_limits`]), after
    /// the submission's earlier timeouts; `None` for the case's own.
    pub shortened: Option<Limits>,
    /// Both terminals and their diff, made the first time something
    /// shows them ([`CaseOutcome::diffed`]); empty until then, and emptied
    /// again with the run's output once the case has its result.
    pub diffed: OnceLock<Diffed>,
    /// The files of the case's `outputs` as the run left them, each
    /// within the case's output limit (empty for other cases).
    pub files: Vec<judge::outputs::LeftFile>,
    /// Where the program broke on this case: what its checked build's
    /// run found, or a Python run's uncaught exception.
    pub diagnoses: Vec<Diagnosis>,
}

/// A case's two terminals, the reference's and the program's, and their
/// diff under the case's options: what an explanation and the kept
/// transcripts of a failed case both show, made once for both.
#[derive(Clone, Debug)]
pub struct Diffed {
    /// The reference's terminal.
    pub want: Vec<TermLine>,
    /// The program's.
    pub got: Vec<TermLine>,
    /// The options they were diffed under.
    pub options: Options,
    /// Their diff ([`compare::terminal_diff`]).
    pub diff: LineDiff,
}

impl Diffed {
    /// Diffs `reference`'s terminal and `run`'s.
    fn new(
        reference: &ReferenceRun,
        run: &RunResult,
        options: &Options,
        regions: &[Region],
    ) -> Diffed {
        let want = terminal::reference_lines(reference);
        let got = terminal::run_lines(run);
        let diff = compare::terminal_diff(&want, &got, options, regions);
        Diffed {
            want,
            got,
            options: *options,
            diff,
        }
    }
}

impl CaseOutcome {
    /// The limits the case ran under: its short ones, or `case`'s own.
    pub fn limits<'a>(&'a self, case: &'a Case) -> &'a Limits {
        self.shortened.as_ref().unwrap_or(&case.limits)
    }

    /// The reference's terminal (`reference`, this case's) and the run's,
    /// diffed under `options` and the suite's `regions`: made at the first
    /// call and kept, so the explanation and the kept transcripts of a
    /// failed case share one diff. `None` without a run. A call with other
    /// options than the first is diffed anew (and not kept).
    pub fn diffed(
        &self,
        reference: &ReferenceRun,
        options: &Options,
        regions: &[Region],
    ) -> Option<Cow<'_, Diffed>> {
        let run = self.run.as_ref()?;
        let kept = self
            .diffed
            .get_or_init(|| Diffed::new(reference, run, options, regions));
        Some(if kept.options == *options {
            Cow::Borrowed(kept)
        } else {
            Cow::Owned(Diffed::new(reference, run, options, regions))
        })
    }
}

/// Whether a submission ran at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every case ran.
    Graded,
    /// It does not compile: the compiler's messages.
    CompileError(String),
}

/// A graded submission.
#[derive(Debug)]
pub struct Graded {
    /// Whether it ran at all.
    pub status: Status,
    /// Compiler warnings of a program that did compile.
    pub warnings: String,
    /// One outcome per prepared case, in order.
    pub outcomes: Vec<CaseOutcome>,
    /// The program that ran, kept for whatever runs it next (`grade
    /// --explore`), so that it is not built again.
    pub built: Option<std::sync::Arc<Built>>,
    /// Where the program breaks, each fault said once (see
    /// [`crate::diagnose`]).
    pub diagnostics: Vec<Diagnosis>,
    /// Why it has no diagnoses of its checked build, when one was
    /// wanted and could not be made or run.
    pub diagnosis_trouble: Option<String>,
}

impl Graded {
    /// Points earned over all cases.
    pub fn score(&self) -> f64 {
        self.outcomes.iter().map(|o| o.score).sum()
    }

    /// Whether a run died of a signal a job is stopped with (SIGTERM,
    /// SIGINT, SIGHUP; a compiler that did is a grader's error, see
    /// `submission::build`).
    pub fn signaled_to_stop(&self) -> bool {
        self.outcomes.iter().any(|o| {
            o.run.as_ref().is_some_and(|run| {
                matches!(run.ending, crate::run::Ending::Signaled(s) if crate::run::job_stop(s).is_some())
            })
        })
    }

    /// Whether a signal sent to the whole job could have made this
    /// result: the build failed, or a run failed (killed by a signal,
    /// out of memory, a non-zero exit). Slurm, `docker stop` and systemd
    /// stop a job by signalling every process in it, students' programs
    /// and compilers included, so such a result is not kept once
    /// grading is being stopped.
    pub fn disturbed(&self) -> bool {
        if matches!(self.status, Status::CompileError(_)) {
            return true;
        }
        self.outcomes.iter().any(|o| {
            o.run.as_ref().is_some_and(|run| {
                matches!(
                    run.ending,
                    crate::run::Ending::Signaled(_) | crate::run::Ending::MemoryLimit
                ) || matches!(run.ending, crate::run::Ending::Exited(code) if code != 0)
            })
        })
    }
}

/// Why a submission could not be graded. What the program does when it
/// runs is judged, never an error: an error is what stopped grading.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The submission's file cannot be taken (a link, a FIFO, too
    /// large).
    #[error("{0}")]
    Refused(Refusal),
    /// The grader could not build it (no compiler, no Python, no disk).
    #[error("{0}")]
    Build(String),
    /// The suite's own library does not compile: the suite's trouble.
    #[error("{0}")]
    Library(String),
    /// The program could not be started (no sandbox, no process to
    /// spare, a support file that cannot be copied).
    #[error("{0}")]
    Start(#[from] submission::StartError),
    /// A case prepared as a call has no call.
    #[error("a call case without a call")]
    CallWithoutCall,
    /// The job's memory (an enclosing control group's, or the machine's)
    /// ran out during a case, twice: the second time alone.
    #[error(
        "the job's memory is too small: the program was killed on case {case} because the \
         memory of the job referee runs in ran out (not the case's own limit), again when \
         the case ran alone; give the job more memory (Slurm: --mem) or grade with fewer \
         --jobs, then run the same command again"
    )]
    JobMemory {
        /// The case.
        case: String,
    },
}

impl Error {
    /// Whose fault it is: a submission file referee refuses is the
    /// student's; everything else stopped the grader itself.
    pub fn fault(&self) -> Fault {
        match self {
            Error::Refused(_) => Fault::Student,
            Error::Library(_) => Fault::Suite,
            _ => Fault::Grader,
        }
    }
}

/// Builds `submission` and runs it on every prepared case. Fails only
/// when the grader cannot do its part (no compiler, no terminal).
pub fn grade(
    submission: &Submission,
    suite: &Suite,
    cases: &[Prepared<'_>],
    settings: &Settings,
) -> Result<Graded, Error> {
    let never = AtomicBool::new(false);
    let graded = grade_each(submission, suite, cases, settings, &never, None, &|_, _| ())?;
    Ok(graded.expect("grading is never stopped").0)
}

/// What a caller makes of each case the moment it was judged (a batch:
/// the case's bounded result), given the outcome to take from: what it
/// leaves of it (a batch drops the run's output) is all [`Graded`] holds
/// of the case, so a program that floods every case costs one case's
/// output at a time, not the suite's.
pub(crate) type Digest<'d, K> = &'d (dyn Fn(&Prepared<'_>, &mut CaseOutcome) -> K + Sync);

/// Like [`grade`], but stops between cases once `stop` is set, and then
/// returns `None`: a submission is graded whole or not at all. With
/// `shared`, a program other students handed in too is built once. Each
/// case's outcome is handed to `digest` as soon as it is judged; its
/// digests come back in the cases' order.
pub(crate) fn grade_each<K: Send>(
    submission: &Submission,
    suite: &Suite,
    cases: &[Prepared<'_>],
    settings: &Settings,
    stop: &AtomicBool,
    shared: Option<&submission::SharedBuilds>,
    digest: Digest<'_, K>,
) -> Result<Option<(Graded, Vec<K>)>, Error> {
    let flags = settings.flags.over(&suite.compile);
    if settings.jobs > 1 && submission.language.is_compiled() {
        // The threads that will run cases beside this one find their
        // slots made while it compiles.
        submission::sandbox().make_slots_meanwhile(settings.jobs - 1);
    }
    let building = ALONE.read().unwrap_or_else(|e| e.into_inner());
    let built = match shared {
        Some(shared) => shared.build(submission, &flags, &suite.support),
        None => {
            submission::build_lazily(submission, &flags, &suite.support).map(std::sync::Arc::new)
        }
    };
    drop(building);
    let built = match built {
        Ok(built) => built,
        Err(error) => return Ok(Some(not_compiled(cases, compiler_said(error)?, digest))),
    };
    let unparsed = OnceLock::new();
    let diagnosing = Diagnosing {
        reruns: Reruns::new(cases.len()),
        // Every case run again asks for every finding; a failing case's
        // checked run gets the compiler's warnings with its build.
        checker: if settings.diagnose == Diagnose::Every {
            Checker::thorough(&built)
        } else {
            Checker::new(&built)
        },
        source_names: submission
            .files
            .iter()
            .filter_map(|f| f.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect(),
        python: submission.language == submission::Language::Python,
    };
    if suite.leaks && !diagnosing.checker.applies() && settings.diagnose != Diagnose::Never {
        crate::notice::once(
            "leaks-c-only",
            "this suite counts leaks (`leaks: true`), which referee does for C and C++ \
             programs only: the memory of programs in other languages is not looked at",
        );
    }
    let judged = run_all(
        &built,
        suite,
        cases,
        settings,
        stop,
        &unparsed,
        &diagnosing,
        digest,
    )?;
    let Some(judged) = judged else {
        return Ok(None);
    };
    if let Some(messages) = unparsed.into_inner() {
        // A Python file that does not parse: no case counts.
        return Ok(Some(not_compiled(cases, messages, digest)));
    }
    let (outcomes, digests): (Vec<CaseOutcome>, Vec<K>) = judged.into_iter().unzip();
    let mut found = Diagnoses::default();
    for outcome in &outcomes {
        found.extend(outcome.diagnoses.iter().cloned());
    }
    found.extend(diagnosing.checker.compiler_found());
    let diagnosis_trouble = diagnosing.checker.trouble();
    let graded = Graded {
        status: Status::Graded,
        warnings: built.warnings.clone(),
        outcomes,
        built: Some(built),
        diagnostics: found.into_vec(),
        diagnosis_trouble,
    };
    Ok(Some((graded, digests)))
}

/// What the compiler (or Python's syntax check) said of a program that
/// does not compile; any other build error is the grader's.
fn compiler_said(error: BuildError) -> Result<String, Error> {
    match error {
        BuildError::Compile(messages) => Ok(messages),
        BuildError::Refused(refusal) => Err(Error::Refused(refusal)),
        BuildError::Grader(message) => Err(Error::Build(message)),
        BuildError::Library(message) => Err(Error::Library(message)),
    }
}

/// A submission that does not compile: every case judged so, each handed
/// to `digest` as a judged case is.
fn not_compiled<K>(
    cases: &[Prepared<'_>],
    messages: String,
    digest: Digest<'_, K>,
) -> (Graded, Vec<K>) {
    let outcome = CaseOutcome {
        judgement: Judgement::nothing(Verdict::CompileError, "your program does not compile"),
        score: 0.0,
        run: None,
        call: None,
        faults: Faults::default(),
        shortened: None,
        diffed: OnceLock::new(),
        files: Vec::new(),
        diagnoses: Vec::new(),
    };
    let mut graded = Graded {
        status: Status::CompileError(messages),
        warnings: String::new(),
        outcomes: vec![outcome; cases.len()],
        built: None,
        diagnostics: Vec::new(),
        diagnosis_trouble: None,
    };
    let digests = cases
        .iter()
        .zip(&mut graded.outcomes)
        .map(|(prepared, outcome)| digest(prepared, outcome))
        .collect();
    (graded, digests)
}

/// Runs the cases, `settings.jobs` at a time; results keep the cases'
/// order whatever order they finish in. `None` when stopped. A Python
/// file's syntax is checked when a case failed before reading any input
/// (see [`submission::build_lazily`]); when it does not parse, its
/// messages are set in `unparsed` and the cases not yet run are not.
#[allow(clippy::too_many_arguments)]
fn run_all<K: Send>(
    built: &Built,
    suite: &Suite,
    cases: &[Prepared<'_>],
    settings: &Settings,
    stop: &AtomicBool,
    unparsed: &OnceLock<String>,
    diagnosing: &Diagnosing<'_>,
    digest: Digest<'_, K>,
) -> Result<Option<Vec<(CaseOutcome, K)>>, Error> {
    let timeouts = Timeouts::new(settings.max_timeouts);
    let judge_within = |prepared: &Prepared<'_>, short: Option<Limits>| {
        let index = cases
            .iter()
            .position(|p| std::ptr::eq(p, prepared))
            .unwrap_or(cases.len());
        let _judging = Judging {
            reruns: &diagnosing.reruns,
            index,
        };
        let mut outcome = match unparsed.get() {
            Some(_) => unparsed_placeholder(),
            None => {
                let run = Run {
                    built,
                    suite,
                    feed: settings.feed,
                };
                run.within(prepared, short, timeouts.limit)?
            }
        };
        if built.syntax_unchecked() && failed_before_reading(prepared, &outcome) {
            if let Err(error) = built.check_syntax() {
                let _ = unparsed.set(compiler_said(error)?);
            }
        }
        diagnosing
            .reruns
            .judged(index, Kind::of(outcome.judgement.verdict));
        if unparsed.get().is_none() {
            let rerun = Rerun { index, stop };
            diagnosing.diagnose(prepared.case, &mut outcome, suite, settings, rerun);
        }
        let digested = digest(prepared, &mut outcome);
        Ok((outcome, digested))
    };
    let judge = |prepared: &Prepared<'_>| -> Result<(CaseOutcome, K), Error> {
        let judged = judge_within(prepared, timeouts.limits_for(prepared))?;
        timeouts.record(prepared, &judged.0);
        Ok(judged)
    };
    let results = if let (true, Some(spare)) = (settings.jobs <= 1, settings.spare.as_deref()) {
        // On this thread, which keeps its slot, helped by idle workers.
        queue::map_helped(cases, Some(stop), spare, judge)
    } else if settings.jobs <= 1 {
        // On this thread: it keeps its sandbox slot (and, as root, its
        // control groups) from one submission to the next. One case at a
        // time, in order: nothing to settle.
        let mut outcomes = Vec::with_capacity(cases.len());
        for prepared in cases {
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            outcomes.push(judge(prepared)?);
        }
        return Ok(Some(outcomes));
    } else {
        // This thread, which built the program, keeps its slot and takes
        // cases too.
        queue::map(cases, settings.jobs, Some(stop), judge)
    };
    let Some(mut outcomes) = collect(results)? else {
        return Ok(None);
    };
    timeouts.settle(cases, &mut outcomes, judge_within)?;
    Ok(Some(outcomes))
}

/// What diagnoses one submission: its checked build (made when first
/// needed), its file's name, and whether it is Python (whose runs'
/// tracebacks are read).
struct Diagnosing<'b> {
    checker: Checker<'b>,
    /// Which failed cases run again (see [`reruns`]).
    reruns: Reruns,
    /// The names of the program's files.
    source_names: Vec<String>,
    python: bool,
}

impl Diagnosing<'_> {
    /// Finds where the program broke on `case`, as `settings` wants: a
    /// Python run's traceback, read from its transcript; a C or C++
    /// program's case run again from its checked build. A crash so
    /// explained says what caused it in its reason.
    fn diagnose(
        &self,
        case: &Case,
        outcome: &mut CaseOutcome,
        suite: &Suite,
        settings: &Settings,
        rerun: Rerun<'_>,
    ) {
        if self.python {
            if let Some(run) = &outcome.run {
                outcome.diagnoses.extend(checks::python_exception(
                    &run.transcript,
                    run.ending,
                    &self.source_names,
                    &case.name,
                ));
            }
            return;
        }
        if !self.checker.applies() {
            return;
        }
        let kind = Kind::of(outcome.judgement.verdict);
        let wanted = match settings.diagnose.wants(case, kind) {
            // A suite that counts leaks has its first case run from the
            // checked build even where it passes: a leak is found where
            // the output is right, as check50's valgrind check finds it.
            Wanted::No => {
                suite.leaks
                    && kind == Kind::Passed
                    && rerun.index == 0
                    && settings.diagnose != Diagnose::Never
            }
            Wanted::Yes => true,
            Wanted::IfAmongFirst => self.reruns.among_first(rerun.index, rerun.stop),
        };
        if !wanted {
            return;
        }
        let _shared = ALONE.read().unwrap_or_else(|e| e.into_inner());
        let mut found = self
            .checker
            .run_case(case, &suite.support, settings.feed, suite.leaks);
        if !ended_by_itself(outcome.judgement.verdict) {
            // A run that crashed or was stopped has no leak verdict: what
            // it held, it held when it was stopped.
            found.retain(|d| d.kind != DiagnosisKind::Leak);
        }
        outcome.diagnoses = found;
        explain_crash(outcome);
    }
}

/// Whether a run judged `verdict` ended by itself (not crashed, nor
/// stopped by a limit or by its input running out).
fn ended_by_itself(verdict: Verdict) -> bool {
    matches!(
        verdict,
        Verdict::Pass | Verdict::FormatDiffers | Verdict::WrongOutput
    )
}

/// Which case is diagnosed, among the submission's, and what stops the
/// wait for the cases before it.
#[derive(Clone, Copy)]
struct Rerun<'s> {
    index: usize,
    stop: &'s AtomicBool,
}

/// A crash's reason, when the checked build found what caused it: the
/// fault in the student's terms in place of the bare signal.
fn explain_crash(outcome: &mut CaseOutcome) {
    if outcome.judgement.verdict != Verdict::Crashed {
        return;
    }
    let Some(cause) = outcome.diagnoses.iter().find(|d| d.found == Found::Run) else {
        return;
    };
    let mut said = cause.located();
    if let Some(when) = cause.when() {
        said.push_str(", ");
        said.push_str(&when);
    }
    // The reason is written as the explanations write it (they give it
    // its capital and its full stop).
    let signal = outcome.judgement.reason.trim_end_matches('.');
    let signal = signal
        .strip_prefix("your program crashed: ")
        .or_else(|| signal.strip_prefix("Your program crashed: "))
        .unwrap_or(signal);
    outcome.judgement.reason = format!(
        "your program crashed: {said}, as its checked build found (the crash itself: {signal})"
    );
}

/// What a case not run gets once its Python file is known not to parse:
/// never seen, as every case is then judged a compile error.
fn unparsed_placeholder() -> CaseOutcome {
    let judgement = Judgement::nothing(Verdict::CompileError, "your program does not compile");
    outcome(judgement, Faults::default(), None, None)
}

/// Whether a case failed without its program reading any of its input:
/// what every run of a Python file that does not parse does.
fn failed_before_reading(prepared: &Prepared<'_>, outcome: &CaseOutcome) -> bool {
    outcome.judgement.verdict != Verdict::Pass
        && outcome
            .run
            .as_ref()
            .is_some_and(|run| run.unread_inputs == prepared.case.input.len())
}

/// The cases' outcomes from a parallel run of them; `None` when one was
/// not run (stopped).
fn collect<K>(
    results: Vec<Option<Result<(CaseOutcome, K), Error>>>,
) -> Result<Option<Vec<(CaseOutcome, K)>>, Error> {
    let mut outcomes = Vec::with_capacity(results.len());
    for slot in results {
        match slot {
            Some(outcome) => outcomes.push(outcome?),
            None => return Ok(None),
        }
    }
    Ok(Some(outcomes))
}

/// Keeping a program that loops from costing minutes, without a case
/// judged by what came before it: once a submission has run out of time
/// on `limit` cases of one kind (whole games, or function calls), each
/// of its later cases of that kind still runs, under its short limits
/// ([`Prepared::short_limits`]), so a case it answers still earns its
/// points and one it loops on costs a second, not the case's whole
/// limit. The kinds are counted apart: a Python file whose game loops
/// keeps its functions' own limits.
struct Timeouts {
    limit: usize,
    /// Timeouts so far, of each kind ([`Timeouts::kind`]).
    counts: [AtomicUsize; 2],
}

impl Timeouts {
    fn new(limit: usize) -> Timeouts {
        Timeouts {
            limit,
            counts: [AtomicUsize::new(0), AtomicUsize::new(0)],
        }
    }

    /// The kind a case's timeouts count as: whole games 0, calls 1.
    fn kind(case: &Case) -> usize {
        usize::from(case.call.is_some())
    }

    fn count(&self, case: &Case) -> &AtomicUsize {
        &self.counts[Timeouts::kind(case)]
    }

    /// The short limits `prepared` runs under now, once the submission
    /// has timed out on `limit` cases of its kind; `None`: its own.
    fn limits_for(&self, prepared: &Prepared<'_>) -> Option<Limits> {
        let count = self.count(prepared.case).load(Ordering::Relaxed);
        (self.limit > 0 && count >= self.limit)
            .then(|| prepared.short_limits())
            .flatten()
    }

    /// Counts `outcome` if it is a timeout.
    fn record(&self, prepared: &Prepared<'_>, outcome: &CaseOutcome) {
        if outcome.judgement.verdict == Verdict::Timeout {
            self.count(prepared.case).fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Makes the cases' outcomes what running them one at a time, in the
    /// suite's order, gives, whatever order workers ran them in: each
    /// case is given the limits the timeouts before it in the suite call
    /// for, and a case run under other limits whose outcome could differ
    /// is run again (`again`) under the right ones. A case that started
    /// before an earlier case's timeout was counted, or after a later
    /// case's was, is one of those.
    fn settle<K>(
        &self,
        cases: &[Prepared<'_>],
        outcomes: &mut [(CaseOutcome, K)],
        again: impl Fn(&Prepared<'_>, Option<Limits>) -> Result<(CaseOutcome, K), Error>,
    ) -> Result<(), Error> {
        if self.limit == 0 {
            return Ok(());
        }
        let mut seen = [0; 2];
        for (prepared, judged) in cases.iter().zip(outcomes.iter_mut()) {
            let seen = &mut seen[Timeouts::kind(prepared.case)];
            let due = if *seen >= self.limit {
                prepared.short_limits()
            } else {
                None
            };
            if stands(&judged.0, due.as_ref()) {
                judged.0.shortened = due;
            } else {
                *judged = again(prepared, due)?;
            }
            if judged.0.judgement.verdict == Verdict::Timeout {
                *seen += 1;
            }
        }
        Ok(())
    }
}

/// Whether `outcome` is what a run under `due` (short limits, or `None`
/// for the case's own) gives too: under the same limits; or it finished
/// under short limits, so it would under the longer own; or it finished
/// under its own limits within the short ones due.
fn stands(outcome: &CaseOutcome, due: Option<&Limits>) -> bool {
    let finished = outcome.judgement.verdict != Verdict::Timeout;
    match (outcome.shortened.as_ref(), due) {
        (None, None) => true,
        (Some(_), None) => finished,
        (had, Some(due)) => {
            had == Some(due)
                || finished
                    && outcome
                        .run
                        .as_ref()
                        .is_some_and(|run| run.wall <= due.wall && run.cpu <= due.cpu)
        }
    }
}

/// A student's program and how it is run on a case.
struct Run<'r> {
    built: &'r Built,
    suite: &'r Suite,
    feed: Feed,
}

impl Run<'_> {
    /// Runs `prepared` and judges it: under its own limits, or under
    /// `short` ones, given after `timeouts` earlier timeouts, which a
    /// timeout's reason then names.
    fn within(
        &self,
        prepared: &Prepared<'_>,
        short: Option<Limits>,
        timeouts: usize,
    ) -> Result<CaseOutcome, Error> {
        let Some(short) = short else {
            return run_case(self.built, self.suite, prepared, self.feed);
        };
        let case = Case {
            limits: short.clone(),
            ..prepared.case.clone()
        };
        let mut outcome = run_case_as(self.built, self.suite, prepared, &case, self.feed)?;
        if outcome.judgement.verdict == Verdict::Timeout {
            let cases = if timeouts == 1 { "case" } else { "cases" };
            outcome.judgement.reason.push_str(&format!(
                " ({} rather than the case's own {}, because your program had already run \
                 out of time on {timeouts} {cases} like this one: one that answers it needs far \
                 less)",
                crate::text::seconds(short.wall),
                crate::text::seconds(prepared.case.limits.wall),
            ));
        }
        outcome.shortened = Some(short);
        Ok(outcome)
    }
}

/// Runs one case in a fresh working folder and judges it.
pub fn run_case(
    built: &Built,
    suite: &Suite,
    prepared: &Prepared<'_>,
    feed: Feed,
) -> Result<CaseOutcome, Error> {
    run_case_as(built, suite, prepared, prepared.case, feed)
}

/// [`run_case`], with `case` run and judged in place of `prepared`'s own
/// (the same case under other limits).
fn run_case_as(
    built: &Built,
    suite: &Suite,
    prepared: &Prepared<'_>,
    case: &Case,
    feed: Feed,
) -> Result<CaseOutcome, Error> {
    match (&prepared.expected, &case.call) {
        (Expected::Call(expected), Some(call)) => call_case(built, suite, case, call, expected),
        (Expected::Play(expected), _) => {
            let (jail, result) = execute(&built.program, suite, case, feed)?;
            // What the program left is read before its folder goes.
            let files = judge::outputs::collect(jail.workdir(), &case.outputs, case.limits.output);
            drop(jail);
            let setting = judge::Setting {
                case,
                game: suite.game(),
                regions: &suite.regions,
                graded: &suite.graded,
                expected,
            };
            let want = || prepared.reading(suite.game(), expected);
            let (judgement, faults) = crate::timings::time(Phase::Judging, || {
                let (judgement, faults) = judge::whole_game(&setting, want, &result);
                (
                    judge::outputs::apply(case, expected, &files, judgement),
                    faults,
                )
            });
            let mut done = outcome(judgement, faults, Some(result), None);
            done.files = files;
            Ok(done)
        }
        (Expected::Call(_), None) => Err(Error::CallWithoutCall),
    }
}

/// Runs `program` on the case in a fresh sandbox, with the suite's
/// support files. A run ended by the job's memory running out (not the
/// case's own limit) is no verdict: it is run once more alone, while no
/// other run or build of this process goes on, and if the job's memory
/// runs out again the submission cannot be graded here.
fn execute(
    program: &Program,
    suite: &Suite,
    case: &Case,
    feed: Feed,
) -> Result<(Jail, RunResult), Error> {
    let program = &program.with_args(&case.args);
    let provided: Vec<Support> = suite.support.iter().chain(&case.files).cloned().collect();
    let run = || submission::execute(program, case.typed(), &case.limits, &provided, feed);
    let first = {
        let _shared = ALONE.read().unwrap_or_else(|e| e.into_inner());
        run()?
    };
    if !first.1.job_out_of_memory {
        return Ok(first);
    }
    drop(first);
    let _alone = ALONE.write().unwrap_or_else(|e| e.into_inner());
    let again = run()?;
    if again.1.job_out_of_memory {
        return Err(Error::JobMemory {
            case: case.name.clone(),
        });
    }
    Ok(again)
}

/// Held shared by every run and build, and alone by a run retried after
/// the job's memory ran out, so that the retry has the job's memory to
/// itself.
static ALONE: std::sync::RwLock<()> = std::sync::RwLock::new(());

fn outcome(
    judgement: Judgement,
    faults: Faults,
    run: Option<RunResult>,
    call: Option<call::Outcome>,
) -> CaseOutcome {
    CaseOutcome {
        score: judgement.score(),
        judgement,
        run,
        call,
        faults,
        shortened: None,
        diffed: OnceLock::new(),
        files: Vec::new(),
        diagnoses: Vec::new(),
    }
}

/// The most a call's result file may hold: a board of the largest size,
/// rendered, is far less.
const RESULT_LIMIT: u64 = 4 << 20;

/// Calls one of a Python submission's functions through the helper.
fn call_case(
    built: &Built,
    suite: &Suite,
    case: &Case,
    call: &Call,
    expected: &call::Expected,
) -> Result<CaseOutcome, Error> {
    let Some(caller) = &built.caller else {
        let judgement = Judgement::nothing(
            Verdict::Crashed,
            format!(
                "{} is a Python function; this submission is not a Python file",
                call.function.name()
            ),
        );
        return Ok(outcome(judgement, Faults::default(), None, None));
    };
    let mut program = caller.clone();
    program.argv.push(call.request().into());
    let (jail, result) = execute(&program, suite, case, Feed::Interactive)?;
    // The program wrote the file: a link, a FIFO or a huge file is its
    // doing, judged as a crash, never followed or waited for.
    let report = match untrusted::read(&jail.workdir().join(call::RESULT_FILE), RESULT_LIMIT) {
        Ok(json) => match call::parse_outcome(&String::from_utf8_lossy(&json)) {
            Ok(outcome) => judge::Report::Returned(outcome),
            Err(why) => judge::Report::Unusable(format!("{}: {why}", call.describe())),
        },
        Err(refusal @ (Refusal::Link(_) | Refusal::NotRegular(..) | Refusal::TooLarge { .. })) => {
            judge::Report::Unusable(format!(
                "{} left a {} that is not the helper's result: {}",
                call.describe(),
                call::RESULT_FILE,
                refusal
            ))
        }
        Err(_) => judge::Report::Missing,
    };
    let reported = match &report {
        judge::Report::Returned(outcome) => Some(outcome.clone()),
        _ => None,
    };
    let judgement = judge::function_call(case, call, expected, &result, report);
    let faults = Faults {
        play: (judgement.verdict != Verdict::Pass).then_some(judge::PlayFault::Call),
        ..Faults::default()
    };
    Ok(outcome(judgement, faults, Some(result), reported))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{ExitStatus, Mode, MoveNumbers, Visibility};

    /// A case under `wall` on the clock and `cpu` of processor time.
    fn case_within(wall: u64, cpu: u64) -> Case {
        Case {
            name: "c".into(),
            file: "c.yaml".into(),
            description: None,
            rubric: None,
            points: 1.0,
            visibility: Visibility::Hidden,
            input: Vec::new(),
            end_of_input: false,
            call: None,
            limits: Limits {
                wall: Duration::from_secs(wall),
                cpu: Duration::from_secs(cpu),
                ..Limits::default()
            },
            compare: Options::default(),
            mode: Mode::Text,
            format_points: 0.0,
            move_numbers: MoveNumbers::Optional,
            ending_points: 0.0,
            exit_status: ExitStatus::Any,
            stderr: Default::default(),
            stderr_compare: Default::default(),
            format: None,
            args: Vec::new(),
            command: None,
            files: Vec::new(),
            absent: Vec::new(),
            outputs: Vec::new(),
        }
    }

    fn short(case: &Case, reference: Option<Duration>) -> Option<(f64, f64)> {
        let nothing = ReferenceRun {
            transcript: crate::transcript::Transcript::new(),
            waited_at_end: false,
            status: 0,
            files: Vec::new(),
        };
        let mut prepared = Prepared::with(case, Expected::Play(nothing));
        prepared.reference_time = reference;
        prepared
            .short_limits()
            .map(|l| (l.wall.as_secs_f64(), l.cpu.as_secs_f64()))
    }

    #[test]
    fn a_short_limit_is_ten_times_the_reference_in_whole_seconds_and_at_least_one() {
        let case = case_within(10, 5);
        assert_eq!(short(&case, None), Some((1.0, 1.0)), "unknown: 1 s");
        let quick = Some(Duration::from_millis(40));
        assert_eq!(short(&case, quick), Some((1.0, 1.0)), "0.4 s: 1 s");
        let slower = Some(Duration::from_millis(230));
        assert_eq!(short(&case, slower), Some((3.0, 3.0)), "2.3 s: 3 s");
        let slow = Some(Duration::from_millis(700));
        assert_eq!(
            short(&case, slow),
            Some((7.0, 5.0)),
            "never past the case's own"
        );
        assert_eq!(
            short(&case, Some(Duration::from_secs(2))),
            None,
            "no shorter"
        );
        assert_eq!(short(&case_within(1, 1), None), None, "no shorter");
    }

    #[test]
    fn a_refused_file_is_the_students_and_a_failed_run_the_graders() {
        let refused = Error::Refused(Refusal::Link(std::path::PathBuf::from("lab6.c")));
        assert_eq!(refused.fault(), Fault::Student);
        let run = Error::Start(submission::StartError::Run {
            program: "./lab6".into(),
            source: std::io::Error::other("no process to spare"),
        });
        assert_eq!(run.fault(), Fault::Grader);
        assert_eq!(run.to_string(), "cannot run ./lab6: no process to spare");
    }
}
