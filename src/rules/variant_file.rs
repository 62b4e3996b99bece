//! Variants from text files: an INI dialect close to Fairy-Stockfish's `variants.ini`. One
//! file may hold many variants; a section `[name:parent]` inherits every key of `parent` (a
//! built-in variant or another section of the file, in any order) and overrides some.
//!
//! ```text
//! # a comment
//! [venator8:venator]
//! board = 8x8
//! holes = -
//! pieces = PNBRQKV
//! start = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//! castling = e1g1/h1f1 e1c1/a1d1
//! ```
//!
//! Keys (docs/variants.md has the reference): `board`, `holes`, `pieces`, `start`,
//! `promotion`, `pawn-reach`, `castling`, `hand`, `insufficient`, `cecp`. Pieces are the
//! built-in ones, by letter; pieces defined in XBetza come with the generator that walks
//! them. Every error names the file, the line and the fault; nothing is registered from a
//! file with an error.
//!
//! A loaded variant lives as long as the program (it is leaked once), like the built-in ones.

use std::collections::HashMap;
use std::fmt;
use std::sync::RwLock;

use crate::rules::geometry::{Geometry, MAX_SIDE};
use crate::rules::role::Role;
use crate::rules::variant::{
    CastleSide, CastlingRule, EndRules, HandRule, InsufficientMaterial, StalemateResult, Variant,
    VariantSpec, letter_in,
};
use crate::rules::zobrist::MAX_HAND;

/// A fault in a variant file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub file: String,
    /// 1-based; 0 when the fault is the file's as a whole.
    pub line: usize,
    pub fault: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.fault)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.fault)
        }
    }
}

impl std::error::Error for FileError {}

/// One section as written: its name, parent and keys with their line numbers.
#[derive(Clone, Debug)]
struct Section {
    name: String,
    parent: Option<String>,
    line: usize,
    keys: Vec<(String, String, usize)>,
}

const KEYS: [&str; 17] = [
    "board",
    "holes",
    "pieces",
    "start",
    "promotion",
    "pawn-reach",
    "castling-rook",
    "promotion-zone",
    "promotion-optional",
    "promotion-limit",
    "castling",
    "hand",
    "insufficient",
    "stalemate",
    "bare-king",
    "move-rule",
    "cecp",
];

/// A key whose value is one word of a list: each word with what it means.
type Choices<T> = &'static [(&'static str, T)];

const INSUFFICIENT: Choices<InsufficientMaterial> = &[
    ("fide", InsufficientMaterial::Fide),
    ("kings-only", InsufficientMaterial::KingsOnly),
];
const STALEMATE: Choices<StalemateResult> = &[
    ("draw", StalemateResult::Draw),
    ("loss", StalemateResult::Loss),
];
const BARE_KING: Choices<bool> = &[("-", false), ("loss", true)];
const PROMOTION_OPTIONAL: Choices<bool> = &[("no", false), ("yes", true)];

/// The word `value` is written with.
fn word<T: PartialEq>(choices: Choices<T>, value: T) -> String {
    choices
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("?", |c| c.0)
        .to_string()
}

/// The meaning of `text`, or the fault naming `key`, the words and what they are about.
fn choose<T: Copy>(key: &str, text: &str, choices: Choices<T>, about: &str) -> Result<T, String> {
    choices
        .iter()
        .find(|(w, _)| *w == text)
        .map(|c| c.1)
        .ok_or_else(|| {
            let words: Vec<&str> = choices.iter().map(|c| c.0).collect();
            format!("{key} '{text}': {}{about}", words.join(" or "))
        })
}

/// How a `piece` line is written.
const PIECE_FORM: &str = "NAME XBETZA [VALUE], as: piece = fers F 150";

fn sections(file: &str, text: &str) -> Result<Vec<Section>, FileError> {
    let err = |line: usize, fault: String| FileError {
        file: file.to_string(),
        line,
        fault,
    };
    let mut out: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.trim();
        if body.is_empty() || body.starts_with('#') || body.starts_with(';') {
            continue;
        }
        if let Some(header) = body.strip_prefix('[') {
            let Some(header) = header.strip_suffix(']') else {
                return Err(err(
                    line,
                    format!("'{body}': a section header ends with ']'"),
                ));
            };
            let (name, parent) = match header.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim().to_ascii_lowercase())),
                None => (header.trim(), None),
            };
            let name = name.to_ascii_lowercase();
            let valid = |n: &str| {
                !n.is_empty()
                    && n.len() <= 32
                    && n.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            };
            if !valid(&name) || parent.as_deref().is_some_and(|p| !valid(p)) {
                return Err(err(
                    line,
                    format!(
                        "'{body}': a variant name is 1-32 letters, digits, '-' or '_' \
                         ([name] or [name:parent])"
                    ),
                ));
            }
            if let Some(first) = out.iter().find(|s| s.name == name) {
                return Err(err(
                    line,
                    format!("variant '{name}' is already defined on line {}", first.line),
                ));
            }
            out.push(Section {
                name,
                parent,
                line,
                keys: Vec::new(),
            });
            continue;
        }
        let Some((key, value)) = body.split_once('=') else {
            return Err(err(
                line,
                format!("'{body}': expected KEY = VALUE or [name]"),
            ));
        };
        let mut key = key.trim().to_ascii_lowercase();
        let Some(section) = out.last_mut() else {
            return Err(err(line, format!("'{key}' before any [variant] section")));
        };
        if key == "piece" {
            // One key per piece, so that a section may define many and override its parent's.
            let Some(name) = value.split_whitespace().next() else {
                return Err(err(line, format!("piece: {PIECE_FORM}")));
            };
            key = format!("piece:{}", name.to_ascii_lowercase());
        } else if !KEYS.contains(&key.as_str()) {
            let hint = if key.starts_with("custompiece") {
                " (define a piece with 'piece = NAME XBETZA [VALUE]')"
            } else {
                ""
            };
            return Err(err(
                line,
                format!(
                    "unknown key '{key}'{hint} (known: {}, piece)",
                    KEYS.join(", ")
                ),
            ));
        }
        if let Some((_, _, first)) = section.keys.iter().find(|(k, _, _)| *k == key) {
            let what = match key.strip_prefix("piece:") {
                Some(name) => format!("piece '{name}' is already defined"),
                None => format!("'{key}' is already set"),
            };
            return Err(err(line, format!("{what} on line {first}")));
        }
        section.keys.push((key, value.trim().to_string(), line));
    }
    if out.is_empty() {
        return Err(err(0, "no [variant] section in the file".to_string()));
    }
    Ok(out)
}

/// The keys of a variant, as a file would write them (in [`KEYS`] order): what a section
/// inheriting from it starts with.
fn variant_keys(v: &Variant) -> Vec<(String, String)> {
    let s = &v.spec;
    let g = &v.geometry;
    let square = |file: u8, rank: u8| format!("{}{}", (b'a' + file) as char, rank + 1);
    let letters = |roles: &[Role]| roles.iter().map(|&r| v.letter(r)).collect::<String>();
    let army: Vec<String> = s
        .army
        .iter()
        .map(|&r| {
            if v.letter(r) == r.letter() {
                r.letter().to_string()
            } else {
                format!(" {}:{} ", file_name(r), v.letter(r))
            }
        })
        .collect();
    let army = army
        .concat()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let or_dash = |words: Vec<String>| {
        if words.is_empty() {
            "-".to_string()
        } else {
            words.join(" ")
        }
    };
    let holes = s.holes.iter().map(|&(f, r)| square(f, r)).collect();
    let reach: Vec<String> = s.pawn_reach.iter().map(|r| (r + 1).to_string()).collect();
    let castling = s
        .castling
        .iter()
        .map(|c| {
            let [kf, kt, rf, rt] =
                [c.king_from, c.king_to, c.rook_from, c.rook_to].map(|f| square(f, 0));
            format!("{kf}{kt}/{rf}{rt}")
        })
        .collect();
    let hand = s.hand.map_or("-".to_string(), |h| {
        let (role, count) = (v.letter(h.role), h.count);
        format!("{role} {count} {} {}", h.drop_rank + 1, h.push_to_rank + 1)
    });
    let mut keys: Vec<(String, String)> = vec![
        ("board", format!("{}x{}", g.files(), g.ranks())),
        ("holes", or_dash(holes)),
        ("pieces", army),
        ("start", s.start_fen.to_string()),
        ("promotion", letters(s.promotions)),
        ("pawn-reach", reach.join(" ")),
        ("promotion-zone", s.promotion_zone.to_string()),
        (
            "promotion-optional",
            word(PROMOTION_OPTIONAL, s.promotion_optional),
        ),
        (
            "promotion-limit",
            or_dash(
                s.promotion_limit
                    .iter()
                    .map(|&(r, n)| format!("{}{n}", v.letter(r)))
                    .collect(),
            ),
        ),
        ("castling", or_dash(castling)),
        ("castling-rook", v.letter(s.castling_rook).to_string()),
        ("hand", hand),
        ("insufficient", word(INSUFFICIENT, s.insufficient)),
        ("stalemate", word(STALEMATE, s.end.stalemate)),
        ("bare-king", word(BARE_KING, s.end.bare_king)),
        ("move-rule", s.end.move_rule.to_string()),
        ("cecp", s.cecp_name.to_string()),
    ]
    .into_iter()
    .map(|(k, val)| (k.to_string(), val))
    .collect();
    for c in s
        .army
        .iter()
        .filter_map(|&r| crate::rules::pattern::custom(r))
    {
        let line = format!("{} {} {}", c.name, c.betza.text(), c.value);
        keys.insert(2, (format!("piece:{}", c.name), line));
    }
    keys
}

/// A variant as the section of a file that defines it (built-in ones included): the text
/// `sissa variants --show` prints, to copy and change.
pub fn describe(v: &Variant) -> String {
    let mut out = format!("[{}]\n", v.id());
    for (k, val) in variant_keys(v) {
        let k = if k.starts_with("piece:") { "piece" } else { &k };
        out.push_str(&format!("{k} = {val}\n"));
    }
    out
}

/// Every key of a section with its line, its parents' first.
type Resolved = HashMap<String, (String, usize)>;

fn resolve(
    file: &str,
    all: &[Section],
    index: usize,
    trail: &mut Vec<String>,
) -> Result<Resolved, FileError> {
    let s = &all[index];
    let err = |fault: String| FileError {
        file: file.to_string(),
        line: s.line,
        fault,
    };
    if trail.contains(&s.name) {
        trail.push(s.name.clone());
        return Err(err(format!("inheritance cycle: {}", trail.join(" -> "))));
    }
    trail.push(s.name.clone());
    let mut keys: Resolved = match &s.parent {
        None => HashMap::new(),
        Some(p) => match all.iter().position(|o| &o.name == p) {
            Some(i) => resolve(file, all, i, trail)?,
            None => match Variant::by_name(p) {
                Some(v) => variant_keys(v)
                    .into_iter()
                    .filter(|(k, _)| *k != "cecp")
                    .map(|(k, val)| (k, (val, s.line)))
                    .collect(),
                None => {
                    return Err(err(format!(
                        "unknown parent variant '{p}' (known: {} and this file's)",
                        Variant::names()
                    )));
                }
            },
        },
    };
    trail.pop();
    for (k, v, line) in &s.keys {
        keys.insert(k.clone(), (v.clone(), *line));
    }
    Ok(keys)
}

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// Builds one section's spec from its resolved keys.
fn spec(file: &str, section: &Section, keys: &Resolved) -> Result<(VariantSpec, usize), FileError> {
    let get = |key: &str| -> Result<(&str, usize), FileError> {
        keys.get(key)
            .map(|(v, l)| (v.as_str(), *l))
            .ok_or_else(|| FileError {
                file: file.to_string(),
                line: section.line,
                fault: format!("variant '{}' needs '{key}'", section.name),
            })
    };
    // An optional key: its value and line, or the default at the section's line.
    let get_or = |key: &str, default: &'static str| -> (&str, usize) {
        keys.get(key)
            .map_or((default, section.line), |(v, l)| (v.as_str(), *l))
    };
    let at = |line: usize, fault: String| FileError {
        file: file.to_string(),
        line,
        fault,
    };

    let (board, line) = get("board")?;
    let (files, ranks) = board
        .split_once('x')
        .and_then(|(f, r)| Some((f.trim().parse::<u8>().ok()?, r.trim().parse::<u8>().ok()?)))
        .filter(|&(f, r)| (1..=MAX_SIDE as u8).contains(&f) && (2..=MAX_SIDE as u8).contains(&r))
        .ok_or_else(|| {
            at(
                line,
                format!(
                    "board '{board}': FILESxRANKS, 1 to {MAX_SIDE} files, 2 to {MAX_SIDE} ranks"
                ),
            )
        })?;
    let full = Geometry::new(files, ranks, &[]);
    let square_of = |text: &str, line: usize| -> Result<(u8, u8), FileError> {
        full.parse_square_exact(text, 1)
            .map(|sq| (full.file(sq) as u8, full.rank(sq) as u8))
            .ok_or_else(|| {
                at(
                    line,
                    format!("'{text}' is not a square of a {files}x{ranks} board"),
                )
            })
    };

    let (holes_text, line) = get_or("holes", "-");
    let mut holes = Vec::new();
    if holes_text != "-" {
        for w in holes_text.split_whitespace() {
            holes.push(square_of(w, line)?);
        }
    }

    let mut defined: Vec<(&String, &(String, usize))> = keys
        .iter()
        .filter(|(k, _)| k.starts_with("piece:"))
        .collect();
    defined.sort_by_key(|(_, (_, line))| *line);
    let mut custom = Vec::new();
    for (_, (text, line)) in defined {
        let w: Vec<&str> = text.split_whitespace().collect();
        let bad = |why: &str| at(*line, format!("piece '{text}': {why}"));
        if !(2..=3).contains(&w.len()) {
            return Err(bad(PIECE_FORM));
        }
        let name = w[0].to_ascii_lowercase();
        if name.len() > 32
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(bad("a name is 1-32 letters, digits, '-' or '_'"));
        }
        let value = match w.get(2) {
            None => None,
            Some(t) => Some(
                t.parse::<i32>()
                    .ok()
                    .filter(|v| (0..=10_000).contains(v))
                    .ok_or_else(|| bad("the value is centipawns, 0 to 10000"))?,
            ),
        };
        // A built-in piece's XBetza names that piece, with its own walker and tuned value;
        // not the king's, which is royal (`K` in a file is the commoner).
        let builtin = Role::BUILTIN
            .iter()
            .copied()
            .filter(|&r| r != Role::King)
            .find(|&r| crate::rules::pattern::pattern(r).xbetza == Some(w[1]));
        let role = match builtin {
            Some(r) => {
                if value.is_some() {
                    return Err(bad(&format!(
                        "'{}' is the built-in {}'s XBetza, which has its own value: leave \
                         the value out",
                        w[1],
                        r.name()
                    )));
                }
                r
            }
            None => {
                if let Some(r) = Role::BUILTIN.iter().find(|&&r| file_name(r) == name) {
                    let own = crate::rules::pattern::pattern(*r)
                        .xbetza
                        .unwrap_or("its own walker");
                    return Err(bad(&format!(
                        "the built-in {} moves '{own}': give this piece another name",
                        r.name()
                    )));
                }
                crate::rules::pattern::define_custom(&name, w[1], value).map_err(|e| bad(&e))?
            }
        };
        custom.push((name, role));
    }
    let (pieces, line) = get("pieces")?;
    let (army, letters) = army(pieces, &custom).map_err(|fault| at(line, fault))?;
    let letter_of = |r: Role| letter_in(&letters, r);
    let role_in_army = |c: char, line: usize, what: &str| -> Result<Role, FileError> {
        army.iter()
            .copied()
            .find(|&r| letter_of(r) == c.to_ascii_uppercase())
            .ok_or_else(|| {
                at(
                    line,
                    format!("{what} '{c}' is not one of the pieces '{pieces}'"),
                )
            })
    };

    let (promo_text, line) = get_or("promotion", "");
    let mut promotions = Vec::new();
    for c in promo_text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
    {
        let role = role_in_army(c, line, "promotion piece")?;
        if matches!(role, Role::King | Role::Pawn | Role::Ninja) {
            return Err(at(line, format!("a pawn cannot promote to '{c}'")));
        }
        promotions.push(role);
    }
    let has_pawns = army.iter().any(|r| r.is_pawn_like());
    if has_pawns && promotions.is_empty() {
        return Err(at(
            line,
            "a variant with pawns needs 'promotion'".to_string(),
        ));
    }

    let (text, line) = get_or("promotion-zone", "1");
    let promotion_zone = text
        .parse::<u8>()
        .ok()
        .filter(|n| (1..ranks).contains(n))
        .ok_or_else(|| {
            at(
                line,
                format!(
                    "promotion-zone '{text}': the number of last ranks a pawn promotes on, 1 to {}",
                    ranks - 1
                ),
            )
        })?;
    let (text, line) = get_or("promotion-optional", "no");
    let promotion_optional = choose(
        "promotion-optional",
        text,
        PROMOTION_OPTIONAL,
        " (may a pawn stay a pawn in the zone before the last rank)",
    )
    .map_err(|e| at(line, e))?;
    let (text, line) = get_or("promotion-limit", "-");
    let mut promotion_limit = Vec::new();
    for w in text.split_whitespace().filter(|w| *w != "-") {
        let mut chars = w.chars();
        let letter = chars.next().unwrap_or(' ');
        let count = chars.as_str().parse::<u8>().ok().filter(|n| *n <= 64);
        let (Some(count), Some(role)) = (
            count,
            promotions
                .iter()
                .copied()
                .find(|&r| letter_of(r) == letter.to_ascii_uppercase()),
        ) else {
            return Err(at(
                line,
                format!(
                    "promotion-limit '{w}': a promotion piece's letter and the most of it a \
                     side may have for a pawn to promote to it, as Q1"
                ),
            ));
        };
        promotion_limit.push((role, count));
    }
    let pawn_reach = match keys.get("pawn-reach") {
        None => orthodox_pawn_reach(ranks),
        Some((text, _)) if text == "orthodox" => orthodox_pawn_reach(ranks),
        Some((text, line)) => {
            let reach: Option<Vec<u8>> = text.split_whitespace().map(|w| w.parse().ok()).collect();
            let reach = reach
                .filter(|r| r.len() == ranks as usize)
                .filter(|r| {
                    r.iter()
                        .enumerate()
                        .all(|(i, &x)| x as usize > i && x <= ranks)
                })
                .ok_or_else(|| {
                    at(
                        *line,
                        format!(
                            "pawn-reach '{text}': for each of the {ranks} ranks, the farthest \
                             rank (1..{ranks}, not behind it) a pawn there may step to, or \
                             'orthodox'"
                        ),
                    )
                })?;
            reach.into_iter().map(|x| x - 1).collect()
        }
    };

    let mut castling = Vec::new();
    if let Some((text, line)) = keys.get("castling")
        && text != "-"
    {
        for w in text.split_whitespace() {
            let bad = || {
                at(
                    *line,
                    format!(
                        "castling '{w}': KINGFROM KINGTO/ROOKFROM ROOKTO on the first rank, as \
                         e1g1/h1f1"
                    ),
                )
            };
            let (king, rook) = w.split_once('/').ok_or_else(bad)?;
            type Squares = ((u8, u8), (u8, u8));
            let split = |t: &str| -> Result<Squares, FileError> {
                if t.len() < 4 || !t.is_ascii() {
                    return Err(bad());
                }
                let digits = t[1..]
                    .find(|c: char| c.is_ascii_alphabetic())
                    .ok_or_else(bad)?
                    + 1;
                Ok((
                    square_of(&t[..digits], *line)?,
                    square_of(&t[digits..], *line)?,
                ))
            };
            let ((kf, kr), (kt, ktr)) = split(king)?;
            let ((rf, rr), (rt, rtr)) = split(rook)?;
            if [kr, ktr, rr, rtr].iter().any(|&r| r != 0) {
                return Err(at(
                    *line,
                    format!("castling '{w}': every square on the first rank"),
                ));
            }
            castling.push(CastlingRule {
                side: if rf > kf {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                },
                king_from: kf,
                king_to: kt,
                rook_from: rf,
                rook_to: rt,
            });
        }
    }

    let castling_rook = match keys.get("castling-rook") {
        None => Role::Rook,
        Some((text, line)) => {
            let mut chars = text.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(at(
                    *line,
                    format!(
                        "castling-rook '{text}': the letter of the piece the king castles with"
                    ),
                ));
            };
            let role = role_in_army(c, *line, "castling piece")?;
            if role.is_pawn_like() || role == Role::King {
                return Err(at(*line, format!("the king cannot castle with '{c}'")));
            }
            role
        }
    };

    let hand = match keys.get("hand") {
        None => None,
        Some((text, _)) if text == "-" => None,
        Some((text, line)) => {
            let w: Vec<&str> = text.split_whitespace().collect();
            let bad = || {
                at(
                    *line,
                    format!(
                        "hand '{text}': PIECE COUNT DROPRANK PUSHRANK, as J 5 2 5 (ranks counted \
                         from the own side)"
                    ),
                )
            };
            if w.len() != 4 || w[0].chars().count() != 1 {
                return Err(bad());
            }
            let role = role_in_army(w[0].chars().next().unwrap_or('?'), *line, "hand piece")?;
            let n = |s: &str| s.parse::<u8>().map_err(|_| bad());
            let (count, drop, push) = (n(w[1])?, n(w[2])?, n(w[3])?);
            if count as usize > MAX_HAND || drop == 0 || push < drop || push >= ranks {
                return Err(bad());
            }
            Some(HandRule {
                role,
                count,
                drop_rank: drop - 1,
                push_to_rank: push - 1,
            })
        }
    };

    let (text, line) = get_or("insufficient", "fide");
    let insufficient = choose("insufficient", text, INSUFFICIENT, "").map_err(|e| at(line, e))?;
    let (text, line) = get_or("stalemate", "draw");
    let stalemate = choose("stalemate", text, STALEMATE, " (for the stalemated side)")
        .map_err(|e| at(line, e))?;
    let (text, line) = get_or("bare-king", "-");
    let bare_king =
        choose("bare-king", text, BARE_KING, " (a lone king loses)").map_err(|e| at(line, e))?;
    let (text, line) = get_or("move-rule", "50");
    let move_rule = text
        .parse::<u16>()
        .ok()
        .filter(|n| (1..=1000).contains(n))
        .ok_or_else(|| {
            at(
                line,
                format!("move-rule '{text}': moves without capture or pawn move, 1 to 1000"),
            )
        })?;
    let (start, start_line) = get("start")?;
    let cecp = keys
        .get("cecp")
        .map_or(section.name.clone(), |(v, _)| v.to_ascii_lowercase());
    let spec = VariantSpec {
        id: leak_str(&section.name),
        cecp_name: leak_str(&cecp),
        files,
        ranks,
        holes,
        army: leak(army),
        start_fen: leak_str(start),
        promotions: leak(promotions),
        promotion_zone,
        promotion_optional,
        promotion_limit: leak(promotion_limit),
        pawn_reach,
        castling: leak(castling),
        castling_rook,
        hand,
        insufficient,
        end: EndRules {
            stalemate,
            bare_king,
            move_rule,
        },
        letters: leak(letters),
    };
    Ok((spec, start_line))
}

/// Orthodox pawn ranges for a board of `ranks` ranks: a double step from the second rank,
/// one step elsewhere.
fn orthodox_pawn_reach(ranks: u8) -> Vec<u8> {
    (0..ranks)
        .map(|r| if r == 1 { 3 } else { (r + 1).min(ranks - 1) })
        .collect()
}

/// The name a file gives a role by: its English name with hyphens (`archbishop`,
/// `sorcerer-snake`, `wazir-knight`).
fn file_name(role: Role) -> String {
    role.name().replace(' ', "-")
}

/// Roles written with another letter than their own.
type Letters = Vec<(Role, char)>;

/// The `pieces` key: letters of the built-in pieces (`PNBRQK`), and `NAME:L` for a piece
/// written with another letter (`archbishop:A`) or one of the section's `piece` lines
/// (`custom`, which always take a letter this way). The army and its other letters.
fn army(text: &str, custom: &[(String, Role)]) -> Result<(Vec<Role>, Letters), String> {
    let mut army = Vec::new();
    let mut letters = Vec::new();
    let mut add = |role: Role, letter: Option<char>| -> Result<(), String> {
        if army.contains(&role) {
            return Err(format!("the {} is listed twice", role.name()));
        }
        army.push(role);
        if let Some(c) = letter {
            letters.push((role, c));
        }
        Ok(())
    };
    for word in text.split_whitespace() {
        if let Some((name, letter)) = word.split_once(':') {
            let lower = name.to_ascii_lowercase();
            let role = Role::BUILTIN
                .iter()
                .copied()
                .find(|&r| file_name(r) == lower || r.letter().to_string() == name)
                .or_else(|| custom.iter().find(|(n, _)| *n == lower).map(|c| c.1))
                .ok_or_else(|| {
                    let names: Vec<String> = Role::BUILTIN
                        .iter()
                        .map(|&r| file_name(r))
                        .chain(custom.iter().map(|c| c.0.clone()))
                        .collect();
                    format!("unknown piece '{name}' (pieces: {})", names.join(", "))
                })?;
            let mut chars = letter.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(format!("'{word}': NAME:LETTER, one letter"));
            };
            if !c.is_ascii_alphabetic() {
                return Err(format!("'{word}': the letter must be A-Z"));
            }
            add(role, Some(c.to_ascii_uppercase()))?;
            continue;
        }
        for c in word.chars() {
            let role = Role::BUILTIN
                .iter()
                .copied()
                .find(|r| r.letter() == c.to_ascii_uppercase())
                .ok_or_else(|| {
                    let known: String = Role::BUILTIN.iter().map(|r| r.letter()).collect();
                    format!("unknown piece letter '{c}' (built-in pieces: {known}, or NAME:LETTER)")
                })?;
            add(role, None)?;
        }
    }
    if !army.contains(&Role::King) {
        return Err("the pieces must include the king (K)".to_string());
    }
    let letter_of = |r: Role| letter_in(&letters, r);
    for (i, &a) in army.iter().enumerate() {
        if let Some(&b) = army[..i].iter().find(|&&b| letter_of(b) == letter_of(a)) {
            return Err(format!(
                "the {} and the {} would both be written {}",
                b.name(),
                a.name(),
                letter_of(a)
            ));
        }
    }
    Ok((army, letters))
}

/// The specs of the built-in variants from their embedded file (variants/builtin.ini), for
/// [`Variant::all`]: no parent, no loaded variant and no start-position check is consulted,
/// since the built-in variants are being made.
pub(crate) fn builtin_specs(text: &str) -> Result<Vec<VariantSpec>, FileError> {
    let file = "variants/builtin.ini";
    let all = sections(file, text)?;
    let mut out = Vec::new();
    for (i, section) in all.iter().enumerate() {
        if section.parent.is_some() {
            return Err(FileError {
                file: file.to_string(),
                line: section.line,
                fault: "a built-in variant has no parent".to_string(),
            });
        }
        let keys = resolve(file, &all, i, &mut Vec::new())?;
        out.push(spec(file, section, &keys)?.0);
    }
    Ok(out)
}

/// Variants loaded from files, in load order.
static LOADED: RwLock<Vec<&'static Variant>> = RwLock::new(Vec::new());

/// The variants loaded so far.
pub fn loaded() -> Vec<&'static Variant> {
    LOADED.read().map(|l| l.clone()).unwrap_or_default()
}

/// Parses and checks every variant of a file's text without registering any: the
/// variants, compiled. `file` names the text in messages; `start_fits` checks a variant's
/// start position (the FEN reader is a layer above: [`crate::tools::variant_files::parse`]
/// passes it).
pub fn compile(
    file: &str,
    text: &str,
    start_fits: &dyn Fn(&'static Variant) -> Result<(), String>,
) -> Result<Vec<&'static Variant>, FileError> {
    let all = sections(file, text)?;
    let mut out = Vec::new();
    for (i, section) in all.iter().enumerate() {
        if Variant::by_name(&section.name).is_some() {
            return Err(FileError {
                file: file.to_string(),
                line: section.line,
                fault: format!(
                    "variant '{}' is already known: give it another name",
                    section.name
                ),
            });
        }
        let keys = resolve(file, &all, i, &mut Vec::new())?;
        let (spec, start_line) = spec(file, section, &keys)?;
        let name = spec.id;
        let at = |line: usize, fault: String| FileError {
            file: file.to_string(),
            line,
            fault,
        };
        if Variant::by_name(spec.cecp_name).is_some()
            || out
                .iter()
                .any(|v: &&Variant| v.spec.cecp_name == spec.cecp_name)
        {
            return Err(at(
                section.line,
                format!(
                    "{name}: the XBoard name '{}' is already taken: set 'cecp'",
                    spec.cecp_name
                ),
            ));
        }
        let variant =
            Variant::try_build(spec).map_err(|e| at(section.line, format!("{name}: {e}")))?;
        let variant: &'static Variant = Box::leak(Box::new(variant));
        if let Err(e) = start_fits(variant) {
            return Err(at(
                start_line,
                format!("{name}: the start position does not fit: {e}"),
            ));
        }
        out.push(variant);
    }
    Ok(out)
}

/// Makes variants known to [`Variant::by_name`].
pub fn register(variants: &[&'static Variant]) {
    if let Ok(mut l) = LOADED.write() {
        l.extend(variants.iter().copied());
    }
}
