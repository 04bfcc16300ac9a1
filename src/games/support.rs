//! What the grader knows of one game: a leaf, which each game's module
//! fills in and the registry lists.

use reference::Game;

use crate::game::Rules;
use crate::generate::Generator;
use crate::submission::Language;

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
    /// Its generator of games, for `explore`.
    pub generator: &'static dyn Generator,
}
