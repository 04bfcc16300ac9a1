//! A class: the submissions found in what the TA named, each with a
//! unique, stable id; which of them a shard grades; and the fingerprints
//! that let a rerun skip what has not changed.

mod discover;
mod fingerprint;
pub mod roster;
pub mod split;

pub use discover::{discover, identify, readable, student_id, Entry, Error};

use crate::fault::Fault;
pub use fingerprint::{fingerprint, suite_fingerprint};

/// A shard of a class: the `index`-th (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

/// Why a `--shard` cannot be used.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// It is not written K/N.
    #[error("`{0}` is not a shard: write K/N, such as 2/5 (the second of five)")]
    Unreadable(String),
    /// N is 0.
    #[error("`{0}`: a class is split into 1 shard or more, not 0")]
    NoShards(String),
    /// K is not between 1 and N.
    #[error(
        "`{text}`: there {} {count} shard{}, numbered 1 to {count}; K is one of them",
        if *count == 1 { "is" } else { "are" },
        if *count == 1 { "" } else { "s" }
    )]
    OutOfRange {
        /// What was written.
        text: String,
        /// N.
        count: u32,
    },
}

impl ShardError {
    /// Whose fault it is: the command line is the grader's.
    pub fn fault(&self) -> Fault {
        Fault::Grader
    }
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    /// `K/N`, with 1 ≤ K ≤ N.
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::Unreadable(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 {
            return Err(ShardError::NoShards(s.to_string()));
        }
        if index == 0 || index > count {
            return Err(ShardError::OutOfRange {
                text: s.to_string(),
                count,
            });
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether this shard grades the submission `id`. The choice depends
    /// on the id alone, so it is the same on every machine, and adding a
    /// student does not move the others between shards.
    pub fn includes(&self, id: &str) -> bool {
        // FNV-1a: small, stable across platforms and versions.
        let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        hash % u64::from(self.count) == u64::from(self.index - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_a_class_exactly_once() {
        let ids: Vec<String> = (0..200).map(|i| format!("student{i}")).collect();
        let shards: Vec<Shard> = (1..=3).map(|k| format!("{k}/3").parse().unwrap()).collect();
        for id in &ids {
            assert_eq!(shards.iter().filter(|s| s.includes(id)).count(), 1, "{id}");
        }
        for shard in &shards {
            let n = ids.iter().filter(|id| shard.includes(id)).count();
            assert!((40..=95).contains(&n), "{shard}: {n}");
        }
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let error = "4/3".parse::<Shard>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "`4/3`: there are 3 shards, numbered 1 to 3; K is one of them"
        );
        assert_eq!(error.fault(), Fault::Grader);
    }
}
