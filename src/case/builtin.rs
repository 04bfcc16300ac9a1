//! The suites shipped with referee, built into the binary, so that a
//! copied or installed `referee` grades without the source tree's
//! `cases/` folder. They are written out to a private temporary folder
//! (readable by its owner only), each suite the first time a command asks
//! for it (grading one game writes that game's suite only: the three
//! together are some 360 files), and loaded from there like any case
//! folder; [`remove`] deletes the folder when the command ends.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use include_dir::{include_dir, Dir};
use reference::Game;

use super::suite::Error;

/// The repository's `cases/` as it was when referee was built.
static CASES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/cases");

/// The folder the built-in suites are written out to, made once.
static WRITTEN: OnceLock<Result<PathBuf, Error>> = OnceLock::new();

/// The folders of [`CASES`] written out so far (by name; `""` for its
/// top-level files).
static EXTRACTED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// The folder holding the built-in suites, one folder per game, every
/// one of them written out.
pub fn root() -> Result<&'static Path, Error> {
    let root = folder()?;
    written(root, "", |root| write_files(&CASES, root))?;
    for sub in CASES.dirs() {
        let name = sub.path().to_str().unwrap_or_default();
        written(root, name, |root| extract(sub, root))?;
    }
    Ok(root)
}

/// The built-in suite of `game`, written out the first time it is asked
/// for.
pub fn dir(game: Game) -> Result<PathBuf, Error> {
    let root = folder()?;
    if let Some(sub) = CASES.get_dir(game.id()) {
        written(root, game.id(), |root| extract(sub, root))?;
    }
    Ok(root.join(game.id()))
}

/// The folder the suites are written to, made (empty) on first use.
fn folder() -> Result<&'static Path, Error> {
    WRITTEN
        .get_or_init(make_folder)
        .as_deref()
        .map_err(Clone::clone)
}

/// Runs `write` into `root` unless `name` was written already.
fn written(
    root: &Path,
    name: &'static str,
    write: impl FnOnce(&Path) -> std::io::Result<()>,
) -> Result<(), Error> {
    let mut done = EXTRACTED.lock().unwrap_or_else(|e| e.into_inner());
    if !done.contains(name) {
        write(root).map_err(|e| Error::Builtin(Arc::new(e)))?;
        done.insert(name);
    }
    Ok(())
}

/// Whether `dir` is one of the built-in suites, as written out.
pub fn is_builtin(dir: &Path) -> bool {
    match WRITTEN.get() {
        Some(Ok(root)) => dir.starts_with(root),
        _ => false,
    }
}

/// Deletes the written-out suites, if any.
pub fn remove() {
    if let Some(Ok(root)) = WRITTEN.get() {
        let _ = fs::remove_dir_all(root);
    }
}

fn make_folder() -> Result<PathBuf, Error> {
    let root = tempfile::Builder::new()
        .prefix("referee-cases-")
        .tempdir()
        .map_err(|e| Error::Builtin(Arc::new(e)))?
        .keep();
    hold(&root);
    Ok(root)
}

/// Held while referee lives: a referee killed outright (SIGKILL) cannot
/// remove the folder, and the next one removes it, as it removes its
/// other abandoned `referee-*` folders: those whose `.lock` nobody holds.
static HELD: OnceLock<nix::fcntl::Flock<fs::File>> = OnceLock::new();

fn hold(root: &Path) {
    let Ok(file) = fs::File::create(root.join(".lock")) else {
        return;
    };
    if let Ok(lock) = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock) {
        let _ = HELD.set(lock);
    }
}

/// Writes `dir` and everything under it at its place under `root`.
fn extract(dir: &Dir<'_>, root: &Path) -> std::io::Result<()> {
    fs::create_dir_all(root.join(dir.path()))?;
    write_files(dir, root)?;
    for sub in dir.dirs() {
        extract(sub, root)?;
    }
    Ok(())
}

/// Writes the files directly in `dir` at their places under `root`.
fn write_files(dir: &Dir<'_>, root: &Path) -> std::io::Result<()> {
    for file in dir.files() {
        fs::write(root.join(file.path()), file.contents())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's suite, asked for, is written out whole and byte for byte.
    #[test]
    fn a_games_suite_is_written_out_whole_when_asked_for() {
        let dir = dir(Game::Pentago).unwrap();
        let shipped = CASES.get_dir(Game::Pentago.id()).unwrap();
        let mut want = 0;
        let mut stack = vec![shipped];
        while let Some(d) = stack.pop() {
            want += d.files().count();
            for f in d.files() {
                let written = fs::read(folder().unwrap().join(f.path())).unwrap();
                assert_eq!(written, f.contents(), "{}", f.path().display());
            }
            stack.extend(d.dirs());
        }
        assert!(want > 10, "{want} files");
        assert!(dir.join("suite.yaml").is_file());
    }

    #[test]
    fn every_game_has_a_built_in_suite() {
        for &game in Game::ALL {
            let dir = dir(game).unwrap();
            assert!(dir.join("suite.yaml").is_file(), "{}", dir.display());
            assert!(is_builtin(&dir));
        }
        assert!(!is_builtin(Path::new("cases/connect4")));
    }
}
