//! The random numbers games are generated from: SplitMix64, written out
//! here so that a seed names the same games in every build of referee
//! (a crate's generator may change between its versions), and seeded per
//! game so that game `i` is the same whichever worker makes it.

/// A small, fast generator; not for anything secret.
#[derive(Clone, Debug)]
pub struct Rng(u64);

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The generator of game `index` of the games seeded `seed`.
    pub fn for_game(seed: u64, index: u64) -> Rng {
        Rng(mix(
            seed.wrapping_mul(GOLDEN) ^ mix(index.wrapping_add(GOLDEN))
        ))
    }

    /// A generator for a part of a game (an attempt of a search), so that
    /// a part never shifts the numbers of the rest.
    pub fn fork(&mut self) -> Rng {
        Rng(self.next_u64())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix(self.0)
    }

    /// A number in `0..n`; 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: i64, high: i64) -> i64 {
        let span = (high - low).unsigned_abs() as usize + 1;
        low.min(high) + self.below(span) as i64
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// One of `items`, which must not be empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// One of `items`, each as likely as its weight.
    pub fn weighted<'a, T>(&mut self, items: &'a [(u32, T)]) -> &'a T {
        let total: u32 = items.iter().map(|(w, _)| w).sum();
        let mut at = self.below(total as usize) as u32;
        for (weight, item) in items {
            if at < *weight {
                return item;
            }
            at -= weight;
        }
        &items[items.len() - 1].1
    }

    /// `items` in a random order.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_game_give_the_same_numbers() {
        let a: Vec<u64> = (0..5).map(|_| Rng::for_game(7, 3).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut one = Rng::for_game(7, 3);
        let mut other = Rng::for_game(7, 4);
        assert_ne!(one.next_u64(), other.next_u64());
        let mut seed = Rng::for_game(8, 3);
        assert_ne!(Rng::for_game(7, 3).next_u64(), seed.next_u64());
        // Pinned: a change here changes every explored game of every seed.
        assert_eq!(Rng::for_game(0, 0).next_u64(), 0x568a_9b0b_1a2c_05ec);
    }

    #[test]
    fn ranges_are_kept() {
        let mut rng = Rng::for_game(1, 1);
        for _ in 0..1000 {
            assert!(rng.below(6) < 6);
            let n = rng.between(-2, 3);
            assert!((-2..=3).contains(&n));
        }
        assert_eq!(rng.below(0), 0);
        let mut items = [1, 2, 3, 4, 5];
        rng.shuffle(&mut items);
        items.sort();
        assert_eq!(items, [1, 2, 3, 4, 5]);
        let weights = [(0, 'a'), (5, 'b')];
        assert!((0..50).all(|_| *rng.weighted(&weights) == 'b'));
    }
}
