//! The position: a mailbox board plus side to move, castling rights, en-passant targets,
//! hands, clocks, an incrementally kept Zobrist hash and the history that `unmake` and
//! repetition detection read.

use std::cell::Cell;

use arrayvec::ArrayVec;

use crate::rules::geometry::{CELLS, Square};
use crate::rules::moves::{Move, MoveKind};
use crate::rules::role::{COLOR_BITS, Color, EMPTY, OFFBOARD, Piece, ROLE_COUNT, Role, code_role};
use crate::rules::variant::CastlingRights;
use crate::rules::variant::Variant;
use crate::rules::zobrist::keys;

/// Most pieces one side may have on the board.
pub const MAX_PIECES: usize = 64;
/// Most en-passant targets one pawn move can leave.
pub const MAX_EP: usize = 4;

/// The squares a pawn passed over on its last move, which an enemy Pawn may capture onto,
/// and the square of that pawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnPassant {
    pub targets: ArrayVec<Square, MAX_EP>,
    pub victim: Square,
    /// Which targets an enemy Pawn attacks: only those are in the hash, so that repetition
    /// compares en-passant possibilities, not mere double steps (FIDE 9.2.2).
    pub(crate) hashed: u8,
}

impl EnPassant {
    /// The targets that are part of the hash.
    fn hashed_targets(&self) -> impl Iterator<Item = Square> + '_ {
        self.targets
            .iter()
            .enumerate()
            .filter(|(i, _)| self.hashed & (1 << i) != 0)
            .map(|(_, &t)| t)
    }
}

/// What `unmake` needs to restore, kept per move played.
#[derive(Clone, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    /// The code of the piece that moved (tells a promoted Pawn from a promoted Ninja).
    pub moved: u8,
    pub captured: u8,
    pub captured_slot: u8,
    /// The piece a locust capture took on its way, and its list slot.
    pub locust: u8,
    pub locust_slot: u8,
    pub castling: CastlingRights,
    pub ep: EnPassant,
    pub halfmove: u32,
    pub fullmove: u32,
    pub reversible: u32,
    pub hash: u64,
    pub pawn_hash: u64,
    pub nonpawn_hash: [u64; 2],
    /// The position's [`Position::check_memo`] before the move.
    pub check_memo: Option<(u64, bool)>,
}

/// A position of one variant.
#[derive(Clone)]
pub struct Position {
    pub(crate) variant: &'static Variant,
    pub(crate) board: [u8; CELLS],
    pub(crate) side: Color,
    /// Bits: White K, White Q, Black K, Black Q.
    pub(crate) castling: CastlingRights,
    pub(crate) ep: EnPassant,
    pub(crate) halfmove: u32,
    /// Plies since the last move that can never be undone by later moves (capture, pawn
    /// advance, drop, promotion, loss of a castling right): the window repetitions are
    /// looked for in. Not the 50-move counter: a Ninja pawn's sideways step resets that, yet
    /// can be reversed.
    pub(crate) reversible: u32,
    pub(crate) fullmove: u32,
    pub(crate) hands: [u8; 2],
    pub(crate) kings: [Square; 2],
    pub(crate) pieces: [ArrayVec<Square, MAX_PIECES>; 2],
    pub(crate) slot: [u8; CELLS],
    pub(crate) counts: [[u8; ROLE_COUNT]; 2],
    pub(crate) hash: u64,
    /// The Zobrist hash of the pawns (every pawn-like role) and the hands: the pawn
    /// structure, for the search's correction history.
    pub(crate) pawn_hash: u64,
    /// Per colour, the Zobrist hash of its pieces other than pawns (king included): the
    /// piece placement of one side, for the search's correction history.
    pub(crate) nonpawn_hash: [u64; 2],
    pub(crate) history: Vec<Undo>,
    /// The last answer of [`Position::in_check`] and the hash of the position it was for: a
    /// search asks it several times a node (the parent after its move, the node itself, the
    /// move generator), and `unmake` puts back the parent's. Kept by the hash, so no change
    /// to the position can leave a stale answer (but a 64-bit hash collision).
    pub(crate) check_memo: Cell<Option<(u64, bool)>>,
}

impl Position {
    /// An empty board of `variant` (every real square empty, holes marked): the starting
    /// point of FEN parsing.
    pub(crate) fn empty(variant: &'static Variant) -> Position {
        let mut board = [OFFBOARD; CELLS];
        for &sq in variant.geometry.squares() {
            board[sq.index()] = EMPTY;
        }
        Position {
            variant,
            board,
            side: Color::White,
            castling: CastlingRights::NONE,
            ep: EnPassant::default(),
            halfmove: 0,
            reversible: 0,
            fullmove: 1,
            hands: [0; 2],
            kings: [Square(0); 2],
            pieces: [ArrayVec::new(), ArrayVec::new()],
            slot: [0; CELLS],
            counts: [[0; ROLE_COUNT]; 2],
            hash: 0,
            pawn_hash: 0,
            nonpawn_hash: [0; 2],
            history: Vec::new(),
            check_memo: Cell::new(None),
        }
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any (`None` also for holes and squares off the board).
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(*self.board.get(sq.index())?)
    }

    /// The square of `color`'s king.
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Pieces of `color` in hand (Ninja pawns; 0 in variants without drops).
    pub fn hand(&self, color: Color) -> u8 {
        self.hands[color.index()]
    }

    /// How many pieces of `role` `color` has on the board.
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role.index()]
    }

    /// The squares of `color`'s pieces, in no particular order.
    pub fn pieces(&self, color: Color) -> &[Square] {
        &self.pieces[color.index()]
    }

    /// Both sides' castling rights.
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    pub fn en_passant(&self) -> &EnPassant {
        &self.ep
    }

    /// Plies since the last capture, pawn move or drop.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist hash (pieces, side, castling rights, en-passant targets, hands).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash of the pawn structure and the hands, kept with every move.
    pub fn pawn_hash(&self) -> u64 {
        self.pawn_hash
    }

    /// The hash of `color`'s pieces other than pawns (king included), kept with every move.
    pub fn nonpawn_hash(&self, color: Color) -> u64 {
        self.nonpawn_hash[color.index()]
    }

    /// The non-pawn hashes of both colours computed from scratch; equal to
    /// [`Position::nonpawn_hash`]'s unless there is a bug.
    pub fn compute_nonpawn_hash(&self) -> [u64; 2] {
        let k = keys();
        let mut h = [0; 2];
        for &sq in self.variant.geometry.squares() {
            if let Some(p) = self.piece_at(sq).filter(|p| !p.role.is_pawn_like()) {
                h[p.color.index()] ^= k.piece(p.color, p.role, sq);
            }
        }
        h
    }

    /// The pawn hash computed from scratch; equals [`Position::pawn_hash`] unless there is
    /// a bug.
    pub fn compute_pawn_hash(&self) -> u64 {
        let k = keys();
        let mut h = 0;
        for &sq in self.variant.geometry.squares() {
            if let Some(p) = self.piece_at(sq).filter(|p| p.role.is_pawn_like()) {
                h ^= k.piece(p.color, p.role, sq);
            }
        }
        for c in Color::ALL {
            h ^= k.hand(c, self.hands[c.index()]);
        }
        h
    }

    /// Number of moves made since the position was set up.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The moves made since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The hash computed from scratch; equals [`Position::hash`] unless there is a bug.
    pub fn compute_hash(&self) -> u64 {
        let k = keys();
        let mut h = 0;
        for &sq in self.variant.geometry.squares() {
            if let Some(p) = self.piece_at(sq) {
                h ^= k.piece(p.color, p.role, sq);
            }
        }
        if self.side == Color::Black {
            h ^= k.side;
        }
        h ^= k.castling(self.castling);
        for &t in self
            .ep
            .targets
            .iter()
            .filter(|&&t| self.ep_capturable(t, self.side))
        {
            h ^= k.ep(t);
        }
        for c in Color::ALL {
            h ^= k.hand(c, self.hands[c.index()]);
        }
        h
    }

    pub(crate) fn put_piece(&mut self, sq: Square, piece: Piece) {
        let c = piece.color.index();
        self.board[sq.index()] = piece.code();
        self.slot[sq.index()] = self.pieces[c].len() as u8;
        self.pieces[c].push(sq);
        self.counts[c][piece.role.index()] += 1;
        self.hash_piece(
            piece.color,
            piece.role,
            keys().piece(piece.color, piece.role, sq),
        );
        if piece.role == Role::King {
            self.kings[c] = sq;
        }
    }

    /// Takes the piece off `sq`; returns its list slot so `restore_piece` can put it back in
    /// the same place (keeping move order, and so search, deterministic).
    fn remove_piece(&mut self, sq: Square) -> u8 {
        let code = self.board[sq.index()];
        let p = Piece::from_code(code).expect("piece to remove");
        let c = p.color.index();
        let slot = self.slot[sq.index()];
        let last = self.pieces[c].pop().expect("piece list entry");
        if (slot as usize) < self.pieces[c].len() {
            self.pieces[c][slot as usize] = last;
            self.slot[last.index()] = slot;
        }
        self.board[sq.index()] = EMPTY;
        self.counts[c][p.role.index()] -= 1;
        self.hash_piece(p.color, p.role, keys().piece(p.color, p.role, sq));
        slot
    }

    fn restore_piece(&mut self, sq: Square, code: u8, slot: u8) {
        let p = Piece::from_code(code).expect("piece to restore");
        let c = p.color.index();
        let list = &mut self.pieces[c];
        if (slot as usize) < list.len() {
            let moved = list[slot as usize];
            list.push(moved);
            self.slot[moved.index()] = (list.len() - 1) as u8;
            list[slot as usize] = sq;
        } else {
            list.push(sq);
        }
        self.slot[sq.index()] = slot;
        self.board[sq.index()] = code;
        self.counts[c][p.role.index()] += 1;
    }

    /// Moves the piece on `from` to the empty square `to` (board, list, hash).
    fn shift_piece(&mut self, from: Square, to: Square) {
        let code = self.board[from.index()];
        let p = Piece::from_code(code).expect("piece to move");
        self.board[from.index()] = EMPTY;
        self.board[to.index()] = code;
        let slot = self.slot[from.index()];
        self.slot[to.index()] = slot;
        self.pieces[p.color.index()][slot as usize] = to;
        let k = keys();
        self.hash_piece(
            p.color,
            p.role,
            k.piece(p.color, p.role, from) ^ k.piece(p.color, p.role, to),
        );
        if p.role == Role::King {
            self.kings[p.color.index()] = to;
        }
    }

    fn set_role(&mut self, sq: Square, role: Role) {
        let code = self.board[sq.index()];
        let p = Piece::from_code(code).expect("piece to promote");
        let c = p.color.index();
        self.counts[c][p.role.index()] -= 1;
        self.counts[c][role.index()] += 1;
        self.board[sq.index()] = p.color.bit() | role as u8;
        let k = keys();
        self.hash_piece(p.color, p.role, k.piece(p.color, p.role, sq));
        self.hash_piece(p.color, role, k.piece(p.color, role, sq));
    }

    /// Toggles a piece key of `color`'s `role` in the hash, and in the pawn hash when the
    /// role is a pawn, else in the colour's non-pawn hash.
    fn hash_piece(&mut self, color: Color, role: Role, key: u64) {
        self.hash ^= key;
        if role.is_pawn_like() {
            self.pawn_hash ^= key;
        } else {
            self.nonpawn_hash[color.index()] ^= key;
        }
    }

    /// The square of the piece a locust capture takes on its way.
    pub fn locust_victim(&self, mv: Move) -> Option<Square> {
        match mv.kind {
            MoveKind::Locust => self.variant.geometry.from_dense(mv.extra as usize),
            _ => None,
        }
    }

    fn locust_square(&self, mv: Move) -> Square {
        self.locust_victim(mv)
            .expect("a locust move's victim square")
    }

    /// Plays `mv`, which must be legal here (or a null move).
    pub fn make(&mut self, mv: Move) {
        let k = keys();
        let us = self.side;
        let mut undo = Undo {
            mv,
            moved: if matches!(mv.kind, MoveKind::Normal | MoveKind::Locust) {
                self.board[mv.from.index()]
            } else {
                EMPTY
            },
            captured: EMPTY,
            captured_slot: 0,
            locust: EMPTY,
            locust_slot: 0,
            castling: self.castling,
            ep: std::mem::take(&mut self.ep),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            reversible: self.reversible,
            hash: self.hash,
            pawn_hash: self.pawn_hash,
            nonpawn_hash: self.nonpawn_hash,
            check_memo: self.check_memo.get(),
        };
        for t in undo.ep.hashed_targets() {
            self.hash ^= k.ep(t);
        }
        self.halfmove = self.halfmove.saturating_add(1);
        match mv.kind {
            MoveKind::Normal => {
                let moving = self.board[mv.from.index()];
                let captured = self.board[mv.to.index()];
                if captured != EMPTY {
                    undo.captured = captured;
                    undo.captured_slot = self.remove_piece(mv.to);
                    self.halfmove = 0;
                }
                self.shift_piece(mv.from, mv.to);
                let role = code_role(moving);
                if role == Role::Pawn as u8 || role == Role::Ninja as u8 {
                    self.halfmove = 0;
                    if let Some(promo) = mv.promotion_role() {
                        self.set_role(mv.to, promo);
                    } else if role == Role::Pawn as u8 {
                        self.note_en_passant(mv.from, mv.to);
                    }
                }
                let clear = self.variant.castle_clear[mv.from.index()]
                    .with(self.variant.castle_clear[mv.to.index()]);
                self.set_castling(self.castling.without(clear));
            }
            MoveKind::EnPassant => {
                let victim = undo.ep.victim;
                undo.captured = self.board[victim.index()];
                undo.captured_slot = self.remove_piece(victim);
                self.shift_piece(mv.from, mv.to);
                self.halfmove = 0;
            }
            MoveKind::Locust => {
                let victim = self.locust_square(mv);
                undo.locust = self.board[victim.index()];
                undo.locust_slot = self.remove_piece(victim);
                // A piece that returns to its start square captures nothing there.
                let captured = self.board[mv.to.index()];
                if captured != EMPTY && mv.to != mv.from {
                    undo.captured = captured;
                    undo.captured_slot = self.remove_piece(mv.to);
                }
                self.shift_piece(mv.from, mv.to);
                self.halfmove = 0;
                let clear = self.variant.castle_clear[mv.from.index()]
                    .with(self.variant.castle_clear[mv.to.index()])
                    .with(self.variant.castle_clear[victim.index()]);
                self.set_castling(self.castling.without(clear));
            }
            MoveKind::Castle => {
                let c = &self.variant.castlings[us.index()][mv.extra as usize];
                self.castle_pieces(c.king_from, c.rook_from, c.king_to, c.rook_to);
                self.set_castling(self.castling.without(CastlingRights::both(us)));
            }
            MoveKind::Drop => {
                let role = mv.drop_role().expect("drop role");
                self.set_hand(us, self.hands[us.index()] - 1);
                self.put_piece(mv.to, Piece::new(us, role));
                self.halfmove = 0;
            }
            MoveKind::Null => {}
        }
        let sideways_step = mv.kind == MoveKind::Normal
            && undo.captured == EMPTY
            && self.variant.geometry.rank(mv.from) == self.variant.geometry.rank(mv.to);
        let irreversible = match mv.kind {
            MoveKind::Normal => {
                undo.captured != EMPTY
                    || self.castling != undo.castling
                    || (Role::from_code(code_role(undo.moved)).is_some_and(Role::is_pawn_like)
                        && !sideways_step)
            }
            MoveKind::EnPassant | MoveKind::Locust | MoveKind::Castle | MoveKind::Drop => true,
            MoveKind::Null => false,
        };
        self.reversible = if irreversible {
            0
        } else {
            self.reversible.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = us.flip();
        self.hash ^= k.side;
        self.history.push(undo);
    }

    /// Takes back the last move made.
    pub fn unmake(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        let mv = undo.mv;
        self.side = self.side.flip();
        let us = self.side;
        match mv.kind {
            MoveKind::Normal => {
                if mv.promotion_role().is_some() {
                    let pawn = Role::from_code(code_role(undo.moved)).expect("promoted pawn");
                    self.set_role(mv.to, pawn);
                }
                self.shift_piece(mv.to, mv.from);
                if undo.captured != EMPTY {
                    self.restore_piece(mv.to, undo.captured, undo.captured_slot);
                }
            }
            MoveKind::EnPassant => {
                self.shift_piece(mv.to, mv.from);
                self.restore_piece(undo.ep.victim, undo.captured, undo.captured_slot);
            }
            MoveKind::Locust => {
                self.shift_piece(mv.to, mv.from);
                if undo.captured != EMPTY {
                    self.restore_piece(mv.to, undo.captured, undo.captured_slot);
                }
                let victim = self.locust_square(mv);
                self.restore_piece(victim, undo.locust, undo.locust_slot);
            }
            MoveKind::Castle => {
                let c = &self.variant.castlings[us.index()][mv.extra as usize];
                self.castle_pieces(c.king_to, c.rook_to, c.king_from, c.rook_from);
            }
            MoveKind::Drop => {
                self.remove_piece(mv.to);
                self.hands[us.index()] += 1;
            }
            MoveKind::Null => {}
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.reversible = undo.reversible;
        self.fullmove = undo.fullmove;
        self.hash = undo.hash;
        self.pawn_hash = undo.pawn_hash;
        self.nonpawn_hash = undo.nonpawn_hash;
        self.check_memo.set(undo.check_memo);
    }

    fn castle_pieces(
        &mut self,
        king_from: Square,
        rook_from: Square,
        king_to: Square,
        rook_to: Square,
    ) {
        let us = self.side;
        let king_slot = self.slot[king_from.index()];
        let rook_slot = self.slot[rook_from.index()];
        let rook_code = self.board[rook_from.index()];
        let k = keys();
        self.board[king_from.index()] = EMPTY;
        self.board[rook_from.index()] = EMPTY;
        self.board[king_to.index()] = Piece::new(us, Role::King).code();
        self.board[rook_to.index()] = rook_code;
        self.slot[king_to.index()] = king_slot;
        self.slot[rook_to.index()] = rook_slot;
        self.pieces[us.index()][king_slot as usize] = king_to;
        self.pieces[us.index()][rook_slot as usize] = rook_to;
        self.kings[us.index()] = king_to;
        let rook_role = Role::from_code(code_role(rook_code)).expect("castling rook");
        self.hash_piece(
            us,
            Role::King,
            k.piece(us, Role::King, king_from) ^ k.piece(us, Role::King, king_to),
        );
        self.hash_piece(
            us,
            rook_role,
            k.piece(us, rook_role, rook_from) ^ k.piece(us, rook_role, rook_to),
        );
    }

    fn set_castling(&mut self, rights: CastlingRights) {
        let k = keys();
        self.hash ^= k.castling(self.castling) ^ k.castling(rights);
        self.castling = rights;
    }

    pub(crate) fn set_hand(&mut self, color: Color, count: u8) {
        let k = keys();
        let c = color.index();
        let key = k.hand(color, self.hands[c]) ^ k.hand(color, count);
        self.hash ^= key;
        self.pawn_hash ^= key;
        self.hands[c] = count;
    }

    /// A Pawn move of two or more squares makes every square it passed an en-passant target.
    fn note_en_passant(&mut self, from: Square, to: Square) {
        let g = &self.variant.geometry;
        let fwd = self.variant.forward[self.side.index()];
        let mut sq = from.shift(fwd);
        if sq == to || g.file(from) != g.file(to) {
            return;
        }
        let k = keys();
        while sq != to {
            if self.ep_capturable(sq, self.side.flip()) {
                self.ep.hashed |= 1 << self.ep.targets.len();
                self.hash ^= k.ep(sq);
            }
            self.ep.targets.push(sq);
            sq = sq.shift(fwd);
        }
        self.ep.victim = to;
    }

    /// Whether a Pawn of `capturer` stands where it could capture onto the en-passant
    /// target `t`.
    pub(crate) fn ep_capturable(&self, t: Square, capturer: Color) -> bool {
        let back = self.variant.forward[capturer.flip().index()];
        let pawn = Piece::new(capturer, Role::Pawn).code();
        self.board[t.shift(back + 1).index()] == pawn
            || self.board[t.shift(back - 1).index()] == pawn
    }

    /// Whether `sq` holds a piece of `color`.
    #[inline]
    pub(crate) fn is_color(&self, sq: Square, color: Color) -> bool {
        self.board[sq.index()] & COLOR_BITS == color.bit()
    }
}

/// For tests: plays a game of up to `plies` uniformly random legal moves from the variant's
/// start, calling `visit` with the position and the ply number after each move; stops early
/// at a position without a legal move.
#[cfg(test)]
pub fn random_game(
    v: &'static Variant,
    rng: &mut crate::rng::Rng,
    plies: usize,
    mut visit: impl FnMut(&Position, usize),
) {
    let mut pos = Position::startpos(v);
    for ply in 1..=plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make(moves[rng.below(moves.len())]);
        visit(&pos, ply);
    }
}
