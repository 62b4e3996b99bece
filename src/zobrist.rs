//! Zobrist keys: one per (colour, role, square), side to move, castling-right set, en-passant
//! target square and hand count. Fixed seed, so hashes are the same in every run.

use std::sync::OnceLock;

use crate::geometry::{CELLS, Square};
use crate::role::{Color, ROLE_COUNT, Role};

/// Most pieces of one kind a hand may hold.
pub const MAX_HAND: usize = 32;

pub struct Keys {
    piece: Vec<u64>,
    pub side: u64,
    castling: [u64; 16],
    ep: Vec<u64>,
    hand: [[u64; MAX_HAND + 1]; 2],
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Keys {
    #[inline]
    pub fn piece(&self, color: Color, role: Role, sq: Square) -> u64 {
        self.piece[(color.index() * ROLE_COUNT + role.index()) * CELLS + sq.index()]
    }

    #[inline]
    pub fn castling(&self, rights: u8) -> u64 {
        self.castling[(rights & 15) as usize]
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

/// The process-wide key table.
pub fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut s = 0x5155_A5A5_2009_2006u64;
        let piece = (0..2 * ROLE_COUNT * CELLS)
            .map(|_| splitmix(&mut s))
            .collect();
        let side = splitmix(&mut s);
        let mut castling = [0u64; 16];
        for c in castling.iter_mut().skip(1) {
            *c = splitmix(&mut s);
        }
        let ep = (0..CELLS).map(|_| splitmix(&mut s)).collect();
        let mut hand = [[0u64; MAX_HAND + 1]; 2];
        for side_keys in hand.iter_mut() {
            for k in side_keys.iter_mut().skip(1) {
                *k = splitmix(&mut s);
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
