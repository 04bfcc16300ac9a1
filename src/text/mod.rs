//! Small text helpers shared by every layer: points, sizes and durations
//! as people read them, and a program's bytes made safe to show. This
//! module imports nothing else of referee, so anything may use it.

mod points;
mod units;
pub mod visible;

pub use points::{points, round};
pub use units::{seconds, size};
