//! `referee play`: the command line around the reference games.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn referee(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("referee starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    // A game may stop before reading everything: a closed pipe is fine.
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().expect("referee finishes")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_lists_every_game_with_a_line_each() {
    for args in [&["--help"][..], &["play", "--help"]] {
        let out = referee(args, b"");
        assert!(out.status.success());
        let help = text(&out.stdout);
        for (game, words) in [
            ("connect4", "APS105"),
            ("connect4-bomb", "CSE 101"),
            ("pentago", "Pentago"),
        ] {
            assert!(
                help.lines().any(|l| l.contains(game) && l.contains(words)),
                "`referee {}` does not describe {game}:\n{help}",
                args.join(" ")
            );
        }
    }
}

#[test]
fn an_unknown_game_is_refused_with_the_known_ones() {
    let out = referee(&["play", "chess"], b"");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("chess"), "{err}");
    for game in ["connect4", "connect4-bomb", "pentago"] {
        assert!(err.contains(game), "{err}");
    }
}

/// SPEC.md leaves end of input and non-numeric input unspecified; the
/// reference must stop quietly (exit 0) instead of looping or panicking.
#[test]
fn unspecified_input_stops_quietly() {
    let cases: [(&str, &[u8], &str); 7] = [
        ("connect4", b"", "(0-5): "),
        (
            "connect4",
            b"abc def\n1.5\n",
            "Red, please enter a valid column number (0-5): ",
        ),
        ("connect4-bomb", b"four\n", "Must be >= 4: "),
        ("connect4-bomb", b"4\n4\n2.0\n", "(1-4) "),
        ("connect4-bomb", b"4\n4\n1\n", "(y) "),
        ("pentago", b"a1", "for X: "),
        ("pentago", b"\xff\xfe\x00 q\n", "for X: "),
    ];
    for (game, input, ending) in cases {
        let out = referee(&["play", game], input);
        assert!(out.status.success(), "{game} {input:?}: {out:?}");
        assert!(
            out.stderr.is_empty(),
            "{game} {input:?}: {}",
            text(&out.stderr)
        );
        let stdout = text(&out.stdout);
        assert!(
            stdout.ends_with(ending),
            "{game} {input:?} ended with: {stdout}"
        );
    }
}

#[test]
fn a_reader_that_goes_away_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["play", "pentago"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("referee starts");
    // Close the reading end at once, then feed moves.
    drop(child.stdout.take());
    let mut input = child.stdin.take().expect("stdin is piped");
    let _ = input.write_all(b"c31r\nx\n");
    drop(input);
    let out = child.wait_with_output().expect("referee finishes");
    assert!(out.status.success(), "{out:?}");
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}
