//! Attack detection, and the squares a king's safety depends on.
//!
//! Leaps, slides and pawn captures are probed outward from the attacked square. The Sissa,
//! the Sorcerer Snake and the Venator are checked piece by piece: their paths are not
//! symmetric in the simple sense (the Venator's diagonal leg only goes forward) or are costly
//! to walk backwards, and each side has few of them; their tests are in [`crate::rules::paths`].

use arrayvec::ArrayVec;

use crate::rules::geometry::{Square, SquareSet};
use crate::rules::paths::sissa::sissa_routes;
use crate::rules::paths::venator::venator_routes;
use crate::rules::pattern::Special;
use crate::rules::position::Position;
use crate::rules::role::{COLOR_BITS, Color, EMPTY, Role, code_role};

impl Position {
    /// Whether `by` attacks `target` (could capture a piece standing there).
    pub fn attacked(&self, target: Square, by: Color) -> bool {
        self.visit_attackers(target, by, |_| true)
    }

    /// The squares of every piece of `by` that attacks `target` (a square may appear twice
    /// when a piece attacks it in two ways).
    pub fn attackers(&self, target: Square, by: Color) -> ArrayVec<Square, 64> {
        let mut out = ArrayVec::new();
        self.for_each_attacker(target, by, |sq| {
            let _ = out.try_push(sq);
        });
        out
    }

    /// Calls `visit` with the square of every piece of `by` that attacks `target`, as
    /// [`Position::attackers`] lists them, without building the list.
    #[inline]
    pub(crate) fn for_each_attacker(
        &self,
        target: Square,
        by: Color,
        mut visit: impl FnMut(Square),
    ) {
        self.visit_attackers(target, by, |sq| {
            visit(sq);
            false
        });
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
        if let Some((hash, check)) = self.check_memo.get()
            && hash == self.hash
        {
            return check;
        }
        let check = self.attacked(self.kings[self.side.index()], self.side.flip());
        self.check_memo.set(Some((self.hash, check)));
        check
    }
}

#[cfg(test)]
mod tests {
    use crate::rng::Rng;
    use crate::rules::moves::Move;
    use crate::rules::position::Position;
    use crate::rules::variant::Variant;

    /// The remembered answer of `in_check` always equals the attack test, after moves,
    /// take-backs, null moves and asks in any order.
    #[test]
    fn in_check_remembered_equals_the_attack_test() {
        let fresh = |pos: &Position| pos.attacked(pos.king(pos.side), pos.side.flip());
        let mut rng = Rng::new(0xc4ec);
        let mut checks = 0;
        for v in Variant::all() {
            let mut pos = Position::startpos(v);
            for _ in 0..600 {
                assert_eq!(pos.in_check(), fresh(&pos), "{} {}", v.id(), pos.fen());
                let moves = pos.legal_moves();
                if moves.is_empty() || rng.below(8) == 0 && !pos.history.is_empty() {
                    pos.unmake();
                    if rng.below(30) == 0 {
                        pos = Position::startpos(v);
                    }
                    continue;
                }
                // Ask before the move or not: the memo then holds this position or an older one.
                if rng.below(2) == 0 {
                    let _ = pos.in_check();
                }
                let mv = if !pos.in_check() && rng.below(10) == 0 {
                    Move::NULL
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.make(mv);
                checks += usize::from(pos.in_check());
            }
        }
        assert!(checks > 20, "only {checks} checks seen");
    }
}
