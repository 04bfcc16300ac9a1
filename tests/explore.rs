//! Exploring the fixtures: every known-bad program plays some generated
//! game differently from the reference within a small budget, and the
//! game found shrinks to a short one whose saved case fails the bad
//! program and passes the correct one; the correct programs, and the
//! Pentago programs that print in their own format, play every game as
//! the reference does.
//!
//! Each fixture is built once and shared by the tests of this file.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use common::*;
use referee::case::{load_suite, Suite};
use referee::explore::{self, save, Budget, Found, Report, Settings};
use referee::grading;
use referee::run::Feed;
use referee::submission::{self, Built};
use referee::verdict::Verdict;
use serde::Deserialize;

/// The budget every bug must be found in, and the correct programs must
/// come through.
const GAMES: usize = 2000;

#[derive(Deserialize)]
struct Bug {
    file: String,
    #[serde(default)]
    example_input: Vec<String>,
}

fn bugs(game: &str) -> Vec<Bug> {
    let text = std::fs::read_to_string(test_file(&format!("fixtures/{game}/bugs.yaml"))).unwrap();
    serde_yaml::from_str(&text).unwrap()
}

/// The shipped suite of `game`, loaded once.
fn suite(game: &str) -> &'static Suite {
    static SUITES: OnceLock<Mutex<HashMap<String, &'static Suite>>> = OnceLock::new();
    let mut suites = SUITES.get_or_init(Default::default).lock().unwrap();
    suites.entry(game.to_string()).or_insert_with(|| {
        let suite = load_suite(&root().join("cases").join(game)).unwrap();
        assert!(suite.problems.is_empty(), "{:?}", suite.problems);
        Box::leak(Box::new(suite))
    })
}

/// A fixture, built once.
fn built(file: &Path) -> Arc<Built> {
    static BUILT: OnceLock<Mutex<HashMap<PathBuf, Arc<Built>>>> = OnceLock::new();
    let cache = BUILT.get_or_init(Default::default);
    if let Some(built) = cache.lock().unwrap().get(file) {
        return Arc::clone(built);
    }
    let found = submission::locate(file).unwrap();
    let flags: Vec<String> = submission::DEFAULT_CFLAGS
        .iter()
        .map(|s| s.to_string())
        .collect();
    let built = Arc::new(submission::build(&found, &flags).unwrap());
    cache
        .lock()
        .unwrap()
        .insert(file.to_path_buf(), Arc::clone(&built));
    built
}

fn fixture(game: &str, name: &str) -> PathBuf {
    test_file(&format!("fixtures/{game}/{name}"))
}

fn explore_with(game: &str, file: &Path, settings: &Settings) -> Report {
    explore::explore(&built(file), suite(game), settings).unwrap()
}

fn explore(game: &str, file: &Path) -> Report {
    let settings = Settings {
        budget: Budget::Games(GAMES),
        ..Settings::default()
    };
    explore_with(game, file, &settings)
}

/// How a saved case judges `file`.
fn replay(folder: &Path, case_file: &Path, file: &Path) -> Verdict {
    let suite = load_suite(folder).unwrap();
    assert!(suite.problems.is_empty(), "{:?}", suite.problems);
    let case = suite.cases.iter().find(|c| c.file == case_file).unwrap();
    let prepared = grading::prepare(&suite, [case]);
    grading::run_case(&built(file), &suite, &prepared[0], Feed::Interactive)
        .unwrap()
        .judgement
        .verdict
}

/// What is wrong with what exploring found for one bug, if anything.
fn check_found(game: &str, bug: &Bug, found: &Found, most: usize, folder: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    if found.moves > most {
        problems.push(format!(
            "{}: shrunk to {} ({} moves, at most {most} accepted)",
            bug.file, found.described, found.moves
        ));
    }
    let saved = save::save(found, suite(game), 0, folder).unwrap();
    let bad = replay(folder, &saved.file, &fixture(game, &bug.file));
    if matches!(bad, Verdict::Pass | Verdict::FormatDiffers) {
        problems.push(format!("{}: its saved case passes it", bug.file));
    }
    let correct = fixture(game, correct_file(game));
    let good = replay(folder, &saved.file, &correct);
    if good != Verdict::Pass {
        problems.push(format!(
            "{}: its saved case fails the correct program ({good})",
            bug.file
        ));
    }
    problems
}

fn correct_file(game: &str) -> &'static str {
    if game == "connect4-bomb" {
        "correct.py"
    } else {
        "correct.c"
    }
}

/// Whether the suite finds only format differences in `file`: every case
/// played right (a pass, or right play with other text). Exploring judges
/// play in a suite that judges play, so it finds nothing in such a
/// program, as in the programs that print in their own format.
fn plays_right_on_the_suite(game: &str, file: &Path) -> bool {
    let suite = suite(game);
    let prepared = grading::prepare(suite, &suite.cases);
    prepared.iter().all(|p| {
        let outcome = grading::run_case(&built(file), suite, p, Feed::Interactive).unwrap();
        matches!(
            outcome.judgement.verdict,
            Verdict::Pass | Verdict::FormatDiffers
        )
    })
}

/// Explores every bug of `game`; `most` is the longest shrunk game
/// accepted for a bug (its hand-written example's length given).
fn every_bug_is_found(game: &str, most: impl Fn(&Bug) -> usize) {
    let folder = tempfile::tempdir().unwrap();
    let saved = folder.path().join(game);
    let mut problems = Vec::new();
    let mut table = Vec::new();
    let bugs = bugs(game);
    for bug in &bugs {
        let file = fixture(game, &bug.file);
        let report = explore(game, &file);
        let format_only = plays_right_on_the_suite(game, &file);
        match &report.found {
            None if format_only => table.push(format!("{:<45} prints differently only", bug.file)),
            Some(found) if format_only => problems.push(format!(
                "{}: the suite finds only format differences, but exploring found {}",
                bug.file, found.described
            )),
            None => problems.push(format!("{}: nothing found in {GAMES} games", bug.file)),
            Some(found) => {
                table.push(format!(
                    "{:<45} game {:>4}  {:>3} moves  {:>4} runs  {:>5.1} s  {}",
                    bug.file,
                    found.index + 1,
                    found.moves,
                    found.shrink_runs,
                    report.elapsed.as_secs_f64(),
                    found.described
                ));
                problems.extend(check_found(game, bug, found, most(bug), &saved));
            }
        }
    }
    eprintln!("{game}:\n{}", table.join("\n"));
    let work = tempfile::tempdir().unwrap();
    let out = referee_in(work.path(), &["cases", "validate", saved.to_str().unwrap()]);
    if !out.status.success() {
        problems.push(format!(
            "the saved cases do not validate:\n{}{}",
            stdout(&out),
            stderr(&out)
        ));
    }
    assert!(problems.is_empty(), "{game}:\n{}", problems.join("\n"));
}

/// Connect Four: at most 12 lines typed, or, for a bug that needs a tall
/// column or a full board (its hand-written example is longer), no more
/// than that example.
#[test]
fn connect4_every_bug_is_found_and_shrunk() {
    every_bug_is_found("connect4", |bug| bug.example_input.len().max(12));
}

/// Pentago: at most 12 lines (a five needs 9 moves, a five made by the
/// other player's rotation 10, a tie 10).
#[test]
fn pentago_every_bug_is_found_and_shrunk() {
    every_bug_is_found("pentago", |_| 12);
}

/// connect4-bomb: a call on a board of at most 12 pieces, or a game of at
/// most 12 turns, or no more than the bug's hand-written example.
#[test]
fn connect4_bomb_every_bug_is_found_and_shrunk() {
    every_bug_is_found("connect4-bomb", |bug| {
        (bug.example_input.len().saturating_sub(2) / 2).max(12)
    });
}

/// Exploring `file` finds nothing in [`GAMES`] games.
fn nothing_found(game: &str, file: &Path) -> Option<String> {
    let report = explore(game, file);
    let found = report.found?;
    Some(format!(
        "{}: game {} is played differently ({}): {}",
        file.display(),
        found.index + 1,
        found.described,
        found.outcome.judgement.reason
    ))
}

#[test]
fn connect4_correct_program_plays_every_game_as_the_reference() {
    let problem = nothing_found("connect4", &fixture("connect4", "correct.c"));
    assert!(problem.is_none(), "{problem:?}");
}

#[test]
fn pentago_correct_program_plays_every_game_as_the_reference() {
    let problem = nothing_found("pentago", &fixture("pentago", "correct.c"));
    assert!(problem.is_none(), "{problem:?}");
}

#[test]
fn connect4_bomb_correct_program_plays_every_game_as_the_reference() {
    let problem = nothing_found("connect4-bomb", &fixture("connect4-bomb", "correct.py"));
    assert!(problem.is_none(), "{problem:?}");
}

#[derive(Deserialize)]
struct Format {
    file: String,
    correct: bool,
}

/// The Pentago programs that print in their own format: the correct ones
/// play every game as the reference does (their text is not judged in a
/// suite that judges play), and each one with a bug is found.
#[test]
fn pentago_formats_are_played_right_and_their_bugs_found() {
    let text = std::fs::read_to_string(fixture("pentago", "formats/formats.yaml")).unwrap();
    let formats: Vec<Format> = serde_yaml::from_str(&text).unwrap();
    let folder = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    for format in &formats {
        let file = fixture("pentago", &format!("formats/{}", format.file));
        if format.correct {
            problems.extend(nothing_found("pentago", &file));
            continue;
        }
        let bug = Bug {
            file: format!("formats/{}", format.file),
            example_input: Vec::new(),
        };
        match explore("pentago", &file).found {
            None => problems.push(format!("{}: nothing found in {GAMES} games", bug.file)),
            Some(found) => problems.extend(check_found("pentago", &bug, &found, 12, folder.path())),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Shrinks `long`, which `file` plays differently, with `model`.
fn shrunk<M>(model: &M, game: &str, file: &Path, long: Vec<String>) -> Vec<String>
where
    M: explore::Model<Game = Vec<String>>,
{
    let suite = suite(game);
    let template = explore::search::template(suite).unwrap();
    let built = built(file);
    let runner = explore::Runner {
        built: &built,
        suite,
        template: &template,
        feed: Feed::Interactive,
    };
    let first = runner.run(&explore::Task::Input(long.clone())).unwrap();
    assert!(
        explore::differs(&first.outcome),
        "the long game shows the bug"
    );
    let limits = explore::shrink::Limits {
        runs: 1000,
        width: 2,
    };
    let shrunk = explore::shrink::shrink(model, long, first, limits, |tasks| {
        Ok(runner
            .run_all(tasks, 2)?
            .into_iter()
            .map(|ran| explore::differs(&ran.outcome).then_some(ran))
            .collect())
    })
    .unwrap();
    shrunk.game
}

fn lines(text: &str) -> Vec<String> {
    text.split(',').map(|l| l.trim().to_string()).collect()
}

/// Shrinking on its own: a column 6 typed in the middle of a long game
/// (Red wins down column 0 on move 19) shrinks to that one input, the
/// whole game a program that takes 6 for a column needs to show it.
#[test]
fn a_refused_column_buried_in_a_long_game_shrinks_to_itself() {
    let long = lines("0,1,2,3,4,5, 0,1,2,3,4,5, 0,1,2,3, 6, 4,5, 0");
    let file = fixture("connect4", "bugs/accepts-column-6.c");
    let minimal = shrunk(&explore::connect4::Connect4, "connect4", &file, long);
    assert_eq!(minimal, ["6"]);
}

/// Shrinking on its own: O's move onto X's square B5, after ten other
/// moves, shrinks to the two moves onto B5, typed as plainly as can be.
/// Every move turns quadrant 2, which holds only B5, its centre: no
/// piece ever moves, so B5 is the only square typed twice in any part of
/// the game.
#[test]
fn a_move_onto_a_taken_square_buried_in_a_long_game_shrinks_to_two_moves() {
    let long = lines(
        "b52r, a12l, D1 2R, f32l, e2 2 r, c12l, d62r, f42l, A32R, e52l, c32r, \
         B5 2R, f62l, d32r",
    );
    let file = fixture("pentago", "bugs/no-occupied-check.c");
    let minimal = shrunk(&explore::pentago::Pentago, "pentago", &file, long);
    assert_eq!(minimal, ["b51l", "b51l"]);
}

/// Reproducible: the same seed and budget give the same games, and the
/// same minimal game whether one core plays them or two, idle or busy
/// with another exploration at the same time.
#[test]
fn the_same_seed_and_budget_find_the_same_minimal_game() {
    for game in ["connect4", "connect4-bomb", "pentago"] {
        let game_id: reference::Game = game.parse().unwrap();
        assert_eq!(
            explore::generated(game_id, 7, 50),
            explore::generated(game_id, 7, 50)
        );
        assert_ne!(
            explore::generated(game_id, 7, 50),
            explore::generated(game_id, 8, 50)
        );
    }
    let file = fixture("connect4", "bugs/win-checked-from-last-piece-only.c");
    let with = |jobs: usize| Settings {
        seed: 3,
        budget: Budget::Games(500),
        jobs,
        ..Settings::default()
    };
    let found = |report: Report| {
        let found = report.found.expect("the bug is found");
        (found.index, found.task, found.shrink_runs)
    };
    let alone = found(explore_with("connect4", &file, &with(1)));
    let (two, busy) = std::thread::scope(|s| {
        let two = s.spawn(|| found(explore_with("connect4", &file, &with(2))));
        let busy = s.spawn(|| found(explore_with("connect4", &file, &with(3))));
        (two.join().unwrap(), busy.join().unwrap())
    });
    assert_eq!(alone, two);
    assert_eq!(alone, busy);
}
