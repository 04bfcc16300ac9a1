//! Generated games of CS 141 Pentago (SPEC.md §3): one move per line.
//!
//! What a game holds: moves (row, column, quadrant, direction), typed
//! compact or spaced as the handout's own inputs are (`c31r`, `A5 3R`,
//! `b 6 4 l`), in either case; the invalid moves SPEC.md defines (a row
//! off the board, a column, an occupied square, a quadrant or a
//! direction), several faults in one move where the handout fixes which
//! a program names (its sample run answers `G05h` with the row and `c05h`
//! with the column: row, then column, then quadrant, then direction) and
//! one where it leaves that open (an occupied square is the move's only
//! fault: where its check goes among the others is the program's); and
//! `x` or `X` to leave. Never more than one move on a line (unspecified:
//! the rest is read as the next move), never the letter x inside a move
//! (the handout's "at any point enter 'x'" leaves open whether it exits
//! there), never input after the game ended, and never a board filled
//! without five (the handout leaves a full board open). Shrinking keeps
//! all of this: a simpler game in which a refused line has come to put
//! an occupied square with another fault (leaving a move out can turn a
//! piece onto the square of a later invalid move) is no candidate.
//!
//! Where bugs hide, and so where games go: fives of every row, column and
//! diagonal (the four short diagonals too) made by placing a piece, with
//! a rotation typed that would break them; fives made by a rotation, for
//! the player who moved, for the other player, and for both (a tie);
//! four in a row, five of six with a gap, and five that wrap from one row
//! into the next (no win); rotations of quadrants that hold pieces.

use reference::pentago::{Board, Outcome, Piece, Rotation, SIZE};

use crate::generate::cuts::{without_chunks, without_pairs};
use crate::generate::{described, Model, Rng, Task};

/// The generator of `pentago` games.
pub struct Pentago;

/// A game: the lines typed.
pub type Lines = Vec<String>;

/// Rows off the board: letters (never x, which leaves the game).
const BAD_ROWS: [char; 5] = ['g', 'G', 'h', 'z', 'Q'];
/// Columns off the board.
const BAD_COLUMNS: [char; 3] = ['0', '7', '9'];
/// Quadrants that are none.
const BAD_QUADRANTS: [char; 3] = ['0', '5', '9'];
/// Directions that are neither L nor R (never x).
const BAD_DIRECTIONS: [char; 4] = ['h', 's', 'U', 'q'];

/// Refused inputs in one game at most.
const MOST_REFUSED: usize = 40;

/// A move: a square (row 0 = A), a quadrant (1-4), a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Move {
    square: (usize, usize),
    quadrant: usize,
    rotation: Rotation,
}

fn player(number: usize) -> Piece {
    if number % 2 == 1 {
        Piece::X
    } else {
        Piece::O
    }
}

/// What a line does, read as SPEC.md reads it.
enum Read {
    Exit,
    /// Refused, for these faults.
    Refused(Vec<Fault>),
    Valid(Move),
}

/// What can be wrong with a move, one check of SPEC.md's each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    Row,
    Column,
    Taken,
    Quadrant,
    Direction,
}

/// The faults whose order of checks the handout's sample run fixes.
const ORDERED: [Fault; 4] = [Fault::Row, Fault::Column, Fault::Quadrant, Fault::Direction];

/// Whether a refused move's faults leave open which one a program
/// names: an occupied square with any other (SPEC.md, §3).
fn order_open(faults: &[Fault]) -> bool {
    faults.len() > 1 && faults.contains(&Fault::Taken)
}

fn read(board: &Board, line: &str) -> Read {
    let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.first().is_some_and(|c| c.eq_ignore_ascii_case(&'x')) {
        return Read::Exit;
    }
    // (No game holds a line of other than four fields: it is one fault.)
    let [row, col, quadrant, direction] = chars[..] else {
        return Read::Refused(vec![Fault::Row]);
    };
    let faults = faults(board, [row, col, quadrant, direction]);
    if !faults.is_empty() {
        return Read::Refused(faults);
    }
    let rotation = match direction.to_ascii_uppercase() {
        'L' => Rotation::Left,
        _ => Rotation::Right,
    };
    Read::Valid(Move {
        square: (
            row.to_ascii_uppercase() as usize - 'A' as usize,
            col as usize - '1' as usize,
        ),
        quadrant: quadrant as usize - '0' as usize,
        rotation,
    })
}

/// Every fault of a move's four fields on `board`: a square is taken
/// only when its row and column are on the board.
fn faults(board: &Board, [row, col, quadrant, direction]: [char; 4]) -> Vec<Fault> {
    let row = row.to_ascii_uppercase();
    let on_board = [matches!(row, 'A'..='F'), matches!(col, '1'..='6')];
    let checks = [
        (Fault::Row, !on_board[0]),
        (Fault::Column, !on_board[1]),
        (
            Fault::Taken,
            on_board == [true, true]
                && board
                    .at(row as usize - 'A' as usize, col as usize - '1' as usize)
                    .is_some(),
        ),
        (Fault::Quadrant, !matches!(quadrant, '1'..='4')),
        (
            Fault::Direction,
            !matches!(direction.to_ascii_uppercase(), 'L' | 'R'),
        ),
    ];
    checks
        .into_iter()
        .filter(|(_, failed)| *failed)
        .map(|(fault, _)| fault)
        .collect()
}

/// What playing lines does.
#[derive(Debug)]
struct Replay {
    /// Lines read before the game ended (all, if it did not).
    read: usize,
    /// Valid moves.
    moves: usize,
    /// Lines answered by an error.
    refused: usize,
    /// Whether a refused line leaves open which fault a program names
    /// ([`order_open`]).
    order_open: bool,
    /// How it ended, if it did.
    ending: Option<String>,
}

fn replay(lines: &[String]) -> Replay {
    let mut board = Board::new();
    let mut replay = Replay {
        read: 0,
        moves: 0,
        refused: 0,
        order_open: false,
        ending: None,
    };
    for line in lines {
        replay.read += 1;
        let mv = match read(&board, line) {
            Read::Exit => {
                replay.ending = Some("the game left with x".into());
                break;
            }
            Read::Refused(faults) => {
                replay.refused += 1;
                replay.order_open |= order_open(&faults);
                continue;
            }
            Read::Valid(mv) => mv,
        };
        replay.moves += 1;
        let piece = player(replay.moves);
        match board.play(piece, mv.square, mv.quadrant, mv.rotation) {
            Outcome::Playing => {}
            Outcome::Won(p) => {
                replay.ending = Some(format!("{} wins", p.symbol()));
                break;
            }
            Outcome::Tie => {
                replay.ending = Some("a tie".into());
                break;
            }
        }
    }
    replay
}

/// Pairs of turns tried left out at most, in one round of shrinking.
const PAIRS: usize = 150;

/// The lines in turns, each the refused lines before a valid move and
/// the move; then what was typed after the last move.
fn turns(lines: &[String]) -> (Vec<Lines>, Lines) {
    let mut board = Board::new();
    let mut turns = Vec::new();
    let mut current = Vec::new();
    for line in lines {
        current.push(line.clone());
        if let Read::Valid(mv) = read(&board, line) {
            let piece = player(turns.len() + 1);
            board.play(piece, mv.square, mv.quadrant, mv.rotation);
            turns.push(std::mem::take(&mut current));
        }
    }
    (turns, current)
}

/// Each valid move, by its line's place, with the board just after its
/// piece was placed (before its rotation).
fn moves_with_boards(lines: &[String]) -> Vec<(usize, Move, Board)> {
    let mut board = Board::new();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match read(&board, line) {
            Read::Exit => break,
            Read::Refused(_) => {}
            Read::Valid(mv) => {
                let piece = player(out.len() + 1);
                let mut placed = board.clone();
                placed.set(mv.square.0, mv.square.1, Some(piece));
                out.push((i, mv, placed));
                if board.play(piece, mv.square, mv.quadrant, mv.rotation) != Outcome::Playing {
                    break;
                }
            }
        }
    }
    out
}

/// Moves whose rotation moves pieces, each typed instead with a turn of
/// a quadrant that holds none (off its centre), which changes nothing.
fn still_turns(lines: &[String]) -> Vec<(usize, String)> {
    moves_with_boards(lines)
        .into_iter()
        .filter(|(_, mv, placed)| holds_pieces(placed, mv.quadrant))
        .filter_map(|(i, mv, placed)| {
            let idle = (1..=4).find(|&q| !holds_pieces(&placed, q))?;
            let row = (b'a' + mv.square.0 as u8) as char;
            Some((i, format!("{row}{}{idle}l", mv.square.1 + 1)))
        })
        .collect()
}

/// The lines the game reads, or `None` when the board fills with no
/// five, or a refused line puts an occupied square with another fault
/// (the handout leaves both open).
fn normalized(mut lines: Lines) -> Option<Lines> {
    let replay = replay(&lines);
    if replay.moves >= SIZE * SIZE && replay.ending.is_none() || replay.order_open {
        return None;
    }
    lines.truncate(replay.read);
    Some(lines)
}

/// How plain a line is: a valid move typed compact in lower case, with a
/// low quadrant, turning left, is plainest.
fn plainness(line: &str) -> usize {
    let spaced = usize::from(line.contains(' ') || line.chars().any(|c| c.is_ascii_uppercase()));
    let digits: usize = line
        .chars()
        .skip(2)
        .filter_map(|c| c.to_digit(10))
        .map(|d| d as usize)
        .sum();
    let right = usize::from(line.ends_with(['r', 'R']));
    4 * spaced + digits + right
}

impl Model for Pentago {
    type Game = Lines;

    fn generate(&self, rng: &mut Rng) -> Lines {
        let (moves, exit) = match rng.below(100) {
            0..=34 => random_moves(rng),
            kind => finale_or_random(rng, kind),
        };
        let refusing = *rng.weighted(&[(40, 0), (25, 8), (20, 20), (15, 40)]);
        render(&moves, exit, refusing, rng)
    }

    fn task(&self, game: &Lines) -> Task {
        Task::Input(game.clone())
    }

    fn simpler(&self, game: &Lines) -> Vec<Lines> {
        let mut out: Vec<Lines> = without_chunks(game)
            .into_iter()
            .filter_map(normalized)
            .collect();
        let (turns, after) = turns(game);
        for fewer in without_pairs(&turns, PAIRS) {
            let mut lines: Lines = fewer.concat();
            lines.extend(after.iter().cloned());
            out.extend(normalized(lines));
        }
        for (i, still) in still_turns(game) {
            let mut g = game.clone();
            g[i] = still;
            out.extend(normalized(g));
        }
        for (i, line) in game.iter().enumerate() {
            for plainer in plainer_lines(line) {
                let mut g = game.clone();
                g[i] = plainer;
                out.extend(normalized(g));
            }
        }
        out
    }

    /// Lines first; then rotations that move pieces (each one makes the
    /// game harder to follow), then how plainly moves are typed.
    fn measure(&self, game: &Lines) -> (usize, usize) {
        let moving = moves_with_boards(game)
            .iter()
            .filter(|(_, mv, placed)| holds_pieces(placed, mv.quadrant))
            .count();
        (
            game.len(),
            64 * moving + game.iter().map(|l| plainness(l)).sum::<usize>(),
        )
    }

    fn describe(&self, game: &Lines) -> String {
        let replay = replay(game);
        described(replay.moves, replay.refused, replay.ending.as_deref())
    }
}

/// The same move typed more plainly: compact and lower case, a lower
/// quadrant, turning left. A line that is no valid move stays as it is
/// (its fault is what it is for).
fn plainer_lines(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    let [row, col, quadrant, direction] = chars[..] else {
        return Vec::new();
    };
    let valid = matches!(row.to_ascii_uppercase(), 'A'..='F')
        && matches!(col, '1'..='6')
        && matches!(quadrant, '1'..='4')
        && matches!(direction.to_ascii_uppercase(), 'L' | 'R');
    if !valid {
        return Vec::new();
    }
    let compact = |q: char, d: char| {
        format!(
            "{}{col}{q}{}",
            row.to_ascii_lowercase(),
            d.to_ascii_lowercase()
        )
    };
    let mut out = vec![compact(quadrant, direction)];
    out.extend(('1'..quadrant).map(|q| compact(q, direction)));
    if direction.eq_ignore_ascii_case(&'r') {
        out.push(compact(quadrant, 'l'));
    }
    out.retain(|l| l != line && plainness(l) < plainness(line));
    out
}

/// A random game: squares anywhere, quadrants that hold pieces more often
/// than not, and now and then the move that ends the game by a rotation
/// when there is one. It ends at its end, with `x` after a random number
/// of moves, or cut short.
fn random_moves(rng: &mut Rng) -> (Vec<Move>, Option<char>) {
    let stop = 1 + rng.below(SIZE * SIZE - 1);
    let hunting = rng.chance(60);
    let mut board = Board::new();
    let mut moves = Vec::new();
    for number in 1..SIZE * SIZE {
        if number > stop {
            break;
        }
        let piece = player(number);
        let mv = hunted(&board, piece, hunting, rng).unwrap_or_else(|| any_move(&board, rng));
        moves.push(mv);
        if board.play(piece, mv.square, mv.quadrant, mv.rotation) != Outcome::Playing {
            return (moves, None);
        }
    }
    let exit = rng.chance(75).then(|| *rng.pick(&['x', 'X']));
    (moves, exit)
}

fn empty_squares(board: &Board) -> Vec<(usize, usize)> {
    (0..SIZE)
        .flat_map(|r| (0..SIZE).map(move |c| (r, c)))
        .filter(|&(r, c)| board.at(r, c).is_none())
        .collect()
}

fn any_move(board: &Board, rng: &mut Rng) -> Move {
    let squares = empty_squares(board);
    let square = *rng.pick(&squares);
    let mut after = board.clone();
    after.set(square.0, square.1, Some(Piece::X));
    let holding: Vec<usize> = (1..=4).filter(|&q| holds_pieces(&after, q)).collect();
    let quadrant = if !holding.is_empty() && rng.chance(70) {
        *rng.pick(&holding)
    } else {
        1 + rng.below(4)
    };
    Move {
        square,
        quadrant,
        rotation: *rng.pick(&[Rotation::Left, Rotation::Right]),
    }
}

/// Whether a quadrant holds a piece off its centre (a rotation moves it).
fn holds_pieces(board: &Board, quadrant: usize) -> bool {
    let (top, left) = corner(quadrant);
    (0..3)
        .flat_map(|r| (0..3).map(move |c| (r, c)))
        .filter(|&rc| rc != (1, 1))
        .any(|(r, c)| board.at(top + r, left + c).is_some())
}

fn corner(quadrant: usize) -> (usize, usize) {
    (
        if quadrant <= 2 { 0 } else { 3 },
        if quadrant % 2 == 1 { 0 } else { 3 },
    )
}

/// Sometimes, a move whose rotation ends the game: five for the mover,
/// for the other player, or both.
fn hunted(board: &Board, piece: Piece, hunting: bool, rng: &mut Rng) -> Option<Move> {
    if !hunting || !rng.chance(50) || empty_squares(board).len() > 28 {
        return None;
    }
    let mut ending = Vec::new();
    for square in empty_squares(board) {
        let mut placed = board.clone();
        placed.set(square.0, square.1, Some(piece));
        if placed.has_five(piece) {
            continue;
        }
        for quadrant in 1..=4 {
            for rotation in [Rotation::Left, Rotation::Right] {
                let mv = Move {
                    square,
                    quadrant,
                    rotation,
                };
                let mut after = board.clone();
                if after.play(piece, square, quadrant, rotation) != Outcome::Playing {
                    ending.push(mv);
                }
            }
        }
    }
    (!ending.is_empty()).then(|| *rng.pick(&ending))
}

/// A game built backwards from its end: a five made by placing a piece,
/// by a rotation for the mover or the other player, a tie, or a shape
/// that is no five; `None` from the search falls back to a random game.
fn finale_or_random(rng: &mut Rng, kind: usize) -> (Vec<Move>, Option<char>) {
    let owner = *rng.pick(&[Piece::X, Piece::O]);
    let goal = match kind {
        35..=54 => Goal::Placement(owner),
        55..=66 => Goal::Rotation {
            owner,
            mover: owner,
        },
        67..=78 => Goal::Rotation {
            owner,
            mover: owner.other(),
        },
        79..=88 => Goal::Tie,
        _ => Goal::Shape(owner),
    };
    for _ in 0..40 {
        let mut attempt = rng.fork();
        if let Some(moves) = finale(&mut attempt, goal) {
            let exit = matches!(goal, Goal::Shape(_)).then(|| *rng.pick(&['x', 'X']));
            return (moves, exit);
        }
    }
    random_moves(rng)
}

/// How a built game ends.
#[derive(Clone, Copy, Debug)]
enum Goal {
    /// `owner` places the fifth piece of a five.
    Placement(Piece),
    /// `mover`'s rotation gives `owner` five.
    Rotation { owner: Piece, mover: Piece },
    /// The last rotation gives both five.
    Tie,
    /// `owner` builds a shape that is no five, and the game is left.
    Shape(Piece),
}

/// Every line of five: two in each row and column, eight on diagonals.
fn fives() -> Vec<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    for a in 0..SIZE {
        for start in 0..2 {
            out.push((0..5).map(|k| (a, start + k)).collect());
            out.push((0..5).map(|k| (start + k, a)).collect());
        }
    }
    for (r, c) in [(0, 0), (1, 1), (0, 1), (1, 0)] {
        out.push((0..5).map(|k| (r + k, c + k)).collect());
        out.push((0..5).map(|k| (r + k, SIZE - 1 - c - k)).collect());
    }
    out
}

/// Every line of six: the rows, the columns and the two long diagonals.
fn sixes() -> Vec<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    for a in 0..SIZE {
        out.push((0..SIZE).map(|k| (a, k)).collect());
        out.push((0..SIZE).map(|k| (k, a)).collect());
    }
    out.push((0..SIZE).map(|k| (k, k)).collect());
    out.push((0..SIZE).map(|k| (k, SIZE - 1 - k)).collect());
    out
}

/// Shapes that are no five: four in a row, five of a line of six with a
/// gap, five running from one row's end into the next row.
fn shapes(rng: &mut Rng) -> Vec<(usize, usize)> {
    let five = rng.pick(&fives()).clone();
    match rng.below(3) {
        0 => five[..4].to_vec(),
        1 => {
            let mut six = rng.pick(&sixes()).clone();
            six.remove(1 + rng.below(4));
            six
        }
        _ => {
            let start = rng.below(SIZE * (SIZE - 1) - 4);
            let cells: Vec<(usize, usize)> =
                (start..start + 5).map(|i| (i / SIZE, i % SIZE)).collect();
            if cells.iter().all(|&(r, _)| r == cells[0].0) {
                five[..4].to_vec()
            } else {
                cells
            }
        }
    }
}

/// The pieces of a built game: where each player's pieces stand before
/// the last move (before its rotation, when the rotation makes the
/// five), the last move, and a quadrant that stays empty to the end
/// (every other move turns it, which changes nothing).
fn finale(rng: &mut Rng, goal: Goal) -> Option<Vec<Move>> {
    let quadrant = 1 + rng.below(4);
    let rotation = *rng.pick(&[Rotation::Left, Rotation::Right]);
    let (owners, mover) = match goal {
        Goal::Tie => (vec![Piece::X, Piece::O], *rng.pick(&[Piece::X, Piece::O])),
        Goal::Placement(p) | Goal::Shape(p) => (vec![p], p),
        Goal::Rotation { owner, mover } => (vec![owner], mover),
    };
    let mut board = before_the_end(rng, goal, &owners, quadrant, rotation)?;
    let idle = (1..=4).find(|&q| q != quadrant && quadrant_empty(&board, q))?;
    let (mut xs, mut os) = (squares_of(&board, Piece::X), squares_of(&board, Piece::O));
    fill(&mut board, &mut xs, &mut os, mover, idle, rng);
    rng.shuffle(&mut xs);
    rng.shuffle(&mut os);
    let last = if mover == Piece::X {
        xs.pop()?
    } else {
        os.pop()?
    };
    let last_quadrant = match goal {
        // A rotation that would move the five's pieces, were it made.
        Goal::Placement(_) => {
            let holding: Vec<usize> = (1..=4).filter(|&q| holds_pieces(&board, q)).collect();
            *rng.pick(if holding.is_empty() {
                &[1, 2, 3, 4][..]
            } else {
                &holding
            })
        }
        Goal::Shape(_) => idle,
        _ => quadrant,
    };
    let mut moves = in_turn(xs, os, idle, rng);
    moves.push(Move {
        square: last,
        quadrant: last_quadrant,
        rotation,
    });
    checked(&moves, goal)
}

/// The owners' pieces where they stand before the last move: their fives
/// (or shape), turned back by the last rotation when it is the rotation
/// that makes them, which must then leave no five before it.
fn before_the_end(
    rng: &mut Rng,
    goal: Goal,
    owners: &[Piece],
    quadrant: usize,
    rotation: Rotation,
) -> Option<Board> {
    let mut board = Board::new();
    for &owner in owners {
        let cells = match goal {
            Goal::Shape(_) => shapes(rng),
            _ => rng.pick(&fives()).clone(),
        };
        for (r, c) in cells {
            if board.at(r, c).is_some() {
                return None;
            }
            board.set(r, c, Some(owner));
        }
    }
    if matches!(goal, Goal::Rotation { .. } | Goal::Tie) {
        let undo = match rotation {
            Rotation::Left => Rotation::Right,
            Rotation::Right => Rotation::Left,
        };
        board.rotate(quadrant, undo);
        if board.has_five(Piece::X) || board.has_five(Piece::O) {
            return None;
        }
    }
    Some(board)
}

/// X's and O's squares as moves in turn, X first, each turning the idle
/// quadrant (which changes nothing).
fn in_turn(
    xs: Vec<(usize, usize)>,
    os: Vec<(usize, usize)>,
    idle: usize,
    rng: &mut Rng,
) -> Vec<Move> {
    let (mut xi, mut oi) = (xs.into_iter(), os.into_iter());
    let mut moves = Vec::new();
    loop {
        let next = if moves.len() % 2 == 0 {
            xi.next()
        } else {
            oi.next()
        };
        let Some(square) = next else {
            return moves;
        };
        moves.push(Move {
            square,
            quadrant: idle,
            rotation: *rng.pick(&[Rotation::Left, Rotation::Right]),
        });
    }
}

fn squares_of(board: &Board, piece: Piece) -> Vec<(usize, usize)> {
    (0..SIZE)
        .flat_map(|r| (0..SIZE).map(move |c| (r, c)))
        .filter(|&(r, c)| board.at(r, c) == Some(piece))
        .collect()
}

fn quadrant_empty(board: &Board, quadrant: usize) -> bool {
    let (top, left) = corner(quadrant);
    (0..3).all(|r| (0..3).all(|c| board.at(top + r, left + c).is_none()))
}

/// Adds pieces for the player who is short, so that the players alternate
/// and `last` moves last: anywhere but the idle quadrant.
fn fill(
    board: &mut Board,
    xs: &mut Vec<(usize, usize)>,
    os: &mut Vec<(usize, usize)>,
    last: Piece,
    idle: usize,
    rng: &mut Rng,
) {
    let wanted_x = |os: usize| if last == Piece::X { os + 1 } else { os };
    loop {
        let (piece, cells) = if xs.len() < wanted_x(os.len()) {
            (Piece::X, &mut *xs)
        } else if xs.len() > wanted_x(os.len()) {
            (Piece::O, &mut *os)
        } else {
            return;
        };
        let (top, left) = corner(idle);
        let free: Vec<(usize, usize)> = empty_squares(board)
            .into_iter()
            .filter(|&(r, c)| !(r >= top && r < top + 3 && c >= left && c < left + 3))
            .collect();
        if free.is_empty() {
            return;
        }
        let square = *rng.pick(&free);
        board.set(square.0, square.1, Some(piece));
        cells.push(square);
    }
}

/// The moves, if playing them ends as `goal` says and not before.
fn checked(moves: &[Move], goal: Goal) -> Option<Vec<Move>> {
    let mut board = Board::new();
    for (i, mv) in moves.iter().enumerate() {
        let piece = player(i + 1);
        if board.at(mv.square.0, mv.square.1).is_some() {
            return None;
        }
        let outcome = board.play(piece, mv.square, mv.quadrant, mv.rotation);
        let last = i + 1 == moves.len();
        let wanted = match goal {
            _ if !last => Outcome::Playing,
            Goal::Placement(owner) | Goal::Rotation { owner, .. } => Outcome::Won(owner),
            Goal::Tie => Outcome::Tie,
            Goal::Shape(_) => Outcome::Playing,
        };
        if outcome != wanted {
            return None;
        }
    }
    if let Goal::Placement(owner) = goal {
        if player(moves.len()) != owner {
            return None;
        }
    }
    Some(moves.to_vec())
}

/// The lines typed for `moves`, with refused inputs before a move
/// `refusing` times in a hundred, and `exit` at the end.
fn render(moves: &[Move], exit: Option<char>, refusing: u32, rng: &mut Rng) -> Lines {
    let mut board = Board::new();
    let mut lines = Vec::new();
    let mut refused = 0;
    for (i, mv) in moves.iter().enumerate() {
        while refused < MOST_REFUSED && rng.chance(refusing) {
            lines.push(refusal(&board, rng));
            refused += 1;
        }
        lines.push(typed(mv, rng));
        if board.play(player(i + 1), mv.square, mv.quadrant, mv.rotation) != Outcome::Playing {
            return lines;
        }
    }
    if let Some(x) = exit {
        lines.push(x.to_string());
    }
    lines
}

/// A move as a person types it: mostly compact, sometimes in capitals or
/// spaced as in the handout's inputs.
fn typed(mv: &Move, rng: &mut Rng) -> String {
    let row = (b'a' + mv.square.0 as u8) as char;
    let col = (b'1' + mv.square.1 as u8) as char;
    let quadrant = (b'0' + mv.quadrant as u8) as char;
    let direction = match mv.rotation {
        Rotation::Left => 'l',
        Rotation::Right => 'r',
    };
    spelled([row, col, quadrant, direction], rng)
}

fn spelled(chars: [char; 4], rng: &mut Rng) -> String {
    let [r, c, q, d] = chars;
    let upper = |ch: char| ch.to_ascii_uppercase();
    match rng.below(20) {
        0..=10 => format!("{r}{c}{q}{d}"),
        11..=13 => format!("{}{c}{q}{}", upper(r), upper(d)),
        14 => format!("{}{c}{q}{d}", upper(r)),
        15..=16 => format!("{}{c} {q}{}", upper(r), upper(d)),
        17..=18 => format!("{r}{c} {q}{d}"),
        _ => format!("{r} {c} {q} {d}"),
    }
}

/// An invalid move: an occupied square and nothing else wrong, or, on
/// an empty square, one or more of the faults whose order the handout
/// fixes ([`ordered_faults`]).
fn refusal(board: &Board, rng: &mut Rng) -> String {
    let taken: Vec<(usize, usize)> = (0..SIZE)
        .flat_map(|r| (0..SIZE).map(move |c| (r, c)))
        .filter(|&(r, c)| board.at(r, c).is_some())
        .collect();
    let (square, faults) = if !taken.is_empty() && rng.chance(25) {
        (*rng.pick(&taken), Vec::new())
    } else {
        (*rng.pick(&empty_squares(board)), ordered_faults(rng))
    };
    let mut chars = [
        (b'a' + square.0 as u8) as char,
        (b'1' + square.1 as u8) as char,
        (b'1' + rng.below(4) as u8) as char,
        *rng.pick(&['l', 'r']),
    ];
    for fault in faults {
        match fault {
            Fault::Row => chars[0] = *rng.pick(&BAD_ROWS),
            Fault::Column => chars[1] = *rng.pick(&BAD_COLUMNS),
            Fault::Quadrant => chars[2] = *rng.pick(&BAD_QUADRANTS),
            Fault::Direction => chars[3] = *rng.pick(&BAD_DIRECTIONS),
            Fault::Taken => {}
        }
    }
    spelled(chars, rng)
}

/// Faults of [`ORDERED`] for one move: one most often, as students mostly
/// mistype one field; now and then two to four, which only a program that
/// checks them in the handout's order answers as the reference does.
fn ordered_faults(rng: &mut Rng) -> Vec<Fault> {
    if rng.chance(70) {
        return vec![*rng.pick(&ORDERED)];
    }
    let several: Vec<u32> = (0..16u32).filter(|m| m.count_ones() >= 2).collect();
    let mask = *rng.pick(&several);
    ORDERED
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, fault)| *fault)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expected::run_reference;

    fn lines(text: &str) -> Lines {
        text.split(',').map(|l| l.trim().to_string()).collect()
    }

    #[test]
    fn replays_agree_with_the_reference() {
        for i in 0..300 {
            let game = Pentago.generate(&mut Rng::for_game(5, i));
            assert_eq!(normalized(game.clone()).as_ref(), Some(&game), "{game:?}");
            let run = run_reference(reference::Game::Pentago, &game);
            assert_eq!(run.transcript.inputs().count(), game.len(), "{game:?}");
            let out = String::from_utf8_lossy(&run.transcript.output()).into_owned();
            let replay = replay(&game);
            match replay.ending.as_deref() {
                Some("a tie") => assert!(out.contains("Game is a tie."), "{game:?}"),
                Some("the game left with x") => assert!(out.ends_with("Exiting program...\n")),
                Some(win) => {
                    let who = &win[..1];
                    assert!(
                        out.contains(&format!("{who} has won the game!")),
                        "{game:?}"
                    )
                }
                None => assert!(run.waited_at_end),
            }
            assert!(!out.contains("37. Enter"), "{game:?}");
            let errors = out.matches("***").count() - usize::from(out.contains("*** Both"));
            assert_eq!(errors, replay.refused, "{game:?}");
            for line in &game {
                let inside = line.trim_start().get(1..).unwrap_or("");
                assert!(!inside.contains(['x', 'X']), "x inside a move: {line:?}");
            }
        }
    }

    #[test]
    fn games_reach_every_ending() {
        let games: Vec<Lines> = (0..400)
            .map(|i| Pentago.generate(&mut Rng::for_game(0, i)))
            .collect();
        let endings: Vec<String> = games.iter().filter_map(|g| replay(g).ending).collect();
        for ending in ["X wins", "O wins", "a tie", "the game left with x"] {
            assert!(
                endings.iter().any(|e| e == ending),
                "no game ends with {ending}"
            );
        }
        assert!(games.iter().any(|g| replay(g).ending.is_none()));
        let typed: Vec<&String> = games.iter().flatten().collect();
        for form in ["b 6 4 l", "A5 3R"] {
            let like = |l: &&String| {
                l.len() == form.len()
                    && l.chars().zip(form.chars()).all(|(a, b)| {
                        (a == ' ') == (b == ' ') && a.is_ascii_uppercase() == b.is_ascii_uppercase()
                    })
            };
            assert!(typed.iter().any(like), "no move typed like {form}");
        }
    }

    #[test]
    fn a_board_filled_without_five_is_never_a_game() {
        // Search for 36 moves that fill the board with no five.
        let filled = (0..2000).find_map(|seed| {
            let mut rng = Rng::for_game(seed, 0);
            let mut board = Board::new();
            let mut game = Vec::new();
            for number in 1..=SIZE * SIZE {
                let mv = any_move(&board, &mut rng);
                game.push(format!(
                    "{}{}{}l",
                    (b'a' + mv.square.0 as u8) as char,
                    mv.square.1 + 1,
                    mv.quadrant
                ));
                let outcome = board.play(player(number), mv.square, mv.quadrant, Rotation::Left);
                if outcome != Outcome::Playing {
                    return None;
                }
            }
            Some(game)
        });
        let game = filled.expect("a filled board with no five");
        assert_eq!(replay(&game).moves, SIZE * SIZE);
        assert_eq!(normalized(game.clone()), None);
        let almost = game[..SIZE * SIZE - 1].to_vec();
        assert_eq!(normalized(almost.clone()), Some(almost));
    }

    /// The faults of each refused line of `game`, as the board stands
    /// when it is read.
    fn faults_of_refused(game: &[String]) -> Vec<(String, Vec<Fault>)> {
        let mut board = Board::new();
        let mut moves = 0;
        let mut out = Vec::new();
        for line in game {
            let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            match read(&board, line) {
                Read::Exit => break,
                Read::Refused(_) => {
                    let fields: [char; 4] = chars[..].try_into().expect("four fields");
                    out.push((line.clone(), faults(&board, fields)));
                }
                Read::Valid(mv) => {
                    moves += 1;
                    if board.play(player(moves), mv.square, mv.quadrant, mv.rotation)
                        != Outcome::Playing
                    {
                        break;
                    }
                }
            }
        }
        out
    }

    /// The first refused line of `game` that leaves open which fault a
    /// program names, with its faults; `None` when every one is fixed.
    fn open_order(game: &[String]) -> Option<(String, Vec<Fault>)> {
        faults_of_refused(game)
            .into_iter()
            .find(|(_, faults)| order_open(faults))
    }

    /// Which of two faults a program names is the order of its checks:
    /// the handout fixes the order of row, column, quadrant and
    /// direction, and leaves open where the occupied square goes. So
    /// generated games hold moves with several of the four, and never an
    /// occupied square with another fault, nor does any simpler game
    /// shrinking may try (the candidates of a candidate too).
    #[test]
    fn several_faults_only_where_the_handout_fixes_their_order() {
        let mut seen = Vec::new();
        let mut several = Vec::new();
        for i in 0..150 {
            let game = Pentago.generate(&mut Rng::for_game(9, i));
            assert_eq!(open_order(&game), None, "{game:?}");
            for (_, faults) in faults_of_refused(&game) {
                if faults.len() > 1 {
                    several.push(faults.clone());
                }
                seen.extend(faults);
            }
            let simpler = Pentago.simpler(&game);
            for candidate in &simpler {
                assert_eq!(open_order(candidate), None, "{candidate:?}");
            }
            if let Some(first) = simpler.iter().find(|c| !c.is_empty()) {
                for again in Pentago.simpler(first) {
                    assert_eq!(open_order(&again), None, "{again:?}");
                }
            }
        }
        for fault in [
            Fault::Row,
            Fault::Column,
            Fault::Taken,
            Fault::Quadrant,
            Fault::Direction,
        ] {
            assert!(seen.contains(&fault), "no refused move with {fault:?}");
        }
        // The handout's `c05h`: a column and a quadrant (and a direction).
        assert!(
            several
                .iter()
                .any(|f| f.starts_with(&[Fault::Column, Fault::Quadrant])),
            "no move with its column and its quadrant wrong: {several:?}"
        );
        assert!(several.iter().any(|f| f.len() == 4), "{several:?}");
    }

    #[test]
    fn the_handouts_own_refusals_are_faults_in_its_order() {
        let board = Board::new();
        let of = |line: &str| match read(&board, line) {
            Read::Refused(faults) => faults,
            _ => panic!("{line} is refused"),
        };
        assert_eq!(
            of("G05h"),
            [Fault::Row, Fault::Column, Fault::Quadrant, Fault::Direction]
        );
        assert_eq!(
            of("c05h"),
            [Fault::Column, Fault::Quadrant, Fault::Direction]
        );
        assert_eq!(of("c25h"), [Fault::Quadrant, Fault::Direction]);
        assert!(!order_open(&of("c05h")));
        assert_eq!(
            normalized(lines("G05h, c05h, c25h, c21h")).map(|g| g.len()),
            Some(4)
        );
    }

    /// X's d5 turns onto E6 and X's b2 turns it on to F5, so O's `e62h`
    /// has only its direction wrong; leaving out O's a1 and X's b2 would
    /// leave the piece on E6, and `e62h` with two faults: no candidate.
    #[test]
    fn leaving_moves_out_never_puts_an_occupied_square_with_another_fault() {
        let game = lines("d54r, a11l, b24r, e62h");
        assert_eq!(
            faults_of_refused(&game),
            [("e62h".to_string(), vec![Fault::Direction])]
        );
        let two = lines("d54r, e62h");
        assert_eq!(
            faults_of_refused(&two),
            [("e62h".to_string(), vec![Fault::Taken, Fault::Direction])]
        );
        let (turns, after) = turns(&game);
        let cut: Vec<Lines> = without_pairs(&turns, PAIRS)
            .into_iter()
            .map(|fewer| [fewer.concat(), after.clone()].concat())
            .collect();
        assert!(cut.contains(&two), "leaving out a pair would give it");
        assert_eq!(normalized(two), None);
        // What exploring once found in a program a TA gives full marks:
        // C3 taken, and the direction q.
        assert_eq!(normalized(lines("c32l, c3 2q")), None);
        let simpler = Pentago.simpler(&game);
        assert!(!simpler.is_empty());
        for candidate in &simpler {
            assert_eq!(open_order(candidate), None, "{candidate:?}");
        }
    }

    #[test]
    fn plainer_lines_keep_the_move() {
        assert_eq!(plainer_lines("c31r"), ["c31l"]);
        assert_eq!(plainer_lines("A5 3R"), ["a53r", "a51r", "a52r", "a53l"]);
        assert!(plainer_lines("g05h").is_empty());
        assert!(plainer_lines("x").is_empty());
        let game = lines("c31r, A5 3R, x, a11l");
        assert_eq!(normalized(game), Some(lines("c31r, A5 3R, x")));
    }
}
