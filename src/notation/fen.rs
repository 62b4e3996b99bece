//! X-FEN reading and writing: `*` for holes, multi-digit empty runs, holdings in brackets,
//! castling `KQkq`, and en-passant fields listing one or more target squares (`e3e4`).

use std::fmt;

use crate::rules::geometry::Square;
use crate::rules::position::Position;
use crate::rules::role::{Color, EMPTY, Piece, Role};
use crate::rules::variant::CastlingRights;
use crate::rules::variant::Variant;
use crate::rules::zobrist::MAX_HAND;

/// Why a FEN was refused. Every variant names the fault so a user can fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    MissingField(&'static str),
    ExtraFields(String),
    RankCount {
        found: usize,
        expected: u8,
    },
    RankLength {
        rank: i32,
        found: usize,
        expected: u8,
    },
    UnknownLetter {
        letter: char,
    },
    PieceOnHole {
        square: String,
    },
    HoleMismatch {
        square: String,
    },
    KingCount {
        color: Color,
        found: usize,
    },
    PawnOnEdgeRank {
        square: String,
    },
    BadSide(String),
    BadCastling(String),
    BadEnPassant(String),
    BadHoldings(String),
    BadCounter(String),
    OpponentInCheck,
    TooManyPieces,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::MissingField(what) => write!(f, "FEN has no {what} field"),
            FenError::ExtraFields(s) => write!(f, "unexpected text after the FEN: '{s}'"),
            FenError::RankCount { found, expected } => {
                write!(
                    f,
                    "FEN board has {found} ranks, this variant has {expected}"
                )
            }
            FenError::RankLength {
                rank,
                found,
                expected,
            } => write!(
                f,
                "rank {rank} of the FEN describes {found} squares, this variant has {expected} files"
            ),
            FenError::UnknownLetter { letter } => {
                write!(f, "'{letter}' is not a piece of this variant")
            }
            FenError::PieceOnHole { square } => write!(
                f,
                "{square} is a hole in this variant (write it as '*'), but the FEN puts a piece or an empty square there"
            ),
            FenError::HoleMismatch { square } => {
                write!(
                    f,
                    "the FEN marks {square} as a hole ('*'), but this variant has a square there"
                )
            }
            FenError::KingCount { color, found } => {
                write!(f, "{color} must have exactly one king, the FEN has {found}")
            }
            FenError::PawnOnEdgeRank { square } => {
                write!(
                    f,
                    "a pawn cannot stand on the first or last rank ({square})"
                )
            }
            FenError::BadSide(s) => write!(f, "side to move must be 'w' or 'b', not '{s}'"),
            FenError::BadCastling(why) => write!(f, "bad castling field: {why}"),
            FenError::BadEnPassant(why) => write!(f, "bad en-passant field: {why}"),
            FenError::BadHoldings(why) => write!(f, "bad holdings: {why}"),
            FenError::BadCounter(s) => write!(f, "move counters must be whole numbers, not '{s}'"),
            FenError::OpponentInCheck => {
                write!(
                    f,
                    "the side that is not to move is in check: the position cannot arise"
                )
            }
            FenError::TooManyPieces => write!(f, "too many pieces for one side"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// The start position of `variant` (its start FEN: checked when the variant was read).
    pub fn startpos(variant: &'static Variant) -> Position {
        Position::from_fen(variant, variant.spec.start_fen)
            .expect("start FEN of a built-in variant")
    }

    /// Reads an X-FEN of `variant`. Castling and en-passant fields may be omitted (read as
    /// `-`), and so may the two counters (read as `0 1`).
    pub fn from_fen(variant: &'static Variant, fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board_field = fields.next().ok_or(FenError::Empty)?;
        let side_field = fields
            .next()
            .ok_or(FenError::MissingField("side-to-move"))?;
        let castling_field = fields.next().unwrap_or("-");
        let ep_field = fields.next().unwrap_or("-");
        let halfmove_field = fields.next().unwrap_or("0");
        let fullmove_field = fields.next().unwrap_or("1");
        let rest: Vec<&str> = fields.collect();
        if !rest.is_empty() {
            return Err(FenError::ExtraFields(rest.join(" ")));
        }

        variant.start_board.get_or_init(|| {
            let mut start = Position::empty(variant);
            let placement = variant
                .spec
                .start_fen
                .split(['[', ' '])
                .next()
                .unwrap_or("");
            // A start position that does not read leaves the board empty: no piece unmoved.
            let _ = read_placement(&mut start, placement);
            start.board.to_vec()
        });
        let mut pos = Position::empty(variant);
        let (placement, holdings) = match board_field.find('[') {
            Some(i) => {
                let h = &board_field[i + 1..];
                let h = h.strip_suffix(']').ok_or_else(|| {
                    FenError::BadHoldings("the holdings must end with ']'".to_string())
                })?;
                (&board_field[..i], Some(h))
            }
            None => (board_field, None),
        };
        read_placement(&mut pos, placement)?;
        read_holdings(&mut pos, holdings)?;
        pos.side = match side_field {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::BadSide(s.to_string())),
        };
        read_castling(&mut pos, castling_field)?;
        read_en_passant(&mut pos, ep_field)?;
        pos.halfmove = halfmove_field
            .parse()
            .map_err(|_| FenError::BadCounter(halfmove_field.to_string()))?;
        let fullmove: u32 = fullmove_field
            .parse()
            .map_err(|_| FenError::BadCounter(fullmove_field.to_string()))?;
        pos.fullmove = fullmove.max(1);
        if pos.attacked(pos.king(pos.side.flip()), pos.side) {
            return Err(FenError::OpponentInCheck);
        }
        pos.hash = pos.compute_hash();
        pos.pawn_hash = pos.compute_pawn_hash();
        pos.nonpawn_hash = pos.compute_nonpawn_hash();
        Ok(pos)
    }

    /// The position as X-FEN (holes as `*`, holdings in brackets in variants with a hand).
    pub fn fen(&self) -> String {
        let v = self.variant;
        let g = &v.geometry;
        let mut out = String::new();
        for rank in (0..g.ranks() as i32).rev() {
            let mut empty = 0;
            for file in 0..g.files() as i32 {
                match g.square(file, rank) {
                    None => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push('*');
                    }
                    Some(sq) => match self.piece_at(sq) {
                        None => empty += 1,
                        Some(p) => {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            out.push(piece_char(v, p));
                        }
                    },
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if let Some(hand) = v.spec.hand {
            out.push('[');
            for c in Color::ALL {
                for _ in 0..self.hand(c) {
                    out.push(piece_char(v, Piece::new(c, hand.role)));
                }
            }
            out.push(']');
        }
        out.push(' ');
        out.push(self.side.char());
        out.push(' ');
        if self.castling.is_empty() {
            out.push('-');
        }
        for (color, side, ch) in CastlingRights::FEN {
            if self.castling.contains(CastlingRights::one(color, side)) {
                out.push(ch);
            }
        }
        out.push(' ');
        if self.ep.targets.is_empty() {
            out.push('-');
        }
        let mut targets = self.ep.targets.clone();
        targets.sort_by_key(|&t| g.rank(t));
        for t in targets {
            out.push_str(&g.name(t, 1).to_string());
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }
}

fn piece_char(v: &Variant, p: Piece) -> char {
    match p.color {
        Color::White => v.letter(p.role),
        Color::Black => v.letter(p.role).to_ascii_lowercase(),
    }
}

fn read_placement(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let v = pos.variant;
    let g = &v.geometry;
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != g.ranks() as usize {
        return Err(FenError::RankCount {
            found: rows.len(),
            expected: g.ranks(),
        });
    }
    let mut kings = [0usize; 2];
    for (i, row) in rows.iter().enumerate() {
        let rank = g.ranks() as i32 - 1 - i as i32;
        let mut file = 0i32;
        let name = |file: i32| format!("{}{}", (b'a' + file.clamp(0, 25) as u8) as char, rank + 1);
        let mut chars = row.chars().peekable();
        let too_long = |file: i32| FenError::RankLength {
            rank: rank + 1,
            found: file as usize,
            expected: g.files(),
        };
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d as i32;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d2 as i32;
                    chars.next();
                    if n > 64 {
                        return Err(too_long(file + n));
                    }
                }
                if n == 0 {
                    return Err(FenError::UnknownLetter { letter: '0' });
                }
                for _ in 0..n {
                    if file >= g.files() as i32 {
                        return Err(too_long(file + 1));
                    }
                    if g.is_hole(file, rank) {
                        return Err(FenError::PieceOnHole { square: name(file) });
                    }
                    file += 1;
                }
            } else if c == '*' {
                if file >= g.files() as i32 {
                    return Err(too_long(file + 1));
                }
                if !g.is_hole(file, rank) {
                    return Err(FenError::HoleMismatch { square: name(file) });
                }
                file += 1;
            } else {
                let role = v
                    .role_of_letter(c)
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or(FenError::UnknownLetter { letter: c })?;
                if file >= g.files() as i32 {
                    return Err(too_long(file + 1));
                }
                let Some(sq) = g.square(file, rank) else {
                    return Err(FenError::PieceOnHole { square: name(file) });
                };
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                if role.is_pawn_like() && (rank == 0 || rank == g.ranks() as i32 - 1) {
                    return Err(FenError::PawnOnEdgeRank { square: name(file) });
                }
                if role == Role::King {
                    kings[color.index()] += 1;
                }
                if pos.pieces[color.index()].is_full() {
                    return Err(FenError::TooManyPieces);
                }
                pos.put_piece(sq, Piece::new(color, role));
                file += 1;
            }
        }
        if file != g.files() as i32 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                found: file as usize,
                expected: g.files(),
            });
        }
    }
    for c in Color::ALL {
        if kings[c.index()] != 1 {
            return Err(FenError::KingCount {
                color: c,
                found: kings[c.index()],
            });
        }
    }
    Ok(())
}

fn read_holdings(pos: &mut Position, holdings: Option<&str>) -> Result<(), FenError> {
    let Some(text) = holdings else { return Ok(()) };
    let text = if text == "-" { "" } else { text };
    let hand = pos.variant.spec.hand;
    let mut counts = [0usize; 2];
    for c in text.chars() {
        let Some(h) = hand else {
            return Err(FenError::BadHoldings(format!(
                "{} has no pieces in hand, the FEN holds '{c}'",
                pos.variant.id()
            )));
        };
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        if c.to_ascii_uppercase() != pos.variant().letter(h.role) || !c.is_ascii_alphabetic() {
            return Err(FenError::BadHoldings(format!(
                "only {} ({}) may be held, not '{c}'",
                h.role.name(),
                pos.variant().letter(h.role)
            )));
        }
        counts[color.index()] += 1;
        if counts[color.index()] > (h.count as usize).min(MAX_HAND) {
            return Err(FenError::BadHoldings(format!(
                "{color} holds more than {}",
                h.count
            )));
        }
    }
    for c in Color::ALL {
        pos.hands[c.index()] = counts[c.index()] as u8;
    }
    Ok(())
}

fn read_castling(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let v = pos.variant;
    for ch in field.chars() {
        let Some(&(color, side, _)) = CastlingRights::FEN.iter().find(|f| f.2 == ch) else {
            return Err(FenError::BadCastling(format!(
                "'{ch}' is not one of K, Q, k, q"
            )));
        };
        let right = CastlingRights::one(color, side);
        if pos.castling.contains(right) {
            return Err(FenError::BadCastling(format!("'{ch}' is given twice")));
        }
        let rule = v.castlings[color.index()].iter().find(|c| c.side == side);
        let Some(rule) = rule else {
            return Err(FenError::BadCastling(format!(
                "{} has no castling '{ch}'",
                v.id()
            )));
        };
        let king_ok = pos.piece_at(rule.king_from) == Some(Piece::new(color, Role::King));
        let rook_ok = pos.piece_at(rule.rook_from) == Some(Piece::new(color, v.spec.castling_rook));
        if !king_ok || !rook_ok {
            let g = &v.geometry;
            return Err(FenError::BadCastling(format!(
                "right '{ch}' needs the {color} king on {} and a {color} rook on {}",
                g.name(rule.king_from, 1),
                g.name(rule.rook_from, 1)
            )));
        }
        pos.castling = pos.castling.with(right);
    }
    Ok(())
}

fn read_en_passant(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let v = pos.variant;
    let g = &v.geometry;
    let mut rest = field;
    let mut targets: Vec<Square> = Vec::new();
    while !rest.is_empty() {
        let (sq, n) = g.parse_square(rest, 1).ok_or_else(|| {
            FenError::BadEnPassant(format!("'{field}' is not a list of squares of this board"))
        })?;
        targets.push(sq);
        rest = &rest[n..];
    }
    // The side that just moved is the one not to move; its pawn went "forward" for it.
    let mover = pos.side.flip();
    let fwd = v.forward[mover.index()];
    targets.sort_by_key(|&s| g.relative_rank(s, mover == Color::White));
    let first = targets[0];
    let mut expected = first;
    for (i, &t) in targets.iter().enumerate() {
        if i > 0 {
            expected = expected.shift(fwd);
        }
        if t != expected {
            return Err(FenError::BadEnPassant(
                "the targets must be consecutive squares of one file".to_string(),
            ));
        }
        if pos.board[t.index()] != EMPTY {
            return Err(FenError::BadEnPassant(format!(
                "target {} is not empty",
                g.name(t, 1)
            )));
        }
    }
    let victim = expected.shift(fwd);
    let start = first.shift(-fwd);
    let pawn = Piece::new(mover, Role::Pawn).code();
    if !g.contains(victim) || pos.board[victim.index()] != pawn || !g.contains(start) {
        return Err(FenError::BadEnPassant(format!(
            "no {mover} pawn stands just past {} to have passed it",
            g.name(*targets.last().unwrap_or(&first), 1)
        )));
    }
    if targets.len() > crate::rules::position::MAX_EP {
        return Err(FenError::BadEnPassant("too many targets".to_string()));
    }
    for t in targets {
        if pos.ep_capturable(t, pos.side) {
            pos.ep.hashed |= 1 << pos.ep.targets.len();
        }
        pos.ep.targets.push(t);
    }
    pos.ep.victim = victim;
    Ok(())
}
