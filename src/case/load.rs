//! Reading a case folder. Every broken case file is reported with its
//! file, line, column and what to write instead; the rest of the folder
//! still loads (so that all problems are listed at once), and the
//! commands that grade refuse a folder with any problem.

use std::fs;
use std::path::Path;

use reference::Game;

use super::file::TextPart;
use super::file::{CaseFile, Mode, Settings, SuiteFile, Visibility};
use super::{Case, GradedRegion, Problem, RubricItem, Suite};
use crate::call::Call;
use crate::compare::{Options, Region};
use crate::run::{pty, Limits};

/// The file holding a folder's game and defaults.
pub const SUITE_FILE: &str = "suite.yaml";

/// Loads the suite in `dir`. Fails only when the folder or its
/// `suite.yaml` cannot be used; a bad case file becomes a
/// [`Suite::problems`] entry.
pub fn load_suite(dir: &Path) -> Result<Suite, Problem> {
    let suite_path = dir.join(SUITE_FILE);
    if !dir.is_dir() {
        return Err(Problem::new(dir, "no such folder of cases"));
    }
    let text = fs::read_to_string(&suite_path).map_err(|e| {
        Problem::new(
            &suite_path,
            format!("cannot read it ({e}); a case folder needs a suite.yaml naming its game"),
        )
    })?;
    let suite_file: SuiteFile = parse(&suite_path, &text)?;
    let regions = suite_file
        .ignore_regions
        .into_iter()
        .map(|r| Region {
            name: r.name,
            from: r.from.map(|p| p.0),
            until: r.until.0,
        })
        .collect();
    let mut suite = Suite {
        game: suite_file.game.0,
        dir: dir.to_path_buf(),
        title: suite_file.title,
        cases: Vec::new(),
        regions,
        compile_flags: suite_file.compile.flags,
        explore_points: suite_file.explore_points.map_or(0.0, |p| p.0),
        problems: Vec::new(),
        rubric: suite_file
            .rubric
            .into_iter()
            .map(|item| RubricItem {
                name: item.item,
                points: item.points.0,
                by_hand: item.by_hand,
            })
            .collect(),
        graded: suite_file
            .regions
            .into_iter()
            .map(|r| GradedRegion {
                name: r.name,
                from: r.from.map(|p| p.0),
                until: r.until.map(|p| p.0),
            })
            .collect(),
    };
    let graded = suite.graded_names();
    for path in case_files(dir).map_err(|e| Problem::new(dir, format!("cannot list it: {e}")))? {
        match load_case(&path, &suite_file.defaults, suite.game, &graded)
            .and_then(|case| in_rubric(case, &suite.rubric))
        {
            Ok(case) => suite.cases.push(case),
            Err(problem) => suite.problems.push(problem),
        }
    }
    suite.cases.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(suite)
}

/// A case whose rubric item is one of the suite's, when the suite lists
/// its rubric.
fn in_rubric(case: Case, rubric: &[RubricItem]) -> Result<Case, Problem> {
    if rubric.is_empty() {
        return Ok(case);
    }
    let names = || {
        rubric
            .iter()
            .map(|i| format!("`{}`", i.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &case.rubric {
        Some(item) if rubric.iter().any(|i| &i.name == item) => Ok(case),
        Some(item) => Err(Problem::new(
            &case.file,
            format!(
                "rubric item `{item}` is not in suite.yaml's rubric; the items are: {}",
                names()
            ),
        )),
        None => Err(Problem::new(
            &case.file,
            format!(
                "the suite lists its rubric, so each case names the item it earns points for \
                 (`rubric:`); the items are: {}",
                names()
            ),
        )),
    }
}

/// The case files of a folder, sorted: every `.yaml` but `suite.yaml`.
fn case_files(dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let is_yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml");
        if is_yaml && path.file_name().is_some_and(|n| n != SUITE_FILE) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// What a case does: type lines into a whole game, or call one function.
fn task(path: &Path, file: &CaseFile, game: Game) -> Result<(Vec<String>, Option<Call>), Problem> {
    match (&file.input, &file.call) {
        (Some(input), None) => {
            if let Some(long) = input.0.iter().position(|l| l.len() >= pty::MAX_LINE) {
                return Err(Problem::new(
                    path,
                    format!(
                        "input line {} is {} bytes long; a terminal takes lines of at most {} bytes",
                        long + 1,
                        input.0[long].len(),
                        pty::MAX_LINE - 1
                    ),
                ));
            }
            Ok((input.0.clone(), None))
        }
        (None, Some(call)) => {
            if game != crate::call::GAME {
                return Err(Problem::new(
                    path,
                    format!(
                        "`call` cases are for {}'s Python functions, not {game}",
                        crate::call::GAME
                    ),
                ));
            }
            let function = call.function.0;
            let wanted = function.parameters();
            if call.args.len() != wanted.len() {
                return Err(Problem::new(
                    path,
                    format!(
                        "{} takes {} argument{} after the board ({}), not {}",
                        function.name(),
                        wanted.len(),
                        if wanted.len() == 1 { "" } else { "s" },
                        if wanted.is_empty() { "none".to_string() } else { wanted.join(", ") },
                        call.args.len()
                    ),
                ));
            }
            Ok((
                Vec::new(),
                Some(Call {
                    function,
                    board: call.board.0.clone(),
                    args: call.args.clone(),
                }),
            ))
        }
        (Some(_), Some(_)) => Err(Problem::new(
            path,
            "a case has either `input` (a whole game) or `call` (one function), not both",
        )),
        (None, None) => Err(Problem::new(
            path,
            "a case needs `input` (the lines typed into a whole game) or `call` (one function on a board)",
        )),
    }
}

fn load_case(
    path: &Path,
    defaults: &Settings,
    game: Game,
    regions: &[String],
) -> Result<Case, Problem> {
    let name = case_name(path)?;
    let text =
        fs::read_to_string(path).map_err(|e| Problem::new(path, format!("cannot read it: {e}")))?;
    let file: CaseFile = parse(path, &text)?;
    let (input, call) = task(path, &file, game)?;
    let points = file
        .points
        .clone()
        .or(defaults.points.clone())
        .map_or(1.0, |p| p.0);
    let mode = file.mode.or(defaults.mode).unwrap_or_default();
    let format_points = file
        .format_points
        .clone()
        .or(defaults.format_points.clone())
        .map_or(0.0, |p| p.0);
    let ending_points = file
        .ending_points
        .clone()
        .or(defaults.ending_points.clone())
        .map_or(0.0, |p| p.0);
    let format = match file.format.as_ref().or(defaults.format.as_ref()) {
        Some(names) => Some(
            names
                .iter()
                .map(|name| TextPart::named(name, regions))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|invalid| Problem::new(path, invalid.to_string()))?,
        ),
        None => None,
    };
    check_parts(
        path,
        mode,
        points,
        format_points,
        ending_points,
        format.is_some(),
    )?;
    let mut limits = Limits::default();
    if let Some(t) = file.timeout.as_ref().or(defaults.timeout.as_ref()) {
        limits.wall = t.0;
    }
    if let Some(t) = file.cpu.as_ref().or(defaults.cpu.as_ref()) {
        limits.cpu = t.0;
    }
    if let Some(b) = file
        .output_limit
        .as_ref()
        .or(defaults.output_limit.as_ref())
    {
        limits.output = b.0;
    }
    if let Some(b) = file.memory.as_ref().or(defaults.memory.as_ref()) {
        limits.memory = Some(b.0);
    }
    Ok(Case {
        name,
        file: path.to_path_buf(),
        description: file.description,
        rubric: file.rubric,
        points,
        visibility: file
            .visibility
            .or(defaults.visibility)
            .unwrap_or(Visibility::Hidden),
        input,
        call,
        limits,
        compare: file
            .compare
            .or(defaults.compare.clone())
            .map_or(Options::default(), |c| c.0),
        mode,
        format_points,
        move_numbers: file
            .move_numbers
            .or(defaults.move_numbers)
            .unwrap_or_default(),
        ending_points,
        exit_status: file
            .exit_status
            .or(defaults.exit_status)
            .unwrap_or_default(),
        format,
    })
}

/// The parts of a case's points add up, and are for game mode.
fn check_parts(
    path: &Path,
    mode: Mode,
    points: f64,
    format_points: f64,
    ending_points: f64,
    names_format: bool,
) -> Result<(), Problem> {
    if format_points + ending_points > points + 1e-9 {
        return Err(Problem::new(
            path,
            format!(
                "format_points ({format_points}) and ending_points ({ending_points}) together are \
                 more than the case's points ({points})"
            ),
        ));
    }
    let game_only = [
        (format_points > 0.0, "format_points"),
        (ending_points > 0.0, "ending_points"),
        (names_format, "format"),
    ];
    let why = match mode {
        Mode::Text => "in text mode the whole transcript and the ending earn the points together",
        Mode::Ending => "in `mode: ending` all the case's points are for how the run ends",
        Mode::Game => return Ok(()),
    };
    match game_only.iter().find(|(set, _)| *set) {
        Some((_, name)) => Err(Problem::new(
            path,
            format!("{name} only means something with `mode: game` ({why})"),
        )),
        None => Ok(()),
    }
}

/// A case's name is its file name: letters, digits, `-`, `_` and `.`, so
/// that it can name files and columns of reports.
fn case_name(path: &Path) -> Result<String, Problem> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let ok = !stem.is_empty()
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(stem.to_string())
    } else {
        Err(Problem::new(
            path,
            "a case's file name is its name: use letters, digits, '-', '_' and '.' only",
        ))
    }
}

/// Parses YAML, turning an error into a problem at its line and column.
fn parse<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, Problem> {
    serde_yaml::from_str(text).map_err(|e| {
        let mut position = e.location().map(|l| (l.line(), l.column()));
        if e.to_string().contains("tab character") {
            position = tab_before(text, position).or(position);
        }
        Problem {
            file: path.to_path_buf(),
            position,
            message: yaml_message(&e, text, position),
        }
    })
}

/// Where the tab is that the parser complains about: it reports the
/// place it noticed, which can be the line after.
fn tab_before(text: &str, position: Option<(usize, usize)>) -> Option<(usize, usize)> {
    let last = position.map_or(usize::MAX, |(line, _)| line);
    text.lines()
        .enumerate()
        .take(last)
        .filter_map(|(i, line)| {
            let indent = &line[..line.len() - line.trim_start().len()];
            indent.find('\t').map(|column| (i + 1, column + 1))
        })
        .last()
}

/// serde_yaml's message without its own "at line N column M" suffix,
/// since the position is shown in front; a syntax error is said in words
/// with what to write instead, the parser's own words after it.
fn yaml_message(e: &serde_yaml::Error, text: &str, position: Option<(usize, usize)>) -> String {
    let full = e.to_string();
    let raw = match full.find(" at line ") {
        Some(at) => full[..at].to_string(),
        None => full,
    };
    let at = position.and_then(|(line, column)| {
        text.lines()
            .nth(line.saturating_sub(1))
            .and_then(|l| l.chars().nth(column.saturating_sub(1)))
    });
    if let Some(guess) = did_you_mean(&raw) {
        return format!("{raw}: did you mean `{guess}`?");
    }
    match syntax_in_words(&raw, at) {
        Some(words) => format!("{words} (the YAML parser says: {raw})"),
        None => raw,
    }
}

/// For "unknown field `timout`, expected one of `timeout`, ...": the
/// expected name closest to the one written, when it is a likely typo.
fn did_you_mean(raw: &str) -> Option<String> {
    // A nested value's message starts with its path (`mode: unknown ...`).
    let at = ["unknown field `", "unknown variant `"]
        .iter()
        .filter_map(|start| raw.find(start).map(|at| at + start.len()))
        .min()?;
    let rest = &raw[at..];
    let (written, expected) = rest.split_once('`')?;
    let candidates = expected.split('`').skip(1).step_by(2);
    let (distance, best) = candidates
        .map(|c| (edit_distance(written, c), c))
        .min_by_key(|(d, _)| *d)?;
    (distance > 0 && distance <= 2.max(written.len() / 4)).then(|| best.to_string())
}

/// Levenshtein distance, for short names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

/// A YAML syntax error in words, with the fix; `at` is the character
/// where the parser stopped.
fn syntax_in_words(raw: &str, at: Option<char>) -> Option<&'static str> {
    let tab = at == Some('\t') || raw.contains("tab character");
    Some(if tab {
        "a tab character: YAML indents with spaces only; replace the tab with spaces"
    } else if raw.contains("cannot start any token") {
        "this character cannot start a value (`@`, `` ` `` and `%` cannot): put the value in \
         quotes, 'like this'"
    } else if raw.contains("mapping values are not allowed") {
        "a `: ` inside a value: put the value in quotes ('Enter row: A') or move it to the \
         next line"
    } else if raw.contains("did not find expected key") {
        "this line is not indented like the lines of its block: line up the keys of one \
         block in the same column"
    } else if raw.contains("could not find expected ':'") {
        "a line that is neither `key: value` nor part of the value above: add the `:`, or \
         indent it under its key"
    } else if raw.contains("did not find expected ',' or ']'") {
        "a list in `[...]` that is not closed: end it with `]`, with `,` between its items"
    } else if raw.contains("did not find expected ',' or '}'") {
        "a `{...}` that is not closed: end it with `}`"
    } else if raw.contains("unexpected end of stream") {
        "the file ends inside a quoted value or a list: close the quote or the bracket"
    } else if raw.contains("unknown escape character") {
        "a `\\` in double quotes starts an escape: write `\\\\`, or use single quotes"
    } else if raw.contains("block sequence entries are not allowed") {
        "a `- ` item where a value was expected: put the list on the lines below its key, \
         indented"
    } else if raw.contains("duplicate") {
        "a key given twice: keep one of them"
    } else {
        return None;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    #[test]
    fn defaults_apply_and_cases_override_them() {
        let dir = folder(&[
            (
                "suite.yaml",
                "game: connect4\ndefaults:\n  points: 2\n  visibility: public\n  timeout: 3s\n  compare: [trailing-whitespace]\n",
            ),
            ("a-win.yaml", "input: |\n  0\n  1\n"),
            (
                "b-hidden.yaml",
                "input: ['0', '7']\npoints: 0.5\nvisibility: hidden\ncompare: exact\nmemory: 64MiB\ncpu: 500ms\n",
            ),
        ]);
        let suite = load_suite(dir.path()).unwrap();
        assert!(suite.problems.is_empty(), "{:?}", suite.problems);
        let [a, b] = &suite.cases[..] else { panic!() };
        assert_eq!(
            (a.name.as_str(), a.points, a.visibility),
            ("a-win", 2.0, Visibility::Public)
        );
        assert_eq!(a.input, ["0", "1"]);
        assert_eq!(a.limits.wall, std::time::Duration::from_secs(3));
        assert!(a.compare.trailing_whitespace);
        assert_eq!((b.points, b.visibility), (0.5, Visibility::Hidden));
        assert_eq!(b.compare, Options::default());
        assert_eq!(b.limits.memory, Some(64 << 20));
        assert_eq!(b.limits.cpu, std::time::Duration::from_millis(500));
        assert_eq!(suite.max_points(), 2.5);
    }

    #[test]
    fn a_bad_case_is_reported_with_its_line_and_the_rest_load() {
        let dir = folder(&[
            ("suite.yaml", "game: pentago\n"),
            ("good.yaml", "input: |\n  x\n"),
            ("typo.yaml", "input: |\n  x\ntimout: 3s\n"),
            ("number.yaml", "input:\n  - c31r\n  - 7\n"),
            ("points.yaml", "input: x\npoints: -1\n"),
            ("duration.yaml", "input: x\ntimeout: 3 hours\n"),
            ("syntax.yaml", "input: [x\n"),
            ("tab.yaml", "input: |\n\tx\n"),
            ("bad name!.yaml", "input: x\n"),
        ]);
        let suite = load_suite(dir.path()).unwrap();
        let loaded: Vec<&str> = suite.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(loaded, ["good"]);
        let find = |name: &str| {
            suite
                .problems
                .iter()
                .find(|p| p.file.file_name().unwrap().to_str().unwrap() == name)
                .unwrap_or_else(|| panic!("no problem reported for {name}: {:?}", suite.problems))
        };
        let typo = find("typo.yaml");
        assert_eq!(typo.position.map(|p| p.0), Some(3));
        assert!(
            typo.message.contains("timout") && typo.message.ends_with("did you mean `timeout`?"),
            "{}",
            typo.message
        );
        let number = find("number.yaml");
        assert_eq!(number.position.map(|p| p.0), Some(3));
        assert!(number.message.contains("quote it"), "{}", number.message);
        assert!(find("points.yaml").message.contains("zero or more"));
        assert!(find("duration.yaml").message.contains("unknown unit"));
        assert!(find("syntax.yaml").position.is_some());
        assert!(
            find("syntax.yaml").message.contains("not closed"),
            "{}",
            find("syntax.yaml").message
        );
        let tab = find("tab.yaml");
        assert!(
            tab.message.starts_with("a tab character"),
            "{}",
            tab.message
        );
        assert_eq!(tab.position.map(|p| p.0), Some(2));
        assert!(find("bad name!.yaml").message.contains("letters, digits"));
        let shown = typo.to_string();
        assert!(shown.contains("typo.yaml:3:"), "{shown}");
    }

    #[test]
    fn parts_of_a_case_add_up_and_name_what_exists() {
        let dir = folder(&[
            (
                "suite.yaml",
                "game: pentago\ndefaults:\n  mode: game\nregions:\n  - name: goodbye\n    from: '^Thanks'\nrubric:\n  - item: exits\n    points: 2\n",
            ),
            (
                "good.yaml",
                "rubric: exits\ninput: x\npoints: 2\nending_points: 1.5\nformat_points: 0.5\nformat: [errors, goodbye]\n",
            ),
            ("too-many.yaml", "rubric: exits\ninput: x\npoints: 1\nending_points: 1\nformat_points: 0.5\n"),
            ("unknown-part.yaml", "rubric: exits\ninput: x\nformat: [farewell]\n"),
            ("no-item.yaml", "input: x\n"),
            ("other-item.yaml", "rubric: loops\ninput: x\n"),
        ]);
        let suite = load_suite(dir.path()).unwrap();
        let [good] = &suite.cases[..] else {
            panic!("{:?}", suite.problems)
        };
        assert_eq!(
            good.format.as_deref(),
            Some(&[TextPart::Errors, TextPart::Region(0)][..])
        );
        assert_eq!((good.play_points(), good.ending_points), (0.0, 1.5));
        let problem = |name: &str| {
            suite
                .problems
                .iter()
                .find(|p| p.file.ends_with(name))
                .map(|p| p.message.clone())
                .unwrap_or_default()
        };
        assert!(problem("too-many.yaml").contains("together are more than"));
        assert!(problem("unknown-part.yaml").contains("errors, ending, goodbye"));
        assert!(problem("no-item.yaml").contains("the items are: `exits`"));
        assert!(problem("other-item.yaml").contains("`loops` is not in suite.yaml's rubric"));
        assert!(
            suite.rubric_problems().is_empty(),
            "{:?}",
            suite.rubric_problems()
        );
        let text = folder(&[
            ("suite.yaml", "game: connect4\n"),
            ("a.yaml", "input: '0'\nending_points: 0.5\n"),
        ]);
        let suite = load_suite(text.path()).unwrap();
        assert!(suite.problems[0]
            .message
            .contains("only means something with `mode: game`"));
    }

    #[test]
    fn compare_takes_names_and_a_tolerance_for_numbers() {
        let dir = folder(&[
            ("suite.yaml", "game: connect4\n"),
            (
                "a-flow.yaml",
                "input: x\ncompare: [prompts, whitespace-runs, {numbers: {absolute: 0.01}}]\n",
            ),
            (
                "b-block.yaml",
                "input: x\ncompare:\n  - prompts\n  - numbers:\n      relative: 1e-6\n      absolute: 0.5\n",
            ),
            ("c-name.yaml", "input: x\ncompare: [numbers-within-relative-1e-6, case]\n"),
            ("d-map.yaml", "input: x\ncompare: {numbers: {absolute: 0}}\n"),
            ("e-negative.yaml", "input: x\ncompare:\n  - prompts\n  - numbers: {absolute: -0.01}\n"),
            ("f-word.yaml", "input: x\ncompare:\n  - numbers:\n      relative: lots\n"),
            ("g-typo.yaml", "input: x\ncompare:\n  - numbers: {absolut: 0.01}\n"),
            ("h-empty.yaml", "input: x\ncompare:\n  - numbers: {}\n"),
            ("i-plain.yaml", "input: x\ncompare: [case, numbers]\n"),
            ("j-unknown.yaml", "input: x\ncompare:\n  - digits: {absolute: 1}\n"),
            ("k-twice.yaml", "input: x\ncompare: [{numbers: {absolute: 1}}, {numbers: {relative: 1}}]\n"),
        ]);
        let suite = load_suite(dir.path()).unwrap();
        let names: Vec<(&str, Vec<String>)> = suite
            .cases
            .iter()
            .map(|c| (c.name.as_str(), c.compare.names()))
            .collect();
        assert_eq!(
            names,
            [
                (
                    "a-flow",
                    vec![
                        "whitespace-runs".into(),
                        "prompts".into(),
                        "numbers-within-0.01".into()
                    ]
                ),
                (
                    "b-block",
                    vec![
                        "prompts".into(),
                        "numbers-within-0.5-or-relative-1e-6".into()
                    ]
                ),
                (
                    "c-name",
                    vec!["case".into(), "numbers-within-relative-1e-6".into()]
                ),
                ("d-map", vec!["numbers-within-0".into()]),
            ]
        );
        let problem = |name: &str| {
            let p = suite
                .problems
                .iter()
                .find(|p| p.file.ends_with(name))
                .unwrap_or_else(|| panic!("no problem for {name}: {:?}", suite.problems));
            (p.position.map(|(line, _)| line), p.message.clone())
        };
        let (line, message) = problem("e-negative.yaml");
        assert_eq!(line, Some(4), "{message}");
        assert!(
            message.contains("a tolerance is a number, zero or more"),
            "{message}"
        );
        assert!(message.contains("`-0.01`"), "{message}");
        let (line, message) = problem("f-word.yaml");
        assert_eq!(line, Some(4), "{message}");
        assert!(message.contains("compare[0].numbers.relative"), "{message}");
        assert!(message.contains("not `lots`"), "{message}");
        let (line, message) = problem("g-typo.yaml");
        assert_eq!(line, Some(3), "{message}");
        assert!(message.contains("did you mean `absolute`?"), "{message}");
        let (line, message) = problem("h-empty.yaml");
        assert_eq!(line, Some(3), "{message}");
        assert!(message.contains("`numbers` needs a tolerance"), "{message}");
        let (line, message) = problem("i-plain.yaml");
        assert_eq!(line, Some(2), "{message}");
        assert!(message.contains("`numbers` needs a tolerance"), "{message}");
        let (line, message) = problem("j-unknown.yaml");
        assert_eq!(line, Some(3), "{message}");
        assert!(
            message.contains("unknown comparison option `digits`"),
            "{message}"
        );
        let (_, message) = problem("k-twice.yaml");
        assert!(message.contains("given twice"), "{message}");
    }

    #[test]
    fn an_ending_case_and_the_exit_status_by_either_name() {
        let dir = folder(&[
            (
                "suite.yaml",
                "game: connect4\ndefaults:\n  exit_status: zero\n",
            ),
            ("a.yaml", "input: x\nmode: ending\n"),
            ("b.yaml", "input: x\nexit_status: same\n"),
            ("c.yaml", "input: x\nexit_status: any\n"),
            ("points.yaml", "input: x\nmode: ending\nending_points: 1\n"),
            ("mode.yaml", "input: x\nmode: endings\n"),
        ]);
        let suite = load_suite(dir.path()).unwrap();
        let settings: Vec<(Mode, crate::case::ExitStatus)> = suite
            .cases
            .iter()
            .map(|c| (c.mode, c.exit_status))
            .collect();
        use crate::case::ExitStatus::{Any, Same};
        assert_eq!(
            settings,
            [(Mode::Ending, Same), (Mode::Text, Same), (Mode::Text, Any)]
        );
        let problem = |name: &str| {
            suite
                .problems
                .iter()
                .find(|p| p.file.ends_with(name))
                .map(|p| p.to_string())
                .unwrap_or_default()
        };
        assert!(
            problem("points.yaml").contains("all the case's points are for how the run ends"),
            "{}",
            problem("points.yaml")
        );
        assert!(
            problem("mode.yaml").contains("mode.yaml:2:"),
            "{}",
            problem("mode.yaml")
        );
        assert!(
            problem("mode.yaml").contains("did you mean `ending`?"),
            "{}",
            problem("mode.yaml")
        );
    }

    #[test]
    fn a_missing_or_broken_suite_file_stops_the_folder() {
        let dir = folder(&[("a.yaml", "input: x\n")]);
        assert!(load_suite(dir.path())
            .unwrap_err()
            .message
            .contains("suite.yaml"));
        let dir = folder(&[("suite.yaml", "game: chess\n")]);
        let err = load_suite(dir.path()).unwrap_err();
        assert!(err.message.contains("connect4"), "{err}");
        assert!(load_suite(Path::new("/no/such/folder")).is_err());
    }

    #[test]
    fn regions_and_overlong_lines() {
        let long = "x".repeat(5000);
        let dir = folder(&[
            (
                "suite.yaml",
                "game: pentago\nignore_regions:\n  - name: header\n    until: '^Play'\n  - name: bad\n    until: '(unclosed'\n",
            ),
        ]);
        let err = load_suite(dir.path()).unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(6), "{err}");
        let dir = folder(&[
            (
                "suite.yaml",
                "game: pentago\nignore_regions:\n  - name: header\n    until: '^Play'\n",
            ),
            ("long.yaml", &format!("input: [\"{long}\"]\n")),
        ]);
        let suite = load_suite(dir.path()).unwrap();
        assert_eq!(suite.regions.len(), 1);
        assert!(suite.problems[0].message.contains("at most"));
    }
}
