//! Pinned reference transcripts: each case's expected transcript is kept
//! in the repository next to the case (`<case>.transcript`), so that any
//! change to the reference shows up as a reviewed diff. After a
//! deliberate change, `referee cases update` writes what the reference
//! prints now beside each pin (`<case>.transcript.new`) with the diff, and
//! `referee cases update --accept` takes those pending files as the pins.
//!
//! The file holds the transcript in terminal form, exactly as the
//! handouts' sample runs print it. When the reference is still waiting for
//! input at the end of a case, the file ends with the mark
//! [`transcript::WAITING`] and a newline, where the next input would have
//! been typed.

use std::fs;
use std::io;

use reference::Game;

use super::Case;
use crate::expected::{run_reference, ReferenceRun};
use crate::transcript;

/// The pinned text for a reference run.
pub fn render(run: &ReferenceRun) -> Vec<u8> {
    let mut text = run.transcript.terminal();
    if run.waited_at_end {
        text.extend_from_slice(transcript::WAITING.as_bytes());
        text.push(b'\n');
    }
    text
}

/// The text pinned for a case: the reference's transcript, or for a
/// function call, what the reference's function returns and leaves.
pub fn expected_text(case: &Case, game: Game) -> Vec<u8> {
    match &case.call {
        Some(call) => call.pin().into_bytes(),
        None => render(&run_reference(game, &case.input)),
    }
}

/// How a case's pin compares with the reference now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PinState {
    /// The pin is what the reference prints.
    Matches,
    /// There is no pin yet.
    Missing,
    /// The reference now prints something else.
    Differs {
        /// What the file holds.
        pinned: Vec<u8>,
        /// What the reference prints now.
        current: Vec<u8>,
    },
}

/// Compares a case's pin with what the reference does now.
pub fn check(case: &Case, game: Game) -> io::Result<PinState> {
    compare(case, &expected_text(case, game))
}

/// Compares a case's pin with `current`.
fn compare(case: &Case, current: &[u8]) -> io::Result<PinState> {
    match fs::read(case.pin_file()) {
        Ok(pinned) if pinned == current => Ok(PinState::Matches),
        Ok(pinned) => Ok(PinState::Differs {
            pinned,
            current: current.to_vec(),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(PinState::Missing),
        Err(e) => Err(e),
    }
}

/// Writes a case's pin; true when the file changed. The reference runs
/// once.
pub fn update(case: &Case, game: Game) -> io::Result<bool> {
    let current = expected_text(case, game);
    if compare(case, &current)? == PinState::Matches {
        return Ok(false);
    }
    fs::write(case.pin_file(), current)?;
    Ok(true)
}
