//! Orthodox chess.

use crate::role::Role::*;
use crate::variant::{CastleSide, CastlingRule, EndRules, InsufficientMaterial, VariantSpec};

pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "chess",
        cecp_name: "normal",
        files: 8,
        ranks: 8,
        holes: Vec::new(),
        army: &[Pawn, Knight, Bishop, Rook, Queen, King],
        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        promotions: &[Queen, Rook, Bishop, Knight],
        pawn_reach: super::orthodox_pawn_reach(8),
        castling: &[
            CastlingRule {
                side: CastleSide::King,
                king_from: 4,
                king_to: 6,
                rook_from: 7,
                rook_to: 5,
            },
            CastlingRule {
                side: CastleSide::Queen,
                king_from: 4,
                king_to: 2,
                rook_from: 0,
                rook_to: 3,
            },
        ],
        hand: None,
        insufficient: InsufficientMaterial::Fide,
        end: EndRules::STANDARD,
        letters: &[],
    }
}
