//! A class split into shards, and putting it back together: each shard's
//! results say which shard of how many it is and of which class (its
//! size and a digest of its ids); `merge` checks that the folders it is
//! given are every shard of one split of one class, each once.

use sha2::{Digest, Sha256};

use super::{Entry, Shard};
use crate::fault::Fault;
use crate::results::{ClassInfo, Missing};

/// The class `entries` are (all of them, before `--shard` chose).
pub fn class_info(entries: &[Entry]) -> ClassInfo {
    let mut ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    ids.sort_unstable();
    let mut hasher = Sha256::new();
    for id in ids {
        hasher.update(id.as_bytes());
        hasher.update(b"\n");
    }
    let digest = hasher.finalize();
    ClassInfo {
        students: entries.len(),
        digest: digest.iter().take(8).map(|b| format!("{b:02x}")).collect(),
    }
}

/// One folder given to `merge`, as its results describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The folder, as named.
    pub dir: String,
    /// Which shard, if it is one (`None`: the whole class).
    pub shard: Option<Shard>,
    /// The class it was cut from, where its referee said.
    pub class: Option<ClassInfo>,
    /// The students its results hold.
    pub students: usize,
}

/// Why folders do not merge into one class: the grader's to fix (name
/// the right folders, or say `--allow-missing`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    /// A whole class's results among shards (or two whole classes).
    #[error(
        "{whole} holds the results of a whole class, not a shard: merge the --out folders of \
         `grade --shard K/N` runs only"
    )]
    NotAShard {
        /// The folder.
        whole: String,
    },
    /// Shards of splits into different numbers.
    #[error(
        "{first} is shard {a} and {second} is shard {b}: they are of different splits of the \
         class; merge the shards of one split (all K/{n}, or grade again with one --shard \
         count)",
        n = a.count
    )]
    DifferentSplits {
        /// A folder.
        first: String,
        /// Its shard.
        a: Shard,
        /// Another folder.
        second: String,
        /// Its shard.
        b: Shard,
    },
    /// Shards of different classes (other students, or a student added
    /// between the shards' runs).
    #[error(
        "{first} and {second} are shards of different classes ({a} and {b} students, or other \
         students): grade every shard on the same class folder, then merge"
    )]
    DifferentClasses {
        /// A folder.
        first: String,
        /// Its class's students.
        a: usize,
        /// Another folder.
        second: String,
        /// Its class's students.
        b: usize,
    },
    /// One shard given twice.
    #[error("shard {shard} is given twice ({first} and {second}): name each shard's folder once")]
    Twice {
        /// The shard.
        shard: Shard,
        /// A folder holding it.
        first: String,
        /// Another.
        second: String,
    },
    /// Shards are missing.
    #[error(
        "{} missing ({students} student{} of the class): name {} folder{} too, \
         or add --allow-missing to merge what is there (every report then says what is missing)",
        shard_list(missing),
        if *students == 1 { "" } else { "s" },
        if missing.len() == 1 { "its" } else { "their" },
        if missing.len() == 1 { "" } else { "s" }
    )]
    Missing {
        /// The missing shards.
        missing: Vec<Shard>,
        /// How many shards the class was split into.
        count: u32,
        /// The students they hold (the class's less the merged).
        students: usize,
    },
}

impl SplitError {
    /// Whose fault it is: the folders named are the grader's choice.
    pub fn fault(&self) -> Fault {
        Fault::Grader
    }
}

/// "shard 3/4", "shards 2/4 and 4/4".
fn shard_list(shards: &[Shard]) -> String {
    let names: Vec<String> = shards.iter().map(|s| s.to_string()).collect();
    match names.as_slice() {
        [one] => format!("shard {one} is"),
        [rest @ .., last] => format!("shards {} and {last} are", rest.join(", ")),
        [] => "no shard is".into(),
    }
}

/// Checks that `parts` are the shards of one split of one class, each
/// once: `Ok(None)` when all are there (or one whole class is given),
/// `Ok(Some(missing))` when some are not and `allow_missing` says to
/// merge what is there.
pub fn check(parts: &[Part], allow_missing: bool) -> Result<Option<Missing>, SplitError> {
    if let [only] = parts {
        if only.shard.is_none() {
            return Ok(None);
        }
    }
    let mut shards: Vec<(&Part, Shard)> = Vec::new();
    for part in parts {
        let Some(shard) = part.shard else {
            return Err(SplitError::NotAShard {
                whole: part.dir.clone(),
            });
        };
        shards.push((part, shard));
    }
    let Some(&(first, a)) = shards.first() else {
        return Ok(None);
    };
    for &(part, b) in &shards {
        if b.count != a.count {
            return Err(SplitError::DifferentSplits {
                first: first.dir.clone(),
                a,
                second: part.dir.clone(),
                b,
            });
        }
        if let (Some(x), Some(y)) = (&first.class, &part.class) {
            if x != y {
                return Err(SplitError::DifferentClasses {
                    first: first.dir.clone(),
                    a: x.students,
                    second: part.dir.clone(),
                    b: y.students,
                });
            }
        }
    }
    for (i, &(part, shard)) in shards.iter().enumerate() {
        if let Some(&(other, _)) = shards[..i].iter().find(|(_, s)| *s == shard) {
            return Err(SplitError::Twice {
                shard,
                first: other.dir.clone(),
                second: part.dir.clone(),
            });
        }
    }
    let missing: Vec<Shard> = (1..=a.count)
        .map(|index| Shard {
            index,
            count: a.count,
        })
        .filter(|s| !shards.iter().any(|(_, given)| given == s))
        .collect();
    if missing.is_empty() {
        return Ok(None);
    }
    let merged: usize = parts.iter().map(|p| p.students).sum();
    let students = first
        .class
        .as_ref()
        .map_or(0, |c| c.students.saturating_sub(merged));
    if !allow_missing {
        return Err(SplitError::Missing {
            missing,
            count: a.count,
            students,
        });
    }
    Ok(Some(Missing {
        shards: missing.iter().map(|s| s.to_string()).collect(),
        students,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(students: usize) -> Option<ClassInfo> {
        let entries: Vec<Entry> = (0..students)
            .map(|i| Entry {
                id: format!("s{i}"),
                name: format!("s{i}"),
                path: format!("class/s{i}.c").into(),
                lms: None,
            })
            .collect();
        Some(class_info(&entries))
    }

    fn part(dir: &str, shard: &str, students: usize) -> Part {
        Part {
            dir: dir.into(),
            shard: Some(shard.parse().unwrap()),
            class: class(21),
            students,
        }
    }

    #[test]
    fn every_shard_once_merges() {
        let parts = [
            part("shard-1", "1/3", 7),
            part("shard-3", "3/3", 6),
            part("shard-2", "2/3", 8),
        ];
        assert_eq!(check(&parts, false), Ok(None));
        let whole = Part {
            shard: None,
            ..part("out", "1/1", 21)
        };
        assert_eq!(check(std::slice::from_ref(&whole), false), Ok(None));
        assert_eq!(
            check(&[whole, part("shard-1", "1/3", 7)], false)
                .unwrap_err()
                .to_string(),
            "out holds the results of a whole class, not a shard: merge the --out folders of \
             `grade --shard K/N` runs only"
        );
    }

    #[test]
    fn a_missing_shard_is_refused_or_reported() {
        let parts = [part("shard-1", "1/4", 5), part("shard-2", "2/4", 6)];
        let refused = check(&parts, false).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "shards 3/4 and 4/4 are missing (10 students of the class): name their folders too, \
             or add --allow-missing to merge what is there (every report then says what is \
             missing)"
        );
        assert_eq!(refused.fault(), Fault::Grader);
        let one = check(&[part("a", "1/2", 11)], false).unwrap_err();
        assert!(
            one.to_string()
                .starts_with("shard 2/2 is missing (10 students"),
            "{one}"
        );
        let allowed = check(&parts, true).unwrap().unwrap();
        assert_eq!(
            allowed,
            Missing {
                shards: vec!["3/4".into(), "4/4".into()],
                students: 10
            }
        );
        assert_eq!(
            allowed.sentence(Some(21)),
            "Shards 3/4 and 4/4 were not merged: 10 of the class's 21 students are not in these \
             reports."
        );
    }

    #[test]
    fn shards_of_other_splits_or_classes_or_twice_are_refused() {
        let other_split = [part("four", "1/4", 5), part("eight", "2/8", 3)];
        assert_eq!(
            check(&other_split, true).unwrap_err().to_string(),
            "four is shard 1/4 and eight is shard 2/8: they are of different splits of the \
             class; merge the shards of one split (all K/4, or grade again with one --shard \
             count)"
        );
        let mut late = part("b", "2/2", 11);
        late.class = class(22);
        let classes = check(&[part("a", "1/2", 10), late], true).unwrap_err();
        assert!(
            classes
                .to_string()
                .starts_with("a and b are shards of different classes (21 and 22 students"),
            "{classes}"
        );
        let twice = [
            part("a", "1/2", 10),
            part("b", "1/2", 10),
            part("c", "2/2", 11),
        ];
        assert_eq!(
            check(&twice, true).unwrap_err().to_string(),
            "shard 1/2 is given twice (a and b): name each shard's folder once"
        );
        // The digest is of the ids, whatever their order or folder.
        assert_eq!(class(3), class(3));
        assert_ne!(class(3).unwrap().digest, class(4).unwrap().digest);
    }
}
