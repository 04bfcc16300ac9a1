//! Game-aware grading: programs that play Pentago correctly but print it
//! their own way keep every point for play; programs with logic bugs lose
//! points, explained in game terms.

mod common;

use std::path::Path;

use common::*;
use referee::case::{load_suite, Suite};
use referee::grading::{self, Graded, Prepared, Settings};
use referee::submission;
use referee::verdict::Verdict;
use serde::Deserialize;

#[derive(Deserialize)]
struct Entry {
    file: String,
    correct: bool,
    #[serde(default)]
    style: String,
}

fn pentago() -> Suite {
    load_suite(&root().join("cases/pentago")).unwrap()
}

fn grade(suite: &Suite, prepared: &[Prepared<'_>], file: &Path) -> Graded {
    let found = submission::locate(file).unwrap();
    grading::grade(&found, suite, prepared, &Settings::default()).unwrap()
}

fn entries() -> Vec<Entry> {
    let text = std::fs::read_to_string(test_file("fixtures/pentago/formats/formats.yaml")).unwrap();
    serde_yaml::from_str(&text).unwrap()
}

/// Every correct program, whatever its format, earns every point for
/// play: each case passes or loses only its format points (and the move
/// number cases, for the one program without move numbers), and keeps
/// at least 95% of the suite's points.
#[test]
fn correct_programs_in_other_formats_keep_every_point_for_play() {
    let suite = pentago();
    let prepared = grading::prepare(&suite, &suite.cases).expect("the reference runs");
    let format_points: f64 = suite.cases.iter().map(|c| c.format_points).sum();
    assert!(
        format_points <= 0.05 * suite.max_points(),
        "format is worth {format_points}"
    );
    let correct: Vec<Entry> = entries().into_iter().filter(|e| e.correct).collect();
    assert!(correct.len() >= 5);
    for entry in correct {
        let graded = grade(
            &suite,
            &prepared,
            &test_file(&format!("fixtures/pentago/formats/{}", entry.file)),
        );
        let no_numbers = entry.style.contains("no move number");
        let mut numbers_lost = 0.0;
        for (p, outcome) in prepared.iter().zip(&graded.outcomes) {
            let numbers = p.case.move_numbers == referee::case::MoveNumbers::Required;
            if numbers && no_numbers {
                numbers_lost += p.case.points - outcome.score;
                continue;
            }
            let fine = matches!(
                outcome.judgement.verdict,
                Verdict::Pass | Verdict::FormatDiffers
            );
            assert!(
                fine,
                "{} ({}): {} is {}: {} {:?}",
                entry.file,
                entry.style,
                p.case.name,
                outcome.judgement.verdict,
                outcome.judgement.reason,
                outcome.faults.play
            );
        }
        assert!(
            graded.score() + numbers_lost >= 0.95 * suite.max_points(),
            "{} keeps only {} of {}",
            entry.file,
            graded.score(),
            suite.max_points()
        );
    }
}

/// Every logic bug loses points on some case judged on play, not only
/// format points.
#[test]
fn logic_bugs_in_other_formats_lose_points_for_play() {
    let suite = pentago();
    let prepared = grading::prepare(&suite, &suite.cases).expect("the reference runs");
    let bugs: Vec<Entry> = entries().into_iter().filter(|e| !e.correct).collect();
    assert!(bugs.len() >= 6);
    for entry in bugs {
        let graded = grade(
            &suite,
            &prepared,
            &test_file(&format!("fixtures/pentago/formats/{}", entry.file)),
        );
        let lost: Vec<_> = prepared
            .iter()
            .zip(&graded.outcomes)
            .filter(|(_, o)| !matches!(o.judgement.verdict, Verdict::Pass | Verdict::FormatDiffers))
            .collect();
        assert!(!lost.is_empty(), "{} loses nothing for play", entry.file);
    }
}

/// The explanation of a failure names the first difference in game terms.
#[test]
fn failures_are_explained_in_game_terms() {
    let cases = [
        (
            "fixtures/pentago/formats/bug-prints-tie-and-win.c",
            "tie-both-five-after-rotation",
            "the reference declared a tie; your program declared a tie and X the winner",
        ),
        (
            "fixtures/pentago/formats/bug-rotation-wrong-way.c",
            "rotate-quadrant-1-left",
            "the reference's board has X at",
        ),
        (
            "fixtures/pentago/formats/bug-no-occupied-check.c",
            "occupied-square-refused",
            "the reference reported an occupied square; your program reported nothing",
        ),
    ];
    let work = tempfile::tempdir().unwrap();
    for (file, case, words) in cases {
        let report = check_one_case(work.path(), &test_file(file), case);
        assert!(
            report.contains(words),
            "{file} on {case}: missing `{words}`:\n{report}"
        );
    }
}

/// `referee check` of `program` on one Pentago case, made public; what
/// it printed.
fn check_one_case(work: &Path, program: &Path, case: &str) -> String {
    let suite = root().join("cases/pentago");
    let single = work.join(case);
    std::fs::create_dir_all(&single).unwrap();
    std::fs::copy(suite.join("suite.yaml"), single.join("suite.yaml")).unwrap();
    let text = std::fs::read_to_string(suite.join(format!("{case}.yaml"))).unwrap();
    std::fs::write(
        single.join(format!("{case}.yaml")),
        format!("{text}visibility: public\n"),
    )
    .unwrap();
    let out = referee_in(
        work,
        &[
            "check",
            program.to_str().unwrap(),
            "--cases",
            single.to_str().unwrap(),
        ],
    );
    stdout(&out)
}

/// A win announced in words of the program's own is read from its last
/// words before it stops asking for moves; a message the reader cannot
/// read at all is not silently taken for nothing: the explanation shows
/// it as a line it could not read.
#[test]
fn messages_the_reader_cannot_classify_are_reported() {
    let work = tempfile::tempdir().unwrap();
    let source =
        std::fs::read_to_string(test_file("fixtures/pentago/formats/correct-terse.c")).unwrap();
    let own = work.path().join("takes-the-game.c");
    std::fs::write(&own, source.replace("X wins.", "X takes the game.")).unwrap();
    let report = check_one_case(work.path(), &own, "win-row-a-x");
    assert!(report.contains("✓ win-row-a-x"), "{report}");
    let unclear = work.path().join("game-over.c");
    std::fs::write(&unclear, source.replace("X wins.", "Game over.")).unwrap();
    let report = check_one_case(work.path(), &unclear, "win-row-a-x");
    assert!(
        report.contains("the reference declared X the winner; your program declared nothing"),
        "{report}"
    );
    let unread = report
        .split("did not read as a move, board, refusal, win or tie")
        .nth(1)
        .unwrap_or_else(|| panic!("no unread lines reported:\n{report}"));
    assert!(unread.contains("Game over."), "{report}");
    assert!(
        !unread.contains("1 2 3 4 5 6"),
        "decoration is not a message:\n{report}"
    );
}

/// Explanations name the input line as it was typed, with its move
/// number when that differs, say which message is one too many, and show
/// only what the case grades.
#[test]
fn explanations_name_the_line_and_show_what_the_case_grades() {
    let work = tempfile::tempdir().unwrap();
    let correct = std::fs::read_to_string(test_file("fixtures/pentago/correct.c")).unwrap();
    // A second message for a bad column.
    let twice = work.path().join("column-twice.c");
    std::fs::write(
        &twice,
        correct.replace(
            "printf(\"*** Invalid move column.  Please retry.\\n\");",
            "printf(\"*** Invalid move column.  Please retry.\\n*** Invalid move row.  Please retry.\\n\");",
        ),
    )
    .unwrap();
    let report = check_one_case(work.path(), &twice, "invalid-column");
    assert!(
        report.contains(
            "After input line 1 (`A01R`), the reference reported an invalid column; your program \
             reported an invalid column and then an invalid row: the reference does not report \
             the invalid row."
        ),
        "{report}"
    );
    let report = check_one_case(work.path(), &twice, "move-number-ignores-invalid-input");
    assert!(
        report.contains("After input line 3 (`B74R`, move 2)"),
        "{report}"
    );
    // A lone x does not exit: the exit case shows how the run ended, not
    // the instructions it does not grade.
    let waits = test_file("fixtures/pentago/rubric/needs-four-fields-before-x.c");
    let report = check_one_case(work.path(), &waits, "exit-lowercase-x-later");
    assert!(report.contains("still waiting for input"), "{report}");
    assert!(
        report.contains("The last lines your program printed:"),
        "{report}"
    );
    assert!(!report.contains("Pentago is played"), "{report}");
    // A format case shows its part only, an extra blank line as one.
    let blank = work.path().join("blank-line.c");
    std::fs::write(
        &blank,
        correct.replace(
            "printf(\"3   1 2 3 4 5 6   4\\n\");",
            "printf(\"3   1 2 3 4 5 6   4\\n\\n\");",
        ),
    )
    .unwrap();
    let report = check_one_case(work.path(), &blank, "display-board-exact");
    assert!(
        report.contains("The board display before any input differs from the reference's (exact):"),
        "{report}"
    );
    assert!(report.contains("+ (a blank line)"), "{report}");
    assert!(!report.contains("Purchase at"), "{report}");
}
