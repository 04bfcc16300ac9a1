//! A made-up game, registered only in this crate's tests, that shows what
//! a new game takes (CONTRIBUTING.md, "Adding a game") and that the registry is
//! enough for the grader to play, read and compare it: two players take 1
//! or 2 stones from a pile of 4 (shown as `[oo..]`), and whoever takes
//! the last one wins.
//!
//! A real game's reference lives in the reference crate
//! (`reference/src/<game>/`, listed in `Game::ALL`), and its reader and
//! generator in `src/games/<game>/`; here all sit in this one file,
//! because the reference crate is not built for this crate's tests.

use std::io::{self, BufRead, Write};

use reference::{Game, GameInfo};

use super::Support;
use crate::game::{Board, Cell, ErrorKind, Event, Rules};
use crate::generate::{Model, Rng, Task};
use crate::submission::Language;

/// The reference's part: what `reference/src/toy/mod.rs` would hold.
const INFO: GameInfo = GameInfo {
    id: "toy",
    aliases: &["stones"],
    summary: "A test's game: take 1 or 2 stones, the last one wins",
    play,
};

/// The toy's console protocol.
fn play(input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
    let mut pile = 4;
    let mut player = 1;
    loop {
        let stones = "o".repeat(pile as usize) + &".".repeat(4 - pile as usize);
        write!(output, "[{stones}]\nPlayer {player}, take 1 or 2: ")?;
        output.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        match line.trim().parse::<u32>() {
            Ok(n @ 1..=2) if n <= pile => pile -= n,
            _ => {
                writeln!(output, "Take 1 or 2.")?;
                continue;
            }
        }
        if pile == 0 {
            return writeln!(output, "Player {player} wins!");
        }
        player = 3 - player;
    }
}

/// The toy's reader: what `src/game/toy.rs` would hold.
struct Toy;

/// The player a line names ("Player 2").
fn player(line: &str) -> Option<u8> {
    let rest = line.split("Player ").nth(1)?;
    match rest.chars().next()? {
        '1' => Some(0),
        '2' => Some(1),
        _ => None,
    }
}

impl Rules for Toy {
    fn board_row(&self, line: &str) -> Option<Vec<Cell>> {
        let stones = line.strip_prefix('[')?.strip_suffix(']')?;
        stones
            .chars()
            .map(|c| match c {
                'o' => Some(Cell::Piece(0)),
                '.' => Some(Cell::Empty),
                _ => None,
            })
            .collect()
    }

    fn board_height(&self) -> Option<usize> {
        Some(1)
    }

    fn message(&self, line: &str) -> Option<Event> {
        if line.ends_with("wins!") {
            return Some(Event::Won(player(line)));
        }
        (line == "Take 1 or 2.").then_some(Event::Error(ErrorKind::Unknown))
    }

    fn prompt(&self, text: &str) -> Event {
        Event::Prompt {
            player: player(text),
            number: None,
        }
    }

    fn player(&self, player: u8) -> String {
        format!("player {}", player + 1)
    }

    fn square(&self, _board: &Board, row: usize, col: usize) -> String {
        format!("row {row}, column {col}")
    }

    fn pieces(&self) -> [char; 2] {
        ['1', '2']
    }

    fn named_player(&self, line: &str) -> Option<u8> {
        player(line)
    }
}

/// The toy's entry in the registry, as `src/games/mod.rs` lists a game.
pub const SUPPORT: Support = Support {
    game: Game::new(&INFO),
    rules: &Toy,
    language: Language::C,
    recognise: Some(|_name, text| text.contains("take 1 or 2")),
    generator: &Takes,
};

/// The toy's generator: what `src/games/<game>/generator.rs` holds. A
/// game is the stones taken, turn by turn (1 or 2 each), up to the pile.
struct Takes;

impl Model for Takes {
    type Game = Vec<u8>;

    fn generate(&self, rng: &mut Rng) -> Vec<u8> {
        let mut left = 4u8;
        let mut takes = Vec::new();
        while left > 0 {
            let take = if left == 1 || rng.below(2) == 0 { 1 } else { 2 };
            takes.push(take);
            left -= take;
        }
        takes
    }

    fn task(&self, game: &Vec<u8>) -> Task {
        Task::Input(game.iter().map(u8::to_string).collect())
    }

    fn simpler(&self, game: &Vec<u8>) -> Vec<Vec<u8>> {
        (1..game.len()).map(|n| game[..n].to_vec()).collect()
    }

    fn measure(&self, game: &Vec<u8>) -> (usize, usize) {
        (game.len(), game.iter().map(|&t| t as usize).sum())
    }

    fn describe(&self, game: &Vec<u8>) -> String {
        format!("{} moves", game.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::MoveNumbers;
    use crate::expected::run_reference;
    use crate::game::{compare, read, Reading};
    use crate::terminal::reference_lines;

    fn reading(inputs: &[&str]) -> Reading {
        let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
        let run = run_reference(SUPPORT.game, &inputs);
        read(crate::games::rules(SUPPORT.game), &reference_lines(&run))
    }

    #[test]
    fn a_registered_game_is_recognised_in_a_submission() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("nim.c");
        std::fs::write(&file, "printf(\"take 1 or 2: \");").unwrap();
        let submission = crate::submission::locate(&file).unwrap();
        assert_eq!(
            crate::games::infer_game(&submission).ok(),
            Some(SUPPORT.game)
        );
    }

    #[test]
    fn a_registered_game_generates_games_through_the_registry() {
        let generator = crate::games::support(SUPPORT.game).generator;
        let game = generator.generate(&mut Rng::for_game(1, 0));
        let Task::Input(lines) = generator.task(&game) else {
            panic!("the toy is played, not called");
        };
        let taken: u32 = lines.iter().map(|l| l.parse::<u32>().unwrap()).sum();
        assert_eq!(taken, 4, "{lines:?}");
        assert!(generator.simpler(&game).len() + 1 == lines.len());
    }

    #[test]
    fn a_registered_game_is_played_read_and_compared() {
        let won = reading(&["2", "3", "1", "1"]);
        let ending = won.turns.last().unwrap().outcomes();
        assert_eq!(ending, [&Event::Won(Some(0))]);
        assert_eq!(won.turns[2].errors(), [ErrorKind::Unknown]);
        let other = reading(&["2", "3", "2"]);
        let difference = compare(&Toy, &won, &other, MoveNumbers::Optional).unwrap();
        assert!(!difference.sentence.is_empty());
    }
}
