//! Which programs of a class are alike (`referee similar`): each program
//! read as normalised tokens ([`tokens`]), fingerprinted by winnowing
//! ([`fingerprints`]), the fingerprints of the code every student was
//! given left out, the rest indexed so that only programs sharing some
//! are paired ([`index`]), each pair scored and its shared regions
//! mapped back to lines ([`score`]), and, where the class was graded,
//! the failures each pair shares ([`behaviour`]).
//!
//! What it finds is evidence for a TA to read, never a verdict: the
//! words are "similar", never "copied".

pub mod behaviour;
pub mod fingerprints;
pub mod index;
mod report;
pub mod score;
pub mod sources;
pub mod tokens;

use std::collections::HashSet;

pub use report::{
    Cluster, Method, Pair, ProgramInfo, Report, SameFailure, SharedLines, Skipped, Span,
};
pub use sources::{Source, Sources};

use behaviour::Failures;
use fingerprints::{kgrams, winnow, K, W};
use index::Index;
use score::Mark;

/// The most pairs a report lists: the most similar, far more than a TA
/// reads; the rest are counted.
pub const MAX_PAIRS: usize = 1000;

/// Fingerprints held by more programs than this share of the class
/// (and than [`COMMON_FLOOR`]) are its common code: what the course's
/// handout or the language makes everyone write, as MOSS's `-m`.
pub const COMMON_SHARE: f64 = 0.5;

/// The fewest holders that make a fingerprint common, so that in a small
/// class a group of copies is not mistaken for common code: 10, MOSS's
/// default. (At 4, five of a class of eight that share a program with a
/// line changed each scored 0.38: their shared code was taken for the
/// class's.) In a class of under 20, starter code is left out only when
/// named (`--base`).
pub const COMMON_FLOOR: usize = 10;

/// One program of the class: its id and its sources.
#[derive(Clone, Debug)]
pub struct Program {
    /// The student's id.
    pub id: String,
    /// Its sources.
    pub sources: Sources,
}

/// A program's fingerprints, the base's left out.
struct Prepared {
    marks: Vec<Mark>,
    hashes: Vec<u64>,
    files: Vec<String>,
}

/// Compares every pair of `programs` (sorted by id) that share code, none
/// of `base`'s counting; `failures` adds the failures each pair shares.
/// `skipped` are listed in the report as they are.
pub fn compare(
    programs: &[Program],
    base: &[Source],
    skipped: Vec<Skipped>,
    failures: Option<&Failures>,
) -> Report {
    let base_hashes: HashSet<u64> = base
        .iter()
        .flat_map(|s| kgrams(&tokens::tokenize(&s.text, s.language)))
        .collect();
    let prepared = prepare_all(programs, &base_hashes);
    let index = Index::new(prepared.iter().map(|p| p.hashes.as_slice()));
    let common_above = COMMON_FLOOR.max((programs.len() as f64 * COMMON_SHARE) as usize);
    let common = index.common(common_above);
    let own: Vec<usize> = prepared
        .iter()
        .map(|p| p.hashes.iter().filter(|h| !common.contains(h)).count())
        .collect();
    let mut scored: Vec<(f64, u32, u32, usize)> = index
        .shared(&common)
        .into_iter()
        .map(|((a, b), n)| {
            (
                score::similarity(n, own[a as usize], own[b as usize]),
                a,
                b,
                n,
            )
        })
        .collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    let all_pairs = programs.len() * programs.len().saturating_sub(1) / 2;
    let histogram = score::histogram(scored.iter().map(|s| s.0), all_pairs);
    let pairs_not_shown = scored.len().saturating_sub(MAX_PAIRS);
    let pairs: Vec<Pair> = scored
        .iter()
        .take(MAX_PAIRS)
        .map(|&(similarity, a, b, shared)| {
            let (pa, pb) = (&prepared[a as usize], &prepared[b as usize]);
            let (ia, ib) = (&programs[a as usize].id, &programs[b as usize].id);
            let both: HashSet<u64> = pa
                .hashes
                .iter()
                .filter(|h| !common.contains(h) && pb.hashes.binary_search(h).is_ok())
                .copied()
                .collect();
            let (sa, sb) = score::regions(&pa.marks, &pb.marks, &both, (&pa.files, &pb.files));
            Pair {
                a: ia.clone(),
                b: ib.clone(),
                similarity,
                shared,
                shared_lines: SharedLines { a: sa, b: sb },
                same_failures: failures.map(|f| f.same(ia, ib)).unwrap_or_default(),
            }
        })
        .collect();
    Report {
        method: method(base, common_above, failures.is_some()),
        programs: programs
            .iter()
            .zip(&own)
            .map(|(p, &n)| ProgramInfo {
                id: p.id.clone(),
                files: p.sources.files.iter().map(|f| f.name.clone()).collect(),
                fingerprints: n,
                notes: p.sources.notes.clone(),
            })
            .collect(),
        skipped,
        clusters: score::clusters(&pairs),
        pairs,
        pairs_not_shown,
        histogram,
    }
}

/// The method's description and settings.
fn method(base: &[Source], common_above: usize, behaviour: bool) -> Method {
    Method {
        name: "winnowing".into(),
        k: K,
        w: W,
        score: "fingerprints both hold, over the smaller program's own fingerprints \
                (the base code's and the class's common ones left out)"
            .into(),
        min_fingerprints: score::MIN_FINGERPRINTS,
        common_above,
        base: base.iter().map(|s| s.name.clone()).collect(),
        cluster_at: score::CLUSTER_AT,
        behaviour,
    }
}

/// Every program's fingerprints, on every core: reading the sources is
/// most of the cost of a large class.
fn prepare_all(programs: &[Program], base: &HashSet<u64>) -> Vec<Prepared> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = programs.len().div_ceil(cores).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = programs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|p| prepare(&p.sources, base))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                // A worker panics only on a bug of referee's: its panic is
                // passed on as it is.
                w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .collect()
    })
}

/// A program's fingerprints, file by file, those of the base left out;
/// its distinct hashes, sorted.
fn prepare(sources: &Sources, base: &HashSet<u64>) -> Prepared {
    let mut marks = Vec::new();
    for (file, source) in sources.files.iter().enumerate() {
        let tokens = tokens::tokenize(&source.text, source.language);
        marks.extend(
            winnow(&tokens)
                .into_iter()
                .filter(|f| !base.contains(&f.hash))
                .map(|f| Mark {
                    hash: f.hash,
                    file,
                    at: f.at,
                    lines: (f.first_line, f.last_line),
                }),
        );
    }
    let mut hashes: Vec<u64> = marks.iter().map(|m| m.hash).collect();
    hashes.sort_unstable();
    hashes.dedup();
    Prepared {
        marks,
        hashes,
        files: sources.files.iter().map(|f| f.name.clone()).collect(),
    }
}
