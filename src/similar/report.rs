//! What `referee similar` finds, as `similarity.json` holds it: the
//! types the module's files share.

use serde::{Deserialize, Serialize};

/// The whole report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// How programs were compared, and with which settings.
    pub method: Method,
    /// The programs compared, by id, with what was noted reading them.
    pub programs: Vec<ProgramInfo>,
    /// The submissions that could not be compared, each with why.
    pub skipped: Vec<Skipped>,
    /// The pairs that share anything, most similar first.
    pub pairs: Vec<Pair>,
    /// Pairs sharing something that were left out to keep the report
    /// bounded (the least similar ones).
    pub pairs_not_shown: usize,
    /// Groups of three or more programs each linked to another of the
    /// group by a similarity of at least [`Method::cluster_at`].
    pub clusters: Vec<Cluster>,
    /// How many of the class's pairs (all of them, those that share
    /// nothing too) score in each tenth: `[0, 0.1)`, ..., `[0.9, 1]`.
    pub histogram: [usize; 10],
}

/// The method and its settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Method {
    /// `winnowing` (Schleimer, Wilkerson and Aiken, 2003).
    pub name: String,
    /// Normalised tokens in a k-gram.
    pub k: usize,
    /// k-grams in a window.
    pub w: usize,
    /// How a pair's similarity is computed, in words.
    pub score: String,
    /// The fewest fingerprints a program is taken to have in that
    /// formula.
    pub min_fingerprints: usize,
    /// A fingerprint held by more programs than this is the class's
    /// common code and counts for no pair.
    pub common_above: usize,
    /// The files whose code never counts as shared.
    pub base: Vec<String>,
    /// The similarity from which pairs link programs into clusters.
    pub cluster_at: f64,
    /// Whether the class's grading results were found, so that pairs
    /// list the failures they share.
    pub behaviour: bool,
}

/// A program compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgramInfo {
    /// The student's id, as `grade` gives it.
    pub id: String,
    /// Its source files, as named in the reports.
    pub files: Vec<String>,
    /// Its fingerprints of its own (the base code's and the class's
    /// common ones left out).
    pub fingerprints: usize,
    /// What was noted reading it (a file cut short, bytes that are not
    /// UTF-8, files left out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A submission that could not be compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    /// The student's id.
    pub id: String,
    /// Why.
    pub reason: String,
}

/// Two programs and what they share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    /// One program's id (the first in id order).
    pub a: String,
    /// The other's.
    pub b: String,
    /// 0 to 1: see [`Method::score`].
    pub similarity: f64,
    /// Fingerprints the two share.
    pub shared: usize,
    /// The regions both hold: the `i`-th of `a` matches the `i`-th of
    /// `b`.
    pub shared_lines: SharedLines,
    /// Cases both failed printing the same thing, where the reference
    /// printed something else; rarest first.
    pub same_failures: Vec<SameFailure>,
}

/// Matched regions, side by side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SharedLines {
    /// In the first program.
    pub a: Vec<Span>,
    /// In the second, in the same order.
    pub b: Vec<Span>,
}

/// Lines of one source file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// The file, as [`ProgramInfo::files`] names it.
    pub file: String,
    /// The first line, from 1.
    pub from: u32,
    /// The last line.
    pub to: u32,
}

/// A case two programs failed alike.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SameFailure {
    /// The case.
    pub case: String,
    /// Both programs' verdict on it.
    pub verdict: String,
    /// How many programs of the class printed that same output there
    /// (2 when only these two did).
    pub shared_by: usize,
    /// 2 / `shared_by`: 1 when no one else failed that way, less the
    /// more common the mistake.
    pub weight: f64,
}

/// Programs linked by similarity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// Their ids, sorted.
    pub members: Vec<String>,
    /// The highest similarity of a pair in it.
    pub highest: f64,
}
