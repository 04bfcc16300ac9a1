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
/// number cases, for the one program without move numbers).
#[test]
fn correct_programs_in_other_formats_keep_every_point_for_play() {
    let suite = pentago();
    let prepared = grading::prepare(&suite, &suite.cases);
    let format_points: f64 = suite.cases.iter().map(|c| c.format_points).sum();
    assert!(
        format_points <= 0.15 * suite.max_points(),
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
        for (p, outcome) in prepared.iter().zip(&graded.outcomes) {
            let numbers = p.case.move_numbers == referee::case::MoveNumbers::Required;
            let fine = matches!(
                outcome.judgement.verdict,
                Verdict::Pass | Verdict::FormatDiffers
            ) || (numbers && entry.style.contains("no move number"));
            assert!(
                fine,
                "{} ({}): {} is {}: {} {:?}",
                entry.file,
                entry.style,
                p.case.name,
                outcome.judgement.verdict,
                outcome.judgement.reason,
                outcome.game.as_ref().map(|d| &d.sentence)
            );
        }
        assert!(
            graded.score() >= 0.85 * suite.max_points(),
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
    let prepared = grading::prepare(&suite, &suite.cases);
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

/// A message worded beyond the reader's rules is not silently taken for
/// nothing: the explanation shows it as a line it could not read.
#[test]
fn messages_the_reader_cannot_classify_are_reported() {
    let work = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string(test_file("fixtures/pentago/formats/correct-terse.c"))
        .unwrap()
        .replace("X wins.", "X takes the game.");
    let program = work.path().join("takes-the-game.c");
    std::fs::write(&program, source).unwrap();
    let report = check_one_case(work.path(), &program, "win-row-a-x");
    assert!(
        report.contains("the reference declared X the winner; your program declared nothing"),
        "{report}"
    );
    let unread = report
        .split("did not read as a move, board, refusal, win or tie")
        .nth(1)
        .unwrap_or_else(|| panic!("no unread lines reported:\n{report}"));
    assert!(unread.contains("X takes the game."), "{report}");
    assert!(
        !unread.contains("1 2 3 4 5 6"),
        "decoration is not a message:\n{report}"
    );
}
