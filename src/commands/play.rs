//! `referee play <game>`: the reference on stdin and stdout.

use std::io::{self, ErrorKind};
use std::process::ExitCode;

use reference::Game;

/// Plays `game` on this process's stdin and stdout. A reader that goes
/// away (`referee play pentago | head`) ends the game quietly, like a C
/// program killed by SIGPIPE would, but without the signal.
pub fn run(game: Game) -> Result<ExitCode, super::Failure> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut output = io::stdout().lock();
    match game.play(&mut input, &mut output) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(format!("playing {game}: {e}").into()),
    }
}
