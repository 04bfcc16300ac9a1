//! Scoring a pair, finding the regions it shares, and grouping the
//! class's pairs.
//!
//! A pair's similarity is the share of the smaller program's own
//! fingerprints that the other program holds too: `shared / min(a, b)`.
//! The smaller program is the measure because a copier who adds code of
//! their own (a menu, a second feature) still holds all of what they
//! copied, and a TA asks "how much of this program is in that one".
//! A program is taken to have at least [`MIN_FINGERPRINTS`]: a student
//! who wrote three lines beyond the starter code does not score 1 against
//! everyone who wrote the same three lines.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::fingerprints::{K, W};
use super::report::{Cluster, Pair, Span};

/// The fewest fingerprints a program is taken to have: about six lines
/// of C of its own.
pub const MIN_FINGERPRINTS: usize = 8;

/// The similarity from which two programs are linked in a cluster.
pub const CLUSTER_AT: f64 = 0.5;

/// One fingerprint where a program holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The k-gram's hash.
    pub hash: u64,
    /// Which of the program's files.
    pub file: usize,
    /// Its first token's index in the file.
    pub at: usize,
    /// The lines it spans.
    pub lines: (u32, u32),
}

/// `shared` fingerprints over the smaller of `a` and `b`, at least
/// [`MIN_FINGERPRINTS`]; at most 1, rounded to three places.
pub fn similarity(shared: usize, a: usize, b: usize) -> f64 {
    let over = a.min(b).max(MIN_FINGERPRINTS) as f64;
    let value = (shared as f64 / over).min(1.0);
    (value * 1000.0).round() / 1000.0
}

/// The regions two programs share, as spans of lines side by side:
/// `a`'s marks of shared fingerprints in order, each with where `b`
/// holds the same, joined while they run on together in both (the
/// gaps winnowing leaves between fingerprints, `K + W` tokens, allowed).
pub fn regions(
    a: &[Mark],
    b: &[Mark],
    shared: &HashSet<u64>,
    names: (&[String], &[String]),
) -> (Vec<Span>, Vec<Span>) {
    let mut in_b: HashMap<u64, Mark> = HashMap::new();
    for mark in b.iter().filter(|m| shared.contains(&m.hash)) {
        in_b.entry(mark.hash).or_insert(*mark);
    }
    let mut runs: Vec<(Mark, Mark, Mark, Mark)> = Vec::new();
    for mark in a.iter().filter(|m| shared.contains(&m.hash)) {
        let Some(other) = in_b.get(&mark.hash).copied() else {
            continue;
        };
        match runs.last_mut() {
            Some(run) if continues(&run.1, mark) && continues(&run.3, &other) => {
                run.1 = *mark;
                run.3 = other;
            }
            _ => runs.push((*mark, *mark, other, other)),
        }
    }
    let span = |first: &Mark, last: &Mark, names: &[String]| Span {
        file: names.get(first.file).cloned().unwrap_or_default(),
        from: first.lines.0.min(last.lines.0),
        to: first.lines.1.max(last.lines.1),
    };
    runs.iter()
        .map(|(fa, la, fb, lb)| (span(fa, la, names.0), span(fb, lb, names.1)))
        .unzip()
}

/// Whether `next` carries on the region ending at `last`.
fn continues(last: &Mark, next: &Mark) -> bool {
    last.file == next.file && next.at > last.at && next.at - last.at <= K + W
}

/// Groups of three or more programs linked by pairs of at least
/// [`CLUSTER_AT`], each with its highest similarity.
pub fn clusters(pairs: &[Pair]) -> Vec<Cluster> {
    let linked: Vec<&Pair> = pairs
        .iter()
        .filter(|p| p.similarity >= CLUSTER_AT)
        .collect();
    let mut group: HashMap<&str, usize> = HashMap::new();
    let mut members: Vec<Vec<&str>> = Vec::new();
    for pair in &linked {
        let (a, b) = (pair.a.as_str(), pair.b.as_str());
        match (group.get(a).copied(), group.get(b).copied()) {
            (None, None) => {
                group.insert(a, members.len());
                group.insert(b, members.len());
                members.push(vec![a, b]);
            }
            (Some(g), None) => {
                group.insert(b, g);
                members[g].push(b);
            }
            (None, Some(g)) => {
                group.insert(a, g);
                members[g].push(a);
            }
            (Some(g), Some(h)) if g != h => {
                let moved = std::mem::take(&mut members[h]);
                for id in &moved {
                    group.insert(id, g);
                }
                members[g].extend(moved);
            }
            _ => {}
        }
    }
    let mut highest: BTreeMap<usize, f64> = BTreeMap::new();
    for pair in &linked {
        let g = group[pair.a.as_str()];
        let best = highest.entry(g).or_insert(0.0);
        *best = best.max(pair.similarity);
    }
    let mut found: Vec<Cluster> = members
        .into_iter()
        .enumerate()
        .filter(|(_, m)| m.len() >= 3)
        .map(|(g, mut m)| {
            m.sort_unstable();
            Cluster {
                members: m.into_iter().map(String::from).collect(),
                highest: highest.get(&g).copied().unwrap_or(0.0),
            }
        })
        .collect();
    found.sort_by(|x, y| {
        y.highest
            .total_cmp(&x.highest)
            .then(x.members.cmp(&y.members))
    });
    found
}

/// How many of `all` pairs score in each tenth, given the scores of
/// those that share anything (the others score 0).
pub fn histogram(scores: impl Iterator<Item = f64>, all: usize) -> [usize; 10] {
    let mut counts = [0usize; 10];
    let mut seen = 0;
    for score in scores {
        counts[((score * 10.0) as usize).min(9)] += 1;
        seen += 1;
    }
    counts[0] += all.saturating_sub(seen);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similar::report::SharedLines;

    fn pair(a: &str, b: &str, similarity: f64) -> Pair {
        Pair {
            a: a.into(),
            b: b.into(),
            similarity,
            shared: 1,
            shared_lines: SharedLines::default(),
            same_failures: Vec::new(),
        }
    }

    #[test]
    fn the_smaller_program_is_the_measure_and_tiny_ones_are_not_all_shared() {
        assert_eq!(similarity(20, 20, 100), 1.0);
        assert_eq!(similarity(10, 40, 20), 0.5);
        assert_eq!(similarity(2, 2, 50), 0.25);
    }

    #[test]
    fn clusters_join_chains_of_three_or_more() {
        let pairs = [
            pair("a", "b", 0.9),
            pair("c", "d", 0.8),
            pair("b", "c", 0.6),
            pair("e", "f", 0.95),
            pair("a", "e", 0.2),
        ];
        let found = clusters(&pairs);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].members, ["a", "b", "c", "d"]);
        assert_eq!(found[0].highest, 0.9);
        assert_eq!(histogram([0.95, 0.2].into_iter(), 10)[0], 8);
    }

    #[test]
    fn regions_follow_the_matches_in_both_programs() {
        let mark = |hash, at, line| Mark {
            hash,
            file: 0,
            at,
            lines: (line, line + 1),
        };
        let a = [mark(1, 0, 1), mark(2, 4, 2), mark(3, 200, 40)];
        let b = [mark(3, 10, 3), mark(1, 50, 10), mark(2, 55, 11)];
        let shared = HashSet::from([1, 2, 3]);
        let names = vec!["x.c".to_string()];
        let (sa, sb) = regions(&a, &b, &shared, (&names, &names));
        let lines = |s: &[Span]| s.iter().map(|s| (s.from, s.to)).collect::<Vec<_>>();
        assert_eq!(lines(&sa), [(1, 3), (40, 41)]);
        assert_eq!(lines(&sb), [(10, 12), (3, 4)]);
    }
}
