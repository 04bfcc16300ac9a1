//! Reading one row of a board from a line, whatever its spacing: cells
//! run together (`X.O`), spaced (`X . O`) or between bars (`| X | O |`),
//! with or without a row label at either end (`A:`, `:A`, `5 |`).

use super::Cell;

/// How a game's cells look.
pub struct CellSet {
    /// The cell a character stands for, if it is a cell at all.
    pub cell: fn(char) -> Option<Cell>,
    /// Whether `-` can be a cell when cells are run together (Connect
    /// Four's `R--Y--`); elsewhere a run of dashes is a border.
    pub dash_run_together: bool,
    /// Row labels that may stand at either end of the row.
    pub labels: fn(char) -> bool,
}

/// The cells of `line` if it is a row of `width` cells (any width of at
/// least 4 when `None`).
pub fn row(line: &str, width: Option<usize>, set: &CellSet) -> Option<Vec<Cell>> {
    // Box-drawing characters (║, │, ┃, ...) separate cells like bars.
    let barred: String = line
        .chars()
        .map(|c| if is_box_drawing(c) { '|' } else { c })
        .collect();
    let trimmed = barred.trim();
    if trimmed.is_empty() {
        return None;
    }
    let fits = |cells: &Vec<Cell>| match width {
        Some(w) => cells.len() == w,
        None => cells.len() >= 4,
    };
    if let Some(found) = cells(trimmed, set).filter(fits) {
        return Some(found);
    }
    cells(&strip_labels(trimmed, set), set).filter(fits)
}

/// The line without a label at its start and end: a label character
/// followed (or preceded) by `:`, `|`, `)` or white space.
fn strip_labels(text: &str, set: &CellSet) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let separator = |c: char| c == ':' || c == '|' || c == ')' || c.is_whitespace();
    if chars.len() > 2 && (set.labels)(chars[0]) && separator(chars[1]) {
        chars.drain(..2);
    }
    let n = chars.len();
    if n > 2 && (set.labels)(chars[n - 1]) && separator(chars[n - 2]) {
        chars.truncate(n - 2);
    }
    let text: String = chars.into_iter().collect();
    text.trim()
        .trim_matches(|c: char| c == ':' || c.is_whitespace())
        .to_string()
}

fn cells(text: &str, set: &CellSet) -> Option<Vec<Cell>> {
    if text.contains('|') {
        // Bars around every cell, or only between groups of cells (a
        // quadrant separator): try both.
        return between_bars(text, set).or_else(|| spaced_or_run(&text.replace('|', " "), set));
    }
    spaced_or_run(text, set)
}

fn spaced_or_run(text: &str, set: &CellSet) -> Option<Vec<Cell>> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() > 1 && tokens.iter().all(|t| t.chars().count() == 1) {
        return tokens
            .iter()
            .map(|t| t.chars().next().and_then(|c| cell_or_dash(c, set, true)))
            .collect();
    }
    // Runs of cells, perhaps in groups ("...|..." or "XX. .O."): every
    // character a cell.
    tokens
        .iter()
        .flat_map(|t| t.chars())
        .map(|c| cell_or_dash(c, set, set.dash_run_together))
        .collect()
}

/// Unicode's box-drawing block: borders and bars of boxed boards.
pub fn is_box_drawing(c: char) -> bool {
    ('\u{2500}'..='\u{257F}').contains(&c)
}

fn between_bars(text: &str, set: &CellSet) -> Option<Vec<Cell>> {
    let mut parts: Vec<&str> = text.split('|').map(str::trim).collect();
    if parts.first() == Some(&"") {
        parts.remove(0);
    }
    if parts.last() == Some(&"") {
        parts.pop();
    }
    parts
        .iter()
        .map(|part| {
            let mut chars = part.chars();
            match (chars.next(), chars.next()) {
                (None, _) => Some(Cell::Empty),
                (Some(c), None) => cell_or_dash(c, set, true),
                _ => None,
            }
        })
        .collect()
}

fn cell_or_dash(c: char, set: &CellSet, dash_allowed: bool) -> Option<Cell> {
    if c == '-' {
        return dash_allowed.then_some(Cell::Empty);
    }
    (set.cell)(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pentago_cell(c: char) -> Option<Cell> {
        match c {
            'X' | 'x' => Some(Cell::Piece(0)),
            'O' | 'o' => Some(Cell::Piece(1)),
            '.' | '_' | '*' | '·' => Some(Cell::Empty),
            _ => None,
        }
    }

    const PENTAGO: CellSet = CellSet {
        cell: pentago_cell,
        dash_run_together: false,
        labels: |c| matches!(c.to_ascii_uppercase(), 'A'..='F'),
    };

    fn row6(line: &str) -> Option<String> {
        row(line, Some(6), &PENTAGO).map(|cells| {
            cells
                .iter()
                .map(|c| match c {
                    Cell::Empty => '.',
                    Cell::Piece(0) => 'X',
                    Cell::Piece(_) => 'O',
                })
                .collect()
        })
    }

    #[test]
    fn rows_are_read_whatever_the_spacing() {
        for line in [
            "A:  X . . . O .  :A",
            "X.....",
            "   x . . . . .",
            "| X |   |   |   |   |   |",
            "A | X | _ | _ | _ | _ | _ |",
            "a: X . . | . . .",
            "X..|...",
            "  A ║ X . . ║ . . . ║",
            "B  X - - - - -",
            "X . . . . . A",
        ] {
            let got = row6(line);
            assert!(
                got.as_deref().is_some_and(|r| r.starts_with('X')),
                "{line:?} -> {got:?}"
            );
        }
    }

    #[test]
    fn other_lines_are_not_rows() {
        for line in [
            "    -----------",
            "------",
            "1   1 2 3 4 5 6   2",
            "Author: Dale Reed",
            "Play the two-player game of Pentago.",
            "X has won the game!",
            "",
            "X . . . .",
        ] {
            assert_eq!(row6(line), None, "{line:?}");
        }
    }
}
