//! Diagnosing one submission: its checked build made once, when first
//! needed; a case run again from it; the sanitizers' reports turned into
//! diagnoses placed in the source and in the case's input; the
//! compiler's warnings; a Python run's traceback.

use std::path::Path;
use std::sync::OnceLock;

use super::diagnosis::{bounded, Diagnosis, Found, Kind};
use super::leaks;
use super::sanitizer::{self, Found as Report, Frame, PROGRAM};
use super::symbols::Symbols;
use super::{traceback, warnings};
use crate::case::Case;
use crate::run::{Ending, Feed, RunResult};
use crate::submission::checked::{self, CheckError, Checked};
use crate::submission::sanitized::{Checks, LEAKS};
use crate::submission::{self, Built, Support};
use crate::transcript::Transcript;

/// The most bytes of the source read to show its lines.
const SOURCE_LIMIT: u64 = 4 << 20;

/// One submission's checked build and what reads it, made when first
/// asked for.
pub struct Checker<'b> {
    built: &'b Built,
    checked: OnceLock<Result<Prepared<'b>, CheckError>>,
    /// The first checked run the grader could not make, in words.
    failed_run: OnceLock<String>,
    /// Whether the compiler's warnings come from an optimised pass of
    /// their own (which finds more), not from the checked build's compile.
    thorough: bool,
}

/// A checked build (the build's own, shared by the students of an
/// identical program) and its debug information.
struct Prepared<'b> {
    checked: &'b Checked,
    /// Its reader keeps caches that are not shared between threads: the
    /// cases of one submission that run at once take turns.
    symbols: Option<std::sync::Mutex<Symbols>>,
    /// Each file of the program: its name, as the student named it, and
    /// its lines.
    sources: Vec<(String, Vec<String>)>,
}

impl<'b> Checker<'b> {
    /// The checker of `built`.
    pub fn new(built: &'b Built) -> Checker<'b> {
        Checker {
            built,
            checked: OnceLock::new(),
            failed_run: OnceLock::new(),
            thorough: false,
        }
    }

    /// The checker of `built` whose compiler warnings come from an
    /// optimised pass of their own (`grade --diagnose`, `cases validate`,
    /// `doctor`): an index past an array's end and an uninitialised value
    /// are found too, for as much compiling again.
    pub fn thorough(built: &'b Built) -> Checker<'b> {
        Checker {
            thorough: true,
            ..Checker::new(built)
        }
    }

    /// Where the checked build's compiler warnings come from.
    fn warnings(&self) -> checked::Warnings<'static> {
        if self.thorough {
            checked::Warnings::FromAPass(warnings::warning_args())
        } else {
            checked::Warnings::FromTheBuild(warnings::in_build_args())
        }
    }

    /// Whether the program has a checked build (C and C++ do).
    pub fn applies(&self) -> bool {
        self.built.recipe.is_some()
    }

    fn prepared(&self) -> Result<&Prepared<'b>, &CheckError> {
        let built = self.built;
        self.checked
            .get_or_init(|| {
                let recipe = built.recipe.as_ref().ok_or(CheckError::NotCompiled)?;
                // Kept with the build: the students who share it share this.
                let made = built.checked.get_or_init(|| {
                    crate::timings::time(crate::timings::Phase::Diagnose, || {
                        checked::build(recipe, built.stage.path(), self.warnings())
                    })
                });
                let checked = match made {
                    Some(Ok(checked)) => checked,
                    Some(Err(e)) => return Err(e.clone()),
                    None => return Err(CheckError::Folder("a build keeps another thing".into())),
                };
                let symbols = Symbols::open(&checked.binary).map(std::sync::Mutex::new);
                let sources = checked
                    .sources
                    .iter()
                    .map(|file| {
                        let name = file.file_name().unwrap_or_default();
                        (name.to_string_lossy().into_owned(), source_lines(file))
                    })
                    .collect();
                Ok(Prepared {
                    checked,
                    symbols,
                    sources,
                })
            })
            .as_ref()
    }

    /// Why diagnoses are missing: the checked build was asked for and
    /// could not be made, or one of its runs could not be.
    pub fn trouble(&self) -> Option<String> {
        match self.checked.get()? {
            Err(CheckError::NotCompiled) => None,
            Err(e) => Some(e.to_string()),
            Ok(_) => self.failed_run.get().cloned(),
        }
    }

    /// What the compiler's pass for warnings found, once the checked
    /// build was made (nothing before).
    pub fn compiler_found(&self) -> Vec<Diagnosis> {
        let Some(Ok(prepared)) = self.checked.get() else {
            return Vec::new();
        };
        let Ok(json) = &prepared.checked.warnings else {
            return Vec::new();
        };
        let names = prepared.names();
        let mut found = warnings::parse_of(json, &names);
        for d in &mut found {
            let file = d.file.clone().unwrap_or_default();
            d.source = d.line.and_then(|n| prepared.line(&file, n));
            // The compiler names no function: the build's debug
            // information knows which holds the line.
            if d.function.is_none() {
                d.function = d.line.and_then(|n| prepared.function_at(&file, n));
            }
        }
        found
    }

    /// Runs `case` from the checked build (the suite's `support` and the
    /// case's files given as to the graded run) and says what its
    /// sanitizers found, and, where `leaks`, the memory it still held
    /// when it ended. Nothing where there is no checked build, or
    /// where the run could not be made ([`Checker::trouble`] then says
    /// why): a diagnosis missing never costs a grade.
    pub fn run_case(
        &self,
        case: &Case,
        support: &[Support],
        feed: Feed,
        leaks: bool,
    ) -> Vec<Diagnosis> {
        let Ok(prepared) = self.prepared() else {
            return Vec::new();
        };
        let program = prepared.checked.program.with_args(&case.args);
        let provided: Vec<Support> = support.iter().chain(&case.files).cloned().collect();
        let checks = Checks {
            hold: &prepared.checked.hold,
            leaks,
        };
        match submission::execute_checked(
            &program,
            checks,
            case.typed(),
            &case.limits,
            &provided,
            feed,
        ) {
            Ok((_jail, result)) => prepared.diagnoses(&result, &case.name, feed),
            Err(e) => {
                let _ = self
                    .failed_run
                    .set(format!("a checked run could not be made: {e}"));
                Vec::new()
            }
        }
    }
}

impl Prepared<'_> {
    /// The diagnoses of one checked run of `case`.
    fn diagnoses(&self, result: &RunResult, case: &str, feed: Feed) -> Vec<Diagnosis> {
        // Reports are placed after an input line only where the run's
        // one report file was watched line by line: with several (a
        // program that started others) the sizes noted are of them all.
        let (held, reports): (Vec<_>, Vec<_>) =
            result.reports.iter().partition(|r| r.name == LEAKS);
        let placed = reports.len() == 1 && feed == Feed::Interactive;
        let inputs: Vec<&str> = result.transcript.inputs().collect();
        let mut found = Vec::new();
        for report in reports {
            for one in sanitizer::parse(&report.text) {
                let mut d = self.diagnosis(&one);
                d.case = Some(case.to_string());
                if placed {
                    let given = result
                        .report_marks
                        .iter()
                        .filter(|&&m| m <= one.at as u64)
                        .count();
                    d.input_line = Some(given);
                    d.input = given
                        .checked_sub(1)
                        .and_then(|k| inputs.get(k))
                        .map(|line| bounded(line));
                }
                found.push(d);
            }
        }
        // Only a run that ended by itself wrote what it still held; one
        // that was stopped is no leak, whatever its folder holds.
        if matches!(result.ending, Ending::Exited(_)) {
            if let Some(mut d) = held.first().and_then(|r| self.leak(&r.text)) {
                d.case = Some(case.to_string());
                found.push(d);
            }
        }
        merged(found)
    }

    /// What a run still held when it ended, as one diagnosis: the memory
    /// allocated by the student's own files (never the C library's, nor
    /// the suite's library's), placed where the most of it was
    /// allocated. Nothing where none is.
    fn leak(&self, text: &[u8]) -> Option<Diagnosis> {
        let held = leaks::parse(text)?;
        let names = self.names();
        let symbols = self.symbols.as_ref()?;
        let symbols = symbols.lock().unwrap_or_else(|e| e.into_inner());
        let placed: Vec<_> = held
            .sites
            .iter()
            .filter_map(|site| {
                let frame = Frame {
                    module: PROGRAM.into(),
                    offset: site.address,
                };
                let place = symbols.first_in(std::slice::from_ref(&frame), &names)?;
                Some((site, place))
            })
            .collect();
        drop(symbols);
        let (_, most) = placed.first()?;
        let sites: Vec<leaks::Site> = placed.iter().map(|(site, _)| **site).collect();
        let at = leaks::Place {
            file: &most.file,
            line: most.line,
            function: most.function.as_deref(),
        };
        let message = leaks::message(&sites, held.missed, &at);
        let mut d = Diagnosis::new(Kind::Leak, Found::Run, &message);
        d.file = Some(most.file.clone());
        d.line = Some(most.line);
        d.function = most.function.clone();
        d.source = self.line(&most.file, most.line);
        Some(d)
    }

    /// One report placed in the source.
    fn diagnosis(&self, report: &Report) -> Diagnosis {
        let mut d = Diagnosis::new(report.kind, Found::Run, &report.message);
        let names = self.names();
        let placed = self.symbols.as_ref().and_then(|s| {
            let symbols = s.lock().unwrap_or_else(|e| e.into_inner());
            symbols.first_in(&report.frames, &names)
        });
        if let Some(placed) = placed {
            d.file = Some(placed.file);
            d.line = Some(placed.line);
            d.function = placed.function;
        }
        // UndefinedBehaviorSanitizer names the line itself, more exactly
        // than a return address can.
        if let Some((file, line, column)) = &report.place {
            let named = Path::new(file)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .filter(|f| names.contains(f));
            if let Some(name) = named {
                if d.kind == Kind::IndexOutOfBounds {
                    d.kind = self.index_access(&name, *line, *column, &report.message);
                }
                d.file = Some(name);
                d.line = Some(*line);
            }
        }
        let file = d.file.clone().unwrap_or_default();
        d.source = d.line.and_then(|n| self.line(&file, n));
        d
    }

    /// The names of the program's files.
    fn names(&self) -> Vec<String> {
        self.sources.iter().map(|(name, _)| name.clone()).collect()
    }

    /// What an index out of bounds did, read or write, past the end or
    /// before the start: UndefinedBehaviorSanitizer says only the index
    /// (negative: before the start), and its column points at the
    /// subscript, `[c]` in `board[r][c] = piece`; what follows the
    /// subscript tells a write (an assignment to it, `++`, `--`) from a
    /// read.
    fn index_access(&self, file: &str, line: u32, column: u32, message: &str) -> Kind {
        let before = message.starts_with("index -");
        let text = (line as usize)
            .checked_sub(1)
            .and_then(|k| self.lines_of(file)?.get(k));
        let write = text.is_some_and(|t| assigned(t, column as usize));
        match (write, before) {
            (true, true) => Kind::WriteBeforeStart,
            (true, false) => Kind::WritePastEnd,
            (false, true) => Kind::ReadBeforeStart,
            (false, false) => Kind::ReadPastEnd,
        }
    }

    /// The function that holds line `n` of the file named `source`.
    fn function_at(&self, source: &str, n: u32) -> Option<String> {
        let symbols = self.symbols.as_ref()?;
        let symbols = symbols.lock().unwrap_or_else(|e| e.into_inner());
        symbols.function_at(source, n)
    }

    /// Line `n` of the file named `file`, as written (bounded).
    fn line(&self, file: &str, n: u32) -> Option<String> {
        let text = self.lines_of(file)?.get((n as usize).checked_sub(1)?)?;
        Some(bounded(text))
    }

    /// The lines of the program's file named `file`.
    fn lines_of(&self, file: &str) -> Option<&Vec<String>> {
        self.sources
            .iter()
            .find(|(name, _)| name == file)
            .map(|(_, lines)| lines)
    }
}

/// One run's diagnoses with the sanitizers' double reports made one:
/// UndefinedBehaviorSanitizer names an index out of an array's bounds,
/// and AddressSanitizer, at the same line, the read or write past it
/// that follows; the second says more.
fn merged(found: Vec<Diagnosis>) -> Vec<Diagnosis> {
    let mut kept: Vec<Diagnosis> = Vec::new();
    for d in found {
        let access = matches!(
            d.kind,
            Kind::ReadPastEnd | Kind::ReadBeforeStart | Kind::WritePastEnd | Kind::WriteBeforeStart
        );
        let same_line = |k: &Diagnosis| k.file == d.file && k.line == d.line && k.line.is_some();
        if let Some(index) = kept
            .iter()
            .position(|k| k.kind == Kind::IndexOutOfBounds && access && same_line(k))
        {
            let message = format!("{}; {}", kept[index].message, d.message);
            kept[index] = Diagnosis {
                message: bounded(&message),
                ..d
            };
            continue;
        }
        if kept.iter().any(|k| k.kind == d.kind && same_line(k)) {
            continue;
        }
        kept.push(d);
    }
    kept
}

/// Whether the subscript that starts at `column` (from 1) of `line` is
/// assigned to: what follows its closing bracket is an assignment (not
/// `==`), `++` or `--`.
fn assigned(line: &str, column: usize) -> bool {
    let bytes = line.as_bytes();
    let Some(start) = column
        .checked_sub(1)
        .filter(|&s| bytes.get(s) == Some(&b'['))
    else {
        return false;
    };
    let mut depth = 0usize;
    let mut end = None;
    for (k, &b) in bytes.iter().enumerate().skip(start) {
        match b {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(k + 1);
                    break;
                }
            }
            _ => {}
        }
    }
    let Some(end) = end else {
        return false;
    };
    let rest = line[end..].trim_start();
    let compound = [
        "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--",
    ];
    (rest.starts_with('=') && !rest.starts_with("=="))
        || compound.iter().any(|op| rest.starts_with(op))
}

/// The source's lines, as far as [`SOURCE_LIMIT`] reads.
fn source_lines(source: &Path) -> Vec<String> {
    let Ok((bytes, _)) = crate::untrusted::read_start(source, SOURCE_LIMIT) else {
        return Vec::new();
    };
    String::from_utf8_lossy(&bytes)
        .lines()
        .map(String::from)
        .collect()
}

/// Why diagnoses cannot be made on this machine.
#[derive(Debug, thiserror::Error)]
pub enum NotHere {
    /// The probe could not be written or built.
    #[error("a C program could not be built for the trial: {0}")]
    Probe(String),
    /// Its checked build could not be made.
    #[error("{0}")]
    Checked(String),
    /// Its checked run could not be made.
    #[error("its checked run could not be made: {0}")]
    Run(String),
    /// It ran, and its fault was not found where it is.
    #[error("a planted write past an array was not found where it is (found: {0})")]
    NotFound(String),
}

/// The line of [`PROBE`] that writes past its array.
const PROBE_LINE: u32 = 9;

/// A program that writes one past its array after reading a line.
const PROBE: &str = "#include <stdio.h>
#include <stdlib.h>
int main(void) {
  char line[16];
  int *row = malloc(6 * sizeof *row);
  if (row == NULL || fgets(line, sizeof line, stdin) == NULL)
    return 1;
  for (int i = 0; i <= 6; i++)
    row[i] = atoi(line);
  printf(\"%d\\n\", row[0]);
  free(row);
  return 0;
}
";

/// Whether diagnoses work here, tried as grading makes them: a C
/// program that writes past its array after its first input line is
/// built again with the sanitizers and run in the sandbox; what it is
/// found to be, when it is found right (`doctor` says so).
pub fn try_here() -> Result<Diagnosis, NotHere> {
    try_with(&submission::Flags::default())
}

/// [`try_here`] with the C compiler and flags of `flags` (a suite's
/// `compiler:`, for `doctor --cases`).
pub fn try_with(flags: &submission::Flags) -> Result<Diagnosis, NotHere> {
    let probe = |e: &dyn std::fmt::Display| NotHere::Probe(e.to_string());
    let dir = tempfile::tempdir().map_err(|e| probe(&e))?;
    let file = dir.path().join("probe.c");
    std::fs::write(&file, PROBE).map_err(|e| probe(&e))?;
    let found = submission::locate(&file).map_err(|e| probe(&e))?;
    let built = submission::build(&found, flags, &[]).map_err(|e| probe(&e))?;
    let checker = Checker::thorough(&built);
    let prepared = checker
        .prepared()
        .map_err(|e| NotHere::Checked(e.to_string()))?;
    let lines = vec!["7".to_string()];
    let limits = crate::run::Limits::default();
    let checks = Checks {
        hold: &prepared.checked.hold,
        leaks: false,
    };
    let (_jail, result) = submission::execute_checked(
        &prepared.checked.program,
        checks,
        (&lines).into(),
        &limits,
        &[],
        Feed::Interactive,
    )
    .map_err(|e| NotHere::Run(e.to_string()))?;
    let found = prepared.diagnoses(&result, "trial", Feed::Interactive);
    found
        .iter()
        .find(|d| {
            d.kind == Kind::WritePastEnd && d.line == Some(PROBE_LINE) && d.input_line == Some(1)
        })
        .cloned()
        .ok_or_else(|| {
            let said: Vec<String> = found.iter().map(|d| d.located()).collect();
            NotHere::NotFound(if said.is_empty() {
                "nothing".into()
            } else {
                said.join("; ")
            })
        })
}

/// A Python run's uncaught exception, from its transcript: a run that
/// failed (Python exits 1 after printing the traceback) of a program of
/// the files named `source_names`.
pub fn python_exception(
    transcript: &Transcript,
    ending: Ending,
    source_names: &[String],
    case: &str,
) -> Option<Diagnosis> {
    let failed = !matches!(ending, Ending::Exited(0) | Ending::WaitingForInput);
    let mut d = traceback::from_transcript_of(transcript, source_names, failed)?;
    d.case = Some(case.to_string());
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::assigned;

    #[test]
    fn a_subscript_assigned_to_is_a_write_and_one_compared_a_read() {
        let line = "      gameBoard[row][col] = turn;";
        assert!(assigned(line, line.find("[col]").unwrap() + 1));
        assert!(!assigned("if (board[r][c] == piece)", 12));
        assert!(assigned("count[k]++;", 6));
        assert!(assigned("a[i] += 2;", 2));
        assert!(!assigned("x = a[i];", 6));
        // A column that is no subscript is no write.
        assert!(!assigned("a[i] = 1;", 40));
    }
}
