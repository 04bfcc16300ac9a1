//! A Python program's uncaught exception, read from its transcript: the
//! traceback Python printed as it died becomes a diagnosis with the
//! student's own innermost frame (file, line, function, that line of
//! source), the exception (`ValueError: invalid literal ...`) and the
//! input line the program had read when it happened.
//!
//! A program's stdout and stderr share the terminal, so a traceback a
//! program printed itself (or printed with `traceback.print_exc()` and
//! went on) cannot be told from Python's own by its text. Only a run
//! that ended in failure is read ([`from_transcript`]'s `failed`), and
//! then the last traceback in it is taken: the one Python printed as the
//! program died.
//!
//! The transcript is read once, line by line, keeping at most one
//! traceback's place and a few bounded texts: a transcript of megabytes,
//! or a traceback of ten thousand frames, takes time in proportion to its
//! length and no more memory than a few lines.

use super::diagnosis::{bounded, Diagnosis, Found, Kind};
use crate::run::uncaught::{base_name, exception_name, plain, python_frame};
use crate::transcript::{Event, Transcript};

/// The line that begins a traceback. It may end a line the program had
/// begun: `Col? Traceback (most recent call last):` when the prompt of
/// an `input()` that raised was printed without a newline.
const HEADER: &str = "Traceback (most recent call last):";

/// The most bytes of one line of output looked at: a traceback's lines
/// are short, and a line longer than this (a program's mebibyte of
/// output without a newline) is looked at by its start only.
const LINE_ROOM: usize = 4096;

/// What [`Diagnosis::message`] says of a traceback that ends before its
/// exception's line (the output limit cut it, or the program was killed
/// as it printed).
pub const CUT_MESSAGE: &str =
    "the traceback was cut off before the exception's name (the output limit?)";

/// The uncaught exception in `transcript`, placed in the student's
/// program `source_name` (its file name: `connect4.py`; the paths in the
/// traceback are the sandbox's, and only file names are compared).
///
/// `failed` is whether the run ended in failure: exited with a status
/// other than 0, was killed, or was stopped at the output limit. A run
/// that did not fail gives no diagnosis, whatever it printed: an
/// uncaught exception always makes Python exit with status 1, and a
/// traceback in a successful run is one the program printed itself.
///
/// Of the last traceback in the transcript (for chained exceptions,
/// "During handling of the above exception...", the last one is the one
/// that ended the program):
/// - `message`: its last line, `ExceptionName: message` (the first line
///   of a message of several lines), or [`CUT_MESSAGE`] when it was cut
///   off before that line;
/// - `file`, `line`, `function`, `source`: of its innermost frame in
///   `source_name`, not of a library's frame (for `json.loads` failing,
///   the student's line that called it). A frame at the top level of the
///   module (`<module>`) has no function: it is in none. Without a frame
///   of the student's (an exception raised in a library's thread), the
///   diagnosis has no place;
/// - `input_line`: how many input lines had been typed before the
///   traceback began, and `input` the last of them.
///
/// `SyntaxError`s are read too: Python prints one found in the program
/// itself without the `Traceback` line, as a frame without a function.
/// A traceback cut off before any frame of the student's gives nothing.
pub fn from_transcript(
    transcript: &Transcript,
    source_name: &str,
    failed: bool,
) -> Option<Diagnosis> {
    from_transcript_of(transcript, &[source_name.to_string()], failed)
}

/// [`from_transcript`] for a program of several files, `source_names`:
/// the innermost frame in any of them (a module of the student's that
/// the program imports is theirs too).
pub fn from_transcript_of(
    transcript: &Transcript,
    source_names: &[String],
    failed: bool,
) -> Option<Diagnosis> {
    if !failed {
        return None;
    }
    let names: Vec<&str> = source_names.iter().map(|n| base_name(n)).collect();
    let mut reader = Reader::new(&names);
    for event in transcript.events() {
        match event {
            Event::Output(bytes) => reader.output(bytes),
            Event::Input(line) => reader.input(line),
        }
    }
    // Where the case kept stderr apart, the traceback is there, after
    // everything typed, on lines of its own.
    if !transcript.errors().is_empty() {
        reader.end_line();
        reader.output(transcript.errors());
    }
    reader.finish()
}

/// One traceback, as far as it has been read.
#[derive(Default)]
struct Traceback<'t> {
    /// Input lines typed before it began.
    inputs_before: usize,
    /// The last of them.
    input: Option<&'t str>,
    /// Whether any frame has been read (an exception's line only ends a
    /// traceback after one).
    framed: bool,
    /// The innermost frame of the student's so far.
    frame: Option<Frame>,
    /// Whether the line just read was a frame of the student's, whose
    /// source line may come next.
    awaiting_source: bool,
    /// Its last line: the exception.
    exception: Option<String>,
}

struct Frame {
    /// The file's name.
    file: String,
    line: Option<u32>,
    function: Option<String>,
    source: Option<String>,
}

impl Traceback<'_> {
    fn diagnosis(self) -> Diagnosis {
        let message = self.exception.as_deref().unwrap_or(CUT_MESSAGE);
        let mut d = Diagnosis::new(Kind::Exception, Found::Transcript, message);
        if let Some(frame) = self.frame {
            d.file = Some(bounded(&frame.file));
            d.line = frame.line;
            d.function = frame.function;
            d.source = frame.source;
        }
        d.input_line = Some(self.inputs_before);
        d.input = self.input.map(bounded);
        d
    }
}

/// Reads a transcript's lines as they come.
struct Reader<'t, 's> {
    source_names: &'s [&'s str],
    /// The line being printed (its first [`LINE_ROOM`] bytes).
    line: Vec<u8>,
    /// Input lines typed so far, and the last of them.
    typed: usize,
    last_input: Option<&'t str>,
    /// The traceback being read, not yet ended by its exception's line.
    open: Option<Traceback<'t>>,
    /// The last traceback read to its end.
    last: Option<Traceback<'t>>,
}

impl<'t, 's> Reader<'t, 's> {
    fn new(source_names: &'s [&'s str]) -> Self {
        Reader {
            source_names,
            line: Vec::new(),
            typed: 0,
            last_input: None,
            open: None,
            last: None,
        }
    }

    fn output(&mut self, bytes: &[u8]) {
        let mut parts = bytes.split(|&b| b == b'\n').peekable();
        while let Some(part) = parts.next() {
            let room = LINE_ROOM.saturating_sub(self.line.len());
            self.line.extend_from_slice(&part[..part.len().min(room)]);
            if parts.peek().is_some() {
                self.end_line();
            }
        }
    }

    /// A typed line ends the terminal's line it was typed on (the
    /// prompt's); what is printed next begins a new one.
    fn input(&mut self, typed: &'t str) {
        self.end_line();
        self.typed += 1;
        self.last_input = Some(typed);
    }

    fn end_line(&mut self) {
        let text = plain(&self.line).trim_end().to_string();
        self.line.clear();
        self.read_line(&text);
    }

    fn read_line(&mut self, line: &str) {
        if line.ends_with(HEADER) {
            // A traceback left open by another is no traceback: the
            // new one is read instead.
            self.open = Some(Traceback {
                inputs_before: self.typed,
                input: self.last_input,
                ..Traceback::default()
            });
            return;
        }
        if self.open.is_none() {
            // A frame without the header: a `SyntaxError` in the program
            // itself, which Python prints before running any of it.
            if python_frame(line).is_none() {
                return;
            }
            self.open = Some(Traceback {
                inputs_before: self.typed,
                input: self.last_input,
                ..Traceback::default()
            });
        }
        let source_names = self.source_names;
        let Some(open) = self.open.as_mut() else {
            return;
        };
        if let Some((file, line_number, function)) = python_frame(line) {
            open.framed = true;
            open.awaiting_source = source_names.contains(&base_name(file));
            if open.awaiting_source {
                open.frame = Some(Frame {
                    file: base_name(file).to_string(),
                    line: line_number,
                    function: function.filter(|f| *f != "<module>").map(bounded),
                    source: None,
                });
            }
            return;
        }
        if line.starts_with(' ') {
            let text = line.trim();
            let marks = text.chars().all(|c| matches!(c, '^' | '~' | ' '));
            let repeated = text.starts_with("[Previous line repeated");
            if open.awaiting_source && !marks && !repeated && !text.is_empty() {
                if let Some(frame) = open.frame.as_mut() {
                    frame.source = Some(bounded(text));
                }
            }
            // Its source line is the one right under the frame's.
            open.awaiting_source = false;
            return;
        }
        if open.framed && exception_name(line).is_some() {
            open.exception = Some(bounded(line));
            self.last = self.open.take();
            return;
        }
        // A line no traceback has: what was open was not one.
        self.open = None;
    }

    fn finish(mut self) -> Option<Diagnosis> {
        if !self.line.is_empty() {
            self.end_line();
        }
        // A traceback still open at the end was cut off; it is said if it
        // reached a frame of the student's, else the last whole one is.
        match self.open.take() {
            Some(open) if open.frame.is_some() => Some(open.diagnosis()),
            _ => self.last.map(|t| t.diagnosis()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transcript of `parts`: `>text` is a typed line, anything else
    /// printed output.
    fn transcript(parts: &[&str]) -> Transcript {
        let mut t = Transcript::new();
        for part in parts {
            match part.strip_prefix('>') {
                Some(typed) => t.push_input(typed),
                None => t.push_output(part.as_bytes()),
            }
        }
        t
    }

    fn diagnose(parts: &[&str]) -> Option<Diagnosis> {
        from_transcript(&transcript(parts), "connect4.py", true)
    }

    /// Python 3.11's traceback of `int(input())` given `x`, as the
    /// terminal shows it (the prompt, then the traceback on stderr).
    const BAD_NUMBER: &str = "\
Traceback (most recent call last):
  File \"/sandbox/builds/abc/connect4.py\", line 19, in <module>
    main()
  File \"/sandbox/builds/abc/connect4.py\", line 7, in main
    col = read_column()
          ^^^^^^^^^^^^^
  File \"/sandbox/builds/abc/connect4.py\", line 4, in read_column
    return int(text)
           ^^^^^^^^^
ValueError: invalid literal for int() with base 10: 'x'
";

    #[test]
    fn an_uncaught_exception_is_placed_in_the_innermost_frame_and_the_input() {
        let d = diagnose(&["Col? ", ">3", "Col? ", ">x", BAD_NUMBER]).unwrap();
        assert_eq!(d.kind, Kind::Exception);
        assert_eq!(d.found, Found::Transcript);
        assert_eq!(
            d.message,
            "ValueError: invalid literal for int() with base 10: 'x'"
        );
        assert_eq!(d.file.as_deref(), Some("connect4.py"));
        assert_eq!(d.line, Some(4));
        assert_eq!(d.function.as_deref(), Some("read_column"));
        assert_eq!(d.source.as_deref(), Some("return int(text)"));
        assert_eq!(d.input_line, Some(2));
        assert_eq!(d.input.as_deref(), Some("x"));
        assert_eq!(d.case, None);
        assert_eq!(d.count, 1);
    }

    #[test]
    fn a_traceback_on_stderr_kept_apart_is_read_after_everything_typed() {
        // The prompt left without a newline is stdout's, not the
        // traceback's first line.
        let mut t = transcript(&["Col? ", ">3", "Col? ", ">x", "Col? "]);
        t.push_errors(BAD_NUMBER.as_bytes());
        let d = from_transcript(&t, "connect4.py", true).unwrap();
        assert_eq!(
            d.message,
            "ValueError: invalid literal for int() with base 10: 'x'"
        );
        assert_eq!((d.line, d.input_line), (Some(4), Some(2)));
    }

    #[test]
    fn a_traceback_that_ends_the_prompts_line_is_read() {
        // The prompt of the `input()` that raised, printed without a
        // newline, begins the traceback's first line.
        let text = format!("Col? {BAD_NUMBER}");
        let d = diagnose(&["Welcome\n", &text]).unwrap();
        assert_eq!(d.line, Some(4));
        assert_eq!(d.input_line, Some(0));
        assert_eq!(d.input, None);
        assert_eq!(d.when().as_deref(), Some("before any input"));
    }

    #[test]
    fn a_run_that_did_not_fail_gives_nothing_whatever_it_printed() {
        let t = transcript(&["Col? ", ">x", BAD_NUMBER]);
        assert!(from_transcript(&t, "connect4.py", false).is_none());
        assert!(from_transcript(&t, "connect4.py", true).is_some());
    }

    #[test]
    fn a_transcript_without_a_traceback_gives_nothing() {
        assert!(diagnose(&[]).is_none());
        assert!(diagnose(&["Col? ", ">3", "Red wins!\n"]).is_none());
        // Lines that look like an exception's, outside a traceback.
        assert!(diagnose(&["Score: 3\nError: column full\n"]).is_none());
    }

    #[test]
    fn the_library_frames_under_the_students_are_not_the_place() {
        let text = "\
Col? Traceback (most recent call last):
  File \"/sandbox/builds/abc/connect4.py\", line 19, in <module>
    main()
  File \"/sandbox/builds/abc/connect4.py\", line 9, in main
    json.loads(\"{bad\")
  File \"/usr/lib/python3.11/json/__init__.py\", line 346, in loads
    return _default_decoder.decode(s)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File \"/usr/lib/python3.11/json/decoder.py\", line 353, in raw_decode
    obj, end = self.scan_once(s, idx)
               ^^^^^^^^^^^^^^^^^^^^^^
json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)
";
        let d = diagnose(&[">9", text]).unwrap();
        assert_eq!(d.line, Some(9));
        assert_eq!(d.function.as_deref(), Some("main"));
        assert_eq!(d.source.as_deref(), Some("json.loads(\"{bad\")"));
        assert!(d
            .message
            .starts_with("json.decoder.JSONDecodeError: Expecting"));
    }

    #[test]
    fn a_frame_at_the_top_level_has_no_function() {
        let text = "\
Traceback (most recent call last):
  File \"/builds/abc/connect4.py\", line 3, in <module>
    board[7] = 'R'
    ~~~~~^^^
IndexError: list assignment index out of range
";
        let d = diagnose(&[">7", text]).unwrap();
        assert_eq!(d.line, Some(3));
        assert_eq!(d.function, None);
        assert_eq!(d.source.as_deref(), Some("board[7] = 'R'"));
        assert_eq!(d.place().as_deref(), Some("at connect4.py, line 3"));
    }

    #[test]
    fn of_chained_exceptions_the_last_is_the_one_that_ended_the_program() {
        let text = "\
Col? Traceback (most recent call last):
  File \"/builds/abc/connect4.py\", line 12, in main
    {}[\"k\"]
    ~~^^^^^
KeyError: 'k'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File \"/builds/abc/connect4.py\", line 19, in <module>
    main()
  File \"/builds/abc/connect4.py\", line 14, in main
    raise ValueError(\"no such key\")
ValueError: no such key
";
        let d = diagnose(&[">8", text]).unwrap();
        assert_eq!(d.message, "ValueError: no such key");
        assert_eq!(d.line, Some(14));
        assert_eq!(
            d.source.as_deref(),
            Some("raise ValueError(\"no such key\")")
        );
        assert_eq!(d.input_line, Some(1));

        let direct = text.replace(
            "During handling of the above exception, another exception occurred:",
            "The above exception was the direct cause of the following exception:",
        );
        assert_eq!(diagnose(&[">8", &direct]).unwrap().line, Some(14));
    }

    #[test]
    fn a_syntax_error_in_the_program_itself_has_its_line_and_no_function() {
        // (Written line by line: a string's `\` at a line's end would
        // take the first line's indent.)
        let text = concat!(
            "  File \"/builds/abc/connect4.py\", line 5\n",
            "    if col == 3\n",
            "               ^\n",
            "SyntaxError: expected ':'\n",
        );
        let d = diagnose(&[text]).unwrap();
        assert_eq!(d.message, "SyntaxError: expected ':'");
        assert_eq!(d.line, Some(5));
        assert_eq!(d.function, None);
        assert_eq!(d.source.as_deref(), Some("if col == 3"));
        assert_eq!(d.input_line, Some(0));
    }

    #[test]
    fn a_syntax_error_in_a_module_it_imports_is_placed_at_the_import() {
        let text = "\
Traceback (most recent call last):
  File \"/builds/abc/connect4.py\", line 1, in <module>
    import board
  File \"/builds/abc/board.py\", line 1
    def f(:
          ^
SyntaxError: invalid syntax
";
        let d = diagnose(&[text]).unwrap();
        assert_eq!(d.line, Some(1));
        assert_eq!(d.source.as_deref(), Some("import board"));
        assert_eq!(d.message, "SyntaxError: invalid syntax");
    }

    #[test]
    fn input_running_out_is_an_uncaught_eof_error_and_kept() {
        let text = "\
Col? Traceback (most recent call last):
  File \"/builds/abc/connect4.py\", line 3, in read_column
    text = input(\"Col? \")
           ^^^^^^^^^^^^^^
EOFError: EOF when reading a line
";
        let d = diagnose(&["Col? ", ">3", text]).unwrap();
        assert_eq!(d.message, "EOFError: EOF when reading a line");
        assert_eq!(d.line, Some(3));
        assert_eq!(d.input_line, Some(1));
        assert_eq!(d.input.as_deref(), Some("3"));
    }

    #[test]
    fn an_interrupt_has_an_exception_line_of_its_name_alone() {
        let text = "\
Traceback (most recent call last):
  File \"/builds/abc/connect4.py\", line 2, in <module>
    while True: pass
                ^^^^
KeyboardInterrupt
";
        let d = diagnose(&[text]).unwrap();
        assert_eq!(d.message, "KeyboardInterrupt");
        assert_eq!(d.line, Some(2));
    }

    #[test]
    fn a_recursion_that_never_ends_is_placed_in_the_repeated_frame() {
        let mut text = String::from(
            "Traceback (most recent call last):\n  \
             File \"/builds/abc/connect4.py\", line 19, in <module>\n    main()\n",
        );
        for _ in 0..3 {
            text.push_str(
                "  File \"/builds/abc/connect4.py\", line 17, in f\n    \
                 return f(n + 1)\n           ^^^^^^^^\n",
            );
        }
        text.push_str("  [Previous line repeated 996 more times]\n");
        text.push_str("RecursionError: maximum recursion depth exceeded\n");
        let d = diagnose(&[&text]).unwrap();
        assert_eq!(d.line, Some(17));
        assert_eq!(d.function.as_deref(), Some("f"));
        assert_eq!(d.source.as_deref(), Some("return f(n + 1)"));
        assert_eq!(
            d.message,
            "RecursionError: maximum recursion depth exceeded"
        );
    }

    #[test]
    fn a_traceback_cut_off_before_its_exception_says_so() {
        let text = "\
Traceback (most recent call last):
  File \"/builds/abc/connect4.py\", line 19, in <module>
    main()
  File \"/builds/abc/connect4.py\", line 17, in f
    return f(n + 1)
           ^^^^";
        let d = diagnose(&[">1", text]).unwrap();
        assert_eq!(d.message, CUT_MESSAGE);
        assert_eq!(d.line, Some(17));
        assert_eq!(d.input_line, Some(1));
        // Cut off before any frame of the student's: nothing to say.
        assert!(
            diagnose(&["Traceback (most recent call last):\n  File \"/usr/lib/x.py\""]).is_none()
        );
    }

    #[test]
    fn an_exception_with_no_frame_of_the_students_has_no_place() {
        let text = "\
Traceback (most recent call last):
  File \"/usr/lib/python3.11/threading.py\", line 1045, in _bootstrap_inner
    self.run()
RuntimeError: something of the library's
";
        let d = diagnose(&[text]).unwrap();
        assert_eq!(d.message, "RuntimeError: something of the library's");
        assert_eq!(d.file, None);
        assert_eq!(d.line, None);
        assert_eq!(d.place(), None);
    }

    #[test]
    fn only_the_students_file_is_theirs_whatever_its_folder() {
        let d = from_transcript(
            &transcript(&[BAD_NUMBER]),
            "/somewhere/else/connect4.py",
            true,
        )
        .unwrap();
        assert_eq!(d.file.as_deref(), Some("connect4.py"));
        let d = from_transcript(&transcript(&[BAD_NUMBER]), "game.py", true).unwrap();
        assert_eq!(d.file, None, "no frame is game.py's");
    }

    #[test]
    fn a_printed_traceback_the_program_went_on_after_is_the_last_one_kept() {
        // A failed run: the last whole traceback is taken, even if the
        // program printed more after it (it cannot be told apart).
        let d = diagnose(&[BAD_NUMBER, "Goodbye\n"]).unwrap();
        assert_eq!(d.line, Some(4));
        // A traceback left open by a line no traceback has is none.
        let broken = "Traceback (most recent call last):\n  \
                      File \"/b/connect4.py\", line 2, in <module>\n    x()\n\nRed wins!\n";
        assert!(diagnose(&[broken]).is_none());
    }

    #[test]
    fn carriage_returns_and_colours_of_a_terminal_are_read_through() {
        let coloured = BAD_NUMBER
            .replace('\n', "\r\n")
            .replace("Traceback", "\x1b[1;35mTraceback\x1b[0m")
            .replace("ValueError", "\x1b[1;35mValueError\x1b[0m");
        let d = diagnose(&[&coloured]).unwrap();
        assert_eq!(d.line, Some(4));
        assert_eq!(
            d.message,
            "ValueError: invalid literal for int() with base 10: 'x'"
        );
    }

    #[test]
    fn what_the_program_wrote_is_bounded_and_made_safe() {
        let long = "y".repeat(100_000);
        let text = format!(
            "Traceback (most recent call last):\n  \
             File \"/b/connect4.py\", line 2, in <module>\n    print({long})\n\
             ValueError: \x1b]0;title\x07{long}\n"
        );
        let d = diagnose(&[">\x1b[2J", &long, "\n", &text]).unwrap();
        for text in [
            &d.message,
            d.source.as_ref().unwrap(),
            d.input.as_ref().unwrap(),
        ] {
            assert!(text.chars().count() <= super::super::TEXT_LIMIT);
            assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'));
        }
    }

    #[test]
    fn megabytes_of_output_and_thousands_of_frames_are_read_in_one_pass() {
        let mut t = Transcript::new();
        // A mebibyte-long line, then many lines, then a deep traceback.
        t.push_output(&vec![b'x'; 1 << 20]);
        t.push_output(b"\n");
        for i in 0..10_000 {
            t.push_input(&i.to_string());
            t.push_output(b"Col? \n");
        }
        let mut text = String::from("Traceback (most recent call last):\n");
        for i in 0..10_000 {
            text.push_str(&format!(
                "  File \"/b/lib.py\", line {i}, in g\n    g()\n  \
                 File \"/b/connect4.py\", line {}, in f\n    f()\n",
                i + 1
            ));
        }
        text.push_str("RecursionError: maximum recursion depth exceeded\n");
        t.push_output(text.as_bytes());
        let started = std::time::Instant::now();
        let d = from_transcript(&t, "connect4.py", true).unwrap();
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(d.line, Some(10_000));
        assert_eq!(d.input_line, Some(10_000));
        assert_eq!(d.input.as_deref(), Some("9999"));
    }

    #[test]
    fn exception_lines_are_names_before_a_colon() {
        for yes in [
            "ValueError: x",
            "KeyboardInterrupt",
            "json.decoder.JSONDecodeError: x",
            "GameOver:",
            "_Private: y",
        ] {
            assert!(exception_name(yes).is_some(), "{yes}");
        }
        for no in [
            "",
            "Red wins!",
            "Score:3",
            "two words: x",
            "3Error: x",
            ".A: x",
        ] {
            assert!(exception_name(no).is_none(), "{no}");
        }
    }

    #[test]
    fn frame_lines_give_file_line_and_function() {
        assert_eq!(
            python_frame("  File \"/b/a \"q\".py\", line 42, in main"),
            Some(("/b/a \"q\".py", Some(42), Some("main")))
        );
        assert_eq!(
            python_frame("  File \"a.py\", line 5"),
            Some(("a.py", Some(5), None))
        );
        assert_eq!(python_frame("File \"a.py\", line 5"), None);
        assert_eq!(python_frame("  File \"a.py\""), None);
    }
}
