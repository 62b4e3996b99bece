//! A file's pieces walked from their compiled XBetza ([`crate::rules::betza`]): the walker
//! reads the position through a [`crate::rules::betza::BoardView`].

use crate::rules::geometry::Square;
use crate::rules::position::Position;
use crate::rules::role::{Color, EMPTY, Role, code_role};

/// The board as the XBetza walker reads it for one side.
struct BetzaView<'a> {
    pos: &'a Position,
    own: u8,
    enemy_at: Option<(i32, i32)>,
}

impl crate::rules::betza::BoardView for BetzaView<'_> {
    fn cell(&self, file: i32, rank: i32) -> crate::rules::betza::Cell {
        use crate::rules::betza::Cell;
        if self.enemy_at == Some((file, rank)) {
            return Cell::Enemy;
        }
        match self.pos.variant.geometry.square(file, rank) {
            None => Cell::Off,
            Some(sq) => match self.pos.board[sq.index()] {
                EMPTY => Cell::Empty,
                c if c & self.own != 0 => Cell::Own,
                _ => Cell::Enemy,
            },
        }
    }
}

impl Position {
    /// The moves of the file-defined piece of `role` and `color` on `from` by its XBetza
    /// walk: each target, whether the move captures there, and the square of the piece it
    /// captures on its way (a locust capture), if any; `enemy_at` is a square to treat as
    /// holding an enemy piece (an attack test asks about squares that may be empty). Kept out of line:
    /// the built-in variants never call it, and their generator stays small.
    #[cold]
    #[inline(never)]
    pub(crate) fn betza_targets(
        &self,
        from: Square,
        role: usize,
        color: Color,
        enemy_at: Option<Square>,
        visit: &mut dyn FnMut(Square, bool, Option<Square>),
    ) {
        let Some(piece) = Role::from_code(role as u8).and_then(crate::rules::pattern::custom)
        else {
            return;
        };
        let g = &self.variant.geometry;
        let view = BetzaView {
            pos: self,
            own: color.bit(),
            enemy_at: enemy_at.map(|s| (g.file(s), g.rank(s))),
        };
        let at = (g.file(from), g.rank(from));
        let unmoved = self.variant.unmoved(from, self.board[from.index()]);
        for t in piece.betza.targets(color, &view, at, unmoved) {
            let Some(to) = g.square(t.to.0, t.to.1) else {
                continue;
            };
            match t.victim {
                None => visit(to, t.capture, None),
                Some((file, rank)) => {
                    if let Some(victim) = g.square(file, rank) {
                        visit(to, t.capture, Some(victim));
                    }
                }
            }
        }
    }

    /// Whether the file-defined piece of `by` on `from` could capture on `to`, at the end of
    /// a move or on its way.
    #[cold]
    #[inline(never)]
    pub(crate) fn betza_attacks(&self, from: Square, to: Square, by: Color) -> bool {
        let role = code_role(self.board[from.index()]) as usize;
        let mut hit = false;
        self.betza_targets(from, role, by, Some(to), &mut |sq, capture, victim| {
            hit |= (capture && sq == to) || victim == Some(to);
        });
        hit
    }
}
