//! Moves as text: UCI-style strings (`e2e4`, `e9e10s`, `J@e5`), with ranks counted from 1, or
//! from 0 for CECP on 10-rank boards; reading one checks it is legal in the position.

use crate::rules::geometry::Square;
use crate::rules::moves::{Move, MoveKind};
use crate::rules::position::Position;
use crate::rules::role::Piece;

impl Position {
    /// The move in UCI form (`e2e4`, `e9e10s`, `J@e5`, `f1h1`, one-step castling as the king
    /// onto its own rook: `f1j1`, a locust capture as its two legs, as XBoard writes it:
    /// `e4e5,e5e6`), with ranks counted from `rank_base`.
    pub fn move_text(&self, mv: Move, rank_base: i32) -> String {
        let g = &self.variant().geometry;
        let name = |sq: Square| g.name(sq, rank_base).to_string();
        match mv.kind {
            MoveKind::Null => "0000".to_string(),
            MoveKind::Drop => {
                let role = mv.drop_role().map_or('?', |r| self.variant().letter(r));
                format!("{role}@{}", name(mv.to))
            }
            MoveKind::Castle => {
                let c = &self.variant().castlings[self.side_to_move().index()][mv.extra as usize];
                let to = if (g.file(c.king_to) - g.file(c.king_from)).abs() == 1 {
                    c.rook_from
                } else {
                    c.king_to
                };
                format!("{}{}", name(mv.from), name(to))
            }
            MoveKind::Locust => {
                let victim = self.locust_victim(mv).map_or("?".to_string(), name);
                format!("{}{victim},{victim}{}", name(mv.from), name(mv.to))
            }
            MoveKind::Normal | MoveKind::EnPassant => {
                let mut s = format!("{}{}", name(mv.from), name(mv.to));
                if let Some(role) = mv.promotion_role() {
                    s.push(self.variant().letter(role).to_ascii_lowercase());
                }
                s
            }
        }
    }

    /// The other accepted spelling of a castling: the king onto its own rook (Chess960 habit).
    fn castle_rook_text(&self, mv: Move, rank_base: i32) -> Option<String> {
        if mv.kind != MoveKind::Castle {
            return None;
        }
        let g = &self.variant().geometry;
        let c = &self.variant().castlings[self.side_to_move().index()][mv.extra as usize];
        Some(format!(
            "{}{}",
            g.name(c.king_from, rank_base),
            g.name(c.rook_from, rank_base)
        ))
    }

    /// Reads a move in UCI form (ranks counted from `rank_base`) and checks it is legal here.
    /// Accepts the king-onto-own-rook form for every castling, either case for promotion and
    /// drop letters, a promotion letter after `=` or in parentheses (`e9e10=s`, `e9e10(x)`,
    /// as XBoard writes a promotion to a piece lettered x), and `0000`/`@@@@` for the null move, which is refused while the side to
    /// move is in check (passing would let the king be captured).
    pub fn parse_move(&mut self, text: &str, rank_base: i32) -> Result<Move, MoveError> {
        let promotion = plain_promotion(text.trim());
        let text = promotion.as_str();
        if text == "0000" || text == "@@@@" {
            if self.in_check() {
                return Err(MoveError::Illegal {
                    text: text.to_string(),
                    reason: "a null move cannot be made while in check".to_string(),
                });
            }
            return Ok(Move::NULL);
        }
        self.check_syntax(text, rank_base)?;
        let wanted = text.to_ascii_lowercase();
        let legal = self.legal_moves();
        for &mv in &legal {
            if self.move_text(mv, rank_base).to_ascii_lowercase() == wanted
                || self
                    .castle_rook_text(mv, rank_base)
                    .is_some_and(|t| t == wanted)
            {
                return Ok(mv);
            }
        }
        Err(self.explain_illegal(text, rank_base))
    }

    fn check_syntax(&self, text: &str, rank_base: i32) -> Result<(), MoveError> {
        let g = &self.variant().geometry;
        let malformed = |why: &str| MoveError::Malformed {
            text: text.to_string(),
            reason: why.to_string(),
        };
        if text.is_empty() {
            return Err(malformed("empty move"));
        }
        if let Some(at) = text.find('@') {
            let letter = text[..at].chars().collect::<Vec<_>>();
            if letter.len() != 1 {
                return Err(malformed("a drop is written like J@e5"));
            }
            if self.variant().role_of_letter(letter[0]).is_none() {
                return Err(malformed("unknown piece letter"));
            }
            return match g.parse_square_exact(&text[at + 1..], rank_base) {
                Some(_) => Ok(()),
                None => Err(malformed("not a square of this board after @")),
            };
        }
        if let Some((first, second)) = text.split_once(',') {
            // A locust capture: two legs, the second starting where the first ends.
            let leg = |t: &str| {
                let (a, n1) = g.parse_square(t, rank_base)?;
                let b = g.parse_square_exact(&t[n1..], rank_base)?;
                Some((a, b))
            };
            return match (leg(first), leg(second)) {
                (Some((_, via)), Some((from, _))) if via == from => Ok(()),
                (Some(_), Some(_)) => Err(malformed(
                    "the second leg of a two-leg move starts where the first ends",
                )),
                _ => Err(malformed("a two-leg move is written like e4e5,e5e6")),
            };
        }
        let Some((_, n1)) = g.parse_square(text, rank_base) else {
            return Err(malformed("does not start with a square of this board"));
        };
        let rest = &text[n1..];
        let Some((_, n2)) = g.parse_square(rest, rank_base) else {
            return Err(malformed("the second square is not a square of this board"));
        };
        match &rest[n2..] {
            "" => Ok(()),
            p if p.chars().count() == 1 => {
                let c = p.chars().next().unwrap_or(' ');
                match self.variant().role_of_letter(c) {
                    Some(r) if self.variant().spec.promotions.contains(&r) => Ok(()),
                    _ => Err(malformed("not a promotion piece of this variant")),
                }
            }
            _ => Err(malformed("unexpected text after the squares")),
        }
    }

    fn explain_illegal(&mut self, text: &str, rank_base: i32) -> MoveError {
        let g = &self.variant().geometry;
        let reason = if let Some(at) = text.find('@') {
            let hand = self.variant().spec.hand;
            match hand {
                None => "this variant has no drops".to_string(),
                Some(_) if self.hand(self.side_to_move()) == 0 => {
                    format!("{} has no piece in hand", self.side_to_move())
                }
                Some(h) => format!(
                    "a {} may only be dropped on an empty square of its own second rank, \
                     pushed over empty squares no further than the middle, without leaving the \
                     king in check (square {})",
                    h.role.name(),
                    &text[at + 1..]
                ),
            }
        } else {
            let from = g.parse_square(text, rank_base);
            match from.and_then(|(s, _)| self.piece_at(s)) {
                None => format!("no piece on {}", from.map_or(text, |(_, len)| &text[..len])),
                Some(p) if p.color != self.side_to_move() => {
                    format!(
                        "that is a {} piece and it is {} to move",
                        p.color,
                        self.side_to_move()
                    )
                }
                Some(p) => {
                    if self.pseudo_legal_text_matches(text, rank_base) {
                        "it would leave the king in check".to_string()
                    } else {
                        format!("the {} cannot move that way here", describe(p))
                    }
                }
            }
        };
        MoveError::Illegal {
            text: text.to_string(),
            reason,
        }
    }

    fn pseudo_legal_text_matches(&mut self, text: &str, rank_base: i32) -> bool {
        let wanted = text.to_ascii_lowercase();
        self.pseudo_legal_moves().into_iter().any(|mv| {
            self.move_text(mv, rank_base).to_ascii_lowercase() == wanted
                || self
                    .castle_rook_text(mv, rank_base)
                    .is_some_and(|t| t == wanted)
        })
    }
}

/// `e9e10=s` and `e9e10(s)` as `e9e10s`; any other text unchanged.
fn plain_promotion(text: &str) -> String {
    let letter = |piece: &str| {
        let mut chars = piece.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if c.is_ascii_alphabetic())
    };
    if let Some(head) = text.strip_suffix(')')
        && let Some((squares, piece)) = head.rsplit_once('(')
        && letter(piece)
    {
        return format!("{squares}{piece}");
    }
    match text.rsplit_once('=') {
        Some((squares, piece)) if letter(piece) => format!("{squares}{piece}"),
        _ => text.to_string(),
    }
}

fn describe(p: Piece) -> String {
    format!("{} {}", p.color, p.role.name())
}

/// Why a move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move string of this board at all.
    Malformed { text: String, reason: String },
    /// A well-formed move that is not legal in the position.
    Illegal { text: String, reason: String },
}

impl MoveError {
    /// The reason alone, for protocol replies that print the move separately.
    pub fn reason(&self) -> &str {
        match self {
            MoveError::Malformed { reason, .. } | MoveError::Illegal { reason, .. } => reason,
        }
    }
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Malformed { text, reason } => write!(f, "malformed move '{text}': {reason}"),
            MoveError::Illegal { text, reason } => write!(f, "illegal move '{text}': {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}
