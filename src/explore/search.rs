//! Playing generated games: each in the same sandbox, under the same
//! limits and feeding, and judged the same way as a case of the suite,
//! on every core, until the first game the program plays differently.

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::shrink::{self, Shrunk};
use super::{differs, Budget, Error, Found, Model, Rng, Settings, Task};
use crate::case::{self, Case, Mode, MoveNumbers, Reference, Suite, SUITE_FILE};
use crate::grading::{self, CaseOutcome, Expected};
use crate::run::Feed;
use crate::submission::Built;
use crate::verdict::Verdict;

/// The file name of the case the suite's defaults are read into.
const TEMPLATE: &str = "explored.yaml";

/// The suite's `suite.yaml` for explored cases: its game, title,
/// defaults, regions and compiler flags, without its rubric. A rubric
/// shares the handout's points among a suite's cases; an explored game
/// earns points for no item of it.
pub fn settings_for_explored(suite: &Suite) -> Result<String, Error> {
    let trouble = |why: String| Error::Suite {
        suite: suite.dir.display().to_string(),
        why,
    };
    let text = fs::read_to_string(suite.dir.join(SUITE_FILE))
        .map_err(|e| trouble(format!("cannot read its {SUITE_FILE}: {e}")))?;
    let mut settings: serde_yaml::Mapping = serde_yaml::from_str(&text)
        .map_err(|e| trouble(format!("cannot read its {SUITE_FILE}: {e}")))?;
    settings.remove("rubric");
    // The explored cases live in another folder: programs are named
    // where they are; support files are copied beside the cases.
    let absolute = |path: &Path| {
        std::path::absolute(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .display()
            .to_string()
    };
    if let Reference::Program(program) = &suite.reference {
        settings.insert("reference".into(), absolute(program).into());
        settings.insert("name".into(), suite.name.clone().into());
    }
    if let Some(generator) = &suite.generator {
        settings.insert("generator".into(), absolute(generator).into());
    }
    let body = serde_yaml::to_string(&settings)
        .map_err(|e| trouble(format!("cannot write its settings: {e}")))?;
    Ok(format!(
        "# The settings of {}, for cases found by `referee explore` (its rubric\n\
         # left out: an explored game earns points for no item of it).\n{body}",
        case::origin(suite)
    ))
}

/// Copies the suite's support files into `folder`, at their places, for
/// a folder made with [`settings_for_explored`].
pub fn copy_support(suite: &Suite, folder: &Path) -> Result<(), Error> {
    crate::submission::provide(folder, &suite.support).map_err(|e| Error::Write {
        path: folder.display().to_string(),
        source: std::io::Error::other(e.to_string()),
    })
}

/// Whether two suites are judged against the same reference: the same
/// built-in game, or the same program.
pub fn same_reference(a: &Suite, b: &Suite) -> bool {
    match (&a.reference, &b.reference) {
        (Reference::Game(x), Reference::Game(y)) => x == y,
        (Reference::Program(x), Reference::Program(y)) => {
            let canonical = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            canonical(x) == canonical(y)
        }
        _ => false,
    }
}

/// A case with the suite's defaults (limits, comparison, mode) and no
/// input yet: what every generated game is played as. The case loader is
/// the one place defaults are applied, so the suite's settings are
/// loaded beside a case of nothing, in a folder of its own.
///
/// A suite shares each fault out to the cases about it (move numbers
/// ignored elsewhere, the ending worth points only in the cases about
/// exiting, the text only in the cases about the format); a generated
/// game is about everything the program does. So its case is worth 1
/// point, of which, in game mode, half is for how the run ends (a
/// program still waiting where the reference stopped plays differently)
/// and none for the text; move numbers a suite ignores are judged where
/// a program shows them.
pub fn template(suite: &Suite) -> Result<Case, Error> {
    let trouble = |why: String| Error::Suite {
        suite: suite.dir.display().to_string(),
        why,
    };
    let folder = tempfile::tempdir().map_err(|e| trouble(format!("no temporary folder: {e}")))?;
    fs::write(
        folder.path().join(SUITE_FILE),
        settings_for_explored(suite)?,
    )
    .and_then(|()| fs::write(folder.path().join(TEMPLATE), "input: []\n"))
    .map_err(|e| trouble(format!("cannot copy it: {e}")))?;
    copy_support(suite, folder.path())?;
    let loaded = case::load_suite(folder.path()).map_err(|p| trouble(p.to_string()))?;
    if let Some(problem) = loaded.problems.first() {
        return Err(trouble(problem.to_string()));
    }
    let mut case = loaded
        .cases
        .into_iter()
        .next()
        .ok_or_else(|| trouble("its defaults make no case".into()))?;
    case.description = None;
    case.rubric = None;
    case.points = 1.0;
    case.format_points = 0.0;
    case.ending_points = match case.mode {
        Mode::Game => 0.5,
        Mode::Text | Mode::Ending | Mode::Files => 0.0,
    };
    if case.move_numbers == MoveNumbers::Ignored {
        case.move_numbers = MoveNumbers::Optional;
    }
    Ok(case)
}

/// A generated game, played: the case it was played as, and how.
#[derive(Clone, Debug)]
pub struct Ran {
    /// The case, with the suite's settings.
    pub case: Case,
    /// What the reference did on it.
    pub expected: Expected,
    /// The program's outcome.
    pub outcome: CaseOutcome,
}

/// Plays tasks with one built program.
pub struct Runner<'a> {
    /// The program.
    pub built: &'a Built,
    /// The suite whose settings judge it.
    pub suite: &'a Suite,
    /// A case with the suite's defaults.
    pub template: &'a Case,
    /// How input is given.
    pub feed: Feed,
}

impl Runner<'_> {
    /// The case that plays `task`.
    pub fn case(&self, task: &Task) -> Case {
        let mut case = self.template.clone();
        match task {
            Task::Input(lines) => {
                case.input = lines.clone();
                case.call = None;
            }
            Task::Call(call) => {
                case.input = Vec::new();
                case.call = Some(call.clone());
            }
        }
        case
    }

    /// Plays one task, as grading plays a case.
    pub fn run(&self, task: &Task) -> Result<Ran, Error> {
        let case = self.case(task);
        let (expected, outcome) = {
            let prepared = grading::prepare(self.suite, [&case])?;
            let outcome = grading::run_case(self.built, self.suite, &prepared[0], self.feed)
                .map_err(|e| Error::Run(e.to_string()))?;
            (prepared[0].expected.clone(), outcome)
        };
        Ok(Ran {
            case,
            expected,
            outcome,
        })
    }

    /// Plays `tasks`, `jobs` at once; results in the tasks' order.
    pub fn run_all(&self, tasks: &[Task], jobs: usize) -> Result<Vec<Ran>, Error> {
        if jobs <= 1 || tasks.len() <= 1 {
            return tasks.iter().map(|t| self.run(t)).collect();
        }
        let next = AtomicUsize::new(0);
        let slots: Vec<Mutex<Option<Result<Ran, Error>>>> =
            tasks.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..jobs.min(tasks.len()) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(task) = tasks.get(i) else { break };
                    let ran = self.run(task);
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = Some(ran);
                    }
                });
            }
        });
        slots
            .into_iter()
            .map(|slot| {
                slot.into_inner()
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| Err(Error::Run("a run was lost".into())))
            })
            .collect()
    }
}

/// What the workers share while exploring.
struct Shared<G> {
    next: AtomicUsize,
    played: AtomicUsize,
    /// The smallest index of a game found to differ so far.
    first: AtomicUsize,
    found: Mutex<Vec<(usize, G, Ran)>>,
    failure: Mutex<Option<Error>>,
}

/// Plays the generated games of `settings` until one differs, then
/// shrinks it. Returns the games played (up to and including the one that
/// differed) and what was found. The game found is the first of the
/// sequence that differs whatever order the workers finished in: once
/// game `i` differs no game after it is started, and every game before it
/// was started already and is played to its end.
pub fn explore<M: Model + ?Sized>(
    model: &M,
    runner: &Runner<'_>,
    settings: &Settings,
) -> Result<(usize, Option<Found>), Error> {
    let (limit, deadline) = match settings.budget {
        Budget::Games(n) => (n, None),
        Budget::Time(time) => (usize::MAX, Some(Instant::now() + time)),
    };
    let shared = Shared {
        next: AtomicUsize::new(0),
        played: AtomicUsize::new(0),
        first: AtomicUsize::new(usize::MAX),
        found: Mutex::new(Vec::new()),
        failure: Mutex::new(None),
    };
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.clamp(1, limit.max(1)) {
            scope.spawn(|| work(model, runner, settings.seed, limit, deadline, &shared));
        }
    });
    if let Some(error) = shared.failure.into_inner().ok().flatten() {
        return Err(error);
    }
    let mut found = shared.found.into_inner().unwrap_or_default();
    found.sort_by_key(|(i, _, _)| *i);
    let Some((index, game, ran)) = found.into_iter().next() else {
        return Ok((shared.played.load(Ordering::Relaxed), None));
    };
    let shrunk = shrink_found(model, runner, settings, game.clone(), ran)?;
    Ok((
        index + 1,
        Some(found_from(model, settings.seed, index, &game, shrunk)),
    ))
}

/// One worker: takes the next game, plays it, until the budget is spent
/// or a game before the next one differed.
fn work<M: Model + ?Sized>(
    model: &M,
    runner: &Runner<'_>,
    seed: u64,
    limit: usize,
    deadline: Option<Instant>,
    shared: &Shared<M::Game>,
) {
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        if shared.failure.lock().map_or(true, |f| f.is_some()) {
            break;
        }
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if i >= limit || i > shared.first.load(Ordering::Relaxed) {
            break;
        }
        let game = model.generate(&mut Rng::for_game(seed, i as u64));
        match runner.run(&model.task(&game)) {
            Ok(ran) => {
                shared.played.fetch_add(1, Ordering::Relaxed);
                if differs(&ran.outcome) {
                    shared.first.fetch_min(i, Ordering::Relaxed);
                    if let Ok(mut found) = shared.found.lock() {
                        found.push((i, game, ran));
                    }
                }
            }
            Err(error) => {
                if let Ok(mut failure) = shared.failure.lock() {
                    failure.get_or_insert(error);
                }
                break;
            }
        }
    }
}

/// Shrinks a game found to differ, keeping the kind of difference: a
/// crash, a timeout or a limit stays what it was (a candidate that
/// crashes where the program printed the wrong thing shows another
/// difference, not a smaller one of this), while printing other things
/// and asking for input the reference does not are one kind (a missed
/// win ends the game in a tie on a full board, and keeps asking on a
/// board with room).
fn shrink_found<M: Model + ?Sized>(
    model: &M,
    runner: &Runner<'_>,
    settings: &Settings,
    game: M::Game,
    ran: Ran,
) -> Result<Shrunk<M::Game, Ran>, Error> {
    let verdict = ran.outcome.judgement.verdict;
    let wanted = kind(verdict);
    let runs = if verdict == Verdict::Timeout {
        settings.shrink_runs.min(super::TIMEOUT_SHRINK_RUNS)
    } else {
        settings.shrink_runs
    };
    let limits = shrink::Limits {
        runs,
        width: settings.jobs.max(1),
    };
    shrink::shrink(model, game, ran, limits, |tasks| {
        Ok(runner
            .run_all(tasks, settings.jobs)?
            .into_iter()
            .map(|ran| (kind(ran.outcome.judgement.verdict) == wanted).then_some(ran))
            .collect())
    })
}

/// What kind of difference a verdict is: printed or asked otherwise, or
/// how the run ended.
fn kind(verdict: Verdict) -> Option<Verdict> {
    match verdict {
        Verdict::Pass | Verdict::FormatDiffers => None,
        Verdict::WrongOutput | Verdict::WaitingForInput => Some(Verdict::WrongOutput),
        other => Some(other),
    }
}

fn found_from<M: Model + ?Sized>(
    model: &M,
    seed: u64,
    index: usize,
    generated: &M::Game,
    shrunk: Shrunk<M::Game, Ran>,
) -> Found {
    let mut case = shrunk.evidence.case;
    case.name = format!("explore-seed{seed}-game{}", index + 1);
    Found {
        index,
        generated: model.describe(generated),
        task: model.task(&shrunk.game),
        described: model.describe(&shrunk.game),
        moves: model.measure(&shrunk.game).0,
        case,
        expected: shrunk.evidence.expected,
        outcome: shrunk.evidence.outcome,
        shrink_runs: shrunk.runs,
    }
}
