//! A transcript: what a person would see in a terminal while a program
//! plays a case. The program's output, with each input line placed where
//! the program read it.
//!
//! Comparison is on the output alone ([`Transcript::output`]); the input
//! positions are how differences are explained ("after you typed `6`...").
//!
//! [`TermLine`]s are the same transcript as the lines of a terminal, and
//! [`printable`] the one way to write them as text.

mod events;
pub mod excerpt;
mod terminal;

pub use events::{within_lines, Event, Transcript};
pub use excerpt::{excerpt, Excerpt, Focus};
pub use terminal::{lines, of_output, printable, TermLine, WAITING};
