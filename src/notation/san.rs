//! Standard Algebraic Notation for every variant, with the forms the fairy moves need.
//!
//! Written forms (see docs/tournaments.md):
//! - piece moves: letter, the fewest of from-file / from-rank / both that make the move
//!   unique, `x` for a capture, the destination, `=L` for a promotion: `Nf3`, `Rdxe4`, `S3e5`;
//! - Pawn moves: no letter, the from-file on captures: `e4`, `exd5`, `e10=S`; a Ninja pawn is
//!   a piece for notation: `Je5`, `Jxd6`, `Jf10=Q`;
//! - drops: `J@e5` (the drop with its push, on the final square);
//! - a locust capture (a file piece capturing on its way): letter, from-square, `x`, the
//!   victim's square, then `-` and the destination, or `x` if it captures there too:
//!   `Ce4xe5-e6`, `Ce4xe5xe6`;
//! - castling: `O-O` (rook on the higher file) and `O-O-O`; in a variant with several
//!   castlings on one side (Venomous) the king's destination file follows a slash:
//!   `O-O/g`, `O-O/h`, `O-O/i`, `O-O-O/e` ... `O-O-O/b`;
//! - `+` for check, `#` for checkmate.
//!
//! Squares are always written with ranks counted from 1, whatever the board.

use crate::rules::moves::{Move, MoveKind};
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::variant::CastleSide;

/// Why a SAN string could not be read as a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not SAN of this board.
    Malformed { text: String, reason: String },
    /// Well formed, but no legal move fits.
    Illegal { text: String },
    /// More than one legal move fits.
    Ambiguous { text: String },
}

impl std::fmt::Display for SanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SanError::Malformed { text, reason } => write!(f, "malformed SAN '{text}': {reason}"),
            SanError::Illegal { text } => write!(f, "no legal move is written '{text}'"),
            SanError::Ambiguous { text } => write!(f, "'{text}' fits more than one legal move"),
        }
    }
}

impl std::error::Error for SanError {}

/// The role whose moves carry a letter in SAN (every role but the Pawn).
fn lettered(role: Role) -> bool {
    role != Role::Pawn
}

/// The moving piece's role for a board move (normal or en passant).
fn mover(pos: &Position, mv: Move) -> Option<Role> {
    match mv.kind {
        MoveKind::Normal | MoveKind::EnPassant | MoveKind::Locust => {
            pos.piece_at(mv.from).map(|p| p.role)
        }
        MoveKind::Castle => Some(Role::King),
        MoveKind::Drop | MoveKind::Null => None,
    }
}

fn is_capture(pos: &Position, mv: Move) -> bool {
    match mv.kind {
        MoveKind::EnPassant => true,
        MoveKind::Normal => pos.piece_at(mv.to).is_some(),
        _ => false,
    }
}

/// The castling text without check marks.
fn castle_text(pos: &Position, mv: Move) -> String {
    let v = pos.variant();
    let list = &v.castlings[pos.side_to_move().index()];
    let c = &list[mv.extra as usize];
    let base = match c.side {
        CastleSide::King => "O-O",
        CastleSide::Queen => "O-O-O",
    };
    let same_side = list.iter().filter(|o| o.side == c.side).count();
    if same_side > 1 {
        let file = (b'a' + v.geometry.file(c.king_to) as u8) as char;
        format!("{base}/{file}")
    } else {
        base.to_string()
    }
}

/// `mv` (legal in `pos`) in SAN, with `+`/`#`.
pub fn to_san(pos: &mut Position, mv: Move) -> String {
    let mut s = san_body(pos, mv);
    pos.make(mv);
    if pos.in_check() {
        s.push(if pos.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    pos.unmake();
    s
}

fn san_body(pos: &mut Position, mv: Move) -> String {
    let g = &pos.variant().geometry;
    let sq = |s| g.name(s, 1).to_string();
    match mv.kind {
        MoveKind::Null => "--".to_string(),
        MoveKind::Drop => {
            let role = mv.drop_role().map_or('?', |r| pos.variant().letter(r));
            format!("{role}@{}", sq(mv.to))
        }
        MoveKind::Castle => castle_text(pos, mv),
        MoveKind::Locust => {
            let letter = mover(pos, mv).map_or('?', |r| pos.variant().letter(r));
            let victim = pos.locust_victim(mv).map_or("?".to_string(), sq);
            let mark = if mv.to != mv.from && pos.piece_at(mv.to).is_some() {
                'x'
            } else {
                '-'
            };
            format!("{letter}{}x{victim}{mark}{}", sq(mv.from), sq(mv.to))
        }
        MoveKind::Normal | MoveKind::EnPassant => {
            let role = mover(pos, mv).unwrap_or(Role::Pawn);
            let capture = is_capture(pos, mv);
            let mut s = String::new();
            if lettered(role) {
                s.push(pos.variant().letter(role));
                let rivals: Vec<Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|&o| {
                        o != mv
                            && o.to == mv.to
                            && o.from != mv.from
                            && matches!(o.kind, MoveKind::Normal | MoveKind::EnPassant)
                            && mover(pos, o) == Some(role)
                    })
                    .collect();
                if !rivals.is_empty() {
                    let file = g.file(mv.from);
                    let rank = g.rank(mv.from);
                    let file_unique = rivals.iter().all(|o| g.file(o.from) != file);
                    let rank_unique = rivals.iter().all(|o| g.rank(o.from) != rank);
                    let name = sq(mv.from);
                    if file_unique {
                        s.push_str(&name[..1]);
                    } else if rank_unique {
                        s.push_str(&name[1..]);
                    } else {
                        s.push_str(&name);
                    }
                }
            } else if capture {
                s.push_str(&sq(mv.from)[..1]);
            }
            if capture {
                s.push('x');
            }
            s.push_str(&sq(mv.to));
            if let Some(p) = mv.promotion_role() {
                s.push('=');
                s.push(pos.variant().letter(p));
            }
            s
        }
    }
}

/// What a SAN string for a board move says.
struct Parsed {
    role: Role,
    from_file: Option<i32>,
    from_rank: Option<i32>,
    to_file: i32,
    to_rank: i32,
    promotion: Option<Role>,
}

/// Reads SAN (the forms written by [`to_san`]; check marks, `!?` annotations, a missing or
/// extra `x`, `0` for `O` and a promotion without `=` are accepted) as a legal move of `pos`.
/// Plain `O-O` / `O-O-O` in a variant with several castlings on that side means the one that
/// moves the king two squares. As a last resort the move's UCI form (`e2e4`, `f1j1`) is read.
/// PGN's null move `--` is read where passing is legal (not in check).
pub fn parse_san(pos: &mut Position, text: &str) -> Result<Move, SanError> {
    let original = text;
    let text = text.trim_end_matches(['+', '#', '!', '?']);
    let malformed = |reason: &str| SanError::Malformed {
        text: original.to_string(),
        reason: reason.to_string(),
    };
    if text.is_empty() {
        return Err(malformed("empty move"));
    }
    if text == "--" {
        if pos.in_check() {
            return Err(malformed("a null move cannot be made while in check"));
        }
        return Ok(Move::NULL);
    }
    let legal = pos.legal_moves();
    let unique = |found: Vec<Move>| match found.len() {
        1 => Ok(found[0]),
        0 => Err(SanError::Illegal {
            text: original.to_string(),
        }),
        _ => Err(SanError::Ambiguous {
            text: original.to_string(),
        }),
    };

    let castle = text.replace('0', "O");
    if castle.starts_with("O-O") {
        let (head, file) = match castle.split_once('/') {
            Some((h, f)) => (h.to_string(), Some(f.to_string())),
            None => (castle.clone(), None),
        };
        let side = match head.as_str() {
            "O-O" => CastleSide::King,
            "O-O-O" => CastleSide::Queen,
            _ => return Err(malformed("castling is O-O or O-O-O")),
        };
        let v = pos.variant();
        let g = &v.geometry;
        let list = &v.castlings[pos.side_to_move().index()];
        let found = legal
            .iter()
            .copied()
            .filter(|m| m.kind == MoveKind::Castle)
            .filter(|m| {
                let c = &list[m.extra as usize];
                if c.side != side {
                    return false;
                }
                match &file {
                    Some(f) => f.len() == 1 && f.as_bytes()[0] == b'a' + g.file(c.king_to) as u8,
                    None => {
                        list.iter().filter(|o| o.side == side).count() == 1
                            || (g.file(c.king_to) - g.file(c.king_from)).abs() == 2
                    }
                }
            })
            .collect();
        return unique(found);
    }

    if let Some((letter, square)) = text.split_once('@') {
        let mut chars = letter.chars();
        let (Some(l), None) = (chars.next(), chars.next()) else {
            return Err(malformed("a drop is written like J@e5"));
        };
        let role = pos
            .variant()
            .role_of_letter(l)
            .ok_or_else(|| malformed("unknown piece letter"))?;
        let to = pos
            .variant()
            .geometry
            .parse_square_exact(square, 1)
            .ok_or_else(|| malformed("not a square of this board after @"))?;
        let found = legal
            .iter()
            .copied()
            .filter(|m| m.kind == MoveKind::Drop && m.to == to && m.drop_role() == Some(role))
            .collect();
        return unique(found);
    }

    for &m in &legal {
        if m.kind == MoveKind::Locust && san_body(pos, m) == text {
            return Ok(m);
        }
    }
    let parsed = match parse_board_move(pos, text) {
        Ok(p) => p,
        Err(reason) => {
            return pos.parse_move(text, 1).map_err(|_| malformed(&reason));
        }
    };
    let g = &pos.variant().geometry;
    let found: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| {
            matches!(m.kind, MoveKind::Normal | MoveKind::EnPassant)
                && mover(pos, m) == Some(parsed.role)
                && g.file(m.to) == parsed.to_file
                && g.rank(m.to) == parsed.to_rank
                && parsed.from_file.is_none_or(|f| g.file(m.from) == f)
                && parsed.from_rank.is_none_or(|r| g.rank(m.from) == r)
                && m.promotion_role() == parsed.promotion
        })
        .collect();
    if found.is_empty()
        && let Ok(m) = pos.parse_move(text, 1)
    {
        return Ok(m);
    }
    unique(found)
}

/// Splits a board move's SAN into its parts; the error is a reason.
fn parse_board_move(pos: &Position, text: &str) -> Result<Parsed, String> {
    let v = pos.variant();
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    let mut promotion = None;
    // A promotion: `=L`, or a bare upper-case letter after the destination rank.
    if let Some(&last) = bytes.last()
        && last.is_ascii_alphabetic()
        && end >= 2
    {
        let before = bytes[end - 2];
        if before == b'=' || before.is_ascii_digit() {
            let role = v
                .role_of_letter(last as char)
                .filter(|r| v.spec.promotions.contains(r))
                .ok_or("not a promotion piece of this variant")?;
            promotion = Some(role);
            end -= if before == b'=' { 2 } else { 1 };
        }
    }
    let body = &text[..end];
    let b = body.as_bytes();
    let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || b.len() < digits + 1 {
        return Err("does not end with a destination square".to_string());
    }
    let file_at = b.len() - digits - 1;
    let to_file = b[file_at].wrapping_sub(b'a') as i32;
    let to_rank: i32 = body[file_at + 1..]
        .parse::<i32>()
        .map_err(|_| "bad rank".to_string())?
        - 1;
    if v.geometry.square(to_file, to_rank).is_none() {
        return Err("the destination is not a square of this board".to_string());
    }
    let mut head = &body[..file_at];
    let mut role = Role::Pawn;
    if let Some(c) = head.chars().next()
        && c.is_ascii_uppercase()
    {
        role = v
            .role_of_letter(c)
            .ok_or("unknown piece letter in this variant")?;
        head = &head[1..];
    }
    let head: String = head
        .chars()
        .filter(|&c| c != 'x' && c != '-' && c != ':')
        .collect();
    let hb = head.as_bytes();
    let mut from_file = None;
    let mut from_rank = None;
    let mut i = 0;
    if i < hb.len() && hb[i].is_ascii_lowercase() {
        from_file = Some((hb[i] - b'a') as i32);
        i += 1;
    }
    if i < hb.len() {
        let r: i32 = head[i..]
            .parse()
            .map_err(|_| "unreadable text before the destination".to_string())?;
        from_rank = Some(r - 1);
    }
    Ok(Parsed {
        role,
        from_file,
        from_rank,
        to_file,
        to_rank,
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn pos(variant: &str, fen: Option<&str>) -> Position {
        let v = Variant::by_name(variant).expect("variant");
        match fen {
            Some(f) => Position::from_fen(v, f).expect("fen"),
            None => Position::startpos(v),
        }
    }

    /// Every legal move's SAN reads back as that move, in a few positions of each variant.
    fn round_trip(p: &mut Position, depth: u32) {
        let moves = p.legal_moves();
        for &mv in &moves {
            let san = to_san(p, mv);
            assert_eq!(parse_san(p, &san), Ok(mv), "{san} in {}", p.fen());
            if depth > 1 {
                p.make(mv);
                round_trip(p, depth - 1);
                p.unmake();
            }
        }
    }

    #[test]
    fn round_trips_in_every_variant() {
        for v in Variant::all() {
            let mut p = Position::startpos(v);
            round_trip(&mut p, 2);
        }
    }

    /// Along random games, every legal move's SAN reads back as that move and is unique.
    #[test]
    fn round_trips_along_random_games() {
        let mut rng = crate::rng::Rng::new(0x5a7);
        for v in Variant::all() {
            for _ in 0..8 {
                let mut p = Position::startpos(v);
                for _ in 0..80 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let sans: Vec<String> = moves.iter().map(|&m| to_san(&mut p, m)).collect();
                    for (i, &mv) in moves.iter().enumerate() {
                        assert_eq!(
                            parse_san(&mut p, &sans[i]),
                            Ok(mv),
                            "{} in {}",
                            sans[i],
                            p.fen()
                        );
                        assert_eq!(sans.iter().filter(|s| **s == sans[i]).count(), 1);
                    }
                    p.make(*rng.choose(&moves));
                }
            }
        }
    }

    #[test]
    fn chess_forms() {
        let mut p = pos("chess", Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
        let oo = parse_san(&mut p, "O-O").expect("O-O");
        assert_eq!(p.move_text(oo, 1), "e1g1");
        assert_eq!(to_san(&mut p, oo), "O-O");
        let ooo = parse_san(&mut p, "0-0-0").expect("0-0-0");
        assert_eq!(p.move_text(ooo, 1), "e1c1");
        let rook = parse_san(&mut p, "Rxa8+").expect("Rxa8");
        assert_eq!(to_san(&mut p, rook), "Rxa8+");
        let mut p = pos("chess", Some("7k/8/8/8/8/8/8/R5RK w - - 0 1"));
        let m = parse_san(&mut p, "Rab1").expect("Rab1");
        assert_eq!(to_san(&mut p, m), "Rab1");
        assert!(matches!(
            parse_san(&mut p, "Rb1"),
            Err(SanError::Ambiguous { .. })
        ));
        let mut p = pos("chess", Some("7k/P7/8/8/8/8/8/7K w - - 0 1"));
        let m = parse_san(&mut p, "a8=Q+").expect("a8=Q");
        assert_eq!(to_san(&mut p, m), "a8=Q+");
        assert_eq!(parse_san(&mut p, "a8Q"), Ok(m));
    }

    #[test]
    fn venomous_forms() {
        let mut p = pos(
            "venomous",
            Some("r4k3r/10/10/10/10/10/10/10/10/R4K3R[JJJJJjjjjj] w KQkq - 0 1"),
        );
        let m = parse_san(&mut p, "O-O/g").expect("O-O/g");
        assert_eq!(p.move_text(m, 1), "f1j1");
        let m = parse_san(&mut p, "O-O").expect("O-O");
        assert_eq!(p.move_text(m, 1), "f1h1");
        assert_eq!(to_san(&mut p, m), "O-O/h");
        let m = parse_san(&mut p, "O-O-O/b").expect("O-O-O/b");
        assert_eq!(p.move_text(m, 1), "f1b1");
        let m = parse_san(&mut p, "J@e5").expect("drop");
        assert_eq!(to_san(&mut p, m), "J@e5");
        let m = parse_san(&mut p, "Kg1").expect("Kg1");
        assert_eq!(p.move_text(m, 1), "f1g1");
        assert!(parse_san(&mut p, "O-O/a").is_err());
        assert!(parse_san(&mut p, "Zz9").is_err());
        assert!(parse_san(&mut p, "").is_err());
        assert!(parse_san(&mut p, "e11").is_err());
    }
}
