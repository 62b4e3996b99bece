//! Venator Chess (Mats Winther, 2006): the Gustavian board with Venators in the corners.

use crate::role::Role::*;
use crate::variant::{EndRules, InsufficientMaterial, VariantSpec};

pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "venator",
        cecp_name: "venator",
        files: 10,
        ranks: 8,
        holes: super::gustavian_holes(),
        army: &[Pawn, Knight, Bishop, Rook, Queen, King, Venator],
        start_fen: "vrnbqkbnrv/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/VRNBQKBNRV w KQkq - 0 1",
        promotions: &[Queen, Rook, Bishop, Knight, Venator],
        pawn_reach: super::orthodox_pawn_reach(8),
        castling: &super::gustav3::GUSTAVIAN_CASTLING,
        hand: None,
        insufficient: InsufficientMaterial::KingsOnly,
        end: EndRules::STANDARD,
        letters: &[],
    }
}
