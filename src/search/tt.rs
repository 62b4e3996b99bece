//! The transposition table: one entry per slot, sized in megabytes at run time.
//!
//! Replacement keeps an entry of this search that is much deeper than the new one; anything
//! else is overwritten. Mate scores are stored relative to the node (distance from the node,
//! not from the root) and converted back on probing.

use crate::moves::Move;

use super::Bound;
use super::pvs::MATE_BOUND;

/// One stored result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
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

impl Default for Entry {
    fn default() -> Self {
        Entry {
            key: 0,
            mv: None,
            score: 0,
            eval: NO_EVAL,
            depth: 0,
            bound: Bound::Exact,
            age: 0,
        }
    }
}

/// The table.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    age: u8,
}

/// Hash table size in MB when none is asked for.
pub const DEFAULT_MB: usize = 16;
/// Largest hash table accepted, in MB (64 GiB): one bound for every flag and option.
pub const MAX_MB: usize = 65_536;

/// Depth below an existing entry of the same search at which a new result still replaces it.
const REPLACE_DEPTH_MARGIN: i32 = 3;

impl TranspositionTable {
    /// A table of about `mb` megabytes, from 1 to [`MAX_MB`]. Every entry is written here,
    /// so the memory is really there before the first search (a lazily mapped table would
    /// fault its pages in on the clock). A size the machine cannot give is an error, not an
    /// abort.
    pub fn new(mb: usize) -> Result<TranspositionTable, String> {
        if !(1..=MAX_MB).contains(&mb) {
            return Err(format!(
                "hash size {mb} MB is out of range (1 to {MAX_MB} MB)"
            ));
        }
        let n = (mb * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(n)
            .map_err(|e| format!("cannot allocate a {mb} MB hash table: {e}"))?;
        entries.resize(n, Entry::default());
        Ok(TranspositionTable { entries, age: 0 })
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.age = 0;
    }

    /// Marks the start of a new search: older entries become the first to go.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, its score adjusted to `ply` plies from the root.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let e = self.entries[self.index(key)];
        if e.key != key {
            return None;
        }
        Some(Entry {
            score: score_from_tt(e.score, ply),
            ..e
        })
    }

    /// Stores a result found `ply` plies from the root.
    pub fn store(&mut self, key: u64, ply: usize, r: Record) {
        let i = self.index(key);
        let age = self.age;
        let old = &mut self.entries[i];
        let same = old.key == key;
        if !same
            && old.age == age
            && old.depth > r.depth + REPLACE_DEPTH_MARGIN
            && r.bound != Bound::Exact
        {
            return;
        }
        let mv = if r.mv.is_none() && same { old.mv } else { r.mv };
        *old = Entry {
            key,
            mv,
            score: score_to_tt(r.score, ply),
            eval: r.eval,
            depth: r.depth,
            bound: r.bound,
            age,
        };
    }

    /// Per mille of a sample of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.key != 0 && e.age == self.age)
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
    use crate::search::pvs::MATE;

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1).expect("1 MB");
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
    fn sizes_out_of_range_are_errors() {
        assert!(TranspositionTable::new(0).is_err());
        let err = TranspositionTable::new(MAX_MB + 1).err().expect("refused");
        assert!(err.contains("out of range"), "{err}");
    }
}
