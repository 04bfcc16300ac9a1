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
//! - [`kept`]: what was found, as results keep it (the minimal game and
//!   its explanation in words are [`crate::explain::found`]'s).

use std::time::Instant;

use reference::Game;

use crate::case::Suite;
use crate::run::Feed;
use crate::submission::Built;

pub mod connect4;
pub mod connect4_bomb;
mod drops;
pub mod kept;
mod model;
pub mod pentago;
pub mod rng;
pub mod save;
pub mod search;
pub mod shrink;

pub use model::{
    differs, Budget, Error, Found, Model, Report, Settings, Task, DEFAULT_GAMES, DEFAULT_SEED,
    SHRINK_RUNS, TIMEOUT_SHRINK_RUNS,
};
pub use rng::Rng;
pub use search::Runner;

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
