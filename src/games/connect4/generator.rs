//! Generated games of APS105 Connect Four (SPEC.md §1): one integer per
//! line, Red first, on the 6×6 board.
//!
//! What a game holds: columns that take a piece, and the invalid columns
//! the handout defines (integers off the board, and full columns), each
//! answered by the same prompt again. Never a token that is not an
//! integer (unspecified: `scanf` loops on it), never input after the game
//! ended. A game may stop before its end: the program is then stopped
//! while it waits for the next column, as the reference is, and what it
//! would do at end of input (unspecified) never happens.
//!
//! Where bugs hide, and so where games go: wins of every direction, most
//! along an edge or through a corner, completed at an end or in the
//! middle; fours that wrap from one row into the next, and fours with a
//! gap (no win); boards filled without a four (ties), with one column
//! left for last; a win on the last free square; runs of invalid input
//! long enough to reach 36 inputs before the end.

use reference::connect4::{COLS, ROWS};

use crate::generate::cuts::{without_chunks, without_pairs, without_two};
use crate::generate::drops::{self, Drops, Plan};
use crate::generate::{described, Model, Rng, Task};

/// The generator of `connect4` games.
pub struct Connect4;

/// Columns off the board, the plainest first. Only integers: the program
/// reads one with `scanf("%d")`.
const OFF_BOARD: [&str; 7] = ["6", "-1", "7", "10", "-6", "99", "-100"];

/// Refused inputs in one game at most.
const MOST_REFUSED: usize = 80;

/// A game: the tokens typed, one per line.
pub type Tokens = Vec<String>;

/// A token's plainness: a column's number, then the columns off the
/// board in [`OFF_BOARD`]'s order.
fn rank(token: &str) -> usize {
    match token.parse::<usize>() {
        Ok(col) if col < COLS => col,
        _ => {
            COLS + OFF_BOARD
                .iter()
                .position(|t| *t == token)
                .unwrap_or(OFF_BOARD.len())
        }
    }
}

/// What playing tokens does, by the rules of SPEC.md §1.
#[derive(Debug, PartialEq, Eq)]
struct Replay {
    /// Tokens read before the game ended (all, if it did not).
    read: usize,
    /// Pieces dropped.
    moves: usize,
    /// Tokens answered by the same prompt again.
    refused: usize,
    /// How it ended, if it did.
    ending: Option<String>,
}

fn replay(tokens: &[String]) -> Replay {
    let mut board = Drops::new(ROWS, COLS);
    let mut player = 1;
    let mut replay = Replay {
        read: 0,
        moves: 0,
        refused: 0,
        ending: None,
    };
    for token in tokens {
        replay.read += 1;
        let col = token.parse::<usize>().ok().filter(|&c| board.accepts(c));
        let Some(col) = col else {
            replay.refused += 1;
            continue;
        };
        board.drop(col, player);
        replay.moves += 1;
        if board.wins(player) {
            replay.ending = Some(format!("{} wins", name(player)));
            break;
        }
        if board.full() {
            replay.ending = Some("a tie".into());
            break;
        }
        player = 3 - player;
    }
    replay
}

fn name(player: u8) -> &'static str {
    if player == 1 {
        "Red"
    } else {
        "Yellow"
    }
}

/// Pairs of turns tried left out at most, in one round of shrinking.
const PAIRS: usize = 150;

/// The tokens in turns, each the refused inputs before a move and the
/// move; then what was typed after the last move.
fn turns(tokens: &[String]) -> (Vec<Tokens>, Tokens) {
    let mut board = Drops::new(ROWS, COLS);
    let mut player = 1;
    let mut turns = Vec::new();
    let mut current = Vec::new();
    for token in tokens {
        current.push(token.clone());
        if let Some(col) = token.parse::<usize>().ok().filter(|&c| board.accepts(c)) {
            board.drop(col, player);
            turns.push(std::mem::take(&mut current));
            player = 3 - player;
        }
    }
    (turns, current)
}

/// Pairs of turns, one of each player, whose pieces nothing was dropped
/// onto later: the game without them has every other piece where it was
/// (but for the order of play).
fn top_pairs(turns: &[Tokens]) -> Vec<(usize, usize)> {
    let column = |turn: &Tokens| turn.last().cloned().unwrap_or_default();
    let tops: Vec<usize> = (0..turns.len())
        .filter(|&i| {
            turns[i + 1..]
                .iter()
                .all(|later| column(later) != column(&turns[i]))
        })
        .collect();
    let (firsts, seconds): (Vec<usize>, Vec<usize>) = tops.iter().partition(|&&i| i % 2 == 0);
    firsts
        .iter()
        .flat_map(|&a| seconds.iter().map(move |&b| (a, b)))
        .collect()
}

/// The tokens the game reads: none after its end.
fn normalized(mut tokens: Tokens) -> Tokens {
    let read = replay(&tokens).read;
    tokens.truncate(read);
    tokens
}

/// Where a game's columns come from.
enum Source {
    Plan(Plan),
    List(Vec<usize>),
}

impl Model for Connect4 {
    type Game = Tokens;

    fn generate(&self, rng: &mut Rng) -> Tokens {
        let source = match rng.below(100) {
            0..=14 => Source::Plan(Plan::Random),
            15..=59 => {
                let (cells, _) = drops::pick_shape(rng, ROWS, COLS);
                let owner = 1 + rng.below(2) as u8;
                Source::Plan(Plan::Build { cells, owner })
            }
            60..=84 => {
                let last = rng.chance(50).then(|| rng.below(COLS));
                Source::Plan(Plan::Fill { last })
            }
            _ => Source::List(last_square_win(rng)),
        };
        let refusing = *rng.weighted(&[(45, 0), (20, 5), (15, 15), (12, 30), (8, 70)]);
        play(source, refusing, rng)
    }

    fn task(&self, game: &Tokens) -> Task {
        Task::Input(game.clone())
    }

    fn simpler(&self, game: &Tokens) -> Vec<Tokens> {
        let mut out: Vec<Tokens> = without_chunks(game).into_iter().map(normalized).collect();
        let (turns, after) = turns(game);
        let pairs = top_pairs(&turns)
            .into_iter()
            .map(|(a, b)| without_two(&turns, a, b))
            .chain(without_pairs(&turns, PAIRS));
        for fewer in pairs {
            let mut tokens: Tokens = fewer.concat();
            tokens.extend(after.iter().cloned());
            out.push(normalized(tokens));
        }
        for (i, token) in game.iter().enumerate() {
            let plainer = (0..COLS)
                .map(|c| c.to_string())
                .chain(OFF_BOARD.iter().map(|t| t.to_string()));
            for other in plainer.filter(|t| rank(t) < rank(token)) {
                // An input off the board stays off it, and a column stays
                // a column: the game keeps its shape.
                if (rank(&other) < COLS) == (rank(token) < COLS) {
                    let mut g = game.clone();
                    g[i] = other;
                    out.push(normalized(g));
                }
            }
        }
        out
    }

    fn measure(&self, game: &Tokens) -> (usize, usize) {
        (game.len(), game.iter().map(|t| rank(t)).sum())
    }

    fn describe(&self, game: &Tokens) -> String {
        let replay = replay(game);
        described(replay.moves, replay.refused, replay.ending.as_deref())
    }
}

/// Plays a game from `source`, putting refused inputs before a move
/// `refusing` times in a hundred: columns off the board, or a full
/// column when there is one.
fn play(mut source: Source, refusing: u32, rng: &mut Rng) -> Tokens {
    let mut board = Drops::new(ROWS, COLS);
    let mut tokens = Vec::new();
    let mut refused = 0;
    let mut player = 1;
    let mut step = 0;
    loop {
        while refused < MOST_REFUSED && rng.chance(refusing) {
            let full: Vec<usize> = (0..COLS).filter(|&c| !board.accepts(c)).collect();
            let token = if !full.is_empty() && rng.chance(40) {
                rng.pick(&full).to_string()
            } else {
                rng.pick(&OFF_BOARD).to_string()
            };
            tokens.push(token);
            refused += 1;
        }
        let col = match &mut source {
            Source::Plan(plan) => plan.column(&board, player, rng),
            Source::List(cols) => cols.get(step).copied(),
        };
        let Some(col) = col.filter(|&c| board.accepts(c)) else {
            return tokens;
        };
        step += 1;
        tokens.push(col.to_string());
        board.drop(col, player);
        if board.wins(player) || board.full() {
            return tokens;
        }
        player = 3 - player;
    }
}

/// Columns that fill the board with no four until the last piece, which
/// makes one (a win, not a tie): found by filling boards without fours
/// until one ends so, or the best try.
fn last_square_win(rng: &mut Rng) -> Vec<usize> {
    let mut fallback = Vec::new();
    for _ in 0..60 {
        let mut attempt = rng.fork();
        let plan = Plan::Fill { last: None };
        let mut board = Drops::new(ROWS, COLS);
        let mut cols = Vec::new();
        let mut player = 1;
        while let Some(col) = plan.column(&board, player, &mut attempt) {
            board.drop(col, player);
            cols.push(col);
            if board.wins(player) {
                break;
            }
            player = 3 - player;
        }
        if board.full() && board.wins(player) {
            return cols;
        }
        fallback = cols;
    }
    fallback
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expected::run_reference;

    fn tokens(text: &str) -> Tokens {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn replays_agree_with_the_reference() {
        for i in 0..300 {
            let game = Connect4.generate(&mut Rng::for_game(11, i));
            let replay = replay(&game);
            let run = run_reference(reference::Game::Connect4, &game);
            assert_eq!(run.transcript.inputs().count(), game.len(), "{game:?}");
            assert_eq!(replay.read, game.len(), "no input after the end");
            let out = String::from_utf8_lossy(&run.transcript.output()).into_owned();
            match replay.ending.as_deref() {
                Some("a tie") => assert!(out.contains("It's a tie\n"), "{game:?}"),
                Some(win) => assert!(out.contains(&format!("{win}!\n")), "{game:?}"),
                None => assert!(run.waited_at_end),
            }
        }
    }

    #[test]
    fn games_reach_every_kind_of_ending_and_input() {
        let games: Vec<Tokens> = (0..400)
            .map(|i| Connect4.generate(&mut Rng::for_game(0, i)))
            .collect();
        let endings: Vec<String> = games.iter().filter_map(|g| replay(g).ending).collect();
        for ending in ["Red wins", "Yellow wins", "a tie"] {
            assert!(
                endings.iter().any(|e| e == ending),
                "no game ends with {ending}"
            );
        }
        let last_square = games
            .iter()
            .filter(|g| {
                let r = replay(g);
                r.moves == ROWS * COLS && r.ending.as_deref() != Some("a tie")
            })
            .count();
        assert!(last_square > 0, "no win on the last free square");
        assert!(games.iter().any(|g| g.len() >= 36 && replay(g).moves < 36));
        for off in OFF_BOARD {
            assert!(games.iter().any(|g| g.iter().any(|t| t == off)), "{off}");
        }
    }

    #[test]
    fn simpler_games_are_well_formed_and_smaller() {
        let game = tokens("0 1 0 1 0 1 0 5 5");
        assert_eq!(normalized(game.clone()), tokens("0 1 0 1 0 1 0"));
        let game = normalized(game);
        for simpler in Connect4.simpler(&game) {
            assert_eq!(normalized(simpler.clone()), simpler);
            assert!(Connect4.measure(&simpler) <= Connect4.measure(&game));
        }
        assert_eq!(Connect4.describe(&game), "7 moves, Red wins");
        assert_eq!(
            Connect4.describe(&tokens("6 0 99")),
            "1 move and 2 refused inputs, the game not over"
        );
    }
}
