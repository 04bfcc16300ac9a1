//! Diagnoses: where a program breaks, in its author's terms. A C or C++
//! program's memory errors and undefined behaviour, found by a checked
//! build of it (the compiler's sanitizers, and its warnings that foretell
//! undefined behaviour), and a Python program's uncaught exceptions, each
//! placed in the student's own source (file, line, function) and in the
//! case's input (after which input line it happened).
//!
//! A diagnosis never changes a grade: grades come from the ordinary
//! build's runs, and a diagnosis is only said beside them.
//!
//! Everything here is read from what a student's program wrote (the
//! sanitizer's report is written by the program's own process, its
//! traceback is in its transcript, its source is its own), so every
//! string is bounded and made safe to show ([`bounded`]) before it is
//! kept.

pub mod checks;
pub mod collect;
pub mod diagnosis;
pub mod leaks;
pub mod sanitizer;
pub mod symbols;
pub mod traceback;
pub mod warnings;

pub use collect::Diagnoses;
pub use diagnosis::{
    bounded, bounded_to, cut_to, Diagnosis, Found, Kind, PER_SUBMISSION, TEXT_LIMIT,
};
