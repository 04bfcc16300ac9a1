//! A transcript as the lines a person sees on the terminal: output, with
//! each typed input at the end of the line it was typed on; and the one
//! way to render those lines as text.

use super::{Event, Transcript};
use crate::text::visible;

/// What a line of the terminal shows at its end when the program was
/// stopped waiting for input there.
pub const WAITING: &str = "⟨still waiting for input⟩";

/// One line of the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermLine {
    /// What the program printed on it.
    pub output: Vec<u8>,
    /// What was typed at its end, if anything.
    pub input: Option<String>,
    /// Whether the program was left waiting for input at its end.
    pub waiting: bool,
    /// Whether it ends with a newline (printed or typed).
    pub newline: bool,
    /// How many inputs had been typed before it began.
    pub inputs_before: usize,
}

impl TermLine {
    /// The whole line's bytes, typed input and waiting mark included: what
    /// it is compared by.
    pub fn text(&self) -> Vec<u8> {
        let mut text = self.output.clone();
        if let Some(input) = &self.input {
            text.extend_from_slice(input.as_bytes());
        }
        if self.waiting {
            text.extend_from_slice(WAITING.as_bytes());
        }
        text
    }
}

/// The lines of a file (or any output nothing was typed into) as a
/// terminal shows them: how reports show output files.
pub fn of_output(bytes: &[u8]) -> Vec<TermLine> {
    let mut transcript = Transcript::new();
    transcript.push_output(bytes);
    lines(&transcript, false)
}

/// The terminal lines of a transcript; `waiting` marks the end when the
/// program was left waiting for input.
pub fn lines(transcript: &Transcript, waiting: bool) -> Vec<TermLine> {
    let mut lines = Vec::new();
    let mut current = TermLine {
        output: Vec::new(),
        input: None,
        waiting: false,
        newline: false,
        inputs_before: 0,
    };
    let mut typed = 0;
    let finish = |current: &mut TermLine, typed: usize, lines: &mut Vec<TermLine>| {
        let next = TermLine {
            output: Vec::new(),
            input: None,
            waiting: false,
            newline: false,
            inputs_before: typed,
        };
        lines.push(std::mem::replace(current, next));
    };
    for event in transcript.events() {
        match event {
            Event::Output(bytes) => {
                let mut parts = bytes.split(|&b| b == b'\n').peekable();
                while let Some(part) = parts.next() {
                    current.output.extend_from_slice(part);
                    if parts.peek().is_some() {
                        current.newline = true;
                        finish(&mut current, typed, &mut lines);
                    }
                }
            }
            Event::Input(line) => {
                current.input = Some(line.clone());
                current.newline = true;
                typed += 1;
                finish(&mut current, typed, &mut lines);
            }
        }
    }
    if waiting {
        current.waiting = true;
    }
    if !current.output.is_empty() || current.waiting {
        lines.push(current);
    }
    lines
}

/// The terminal lines as text: each line's output and typed input passed
/// through `show`, the [`WAITING`] mark where the program was left
/// waiting, and the line's newline.
fn render(lines: &[TermLine], show: impl Fn(&mut Vec<u8>, &[u8])) -> Vec<u8> {
    let mut text = Vec::new();
    for line in lines {
        show(&mut text, &line.output);
        if let Some(input) = &line.input {
            show(&mut text, input.as_bytes());
        }
        if line.waiting {
            text.extend_from_slice(WAITING.as_bytes());
        }
        if line.newline {
            text.push(b'\n');
        }
    }
    text
}

/// The whole terminal transcript, for files: input shown where it was
/// typed, nothing escaped but control characters (a carriage return
/// written `␍`, as explanations write it).
pub fn printable(lines: &[TermLine]) -> String {
    let text = render(lines, |text, bytes| {
        text.extend_from_slice(visible::transcript(bytes).as_bytes())
    });
    // `visible::transcript` and the mark are text, so this changes nothing.
    String::from_utf8_lossy(&text).into_owned()
}

impl Transcript {
    /// The terminal form: output with each input line and its newline
    /// where the program read it, as the handouts' sample runs show.
    pub fn terminal(&self) -> Vec<u8> {
        render(&lines(self, false), |text, bytes| {
            text.extend_from_slice(bytes)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_ends_the_line_it_was_typed_on() {
        let mut t = Transcript::new();
        t.push_output(b"board\nCol? ");
        t.push_input("3");
        t.push_output(b"board\nCol? ");
        let lines = lines(&t, true);
        let texts: Vec<String> = lines
            .iter()
            .map(|l| String::from_utf8(l.text()).unwrap())
            .collect();
        assert_eq!(
            texts,
            [
                "board",
                "Col? 3",
                "board",
                format!("Col? {WAITING}").as_str()
            ]
        );
        assert_eq!(lines[2].inputs_before, 1);
        assert!(!lines[3].newline);
    }
}
