//! Static exchange evaluation: what a move wins or loses on its target square when both
//! sides then capture there, each with its least valuable piece, and either may stop.
//!
//! The exchange is played out on the real board with make and unmake, so it is exact for
//! every piece of every variant: a slider behind the capturer joins in (x-ray), a Venator
//! gains or loses its screen or hop square as pieces leave or arrive, a Sissa or Snake path
//! opens when the piece blocking it captures, a Ninja captures sideways only in the enemy
//! half, a pawn capturing onto the last rank promotes, and a pinned piece or a king that
//! would be captured back does not take part. The capturers of each step come from the
//! attack probes of [`Position::attackers`]; the test below checks the whole against the
//! same exchange played with the full legal move generator.
//!
//! Ties between attackers of equal value go to the lowest square index, so that the value is
//! a function of the position.

use arrayvec::ArrayVec;

use crate::rules::geometry::Square;
use crate::rules::moves::{Move, MoveKind};
use crate::rules::position::Position;
use crate::rules::role::Role;

use super::params::material;

/// The exchange value of `mv` in centipawns for the side making it: the material it takes
/// (and its promotion gain), less what the opponent then wins on the target square.
/// Castling counts 0; a drop or a quiet move 0 less what it loses.
pub fn see(pos: &mut Position, mv: Move) -> i32 {
    let Some(gain) = first_gain(pos, mv) else {
        return 0;
    };
    pos.make(mv);
    let reply = exchange(pos, mv.to, -i32::MAX, i32::MAX);
    pos.unmake();
    gain - reply
}

/// Whether `see(pos, mv) >= threshold`, searched with a null window (faster than [`see`]).
pub fn see_ge(pos: &mut Position, mv: Move, threshold: i32) -> bool {
    let Some(gain) = first_gain(pos, mv) else {
        return threshold <= 0;
    };
    // The opponent's best can only lower the gain: a gain short of the threshold fails, and
    // a gain that keeps the threshold even if the piece is lost passes.
    if gain < threshold {
        return false;
    }
    // What the opponent can take back at most: the piece, and a promotion if its pawn
    // captures onto its last rank.
    let them = pos.side_to_move().flip();
    let promotes = pos.variant().promotion_square[them.index()][mv.to.index()];
    let at_risk = material(moved_role(pos, mv))
        + if promotes {
            best_promotion(pos).map_or(0, |r| material(r) - material(Role::Pawn))
        } else {
            0
        };
    if gain - at_risk >= threshold {
        return true;
    }
    pos.make(mv);
    let bound = gain - threshold;
    let reply = exchange(pos, mv.to, bound, bound + 1);
    pos.unmake();
    reply <= bound
}

/// Material taken by `mv` at once, promotion gain included; `None` for castling and the
/// null move, which the exchange does not judge.
fn first_gain(pos: &Position, mv: Move) -> Option<i32> {
    match mv.kind {
        MoveKind::Castle | MoveKind::Null => None,
        _ => Some(super::movepick::material_gain(pos, mv)),
    }
}

/// The role standing on the target once `mv` is made.
fn moved_role(pos: &Position, mv: Move) -> Role {
    if let Some(r) = mv.promotion_role().or(mv.drop_role()) {
        return r;
    }
    pos.piece_at(mv.from).map_or(Role::Pawn, |p| p.role)
}

/// What the side to move wins by capturing on `target` (0 if it stops), negamax with an
/// alpha-beta window: each side captures with its least valuable legal capturer.
fn exchange(pos: &mut Position, target: Square, mut alpha: i32, beta: i32) -> i32 {
    let best = 0;
    if best >= beta {
        return best;
    }
    alpha = alpha.max(best);
    let Some(victim) = pos.piece_at(target) else {
        return best;
    };
    // Even the most a capture here could take (the victim, and a promotion) cannot reach
    // alpha: no need to look for a capturer.
    let us = pos.side_to_move();
    let most = material(victim.role)
        + if pos.variant().promotion_square[us.index()][target.index()] {
            best_promotion(pos).map_or(0, |r| (material(r) - material(Role::Pawn)).max(0))
        } else {
            0
        };
    if most <= alpha {
        return best;
    }
    let Some(mv) = least_valuable_capture(pos, target) else {
        return best;
    };
    let gain = material(victim.role)
        + mv.promotion_role()
            .map_or(0, |r| material(r) - material(Role::Pawn));
    // Even if the opponent then stops, this capture cannot reach alpha.
    if gain <= alpha {
        return best;
    }
    pos.make(mv);
    let value = gain - exchange(pos, target, gain - beta, gain - alpha);
    pos.unmake();
    value.max(best)
}

/// The side to move's legal capture on `target` with its least valuable piece (ties: the
/// lowest square), promoting to the most valuable role where a pawn reaches the last rank.
pub(crate) fn least_valuable_capture(pos: &mut Position, target: Square) -> Option<Move> {
    let us = pos.side_to_move();
    let promotion = best_promotion(pos);
    let promotes_here = pos.variant().promotion_square[us.index()][target.index()];
    let capture = |role: Role, from: Square| match promotion {
        Some(r) if promotes_here && role.is_pawn_like() => Move::promotion(from, target, r),
        _ => Move::normal(from, target),
    };
    // The least valuable attacker is nearly always free to capture: find it without
    // listing and sorting them all, and do that only when it is pinned.
    let mut least: Option<(i32, usize, Square, Role)> = None;
    let board: &Position = pos;
    board.for_each_attacker(target, us, |sq| {
        if let Some(p) = board.piece_at(sq) {
            let key = (material(p.role), sq.index());
            if least.is_none_or(|(v, i, _, _)| key < (v, i)) {
                least = Some((key.0, key.1, sq, p.role));
            }
        }
    });
    let (_, _, first, role) = least?;
    let mv = capture(role, first);
    if pos.is_legal_pseudo(mv) {
        return Some(mv);
    }
    let mut attackers: ArrayVec<(i32, Square), 64> = pos
        .attackers(target, us)
        .into_iter()
        .filter(|&sq| sq != first)
        .filter_map(|sq| pos.piece_at(sq).map(|p| (material(p.role), sq)))
        .collect();
    attackers.sort_unstable_by_key(|&(value, sq)| (value, sq.index()));
    for (_, from) in attackers {
        let role = pos.piece_at(from).map(|p| p.role)?;
        let mv = capture(role, from);
        if pos.is_legal_pseudo(mv) {
            return Some(mv);
        }
    }
    None
}

/// The most valuable promotion role of the variant.
fn best_promotion(pos: &Position) -> Option<Role> {
    pos.variant()
        .spec
        .promotions
        .iter()
        .copied()
        .max_by_key(|&r| material(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::variant::Variant;

    /// The exchange played with the full legal move generator: at every step, of the legal
    /// captures on the square the one by the least valuable piece (lowest square on ties,
    /// most valuable promotion), or stop.
    fn reference_exchange(pos: &mut Position, target: Square) -> i32 {
        let Some(victim) = pos.piece_at(target) else {
            return 0;
        };
        let mut captures: Vec<(i32, i32, usize, Move)> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.kind == MoveKind::Normal && m.to == target)
            .map(|m| {
                let role = pos.piece_at(m.from).map_or(Role::Pawn, |p| p.role);
                let promo = m.promotion_role().map_or(0, material);
                (material(role), -promo, m.from.index(), m)
            })
            .collect();
        captures.sort_by_key(|&(v, p, s, _)| (v, p, s));
        let Some(&(_, _, _, mv)) = captures.first() else {
            return 0;
        };
        let gain = material(victim.role)
            + mv.promotion_role()
                .map_or(0, |r| material(r) - material(Role::Pawn));
        pos.make(mv);
        let value = gain - reference_exchange(pos, target);
        pos.unmake();
        value.max(0)
    }

    fn reference_see(pos: &mut Position, mv: Move) -> i32 {
        let gain = first_gain(pos, mv).unwrap_or(0);
        if mv.kind == MoveKind::Castle {
            return 0;
        }
        pos.make(mv);
        let reply = reference_exchange(pos, mv.to);
        pos.unmake();
        gain - reply
    }

    #[test]
    fn see_equals_the_exchange_played_with_the_move_generator() {
        let mut rng = Rng::new(0x05ee);
        let mut checked = 0;
        let mut losing = 0;
        for v in Variant::all() {
            for _ in 0..60 {
                let mut pos = Position::startpos(v);
                for _ in 0..(20 + rng.below(80)) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer captures so that the positions get open and tactical.
                    let captures: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| pos.piece_at(m.to).is_some())
                        .collect();
                    let mv = if !captures.is_empty() && rng.below(3) == 0 {
                        captures[rng.below(captures.len())]
                    } else {
                        moves[rng.below(moves.len())]
                    };
                    pos.make(mv);
                    for m in pos.legal_moves() {
                        let expected = reference_see(&mut pos, m);
                        let got = see(&mut pos, m);
                        assert_eq!(
                            got,
                            expected,
                            "{} {} move {}",
                            v.id(),
                            pos.fen(),
                            pos.move_text(m, 1)
                        );
                        for t in [expected - 1, expected, expected + 1, 0] {
                            assert_eq!(see_ge(&mut pos, m, t), expected >= t);
                        }
                        checked += 1;
                        losing += usize::from(expected < 0);
                    }
                }
            }
        }
        assert!(checked > 10_000 && losing > 1_000, "{checked} {losing}");
    }
}
