//! `connect4`: its entry in the registry, its reader ([`reader`]) and its
//! generator of games for `explore` ([`generator`]).

use reference::Game;

use super::support::Support;
use crate::submission::Language;

pub mod generator;
pub mod reader;

/// `connect4` in the registry.
pub const SUPPORT: Support = Support {
    game: Game::Connect4,
    rules: &reader::Connect4,
    language: Language::C,
    recognise: Some(|name, text| {
        name.contains("connect")
            || name.contains("lab6")
            || text.contains("connect")
            || text.contains("column number (0-5)")
    }),
    generator: &generator::Connect4,
};
