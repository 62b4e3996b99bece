//! The pieces whose moves are paths rather than plain leaps and slides, one file each with
//! its move walk, its attack test and the routes the legality shortcut marks, side by side:
//! the Sissa, the Sorcerer Snake, the Venator, and a file's XBetza pieces.

use crate::rules::geometry::{Geometry, Square, SquareSet};
use crate::rules::pattern::Delta;
use crate::rules::position::Position;
use crate::rules::role::{EMPTY, OFFBOARD};

pub mod sissa;
pub mod snake;
pub mod venator;
pub mod xbetza;

/// One way a path piece can go from one square to another: `first` steps along `a`, then
/// `second` steps along `b` (mailbox offsets). Every square passed must be empty; for the
/// Venator the last square of the first leg is the hop square and the one before it the
/// screen, which must be occupied.
#[derive(Copy, Clone, Debug)]
pub struct Route {
    pub a: i16,
    pub first: i32,
    pub b: i16,
    pub second: i32,
}

impl Route {
    /// `first` steps of `a` then `second` steps of `b` (as (files, ranks)) on board `g`.
    pub fn new(g: &Geometry, a: Delta, first: i32, b: Delta, second: i32) -> Route {
        Route {
            a: g.offset(a.0 as i32, a.1 as i32),
            first,
            b: g.offset(b.0 as i32, b.1 as i32),
            second,
        }
    }
}

impl Position {
    /// Whether every square of the route (the destination excluded) is empty.
    pub(crate) fn route_open(&self, from: Square, r: Route) -> bool {
        let mut sq = from;
        for _ in 0..r.first {
            sq = sq.shift(r.a);
            if self.board[sq.index()] != EMPTY {
                return false;
            }
        }
        for _ in 0..r.second {
            sq = sq.shift(r.b);
            if self.board[sq.index()] != EMPTY {
                return false;
            }
        }
        true
    }

    /// Marks the squares of a route (the destination excluded), stopping where it leaves
    /// the board: such a route can never be used, and what was marked is only a superset.
    pub(crate) fn mark_route(&self, from: Square, r: Route, set: &mut SquareSet) {
        let mut sq = from;
        for (n, step) in [(r.first, r.a), (r.second, r.b)] {
            for _ in 0..n {
                sq = sq.shift(step);
                if self.board[sq.index()] == OFFBOARD {
                    return;
                }
                set.insert(sq);
            }
        }
    }
}
