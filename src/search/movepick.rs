//! Move ordering: a staged picker (the transposition-table move, captures and promotions
//! that keep material by SEE, killers and the counter-move, quiet moves and drops by history
//! and continuation history, losing captures last) and the history tables it reads.

use arrayvec::ArrayVec;

use crate::rules::geometry::CELLS;
use crate::rules::movegen::{LegalityHint, MAX_MOVES, MoveList};
use crate::rules::moves::{Move, MoveKind};
use crate::rules::position::Position;
use crate::rules::role::{Color, ROLE_COUNT, Role};

use super::params::{self as p, HISTORY_MAX, material};
use super::see::see_ge;

/// The role that makes `mv` (the king for castling, the dropped role for a drop).
pub fn moving_role(pos: &Position, mv: Move) -> Role {
    match mv.kind {
        MoveKind::Drop => mv.drop_role().unwrap_or(Role::Pawn),
        MoveKind::Castle => Role::King,
        MoveKind::Null => Role::King,
        MoveKind::Normal | MoveKind::EnPassant | MoveKind::Locust => {
            pos.piece_at(mv.from).map_or(Role::Pawn, |p| p.role)
        }
    }
}

/// The role `mv` captures, if any (of a locust capture's two victims, the more valuable).
pub fn captured_role(pos: &Position, mv: Move) -> Option<Role> {
    match mv.kind {
        MoveKind::Normal => pos.piece_at(mv.to).map(|p| p.role),
        MoveKind::EnPassant => Some(Role::Pawn),
        MoveKind::Locust => locust_victims(pos, mv).max_by_key(|&r| material(r)),
        _ => None,
    }
}

/// The roles a locust capture takes: the piece on its way, and the one on its destination
/// unless it returns to its start square.
fn locust_victims(pos: &Position, mv: Move) -> impl Iterator<Item = Role> {
    let victim = pos.locust_victim(mv).and_then(|s| pos.piece_at(s));
    let target = pos.piece_at(mv.to).filter(|_| mv.to != mv.from);
    [victim, target].into_iter().flatten().map(|p| p.role)
}

/// Captures and promotions: the moves quiescence searches.
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.promotion_role().is_some() || captured_role(pos, mv).is_some()
}

/// Material `mv` gains at once (victim, plus promotion gain).
pub fn material_gain(pos: &Position, mv: Move) -> i32 {
    let victim = match mv.kind {
        MoveKind::Locust => locust_victims(pos, mv).map(material).sum(),
        _ => captured_role(pos, mv).map_or(0, material),
    };
    let promo = mv
        .promotion_role()
        .map_or(0, |r| material(r) - material(Role::Pawn));
    victim + promo
}

/// A piece arriving on a square: (colour, role of the variant's army, dense square) as one
/// index, the key of the continuation history (see [`History::piece_to`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u32);

/// The previous moves a node's quiet moves are judged against: 1, 2 and 4 plies back.
pub type Continuations = [Option<PieceTo>; 3];

/// Move statistics learnt from cutoffs: quiet history by (side, role, target), capture
/// history by (side, attacker, target, victim), continuation history by (piece-to of an
/// earlier move, piece-to of this one), and counter-moves by (side, the previous move's
/// target).
pub struct History {
    quiet: Vec<i32>,
    /// By (piece-to of the attacker, victim): the victim is 0 for none (a quiet promotion)
    /// or 1 + its place in the army. Dense like the continuation table, so that it stays
    /// small (80 KB for Venomous) and [`History::age`] halves it quickly before each search.
    capture: Vec<i32>,
    continuation: Vec<i16>,
    /// Piece-to keys per board: the continuation table is this squared.
    keys: usize,
    /// Each role's place in the army of the variant prepared for.
    army_slot: [u8; ROLE_COUNT],
    army_size: usize,
    counters: Vec<Option<Move>>,
    /// Correction history: by side to move and pawn hash, how far searches found the static
    /// evaluation off ([`CORRECTION_UNIT`] a centipawn, within +/- [`CORRECTION_LIMIT`]).
    correction: Vec<i32>,
    /// The same by side to move and one colour's non-pawn hash (its pieces and king), a
    /// table per colour: these two together weigh as much as the pawn table.
    nonpawn_correction: Vec<i32>,
}

/// Entries per side in the correction table (a power of two).
const CORRECTION_SIZE: usize = 16_384;
/// The correction table's units per centipawn.
pub const CORRECTION_UNIT: i32 = 8;
/// The largest correction, in table units.
pub const CORRECTION_LIMIT: i32 = 1_024;

impl Default for History {
    fn default() -> Self {
        History {
            quiet: vec![0; 2 * ROLE_COUNT * CELLS],
            capture: Vec::new(),
            continuation: Vec::new(),
            keys: 0,
            army_slot: [0; ROLE_COUNT],
            army_size: 0,
            counters: vec![None; 2 * CELLS],
            correction: vec![0; 2 * CORRECTION_SIZE],
            nonpawn_correction: vec![0; 4 * CORRECTION_SIZE],
        }
    }
}

/// Moves `h` towards `bonus`, saturating at [`HISTORY_MAX`] (the usual history gravity).
fn gravity(h: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

impl History {
    /// Sizes the capture and continuation tables for the variant of `pos`: two colours, its
    /// army's roles and its board (about 8 MB of continuation history for Venomous), cleared
    /// when the variant changes.
    pub fn prepare(&mut self, pos: &Position) {
        let v = pos.variant();
        let mut army_slot = [0u8; ROLE_COUNT];
        for (i, role) in v.spec.army.iter().enumerate() {
            army_slot[role.index()] = i as u8;
        }
        let keys = 2 * v.spec.army.len() * v.geometry.area();
        if keys != self.keys || army_slot != self.army_slot {
            self.keys = keys;
            self.army_slot = army_slot;
            self.army_size = v.spec.army.len();
            self.continuation = vec![0; keys * keys];
            self.capture = vec![0; keys * (self.army_size + 1)];
            self.correction.fill(0);
            self.nonpawn_correction.fill(0);
        }
    }

    /// The piece `mv` puts on its target (the mover's role before any promotion; the king
    /// for castling), for the side to move of `pos`.
    pub fn piece_to(&self, pos: &Position, mv: Move) -> PieceTo {
        let g = &pos.variant().geometry;
        let to = match mv.kind {
            MoveKind::Castle => {
                pos.variant().castlings[pos.side_to_move().index()][mv.extra as usize].king_to
            }
            _ => mv.to,
        };
        let role = usize::from(self.army_slot[moving_role(pos, mv).index()]);
        let piece = pos.side_to_move().index() * self.army_size + role;
        PieceTo((piece * g.area() + g.dense_index(to)) as u32)
    }

    fn quiet_slot(pos: &Position, mv: Move) -> usize {
        let side = pos.side_to_move().index();
        (side * ROLE_COUNT + moving_role(pos, mv).index()) * CELLS + mv.to.index()
    }

    /// The capture table's slot of `mv`, if the table is sized for this variant.
    fn capture_slot(&self, pos: &Position, mv: Move) -> Option<usize> {
        let victim =
            captured_role(pos, mv).map_or(0, |r| 1 + usize::from(self.army_slot[r.index()]));
        let attacker = self.piece_to(pos, mv).0 as usize;
        (attacker < self.keys).then_some(attacker * (self.army_size + 1) + victim)
    }

    fn continuation_slot(&self, earlier: PieceTo, now: PieceTo) -> Option<usize> {
        let (e, n) = (earlier.0 as usize, now.0 as usize);
        (e < self.keys && n < self.keys).then_some(e * self.keys + n)
    }

    /// The ordering score of a quiet move: its own history plus its continuation histories.
    pub fn quiet_score(&self, pos: &Position, mv: Move, conts: &Continuations) -> i32 {
        let now = self.piece_to(pos, mv);
        let mut score = self.quiet[History::quiet_slot(pos, mv)];
        for earlier in conts.iter().flatten() {
            if let Some(i) = self.continuation_slot(*earlier, now) {
                score += i32::from(self.continuation[i]);
            }
        }
        score
    }

    pub fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        self.capture_slot(pos, mv).map_or(0, |i| self.capture[i])
    }

    /// Rewards (positive `bonus`) or punishes a quiet move, in its own history and in its
    /// continuation histories.
    pub fn update_quiet(&mut self, pos: &Position, mv: Move, conts: &Continuations, bonus: i32) {
        let slot = History::quiet_slot(pos, mv);
        self.quiet[slot] = gravity(self.quiet[slot], bonus);
        let now = self.piece_to(pos, mv);
        for earlier in conts.iter().flatten() {
            if let Some(i) = self.continuation_slot(*earlier, now) {
                self.continuation[i] = gravity(i32::from(self.continuation[i]), bonus) as i16;
            }
        }
    }

    pub fn update_capture(&mut self, pos: &Position, mv: Move, bonus: i32) {
        if let Some(slot) = self.capture_slot(pos, mv) {
            self.capture[slot] = gravity(self.capture[slot], bonus);
        }
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

    /// Halves the quiet and capture scores: older searches count less.
    pub fn age(&mut self) {
        // Two loops rather than a chain of both: each one vectorises.
        for h in &mut self.quiet {
            *h /= 2;
        }
        for h in &mut self.capture {
            *h /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.quiet.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.counters.fill(None);
        self.correction.fill(0);
        self.nonpawn_correction.fill(0);
    }

    fn correction_slot(pos: &Position) -> usize {
        pos.side_to_move().index() * CORRECTION_SIZE
            + (pos.pawn_hash() as usize & (CORRECTION_SIZE - 1))
    }

    /// The non-pawn correction slots of `pos`: White's pieces, then Black's.
    fn nonpawn_slots(pos: &Position) -> [usize; 2] {
        let base = pos.side_to_move().index() * 2 * CORRECTION_SIZE;
        Color::ALL.map(|c| {
            base + c.index() * CORRECTION_SIZE
                + (pos.nonpawn_hash(c) as usize & (CORRECTION_SIZE - 1))
        })
    }

    /// `eval` corrected by what searches of positions with this pawn structure (and hands)
    /// and with either side's pieces where they are found.
    pub fn corrected_eval(&self, pos: &Position, eval: i32) -> i32 {
        let [w, b] = History::nonpawn_slots(pos);
        let pawns = self.correction[History::correction_slot(pos)];
        let pieces = self.nonpawn_correction[w] + self.nonpawn_correction[b];
        eval + (2 * pawns + pieces) / (2 * CORRECTION_UNIT)
    }

    /// A search of `depth` here found `diff` centipawns more than the corrected static
    /// evaluation: moves each correction towards it, the more the deeper the search.
    pub fn update_correction(&mut self, pos: &Position, depth: i32, diff: i32) {
        let bonus = (diff * CORRECTION_UNIT * depth / p::CORRECTION_DEPTH_DIVISOR)
            .clamp(-CORRECTION_LIMIT / 4, CORRECTION_LIMIT / 4);
        let towards = |c: &mut i32| *c += bonus - *c * bonus.abs() / CORRECTION_LIMIT;
        towards(&mut self.correction[History::correction_slot(pos)]);
        for slot in History::nonpawn_slots(pos) {
            towards(&mut self.nonpawn_correction[slot]);
        }
    }
}

/// Room for losing captures held back; any beyond come out with the good ones.
const MAX_BAD: usize = 64;

/// The stages of the picker, in the order their moves come out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TtMove,
    GoodTacticals,
    Refutations,
    Quiets,
    BadTacticals,
    Done,
}

/// What the picker needs to know besides the position.
#[derive(Default)]
pub struct Hints {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    pub conts: Continuations,
}

/// Hands out the moves of a node in stages: the transposition-table move; captures and
/// promotions that do not lose material by SEE, best victim and capture history first; the
/// killers and the counter-move; quiet moves and drops by history and continuation history;
/// the losing captures last. Within a stage moves are picked by selection, so most nodes,
/// which cut after a move or two, never pay for a sort, and quiet moves are scored only when
/// their stage is reached. The moves are generated pseudo-legal and each is tested for
/// legality only when its turn comes: a node that cuts after its first move never tests the
/// others.
pub struct MovePicker {
    /// Tacticals in `[0, tactical_end)`, quiets after them.
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    tactical_end: usize,
    next: usize,
    stage: Stage,
    tt_move: Option<Move>,
    refutations: [Option<Move>; 3],
    refutation_next: usize,
    quiets_scored: bool,
    /// Tacticals that lose material by SEE, in the order they were found.
    bad: ArrayVec<Move, MAX_BAD>,
    bad_next: usize,
    /// Quiescence: tacticals only, no SEE split (the caller judges them).
    tactical_only: bool,
    conts: Continuations,
    /// The moves are known legal (the root's): no test.
    legal: bool,
    /// The legality shortcut, made when the first move needs it.
    hint: Option<LegalityHint>,
    /// Moves handed out so far.
    handed: usize,
}

impl MovePicker {
    /// A picker with no moves yet, to be filled by [`MovePicker::generate`]: for the main
    /// search, or with `tactical_only` for quiescence. The search makes its picker this way,
    /// in place: a picker holds kilobytes of moves and scores, and one returned by value
    /// was copied on every node (5.6 KB).
    #[inline(always)]
    pub fn empty(hints: &Hints, tactical_only: bool) -> MovePicker {
        MovePicker {
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            tactical_end: 0,
            next: 0,
            stage: if tactical_only {
                Stage::GoodTacticals
            } else {
                Stage::TtMove
            },
            tt_move: hints.tt_move,
            refutations: [hints.killers[0], hints.killers[1], hints.counter],
            refutation_next: 0,
            quiets_scored: tactical_only,
            bad: ArrayVec::new(),
            bad_next: 0,
            tactical_only,
            conts: hints.conts,
            legal: false,
            hint: None,
            handed: 0,
        }
    }

    /// Generates the moves of `pos` into an empty picker: its pseudo-legal moves (each tested
    /// for legality when its turn comes), or for quiescence only the captures and the
    /// promotions to the most valuable promotion role, best victim and capture history first.
    pub fn generate(&mut self, pos: &Position, history: &History) {
        if self.tactical_only {
            let top = (pos.variant().spec.promotions.iter())
                .map(|&r| material(r))
                .max()
                .unwrap_or(0);
            pos.pseudo_tactical_moves_into(&mut self.moves);
            self.moves
                .retain(|mv| mv.promotion_role().is_none_or(|r| material(r) >= top));
            (self.scores).extend((self.moves.iter()).map(|&mv| tactical_score(pos, mv, history)));
            self.tactical_end = self.moves.len();
        } else {
            // A bare king's loss ends the game at once: no moves (as the legal move list).
            if pos.bare_king_loser().is_none() {
                pos.pseudo_legal_moves_into(&mut self.moves);
            }
            self.partition(pos, history);
        }
    }

    /// A picker over the legal moves of `pos`, returned by value (the tests' shorthand; the
    /// search builds its pickers in place).
    #[cfg(test)]
    pub fn new(pos: &Position, hints: &Hints, history: &History) -> MovePicker {
        let mut picker = MovePicker::empty(hints, false);
        picker.generate(pos, history);
        picker
    }

    /// A picker for quiescence, returned by value (the tests' shorthand).
    #[cfg(test)]
    pub fn tactical(pos: &Position, history: &History) -> MovePicker {
        let mut picker = MovePicker::empty(&Hints::default(), true);
        picker.generate(pos, history);
        picker
    }

    /// A picker over given legal moves (the root's, which may be restricted).
    pub fn over(pos: &Position, moves: &[Move], hints: &Hints, history: &History) -> MovePicker {
        let mut picker = MovePicker::empty(hints, false);
        picker.legal = true;
        picker.moves.extend(moves.iter().copied());
        picker.partition(pos, history);
        picker
    }

    /// Whether the picker has handed out no move yet: after [`MovePicker::next`] returned
    /// `None`, whether the position has no legal move (of the picker's kind).
    pub fn handed_none(&self) -> bool {
        self.handed == 0
    }

    /// Partitions the moves in place: the transposition-table move out, tacticals (scored)
    /// to the front.
    fn partition(&mut self, pos: &Position, history: &History) {
        // The hinted move is handed out first only if it is one of the moves here.
        let tt_move = self.tt_move.take();
        let moves = &mut self.moves;
        let mut i = 0;
        while i < moves.len() {
            let mv = moves[i];
            if Some(mv) == tt_move {
                self.tt_move = Some(mv);
                moves.swap_remove(i);
                continue;
            }
            if is_tactical(pos, mv) {
                moves.swap(self.tactical_end, i);
                self.scores.push(tactical_score(pos, mv, history));
                self.tactical_end += 1;
            }
            i += 1;
        }
    }

    /// Skips the remaining quiet moves (late-move pruning); losing captures still come.
    pub fn skip_quiets(&mut self) {
        if matches!(self.stage, Stage::Refutations | Stage::Quiets) {
            self.stage = Stage::BadTacticals;
        }
    }

    /// Swaps the best-scored move of `[self.next, end)` to `self.next` and returns it.
    fn select(&mut self, end: usize) -> Move {
        let mut best = self.next;
        for i in self.next + 1..end {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        self.moves[self.next - 1]
    }

    /// The next legal move, or `None` when every move has been handed out.
    pub fn next(&mut self, pos: &mut Position, history: &History) -> Option<Move> {
        loop {
            let mv = self.next_candidate(pos, history)?;
            if !self.legal {
                let hint = *self.hint.get_or_insert_with(|| pos.legality_hint());
                if !pos.is_legal_with(mv, &hint) {
                    continue;
                }
            }
            self.handed += 1;
            return Some(mv);
        }
    }

    /// The next pseudo-legal move in the picker's order.
    fn next_candidate(&mut self, pos: &mut Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GoodTacticals;
                    if self.tt_move.is_some() {
                        return self.tt_move;
                    }
                }
                Stage::GoodTacticals => {
                    if self.next >= self.tactical_end {
                        self.stage = if self.tactical_only {
                            Stage::Done
                        } else {
                            Stage::Refutations
                        };
                        continue;
                    }
                    let mv = self.select(self.tactical_end);
                    if self.tactical_only || self.bad.is_full() || see_ge(pos, mv, 0) {
                        return Some(mv);
                    }
                    self.bad.push(mv);
                }
                Stage::Refutations => {
                    while self.refutation_next < self.refutations.len() {
                        let r = self.refutations[self.refutation_next];
                        self.refutation_next += 1;
                        let Some(mv) = r else { continue };
                        if self.refutations[..self.refutation_next - 1].contains(&r) {
                            continue;
                        }
                        let quiets = self.tactical_end..self.moves.len();
                        if let Some(j) = quiets.into_iter().find(|&j| self.moves[j] == mv) {
                            self.moves.swap_remove(j);
                            return Some(mv);
                        }
                    }
                    self.stage = Stage::Quiets;
                    self.next = self.tactical_end;
                }
                Stage::Quiets => {
                    if !self.quiets_scored {
                        self.quiets_scored = true;
                        self.scores.truncate(self.tactical_end);
                        for &mv in &self.moves[self.tactical_end..] {
                            self.scores.push(history.quiet_score(pos, mv, &self.conts));
                        }
                    }
                    if self.next < self.moves.len() {
                        return Some(self.select(self.moves.len()));
                    }
                    self.stage = Stage::BadTacticals;
                }
                Stage::BadTacticals => {
                    if self.bad_next < self.bad.len() {
                        self.bad_next += 1;
                        return Some(self.bad[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Ordering score of a capture or promotion: the material it takes first, then its capture
/// history, then the cheaper attacker.
fn tactical_score(pos: &Position, mv: Move, history: &History) -> i32 {
    material_gain(pos, mv) * 16 + history.capture_score(pos, mv) / 8
        - material(moving_role(pos, mv)) / 16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::variant::Variant;

    #[test]
    fn the_picker_yields_every_move_exactly_once() {
        let mut rng = Rng::new(0x91c6);
        let mut history = History::default();
        for v in Variant::all() {
            let mut pos = Position::startpos(v);
            history.prepare(&pos);
            for ply in 0..400 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    pos = Position::startpos(v);
                    continue;
                }
                // Hints that are sometimes legal here and sometimes not: pseudo-legal moves
                // that leave the king attacked (the picker tests legality lazily), and moves
                // of other positions.
                let pseudo = pos.pseudo_legal_moves();
                let pick = |rng: &mut Rng| match rng.below(4) {
                    0 => None,
                    1 => Some(pseudo[rng.below(pseudo.len())]),
                    _ => Some(moves[rng.below(moves.len())]),
                };
                let hints = Hints {
                    tt_move: pick(&mut rng),
                    killers: [pick(&mut rng), pick(&mut rng)],
                    counter: pick(&mut rng),
                    conts: [None; 3],
                };
                let mut picker = MovePicker::new(&pos, &hints, &history);
                let mut seen = Vec::new();
                while let Some(mv) = picker.next(&mut pos, &history) {
                    seen.push(mv);
                }
                assert!(!picker.handed_none());
                let mut want = moves.to_vec();
                want.sort_by_key(|m| (m.from, m.to, m.extra, m.kind as u8));
                seen.sort_by_key(|m| (m.from, m.to, m.extra, m.kind as u8));
                assert_eq!(seen, want, "{} ply {ply}: {}", v.id(), pos.fen());
                // Quiescence's picker: the legal captures and best promotions, each once.
                let top = (v.spec.promotions.iter()).map(|&r| material(r)).max();
                let mut want: Vec<Move> = (moves.iter().copied())
                    .filter(|&m| is_tactical(&pos, m))
                    .filter(|m| m.promotion_role().is_none_or(|r| Some(material(r)) >= top))
                    .collect();
                let mut picker = MovePicker::tactical(&pos, &history);
                let mut seen = Vec::new();
                while let Some(mv) = picker.next(&mut pos, &history) {
                    seen.push(mv);
                }
                want.sort_by_key(|m| (m.from, m.to, m.extra, m.kind as u8));
                seen.sort_by_key(|m| (m.from, m.to, m.extra, m.kind as u8));
                assert_eq!(seen, want, "{} ply {ply}: {}", v.id(), pos.fen());
                let mv = moves[rng.below(moves.len())];
                let bonus = rng.below(2000) as i32 - 1000;
                if is_tactical(&pos, mv) {
                    history.update_capture(&pos, mv, bonus);
                } else {
                    history.update_quiet(&pos, mv, &[None; 3], bonus);
                }
                pos.make(mv);
            }
        }
    }

    /// With its moves tested for legality only as they come, the picker still knows a
    /// position without legal moves: it hands out none, whatever the hints.
    #[test]
    fn the_picker_hands_out_nothing_in_mate_or_stalemate() {
        let chess = Variant::by_name("chess").expect("chess");
        let history = History::default();
        for fen in [
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        ] {
            let mut pos = Position::from_fen(chess, fen).expect("a FEN");
            assert!(pos.legal_moves().is_empty());
            let pseudo = pos.pseudo_legal_moves();
            assert!(!pseudo.is_empty(), "{fen}");
            let hints = Hints {
                tt_move: Some(pseudo[0]),
                killers: [pseudo.last().copied(), None],
                counter: None,
                conts: [None; 3],
            };
            let mut picker = MovePicker::new(&pos, &hints, &history);
            assert_eq!(picker.next(&mut pos, &history), None, "{fen}");
            assert!(picker.handed_none());
        }
    }

    /// Quiescence's generator writes only captures and promotions: it must give exactly the
    /// full generator's tactical moves, in their order (the picker's ties, and so the search,
    /// stay the same), in every built-in variant and the file variants (locust pieces
    /// among them).
    #[test]
    fn the_tactical_generator_gives_the_full_generators_tactical_moves_in_order() {
        let file = |name: &str, text: &str| {
            crate::tools::variant_files::parse(name, text).expect("a variant file")
        };
        let files = file("fairy.ini", include_str!("../../variants/fairy.ini"))
            .into_iter()
            .chain(file("sissa.ini", include_str!("../../variants/sissa.ini")));
        let mut rng = Rng::new(0x7ac7);
        let mut found = 0usize;
        for v in Variant::all().into_iter().chain(files) {
            for _ in 0..12 {
                let plies = 10 + rng.below(110);
                crate::rules::position::random_game(v, &mut rng, plies, |pos, _| {
                    let mut all = MoveList::new();
                    pos.pseudo_legal_moves_into(&mut all);
                    let want: Vec<Move> = all
                        .iter()
                        .copied()
                        .filter(|&m| is_tactical(pos, m))
                        .collect();
                    let mut got = MoveList::new();
                    pos.pseudo_tactical_moves_into(&mut got);
                    assert_eq!(got.as_slice(), want.as_slice(), "{} {}", v.id(), pos.fen());
                    found += want.len();
                });
            }
        }
        assert!(found > 1000, "only {found} tactical moves seen");
    }

    #[test]
    fn the_correction_follows_searches_of_the_same_pawns_or_pieces_and_stays_bounded() {
        let chess = Variant::by_name("chess").expect("chess");
        let mut history = History::default();
        let start = Position::startpos(chess);
        history.prepare(&start);
        assert_eq!(history.corrected_eval(&start, 37), 37);
        let after = |moves: &[&str]| {
            let mut pos = start.clone();
            for mv in moves {
                let m = pos.parse_move(mv, 1).expect("legal");
                pos.make(m);
            }
            pos
        };
        // Knight moves keep the pawns, and White is to move again after two of them; pawn
        // moves keep every piece; with both, neither is kept.
        let same_pawns = after(&["g1f3", "g8f6"]);
        let same_pieces = after(&["e2e4", "e7e5"]);
        let neither = after(&["g1f3", "g8f6", "e2e4", "e7e5"]);
        assert_eq!(same_pawns.pawn_hash(), start.pawn_hash());
        for c in Color::ALL {
            assert_eq!(same_pieces.nonpawn_hash(c), start.nonpawn_hash(c));
            assert_ne!(same_pawns.nonpawn_hash(c), start.nonpawn_hash(c));
        }
        for _ in 0..200 {
            history.update_correction(&start, 10, 300);
        }
        // Each table is bounded; the pawn table weighs as much as the two piece tables.
        let full = history.corrected_eval(&start, 0);
        assert!(
            full > 0 && full <= 2 * CORRECTION_LIMIT / CORRECTION_UNIT,
            "{full}"
        );
        let pawns = history.corrected_eval(&same_pawns, 0);
        assert!(
            pawns > 0 && pawns <= CORRECTION_LIMIT / CORRECTION_UNIT,
            "{pawns}"
        );
        let pieces = history.corrected_eval(&same_pieces, 0);
        assert!(
            pieces > 0 && pieces <= CORRECTION_LIMIT / CORRECTION_UNIT,
            "{pieces}"
        );
        assert_eq!(pawns + pieces, full);
        assert_eq!(history.corrected_eval(&neither, 5), 5);
        // The side to move has entries of its own.
        assert_eq!(history.corrected_eval(&after(&["b1c3"]), 5), 5);
        for _ in 0..200 {
            history.update_correction(&start, 10, -300);
        }
        assert!(history.corrected_eval(&same_pawns, 0) < 0);
        assert!(history.corrected_eval(&same_pieces, 0) < 0);
        history.clear();
        assert_eq!(history.corrected_eval(&start, 0), 0);
    }
}
