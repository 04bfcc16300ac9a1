//! The registry of games: what the grader knows of each game, in one
//! entry per game. The reference crate's [`Game::ALL`] lists the games
//! and their reference implementations; [`ALL`] here adds, for each, how
//! its output is read and how a submission is recognised as it. The
//! command line, `doctor`, the built-in suites and the README's list of
//! games all read these two tables.
//!
//! Two things live with their own layer instead, each naming its games
//! once: the explore generators ([`crate::explore::generator`], which sit
//! above grading, while this registry sits below it) and function-level
//! `call` cases ([`crate::call::GAME`], written for connect4-bomb's
//! Python functions). README.md's "Adding a game" lists every file a new
//! game takes.

use reference::Game;

use crate::game::{self, Rules};
use crate::submission::{Error, Language, Submission};
use crate::untrusted::{self, PROGRAM_LIMIT};

#[cfg(test)]
mod toy;

/// What the grader knows of one game.
#[derive(Clone, Copy)]
pub struct Support {
    /// The game, as the reference crate describes it.
    pub game: Game,
    /// How its output is read into events.
    pub rules: &'static (dyn Rules + Sync),
    /// The language its submissions are written in.
    pub language: Language,
    /// Whether a submission in that language plays it, from the file's
    /// name and text (both lower case); `None` when every submission in
    /// the language does, so the file need not be read.
    pub recognise: Option<fn(name: &str, text: &str) -> bool>,
}

/// Every game the grader knows, in [`Game::ALL`]'s order.
#[cfg(not(test))]
pub static ALL: &[Support] = REGISTERED;

/// Every game the grader knows, and the made-up game of the tests
/// ([`toy`]), registered as a new game would be.
#[cfg(test)]
pub static ALL: &[Support] = &[REGISTERED[0], REGISTERED[1], REGISTERED[2], toy::SUPPORT];

const REGISTERED: &[Support] = &[
    Support {
        game: Game::Connect4,
        rules: &game::connect4::Connect4,
        language: Language::C,
        recognise: Some(|name, text| {
            name.contains("connect")
                || name.contains("lab6")
                || text.contains("connect")
                || text.contains("column number (0-5)")
        }),
    },
    Support {
        game: Game::Connect4Bomb,
        rules: &game::connect4_bomb::Connect4Bomb,
        language: Language::Python,
        recognise: None,
    },
    Support {
        game: Game::Pentago,
        rules: &game::pentago::Pentago,
        language: Language::C,
        recognise: Some(|name, text| {
            name.contains("pentago") || text.contains("pentago") || text.contains("quadrant")
        }),
    },
];

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
/// when that is unambiguous.
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
        .filter(|s| s.language == submission.language)
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
        assert_eq!(infer_game(&write("x.py", "")).unwrap(), Game::Connect4Bomb);
        assert!(infer_game(&write("main.c", "int main(){}")).is_err());
        let both = infer_game(&write("connect-pentago.c", "")).unwrap_err();
        assert!(both.to_string().contains("name it with --game"), "{both}");
    }
}
