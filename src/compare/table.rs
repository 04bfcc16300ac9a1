//! Output read as CSV (`compare: csv`): each line a row of fields, read
//! by the `csv` crate, so that how a field is quoted and how a line ends
//! do not count, and a difference is named by its row and field.
//!
//! A row is one line: a quoted field that holds a line break is read as
//! two rows on both sides (the handouts' CSV files have none). Whatever
//! a student writes reads as some fields (an unbalanced quote runs to the
//! end of its line), so bad CSV is a difference, never an error.

use super::fields::{field_options, fields};
use super::key::text_key;
use super::lines::{comparable, split_lines};
use super::Options;
use crate::text::visible::{cut, Show};

/// Where `got` first differs from `want` read as CSV, in words ("row 3,
/// field 2 (house): the reference wrote `Hufflepuff`; your program wrote
/// `Hufflepuf`"); `None` when they are the same. Rows count from 1,
/// empty lines left out; fields are named by the reference's first row
/// when it reads as a header (see [`header`]).
pub fn csv_difference(want: &[u8], got: &[u8], options: &Options) -> Option<String> {
    let options = Options {
        csv: true,
        ..*options
    };
    let (want_lines, got_lines) = (split_lines(want), split_lines(got));
    let (want_rows, _) = comparable(&want_lines, &options, &[], None);
    let (got_rows, _) = comparable(&got_lines, &options, &[], None);
    let at = (0..want_rows.len().max(got_rows.len()))
        .find(|&i| want_rows.get(i).map(|r| &r.key) != got_rows.get(i).map(|r| &r.key))?;
    let row = at + 1;
    let (want_row, got_row) = match (want_rows.get(at), got_rows.get(at)) {
        (Some(w), Some(g)) => (fields(w.line.text), fields(g.line.text)),
        (Some(w), None) => {
            return Some(format!(
                "row {row}: the reference wrote `{}`; your program wrote no row {row}",
                shown(w.line.text)
            ))
        }
        (None, Some(g)) => {
            return Some(format!(
                "row {row}: your program wrote `{}`; the reference wrote no row {row}",
                shown(g.line.text)
            ))
        }
        (None, None) => return None,
    };
    let names = want_rows.first().map(|r| header(r.line.text));
    let each = field_options(&options);
    let same = |w: &[u8], g: &[u8]| text_key(w, true, &each) == text_key(g, true, &each);
    let field =
        (0..want_row.len().max(got_row.len())).find(|&j| match (want_row.get(j), got_row.get(j)) {
            (Some(w), Some(g)) => !same(w, g),
            _ => true,
        });
    let Some(field) = field else {
        // The fields are the same apart from their numbers' tolerance.
        return Some(format!("row {row} differs from the reference's"));
    };
    let name = names
        .flatten()
        .filter(|_| at > 0)
        .and_then(|names| names.get(field).cloned())
        .map(|name| format!(" ({})", shown(&name)))
        .unwrap_or_default();
    let wrote = |side: &[Vec<u8>]| match side.get(field) {
        Some(value) => format!("wrote `{}`", shown(value)),
        None => format!("wrote {} fields", side.len()),
    };
    Some(format!(
        "row {row}, field {}{name}: the reference {}; your program {}",
        field + 1,
        wrote(&want_row),
        wrote(&got_row)
    ))
}

/// The names of the fields, when `first` (the reference's first row)
/// reads as a header: none of its fields empty or a number, no two the
/// same. Otherwise fields are named by number only.
fn header(first: &[u8]) -> Option<Vec<Vec<u8>>> {
    let names = fields(first);
    let plain = |name: &Vec<u8>| {
        let text = String::from_utf8_lossy(name);
        !text.trim().is_empty() && text.trim().parse::<f64>().is_err()
    };
    let distinct = names
        .iter()
        .enumerate()
        .all(|(i, name)| !names[..i].contains(name));
    (names.iter().all(plain) && distinct).then_some(names)
}

/// A field or a row shown safely, invisible characters marked, cut to
/// a line's room.
fn shown(bytes: &[u8]) -> String {
    cut(bytes, None, Show::Marked).0
}

#[cfg(test)]
mod tests {
    use super::super::same_output;
    use super::*;

    fn csv() -> Options {
        Options::default().relax("csv").unwrap()
    }

    const REFERENCE: &[u8] = b"first,last,house\nHannah,Abbott,Hufflepuff\nKaty,Bell,Gryffindor\n";

    #[test]
    fn quoting_and_line_endings_do_not_count() {
        let quoted =
            b"\"first\",\"last\",\"house\"\r\n\"Hannah\",\"Abbott\",\"Hufflepuff\"\r\n\"Katy\",\"Bell\",\"Gryffindor\"\r\n\r\n";
        assert!(same_output(REFERENCE, quoted, &csv(), &[]));
        assert!(same_output(
            REFERENCE,
            &REFERENCE[..REFERENCE.len() - 1],
            &csv(),
            &[]
        ));
        assert_eq!(csv_difference(REFERENCE, quoted, &csv()), None);
        // Without `csv`, the quotes count.
        assert!(!same_output(REFERENCE, quoted, &Options::default(), &[]));
    }

    #[test]
    fn a_changed_field_is_named_by_row_and_header() {
        let changed = b"first,last,house\nHannah,Abbott,Hufflepuf\nKaty,Bell,Gryffindor\n";
        assert!(!same_output(REFERENCE, changed, &csv(), &[]));
        assert_eq!(
            csv_difference(REFERENCE, changed, &csv()).unwrap(),
            "row 2, field 3 (house): the reference wrote `Hufflepuff`; your program wrote \
             `Hufflepuf`"
        );
        // White space around a field counts unless an option says not.
        let spaced = b"first,last,house\n Hannah,Abbott,Hufflepuff\nKaty,Bell,Gryffindor\n";
        assert_eq!(
            csv_difference(REFERENCE, spaced, &csv()).unwrap(),
            "row 2, field 1 (first): the reference wrote `Hannah`; your program wrote ` Hannah`"
        );
        let relaxed = csv().relax("whitespace-runs").unwrap();
        assert!(same_output(REFERENCE, spaced, &relaxed, &[]));
    }

    #[test]
    fn column_order_and_missing_rows_count() {
        let swapped = b"last,first,house\nAbbott,Hannah,Hufflepuff\nBell,Katy,Gryffindor\n";
        assert_eq!(
            csv_difference(REFERENCE, swapped, &csv()).unwrap(),
            "row 1, field 1: the reference wrote `first`; your program wrote `last`"
        );
        let short = b"first,last,house\nHannah,Abbott,Hufflepuff\n";
        assert_eq!(
            csv_difference(REFERENCE, short, &csv()).unwrap(),
            "row 3: the reference wrote `Katy,Bell,Gryffindor`; your program wrote no row 3"
        );
        let fewer = b"first,last,house\nHannah,Abbott\nKaty,Bell,Gryffindor\n";
        assert_eq!(
            csv_difference(REFERENCE, fewer, &csv()).unwrap(),
            "row 2, field 3 (house): the reference wrote `Hufflepuff`; your program wrote 2 \
             fields"
        );
    }

    #[test]
    fn a_first_row_of_data_names_no_fields() {
        let want = b"Hannah,Abbott,1\nKaty,Bell,2\n";
        let got = b"Hannah,Abbott,1\nKaty,Bell,3\n";
        assert_eq!(
            csv_difference(want, got, &csv()).unwrap(),
            "row 2, field 3: the reference wrote `2`; your program wrote `3`"
        );
    }

    #[test]
    fn bad_csv_is_a_difference_never_an_error() {
        let bad: [&[u8]; 4] = [
            b"first,last,house\n\"Hannah,Abbott,Hufflepuff\nKaty,Bell,Gryffindor\n",
            b"first,last,house\n\xff\xfe\x00\x1b[2J,\"\"\",\n",
            b"\"\"\"\"\"\n\r\r\r\"\n",
            &[b'"'; 100_000],
        ];
        for got in bad {
            assert!(!same_output(REFERENCE, got, &csv(), &[]));
            let said = csv_difference(REFERENCE, got, &csv()).unwrap();
            assert!(!said.contains('\x1b'), "{said}");
            assert!(said.chars().count() < 700, "{said}");
        }
        let huge = [b"first,last,house\n".as_slice(), &[b'x'; 1_000_000]].concat();
        let said = csv_difference(REFERENCE, &huge, &csv()).unwrap();
        assert!(said.contains("not shown"), "{said}");
    }
}
