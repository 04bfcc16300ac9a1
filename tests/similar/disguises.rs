//! The disguises a copier uses, each a change of a program's text that
//! keeps what it does: shared by tests/similar.rs (each still ranks the
//! copy first) and benches/similar.rs (the same, beside a peer).

/// Programs written apart from each other (and from the two originals
/// the disguises start from), in four languages: the C ones first.
pub const INDEPENDENT: [&str; 12] = [
    "tests/fixtures/pentago/correct.c",
    "tests/fixtures/connect4/correct.c",
    "examples/temperature/solution.c",
    "tests/fixtures/caesar/caesar.c",
    "tests/fixtures/temperature/wc.c",
    "tests/fixtures/temperature/support.c",
    "tests/fixtures/languages/pentago.cpp",
    "tests/fixtures/java/Solution.java",
    "tests/fixtures/connect4-bomb/correct.py",
    "tests/fixtures/caesar/caesar.py",
    "tests/fixtures/fuel/fuel.py",
    "tests/fixtures/scores/rank.py",
];

const C_WORDS: &[&str] = &[
    "int", "char", "void", "return", "if", "else", "for", "while", "do", "break", "continue",
    "include", "define", "static", "const", "sizeof", "double", "float", "long", "unsigned",
    "bool", "true", "false", "struct", "switch", "case", "default", "NULL",
];

/// Every identifier renamed, consistently.
pub fn rename(text: &str) -> String {
    let word = regex::Regex::new(r"\b[A-Za-z_][A-Za-z0-9_]*\b").unwrap();
    let mut names: Vec<String> = Vec::new();
    word.replace_all(text, |c: &regex::Captures| {
        let w = &c[0];
        if C_WORDS.contains(&w) {
            return w.to_string();
        }
        let n = names.iter().position(|x| x == w).unwrap_or_else(|| {
            names.push(w.to_string());
            names.len() - 1
        });
        format!("renamed{n}x")
    })
    .into_owned()
}

/// Comments stripped, others added, every line indented anew.
pub fn restyle(text: &str) -> String {
    let comment = regex::Regex::new(r"(?s)/\*.*?\*/|//[^\n]*").unwrap();
    let bare = comment.replace_all(text, "");
    let mut out = String::from("/* my own work */\n");
    for (n, line) in bare.lines().enumerate() {
        let depth = line.len() - line.trim_start().len();
        out.push_str(&"\t".repeat(depth / 2));
        out.push_str(line.trim());
        if line.trim_end().ends_with(';') && n % 3 == 0 {
            out.push_str("    /* step */");
        }
        out.push('\n');
        if n % 7 == 0 {
            out.push_str("\n// --------\n\n");
        }
    }
    out
}

/// Every string and number changed.
pub fn relabel(text: &str) -> String {
    let string = regex::Regex::new(r#""([^"\\]|\\.)*""#).unwrap();
    let number = regex::Regex::new(r"\b\d+\b").unwrap();
    let text = string.replace_all(text, "\"something else entirely\"");
    number
        .replace_all(&text, |c: &regex::Captures| {
            (c[0].parse::<u64>().unwrap_or(0) + 7).to_string()
        })
        .into_owned()
}

/// The top-level functions in reverse order.
pub fn reorder(text: &str) -> String {
    let mut prelude = String::new();
    let mut functions: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut inside = false;
    for line in text.lines() {
        if !inside && line.ends_with('{') && !line.starts_with(' ') {
            inside = true;
        }
        if inside {
            current.push_str(line);
            current.push('\n');
            if line == "}" {
                functions.push(std::mem::take(&mut current));
                inside = false;
            }
        } else if functions.is_empty() {
            prelude.push_str(line);
            prelude.push('\n');
        }
    }
    assert!(functions.len() >= 3, "{}", functions.len());
    functions.reverse();
    prelude + &functions.concat()
}

/// A statement that does nothing after every third statement.
pub fn pad(text: &str) -> String {
    let noops = ["(void)0;", "if (0) {}", "int unusedValue = 0;", ";"];
    let mut out = String::new();
    let mut statements = 0;
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        if line.starts_with(' ') && line.trim_end().ends_with(';') {
            statements += 1;
            if statements % 3 == 0 {
                let indent = &line[..line.len() - line.trim_start().len()];
                out.push_str(&format!(
                    "{indent}{}\n",
                    noops[statements / 3 % noops.len()]
                ));
            }
        }
    }
    out
}

/// Every `for (a; b; c) {` made `a; while (b) { ... c; }`.
pub fn unroll_for(text: &str) -> String {
    let header = regex::Regex::new(r"^(\s*)for \((.*?); (.*?); (.*?)\) \{$").unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut i = 0;
    let mut changed = 0;
    while i < lines.len() {
        if let Some(c) = header.captures(&lines[i].clone()) {
            let indent = c[1].to_string();
            let close = (i + 1..lines.len()).find(|&j| lines[j] == format!("{indent}}}"));
            if let Some(close) = close {
                lines[i] = format!("{indent}while ({}) {{", &c[3]);
                lines.insert(close, format!("{indent}  {};", &c[4]));
                lines.insert(i, format!("{indent}{};", &c[2]));
                changed += 1;
                i += 1;
            }
        }
        i += 1;
    }
    assert!(changed >= 3, "{changed} loops changed");
    lines.join("\n") + "\n"
}

/// A disguise: what it does, and the change.
pub type Disguise = (&'static str, fn(&str) -> String);

/// Each disguise alone and all of them together.
pub fn disguises() -> Vec<Disguise> {
    vec![
        ("comments and white space", restyle),
        ("renamed identifiers", rename),
        ("changed literals", relabel),
        ("reordered functions", reorder),
        ("added statements that do nothing", pad),
        ("for made while", unroll_for),
        ("all together", |t| {
            restyle(&pad(&reorder(&relabel(&rename(&unroll_for(t))))))
        }),
    ]
}
