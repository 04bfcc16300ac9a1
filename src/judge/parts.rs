//! The parts of a game's text that format points grade: the
//! instructions, each board display, each error message, the ending, or
//! all of it. The game's reader says which line is which, so a part is
//! found in a student's output whatever else it prints around it, and one
//! differing line costs the part it is in, not every case that prints it.
//!
//! A part is compared turn by turn (a turn is what was printed after one
//! input line), in the turns where both programs printed it: a refusal or
//! a board that is missing is a difference of play, charged there. A part
//! is right when at least one turn could be compared and every compared
//! turn matches under the case's comparison options.

use crate::case::{GradedRegion, TextPart};
use crate::compare::{comparable, Line, Options, Region};
use crate::game::{LineKind, Reading};
use crate::transcript::TermLine;

/// The first turn where a part differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatDifference {
    /// The part.
    pub part: TextPart,
    /// How a sentence names it ("the error messages", "the goodbye").
    pub name: String,
    /// The turn: 0 before the first input, k after input line k.
    pub turn: usize,
    /// The input line that started the turn, as typed.
    pub input: Option<String>,
    /// The part as the reference printed it there.
    pub reference: Vec<TermLine>,
    /// The part as the program printed it there; empty when it printed
    /// the part nowhere the reference did.
    pub yours: Vec<TermLine>,
}

/// One side of the comparison: a terminal and how it was read.
pub struct Side<'a> {
    /// The terminal lines.
    pub lines: &'a [TermLine],
    /// The reader's account of them.
    pub reading: &'a Reading,
}

/// The suite's regions: those never graded, and those a case can name.
pub struct Regions<'a> {
    /// Output never graded (the identifying header).
    pub ignored: &'a [Region],
    /// Regions a case's `format` can name.
    pub graded: &'a [GradedRegion],
}

/// The first difference in any of `parts`, if there is one.
pub fn compare(
    parts: &[TextPart],
    reference: &Side<'_>,
    yours: &Side<'_>,
    options: &Options,
    regions: &Regions<'_>,
) -> Option<FormatDifference> {
    let kept = Kept::new(reference.lines, yours.lines, regions.ignored);
    let names: Vec<String> = regions.graded.iter().map(|r| r.name.clone()).collect();
    parts.iter().find_map(|&part| {
        let want = segments(part, reference, &kept.reference, regions.graded);
        let got = segments(part, yours, &kept.yours, regions.graded);
        let mut found = compare_part(part, reference, yours, &want, &got, options)?;
        found.name = part.words(&names);
        Some(found)
    })
}

fn compare_part(
    part: TextPart,
    reference: &Side<'_>,
    yours: &Side<'_>,
    want: &[(usize, Vec<usize>)],
    got: &[(usize, Vec<usize>)],
    options: &Options,
) -> Option<FormatDifference> {
    let mut compared = 0;
    // A suite's region is where its patterns find it, whatever the turn.
    let by_turn = !matches!(part, TextPart::Region(_));
    for (at, (turn, lines)) in want.iter().enumerate() {
        // A part shown more than once in a turn is judged by its last
        // showing on both sides (the program's is the last one too).
        if by_turn && want.get(at + 1).is_some_and(|(next, _)| next == turn) {
            continue;
        }
        let theirs = if by_turn {
            got.iter().rev().find(|(t, _)| t == turn)
        } else {
            got.first()
        };
        let Some((_, theirs)) = theirs else {
            continue;
        };
        compared += 1;
        if keys(reference.lines, lines, options) != keys(yours.lines, theirs, options) {
            return Some(difference(part, *turn, reference, lines, yours, theirs));
        }
    }
    match want.first() {
        Some((turn, lines)) if compared == 0 => {
            Some(difference(part, *turn, reference, lines, yours, &[]))
        }
        _ => None,
    }
}

fn difference(
    part: TextPart,
    turn: usize,
    reference: &Side<'_>,
    want: &[usize],
    yours: &Side<'_>,
    got: &[usize],
) -> FormatDifference {
    let pick = |lines: &[TermLine], at: &[usize]| -> Vec<TermLine> {
        at.iter().filter_map(|&i| lines.get(i).cloned()).collect()
    };
    FormatDifference {
        part,
        name: String::new(),
        turn,
        input: reference
            .reading
            .turns
            .get(turn)
            .and_then(|t| t.input.clone()),
        reference: pick(reference.lines, want),
        yours: pick(yours.lines, got),
    }
}

/// The keys the lines at `at` are compared by.
fn keys(lines: &[TermLine], at: &[usize], options: &Options) -> Vec<crate::compare::Key> {
    let texts: Vec<Vec<u8>> = at
        .iter()
        .filter_map(|&i| lines.get(i).map(TermLine::text))
        .collect();
    let lines = numbered(&texts);
    let (keyed, _) = comparable(&lines, options, &[], None);
    keyed.into_iter().map(|k| k.key).collect()
}

/// Which lines of each side are outside the suite's ignored regions
/// (the student's regions found as the comparison finds them).
struct Kept {
    reference: Vec<bool>,
    yours: Vec<bool>,
}

impl Kept {
    fn new(reference: &[TermLine], yours: &[TermLine], regions: &[Region]) -> Kept {
        let want: Vec<Vec<u8>> = reference.iter().map(TermLine::text).collect();
        let got: Vec<Vec<u8>> = yours.iter().map(TermLine::text).collect();
        let want_lines = numbered(&want);
        let got_lines = numbered(&got);
        let everything = Options::default();
        let (kept_want, spans) = comparable(&want_lines, &everything, regions, None);
        let (kept_got, _) = comparable(&got_lines, &everything, regions, Some(&spans));
        let mark = |n: usize, kept: &[crate::compare::Keyed<'_>]| {
            let mut marks = vec![false; n];
            for k in kept {
                marks[k.line.index] = true;
            }
            marks
        };
        Kept {
            reference: mark(want.len(), &kept_want),
            yours: mark(got.len(), &kept_got),
        }
    }
}

fn numbered(texts: &[Vec<u8>]) -> Vec<Line<'_>> {
    texts
        .iter()
        .enumerate()
        .map(|(index, text)| Line {
            index,
            text,
            newline: true,
        })
        .collect()
}

/// Each turn's lines of `part`, in order: (turn, line indices).
fn segments(
    part: TextPart,
    side: &Side<'_>,
    kept: &[bool],
    graded: &[GradedRegion],
) -> Vec<(usize, Vec<usize>)> {
    let classes = &side.reading.lines;
    let is = |i: usize, kind: LineKind| classes.get(i).is_some_and(|c| c.kind == kind);
    let turn_of = |i: usize| classes.get(i).map_or(0, |c| c.turn);
    let outside = |i: usize| kept.get(i).copied().unwrap_or(true);
    match part {
        TextPart::All => vec![(0, (0..classes.len()).filter(|&i| outside(i)).collect())],
        TextPart::Instructions => {
            let end = boards(classes)
                .first()
                .map(|(_, lines)| lines[0])
                .or_else(|| (0..classes.len()).find(|&i| is(i, LineKind::Prompt)))
                .unwrap_or(classes.len());
            let lines: Vec<usize> = (0..end)
                .filter(|&i| turn_of(i) == 0 && outside(i))
                .collect();
            vec![(0, lines)]
        }
        TextPart::Boards => boards(classes),
        TextPart::Errors => by_turn(
            (0..classes.len()).filter(|&i| is(i, LineKind::Error)),
            turn_of,
        ),
        TextPart::Ending => {
            // The boards shown there are the board display's part.
            let waiting = side.lines.last().is_some_and(|l| l.waiting);
            let last = side.reading.turns.len().saturating_sub(1);
            let mut display = vec![false; classes.len()];
            for (_, lines) in boards(classes) {
                lines.into_iter().for_each(|i| display[i] = true);
            }
            let lines: Vec<usize> = (0..classes.len())
                .filter(|&i| turn_of(i) == last && !is(i, LineKind::Prompt))
                .filter(|&i| !display[i])
                .collect();
            if waiting || lines.is_empty() {
                Vec::new()
            } else {
                vec![(last, lines)]
            }
        }
        TextPart::Region(i) => graded
            .get(i)
            .and_then(|region| region_lines(side.lines, region))
            .map(|lines| vec![(turn_of(lines[0]), lines)])
            .unwrap_or_default(),
    }
}

/// The lines of a suite's region: from the first line matching `from`
/// up to the next matching `until`; `None` where `from` matches nothing.
fn region_lines(lines: &[TermLine], region: &GradedRegion) -> Option<Vec<usize>> {
    let texts: Vec<Vec<u8>> = lines.iter().map(|l| l.output.clone()).collect();
    let start = match &region.from {
        Some(from) => texts.iter().position(|t| from.is_match(t))?,
        None => 0,
    };
    let end = region
        .until
        .as_ref()
        .and_then(|until| {
            texts[start + 1..]
                .iter()
                .position(|t| until.is_match(t))
                .map(|at| start + 1 + at)
        })
        .unwrap_or(texts.len());
    (start < end).then(|| (start..end).collect())
}

/// Lines grouped by turn, in order.
fn by_turn(
    lines: impl Iterator<Item = usize>,
    turn_of: impl Fn(usize) -> usize,
) -> Vec<(usize, Vec<usize>)> {
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for i in lines {
        let turn = turn_of(i);
        match groups.last_mut() {
            Some((t, group)) if *t == turn => group.push(i),
            _ => groups.push((turn, vec![i])),
        }
    }
    groups
}

/// Each board display: a board's rows with the blank, border and number
/// lines right around them, in the same turn.
fn boards(classes: &[crate::game::LineClass]) -> Vec<(usize, Vec<usize>)> {
    let kind = |i: usize| classes[i].kind;
    let mut found = Vec::new();
    let mut i = 0;
    while i < classes.len() {
        if kind(i) != LineKind::Board {
            i += 1;
            continue;
        }
        let turn = classes[i].turn;
        let around = |j: usize| {
            classes[j].turn == turn && matches!(kind(j), LineKind::Board | LineKind::Decoration)
        };
        let mut start = i;
        while start > 0 && around(start - 1) {
            start -= 1;
        }
        let mut end = i;
        while end + 1 < classes.len() && around(end + 1) {
            end += 1;
        }
        found.push((turn, (start..=end).collect()));
        i = end + 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::Transcript;

    fn side(output: &[&str], inputs: &[&str]) -> (Vec<TermLine>, Reading) {
        let mut t = Transcript::new();
        for (i, chunk) in output.iter().enumerate() {
            t.push_output(chunk.as_bytes());
            if let Some(line) = inputs.get(i) {
                t.push_input(line);
            }
        }
        let lines = crate::transcript::lines(&t, false);
        let reading = crate::game::read(crate::games::rules(reference::Game::Pentago), &lines);
        (lines, reading)
    }

    const BOARD: &str = "\n1   1 2 3 4 5 6   2\n    -----------\nA:  . . . . . .  :A\nB:  . . . . . .  :B\nC:  . . . . . .  :C\nD:  . . . . . .  :D\nE:  . . . . . .  :E\nF:  . . . . . .  :F\n    -----------\n3   1 2 3 4 5 6   4\n\n";

    fn run(
        part: TextPart,
        want: &[&str],
        got: &[&str],
        inputs: &[&str],
    ) -> Option<FormatDifference> {
        let (wl, wr) = side(want, inputs);
        let (gl, gr) = side(got, inputs);
        compare(
            &[part],
            &Side {
                lines: &wl,
                reading: &wr,
            },
            &Side {
                lines: &gl,
                reading: &gr,
            },
            &Options::default(),
            &Regions {
                ignored: &[],
                graded: &[goodbye()],
            },
        )
    }

    /// A suite's region: the goodbye, from its line to the end.
    fn goodbye() -> GradedRegion {
        GradedRegion {
            name: "goodbye".into(),
            from: Some(regex::bytes::Regex::new("^Thanks").unwrap()),
            until: None,
        }
    }

    #[test]
    fn a_region_the_suite_names_is_compared_where_its_patterns_find_it() {
        let want = [&format!("Play.\n{BOARD}Thanks for playing.\nBye.\n")[..]];
        let got = [&format!("Play!\n{BOARD}Thanks for playing.\nBye!\n")[..]];
        let found = run(TextPart::Region(0), &want, &got, &[]).expect("the goodbye differs");
        assert_eq!(found.name, "the goodbye");
        assert_eq!(found.reference.len(), 2);
        let same = [&format!("Hello.\n{BOARD}Thanks for playing.\nBye.\n")[..]];
        assert_eq!(run(TextPart::Region(0), &want, &same, &[]), None);
        let none = [&format!("Play.\n{BOARD}")[..]];
        assert!(run(TextPart::Region(0), &want, &none, &[]).is_some_and(|f| f.yours.is_empty()));
    }

    #[test]
    fn an_error_message_is_compared_where_both_refused() {
        let prompt = "1. Enter row, column, quadrant, direction for X: ";
        let want = [
            &format!("Play.\n{BOARD}{prompt}")[..],
            &format!("*** Invalid move row.  Please retry.\n{prompt}")[..],
        ];
        let same = run(TextPart::Errors, &want, &want, &["G11R"]);
        assert_eq!(same, None);
        let own = [
            &format!("Play!\n{BOARD}{prompt}")[..],
            &format!("Bad row, try again\n{prompt}")[..],
        ];
        let found = run(TextPart::Errors, &want, &own, &["G11R"]).expect("a difference");
        assert_eq!(found.turn, 1);
        assert_eq!(found.reference.len(), 1);
        assert_eq!(found.yours[0].output, b"Bad row, try again");
        // The instructions differ too, but this part does not see them.
        assert!(run(TextPart::Instructions, &want, &own, &["G11R"]).is_some());
        assert!(run(TextPart::Boards, &want, &own, &["G11R"]).is_none());
    }

    #[test]
    fn a_part_shown_twice_in_a_turn_is_judged_by_its_last_showing() {
        // Found by fuzzing: a reference showing the board twice before
        // reading was judged against its own output as a difference.
        let moved = BOARD.replacen(". .", "X .", 1);
        let twice = [&format!("Play.\n{BOARD}Then:\n{moved}Move: ")[..]];
        assert_eq!(run(TextPart::Boards, &twice, &twice, &[]), None);
        let once = [&format!("Play.\n{moved}Move: ")[..]];
        assert_eq!(run(TextPart::Boards, &twice, &once, &[]), None);
    }

    #[test]
    fn the_ending_after_a_flood_of_boards_is_found_quickly() {
        // Found by fuzzing: each line of the last turn was looked for
        // among every board line, and 120,000 board rows took minutes.
        let flood = "X . . . O .\n".repeat(6 * 20_000);
        let want = [&format!("Play.\n{BOARD}Move: ")[..], "X wins!\n"];
        let got = [
            &format!("Play.\n{BOARD}Move: ")[..],
            &format!("{flood}X wins!\n")[..],
        ];
        let start = std::time::Instant::now();
        assert!(run(TextPart::Ending, &want, &got, &["A11R"]).is_none());
        assert!(start.elapsed() < std::time::Duration::from_secs(10));
    }

    #[test]
    fn a_board_display_is_its_rows_and_the_lines_around_them() {
        let want = [&format!("Play.\n{BOARD}Move: ")[..]];
        let tight = BOARD.replace("\n\n", "\n").replacen('\n', "", 1);
        let got = [&format!("Play.\n{tight}Move: ")[..]];
        let found = run(TextPart::Boards, &want, &got, &[]).expect("blank lines differ");
        assert_eq!(found.reference.len(), 12, "{:?}", found.reference);
        assert_eq!(found.yours.len(), 10);
        let missing = ["Play.\nMove: "];
        let none = run(TextPart::Boards, &want, &missing, &[]).expect("no board to compare");
        assert!(none.yours.is_empty());
    }
}
