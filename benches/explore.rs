//! The exploring benchmark: `cargo bench --bench explore`.
//!
//! For each game, the fixtures' correct program (which plays every game
//! as the reference does, so every game of the budget is played) is
//! explored on one worker and on one worker per core, and, in the same
//! run, graded on every case of the shipped suite on one worker: the cost
//! of a plain graded case is the baseline an explored game is measured
//! against. It prints games per second (per core), milliseconds per game
//! and per graded case, and their ratio. Each measurement is made
//! [`TRIES`] times, interleaved, and the fastest counts: on a shared
//! machine noise only ever adds time. `REFEREE_BENCH_SCALE=0.1` explores a
//! tenth of the games, for a quick look.

use std::time::{Duration, Instant};

use referee::case::{load_suite, Suite};
use referee::explore::{self, Budget, Settings};
use referee::grading;
use referee::run::Feed;
use referee::submission::{self, Built};

mod common;
use common::{cores, root, scale, TRIES};

struct Game {
    id: &'static str,
    program: &'static str,
    /// Games explored per measurement, before scaling.
    games: usize,
    /// Rounds of the whole suite graded per measurement, before scaling.
    rounds: usize,
}

const GAMES: [Game; 3] = [
    Game {
        id: "connect4",
        program: "correct.c",
        games: 2000,
        rounds: 40,
    },
    Game {
        id: "pentago",
        program: "correct.c",
        games: 2000,
        rounds: 20,
    },
    Game {
        id: "connect4-bomb",
        program: "correct.py",
        games: 400,
        rounds: 2,
    },
];

fn build(game: &Game) -> Built {
    let file = root()
        .join("tests/fixtures")
        .join(game.id)
        .join(game.program);
    let found = submission::locate(&file).expect("the fixture is there");
    submission::build(&found, &submission::Flags::default(), &[]).expect("the fixture builds")
}

/// Time per explored game, with `jobs` workers.
fn explore_once(built: &Built, suite: &Suite, games: usize, jobs: usize) -> Duration {
    let settings = Settings {
        budget: Budget::Games(games),
        jobs,
        ..Settings::default()
    };
    let start = Instant::now();
    let report = explore::explore(built, suite, &settings).expect("exploring works");
    let elapsed = start.elapsed();
    assert!(report.found.is_none(), "the correct program differs");
    assert_eq!(report.games, games);
    elapsed / games as u32
}

/// Time per graded case, on one worker: every case of the suite,
/// `rounds` times (the reference's runs made once, as grading does).
fn grade_once(built: &Built, suite: &Suite, rounds: usize) -> Duration {
    let prepared = grading::prepare(suite, &suite.cases).expect("the reference runs");
    let start = Instant::now();
    for _ in 0..rounds {
        for case in &prepared {
            grading::run_case(built, suite, case, Feed::Interactive).expect("the case runs");
        }
    }
    start.elapsed() / (rounds * prepared.len()) as u32
}

/// Time per game spent in referee itself, no program run: making the
/// game and playing it on the reference.
fn generate_once(game: &Game, games: usize) -> Duration {
    let id: reference::Game = game.id.parse().expect("a game");
    let start = Instant::now();
    for task in explore::generated(id, 0, games) {
        match task {
            explore::Task::Input(lines) => {
                std::hint::black_box(referee::expected::run_reference(id, &lines));
            }
            explore::Task::Call(call) => {
                std::hint::black_box(call.expected());
            }
        }
    }
    start.elapsed() / games as u32
}

/// Lines typed per whole game, on average: explored games and the
/// suite's cases.
fn lines_per_game(game: &Game, suite: &Suite, games: usize) -> (f64, f64) {
    let id: reference::Game = game.id.parse().expect("a game");
    let explored: Vec<usize> = explore::generated(id, 0, games)
        .into_iter()
        .filter_map(|t| match t {
            explore::Task::Input(lines) => Some(lines.len()),
            explore::Task::Call(_) => None,
        })
        .collect();
    let cases: Vec<usize> = suite
        .cases
        .iter()
        .filter(|c| c.call.is_none())
        .map(|c| c.input.len())
        .collect();
    let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len().max(1) as f64;
    (mean(&explored), mean(&cases))
}

struct Measured {
    game: &'static str,
    games: usize,
    one: Duration,
    all: Duration,
    graded: Duration,
    generating: Duration,
    lines: (f64, f64),
}

fn measure(game: &Game) -> Measured {
    let suite = load_suite(&root().join("cases").join(game.id)).expect("the suite loads");
    let built = build(game);
    let games = ((game.games as f64 * scale()) as usize).max(20);
    let rounds = ((game.rounds as f64 * scale()).ceil() as usize).max(1);
    let (mut one, mut all, mut graded) = (Duration::MAX, Duration::MAX, Duration::MAX);
    let mut generating = Duration::MAX;
    for _ in 0..TRIES {
        graded = graded.min(grade_once(&built, &suite, rounds));
        one = one.min(explore_once(&built, &suite, games, 1));
        all = all.min(explore_once(&built, &suite, games, cores()));
        generating = generating.min(generate_once(game, games));
    }
    Measured {
        game: game.id,
        games,
        one,
        all,
        graded,
        generating,
        lines: lines_per_game(game, &suite, games),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    // Like `referee` itself: a private namespace for working folders.
    referee::sandbox::isolate_process();
    let cores = cores();
    println!("Exploring the correct fixtures, and grading them on every case, {cores} cores:\n");
    println!(
        "| game          | games | games/s, 1 core | games/s per core, {cores} cores | ms per game | ms per graded case | game ÷ case | lines per game / case | ms making a game |"
    );
    println!("|---------------|------:|----------------:|------------------------:|------------:|-------------------:|------------:|----------------------:|-----------------:|");
    for game in &GAMES {
        let m = measure(game);
        let per_core_all = 1.0 / (m.all.as_secs_f64() * cores as f64);
        println!(
            "| {:<13} | {:>5} | {:>15.0} | {:>23.0} | {:>11.2} | {:>18.2} | {:>11.2} | {:>21} | {:>16.3} |",
            m.game,
            m.games,
            1.0 / m.one.as_secs_f64(),
            per_core_all,
            ms(m.one),
            ms(m.graded),
            m.one.as_secs_f64() / m.graded.as_secs_f64(),
            format!("{:.1} / {:.1}", m.lines.0, m.lines.1),
            ms(m.generating)
        );
    }
    referee::sandbox::shutdown();
}
