//! The reports of `referee similar`: `similarity.json`, a page ranking
//! the pairs (`similarity.html`, with a histogram of the class's scores)
//! and a page per pair (`similar/<a>--<b>.html`) with both sources side
//! by side, each matched region coloured alike in both and linked to its
//! match. Pages are self-contained and in the feedback pages' style;
//! every student's text is escaped, and what they show is bounded.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::html::{esc, STYLE};
use crate::similar::{Pair, Program, Report, Span};

/// The JSON report's name.
pub const FILE: &str = "similarity.json";

/// The ranking page's name.
pub const INDEX: &str = "similarity.html";

/// The folder of the pair pages.
pub const DIR: &str = "similar";

/// Pair pages written: the most similar pairs; the ranking lists more.
pub const MAX_PAGES: usize = 200;

/// Lines of one file a pair page shows.
pub const MAX_LINES: usize = 5000;

/// Colours of matched regions, taken in turn.
const COLOURS: [&str; 8] = [
    "#fff3b0", "#cde7ff", "#d6f5d6", "#ffd8e4", "#e6dcff", "#ffe2c2", "#c9f2ee", "#eeeeee",
];

const EXTRA_STYLE: &str = "
.hist { display: flex; align-items: flex-end; gap: 4px; height: 120px; margin: 8px 0 0; }
.hist div { flex: 1; background: #0969da; min-height: 1px; border-radius: 2px 2px 0 0; }
.hist-axis { display: flex; gap: 4px; font-size: 11px; color: var(--muted); }
.hist-axis span { flex: 1; text-align: center; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.src { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #fff;
  border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
.src div { white-space: pre-wrap; overflow-wrap: anywhere; padding: 0 6px; }
.src .n { display: inline-block; width: 3.5em; color: var(--muted); user-select: none; }
.src a { color: inherit; }
";

/// Writes the JSON report and the pages into `out` (made if missing);
/// the files written, the JSON first and the ranking page second.
pub fn write(out: &Path, report: &Report, programs: &[Program]) -> io::Result<Vec<PathBuf>> {
    fs::create_dir_all(out)?;
    let json = serde_json::to_vec_pretty(report).map_err(io::Error::other)?;
    let mut written = vec![out.join(FILE), out.join(INDEX)];
    crate::atomic::write(&written[0], &json)?;
    crate::atomic::write(&written[1], ranking(report).as_bytes())?;
    let dir = out.join(DIR);
    if dir.is_dir() {
        // Pages of an earlier comparison would be taken for this one's.
        fs::remove_dir_all(&dir)?;
    }
    fs::create_dir_all(&dir)?;
    let by_id: HashMap<&str, &Program> = programs.iter().map(|p| (p.id.as_str(), p)).collect();
    for pair in report.pairs.iter().take(MAX_PAGES) {
        let (Some(a), Some(b)) = (by_id.get(pair.a.as_str()), by_id.get(pair.b.as_str())) else {
            continue;
        };
        let path = dir.join(page_name(pair));
        fs::write(&path, pair_page(pair, a, b).as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

/// A pair page's file name (ids are safe file names, see
/// [`crate::class::readable`]).
pub fn page_name(pair: &Pair) -> String {
    format!("{}--{}.html", pair.a, pair.b)
}

/// A whole page around `body`.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}{EXTRA_STYLE}</style>\n</head>\n<body>\n<main>\n{body}\
         <footer>Compared by referee {}. Similar code is evidence for a person to weigh, \
         not a finding of copying.</footer>\n</main>\n</body>\n</html>\n",
        esc(title),
        esc(env!("CARGO_PKG_VERSION"))
    )
}

/// The page ranking the pairs.
fn ranking(report: &Report) -> String {
    let mut body = String::from("<h1>Similar programs</h1>\n");
    let _ = writeln!(
        body,
        "<p class=\"sub\">{} programs compared by {} (k = {}, w = {}); similarity is the share \
         of the smaller program's own fingerprints that the other holds too.</p>",
        report.programs.len(),
        esc(&report.method.name),
        report.method.k,
        report.method.w
    );
    body.push_str(&histogram(&report.histogram));
    if !report.clusters.is_empty() {
        body.push_str("<section class=\"card\"><h2>Groups of similar programs</h2><ul>\n");
        for cluster in &report.clusters {
            let members: Vec<String> = cluster.members.iter().map(|m| esc(m)).collect();
            let _ = writeln!(
                body,
                "<li>{} (highest {:.2})</li>",
                members.join(", "),
                cluster.highest
            );
        }
        body.push_str("</ul></section>\n");
    }
    body.push_str(&pairs_table(report));
    if !report.skipped.is_empty() {
        body.push_str("<section class=\"card problem\"><h2>Not compared</h2><ul>\n");
        for s in &report.skipped {
            let _ = writeln!(body, "<li><b>{}</b>: {}</li>", esc(&s.id), esc(&s.reason));
        }
        body.push_str("</ul></section>\n");
    }
    page("Similar programs", &body)
}

/// The histogram of every pair's score, by tenths.
fn histogram(counts: &[usize; 10]) -> String {
    let most = counts.iter().copied().max().unwrap_or(0).max(1);
    let mut out = String::from(
        "<section class=\"card\"><h2>All pairs by similarity</h2><div class=\"hist\">",
    );
    for (i, &n) in counts.iter().enumerate() {
        // A square root, so that the few high pairs still show beside the
        // thousands near zero.
        let height = ((n as f64).sqrt() / (most as f64).sqrt() * 100.0).round();
        let _ = write!(
            out,
            "<div style=\"height:{height}%\" title=\"{n} pairs from {:.1} to {:.1}\"></div>",
            i as f64 / 10.0,
            (i + 1) as f64 / 10.0
        );
    }
    out.push_str("</div><div class=\"hist-axis\">");
    for i in 0..10 {
        let _ = write!(out, "<span>{:.1}</span>", i as f64 / 10.0);
    }
    out.push_str("</div></section>\n");
    out
}

/// The table of pairs, most similar first.
fn pairs_table(report: &Report) -> String {
    let mut out = String::from(
        "<section class=\"card\"><h2>Pairs</h2><table><thead><tr><th class=\"num\">#</th>\
         <th>Programs</th><th class=\"num\">Similarity</th><th>Failures alike</th></tr></thead><tbody>\n",
    );
    for (rank, pair) in report.pairs.iter().enumerate() {
        let names = format!("{} and {}", esc(&pair.a), esc(&pair.b));
        let names = if rank < MAX_PAGES {
            format!("<a href=\"{DIR}/{}\">{names}</a>", esc(&page_name(pair)))
        } else {
            names
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"num\">{}</td><td>{names}</td><td class=\"num\">{:.2}</td><td>{}</td></tr>",
            rank + 1,
            pair.similarity,
            pair.same_failures.len()
        );
    }
    out.push_str("</tbody></table>");
    if report.pairs_not_shown > 0 {
        let _ = write!(
            out,
            "<p class=\"sub\">{} less similar pairs are not listed.</p>",
            report.pairs_not_shown
        );
    }
    out.push_str("</section>\n");
    out
}

/// One pair's page: the failures they share, then both sources.
fn pair_page(pair: &Pair, a: &Program, b: &Program) -> String {
    let mut body = format!(
        "<p><a href=\"../{INDEX}\">All pairs</a></p>\n<h1>{} and {}</h1>\n\
         <p class=\"score\">{:.2} similar</p>\n",
        esc(&pair.a),
        esc(&pair.b),
        pair.similarity
    );
    if !pair.same_failures.is_empty() {
        body.push_str(
            "<section class=\"card\"><h2>Cases both failed the same way</h2><table><thead><tr>\
             <th>Case</th><th>Verdict</th><th class=\"num\">Programs that printed this</th>\
             </tr></thead><tbody>\n",
        );
        for f in &pair.same_failures {
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
                esc(&f.case),
                esc(&f.verdict),
                f.shared_by
            );
        }
        body.push_str("</tbody></table></section>\n");
    }
    let _ = writeln!(
        body,
        "<div class=\"sides\"><div><h2>{}</h2>{}</div><div><h2>{}</h2>{}</div></div>",
        esc(&pair.a),
        source(a, &pair.shared_lines.a, "a", "b"),
        esc(&pair.b),
        source(b, &pair.shared_lines.b, "b", "a")
    );
    page(&format!("{} and {}", pair.a, pair.b), &body)
}

/// A program's files with its regions coloured; each region's first
/// line links to the same region on the other side.
fn source(program: &Program, spans: &[Span], side: &str, other: &str) -> String {
    let mut out = String::new();
    for file in &program.sources.files {
        let _ = write!(out, "<h3>{}</h3><div class=\"src\">", esc(&file.name));
        let lines: Vec<&str> = file.text.lines().collect();
        for (n, line) in lines.iter().take(MAX_LINES).enumerate() {
            let number = u32::try_from(n + 1).unwrap_or(u32::MAX);
            let region = spans
                .iter()
                .position(|s| s.file == file.name && (s.from..=s.to).contains(&number));
            let text = esc(line);
            match region {
                None => {
                    let _ = write!(out, "<div><span class=\"n\">{number}</span>{text}</div>");
                }
                Some(r) => {
                    let colour = COLOURS[r % COLOURS.len()];
                    let start = spans[r].from == number;
                    let anchor = if start {
                        format!(" id=\"{side}{r}\"")
                    } else {
                        String::new()
                    };
                    let numbered = if start {
                        format!("<a href=\"#{other}{r}\" title=\"its match\">{number}</a>")
                    } else {
                        number.to_string()
                    };
                    let _ = write!(
                        out,
                        "<div{anchor} style=\"background:{colour}\"><span class=\"n\">{numbered}</span>{text}</div>"
                    );
                }
            }
        }
        if lines.len() > MAX_LINES {
            let _ = write!(
                out,
                "<div><i>{} more lines not shown</i></div>",
                lines.len() - MAX_LINES
            );
        }
        out.push_str("</div>\n");
    }
    out
}
