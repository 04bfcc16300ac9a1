//! The console every game talks through: reads the three kinds of input
//! the assignments use (C's `scanf("%d")` tokens, single characters after
//! white space, Python's `input()` lines) and writes output.
//!
//! Output is flushed before every read, so a prompt is on the screen (or in
//! the pipe) before the game waits for its answer, exactly as C stdio does
//! when stdin is a terminal and as Python's `input(prompt)` does.
//!
//! End of input is `Ok(None)` from every read: the games stop quietly there
//! (SPEC.md leaves end of input unspecified; the reference neither panics
//! nor loops).

use std::io::{self, BufRead, Write};

/// A game's view of its terminal: the input it reads and the output it
/// prints.
pub struct Console<'a> {
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
}

impl<'a> Console<'a> {
    /// A console over any reader and writer: stdin/stdout for `referee
    /// play`, or in-memory buffers when the grader runs the reference.
    pub fn new(input: &'a mut dyn BufRead, output: &'a mut dyn Write) -> Self {
        Console { input, output }
    }

    /// Prints `text` as is.
    pub fn print(&mut self, text: &str) -> io::Result<()> {
        self.output.write_all(text.as_bytes())
    }

    /// Flushes the output; games call it before they end.
    pub fn flush(&mut self) -> io::Result<()> {
        self.output.flush()
    }

    /// The next white-space-separated token, as C's `scanf("%s")` would read
    /// it: leading white space (newlines included) is skipped and the white
    /// space that ends the token stays unread.
    pub fn token(&mut self) -> io::Result<Option<Vec<u8>>> {
        self.output.flush()?;
        if !self.skip_white_space()? {
            return Ok(None);
        }
        let mut token = Vec::new();
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let len = buf.iter().take_while(|b| !is_c_space(**b)).count();
            token.extend_from_slice(&buf[..len]);
            let at_end_of_token = len < buf.len();
            self.input.consume(len);
            if at_end_of_token {
                break;
            }
        }
        Ok(Some(token))
    }

    /// The next character that is not white space, as `scanf(" %c")` reads
    /// it.
    pub fn char_after_white_space(&mut self) -> io::Result<Option<u8>> {
        self.output.flush()?;
        if !self.skip_white_space()? {
            return Ok(None);
        }
        let byte = self.input.fill_buf()?[0];
        self.input.consume(1);
        Ok(Some(byte))
    }

    /// Prints `prompt`, then reads one line like Python's `input(prompt)`:
    /// the line without its newline. At end of input, a partial last line
    /// is returned; with nothing left, `None`.
    pub fn input_line(&mut self, prompt: &str) -> io::Result<Option<String>> {
        self.print(prompt)?;
        self.output.flush()?;
        let mut line = Vec::new();
        if self.input.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        Ok(Some(String::from_utf8_lossy(&line).into_owned()))
    }

    /// Skips white space; false at end of input.
    fn skip_white_space(&mut self) -> io::Result<bool> {
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let len = buf.iter().take_while(|b| is_c_space(**b)).count();
            let found = len < buf.len();
            self.input.consume(len);
            if found {
                return Ok(true);
            }
        }
    }
}

/// C's `isspace` in the "C" locale.
fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// A base-10 integer as the games read one: an optional `+` or `-`, then
/// `digits`, which `well_formed` must accept (the assignments differ on
/// what may be between digits); the ASCII digits among them are its value.
/// Values beyond `i64` saturate: no board or column is that large.
pub(crate) fn integer(text: &[u8], well_formed: impl Fn(&[u8]) -> bool) -> Option<i64> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !well_formed(digits) {
        return None;
    }
    let magnitude = digits
        .iter()
        .filter(|d| d.is_ascii_digit())
        .fold(0i64, |acc, d| {
            acc.saturating_mul(10).saturating_add(i64::from(d - b'0'))
        });
    Some(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(input: &str) -> Vec<String> {
        let mut reader = input.as_bytes();
        let mut out = Vec::new();
        let mut console = Console::new(&mut reader, &mut out);
        let mut found = Vec::new();
        while let Some(t) = console.token().unwrap() {
            found.push(String::from_utf8(t).unwrap());
        }
        found
    }

    #[test]
    fn tokens_skip_any_white_space() {
        assert_eq!(tokens(" 3\n\t-1  x7\r\n"), ["3", "-1", "x7"]);
        assert_eq!(tokens(""), Vec::<String>::new());
        assert_eq!(tokens("  \n "), Vec::<String>::new());
        assert_eq!(tokens("12"), ["12"]);
    }

    #[test]
    fn characters_skip_white_space_across_lines() {
        let mut reader: &[u8] = b"c3 1\n  r\nx";
        let mut out = Vec::new();
        let mut console = Console::new(&mut reader, &mut out);
        let mut found = Vec::new();
        while let Some(c) = console.char_after_white_space().unwrap() {
            found.push(c);
        }
        assert_eq!(found, b"c31rx");
    }

    #[test]
    fn input_line_prints_the_prompt_and_drops_the_newline() {
        let mut reader: &[u8] = b"y\n\nlast";
        let mut out = Vec::new();
        let mut console = Console::new(&mut reader, &mut out);
        assert_eq!(console.input_line("a? ").unwrap().as_deref(), Some("y"));
        assert_eq!(console.input_line("b? ").unwrap().as_deref(), Some(""));
        assert_eq!(console.input_line("c? ").unwrap().as_deref(), Some("last"));
        assert_eq!(console.input_line("d? ").unwrap(), None);
        assert_eq!(out, b"a? b? c? d? ");
    }
}
