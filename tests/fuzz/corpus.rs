//! The seed corpus: the shipped suites, their case files and their pinned
//! transcripts, loaded once.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use referee::case::{load_suite, pin, Case, Suite};
use referee::expected::ReferenceRun;
use referee::Game;

/// The suites fuzzed from: the three built-in games' and the example
/// of an assignment with its own reference.
pub const SUITES: &[&str] = &[
    "cases/connect4",
    "cases/connect4-bomb",
    "cases/pentago",
    "examples/temperature",
];

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every shipped suite, loaded.
pub static LOADED: LazyLock<Vec<Suite>> = LazyLock::new(|| {
    SUITES
        .iter()
        .map(|dir| load_suite(&root().join(dir)).expect("the shipped suites load"))
        .collect()
});

/// A whole-game case of a shipped suite with its pinned reference run.
pub struct Seed {
    /// Which of [`LOADED`] it is of.
    pub suite: usize,
    /// The case.
    pub case: Case,
    /// The pinned file's bytes.
    pub pin: Vec<u8>,
    /// The run it pins.
    pub run: ReferenceRun,
}

impl Seed {
    /// Its suite.
    pub fn suite(&self) -> &'static Suite {
        &LOADED[self.suite]
    }

    /// The built-in game it is of, if any.
    pub fn game(&self) -> Option<Game> {
        self.suite().game()
    }
}

/// Every whole-game case of the shipped suites (function calls pin
/// something else), with its pin.
pub static SEEDS: LazyLock<Vec<Seed>> = LazyLock::new(|| {
    let mut seeds = Vec::new();
    for (index, suite) in LOADED.iter().enumerate() {
        for case in suite.cases.iter().filter(|c| c.call.is_none()) {
            let pin = std::fs::read(case.pin_file()).expect("every shipped case is pinned");
            let run = pin::parse(&pin, &case.input, case.end_of_input)
                .expect("every shipped pin reads back");
            seeds.push(Seed {
                suite: index,
                case: case.clone(),
                pin,
                run,
            });
        }
    }
    assert!(seeds.len() > 50, "only {} seeds", seeds.len());
    seeds
});

/// The YAML files of the shipped suites: each `suite.yaml` and case
/// file, with the folder it is in.
pub static YAML: LazyLock<Vec<(PathBuf, String)>> = LazyLock::new(|| {
    let mut files = Vec::new();
    for dir in SUITES {
        let dir = root().join(dir);
        let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("a shipped suite")
            .map(|e| e.expect("listed").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        names.sort();
        for path in names {
            let text = std::fs::read_to_string(&path).expect("a shipped case file");
            files.push((path, text));
        }
    }
    files
});

/// The `suite.yaml` of the suite in `dir`.
pub fn suite_yaml(dir: &Path) -> &'static str {
    YAML.iter()
        .find(|(p, _)| p.parent() == Some(dir) && p.ends_with("suite.yaml"))
        .map(|(_, text)| text.as_str())
        .expect("every shipped suite has a suite.yaml")
}
