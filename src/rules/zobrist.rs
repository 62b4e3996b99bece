//! Zobrist keys: one per (colour, role, square), side to move, castling-right set, en-passant
//! target square and hand count. Fixed seed, so hashes are the same in every run.

use std::sync::OnceLock;

use crate::rng::Rng;
use crate::rules::geometry::{CELLS, Square};
use crate::rules::role::{Color, ROLE_COUNT, Role};
use crate::rules::variant::CastlingRights;

/// Most pieces of one kind a hand may hold.
pub const MAX_HAND: usize = 32;

pub struct Keys {
    piece: Vec<u64>,
    pub side: u64,
    castling: [u64; 16],
    ep: Vec<u64>,
    hand: [[u64; MAX_HAND + 1]; 2],
}

impl Keys {
    #[inline]
    pub fn piece(&self, color: Color, role: Role, sq: Square) -> u64 {
        self.piece[(color.index() * ROLE_COUNT + role.index()) * CELLS + sq.index()]
    }

    #[inline]
    pub fn castling(&self, rights: CastlingRights) -> u64 {
        self.castling[rights.index()]
    }

    #[inline]
    pub fn ep(&self, sq: Square) -> u64 {
        self.ep[sq.index()]
    }

    #[inline]
    pub fn hand(&self, color: Color, count: u8) -> u64 {
        self.hand[color.index()][(count as usize).min(MAX_HAND)]
    }
}

/// Seeds the piece keys.
const PIECE_SEED: u64 = 0x0d1c_e5ca_11ed_5155;

/// The process-wide key table.
pub fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        // Each piece key depends on its (colour, role, square) alone, so a role added later
        // leaves every other key, and so every hash, as it was.
        let piece = (0..2 * ROLE_COUNT * CELLS)
            .map(|i| {
                let (color, rest) = (i / (ROLE_COUNT * CELLS), i % (ROLE_COUNT * CELLS));
                let (role, sq) = (rest / CELLS, rest % CELLS);
                let id = ((color as u64) << 32) | ((role as u64) << 16) | sq as u64;
                Rng::new(PIECE_SEED ^ id.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
            })
            .collect();
        let mut rng = Rng::new(0x5155_A5A5_2009_2006);
        let side = rng.next_u64();
        let mut castling = [0u64; 16];
        for c in castling.iter_mut().skip(1) {
            *c = rng.next_u64();
        }
        let ep = (0..CELLS).map(|_| rng.next_u64()).collect();
        let mut hand = [[0u64; MAX_HAND + 1]; 2];
        for side_keys in hand.iter_mut() {
            for k in side_keys.iter_mut().skip(1) {
                *k = rng.next_u64();
            }
        }
        Keys {
            piece,
            side,
            castling,
            ep,
            hand,
        }
    })
}
