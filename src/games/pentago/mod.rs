//! `pentago`: its entry in the registry, its reader ([`reader`]) and its
//! generator of games for `explore` ([`generator`]).

use reference::Game;

use super::support::Support;
use crate::submission::Language;

pub mod generator;
pub mod reader;

/// `pentago` in the registry.
pub const SUPPORT: Support = Support {
    game: Game::Pentago,
    rules: &reader::Pentago,
    language: Language::C,
    recognise: Some(|name, text| {
        name.contains("pentago") || text.contains("pentago") || text.contains("quadrant")
    }),
    generator: &generator::Pentago,
};
