//! `pentago`: UIC CS 141 Prog 3 (Spring 2017), five in a row with quadrant
//! rotations. SPEC.md §3.

mod protocol;
mod rules;

pub use protocol::{play, HEADER_LINES};
pub use rules::{Board, Outcome, Piece, Rotation, SIZE};
