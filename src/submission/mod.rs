//! Submissions: finding the program in what a student handed in, telling
//! which game it plays, and building it into something the runner can
//! start.
//!
//! A submission is a `.c` file (compiled with the system C compiler), a
//! `.py` file (run with Python 3), an executable, or a folder holding
//! exactly one of those.

use std::fmt;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use reference::Game;

mod build;
pub mod python;

pub use build::{build, find_on_path, BuildError, Built, DEFAULT_CFLAGS};

/// The language a submission is written in, which decides how it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Language {
    /// Compiled with the system C compiler.
    C,
    /// Run with Python 3.
    Python,
    /// Run as it is.
    Executable,
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Language::C => "C",
            Language::Python => "Python",
            Language::Executable => "executable",
        })
    }
}

/// A student's program, found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// A name for it: the file's name without extension, or the folder's.
    pub id: String,
    /// The program file, absolute.
    pub file: PathBuf,
    /// How it runs.
    pub language: Language,
}

/// Finds the program at `path`: a program file, or a folder holding
/// exactly one.
pub fn locate(path: &Path) -> Result<Submission, String> {
    let meta = fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{}: no such file or folder", path.display()),
        _ => format!("{}: cannot read it: {e}", path.display()),
    })?;
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if meta.is_file() {
        let language = language_of(&absolute).ok_or_else(|| {
            format!(
                "{}: not a program: a submission is a .c file, a .py file, an executable, \
                 or a folder holding one of them",
                path.display()
            )
        })?;
        return Ok(Submission {
            id: stem(&absolute),
            file: absolute,
            language,
        });
    }
    let programs =
        programs_in(&absolute).map_err(|e| format!("{}: cannot list it: {e}", path.display()))?;
    match &programs[..] {
        [(file, language)] => Ok(Submission {
            id: stem(&absolute),
            file: file.clone(),
            language: *language,
        }),
        [] => Err(format!(
            "{}: no program in this folder (looked for a .c file, a .py file or an executable)",
            path.display()
        )),
        several => Err(format!(
            "{}: this folder holds {} programs ({}); a submission holds exactly one \
             (to grade a whole class, use `referee grade`)",
            path.display(),
            several.len(),
            several
                .iter()
                .map(|(f, _)| f
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The programs directly in a folder, sorted; hidden files are skipped.
pub fn programs_in(dir: &Path) -> std::io::Result<Vec<(PathBuf, Language)>> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden || !path.is_file() {
            continue;
        }
        if let Some(language) = language_of(&path) {
            found.push((path, language));
        }
    }
    found.sort();
    Ok(found)
}

fn language_of(file: &Path) -> Option<Language> {
    match file.extension().and_then(|e| e.to_str()) {
        Some("c") => Some(Language::C),
        Some("py") => Some(Language::Python),
        _ => {
            let mode = fs::metadata(file).ok()?.permissions().mode();
            (mode & 0o111 != 0).then_some(Language::Executable)
        }
    }
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "submission".into())
}

/// The game a submission plays, from its language, file name and text,
/// when that is unambiguous.
pub fn infer_game(submission: &Submission) -> Result<Game, String> {
    let unknown = || {
        format!(
            "cannot tell which game {} plays: name it with --game ({})",
            submission.file.display(),
            Game::ALL.map(Game::id).join(", ")
        )
    };
    match submission.language {
        Language::Python => return Ok(Game::Connect4Bomb),
        Language::Executable => return Err(unknown()),
        Language::C => {}
    }
    let name = submission.file.to_string_lossy().to_lowercase();
    let text = fs::read(&submission.file)
        .map(|b| String::from_utf8_lossy(&b).to_lowercase())
        .unwrap_or_default();
    let pentago = name.contains("pentago") || text.contains("pentago") || text.contains("quadrant");
    let connect4 = name.contains("connect")
        || name.contains("lab6")
        || text.contains("connect")
        || text.contains("column number (0-5)");
    match (pentago, connect4) {
        (true, false) => Ok(Game::Pentago),
        (false, true) => Ok(Game::Connect4),
        _ => Err(unknown()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_folders_are_located() {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("lab6.c");
        fs::write(&c, "int main(){}").unwrap();
        let found = locate(&c).unwrap();
        assert_eq!((found.id.as_str(), found.language), ("lab6", Language::C));
        // A folder with one program (and other files) is that program.
        let one = dir.path().join("alice");
        fs::create_dir(&one).unwrap();
        fs::write(one.join("game.py"), "print(1)").unwrap();
        fs::write(one.join("README.md"), "hi").unwrap();
        let found = locate(&one).unwrap();
        assert_eq!(
            (found.id.as_str(), found.language),
            ("alice", Language::Python)
        );
        // Several programs: refused, naming them.
        fs::write(one.join("other.c"), "").unwrap();
        let err = locate(&one).unwrap_err();
        assert!(err.contains("game.py") && err.contains("other.c"), "{err}");
        // Nothing there, or not a program.
        assert!(locate(&dir.path().join("missing.c"))
            .unwrap_err()
            .contains("no such"));
        let txt = dir.path().join("notes.txt");
        fs::write(&txt, "").unwrap();
        assert!(locate(&txt).unwrap_err().contains("not a program"));
    }

    #[test]
    fn games_are_inferred_when_unambiguous() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            fs::write(&p, text).unwrap();
            locate(&p).unwrap()
        };
        assert_eq!(
            infer_game(&write("prog3Pentagoreed.c", "")).unwrap(),
            Game::Pentago
        );
        assert_eq!(
            infer_game(&write("a.c", "/* rotate a quadrant */")).unwrap(),
            Game::Pentago
        );
        assert_eq!(infer_game(&write("lab6.c", "")).unwrap(), Game::Connect4);
        assert_eq!(infer_game(&write("x.py", "")).unwrap(), Game::Connect4Bomb);
        assert!(infer_game(&write("main.c", "int main(){}")).is_err());
    }
}
