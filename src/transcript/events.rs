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
        match self.events.last_mut() {
            Some(Event::Output(out)) => out.extend_from_slice(bytes),
            _ => self.events.push(Event::Output(bytes.to_vec())),
        }
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
        let mut out = Vec::with_capacity(self.output_len());
        for event in &self.events {
            if let Event::Output(bytes) = event {
                out.extend_from_slice(bytes);
            }
        }
        out
    }

    /// The number of bytes printed.
    pub(crate) fn output_len(&self) -> usize {
        self.printed
    }

    /// The input lines the program read, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &str> {
        self.events.iter().filter_map(|e| match e {
            Event::Input(line) => Some(line.as_str()),
            Event::Output(_) => None,
        })
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
}
