//! The expected side of every comparison, as a [`ReferenceRun`]; for
//! a game built into referee, its reference run in-process on a case's
//! input, recorded as a [`Transcript`].
//!
//! The reference reads through a [`LineInput`], which hands out one line
//! only when the game asks for more and the previous line is used up:
//! exactly when a real program on a terminal would be blocked reading. So
//! the reference's transcript interleaves input the way a student's does
//! under the runner, and costs microseconds instead of a process.

use std::cell::RefCell;
use std::io::{self, BufRead, Read, Write};
use std::rc::Rc;

use reference::Game;

use crate::transcript::Transcript;

/// What the reference did with a case's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceRun {
    /// What it printed, with the input where it read it.
    pub transcript: Transcript,
    /// Whether it asked for more input after the last line: the case ends
    /// with the game still waiting (a short case about, say, one invalid
    /// move), and a submission waiting there too is right.
    pub waited_at_end: bool,
    /// The status it exited with (0 for the games built into referee;
    /// nothing when it was left waiting).
    pub status: i32,
    /// The files it left that the case names in `outputs`, by name, each
    /// within the case's output limit (empty for other cases).
    pub files: Vec<(String, Vec<u8>)>,
}

/// Plays `game` on `inputs` (lines without newlines) and records it.
pub fn run_reference(game: Game, inputs: &[String]) -> ReferenceRun {
    play(game, inputs, false)
}

/// Plays `game` on `inputs`; with `ends`, the game's first read past the
/// last line gets the end of input, as a program's does (Ctrl-D), and
/// only a read after that counts as waiting for more.
pub fn play(game: Game, inputs: &[String], ends: bool) -> ReferenceRun {
    let state = Rc::new(RefCell::new(Recorder {
        transcript: Transcript::new(),
        waited_at_end: false,
    }));
    let mut lines = inputs.iter();
    let mut end_given = !ends;
    let given = Rc::clone(&state);
    let mut input = LineInput::new(move || {
        let mut given = given.borrow_mut();
        Ok(match lines.next() {
            Some(line) => {
                given.transcript.push_input(line);
                Some(line.as_bytes().to_vec())
            }
            None if !end_given => {
                end_given = true;
                None
            }
            None => {
                given.waited_at_end = true;
                None
            }
        })
    });
    let mut output = RecordedOutput(Rc::clone(&state));
    // In-memory reads and writes cannot fail, so neither can the game.
    let played = game.play(&mut input, &mut output);
    debug_assert!(played.is_ok(), "the reference failed in memory: {played:?}");
    drop(input);
    drop(output);
    let recorder = Rc::try_unwrap(state)
        .map(RefCell::into_inner)
        .unwrap_or_else(|shared| shared.borrow().clone());
    ReferenceRun {
        transcript: recorder.transcript,
        waited_at_end: recorder.waited_at_end,
        status: 0,
        files: Vec::new(),
    }
}

#[derive(Clone)]
struct Recorder {
    transcript: Transcript,
    waited_at_end: bool,
}

/// Input that hands a game one line at a time, each only when the game
/// has used up the previous one and wants more: what a program on a
/// terminal sees. `next` gives the next line without its newline, or
/// `None` at the end of input; it is asked again each time the game reads
/// past the end. Used for a case's scripted input and for recording a
/// TA's play.
pub struct LineInput<F> {
    next: F,
    current: Vec<u8>,
    pos: usize,
}

impl<F: FnMut() -> io::Result<Option<Vec<u8>>>> LineInput<F> {
    /// Input whose lines come from `next`.
    pub fn new(next: F) -> LineInput<F> {
        LineInput {
            next,
            current: Vec::new(),
            pos: 0,
        }
    }
}

impl<F: FnMut() -> io::Result<Option<Vec<u8>>>> BufRead for LineInput<F> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.current.len() {
            if let Some(line) = (self.next)()? {
                self.current = line;
                self.current.push(b'\n');
                self.pos = 0;
            }
        }
        Ok(&self.current[self.pos.min(self.current.len())..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos += amt;
    }
}

impl<F: FnMut() -> io::Result<Option<Vec<u8>>>> Read for LineInput<F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

struct RecordedOutput(Rc<RefCell<Recorder>>);

impl Write for RecordedOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().transcript.push_output(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::Event;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn line_input_asks_for_a_line_only_when_the_last_is_used_up() {
        let mut asked = 0;
        let mut input = LineInput::new(|| {
            asked += 1;
            Ok((asked <= 2).then(|| format!("line {asked}").into_bytes()))
        });
        let mut word = [0u8; 4];
        input.read_exact(&mut word).unwrap();
        assert_eq!(&word, b"line");
        let mut rest = String::new();
        input.read_line(&mut rest).unwrap();
        assert_eq!(rest, " 1\n");
        let mut all = String::new();
        input.read_to_string(&mut all).unwrap();
        assert_eq!(all, "line 2\n");
        drop(input);
        // Once for each line, once for the end of input.
        assert_eq!(asked, 3);
    }

    #[test]
    fn prompts_come_before_the_input_that_answers_them() {
        let run = run_reference(Game::Connect4, &lines("0\n6\n1"));
        let events = run.transcript.events();
        let prompt = "Red, please enter a valid column number (0-5): ";
        let Event::Output(first) = &events[0] else {
            panic!("output first")
        };
        assert!(first.ends_with(prompt.as_bytes()));
        assert_eq!(events[1], Event::Input("0".into()));
        assert!(run.waited_at_end);
        // Terminal form: the typed input follows its prompt.
        let terminal = String::from_utf8(run.transcript.terminal()).unwrap();
        assert!(terminal.contains("(0-5): 0\n------\n"));
        assert!(terminal.contains("Yellow, please enter a valid column number (0-5): 6\nYellow"));
    }

    #[test]
    fn a_game_given_the_end_of_its_input_stops_without_waiting() {
        let run = play(Game::Connect4, &lines("0\n1"), true);
        assert!(!run.waited_at_end);
        assert!(run_reference(Game::Connect4, &lines("0\n1")).waited_at_end);
    }

    #[test]
    fn a_game_that_ends_does_not_wait() {
        let run = run_reference(Game::Pentago, &lines("x"));
        assert!(!run.waited_at_end);
        assert!(run.transcript.output().ends_with(b"Exiting program...\n"));
    }

    #[test]
    fn two_tokens_on_one_line_are_read_without_waiting_between() {
        let run = run_reference(Game::Connect4, &lines("0 1"));
        assert_eq!(run.transcript.inputs().count(), 1);
        let terminal = String::from_utf8(run.transcript.terminal()).unwrap();
        // Yellow's prompt is answered from the same line: no input shown.
        assert!(
            terminal.contains("R-----\nYellow, please enter a valid column number (0-5): ------\n")
        );
    }
}
