//! Exploring: generated games played by a program and by the reference,
//! until one is played differently; that game is then shrunk to a
//! minimal one that still shows the same difference.
//!
//! - [`Rng`] (in [`crate::generate`]): the seeded numbers every game is
//!   made from; game `i` of a seed is the same game whichever worker
//!   makes it, on any machine.
//! - one generator per game (`games/<game>/generator.rs`, found through
//!   the registry of games), each a [`Model`]: it makes games that use only what
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

pub mod generated;
pub mod kept;
mod model;
pub mod save;
pub mod search;
pub mod shrink;

pub use crate::generate::{Model, Rng, Task};
pub use model::{
    differs, Budget, Error, Found, GeneratorFailure, Report, Settings, DEFAULT_GAMES, DEFAULT_SEED,
    SHRINK_RUNS, TIMEOUT_SHRINK_RUNS,
};
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
    let (games, found) = match suite.game() {
        Some(game) => search::explore(crate::games::support(game).generator, &runner, settings)?,
        None => {
            let generator = generated::Generator::of(suite)?;
            let explored = search::explore(&generator, &runner, settings)?;
            if let Some(failure) = generator.failure() {
                return Err(failure);
            }
            explored
        }
    };
    Ok(Report {
        game: suite.name.clone(),
        seed: settings.seed,
        games,
        elapsed: start.elapsed(),
        found,
    })
}

/// The games `settings` would explore for `game`, without running them:
/// for tests and for reading what a seed holds.
pub fn generated(game: Game, seed: u64, count: usize) -> Vec<Task> {
    let generator = crate::games::support(game).generator;
    (0..count)
        .map(|i| generator.task(&generator.generate(&mut Rng::for_game(seed, i as u64))))
        .collect()
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn every_game_generates_games() {
        for game in Game::ALL {
            assert_eq!(generated(*game, 1, 3).len(), 3, "{game}");
        }
    }
}
