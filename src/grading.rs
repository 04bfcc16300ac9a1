//! Grading one submission: build it once, run it on each case against the
//! reference, and judge every run. Used by `check` (one student) and
//! `grade` (a class).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

use reference::Game;

use crate::call::{self, Call};
use crate::case::{Case, Suite};
use crate::compare::{self, LineDiff, Options, Region};
use crate::expected::ReferenceRun;
use crate::fault::Fault;
use crate::game::{self, Reading};
use crate::judge::{self, Faults};
use crate::oracle;
use crate::queue;
use crate::run::{Feed, Program, RunResult};
use crate::sandbox::Jail;
use crate::submission::{self, BuildError, Built, Submission};
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
    /// Timeouts after which the remaining cases of the same kind are not
    /// run (see [`Timeouts`]); 0 runs every case.
    pub max_timeouts: usize,
    /// Workers of a class that have no submission left, which help with
    /// the cases of those still graded (with `jobs` 1).
    pub spare: Option<std::sync::Arc<queue::Spare>>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            flags: submission::Flags::default(),
            feed: Feed::Interactive,
            jobs: crate::sandbox::cpus::parallelism(),
            max_timeouts: MAX_TIMEOUTS,
            spare: None,
        }
    }
}

/// How many timeouts a submission may have before its remaining cases of
/// the same kind are not run.
pub const MAX_TIMEOUTS: usize = 3;

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
            reading: OnceLock::new(),
        }
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

/// What the reference does on each case, from its pin or a run of it
/// ([`oracle::expected`]): once per case, whatever number of students.
pub fn prepare<'s>(
    suite: &'s Suite,
    cases: impl IntoIterator<Item = &'s Case>,
) -> Result<Vec<Prepared<'s>>, oracle::Error> {
    let cases: Vec<&Case> = cases.into_iter().collect();
    let _timed = Timed::of(Phase::Reference, cases.len() as u64);
    cases
        .into_iter()
        .map(|case| {
            Ok(Prepared {
                case,
                expected: match &case.call {
                    Some(call) => Expected::Call(call.expected()),
                    None => Expected::Play(oracle::expected(suite, case)?),
                },
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
    /// Both terminals and their diff, made the first time something
    /// shows them ([`CaseOutcome::diffed`]); empty until then, and emptied
    /// again with the run's output once the case has its result.
    pub diffed: OnceLock<Diffed>,
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
    let Some(judged) = run_all(&built, suite, cases, settings, stop, &unparsed, digest)? else {
        return Ok(None);
    };
    if let Some(messages) = unparsed.into_inner() {
        // A Python file that does not parse: no case counts.
        return Ok(Some(not_compiled(cases, messages, digest)));
    }
    let (outcomes, digests) = judged.into_iter().unzip();
    let graded = Graded {
        status: Status::Graded,
        warnings: built.warnings.clone(),
        outcomes,
        built: Some(built),
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
        diffed: OnceLock::new(),
    };
    let mut graded = Graded {
        status: Status::CompileError(messages),
        warnings: String::new(),
        outcomes: vec![outcome; cases.len()],
        built: None,
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
fn run_all<K: Send>(
    built: &Built,
    suite: &Suite,
    cases: &[Prepared<'_>],
    settings: &Settings,
    stop: &AtomicBool,
    unparsed: &OnceLock<String>,
    digest: Digest<'_, K>,
) -> Result<Option<Vec<(CaseOutcome, K)>>, Error> {
    let timeouts = Timeouts::new(settings.max_timeouts);
    let judge = |prepared: &Prepared<'_>| -> Result<(CaseOutcome, K), Error> {
        let mut outcome = match unparsed.get() {
            Some(_) => timeouts.not_run(),
            None => timeouts.run(prepared, || run_case(built, suite, prepared, settings.feed))?,
        };
        if built.syntax_unchecked() && failed_before_reading(prepared, &outcome) {
            if let Err(error) = built.check_syntax() {
                let _ = unparsed.set(compiler_said(error)?);
            }
        }
        let digested = digest(prepared, &mut outcome);
        Ok((outcome, digested))
    };
    if let (true, Some(spare)) = (settings.jobs <= 1, settings.spare.as_deref()) {
        // On this thread, which keeps its slot, helped by idle workers.
        let results = queue::map_helped(cases, Some(stop), spare, judge);
        return collect(results, cases, &timeouts, digest);
    }
    if settings.jobs <= 1 {
        // On this thread: it keeps its sandbox slot (and, as root, its
        // control groups) from one submission to the next.
        let mut outcomes = Vec::with_capacity(cases.len());
        for prepared in cases {
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            outcomes.push(judge(prepared)?);
        }
        return Ok(Some(outcomes));
    }
    // This thread, which built the program, keeps its slot and takes
    // cases too.
    let results = queue::map(cases, settings.jobs, Some(stop), judge);
    collect(results, cases, &timeouts, digest)
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

/// The cases' outcomes from a parallel run of them, made what one at a
/// time gives; `None` when one was not run (stopped).
fn collect<K>(
    results: Vec<Option<Result<(CaseOutcome, K), Error>>>,
    cases: &[Prepared<'_>],
    timeouts: &Timeouts,
    digest: Digest<'_, K>,
) -> Result<Option<Vec<(CaseOutcome, K)>>, Error> {
    let mut outcomes = Vec::with_capacity(cases.len());
    for slot in results {
        match slot {
            Some(outcome) => outcomes.push(outcome?),
            None => return Ok(None),
        }
    }
    timeouts.settle(cases, &mut outcomes, digest);
    Ok(Some(outcomes))
}

/// Failing fast on a program that loops: once a submission has run out
/// of time on `limit` cases of one kind (whole games, or function
/// calls), its remaining cases of that kind are not run but judged
/// `timeout`, with the reason, so one looping program costs a few
/// timeouts rather than one per case. The kinds are counted apart: a
/// Python file whose game loops may still have working functions.
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

    /// Makes the cases' outcomes what running them one at a time gives,
    /// whatever order they were run in: a case that timeouts of its kind
    /// earlier in the suite had already made not to run is judged so, even
    /// if a worker ran it before those timeouts were counted (cases start
    /// in order, so one not run in parallel is never one that would have
    /// run alone).
    fn settle<K>(
        &self,
        cases: &[Prepared<'_>],
        outcomes: &mut [(CaseOutcome, K)],
        digest: Digest<'_, K>,
    ) {
        if self.limit == 0 {
            return;
        }
        let mut seen = [0; 2];
        for (prepared, (outcome, digested)) in cases.iter().zip(outcomes.iter_mut()) {
            let seen = &mut seen[Timeouts::kind(prepared.case)];
            if *seen >= self.limit {
                *outcome = self.not_run();
                *digested = digest(prepared, outcome);
            } else if outcome.judgement.verdict == Verdict::Timeout {
                *seen += 1;
            }
        }
    }

    /// The outcome of a case not run because of the timeouts before it.
    fn not_run(&self) -> CaseOutcome {
        let judgement = Judgement::nothing(
            Verdict::Timeout,
            format!(
                "not run: your program had already run out of time on {} cases like this \
                 one, so the rest count as timed out too",
                self.limit
            ),
        );
        outcome(judgement, Faults::default(), None, None)
    }

    /// The outcome of `prepared`: `run` it, unless the submission has
    /// already timed out too often on cases of its kind.
    fn run(
        &self,
        prepared: &Prepared<'_>,
        run: impl FnOnce() -> Result<CaseOutcome, Error>,
    ) -> Result<CaseOutcome, Error> {
        let count = self.count(prepared.case);
        if self.limit > 0 && count.load(Ordering::Relaxed) >= self.limit {
            return Ok(self.not_run());
        }
        let outcome = run()?;
        if outcome.judgement.verdict == Verdict::Timeout {
            count.fetch_add(1, Ordering::Relaxed);
        }
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
    let case = prepared.case;
    match (&prepared.expected, &case.call) {
        (Expected::Call(expected), Some(call)) => call_case(built, suite, case, call, expected),
        (Expected::Play(expected), _) => {
            let (_jail, result) = execute(&built.program, suite, case, feed)?;
            let setting = judge::Setting {
                case,
                game: suite.game(),
                regions: &suite.regions,
                graded: &suite.graded,
                expected,
            };
            let want = || prepared.reading(suite.game(), expected);
            let (judgement, faults) = crate::timings::time(Phase::Judging, || {
                judge::whole_game(&setting, want, &result)
            });
            Ok(outcome(judgement, faults, Some(result), None))
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
    let run = || submission::execute(program, case.typed(), &case.limits, &suite.support, feed);
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
        diffed: OnceLock::new(),
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
