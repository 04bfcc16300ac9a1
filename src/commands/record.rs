//! `referee cases record <game> --name NAME`: authoring a case by playing
//! it. The TA plays the reference in the terminal; every line the game
//! read becomes the case's input, and its transcript is pinned.

use std::fs;
use std::io::{self, BufRead, ErrorKind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use crate::cli::RecordArgs;
use referee::case::{self, pin, SUITE_FILE};
use referee::expected::LineInput;

/// Plays, then saves the case.
pub fn run(args: &RecordArgs) -> Result<ExitCode, Failure> {
    let game = args.game.0;
    // Only where it is told, or the current folder's `cases/<game>`:
    // never into the suites referee was built with.
    let dir = args
        .cases
        .clone()
        .unwrap_or_else(|| PathBuf::from("cases").join(game.id()));
    let file = dir.join(format!("{}.yaml", args.name));
    check_name(&args.name)?;
    if file.exists() && !args.force {
        return Err(format!(
            "{} already exists: choose another --name, or pass --force to replace it",
            file.display()
        )
        .into());
    }
    let created = ensure_suite(&dir, game)?;
    let absolute = std::path::absolute(&file).unwrap_or_else(|_| file.clone());
    eprintln!(
        "referee: recording a {game} case into {}{}; play, and end with the game's end or Ctrl-D.",
        absolute.display(),
        match (created, &args.cases) {
            (true, None) =>
                " (a new case folder: from this folder, check and grade now use it \
                             instead of the built-in cases)",
            (true, Some(_)) => " (a new case folder)",
            (false, _) => "",
        }
    );
    let lines = play_and_record(game)?;
    fs::write(&file, case_yaml(args, &lines))
        .map_err(|e| format!("{}: cannot write it: {e}", file.display()))?;
    let suite = case::load_suite(&dir)?;
    let saved = suite
        .cases
        .iter()
        .find(|c| c.name == args.name)
        .ok_or_else(|| {
            format!(
                "{} was written but does not load: {}",
                file.display(),
                suite
                    .problems
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        })?;
    let pinned = referee::oracle::pin_text(&suite, saved)?;
    pin::write(saved, &pinned)
        .map_err(|e| format!("{}: cannot write it: {e}", saved.pin_file().display()))?;
    eprintln!(
        "referee: saved {} ({} line{} of input) and its pinned transcript {}",
        file.display(),
        lines.len(),
        if lines.len() == 1 { "" } else { "s" },
        saved.pin_file().display()
    );
    Ok(ExitCode::SUCCESS)
}

fn check_name(name: &str) -> Result<(), Failure> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(
            format!("`{name}` cannot name a case: use letters, digits, '-', '_' and '.' only")
                .into(),
        )
    }
}

/// Creates the folder and its `suite.yaml` when they do not exist yet;
/// true when it did.
fn ensure_suite(dir: &Path, game: reference::Game) -> Result<bool, Failure> {
    let suite = dir.join(SUITE_FILE);
    if suite.exists() {
        return Ok(false);
    }
    fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create it: {e}", dir.display()))?;
    fs::write(&suite, format!("game: {game}\n"))
        .map_err(|e| format!("{}: cannot write it: {e}", suite.display()))?;
    Ok(true)
}

/// Plays the reference on the terminal, keeping each line it read.
fn play_and_record(game: reference::Game) -> Result<Vec<String>, Failure> {
    // The terminal is read one line at a time, only when the game asks,
    // and each line is remembered.
    let mut lines = Vec::new();
    let mut stdin = io::stdin().lock();
    let mut input = LineInput::new(|| {
        let mut line = Vec::new();
        if stdin.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        if line.ends_with(b"\n") {
            line.pop();
        }
        lines.push(String::from_utf8_lossy(&line).into_owned());
        Ok(Some(line))
    });
    let mut output = io::stdout().lock();
    match game.play(&mut input, &mut output) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::BrokenPipe => {}
        Err(e) => return Err(format!("playing {game}: {e}").into()),
    }
    drop(input);
    Ok(lines)
}

/// The case file: settings given on the command line, then the input as a
/// block when every line is plain, else as a list of quoted strings.
fn case_yaml(args: &RecordArgs, lines: &[String]) -> String {
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"));
    let mut yaml = String::from("# Recorded with `referee cases record`.\n");
    if let Some(description) = &args.description {
        yaml.push_str(&format!("description: {}\n", quote(description)));
    }
    if let Some(points) = args.points {
        yaml.push_str(&format!("points: {points}\n"));
    }
    if args.public {
        yaml.push_str("visibility: public\n");
    }
    let plain = |l: &String| {
        !l.is_empty()
            && l.trim() == l
            && l.chars().all(|c| !c.is_control())
            && !l.starts_with([
                '#', '-', '?', ':', '[', '{', '"', '\'', '|', '>', '!', '&', '*', '%', '@', '`',
            ])
    };
    if lines.is_empty() {
        yaml.push_str("input: []\n");
    } else if lines.iter().all(plain) {
        yaml.push_str("input: |\n");
        for line in lines {
            yaml.push_str(&format!("  {line}\n"));
        }
    } else {
        yaml.push_str("input:\n");
        for line in lines {
            yaml.push_str(&format!("  - {}\n", quote(line)));
        }
    }
    yaml
}
