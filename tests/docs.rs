//! The docs cannot drift: every ` ```console ` example in the README, the
//! guide (`docs/`), ARCHITECTURE.md and CONTRIBUTING.md is run and what
//! it prints compared with what the example shows, and every relative
//! link between them (anchors included) resolves.
//!
//! An example's `$ ` lines are commands, run by `bash` from the
//! repository's root with the `referee` just built first on `PATH` (a
//! line ending in `\` goes on on the next); the lines under a command are
//! what it must print, its stdout then its stderr. In them `[..]` stands
//! for any text within a line, and a line `...` for any number of lines.
//! (trycmd checks Markdown examples too, but runs no shell: these examples
//! use pipes and redirections, as their readers do.)

mod common;

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::root;

/// Every Markdown file a reader is sent to.
fn documents() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"]
        .iter()
        .map(|f| root().join(f))
        .collect();
    let mut guide: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guide.sort();
    files.extend(guide);
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// One example: where it is, its commands and what each must print.
struct Example {
    place: String,
    steps: Vec<(String, Vec<String>)>,
}

/// The ` ```console ` blocks of `text`, indented ones (in a list) too.
fn examples(path: &Path, text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((number, line)) = lines.next() {
        let indent = line.len() - line.trim_start().len();
        let fence = line.trim_start();
        if !fence.starts_with("```") {
            continue;
        }
        let body: Vec<&str> = lines
            .by_ref()
            .map(|(_, l)| l)
            .take_while(|l| l.trim_start() != "```")
            .collect();
        if fence.trim_end() != "```console" {
            continue;
        }
        let body: Vec<&str> = body
            .iter()
            .map(|l| l.get(indent..).unwrap_or(l.trim_start()))
            .collect();
        found.push(Example {
            place: format!("{}:{}", relative(path), number + 1),
            steps: steps(&body),
        });
    }
    found
}

/// Commands and their expected lines.
fn steps(body: &[&str]) -> Vec<(String, Vec<String>)> {
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    let mut continued = false;
    for line in body {
        if continued {
            let (command, _) = steps.last_mut().unwrap();
            command.push('\n');
            command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            steps.push((command.to_string(), Vec::new()));
            continued = command.ends_with('\\');
        } else if let Some((_, expected)) = steps.last_mut() {
            expected.push(line.to_string());
        }
    }
    for (_, expected) in &mut steps {
        while expected.last().is_some_and(|l| l.trim().is_empty()) {
            expected.pop();
        }
    }
    steps
}

/// Whether `line` matches `pattern`, where `[..]` is any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether `lines` match `patterns`, where a line `...` is any lines.
fn matches(patterns: &[String], lines: &[&str]) -> bool {
    let mut memo = HashMap::new();
    matches_from(patterns, lines, 0, 0, &mut memo)
}

fn matches_from(
    patterns: &[String],
    lines: &[&str],
    p: usize,
    l: usize,
    memo: &mut HashMap<(usize, usize), bool>,
) -> bool {
    if let Some(&known) = memo.get(&(p, l)) {
        return known;
    }
    let answer = match patterns.get(p) {
        None => l == lines.len(),
        Some(pattern) if pattern.trim() == "..." => {
            (l..=lines.len()).any(|from| matches_from(patterns, lines, p + 1, from, memo))
        }
        Some(pattern) => {
            l < lines.len()
                && line_matches(pattern, lines[l])
                && matches_from(patterns, lines, p + 1, l + 1, memo)
        }
    };
    memo.insert((p, l), answer);
    answer
}

/// What `command` prints, stdout then stderr, as the example shows it.
fn run(command: &str) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_referee")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let output = Command::new("bash")
        .args(["-c", command])
        .current_dir(root())
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("REFEREE_SANDBOX_OFF")
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    text
}

#[test]
fn every_console_example_prints_what_it_shows() {
    let mut failures = Vec::new();
    let mut count = 0;
    for path in documents() {
        let text = fs::read_to_string(&path).unwrap();
        for example in examples(&path, &text) {
            for (command, expected) in &example.steps {
                count += 1;
                let printed = run(command);
                let lines: Vec<&str> = printed.trim_end().lines().collect();
                if !matches(expected, &lines) {
                    failures.push(format!(
                        "{}: `{command}` printed:\n{printed}\n--- but the example shows:\n{}\n",
                        example.place,
                        expected.join("\n")
                    ));
                }
            }
        }
    }
    assert!(
        count >= 10,
        "only {count} commands found in the docs' examples"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces
/// as hyphens; a repeated heading gets `-1`, `-2`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_default();
        anchors.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    anchors
}

/// The targets of the Markdown links of `text`, outside code.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Inline code is not a link.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                found.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    found
}

#[test]
fn every_link_between_the_docs_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for path in documents() {
        let text = fs::read_to_string(&path).unwrap();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match link.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() {
                path.clone()
            } else {
                path.parent().unwrap().join(file)
            };
            if !target.exists() {
                broken.push(format!("{}: {link}: no such file", relative(&path)));
                continue;
            }
            if let Some(anchor) = anchor {
                let heads = anchors(&fs::read_to_string(&target).unwrap_or_default());
                if !heads.contains(anchor) {
                    broken.push(format!(
                        "{}: {link}: {} has no heading #{anchor}",
                        relative(&path),
                        relative(&target)
                    ));
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} links found");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn every_page_of_the_guide_is_reached_from_the_readme() {
    let mut reached = BTreeSet::new();
    let mut todo = vec![root().join("README.md")];
    while let Some(path) = todo.pop() {
        let Ok(path) = path.canonicalize() else {
            continue;
        };
        if !reached.insert(path.clone()) || path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap_or_default();
        for link in links(&text) {
            let file = link.split('#').next().unwrap_or("");
            if !file.is_empty() && !file.contains("://") {
                todo.push(path.parent().unwrap().join(file));
            }
        }
    }
    for page in documents() {
        let page = page.canonicalize().unwrap();
        assert!(
            reached.contains(&page),
            "{} is not linked from the README, nor from a page it links",
            relative(&page)
        );
    }
}

#[test]
fn the_matcher_takes_wildcards_and_nothing_else() {
    let pattern = |text: &str| -> Vec<String> { text.lines().map(String::from).collect() };
    assert!(matches(&pattern("a\n...\nz"), &["a", "b", "c", "z"]));
    assert!(matches(&pattern("a\n...\nz"), &["a", "z"]));
    assert!(!matches(&pattern("a\nz"), &["a", "b", "z"]));
    assert!(matches(&pattern("in [..] s."), &["in 0.2 s."]));
    assert!(!matches(&pattern("in [..] s."), &["in 0.2 s"]));
    assert!(!matches(&pattern("exact"), &["exactly"]));
    assert!(matches(&pattern("[..]"), &["anything"]));
}
