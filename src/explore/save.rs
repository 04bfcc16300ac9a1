//! The minimal game as a ready case: a case file in a case folder, with
//! its pinned transcript, that `referee cases validate` accepts and
//! `referee check --cases` replays. A new folder gets the explored
//! suite's settings (without its rubric), so the case is judged as it was
//! explored (the same limits, comparison and ignored regions).

use std::fs;
use std::path::{Path, PathBuf};

use serde_yaml::{Mapping, Value};

use super::{search, Error, Found, Task};
use crate::case::{self, pin, Case, Mode, MoveNumbers, Suite, SUITE_FILE};
use crate::grading::Expected;

/// Where a case was saved.
#[derive(Clone, Debug)]
pub struct Saved {
    /// The case file.
    pub file: PathBuf,
    /// Its folder.
    pub folder: PathBuf,
    /// Whether the folder (its `suite.yaml`) was made for it.
    pub new_folder: bool,
}

/// Saves `found`, explored in `suite` with `seed`, in the case folder
/// `folder` (made when it does not exist).
pub fn save(found: &Found, suite: &Suite, seed: u64, folder: &Path) -> Result<Saved, Error> {
    let new_folder = ensure_folder(folder, suite)?;
    let text = case_text(found, suite, seed);
    let file = free_name(folder, &found.case.name, &text);
    fs::write(&file, &text).map_err(|source| Error::Write {
        path: file.display().to_string(),
        source,
    })?;
    let saved = load_saved(folder, &file)?;
    if task_of(&saved) != found.task {
        return Err(Error::Folder(format!(
            "{} was written but reads back as another game; this is a bug in referee",
            file.display()
        )));
    }
    let pinned = match (&found.expected, &saved.call) {
        (_, Some(call)) => call.pin().into_bytes(),
        (Expected::Play(run), None) => {
            pin::pinned_case(run, &saved).map_err(|source| crate::oracle::Error::Unpinnable {
                case: saved.name.clone(),
                source,
            })?
        }
        (Expected::Call(_), None) => {
            return Err(Error::Folder(format!(
                "{} reads back as a whole game, found as a call; this is a bug in referee",
                file.display()
            )))
        }
    };
    pin::write(&saved, &pinned).map_err(|source| Error::Write {
        path: saved.pin_file().display().to_string(),
        source,
    })?;
    Ok(Saved {
        file,
        folder: folder.to_path_buf(),
        new_folder,
    })
}

/// Makes `folder` a case folder for `suite`'s game when it is not one;
/// true when it was made. A folder of another game's cases is refused.
fn ensure_folder(folder: &Path, suite: &Suite) -> Result<bool, Error> {
    let settings = folder.join(SUITE_FILE);
    if settings.exists() {
        let existing = case::load_suite(folder).map_err(|p| {
            Error::Folder(format!(
                "{p}; name another folder to save the game in with --save"
            ))
        })?;
        if !search::same_reference(&existing, suite) {
            return Err(Error::Folder(format!(
                "{} holds cases of {}, not {}: name another folder with --save",
                folder.display(),
                existing.name,
                suite.name
            )));
        }
        if !existing.rubric.is_empty() {
            return Err(Error::Folder(format!(
                "{} lists a rubric, so each of its cases names the rubric item it earns points \
                 for, which referee cannot choose: save into a folder of its own (leave out \
                 --save for explored/{}), then move the case in with its `rubric:` and `points:`",
                folder.display(),
                suite.name
            )));
        }
        return Ok(false);
    }
    let write = |path: &Path, error: std::io::Error| Error::Write {
        path: path.display().to_string(),
        source: error,
    };
    fs::create_dir_all(folder).map_err(|e| write(folder, e))?;
    let text = search::settings_for_explored(suite)?;
    fs::write(&settings, text).map_err(|e| write(&settings, e))?;
    search::copy_support(suite, folder)?;
    Ok(true)
}

/// `<name>.yaml` in `folder`, or `<name>-2.yaml`, ... when a case of that
/// name holds another game already; the same game is written again in
/// its place.
fn free_name(folder: &Path, name: &str, text: &str) -> PathBuf {
    (1..)
        .map(|n| match n {
            1 => folder.join(format!("{name}.yaml")),
            n => folder.join(format!("{name}-{n}.yaml")),
        })
        .find(|file| fs::read_to_string(file).map_or(true, |old| old == text))
        .unwrap_or_else(|| folder.join(format!("{name}.yaml")))
}

fn load_saved(folder: &Path, file: &Path) -> Result<Case, Error> {
    let suite = case::load_suite(folder).map_err(|p| Error::Folder(p.to_string()))?;
    if let Some(problem) = suite.problems.iter().find(|p| p.file == file) {
        return Err(Error::Folder(format!(
            "{problem} (written by referee explore: this is a bug in referee)"
        )));
    }
    suite
        .cases
        .into_iter()
        .find(|c| c.file == file)
        .ok_or_else(|| Error::Folder(format!("{} does not load", file.display())))
}

fn task_of(case: &Case) -> Task {
    match &case.call {
        Some(call) => Task::Call(call.clone()),
        None => Task::Input(case.input.clone()),
    }
}

/// The case file: a comment saying where it came from, what it shows,
/// the settings it was judged with, and the game.
pub fn case_text(found: &Found, suite: &Suite, seed: u64) -> String {
    let mut map = Mapping::new();
    let mut put = |key: &str, value: Value| {
        map.insert(Value::String(key.into()), value);
    };
    put(
        "description",
        Value::String(format!(
            "Found by referee explore: {}, played differently from the reference ({}).",
            found.described,
            found.outcome.judgement.verdict.label()
        )),
    );
    put("visibility", Value::String("public".into()));
    put("points", Value::from(found.case.points));
    let mode = found.case.mode.name();
    put("mode", Value::String(mode.into()));
    if found.case.mode == Mode::Game {
        let numbers = match found.case.move_numbers {
            MoveNumbers::Optional => "optional",
            MoveNumbers::Required => "required",
            MoveNumbers::Ignored => "ignored",
        };
        put("move_numbers", Value::String(numbers.into()));
        put("format_points", Value::from(found.case.format_points));
        put("ending_points", Value::from(found.case.ending_points));
    }
    let names = found.case.compare.names();
    put(
        "compare",
        if names.is_empty() {
            Value::String("exact".into())
        } else {
            Value::Sequence(names.into_iter().map(Value::String).collect())
        },
    );
    match &found.task {
        Task::Input(lines) => put(
            "input",
            Value::Sequence(lines.iter().cloned().map(Value::String).collect()),
        ),
        Task::Call(call) => {
            let mut body = Mapping::new();
            body.insert("function".into(), call.function.name().into());
            body.insert(
                "args".into(),
                Value::Sequence(call.args.iter().map(|&a| a.into()).collect()),
            );
            body.insert("board".into(), call.board.render().into());
            put("call", Value::Mapping(body));
        }
    }
    let body = serde_yaml::to_string(&Value::Mapping(map)).unwrap_or_default();
    let which = match suite.game() {
        Some(game) => format!("--game {game}"),
        None => format!("--cases {}", suite.dir.display()),
    };
    format!(
        "# Found by `referee explore {which} --seed {seed}`: game {} of the generated games \
         ({}), shrunk in {} runs.\n{body}",
        found.index + 1,
        found.generated,
        found.shrink_runs
    )
}
