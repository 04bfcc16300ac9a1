//! Numbers in output, compared within a tolerance (`compare: [{numbers:
//! {absolute: 0.01}}]`), for labs that print floating-point results.
//!
//! **What a number is.** An optional sign, digits with an optional
//! decimal part, and an optional exponent: `42`, `-3.5`, `+7`, `.5`,
//! `6.02e23`, `1E-6`. A point belongs to a number only with a digit after
//! it: in `37.` the point is text, as at the end of a sentence (`It is
//! 37.` then compares with `It is 37.0.`). A number stands on its own: it
//! is not part of a word or a version (`x2`, `2nd`, `A51R`, `0x1F`,
//! `1.2.3` hold no number), and a sign is its sign only where it does not
//! follow a letter, a digit or `_` (`-5` and `(-5)` are negative, `3-5` is
//! 3, `-` and 5). A comma is text: `1,000` is the numbers 1 and 000.
//!
//! **What equal means.** Two lines are equal when, under the case's other
//! options, they are the same once each number is taken out, they hold as
//! many numbers, and each number is within the tolerance of the one in
//! its place.

use std::ops::Range;

/// How far apart two numbers may be and still count as the same: at most
/// `absolute` apart, or at most `relative` times the larger of the two in
/// size; with both, within either. The boundary is within (up to the
/// rounding of binary floating point).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tolerance {
    /// The most two numbers may differ by.
    pub absolute: Option<f64>,
    /// The most they may differ by, as a share of the larger.
    pub relative: Option<f64>,
}

/// Starts the name a tolerance goes by in results.
const PREFIX: &str = "numbers-within-";
/// Before the relative tolerance in a name.
const RELATIVE: &str = "relative-";
/// Between the absolute and the relative tolerance in a name.
const OR: &str = "-or-";

impl Tolerance {
    /// Whether `a` and `b` are within the tolerance of each other.
    pub fn allows(&self, a: f64, b: f64) -> bool {
        if a == b {
            return true;
        }
        let apart = (a - b).abs();
        let larger = a.abs().max(b.abs());
        // Rounding in the subtraction: 5.15 - 5.14 is 0.010000000000000675.
        let slack = 4.0 * f64::EPSILON * larger;
        let within = |limit: f64| apart <= limit + slack;
        self.absolute.is_some_and(within) || self.relative.is_some_and(|r| within(r * larger))
    }

    /// The name results give it: `numbers-within-0.01`,
    /// `numbers-within-relative-1e-6`, or both joined by `-or-`.
    pub fn name(&self) -> String {
        let absolute = self.absolute.map(shortest);
        let relative = self.relative.map(|r| format!("{RELATIVE}{}", shortest(r)));
        let parts: Vec<String> = absolute.into_iter().chain(relative).collect();
        format!("{PREFIX}{}", parts.join(OR))
    }

    /// The tolerance a [`Tolerance::name`] names; `None` when `name` is
    /// none.
    pub fn from_name(name: &str) -> Option<Tolerance> {
        let rest = name.strip_prefix(PREFIX)?;
        let value = |text: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
        };
        let (absolute, relative) = match rest.strip_prefix(RELATIVE) {
            Some(relative) => (None, Some(value(relative)?)),
            None => match rest.split_once(&format!("{OR}{RELATIVE}")) {
                Some((absolute, relative)) => (Some(value(absolute)?), Some(value(relative)?)),
                None => (Some(value(rest)?), None),
            },
        };
        Some(Tolerance { absolute, relative })
    }

    /// The tolerance for reports: "numbers within 0.01", "numbers within
    /// 1e-6 of the larger", "numbers within 0.01 or 1e-6 of the larger".
    pub fn describe(&self) -> String {
        let absolute = self.absolute.map(shortest);
        let relative = self
            .relative
            .map(|r| format!("{} of the larger", shortest(r)));
        let parts: Vec<String> = absolute.into_iter().chain(relative).collect();
        format!("numbers within {}", parts.join(" or "))
    }

    /// How far beyond it two numbers are, for a sentence: "by more than
    /// 0.01", "by more than 1e-6 of the larger".
    pub fn words(&self) -> String {
        let absolute = self.absolute.map(shortest);
        let relative = self
            .relative
            .map(|r| format!("{} of the larger", shortest(r)));
        let parts: Vec<String> = absolute.into_iter().chain(relative).collect();
        format!("by more than {}", parts.join(" and more than "))
    }
}

/// A value written as briefly as it reads back exactly: `0.01`, `1e-6`.
fn shortest(value: f64) -> String {
    let plain = value.to_string();
    let exponent = format!("{value:e}");
    if plain.len() <= exponent.len() + 2 {
        plain
    } else {
        exponent
    }
}

/// A number found in a line.
#[derive(Clone, Debug, PartialEq)]
pub struct Number {
    /// Where it is in the line's text.
    pub range: Range<usize>,
    /// Its value.
    pub value: f64,
}

/// The numbers in `text`, in order (see the module's documentation).
pub fn numbers_in(text: &[u8]) -> Vec<Number> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let starts = i == 0 || !(is_word(text[i - 1]) || text[i - 1] == b'.');
        let end = if starts { number_at(text, i) } else { None };
        match end {
            Some(end) => {
                let value = std::str::from_utf8(&text[i..end])
                    .ok()
                    .and_then(|s| s.parse::<f64>().ok());
                if let Some(value) = value {
                    found.push(Number {
                        range: i..end,
                        value,
                    });
                }
                i = end;
            }
            None => i += 1,
        }
    }
    found
}

/// Letters, digits and `_`: what a word is made of. Bytes beyond ASCII
/// are not (`37.5°C` holds 37.5).
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Where the number starting at `start` ends, if one starts there and
/// stands on its own.
fn number_at(text: &[u8], start: usize) -> Option<usize> {
    let digits = |from: usize| {
        text[from..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(text.len(), |n| from + n)
    };
    let mut i = start;
    if matches!(text[i], b'-' | b'+') {
        i += 1;
    }
    let whole_end = digits(i);
    let mut end = whole_end;
    let point_then_digit =
        |at: usize| text.get(at) == Some(&b'.') && text.get(at + 1).is_some_and(u8::is_ascii_digit);
    if point_then_digit(end) {
        end = digits(end + 1);
    } else if whole_end == i {
        return None;
    }
    if matches!(text.get(end), Some(b'e' | b'E')) {
        let mut at = end + 1;
        if matches!(text.get(at), Some(b'-' | b'+')) {
            at += 1;
        }
        let exponent_end = digits(at);
        if exponent_end > at {
            end = exponent_end;
        }
    }
    let alone = match text.get(end) {
        None => true,
        Some(&b) => !is_word(b) && !point_then_digit(end),
    };
    alone.then_some(end)
}

/// What a line is compared by: its text after the case's options, and,
/// when numbers have a tolerance, the numbers in it.
#[derive(Clone, Debug)]
pub struct Key {
    /// The text, normalised as the options say.
    pub text: Vec<u8>,
    /// The numbers in `text`, when a tolerance applies; empty otherwise.
    pub numbers: Vec<Number>,
    /// The tolerance, when numbers have one.
    pub tolerance: Option<Tolerance>,
}

impl Key {
    /// A key of `text`, its numbers found when `tolerance` is given.
    pub fn new(text: Vec<u8>, tolerance: Option<Tolerance>) -> Key {
        let numbers = if tolerance.is_some() {
            numbers_in(&text)
        } else {
            Vec::new()
        };
        Key {
            text,
            numbers,
            tolerance,
        }
    }

    /// The first pair of numbers beyond the tolerance, as printed, when
    /// everything else in the two lines is the same: what makes them
    /// differ.
    pub fn numbers_apart<'a>(&'a self, other: &'a Key) -> Option<(&'a [u8], &'a [u8])> {
        let tolerance = self.tolerance?;
        if !self.same_text_around(other) {
            return None;
        }
        self.numbers
            .iter()
            .zip(&other.numbers)
            .find(|(a, b)| !tolerance.allows(a.value, b.value))
            .map(|(a, b)| (&self.text[a.range.clone()], &other.text[b.range.clone()]))
    }

    /// Whether the text outside the numbers is the same, numbers for
    /// numbers.
    fn same_text_around(&self, other: &Key) -> bool {
        if self.numbers.len() != other.numbers.len() {
            return false;
        }
        let (mut a, mut b) = (0, 0);
        for (x, y) in self.numbers.iter().zip(&other.numbers) {
            if self.text[a..x.range.start] != other.text[b..y.range.start] {
                return false;
            }
            a = x.range.end;
            b = y.range.end;
        }
        self.text[a..] == other.text[b..]
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        match self.tolerance.or(other.tolerance) {
            None => self.text == other.text,
            Some(tolerance) => {
                self.same_text_around(other)
                    && self
                        .numbers
                        .iter()
                        .zip(&other.numbers)
                        .all(|(a, b)| tolerance.allows(a.value, b.value))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        numbers_in(text.as_bytes())
            .into_iter()
            .map(|n| &text[n.range])
            .collect()
    }

    #[test]
    fn a_number_has_a_sign_decimals_and_an_exponent() {
        assert_eq!(
            found("42 -3.5 +7 .5 6.02e23 1E-6 -.25"),
            ["42", "-3.5", "+7", ".5", "6.02e23", "1E-6", "-.25"]
        );
        assert_eq!(found("(-5) x=-2,y=+3"), ["-5", "-2", "+3"]);
        assert_eq!(numbers_in(b"-.25")[0].value, -0.25);
        assert_eq!(numbers_in(b"6.02e23")[0].value, 6.02e23);
    }

    #[test]
    fn a_point_with_no_digit_after_it_is_text() {
        assert_eq!(found("It is 37."), ["37"]);
        assert_eq!(found("It is 37.5."), ["37.5"]);
        assert_eq!(found("37.. and 2.e5"), ["37", "2"]);
    }

    #[test]
    fn a_number_inside_a_word_is_none() {
        assert!(found("x2 2nd A51R 0x1F v1.2 1.2.3 abc123 3.14abc 1e5x").is_empty());
        assert_eq!(
            found("1e or 2e+"),
            Vec::<&str>::new(),
            "an exponent needs digits"
        );
        assert_eq!(found("snake_3 3_snake"), Vec::<&str>::new());
    }

    #[test]
    fn a_sign_after_a_digit_or_a_letter_is_text() {
        assert_eq!(found("3-5"), ["3", "5"]);
        assert_eq!(found("x-2"), ["2"]);
        assert_eq!(found("5--3"), ["5", "-3"]);
        assert_eq!(found("1,000"), ["1", "000"]);
        assert_eq!(found("37.5°C, 98.6°F"), ["37.5", "98.6"]);
    }

    #[test]
    fn tolerances_include_their_boundary() {
        let absolute = Tolerance {
            absolute: Some(0.01),
            relative: None,
        };
        assert!(absolute.allows(1.23, 1.2316));
        assert!(absolute.allows(1.23, 1.24), "exactly 0.01 apart");
        assert!(absolute.allows(-5.15, -5.14), "exactly 0.01 apart");
        assert!(!absolute.allows(1.23, 1.2401));
        assert!(absolute.allows(1e6, 1e6 + 0.01));
        assert!(!absolute.allows(1e6, 1e6 + 0.0101));
        assert!(!absolute.allows(0.005, -0.006), "the sign counts");
        let relative = Tolerance {
            absolute: None,
            relative: Some(1e-6),
        };
        assert!(relative.allows(1_000_000.0, 1_000_001.0));
        assert!(!relative.allows(1_000_000.0, 1_000_002.0));
        assert!(!relative.allows(0.0, 1e-9), "nothing is relatively near 0");
        let either = Tolerance {
            absolute: Some(1e-9),
            relative: Some(1e-6),
        };
        assert!(either.allows(0.0, 1e-9));
        assert!(either.allows(1_000_000.0, 1_000_001.0));
        let exact = Tolerance {
            absolute: Some(0.0),
            relative: None,
        };
        assert!(exact.allows(5.0, 5.0) && !exact.allows(5.0, 5.000001));
        assert!(exact.allows(f64::INFINITY, f64::INFINITY));
    }

    #[test]
    fn names_read_back_as_the_same_tolerance() {
        for (absolute, relative, name) in [
            (Some(0.01), None, "numbers-within-0.01"),
            (None, Some(1e-6), "numbers-within-relative-1e-6"),
            (
                Some(0.5),
                Some(1e-4),
                "numbers-within-0.5-or-relative-0.0001",
            ),
            (Some(100.0), None, "numbers-within-100"),
            (Some(0.0), None, "numbers-within-0"),
        ] {
            let tolerance = Tolerance { absolute, relative };
            assert_eq!(tolerance.name(), name);
            assert_eq!(Tolerance::from_name(name), Some(tolerance));
        }
        assert_eq!(Tolerance::from_name("numbers-within-x"), None);
        assert_eq!(Tolerance::from_name("numbers-within--1"), None);
        assert_eq!(Tolerance::from_name("case"), None);
        let both = Tolerance::from_name("numbers-within-0.5-or-relative-0.0001").unwrap();
        assert_eq!(
            both.describe(),
            "numbers within 0.5 or 0.0001 of the larger"
        );
        assert_eq!(
            both.words(),
            "by more than 0.5 and more than 0.0001 of the larger"
        );
    }

    #[test]
    fn keys_with_a_tolerance_compare_their_numbers_by_value() {
        let t = Some(Tolerance {
            absolute: Some(0.01),
            relative: None,
        });
        let key = |s: &str| Key::new(s.as_bytes().to_vec(), t);
        assert_eq!(key("pi is 3.14"), key("pi is 3.1416"));
        assert_ne!(key("pi is 3.14"), key("pi was 3.1416"));
        assert_ne!(key("pi is 3.14"), key("pi is 3.2"));
        assert_ne!(key("1 2"), key("1 2 3"));
        assert_eq!(key("It is 37."), key("It is 37.0."));
        assert_eq!(
            key("a 1 b 3.2").numbers_apart(&key("a 1 b 3.3")),
            Some((&b"3.2"[..], &b"3.3"[..]))
        );
        assert_eq!(key("a 1").numbers_apart(&key("b 9")), None);
        let exact = |s: &str| Key::new(s.as_bytes().to_vec(), None);
        assert_ne!(exact("3.14"), exact("3.140"));
    }
}
