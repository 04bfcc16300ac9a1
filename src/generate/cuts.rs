//! Simpler versions of a game's moves, for shrinking: with chunks left
//! out, or a pair of turns (one of each player) left out.

/// `units` with one chunk left out, for every chunk of every size from a
/// half down to one: the complements of ddmin, largest first (so a game
/// cut in half is tried before a game missing one move).
pub fn without_chunks<T: Clone>(units: &[T]) -> Vec<Vec<T>> {
    let mut out = Vec::new();
    let n = units.len();
    if n == 0 {
        return out;
    }
    out.push(Vec::new());
    let mut size = n / 2;
    while size >= 1 {
        let mut start = 0;
        while start < n {
            let end = (start + size).min(n);
            let mut rest = units[..start].to_vec();
            rest.extend_from_slice(&units[end..]);
            out.push(rest);
            start = end;
        }
        size /= 2;
    }
    out
}

/// Alternating turns (the first player's at even places) with one turn
/// of each player left out, the rest put back in turn, for pairs of
/// nearby turns first, at most `most` of them. See [`without_two`].
pub fn without_pairs<T: Clone>(turns: &[T], most: usize) -> Vec<Vec<T>> {
    let firsts: Vec<usize> = (0..turns.len()).step_by(2).collect();
    let seconds: Vec<usize> = (1..turns.len()).step_by(2).collect();
    let mut pairs: Vec<(usize, usize)> = firsts
        .iter()
        .flat_map(|&a| seconds.iter().map(move |&b| (a, b)))
        .collect();
    pairs.sort_by_key(|&(a, b)| (a.abs_diff(b), a));
    pairs
        .into_iter()
        .take(most)
        .map(|(a, b)| without_two(turns, a, b))
        .collect()
}

/// Alternating turns without turn `a` of one player and turn `b` of the
/// other, the rest put back in turn, so that every later turn keeps its
/// player: leaving out one move alone would hand every later move to the
/// other player.
pub fn without_two<T: Clone>(turns: &[T], a: usize, b: usize) -> Vec<T> {
    let keep = |parity: usize, gone: usize| {
        turns
            .iter()
            .enumerate()
            .filter(move |&(i, _)| i % 2 == parity && i != gone)
            .map(|(_, t)| t.clone())
    };
    let (gone_first, gone_second) = if a % 2 == 0 { (a, b) } else { (b, a) };
    let mut seconds = keep(1, gone_second);
    let mut out = Vec::with_capacity(turns.len());
    for first in keep(0, gone_first) {
        out.push(first);
        out.extend(seconds.next());
    }
    out
}
