//! Venomous (Charles Daniel, 2009): 10x10, Sissa, Sorcerer Snake, Wazir- and Ferz-Knights,
//! fast pawns, five Ninja pawns in hand, flexible castling.

use crate::role::Role::*;
use crate::variant::{
    CastleSide, CastlingRule, EndRules, HandRule, InsufficientMaterial, VariantSpec,
};

const fn castle(side: CastleSide, king_to: u8, rook_to: u8) -> CastlingRule {
    let rook_from = match side {
        CastleSide::King => 9,
        CastleSide::Queen => 0,
    };
    CastlingRule {
        side,
        king_from: 5,
        king_to,
        rook_from,
        rook_to,
    }
}

/// The king goes 1-3 squares towards the j-rook or 1-4 towards the a-rook; the rook lands
/// next to it on the side of the centre.
const FLEXIBLE_CASTLING: [CastlingRule; 7] = [
    castle(CastleSide::King, 6, 5),
    castle(CastleSide::King, 7, 6),
    castle(CastleSide::King, 8, 7),
    castle(CastleSide::Queen, 4, 5),
    castle(CastleSide::Queen, 3, 4),
    castle(CastleSide::Queen, 2, 3),
    castle(CastleSide::Queen, 1, 2),
];

pub fn spec() -> VariantSpec {
    VariantSpec {
        id: "venomous",
        cecp_name: "venomous",
        files: 10,
        ranks: 10,
        holes: Vec::new(),
        army: &[
            Pawn,
            Bishop,
            Rook,
            Queen,
            King,
            WazirKnight,
            FerzKnight,
            Sissa,
            Snake,
            Ninja,
        ],
        start_fen: "rwbxqksbfr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RWBXQKSBFR[JJJJJjjjjj] w KQkq - 0 1",
        promotions: &[Queen, Rook, Bishop, WazirKnight, FerzKnight, Sissa, Snake],
        // From ranks 2-4 any distance up to rank 5; from 5 one step; from 6-8 one or two;
        // from 9 one (relative ranks, 0-based).
        pawn_reach: vec![1, 4, 4, 4, 5, 7, 8, 9, 9, 9],
        castling: &FLEXIBLE_CASTLING,
        hand: Some(HandRule {
            role: Ninja,
            count: 5,
            drop_rank: 1,
            push_to_rank: 4,
        }),
        insufficient: InsufficientMaterial::KingsOnly,
        end: EndRules::STANDARD,
        letters: &[],
    }
}
