//! The inverted index: each fingerprint to the programs that hold it.
//! Only programs that share a fingerprint are ever paired, so the cost
//! grows with the class and what it shares, not with its pairs squared:
//! in a class of 1,000 there are 499,500 pairs, and most share nothing.

use std::collections::{HashMap, HashSet};

/// Each fingerprint's holders, each program once, in program order.
#[derive(Debug, Default)]
pub struct Index {
    holders: HashMap<u64, Vec<u32>>,
}

impl Index {
    /// The index of `programs`, each given as the hashes of its
    /// fingerprints.
    pub fn new<'a>(programs: impl IntoIterator<Item = &'a [u64]>) -> Index {
        let mut holders: HashMap<u64, Vec<u32>> = HashMap::new();
        for (n, hashes) in programs.into_iter().enumerate() {
            let n = u32::try_from(n).unwrap_or(u32::MAX);
            for &hash in hashes {
                let list = holders.entry(hash).or_default();
                if list.last() != Some(&n) {
                    list.push(n);
                }
            }
        }
        Index { holders }
    }

    /// The fingerprints held by more than `most` programs: the class's
    /// common code, which no pair is judged by.
    pub fn common(&self, most: usize) -> HashSet<u64> {
        self.holders
            .iter()
            .filter(|(_, list)| list.len() > most)
            .map(|(hash, _)| *hash)
            .collect()
    }

    /// For every pair of programs (lower index first) that share a
    /// fingerprint not in `common`, how many they share.
    pub fn shared(&self, common: &HashSet<u64>) -> HashMap<(u32, u32), usize> {
        let mut counts: HashMap<(u32, u32), usize> = HashMap::new();
        for (hash, list) in &self.holders {
            if list.len() < 2 || common.contains(hash) {
                continue;
            }
            for (i, &a) in list.iter().enumerate() {
                for &b in &list[i + 1..] {
                    *counts.entry((a, b)).or_default() += 1;
                }
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_pairs_that_share_are_counted() {
        let programs: [&[u64]; 4] = [&[1, 2, 3, 3], &[2, 3, 9], &[7, 8], &[3]];
        let index = Index::new(programs);
        let common = index.common(2);
        assert_eq!(common, HashSet::from([3]));
        let shared = index.shared(&common);
        assert_eq!(shared, HashMap::from([((0, 1), 1)]));
        let everything = index.shared(&HashSet::new());
        assert_eq!(everything[&(0, 1)], 2);
        assert_eq!(everything[&(0, 3)], 1);
        assert!(!everything.contains_key(&(0, 2)));
    }
}
