//! The registry of games: what the grader knows of each game, in one
//! entry per game. The reference crate's [`Game::ALL`] lists the games
//! and their reference implementations; [`ALL`] here adds, for each, how
//! its output is read and how a submission is recognised as it. The
//! command line, `doctor`, the built-in suites and docs/games.md's list of
//! games all read these two tables.
//!
//! Each game is one module here (`connect4/`, ...): its entry
//! ([`Support`]), its reader (`reader.rs`, a [`Rules`]) and its generator
//! of games for `explore` (`generator.rs`, a [`crate::generate::Model`]).
//! Function-level `call` cases stay with their module
//! ([`crate::call::GAME`], written for connect4-bomb's Python functions).
//! CONTRIBUTING.md's "Adding a game" lists every file a new game takes.

use reference::Game;

use crate::game::Rules;
use crate::submission::{Error, Submission};
use crate::untrusted::{self, PROGRAM_LIMIT};

pub mod connect4;
pub mod connect4_bomb;
pub mod pentago;
mod support;
#[cfg(test)]
mod toy;

pub use support::Support;

/// Every game the grader knows, in [`Game::ALL`]'s order.
#[cfg(not(test))]
pub static ALL: &[Support] = REGISTERED;

/// Every game the grader knows, and the made-up game of the tests
/// ([`toy`]), registered as a new game would be.
#[cfg(test)]
pub static ALL: &[Support] = &[REGISTERED[0], REGISTERED[1], REGISTERED[2], toy::SUPPORT];

const REGISTERED: &[Support] = &[connect4::SUPPORT, connect4_bomb::SUPPORT, pentago::SUPPORT];

/// The registry's entry for `game`.
pub fn support(game: Game) -> &'static Support {
    ALL.iter()
        .find(|s| s.game == game)
        .expect("every game of Game::ALL is registered (a test checks it)")
}

/// The reader for `game`.
pub fn rules(game: Game) -> &'static dyn Rules {
    support(game).rules
}

/// The game a submission plays, from its language, file name and text,
/// when that is unambiguous. A C++ program is told apart as a C one is.
pub fn infer_game(submission: &Submission) -> Result<Game, Error> {
    let unknown = || {
        let ids: Vec<&str> = ALL.iter().map(|s| s.game.id()).collect();
        Error::UnknownGame {
            path: submission.file.clone(),
            games: ids.join(", "),
        }
    };
    let candidates: Vec<&Support> = ALL
        .iter()
        .filter(|s| s.language == submission.language.registered_as())
        .collect();
    if let [only] = candidates[..] {
        if only.recognise.is_none() {
            return Ok(only.game);
        }
    }
    if candidates.is_empty() {
        return Err(unknown());
    }
    let name = submission.file.to_string_lossy().to_lowercase();
    let bytes = untrusted::read(&submission.file, PROGRAM_LIMIT).map_err(Error::Unsniffable)?;
    let text = String::from_utf8_lossy(&bytes).to_lowercase();
    let playing: Vec<Game> = candidates
        .iter()
        .filter(|s| s.recognise.is_none_or(|plays| plays(&name, &text)))
        .map(|s| s.game)
        .collect();
    match playing[..] {
        [game] => Ok(game),
        _ => Err(unknown()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_lists_the_reference_games_in_order_then_the_toy() {
        let registered: Vec<Game> = REGISTERED.iter().map(|s| s.game).collect();
        assert_eq!(registered, Game::ALL);
        assert_eq!(ALL.last().map(|s| s.game.id()), Some("toy"));
        for game in Game::ALL {
            assert_eq!(support(*game).game, *game);
        }
    }

    #[test]
    fn the_game_is_inferred_from_the_file_name_or_text() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            crate::submission::locate(&path).unwrap()
        };
        assert_eq!(
            infer_game(&write("prog3Pentagoreed.c", "")).unwrap(),
            Game::Pentago
        );
        assert_eq!(
            infer_game(&write("a.c", "/* rotate a quadrant */")).unwrap(),
            Game::Pentago
        );
        assert_eq!(infer_game(&write("lab6.c", "")).unwrap(), Game::Connect4);
        assert_eq!(
            infer_game(&write("prog3.cpp", "// rotate a quadrant")).unwrap(),
            Game::Pentago
        );
        assert_eq!(infer_game(&write("lab6.cc", "")).unwrap(), Game::Connect4);
        assert_eq!(infer_game(&write("x.py", "")).unwrap(), Game::Connect4Bomb);
        assert!(infer_game(&write("main.c", "int main(){}")).is_err());
        let both = infer_game(&write("connect-pentago.c", "")).unwrap_err();
        assert!(both.to_string().contains("name it with --game"), "{both}");
    }
}
