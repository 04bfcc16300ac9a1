//! Shrinking a game that shows a difference to a minimal one that still
//! shows it: delta debugging (Zeller's ddmin, greedy) over the game's
//! moves. Each round asks the game's [`Model`] for simpler games, each
//! well-formed (chunks of moves dropped, then single moves made plainer),
//! and keeps the first that still differs in the same way; it stops when
//! none does. A game only ever gives way to a smaller one, so it ends.
//!
//! Candidates are run `width` at a time, ahead of their turn, and taken
//! in order as if they were run one by one (a result run ahead and not
//! reached is kept for when its turn comes): the result, and the runs
//! counted, do not depend on how many cores there are.

use std::collections::{HashMap, HashSet};

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
pub fn shrink<M: Model + ?Sized, E>(
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
    // Results of candidates run ahead of their turn, `width` at a time:
    // each is taken when its turn comes, as if run then.
    let mut ahead: HashMap<String, Option<E>> = HashMap::new();
    // Where the last round succeeded: the next round goes on from there
    // (and comes round to the start), as ddmin keeps its granularity,
    // instead of trying the largest chunks again first.
    let mut resume = 0;
    'rounds: loop {
        let size = model.measure(&best.game);
        let mut this_round = HashSet::new();
        let mut candidates: Vec<(String, M::Game)> = model
            .simpler(&best.game)
            .into_iter()
            .filter(|c| model.measure(c) < size)
            .map(|c| (model.task(&c).key(), c))
            .filter(|(key, _)| !tried.contains(key) && this_round.insert(key.clone()))
            .collect();
        if candidates.is_empty() {
            break;
        }
        let start = resume.min(candidates.len());
        candidates.rotate_left(start);
        for at in 0..candidates.len() {
            if best.runs >= limits.runs {
                break 'rounds;
            }
            if !ahead.contains_key(&candidates[at].0) {
                let batch: Vec<&(String, M::Game)> = candidates[at..]
                    .iter()
                    .filter(|(key, _)| !ahead.contains_key(key))
                    .take(limits.width.max(1))
                    .collect();
                let tasks: Vec<super::Task> = batch.iter().map(|(_, c)| model.task(c)).collect();
                let results = test(&tasks)?;
                ahead.extend(batch.iter().map(|(key, _)| key.clone()).zip(results));
            }
            let (key, candidate) = &candidates[at];
            let result = ahead.remove(key).flatten();
            tried.insert(key.clone());
            best.runs += 1;
            if let Some(evidence) = result {
                best.game = candidate.clone();
                best.evidence = evidence;
                resume = (start + at) % candidates.len();
                continue 'rounds;
            }
        }
        break;
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::cuts::{without_chunks, without_pairs};
    use crate::generate::{Rng, Task};

    /// Games of numbers; a game "differs" when it holds a 7 somewhere
    /// after a 3. Plainer means smaller numbers.
    struct Numbers;

    impl Model for Numbers {
        type Game = Vec<u32>;
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
    fn pairs_keep_every_turn_with_its_player() {
        // Turns named by player: a1 b1 a2 b2 a3 b3 a4.
        let turns = ["a1", "b1", "a2", "b2", "a3", "b3", "a4"];
        let out = without_pairs(&turns, 100);
        assert_eq!(out.len(), 4 * 3);
        for game in &out {
            assert_eq!(game.len(), 5);
            for (i, turn) in game.iter().enumerate() {
                let player = if i % 2 == 0 { 'a' } else { 'b' };
                assert!(turn.starts_with(player), "{game:?}");
            }
        }
        assert_eq!(out[0], ["a2", "b2", "a3", "b3", "a4"]);
        assert!(out.contains(&vec!["a1", "b2", "a2", "b3", "a4"]));
        assert_eq!(without_pairs(&turns, 2).len(), 2);
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
