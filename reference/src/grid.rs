//! The board every game is played on: a rectangle of cells, and the one
//! "n in a row" scanner all three games use to find a winner.
//!
//! The grid does not know which way is up: Connect Four stores row 0 at the
//! bottom, Pentago at the top. Only a game's display decides.

/// One of the four ways a line of pieces can run across a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Along a row.
    Horizontal,
    /// Along a column.
    Vertical,
    /// Row and column indices both grow.
    Diagonal,
    /// Row index grows while the column index shrinks.
    AntiDiagonal,
}

impl Direction {
    /// All four directions, in the order the scanner tries them.
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ];

    /// The (row, column) step from one cell of a line to the next.
    fn step(self) -> (isize, isize) {
        match self {
            Direction::Horizontal => (0, 1),
            Direction::Vertical => (1, 0),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }
}

/// A `rows` × `cols` rectangle of cells, stored row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid<T> {
    rows: usize,
    cols: usize,
    cells: Vec<T>,
}

impl<T: Copy + PartialEq> Grid<T> {
    /// A grid with every cell set to `fill`.
    pub fn new(rows: usize, cols: usize, fill: T) -> Self {
        Grid {
            rows,
            cols,
            cells: vec![fill; rows * cols],
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The cell at (`row`, `col`). Panics outside the grid: callers check
    /// user input against [`Grid::rows`] and [`Grid::cols`] first.
    pub fn get(&self, row: usize, col: usize) -> T {
        assert!(row < self.rows && col < self.cols, "cell outside the grid");
        self.cells[row * self.cols + col]
    }

    /// Sets the cell at (`row`, `col`). Panics outside the grid.
    pub fn set(&mut self, row: usize, col: usize, value: T) {
        assert!(row < self.rows && col < self.cols, "cell outside the grid");
        self.cells[row * self.cols + col] = value;
    }

    /// The cells of one row, from column 0.
    pub fn row(&self, row: usize) -> &[T] {
        &self.cells[row * self.cols..(row + 1) * self.cols]
    }

    /// Whether any cell holds `value`.
    pub fn contains(&self, value: T) -> bool {
        self.cells.contains(&value)
    }

    /// Whether `len` cells holding `piece` stand next to each other in
    /// direction `dir` anywhere on the grid, edges included.
    pub fn has_run(&self, piece: T, len: usize, dir: Direction) -> bool {
        (0..self.rows).any(|row| (0..self.cols).any(|col| self.run_from(row, col, piece, len, dir)))
    }

    /// Whether `len` cells holding `piece` stand in a line in any of the
    /// four directions.
    pub fn has_any_run(&self, piece: T, len: usize) -> bool {
        if len == 0 {
            return self.rows > 0 && self.cols > 0;
        }
        // One pass over the cells, each that holds `piece` tried as a
        // run's first cell in every direction: the references and the
        // game generators ask after every move.
        (0..self.rows).any(|row| {
            (0..self.cols).any(|col| {
                self.get(row, col) == piece
                    && Direction::ALL
                        .iter()
                        .any(|&dir| self.run_from(row, col, piece, len, dir))
            })
        })
    }

    fn run_from(&self, row: usize, col: usize, piece: T, len: usize, dir: Direction) -> bool {
        let (dr, dc) = dir.step();
        (0..len).all(|i| {
            let r = row as isize + dr * i as isize;
            let c = col as isize + dc * i as isize;
            r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && self.get(r as usize, c as usize) == piece
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_with(rows: usize, cols: usize, cells: &[(usize, usize)]) -> Grid<u8> {
        let mut g = Grid::new(rows, cols, b'.');
        for &(r, c) in cells {
            g.set(r, c, b'X');
        }
        g
    }

    #[test]
    fn runs_touching_every_edge_are_found() {
        // Bottom row, top row, left column, right column of a 4x9 board.
        let g = grid_with(4, 9, &[(0, 5), (0, 6), (0, 7), (0, 8)]);
        assert!(g.has_run(b'X', 4, Direction::Horizontal));
        let g = grid_with(4, 9, &[(3, 0), (3, 1), (3, 2), (3, 3)]);
        assert!(g.has_run(b'X', 4, Direction::Horizontal));
        let g = grid_with(9, 4, &[(5, 0), (6, 0), (7, 0), (8, 0)]);
        assert!(g.has_run(b'X', 4, Direction::Vertical));
        let g = grid_with(9, 4, &[(0, 3), (1, 3), (2, 3), (3, 3)]);
        assert!(g.has_run(b'X', 4, Direction::Vertical));
    }

    #[test]
    fn both_diagonal_directions_are_found_and_kept_apart() {
        let up = grid_with(6, 6, &[(2, 2), (3, 3), (4, 4), (5, 5)]);
        assert!(up.has_run(b'X', 4, Direction::Diagonal));
        assert!(!up.has_run(b'X', 4, Direction::AntiDiagonal));
        let down = grid_with(6, 6, &[(0, 5), (1, 4), (2, 3), (3, 2)]);
        assert!(down.has_run(b'X', 4, Direction::AntiDiagonal));
        assert!(!down.has_run(b'X', 4, Direction::Diagonal));
    }

    #[test]
    fn a_run_does_not_wrap_around_an_edge() {
        // Three at the end of row 0 and one at the start of row 1 are
        // adjacent in storage but not on the board.
        let g = grid_with(6, 6, &[(0, 3), (0, 4), (0, 5), (1, 0)]);
        assert!(!g.has_any_run(b'X', 4));
        let g = grid_with(6, 6, &[(0, 4), (1, 5), (2, 0), (3, 1)]);
        assert!(!g.has_any_run(b'X', 4));
    }

    #[test]
    fn a_gap_breaks_a_run() {
        let g = grid_with(6, 6, &[(0, 0), (0, 1), (0, 3), (0, 4)]);
        assert!(!g.has_any_run(b'X', 4));
        assert!(g.has_run(b'X', 2, Direction::Horizontal));
    }

    #[test]
    fn five_long_diagonals_off_the_main_diagonals() {
        // The four 5-long diagonals of a 6x6 board that are not the main ones.
        let cases: [&[(usize, usize)]; 4] = [
            &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)],
            &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4)],
            &[(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)],
            &[(1, 5), (2, 4), (3, 3), (4, 2), (5, 1)],
        ];
        for cells in cases {
            let g = grid_with(6, 6, cells);
            assert!(g.has_any_run(b'X', 5), "{cells:?}");
            assert!(!g.has_any_run(b'X', 6), "{cells:?}");
        }
    }

    /// The one-pass search finds a run exactly where some direction's
    /// search does, on grids of every shape filled at random.
    #[test]
    fn any_run_is_a_run_in_some_direction() {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for _ in 0..3000 {
            let (rows, cols) = (next(8) as usize, next(8) as usize);
            let mut g = Grid::new(rows, cols, b'.');
            for row in 0..rows {
                for col in 0..cols {
                    if next(3) > 0 {
                        g.set(row, col, b'X');
                    }
                }
            }
            let len = next(7) as usize;
            let some_direction = Direction::ALL.iter().any(|&d| g.has_run(b'X', len, d));
            assert_eq!(
                g.has_any_run(b'X', len),
                some_direction,
                "{rows}x{cols}, {len}"
            );
        }
    }
}
