//! The terminal renderer: a run's lines, the whole transcript as text,
//! the excerpt reports keep, and one line made safe, marked or cut.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use referee::text::visible::{self, Show, LINE_ROOM};
use referee::transcript::excerpt::TRANSCRIPT_ROOM;
use referee::transcript::{self, excerpt, Focus, TermLine, WAITING};

use crate::corpus::SEEDS;
use crate::mutate::{self, Step, FLOODS};
use crate::{config, raw_control, timed, FLOOD};

/// The bytes a line stands for: its output, what was typed on it and
/// its newline (what the excerpt counts).
fn raw_len(line: &TermLine) -> u64 {
    (line.output.len() + line.input.as_ref().map_or(0, String::len) + usize::from(line.newline))
        as u64
}

/// The numbers of the marks in `text` (`… 1,234 bytes … not shown`),
/// added up. Only for text whose program could not print `…`.
fn marked(text: &str) -> u64 {
    text.split("… ")
        .skip(1)
        .filter_map(|m| {
            let number = m.split(' ').next()?;
            number.replace(',', "").parse::<u64>().ok()
        })
        .sum()
}

/// What a line's shown text stood for, in bytes, for text made of
/// [`plain_bytes`]: a character is its UTF-8 bytes, an escape (`\x07`)
/// one byte, a mark of an invisible character (`·`, `␉`, `␍`) one byte,
/// and marks of what was cut nothing.
fn shown_bytes(text: &str) -> u64 {
    let mut count = 0u64;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("… ") {
            // A mark: up to its closing `…` (or the end of the line).
            let end = after
                .find('…')
                .map_or(after.len(), |at| at + '…'.len_utf8());
            rest = &after[end..];
            continue;
        }
        if rest.starts_with("\\x") && rest.len() >= 4 {
            count += 1;
            rest = &rest[4..];
            continue;
        }
        count += match c {
            '·' | '␉' | '␍' => 1,
            c => c.len_utf8() as u64,
        };
        rest = &rest[c.len_utf8()..];
    }
    count
}

/// Bytes whose rendering can be read back: no `\`, no `…` nor
/// referee's marks of invisible characters (all start with 0xE2, or are
/// 0xC2 `·`), no C1 controls (0xC2 too): every other byte value,
/// characters of several widths, and invalid UTF-8.
fn plain_bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => "[ -\\[\\]-~]{1,16}".prop_map(String::into_bytes),
        1 => select(&["é", "李雷", "ß", "\t", "\r", " ", "   "][..]).prop_map(|s| s.as_bytes().to_vec()),
        1 => (0u8..0x20).prop_map(|b| vec![b]),
        1 => select(&[0x7f_u8, 0x80, 0xbf, 0xc3, 0xff, 0xfe, 0xf0, 0xa0][..]).prop_map(|b| vec![b]),
        1 => ("[a-z]", 1..3000usize).prop_map(|(s, n)| s.repeat(n).into_bytes()),
        1 => ("[é李]", 1..1000usize).prop_map(|(s, n)| s.repeat(n).into_bytes()),
    ];
    vec(piece, 0..max).prop_map(|p| p.concat())
}

fn show() -> impl Strategy<Value = Show> {
    select(&[Show::Safe, Show::Marked, Show::MarkedInside][..])
}

/// The most characters a cut line shows: its room, and two marks.
const CUT_ROOM: usize = LINE_ROOM + 80;

fn check_cut(bytes: &[u8], focus: Option<usize>, show: Show) -> (String, u64) {
    let (text, not_shown) = timed("cutting a line", || visible::cut(bytes, focus, show));
    assert_eq!(raw_control(&text), None, "{text:?}");
    assert!(!text.contains('\n'), "a line stays one line");
    assert!(
        text.chars().count() <= CUT_ROOM,
        "{} characters",
        text.chars().count()
    );
    assert!(not_shown <= bytes.len() as u64);
    (text, not_shown)
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn safe_and_marked_text_holds_no_control_character(bytes in mutate::output(16)) {
        for text in [visible::safe(&bytes), visible::marked(&bytes)] {
            let bad = raw_control(&text);
            prop_assert!(bad.is_none() || bad == Some('\n') , "{:?} in {:?}", bad, text);
            // A newline the program printed is escaped too: one line in,
            // one line out.
            prop_assert!(!text.contains('\n') || bytes.contains(&b'\n'));
        }
    }

    #[test]
    fn a_cut_line_counts_every_byte_it_leaves_out(
        bytes in plain_bytes(12),
        focus in proptest::option::of(any::<usize>()),
        near in any::<proptest::sample::Index>(),
        show in show(),
    ) {
        // Any focus, and often one inside the line.
        let focus = focus.map(|f| if f % 2 == 0 { near.index(bytes.len() + 1) } else { f });
        let (text, not_shown) = check_cut(&bytes, focus, show);
        prop_assert_eq!(marked(&text), not_shown, "{}", text);
        prop_assert_eq!(shown_bytes(&text) + not_shown, bytes.len() as u64, "{}", text);
        if not_shown == 0 {
            let whole = match show {
                Show::Safe => visible::safe(&bytes),
                _ => text.clone(),
            };
            prop_assert_eq!(&text, &whole);
        }
    }

    #[test]
    fn any_line_is_cut_safely(
        bytes in mutate::output(40),
        focus in proptest::option::of(any::<usize>()),
        show in show(),
    ) {
        // Output that may itself look like a mark: only the bounds hold.
        let bytes: Vec<u8> = bytes.into_iter().filter(|&b| b != b'\n').collect();
        check_cut(&bytes, focus, show);
    }

    #[test]
    fn terminal_lines_keep_every_byte_in_order(steps in mutate::steps(30), waiting in any::<bool>()) {
        let t = mutate::transcript(&steps);
        let lines = timed("lines", || transcript::lines(&t, waiting));
        let output: Vec<u8> = lines
            .iter()
            .flat_map(|l| {
                let mut b = l.output.clone();
                if l.newline && l.input.is_none() {
                    b.push(b'\n');
                }
                b
            })
            .collect();
        prop_assert_eq!(output, t.output());
        let typed: Vec<&str> = lines.iter().filter_map(|l| l.input.as_deref()).collect();
        prop_assert_eq!(typed, t.inputs().collect::<Vec<_>>());
        for (i, line) in lines.iter().enumerate() {
            prop_assert!(!line.output.contains(&b'\n'));
            prop_assert!(line.newline || i + 1 == lines.len(), "only the last line goes on");
            prop_assert!(!line.waiting || i + 1 == lines.len());
        }
        let printable = transcript::printable(&lines);
        prop_assert_eq!(raw_control(&printable), None);
        prop_assert_eq!(
            printable.matches('\n').count(),
            lines.iter().filter(|l| l.newline).count()
        );
    }

    #[test]
    fn an_excerpt_stays_within_room_with_any_focus(
        seed in 0..SEEDS.len(),
        mutations in vec(mutate::mutation(), 0..6),
        flood in proptest::option::of((select(FLOODS), 1..(64usize << 10))),
        focus in proptest::option::of((any::<usize>(), proptest::option::of(any::<usize>()))),
        near in any::<proptest::sample::Index>(),
        waiting in any::<bool>(),
    ) {
        let mut steps = mutate::mutated(&mutate::steps_of(&SEEDS[seed].run.transcript), &mutations);
        if let Some((flood, size)) = flood {
            steps.insert(steps.len() / 2, Step::Out(flood.bytes(size)));
        }
        let lines = transcript::lines(&mutate::transcript(&steps), waiting);
        let focus = focus.map(|(line, column)| Focus {
            line: if line % 3 == 0 { line } else { near.index(lines.len() + 1) },
            column,
        });
        check_excerpt(&lines, focus);
    }

    #[test]
    fn an_excerpt_of_long_lines_stays_within_room(
        wide in select(&["李", "é", "李a", "\u{9b}", "a"][..]),
        widths in vec(prop_oneof![3 => 150..241usize, 1 => 1..1200usize], 1..120),
        focus in proptest::option::of(any::<proptest::sample::Index>()),
    ) {
        let mut t = referee::transcript::Transcript::new();
        for n in &widths {
            t.push_output(format!("{}\n", wide.repeat(*n)).as_bytes());
        }
        let lines = transcript::lines(&t, false);
        let focus = focus.map(|i| Focus { line: i.index(lines.len()), column: Some(1) });
        check_excerpt(&lines, focus);
    }

}

proptest! {
    #![proptest_config(config(100))]

    #[test]
    fn an_excerpt_of_plain_output_counts_what_it_leaves_out(
        pieces in vec((plain_bytes(4), proptest::option::of("[0-9A-Za-z ]{0,6}")), 0..200),
        repeat in 1..40usize,
        focus in proptest::option::of(any::<proptest::sample::Index>()),
        waiting in any::<bool>(),
    ) {
        let mut t = referee::transcript::Transcript::new();
        for _ in 0..repeat {
            for (output, input) in &pieces {
                let mut bytes = output.clone();
                bytes.push(b'\n');
                t.push_output(&bytes);
                if let Some(input) = input {
                    t.push_input(input);
                }
            }
        }
        let lines = transcript::lines(&t, waiting);
        let focus = focus.map(|i| Focus { line: i.index(lines.len() + 1), column: None });
        let kept = check_excerpt(&lines, focus);
        if !kept.text.contains("more of this transcript not shown") {
            // Every byte shown or counted (the last cut, at a line's end, is
            // counted in escaped text: an estimate, said so).
            let raw: u64 = lines.iter().map(raw_len).sum();
            let shown: u64 = kept
                .text
                .split_inclusive('\n')
                .map(|l| {
                    let l = l.replace(WAITING, "");
                    let line_mark = l.starts_with("… ") && l.ends_with(" not shown …\n");
                    if line_mark { 0 } else { shown_bytes(&l) }
                })
                .sum();
            prop_assert_eq!(shown + kept.not_shown, raw, "{}", kept.text);
        }
    }
}

fn check_excerpt(lines: &[TermLine], focus: Option<Focus>) -> transcript::Excerpt {
    let kept = timed("an excerpt", || excerpt(lines, focus));
    assert!(
        kept.text.len() <= TRANSCRIPT_ROOM,
        "{} bytes kept",
        kept.text.len()
    );
    assert_eq!(raw_control(&kept.text), None);
    let raw: u64 = lines.iter().map(raw_len).sum();
    assert!(kept.not_shown <= raw, "{} of {raw}", kept.not_shown);
    if kept.not_shown == 0 {
        assert_eq!(kept.text, transcript::printable(lines));
    }
    kept
}

/// A transcript of a mebibyte line, endless lines and binary output is
/// cut within room, with any focus.
#[test]
fn floods_are_excerpted_within_room() {
    for &flood in FLOODS {
        let mut t = referee::transcript::Transcript::new();
        t.push_output(b"Column? ");
        t.push_input("3");
        t.push_output(&flood.bytes(FLOOD));
        let lines = transcript::lines(&t, false);
        for focus in [
            None,
            Some(Focus {
                line: 0,
                column: None,
            }),
            Some(Focus {
                line: lines.len() / 2,
                column: Some(usize::MAX),
            }),
            Some(Focus {
                line: lines.len(),
                column: Some(500_000),
            }),
            Some(Focus {
                line: usize::MAX,
                column: Some(usize::MAX),
            }),
        ] {
            check_excerpt(&lines, focus);
        }
    }
}
