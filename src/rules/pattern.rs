//! How each role moves, as data: leaps, slides, and which path walker
//! ([`crate::rules::paths`]) the Sissa, Snake and Venator need. The generator
//! ([`crate::rules::movegen`]) and attack detection ([`crate::rules::attacks`]) loop over
//! these; a new role needs an entry here and nothing else unless it brings a new kind of path.
//!
//! The pieces variant files define ([`define_custom`]) take the sixteen custom role slots.
//! A piece whose XBetza is a symmetric set of plain leaps and slides compiles into the same
//! leap and slide tables as the built-in pieces; any other (lame, hopping, multi-leg,
//! move-only or capture-only, one-sided) is walked by [`crate::rules::betza`]'s walker
//! ([`Special::Betza`]).

use std::sync::{Mutex, OnceLock};

use crate::rules::betza;
use crate::rules::role::{CUSTOM_ROLES, Color, Role};

/// A step or leap as (files, ranks).
pub type Delta = (i8, i8);

pub const ORTHOGONAL: [Delta; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const DIAGONAL: [Delta; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
pub const KING_STEPS: [Delta; 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];
pub const KNIGHT: [Delta; 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];
/// Moves that are neither plain leaps nor plain slides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Special {
    None,
    /// Forward steps by the variant's per-rank ranges, diagonal captures, en passant.
    Pawn,
    /// Pawn steps, sideways steps, sideways captures in the enemy half; no en passant.
    Ninja,
    /// n steps one way, turn, n steps of the other kind (orthogonal/diagonal); every square
    /// passed must be empty.
    Sissa,
    /// Knight and zebra squares by two non-jumping paths each.
    Snake,
    /// Orthogonal slide to a screen, hop it, slide on a forward diagonal.
    Venator,
    /// A file's piece, walked from its compiled XBetza ([`CustomPiece::betza`]).
    Betza,
}

/// One role's move pattern. Leaps and slides are symmetric for every role, which lets attack
/// detection look outward from the attacked square.
#[derive(Copy, Clone, Debug)]
pub struct Pattern {
    /// Leap sets; a compound piece lists several (the Wazir-Knight: knight and wazir).
    pub leaps: &'static [&'static [Delta]],
    pub slides: &'static [Delta],
    pub special: Special,
    /// The same moves in XBetza ([`crate::rules::betza`]), as XBoard's `piece` command reads them;
    /// `None` for the pawns, whose moves depend on the variant's pawn kind. A test walks
    /// each description against the generator on random positions of every variant.
    pub xbetza: Option<&'static str>,
}

/// The move pattern of `role` (for a custom slot not defined yet: no moves).
pub fn pattern(role: Role) -> Pattern {
    if let Some(c) = custom(role) {
        return c.pattern;
    }
    type Leaps = &'static [&'static [Delta]];
    type Row = (Leaps, &'static [Delta], Special, Option<&'static str>);
    let (leaps, slides, special, xbetza): Row = match role {
        Role::Pawn => (&[], &[], Special::Pawn, None),
        Role::Ninja => (&[], &[], Special::Ninja, None),
        Role::Knight => (&[&KNIGHT], &[], Special::None, Some("N")),
        Role::Bishop => (&[], &DIAGONAL, Special::None, Some("B")),
        Role::Rook => (&[], &ORTHOGONAL, Special::None, Some("R")),
        Role::Queen => (&[], &KING_STEPS, Special::None, Some("Q")),
        Role::King => (&[&KING_STEPS], &[], Special::None, Some("K")),
        Role::Amazon => (&[&KNIGHT], &KING_STEPS, Special::None, Some("QN")),
        Role::WazirKnight => (&[&KNIGHT, &ORTHOGONAL], &[], Special::None, Some("NW")),
        Role::FerzKnight => (&[&KNIGHT, &DIAGONAL], &[], Special::None, Some("NF")),
        Role::Archbishop => (&[&KNIGHT], &DIAGONAL, Special::None, Some("BN")),
        Role::Chancellor => (&[&KNIGHT], &ORTHOGONAL, Special::None, Some("RN")),
        // n orthogonal steps, then n diagonal ones at 45 or 135 degrees (or the reverse):
        // `i` on the second leg makes it as long as the first.
        Role::Sissa => (&[], &[], Special::Sissa, Some("maifsbsRmaifsbsB")),
        // The knight square by its two one-step paths, the zebra square by its two
        // two-step paths.
        Role::Snake => (&[], &[], Special::Snake, Some("mafsWmafsFmafsmafWmafmafsF")),
        // Slide to a screen (g: turn there), step over it onto an empty square (y: turn
        // there, becoming a rider again), slide on a forward diagonal.
        Role::Venator => (&[], &[], Special::Venator, Some("gafyafsR")),
        _ => (&[], &[], Special::None, None),
    };
    Pattern {
        leaps,
        slides,
        special,
        xbetza,
    }
}

/// A piece a variant file defines: its name, its moves in XBetza and its value.
#[derive(Debug)]
pub struct CustomPiece {
    pub name: String,
    pub betza: betza::Piece,
    /// Material value in centipawns (the file's, or one estimated from the piece's reach).
    pub value: i32,
    pub pattern: Pattern,
}

static CUSTOM: [OnceLock<CustomPiece>; CUSTOM_ROLES] = [const { OnceLock::new() }; CUSTOM_ROLES];
static DEFINING: Mutex<()> = Mutex::new(());

/// The definition in custom slot `role`, if any.
#[inline]
pub fn custom(role: Role) -> Option<&'static CustomPiece> {
    let i = (role as usize).checked_sub(Role::BUILTIN.len() + 1)?;
    CUSTOM.get(i)?.get()
}

/// Gives the piece `name` with moves `xbetza` (and `value`, or an estimate) a custom role
/// slot for the rest of the process: the slot of an identical earlier definition, or the
/// next free one. Errors: bad XBetza, or all slots taken.
pub fn define_custom(name: &str, xbetza: &str, value: Option<i32>) -> Result<Role, String> {
    let piece = betza::Piece::parse(xbetza).map_err(|e| format!("XBetza '{xbetza}': {e}"))?;
    let value = value.unwrap_or_else(|| estimated_value(&piece));
    let _guard = DEFINING.lock().unwrap_or_else(|e| e.into_inner());
    for (i, slot) in CUSTOM.iter().enumerate() {
        match slot.get() {
            Some(c) if c.name == name && c.betza.text() == xbetza && c.value == value => {
                return Ok(Role::CUSTOM[i]);
            }
            Some(_) => continue,
            None => {
                let pattern = compile(&piece);
                let _ = slot.set(CustomPiece {
                    name: name.to_string(),
                    betza: piece,
                    value,
                    pattern,
                });
                return Ok(Role::CUSTOM[i]);
            }
        }
    }
    Err(format!(
        "more than {CUSTOM_ROLES} different pieces defined in files: no slot left for '{name}'"
    ))
}

/// The leaps and slides of a piece that has nothing else: every first leg final, plain
/// (moves and captures, no lame or hopping step), a leap or an unlimited slide, the same
/// for both sides and its own mirror image through the start square (which lets attack
/// detection look outward from the target), with steps of at most two squares each way (the
/// mailbox's padding).
fn plain(piece: &betza::Piece) -> Option<(Vec<Delta>, Vec<Delta>)> {
    let mut leaps = Vec::new();
    let mut slides = Vec::new();
    for leg in piece.legs(Color::White) {
        let plain = leg.then.is_empty()
            && leg.blocking == betza::Blocking::Free
            && leg.skip == 0
            && leg.hop == betza::Hop::None
            && !leg.equal_length
            && !leg.unmoved_only
            && leg.stops.empty
            && leg.stops.enemy
            && !leg.stops.own;
        if leg.step.0.abs() > 2 || leg.step.1.abs() > 2 {
            return None;
        }
        let step = (leg.step.0 as i8, leg.step.1 as i8);
        let list = match leg.range {
            1 if plain => &mut leaps,
            0 if plain => &mut slides,
            _ => return None,
        };
        if !list.contains(&step) {
            list.push(step);
        }
    }
    let same = |a: &[Delta], b: &[Delta]| a.len() == b.len() && a.iter().all(|d| b.contains(d));
    let black: Vec<Delta> = piece
        .legs(Color::Black)
        .iter()
        .map(|l| (l.step.0 as i8, l.step.1 as i8))
        .collect();
    let all: Vec<Delta> = leaps.iter().chain(&slides).copied().collect();
    let mirrored = |list: &[Delta]| list.iter().all(|&(x, y)| list.contains(&(-x, -y)));
    (same(&black, &all) && mirrored(&leaps) && mirrored(&slides)).then_some((leaps, slides))
}

fn compile(piece: &betza::Piece) -> Pattern {
    let xbetza = Some(&*Box::leak(piece.text().to_string().into_boxed_str()));
    match plain(piece) {
        Some((leaps, slides)) => {
            let leaps: &'static [Delta] = Box::leak(leaps.into_boxed_slice());
            let leaps: &'static [&'static [Delta]] = Box::leak(Box::new([leaps]));
            Pattern {
                leaps,
                slides: Box::leak(slides.into_boxed_slice()),
                special: Special::None,
                xbetza,
            }
        }
        None => Pattern {
            leaps: &[],
            slides: &[],
            special: Special::Betza,
            xbetza,
        },
    }
}

/// A value for a piece its file gives none: 100 plus 35 a square of its average reach on an
/// empty 8x8 board (knight 284, bishop 406, rook 590, queen 896, ferz 207, commoner 330).
fn estimated_value(piece: &betza::Piece) -> i32 {
    struct Empty;
    impl betza::BoardView for Empty {
        fn cell(&self, file: i32, rank: i32) -> betza::Cell {
            if (0..8).contains(&file) && (0..8).contains(&rank) {
                betza::Cell::Empty
            } else {
                betza::Cell::Off
            }
        }
    }
    let mut total = 0;
    for file in 0..8 {
        for rank in 0..8 {
            total += piece
                .targets(Color::White, &Empty, (file, rank), false)
                .len();
        }
    }
    100 + (35 * total as i32 + 32) / 64
}
