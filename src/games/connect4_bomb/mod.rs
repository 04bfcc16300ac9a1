//! `connect4-bomb`: its entry in the registry, its reader ([`reader`]) and its
//! generator of games for `explore` ([`generator`]).

use reference::Game;

use super::support::Support;
use crate::submission::Language;

pub mod generator;
pub mod reader;

/// `connect4-bomb` in the registry.
pub const SUPPORT: Support = Support {
    game: Game::Connect4Bomb,
    rules: &reader::Connect4Bomb,
    language: Language::Python,
    recognise: None,
    generator: &generator::Connect4Bomb,
};
