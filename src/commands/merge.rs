//! `referee merge --out DIR SHARD_DIR...`: one set of reports from the
//! shards' output folders.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use referee::batch::{detail_file, write_detail};
use referee::class::{split, Shard};
use referee::export::{folder, json};
use referee::results::{ClassResults, SubmissionResult};

/// Merges the shards' results; fails when they are not every shard of
/// one split of one class (another game or suite, a shard missing or
/// twice, another split or class), or when a submission appears twice.
/// With `allow_missing`, shards may be missing: every report says which.
pub fn run(
    out: &Path,
    shards: &[PathBuf],
    force: bool,
    allow_missing: bool,
) -> Result<ExitCode, Failure> {
    let mut read = Vec::new();
    for dir in shards {
        let shard = read_shard(dir)?;
        let part = part(dir, &shard)?;
        read.push((dir, shard, part));
    }
    let parts: Vec<split::Part> = read.iter().map(|(_, _, part)| part.clone()).collect();
    let missing = split::check(&parts, allow_missing)?;
    let mut merged: Option<ClassResults> = None;
    for (dir, shard, _) in read {
        match &mut merged {
            None => merged = Some(shard),
            Some(all) => {
                if all.game != shard.game || all.suite != shard.suite {
                    return Err(format!(
                        "{} was graded on another game or suite than {}: merge shards of one class",
                        dir.display(),
                        shards[0].display()
                    )
                    .into());
                }
                if let Some(twice) = shard
                    .submissions
                    .iter()
                    .find(|s| all.submissions.iter().any(|a| a.id == s.id))
                {
                    return Err(format!(
                        "{} is in two shards (again in {})",
                        twice.id,
                        dir.display()
                    )
                    .into());
                }
                all.submissions.extend(shard.submissions);
            }
        }
    }
    let mut merged = merged.ok_or("name at least one shard folder")?;
    merged.shard = None;
    merged.missing = missing;
    merged.submissions.sort_by(|a, b| a.id.cmp(&b.id));
    let suite = fs::read_to_string(shards[0].join(folder::STAMP))
        .ok()
        .and_then(|text| serde_json::from_str::<folder::Stamp>(&text).ok())
        .map_or_else(|| merged.suite.title.clone(), |stamp| stamp.suite);
    let stamp = folder::Stamp::new(&merged.game, suite, shards, None);
    folder::check(out, &stamp, force)?;
    for submission in &merged.submissions {
        write_detail(out, submission).map_err(|e| {
            let file = detail_file(out, &submission.id);
            format!("{}: cannot write it: {e}", file.display())
        })?;
    }
    let written = folder::publish(out, &merged, &stamp)?;
    println!(
        "Merged {} shards: {} submissions. Reports: {} ({} files).",
        shards.len(),
        merged.submissions.len(),
        out.display(),
        written.len()
    );
    if let Some(missing) = &merged.missing {
        let students = merged.class.as_ref().map(|c| c.students);
        eprintln!("referee: warning: {}", missing.sentence(students));
    }
    Ok(ExitCode::SUCCESS)
}

/// What a shard's results say of the split, for [`split::check`].
fn part(dir: &Path, results: &ClassResults) -> Result<split::Part, Failure> {
    let shard = match &results.shard {
        Some(text) => Some(text.parse::<Shard>().map_err(|e| {
            format!(
                "{}: its results say shard {text}, which is not one ({e})",
                dir.display()
            )
        })?),
        None => None,
    };
    Ok(split::Part {
        dir: dir.display().to_string(),
        shard,
        class: results.class.clone(),
        students: results.submissions.len(),
    })
}

/// A shard's results, each submission completed from its details file
/// (which holds the transcripts results.json leaves out).
fn read_shard(dir: &Path) -> Result<ClassResults, Failure> {
    let file = dir.join(json::FILE);
    let text = fs::read_to_string(&file).map_err(|e| {
        format!(
            "{}: cannot read it ({e}); is {} a grade --out folder?",
            file.display(),
            dir.display()
        )
    })?;
    let mut results: ClassResults = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not referee results: {e}", file.display()))?;
    for submission in &mut results.submissions {
        let detail = detail_file(dir, &submission.id);
        if let Ok(full) = fs::read_to_string(&detail) {
            if let Ok(full) = serde_json::from_str::<SubmissionResult>(&full) {
                if full.fingerprint == submission.fingerprint {
                    *submission = full;
                }
            }
        }
    }
    Ok(results)
}
