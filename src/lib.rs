//! `referee` grades console-game programming assignments: it runs a
//! student's program with scripted input, compares what it prints with the
//! reference implementation's transcript, and explains every difference.
//!
//! The games themselves live in the `reference` crate; this crate is the
//! grader and the command line.

#![deny(missing_docs)]

pub mod atomic;
pub mod batch;
pub mod call;
pub mod case;
pub mod class;
pub mod compare;
pub mod diagnose;
pub mod expected;
pub mod explain;
pub mod explore;
pub mod export;
pub mod fault;
pub mod game;
pub mod games;
pub mod generate;
pub mod grading;
pub mod judge;
pub mod notice;
pub mod oracle;
pub mod queue;
pub mod results;
pub mod run;
pub mod sandbox;
pub mod similar;
pub mod submission;
pub mod terminal;
pub mod text;
pub mod timings;
pub mod transcript;
pub mod untrusted;
pub mod verdict;

pub use reference::Game;
