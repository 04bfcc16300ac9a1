//! `referee merge --out DIR SHARD_DIR...`: one set of reports from the
//! shards' output folders.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use referee::batch::{detail_file, whole_result, write_detail};
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
    let mut sources = HashMap::new();
    for dir in shards {
        let shard = read_shard(dir, &mut sources)?;
        let part = part(dir, &shard)?;
        read.push((dir, shard, part));
    }
    let parts: Vec<split::Part> = read.iter().map(|(_, _, part)| part.clone()).collect();
    let missing = split::check(&parts, allow_missing)?;
    let mut merged: Option<ClassResults> = None;
    let mut ids = HashSet::new();
    for (dir, shard, _) in read {
        if let Some(twice) = shard.submissions.iter().find(|s| !ids.insert(s.id.clone())) {
            return Err(
                format!("{} is in two shards (again in {})", twice.id, dir.display()).into(),
            );
        }
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
        let file = detail_file(out, &submission.id);
        let copied = match sources.get(&submission.id) {
            Some(source) => copy_detail(source, &file),
            None => write_detail(out, submission),
        };
        copied.map_err(|e| format!("{}: cannot write it: {e}", file.display()))?;
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

/// A shard's results, each submission compact where its details file
/// holds its whole result (the transcripts results.json leaves out), so
/// that merging a class takes little memory; `sources` learns where each
/// such file is. A submission without one stays as results.json has it.
/// The file is read as a stream, each submission made compact as soon as
/// it is read: a shard's `results.json` is never held whole.
fn read_shard(dir: &Path, sources: &mut HashMap<String, PathBuf>) -> Result<ClassResults, Failure> {
    let file = dir.join(json::FILE);
    let opened = fs::File::open(&file).map_err(|e| {
        format!(
            "{}: cannot read it ({e}); is {} a grade --out folder?",
            file.display(),
            dir.display()
        )
    })?;
    let mut reader = serde_json::Deserializer::from_reader(std::io::BufReader::new(opened));
    let shard = ShardFile { dir, sources };
    let results = serde::de::DeserializeSeed::deserialize(shard, &mut reader)
        .and_then(|results| reader.end().map(|()| results))
        .map_err(|e| format!("{}: not referee results: {e}", file.display()))?;
    Ok(results)
}

/// Reads a shard's results.json (see [`read_shard`]).
struct ShardFile<'a> {
    dir: &'a Path,
    sources: &'a mut HashMap<String, PathBuf>,
}

impl<'de> serde::de::DeserializeSeed<'de> for ShardFile<'_> {
    type Value = ClassResults;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<ClassResults, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for ShardFile<'_> {
    type Value = ClassResults;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a class's results")
    }

    /// The class's keys are kept as they are, and read as a class of no
    /// submissions; the submissions are read one at a time.
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<ClassResults, A::Error> {
        let mut keys = serde_json::Map::new();
        let mut submissions = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "submissions" {
                let each = Submissions {
                    dir: self.dir,
                    sources: &mut *self.sources,
                };
                submissions = Some(map.next_value_seed(each)?);
            } else {
                keys.insert(key, map.next_value()?);
            }
        }
        let submissions =
            submissions.ok_or_else(|| serde::de::Error::missing_field("submissions"))?;
        keys.insert("submissions".into(), serde_json::Value::Array(Vec::new()));
        let mut results: ClassResults =
            serde_json::from_value(keys.into()).map_err(serde::de::Error::custom)?;
        results.submissions = submissions;
        Ok(results)
    }
}

/// A shard's submissions, each compact as soon as it is read where its
/// details file holds it whole.
struct Submissions<'a> {
    dir: &'a Path,
    sources: &'a mut HashMap<String, PathBuf>,
}

impl<'de> serde::de::DeserializeSeed<'de> for Submissions<'_> {
    type Value = Vec<SubmissionResult>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Submissions<'_> {
    type Value = Vec<SubmissionResult>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of submissions")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut submissions = Vec::new();
        while let Some(mut submission) = seq.next_element::<SubmissionResult>()? {
            let compact = submission.compact();
            if whole_result(self.dir, &compact).is_ok() {
                let detail = detail_file(self.dir, &compact.id);
                self.sources.insert(compact.id.clone(), detail);
                submission = compact;
            }
            submissions.push(submission);
        }
        Ok(submissions)
    }
}

/// Copies a shard's details file into the merged folder, replacing it
/// whole (flushed to disk with the merged reports when they are
/// published).
fn copy_detail(source: &Path, target: &Path) -> std::io::Result<()> {
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent)?;
    }
    let bytes = fs::read(source)?;
    referee::atomic::replace(target, &bytes)
}
