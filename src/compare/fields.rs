//! A line read as a row of CSV fields (`compare: csv`), by the `csv`
//! crate, and what a row is compared by: its fields, each normalised as
//! text, so that quoting and line endings do not count.

use super::key::text_key;
use super::Options;

/// The fields of one line, unquoted; none for an empty line.
pub(super) fn fields(line: &[u8]) -> Vec<Vec<u8>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line);
    let mut fields = Vec::new();
    let mut record = csv::ByteRecord::new();
    // A lone carriage return inside the line ends a record too: its
    // records are read as one row. Reading bytes from memory cannot fail;
    // if it did, the rest of the line would be left out on this side only,
    // which differs.
    while let Ok(true) = reader.read_byte_record(&mut record) {
        fields.extend(record.iter().map(<[u8]>::to_vec));
    }
    fields
}

/// What a line is compared by as a row: its fields, each normalised
/// under the other `options`, written back with the fewest quotes and no
/// line ending; empty for an empty line.
pub(super) fn row_key(line: &[u8], options: &Options) -> Vec<u8> {
    let each = field_options(options);
    let fields: Vec<Vec<u8>> = fields(line)
        .iter()
        .map(|field| text_key(field, true, &each).text)
        .collect();
    if fields.is_empty() {
        return Vec::new();
    }
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing to memory cannot fail; a row that did would be empty here
    // and differ from the reference's.
    let _ = writer.write_record(&fields);
    let mut text = writer.into_inner().unwrap_or_default();
    text.pop();
    text
}

/// How each field is compared: as the options say, but not as CSV, and
/// with numbers left to the whole row's key.
pub(super) fn field_options(options: &Options) -> Options {
    Options {
        csv: false,
        numbers: None,
        prompts: false,
        ..*options
    }
}
