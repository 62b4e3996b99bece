//! Perft: counting the leaves of the legal move tree, the generator's proof of correctness.
//! Suites are text files, one position a line: `variant;FEN;D1 n1;D2 n2;...`.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::rules::moves::Move;
use crate::rules::position::Position;

/// The deepest perft any tool runs. The count recurses once per ply, so an absurd depth would
/// overflow the stack long before it finished; 20 plies is beyond any count that ends.
pub const MAX_DEPTH: u32 = 20;

/// Checks a perft depth asked for on a command line or in a suite file.
pub fn check_depth(depth: u32) -> Result<u32, String> {
    if depth > MAX_DEPTH {
        Err(format!(
            "perft depth {depth} is too deep: the deepest is {MAX_DEPTH}"
        ))
    } else {
        Ok(depth)
    }
}

/// Leaf count at `depth` (the last ply is counted, not played: bulk counting).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in &moves {
        pos.make(mv);
        nodes += perft(pos, depth - 1);
        pos.unmake();
    }
    nodes
}

/// Per-root-move counts (Stockfish's `divide`), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            pos.make(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake();
            (mv, n)
        })
        .collect()
}

/// A table of subtree counts shared by perft threads, without locks: a slot is two words,
/// `key ^ data` and `data` (count and depth), so a torn write reads as a miss and every hit is
/// the count of a position with that full 64-bit key at that depth.
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
}

/// Bits of a slot's data word that hold the depth (the count takes the rest).
const DEPTH_BITS: u32 = 5;

impl PerftTable {
    /// A table of about `mb` megabytes (1 to 65536).
    pub fn new(mb: usize) -> Result<PerftTable, String> {
        if !(1..=65_536).contains(&mb) {
            return Err(format!("--hash: {mb} MB is outside 1..=65536"));
        }
        let n = (mb << 20) / 16;
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|_| format!("--hash: cannot allocate {mb} MB"))?;
        slots.extend((0..n).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Ok(PerftTable { slots })
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let s = self.slot(key);
        let (check, data) = (s[0].load(Ordering::Relaxed), s[1].load(Ordering::Relaxed));
        (data != 0 && check ^ data == key && data & ((1 << DEPTH_BITS) - 1) == u64::from(depth))
            .then_some(data >> DEPTH_BITS)
    }

    fn store(&self, key: u64, depth: u32, count: u64) {
        if count >= 1 << (64 - DEPTH_BITS) {
            return;
        }
        let data = count << DEPTH_BITS | u64::from(depth);
        let s = self.slot(key);
        s[0].store(key ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
}

/// [`perft`] with a table of subtree counts.
pub fn perft_hashed(pos: &mut Position, depth: u32, table: &PerftTable) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    let key = pos.hash();
    if let Some(n) = table.probe(key, depth) {
        return n;
    }
    let mut nodes = 0;
    for mv in pos.legal_moves() {
        pos.make(mv);
        nodes += perft_hashed(pos, depth - 1, table);
        pos.unmake();
    }
    table.store(key, depth, nodes);
    nodes
}

/// [`divide`] over `threads` threads (root moves shared out as they finish), with a shared
/// table of `hash_mb` megabytes when given. The counts are exact and in generation order.
pub fn divide_parallel(
    pos: &Position,
    depth: u32,
    threads: usize,
    hash_mb: Option<usize>,
) -> Result<Vec<(Move, u64)>, String> {
    let table = hash_mb.map(PerftTable::new).transpose()?;
    let moves = pos.clone().legal_moves();
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, moves.len().max(1)) {
            let mut pos = pos.clone();
            let (moves, counts, next, table) = (&moves, &counts, &next, table.as_ref());
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&mv) = moves.get(i) else { break };
                    pos.make(mv);
                    let n = match table {
                        _ if depth <= 1 => 1,
                        Some(t) => perft_hashed(&mut pos, depth - 1, t),
                        None => perft(&mut pos, depth - 1),
                    };
                    pos.unmake();
                    counts[i].store(n, Ordering::Relaxed);
                }
            });
        }
    });
    Ok(moves
        .iter()
        .zip(&counts)
        .map(|(&mv, n)| (mv, n.load(Ordering::Relaxed)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;

    #[test]
    fn parallel_hashed_divide_equals_the_plain_one() {
        for v in Variant::all() {
            let mut pos = Position::startpos(v);
            let moves = pos.legal_moves();
            pos.make(moves[moves.len() / 2]);
            let plain = divide(&mut pos, 3);
            for (threads, hash) in [(1, Some(1)), (2, None), (3, Some(1))] {
                let got = divide_parallel(&pos, 3, threads, hash).expect("table");
                assert_eq!(got, plain, "{} {threads} threads, {hash:?} MB", v.id());
            }
        }
        assert!(PerftTable::new(0).is_err());
    }
}
