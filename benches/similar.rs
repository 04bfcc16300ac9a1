//! `referee similar` on a generated class: 1,000 programs of C of 300
//! lines or more each (about 380; at full scale), a tenth of them copies
//! of another with names changed and functions reordered. Prints how long reading
//! and comparing the class takes, and what it found; asserts nothing
//! about speed. `REFEREE_BENCH_SCALE=0.1` compares a tenth of the class.

use std::fmt::Write as _;
use std::time::Instant;

use referee::similar::{self, tokens::Language, Program, Source, Sources};

/// `REFEREE_BENCH_SCALE`: the share of the class to compare (1 by
/// default), as the other benchmarks read it.
fn scale() -> f64 {
    std::env::var("REFEREE_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0)
}

/// Programs in the class at full scale.
const CLASS: usize = 1000;

/// Functions per program: each about 25 lines.
const FUNCTIONS: usize = 12;

/// A small, seeded random number generator (xorshift64*): the same class
/// on every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const OPS: [&str; 8] = ["+", "-", "*", "/", "%", "&", "|", "^"];
const COMPARE: [&str; 6] = ["<", ">", "<=", ">=", "==", "!="];
const TYPES: [&str; 4] = ["int", "long", "double", "char"];

fn name(r: &mut Random) -> String {
    format!("v{}", r.below(40))
}

fn expression(r: &mut Random) -> String {
    let mut text = name(r);
    for _ in 0..r.below(4) {
        let operand = if r.below(2) == 0 {
            name(r)
        } else {
            r.below(100).to_string()
        };
        let _ = write!(text, " {} {operand}", r.pick(&OPS));
    }
    text
}

fn statement(r: &mut Random, depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth);
    let kind = if depth > 3 { r.below(3) } else { r.below(7) };
    match kind {
        0 => {
            let _ = writeln!(out, "{indent}{} = {};", name(r), expression(r));
        }
        1 => {
            let _ = writeln!(out, "{indent}printf(\"%d\\n\", {});", expression(r));
        }
        2 => {
            let _ = writeln!(
                out,
                "{indent}{} {} = {};",
                r.pick(&TYPES),
                name(r),
                expression(r)
            );
        }
        3 | 4 => {
            let _ = writeln!(
                out,
                "{indent}if ({} {} {}) {{",
                expression(r),
                r.pick(&COMPARE),
                expression(r)
            );
            for _ in 0..1 + r.below(3) {
                statement(r, depth + 1, out);
            }
            let _ = writeln!(out, "{indent}}}");
        }
        5 => {
            let i = name(r);
            let _ = writeln!(
                out,
                "{indent}for ({i} = 0; {i} < {}; {i}++) {{",
                expression(r)
            );
            for _ in 0..1 + r.below(3) {
                statement(r, depth + 1, out);
            }
            let _ = writeln!(out, "{indent}}}");
        }
        _ => {
            let _ = writeln!(
                out,
                "{indent}while ({} {} 0) {{",
                expression(r),
                r.pick(&COMPARE)
            );
            statement(r, depth + 1, out);
            let _ = writeln!(out, "{indent}  {}--;", name(r));
            let _ = writeln!(out, "{indent}}}");
        }
    }
}

/// One program's functions.
fn functions(r: &mut Random) -> Vec<String> {
    (0..FUNCTIONS)
        .map(|f| {
            let mut text = format!("int f{f}(int v0, int v1) {{\n");
            while text.lines().count() < 24 {
                statement(r, 1, &mut text);
            }
            text.push_str("  return v0;\n}\n");
            text
        })
        .collect()
}

fn program(id: String, text: String) -> Program {
    Program {
        id,
        sources: Sources {
            files: vec![Source {
                name: "main.c".into(),
                language: Language::C,
                text,
            }],
            notes: Vec::new(),
        },
    }
}

/// The class: independent programs, and every tenth a copy of the one
/// before it, its names changed and functions reversed.
fn class(size: usize) -> Vec<Program> {
    let mut r = Random(0x5eed_1234_abcd_ef01);
    let mut programs = Vec::with_capacity(size);
    let mut last: Vec<String> = Vec::new();
    for n in 0..size {
        let parts = if n % 10 == 9 {
            let mut copy: Vec<String> = last.iter().map(|f| f.replace('v', "w")).collect();
            copy.reverse();
            copy
        } else {
            functions(&mut r)
        };
        let text = format!("#include <stdio.h>\n\n{}", parts.concat());
        last = parts;
        programs.push(program(format!("s{n:04}"), text));
    }
    programs
}

fn main() {
    let size = ((CLASS as f64 * scale()).round() as usize).max(2);
    let started = Instant::now();
    let programs = class(size);
    let lines: usize = programs
        .iter()
        .map(|p| p.sources.files[0].text.lines().count())
        .sum();
    let made = started.elapsed();
    let started = Instant::now();
    let report = similar::compare(&programs, &[], Vec::new(), None);
    let compared = started.elapsed();
    let copies = report.pairs.iter().filter(|p| p.similarity >= 0.9).count();
    println!(
        "similar: {size} programs of {} lines on average (made in {:.2} s)",
        lines / size,
        made.as_secs_f64()
    );
    println!(
        "  compared in {:.2} s: {} pairs share code, {copies} score 0.9 or more ({} copies made); \
         the most similar pair written apart scores {:.2}",
        compared.as_secs_f64(),
        report.pairs.len() + report.pairs_not_shown,
        size / 10,
        report
            .pairs
            .iter()
            .find(|p| {
                let n = |id: &str| id[1..].parse::<usize>().unwrap_or(0);
                !(n(&p.b) % 10 == 9 && n(&p.b) == n(&p.a) + 1)
            })
            .map_or(0.0, |p| p.similarity)
    );
}
