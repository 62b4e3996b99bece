//! The piece language: Betza's notation with H.G. Muller's XBetza extensions, the dialect
//! XBoard's `piece` command reads (XBoard 4.9, `moves.c`). A description such as `mafsW` (the
//! Xiangqi horse) is parsed once and compiled into a tree of legs with absolute steps for each
//! side; [`Piece::targets`] walks that tree on any board.
//!
//! Supported, with XBoard's meaning (docs/variants.md has an example of each):
//!
//! - atoms `W F D N A H C Z G` (leapers), `R B Q` (riders), `K` (the eight steps); a range
//!   digit after the atom (`N0` nightrider, `R4`, `0` = unlimited) or a doubled atom (`NN`);
//! - directions `f b l r v s` and the oblique refinements (`ff`, `fs`, `fh`, `hr`, `hl`);
//! - modes `m` (move only), `c` (capture only), `n` (lame: blocked on the square beside the
//!   leap), `j` (must jump over that square; on a one-step rider, skip the first square), `p`
//!   (cannon: hop over one piece) and `g` (grasshopper: land just behind it), `i` (only
//!   an unmoved piece);
//! - multi-leg moves: `a` ends a leg and starts the next, whose directions are relative to the
//!   last one (`f` straight on, `s` a right angle, `fs` 45 degrees, ...); in a non-final leg
//!   `m` turns on an empty square (the default), `p` on an occupied one, `g` on an occupied
//!   and `y` on an empty one while switching the atom between leaper and rider; an `i` that
//!   opens a later leg makes it exactly as long as the leg before (so the Sissa is
//!   `maifsbsRmaifsbsB`);
//! - locust captures: `c` on a non-final leg turns on an enemy piece and captures it, and the
//!   move goes on from its square (`mc` there turns on an empty square too): the checker's
//!   jump is `cafmF`. One such capture a move.
//!
//! Rejected with a message: modes that need more than one locust capture or board state
//! beyond the occupants (two `c` non-final legs, `d`, `e`, `t`, `o`), and castling (`O`).
//!
//! Every message names the column of the fault.

use std::collections::BTreeSet;
use std::fmt;

use crate::rules::role::Color;

/// A fault in a piece description, at a byte offset of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// 0-based byte offset of the fault.
    pub at: usize,
    pub fault: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.at + 1, self.fault)
    }
}

impl std::error::Error for BetzaError {}

fn fault<T>(at: usize, fault: impl Into<String>) -> Result<T, BetzaError> {
    Err(BetzaError {
        at,
        fault: fault.into(),
    })
}

/// What may stand on a square, as the moving side sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Outside the board or a hole.
    Off,
    Empty,
    Own,
    Enemy,
}

/// A board as the walker needs it: the content of (file, rank), 0-based, seen from the side
/// that moves.
pub trait BoardView {
    fn cell(&self, file: i32, rank: i32) -> Cell;
}

/// How the square a leap passes beside is treated (`n` and `j`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Blocking {
    /// A leaper jumps, a rider slides: nothing beside the step matters.
    Free,
    /// `n`: the square half-way along the step must be empty.
    Lame,
    /// `j`: the square half-way along the step must be occupied.
    MustJump,
}

/// What a final leg does at its first occupied square before it may end (`p`, `g`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hop {
    None,
    /// `p`: hop over the first piece met, then move on as usual.
    Cannon,
    /// `g`: hop over the first piece met and land on the square just behind it.
    Grasshopper,
}

/// The squares a leg may stop on: to end the move (final leg) or to start the next leg.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stops {
    pub empty: bool,
    pub enemy: bool,
    pub own: bool,
}

impl Stops {
    fn allows(self, cell: Cell) -> bool {
        match cell {
            Cell::Empty => self.empty,
            Cell::Enemy => self.enemy,
            Cell::Own => self.own,
            Cell::Off => false,
        }
    }
}

/// One leg of a compiled move, with its absolute step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leg {
    /// (files, ranks) of one step.
    pub step: (i32, i32),
    /// Largest number of steps; 0 = unlimited.
    pub range: u32,
    pub stops: Stops,
    pub blocking: Blocking,
    /// Steps taken before any square counts (`j` on a one-step rider).
    pub skip: u32,
    pub hop: Hop,
    /// `i` on a later leg: exactly as many steps as the leg before.
    pub equal_length: bool,
    /// Only for a piece that has not moved yet (`i` on a first leg).
    pub unmoved_only: bool,
    /// A non-final leg that captures the enemy piece it turns on (`c`: a locust capture).
    pub kills: bool,
    /// The legs that may follow from each square this leg stops on; empty for a final leg.
    pub then: Vec<Leg>,
}

/// One move of a piece: where it ends, whether it captures there, and the square of the
/// piece it captures on the way (a locust capture), if any. Squares are (file, rank).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    pub to: (i32, i32),
    pub capture: bool,
    pub victim: Option<(i32, i32)>,
}

/// A compiled piece description: the first legs for each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    text: String,
    first: [Vec<Leg>; 2],
}

impl Piece {
    /// Parses and compiles an XBetza description.
    pub fn parse(text: &str) -> Result<Piece, BetzaError> {
        let components = parse(text)?;
        let mut first = [Vec::new(), Vec::new()];
        for c in &components {
            let range = c.range.unwrap_or(if c.atom.rider { 0 } else { 1 });
            for color in Color::ALL {
                first[color.index()].extend(build(c, color, 0, 0, range)?);
            }
        }
        Ok(Piece {
            text: text.to_string(),
            first,
        })
    }

    /// The description as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The first legs of `color`'s moves.
    pub fn legs(&self, color: Color) -> &[Leg] {
        &self.first[color.index()]
    }

    /// Every move of the piece of `color` on (file, rank), each once. `unmoved` tells
    /// whether `i` moves are allowed. The start square counts as empty (the piece has left
    /// it), and so does a locust victim's once it is captured.
    pub fn targets(
        &self,
        color: Color,
        board: &impl BoardView,
        from: (i32, i32),
        unmoved: bool,
    ) -> BTreeSet<Target> {
        let mut out = BTreeSet::new();
        self.visit(color, board, from, unmoved, &mut |t| {
            out.insert(t);
            false
        });
        out
    }

    /// Calls `emit` with every move of the piece (as [`Piece::targets`], but a move reached
    /// two ways comes twice) until it returns true; whether it did. Allocates nothing: the
    /// generator and the attack test walk pieces this way.
    pub fn visit(
        &self,
        color: Color,
        board: &impl BoardView,
        from: (i32, i32),
        unmoved: bool,
        emit: &mut impl FnMut(Target) -> bool,
    ) -> bool {
        let view = Departed {
            board,
            from,
            victim: None,
        };
        self.legs(color)
            .iter()
            .filter(|leg| unmoved || !leg.unmoved_only)
            .any(|leg| walk(leg, &view, from, 0, emit))
    }

    /// Whether the piece of `color` on `from` could capture on `target` (at the end of a
    /// move or on its way), on a board where `target` holds an enemy. A one-leg move is
    /// walked only if it captures and `target` lies on its line; stops at the first hit.
    pub fn attacks(
        &self,
        color: Color,
        board: &impl BoardView,
        from: (i32, i32),
        target: (i32, i32),
        unmoved: bool,
    ) -> bool {
        let view = Departed {
            board,
            from,
            victim: None,
        };
        let delta = (target.0 - from.0, target.1 - from.1);
        let mut hit = |t: Target| (t.capture && t.to == target) || t.victim == Some(target);
        self.legs(color).iter().any(|leg| {
            if leg.unmoved_only && !unmoved {
                return false;
            }
            if leg.then.is_empty() && !(leg.stops.enemy && on_line(leg, delta)) {
                return false;
            }
            walk(leg, &view, from, 0, &mut hit)
        })
    }
}

/// Whether `delta` is a whole number of `leg`'s steps within its range (1 or more).
fn on_line(leg: &Leg, delta: (i32, i32)) -> bool {
    let (dx, dy) = leg.step;
    let k = if dx != 0 {
        if delta.0 % dx != 0 {
            return false;
        }
        delta.0 / dx
    } else {
        if delta.0 != 0 || dy == 0 || delta.1 % dy != 0 {
            return false;
        }
        delta.1 / dy
    };
    // A hop counts towards the range too: a ranged hopper lands within it.
    k >= 1 && delta.1 == k * dy && (leg.range == 0 || k as u32 <= leg.range)
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The board with the moving piece lifted off its square, and the piece it captured on the
/// way, if any, off its own.
struct Departed<'a, B: BoardView> {
    board: &'a B,
    from: (i32, i32),
    victim: Option<(i32, i32)>,
}

impl<B: BoardView> Departed<'_, B> {
    fn cell(&self, sq: (i32, i32)) -> Cell {
        if sq == self.from || Some(sq) == self.victim {
            Cell::Empty
        } else {
            self.board.cell(sq.0, sq.1)
        }
    }
}

/// Walks one leg and those after it, calling `emit` for every move that ends; returns true
/// as soon as `emit` does.
fn walk<B: BoardView>(
    leg: &Leg,
    board: &Departed<'_, B>,
    start: (i32, i32),
    last_length: u32,
    emit: &mut impl FnMut(Target) -> bool,
) -> bool {
    let (dx, dy) = leg.step;
    let mut at = start;
    let mut skip = leg.skip;
    let mut hop = leg.hop;
    let mut left = leg.range;
    let mut length = 0;
    loop {
        let prev = at;
        at = (at.0 + dx, at.1 + dy);
        length += 1;
        let cell = board.cell(at);
        if cell == Cell::Off {
            return false;
        }
        let mut counts = skip == 0;
        skip = skip.saturating_sub(1);
        if counts {
            let beside = board.cell((prev.0 + dx / 2, prev.1 + dy / 2));
            match leg.blocking {
                Blocking::Lame if beside != Cell::Empty => return false,
                Blocking::MustJump if beside == Cell::Empty => return false,
                _ => {}
            }
            if leg.equal_length && length != last_length {
                if cell != Cell::Empty {
                    return false;
                }
                counts = false;
            }
        }
        if counts {
            if !leg.then.is_empty() {
                if leg.stops.allows(cell) {
                    // An `i` leg matches the last rider leg: a leaper passes its length on.
                    let length = if leg.range == 1 { last_length } else { length };
                    let after = Departed {
                        victim: if leg.kills && cell == Cell::Enemy {
                            Some(at)
                        } else {
                            board.victim
                        },
                        ..*board
                    };
                    if leg
                        .then
                        .iter()
                        .any(|next| walk(next, &after, at, length, emit))
                    {
                        return true;
                    }
                }
                if cell != Cell::Empty {
                    return false;
                }
            } else if hop != Hop::None {
                if cell != Cell::Empty {
                    if hop == Hop::Grasshopper && left != 1 {
                        left = 2;
                    }
                    hop = Hop::None;
                }
            } else {
                if leg.stops.allows(cell) {
                    // Ending on the victim's square is a plain capture there.
                    let (capture, victim) = match board.victim {
                        Some(v) if v == at => (true, None),
                        v => (cell == Cell::Enemy, v),
                    };
                    let stop = emit(Target {
                        to: at,
                        capture,
                        victim,
                    });
                    if stop {
                        return true;
                    }
                }
                if cell != Cell::Empty {
                    return false;
                }
            }
        }
        // Range 0 is unlimited: it never counts down to zero.
        left = left.wrapping_sub(1);
        if left == 0 {
            return false;
        }
    }
}

/// How an atom's images are chosen by direction letters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Symmetry {
    /// Four orthogonal images (W, D, H, R).
    Orthogonal,
    /// Four diagonal images (F, A, G, B).
    Diagonal,
    /// Eight oblique images (N, C, Z).
    Oblique,
    /// Orthogonal and diagonal steps together (K, Q).
    King,
}

/// An atom: its step for the first image (files <= ranks, pointing forward), its symmetry and
/// whether it slides by default.
#[derive(Copy, Clone, Debug)]
struct Atom {
    step: (i32, i32),
    symmetry: Symmetry,
    rider: bool,
}

fn atom(letter: char) -> Option<Atom> {
    use Symmetry::*;
    let (step, symmetry, rider) = match letter {
        'W' => ((0, 1), Orthogonal, false),
        'D' => ((0, 2), Orthogonal, false),
        'H' => ((0, 3), Orthogonal, false),
        'R' => ((0, 1), Orthogonal, true),
        'F' => ((1, 1), Diagonal, false),
        'A' => ((2, 2), Diagonal, false),
        'G' => ((3, 3), Diagonal, false),
        'B' => ((1, 1), Diagonal, true),
        'N' => ((1, 2), Oblique, false),
        'C' => ((1, 3), Oblique, false),
        'Z' => ((2, 3), Oblique, false),
        'K' => ((0, 1), King, false),
        'Q' => ((0, 1), King, true),
        _ => return None,
    };
    Some(Atom {
        step,
        symmetry,
        rider,
    })
}

/// The eight images of a step, numbered clockwise from the step itself as XBoard numbers
/// them: for W, 0 = forward, 2 = right, 4 = back, 6 = left; for N, 0 = (1,2), 1 = (2,1), ...
fn image((x, y): (i32, i32), dir: usize) -> (i32, i32) {
    match dir % 8 {
        0 => (x, y),
        1 => (y, x),
        2 => (y, -x),
        3 => (x, -y),
        4 => (-x, -y),
        5 => (-y, -x),
        6 => (-y, x),
        _ => (-x, y),
    }
}

/// The step of a leg in the orthogonal-and-diagonal system later legs (and K, Q) use: even
/// directions are orthogonal, odd ones diagonal, `size` squares along each axis moved.
fn king_step(size: i32, dir: usize) -> (i32, i32) {
    if dir.is_multiple_of(2) {
        image((0, size), dir)
    } else {
        image((size, size), dir)
    }
}

/// `f b l r v s` as sets of steps: the wide set is every step with a component that way, the
/// narrow set only those whose larger component points that way.
fn wide(letter: u8, (x, y): (i32, i32)) -> bool {
    match letter {
        b'f' => y > 0,
        b'b' => y < 0,
        b'l' => x < 0,
        b'r' => x > 0,
        b'v' => y != 0,
        b's' => x != 0,
        _ => true,
    }
}

fn narrow(letter: u8, (x, y): (i32, i32)) -> bool {
    let (ax, ay) = (x.abs(), y.abs());
    match letter {
        b'f' => y > 0 && ay > ax,
        b'b' => y < 0 && ay > ax,
        b'l' => x < 0 && ax > ay,
        b'r' => x > 0 && ax > ay,
        b'v' => ay > ax,
        b's' => ax > ay,
        _ => true,
    }
}

/// How one group of direction letters selects steps.
#[derive(Copy, Clone, Debug)]
enum Pick {
    /// The narrow set of a letter.
    Narrow(u8),
    /// The wide set of a letter, cut by the wide set of a second.
    Wide(u8, Option<u8>),
    /// The wide set of the first letter cut by the narrow set of the second (oblique atoms).
    WideNarrow(u8, u8),
}

impl Pick {
    fn holds(self, v: (i32, i32)) -> bool {
        match self {
            Pick::Narrow(a) => narrow(a, v),
            Pick::Wide(a, b) => wide(a, v) && b.is_none_or(|b| wide(b, v)),
            Pick::WideNarrow(a, b) => wide(a, v) && narrow(b, v),
        }
    }
}

/// Whether direction letter `b` can refine `a` (one vertical, the other horizontal).
fn combinable(a: u8, b: u8) -> bool {
    let kind = |c: u8| match c {
        b'f' | b'b' => 1,
        b'l' | b'r' => 2,
        b'v' => 5,
        b's' => 6,
        _ => 0,
    };
    matches!(a, b'f' | b'b' | b'l' | b'r') && (kind(a) | kind(b)) & 3 == 3
}

/// The directions (0..8) a leg may take, from its direction letters, relative to the leg
/// before for a `continuation`. Later legs use the orthogonal-and-diagonal system whatever
/// the atom.
fn directions(
    letters: &[u8],
    symmetry: Symmetry,
    continuation: bool,
    at: usize,
) -> Result<Vec<usize>, BetzaError> {
    let system = if continuation {
        Symmetry::King
    } else {
        symmetry
    };
    let natural: Vec<usize> = match system {
        Symmetry::Orthogonal => vec![0, 2, 4, 6],
        Symmetry::Diagonal => vec![1, 3, 5, 7],
        Symmetry::Oblique | Symmetry::King => (0..8).collect(),
    };
    // The letters' tests depend only on signs and on which component is larger, so one
    // step of each kind stands for every atom of it.
    let vector = |dir: usize| {
        if system == Symmetry::Oblique {
            image((1, 2), dir)
        } else {
            king_step(1, dir)
        }
    };
    if letters.is_empty() {
        let eight = matches!(symmetry, Symmetry::Oblique | Symmetry::King);
        return Ok(match (continuation, eight) {
            (false, _) => natural,
            // A later leg never turns straight back, and a four-fold atom does not turn by 45
            // degrees unless asked to.
            (true, true) => (0..8).filter(|&d| d != 4).collect(),
            (true, false) => vec![0, 2, 6],
        });
    }
    let mut chosen = [false; 8];
    let mut i = 0;
    if system == Symmetry::Oblique && letters[0] == b'h' {
        let Some(&hand) = letters.get(1).filter(|c| matches!(c, b'l' | b'r')) else {
            return fault(
                at,
                "h on an oblique atom needs l or r (hl, hr: one hand of it)",
            );
        };
        for d in natural
            .iter()
            .filter(|&&d| d % 2 == usize::from(hand == b'l'))
        {
            chosen[*d] = true;
        }
        i = 2;
    }
    while i < letters.len() {
        let a = letters[i];
        let b = letters.get(i + 1).copied();
        if a == b'h' || b == Some(b'h') && system != Symmetry::Oblique {
            return fault(
                at,
                "h only refines oblique atoms (N, C, Z): fh, bh, lh, rh (a wide pair), hr, hl",
            );
        }
        let refines = |b: Option<u8>| b.filter(|&b| combinable(a, b));
        let (pick, used) = match (system, b) {
            (Symmetry::Orthogonal, _) => (Pick::Narrow(a), 1),
            (Symmetry::Diagonal, b) => match refines(b) {
                Some(b) => (Pick::Wide(a, Some(b)), 2),
                None => (Pick::Wide(a, None), 1),
            },
            (Symmetry::Oblique, Some(b'h')) if matches!(a, b'f' | b'b' | b'l' | b'r') => {
                (Pick::Wide(a, None), 2)
            }
            (Symmetry::Oblique, Some(b)) if b == a || combinable(a, b) => {
                (Pick::WideNarrow(a, b), 2)
            }
            (Symmetry::King, Some(b)) if b == a => (Pick::Narrow(a), 2),
            (Symmetry::King, b) => match refines(b) {
                Some(b) => (Pick::Wide(a, Some(b)), 2),
                None => (Pick::Narrow(a), 1),
            },
            (Symmetry::Oblique, _) => (Pick::Narrow(a), 1),
        };
        i += used;
        for &d in &natural {
            if pick.holds(vector(d)) {
                chosen[d] = true;
            }
        }
    }
    let dirs: Vec<usize> = natural.into_iter().filter(|&d| chosen[d]).collect();
    if dirs.is_empty() {
        return fault(at, "these direction letters select no move of this atom");
    }
    Ok(dirs)
}

/// One leg as written: its direction letters and modes.
#[derive(Clone, Debug, Default)]
struct LegText {
    at: usize,
    initial: bool,
    dirs: Vec<u8>,
    m: bool,
    c: bool,
    p: bool,
    g: bool,
    y: bool,
    n: bool,
    j: u32,
}

/// One move component: its legs, the atom they share and its range.
#[derive(Clone, Debug)]
struct Component {
    legs: Vec<LegText>,
    atom: Atom,
    /// None: the atom's own (1, or unlimited for R, B, Q).
    range: Option<u32>,
}

/// The order XBoard reads a leg's mode letters in.
const MODE_ORDER: &[u8] = b"mcdetpgoynj";

fn parse(text: &str) -> Result<Vec<Component>, BetzaError> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return fault(0, "an empty piece description");
    }
    let mut components = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let mut legs = Vec::new();
        let mut leg = LegText {
            at: i,
            ..LegText::default()
        };
        loop {
            let Some(&ch) = bytes.get(i) else {
                return fault(
                    i,
                    "the description ends without an atom (an upper-case letter)",
                );
            };
            match ch {
                b'i' if leg.dirs.is_empty() && !leg.initial && mode_rank(&leg) == 0 => {
                    leg.initial = true;
                }
                b'f' | b'b' | b'l' | b'r' | b'v' | b's' | b'h' => {
                    if mode_rank(&leg) > 0 {
                        return fault(
                            i,
                            format!(
                                "direction '{}' after a mode: write the directions first",
                                ch as char
                            ),
                        );
                    }
                    leg.dirs.push(ch);
                }
                b'a' => {
                    legs.push(std::mem::take(&mut leg));
                    leg.at = i + 1;
                }
                b'A'..=b'Z' => break,
                b'i' => return fault(i, "'i' must open its leg (before its directions)"),
                b'a'..=b'z' if MODE_ORDER.contains(&ch) => {
                    let rank = MODE_ORDER.iter().position(|&c| c == ch).unwrap_or(0) + 1;
                    let repeated_j = ch == b'j' && leg.j > 0;
                    if rank <= mode_rank(&leg) && !repeated_j {
                        return fault(
                            i,
                            format!(
                                "mode '{}' out of order: XBoard reads a leg's modes in the order {}",
                                ch as char,
                                String::from_utf8_lossy(MODE_ORDER)
                            ),
                        );
                    }
                    match ch {
                        b'm' => leg.m = true,
                        b'c' => leg.c = true,
                        b'p' => leg.p = true,
                        b'g' => leg.g = true,
                        b'y' => leg.y = true,
                        b'n' => leg.n = true,
                        b'j' => leg.j += 1,
                        b'd' => return fault(i, "'d' (capture an own piece) is not supported"),
                        b'e' => {
                            return fault(
                                i,
                                "'e' (en passant) is not supported in a piece: en passant belongs \
                                 to the variant's pawn kind",
                            );
                        }
                        b't' => return fault(i, "'t' (no enemy screens) is not supported"),
                        _ => return fault(i, "'o' (cylinder boards) is not supported"),
                    }
                }
                b'0'..=b'9' => return fault(i, "a range digit must follow an atom"),
                _ => {
                    return fault(i, format!("'{}' is not a modifier or an atom", ch as char));
                }
            }
            i += 1;
        }
        let atom_at = i;
        let letter = bytes[i] as char;
        let Some(atom) = atom(letter) else {
            let hint = match letter {
                'L' | 'J' => {
                    " (XBoard and Fairy-Stockfish disagree on L and J: write C for the \
                              camel, Z for the zebra)"
                }
                'O' => " (castling belongs to the variant, not to a piece)",
                _ => "",
            };
            return fault(i, format!("unknown atom '{letter}'{hint}"));
        };
        i += 1;
        let mut range = None;
        if bytes.get(i) == Some(&bytes[atom_at]) {
            range = Some(0);
            i += 1;
        } else {
            let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 2 {
                return fault(i, "a range has at most two digits");
            }
            if digits > 0 {
                range = text[i..i + digits].parse().ok();
                i += digits;
            }
        }
        legs.push(leg);
        check_legs(&legs)?;
        components.push(Component { legs, atom, range });
    }
    Ok(components)
}

/// The position in [`MODE_ORDER`] of the last mode the leg has (0: none yet).
fn mode_rank(leg: &LegText) -> usize {
    let flags = [
        leg.m, leg.c, false, false, false, leg.p, leg.g, false, leg.y, leg.n,
    ];
    let last = flags.iter().rposition(|&f| f).map_or(0, |p| p + 1);
    if leg.j > 0 { MODE_ORDER.len() } else { last }
}

fn check_legs(legs: &[LegText]) -> Result<(), BetzaError> {
    let last = legs.len() - 1;
    let mut kills = 0;
    for (k, leg) in legs.iter().enumerate() {
        if k == last {
            if leg.y {
                return fault(
                    leg.at,
                    "'y' only makes sense on a leg that another leg follows",
                );
            }
            if leg.p && leg.g {
                return fault(
                    leg.at,
                    "a leg hops as a cannon (p) or a grasshopper (g), not both",
                );
            }
        } else if leg.c {
            if leg.p || leg.g || leg.y {
                return fault(
                    leg.at,
                    "a locust leg (c) turns on the piece it captures: not with p, g or y",
                );
            }
            kills += 1;
            if kills > 1 {
                return fault(
                    leg.at,
                    "a second locust capture (c on a non-final leg) in one move is not supported",
                );
            }
        }
    }
    Ok(())
}

/// The legs of `c` from leg `k` on, after a leg in direction `angle`, with `range` the range
/// of the atom at this point (g and y toggle it).
fn build(
    c: &Component,
    color: Color,
    k: usize,
    angle: usize,
    range: u32,
) -> Result<Vec<Leg>, BetzaError> {
    let text = &c.legs[k];
    let unit_atom = c.atom.step.1 == 1;
    let relative = k > 0 || c.atom.symmetry == Symmetry::King;
    let dirs = directions(&text.dirs, c.atom.symmetry, k > 0, text.at)?;
    let final_leg = k + 1 == c.legs.len();
    let stops = if final_leg {
        let any = !text.m && !text.c;
        Stops {
            empty: text.m || any,
            enemy: text.c || any,
            own: false,
        }
    } else if text.c {
        Stops {
            empty: text.m,
            enemy: true,
            own: false,
        }
    } else {
        let turns_on_piece = text.p || text.g;
        Stops {
            empty: text.m || text.y || !turns_on_piece,
            enemy: turns_on_piece,
            own: turns_on_piece,
        }
    };
    let next_range = if text.g || text.y {
        if range == 1 { 0 } else { 1 }
    } else {
        range
    };
    // On a one-step atom `n` means nothing and `j` skips squares instead of jumping.
    let (blocking, skip) = match (unit_atom, text.n, text.j) {
        (true, _, j) => (Blocking::Free, j),
        (false, true, _) => (Blocking::Lame, 0),
        (false, false, 0) => (Blocking::Free, 0),
        (false, false, _) => (Blocking::MustJump, 0),
    };
    if final_leg && (text.p || text.g) && range == 1 {
        return fault(
            text.at,
            "p and g hop along a line: they need a rider (R, B, Q or a range)",
        );
    }
    let hop = match (final_leg, text.p, text.g) {
        (true, true, _) => Hop::Cannon,
        (true, _, true) => Hop::Grasshopper,
        _ => Hop::None,
    };
    let mut legs = Vec::new();
    for rel in dirs {
        let mut dir = if k > 0 { (rel + angle) % 8 } else { rel };
        if k == 0 && color == Color::Black {
            // XBoard turns Black's first legs half a turn; later legs follow.
            dir = (dir + 4) % 8;
        }
        let step = if relative {
            king_step(c.atom.step.1, dir)
        } else {
            image(c.atom.step, dir)
        };
        let then = if final_leg {
            Vec::new()
        } else {
            build(c, color, k + 1, dir, next_range)?
        };
        legs.push(Leg {
            step,
            range,
            stops,
            blocking,
            skip,
            hop,
            equal_length: k > 0 && text.initial,
            unmoved_only: k == 0 && text.initial,
            kills: !final_leg && text.c,
            then,
        });
    }
    Ok(legs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::pattern::pattern;
    use crate::rules::position::Position;
    use crate::rules::role::{EMPTY, OFFBOARD, Piece as BoardPiece, ROLE_COUNT, Role};
    use crate::rules::variant::Variant;

    /// An 8x8 board from a picture, rank 8 first: `.` empty, upper case own, lower case enemy.
    struct Picture(Vec<Vec<u8>>);

    impl Picture {
        fn new(rows: &[&str]) -> Picture {
            Picture(rows.iter().rev().map(|r| r.bytes().collect()).collect())
        }
    }

    impl BoardView for Picture {
        fn cell(&self, file: i32, rank: i32) -> Cell {
            let Some(&b) = usize::try_from(rank)
                .ok()
                .and_then(|r| self.0.get(r))
                .and_then(|row| row.get(usize::try_from(file).ok()?))
            else {
                return Cell::Off;
            };
            match b {
                b'.' => Cell::Empty,
                b'#' => Cell::Off,
                b'A'..=b'Z' => Cell::Own,
                _ => Cell::Enemy,
            }
        }
    }

    const EMPTY_BOARD: [&str; 8] = ["........"; 8];

    fn squares(piece: &str, rows: &[&str], from: &str, color: Color) -> Vec<String> {
        let p = Piece::parse(piece).unwrap_or_else(|e| panic!("{piece}: {e}"));
        let b = from.as_bytes();
        let from = ((b[0] - b'a') as i32, (b[1] - b'1') as i32);
        let name = |(f, r): (i32, i32)| format!("{}{}", (b'a' + f as u8) as char, r + 1);
        p.targets(color, &Picture::new(rows), from, true)
            .into_iter()
            .map(|t| {
                let x = if t.capture { "x" } else { "" };
                let victim = t.victim.map_or(String::new(), |v| format!("x{},", name(v)));
                format!("{victim}{x}{}", name(t.to))
            })
            .collect()
    }

    fn white(piece: &str, rows: &[&str], from: &str) -> Vec<String> {
        squares(piece, rows, from, Color::White)
    }

    #[test]
    fn leapers_and_their_direction_subsets() {
        assert_eq!(white("N", &EMPTY_BOARD, "d4").len(), 8);
        assert_eq!(white("N", &EMPTY_BOARD, "a1"), ["b3", "c2"]);
        // Narrow and wide forward knight moves, and Black's forward.
        let narrow = white("fN", &EMPTY_BOARD, "d4");
        assert_eq!(narrow, ["c6", "e6"]);
        assert_eq!(white("fsN", &EMPTY_BOARD, "d4"), ["b5", "f5"]);
        assert_eq!(white("fhN", &EMPTY_BOARD, "d4"), ["b5", "c6", "e6", "f5"]);
        assert_eq!(white("frN", &EMPTY_BOARD, "d4"), ["f5"]);
        assert_eq!(white("rfN", &EMPTY_BOARD, "d4"), ["e6"]);
        assert_eq!(
            squares("fN", &EMPTY_BOARD, "d4", Color::Black),
            ["c2", "e2"]
        );
        // A soldier: forward and sideways steps; the ferz's forward pair; the king's.
        assert_eq!(white("fsW", &EMPTY_BOARD, "d4"), ["c4", "d5", "e4"]);
        assert_eq!(white("fF", &EMPTY_BOARD, "d4"), ["c5", "e5"]);
        assert_eq!(white("flF", &EMPTY_BOARD, "d4"), ["c5"]);
        assert_eq!(white("fK", &EMPTY_BOARD, "d4"), ["d5"]);
        assert_eq!(white("fsK", &EMPTY_BOARD, "d4"), ["c5", "e5"]);
        assert_eq!(white("K", &EMPTY_BOARD, "d4").len(), 8);
        assert_eq!(white("C", &EMPTY_BOARD, "d4").len(), 8);
        assert_eq!(white("Z", &EMPTY_BOARD, "d4").len(), 8);
        assert_eq!(white("H", &EMPTY_BOARD, "d4"), ["a4", "d1", "d7", "g4"]);
    }

    #[test]
    fn modes_decide_what_a_move_may_land_on() {
        let rows = [
            "........", "........", "........", "...p....", "...P....", "........", "........",
            "........",
        ];
        let rows = &rows[..];
        // A pawn's moves without its double step: blocked ahead, captures diagonally.
        let pawn = white("fmWfcF", rows, "d4");
        assert!(pawn.is_empty(), "{pawn:?}");
        let rows2 = [
            "........", "........", "........", "..p.....", "...P....", "........", "........",
            "........",
        ];
        assert_eq!(white("fmWfcF", &rows2, "d4"), ["xc5", "d5"]);
        // Riders stop at the first piece, capturing an enemy and not a friend.
        let rook = white("R", &rows2, "d4");
        assert_eq!(rook.len(), 14);
        assert_eq!(white("R4", &EMPTY_BOARD, "a1").len(), 8);
        assert_eq!(white("W2", &EMPTY_BOARD, "a1"), ["a2", "a3", "b1", "c1"]);
        assert_eq!(
            white("NN", &EMPTY_BOARD, "a1"),
            white("N0", &EMPTY_BOARD, "a1")
        );
        assert_eq!(
            white("NN", &EMPTY_BOARD, "a1"),
            ["b3", "c2", "c5", "d7", "e3", "g4"]
        );
        // A pawn's double step only from its first square; `j` on a rider skips a square.
        let double = Piece::parse("ifmW2").unwrap();
        let board = Picture::new(&EMPTY_BOARD);
        assert_eq!(double.targets(Color::White, &board, (3, 1), true).len(), 2);
        assert!(
            double
                .targets(Color::White, &board, (3, 1), false)
                .is_empty()
        );
        assert_eq!(
            white("fjR", &EMPTY_BOARD, "d1"),
            ["d3", "d4", "d5", "d6", "d7", "d8"]
        );
    }

    #[test]
    fn hoppers_lame_leapers_and_multi_leg_moves() {
        let rows = [
            "........", "...p....", "........", "...P....", "........", "...N....", "........",
            "........",
        ];
        // Xiangqi cannon: moves as a rook, captures only by hopping one screen.
        assert_eq!(
            white("mRcpR", &rows, "d1"),
            ["a1", "b1", "c1", "d2", "e1", "f1", "g1", "h1"]
        );
        let from_d3 = [
            "a3", "b3", "c3", "d1", "d2", "d4", "xd7", "e3", "f3", "g3", "h3",
        ];
        assert_eq!(white("mRcpR", &rows, "d3"), from_d3);
        // Grasshopper: along queen lines, lands just behind the first piece.
        assert_eq!(white("gQ", &rows, "d1"), ["d4"]);
        // Xiangqi horse and the lame knight: blocked by the piece beside the leap.
        let horse = white("mafsW", &rows, "d4");
        assert!(!horse.contains(&"c6".to_string()) && horse.contains(&"b5".to_string()));
        assert_eq!(white("nN", &rows, "d4"), horse);
        // Hop onto a piece and slide on from it.
        assert_eq!(white("pafR", &rows, "d4"), ["d1", "d2", "d6", "xd7"]);
        // The Sissa: n orthogonal then n diagonal steps (or the reverse) over empty squares.
        let sissa = white("maifsbsRmaifsbsB", &EMPTY_BOARD, "a1");
        let expected = [
            "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "b3", "c1", "c2", "c5", "d1", "d7",
            "e1", "e3", "f1", "g1", "g4", "h1",
        ];
        assert_eq!(sissa, expected);
    }

    #[test]
    fn locust_captures() {
        let rows = [
            "........", "........", "...p....", "..p.p...", "...Q....", "........", "........",
            "........",
        ];
        // The checker's jump: over an adjacent enemy diagonally onto the empty square behind.
        assert_eq!(white("cafmF", &rows, "d4"), ["xc5,b6", "xe5,f6"]);
        // Forward only; Black's forward is down the board.
        assert_eq!(white("fmFfcafmF", &rows, "d4"), ["xc5,b6", "xe5,f6"]);
        assert_eq!(
            squares("fmFfcafmF", &rows, "d6", Color::Black),
            ["xc5,b4", "xe5,f4"]
        );
        // Capture next door and step on; `mc` turns on an empty square as well.
        assert_eq!(white("cafW", &rows, "d5"), ["xc5,b5", "xd6,d7", "xe5,f5"]);
        assert_eq!(white("mcafmW", &rows, "d5"), ["xc5,b5", "xd6,d7", "xe5,f5"]);
        assert_eq!(white("mcafmW", &rows, "d4"), ["b4", "d2", "f4"]);
        // The square after the victim may hold a second enemy, captured too.
        let file = [
            "........", "...p....", "...p....", "........", "........", "........", "........",
            "........",
        ];
        assert_eq!(white("cafW", &file, "d5"), ["xd6,xd7"]);
        // Hit and run back (Chu Shogi's igui): capture next door, end on the start square.
        assert_eq!(white("cabK", &rows, "d4"), ["xc5,d4", "xe5,d4"]);
    }

    /// A board of cells drawn at random, with an enemy forced onto one square.
    struct RandomBoard {
        cells: Vec<Cell>,
        enemy_at: (i32, i32),
    }

    impl BoardView for RandomBoard {
        fn cell(&self, file: i32, rank: i32) -> Cell {
            if (file, rank) == self.enemy_at {
                return Cell::Enemy;
            }
            if !(0..8).contains(&file) || !(0..8).contains(&rank) {
                return Cell::Off;
            }
            self.cells[(rank * 8 + file) as usize]
        }
    }

    #[test]
    fn the_attack_test_agrees_with_the_moves() {
        let mut rng = Rng::new(0xa77ac);
        let pieces = [
            "mNcB",
            "mBcN",
            "mRcpR",
            "gQ",
            "gR4",
            "pR3",
            "nN",
            "mafsW",
            "cafmF",
            "mWcafW",
            "cabK",
            "gafyafsR",
            "maifsbsRmaifsbsB",
            "fmWfcF",
            "jN",
            "fjR",
            "NN",
            "ifmW2K",
        ];
        let mut hits = 0;
        for text in pieces {
            let piece = Piece::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            for _ in 0..400 {
                let cells = (0..64)
                    .map(|_| match rng.below(6) {
                        0 => Cell::Own,
                        1 => Cell::Enemy,
                        _ => Cell::Empty,
                    })
                    .collect();
                let from = (rng.below(8) as i32, rng.below(8) as i32);
                let target = (rng.below(8) as i32, rng.below(8) as i32);
                if from == target {
                    continue;
                }
                let board = RandomBoard {
                    cells,
                    enemy_at: target,
                };
                let color = if rng.below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let unmoved = rng.below(2) == 0;
                let expected = piece
                    .targets(color, &board, from, unmoved)
                    .iter()
                    .any(|t| (t.capture && t.to == target) || t.victim == Some(target));
                let got = piece.attacks(color, &board, from, target, unmoved);
                assert_eq!(got, expected, "{text} from {from:?} on {target:?}");
                hits += usize::from(got);
            }
        }
        assert!(hits > 300, "{hits}");
    }

    #[test]
    fn faults_name_their_column() {
        for (text, column, words) in [
            ("", 1, "empty"),
            ("fm", 3, "without an atom"),
            ("X", 1, "unknown atom"),
            ("L", 1, "camel"),
            ("mfW", 2, "directions first"),
            ("cmW", 2, "out of order"),
            ("cacafW", 3, "second locust"),
            ("cpafW", 1, "locust leg"),
            ("eF", 1, "en passant"),
            ("N123", 2, "two digits"),
            ("3N", 1, "must follow an atom"),
            ("pN", 1, "need a rider"),
            ("hW", 1, "oblique"),
            ("fiW", 2, "open its leg"),
            ("W!", 2, "not a modifier"),
            ("yW", 1, "another leg"),
        ] {
            let e = Piece::parse(text).expect_err(text);
            assert_eq!(e.at + 1, column, "{text}: {e}");
            assert!(e.to_string().contains(words), "{text}: {e}");
        }
    }

    /// A position seen from the side of the piece on the square asked about.
    struct PositionView<'a> {
        pos: &'a Position,
        color: Color,
    }

    impl BoardView for PositionView<'_> {
        fn cell(&self, file: i32, rank: i32) -> Cell {
            let Some(sq) = self.pos.variant.geometry.square(file, rank) else {
                return Cell::Off;
            };
            match self.pos.board[sq.index()] {
                EMPTY => Cell::Empty,
                OFFBOARD => Cell::Off,
                code if code & self.color.bit() != 0 => Cell::Own,
                _ => Cell::Enemy,
            }
        }
    }

    #[test]
    fn built_in_pieces_as_xbetza_match_the_generator() {
        let pieces: Vec<(Role, Piece)> = Role::BUILTIN
            .iter()
            .filter_map(|&role| Some((role, Piece::parse(pattern(role).xbetza?).unwrap())))
            .collect();
        assert_eq!(
            pieces.len(),
            Role::BUILTIN.len() - 2,
            "all but the two pawns"
        );
        let mut rng = Rng::new(0xbe72a);
        let mut checked = [0usize; ROLE_COUNT];
        // The fairy variants bring the archbishop and the chancellor.
        let fairy = crate::tools::variant_files::parse(
            "fairy.ini",
            include_str!("../../variants/fairy.ini"),
        )
        .expect("variants/fairy.ini");
        for v in Variant::all().into_iter().chain(fairy) {
            for _ in 0..40 {
                let plies = 10 + rng.below(90);
                crate::rules::position::random_game(v, &mut rng, plies, |pos, _| {
                    let g = &v.geometry;
                    for color in Color::ALL {
                        for &sq in &pos.pieces[color.index()] {
                            let Some(BoardPiece { role, .. }) = pos.piece_at(sq) else {
                                continue;
                            };
                            let Some((_, piece)) = pieces.iter().find(|(r, _)| *r == role) else {
                                continue;
                            };
                            let mut expected = BTreeSet::new();
                            pos.piece_targets(sq, role.index(), color, |to| {
                                expected.insert(Target {
                                    to: (g.file(to), g.rank(to)),
                                    capture: pos.board[to.index()] != EMPTY,
                                    victim: None,
                                });
                            });
                            let view = PositionView { pos, color };
                            let from = (g.file(sq), g.rank(sq));
                            let got = piece.targets(color, &view, from, false);
                            assert_eq!(got, expected, "{} {} {}", v.id(), pos.fen(), piece);
                            checked[role.index()] += 1;
                        }
                    }
                });
            }
        }
        for (role, _) in &pieces {
            assert!(checked[role.index()] > 200, "{role:?}: {checked:?}");
        }
    }
}
