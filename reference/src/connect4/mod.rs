//! `connect4`: APS105 Lab 6 (Winter 2025), Connect Four in C on a 6×6
//! board. SPEC.md §1.

mod protocol;
mod rules;

pub use protocol::play;
pub use rules::{Board, Piece, COLS, ROWS};

/// `connect4` in the registry ([`crate::Game::ALL`]).
pub const INFO: crate::info::GameInfo = crate::info::GameInfo {
    id: "connect4",
    aliases: &[],
    summary: "APS105 Lab 6: Connect Four in C, 6x6 board",
    play,
};
