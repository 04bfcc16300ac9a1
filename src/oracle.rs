//! The oracle: what a suite's reference does on a case's input, whichever
//! kind of reference the suite has. A game built into referee runs
//! in-process; a program of the suite's own (the instructor's solution)
//! is built with the suite's compile settings and run exactly as a
//! student's program is (the same sandbox, limits, feeding on read,
//! support files). Everything downstream (pinning, grading, exploring,
//! reports) asks here, and never forks on which kind it is.
//!
//! Grading reads a case's pinned transcript when there is one for the
//! case's input ([`crate::case::pin`]), so a suite that ships its pins
//! grades without its reference program (an instructor can keep the
//! solution and still hand the suite to TAs) and no reference runs for a
//! student's `check`; the reference runs when a case has no pin (a new
//! case, a generated game), and for `cases validate` and `cases update`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::case::pin::{self, PinState};
use crate::case::{Case, Reference, Suite};
use crate::expected::{self, ReferenceRun};
use crate::fault::Fault;
use crate::judge;
use crate::run::{Ending, Feed};
use crate::submission::{self, BuildError, Built, Support};

/// Why the reference could not say what a case expects.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Error {
    /// The reference program is not there, and a case has no pin.
    #[error(
        "case {case} has no pinned transcript, and the reference program {program} that would \
         make it does not exist: put the program there (suite.yaml's `reference`), or run \
         `referee cases update` where it is and ship the pins"
    )]
    Missing {
        /// The program, as the suite names it.
        program: PathBuf,
        /// The case.
        case: String,
    },
    /// The reference program does not build.
    #[error("the reference program {program} does not compile, so no case can be judged; the compiler said:\n{messages}")]
    DoesNotBuild {
        /// The program.
        program: PathBuf,
        /// The compiler's messages.
        messages: String,
    },
    /// The suite's own library (`link:`) does not compile.
    #[error("{0}")]
    Library(String),
    /// The reference program failed on a case.
    #[error("the reference program {program} {what} on case {case}, so the case cannot be judged: fix the program or the case")]
    Failed {
        /// The program.
        program: PathBuf,
        /// The case.
        case: String,
        /// What happened ("crashed with SIGSEGV").
        what: String,
    },
    /// What the reference printed cannot be pinned.
    #[error("case {case}: {source}")]
    Unpinnable {
        /// The case.
        case: String,
        /// Why.
        source: pin::Unpinnable,
    },
    /// A compiler the suite chose is not installed here: said once,
    /// before anything is graded.
    #[error("{0}")]
    NoCompiler(String),
    /// The grader could not build or run the reference.
    #[error("cannot run the reference program {program}: {why}")]
    Grader {
        /// The program.
        program: PathBuf,
        /// Why.
        why: String,
    },
}

impl Error {
    /// Whose fault it is: the suite's (its program, its cases), unless
    /// the machine could not run it.
    pub fn fault(&self) -> Fault {
        match self {
            Error::Grader { .. } | Error::NoCompiler(_) => Fault::Grader,
            _ => Fault::Suite,
        }
    }
}

/// What the reference does on a whole-game case: its pin when the pin is
/// of the case's input, else a run of the reference.
pub fn expected(suite: &Suite, case: &Case) -> Result<ReferenceRun, Error> {
    expected_timed(suite, case).map(|(run, _)| run)
}

/// [`expected`], with the time on the clock the reference program took
/// when it ran: `None` for a pin and for a game built into referee (run
/// in-process, it has no program's time).
pub fn expected_timed(
    suite: &Suite,
    case: &Case,
) -> Result<(ReferenceRun, Option<Duration>), Error> {
    if let Ok(Some(text)) = pin::read(case) {
        if let Ok(run) = pin::parse_case(&text, case) {
            return Ok((run, None));
        }
    }
    run_timed(suite, case)
}

/// Runs the reference on `case`: its input and arguments, its files in
/// the working folder, under its limits; what it left of the case's
/// `outputs` is read (a file it did not leave is its failure).
pub fn run(suite: &Suite, case: &Case) -> Result<ReferenceRun, Error> {
    run_timed(suite, case).map(|(run, _)| run)
}

/// [`run`], with the reference program's time on the clock (`None` for a
/// built-in game).
fn run_timed(suite: &Suite, case: &Case) -> Result<(ReferenceRun, Option<Duration>), Error> {
    let (input, limits, label) = (case.typed(), &case.limits, case.name.as_str());
    let program = match &suite.reference {
        Reference::Game(game) => return Ok((expected::play(*game, input.lines, input.ends), None)),
        Reference::Program(program) => program,
    };
    let built = self::program(suite, program, label)?;
    let provided: Vec<Support> = suite.support.iter().chain(&case.files).cloned().collect();
    let (jail, ran) = submission::execute(
        &built.program.with_args(&case.args),
        input,
        limits,
        &provided,
        Feed::Interactive,
    )
    .map_err(|e| Error::Grader {
        program: program.clone(),
        why: e.to_string(),
    })?;
    let failed = |what: String| Error::Failed {
        program: program.clone(),
        case: label.to_string(),
        what,
    };
    let (waited_at_end, status) = match ran.ending {
        Ending::Exited(status) => (false, status),
        Ending::WaitingForInput => (true, 0),
        Ending::Signaled(signal) => {
            return Err(failed(format!(
                "was killed by {}",
                crate::verdict::signal_words(signal)
            )))
        }
        Ending::TimedOut(_) => {
            return Err(failed(format!(
                "was still running after its time limit ({})",
                crate::text::seconds(limits.wall)
            )))
        }
        Ending::OutputLimit => {
            return Err(failed(format!(
                "printed more than the output limit ({}, or {} lines)",
                crate::text::size(limits.output),
                crate::text::visible::thousands(limits.lines() as u64)
            )))
        }
        Ending::MemoryLimit => return Err(failed("ran out of memory".into())),
    };
    let mut files = Vec::with_capacity(case.outputs.len());
    for left in judge::outputs::collect(jail.workdir(), &case.outputs, limits.output) {
        match (left.refusal(), left.left) {
            (_, judge::outputs::Left::File(bytes)) => files.push((left.name, bytes)),
            (Some(refusal), _) => return Err(failed(refusal)),
            (None, _) => {}
        }
    }
    drop(jail);
    let took = ran.wall;
    let run = ReferenceRun {
        transcript: ran.transcript,
        waited_at_end,
        status,
        files,
    };
    Ok((run, Some(took)))
}

/// Whether the reference can run here: a built-in game always, a program
/// when its file is there.
pub fn available(suite: &Suite) -> bool {
    match &suite.reference {
        Reference::Game(_) => true,
        Reference::Program(program) => program.is_file(),
    }
}

/// The text to pin for `case`: the reference's transcript, or for a
/// function call what the reference's function returns and leaves.
pub fn pin_text(suite: &Suite, case: &Case) -> Result<Vec<u8>, Error> {
    if let Some(call) = &case.call {
        return Ok(call.pin().into_bytes());
    }
    let ran = run(suite, case)?;
    pin::pinned_case(&ran, case).map_err(|source| Error::Unpinnable {
        case: case.name.clone(),
        source,
    })
}

/// How a case's pin compares with what the reference does now.
pub fn pin_state(suite: &Suite, case: &Case) -> Result<Result<PinState, std::io::Error>, Error> {
    let current = pin_text(suite, case)?;
    Ok(pin::compare(case, &current))
}

/// Pins what the reference does now on `case`; true when the file
/// changed.
pub fn update_pin(suite: &Suite, case: &Case) -> Result<Result<bool, std::io::Error>, Error> {
    let current = pin_text(suite, case)?;
    Ok(pin::write(case, &current))
}

/// Reference programs built so far in this process: each is built once,
/// whatever number of cases, students and generated games need it.
type Builds = Mutex<HashMap<(PathBuf, Vec<String>), Result<Arc<Built>, Error>>>;

fn builds() -> &'static Builds {
    static BUILDS: OnceLock<Builds> = OnceLock::new();
    BUILDS.get_or_init(Builds::default)
}

/// A program of the suite's (its reference, its generator), built once
/// with the suite's compile settings and its support files. Whoever asks
/// while it is being built waits for that build; `label` says who asked,
/// for the message when the program is not there.
pub fn program(suite: &Suite, program: &Path, label: &str) -> Result<Arc<Built>, Error> {
    let key = (program.to_path_buf(), suite.compile.fingerprinted());
    let mut builds = builds().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(done) = builds.get(&key) {
        return done.clone();
    }
    let done = build(suite, program, label).map(Arc::new);
    builds.insert(key, done.clone());
    done
}

fn build(suite: &Suite, program: &Path, label: &str) -> Result<Built, Error> {
    if !program.exists() {
        return Err(Error::Missing {
            program: program.to_path_buf(),
            case: label.to_string(),
        });
    }
    let grader = |why: String| Error::Grader {
        program: program.to_path_buf(),
        why,
    };
    let found = submission::locate(program).map_err(|e| grader(e.to_string()))?;
    submission::build(&found, &suite.compile, &suite.support).map_err(|e| match e {
        BuildError::Compile(messages) => Error::DoesNotBuild {
            program: program.to_path_buf(),
            messages: crate::results::compiler_messages(&messages),
        },
        BuildError::Refused(refusal) => grader(refusal.to_string()),
        BuildError::Grader(why) => grader(why),
        BuildError::Library(messages) => Error::Library(messages),
    })
}
