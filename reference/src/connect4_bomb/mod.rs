//! `connect4-bomb`: "Connect Four: CSE 101 Edition" (Python), any board
//! size, one bomb per player. SPEC.md §2.
//!
//! [`rules`] holds the six functions students write, with the exact
//! return values graders compare against; [`play`] is the given main block.

mod protocol;
pub mod rules;

pub use protocol::{play, MAX_SIDE};
pub use rules::{
    board_full, diagonal_winner, drop_bomb, drop_piece, horizontal_winner, vertical_winner, Board,
    BoardError,
};

/// `connect4-bomb` in the registry ([`crate::Game::ALL`]).
pub const INFO: crate::info::GameInfo = crate::info::GameInfo {
    id: "connect4-bomb",
    aliases: &[],
    summary: "CSE 101 Connect Four in Python: any board size, one bomb per player",
    play,
};
