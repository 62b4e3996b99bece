//! Attack detection, and the squares a king's safety depends on.
//!
//! Leaps, slides and pawn captures are probed outward from the attacked square. The Sissa,
//! the Sorcerer Snake and the Venator are checked piece by piece: their paths are not
//! symmetric in the simple sense (the Venator's diagonal leg only goes forward) or are costly
//! to walk backwards, and each side has few of them.

use arrayvec::ArrayVec;

use crate::geometry::{CELLS, Geometry, Square};
use crate::pattern::{DIAGONAL, Delta, ORTHOGONAL, Special};
use crate::position::Position;
use crate::role::{COLOR_BITS, Color, EMPTY, Role, code_role};

/// A set of mailbox squares.
#[derive(Clone, Copy, Default)]
pub struct SquareSet([u64; CELLS / 64]);

impl SquareSet {
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0[sq.index() >> 6] |= 1 << (sq.index() & 63);
    }

    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.0[sq.index() >> 6] & (1 << (sq.index() & 63)) != 0
    }
}

/// The two forward diagonals of a Venator leg along orthogonal direction `d`.
pub fn venator_diagonals(d: Delta) -> [Delta; 2] {
    if d.1 == 0 {
        [(d.0, 1), (d.0, -1)]
    } else {
        [(1, d.1), (-1, d.1)]
    }
}

/// Squares strictly inside the paths from `from` to `to` of a path piece, per path; each path
/// lists every square that must be empty for the move. Empty when `to` is not a target.
pub type Paths = ArrayVec<ArrayVec<Square, 32>, 8>;

fn walk(
    g: &Geometry,
    start: Square,
    d: Delta,
    n: i32,
    out: &mut ArrayVec<Square, 32>,
) -> Option<Square> {
    let (mut f, mut r) = (g.file(start), g.rank(start));
    let mut last = start;
    for _ in 0..n {
        f += d.0 as i32;
        r += d.1 as i32;
        last = g.square(f, r)?;
        out.push(last);
    }
    Some(last)
}

/// The paths by which a Sissa on `from` reaches `to` (ignoring what stands on them).
pub fn sissa_paths(g: &Geometry, from: Square, to: Square) -> Paths {
    let (x, y) = (g.file(to) - g.file(from), g.rank(to) - g.rank(from));
    let mut paths = Paths::new();
    for (firsts, seconds) in [(&ORTHOGONAL, &DIAGONAL), (&DIAGONAL, &ORTHOGONAL)] {
        for &a in firsts.iter() {
            for &b in seconds.iter() {
                let (sx, sy) = ((a.0 + b.0) as i32, (a.1 + b.1) as i32);
                let n = if sx != 0 { x / sx } else { y / sy };
                if n < 1 || n * sx != x || n * sy != y {
                    continue;
                }
                let mut path = ArrayVec::new();
                let Some(corner) = walk(g, from, a, n, &mut path) else {
                    continue;
                };
                if walk(g, corner, b, n - 1, &mut path).is_none() {
                    continue;
                }
                paths.push(path);
            }
        }
    }
    paths
}

/// The paths by which a Sorcerer Snake on `from` reaches `to`.
pub fn snake_paths(position: &Position, from: Square, to: Square) -> Paths {
    let v = position.variant();
    let g = &v.geometry;
    let delta = (
        (g.file(to) - g.file(from)) as i8,
        (g.rank(to) - g.rank(from)) as i8,
    );
    let mut paths = Paths::new();
    for route in v.snake.iter().filter(|r| r.delta == delta) {
        for p in &route.paths {
            let mut path = ArrayVec::new();
            for &off in &p[..route.steps] {
                let sq = from.shift(off);
                if !g.contains(sq) {
                    break;
                }
                path.push(sq);
            }
            if path.len() == route.steps {
                paths.push(path);
            }
        }
    }
    paths
}

/// The paths by which a Venator on `from` could capture on `to`: each lists the orthogonal
/// leg up to and including the hop square (the screen must be the square just before it),
/// then the diagonal leg. Holds regardless of what stands where; see [`venator_attacks`].
pub fn venator_paths(g: &Geometry, from: Square, to: Square) -> Paths {
    let (x, y) = (g.file(to) - g.file(from), g.rank(to) - g.rank(from));
    let mut paths = Paths::new();
    for &d in &ORTHOGONAL {
        for f in venator_diagonals(d) {
            // to - from = t*d + m*f with t >= 2 (screen then hop square) and m >= 1.
            let (t, m) = if d.1 == 0 {
                let m = y * f.1 as i32;
                (x * d.0 as i32 - m, m)
            } else {
                let m = x * f.0 as i32;
                (y * d.1 as i32 - m, m)
            };
            if t < 2 || m < 1 {
                continue;
            }
            let mut path = ArrayVec::new();
            let Some(hop) = walk(g, from, d, t, &mut path) else {
                continue;
            };
            if walk(g, hop, f, m - 1, &mut path).is_none() {
                continue;
            }
            paths.push(path);
            // The screen is the square before the hop square: its index is t - 2.
        }
    }
    paths
}

impl Position {
    /// Whether `by` attacks `target` (could capture a piece standing there).
    pub fn attacked(&self, target: Square, by: Color) -> bool {
        let v = self.variant;
        let them = by.bit();
        let board = &self.board;
        let hit = |sq: Square, mask: u32| {
            let p = board[sq.index()];
            p & COLOR_BITS == them && mask & (1 << code_role(p)) != 0
        };
        let back = -v.forward[by.index()];
        let pawns = Role::Pawn.mask() | Role::Ninja.mask();
        if hit(target.shift(back + 1), pawns) || hit(target.shift(back - 1), pawns) {
            return true;
        }
        if v.has_role(Role::Ninja) {
            let ninja = by.bit() | Role::Ninja as u8;
            for side in [1, -1] {
                let sq = target.shift(side);
                if board[sq.index()] == ninja && v.enemy_half[by.index()][sq.index()] {
                    return true;
                }
            }
        }
        for &(off, mask) in &v.leap_probes {
            if hit(target.shift(off), mask) {
                return true;
            }
        }
        for &(dir, mask) in &v.slide_probes {
            let mut sq = target.shift(dir);
            while board[sq.index()] == EMPTY {
                sq = sq.shift(dir);
            }
            if hit(sq, mask) {
                return true;
            }
        }
        if v.path_attackers != 0 && self.has_path_attackers(by) {
            for &sq in &self.pieces[by.index()] {
                let p = board[sq.index()];
                if p & COLOR_BITS != them {
                    continue;
                }
                let attacks = match v.special[code_role(p) as usize] {
                    Special::Sissa => self.open_path(&sissa_paths(&v.geometry, sq, target)),
                    Special::Snake => self.open_path(&snake_paths(self, sq, target)),
                    Special::Venator => self.venator_attacks(sq, target),
                    _ => false,
                };
                if attacks {
                    return true;
                }
            }
        }
        false
    }

    fn has_path_attackers(&self, by: Color) -> bool {
        let c = &self.counts[by.index()];
        c[Role::Sissa.index()] + c[Role::Snake.index()] + c[Role::Venator.index()] > 0
    }

    fn open_path(&self, paths: &Paths) -> bool {
        paths
            .iter()
            .any(|p| p.iter().all(|s| self.board[s.index()] == EMPTY))
    }

    /// Whether the Venator on `from` could capture on `to`: the first piece on its orthogonal
    /// leg is the screen just before an empty hop square, and the diagonal on to `to` is
    /// empty.
    pub fn venator_attacks(&self, from: Square, to: Square) -> bool {
        venator_paths(&self.variant.geometry, from, to)
            .iter()
            .any(|path| {
                // Layout: orthogonal leg squares 1..=t (screen at t-1, hop at t), then diagonal.
                let g = &self.variant.geometry;
                let t = path
                    .iter()
                    .position(|&s| {
                        let (dx, dy) = (g.file(s) - g.file(from), g.rank(s) - g.rank(from));
                        dx != 0 && dy != 0
                    })
                    .unwrap_or(path.len());
                let (orth, diag) = path.split_at(t);
                let screen = orth.len() - 2;
                orth.iter()
                    .enumerate()
                    .all(|(i, s)| (self.board[s.index()] == EMPTY) != (i == screen))
                    && diag.iter().all(|s| self.board[s.index()] == EMPTY)
            })
    }

    /// The squares whose change of occupancy could expose `color`'s king, which is not in
    /// check now: the one friendly piece between the king and an enemy slider, and every
    /// square on a path by which an enemy Sissa, Snake or Venator could reach the king. A
    /// move that neither empties nor fills such a square (and is not a king move, castling or
    /// en passant) cannot leave the king in check.
    pub(crate) fn king_dependencies(&self, color: Color) -> SquareSet {
        let v = self.variant;
        let k = self.kings[color.index()];
        let them = color.flip();
        let mut set = SquareSet::default();
        for &(dir, mask) in &v.slide_probes {
            let mut sq = k.shift(dir);
            while self.board[sq.index()] == EMPTY {
                sq = sq.shift(dir);
            }
            if !self.is_color(sq, color) {
                continue;
            }
            let blocker = sq;
            sq = sq.shift(dir);
            while self.board[sq.index()] == EMPTY {
                sq = sq.shift(dir);
            }
            let p = self.board[sq.index()];
            if p & COLOR_BITS == them.bit() && mask & (1 << code_role(p)) != 0 {
                set.insert(blocker);
            }
        }
        if v.path_attackers != 0 && self.has_path_attackers(them) {
            let g = &v.geometry;
            for &sq in &self.pieces[them.index()] {
                let paths = match v.special[code_role(self.board[sq.index()]) as usize] {
                    Special::Sissa => sissa_paths(g, sq, k),
                    Special::Snake => snake_paths(self, sq, k),
                    Special::Venator => venator_paths(g, sq, k),
                    _ => continue,
                };
                for s in paths.iter().flatten() {
                    set.insert(*s);
                }
            }
        }
        set
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attacked(self.kings[self.side.index()], self.side.flip())
    }
}
