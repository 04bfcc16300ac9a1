//! What the reference knows of one game. A leaf: each game's module
//! gives one, and the crate's root lists them.

use std::io::{self, BufRead, Write};

/// What the reference knows of one game: its names, its one-line
/// summary and its console protocol. Each game's module holds its own
/// (`connect4::INFO`, ...); [`Game::ALL`] lists them, and nothing else in
/// this crate names a game.
#[derive(Debug)]
pub struct GameInfo {
    /// The id used on the command line and in case files.
    pub id: &'static str,
    /// Other names accepted for it on the command line and in case files.
    pub aliases: &'static [&'static str],
    /// One line saying what the game is.
    pub summary: &'static str,
    /// Plays one game of the reference on an input and an output.
    pub play: fn(&mut dyn BufRead, &mut dyn Write) -> io::Result<()>,
}
