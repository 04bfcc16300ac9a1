//! Generated games of "Connect Four: CSE 101 Edition" (SPEC.md §2): whole
//! games typed into the given main block, and single calls of the six
//! functions, as the course graded them.
//!
//! A whole game holds: the board's size (at least 4 by 4, up to 12), then
//! for each turn a column and, while the player still has a bomb, the
//! answer to the bomb question: `y` or `Y` (a bomb, into a column with
//! pieces, an empty column, or a column off the board, which is refused
//! and spends it), or another answer (`n`, `N`, an empty line, `no`,
//! `yes`: a piece). Columns off the board and full columns lose the turn.
//! Never a line that is not an integer where the main calls `int()`, and
//! never a size below 4 (both unspecified).
//!
//! A call holds a board pieces could have fallen into (no piece above an
//! empty slot), of any size from 4 by 4, and the function's arguments:
//! columns on and off the board, full and empty, player 1 or 2. A call of
//! a winner function never has both players with four (SPEC.md: function
//! cases never build one).
//!
//! Where bugs hide, and so where games and calls go: lines of four along
//! the edges, the top row and the last column, in every direction; fours
//! that wrap from a row into the next or past a side; boards that are not
//! square; full boards and boards one slot short; bombs after the other
//! player's bomb.

use reference::connect4_bomb::{self as rules, Board};

use crate::call::{Call, Function};
use crate::generate::cuts::{without_chunks, without_pairs};
use crate::generate::drops::{self, Drops, Plan, EMPTY};
use crate::generate::{Model, Rng, Task};

/// The generator of `connect4-bomb` games and calls.
pub struct Connect4Bomb;

/// A generated game: a whole game, or one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trial {
    /// A whole game.
    Play(Play),
    /// One function on one board.
    Call(Call),
}

/// A whole game: the board's size and the turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    rows: i64,
    cols: i64,
    turns: Vec<Turn>,
}

/// One turn: the column typed, and the answer to the bomb question, used
/// while the player has a bomb.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    col: i64,
    answer: &'static str,
}

/// Answers to the bomb question that drop a piece, the plainest first.
const NO: [&str; 5] = ["n", "N", "", "no", "yes"];
/// Answers that drop the bomb.
const YES: [&str; 2] = ["y", "Y"];

/// Pairs of turns tried left out at most, in one round of shrinking.
const PAIRS: usize = 150;

/// Turns in one game at most: a game on a 12-column board could go on
/// for 144.
const MOST_TURNS: usize = 70;

fn answer_rank(answer: &str) -> usize {
    NO.iter()
        .chain(YES.iter())
        .position(|a| *a == answer)
        .unwrap_or(0)
}

/// What playing a game does, by the given main block (SPEC.md §2).
#[derive(Debug, Default)]
struct Replay {
    lines: Vec<String>,
    /// Turns played before the game ended (all, if it did not).
    turns: usize,
    bombs: usize,
    refused: usize,
    ending: Option<String>,
}

fn replay(play: &Play) -> Replay {
    let mut board = Board::new(play.rows, play.cols);
    let mut out = Replay {
        lines: vec![play.rows.to_string(), play.cols.to_string()],
        ..Replay::default()
    };
    let mut player = 1;
    let mut bombs = [1, 1];
    for turn in &play.turns {
        if rules::board_full(&board) {
            break;
        }
        out.turns += 1;
        out.lines.push(turn.col.to_string());
        let slot = usize::from(player == 2);
        let bomb = bombs[slot] > 0 && YES.contains(&turn.answer);
        if bombs[slot] > 0 {
            out.lines.push(turn.answer.to_string());
        }
        let refused = if bomb {
            bombs[slot] -= 1;
            out.bombs += 1;
            rules::drop_bomb(&mut board, turn.col) == -1
        } else {
            rules::drop_piece(&mut board, turn.col, player) == -1
        };
        out.refused += usize::from(refused);
        let won = rules::horizontal_winner(&board) >= 1
            || rules::vertical_winner(&board) >= 1
            || rules::diagonal_winner(&board) != 0;
        if won {
            out.ending = Some(format!("player {player} wins"));
            return out;
        }
        player = 3 - player;
    }
    if rules::board_full(&board) {
        out.ending = Some("a tie".into());
    }
    out
}

/// The turns the game plays: none after its end.
fn normalized(mut play: Play) -> Play {
    let turns = replay(&play).turns;
    play.turns.truncate(turns);
    play
}

impl Model for Connect4Bomb {
    type Game = Trial;

    fn generate(&self, rng: &mut Rng) -> Trial {
        if rng.chance(55) {
            Trial::Call(call(rng))
        } else {
            Trial::Play(play(rng))
        }
    }

    fn task(&self, game: &Trial) -> Task {
        match game {
            Trial::Play(play) => Task::Input(replay(play).lines),
            Trial::Call(call) => Task::Call(call.clone()),
        }
    }

    fn simpler(&self, game: &Trial) -> Vec<Trial> {
        match game {
            Trial::Play(play) => simpler_plays(play).into_iter().map(Trial::Play).collect(),
            Trial::Call(call) => simpler_calls(call).into_iter().map(Trial::Call).collect(),
        }
    }

    fn measure(&self, game: &Trial) -> (usize, usize) {
        match game {
            Trial::Play(play) => (
                play.turns.len(),
                (play.rows + play.cols) as usize
                    + play
                        .turns
                        .iter()
                        .map(|t| t.col.unsigned_abs() as usize + answer_rank(t.answer))
                        .sum::<usize>(),
            ),
            Trial::Call(call) => (
                pieces(&call.board),
                (call.board.num_rows() + call.board.num_cols()) as usize
                    + call
                        .args
                        .iter()
                        .map(|a| a.unsigned_abs() as usize)
                        .sum::<usize>(),
            ),
        }
    }

    fn describe(&self, game: &Trial) -> String {
        match game {
            Trial::Play(play) => describe_play(play),
            Trial::Call(call) => format!(
                "{} on a {}×{} board with {} piece{}",
                call.describe(),
                call.board.num_rows(),
                call.board.num_cols(),
                pieces(&call.board),
                if pieces(&call.board) == 1 { "" } else { "s" }
            ),
        }
    }
}

fn describe_play(play: &Play) -> String {
    let replay = replay(play);
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut text = format!(
        "a {}×{} board, {} turn{}",
        play.rows,
        play.cols,
        replay.turns,
        plural(replay.turns)
    );
    if replay.bombs > 0 {
        text.push_str(&format!(" ({} bomb{}", replay.bombs, plural(replay.bombs)));
        text.push(')');
    }
    if replay.refused > 0 {
        text.push_str(&format!(
            ", {} refused column{}",
            replay.refused,
            plural(replay.refused)
        ));
    }
    match replay.ending {
        Some(ending) => text.push_str(&format!(", {ending}")),
        None => text.push_str(", the game not over"),
    }
    text
}

fn pieces(board: &Board) -> usize {
    let (rows, cols) = size(board);
    (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| board.slot(r, c) != '.')
        .count()
}

fn size(board: &Board) -> (usize, usize) {
    (
        board.num_rows().max(0) as usize,
        board.num_cols().max(0) as usize,
    )
}

/// A board's size: square, wide or tall, mostly small.
fn pick_size(rng: &mut Rng) -> (usize, usize) {
    match rng.below(100) {
        0..=11 => (4, 4),
        12..=26 => (4, 5 + rng.below(5)),
        27..=41 => (5 + rng.below(5), 4),
        42..=51 => (6, 7),
        52..=91 => (4 + rng.below(6), 4 + rng.below(6)),
        _ => (10, 12),
    }
}

/// Columns off the board for a board of `cols` columns, the plainest
/// first.
fn off_board(cols: i64) -> [i64; 5] {
    [0, cols + 1, -1, cols + 5, 99]
}

fn play(rng: &mut Rng) -> Play {
    let (rows, cols) = pick_size(rng);
    let plan = pick_plan(rng, rows, cols);
    let refusing = *rng.weighted(&[(50, 0), (30, 8), (20, 25)]);
    let bombing = *rng.weighted(&[(20, 0), (40, 6), (30, 15), (10, 40)]);
    let odd_answers = rng.chance(30);
    let mut board = Drops::new(rows, cols);
    let mut turns = Vec::new();
    let mut player = 1u8;
    let mut bombs = [1, 1];
    while turns.len() < MOST_TURNS && !board.full() {
        let slot = usize::from(player == 2);
        let no = if odd_answers { *rng.pick(&NO) } else { "n" };
        let turn = if bombs[slot] > 0 && rng.chance(bombing) {
            bombs[slot] -= 1;
            bomb_turn(&mut board, rng)
        } else if rng.chance(refusing) {
            Turn {
                col: refused_column(&board, rng),
                answer: no,
            }
        } else {
            let Some(col) = plan.column(&board, player, rng) else {
                break;
            };
            board.drop(col, player);
            Turn {
                col: col as i64 + 1,
                answer: no,
            }
        };
        turns.push(turn);
        if board.wins(1) || board.wins(2) {
            break;
        }
        player = 3 - player;
    }
    normalized(Play {
        rows: rows as i64,
        cols: cols as i64,
        turns,
    })
}

/// How the players pick columns: at random, building a shape, or filling
/// the board.
fn pick_plan(rng: &mut Rng, rows: usize, cols: usize) -> Plan {
    match rng.below(10) {
        0..=1 => Plan::Random,
        2..=6 => {
            let (cells, _) = drops::pick_shape(rng, rows, cols);
            Plan::Build {
                cells,
                owner: 1 + rng.below(2) as u8,
            }
        }
        _ => Plan::Fill {
            last: rng.chance(50).then(|| rng.below(cols)),
        },
    }
}

/// A column a piece cannot go into: a full one, or one off the board.
fn refused_column(board: &Drops, rng: &mut Rng) -> i64 {
    let cols = board.cols();
    let full: Vec<usize> = (0..cols).filter(|&c| !board.accepts(c)).collect();
    if !full.is_empty() && rng.chance(40) {
        *rng.pick(&full) as i64 + 1
    } else {
        *rng.pick(&off_board(cols as i64))
    }
}

/// A bomb: down a column with pieces, an empty column, or a column off
/// the board.
fn bomb_turn(board: &mut Drops, rng: &mut Rng) -> Turn {
    let cols = board.cols();
    let answer = *rng.pick(&YES);
    let with_pieces: Vec<usize> = (0..cols).filter(|&c| board.height(c) > 0).collect();
    let empty: Vec<usize> = (0..cols).filter(|&c| board.height(c) == 0).collect();
    let col = match rng.below(10) {
        0..=5 if !with_pieces.is_empty() => *rng.pick(&with_pieces),
        6..=7 if !empty.is_empty() => *rng.pick(&empty),
        _ => {
            return Turn {
                col: *rng.pick(&off_board(cols as i64)),
                answer,
            }
        }
    };
    board.clear(col);
    Turn {
        col: col as i64 + 1,
        answer,
    }
}

fn simpler_plays(play: &Play) -> Vec<Play> {
    let mut out: Vec<Play> = without_chunks(&play.turns)
        .into_iter()
        .map(|turns| {
            normalized(Play {
                turns,
                rows: play.rows,
                cols: play.cols,
            })
        })
        .collect();
    for turns in without_pairs(&play.turns, PAIRS) {
        out.push(normalized(Play {
            turns,
            rows: play.rows,
            cols: play.cols,
        }));
    }
    if play.rows > 4 {
        out.push(normalized(Play {
            rows: play.rows - 1,
            ..play.clone()
        }));
    }
    if play.cols > 4 {
        out.push(normalized(Play {
            cols: play.cols - 1,
            ..play.clone()
        }));
    }
    for (i, turn) in play.turns.iter().enumerate() {
        let mut plainer: Vec<Turn> = Vec::new();
        if (1..=play.cols).contains(&turn.col) {
            plainer.extend((1..turn.col).map(|col| Turn {
                col,
                ..turn.clone()
            }));
        }
        let answer = if YES.contains(&turn.answer) { "y" } else { "n" };
        if answer != turn.answer {
            plainer.push(Turn {
                answer,
                ..turn.clone()
            });
        }
        for other in plainer {
            let mut p = play.clone();
            p.turns[i] = other;
            out.push(normalized(p));
        }
    }
    out
}

/// A call: a function, a board for it, its arguments.
fn call(rng: &mut Rng) -> Call {
    let function = *rng.weighted(&[
        (25, Function::DropPiece),
        (15, Function::DropBomb),
        (15, Function::BoardFull),
        (15, Function::HorizontalWinner),
        (15, Function::VerticalWinner),
        (15, Function::DiagonalWinner),
    ]);
    let (rows, cols) = pick_size(rng);
    let board = match function {
        Function::BoardFull => full_ish(rng, rows, cols),
        Function::DropPiece | Function::DropBomb => heights_board(rng, rows, cols),
        _ => winner_board(rng, function, rows, cols),
    };
    let args = match function {
        Function::DropPiece => vec![column_arg(rng, &board), 1 + rng.below(2) as i64],
        Function::DropBomb => vec![column_arg(rng, &board)],
        _ => Vec::new(),
    };
    Call {
        function,
        board: to_board(&board),
        args,
    }
}

/// A column for `drop_piece` or `drop_bomb`: mostly on the board (a full
/// one, the first, the last, any), else off it.
fn column_arg(rng: &mut Rng, board: &Drops) -> i64 {
    let cols = board.cols();
    let full: Vec<usize> = (0..cols).filter(|&c| !board.accepts(c)).collect();
    match rng.below(10) {
        0..=1 if !full.is_empty() => *rng.pick(&full) as i64 + 1,
        2 => 1,
        3 => cols as i64,
        4..=6 => 1 + rng.below(cols) as i64,
        _ => *rng.pick(&off_board(cols as i64)),
    }
}

/// A full board, a board one slot short of full (often in a top corner),
/// or any board.
fn full_ish(rng: &mut Rng, rows: usize, cols: usize) -> Drops {
    let mut board = Drops::new(rows, cols);
    let kind = rng.below(10);
    if kind >= 7 {
        return heights_board(rng, rows, cols);
    }
    let short = (kind >= 4).then(|| match rng.below(3) {
        0 => 0,
        1 => cols - 1,
        _ => rng.below(cols),
    });
    for col in 0..cols {
        let height = if Some(col) == short { rows - 1 } else { rows };
        for _ in 0..height {
            board.drop(col, 1 + rng.below(2) as u8);
        }
    }
    board
}

/// A board of random column heights, some full and some empty.
fn heights_board(rng: &mut Rng, rows: usize, cols: usize) -> Drops {
    let mut board = Drops::new(rows, cols);
    for col in 0..cols {
        let height = match rng.below(10) {
            0..=1 => rows,
            2..=3 => 0,
            _ => rng.below(rows + 1),
        };
        for _ in 0..height {
            board.drop(col, 1 + rng.below(2) as u8);
        }
    }
    board
}

/// A board for a winner function: a four for one player in the
/// function's direction (or another direction, or a wrap or a gap, or
/// nothing), on pieces that hold it up, and never a four for both.
fn winner_board(rng: &mut Rng, function: Function, rows: usize, cols: usize) -> Drops {
    for _ in 0..30 {
        let mut attempt = rng.fork();
        let board = planted(&mut attempt, function, rows, cols);
        if !(board.wins(1) && board.wins(2)) {
            return board;
        }
    }
    Drops::new(rows, cols)
}

fn planted(rng: &mut Rng, function: Function, rows: usize, cols: usize) -> Drops {
    let owner = 1 + rng.below(2) as u8;
    let all = drops::lines(rows, cols);
    let along = |line: &Vec<(usize, usize)>| {
        let (dr, dc) = (
            line[1].0 as isize - line[0].0 as isize,
            line[1].1 as isize - line[0].1 as isize,
        );
        match function {
            Function::HorizontalWinner => dr == 0,
            Function::VerticalWinner => dc == 0,
            _ => dr != 0 && dc != 0,
        }
    };
    let shape: Vec<(usize, usize)> = match rng.below(20) {
        0..=10 => {
            let mine: Vec<_> = all.iter().filter(|l| along(l)).cloned().collect();
            let edge: Vec<_> = mine
                .iter()
                .filter(|l| drops::on_edge(l, rows, cols))
                .cloned()
                .collect();
            let from = if !edge.is_empty() && rng.chance(60) {
                edge
            } else {
                mine
            };
            rng.pick(&from).clone()
        }
        11..=13 => rng.pick(&all).clone(),
        14..=15 => rng.pick(&drops::wraps(rows, cols)).clone(),
        16 => {
            let gaps = drops::gaps(rows, cols);
            if gaps.is_empty() {
                Vec::new()
            } else {
                rng.pick(&gaps).clone()
            }
        }
        _ => Vec::new(),
    };
    let mut heights = vec![0; cols];
    for &(r, c) in &shape {
        heights[c] = heights[c].max(r + 1);
    }
    let extra = rng.below(rows * cols / 3 + 1);
    for _ in 0..extra {
        let c = rng.below(cols);
        heights[c] = (heights[c] + 1).min(rows);
    }
    let mut board = Drops::new(rows, cols);
    for (c, &height) in heights.iter().enumerate() {
        for r in 0..height {
            let piece = if shape.contains(&(r, c)) {
                owner
            } else {
                1 + rng.below(2) as u8
            };
            board.drop(c, piece);
        }
    }
    board
}

fn to_board(drops: &Drops) -> Board {
    let mut text = String::new();
    for r in (0..drops.rows()).rev() {
        for c in 0..drops.cols() {
            text.push(match drops.at(r, c) {
                EMPTY => '.',
                1 => 'X',
                _ => 'O',
            });
        }
        text.push('\n');
    }
    Board::parse(&text).unwrap_or_else(|_| Board::new(drops.rows() as i64, drops.cols() as i64))
}

fn to_drops(board: &Board) -> Drops {
    let (rows, cols) = size(board);
    let mut drops = Drops::new(rows, cols);
    for c in 0..cols {
        for r in 0..rows {
            match board.slot(r, c) {
                'X' => drops.drop(c, 1),
                'O' => drops.drop(c, 2),
                _ => break,
            }
        }
    }
    drops
}

/// The cells of a board, column by column from the bottom: what the
/// board-changing candidates below edit.
fn columns(board: &Drops) -> Vec<Vec<u8>> {
    (0..board.cols())
        .map(|c| (0..board.height(c)).map(|r| board.at(r, c)).collect())
        .collect()
}

fn from_columns(rows: usize, columns: &[Vec<u8>]) -> Drops {
    let mut board = Drops::new(rows, columns.len());
    for (c, column) in columns.iter().enumerate() {
        for &piece in column.iter().take(rows) {
            board.drop(c, piece);
        }
    }
    board
}

/// Smaller calls: a piece fewer on top of a column, a row or a column
/// fewer (down to 4), plainer arguments; only boards a case may hold.
fn simpler_calls(call: &Call) -> Vec<Call> {
    let board = to_drops(&call.board);
    let cols = columns(&board);
    let rows = board.rows();
    let mut out = Vec::new();
    let with = |board: Drops, args: Vec<i64>| Call {
        function: call.function,
        board: to_board(&board),
        args,
    };
    for c in 0..cols.len() {
        if !cols[c].is_empty() {
            let mut fewer = cols.clone();
            fewer[c].pop();
            out.push(with(from_columns(rows, &fewer), call.args.clone()));
        }
    }
    if rows > 4 {
        for r in (0..rows).rev() {
            let lower: Vec<Vec<u8>> = cols
                .iter()
                .map(|col| {
                    col.iter()
                        .enumerate()
                        .filter(|&(i, _)| i != r)
                        .map(|(_, &p)| p)
                        .collect()
                })
                .collect();
            out.push(with(from_columns(rows - 1, &lower), call.args.clone()));
        }
    }
    if cols.len() > 4 {
        for c in (0..cols.len()).rev() {
            let Some(args) = args_without_column(call, c as i64 + 1) else {
                continue;
            };
            let mut narrower = cols.clone();
            narrower.remove(c);
            out.push(with(from_columns(rows, &narrower), args));
        }
    }
    if let Some(&col) = call.args.first() {
        if (1..=cols.len() as i64).contains(&col) {
            for plainer in 1..col {
                let mut args = call.args.clone();
                args[0] = plainer;
                out.push(with(board.clone(), args));
            }
        }
    }
    if call.args.get(1) == Some(&2) {
        out.push(with(board.clone(), vec![call.args[0], 1]));
    }
    out.retain(fits);
    out
}

/// The arguments once column `gone` is taken out: a column on the board
/// keeps pointing at its column, one off the board stays off it; `None`
/// when the call is about that column.
fn args_without_column(call: &Call, gone: i64) -> Option<Vec<i64>> {
    let mut args = call.args.clone();
    if let Some(col) = args.first_mut() {
        if *col == gone {
            return None;
        }
        if *col > gone {
            *col -= 1;
        }
    }
    Some(args)
}

/// Whether a call is one a case may make: at least 4 by 4, and for a
/// winner function, never both players with four.
fn fits(call: &Call) -> bool {
    let (rows, cols) = size(&call.board);
    let winner = matches!(
        call.function,
        Function::HorizontalWinner | Function::VerticalWinner | Function::DiagonalWinner
    );
    let board = to_drops(&call.board);
    rows >= 4 && cols >= 4 && !(winner && board.wins(1) && board.wins(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expected::run_reference;

    #[test]
    fn games_follow_the_given_main() {
        let mut plays = 0;
        for i in 0..300 {
            let Trial::Play(play) = Connect4Bomb.generate(&mut Rng::for_game(3, i)) else {
                continue;
            };
            plays += 1;
            let replay = replay(&play);
            assert!(play.rows >= 4 && play.cols >= 4);
            let run = run_reference(reference::Game::Connect4Bomb, &replay.lines);
            assert_eq!(
                run.transcript.inputs().count(),
                replay.lines.len(),
                "every line is read: {:?}",
                replay.lines
            );
            let out = String::from_utf8_lossy(&run.transcript.output()).into_owned();
            match replay.ending.as_deref() {
                Some("a tie") => assert!(out.contains("It was a tie!"), "{:?}", replay.lines),
                Some(win) => {
                    let n = &win["player ".len()..][..1];
                    assert!(out.contains(&format!("Player {n} won the game!")), "{out}")
                }
                None => assert!(run.waited_at_end, "{:?}", replay.lines),
            }
            let refused = out.matches("You can't drop").count();
            assert_eq!(refused, replay.refused, "{:?}", replay.lines);
        }
        assert!(plays > 100);
    }

    #[test]
    fn games_and_calls_reach_what_bugs_need() {
        let trials: Vec<Trial> = (0..600)
            .map(|i| Connect4Bomb.generate(&mut Rng::for_game(0, i)))
            .collect();
        let plays: Vec<Replay> = trials
            .iter()
            .filter_map(|t| match t {
                Trial::Play(p) => Some(replay(p)),
                Trial::Call(_) => None,
            })
            .collect();
        assert!(plays.iter().any(|r| r.bombs == 2), "both bombs used");
        assert!(plays.iter().any(|r| r.ending.as_deref() == Some("a tie")));
        assert!(plays
            .iter()
            .any(|r| r.ending.as_deref() == Some("player 2 wins")));
        let calls: Vec<&Call> = trials
            .iter()
            .filter_map(|t| match t {
                Trial::Call(c) => Some(c),
                Trial::Play(_) => None,
            })
            .collect();
        for function in Function::ALL {
            assert!(calls.iter().any(|c| c.function == function), "{function:?}");
        }
        let won_by_2 = |f: Function| {
            calls
                .iter()
                .any(|c| c.function == f && c.expected().returned == crate::call::Value::Int(2))
        };
        assert!(won_by_2(Function::HorizontalWinner));
        assert!(won_by_2(Function::VerticalWinner));
        assert!(won_by_2(Function::DiagonalWinner));
        assert!(calls
            .iter()
            .any(|c| c.function == Function::BoardFull && rules::board_full(&c.board)));
        for call in calls {
            assert!(fits(call), "{}", call.describe());
            assert_eq!(
                to_board(&to_drops(&call.board)),
                call.board,
                "no floating piece"
            );
        }
    }

    #[test]
    fn simpler_calls_keep_their_column() {
        let call = Call {
            function: Function::DropPiece,
            board: Board::parse("X....\nX....\nO.O..\nXOX.O\n").unwrap(),
            args: vec![3, 2],
        };
        let simpler = simpler_calls(&call);
        assert!(simpler.iter().all(fits));
        let narrower: Vec<&Call> = simpler.iter().filter(|c| c.board.num_cols() == 4).collect();
        assert!(!narrower.is_empty());
        // Taking out column 1 moves column 3 to 2; column 3 itself is
        // never taken out.
        assert!(narrower.iter().any(|c| c.args == [2, 2]));
        assert!(narrower
            .iter()
            .all(|c| c.board.slot(1, c.args[0] as usize - 1) == 'O'));
        assert!(simpler.iter().any(|c| c.args == [3, 1]));
    }
}
