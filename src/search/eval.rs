//! The static evaluation: material, piece-square terms generated from the variant's board,
//! mobility, king safety, pawn structure and passed pawns, Ninja pawns in hand, tempo, and a
//! scale-down of drawish endings. Every number comes from [`super::params`].

use crate::rules::geometry::SquareSet;
use crate::rules::geometry::{CELLS, Square};
use crate::rules::pattern::Special;
use crate::rules::position::Position;
use crate::rules::role::{Color, EMPTY, ROLE_COUNT, Role, code_role};
use crate::rules::variant::{PerVariant, Variant};

use super::params::{self as p, Pair};

/// Per-variant tables built once from the board's geometry.
struct Tables {
    /// Piece-square (middlegame, endgame) per colour, role and square.
    pst: [Vec<[Pair; CELLS]>; 2],
    /// Average empty-board mobility per role (the baseline of the mobility term).
    mobility_mean: [i32; ROLE_COUNT],
    /// Pawn moves needed from a square to promote, per colour (by the variant's pawn ranges).
    moves_to_promote: [Vec<u8>; 2],
    /// Whether a role's pieces slide along files (for open files near the king).
    file_sliders: u32,
}

fn tables(v: &'static Variant) -> &'static Tables {
    static CELL: PerVariant<Tables> = PerVariant::new();
    CELL.get(v, || build_tables(v))
}

/// Number of moves `role` has from `sq` on the variant's empty board. A Venator needs a
/// screen, so it is counted with a screen on every orthogonal neighbour.
fn empty_board_mobility(v: &'static Variant, role: Role, sq: Square) -> i32 {
    let mut pos = Position::empty(v);
    pos.board[sq.index()] = Color::White.bit() | role as u8;
    if v.special[role.index()] == Special::Venator {
        for &d in &v.orth {
            let n = sq.shift(d);
            if pos.board[n.index()] == EMPTY {
                pos.board[n.index()] = Color::Black.bit() | Role::Pawn as u8;
            }
        }
    }
    let none = SquareSet::default();
    piece_mobility(&pos, sq, role, Color::White, &none).0
}

fn build_tables(v: &'static Variant) -> Tables {
    let g = &v.geometry;
    let ranks = g.ranks() as i32;
    let files = g.files() as i32;
    let mut mobility_mean = [0; ROLE_COUNT];
    let mut empty_mob = vec![[0i32; CELLS]; ROLE_COUNT];
    for &role in v.spec.army {
        let mut sum = 0;
        for &sq in g.squares() {
            let m = empty_board_mobility(v, role, sq);
            empty_mob[role.index()][sq.index()] = m;
            sum += m;
        }
        mobility_mean[role.index()] = sum / g.square_count() as i32;
    }
    // Twice the distance from the centre, so that even-sized boards stay in integers.
    let centre_distance = |sq: Square| {
        let df = (2 * g.file(sq) - (files - 1)).abs();
        let dr = (2 * g.rank(sq) - (ranks - 1)).abs();
        df.max(dr) / 2
    };
    let max_centre = (files.max(ranks) - 1) / 2;
    let mut pst = [
        vec![[(0, 0); CELLS]; ROLE_COUNT],
        vec![[(0, 0); CELLS]; ROLE_COUNT],
    ];
    for &role in v.spec.army {
        for &sq in g.squares() {
            let centre = max_centre - centre_distance(sq);
            let mob = empty_mob[role.index()][sq.index()] - mobility_mean[role.index()];
            for c in Color::ALL {
                let rel = g.relative_rank(sq, c == Color::White);
                let (mg, eg) = match role {
                    Role::Pawn | Role::Ninja => {
                        let central = (2 * g.file(sq) - (files - 1)).abs() <= 3;
                        let c_bonus = if central { p::PST_PAWN_CENTRE } else { (0, 0) };
                        (
                            rel * p::PST_PAWN_ADVANCE.0 + c_bonus.0,
                            rel * p::PST_PAWN_ADVANCE.1 + c_bonus.1,
                        )
                    }
                    Role::King => (-rel * p::KING_LEAVES_HOME, centre * p::KING_CENTRE_ENDGAME),
                    _ => (
                        mob * p::PST_MOBILITY.0 + centre * p::PST_CENTRE.0,
                        mob * p::PST_MOBILITY.1 + centre * p::PST_CENTRE.1,
                    ),
                };
                pst[c.index()][role.index()][sq.index()] = (mg, eg);
            }
        }
    }
    let mut moves_to_promote = [vec![0u8; CELLS], vec![0u8; CELLS]];
    for &sq in g.squares() {
        for c in Color::ALL {
            let mut rel = g.relative_rank(sq, c == Color::White);
            let mut moves = 0u8;
            while rel < ranks - 1 && moves < 30 {
                let reach = v.spec.pawn_reach.get(rel as usize).copied().unwrap_or(0) as i32;
                rel = reach.max(rel + 1);
                moves += 1;
            }
            moves_to_promote[c.index()][sq.index()] = moves;
        }
    }
    let file_sliders = v
        .spec
        .army
        .iter()
        .filter(|r| {
            matches!(
                r,
                Role::Rook | Role::Queen | Role::Amazon | Role::Sissa | Role::Chancellor
            ) || v.special[r.index()] == Special::Venator
        })
        .fold(0, |m, r| m | r.mask());
    Tables {
        pst,
        mobility_mean,
        moves_to_promote,
        file_sliders,
    }
}

/// The moves of the piece on `sq` (targets empty or enemy), and how many of them land in
/// `zone`. Pawns are left to the pawn terms.
fn piece_mobility(
    pos: &Position,
    sq: Square,
    role: Role,
    color: Color,
    zone: &SquareSet,
) -> (i32, i32) {
    let mut count = 0;
    let mut hits = 0;
    pos.piece_targets(sq, role.index(), color, |to| {
        count += 1;
        if zone.contains(to) {
            hits += 1;
        }
    });
    (count, hits)
}

/// The squares around `color`'s king, and the next rank forward.
fn king_zone(pos: &Position, color: Color) -> SquareSet {
    let v = pos.variant;
    let k = pos.king(color);
    let mut zone = SquareSet::default();
    zone.insert(k);
    for &d in v.orth.iter().chain(v.diag.iter()) {
        let s = k.shift(d);
        if v.geometry.contains(s) {
            zone.insert(s);
        }
    }
    let fwd = v.forward[color.index()];
    for side in [-1, 0, 1] {
        let s = k.shift(2 * fwd + side);
        if v.geometry.contains(s) {
            zone.insert(s);
        }
    }
    zone
}

/// The terms of the evaluation, as `eval` shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Material,
    PieceSquare,
    Mobility,
    Hand,
    DoubledPawns,
    IsolatedPawns,
    PassedPawns,
    KingDanger,
    KingOpenFiles,
    KingShield,
    DropThreat,
}

impl Term {
    pub const ALL: [Term; 11] = [
        Term::Material,
        Term::PieceSquare,
        Term::Mobility,
        Term::Hand,
        Term::DoubledPawns,
        Term::IsolatedPawns,
        Term::PassedPawns,
        Term::KingDanger,
        Term::KingOpenFiles,
        Term::KingShield,
        Term::DropThreat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::PieceSquare => "Piece-square",
            Term::Mobility => "Mobility",
            Term::Hand => "Pieces in hand",
            Term::DoubledPawns => "Doubled pawns",
            Term::IsolatedPawns => "Isolated pawns",
            Term::PassedPawns => "Passed pawns",
            Term::KingDanger => "King danger",
            Term::KingOpenFiles => "King open files",
            Term::KingShield => "King shield",
            Term::DropThreat => "Drop threat",
        }
    }
}

/// Where the evaluation's terms go: nowhere in the search, into a [`Trace`] for `eval`.
trait Tracer {
    fn note(&mut self, term: Term, color: usize, value: Pair);
}

struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn note(&mut self, _: Term, _: usize, _: Pair) {}
}

/// The evaluation term by term, and the steps from their sum to the result.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Per term (in [`Term::ALL`] order) and colour (White, Black): (middlegame, endgame).
    pub terms: Vec<[Pair; 2]>,
    /// The game phase and its full value (the start position's).
    pub phase: i32,
    pub full_phase: i32,
    /// White's minus Black's sums blended by the phase, in centipawns for White.
    pub blended: i32,
    /// The drawish-ending scale out of 64 (64 when none applies).
    pub drawish_scale: i32,
    /// The 50-move fade out of 200.
    pub fade: i32,
    /// The side to move's bonus.
    pub tempo: i32,
    /// The result, from the side to move's view (what the search sees).
    pub total: i32,
}

impl Tracer for Trace {
    fn note(&mut self, term: Term, color: usize, value: Pair) {
        let i = Term::ALL.iter().position(|&t| t == term).unwrap_or(0);
        if self.terms.len() < Term::ALL.len() {
            self.terms.resize(Term::ALL.len(), [(0, 0); 2]);
        }
        self.terms[i][color].0 += value.0;
        self.terms[i][color].1 += value.1;
    }
}

#[inline(always)]
fn put(score: &mut [Pair; 2], color: usize, term: Term, value: Pair, tr: &mut impl Tracer) {
    score[color].0 += value.0;
    score[color].1 += value.1;
    tr.note(term, color, value);
}

/// Material alone (board and hand), from the side to move's point of view.
pub fn material_only(pos: &Position) -> i32 {
    let mut s = 0;
    for c in Color::ALL {
        let sign = if c == pos.side_to_move() { 1 } else { -1 };
        for &role in pos.variant.spec.army {
            s += sign * p::material(role) * pos.count(c, role) as i32;
        }
        s += sign * p::NINJA_IN_HAND.0 * pos.hand(c) as i32;
    }
    s
}

/// The full evaluation, from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &mut NoTrace).0
}

/// The evaluation with every term (what `eval` prints); its total is [`evaluate`]'s.
pub fn trace(pos: &Position) -> Trace {
    let mut t = Trace::default();
    t.terms.resize(Term::ALL.len(), [(0, 0); 2]);
    let (_, steps) = evaluate_with(pos, &mut t);
    Trace {
        terms: t.terms,
        ..steps
    }
}

/// The evaluation and its steps after the terms (the terms go to `tr`).
fn evaluate_with(pos: &Position, tr: &mut impl Tracer) -> (i32, Trace) {
    let v = pos.variant;
    let t = tables(v);
    let g = &v.geometry;
    let files = g.files() as usize;
    let mut score: [Pair; 2] = [(0, 0); 2];
    let mut phase = 0;
    let mut non_pawn = [0i32; 2];
    let mut pawns_on_file = [[0u8; 16]; 2];
    // Per colour and file, the lowest and highest rank a pawn of that colour stands on.
    let mut lowest_pawn = [[i32::MAX; 16]; 2];
    let mut highest_pawn = [[i32::MIN; 16]; 2];
    let zones = [king_zone(pos, Color::White), king_zone(pos, Color::Black)];
    let mut danger = [0i32; 2];
    let mut attackers = [0i32; 2];
    let mut file_slider_count = [0; 2];

    for c in Color::ALL {
        let ci = c.index();
        let enemy_zone = &zones[c.flip().index()];
        for &sq in pos.pieces(c) {
            let code = pos.board[sq.index()];
            let Some(role) = Role::from_code(code_role(code)) else {
                continue;
            };
            let m = p::material(role);
            put(
                &mut score,
                ci,
                Term::PieceSquare,
                t.pst[ci][role.index()][sq.index()],
                tr,
            );
            put(&mut score, ci, Term::Material, (m, m), tr);
            phase += p::phase_weight(role);
            if role.is_pawn_like() {
                let (f, r) = (g.file(sq) as usize, g.rank(sq));
                pawns_on_file[ci][f] += 1;
                lowest_pawn[ci][f] = lowest_pawn[ci][f].min(r);
                highest_pawn[ci][f] = highest_pawn[ci][f].max(r);
                continue;
            }
            if role == Role::King {
                continue;
            }
            non_pawn[ci] += m;
            if t.file_sliders & role.mask() != 0 {
                file_slider_count[ci] += 1;
            }
            let (mob, hits) = piece_mobility(pos, sq, role, c, enemy_zone);
            let mean = t.mobility_mean[role.index()];
            let scale = if mean > 12 { 4 } else { 1 };
            let m = (mob - mean) * 4 / scale;
            let mobility = (m * p::MOBILITY.0 / 4, m * p::MOBILITY.1 / 4);
            put(&mut score, ci, Term::Mobility, mobility, tr);
            if hits > 0 {
                danger[c.flip().index()] += hits * p::KING_ZONE_HIT;
                attackers[c.flip().index()] += 1;
            }
        }
        let hand = pos.hand(c) as i32;
        let in_hand = (hand * p::NINJA_IN_HAND.0, hand * p::NINJA_IN_HAND.1);
        put(&mut score, ci, Term::Hand, in_hand, tr);
    }

    // Pawn structure and passed pawns.
    for c in Color::ALL {
        let ci = c.index();
        let them = c.flip();
        for f in 0..files {
            let n = pawns_on_file[ci][f] as i32;
            if n > 1 {
                let d = p::DOUBLED_PAWN;
                put(
                    &mut score,
                    ci,
                    Term::DoubledPawns,
                    ((n - 1) * d.0, (n - 1) * d.1),
                    tr,
                );
            }
            if n > 0 {
                let left = f > 0 && pawns_on_file[ci][f - 1] > 0;
                let right = f + 1 < files && pawns_on_file[ci][f + 1] > 0;
                if !left && !right {
                    let d = p::ISOLATED_PAWN;
                    put(&mut score, ci, Term::IsolatedPawns, (n * d.0, n * d.1), tr);
                }
            }
        }
        for &sq in pos.pieces(c) {
            let role = code_role(pos.board[sq.index()]);
            if role != Role::Pawn as u8 && role != Role::Ninja as u8 {
                continue;
            }
            let (f, r) = (g.file(sq) as usize, g.rank(sq));
            let mut files_around = f.saturating_sub(1)..(f + 2).min(files);
            let passed = if c == Color::White {
                files_around.all(|x| highest_pawn[1][x] <= r)
            } else {
                files_around.all(|x| lowest_pawn[0][x] >= r)
            };
            if passed {
                let moves = t.moves_to_promote[ci][sq.index()] as usize;
                let mut bonus = p::PASSED_PAWN[moves.min(p::PASSED_PAWN.len() - 1)];
                if pos.hand(them) > 0 {
                    bonus.0 = bonus.0 * p::PASSER_UNDER_DROPS / 4;
                    bonus.1 = bonus.1 * p::PASSER_UNDER_DROPS / 4;
                }
                put(&mut score, ci, Term::PassedPawns, bonus, tr);
            }
        }
    }

    // King safety (middlegame only).
    for c in Color::ALL {
        let ci = c.index();
        let them = c.flip();
        let k = pos.king(c);
        if attackers[ci] >= 2 {
            let units = danger[ci];
            let penalty = (units * units / p::KING_DANGER_DIVISOR).min(p::KING_DANGER_CAP);
            put(&mut score, ci, Term::KingDanger, (-penalty, 0), tr);
        }
        let kf = g.file(k);
        if file_slider_count[them.index()] > 0 {
            for f in (kf - 1).max(0)..=(kf + 1).min(files as i32 - 1) {
                if pawns_on_file[ci][f as usize] == 0 {
                    put(
                        &mut score,
                        ci,
                        Term::KingOpenFiles,
                        (-p::KING_OPEN_FILE, 0),
                        tr,
                    );
                }
            }
        }
        let fwd = v.forward[ci];
        for s in [
            k.shift(fwd - 1),
            k.shift(fwd),
            k.shift(fwd + 1),
            k.shift(2 * fwd),
        ] {
            let code = pos.board[s.index()];
            if code & crate::rules::role::COLOR_BITS == c.bit()
                && Role::from_code(code_role(code)).is_some_and(|r| r.is_pawn_like())
            {
                put(&mut score, ci, Term::KingShield, (p::KING_SHIELD, 0), tr);
            }
        }
        let rel = g.relative_rank(k, c == Color::White);
        if rel >= g.ranks() as i32 / 2 - 1 {
            let threat = (-p::NINJA_DROP_THREAT * pos.hand(them) as i32, 0);
            put(&mut score, ci, Term::DropThreat, threat, tr);
        }
    }

    let (mg, eg) = (score[0].0 - score[1].0, score[0].1 - score[1].1);
    let full_phase = full_phase(v);
    let ph = phase.min(full_phase);
    let mut total = (mg * ph + eg * (full_phase - ph)) / full_phase.max(1);
    let blended = total;
    let mut drawish_scale = 64;

    // Drawish endings: the side ahead has no pawns and too little extra material.
    let strong = if total > 0 { 0 } else { 1 };
    let strong_color = Color::ALL[strong];
    let pawns = |c: Color| {
        pos.count(c, Role::Pawn) as i32 + pos.count(c, Role::Ninja) as i32 + pos.hand(c) as i32
    };
    if pawns(strong_color) == 0 && non_pawn[strong] - non_pawn[1 - strong] <= p::DRAWISH_MARGIN {
        drawish_scale = p::DRAWISH_SCALE;
        total = total * drawish_scale / 64;
    }
    // Fade towards a draw as the 50-move counter runs.
    let fade = fifty_move_fade(pos);
    total = total * fade / 200;

    let us = if pos.side_to_move() == Color::White {
        total
    } else {
        -total
    };
    let steps = Trace {
        terms: Vec::new(),
        phase: ph,
        full_phase,
        blended,
        drawish_scale,
        fade,
        tempo: p::TEMPO,
        total: us + p::TEMPO,
    };
    (us + p::TEMPO, steps)
}

/// How much of an evaluation is kept as the n-move counter runs, out of 200: all of it
/// after an irreversible move, half when the rule draws (the hundredth ply for 50 moves).
/// The network's score fades the same.
pub fn fifty_move_fade(pos: &Position) -> i32 {
    let limit = pos.move_rule_plies().max(1);
    200 - (100 * pos.halfmove_clock().min(limit) / limit) as i32
}

/// The phase of the start position (the most the phase counts).
fn full_phase(v: &'static Variant) -> i32 {
    static CELL: PerVariant<i32> = PerVariant::new();
    *CELL.get(v, || {
        let pos = Position::startpos(v);
        Color::ALL
            .iter()
            .flat_map(|&c| pos.pieces(c).iter().map(move |&s| (c, s)))
            .filter_map(|(_, s)| pos.piece_at(s))
            .map(|pc| p::phase_weight(pc.role))
            .sum()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_are_balanced() {
        for v in Variant::all() {
            let pos = Position::startpos(v);
            assert_eq!(evaluate(&pos), p::TEMPO, "{}", v.id());
            assert_eq!(material_only(&pos), 0);
        }
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        let v = Variant::by_name("venator").expect("venator");
        let a = Position::from_fen(
            v,
            "v3k4v/*pp3pp1*/*8*/*3Pp3*/*8*/*8*/*PP3PP1*/V3K4V w - - 0 1",
        )
        .expect("fen");
        let b = Position::from_fen(
            v,
            "v3k4v/*pp3pp1*/*8*/*8*/*3pP3*/*8*/*PP3PP1*/V3K4V b - - 0 1",
        )
        .expect("fen");
        assert_eq!(evaluate(&a), evaluate(&b));
    }
}
