//! The network in play: one accumulator pair a ply, brought up to date lazily from the
//! nearest ply that has one by the changes each move made (pieces off and on squares, a
//! piece leaving the hand), so that most evaluations cost a few rows, not a refresh.

use std::sync::Arc;

use arrayvec::ArrayVec;

use super::features::Layout;
use super::net::Network;
use crate::rules::geometry::Square;
use crate::rules::moves::MoveKind;
use crate::rules::position::Position;
use crate::rules::role::{Color, EMPTY, Piece, Role};

/// What one move changed: pieces taken off squares, pieces put on squares, and the hand
/// feature that a drop cleared (owner, index).
#[derive(Clone, Debug, Default)]
pub struct Delta {
    removed: ArrayVec<(Piece, Square), 3>,
    added: ArrayVec<(Piece, Square), 2>,
    hand: Option<(Color, usize)>,
}

impl Delta {
    /// The changes of the last move played in `pos`.
    pub fn of_last_move(pos: &Position) -> Delta {
        let mut d = Delta::default();
        let Some(undo) = pos.history.last() else {
            return d;
        };
        let mv = undo.mv;
        let us = pos.side_to_move().flip();
        let on = |sq: Square| pos.piece_at(sq);
        match mv.kind {
            MoveKind::Normal => {
                if let Some(moved) = Piece::from_code(undo.moved) {
                    d.removed.push((moved, mv.from));
                }
                if undo.captured != EMPTY
                    && let Some(victim) = Piece::from_code(undo.captured)
                {
                    d.removed.push((victim, mv.to));
                }
                if let Some(p) = on(mv.to) {
                    d.added.push((p, mv.to));
                }
            }
            MoveKind::Locust => {
                if let Some(moved) = Piece::from_code(undo.moved) {
                    d.removed.push((moved, mv.from));
                    d.added.push((moved, mv.to));
                }
                if undo.captured != EMPTY
                    && let Some(victim) = Piece::from_code(undo.captured)
                {
                    d.removed.push((victim, mv.to));
                }
                if let (Some(victim), Some(sq)) =
                    (Piece::from_code(undo.locust), pos.locust_victim(mv))
                {
                    d.removed.push((victim, sq));
                }
            }
            MoveKind::EnPassant => {
                if let Some(p) = on(mv.to) {
                    d.removed.push((p, mv.from));
                    d.added.push((p, mv.to));
                }
                if let Some(victim) = Piece::from_code(undo.captured) {
                    d.removed.push((victim, undo.ep.victim));
                }
            }
            MoveKind::Castle => {
                let c = &pos.variant().castlings[us.index()][mv.extra as usize];
                let king = Piece::new(us, Role::King);
                if let Some(rook) = on(c.rook_to) {
                    d.removed.push((king, c.king_from));
                    d.removed.push((rook, c.rook_from));
                    d.added.push((king, c.king_to));
                    d.added.push((rook, c.rook_to));
                }
            }
            MoveKind::Drop => {
                if let Some(p) = on(mv.to) {
                    d.added.push((p, mv.to));
                }
                d.hand = Some((us, pos.hand(us) as usize));
            }
            MoveKind::Null => {}
        }
        d
    }
}

/// The accumulators of White's and Black's view at one ply.
#[derive(Clone, Debug)]
struct Ply {
    acc: [Vec<i16>; 2],
    /// Whether `acc` holds this ply's position.
    ready: bool,
    /// The changes of the move that led here from the ply before.
    delta: Delta,
}

/// A network with the accumulator stack of one search thread.
pub struct Nnue {
    pub net: Arc<Network>,
    layout: Layout,
    plies: Vec<Ply>,
}

impl Nnue {
    /// `plies` is the deepest ply the search may reach, plus one.
    pub fn new(net: Arc<Network>, plies: usize) -> Nnue {
        let layout = Layout::new(net.variant);
        let ply = Ply {
            acc: [vec![0; net.hidden], vec![0; net.hidden]],
            ready: false,
            delta: Delta::default(),
        };
        Nnue {
            layout,
            plies: vec![ply; plies],
            net,
        }
    }

    /// Forgets every accumulator (a new root position).
    pub fn reset(&mut self) {
        for p in &mut self.plies {
            p.ready = false;
        }
    }

    /// Starts a search from `root`, the position at ply 0.
    pub fn start(&mut self, root: &Position) {
        self.reset();
        self.refresh(root, 0);
    }

    /// Notes the move just played in `pos`, which leads to `ply`.
    pub fn played(&mut self, pos: &Position, ply: usize) {
        if let Some(p) = self.plies.get_mut(ply) {
            p.delta = Delta::of_last_move(pos);
            p.ready = false;
        }
    }

    /// The active features of `pos` from `side`'s view.
    pub fn features(layout: &Layout, pos: &Position, side: Color) -> Vec<usize> {
        let mut out = Vec::new();
        for c in Color::ALL {
            for &sq in pos.pieces(c) {
                if let Some(p) = pos.piece_at(sq) {
                    out.push(layout.piece(side, p, sq));
                }
            }
            for n in 0..(pos.hand(c) as usize).min(layout.hand_slots) {
                out.push(layout.hand(side, c, n));
            }
        }
        out
    }

    fn refresh(&mut self, pos: &Position, ply: usize) {
        for side in Color::ALL {
            let active = Nnue::features(&self.layout, pos, side);
            self.net
                .accumulate(&active, &mut self.plies[ply].acc[side.index()]);
        }
        self.plies[ply].ready = true;
    }

    /// Brings `ply` up from `ply - 1`, which is ready.
    fn update(&mut self, ply: usize) {
        let (before, after) = self.plies.split_at_mut(ply);
        let (from, to) = (&before[ply - 1], &mut after[0]);
        for side in Color::ALL {
            let mut removed: ArrayVec<usize, 4> = (to.delta.removed.iter())
                .map(|&(p, sq)| self.layout.piece(side, p, sq))
                .collect();
            if let Some((owner, n)) = to.delta.hand {
                removed.push(self.layout.hand(side, owner, n));
            }
            let added: ArrayVec<usize, 2> = (to.delta.added.iter())
                .map(|&(p, sq)| self.layout.piece(side, p, sq))
                .collect();
            let i = side.index();
            self.net
                .update(&from.acc[i], &mut to.acc[i], &removed, &added);
        }
        to.ready = true;
    }

    /// The network's score of `pos`, the position at `ply`, for the side to move.
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let ply = ply.min(self.plies.len() - 1);
        let mut base = ply;
        while base > 0 && !self.plies[base].ready {
            base -= 1;
        }
        if !self.plies[base].ready {
            base = ply;
            self.refresh(pos, ply);
        }
        for p in base + 1..=ply {
            self.update(p);
        }
        let us = pos.side_to_move();
        let acc = &self.plies[ply].acc;
        let bucket = self.layout.bucket(Layout::pieces_of(pos), self.net.buckets);
        self.net
            .output(&acc[us.index()], &acc[us.flip().index()], bucket)
    }

    /// A fresh computation of `pos`'s score (what [`Nnue::evaluate`] must equal).
    pub fn evaluate_fresh(net: &Network, pos: &Position) -> i32 {
        let layout = Layout::new(net.variant);
        let mut acc = [vec![0; net.hidden], vec![0; net.hidden]];
        for side in Color::ALL {
            net.accumulate(&Nnue::features(&layout, pos, side), &mut acc[side.index()]);
        }
        let us = pos.side_to_move().index();
        let bucket = layout.bucket(Layout::pieces_of(pos), net.buckets);
        net.output(&acc[us], &acc[1 - us], bucket)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::train::FloatNet;
    use crate::rules::variant::Variant;

    /// Walks the legal move tree to `depth`, checking the lazily updated score against a
    /// fresh one at every node; counts the kinds of moves (and promotions) played.
    fn walk(nnue: &mut Nnue, pos: &mut Position, depth: u32, ply: usize, kinds: &mut [u64; 6]) {
        let fresh = Nnue::evaluate_fresh(&nnue.net, pos);
        assert_eq!(nnue.evaluate(pos, ply), fresh, "{}", pos.fen());
        if depth == 0 {
            return;
        }
        for mv in pos.legal_moves() {
            kinds[match mv.kind {
                MoveKind::Normal if mv.promotion_role().is_some() => 5,
                MoveKind::Normal => 0,
                MoveKind::EnPassant => 1,
                MoveKind::Castle => 2,
                MoveKind::Drop => 3,
                MoveKind::Null | MoveKind::Locust => 4,
            }] += 1;
            pos.make(mv);
            nnue.played(pos, ply + 1);
            walk(nnue, pos, depth - 1, ply + 1, kinds);
            pos.unmake();
        }
    }

    #[test]
    fn incremental_accumulators_equal_fresh_ones_over_perft_trees() {
        for v in Variant::all() {
            let layout = Layout::new(v);
            // Three output buckets: captures move positions from one to the next.
            let net = Arc::new(FloatNet::random(layout.count(), 8, 3, 9).quantize(v));
            let mut nnue = Nnue::new(net, 16);
            let suite = format!("{}/perft/{}.epd", env!("CARGO_MANIFEST_DIR"), v.id());
            let text = std::fs::read_to_string(&suite).expect("suite");
            let mut kinds = [0u64; 6];
            let mut fens: Vec<String> = crate::tools::perft_suite::parse_suite(&text)
                .expect("suite")
                .into_iter()
                .map(|e| e.fen)
                .collect();
            if v.id() == "gustav3" {
                // The suite has the start only: add castling, en passant and promotions.
                fens.push("ar3k2ra/*1P6*/*8*/*2pP4*/*8*/*8*/*8*/AR3K2RA w KQkq d6 0 1".into());
            }
            for fen in fens {
                let mut pos = Position::from_fen(v, &fen).expect("fen");
                nnue.start(&pos);
                walk(&mut nnue, &mut pos, 2, 0, &mut kinds);
                // A null move changes nothing but the side to move.
                if !pos.in_check() {
                    pos.make(crate::rules::moves::Move::NULL);
                    nnue.played(&pos, 1);
                    assert_eq!(
                        nnue.evaluate(&pos, 1),
                        Nnue::evaluate_fresh(&nnue.net, &pos)
                    );
                    pos.unmake();
                }
            }
            assert!(kinds[0] > 0 && kinds[5] > 0, "{}: {kinds:?}", v.id());
            if v.spec.hand.is_some() {
                assert!(kinds[3] > 0, "{}: no drops in {kinds:?}", v.id());
            }
            assert!(kinds[1] > 0 && kinds[2] > 0, "{}: {kinds:?}", v.id());
        }
    }
}
