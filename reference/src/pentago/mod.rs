//! `pentago`: UIC CS 141 Prog 3 (Spring 2017), five in a row with quadrant
//! rotations. SPEC.md §3.

mod protocol;
mod rules;

pub use protocol::{play, HEADER_LINES};
pub use rules::{Board, Outcome, Piece, Rotation, SIZE};

/// `pentago` in the registry ([`crate::Game::ALL`]).
pub const INFO: crate::info::GameInfo = crate::info::GameInfo {
    id: "pentago",
    aliases: &[],
    summary: "UIC CS 141 Prog 3: Pentago in C, five in a row with rotations",
    play,
};
