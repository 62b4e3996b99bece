//! The network's inputs: one feature a (relative colour, role, square) of the variant's
//! board, seen from each side, plus the pieces in hand.
//!
//! From White's side a square is its index in [`crate::rules::geometry::Geometry::squares`]; from
//! Black's the board is mirrored rank for rank first (every board Sissa plays is symmetric
//! that way), so that one set of weights serves both sides. Holes have no feature. A side's
//! hand of n pieces sets the first n of its [`Layout::hand_slots`] hand features (a count in
//! unary, so that a drop clears just one feature).

use crate::rules::geometry::Square;
use crate::rules::role::{Color, Piece, ROLE_COUNT};
use crate::rules::variant::Variant;

/// The feature layout of one variant.
#[derive(Clone, Debug)]
pub struct Layout {
    pub variant: &'static Variant,
    /// Real squares of the board.
    pub squares: usize,
    /// The slot of each role of the army (by role code); `u8::MAX` for roles not in it.
    role_slot: [u8; ROLE_COUNT],
    /// Roles in the army.
    pub roles: usize,
    /// Hand features per side (the most pieces a hand holds).
    pub hand_slots: usize,
    /// Per mailbox cell: (index from White's side, index from Black's side).
    square_index: Vec<(u16, u16)>,
    /// Pieces of the start position, on the board and in hand: the most a game holds.
    pub start_pieces: usize,
}

impl Layout {
    pub fn new(variant: &'static Variant) -> Layout {
        let g = &variant.geometry;
        let mut role_slot = [u8::MAX; ROLE_COUNT];
        for (k, r) in variant.spec.army.iter().enumerate() {
            role_slot[r.index()] = k as u8;
        }
        let ordinal = |sq: Square| g.squares().iter().position(|&s| s == sq);
        let cells = g.squares().iter().map(|s| s.index()).max().unwrap_or(0) + 1;
        let mut square_index = vec![(u16::MAX, u16::MAX); cells];
        for (i, &sq) in g.squares().iter().enumerate() {
            let mirror = g
                .square(g.file(sq), g.ranks() as i32 - 1 - g.rank(sq))
                .and_then(ordinal)
                .unwrap_or(i);
            square_index[sq.index()] = (i as u16, mirror as u16);
        }
        let start = crate::rules::position::Position::startpos(variant);
        Layout {
            variant,
            start_pieces: Layout::pieces_of(&start),
            squares: g.square_count(),
            role_slot,
            roles: variant.spec.army.len(),
            hand_slots: variant.spec.hand.map_or(0, |h| h.count as usize),
            square_index,
        }
    }

    /// Features of one side.
    pub fn count(&self) -> usize {
        2 * self.roles * self.squares + 2 * self.hand_slots
    }

    /// The feature of `piece` on `sq` as seen from `side`.
    #[inline]
    pub fn piece(&self, side: Color, piece: Piece, sq: Square) -> usize {
        let (w, b) = self.square_index[sq.index()];
        let s = if side == Color::White { w } else { b } as usize;
        let own = usize::from(piece.color != side);
        let slot = self.role_slot[piece.role.index()] as usize;
        (own * self.roles + slot) * self.squares + s
    }

    /// The feature of the `n`-th piece (from 0) in `owner`'s hand as seen from `side`.
    #[inline]
    pub fn hand(&self, side: Color, owner: Color, n: usize) -> usize {
        let own = usize::from(owner != side);
        2 * self.roles * self.squares + own * self.hand_slots + n
    }

    /// The same as [`Layout::piece`] from a square's index in the variant's square list.
    pub fn piece_at_index(&self, side: Color, piece: Piece, index: usize) -> usize {
        let sq = self.variant.geometry.squares()[index];
        self.piece(side, piece, sq)
    }

    /// Features of one side in training: [`Layout::count`] plus one factor feature per (own
    /// or enemy, role), active with every feature of that piece kind whatever its square.
    /// Their weights are learnt from every position with such a piece and are added to the
    /// square features' rows when the network is exported, so play never sees them.
    pub fn training_count(&self) -> usize {
        self.count() + 2 * self.roles
    }

    /// The factor feature of `piece` from `side`'s view (see [`Layout::training_count`]).
    #[inline]
    pub fn factor(&self, side: Color, piece: Piece) -> usize {
        let own = usize::from(piece.color != side);
        self.count() + own * self.roles + self.role_slot[piece.role.index()] as usize
    }

    /// The factor feature a square feature folds into, if it is a square feature.
    pub fn factor_of(&self, feature: usize) -> Option<usize> {
        (feature < 2 * self.roles * self.squares).then(|| self.count() + feature / self.squares)
    }

    /// Each real square's index in the variant's square list mapped to the index of its
    /// mirror image across the board's vertical centre line (file a to the last file), or
    /// `None` when a square's image is a hole (the board is not left-right symmetric).
    pub fn file_mirror(&self) -> Option<Vec<u16>> {
        let g = &self.variant.geometry;
        g.squares()
            .iter()
            .map(|&sq| {
                let image = g.square(g.files() as i32 - 1 - g.file(sq), g.rank(sq))?;
                Some(self.square_index[image.index()].0)
            })
            .collect()
    }

    /// Pieces of `pos` on the board and in hand.
    pub fn pieces_of(pos: &crate::rules::position::Position) -> usize {
        Color::ALL
            .iter()
            .map(|&c| pos.pieces(c).len() + pos.hand(c) as usize)
            .sum()
    }

    /// The output bucket of a position with `pieces` pieces (on the board and in hand) out
    /// of `buckets`: the start position's count split into equal shares, the fullest boards
    /// in the last bucket (in chess with 8 buckets, 1-4 pieces in bucket 0, ..., 29-32 in 7).
    #[inline]
    pub fn bucket(&self, pieces: usize, buckets: usize) -> usize {
        (pieces.saturating_sub(1) * buckets / self.start_pieces.max(1)).min(buckets - 1)
    }

    /// Whether `piece` has a feature (its role is in the army).
    pub fn knows(&self, piece: Piece) -> bool {
        self.role_slot[piece.role.index()] != u8::MAX
    }
}
