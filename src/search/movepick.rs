//! Move ordering: the transposition-table move, then captures and promotions that do not
//! obviously lose material (most valuable victim, least valuable attacker), killers, the
//! counter-move, quiet moves (drops included) by history, and losing captures last.

use arrayvec::ArrayVec;

use crate::geometry::CELLS;
use crate::movegen::{MAX_MOVES, MoveList};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::role::{ROLE_COUNT, Role};

use super::params::{HISTORY_MAX, material};

/// The role that makes `mv` (the king for castling, the dropped role for a drop).
pub fn moving_role(pos: &Position, mv: Move) -> Role {
    match mv.kind {
        MoveKind::Drop => mv.drop_role().unwrap_or(Role::Pawn),
        MoveKind::Castle => Role::King,
        MoveKind::Null => Role::King,
        MoveKind::Normal | MoveKind::EnPassant => {
            pos.piece_at(mv.from).map_or(Role::Pawn, |p| p.role)
        }
    }
}

/// The role `mv` captures, if any.
pub fn captured_role(pos: &Position, mv: Move) -> Option<Role> {
    match mv.kind {
        MoveKind::Normal => pos.piece_at(mv.to).map(|p| p.role),
        MoveKind::EnPassant => Some(Role::Pawn),
        _ => None,
    }
}

/// Captures and promotions: the moves quiescence searches.
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.promotion_role().is_some() || captured_role(pos, mv).is_some()
}

/// Material `mv` gains at once (victim, plus promotion gain).
pub fn material_gain(pos: &Position, mv: Move) -> i32 {
    let victim = captured_role(pos, mv).map_or(0, material);
    let promo = mv
        .promotion_role()
        .map_or(0, |r| material(r) - material(Role::Pawn));
    victim + promo
}

/// Whether a capture risks more than it takes: the attacker is worth more than the victim
/// and the target square is defended. Defence is judged in the position before the move,
/// which may miss a Venator screen or a Sissa path the moving piece itself opens; that only
/// makes the test optimistic, so it orders such a capture early and never wrongly prunes it.
pub fn is_losing_capture(pos: &Position, mv: Move) -> bool {
    let attacker = material(moving_role(pos, mv));
    let gain = material_gain(pos, mv);
    gain < attacker && pos.attacked(mv.to, pos.side_to_move().flip())
}

/// Quiet-move statistics: history by (side, role, target) and counter-moves by (side, the
/// previous move's target).
pub struct History {
    table: Vec<i32>,
    counters: Vec<Option<Move>>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: vec![0; 2 * ROLE_COUNT * CELLS],
            counters: vec![None; 2 * CELLS],
        }
    }
}

impl History {
    fn slot(pos: &Position, mv: Move) -> usize {
        let side = pos.side_to_move().index();
        (side * ROLE_COUNT + moving_role(pos, mv).index()) * CELLS + mv.to.index()
    }

    pub fn score(&self, pos: &Position, mv: Move) -> i32 {
        self.table[History::slot(pos, mv)]
    }

    /// Moves a history score towards `bonus`'s sign, saturating at [`HISTORY_MAX`].
    pub fn update(&mut self, pos: &Position, mv: Move, bonus: i32) {
        let h = &mut self.table[History::slot(pos, mv)];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    pub fn counter(&self, pos: &Position, previous: Move) -> Option<Move> {
        if previous.is_null() {
            return None;
        }
        self.counters[pos.side_to_move().index() * CELLS + previous.to.index()]
    }

    pub fn set_counter(&mut self, pos: &Position, previous: Move, mv: Move) {
        if !previous.is_null() {
            self.counters[pos.side_to_move().index() * CELLS + previous.to.index()] = Some(mv);
        }
    }

    /// Halves every score: older searches count less.
    pub fn age(&mut self) {
        for h in &mut self.table {
            *h /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
        self.counters.fill(None);
    }
}

const TT_MOVE: i32 = i32::MAX;
const GOOD_TACTICAL: i32 = 2_000_000;
const KILLER: [i32; 2] = [1_000_000, 999_000];
const COUNTER: i32 = 998_000;
const LOSING_TACTICAL: i32 = -2_000_000;

/// Hands out moves best-first by selection: most nodes cut after one or two moves, so the
/// full sort is never paid for.
pub struct MovePicker {
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
}

/// What the picker needs to know besides the position.
pub struct Hints<'a> {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    pub history: &'a History,
}

impl MovePicker {
    pub fn new(pos: &Position, moves: MoveList, hints: &Hints) -> MovePicker {
        let scores = moves
            .iter()
            .map(|&mv| {
                if Some(mv) == hints.tt_move {
                    TT_MOVE
                } else if is_tactical(pos, mv) {
                    let value = material_gain(pos, mv) * 16 - material(moving_role(pos, mv)) / 16;
                    if is_losing_capture(pos, mv) {
                        LOSING_TACTICAL + value
                    } else {
                        GOOD_TACTICAL + value
                    }
                } else if Some(mv) == hints.killers[0] {
                    KILLER[0]
                } else if Some(mv) == hints.killers[1] {
                    KILLER[1]
                } else if Some(mv) == hints.counter {
                    COUNTER
                } else {
                    hints.history.score(pos, mv)
                }
            })
            .collect();
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Only captures and promotions to the most valuable promotion role (for quiescence),
    /// best first by MVV-LVA.
    pub fn tactical(pos: &Position, moves: MoveList) -> MovePicker {
        let top = pos
            .variant()
            .spec
            .promotions
            .iter()
            .map(|&r| material(r))
            .max()
            .unwrap_or(0);
        let mut kept = MoveList::new();
        let mut scores = ArrayVec::new();
        for mv in moves {
            let under = mv.promotion_role().is_some_and(|r| material(r) < top);
            if is_tactical(pos, mv) && !under {
                kept.push(mv);
                scores.push(material_gain(pos, mv) * 16 - material(moving_role(pos, mv)) / 16);
            }
        }
        MovePicker {
            moves: kept,
            scores,
            next: 0,
        }
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    /// The best remaining move.
    fn next(&mut self) -> Option<Move> {
        if self.next >= self.moves.len() {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}
