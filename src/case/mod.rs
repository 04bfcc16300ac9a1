//! Cases: what to type into a program and how to judge what it prints.
//!
//! A case folder (`cases/<game>/`) holds `suite.yaml` with its reference
//! (a built-in game, or a program of its own) and defaults, one YAML file
//! per case, and next to each case its pinned reference transcript
//! (`<case>.transcript`). The format is documented in
//! docs/cases.md; [`file`] is its exact schema.

use std::path::{Path, PathBuf};

use reference::Game;

pub mod builtin;
pub mod file;
mod load;
pub mod pin;
mod suite;

pub use file::{ExitStatus, Mode, MoveNumbers, Stderr, TextPart, Visibility};
pub use load::{is_plain_name, load_suite, SUITE_FILE};
pub use suite::{Case, Error, GradedRegion, OutputFile, Problem, Reference, RubricItem, Suite};

/// The folder of suites used when none is named: `cases/` in the current
/// folder if there is one, else the suites built into referee.
pub fn default_root() -> Result<PathBuf, Error> {
    let here = PathBuf::from("cases");
    if here.is_dir() {
        return Ok(here);
    }
    builtin::root().map(Path::to_path_buf)
}

/// The suite used for `game` when none is named: `cases/<game id>` in the
/// current folder if it holds a suite, else the one built into referee.
pub fn default_dir(game: Game) -> Result<PathBuf, Error> {
    let here = PathBuf::from("cases").join(game.id());
    if here.join(SUITE_FILE).is_file() {
        return Ok(here);
    }
    builtin::dir(game)
}

/// Where a suite comes from, in words that stay the same from run to
/// run: `built-in <game>`, or the folder's absolute path.
pub fn origin(suite: &Suite) -> String {
    let dir = &suite.dir;
    if builtin::is_builtin(dir) {
        format!("built-in {}", suite.name)
    } else {
        std::path::absolute(dir)
            .unwrap_or_else(|_| dir.to_path_buf())
            .display()
            .to_string()
    }
}
