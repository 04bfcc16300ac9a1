//! Exploring: generated games played by a program and by the reference,
//! until one is played differently; that game is then shrunk to a
//! minimal one that still shows the same difference.
//!
//! - [`rng`]: the seeded numbers every game is made from; game `i` of a
//!   seed is the same game whichever worker makes it, on any machine.
//! - one generator per game ([`connect4`], [`connect4_bomb`],
//!   [`pentago`]), each a [`Model`]: it makes games that use only what
//!   SPEC.md defines (never an input or an ending the handout leaves
//!   open), biased towards the places bugs hide, and knows how to make a
//!   game simpler without making it ill-formed;
//! - [`search`]: running games in the same sandbox, under the same limits
//!   and feeding as grading, judged as grading judges the suite's cases,
//!   on every core, until the first that differs;
//! - [`shrink`]: delta debugging over a game's moves;
//! - [`save`]: the minimal game as a ready case file, pinned transcript
//!   included;
//! - [`show`]: the minimal game and its explanation, in words.

use std::time::{Duration, Instant};

use reference::Game;

use crate::call::Call;
use crate::case::{Case, Suite};
use crate::grading::CaseOutcome;
use crate::run::Feed;
use crate::submission::Built;
use crate::verdict::Verdict;

pub mod connect4;
pub mod connect4_bomb;
mod drops;
pub mod pentago;
pub mod rng;
pub mod save;
pub mod search;
pub mod show;
pub mod shrink;

pub use rng::Rng;
pub use search::Runner;

/// What one generated game asks of a program: lines typed into a whole
/// game, or (connect4-bomb) one function called on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Task {
    /// The lines typed, without newlines.
    Input(Vec<String>),
    /// One function of a Python submission.
    Call(Call),
}

impl Task {
    /// A text that names the task exactly, for telling tasks apart.
    pub fn key(&self) -> String {
        match self {
            Task::Input(lines) => format!("input\n{}", lines.join("\n")),
            Task::Call(call) => format!("call\n{}", call.request()),
        }
    }
}

/// A game's generator and shrinker.
pub trait Model: Sync {
    /// A generated game, as the shrinker changes it.
    type Game: Clone + Send + Sync;

    /// A new game from `rng`.
    fn generate(&self, rng: &mut Rng) -> Self::Game;

    /// What the program is given.
    fn task(&self, game: &Self::Game) -> Task;

    /// Simpler games, each well-formed, the most promising first: fewer
    /// moves before plainer ones.
    fn simpler(&self, game: &Self::Game) -> Vec<Self::Game>;

    /// How big a game is: its moves, then how plain they are. Shrinking
    /// only ever takes a smaller game, so it ends.
    fn measure(&self, game: &Self::Game) -> (usize, usize);

    /// The game in a few words, for reports ("11 moves", "a call of
    /// drop_piece on a 4×4 board with 3 pieces").
    fn describe(&self, game: &Self::Game) -> String;
}

/// How far to explore.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many games at most: the same games, and the same result,
    /// everywhere.
    Games(usize),
    /// Games until this much time has gone by: the same games in the same
    /// order, as many as the machine plays in the time.
    Time(Duration),
}

/// How to explore.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The seed the games are made from.
    pub seed: u64,
    /// How far to go.
    pub budget: Budget,
    /// Games played at once.
    pub jobs: usize,
    /// How input is given (as in grading).
    pub feed: Feed,
    /// Runs the shrinker may make at most (counted as if one at a time,
    /// so that the result does not depend on `jobs`).
    pub shrink_runs: usize,
}

/// The games explored when no budget is given.
pub const DEFAULT_GAMES: usize = 2000;

/// The seed when none is given.
pub const DEFAULT_SEED: u64 = 0;

/// The most runs a shrink makes: enough for a 36-move game; a program
/// that runs out of time on every game would otherwise take hours.
pub const SHRINK_RUNS: usize = 600;

/// The most runs a shrink makes when the game found runs out of time:
/// each run that still does takes the whole time limit.
pub const TIMEOUT_SHRINK_RUNS: usize = 12;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: DEFAULT_SEED,
            budget: Budget::Games(DEFAULT_GAMES),
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            feed: Feed::Interactive,
            shrink_runs: SHRINK_RUNS,
        }
    }
}

/// A game the program played differently, shrunk.
#[derive(Clone, Debug)]
pub struct Found {
    /// Which generated game it was (from 0).
    pub index: usize,
    /// The generated game in a few words, before shrinking.
    pub generated: String,
    /// The minimal game.
    pub task: Task,
    /// The minimal game in a few words.
    pub described: String,
    /// Its moves (lines typed, turns, or pieces on a called board).
    pub moves: usize,
    /// The case that plays it, with the suite's settings.
    pub case: Case,
    /// How the program did on it.
    pub outcome: CaseOutcome,
    /// Runs the shrinker made.
    pub shrink_runs: usize,
}

/// What exploring found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The game.
    pub game: Game,
    /// The seed.
    pub seed: u64,
    /// Games played: up to and including the one that differed, or all.
    pub games: usize,
    /// Time taken, shrinking included.
    pub elapsed: Duration,
    /// The first game played differently, shrunk; `None` when every game
    /// was played as the reference plays it.
    pub found: Option<Found>,
}

/// Why exploring could not be done: the grader's trouble, never the
/// program's (what the program does is in the [`Report`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The suite's `suite.yaml` could not be used for generated games.
    #[error("cannot use the settings of {suite} for generated games: {why}")]
    Suite {
        /// The suite's folder.
        suite: String,
        /// What went wrong.
        why: String,
    },
    /// A run could not be made (no sandbox, no process to spare).
    #[error("{0}")]
    Run(String),
    /// A case file could not be written.
    #[error("{path}: cannot write it: {source}")]
    Write {
        /// The file or folder.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The folder to save in holds a suite of another game, or a broken
    /// one.
    #[error("{0}")]
    Folder(String),
    /// The game has no generator (see [`generator`]).
    #[error("{0} cannot be explored: it has no generator of games")]
    NoGenerator(Game),
    /// Input cannot be given one line at a time when the program waits.
    #[error(
        "exploring needs input typed one line each time the program waits for it, and {0}: a \
         generated game cut short would reach the end of its input, which the handouts leave \
         open (run `referee doctor` to see how this machine watches programs)"
    )]
    Feed(&'static str),
}

/// Whether a program's play of a game counts as different: every
/// verdict but a pass (a game-mode case's format difference is a pass in
/// play).
pub fn differs(outcome: &CaseOutcome) -> bool {
    !matches!(
        outcome.judgement.verdict,
        Verdict::Pass | Verdict::FormatDiffers
    )
}

/// Explores `built` on generated games of `suite`'s game, judged under
/// the suite's settings.
pub fn explore(built: &Built, suite: &Suite, settings: &Settings) -> Result<Report, Error> {
    if settings.feed == Feed::AllAtOnce {
        return Err(Error::Feed("--feed all-at-once was asked for"));
    }
    if crate::run::detection_method().starts_with("not detected") {
        return Err(Error::Feed("this machine cannot tell when a program waits"));
    }
    let start = Instant::now();
    let template = search::template(suite)?;
    let runner = Runner {
        built,
        suite,
        template: &template,
        feed: settings.feed,
    };
    let (games, found) = generator(suite.game)
        .ok_or(Error::NoGenerator(suite.game))?
        .explore(&runner, settings)?;
    Ok(Report {
        game: suite.game,
        seed: settings.seed,
        games,
        elapsed: start.elapsed(),
        found,
    })
}

/// The games `settings` would explore for `game`, without running them:
/// for tests and for reading what a seed holds (none for a game without
/// a generator).
pub fn generated(game: Game, seed: u64, count: usize) -> Vec<Task> {
    generator(game).map_or_else(Vec::new, |g| g.tasks(seed, count))
}

/// A [`Model`] whatever its type of game: what exploring asks of a
/// game's generator.
pub trait Explorer: Sync {
    /// Plays generated games until one differs, then shrinks it (see
    /// [`search::explore`]).
    fn explore(
        &self,
        runner: &Runner<'_>,
        settings: &Settings,
    ) -> Result<(usize, Option<Found>), Error>;

    /// What games `0..count` of `seed` give the program.
    fn tasks(&self, seed: u64, count: usize) -> Vec<Task>;
}

impl<M: Model> Explorer for M {
    fn explore(
        &self,
        runner: &Runner<'_>,
        settings: &Settings,
    ) -> Result<(usize, Option<Found>), Error> {
        search::explore(self, runner, settings)
    }

    fn tasks(&self, seed: u64, count: usize) -> Vec<Task> {
        (0..count)
            .map(|i| self.task(&self.generate(&mut Rng::for_game(seed, i as u64))))
            .collect()
    }
}

/// Each game's generator. This table, not [`crate::games`], names them
/// because generators sit above grading and the registry below it.
static GENERATORS: &[(Game, &dyn Explorer)] = &[
    (Game::Connect4, &connect4::Connect4),
    (Game::Connect4Bomb, &connect4_bomb::Connect4Bomb),
    (Game::Pentago, &pentago::Pentago),
];

/// The generator of `game`, if it has one.
pub fn generator(game: Game) -> Option<&'static dyn Explorer> {
    GENERATORS
        .iter()
        .find(|(g, _)| *g == game)
        .map(|(_, explorer)| *explorer)
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn every_game_has_a_generator() {
        for game in Game::ALL {
            assert!(generator(*game).is_some(), "{game}");
            assert_eq!(generated(*game, 1, 3).len(), 3);
        }
    }
}
