//! Shrinking a game that shows a difference to a minimal one that still
//! shows it: delta debugging (Zeller's ddmin, greedy) over the game's
//! moves. Each round asks the game's [`Model`] for simpler games, each
//! well-formed (chunks of moves dropped, then single moves made plainer),
//! and keeps the first that still differs in the same way; it stops when
//! none does. A game only ever gives way to a smaller one, so it ends.
//!
//! Candidates are tried `width` at a time, and the first of them in order
//! that still differs is kept, as if they were tried one by one: the
//! result does not depend on how many cores there are.

use std::collections::HashSet;

use super::{Error, Model};

/// How much shrinking may cost.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Runs at most, counted as if tried one at a time.
    pub runs: usize,
    /// Candidates tried at once.
    pub width: usize,
}

/// A shrunk game, with what shows its difference.
#[derive(Clone, Debug)]
pub struct Shrunk<G, E> {
    /// The minimal game found.
    pub game: G,
    /// What `test` returned for it (or for the game given, if no smaller
    /// one differs).
    pub evidence: E,
    /// Runs counted against [`Limits::runs`].
    pub runs: usize,
}

/// Shrinks `game`, which differs as `evidence` shows. `test` plays a
/// batch of tasks and returns, for each, the evidence when it still
/// differs in the same way.
pub fn shrink<M: Model, E>(
    model: &M,
    game: M::Game,
    evidence: E,
    limits: Limits,
    mut test: impl FnMut(&[super::Task]) -> Result<Vec<Option<E>>, Error>,
) -> Result<Shrunk<M::Game, E>, Error> {
    let mut best = Shrunk {
        game,
        evidence,
        runs: 0,
    };
    let mut tried: HashSet<String> = HashSet::new();
    tried.insert(model.task(&best.game).key());
    'rounds: loop {
        let size = model.measure(&best.game);
        let mut candidates = model.simpler(&best.game);
        candidates.retain(|c| model.measure(c) < size && tried.insert(model.task(c).key()));
        if candidates.is_empty() {
            break;
        }
        for batch in candidates.chunks(limits.width.max(1)) {
            let room = limits.runs.saturating_sub(best.runs);
            if room == 0 {
                break 'rounds;
            }
            let batch = &batch[..batch.len().min(room)];
            let tasks: Vec<super::Task> = batch.iter().map(|c| model.task(c)).collect();
            let results = test(&tasks)?;
            match results
                .into_iter()
                .enumerate()
                .find_map(|(i, e)| Some((i, e?)))
            {
                Some((i, evidence)) => {
                    best.runs += i + 1;
                    best.game = batch[i].clone();
                    best.evidence = evidence;
                    continue 'rounds;
                }
                None => best.runs += batch.len(),
            }
        }
        break;
    }
    Ok(best)
}

/// `units` with one chunk left out, for every chunk of every size from a
/// half down to one: the complements of ddmin, largest first (so a game
/// cut in half is tried before a game missing one move).
pub fn without_chunks<T: Clone>(units: &[T]) -> Vec<Vec<T>> {
    let mut out = Vec::new();
    let n = units.len();
    if n == 0 {
        return out;
    }
    out.push(Vec::new());
    let mut size = n / 2;
    while size >= 1 {
        let mut start = 0;
        while start < n {
            let end = (start + size).min(n);
            let mut rest = units[..start].to_vec();
            rest.extend_from_slice(&units[end..]);
            out.push(rest);
            start = end;
        }
        size /= 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Rng, Task};
    use super::*;

    /// Games of numbers; a game "differs" when it holds a 7 somewhere
    /// after a 3. Plainer means smaller numbers.
    struct Numbers;

    impl Model for Numbers {
        type Game = Vec<u32>;
        fn game(&self) -> reference::Game {
            reference::Game::Connect4
        }
        fn generate(&self, _: &mut Rng) -> Vec<u32> {
            Vec::new()
        }
        fn task(&self, game: &Vec<u32>) -> Task {
            Task::Input(game.iter().map(u32::to_string).collect())
        }
        fn simpler(&self, game: &Vec<u32>) -> Vec<Vec<u32>> {
            let mut out = without_chunks(game);
            for (i, &n) in game.iter().enumerate() {
                for smaller in 0..n {
                    let mut g = game.clone();
                    g[i] = smaller;
                    out.push(g);
                }
            }
            out
        }
        fn measure(&self, game: &Vec<u32>) -> (usize, usize) {
            (game.len(), game.iter().sum::<u32>() as usize)
        }
        fn describe(&self, game: &Vec<u32>) -> String {
            format!("{game:?}")
        }
    }

    fn differs(lines: &[String]) -> bool {
        let numbers: Vec<u32> = lines.iter().map(|l| l.parse().unwrap()).collect();
        numbers
            .iter()
            .position(|&n| n == 3)
            .is_some_and(|at| numbers[at..].contains(&7))
    }

    fn test(tasks: &[Task]) -> Result<Vec<Option<()>>, Error> {
        Ok(tasks
            .iter()
            .map(|t| match t {
                Task::Input(lines) => differs(lines).then_some(()),
                Task::Call(_) => None,
            })
            .collect())
    }

    #[test]
    fn a_difference_buried_in_a_long_game_shrinks_to_its_two_moves() {
        let long = vec![5, 1, 8, 9, 3, 4, 4, 2, 9, 9, 8, 7, 1, 0, 6, 5, 7];
        for width in [1, 2, 5] {
            let limits = Limits { runs: 1000, width };
            let shrunk = shrink(&Numbers, long.clone(), (), limits, test).unwrap();
            assert_eq!(shrunk.game, [3, 7], "width {width}");
        }
    }

    #[test]
    fn the_result_does_not_depend_on_the_width_nor_the_run_count() {
        let long = vec![3, 3, 9, 9, 7, 3, 8, 7, 7];
        let at = |width| {
            let limits = Limits { runs: 6, width };
            let s = shrink(&Numbers, long.clone(), (), limits, test).unwrap();
            (s.game, s.runs)
        };
        assert_eq!(at(1), at(3));
        assert_eq!(at(1), at(4));
        assert!(at(1).1 <= 6);
    }

    #[test]
    fn chunks_are_left_out_largest_first() {
        let out = without_chunks(&[1, 2, 3, 4]);
        assert_eq!(out[0], Vec::<i32>::new());
        assert_eq!(out[1], [3, 4]);
        assert_eq!(out[2], [1, 2]);
        assert!(out.contains(&vec![1, 2, 4]));
        assert_eq!(out.len(), 1 + 2 + 4);
        assert!(without_chunks::<u8>(&[]).is_empty());
    }
}
