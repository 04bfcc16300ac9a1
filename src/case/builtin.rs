//! The suites shipped with referee, built into the binary, so that a
//! copied or installed `referee` grades without the source tree's
//! `cases/` folder. They are written out once per run to a private
//! temporary folder (readable by its owner only) and loaded from there
//! like any case folder; [`remove`] deletes it when the command ends.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use include_dir::{include_dir, Dir};
use reference::Game;

use super::suite::Error;

/// The repository's `cases/` as it was when referee was built.
static CASES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/cases");

/// Where the built-in suites were written out, once.
static WRITTEN: OnceLock<Result<PathBuf, Error>> = OnceLock::new();

/// The folder holding the built-in suites, one folder per game.
pub fn root() -> Result<&'static Path, Error> {
    WRITTEN
        .get_or_init(write_out)
        .as_deref()
        .map_err(Clone::clone)
}

/// The built-in suite of `game`.
pub fn dir(game: Game) -> Result<PathBuf, Error> {
    Ok(root()?.join(game.id()))
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

fn write_out() -> Result<PathBuf, Error> {
    let cannot = |e: std::io::Error| Error::Builtin(Arc::new(e));
    let root = tempfile::Builder::new()
        .prefix("referee-cases-")
        .tempdir()
        .map_err(cannot)?
        .keep();
    hold(&root);
    extract(&CASES, &root).map_err(cannot)?;
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

fn extract(dir: &Dir<'_>, root: &Path) -> std::io::Result<()> {
    for file in dir.files() {
        let path = root.join(file.path());
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(path, file.contents())?;
    }
    for sub in dir.dirs() {
        fs::create_dir_all(root.join(sub.path()))?;
        extract(sub, root)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
