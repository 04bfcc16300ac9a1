//! What the two Connect Four generators share: a board pieces fall into
//! (any size), the shapes worth building on it (lines of four, most of
//! them along an edge or through a corner; fours that wrap from one row
//! to the next; fours with a gap), and how each player picks a column to
//! build one, or to fill the board without a four.

use reference::grid::Grid;

use super::Rng;

/// An empty slot.
pub const EMPTY: u8 = 0;

/// A board pieces fall into; row 0 is the bottom, players are 1 and 2.
#[derive(Clone, Debug)]
pub struct Drops {
    grid: Grid<u8>,
    heights: Vec<usize>,
}

impl Drops {
    /// An empty board.
    pub fn new(rows: usize, cols: usize) -> Drops {
        Drops {
            grid: Grid::new(rows, cols, EMPTY),
            heights: vec![0; cols],
        }
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.grid.rows()
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.grid.cols()
    }

    /// The pieces in column `col`.
    pub fn height(&self, col: usize) -> usize {
        self.heights[col]
    }

    /// The piece at (`row`, `col`), or [`EMPTY`].
    pub fn at(&self, row: usize, col: usize) -> u8 {
        self.grid.get(row, col)
    }

    /// Whether `col` (from 0) can take a piece.
    pub fn accepts(&self, col: usize) -> bool {
        col < self.cols() && self.heights[col] < self.rows()
    }

    /// The columns that can take a piece.
    pub fn open(&self) -> Vec<usize> {
        (0..self.cols()).filter(|&c| self.accepts(c)).collect()
    }

    /// Drops `player`'s piece into `col`, which accepts it.
    pub fn drop(&mut self, col: usize, player: u8) {
        let row = self.heights[col];
        self.grid.set(row, col, player);
        self.heights[col] += 1;
    }

    /// Empties column `col` (a bomb).
    pub fn clear(&mut self, col: usize) {
        for row in 0..self.rows() {
            self.grid.set(row, col, EMPTY);
        }
        self.heights[col] = 0;
    }

    /// Whether `player` has four in a row anywhere.
    pub fn wins(&self, player: u8) -> bool {
        self.grid.has_any_run(player, 4)
    }

    /// Whether no slot is empty.
    pub fn full(&self) -> bool {
        self.heights.iter().all(|&h| h == self.rows())
    }

    /// Whether dropping into `col` would give `player` four in a row:
    /// only lines through the new piece can be new, so only those are
    /// looked at (games are made by the thousand).
    pub fn would_win(&self, col: usize, player: u8) -> bool {
        let row = self.heights[col];
        let steps: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        steps.iter().any(|&(dr, dc)| {
            let run = |sign: isize| {
                (1..4)
                    .take_while(|&k| {
                        let (r, c) = (row as isize + sign * k * dr, col as isize + sign * k * dc);
                        r >= 0
                            && c >= 0
                            && (r as usize) < self.rows()
                            && (c as usize) < self.cols()
                            && self.at(r as usize, c as usize) == player
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }
}

/// Cells, as (row, column) with row 0 at the bottom.
pub type Cells = Vec<(usize, usize)>;

/// Every line of four on a `rows` × `cols` board.
pub fn lines(rows: usize, cols: usize) -> Vec<Cells> {
    let mut out = Vec::new();
    let steps: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    for r in 0..rows as isize {
        for c in 0..cols as isize {
            for (dr, dc) in steps {
                let cells: Vec<(isize, isize)> = (0..4).map(|k| (r + dr * k, c + dc * k)).collect();
                let inside = cells
                    .iter()
                    .all(|&(r, c)| r >= 0 && c >= 0 && r < rows as isize && c < cols as isize);
                if inside {
                    out.push(
                        cells
                            .iter()
                            .map(|&(r, c)| (r as usize, c as usize))
                            .collect(),
                    );
                }
            }
        }
    }
    out
}

/// Whether `cells` touch an edge of the board (where loops stop one
/// short).
pub fn on_edge(cells: &[(usize, usize)], rows: usize, cols: usize) -> bool {
    cells
        .iter()
        .any(|&(r, c)| r == 0 || c == 0 || r + 1 == rows || c + 1 == cols)
}

/// Four cells in a row of the board's memory that are no line on the
/// board: along a row past its end into the next row, or along a
/// diagonal past the side. A loop that forgets the edge sees four.
pub fn wraps(rows: usize, cols: usize) -> Vec<Cells> {
    let total = rows * cols;
    let strides = [1, cols + 1, cols.saturating_sub(1)];
    let real = lines(rows, cols);
    let mut out = Vec::new();
    for stride in strides.into_iter().filter(|&s| s > 0) {
        for start in 0..total {
            let indices: Vec<usize> = (0..4).map(|k| start + k * stride).collect();
            if indices[3] >= total {
                continue;
            }
            let cells: Cells = indices.iter().map(|&i| (i / cols, i % cols)).collect();
            if !real.contains(&cells) {
                out.push(cells);
            }
        }
    }
    out
}

/// Four cells of a line of five with one inside cell left out: pieces a
/// window that counts too loosely takes for four.
pub fn gaps(rows: usize, cols: usize) -> Vec<Cells> {
    let mut out = Vec::new();
    for line in lines(rows, cols) {
        let (r0, c0) = line[0];
        let (dr, dc) = (
            line[1].0 as isize - r0 as isize,
            line[1].1 as isize - c0 as isize,
        );
        let (r4, c4) = (r0 as isize + 4 * dr, c0 as isize + 4 * dc);
        if r4 < 0 || c4 < 0 || r4 >= rows as isize || c4 >= cols as isize {
            continue;
        }
        let mut five = line.clone();
        five.push((r4 as usize, c4 as usize));
        for gap in 1..=3 {
            let mut cells = five.clone();
            cells.remove(gap);
            out.push(cells);
        }
    }
    out
}

/// A shape to build: a line of four, mostly along an edge; a wrap; or a
/// gap.
pub fn pick_shape(rng: &mut Rng, rows: usize, cols: usize) -> (Cells, bool) {
    let all = lines(rows, cols);
    match rng.below(10) {
        0 => {
            let shapes = wraps(rows, cols);
            (rng.pick(&shapes).clone(), false)
        }
        1 => {
            let shapes = gaps(rows, cols);
            if shapes.is_empty() {
                (rng.pick(&all).clone(), true)
            } else {
                (rng.pick(&shapes).clone(), false)
            }
        }
        2..=6 => {
            let edge: Vec<Cells> = all
                .iter()
                .filter(|l| on_edge(l, rows, cols))
                .cloned()
                .collect();
            (rng.pick(&edge).clone(), true)
        }
        _ => (rng.pick(&all).clone(), true),
    }
}

/// How a player picks columns.
#[derive(Clone, Debug)]
pub enum Plan {
    /// Any column that takes a piece, the edges a little more often.
    Random,
    /// Build `cells` for `owner`; the other player raises the columns
    /// under them, and both keep away from other fours.
    Build {
        /// The shape.
        cells: Cells,
        /// Who builds it.
        owner: u8,
    },
    /// Fill the board without a four where there is a choice, leaving
    /// `last` (a column) for the end.
    Fill {
        /// The column filled last.
        last: Option<usize>,
    },
}

impl Plan {
    /// The column `player` drops into next; `None` when the board is full.
    pub fn column(&self, board: &Drops, player: u8, rng: &mut Rng) -> Option<usize> {
        let open = board.open();
        if open.is_empty() {
            return None;
        }
        let safe: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&c| !board.would_win(c, player))
            .collect();
        let choice = match self {
            Plan::Random => edge_weighted(rng, &open, board.cols()),
            Plan::Fill { last } => {
                let early: Vec<usize> =
                    safe.iter().copied().filter(|c| Some(*c) != *last).collect();
                let from = [&early, &safe, &open].into_iter().find(|c| !c.is_empty());
                *rng.pick(from.unwrap_or(&open))
            }
            Plan::Build { cells, owner } => build(board, cells, *owner, player, &safe, &open, rng),
        };
        Some(choice)
    }
}

fn edge_weighted(rng: &mut Rng, open: &[usize], cols: usize) -> usize {
    let edges: Vec<usize> = open
        .iter()
        .copied()
        .filter(|&c| c == 0 || c + 1 == cols)
        .collect();
    if !edges.is_empty() && rng.chance(30) {
        *rng.pick(&edges)
    } else {
        *rng.pick(open)
    }
}

/// A column for `player` while `owner` builds `cells`.
fn build(
    board: &Drops,
    cells: &[(usize, usize)],
    owner: u8,
    player: u8,
    safe: &[usize],
    open: &[usize],
    rng: &mut Rng,
) -> usize {
    let missing: Vec<(usize, usize)> = cells
        .iter()
        .copied()
        .filter(|&(r, c)| board.at(r, c) == EMPTY)
        .collect();
    let lands_on = |col: usize| {
        missing
            .iter()
            .any(|&(r, c)| c == col && r == board.height(col))
    };
    let raises = |col: usize| {
        missing
            .iter()
            .any(|&(r, c)| c == col && r > board.height(col))
    };
    let choose = |from: Vec<usize>, rng: &mut Rng| (!from.is_empty()).then(|| *rng.pick(&from));
    let pool: &[usize] = if safe.is_empty() { open } else { safe };
    if player == owner {
        // The builder's own piece may complete the shape, so any column
        // landing on it will do, four or not.
        let on: Vec<usize> = open.iter().copied().filter(|&c| lands_on(c)).collect();
        if let Some(col) = choose(on, rng) {
            return col;
        }
    }
    let support: Vec<usize> = pool.iter().copied().filter(|&c| raises(c)).collect();
    if let Some(col) = choose(support, rng) {
        return col;
    }
    let away: Vec<usize> = pool.iter().copied().filter(|&c| !lands_on(c)).collect();
    choose(away, rng).unwrap_or_else(|| *rng.pick(pool))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_wraps_and_gaps_of_a_6x6_board() {
        // 3 per row × 6 rows, the same down the columns, 9 each diagonal.
        assert_eq!(lines(6, 6).len(), 18 + 18 + 9 + 9);
        let wraps = wraps(6, 6);
        assert!(wraps.contains(&vec![(0, 4), (0, 5), (1, 0), (1, 1)]));
        assert!(wraps.iter().all(|w| !lines(6, 6).contains(w)));
        let gaps = gaps(6, 6);
        assert!(gaps.iter().all(|g| g.len() == 4));
        assert!(gaps.contains(&vec![(0, 0), (0, 2), (0, 3), (0, 4)]));
    }

    #[test]
    fn a_four_is_seen_coming_in_every_direction() {
        let mut rng = Rng::for_game(9, 9);
        for _ in 0..300 {
            let mut board = Drops::new(6, 7);
            let mut player = 1;
            while let Some(col) = Plan::Random.column(&board, player, &mut rng) {
                let mut after = board.clone();
                after.drop(col, player);
                assert_eq!(
                    board.would_win(col, player),
                    after.wins(player) && !board.wins(player)
                );
                if after.wins(player) {
                    break;
                }
                board = after;
                player = 3 - player;
            }
        }
    }

    #[test]
    fn a_built_shape_is_built() {
        let mut built = 0;
        for seed in 0..50 {
            let mut rng = Rng::for_game(seed, 0);
            let (cells, _) = pick_shape(&mut rng, 6, 6);
            let plan = Plan::Build {
                cells: cells.clone(),
                owner: 1,
            };
            let mut board = Drops::new(6, 6);
            let mut player = 1;
            while let Some(col) = plan.column(&board, player, &mut rng) {
                board.drop(col, player);
                if cells.iter().all(|&(r, c)| board.at(r, c) == 1) {
                    built += 1;
                    break;
                }
                if board.wins(player) {
                    break;
                }
                player = 3 - player;
            }
        }
        assert!(built >= 30, "built {built} of 50");
    }
}
