//! Move generation: pseudo-legal moves from the role patterns, then the legality filter.

use arrayvec::ArrayVec;

use crate::rules::geometry::{Square, SquareSet};
use crate::rules::moves::{Move, MoveKind};
use crate::rules::pattern::Special;
use crate::rules::position::Position;
use crate::rules::role::{Color, EMPTY, Piece, Role, code_role};
use crate::rules::variant::CastlingRights;

/// Room for every move of any position of the built-in variants.
pub const MAX_MOVES: usize = 512;
/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// A position's shortcut for testing its pseudo-legal moves' legality (see
/// [`Position::legality_hint`]); valid only for the position it was made for.
#[derive(Clone, Copy)]
pub struct LegalityHint {
    king: Square,
    shields: Option<SquareSet>,
}

impl Position {
    /// Every legal move, in generation order.
    pub fn legal_moves(&mut self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Every legal move, in generation order, written into `list` (cleared first): a search
    /// node fills the list it keeps instead of copying kilobytes of a returned one.
    pub fn legal_moves_into(&mut self, list: &mut MoveList) {
        list.clear();
        // A bare king's loss ends the game at once: no moves, as in Fairy-Stockfish.
        if self.bare_king_loser().is_some() {
            return;
        }
        let in_check = self.in_check();
        self.generate(list, in_check);
        self.retain_legal(list);
    }

    /// Moves that obey the pieces' patterns, castling conditions included, without testing
    /// whether they leave the own king attacked.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_moves_into(&mut list);
        list
    }

    /// [`Position::pseudo_legal_moves`] written into `list` (cleared first).
    pub fn pseudo_legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate(list, self.in_check());
    }

    /// The pseudo-legal captures and promotions (the moves quiescence may search): the moves
    /// of [`Position::pseudo_legal_moves_into`] that take a piece or promote, in the same
    /// order, without writing the quiet ones first (most of a position's moves).
    pub fn pseudo_tactical_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate_moves::<true>(list, false);
    }

    /// Whether `mv` (pseudo-legal here) leaves the mover's king safe.
    pub fn is_legal_pseudo(&mut self, mv: Move) -> bool {
        self.king_safe_after(mv)
    }

    /// What [`Position::is_legal_with`] needs to settle most moves without playing them:
    /// the squares whose piece shields the king from a slider or path attack, when every
    /// enemy attack's squares are known (not in check, no XBetza enemy pieces).
    pub fn legality_hint(&self) -> LegalityHint {
        let us = self.side;
        let shields = if self.in_check() || self.has_betza_pieces(us.flip()) {
            None
        } else {
            Some(self.king_dependencies(us))
        };
        LegalityHint {
            king: self.kings[us.index()],
            shields,
        }
    }

    /// Whether the pseudo-legal `mv` leaves the mover's king safe, with `hint` made for this
    /// position: a move of a piece that shields nothing (to a square that opens no attack)
    /// is settled at once; the king's moves, castling, en passant and the rest are played on
    /// the board and tested.
    pub fn is_legal_with(&mut self, mv: Move, hint: &LegalityHint) -> bool {
        let safe = match (&hint.shields, mv.kind) {
            (Some(shields), MoveKind::Normal) if mv.from != hint.king => {
                !shields.contains(mv.from)
                    && (self.board[mv.to.index()] != EMPTY || !shields.contains(mv.to))
            }
            (Some(shields), MoveKind::Drop) => !shields.contains(mv.to),
            _ => false,
        };
        safe || self.king_safe_after(mv)
    }

    fn retain_legal(&mut self, list: &mut MoveList) {
        let hint = self.legality_hint();
        let mut kept = 0;
        for i in 0..list.len() {
            let mv = list[i];
            if self.is_legal_with(mv, &hint) {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// Plays `mv` on the board only, tests the mover's king, and puts everything back.
    fn king_safe_after(&mut self, mv: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let b = |sq: Square| sq.index();
        match mv.kind {
            MoveKind::Normal | MoveKind::Locust => {
                // A locust capture lifts its victim too.
                let victim = self.locust_victim(mv);
                let killed = victim.map(|v| std::mem::replace(&mut self.board[b(v)], EMPTY));
                let moving = self.board[b(mv.from)];
                let captured = self.board[b(mv.to)];
                self.board[b(mv.from)] = EMPTY;
                self.board[b(mv.to)] = moving;
                let king = if code_role(moving) == Role::King as u8 {
                    mv.to
                } else {
                    self.kings[us.index()]
                };
                let safe = !self.attacked(king, them);
                self.board[b(mv.to)] = captured;
                self.board[b(mv.from)] = moving;
                if let (Some(v), Some(k)) = (victim, killed) {
                    self.board[b(v)] = k;
                }
                safe
            }
            MoveKind::EnPassant => {
                let victim = self.ep.victim;
                let moving = self.board[b(mv.from)];
                let captured = self.board[b(victim)];
                self.board[b(mv.from)] = EMPTY;
                self.board[b(victim)] = EMPTY;
                self.board[b(mv.to)] = moving;
                let safe = !self.attacked(self.kings[us.index()], them);
                self.board[b(mv.to)] = EMPTY;
                self.board[b(victim)] = captured;
                self.board[b(mv.from)] = moving;
                safe
            }
            MoveKind::Castle => {
                let c = &self.variant.castlings[us.index()][mv.extra as usize];
                let (kf, rf, kt, rt) = (c.king_from, c.rook_from, c.king_to, c.rook_to);
                let king = self.board[b(kf)];
                let rook = self.board[b(rf)];
                self.board[b(kf)] = EMPTY;
                self.board[b(rf)] = EMPTY;
                self.board[b(kt)] = king;
                self.board[b(rt)] = rook;
                let safe = !self.attacked(kt, them);
                self.board[b(kt)] = EMPTY;
                self.board[b(rt)] = EMPTY;
                self.board[b(kf)] = king;
                self.board[b(rf)] = rook;
                safe
            }
            MoveKind::Drop => {
                let role = mv.drop_role().unwrap_or(Role::Pawn);
                self.board[b(mv.to)] = Piece::new(us, role).code();
                let safe = !self.attacked(self.kings[us.index()], them);
                self.board[b(mv.to)] = EMPTY;
                safe
            }
            MoveKind::Null => !self.attacked(self.kings[us.index()], them),
        }
    }

    fn generate(&self, list: &mut MoveList, in_check: bool) {
        self.generate_moves::<false>(list, in_check);
    }

    /// Every pseudo-legal move, or with `TACTICAL` only the captures and promotions (no
    /// castling, no drops, and a quiet move of a piece never written), in the same order.
    fn generate_moves<const TACTICAL: bool>(&self, list: &mut MoveList, in_check: bool) {
        let v = self.variant;
        let us = self.side;
        let b = |sq: Square| self.board[sq.index()];
        for &from in &self.pieces[us.index()] {
            let role = code_role(b(from)) as usize;
            match v.special[role] {
                special @ (Special::Pawn | Special::Ninja) => {
                    let start = list.len();
                    self.gen_pawn(from, special == Special::Ninja, list);
                    if TACTICAL {
                        let mut kept = start;
                        for i in start..list.len() {
                            let mv = list[i];
                            let tactical = match mv.kind {
                                MoveKind::EnPassant => true,
                                _ => mv.promotion_role().is_some() || b(mv.to) != EMPTY,
                            };
                            if tactical {
                                list[kept] = mv;
                                kept += 1;
                            }
                        }
                        list.truncate(kept);
                    }
                }
                Special::Betza => {
                    self.betza_targets(from, role, us, None, &mut |to, _, victim| match victim {
                        Some(v) => list.push(Move::locust(
                            from,
                            to,
                            self.variant.geometry.dense_index(v) as u8,
                        )),
                        None if TACTICAL && b(to) == EMPTY => {}
                        None => list.push(Move::normal(from, to)),
                    })
                }
                _ => self.piece_targets(from, role, us, |to| {
                    if !TACTICAL || b(to) != EMPTY {
                        list.push(Move::normal(from, to));
                    }
                }),
            }
        }
        if TACTICAL {
            return;
        }
        if !in_check && self.castling.intersects(CastlingRights::both(us)) {
            self.gen_castling(list);
        }
        if self.hands[us.index()] > 0 {
            self.gen_drops(list);
        }
    }

    #[inline(always)]
    fn push_pawn_move(&self, from: Square, to: Square, list: &mut MoveList) {
        if self.variant.promotion_square[self.side.index()][to.index()] {
            self.push_promotions(from, to, list);
        } else {
            list.push(Move::normal(from, to));
        }
    }

    /// A pawn's move into the promotion zone: a promotion to each piece the side may still
    /// promote to, and the plain move where promotion is optional.
    #[inline(never)]
    fn push_promotions(&self, from: Square, to: Square, list: &mut MoveList) {
        let v = self.variant;
        let us = self.side.index();
        for &role in v.spec.promotions {
            if self.counts[us][role.index()] < v.promotion_limit[role.index()] {
                list.push(Move::promotion(from, to, role));
            }
        }
        if !v.promotion_forced[us][to.index()] {
            list.push(Move::normal(from, to));
        }
    }

    fn gen_pawn(&self, from: Square, ninja: bool, list: &mut MoveList) {
        let v = self.variant;
        let us = self.side;
        let own = us.bit();
        let fwd = v.forward[us.index()];
        let mut to = from;
        for _ in 0..v.pawn_steps[us.index()][from.index()] {
            to = to.shift(fwd);
            if self.board[to.index()] != EMPTY {
                break;
            }
            self.push_pawn_move(from, to, list);
        }
        for side in [-1, 1] {
            let to = from.shift(fwd + side);
            let t = self.board[to.index()];
            if t != EMPTY && t & own == 0 {
                self.push_pawn_move(from, to, list);
            } else if !ninja && t == EMPTY && self.ep.targets.contains(&to) {
                list.push(Move {
                    from,
                    to,
                    kind: MoveKind::EnPassant,
                    extra: 0,
                });
            }
        }
        if ninja {
            let capture_sideways = v.enemy_half[us.index()][from.index()];
            for side in [-1, 1] {
                let to = from.shift(side);
                let t = self.board[to.index()];
                if t == EMPTY || (capture_sideways && t & own == 0) {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }

    /// Calls `visit` once for every square (empty or enemy) the piece of `role` and `color`
    /// on `from` may move to by its leaps, slides and path walker; pawns have their own
    /// generator. Shared by move generation and the evaluation's mobility.
    #[inline(always)]
    pub(crate) fn piece_targets(
        &self,
        from: Square,
        role: usize,
        color: Color,
        mut visit: impl FnMut(Square),
    ) {
        let v = self.variant;
        let own = color.bit();
        for &off in &v.leaps[role] {
            let to = from.shift(off);
            if self.board[to.index()] & own == 0 {
                visit(to);
            }
        }
        for &dir in &v.slides[role] {
            self.slide_targets(from.shift(dir), dir, own, &mut visit);
        }
        match v.special[role] {
            Special::Sissa => self.sissa_targets(from, own, &mut visit),
            Special::Snake => self.snake_targets(from, own, &mut visit),
            Special::Venator => self.venator_targets(from, own, &mut visit),
            Special::Betza => {
                self.betza_targets(from, role, color, None, &mut |to, _, _| visit(to))
            }
            Special::None | Special::Pawn | Special::Ninja => {}
        }
    }

    /// Empty squares from `to` on along `dir`, then the first piece if it is an enemy.
    #[inline(always)]
    pub(crate) fn slide_targets(
        &self,
        mut to: Square,
        dir: i16,
        own: u8,
        visit: &mut impl FnMut(Square),
    ) {
        loop {
            let t = self.board[to.index()];
            if t & own == 0 {
                visit(to);
            }
            if t != EMPTY {
                return;
            }
            to = to.shift(dir);
        }
    }

    fn gen_castling(&self, list: &mut MoveList) {
        let us = self.side;
        let them = us.flip();
        let rook = Piece::new(us, self.variant.spec.castling_rook).code();
        let king = Piece::new(us, Role::King).code();
        for (i, c) in self.variant.castlings[us.index()].iter().enumerate() {
            if !self.castling.contains(CastlingRights::one(us, c.side))
                || self.board[c.king_from.index()] != king
                || self.board[c.rook_from.index()] != rook
                || c.between.iter().any(|s| self.board[s.index()] != EMPTY)
                || c.king_path.iter().any(|&s| self.attacked(s, them))
            {
                continue;
            }
            list.push(Move {
                from: c.king_from,
                to: c.king_to,
                kind: MoveKind::Castle,
                extra: i as u8,
            });
        }
    }

    fn gen_drops(&self, list: &mut MoveList) {
        let v = self.variant;
        let Some(hand) = v.spec.hand else { return };
        let us = self.side;
        let g = &v.geometry;
        let fwd = v.forward[us.index()];
        let rank = if us == Color::White {
            hand.drop_rank as i32
        } else {
            g.ranks() as i32 - 1 - hand.drop_rank as i32
        };
        let pushes = (hand.push_to_rank - hand.drop_rank) as usize;
        for file in 0..g.files() as i32 {
            let Some(mut sq) = g.square(file, rank) else {
                continue;
            };
            for _ in 0..=pushes {
                if self.board[sq.index()] != EMPTY {
                    break;
                }
                list.push(Move {
                    from: sq,
                    to: sq,
                    kind: MoveKind::Drop,
                    extra: hand.role as u8,
                });
                sq = sq.shift(fwd);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;

    #[test]
    fn moves_written_into_a_used_list_replace_what_it_held() {
        for v in Variant::all() {
            let mut pos = Position::startpos(v);
            let mut list = pos.legal_moves();
            let first = list[0];
            pos.make(first);
            let want_legal = pos.legal_moves();
            let want_pseudo = pos.pseudo_legal_moves();
            pos.legal_moves_into(&mut list);
            assert_eq!(list, want_legal, "{}", v.id());
            pos.pseudo_legal_moves_into(&mut list);
            assert_eq!(list, want_pseudo, "{}", v.id());
        }
    }
}
