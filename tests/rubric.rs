//! Grading like a careful TA: Pentago programs written for these tests,
//! and every Pentago fixture, get what a TA using the handout's rubric
//! gives them (shared/seeds/003: 55 points for execution, item by item,
//! plus the 2 points deducted for a missing occupied-square check: 57).
//!
//! Each TA score below is derived from the rubric alone, item by item, by
//! what a TA running the program (and the handout's own test inputs)
//! would see. The handout's items: 3 display (5), 4 place X (5), 5 rotate
//! (10), 6 exit with x or X (2), 7 O moves with a rotation (5), 8 move
//! number (3), 9 a loop (5), 10 bad row, column, quadrant, direction and
//! spaced or concatenated input (2 each, 10), 11 occupied square (2),
//! 12 five in a row (10: 12.1 any line 3, 13 a tie 4, 13.1 no rotation
//! after a placement win 3). "Without rotations working, points will not
//! be awarded for checking for a win."

mod common;

use std::path::Path;

use common::*;
use referee::case::{load_suite, Suite};
use referee::grading::{self, Prepared, Settings};
use referee::submission;

/// The programs written for these tests, with the score a TA gives.
const WRITTEN_FOR_THE_TESTS: &[(&str, f64)] = &[
    // Plays every game right but returns 2 from main. No item of the
    // rubric is about the exit status (nothing a TA sees at the
    // terminal): 57.
    ("rubric/exits-with-status-2.c", 57.0),
    // Reads all four fields of a move before looking for 'x', so a lone
    // x does not exit. Item 6 (2, handle 'x' for exit as the first
    // input) is lost; everything else plays right: 57 - 2 = 55.
    ("rubric/needs-four-fields-before-x.c", 55.0),
    // Refuses an occupied square with its own words ("*** Must move
    // where there is an empty spot."). Item 11 is done (the move is
    // refused and asked again); the handout asks for error checking "as
    // shown above", so a strict TA takes half a point for the wording
    // of one message: 56.5.
    ("rubric/own-refusal-wording.c", 56.5),
    // Prints a variant of the instructions' example line. Item 1 carries
    // no points: 57.
    ("rubric/variant-instructions.c", 57.0),
    // Turns the quadrant before checking a placement win. Item 13.1 (3:
    // a win by placement skips the rotation) is lost, nothing else:
    // 54.
    ("rubric/rotates-before-placement-win.c", 54.0),
    // Takes five of a line's six cells with a gap (XX.XXX) for five in
    // a row. Item 12.1 (3: five detected where it is found) is partly
    // wrong, a false win on the long lines only: a TA takes 1 of its 3:
    // 56.
    ("rubric/counts-five-with-a-gap.c", 56.0),
    // Checks the quadrant and the direction before the square: the
    // handout only shows an occupied square with otherwise valid input,
    // so the order is open: 57.
    ("rubric/checks-the-quadrant-before-the-square.c", 57.0),
    // The same, with the square checked between the quadrant and the
    // direction, the one other place the handout leaves it (its sample
    // run fixes the order of the other four checks: G05h, c05h, c25h):
    // 57.
    ("rubric/checks-the-square-after-the-quadrant.c", 57.0),
];

/// The other fixtures: known bugs (one each) and correct programs in
/// their own formats, with a TA's score.
const FIXTURES: &[(&str, f64)] = &[
    // Item 5 lost (every turn goes the wrong way: 10); O's turns (item
    // 7, 1.25) and the square a turn filled (item 11, 1) too; no tie
    // without rotations (item 13, 4); the handout's test runs go wrong
    // from move 1 (item 9, 2): 57 - 18.25 = 38.75.
    ("bugs/rotation-direction-swapped.c", 38.75),
    // Quadrants 2 and 3 turn the wrong quadrant: half of item 5 (5); no
    // tie (item 13, 4, the handout's tie input turns quadrants 2 and 3);
    // the test runs go wrong (item 9, 2); wins made by turning (0.4):
    // 57 - 11.4 = 45.6.
    ("bugs/quadrants-2-and-3-swapped.c", 45.6),
    // No occupied-square check: the handout's 2-point deduction, and the
    // sample run's A51R goes on wrong (item 9, 1): 54.
    ("bugs/no-occupied-check.c", 54.0),
    // A rotation that gives the opponent five is missed, a tie is the
    // mover's win: item 13 (4) and part of 12.1 (0.5): 52.5.
    ("bugs/mover-only-after-rotation.c", 52.5),
    // A tie is printed as X's win: item 13 (4): 53.
    ("bugs/no-tie-detection.c", 53.0),
    // Rotates before a placement win: item 13.1 (3): 54.
    ("bugs/placement-win-still-rotates.c", 54.0),
    // Only a lower-case x exits: item 6 asks for both cases: half, 1:
    // 56.
    ("bugs/only-lowercase-x-exits.c", 56.0),
    // Spaced input is misread: item 10's fifth check (2), and the
    // handout's test inputs, typed with spaces, go wrong (2): 53.
    ("bugs/concatenated-input-only.c", 53.0),
    // Lower-case rows are refused: input must work as the handout types
    // it (item 10's fifth check, 2); its three test inputs go wrong (4):
    // 51.
    ("bugs/lowercase-row-rejected.c", 51.0),
    // Four of the eight diagonal fives are missed: half of 12.1 (1.5);
    // the handout's sample game (O wins on B6-F2) and tie input go
    // wrong (4): 51.5.
    ("bugs/diagonals-main-only.c", 51.5),
    // The quadrant is checked before the column: the handout's own bad
    // column, c05h (its quadrant is bad too), is answered for the
    // quadrant, so a TA trying item 10's column check with the handout's
    // input sees it fail: 2: 55.
    ("bugs/quadrant-before-column.c", 55.0),
    // A refused move advances the move number: half of item 8: 55.5.
    ("bugs/move-number-counts-invalid.c", 55.5),
    // Four in a row wins: five is detected wrongly in every line, item
    // 12.1 (3): 54.
    ("bugs/four-in-a-row-wins.c", 54.0),
    // The column numbers read 0-5: the board display's text (1): 56.
    ("bugs/column-numbers-from-0.c", 56.0),
    // Correct programs in their own formats: the board display, the
    // error messages and the winning lines are not as shown (1.7):
    // 55.3.
    ("formats/correct-pipes-box.c", 55.3),
    ("formats/correct-no-labels.c", 55.3),
    ("formats/correct-verbose.c", 55.3),
    ("formats/correct-lowercase-labels.c", 55.3),
    ("formats/correct-quadrant-gaps.c", 55.3),
    ("formats/correct-unicode-box.c", 55.3),
    // ... and this one shows no move number: item 8 (3) too: 52.3.
    ("formats/correct-terse.c", 52.3),
    // The same formats with one bug each: 55.3 (or 52.3), less the bug
    // as above.
    ("formats/bug-rotation-wrong-way.c", 55.3 - 18.25),
    ("formats/bug-missed-diagonal.c", 55.3 - 5.5),
    ("formats/bug-win-check-only-mover.c", 52.3 - 4.5),
    ("formats/bug-no-occupied-check.c", 55.3 - 3.0),
    ("formats/bug-prints-tie-and-win.c", 55.3 - 4.0),
    ("formats/bug-quadrant-numbering.c", 55.3 - 11.4),
    ("formats/bug-move-number-counts-invalid.c", 55.3 - 1.5),
];

fn pentago() -> Suite {
    let suite = load_suite(&root().join("cases/pentago")).expect("the suite loads");
    assert!(suite.problems.is_empty(), "{:?}", suite.problems);
    suite
}

/// Referee's score for each program, in order.
fn scores(suite: &Suite, prepared: &[Prepared<'_>], programs: &[(&str, f64)]) -> Vec<f64> {
    let fixtures = test_file("fixtures/pentago");
    programs
        .iter()
        .map(|(file, _)| score(suite, prepared, &fixtures.join(file)))
        .collect()
}

fn score(suite: &Suite, prepared: &[Prepared<'_>], file: &Path) -> f64 {
    let found = submission::locate(file).unwrap();
    grading::grade(&found, suite, prepared, &Settings::default())
        .unwrap()
        .score()
}

#[test]
fn the_suite_is_worth_the_handouts_points() {
    let suite = pentago();
    assert!((suite.max_points() - 57.0).abs() < 1e-9);
    assert_eq!(suite.rubric_problems(), Vec::<String>::new());
}

/// The programs written for the tests get what a TA gives, within a
/// point.
#[test]
fn programs_written_for_the_tests_get_what_a_ta_gives() {
    let suite = pentago();
    let prepared = grading::prepare(&suite, &suite.cases).expect("the reference runs");
    let got = scores(&suite, &prepared, WRITTEN_FOR_THE_TESTS);
    let off: Vec<String> = WRITTEN_FOR_THE_TESTS
        .iter()
        .zip(&got)
        .filter(|((_, ta), score)| (*score - ta).abs() > 1.0)
        .map(|((file, ta), score)| format!("{file}: referee {score}, a TA {ta}"))
        .collect();
    assert!(off.is_empty(), "{off:#?}");
}

/// Over every fixture: referee is within 5 points of 100 of the TA's
/// score for at least 9 programs in 10, correct programs in their own
/// formats keep at least 95% of the points, and every logic bug loses
/// points for play.
#[test]
fn every_fixture_is_graded_as_a_ta_grades_it() {
    let suite = pentago();
    let prepared = grading::prepare(&suite, &suite.cases).expect("the reference runs");
    let all: Vec<(&str, f64)> = FIXTURES
        .iter()
        .chain(WRITTEN_FOR_THE_TESTS)
        .copied()
        .collect();
    let got = scores(&suite, &prepared, &all);
    let tolerance = 0.05 * suite.max_points();
    let close = all
        .iter()
        .zip(&got)
        .filter(|((_, ta), score)| (*score - ta).abs() <= tolerance)
        .count();
    let report: Vec<String> = all
        .iter()
        .zip(&got)
        .map(|((file, ta), score)| format!("{file}: referee {score:.2}, a TA {ta:.2}"))
        .collect();
    assert!(
        close * 10 >= all.len() * 9,
        "only {close} of {} within {tolerance}:\n{}",
        all.len(),
        report.join("\n")
    );
    for ((file, _), score) in all.iter().zip(&got) {
        let name = Path::new(file).file_name().unwrap().to_string_lossy();
        if name.starts_with("correct-") && name != "correct-terse.c" {
            assert!(*score >= 0.95 * suite.max_points(), "{file}: {score}");
        }
        if file.starts_with("bugs/") || name.starts_with("bug-") {
            assert!(*score < suite.max_points() - 0.5, "{file} keeps {score}");
        }
    }
}

/// The fixture list covers every Pentago program of the fixtures, so a
/// new one gets a TA score too.
#[test]
fn every_pentago_fixture_has_a_ta_score() {
    let listed: Vec<&str> = FIXTURES
        .iter()
        .chain(WRITTEN_FOR_THE_TESTS)
        .map(|(file, _)| *file)
        .collect();
    for folder in ["bugs", "formats", "rubric"] {
        for entry in std::fs::read_dir(test_file(&format!("fixtures/pentago/{folder}"))).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "c") {
                let file = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
                assert!(listed.contains(&file.as_str()), "{file} has no TA score");
            }
        }
    }
}
