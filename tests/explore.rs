//! Exploring the fixtures: every known-bad program plays some generated
//! game differently from the reference within a small budget, and the
//! game found shrinks to a short one whose saved case fails the bad
//! program and passes the correct one; the correct programs, the
//! Pentago programs that print in their own format, and those that check
//! a move's fields in another order, play every game as the reference
//! does.
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

/// The budget every bug of a game must be found in, and the correct
/// programs must come through: 2000 games of the C games (a few seconds);
/// 600 of connect4-bomb, whose every game starts Python (its bugs are all
/// found in the first hundred).
fn games(game: &str) -> usize {
    if game == "connect4-bomb" {
        600
    } else {
        2000
    }
}

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
    let built = Arc::new(submission::build(&found, &submission::Flags::default(), &[]).unwrap());
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
        budget: Budget::Games(games(game)),
        ..Settings::default()
    };
    explore_with(game, file, &settings)
}

/// How a saved case judges `file`.
fn replay(folder: &Path, case_file: &Path, file: &Path) -> Verdict {
    let suite = load_suite(folder).unwrap();
    assert!(suite.problems.is_empty(), "{:?}", suite.problems);
    let case = suite.cases.iter().find(|c| c.file == case_file).unwrap();
    let prepared = grading::prepare(&suite, [case]).expect("the reference runs");
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
    let prepared = grading::prepare(suite, &suite.cases).expect("the reference runs");
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
        // The whole suite is run only when exploring found nothing: what
        // it found is proved a difference in play by its saved case, which
        // must fail the bug and pass the correct program (check_found).
        let format_only = || plays_right_on_the_suite(game, &file);
        match &report.found {
            None if format_only() => {
                table.push(format!("{:<45} prints differently only", bug.file))
            }
            None => problems.push(format!(
                "{}: nothing found in {} games",
                bug.file,
                games(game)
            )),
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
/// column or a full board (its hand-written example is longer), at most
/// 2 more than that example (a top-row four needs 24 pieces, a diagonal
/// to the top-right corner 18, a tie 36: shrinking leaves a piece or two
/// a person would have placed better).
#[test]
fn connect4_every_bug_is_found_and_shrunk() {
    every_bug_is_found("connect4", |bug| match bug.example_input.len() {
        n if n > 12 => n + 2,
        _ => 12,
    });
}

/// Pentago: at most 12 lines (a five needs 9 moves, a five made by the
/// other player's rotation 10, a tie 10).
#[test]
fn pentago_every_bug_is_found_and_shrunk() {
    every_bug_is_found("pentago", |_| 12);
}

/// connect4-bomb: a call on a board of at most 12 pieces, or a game of at
/// most 12 turns, or, for a bug whose hand-written example is longer, at
/// most 2 turns more than it (as for Connect Four).
#[test]
fn connect4_bomb_every_bug_is_found_and_shrunk() {
    every_bug_is_found("connect4-bomb", |bug| {
        match bug.example_input.len().saturating_sub(2) / 2 {
            turns if turns > 12 => turns + 2,
            _ => 12,
        }
    });
}

/// Exploring `file` finds nothing in [`games`] games.
fn nothing_found(game: &str, file: &Path) -> Option<String> {
    let found = explore(game, file).found?;
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

/// Pentago programs that check whether the square is taken elsewhere
/// than SPEC.md does (after the quadrant, or last, after the direction:
/// the handout leaves it open) play every game as the reference plays
/// it: no generated or shrunk move puts an occupied square with another
/// fault, and which of two a program names is all the order decides.
#[test]
fn pentago_programs_checking_in_other_orders_play_every_game_as_the_reference() {
    let problems: Vec<String> = [
        "checks-the-quadrant-before-the-square.c",
        "checks-the-square-after-the-quadrant.c",
    ]
    .iter()
    .filter_map(|file| nothing_found("pentago", &fixture("pentago", &format!("rubric/{file}"))))
    .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A Pentago program that checks the quadrant before the column (an
/// order the handout's `c05h` fixes) is found, and shrunk to the one move
/// that shows it: its column and its quadrant wrong, on an empty board.
#[test]
fn pentago_quadrant_before_column_is_found_and_shrunk_to_one_move() {
    let report = explore(
        "pentago",
        &fixture("pentago", "bugs/quadrant-before-column.c"),
    );
    let found = report.found.expect("a game played differently");
    let game = match &found.task {
        explore::Task::Input(lines) => lines.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(game.len(), 1, "{game:?}");
    let fields: Vec<char> = game[0].chars().filter(|c| !c.is_whitespace()).collect();
    assert!(
        fields[0].is_ascii_alphabetic() && !('1'..='6').contains(&fields[1]),
        "a column off the board: {game:?}"
    );
    assert!(
        !('1'..='4').contains(&fields[2]),
        "and a quadrant: {game:?}"
    );
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
            None => problems.push(format!("{}: nothing found in 2000 games", bug.file)),
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
    let minimal = shrunk(
        &referee::games::connect4::generator::Connect4,
        "connect4",
        &file,
        long,
    );
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
    let minimal = shrunk(
        &referee::games::pentago::generator::Pentago,
        "pentago",
        &file,
        long,
    );
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

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `referee explore` on a buggy program: exit 1, the minimal game and its
/// explanation, a case saved that validates and that `check` replays;
/// the same seed on one core saves the very same case.
#[test]
fn referee_explore_finds_explains_and_saves_a_case() {
    let work = tempfile::tempdir().unwrap();
    let bug = fixture("connect4", "bugs/missed-anti-diagonal.c");
    let out = referee_in(work.path(), &["explore", arg(&bug), "--color", "never"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(text.starts_with(&format!(
        "referee explore {} (connect4, seed 0, up to 2000 games)\n✗ Game ",
        bug.display()
    )));
    for expected in [
        "is played differently from the reference: still waiting for input.",
        "The lines typed, in order:",
        "the reference printed `Red wins!`, which your program does not print.",
        "In the game: After input line 11",
        "Saved as explored/connect4/explore-seed0-game",
        "(a new case folder, with the explored suite's settings)",
        "Replay it: referee check",
    ] {
        assert!(text.contains(expected), "no {expected:?} in\n{text}");
    }
    let saved = work.path().join("explored/connect4");
    let cases: Vec<PathBuf> = std::fs::read_dir(&saved)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml") && !p.ends_with("suite.yaml"))
        .collect();
    let [case] = &cases[..] else {
        panic!("one case saved: {cases:?}")
    };
    assert!(case.with_extension("transcript").is_file());
    let validate = referee_in(work.path(), &["cases", "validate", "explored/connect4"]);
    assert!(validate.status.success(), "{}", stdout(&validate));
    let replay = |program: &Path| {
        referee_in(
            work.path(),
            &["check", arg(program), "--cases", "explored/connect4"],
        )
        .status
        .code()
    };
    assert_eq!(replay(&bug), Some(1));
    assert_eq!(replay(&fixture("connect4", "correct.c")), Some(0));
    let again = referee_in(
        work.path(),
        &["explore", arg(&bug), "--jobs", "1", "--save", "again"],
    );
    assert_eq!(again.status.code(), Some(1));
    let name = case.file_name().unwrap();
    assert_eq!(
        std::fs::read(case).unwrap(),
        std::fs::read(work.path().join("again").join(name)).unwrap(),
        "the same seed and budget save the same case"
    );
}

/// A correct program: every game played as the reference plays it, exit
/// 0, nothing saved; with a time budget too.
#[test]
fn referee_explore_finds_nothing_in_a_correct_program() {
    let work = tempfile::tempdir().unwrap();
    let correct = fixture("pentago", "correct.c");
    let out = referee_in(
        work.path(),
        &[
            "explore",
            arg(&correct),
            "--games",
            "150",
            "--color",
            "never",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("✓ 150 games explored in ")
            && text.contains("each played as the reference plays it."),
        "{text}"
    );
    let timed = referee_in(work.path(), &["explore", arg(&correct), "--time", "1s"]);
    assert_eq!(timed.status.code(), Some(0), "{}", stderr(&timed));
    assert!(
        stdout(&timed).contains("games for 1 s"),
        "{}",
        stdout(&timed)
    );
    assert!(!work.path().join("explored").exists());
}

/// Mistakes are said, with what to do, and exit 2.
#[test]
fn referee_explore_says_what_is_wrong() {
    let work = tempfile::tempdir().unwrap();
    let correct = fixture("connect4", "correct.c");
    let broken = work.path().join("broken.c");
    std::fs::write(&broken, "int main(void) { connect four return 0; }\n").unwrap();
    let other = work.path().join("pentago-cases");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("suite.yaml"), "game: pentago\n").unwrap();
    let bug = fixture("connect4", "bugs/accepts-column-6.c");
    let tries: [(&[&str], &str); 5] = [
        (
            &["explore", arg(&correct), "--games", "0"],
            "0 games would explore nothing",
        ),
        (
            &["explore", arg(&correct), "--games", "5", "--time", "2s"],
            "cannot be used with",
        ),
        (
            &["explore", "no-such.c", "--game", "connect4"],
            "no-such.c: no such file",
        ),
        (
            &["explore", arg(&broken), "--game", "connect4"],
            "does not compile",
        ),
        (
            &["explore", arg(&bug), "--save", arg(&other)],
            "holds cases of pentago, not connect4",
        ),
    ];
    for (args, said) in tries {
        let out = referee_in(work.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
    }
    // A game cut short must stop the program while it waits: never at
    // the end of its input, which the handouts leave open.
    let typed_at_once = [
        referee_with(
            work.path(),
            &["explore", arg(&bug)],
            &[("REFEREE_DETECT", "none")],
        ),
        referee_in(
            work.path(),
            &["check", arg(&bug), "--feed", "all-at-once", "--explore=10"],
        ),
    ];
    for out in typed_at_once {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("exploring needs input typed one line each time"),
            "{}",
            stderr(&out)
        );
    }
}

/// A program that crashes, or loops, is found on the first game, and its
/// game shrinks keeping what happened (a loop costs its time limit per
/// run, so it is shrunk a few runs only).
#[test]
fn crashes_and_loops_are_found_and_kept() {
    let work = tempfile::tempdir().unwrap();
    let quick = work.path().join("quick");
    std::fs::create_dir(&quick).unwrap();
    std::fs::write(
        quick.join("suite.yaml"),
        "game: connect4\ndefaults:\n  timeout: 1s\n  cpu: 1s\n",
    )
    .unwrap();
    for (program, verdict) in [
        ("segfault-after-first-move.c", "crashed"),
        ("loops-after-first-move.c", "timed out"),
    ] {
        let file = test_file(&format!("programs/{program}"));
        let out = referee_in(
            work.path(),
            &[
                "explore",
                arg(&file),
                "--cases",
                arg(&quick),
                "--color",
                "never",
            ],
        );
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
        assert!(
            text.contains(&format!(
                "✗ Game 1 of seed 0 is played differently from the reference: {verdict}."
            )),
            "{text}"
        );
        assert!(
            text.contains("Shrunk to: 1 move, the game not over"),
            "{text}"
        );
    }
}

/// `check --explore` for students: the public cases all pass, and a
/// generated game still shows the bug (no hidden case is run or shown).
#[test]
fn check_explore_finds_what_the_public_cases_miss() {
    let work = tempfile::tempdir().unwrap();
    let bug = fixture("connect4", "bugs/horizontal-right-edge.c");
    let plain = referee_in(work.path(), &["check", arg(&bug)]);
    assert_eq!(plain.status.code(), Some(0), "{}", stdout(&plain));
    let out = referee_in(
        work.path(),
        &["check", arg(&bug), "--explore=500", "--color", "never"],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains(
            "Every case passes.\n\nExploring generated games (up to 500 games, seed 0)\n✗ Game "
        ),
        "{text}"
    );
    assert!(text.contains("Saved as referee-check/explored/"), "{text}");
    assert!(
        !text.contains("win-horizontal"),
        "no hidden case named: {text}"
    );
}

/// `grade --explore`: every graded student explored on the same games;
/// what was found is in results.json (which follows its schema), the
/// feedback and the summary, which counts the students who pass every
/// case yet play a game differently; the suite's explore_points are
/// earned when nothing is found; a rerun with other games regrades.
#[test]
fn grade_explore_reports_and_counts_every_student() {
    let work = tempfile::tempdir().unwrap();
    let cases = small_suite(
        "connect4",
        work.path(),
        &["seed-example-1", "seed-example-2", "seed-example-3"],
    );
    let settings = cases.join("suite.yaml");
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(&settings, format!("{text}explore_points: 2\n")).unwrap();
    let class = work.path().join("class");
    std::fs::create_dir(&class).unwrap();
    for (student, file) in [
        ("alice", "correct.c"),
        ("bob", "bugs/horizontal-right-edge.c"),
        ("carol", "bugs/missed-diagonal.c"),
    ] {
        std::fs::copy(
            fixture("connect4", file),
            class.join(format!("{student}.c")),
        )
        .unwrap();
    }
    let grade = |seed: &str| {
        referee_in(
            work.path(),
            &[
                "grade",
                "--game",
                "connect4",
                "--cases",
                arg(&cases),
                "--out",
                "out",
                "--explore",
                "600",
                "--explore-seed",
                seed,
                "class",
            ],
        )
    };
    let out = grade("0");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains(
            "Exploring generated games (seed 0) found a difference in 1 submission that passes \
             every case (bob), and in 1 that fails a case; 1 played every game as the reference does."
        ),
        "{}",
        stdout(&out)
    );
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(work.path().join("out/results.json")).unwrap(),
    )
    .unwrap();
    assert_follows_schema(&results);
    let student = |id: &str| {
        results["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .unwrap()
            .clone()
    };
    let (alice, bob) = (student("alice"), student("bob"));
    assert_eq!(alice["exploration"]["games"], 600);
    assert!(alice["exploration"].get("found").is_none());
    assert_eq!(alice["exploration"]["score"], 2.0);
    assert_eq!(alice["score"], alice["max_score"]);
    assert_eq!(bob["exploration"]["score"], 0.0);
    assert_eq!(bob["max_score"], alice["max_score"]);
    let found = &bob["exploration"]["found"];
    assert!(found["moves"].as_u64().unwrap() <= 12, "{found}");
    assert!(
        found["case"].as_str().unwrap().contains("input:"),
        "{found}"
    );
    assert!(
        found.get("actual").is_none(),
        "transcripts stay in details/"
    );
    let md = std::fs::read_to_string(work.path().join("out/feedback/bob.md")).unwrap();
    assert!(
        md.contains("## A generated game your program plays differently (0 / 2 points)"),
        "{md}"
    );
    assert!(md.contains("What was typed:"), "{md}");
    let html = std::fs::read_to_string(work.path().join("out/feedback/bob.html")).unwrap();
    assert!(html.contains("id=\"explored\""), "{html}");
    let md = std::fs::read_to_string(work.path().join("out/feedback/alice.md")).unwrap();
    assert!(md.contains("## Generated games (2 / 2 points)"), "{md}");
    let rerun = grade("0");
    assert!(
        stdout(&rerun).contains("(3 unchanged since the last run)"),
        "{}",
        stdout(&rerun)
    );
    let other = grade("1");
    assert!(
        stdout(&other).contains("(0 unchanged since the last run)"),
        "{}",
        stdout(&other)
    );
}

/// A bug no shipped case catches (five of the six squares of a long
/// diagonal count as five, gap or not): the suite passes it, exploring
/// finds it with a short game, and the game saved as a case catches it
/// from then on. At most 14 lines: the first game of seed 0 that shows it
/// lines the pieces up with rotations, and leaving a move out moves the
/// pieces it turned (other seeds shrink to 9 to 12).
#[test]
fn exploring_finds_a_bug_no_shipped_case_catches() {
    let file = fixture("pentago", "unseen/diagonal-five-of-six.c");
    let suite = suite("pentago");
    for case in grading::prepare(suite, &suite.cases).expect("the reference runs") {
        let outcome = grading::run_case(&built(&file), suite, &case, Feed::Interactive).unwrap();
        assert_eq!(
            outcome.judgement.verdict,
            Verdict::Pass,
            "{}",
            case.case.name
        );
    }
    let bug = Bug {
        file: "unseen/diagonal-five-of-six.c".into(),
        example_input: Vec::new(),
    };
    let found = explore("pentago", &file).found.expect("exploring finds it");
    let folder = tempfile::tempdir().unwrap();
    let problems = check_found("pentago", &bug, &found, 14, folder.path());
    assert!(problems.is_empty(), "{problems:?}");
}
