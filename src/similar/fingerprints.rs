//! Fingerprints: winnowing (Schleimer, Wilkerson and Aiken, "Winnowing:
//! local algorithms for document fingerprinting", SIGMOD 2003), the
//! method of MOSS.
//!
//! Every run of [`K`] consecutive tokens (a k-gram) is hashed; of every
//! [`W`] consecutive hashes (a window) the smallest is kept, once. Two
//! guarantees follow, and they are why this method: a run of at least
//! `K + W - 1` tokens that two programs share always gives both of them
//! at least one common fingerprint, wherever it lies (so moving a
//! function, or a statement added between two others, hides nothing but
//! the few k-grams that cross the change); and nothing shorter than
//! `K` tokens is ever a match (so the idioms every program has do not
//! make independent programs look alike).
//!
//! Why these values. `K` = 12 normalised tokens is about a line and a
//! half of C (`for (i = 0; i < n; i++)` is 13: `LOOP ( ID = LIT ; ID < ID
//! ; ID ++ )`), near the low end of JPlag's and Dolos' minimum matches
//! (9 to 23 tokens). Measured on the disguises of `tests/similar.rs`
//! (a statement that does nothing after every third, every `for` made a
//! `while`, ...), 12 kept a third more of a disguised copy than 15 did
//! (0.35 and 0.50 for all disguises at once, against 0.25 and 0.36),
//! while the most similar pair of programs written apart (two board
//! games' grid loops) went from 0.14 to 0.16. `W` = 8 makes the guaranteed
//! threshold `K + W - 1` = 19 tokens, two to three lines: a copied block
//! that long is always seen; about one k-gram in `(W + 1) / 2` = 4.5 is
//! kept, which keeps the index of a class of 1,000 programs small.

use super::tokens::Token;

/// Tokens in a k-gram.
pub const K: usize = 12;

/// k-grams in a window.
pub const W: usize = 8;

/// One fingerprint: a k-gram's hash, where it starts among the tokens,
/// and the lines it spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// The k-gram's hash.
    pub hash: u64,
    /// The index of its first token.
    pub at: usize,
    /// The line of its first token.
    pub first_line: u32,
    /// The line of its last token.
    pub last_line: u32,
}

/// The hash of every k-gram of `tokens`, in order (none when there are
/// fewer than `K` tokens).
pub fn kgrams(tokens: &[Token]) -> Vec<u64> {
    tokens
        .windows(K)
        .map(|gram| {
            gram.iter().fold(0x9e37_79b9_7f4a_7c15u64, |h, t| {
                (h.rotate_left(5) ^ t.code).wrapping_mul(0x0100_0000_01b3)
            })
        })
        .collect()
}

/// The fingerprints winnowing selects from `tokens`: in each window of
/// `W` k-grams, the smallest hash (the rightmost of equal ones), each
/// position once. A program shorter than one window keeps its smallest.
pub fn winnow(tokens: &[Token]) -> Vec<Fingerprint> {
    let hashes = kgrams(tokens);
    let mut chosen: Vec<Fingerprint> = Vec::new();
    let window = W.min(hashes.len());
    if window == 0 {
        return chosen;
    }
    for start in 0..=hashes.len() - window {
        let slice = &hashes[start..start + window];
        let mut best = 0;
        for (i, h) in slice.iter().enumerate() {
            if *h <= slice[best] {
                best = i;
            }
        }
        let at = start + best;
        if chosen.last().is_some_and(|f| f.at == at) {
            continue;
        }
        chosen.push(Fingerprint {
            hash: hashes[at],
            at,
            first_line: tokens[at].line,
            last_line: tokens[at + K - 1].line,
        });
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similar::tokens::hash;

    fn tokens(codes: &[u64]) -> Vec<Token> {
        codes
            .iter()
            .enumerate()
            .map(|(i, &c)| Token {
                code: hash(&c.to_string()),
                line: u32::try_from(i).unwrap() + 1,
            })
            .collect()
    }

    #[test]
    fn a_shared_run_of_the_guaranteed_length_is_always_found() {
        let shared: Vec<u64> = (1000..1000 + (K + W - 1) as u64).collect();
        for offset in 0..12u64 {
            let mut a: Vec<u64> = (0..offset).collect();
            a.extend(&shared);
            a.extend(0..5);
            let mut b: Vec<u64> = (500..530).collect();
            b.extend(&shared);
            let fa: Vec<u64> = winnow(&tokens(&a)).iter().map(|f| f.hash).collect();
            let fb: Vec<u64> = winnow(&tokens(&b)).iter().map(|f| f.hash).collect();
            assert!(fa.iter().any(|h| fb.contains(h)), "offset {offset}");
        }
    }

    #[test]
    fn short_programs_have_few_or_no_fingerprints() {
        assert!(winnow(&tokens(&[1, 2, 3])).is_empty());
        let one_gram: Vec<u64> = (0..K as u64).collect();
        assert_eq!(winnow(&tokens(&one_gram)).len(), 1);
    }
}
