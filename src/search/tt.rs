//! The transposition table: one entry per slot, sized in megabytes at run time, shared by
//! every search thread without locks.
//!
//! A slot is three 64-bit words written and read with relaxed atomics: the packed data (move,
//! depth, bound, age), the scores (search score and static evaluation), and a check word, the
//! key XORed with both. A reader accepts the slot only if the check word XORed with the two
//! others gives its key back, so an entry torn by two threads writing at once reads as a miss
//! (the idea of Hyatt's lockless hashing).
//!
//! Replacement keeps an entry of this search that is much deeper than the new one; anything
//! else is overwritten. Mate scores are stored relative to the node (distance from the node,
//! not from the root) and converted back on probing.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::rules::geometry::Square;
use crate::rules::moves::{Move, MoveKind};

use super::Bound;
use super::MATE_BOUND;

/// One stored result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    /// The static evaluation of the position ([`NO_EVAL`] when it was in check).
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    age: u8,
}

/// The stored evaluation of a position in check, which has none.
pub const NO_EVAL: i32 = i32::MIN;

/// What a search stores for a position.
#[derive(Clone, Copy, Debug)]
pub struct Record {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// One slot: check word, packed data, scores.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
    scores: AtomicU64,
}

/// The table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    age: AtomicU8,
}

/// Hash table size in MB when none is asked for.
pub const DEFAULT_MB: usize = 16;
/// Largest hash table accepted, in MB (64 GiB): one bound for every flag and option.
pub const MAX_MB: usize = 65_536;

/// Depth below an existing entry of the same search at which a new result still replaces it.
const REPLACE_DEPTH_MARGIN: i32 = 3;

// The data word: from (9 bits) | to (9) | kind + 1, 0 for no move (3) | extra (8) |
// depth (8) | bound (2) | age (8).
const SQUARE_BITS: u32 = 9;
const TO_SHIFT: u32 = 9;
const KIND_SHIFT: u32 = 18;
const EXTRA_SHIFT: u32 = 21;
const DEPTH_SHIFT: u32 = 29;
const BOUND_SHIFT: u32 = 37;
const AGE_SHIFT: u32 = 39;

fn kind_code(kind: MoveKind) -> u64 {
    match kind {
        MoveKind::Normal => 1,
        MoveKind::EnPassant => 2,
        MoveKind::Castle => 3,
        MoveKind::Drop => 4,
        MoveKind::Null => 5,
        MoveKind::Locust => 6,
    }
}

fn kind_of(code: u64) -> Option<MoveKind> {
    Some(match code {
        1 => MoveKind::Normal,
        2 => MoveKind::EnPassant,
        3 => MoveKind::Castle,
        4 => MoveKind::Drop,
        5 => MoveKind::Null,
        6 => MoveKind::Locust,
        _ => return None,
    })
}

fn bound_code(b: Bound) -> u64 {
    match b {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    }
}

fn pack(mv: Option<Move>, depth: i32, bound: Bound, age: u8) -> u64 {
    let square_mask = (1u64 << SQUARE_BITS) - 1;
    let mv_bits = mv.map_or(0, |m| {
        (u64::from(m.from.0) & square_mask)
            | (u64::from(m.to.0) & square_mask) << TO_SHIFT
            | kind_code(m.kind) << KIND_SHIFT
            | u64::from(m.extra) << EXTRA_SHIFT
    });
    mv_bits
        | (depth.clamp(0, 255) as u64) << DEPTH_SHIFT
        | bound_code(bound) << BOUND_SHIFT
        | u64::from(age) << AGE_SHIFT
}

fn unpack(data: u64, scores: u64) -> Entry {
    let square_mask = (1u64 << SQUARE_BITS) - 1;
    let mv = kind_of((data >> KIND_SHIFT) & 7).map(|kind| Move {
        from: Square((data & square_mask) as u16),
        to: Square(((data >> TO_SHIFT) & square_mask) as u16),
        kind,
        extra: (data >> EXTRA_SHIFT) as u8,
    });
    let bound = match (data >> BOUND_SHIFT) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    };
    Entry {
        mv,
        score: scores as u32 as i32,
        eval: (scores >> 32) as u32 as i32,
        depth: ((data >> DEPTH_SHIFT) & 255) as i32,
        bound,
        age: (data >> AGE_SHIFT) as u8,
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes, from 1 to [`MAX_MB`]. Every slot is written here,
    /// so the memory is really there before the first search (a lazily mapped table would
    /// fault its pages in on the clock). A size the machine cannot give is an error, not an
    /// abort.
    pub fn new(mb: usize) -> Result<TranspositionTable, String> {
        if !(1..=MAX_MB).contains(&mb) {
            return Err(format!(
                "hash size {mb} MB is out of range (1 to {MAX_MB} MB)"
            ));
        }
        let n = (mb * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|e| format!("cannot allocate a {mb} MB hash table: {e}"))?;
        slots.resize_with(n, Slot::default);
        Ok(TranspositionTable {
            slots,
            age: AtomicU8::new(0),
        })
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot = Slot::default();
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become the first to go.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((key as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    /// The slot's words, if they hold an untorn entry for `key`.
    fn read(slot: &Slot, key: u64) -> Option<(u64, u64)> {
        let check = slot.check.load(Ordering::Relaxed);
        let data = slot.data.load(Ordering::Relaxed);
        let scores = slot.scores.load(Ordering::Relaxed);
        (check ^ data ^ scores == key).then_some((data, scores))
    }

    /// Asks the processor to bring `key`'s slot into the cache, so that a probe soon after
    /// (the next node's, once the move has been made and the network told) does not wait
    /// for memory. A hint only: nothing is read, and nothing changes if it is ignored. A slot
    /// (24 bytes) can straddle two cache lines, so both of its ends are asked for.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const Slot = self.slot(key);
            let first = slot.cast::<i8>();
            let last = first.wrapping_add(std::mem::size_of::<Slot>() - 1);
            // SAFETY: a prefetch never faults and reads nothing the program sees; both
            // addresses lie inside one slot of the table, and SSE is part of the x86-64
            // baseline.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(first);
                _mm_prefetch::<_MM_HINT_T0>(last);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, its score adjusted to `ply` plies from the root.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let (data, scores) = TranspositionTable::read(self.slot(key), key)?;
        let e = unpack(data, scores);
        Some(Entry {
            score: score_from_tt(e.score, ply),
            ..e
        })
    }

    /// Stores a result found `ply` plies from the root.
    pub fn store(&self, key: u64, ply: usize, r: Record) {
        let slot = self.slot(key);
        let age = self.age.load(Ordering::Relaxed);
        let mine = TranspositionTable::read(slot, key).map(|(d, s)| unpack(d, s));
        if mine.is_none() {
            let old = unpack(slot.data.load(Ordering::Relaxed), 0);
            if old.age == age
                && old.depth > r.depth + REPLACE_DEPTH_MARGIN
                && r.bound != Bound::Exact
            {
                return;
            }
        }
        let mv = r.mv.or(mine.and_then(|e| e.mv));
        let data = pack(mv, r.depth, r.bound, age);
        let scores = u64::from(score_to_tt(r.score, ply) as u32) | u64::from(r.eval as u32) << 32;
        slot.check.store(key ^ data ^ scores, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
        slot.scores.store(scores, Ordering::Relaxed);
    }

    /// Per mille of a sample of slots written during the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let age = self.age.load(Ordering::Relaxed);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let data = s.data.load(Ordering::Relaxed);
                data != 0 && unpack(data, 0).age == age
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let tt = TranspositionTable::new(1).expect("1 MB");
        let key = 0x1234_5678_9abc_def1;
        let record = Record {
            mv: None,
            score: MATE - 7,
            eval: 12,
            depth: 5,
            bound: Bound::Exact,
        };
        tt.store(key, 3, record);
        let e = tt.probe(key, 5).expect("entry");
        assert_eq!(e.score, MATE - 9);
        assert_eq!(e.eval, 12);
        assert!(tt.probe(key ^ 1, 0).is_none());
    }

    #[test]
    fn every_move_kind_and_field_round_trips() {
        let tt = TranspositionTable::new(1).expect("1 MB");
        let moves = [
            None,
            Some(Move::NULL),
            Some(Move::normal(Square(511), Square(37))),
            Some(Move {
                from: Square(100),
                to: Square(120),
                kind: MoveKind::Castle,
                extra: 6,
            }),
            Some(Move {
                from: Square(0),
                to: Square(200),
                kind: MoveKind::Drop,
                extra: 13,
            }),
            Some(Move {
                from: Square(50),
                to: Square(63),
                kind: MoveKind::EnPassant,
                extra: 0,
            }),
            Some(Move::locust(Square(40), Square(40), 255)),
        ];
        for (i, &mv) in moves.iter().enumerate() {
            let key = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1);
            for (score, eval, bound) in [
                (-31_000, NO_EVAL, Bound::Upper),
                (250, -12, Bound::Lower),
                (0, 31_999, Bound::Exact),
            ] {
                let depth = 3 * i as i32;
                tt.store(
                    key,
                    0,
                    Record {
                        mv,
                        score,
                        eval,
                        depth,
                        bound,
                    },
                );
                let e = tt.probe(key, 0).expect("stored");
                assert_eq!(
                    (e.mv, e.score, e.eval, e.depth, e.bound),
                    (mv, score, eval, depth, bound)
                );
            }
        }
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let tt = TranspositionTable::new(1).expect("1 MB");
        let key = 0xdead_beef_0123_4567;
        let record = Record {
            mv: Some(Move::normal(Square(40), Square(41))),
            score: 17,
            eval: 3,
            depth: 9,
            bound: Bound::Exact,
        };
        tt.store(key, 0, record);
        assert!(tt.probe(key, 0).is_some());
        // Another thread's half-written entry: new data under the old check word.
        tt.slot(key).scores.store(99, Ordering::Relaxed);
        assert!(tt.probe(key, 0).is_none());
    }

    #[test]
    fn sizes_out_of_range_are_errors() {
        assert!(TranspositionTable::new(0).is_err());
        let err = TranspositionTable::new(MAX_MB + 1).err().expect("refused");
        assert!(err.contains("out of range"), "{err}");
    }
}
