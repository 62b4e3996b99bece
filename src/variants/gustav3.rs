//! Gustav III's Chess: the Gustavian board with Amazons in the corners.

use crate::role::Role::*;
use crate::variant::{CastleSide, CastlingRule, EndRules, InsufficientMaterial, VariantSpec};

/// Castling on the Gustavian board: king f1-h1 with rook i1-g1, or f1-d1 with rook b1-e1.
pub(crate) const GUSTAVIAN_CASTLING: [CastlingRule; 2] = [
    CastlingRule {
        side: CastleSide::King,
        king_from: 5,
        king_to: 7,
        rook_from: 8,
        rook_to: 6,
    },
    CastlingRule {
        side: CastleSide::Queen,
        king_from: 5,
        king_to: 3,
        rook_from: 1,
        rook_to: 4,
    },
];

pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "gustav3",
        cecp_name: "gustav3",
        files: 10,
        ranks: 8,
        holes: super::gustavian_holes(),
        army: &[Pawn, Knight, Bishop, Rook, Queen, King, Amazon],
        start_fen: "arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1",
        promotions: &[Queen, Rook, Bishop, Knight, Amazon],
        pawn_reach: super::orthodox_pawn_reach(8),
        castling: &GUSTAVIAN_CASTLING,
        hand: None,
        insufficient: InsufficientMaterial::KingsOnly,
        end: EndRules::STANDARD,
        letters: &[],
    }
}
