//! A file's pieces walked from their compiled XBetza ([`crate::rules::betza`]): the walker
//! reads the position through a [`crate::rules::betza::BoardView`].

use crate::rules::betza::{BoardView, Cell};
use crate::rules::geometry::{Square, SquareSet};
use crate::rules::pattern::CustomPiece;
use crate::rules::position::Position;
use crate::rules::role::{Color, EMPTY, Role, code_role};

/// The board as the XBetza walker reads it for one side.
struct BetzaView<'a> {
    pos: &'a Position,
    own: u8,
    enemy_at: Option<(i32, i32)>,
}

impl BoardView for BetzaView<'_> {
    fn cell(&self, file: i32, rank: i32) -> Cell {
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
    /// The file piece of `role`, the view of `color` with `enemy_at` read as holding an
    /// enemy, and `from` as (file, rank).
    fn betza_walk(
        &self,
        from: Square,
        role: usize,
        color: Color,
        enemy_at: Option<Square>,
    ) -> Option<(&'static CustomPiece, BetzaView<'_>, (i32, i32))> {
        let piece = Role::from_code(role as u8).and_then(crate::rules::pattern::custom)?;
        let g = &self.variant.geometry;
        let view = BetzaView {
            pos: self,
            own: color.bit(),
            enemy_at: enemy_at.map(|s| (g.file(s), g.rank(s))),
        };
        Some((piece, view, (g.file(from), g.rank(from))))
    }

    /// The moves of the file-defined piece of `role` and `color` on `from` by its XBetza
    /// walk, each once: its target, whether it captures there, and the square of the piece
    /// it captures on its way (a locust capture), if any; `enemy_at` is a square to treat
    /// as holding an enemy piece. Kept out of line: the built-in variants never call it,
    /// and their generator stays small.
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
        let Some((piece, view, at)) = self.betza_walk(from, role, color, enemy_at) else {
            return;
        };
        let g = &self.variant.geometry;
        let unmoved = self.variant.unmoved(from, self.board[from.index()]);
        // A move the walk reaches two ways is visited once.
        let mut seen = SquareSet::default();
        let mut seen_locust: Vec<(Square, Square)> = Vec::new();
        piece.betza.visit(color, &view, at, unmoved, &mut |t| {
            let Some(to) = g.square(t.to.0, t.to.1) else {
                return false;
            };
            match t.victim.and_then(|(f, r)| g.square(f, r)) {
                None if !seen.contains(to) => {
                    seen.insert(to);
                    visit(to, t.capture, None);
                }
                Some(victim) if !seen_locust.contains(&(to, victim)) => {
                    seen_locust.push((to, victim));
                    visit(to, t.capture, Some(victim));
                }
                _ => {}
            }
            false
        });
    }

    /// Whether the file-defined piece of `by` on `from` could capture on `to`, at the end of
    /// a move or on its way. Stops at the first such move.
    #[cold]
    #[inline(never)]
    pub(crate) fn betza_attacks(&self, from: Square, to: Square, by: Color) -> bool {
        let role = code_role(self.board[from.index()]) as usize;
        let Some((piece, view, at)) = self.betza_walk(from, role, by, Some(to)) else {
            return false;
        };
        let Some(target) = view.enemy_at else {
            return false;
        };
        let unmoved = self.variant.unmoved(from, self.board[from.index()]);
        piece.betza.attacks(by, &view, at, target, unmoved)
    }
}
