//! `connect4`: APS105 Lab 6 (Winter 2025), Connect Four in C on a 6×6
//! board. SPEC.md §1.

mod protocol;
mod rules;

pub use protocol::play;
pub use rules::{Board, Piece, COLS, ROWS};
