//! Colour on a terminal, plain text everywhere else.

use std::io::IsTerminal;

/// Whether to colour what is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    color: bool,
}

/// When to use colour, as `--color` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set or `TERM` is `dumb`.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl Style {
    /// Plain text.
    pub const PLAIN: Style = Style { color: false };

    /// The style for stdout under `choice`.
    pub fn for_stdout(choice: ColorChoice) -> Style {
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        };
        Style { color }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color && !text.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// What the reference has and the program lacks.
    pub fn expected(&self, text: &str) -> String {
        self.paint("31", text)
    }

    /// What the program has and the reference lacks.
    pub fn actual(&self, text: &str) -> String {
        self.paint("32", text)
    }

    /// Typed input.
    pub fn input(&self, text: &str) -> String {
        self.paint("1;36", text)
    }

    /// Headings and verdicts that need attention.
    pub fn strong(&self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Context, markers, notes.
    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    /// A passed case.
    pub fn good(&self, text: &str) -> String {
        self.paint("1;32", text)
    }

    /// A failed case.
    pub fn bad(&self, text: &str) -> String {
        self.paint("1;31", text)
    }
}
