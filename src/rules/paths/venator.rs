//! The Venator (Venator Chess): an orthogonal slide to a screen, a hop over it onto an empty
//! square, then a slide on a forward diagonal.

use arrayvec::ArrayVec;

use super::Route;
use crate::rules::geometry::{Geometry, Square};
use crate::rules::pattern::{Delta, ORTHOGONAL};
use crate::rules::position::Position;
use crate::rules::role::{EMPTY, OFFBOARD};

/// The two forward diagonals of a Venator leg along orthogonal direction `d`.
pub fn venator_diagonals(d: Delta) -> [Delta; 2] {
    if d.1 == 0 {
        [(d.0, 1), (d.0, -1)]
    } else {
        [(1, d.1), (-1, d.1)]
    }
}

/// The routes by which a Venator on `from` could capture on `to`: `to - from = t*d + m*f`
/// with the orthogonal leg `d` of t >= 2 steps (screen, then hop square) and the forward
/// diagonal `f` of m >= 1 steps, the last landing on `to`.
pub fn venator_routes(g: &Geometry, from: Square, to: Square) -> ArrayVec<Route, 8> {
    let (x, y) = (g.file(to) - g.file(from), g.rank(to) - g.rank(from));
    let mut out = ArrayVec::new();
    for &d in &ORTHOGONAL {
        for f in venator_diagonals(d) {
            let (t, m) = if d.1 == 0 {
                let m = y * f.1 as i32;
                (x * d.0 as i32 - m, m)
            } else {
                let m = x * f.0 as i32;
                (y * d.1 as i32 - m, m)
            };
            if t >= 2 && m >= 1 {
                out.push(Route::new(g, d, t, f, m - 1));
            }
        }
    }
    out
}

impl Position {
    #[inline(always)]
    pub(crate) fn venator_targets(&self, from: Square, own: u8, visit: &mut impl FnMut(Square)) {
        let v = self.variant;
        for (i, &d) in v.orth.iter().enumerate() {
            let mut screen = from.shift(d);
            while self.board[screen.index()] == EMPTY {
                screen = screen.shift(d);
            }
            let hop = screen.shift(d);
            if self.board[screen.index()] == crate::rules::role::OFFBOARD
                || self.board[hop.index()] != EMPTY
            {
                continue;
            }
            for &f in &v.venator_diagonals[i] {
                self.slide_targets(hop.shift(f), f, own, visit);
            }
        }
    }

    /// Whether the Venator on `from` could capture on `to`: the first piece on an orthogonal
    /// leg is the screen, the square behind it is empty, and `to` lies on a forward diagonal
    /// from there with nothing in between.
    pub fn venator_attacks(&self, from: Square, to: Square) -> bool {
        let v = self.variant;
        let g = &v.geometry;
        let (tx, ty) = (g.file(to), g.rank(to));
        for (i, &d) in v.orth.iter().enumerate() {
            let mut screen = from.shift(d);
            while self.board[screen.index()] == EMPTY {
                screen = screen.shift(d);
            }
            let hop = screen.shift(d);
            if self.board[screen.index()] == OFFBOARD || self.board[hop.index()] != EMPTY {
                continue;
            }
            let (dx, dy) = (tx - g.file(hop), ty - g.rank(hop));
            let (ox, oy) = (ORTHOGONAL[i].0 as i32, ORTHOGONAL[i].1 as i32);
            let forward = if ox != 0 {
                dx.signum() == ox
            } else {
                dy.signum() == oy
            };
            if dx == 0 || dx.abs() != dy.abs() || !forward {
                continue;
            }
            let f = g.offset(dx.signum(), dy.signum());
            let mut sq = hop.shift(f);
            while sq != to && self.board[sq.index()] == EMPTY {
                sq = sq.shift(f);
            }
            if sq == to {
                return true;
            }
        }
        false
    }
}
