//! What a comparison leaves out: the differences a case ignores, and the
//! regions of output a suite never grades.

use regex::bytes::Regex;

use super::numbers::Tolerance;

/// Why a case file's `compare:` cannot be used: the suite's to fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// `exact` listed with other options.
    #[error("`exact` cannot be combined with other options")]
    Exact,
    /// A name that is no option.
    #[error(
        "unknown comparison option `{0}`; the options are: exact, {names}, and \
         {{numbers: {{absolute: 0.01}}}} (or `relative:`)",
        names = Options::NAMES.join(", ")
    )]
    Unknown(String),
    /// `numbers` without its tolerance.
    #[error(
        "`numbers` needs a tolerance: write it as a map, {{numbers: {{absolute: 0.01}}}} or \
         {{numbers: {{relative: 1e-6}}}}"
    )]
    NoTolerance,
    /// A tolerance that is not a number, zero or more.
    #[error("a tolerance is a number, zero or more (such as 0.01 or 1e-6), not `{0}`")]
    Tolerance(String),
    /// `numbers` given twice.
    #[error("`numbers` is given twice: keep one, with both `absolute` and `relative` if need be")]
    TwoTolerances,
}

impl Error {
    /// Whose fault it is: a case file's.
    pub fn fault(&self) -> crate::fault::Fault {
        crate::fault::Fault::Suite
    }
}

/// Which differences do not count. The default is exact comparison.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Options {
    /// Spaces, tabs and carriage returns at the end of a line, and a
    /// missing newline at the end of the output.
    pub trailing_whitespace: bool,
    /// How much white space: every run of spaces and tabs counts as one
    /// space, and white space at either end of a line does not count.
    pub whitespace_runs: bool,
    /// Lines holding nothing but white space.
    pub blank_lines: bool,
    /// White space anywhere in a line, as `diff -w`: `Ciphertext:b`
    /// equals `Ciphertext: b` (a line of white space is still a line;
    /// `blank_lines` leaves those out too).
    pub all_whitespace: bool,
    /// Upper and lower case.
    pub case: bool,
    /// The prompt of each read: the output is compared turn by turn,
    /// each without its prompt (see [`super::turns`]).
    pub prompts: bool,
    /// How far apart numbers may be (see [`super::numbers`]); `None`
    /// compares them as text.
    pub numbers: Option<Tolerance>,
    /// How CSV is written: each line is read as a row of CSV fields, and
    /// the fields are compared, not how they are quoted or how the line
    /// ends (see [`super::lines::key`]); empty lines and a missing final
    /// newline do not count. The other options apply to each field.
    pub csv: bool,
}

impl Options {
    /// The names a case file uses for the differences that are only on
    /// or off.
    pub const NAMES: [&'static str; 7] = [
        "trailing-whitespace",
        "whitespace-runs",
        "all-whitespace",
        "blank-lines",
        "case",
        "prompts",
        "csv",
    ];

    /// These options with one more difference ignored, by its case-file
    /// name, or by the name results give a tolerance
    /// (`numbers-within-0.01`, see [`Tolerance::name`]).
    pub fn relax(mut self, name: &str) -> Result<Options, Error> {
        match name {
            "trailing-whitespace" => self.trailing_whitespace = true,
            "whitespace-runs" => self.whitespace_runs = true,
            "blank-lines" => self.blank_lines = true,
            "case" => self.case = true,
            "prompts" => self.prompts = true,
            "all-whitespace" => self.all_whitespace = true,
            "csv" => self.csv = true,
            "exact" => return Err(Error::Exact),
            "numbers" => return Err(Error::NoTolerance),
            other => match Tolerance::from_name(other) {
                Some(tolerance) => return self.within(tolerance),
                None => return Err(Error::Unknown(other.to_string())),
            },
        }
        Ok(self)
    }

    /// These options with numbers compared within `tolerance`.
    pub fn within(mut self, tolerance: Tolerance) -> Result<Options, Error> {
        if self.numbers.is_some() {
            return Err(Error::TwoTolerances);
        }
        self.numbers = Some(tolerance);
        Ok(self)
    }

    /// Exact comparison relaxed by each of `names` ([`Options::names`], as
    /// reports keep them), passing over a name this referee does not know.
    pub fn from_names(names: &[String]) -> Options {
        names.iter().fold(Options::default(), |options, name| {
            options.relax(name).unwrap_or(options)
        })
    }

    /// The names of the differences ignored, as [`Options::relax`] reads
    /// them back; empty when exact.
    pub fn names(&self) -> Vec<String> {
        let on = [
            self.trailing_whitespace,
            self.whitespace_runs,
            self.all_whitespace,
            self.blank_lines,
            self.case,
            self.prompts,
            self.csv,
        ];
        Self::NAMES
            .iter()
            .zip(on)
            .filter(|&(_, on)| on)
            .map(|(name, _)| name.to_string())
            .chain(self.numbers.map(|t| t.name()))
            .collect()
    }

    /// A short description for reports: `exact`, the list of what is
    /// ignored, and the tolerance of numbers ("ignoring prompts; numbers
    /// within 0.01").
    pub fn describe(&self) -> String {
        let mut names = self.names();
        if self.numbers.is_some() {
            names.pop();
        }
        names.retain(|name| name != "csv");
        let csv = self.csv.then(|| "fields compared as CSV".to_string());
        let ignoring = (!names.is_empty()).then(|| format!("ignoring {}", names.join(", ")));
        let numbers = self.numbers.map(|t| t.describe());
        let parts: Vec<String> = csv.into_iter().chain(ignoring).chain(numbers).collect();
        if parts.is_empty() {
            "exact".into()
        } else {
            parts.join("; ")
        }
    }

    /// How a file is compared under these options, for a heading or a
    /// legend after its name: "line by line, exactly", "as CSV",
    /// "line by line, ignoring case".
    pub fn file_comparison(&self) -> String {
        let described = self.describe();
        if described == "exact" {
            "line by line, exactly".into()
        } else if self.csv {
            described.replacen("fields compared as CSV", "as CSV", 1)
        } else {
            format!("line by line, {described}")
        }
    }
}

/// Output never graded, such as the student's identifying header: from
/// the first line matching `from` (or the first line) up to, not
/// including, the next line matching `until`. If `until` is not found in a
/// student's output, the region covers as many lines as it did in the
/// reference's.
#[derive(Clone, Debug)]
pub struct Region {
    /// What the region is, for reports.
    pub name: String,
    /// Where it starts; `None` for the first line.
    pub from: Option<Regex>,
    /// The first line after it.
    pub until: Regex,
}
