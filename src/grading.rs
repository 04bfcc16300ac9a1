//! Grading one submission: build it once, run it on each case against the
//! reference's transcript, and judge every run. Used by `check` (one
//! student) and `grade` (a class).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::case::{Case, Suite};
use crate::expected::{run_reference, ReferenceRun};
use crate::run::{self, Feed, RunResult};
use crate::submission::{self, BuildError, Built, Submission};
use crate::verdict::{judge, Judgement, Verdict};

/// How to grade.
#[derive(Clone, Debug)]
pub struct Settings {
    /// C compiler flags; `None` for the suite's, or the defaults.
    pub cflags: Option<Vec<String>>,
    /// How input is given.
    pub feed: Feed,
    /// Cases run at once.
    pub jobs: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            cflags: None,
            feed: Feed::Interactive,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// A case with the reference's run of it, computed once per suite.
#[derive(Clone, Debug)]
pub struct Prepared<'s> {
    /// The case.
    pub case: &'s Case,
    /// What the reference does with its input.
    pub expected: ReferenceRun,
}

/// Runs the reference on each case.
pub fn prepare<'s>(
    suite: &'s Suite,
    cases: impl IntoIterator<Item = &'s Case>,
) -> Vec<Prepared<'s>> {
    cases
        .into_iter()
        .map(|case| Prepared {
            case,
            expected: run_reference(suite.game, &case.input),
        })
        .collect()
}

/// What happened on one case.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    /// The verdict and why.
    pub judgement: Judgement,
    /// Points earned.
    pub score: f64,
    /// The run, if the program ran (not after a compile error).
    pub run: Option<RunResult>,
}

/// Why a submission has no case results of its own.
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
}

impl Graded {
    /// Points earned over all cases.
    pub fn score(&self) -> f64 {
        self.outcomes.iter().map(|o| o.score).sum()
    }
}

/// Builds `submission` and runs it on every prepared case. Fails only
/// when the grader cannot do its part (no compiler, no terminal).
pub fn grade(
    submission: &Submission,
    suite: &Suite,
    cases: &[Prepared<'_>],
    settings: &Settings,
) -> Result<Graded, String> {
    let default_flags: Vec<String> = submission::DEFAULT_CFLAGS
        .iter()
        .map(|s| s.to_string())
        .collect();
    let cflags = settings
        .cflags
        .as_ref()
        .or(suite.compile_flags.as_ref())
        .unwrap_or(&default_flags);
    let built = match submission::build(submission, cflags) {
        Ok(built) => built,
        Err(BuildError::Compile(messages)) => return Ok(not_compiled(cases, messages)),
        Err(BuildError::Grader(message)) => return Err(message),
    };
    let outcomes = run_all(&built, suite, cases, settings)?;
    Ok(Graded {
        status: Status::Graded,
        warnings: built.warnings.clone(),
        outcomes,
    })
}

fn not_compiled(cases: &[Prepared<'_>], messages: String) -> Graded {
    let outcome = CaseOutcome {
        judgement: Judgement {
            verdict: Verdict::CompileError,
            reason: "your program does not compile".into(),
            output_matches: false,
        },
        score: 0.0,
        run: None,
    };
    Graded {
        status: Status::CompileError(messages),
        warnings: String::new(),
        outcomes: vec![outcome; cases.len()],
    }
}

/// Runs the cases, `settings.jobs` at a time; results keep the cases'
/// order whatever order they finish in.
fn run_all(
    built: &Built,
    suite: &Suite,
    cases: &[Prepared<'_>],
    settings: &Settings,
) -> Result<Vec<CaseOutcome>, String> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Result<CaseOutcome, String>>> = vec![None; cases.len()];
    let slots: Vec<std::sync::Mutex<&mut Option<Result<CaseOutcome, String>>>> =
        results.iter_mut().map(std::sync::Mutex::new).collect();
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.clamp(1, cases.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(prepared) = cases.get(i) else { break };
                let outcome = run_case(built, suite, prepared, settings.feed);
                if let Ok(mut slot) = slots[i].lock() {
                    **slot = Some(outcome);
                }
            });
        }
    });
    drop(slots);
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("a case was not run".into())))
        .collect()
}

/// Runs one case in a fresh working folder and judges it.
pub fn run_case(
    built: &Built,
    suite: &Suite,
    prepared: &Prepared<'_>,
    feed: Feed,
) -> Result<CaseOutcome, String> {
    let case = prepared.case;
    let workdir = tempfile::Builder::new()
        .prefix("referee-run-")
        .tempdir()
        .map_err(|e| format!("cannot make a working folder: {e}"))?;
    let env = run::clean_env(workdir.path());
    let result = run::run(
        &built.program,
        &case.input,
        &case.limits,
        workdir.path(),
        &env,
        feed,
    )
    .map_err(|e| format!("cannot run {}: {e}", program_name(built)))?;
    let judgement = judge(
        &prepared.expected,
        &result,
        &case.compare,
        &suite.regions,
        &case.limits,
    );
    let score = if judgement.verdict == Verdict::Pass {
        case.points
    } else {
        0.0
    };
    Ok(CaseOutcome {
        judgement,
        score,
        run: Some(result),
    })
}

fn program_name(built: &Built) -> String {
    built
        .program
        .argv
        .first()
        .map(|p| PathBuf::from(p).display().to_string())
        .unwrap_or_default()
}
