//! Reading what a checked run still held when it ended: the file the
//! checked build's leak count writes at the end of a run that ended
//! normally (see `submission::checked`'s options source), where the
//! suite asks for it (`leaks: true`).
//!
//! The file is in a folder the program can write to: it can forge it,
//! cut it or fill it. It is read line by line, each line cut to
//! [`LINE_LIMIT`], at most [`SITES_LIMIT`] places, and only a file that
//! ends with its `end` line counts (one cut short says nothing).
//!
//! ```text
//! referee leaks 1
//! still 168 3
//! missed 0 0
//! site e7441 168 3
//! end
//! ```
//!
//! `still` is the bytes and blocks still allocated; `missed`, the
//! allocations not counted (the count's table was full); each `site`, an
//! address in the program (in its debug information's terms, the call's
//! own instruction) and the bytes and blocks allocated there, most
//! first.

/// The most bytes of a line that are looked at.
const LINE_LIMIT: usize = 256;

/// The most places read.
pub const SITES_LIMIT: usize = 64;

/// What the file's first line says.
const HEADER: &str = "referee leaks 1";

/// What a run still held when it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Allocations not counted, because the count's table was full: the
    /// totals are then at least what they say.
    pub missed: u64,
    /// Where the memory was allocated, most bytes first.
    pub sites: Vec<Site>,
}

/// The memory one place in the program allocated and never freed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    /// The call's address in the program.
    pub address: u64,
    /// Bytes still allocated.
    pub bytes: u64,
    /// Blocks still allocated.
    pub blocks: u64,
}

/// What `text` says was still held; `None` where it is not a whole
/// leak file.
pub fn parse(text: &[u8]) -> Option<Held> {
    let mut lines = text
        .split(|&b| b == b'\n')
        .map(|raw| String::from_utf8_lossy(&raw[..raw.len().min(LINE_LIMIT)]).into_owned());
    if lines.next()?.trim_end() != HEADER {
        return None;
    }
    let mut held = Held::default();
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().take(5).collect();
        match words.as_slice() {
            ["end"] => return Some(held),
            ["still", _, _] => {}
            ["missed", missed, _] => held.missed = missed.parse().ok()?,
            ["site", address, bytes, blocks] => {
                if held.sites.len() < SITES_LIMIT {
                    held.sites.push(Site {
                        address: u64::from_str_radix(address, 16).ok()?,
                        bytes: bytes.parse().ok()?,
                        blocks: blocks.parse().ok()?,
                    });
                }
            }
            _ => return None,
        }
    }
    None
}

/// Where the most of a leak was allocated, in the student's source.
#[derive(Clone, Copy, Debug)]
pub struct Place<'a> {
    /// The file's name.
    pub file: &'a str,
    /// The line.
    pub line: u32,
    /// The function, where known.
    pub function: Option<&'a str>,
}

/// What `sites` (the student's own) still held, allocated the most at
/// `most`, in one message: "168 bytes in 3 blocks still allocated when
/// the program ended, allocated at dictionary.c:23 in load" ("at least"
/// where the count `missed` some).
pub fn message(sites: &[Site], missed: u64, most: &Place<'_>) -> String {
    // Summed without overflow: the numbers come from a file the program
    // could have written.
    let bytes = sites.iter().fold(0u64, |n, s| n.saturating_add(s.bytes));
    let blocks = sites.iter().fold(0u64, |n, s| n.saturating_add(s.blocks));
    let at_least = if missed > 0 { "at least " } else { "" };
    let function = most
        .function
        .map(|f| format!(" in {f}"))
        .unwrap_or_default();
    format!(
        "{at_least}{} still allocated when the program ended, allocated at {}:{}{function}",
        amount(bytes, blocks),
        most.file,
        most.line
    )
}

/// `bytes` bytes in `blocks` blocks, in words: "168 bytes in 3 blocks".
fn amount(bytes: u64, blocks: u64) -> String {
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{} in {}",
        plural(bytes, "byte", "bytes"),
        plural(blocks, "block", "blocks")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_file_is_read_with_its_places() {
        let text = "referee leaks 1\nstill 168 3\nmissed 0 0\nsite e7441 160 2\nsite 10 8 1\nend\n";
        let held = parse(text.as_bytes()).unwrap();
        assert_eq!(held.missed, 0);
        assert_eq!(
            held.sites[0],
            Site {
                address: 0xe7441,
                bytes: 160,
                blocks: 2
            }
        );
        assert_eq!(held.sites.len(), 2);
    }

    #[test]
    fn a_file_cut_short_or_forged_says_nothing() {
        assert_eq!(parse(b"referee leaks 1\nstill 1 1\nsite 10 8 1\n"), None);
        assert_eq!(parse(b"referee leaks 2\nend\n"), None);
        assert_eq!(parse(b"referee leaks 1\nsite zz 1 1\nend\n"), None);
        assert_eq!(parse(b""), None);
    }

    #[test]
    fn a_flood_of_places_is_bounded() {
        let mut text = String::from("referee leaks 1\n");
        text.push_str(&"site 10 8 1\n".repeat(100_000));
        text.push_str("end\n");
        assert_eq!(parse(text.as_bytes()).unwrap().sites.len(), SITES_LIMIT);
    }

    #[test]
    fn amounts_are_said_in_words() {
        assert_eq!(amount(168, 3), "168 bytes in 3 blocks");
        assert_eq!(amount(1, 1), "1 byte in 1 block");
    }

    #[test]
    fn a_message_sums_the_places_and_says_where_the_most_was_allocated() {
        let site = |bytes, blocks| Site {
            address: 0x10,
            bytes,
            blocks,
        };
        let load = Place {
            file: "dictionary.c",
            line: 42,
            function: Some("load"),
        };
        assert_eq!(
            message(&[site(160, 2), site(8, 1)], 0, &load),
            "168 bytes in 3 blocks still allocated when the program ended, \
             allocated at dictionary.c:42 in load"
        );
        let unnamed = Place {
            function: None,
            ..load
        };
        assert_eq!(
            message(&[site(1, 1)], 5, &unnamed),
            "at least 1 byte in 1 block still allocated when the program ended, \
             allocated at dictionary.c:42"
        );
        // Forged numbers do not overflow.
        let forged = message(&[site(u64::MAX, 1), site(u64::MAX, 1)], 0, &load);
        assert!(forged.starts_with(&format!("{} bytes in 2 blocks", u64::MAX)));
    }
}
