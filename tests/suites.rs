//! The suites' self-test, in the spirit of Kattis' `submissions.yaml`:
//! every correct submission scores full marks, and every known-bad one
//! loses points on the cases its `bugs.yaml` entry names.

mod common;

use std::fs;
use std::path::Path;

use common::*;
use referee::case::{load_suite, Suite};
use referee::grading::{self, Settings};
use referee::submission;
use referee::verdict::Verdict;
use serde::Deserialize;

#[derive(Deserialize)]
struct Bug {
    file: String,
    bug: String,
    #[serde(default)]
    fails: Vec<String>,
}

fn suite_of(game: &str) -> Suite {
    let suite = load_suite(&root().join("cases").join(game)).expect("the suite loads");
    assert!(suite.problems.is_empty(), "{:?}", suite.problems);
    suite
}

/// The verdict of every case for one submission, in case order.
fn verdicts(suite: &Suite, file: &Path) -> Vec<(String, Verdict, String)> {
    verdicts_of(suite, file, |_| true)
}

/// The verdict of each case `wanted` for one submission, in case order.
fn verdicts_of(
    suite: &Suite,
    file: &Path,
    wanted: impl Fn(&str) -> bool,
) -> Vec<(String, Verdict, String)> {
    let cases = suite.cases.iter().filter(|c| wanted(&c.name));
    let prepared = grading::prepare(suite, cases).expect("the reference runs");
    let found = submission::locate(file).unwrap();
    let settings = Settings {
        jobs: 1,
        ..Settings::default()
    };
    let graded = grading::grade(&found, suite, &prepared, &settings).unwrap();
    prepared
        .iter()
        .zip(graded.outcomes)
        .map(|(p, o)| (p.case.name.clone(), o.judgement.verdict, o.judgement.reason))
        .collect()
}

fn self_test(game: &str, correct: &str) {
    let suite = suite_of(game);
    let fixtures = test_file(&format!("fixtures/{game}"));
    let failed: Vec<_> = verdicts(&suite, &fixtures.join(correct))
        .into_iter()
        .filter(|(_, v, _)| *v != Verdict::Pass)
        .collect();
    assert!(
        failed.is_empty(),
        "{game}: the correct program fails: {failed:#?}"
    );
    let bugs: Vec<Bug> =
        serde_yaml::from_str(&std::fs::read_to_string(fixtures.join("bugs.yaml")).unwrap())
            .unwrap();
    assert!(
        bugs.len() >= 10,
        "{game}: only {} known-bad programs",
        bugs.len()
    );
    let names: Vec<&str> = suite.cases.iter().map(|c| c.name.as_str()).collect();
    let problems: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = bugs
            .iter()
            .map(|bug| {
                let (suite, fixtures, names) = (&suite, &fixtures, &names);
                s.spawn(move || check_bug(suite, fixtures, names, bug))
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(problems.is_empty(), "{game}:\n{}", problems.join("\n"));
}

/// What is wrong with how the suite treats one known-bad program, if
/// anything.
fn check_bug(suite: &Suite, fixtures: &Path, names: &[&str], bug: &Bug) -> Option<String> {
    if bug.fails.is_empty() {
        return Some(format!(
            "{}: bugs.yaml names no case it must fail",
            bug.file
        ));
    }
    if let Some(unknown) = bug.fails.iter().find(|c| !names.contains(&c.as_str())) {
        return Some(format!("{}: no case named {unknown}", bug.file));
    }
    // Only the cases it must fail are run: whether it passes the others
    // is not asserted (a Python program costs a start per case).
    let verdicts = verdicts_of(suite, &fixtures.join(&bug.file), |name| {
        bug.fails.iter().any(|f| f == name)
    });
    let passed: Vec<&String> = bug
        .fails
        .iter()
        .filter(|name| {
            verdicts
                .iter()
                .any(|(n, v, _)| n == *name && *v == Verdict::Pass)
        })
        .collect();
    if passed.is_empty() {
        None
    } else {
        Some(format!("{} ({}) passes {passed:?}", bug.file, bug.bug))
    }
}

#[test]
fn connect4_suite_catches_every_known_bug() {
    self_test("connect4", "correct.c");
}

#[test]
fn pentago_suite_catches_every_known_bug() {
    self_test("pentago", "correct.c");
}

#[test]
fn connect4_bomb_suite_catches_every_known_bug() {
    self_test("connect4-bomb", "correct.py");
}

/// Every suite validates: files load, pins match the reference.
#[test]
fn the_shipped_suites_are_valid() {
    let work = tempfile::tempdir().unwrap();
    let out = referee_in(
        work.path(),
        &["cases", "validate", root().join("cases").to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", stdout(&out));
}

/// cases/README.md holds each suite's table as `referee cases list
/// --markdown` prints it.
#[test]
fn the_cases_readme_lists_every_case() {
    let readme = std::fs::read_to_string(root().join("cases/README.md")).unwrap();
    for game in ["connect4", "connect4-bomb", "pentago"] {
        let work = tempfile::tempdir().unwrap();
        let dir = root().join("cases").join(game);
        let out = referee_in(
            work.path(),
            &["cases", "list", "--markdown", dir.to_str().unwrap()],
        );
        let table = stdout(&out);
        assert!(
            readme.contains(&table),
            "cases/README.md is out of date for {game}: regenerate it with \
             `referee cases list --markdown cases` (see the file's first lines)"
        );
    }
}

/// Each suite's rubric follows its handout: every case names one of the
/// rubric's items, each item's cases earn the handout's points, and the
/// totals are the handouts' (Pentago: 55 for execution and the 2 points
/// of the occupied-square check; APS105: 4 public and 3 hidden marks, 3
/// by hand; CSE 101: 100).
#[test]
fn the_suites_points_follow_the_handouts_rubrics() {
    for (game, total) in [
        ("connect4", 7.0),
        ("connect4-bomb", 100.0),
        ("pentago", 57.0),
    ] {
        let suite = suite_of(game);
        assert!(!suite.rubric.is_empty(), "{game} lists no rubric");
        assert!(
            suite.cases.iter().all(|c| c.rubric.is_some()),
            "{game}: a case without a rubric item"
        );
        assert_eq!(suite.rubric_problems(), Vec::<String>::new(), "{game}");
        assert!(
            (suite.max_points() - total).abs() < 1e-9,
            "{game}: {}",
            suite.max_points()
        );
        // Wording and spacing have no points of their own in any handout.
        let format: f64 = suite.cases.iter().map(|c| c.format_points).sum();
        assert!(
            format <= 0.05 * total + 1e-9,
            "{game}: format is worth {format}"
        );
    }
}

/// `referee cases list` shows, per rubric item, the handout's points and
/// the cases that earn them.
#[test]
fn cases_list_shows_each_rubric_item_with_its_cases() {
    let work = tempfile::tempdir().unwrap();
    let dir = root().join("cases/pentago");
    let out = referee_in(work.path(), &["cases", "list", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert!(
        lines.any(|l| l.trim() == "6. Exit with x or X: 2; cases earn 2"),
        "{text}"
    );
    let cases = lines.next().unwrap_or_default();
    for case in [
        "exit-lowercase-x-first-move (0.5)",
        "exit-lowercase-x-later (0.5)",
        "exit-uppercase-x-first-move (0.5)",
        "exit-uppercase-x-later (0.5)",
    ] {
        assert!(
            cases.contains(case),
            "{case} is not listed under item 6: {cases}"
        );
    }
    assert!(
        text.contains("exit-lowercase-x-later") && text.contains("play 0, ending 0.5"),
        "{text}"
    );
}

/// A suite whose cases earn other points than its rubric gives fails
/// validation, naming the item.
#[test]
fn validate_checks_each_rubric_items_points() {
    let cases = suite(
        "pentago",
        "rubric:\n  - item: exits\n    points: 2\n",
        &[("x", "rubric: exits\npoints: 1.5\ninput: x\n")],
    );
    let work = tempfile::tempdir().unwrap();
    for args in [&["cases", "update"][..], &["cases", "update", "--accept"]] {
        let mut args = args.to_vec();
        args.push(cases.path().to_str().unwrap());
        let update = referee_in(work.path(), &args);
        assert!(update.status.success(), "{}", stderr(&update));
    }
    let out = referee_in(
        work.path(),
        &["cases", "validate", cases.path().to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out)
            .contains("rubric item `exits` is worth 2 in the handout, but its cases earn 1.5"),
        "{}",
        stdout(&out)
    );
}

/// `cases update` leaves each new transcript beside its case to review
/// and shows the difference, touching no pin; `--accept` takes the
/// reviewed ones; a pending file the reference no longer prints is not
/// taken.
#[test]
fn update_writes_pending_transcripts_and_accept_takes_them() {
    let cases = suite(
        "pentago",
        "",
        &[
            ("first", "input: |\n  A14R\n  x\n"),
            ("second", "input: |\n  B54L\n  x\n"),
        ],
    );
    let dir = cases.path();
    let work = tempfile::tempdir().unwrap();
    let update = |extra: &[&str]| {
        let mut args = vec!["cases", "update"];
        args.extend_from_slice(extra);
        args.push(dir.to_str().unwrap());
        referee_in(work.path(), &args)
    };
    let pin = |name: &str| dir.join(format!("{name}.transcript"));
    let pending = |name: &str| dir.join(format!("{name}.transcript.new"));

    // No pin yet: both are proposed, whole, and nothing is pinned.
    let out = update(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!pin("first").exists() && !pin("second").exists());
    let first = fs::read_to_string(pending("first")).unwrap();
    assert!(first.contains("A14R"), "{first}");
    assert!(
        text.contains(&format!(
            "{} is new: {}",
            pin("first").display(),
            pending("first").display()
        )),
        "{text}"
    );
    assert!(text.contains("--- no pin\n+++ reference now\n"), "{text}");
    assert!(
        text.contains("+1. Enter row, column, quadrant, direction for X: A14R\n"),
        "{text}"
    );
    assert!(
        text.ends_with(&format!(
            "2 transcripts to review (the `.transcript.new` files); \
             `referee cases update --accept {}` pins them.\n",
            dir.display()
        )),
        "{text}"
    );
    // Pinned, a case's transcript is validated.
    let out = update(&["--accept"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with("2 transcripts pinned.\n"),
        "{}",
        stdout(&out)
    );
    assert_eq!(fs::read_to_string(pin("first")).unwrap(), first);
    assert!(!pending("first").exists() && !pending("second").exists());
    let validate = referee_in(work.path(), &["cases", "validate", dir.to_str().unwrap()]);
    assert!(validate.status.success(), "{}", stdout(&validate));

    // A pin that no longer matches: the difference is shown, line by
    // line, and the pin is left as it was until accepted.
    let edited = first.replace("A14R", "A14L");
    fs::write(pin("first"), &edited).unwrap();
    let out = update(&[]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("--- pinned\n+++ reference now\n"), "{text}");
    assert!(
        text.contains("-1. Enter row, column, quadrant, direction for X: A14L\n+1. Enter row, column, quadrant, direction for X: A14R\n"),
        "{text}"
    );
    assert!(!text.contains("second"), "second matches: {text}");
    assert!(text.contains("1 transcript to review"), "{text}");
    assert_eq!(fs::read_to_string(pin("first")).unwrap(), edited);
    assert_eq!(fs::read_to_string(pending("first")).unwrap(), first);

    // A pending file that is not what the reference prints is refused.
    fs::write(pending("first"), "not what the reference prints\n").unwrap();
    let out = update(&["--accept"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stderr(&out).contains("not taken"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(pin("first")).unwrap(), edited);

    // Proposed again and accepted, the pin is the reference's again.
    assert!(update(&[]).status.success());
    let out = update(&["--accept"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("pinned {}", pin("first").display())));
    assert_eq!(fs::read_to_string(pin("first")).unwrap(), first);

    // In step with the reference again: a stale pending file is removed.
    fs::write(pending("second"), "left from before\n").unwrap();
    let out = update(&[]);
    assert!(stdout(&out).contains("Every pinned transcript matches the reference."));
    assert!(!pending("second").exists());
}

#[test]
fn update_of_a_missing_folder_does_not_claim_every_pin_matches() {
    let work = tempfile::tempdir().unwrap();
    let out = referee_in(work.path(), &["cases", "update", "no-such-cases"]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("no-such-cases: no such folder of cases"),
        "{}",
        stderr(&out)
    );
    assert!(
        !stdout(&out).contains("Every pinned transcript matches"),
        "{}",
        stdout(&out)
    );
}
