//! Generating games: what a generated game asks of a program ([`Task`]),
//! each game's generator and shrinker ([`Model`], implemented in
//! `games/<game>/generator.rs`), the same behind a pointer whatever the
//! game ([`Generator`], which the registry of games holds), and the pieces
//! generators share (the random numbers, dropping pieces, leaving moves
//! out). Below grading: `explore` runs the games above it.

use std::any::Any;
use std::sync::Arc;

use crate::call::Call;

pub mod cuts;
pub mod drops;
pub mod rng;

pub use rng::Rng;

/// What one generated game asks of a program: lines typed into a whole
/// game, or (connect4-bomb) one function called on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Task {
    /// The lines typed, without newlines.
    Input(Vec<String>),
    /// One function of a Python submission.
    Call(Call),
}

impl Task {
    /// A text that names the task exactly, for telling tasks apart.
    pub fn key(&self) -> String {
        match self {
            Task::Input(lines) => format!("input\n{}", lines.join("\n")),
            Task::Call(call) => format!("call\n{}", call.request()),
        }
    }
}

/// A game's generator and shrinker.
pub trait Model: Sync {
    /// A generated game, as the shrinker changes it.
    type Game: Clone + Send + Sync;

    /// A new game from `rng`.
    fn generate(&self, rng: &mut Rng) -> Self::Game;

    /// What the program is given.
    fn task(&self, game: &Self::Game) -> Task;

    /// Simpler games, each well-formed, the most promising first: fewer
    /// moves before plainer ones.
    fn simpler(&self, game: &Self::Game) -> Vec<Self::Game>;

    /// How big a game is: its moves, then how plain they are. Shrinking
    /// only ever takes a smaller game, so it ends.
    fn measure(&self, game: &Self::Game) -> (usize, usize);

    /// The game in a few words, for reports ("11 moves", "a call of
    /// drop_piece on a 4×4 board with 3 pieces").
    fn describe(&self, game: &Self::Game) -> String;
}

/// A played-out game in a few words, for [`Model::describe`]: "7 moves
/// and 1 refused input, X wins", or "..., the game not over".
pub fn described(moves: usize, refused: usize, ending: Option<&str>) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut text = format!("{moves} move{}", plural(moves));
    if refused > 0 {
        text.push_str(&format!(" and {refused} refused input{}", plural(refused)));
    }
    text.push_str(", ");
    text.push_str(ending.unwrap_or("the game not over"));
    text
}

/// A generated game of any game: what [`Generator`] hands out.
#[derive(Clone)]
pub struct Generated(Arc<dyn Any + Send + Sync>);

/// A [`Model`] whatever its type of game, so that one table (the
/// registry of games) can hold every game's generator.
pub trait Generator: Sync {
    /// See [`Model::generate`].
    fn generate_any(&self, rng: &mut Rng) -> Generated;
    /// See [`Model::task`].
    fn task_of(&self, game: &Generated) -> Task;
    /// See [`Model::simpler`].
    fn simpler_than(&self, game: &Generated) -> Vec<Generated>;
    /// See [`Model::measure`].
    fn measure_of(&self, game: &Generated) -> (usize, usize);
    /// See [`Model::describe`].
    fn describe_of(&self, game: &Generated) -> String;
}

impl<M> Generator for M
where
    M: Model,
    M::Game: 'static,
{
    fn generate_any(&self, rng: &mut Rng) -> Generated {
        Generated(Arc::new(self.generate(rng)))
    }

    fn task_of(&self, game: &Generated) -> Task {
        self.task(own(game))
    }

    fn simpler_than(&self, game: &Generated) -> Vec<Generated> {
        let simpler = self.simpler(own(game));
        simpler
            .into_iter()
            .map(|g| Generated(Arc::new(g)))
            .collect()
    }

    fn measure_of(&self, game: &Generated) -> (usize, usize) {
        self.measure(own(game))
    }

    fn describe_of(&self, game: &Generated) -> String {
        self.describe(own(game))
    }
}

/// The game `M` made. A [`Generated`] only ever comes from the generator
/// it goes back to (the registry pairs them), so another type is a bug.
fn own<G: 'static>(game: &Generated) -> &G {
    game.0
        .downcast_ref()
        .expect("a generated game goes back to the generator that made it")
}

/// Every generator is a model of its erased games: exploring takes any
/// game's generator from the registry as it is.
impl Model for dyn Generator {
    type Game = Generated;

    fn generate(&self, rng: &mut Rng) -> Generated {
        self.generate_any(rng)
    }

    fn task(&self, game: &Generated) -> Task {
        self.task_of(game)
    }

    fn simpler(&self, game: &Generated) -> Vec<Generated> {
        self.simpler_than(game)
    }

    fn measure(&self, game: &Generated) -> (usize, usize) {
        self.measure_of(game)
    }

    fn describe(&self, game: &Generated) -> String {
        self.describe_of(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_described_in_words() {
        assert_eq!(described(1, 0, None), "1 move, the game not over");
        assert_eq!(
            described(7, 1, Some("X wins")),
            "7 moves and 1 refused input, X wins"
        );
        assert_eq!(
            described(3, 2, Some("a tie")),
            "3 moves and 2 refused inputs, a tie"
        );
    }
}
