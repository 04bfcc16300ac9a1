//! Deciding whether two outputs are the same, under a case's comparison
//! options and its suite's ignored regions. The one place output is
//! compared; [`crate::explain`] shows the differences this finds.

mod fields;
mod key;
mod lines;
pub mod numbers;
mod options;
mod rows;
mod table;
pub mod turns;

pub use lines::{comparable, key, split_lines, Keyed, Line};
pub use numbers::{Key, Tolerance};
pub use options::{Error, Options, Region};
pub use rows::{
    first_difference, focus, line_diff, side_by_side, terminal_diff, LineDiff, Row, RowKind,
};
pub use table::csv_difference;
pub use turns::{reads, Part, Read, Turns};

use crate::transcript::TermLine;

/// Whether `actual` prints the same as `expected` under `options`, not
/// counting `regions`.
pub(crate) fn same_output(
    expected: &[u8],
    actual: &[u8],
    options: &Options,
    regions: &[Region],
) -> bool {
    let expected_lines = split_lines(expected);
    let actual_lines = split_lines(actual);
    let (expected_keys, spans) = comparable(&expected_lines, options, regions, None);
    let (actual_keys, _) = comparable(&actual_lines, options, regions, Some(&spans));
    expected_keys.len() == actual_keys.len()
        && expected_keys
            .iter()
            .zip(&actual_keys)
            .all(|(e, a)| e.key == a.key)
}

/// Whether the terminal `actual` prints the same as `expected` turn by
/// turn, prompts left out (`prompts`, see [`turns`]), under the other
/// `options`, not counting `regions`.
pub(crate) fn same_terminal(
    expected: &[TermLine],
    actual: &[TermLine],
    options: &Options,
    regions: &[Region],
) -> bool {
    let want_texts: Vec<Vec<u8>> = expected.iter().map(TermLine::text).collect();
    let got_texts: Vec<Vec<u8>> = actual.iter().map(TermLine::text).collect();
    let want = rows::as_lines(&want_texts, expected);
    let got = rows::as_lines(&got_texts, actual);
    let (want_turns, got_turns) = turns::turns(
        &want,
        &reads(expected),
        &got,
        &reads(actual),
        options,
        regions,
    );
    turns::Paired::new(&want, &got, options, regions, (&want_turns, &got_turns)).same()
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::bytes::Regex;
    use similar::DiffTag;

    fn opts(names: &[&str]) -> Options {
        names
            .iter()
            .fold(Options::default(), |o, n| o.relax(n).unwrap())
    }

    #[test]
    fn exact_sees_every_byte() {
        let o = Options::default();
        assert!(same_output(b"a\nb\n", b"a\nb\n", &o, &[]));
        assert!(!same_output(b"a\nb\n", b"a \nb\n", &o, &[]));
        assert!(
            !same_output(b"a\nb\n", b"a\nb", &o, &[]),
            "missing final newline"
        );
        assert!(!same_output(b"a\nb\n", b"a\r\nb\n", &o, &[]));
        assert!(!same_output(b"a\nb\n", b"a\n\nb\n", &o, &[]));
        assert!(!same_output(b"a\n", b"A\n", &o, &[]));
    }

    #[test]
    fn each_relaxation_ignores_only_its_difference() {
        let t = opts(&["trailing-whitespace"]);
        assert!(same_output(b"a\nb\n", b"a \t\r\nb", &t, &[]));
        assert!(!same_output(b"a b\n", b"a  b\n", &t, &[]));
        assert!(!same_output(b"a\n", b" a\n", &t, &[]));
        let w = opts(&["whitespace-runs"]);
        assert!(same_output(b"A:  . .  :A\n", b"A: .\t. :A   \n", &w, &[]));
        assert!(same_output(b"  ---\n", b"---\n", &w, &[]));
        assert!(!same_output(b"ab\n", b"a b\n", &w, &[]));
        let b = opts(&["blank-lines"]);
        assert!(same_output(b"a\n\nb\n", b"a\nb\n\n\n", &b, &[]));
        assert!(
            same_output(b"a\nb\n", b"a\n \t\nb\n", &b, &[]),
            "white space only is blank"
        );
        assert!(!same_output(b"a\nb\n", b"a\n.\nb\n", &b, &[]));
        let c = opts(&["case"]);
        assert!(same_output(b"X has won\n", b"x HAS won\n", &c, &[]));
        // As `diff -w`: white space anywhere, none or some; a line of it
        // is still a line.
        let a = opts(&["all-whitespace"]);
        assert!(same_output(
            b"Ciphertext:b\n",
            b" Ciphertext: \tb  \r\n",
            &a,
            &[]
        ));
        assert!(same_output(b"a b\n", b"ab", &a, &[]));
        assert!(same_output(b"a\n\nb\n", b"a\n  \nb\n", &a, &[]));
        assert!(!same_output(b"a\nb\n", b"a\n\nb\n", &a, &[]));
        assert!(!same_output(b"Ciphertext:b\n", b"ciphertext: b\n", &a, &[]));
        let ac = opts(&["all-whitespace", "case"]);
        assert!(same_output(b"Ciphertext:b\n", b"ciphertext: b\n", &ac, &[]));
    }

    #[test]
    fn options_parse_by_name() {
        let unknown = Options::default().relax("nope").unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "unknown comparison option `nope`; the options are: exact, trailing-whitespace, \
             whitespace-runs, all-whitespace, blank-lines, case, prompts, csv, and {numbers: \
             {absolute: 0.01}} (or `relative:`)"
        );
        assert_eq!(unknown.fault(), crate::fault::Fault::Suite);
        assert_eq!(
            opts(&["case", "blank-lines"]).names(),
            ["blank-lines", "case"]
        );
        assert_eq!(Options::default().describe(), "exact");
    }

    #[test]
    fn numbers_within_the_tolerance_are_the_same() {
        let within = opts(&["numbers-within-0.01"]);
        assert!(same_output(b"pi = 3.1416\n", b"pi = 3.14\n", &within, &[]));
        assert!(same_output(
            b"-2.5e-3 and 7\n",
            b"-0.0025 and 7.000\n",
            &within,
            &[]
        ));
        assert!(!same_output(b"pi = 3.1416\n", b"pi = 3.13\n", &within, &[]));
        assert!(!same_output(b"pi = 3.14\n", b"pi is 3.14\n", &within, &[]));
        assert!(
            !same_output(b"x2 = 1\n", b"x3 = 1\n", &within, &[]),
            "not in a word"
        );
        assert!(
            !same_output(b"-1\n", b"1\n", &within, &[]),
            "the sign counts"
        );
        // Everything around the numbers compares as the other options say.
        assert!(!same_output(
            b"pi =  3.1416\n",
            b"pi = 3.14\n",
            &within,
            &[]
        ));
        let spaced = opts(&["numbers-within-0.01", "whitespace-runs"]);
        assert!(same_output(
            b"pi =  3.1416\n",
            b"pi = 3.14 \n",
            &spaced,
            &[]
        ));
        assert!(!same_output(b"pi = 3.1416\n", b"pi=3.14\n", &spaced, &[]));
        let relative = opts(&["numbers-within-relative-1e-6"]);
        assert!(same_output(
            b"6.02214e23\n",
            b"602214000000000000000000\n",
            &relative,
            &[]
        ));
        assert!(!same_output(
            b"6.02214e23\n",
            b"6.0222e23\n",
            &relative,
            &[]
        ));
    }

    #[test]
    fn a_numbers_diff_pairs_lines_within_the_tolerance() {
        let within = opts(&["numbers-within-0.01"]);
        let want = split_lines(b"F 98.6\nC 37.0\nK 310.15\n");
        let got = split_lines(b"F 98.60\nC 37.5\nK 310.149\n");
        let diff = line_diff(&want, &got, &within, &[], None);
        let tags: Vec<DiffTag> = diff.ops.iter().map(|op| op.tag()).collect();
        assert_eq!(tags, [DiffTag::Equal, DiffTag::Replace, DiffTag::Equal]);
    }

    #[test]
    fn every_name_reads_back_as_the_same_options() {
        let all = opts(&[
            "trailing-whitespace",
            "whitespace-runs",
            "all-whitespace",
            "blank-lines",
            "case",
            "prompts",
            "csv",
        ])
        .within(Tolerance {
            absolute: Some(0.5),
            relative: Some(1e-9),
        })
        .unwrap();
        let names = all.names();
        let back = names
            .iter()
            .fold(Options::default(), |o, n| o.relax(n).unwrap());
        assert_eq!(back, all);
        assert_eq!(
            Options::default().relax("numbers").unwrap_err(),
            Error::NoTolerance
        );
        assert_eq!(
            opts(&["numbers-within-1"]).relax("numbers-within-2"),
            Err(Error::TwoTolerances)
        );
        assert_eq!(opts(&["prompts"]).describe(), "ignoring prompts");
        assert_eq!(
            opts(&["case", "numbers-within-0.01"]).describe(),
            "ignoring case; numbers within 0.01"
        );
        assert_eq!(
            opts(&["numbers-within-0.01"]).describe(),
            "numbers within 0.01"
        );
    }

    fn header_region() -> Region {
        Region {
            name: "identifying header".into(),
            from: None,
            until: Regex::new("^Play the game").unwrap(),
        }
    }

    #[test]
    fn a_region_of_any_length_is_skipped() {
        let expected = b"Author: Dale\nTA: Karla\n\nPlay the game\nboard\n";
        let actual = b"Name: Ann Lee\n\nPlay the game\nboard\n";
        assert!(same_output(
            expected,
            actual,
            &Options::default(),
            &[header_region()]
        ));
        let wrong = b"Name: Ann Lee\n\nPlay the game\nbored\n";
        assert!(!same_output(
            expected,
            wrong,
            &Options::default(),
            &[header_region()]
        ));
    }

    #[test]
    fn a_region_without_its_end_covers_as_many_lines_as_expected() {
        let expected = b"Author: Dale\nTA: Karla\nPlay the game\nboard\n";
        // The student changed the line after the header: two lines are
        // skipped, the rest compared.
        let actual = b"Me\nMy TA\nLet's play\nboard\n";
        assert!(!same_output(
            expected,
            actual,
            &Options::default(),
            &[header_region()]
        ));
        let (keys, _) = {
            let e = split_lines(expected);
            let (_, spans) = comparable(&e, &Options::default(), &[header_region()], None);
            let a = split_lines(actual);
            let (k, s) = comparable(&a, &Options::default(), &[header_region()], Some(&spans));
            (k.iter().map(|l| l.key.text.clone()).collect::<Vec<_>>(), s)
        };
        assert_eq!(keys, [b"Let's play".to_vec(), b"board".to_vec()]);
    }
}
