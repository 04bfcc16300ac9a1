//! The events of a run: output and input, in the order they happened.

/// One thing that happened on the terminal, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Bytes the program printed (stdout and stderr share the terminal).
    Output(Vec<u8>),
    /// A line given to the program when it was waiting to read, without
    /// its newline.
    Input(String),
}

/// The events of one run, in order, with adjacent output merged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    events: Vec<Event>,
    /// Bytes printed so far (asked at every read, for the output limit).
    printed: usize,
    /// Newlines printed so far (for the limit on lines).
    newlines: usize,
    /// What the program wrote to stderr, for a run that kept it apart
    /// (empty when stderr shared the terminal): bounded with the output.
    errors: Vec<u8>,
}

impl Transcript {
    /// An empty transcript.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends printed bytes.
    pub fn push_output(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.printed += bytes.len();
        self.newlines += newlines(bytes);
        match self.events.last_mut() {
            Some(Event::Output(out)) => out.extend_from_slice(bytes),
            _ => self.events.push(Event::Output(bytes.to_vec())),
        }
    }

    /// Appends bytes written to stderr, kept apart from the terminal's
    /// events; they count towards the output's limits all the same.
    pub fn push_errors(&mut self, bytes: &[u8]) {
        self.printed += bytes.len();
        self.newlines += newlines(bytes);
        self.errors.extend_from_slice(bytes);
    }

    /// What the program wrote to stderr when it was kept apart.
    pub fn errors(&self) -> &[u8] {
        &self.errors
    }

    /// Appends an input line, at the point the program read it.
    pub fn push_input(&mut self, line: &str) {
        self.events.push(Event::Input(line.to_string()));
    }

    /// The events, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Everything the program printed: what grading compares.
    pub fn output(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.output_len() - self.errors.len());
        for event in &self.events {
            if let Event::Output(bytes) = event {
                out.extend_from_slice(bytes);
            }
        }
        out
    }

    /// The number of bytes printed, stdout and stderr.
    pub(crate) fn output_len(&self) -> usize {
        self.printed
    }

    /// The number of lines printed (newlines).
    pub(crate) fn output_lines(&self) -> usize {
        self.newlines
    }

    /// The input lines the program read, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &str> {
        self.events.iter().filter_map(|e| match e {
            Event::Input(line) => Some(line.as_str()),
            Event::Output(_) => None,
        })
    }
}

/// The newlines in `bytes`.
fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// How many bytes of `bytes` hold at most `room` newlines: all of them,
/// or up to and including the `room`-th newline when there are more.
pub fn within_lines(bytes: &[u8], room: usize) -> usize {
    // Fewer bytes than room: fewer newlines too, no need to look (the
    // usual read, far below the limit).
    if bytes.len() <= room {
        return bytes.len();
    }
    let mut ends = bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(at, _)| at + 1);
    let last_kept = if room == 0 {
        Some(0)
    } else {
        ends.nth(room - 1)
    };
    match (last_kept, ends.next()) {
        (Some(end), Some(_)) => end,
        _ => bytes.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_form_places_input_where_it_was_read() {
        let mut t = Transcript::new();
        t.push_output(b"Col? ");
        t.push_input("3");
        t.push_output(b"ok\n");
        t.push_output(b"Col? ");
        t.push_input("4");
        assert_eq!(t.terminal(), b"Col? 3\nok\nCol? 4\n");
        assert_eq!(t.output(), b"Col? ok\nCol? ");
        assert_eq!(t.inputs().collect::<Vec<_>>(), ["3", "4"]);
        assert_eq!(t.events().len(), 4, "adjacent output is merged");
    }

    #[test]
    fn lines_are_counted_and_cut_after_the_last_one_there_is_room_for() {
        let mut t = Transcript::new();
        t.push_output(b"a\nb\n");
        t.push_input("3");
        t.push_output(b"c");
        assert_eq!(t.output_lines(), 2, "typed lines are not printed ones");
        assert_eq!(within_lines(b"x\ny\nz\n", 2), 4);
        assert_eq!(within_lines(b"x\ny\nz\n", 3), 6);
        assert_eq!(within_lines(b"x\ny\nz", 5), 5);
        assert_eq!(within_lines(b"\n\n", 0), 0);
    }
}
