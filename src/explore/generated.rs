//! Exploring a suite with a reference of its own: its `generator` (the
//! instructor's program that, given a seed as its one argument, prints
//! one case's input lines, as Polygon's and testlib's generators do)
//! makes the games, and shrinking is delta debugging over their lines:
//! lines left out (halves first), then words of a line, then a line's
//! end, each candidate run on the reference again.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::{Error, GeneratorFailure, Model, Rng, Task};
use crate::case::Suite;
use crate::oracle;
use crate::run::{Ending, Feed, Input, Limits};
use crate::submission::{self, Built};

/// What the generator may take and print for one game.
fn limits() -> Limits {
    Limits {
        output: 256 << 10,
        ..Limits::default()
    }
}

/// A generated case's input, as the shrinker changes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    /// The number the generator was given, for the game it printed
    /// (shrunk games have none).
    pub seed: Option<u64>,
    /// The lines typed.
    pub lines: Vec<String>,
}

/// The suite's generator, built.
pub struct Generator {
    program: Arc<Built>,
    suite: Suite,
    name: String,
    /// The first failure of the generator: generating cannot fail as far
    /// as a [`Model`] goes, so exploring asks here afterwards.
    failure: Mutex<Option<GeneratorFailure>>,
}

impl Generator {
    /// The suite's generator, built and tried once (with seed 0), so that
    /// a generator that does not build, crashes or prints what cannot be
    /// typed is said before any game is played.
    pub fn of(suite: &Suite) -> Result<Generator, Error> {
        let path = suite.generator.as_ref().ok_or_else(|| {
            Error::Generator(format!(
                "{} has no `generator` in its suite.yaml: exploring a suite with its own \
                 reference needs a program that prints a case's input lines for the seed it is \
                 given (`generator: gen.py`)",
                suite.dir.display()
            ))
        })?;
        let program = oracle::program(suite, path, "its generator")
            .map_err(|e| Error::Generator(e.to_string()))?;
        let generator = Generator {
            program,
            suite: suite.clone(),
            name: name_of(path),
            failure: Mutex::new(None),
        };
        generator.lines(0)?;
        Ok(generator)
    }

    /// The first failure met while generating, if any.
    pub fn failure(&self) -> Option<Error> {
        let failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        failure.clone().map(Error::Generated)
    }

    /// The lines the generator prints for `seed`.
    fn lines(&self, seed: u64) -> Result<Vec<String>, GeneratorFailure> {
        let name = || self.name.clone();
        let mut program = self.program.program.clone();
        program.argv.push(seed.to_string().into());
        let limits = limits();
        let (_jail, ran) = submission::execute(
            &program,
            Input::from(&[][..]),
            &limits,
            &self.suite.support,
            Feed::Interactive,
        )
        .map_err(|e| GeneratorFailure::NotRun {
            name: name(),
            why: e.to_string(),
        })?;
        if let Some(what) = failed(ran.ending) {
            return Err(GeneratorFailure::Failed {
                name: name(),
                what,
                seed,
            });
        }
        let output = ran.transcript.output();
        let text = String::from_utf8(output)
            .map_err(|_| GeneratorFailure::NotText { name: name(), seed })?;
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        if let Some(long) = lines
            .iter()
            .position(|l| l.len() >= crate::run::pty::MAX_LINE)
        {
            return Err(GeneratorFailure::LongLine {
                name: name(),
                seed,
                length: lines[long].len(),
                line: long + 1,
                most: crate::run::pty::MAX_LINE - 1,
            });
        }
        Ok(lines)
    }
}

/// What a generator that did not exit with 0 did instead; `None` when it
/// did.
fn failed(ending: Ending) -> Option<String> {
    match ending {
        Ending::Exited(0) => None,
        Ending::Exited(status) => Some(format!("exited with status {status}")),
        Ending::WaitingForInput => Some("waited for input".into()),
        Ending::Signaled(signal) => Some(format!(
            "was killed by {}",
            crate::verdict::signal_words(signal)
        )),
        Ending::TimedOut(_) => Some("was still running after 10 s".into()),
        Ending::OutputLimit => Some("printed more than 256 KiB".into()),
        Ending::MemoryLimit => Some("ran out of memory".into()),
    }
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| PathBuf::from(path), PathBuf::from)
        .display()
        .to_string()
}

impl Model for Generator {
    type Game = Lines;

    fn generate(&self, rng: &mut Rng) -> Lines {
        let seed = rng.next_u64() >> 1;
        let lines = self.lines(seed).unwrap_or_else(|why| {
            let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
            failure.get_or_insert(why);
            Vec::new()
        });
        Lines {
            seed: Some(seed),
            lines,
        }
    }

    fn task(&self, game: &Lines) -> Task {
        Task::Input(game.lines.clone())
    }

    fn simpler(&self, game: &Lines) -> Vec<Lines> {
        simpler(&game.lines)
            .into_iter()
            .map(|lines| Lines { seed: None, lines })
            .collect()
    }

    fn measure(&self, game: &Lines) -> (usize, usize) {
        measure(&game.lines)
    }

    fn describe(&self, game: &Lines) -> String {
        let n = game.lines.len();
        let lines = format!("{n} line{} typed", if n == 1 { "" } else { "s" });
        match game.seed {
            Some(seed) => format!("{lines} (`{} {seed}`)", self.name),
            None => lines,
        }
    }
}

/// How big an input is: its lines, then its characters.
fn measure(lines: &[String]) -> (usize, usize) {
    (lines.len(), lines.iter().map(|l| l.chars().count()).sum())
}

/// Simpler inputs, fewer lines first: chunks of lines left out (halves,
/// then quarters, down to single lines), then a word of a line left out,
/// then a line cut to its first half or without its last character.
fn simpler(lines: &[String]) -> Vec<Vec<String>> {
    let mut candidates = Vec::new();
    let mut chunk = lines.len().div_ceil(2).max(1);
    while !lines.is_empty() {
        for start in (0..lines.len()).step_by(chunk) {
            let mut fewer = lines[..start].to_vec();
            fewer.extend_from_slice(&lines[(start + chunk).min(lines.len())..]);
            candidates.push(fewer);
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    for (i, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() > 1 {
            for w in 0..words.len() {
                let mut kept = words.clone();
                kept.remove(w);
                candidates.push(with_line(lines, i, kept.join(" ")));
            }
        }
    }
    for (i, line) in lines.iter().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        if chars.len() > 1 {
            let half: String = chars[..chars.len() / 2].iter().collect();
            candidates.push(with_line(lines, i, half));
            let shorter: String = chars[..chars.len() - 1].iter().collect();
            candidates.push(with_line(lines, i, shorter));
        }
    }
    candidates.dedup();
    let size = measure(lines);
    candidates.retain(|c| measure(c) < size);
    candidates
}

fn with_line(lines: &[String], i: usize, line: String) -> Vec<String> {
    let mut changed = lines.to_vec();
    changed[i] = line;
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn simpler_inputs_have_fewer_lines_first_then_plainer_ones() {
        let input = lines("a\nb\nc\nd");
        let candidates = simpler(&input);
        assert_eq!(
            candidates[0],
            lines("c\nd"),
            "half the lines left out first"
        );
        assert_eq!(candidates[1], lines("a\nb"));
        assert!(candidates.iter().all(|c| measure(c) < measure(&input)));
        let words = simpler(&lines("98.6 F"));
        assert!(words.contains(&lines("F")) && words.contains(&lines("98.6")));
        assert!(words.contains(&lines("98.")), "a line's first half");
        assert!(simpler(&[]).is_empty());
    }

    #[test]
    fn shrinking_by_these_steps_ends_at_the_smallest_input_that_still_differs() {
        // A stand-in for a program that differs whenever a line says 37.5.
        let differs = |lines: &[String]| lines.iter().any(|l| l.contains("37.5"));
        let mut best = lines("10\n20 C\nfoo\n99.5 37.5 F\nbar\nq");
        while let Some(next) = simpler(&best).into_iter().find(|c| differs(c)) {
            best = next;
        }
        assert_eq!(best, lines("37.5"));
    }
}
