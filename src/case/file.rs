//! The YAML a case folder is written in, as read from disk. Every value is
//! checked while it is read, so a mistake is reported with its file, line
//! and column; [`super::load`] turns these into [`super::Case`]s.

use std::fmt;
use std::time::Duration;

use regex::bytes::Regex;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::compare::{Options, Tolerance};

/// `suite.yaml`: what every case in the folder shares.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteFile {
    /// The game the cases are for: `connect4`, `connect4-bomb`, `pentago`.
    pub game: Option<GameName>,
    /// Instead of `game`, the suite's own reference program, relative to
    /// the folder: a C, C++ or Python source, or an executable.
    pub reference: Option<String>,
    /// What reports call the assignment (with `reference`; the folder's
    /// name when left out).
    pub name: Option<String>,
    /// Files copied into every run's working folder, relative to the
    /// folder.
    #[serde(default)]
    pub support: Vec<String>,
    /// The code every student was given to start from (the handout's
    /// files, and the reference where students saw it), relative to the
    /// folder: `referee similar --cases` counts it as given, never as
    /// shared.
    #[serde(default)]
    pub starter: Vec<String>,
    /// The course's own library: C or C++ sources in the folder, compiled
    /// with the suite's flags and linked into every C and C++ program.
    #[serde(default)]
    pub link: Vec<String>,
    /// The file a student's program of several files starts from
    /// (`main: game.c`), by name.
    pub main: Option<String>,
    /// The files a student must hand in (`hand_in: [dictionary.c]`), by
    /// name: a submission without one is refused, saying which.
    #[serde(default)]
    pub hand_in: Vec<String>,
    /// The program that prints a generated case's input from a seed, for
    /// `referee explore` (with `reference`).
    pub generator: Option<String>,
    /// A title for reports.
    pub title: Option<String>,
    /// Values for case fields a case leaves out.
    #[serde(default)]
    pub defaults: Settings,
    /// Parts of the output that are never graded.
    #[serde(default)]
    pub ignore_regions: Vec<RegionFile>,
    /// How C, C++ and Java submissions are compiled.
    #[serde(default)]
    pub compile: CompileFile,
    /// Which compiler builds C and C++, the students' programs and the
    /// reference alike (`compiler: {c: clang, cpp: clang++}`).
    #[serde(default)]
    pub compiler: CompilerFile,
    /// Languages the suite adds to referee's own, by name.
    #[serde(default)]
    pub languages: std::collections::BTreeMap<String, LanguageFile>,
    /// Points for playing every generated game as the reference does,
    /// when `grade --explore` explores (0 unless given).
    pub explore_points: Option<Points>,
    /// The handout's rubric: the items cases earn points for, each with
    /// the points the handout gives it.
    #[serde(default)]
    pub rubric: Vec<RubricItemFile>,
    /// Named regions of the output that a case's `format` can grade.
    #[serde(default)]
    pub regions: Vec<GradedRegionFile>,
    /// Whether memory a C or C++ program still holds when it ends is a
    /// diagnosis (a Speller-like lab's `unload`).
    #[serde(default)]
    pub leaks: bool,
}

/// A region a case can grade: from the first line matching `from` (the
/// first line when left out) up to, not including, the next line
/// matching `until` (the end when left out).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradedRegionFile {
    /// What the region is, as cases' `format:` fields name it.
    pub name: String,
    /// Where it starts; the first line when left out.
    #[serde(default)]
    pub from: Option<Pattern>,
    /// The first line after it; the end when left out.
    #[serde(default)]
    pub until: Option<Pattern>,
}

/// One item of a handout's rubric.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RubricItemFile {
    /// Its name, as cases' `rubric:` fields give it.
    pub item: String,
    /// The points the handout gives it.
    pub points: Points,
    /// Graded by a person (code style, a lab interview): no case earns
    /// its points.
    #[serde(default)]
    pub by_hand: bool,
}

/// A case file: the input, and any settings that differ from the suite's
/// defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// What the case checks, in a sentence.
    pub description: Option<String>,
    /// The handout's rubric item the case's points come from.
    pub rubric: Option<String>,
    /// The lines typed, one per line (a whole game).
    pub input: Option<Input>,
    /// Whether the input ends after its last line, as Ctrl-D ends it.
    pub end_of_input: Option<bool>,
    /// One function called on a board (`connect4-bomb` only).
    pub call: Option<CallFile>,
    /// The points it is worth.
    pub points: Option<Points>,
    /// Whether students see it.
    pub visibility: Option<Visibility>,
    /// The longest a run may take, wall time.
    pub timeout: Option<Seconds>,
    /// The most processor time a run may use.
    pub cpu: Option<Seconds>,
    /// The most a run may print.
    pub output_limit: Option<Bytes>,
    /// The most memory a run may use.
    pub memory: Option<Bytes>,
    /// Which differences do not count.
    pub compare: Option<CompareFile>,
    /// `text` (default), `game` (judge the moves, not just the text) or
    /// `ending` (judge only how the run ends).
    pub mode: Option<Mode>,
    /// With `mode: game`, the points that also need the text to match.
    pub format_points: Option<Points>,
    /// With `mode: game`, how move numbers in prompts are judged.
    pub move_numbers: Option<MoveNumbers>,
    /// With `mode: game`, the points that need the run to end as the
    /// reference's does.
    pub ending_points: Option<Points>,
    /// Whether a program must exit with the reference's status.
    pub exit_status: Option<ExitStatus>,
    /// How stderr is graded: with stdout (default), apart, or not.
    pub stderr: Option<Stderr>,
    /// With `stderr: apart` or `only`, which differences in stderr do
    /// not count (the case's `compare` when left out).
    pub stderr_compare: Option<CompareFile>,
    /// With `mode: game`, the parts of the text `format_points` grade:
    /// the names of [`TextPart`]s or of the suite's `regions`.
    pub format: Option<Vec<String>>,
    /// The program's command-line arguments, as written (no shell).
    pub args: Option<Vec<Arg>>,
    /// Files put in the run's working folder before it starts: each name
    /// there, mapped to a path in the suite's folder (or to a mode, or
    /// said absent: [`GivenFile`]).
    pub files: Option<std::collections::BTreeMap<String, GivenFile>>,
    /// Files the run must leave in its working folder, each compared with
    /// the reference's.
    pub outputs: Option<Vec<OutputItem>>,
}

/// Settings a suite gives every case.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The points it is worth.
    pub points: Option<Points>,
    /// Whether the input ends after its last line, as Ctrl-D ends it.
    pub end_of_input: Option<bool>,
    /// Whether students see it.
    pub visibility: Option<Visibility>,
    /// The longest a run may take, wall time.
    pub timeout: Option<Seconds>,
    /// The most processor time a run may use.
    pub cpu: Option<Seconds>,
    /// The most a run may print.
    pub output_limit: Option<Bytes>,
    /// The most memory a run may use.
    pub memory: Option<Bytes>,
    /// Which differences do not count.
    pub compare: Option<CompareFile>,
    /// `text` (default), `game` (judge the moves, not just the text) or
    /// `ending` (judge only how the run ends).
    pub mode: Option<Mode>,
    /// With `mode: game`, the points that also need the text to match.
    pub format_points: Option<Points>,
    /// With `mode: game`, how move numbers in prompts are judged.
    pub move_numbers: Option<MoveNumbers>,
    /// With `mode: game`, the points that need the run to end as the
    /// reference's does.
    pub ending_points: Option<Points>,
    /// Whether a program must exit with the reference's status.
    pub exit_status: Option<ExitStatus>,
    /// How stderr is graded: with stdout (default), apart, or not.
    pub stderr: Option<Stderr>,
    /// With `stderr: apart` or `only`, which differences in stderr do
    /// not count (the case's `compare` when left out).
    pub stderr_compare: Option<CompareFile>,
    /// With `mode: game`, the parts of the text `format_points` grade:
    /// the names of [`TextPart`]s or of the suite's `regions`.
    pub format: Option<Vec<String>>,
    /// The program's command-line arguments, as written (no shell).
    pub args: Option<Vec<Arg>>,
    /// Files put in the run's working folder before it starts: each name
    /// there, mapped to a path in the suite's folder (or to a mode, or
    /// said absent: [`GivenFile`]).
    pub files: Option<std::collections::BTreeMap<String, GivenFile>>,
    /// Files the run must leave in its working folder, each compared with
    /// the reference's.
    pub outputs: Option<Vec<OutputItem>>,
}

/// A region of output not graded: from a line matching `from` (or the
/// start) up to, not including, the first later line matching `until`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionFile {
    /// What the region is, for reports.
    pub name: String,
    /// Where it starts; the start of the output when left out.
    #[serde(default)]
    pub from: Option<Pattern>,
    /// The first line after it.
    pub until: Pattern,
}

/// `compile:` in `suite.yaml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompileFile {
    /// Flags for the C compiler, replacing the default ones.
    pub c: Option<Vec<String>>,
    /// Flags for the C++ compiler, replacing the default ones.
    pub cpp: Option<Vec<String>>,
    /// The older name of `c`, which suites written before C++ use.
    pub flags: Option<Vec<String>>,
    /// Flags for `javac`, replacing the default ones.
    pub java: Option<Vec<String>>,
}

/// `compiler:` in `suite.yaml`: a command on PATH for each language,
/// which takes gcc's usual arguments.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompilerFile {
    /// The C compiler: `clang`, `clang-19`, `gcc`.
    pub c: Option<String>,
    /// The C++ compiler: `clang++`, `g++`.
    pub cpp: Option<String>,
}

/// A language a suite adds, under `languages:` in `suite.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageFile {
    /// The extensions of its sources, with or without the dot.
    pub extensions: Vec<String>,
    /// The command that builds a source, if it is built: `{source}`,
    /// `{program}` and `{flags}` stand for the source's name, the
    /// program it must make and the flags.
    pub build: Option<Vec<String>>,
    /// The command that runs it, with `{source}` and `{program}`.
    pub run: Vec<String>,
    /// The flags `{flags}` stands for.
    #[serde(default)]
    pub flags: Vec<String>,
    /// Folders its tools read besides the system's.
    #[serde(default)]
    pub reads: Vec<String>,
    /// The address space each process may reserve beyond a case's
    /// memory limit (a virtual machine's, such as `node`'s).
    pub reserve: Option<Bytes>,
}

/// `call:` one of the student's functions, on a board, with arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallFile {
    /// The function's Python name.
    pub function: FunctionName,
    /// The board as `display_board` prints it, top row first.
    pub board: BoardText,
    /// The arguments after the board.
    #[serde(default)]
    pub args: Vec<i64>,
}

/// One item of `outputs:`: a file's name (compared as text), or
/// `{name: image.bin, binary: true}` (compared byte for byte).
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum OutputItem {
    /// A file compared as text.
    Name(String),
    /// A file, perhaps binary.
    Full {
        /// Its name in the working folder.
        name: String,
        /// Whether it is compared byte for byte.
        #[serde(default)]
        binary: bool,
    },
}

impl OutputItem {
    /// Its name and whether it is binary.
    pub fn parts(&self) -> (&str, bool) {
        match self {
            OutputItem::Name(name) => (name, false),
            OutputItem::Full { name, binary } => (name, *binary),
        }
    }
}

/// One entry of `files:`: a path in the suite's folder (`data/before.csv`),
/// or `{from: data/before.csv, mode: "000"}` (the file with the
/// permissions a case needs, such as one that cannot be read), or
/// `{absent: true}` (the case says on purpose that the run has no such
/// file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GivenFile {
    /// A file of the suite's folder, with the mode `mode` (or the
    /// default, readable and writable, when `None`).
    From {
        /// Its path in the suite's folder.
        path: String,
        /// Its permission bits in the run's folder.
        mode: Option<u32>,
    },
    /// No file by that name.
    Absent,
}

/// `{from: ..., mode: ..., absent: ...}`, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GivenFileMap {
    from: Option<String>,
    mode: Option<FileMode>,
    absent: Option<bool>,
}

impl<'de> Deserialize<'de> for GivenFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = GivenFile;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a file of the suite's folder (`data/before.csv`), or `{from: \
                     data/before.csv, mode: \"000\"}`, or `{absent: true}`",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<GivenFile, E> {
                Ok(GivenFile::From {
                    path: s.to_string(),
                    mode: None,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<GivenFile, A::Error> {
                let written =
                    GivenFileMap::deserialize(de::value::MapAccessDeserializer::new(map))?;
                match (written.from, written.mode, written.absent) {
                    (None, None, Some(true)) => Ok(GivenFile::Absent),
                    (Some(path), mode, None | Some(false)) => Ok(GivenFile::From {
                        path,
                        mode: mode.map(|m| m.0),
                    }),
                    (Some(_) | None, _, Some(true)) => Err(de::Error::custom(
                        "`absent: true` says the run has no such file: give it no `from` or \
                         `mode`",
                    )),
                    (None, _, _) => Err(de::Error::custom(
                        "a given file needs `from:`, its path in the suite's folder \
                         (`from: data/before.csv`), or `absent: true`",
                    )),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A file's permission bits, written as `chmod` takes them, in quotes:
/// `"000"`, `"0444"`. An unquoted number is refused: YAML reads `0444`
/// as the decimal 444, and `0o444` as 292, neither what was meant.
#[derive(Clone, Copy, Debug)]
struct FileMode(u32);

impl<'de> Deserialize<'de> for FileMode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = FileMode;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a file's mode in octal, in quotes, as `mode: \"0444\"`")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<FileMode, E> {
                let digits = s.trim();
                let octal = (1..=4).contains(&digits.len())
                    && digits.bytes().all(|b| (b'0'..=b'7').contains(&b));
                match u32::from_str_radix(digits, 8) {
                    Ok(mode) if octal && mode <= 0o777 => Ok(FileMode(mode)),
                    _ => Err(E::custom(format!(
                        "`{}` is not a file's permissions: write them in octal as chmod \
                         takes them, from \"000\" to \"0777\" (no set-user-ID or sticky bits)",
                        crate::text::visible::safe(s.as_bytes())
                    ))),
                }
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<FileMode, E> {
                Err(E::custom(format!(
                    "the mode {n} is a number: write it in quotes, as chmod takes it \
                     (`mode: \"0444\"`), or YAML reads it as another number"
                )))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<FileMode, E> {
                Err(E::custom(format!(
                    "the mode {n} is a number: write it in quotes, as chmod takes it \
                     (`mode: \"0444\"`)"
                )))
            }
        }
        d.deserialize_any(V)
    }
}

/// How a case judges a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The output's text, under `compare`.
    #[default]
    Text,
    /// What the program did in the game (boards, wins, refusals,
    /// prompts), read tolerantly; the text earns `format_points`.
    Game,
    /// Only how the run ends, not the text: the program asks again for
    /// input where the reference does, or stops after the same input
    /// line with the same exit status. All the case's points are for
    /// the ending.
    Ending,
    /// Only the files the run leaves (`outputs`) and how it ends, not
    /// what it prints: the ending as `ending` judges it, and each file
    /// as the reference's.
    Files,
}

impl Mode {
    /// Its name in a case file.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Text => "text",
            Mode::Game => "game",
            Mode::Ending => "ending",
            Mode::Files => "files",
        }
    }
}

/// Whether a program's exit status counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExitStatus {
    /// A program must exit with the reference's status where the
    /// reference exits (0 for the built-in games): any other status is a
    /// fault of the ending (verdict `crashed`). `zero`, its older name,
    /// means the same.
    #[default]
    #[serde(alias = "zero")]
    Same,
    /// Any status is fine (a handout that never says what to return);
    /// a status other than 0 is only mentioned.
    Any,
}

/// How a text case grades what a program writes to stderr.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stderr {
    /// On the terminal with stdout, interleaved as a person sees it, and
    /// compared with it under `compare`.
    #[default]
    Together,
    /// On a pipe of its own: stdout compared under `compare`, stderr on
    /// its own under `stderr_compare`.
    Apart,
    /// On a pipe of its own, not graded: only stdout is compared.
    Ignored,
    /// On a pipe of its own, and the only thing compared (under
    /// `stderr_compare`): stdout is not graded.
    Only,
}

impl Stderr {
    /// Its name in a case file.
    pub fn name(self) -> &'static str {
        match self {
            Stderr::Together => "together",
            Stderr::Apart => "apart",
            Stderr::Ignored => "ignored",
            Stderr::Only => "only",
        }
    }

    /// Whether stdout is compared.
    pub fn grades_stdout(self) -> bool {
        self != Stderr::Only
    }

    /// Whether stderr is compared on its own.
    pub fn grades_apart(self) -> bool {
        matches!(self, Stderr::Apart | Stderr::Only)
    }
}

/// A part of a game's text that format points can grade, read by the
/// game's reader, or a region the suite names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextPart {
    /// Everything but the ignored regions.
    All,
    /// What is printed before the first board, the ignored regions aside.
    Instructions,
    /// Each board display: its rows and the blank, border and number
    /// lines around them.
    Boards,
    /// Each refusal's message.
    Errors,
    /// What is printed after the last input, the board display aside
    /// (it is its own part): the win or tie, the goodbye.
    Ending,
    /// One of the suite's `regions`, by its place in the list.
    Region(usize),
}

impl TextPart {
    /// The parts the reader finds, by their case-file names.
    pub const NAMED: [(&'static str, TextPart); 5] = [
        ("all", TextPart::All),
        ("instructions", TextPart::Instructions),
        ("boards", TextPart::Boards),
        ("errors", TextPart::Errors),
        ("ending", TextPart::Ending),
    ];

    /// How a sentence names it; a region by its name in `regions`.
    pub fn words(self, regions: &[String]) -> String {
        match self {
            TextPart::All => "the text".into(),
            TextPart::Instructions => "the instructions".into(),
            TextPart::Boards => "the board display".into(),
            TextPart::Errors => "the error messages".into(),
            TextPart::Ending => "the ending".into(),
            TextPart::Region(i) => regions
                .get(i)
                .map_or("a region".into(), |name| format!("the {name}")),
        }
    }

    /// The part a case file names: one the reader finds, or one of the
    /// suite's regions.
    pub fn named(name: &str, regions: &[String]) -> Result<TextPart, Invalid> {
        if let Some((_, part)) = Self::NAMED.iter().find(|(n, _)| *n == name) {
            return Ok(*part);
        }
        if let Some(i) = regions.iter().position(|r| r == name) {
            return Ok(TextPart::Region(i));
        }
        let mut known: Vec<String> = Self::NAMED.iter().map(|(n, _)| n.to_string()).collect();
        known.extend(regions.iter().cloned());
        Err(Invalid::Part {
            name: name.to_string(),
            known,
        })
    }
}

/// How a game-mode case judges the move numbers in prompts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveNumbers {
    /// Compared when the program shows them.
    #[default]
    Optional,
    /// A prompt without one is a difference.
    Required,
    /// Not judged: for cases about something else, so that a fault of
    /// the move number costs only the cases about move numbers.
    Ignored,
}

/// Who sees a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Students run it with `referee check` and see everything about it.
    Public,
    /// Graded, but students only learn its name and verdict.
    Hidden,
}

impl fmt::Display for Visibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Visibility::Public => "public",
            Visibility::Hidden => "hidden",
        })
    }
}

macro_rules! checked_value {
    ($(#[$doc:meta])* $name:ident($inner:ty), $expecting:literal, $parse:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name(pub $inner);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        let parse: fn(&str) -> Result<$inner, Invalid> = $parse;
                        parse(s).map($name).map_err(E::custom)
                    }
                    fn visit_u64<E: de::Error>(self, n: u64) -> Result<$name, E> {
                        self.visit_str(&n.to_string())
                    }
                    fn visit_i64<E: de::Error>(self, n: i64) -> Result<$name, E> {
                        self.visit_str(&n.to_string())
                    }
                    fn visit_f64<E: de::Error>(self, n: f64) -> Result<$name, E> {
                        self.visit_str(&n.to_string())
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

checked_value!(
    /// A game id, checked against the games referee knows.
    GameName(reference::Game),
    "a game: connect4, connect4-bomb or pentago",
    |s| s.parse::<reference::Game>().map_err(Invalid::Game)
);

checked_value!(
    /// One of the six functions of the CSE 101 assignment.
    FunctionName(crate::call::Function),
    "a function: board_full, drop_piece, drop_bomb, horizontal_winner, vertical_winner or diagonal_winner",
    |s| crate::call::Function::from_name(s).map_err(Invalid::Function)
);

checked_value!(
    /// A board written as it is displayed: rows of `.`, `X`, `O`, top first.
    BoardText(reference::connect4_bomb::Board),
    "a board: rows of '.', 'X' and 'O', the top row first",
    |s| {
        let board = reference::connect4_bomb::Board::parse(s).map_err(Invalid::Board)?;
        if board.num_rows() < 4 || board.num_cols() < 4 {
            return Err(Invalid::SmallBoard);
        }
        Ok(board)
    }
);

checked_value!(
    /// Points: a number, zero or more.
    Points(f64),
    "a number of points, such as 2 or 0.5",
    |s| match s.trim().parse::<f64>() {
        Ok(p) if p.is_finite() && p >= 0.0 => Ok(p),
        _ => Err(Invalid::Points(s.to_string())),
    }
);

checked_value!(
    /// A duration: `10s`, `500ms`, `2m`, or a number of seconds.
    Seconds(Duration),
    "a duration such as 10s, 500ms or 2m",
    parse_duration
);

checked_value!(
    /// A size: `64KiB`, `1MiB`, `1GB`, or a number of bytes.
    Bytes(u64),
    "a size such as 64KiB, 1MiB or 1000000",
    parse_size
);

checked_value!(
    /// A regular expression matched against one line of output.
    Pattern(Regex),
    "a regular expression",
    |s| Regex::new(s).map_err(Invalid::Pattern)
);

fn parse_duration(s: &str) -> Result<Duration, Invalid> {
    let t = s.trim();
    let (number, unit) = split_unit(t);
    let value: f64 = number
        .parse()
        .map_err(|_| Invalid::Duration(s.to_string()))?;
    let seconds = match unit {
        "" | "s" => value,
        "ms" => value / 1000.0,
        "m" | "min" => value * 60.0,
        _ => {
            return Err(Invalid::DurationUnit {
                text: s.to_string(),
                unit: unit.to_string(),
            })
        }
    };
    if !(seconds > 0.0 && seconds <= 24.0 * 3600.0) {
        return Err(Invalid::DurationRange(s.to_string()));
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn parse_size(s: &str) -> Result<u64, Invalid> {
    let t = s.trim();
    let (number, unit) = split_unit(t);
    let value: f64 = number.parse().map_err(|_| Invalid::Size(s.to_string()))?;
    let factor: f64 = match unit {
        "" | "B" => 1.0,
        "KB" | "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        _ => {
            return Err(Invalid::SizeUnit {
                text: s.to_string(),
                unit: unit.to_string(),
            })
        }
    };
    let bytes = value * factor;
    if !(1.0..1e15).contains(&bytes) {
        return Err(Invalid::SizeRange(s.to_string()));
    }
    Ok(bytes as u64)
}

/// Why a value in a case file cannot be used. It reaches the user as a
/// [`super::Problem`] of the file, with the line where the value is.
#[derive(Debug, thiserror::Error)]
pub enum Invalid {
    /// No such game.
    #[error("{0}")]
    Game(reference::UnknownGame),
    /// No such function.
    #[error("{0}")]
    Function(crate::call::Error),
    /// Not a board.
    #[error("{0}")]
    Board(reference::connect4_bomb::BoardError),
    /// A board too small to win on.
    #[error("a board has at least 4 rows and 4 columns")]
    SmallBoard,
    /// Not a number of points.
    #[error("points must be a number, zero or more, not `{0}`")]
    Points(String),
    /// Not a duration.
    #[error("`{0}` is not a duration; write it like 10s, 500ms or 2m")]
    Duration(String),
    /// A duration in an unknown unit.
    #[error("`{text}`: unknown unit `{unit}`; use ms, s or m")]
    DurationUnit {
        /// What was written.
        text: String,
        /// Its unit.
        unit: String,
    },
    /// A duration of zero, or over a day.
    #[error("`{0}`: a duration must be above zero and at most a day")]
    DurationRange(String),
    /// Not a size.
    #[error("`{0}` is not a size; write it like 64KiB, 1MiB or 1000000")]
    Size(String),
    /// A size in an unknown unit.
    #[error("`{text}`: unknown unit `{unit}`; use B, KiB, MiB, GiB, KB, MB or GB")]
    SizeUnit {
        /// What was written.
        text: String,
        /// Its unit.
        unit: String,
    },
    /// A size under one byte.
    #[error("`{0}`: a size must be at least one byte")]
    SizeRange(String),
    /// Not a regular expression.
    #[error("not a valid regular expression: {0}")]
    Pattern(regex::Error),
    /// Not a tolerance.
    #[error("{0}")]
    Tolerance(crate::compare::Error),
    /// A `format` part that is neither the reader's nor a region.
    #[error(
        "unknown part `{name}` in `format`; the parts are: {} (a region is named in \
         suite.yaml's `regions`)",
        known.join(", ")
    )]
    Part {
        /// The name given.
        name: String,
        /// The parts there are.
        known: Vec<String>,
    },
}

impl Invalid {
    /// Whose fault it is: the case file's.
    pub fn fault(&self) -> crate::fault::Fault {
        crate::fault::Fault::Suite
    }
}

fn split_unit(t: &str) -> (&str, &str) {
    let at = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    (t[..at].trim(), t[at..].trim())
}

/// `compare:` either `exact` or the list of differences that do not
/// count; an item is a name (`whitespace-runs`) or a map
/// (`{numbers: {absolute: 0.01}}`).
#[derive(Clone, Debug)]
pub struct CompareFile(pub Options);

/// What a `compare:` list may hold, for messages.
const COMPARE_ITEMS: &str = "`exact`, or a list of: trailing-whitespace, whitespace-runs, \
                             all-whitespace, blank-lines, case, prompts, {numbers: {absolute: 0.01}}";

impl<'de> Deserialize<'de> for CompareFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CompareFile;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(COMPARE_ITEMS)
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<CompareFile, E> {
                match s {
                    "exact" => Ok(CompareFile(Options::default())),
                    other => Options::default()
                        .relax(other)
                        .map(CompareFile)
                        .map_err(E::custom),
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CompareFile, A::Error> {
                let mut options = Options::default();
                while let Some(item) = seq.next_element::<CompareItem>()? {
                    options = item.apply(options).map_err(de::Error::custom)?;
                }
                Ok(CompareFile(options))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<CompareFile, A::Error> {
                let item = CompareItem::deserialize(de::value::MapAccessDeserializer::new(map))?;
                item.apply(Options::default())
                    .map(CompareFile)
                    .map_err(de::Error::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// One item of a `compare:` list.
enum CompareItem {
    /// A difference by its name.
    Name(String),
    /// `{numbers: {absolute: ..., relative: ...}}`.
    Numbers(Tolerance),
}

impl CompareItem {
    fn apply(self, options: Options) -> Result<Options, crate::compare::Error> {
        match self {
            CompareItem::Name(name) => options.relax(&name),
            CompareItem::Numbers(tolerance) => options.within(tolerance),
        }
    }
}

impl<'de> Deserialize<'de> for CompareItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CompareItem;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a comparison option: a name such as whitespace-runs, or {numbers: \
                     {absolute: 0.01}}",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<CompareItem, E> {
                Ok(CompareItem::Name(s.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CompareItem, A::Error> {
                let Some(key) = map.next_key::<String>()? else {
                    return Err(de::Error::custom(crate::compare::Error::NoTolerance));
                };
                if key != "numbers" {
                    return Err(de::Error::custom(crate::compare::Error::Unknown(key)));
                }
                let tolerance: ToleranceFile = map.next_value()?;
                if let Some(other) = map.next_key::<String>()? {
                    return Err(de::Error::custom(format!(
                        "`{other}` next to `numbers` in one item: give each option its own \
                         item of the list (`- {other}`)"
                    )));
                }
                match (tolerance.absolute, tolerance.relative) {
                    (None, None) => Err(de::Error::custom(crate::compare::Error::NoTolerance)),
                    (absolute, relative) => Ok(CompareItem::Numbers(Tolerance {
                        absolute: absolute.map(|t| t.0),
                        relative: relative.map(|t| t.0),
                    })),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// `numbers:`'s tolerance: within `absolute`, or within `relative` of
/// the larger number, or within either.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ToleranceFile {
    /// The most two numbers may differ by.
    absolute: Option<ToleranceValue>,
    /// The most they may differ by, as a share of the larger.
    relative: Option<ToleranceValue>,
}

checked_value!(
    /// A tolerance: a number, zero or more.
    ToleranceValue(f64),
    "a tolerance: a number, zero or more, such as 0.01 or 1e-6",
    |s| match s.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        _ => Err(Invalid::Tolerance(crate::compare::Error::Tolerance(
            s.to_string()
        ))),
    }
);

/// `input:` a block of lines, or a list with one string per line.
#[derive(Clone, Debug)]
pub struct Input(pub Vec<String>);

impl<'de> Deserialize<'de> for Input {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Input;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the input: a block of lines (`input: |`) or a list of strings")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Input, E> {
                let text = s.strip_suffix('\n').unwrap_or(s);
                if text.is_empty() {
                    return Ok(Input(Vec::new()));
                }
                Ok(Input(text.split('\n').map(str::to_string).collect()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Input, A::Error> {
                let mut lines = Vec::new();
                while let Some(line) = seq.next_element::<InputLine>()? {
                    lines.push(line.0);
                }
                Ok(Input(lines))
            }
        }
        d.deserialize_any(V)
    }
}

/// One line of a list-form input: a string. YAML would read `007` or `yes`
/// as a number or a boolean and lose what was typed, so those are refused.
struct InputLine(String);

impl<'de> Deserialize<'de> for InputLine {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = InputLine;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a line of input as a string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<InputLine, E> {
                if s.contains('\n') {
                    return Err(E::custom(
                        "an input line cannot contain a newline; make it two lines",
                    ));
                }
                Ok(InputLine(s.to_string()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<InputLine, E> {
                Err(not_a_string(&n.to_string()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<InputLine, E> {
                Err(not_a_string(&n.to_string()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<InputLine, E> {
                Err(not_a_string(&n.to_string()))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<InputLine, E> {
                Err(not_a_string(&b.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// One command-line argument: a string, reaching the program's `argv` as
/// written. YAML would read `007` or `yes` as a number or a boolean and
/// lose what was written, so those are refused, as are a NUL byte (no
/// argument can hold one) and an argument past [`Arg::MAX`] bytes.
#[derive(Clone, Debug)]
pub struct Arg(pub String);

impl Arg {
    /// The longest argument, in bytes.
    pub const MAX: usize = 4096;
}

impl<'de> Deserialize<'de> for Arg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Arg;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a command-line argument as a string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Arg, E> {
                if s.contains('\0') {
                    return Err(E::custom("a command-line argument cannot hold a NUL byte"));
                }
                if s.len() > Arg::MAX {
                    return Err(E::custom(format!(
                        "a command-line argument of {} bytes; the most is {}",
                        s.len(),
                        Arg::MAX
                    )));
                }
                Ok(Arg(s.to_string()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Arg, E> {
                Err(not_an_argument(&n.to_string()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Arg, E> {
                Err(not_an_argument(&n.to_string()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Arg, E> {
                Err(not_an_argument(&n.to_string()))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Arg, E> {
                Err(not_an_argument(&b.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

fn not_an_argument<E: de::Error>(value: &str) -> E {
    E::custom(format!(
        "this argument is read as the YAML value {value}, not as text: quote it (\"{value}\"), \
         as `args: [\"13\"]` does"
    ))
}

fn not_a_string<E: de::Error>(value: &str) -> E {
    E::custom(format!(
        "this input line is read as the YAML value {value}, not as text: quote it (\"{value}\") \
         or write the input as a block (`input: |`)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_value_is_the_suites_and_says_what_to_write() {
        let bad = parse_duration("10 parsecs").unwrap_err();
        assert_eq!(bad.fault(), crate::fault::Fault::Suite);
        assert_eq!(
            bad.to_string(),
            "`10 parsecs`: unknown unit `parsecs`; use ms, s or m"
        );
        assert_eq!(
            parse_size("0").unwrap_err().to_string(),
            "`0`: a size must be at least one byte"
        );
    }
}
