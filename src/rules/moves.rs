//! Moves: a compact value type. Their text forms are in [`crate::notation::uci`].

use crate::rules::geometry::Square;
use crate::rules::role::Role;

/// What kind of move a [`Move`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move or capture by a piece on the board; `extra` is the promotion role code or 0.
    Normal,
    /// A pawn capturing en passant; the captured pawn stands on the position's victim square.
    EnPassant,
    /// Castling; `from`/`to` are the king's squares and `extra` indexes the variant's
    /// castlings for the side to move.
    Castle,
    /// A file piece's move that captures a piece on its way (a locust capture, XBetza `c` on
    /// a non-final leg) and may capture on `to` too; `extra` is the victim's square as
    /// [`crate::rules::geometry::Geometry::dense_index`] (below 256 on a 16x16 board).
    Locust,
    /// A piece from the hand placed on `to` (with its push already applied); `extra` is the
    /// role code.
    Drop,
    /// Passing the turn: only for analysis and null-move pruning, never played in a game.
    Null,
}

/// A move. It is meaningful only in the position it was generated for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
    pub extra: u8,
}

impl Move {
    /// The null move.
    pub const NULL: Move = Move {
        from: Square(0),
        to: Square(0),
        kind: MoveKind::Null,
        extra: 0,
    };

    #[inline]
    pub fn normal(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Normal,
            extra: 0,
        }
    }

    #[inline]
    pub fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Normal,
            extra: role as u8,
        }
    }

    /// A locust capture of the piece on the square numbered `victim` (a dense index).
    #[inline]
    pub fn locust(from: Square, to: Square, victim: u8) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Locust,
            extra: victim,
        }
    }

    /// The role a pawn promotes to, if this is a promotion.
    #[inline]
    pub fn promotion_role(self) -> Option<Role> {
        match self.kind {
            MoveKind::Normal if self.extra != 0 => Role::from_code(self.extra),
            _ => None,
        }
    }

    /// The role dropped, if this is a drop.
    #[inline]
    pub fn drop_role(self) -> Option<Role> {
        match self.kind {
            MoveKind::Drop => Role::from_code(self.extra),
            _ => None,
        }
    }

    pub fn is_null(self) -> bool {
        self.kind == MoveKind::Null
    }
}
