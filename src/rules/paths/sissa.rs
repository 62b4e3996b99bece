//! The Sissa (Venomous): n orthogonal steps then n diagonal ones at 45 or 135 degrees, or the
//! reverse, over empty squares.

use arrayvec::ArrayVec;

use super::Route;
use crate::rules::geometry::{Geometry, Square};
use crate::rules::pattern::{DIAGONAL, ORTHOGONAL};
use crate::rules::position::Position;
use crate::rules::role::EMPTY;

/// The routes by which a Sissa on `from` reaches `to` on an empty board: n steps of one kind
/// and n of the other, so `to - from = n * (a + b)`. The last step lands on `to`.
pub fn sissa_routes(g: &Geometry, from: Square, to: Square) -> ArrayVec<Route, 8> {
    let (x, y) = (g.file(to) - g.file(from), g.rank(to) - g.rank(from));
    let mut out = ArrayVec::new();
    for (firsts, seconds) in [(&ORTHOGONAL, &DIAGONAL), (&DIAGONAL, &ORTHOGONAL)] {
        for &a in firsts.iter() {
            for &b in seconds.iter() {
                let (sx, sy) = ((a.0 + b.0) as i32, (a.1 + b.1) as i32);
                let n = if sx != 0 { x / sx } else { y / sy };
                if n >= 1 && n * sx == x && n * sy == y {
                    out.push(Route::new(g, a, n, b, n - 1));
                }
            }
        }
    }
    out
}

impl Position {
    pub(crate) fn sissa_targets(&self, from: Square, own: u8, visit: &mut impl FnMut(Square)) {
        let v = self.variant;
        // A rook square is reached by four paths and a nightrider square by two: keep one.
        let mut seen = crate::rules::geometry::SquareSet::default();
        for (firsts, seconds) in [(&v.orth, &v.diag), (&v.diag, &v.orth)] {
            for &a in firsts.iter() {
                let mut corner = from;
                let mut n = 0;
                loop {
                    corner = corner.shift(a);
                    n += 1;
                    if self.board[corner.index()] != EMPTY {
                        break;
                    }
                    'second: for &b in seconds.iter() {
                        let mut sq = corner;
                        for _ in 1..n {
                            sq = sq.shift(b);
                            if self.board[sq.index()] != EMPTY {
                                continue 'second;
                            }
                        }
                        sq = sq.shift(b);
                        if self.board[sq.index()] & own == 0 && !seen.contains(sq) {
                            seen.insert(sq);
                            visit(sq);
                        }
                    }
                }
            }
        }
    }

    /// Whether the Sissa on `from` could capture on `to`.
    pub fn sissa_attacks(&self, from: Square, to: Square) -> bool {
        sissa_routes(&self.variant.geometry, from, to)
            .into_iter()
            .any(|r| self.route_open(from, r))
    }
}
