//! The files a run must leave in its working folder (a case's
//! `outputs`): read as untrusted bytes (never through a link, never from
//! a FIFO or a device, never past the case's output limit) and compared
//! with the files the reference's run left, as text under the case's
//! `compare` or byte for byte.

use std::path::Path;

use crate::case::{Case, Mode, OutputFile};
use crate::compare::{self, Options};
use crate::expected::ReferenceRun;
use crate::text::size;
use crate::untrusted::{self, Refusal};
use crate::verdict::{Judgement, Part, Verdict};

/// What a run left under one of the names of `outputs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Left {
    /// A plain file, within the limit: its bytes.
    File(Vec<u8>),
    /// Nothing.
    Missing,
    /// A symbolic link, not followed.
    Link,
    /// Something other than a plain file: what, in words ("a FIFO").
    Other(&'static str),
    /// A plain file larger than the limit, not read past it.
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The case's output limit.
        limit: u64,
    },
    /// A file that could not be read.
    Unreadable(String),
}

/// One file of `outputs` as a run left it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftFile {
    /// Its name in the working folder.
    pub name: String,
    /// Whether it is compared byte for byte.
    pub binary: bool,
    /// What was there.
    pub left: Left,
}

/// Reads the files `outputs` names from `folder`, each within `limit`.
pub fn collect(folder: &Path, outputs: &[OutputFile], limit: u64) -> Vec<LeftFile> {
    outputs
        .iter()
        .map(|output| {
            let left = match untrusted::read(&folder.join(&output.name), limit) {
                Ok(bytes) => Left::File(bytes),
                Err(Refusal::Missing(_)) => Left::Missing,
                Err(Refusal::Link(_)) => Left::Link,
                Err(Refusal::NotRegular(_, kind)) => Left::Other(kind),
                Err(Refusal::TooLarge { size, limit, .. }) => Left::TooLarge { size, limit },
                Err(Refusal::Io(_, e)) => Left::Unreadable(e.to_string()),
            };
            LeftFile {
                name: output.name.clone(),
                binary: output.binary,
                left,
            }
        })
        .collect()
}

impl LeftFile {
    /// [`LeftFile::refusal`] as a grade's reason says it ("your program
    /// did not write after.csv").
    pub fn refused(&self) -> Option<String> {
        self.refusal()
            .map(|refusal| format!("your program {refusal}"))
    }

    /// What is wrong with it before any comparison, in a sentence's end
    /// ("did not write after.csv"); `None` for a plain file.
    pub fn refusal(&self) -> Option<String> {
        let name = &self.name;
        match &self.left {
            Left::File(_) => None,
            Left::Missing => Some(format!("did not write {name}")),
            Left::Link => Some(format!(
                "left a symbolic link as {name}, not a file (referee does not follow it)"
            )),
            Left::Other(kind) => Some(format!("left {kind} as {name}, not a plain file")),
            Left::TooLarge { size: bytes, limit } => Some(format!(
                "wrote {name} larger than the output limit ({} bytes or more; the limit is {})",
                crate::text::visible::thousands(*bytes),
                size(*limit)
            )),
            Left::Unreadable(why) => Some(format!("left {name}, which cannot be read ({why})")),
        }
    }

    /// Its bytes, when it is a plain file.
    pub fn bytes(&self) -> Option<&[u8]> {
        match &self.left {
            Left::File(bytes) => Some(bytes),
            _ => None,
        }
    }
}

/// The options a file is compared as text under: the case's, prompts
/// aside (a file has no reads).
pub fn text_options(case: &Case) -> Options {
    Options {
        prompts: false,
        ..case.compare
    }
}

/// Where two binary files first differ: the byte (from 0), or `None`
/// when they are the same.
pub fn first_difference(want: &[u8], got: &[u8]) -> Option<usize> {
    match want.iter().zip(got).position(|(a, b)| a != b) {
        Some(at) => Some(at),
        None if want.len() != got.len() => Some(want.len().min(got.len())),
        None => None,
    }
}

/// Where a binary file first differs, in words, counting bytes from 1
/// ("out.bin differs from the reference's from byte 6 (offset 5); yours
/// has 11 bytes, the reference's 10"); `None` when it is the same.
pub fn binary_difference(name: &str, want: &[u8], got: &[u8]) -> Option<String> {
    let count = |n: usize| crate::text::visible::thousands(n as u64);
    first_difference(want, got).map(|at| {
        format!(
            "{} differs from the reference's from byte {} (offset {}); yours has {} bytes, the \
             reference's {}",
            crate::text::visible::safe(name.as_bytes()),
            count(at + 1),
            count(at),
            count(got.len()),
            count(want.len())
        )
    })
}

/// The reference's version of output file `name`, if it wrote one.
pub fn reference_file<'a>(expected: &'a ReferenceRun, name: &str) -> Option<&'a [u8]> {
    expected
        .files
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, bytes)| bytes.as_slice())
}

/// The reference's and the program's versions of `file`, when it is a
/// text file the program wrote that is not as the reference's under the
/// case's comparison (under `mode: ending` a file only has to be
/// written, so none differs).
pub fn text_difference<'a>(
    case: &Case,
    expected: &'a ReferenceRun,
    file: &'a LeftFile,
) -> Option<(&'a [u8], &'a [u8])> {
    if file.binary || case.mode == Mode::Ending {
        return None;
    }
    let got = file.bytes()?;
    let want = reference_file(expected, &file.name)?;
    let same = compare::same_output(want, got, &text_options(case), &[]);
    (!same).then_some((want, got))
}

/// What is wrong with the first file of `files` that is not as the
/// reference's, in words ("your program's after.csv differs from the
/// reference's"); `None` when all are right. Under `mode: ending` a
/// file only has to be written.
pub fn fault(case: &Case, expected: &ReferenceRun, files: &[LeftFile]) -> Option<String> {
    files.iter().find_map(|file| {
        if let Some(refused) = file.refused() {
            return Some(refused);
        }
        if case.mode == Mode::Ending {
            return None;
        }
        let got = file.bytes().unwrap_or_default();
        let want = reference_file(expected, &file.name)?;
        let name = &file.name;
        if file.binary {
            binary_difference(name, want, got).map(|d| format!("your program's {d}"))
        } else if compare::same_output(want, got, &text_options(case), &[]) {
            None
        } else if case.compare.csv {
            let where_ =
                compare::csv_difference(want, got, &text_options(case)).unwrap_or_default();
            Some(format!(
                "your program's {name} differs from the reference's: {where_}"
            ))
        } else {
            Some(format!(
                "your program's {name} differs from the reference's"
            ))
        }
    })
}

/// `judgement` with the files of `outputs` judged too: a file that is
/// not right costs all the case's points, or, where `ending_points`
/// splits them, the share of what was printed and written; and is said.
pub fn apply(
    case: &Case,
    expected: &ReferenceRun,
    files: &[LeftFile],
    mut judgement: Judgement,
) -> Judgement {
    let Some(sentence) = fault(case, expected, files) else {
        return judgement;
    };
    let split = judgement.part(Part::Play).is_some() && judgement.part(Part::Ending).is_some();
    for part in &mut judgement.parts {
        part.earned &= split && part.part == Part::Ending;
    }
    if judgement.verdict == Verdict::ExitStatus {
        // The status is no longer the only difference.
        judgement.verdict = Verdict::WrongOutput;
    }
    if judgement.verdict == Verdict::Pass {
        judgement.verdict = Verdict::WrongOutput;
        judgement.reason = sentence;
    } else {
        judgement.reason = format!("{}; and {sentence}", judgement.reason);
    }
    judgement
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_files_differ_at_their_first_differing_byte() {
        assert_eq!(first_difference(b"abc", b"abc"), None);
        assert_eq!(first_difference(b"abc", b"abd"), Some(2));
        assert_eq!(first_difference(b"abc", b"ab"), Some(2));
        assert_eq!(first_difference(b"", b"x"), Some(0));
    }

    #[test]
    fn what_a_run_left_is_read_without_following_or_reading_past_the_limit() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("ok.csv"), "a,b\n").unwrap();
        std::fs::write(d.join("big.csv"), vec![b'x'; 100]).unwrap();
        std::fs::write(d.join("secret"), "no").unwrap();
        symlink(d.join("secret"), d.join("link.csv")).unwrap();
        std::fs::create_dir(d.join("dir.csv")).unwrap();
        nix::unistd::mkfifo(&d.join("fifo.csv"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let names = [
            "ok.csv", "big.csv", "link.csv", "dir.csv", "fifo.csv", "none.csv",
        ];
        let outputs: Vec<OutputFile> = names
            .iter()
            .map(|n| OutputFile {
                name: n.to_string(),
                binary: false,
            })
            .collect();
        let left: Vec<Left> = collect(d, &outputs, 10)
            .into_iter()
            .map(|f| f.left)
            .collect();
        assert_eq!(left[0], Left::File(b"a,b\n".to_vec()));
        assert!(
            matches!(left[1], Left::TooLarge { limit: 10, .. }),
            "{:?}",
            left[1]
        );
        assert_eq!(left[2], Left::Link);
        assert!(matches!(left[3], Left::Other(_)), "{:?}", left[3]);
        assert!(matches!(left[4], Left::Other(_)), "{:?}", left[4]);
        assert_eq!(left[5], Left::Missing);
    }
}
