//! Attack detection, and the squares a king's safety depends on.
//!
//! Leaps, slides and pawn captures are probed outward from the attacked square. The Sissa,
//! the Sorcerer Snake and the Venator are checked piece by piece: their paths are not
//! symmetric in the simple sense (the Venator's diagonal leg only goes forward) or are costly
//! to walk backwards, and each side has few of them.

use arrayvec::ArrayVec;

use crate::rules::geometry::{Geometry, Square, SquareSet};
use crate::rules::pattern::{DIAGONAL, ORTHOGONAL, Special, venator_diagonals};
use crate::rules::position::Position;
use crate::rules::role::{COLOR_BITS, Color, EMPTY, OFFBOARD, Role, code_role};

/// One way a path piece can go from one square to another: `first` steps along `a`, then
/// `second` steps along `b` (mailbox offsets). Every square passed must be empty; for the
/// Venator the last square of the first leg is the hop square and the one before it the
/// screen, which must be occupied.
#[derive(Copy, Clone, Debug)]
pub struct Route {
    pub a: i16,
    pub first: i32,
    pub b: i16,
    pub second: i32,
}

/// The routes by which a Sissa on `from` reaches `to` on an empty board: n steps of one kind
/// and n of the other, so `to - from = n * (a + b)`. The last step lands on `to`.
pub fn sissa_routes(g: &Geometry, from: Square, to: Square) -> ArrayVec<Route, 8> {
    let (x, y) = (g.file(to) - g.file(from), g.rank(to) - g.rank(from));
    let mut out = ArrayVec::new();
    for (firsts, seconds) in [(&ORTHOGONAL, &DIAGONAL), (&DIAGONAL, &ORTHOGONAL)] {
        for &a in firsts.iter() {
            for &b in seconds.iter() {
                let (sx, sy) = ((a.0 + b.0) as i32, (a.1 + b.1) as i32);
                let n = if sx != 0 { x / sx } else { y / sy };
                if n >= 1 && n * sx == x && n * sy == y {
                    let a = g.offset(a.0 as i32, a.1 as i32);
                    let b = g.offset(b.0 as i32, b.1 as i32);
                    out.push(Route {
                        a,
                        first: n,
                        b,
                        second: n - 1,
                    });
                }
            }
        }
    }
    out
}

/// The routes by which a Venator on `from` could capture on `to`: `to - from = t*d + m*f`
/// with the orthogonal leg `d` of t >= 2 steps (screen, then hop square) and the forward
/// diagonal `f` of m >= 1 steps, the last landing on `to`.
pub fn venator_routes(g: &Geometry, from: Square, to: Square) -> ArrayVec<Route, 8> {
    let (x, y) = (g.file(to) - g.file(from), g.rank(to) - g.rank(from));
    let mut out = ArrayVec::new();
    for &d in &ORTHOGONAL {
        for f in venator_diagonals(d) {
            let (t, m) = if d.1 == 0 {
                let m = y * f.1 as i32;
                (x * d.0 as i32 - m, m)
            } else {
                let m = x * f.0 as i32;
                (y * d.1 as i32 - m, m)
            };
            if t >= 2 && m >= 1 {
                let a = g.offset(d.0 as i32, d.1 as i32);
                let b = g.offset(f.0 as i32, f.1 as i32);
                out.push(Route {
                    a,
                    first: t,
                    b,
                    second: m - 1,
                });
            }
        }
    }
    out
}

impl Position {
    /// Whether `by` attacks `target` (could capture a piece standing there).
    pub fn attacked(&self, target: Square, by: Color) -> bool {
        self.visit_attackers(target, by, |_| true)
    }

    /// The squares of every piece of `by` that attacks `target` (a square may appear twice
    /// when a piece attacks it in two ways).
    pub fn attackers(&self, target: Square, by: Color) -> ArrayVec<Square, 64> {
        let mut out = ArrayVec::new();
        self.visit_attackers(target, by, |sq| {
            let _ = out.try_push(sq);
            false
        });
        out
    }

    /// Calls `visit` with the square of each piece of `by` that attacks `target` until it
    /// returns `true`; whether it did. Leaps, slides and pawn captures are probed outward
    /// from the target, path pieces are tried one by one.
    #[inline(always)]
    fn visit_attackers(
        &self,
        target: Square,
        by: Color,
        mut visit: impl FnMut(Square) -> bool,
    ) -> bool {
        let v = self.variant;
        let them = by.bit();
        let board = &self.board;
        let hit = |sq: Square, mask: u32| {
            let p = board[sq.index()];
            p & COLOR_BITS == them && mask & (1 << code_role(p)) != 0
        };
        let back = -v.forward[by.index()];
        let pawns = Role::Pawn.mask() | Role::Ninja.mask();
        for sq in [target.shift(back + 1), target.shift(back - 1)] {
            if hit(sq, pawns) && visit(sq) {
                return true;
            }
        }
        if v.has_role(Role::Ninja) {
            let ninja = by.bit() | Role::Ninja as u8;
            for side in [1, -1] {
                let sq = target.shift(side);
                if board[sq.index()] == ninja && v.enemy_half[by.index()][sq.index()] && visit(sq) {
                    return true;
                }
            }
        }
        for &(off, mask) in &v.leap_probes {
            let sq = target.shift(off);
            if hit(sq, mask) && visit(sq) {
                return true;
            }
        }
        for &(dir, mask) in &v.slide_probes {
            let mut sq = target.shift(dir);
            while board[sq.index()] == EMPTY {
                sq = sq.shift(dir);
            }
            if hit(sq, mask) && visit(sq) {
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
                    Special::Sissa => self.sissa_attacks(sq, target),
                    Special::Snake => self.snake_attacks(sq, target),
                    Special::Venator => self.venator_attacks(sq, target),
                    Special::Betza => self.betza_attacks(sq, target, by),
                    _ => false,
                };
                if attacks && visit(sq) {
                    return true;
                }
            }
        }
        false
    }

    #[inline(always)]
    fn has_path_attackers(&self, by: Color) -> bool {
        let c = &self.counts[by.index()];
        self.variant.path_roles.iter().any(|&r| c[r as usize] > 0)
    }

    /// Whether `by` has a piece walked from its XBetza.
    pub(crate) fn has_betza_pieces(&self, by: Color) -> bool {
        self.variant.betza_roles != 0 && self.has_roles(by, self.variant.betza_roles)
    }

    /// Whether `by` has a piece of any role in `mask`.
    fn has_roles(&self, by: Color, mut mask: u32) -> bool {
        let c = &self.counts[by.index()];
        while mask != 0 {
            if c[mask.trailing_zeros() as usize] > 0 {
                return true;
            }
            mask &= mask - 1;
        }
        false
    }

    /// Whether the file-defined piece of `by` on `from` could capture on `to`.
    #[cold]
    #[inline(never)]
    fn betza_attacks(&self, from: Square, to: Square, by: Color) -> bool {
        let role = code_role(self.board[from.index()]) as usize;
        let mut hit = false;
        self.betza_targets(from, role, by, Some(to), &mut |sq, capture| {
            hit |= capture && sq == to;
        });
        hit
    }

    /// Whether every square of the route (the destination excluded) is empty.
    fn route_open(&self, from: Square, r: Route) -> bool {
        let mut sq = from;
        for _ in 0..r.first {
            sq = sq.shift(r.a);
            if self.board[sq.index()] != EMPTY {
                return false;
            }
        }
        for _ in 0..r.second {
            sq = sq.shift(r.b);
            if self.board[sq.index()] != EMPTY {
                return false;
            }
        }
        true
    }

    /// Marks the squares of a route (the destination excluded), stopping where it leaves
    /// the board: such a route can never be used, and what was marked is only a superset.
    fn mark_route(&self, from: Square, r: Route, set: &mut SquareSet) {
        let mut sq = from;
        for (n, step) in [(r.first, r.a), (r.second, r.b)] {
            for _ in 0..n {
                sq = sq.shift(step);
                if self.board[sq.index()] == OFFBOARD {
                    return;
                }
                set.insert(sq);
            }
        }
    }

    /// Whether the Sissa on `from` could capture on `to`.
    pub fn sissa_attacks(&self, from: Square, to: Square) -> bool {
        sissa_routes(&self.variant.geometry, from, to)
            .into_iter()
            .any(|r| self.route_open(from, r))
    }

    /// The Snake routes from `from` to `to` (two, or none when `to` is not a Snake square).
    fn snake_routes_to(&self, from: Square, to: Square) -> impl Iterator<Item = Route> + '_ {
        let g = &self.variant.geometry;
        let delta = (
            (g.file(to) - g.file(from)) as i8,
            (g.rank(to) - g.rank(from)) as i8,
        );
        self.variant
            .snake
            .iter()
            .filter(move |s| s.delta == delta)
            .flat_map(|s| {
                s.paths.iter().map(move |p| {
                    // One or two intermediate squares, each a single step from the last.
                    let second = p[1].wrapping_sub(p[0]);
                    Route {
                        a: p[0],
                        first: 1,
                        b: second,
                        second: s.steps as i32 - 1,
                    }
                })
            })
    }

    /// Whether the Sorcerer Snake on `from` could capture on `to`.
    pub fn snake_attacks(&self, from: Square, to: Square) -> bool {
        self.snake_routes_to(from, to)
            .any(|r| self.route_open(from, r))
    }

    /// Whether the Venator on `from` could capture on `to`: the first piece on an orthogonal
    /// leg is the screen, the square behind it is empty, and `to` lies on a forward diagonal
    /// from there with nothing in between.
    pub fn venator_attacks(&self, from: Square, to: Square) -> bool {
        let v = self.variant;
        let g = &v.geometry;
        let (tx, ty) = (g.file(to), g.rank(to));
        for (i, &d) in v.orth.iter().enumerate() {
            let mut screen = from.shift(d);
            while self.board[screen.index()] == EMPTY {
                screen = screen.shift(d);
            }
            let hop = screen.shift(d);
            if self.board[screen.index()] == OFFBOARD || self.board[hop.index()] != EMPTY {
                continue;
            }
            let (dx, dy) = (tx - g.file(hop), ty - g.rank(hop));
            let (ox, oy) = (ORTHOGONAL[i].0 as i32, ORTHOGONAL[i].1 as i32);
            let forward = if ox != 0 {
                dx.signum() == ox
            } else {
                dy.signum() == oy
            };
            if dx == 0 || dx.abs() != dy.abs() || !forward {
                continue;
            }
            let f = g.offset(dx.signum(), dy.signum());
            let mut sq = hop.shift(f);
            while sq != to && self.board[sq.index()] == EMPTY {
                sq = sq.shift(f);
            }
            if sq == to {
                return true;
            }
        }
        false
    }

    /// The squares whose change of occupancy could expose `color`'s king, which is not in
    /// check now: the one friendly piece between the king and an enemy slider, and every
    /// square on a path by which an enemy Sissa, Snake or Venator could reach the king. A
    /// move that neither empties nor fills such a square (and is not a king move, castling or
    /// en passant) cannot leave the king in check. (Not for a side facing pieces walked from
    /// their XBetza: their paths are not listed here.)
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
                match v.special[code_role(self.board[sq.index()]) as usize] {
                    Special::Sissa => {
                        for r in sissa_routes(g, sq, k) {
                            self.mark_route(sq, r, &mut set);
                        }
                    }
                    Special::Venator => {
                        for r in venator_routes(g, sq, k) {
                            self.mark_route(sq, r, &mut set);
                        }
                    }
                    Special::Snake => {
                        for r in self.snake_routes_to(sq, k) {
                            self.mark_route(sq, r, &mut set);
                        }
                    }
                    _ => {}
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
