//! `referee merge --out DIR SHARD_DIR...`: one set of reports from the
//! shards' output folders.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use referee::batch::{detail_file, write_detail};
use referee::export::{folder, json};
use referee::results::{ClassResults, SubmissionResult};

/// Merges the shards' results; fails when they are not of one class
/// (another game or suite) or when a submission appears twice.
pub fn run(out: &Path, shards: &[PathBuf], force: bool) -> Result<ExitCode, Failure> {
    let mut merged: Option<ClassResults> = None;
    for dir in shards {
        let shard = read_shard(dir)?;
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
    Ok(ExitCode::SUCCESS)
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
