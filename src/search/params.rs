//! Every tunable number of the search, the time manager and the evaluation, by name, in one
//! place. Evaluation terms are (middlegame, endgame) pairs in centipawns, blended by the game
//! phase.

use crate::role::Role;

/// A (middlegame, endgame) pair.
pub type Pair = (i32, i32);

// ---- Material -------------------------------------------------------------------------------

/// Material value of a role, the same in every variant that has it.
///
/// The fairy pieces started from their average empty-board mobility (the evaluation's own
/// tables: knight 5, bishop 8-11, rook 14-18, queen 22-29; Amazon 28, Venator 11 with a
/// screen next to it on every side, Wazir- and Ferz-Knight 9, Snake 10, Sissa 29) and were
/// then tuned by `sissa selfplay` at 5000 nodes a move, 100 games a step:
/// - Venator: 320 (one knight) lost 70 +/- 65 Elo to 260; 210 (2/3 knight) scored even with
///   260 over 200 games: about 0.8 of a knight.
/// - Sissa: 560 -> 660 -> 780 -> 900 -> 1020 each gained 60-100 Elo (+/- 65-70), 1150 lost
///   42 to 1020: about a queen, as its empty-board reach says.
/// - Snake: 480 gained 78 +/- 69 on 390; 580 lost 28 to 480.
/// - Amazon (queen plus knight), Wazir- and Ferz-Knight (a knight plus a short step): not
///   tuned.
pub fn material(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Ninja => 110,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 0,
        Role::Amazon => 1250,
        Role::Venator => 260,
        Role::WazirKnight => 370,
        Role::FerzKnight => 380,
        Role::Sissa => 1000,
        Role::Snake => 480,
    }
}

/// A Ninja pawn still in hand: it can be dropped where it is needed, so about a pawn.
pub const NINJA_IN_HAND: Pair = (95, 110);

/// Weight of a role in the game phase (the queen counts 4, as in most engines).
pub fn phase_weight(role: Role) -> i32 {
    match role {
        Role::Pawn | Role::Ninja | Role::King => 0,
        Role::Knight | Role::Bishop | Role::Venator => 1,
        Role::WazirKnight | Role::FerzKnight | Role::Snake => 1,
        Role::Rook | Role::Sissa => 2,
        Role::Queen => 4,
        Role::Amazon => 5,
    }
}

// ---- Piece-square terms (generated from the board's geometry) --------------------------------

/// Centipawns per empty-board move above the role's board average (middlegame, endgame).
pub const PST_MOBILITY: Pair = (3, 2);
/// Centipawns per step nearer the centre (Chebyshev distance), for pieces.
pub const PST_CENTRE: Pair = (4, 2);
/// Pawn bonus per rank advanced (middlegame, endgame).
pub const PST_PAWN_ADVANCE: Pair = (4, 10);
/// Pawn bonus for standing on the central files.
pub const PST_PAWN_CENTRE: Pair = (6, 0);
/// King: middlegame penalty per rank away from the back rank, endgame bonus per step nearer
/// the centre.
pub const KING_LEAVES_HOME: i32 = 18;
pub const KING_CENTRE_ENDGAME: i32 = 10;

// ---- Mobility --------------------------------------------------------------------------------

/// Centipawns per reachable square above the role's empty-board average, scaled down by
/// 1/4 for the long-range pieces that have many.
pub const MOBILITY: Pair = (4, 4);

// ---- King safety -----------------------------------------------------------------------------

/// Attack units per hit of an enemy piece on a king-zone square.
pub const KING_ZONE_HIT: i32 = 2;
/// Middlegame penalty: units * units / this, capped.
pub const KING_DANGER_DIVISOR: i32 = 4;
pub const KING_DANGER_CAP: i32 = 600;
/// Middlegame penalty per open file (no own pawn) at or beside the king, when the enemy has
/// a piece that slides along files.
pub const KING_OPEN_FILE: i32 = 20;
/// Middlegame bonus per own pawn on the three squares in front of the king (and one further).
pub const KING_SHIELD: i32 = 12;
/// Middlegame penalty per enemy Ninja pawn in hand while the king stands in the enemy half,
/// where those pawns can be dropped next to it.
pub const NINJA_DROP_THREAT: i32 = 15;

// ---- Pawns -----------------------------------------------------------------------------------

pub const DOUBLED_PAWN: Pair = (-10, -20);
pub const ISOLATED_PAWN: Pair = (-10, -15);
/// Passed pawn bonus by the number of pawn moves it still needs to promote (index 0 unused).
pub const PASSED_PAWN: [Pair; 8] = [
    (0, 0),
    (70, 160),
    (45, 110),
    (30, 70),
    (20, 45),
    (12, 25),
    (6, 12),
    (3, 6),
];
/// Passed pawn bonus kept (out of 4) while the enemy can still drop pawns into its way.
pub const PASSER_UNDER_DROPS: i32 = 2;

// ---- Whole-position terms --------------------------------------------------------------------

/// Bonus for the side to move.
pub const TEMPO: i32 = 15;
/// A side without pawns (board or hand) needs more than this much extra non-pawn material to
/// win; otherwise the evaluation is scaled down.
pub const DRAWISH_MARGIN: i32 = 350;
/// Scale (out of 64) kept in such drawish endings.
pub const DRAWISH_SCALE: i32 = 16;

// ---- Search ----------------------------------------------------------------------------------

/// Half-width of the first aspiration window, in centipawns.
pub const ASPIRATION_WINDOW: i32 = 30;
/// Depth from which aspiration windows are used.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Reverse futility: margin per depth, and the deepest depth it is tried at.
pub const RFP_MARGIN: i32 = 80;
pub const RFP_MAX_DEPTH: i32 = 6;
/// Null move: shallowest depth, base reduction, extra reduction per this many plies.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Futility pruning of quiet moves: margin = base + per_depth * depth, up to max depth.
pub const FUTILITY_BASE: i32 = 100;
pub const FUTILITY_PER_DEPTH: i32 = 100;
pub const FUTILITY_MAX_DEPTH: i32 = 3;
/// Late move pruning (with futility): at depth d, quiet moves after this base + d*d are
/// skipped.
pub const LMP_BASE: usize = 4;
/// Late move reductions: shallowest depth, moves searched before reducing, and the formula
/// base + ln(depth) * ln(moves) / divisor.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 3;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// Null move: a further ply of reduction per this much static evaluation above beta, up to
/// this many plies.
pub const NMP_EVAL_DIVISOR: i32 = 200;
pub const NMP_EVAL_MAX: i32 = 3;
/// Late move reductions: a quiet move's history (its own plus continuation histories) per
/// ply of reduction taken off (or added when negative).
pub const LMR_HISTORY_DIVISOR: i32 = 12_000;
/// SEE pruning at shallow depth in non-PV nodes: captures losing more than this per ply of
/// depth, quiet moves losing more than this per ply squared, are skipped.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
pub const SEE_CAPTURE_MARGIN: i32 = 90;
pub const SEE_QUIET_MARGIN: i32 = 25;
/// Internal iterative reduction: depth from which a node without a hash move is searched
/// one ply shallower. From depth 4 (as first measured) it cost the shortest mate in the
/// venator mate-in-3 test at depth 8: the lost plies add up along the mating line.
pub const IIR_MIN_DEPTH: i32 = 6;
/// Quiescence: a capture that cannot bring the score within this of alpha is skipped.
pub const DELTA_MARGIN: i32 = 200;
/// History scores saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16_384;

// ---- Time ------------------------------------------------------------------------------------

/// Moves assumed left when the clock gives no moves-to-go.
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Share of the increment spent per move, out of 4.
pub const INCREMENT_SHARE: u32 = 3;
/// The hard limit is this many times the target, but never more than the share below of
/// the time left.
pub const HARD_LIMIT_FACTOR: u32 = 4;
/// Largest share of the remaining time (out of 8) one move may use.
pub const MAX_SHARE_OF_CLOCK: u32 = 3;
/// An iteration is not started after this share (out of 8) of the target time.
pub const SOFT_STOP_SHARE: u32 = 5;
/// Soft target scaling: each recent change of the best move adds this share (the change
/// count halves every iteration), and the target is multiplied by (base - share of the
/// iteration's nodes spent on the best move), within [min, max].
pub const STABILITY_WEIGHT: f64 = 0.5;
pub const NODE_SHARE_BASE: f64 = 1.5;
pub const SOFT_SCALE_MIN: f64 = 0.5;
pub const SOFT_SCALE_MAX: f64 = 2.0;
/// Nodes between two looks at the clock and the stop flag.
pub const CHECK_EVERY: u64 = 1024;
