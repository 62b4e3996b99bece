//! Every tunable number of the search, the time manager and the evaluation, by name, in one
//! place. Evaluation terms are (middlegame, endgame) pairs in centipawns, blended by the game
//! phase.

use crate::rules::role::Role;

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
        // Capablanca's pieces, by the usual estimates (not tuned): a little under and
        // about a queen.
        Role::Archbishop => 875,
        Role::Chancellor => 925,
        // A file's piece: the value its file gives, or one estimated from its reach.
        _ => crate::rules::pattern::custom(role).map_or(0, |c| c.value),
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
        Role::Queen | Role::Archbishop | Role::Chancellor => 4,
        Role::Amazon => 5,
        // A file's piece, by its value: a knight's counts 1, a rook's 2, a queen's 4.
        _ => ((material(role) + 50) / 250).clamp(0, 5),
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
/// 1/4 for the long-range pieces that have many. Texel-fitted (docs/nnue.md): the data of
/// gustav3, venator and chess all wanted about twice the old (4, 4) in the endgame.
pub const MOBILITY: Pair = (5, 8);

// ---- King safety -----------------------------------------------------------------------------

/// Attack units per hit of an enemy piece on a king-zone square.
pub const KING_ZONE_HIT: i32 = 2;
/// Middlegame penalty: units * units / this, capped. Texel-fitted: 2, where 4 was half of
/// what the data of three variants wanted.
pub const KING_DANGER_DIVISOR: i32 = 2;
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

/// Doubled pawns, Texel-fitted from (-10, -20): in the endgame the data of gustav3 and
/// venator saw no harm in them.
pub const DOUBLED_PAWN: Pair = (-15, 0);
pub const ISOLATED_PAWN: Pair = (-10, -15);
/// Passed pawn bonus by the number of pawn moves it still needs to promote (index 0 unused).
/// Endgame only: the Texel fit found the middlegame part (70 down to 3) worth nothing or
/// less in the data of three variants.
pub const PASSED_PAWN: [Pair; 8] = [
    (0, 0),
    (0, 160),
    (0, 110),
    (0, 70),
    (0, 45),
    (0, 25),
    (0, 12),
    (0, 6),
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

/// A search number that `sissa tune` may change and the `Tune` option sets: its name (the
/// option's key), default, range, and the SPSA perturbation at the start of a run.
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: f64,
}

macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $field:ident = $default:literal in $min:literal..=$max:literal
        step $step:literal;)*) => {
        /// The tunable search numbers; the default is the engine as shipped.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $($field: $default,)* }
            }
        }

        /// Every tunable, in declaration order.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($field),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
        }),*];

        impl SearchParams {
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            /// The value of the tunable called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

tunables! {
    /// Half-width of the first aspiration window, in centipawns.
    aspiration_window = 30 in 5..=200 step 5.0;
    /// Reverse futility: margin per ply of depth.
    rfp_margin = 80 in 20..=300 step 10.0;
    /// Null move: base reduction.
    nmp_reduction = 3 in 1..=6 step 1.0;
    /// Null move: a further ply of reduction per this much static evaluation above beta.
    nmp_eval_divisor = 200 in 50..=800 step 25.0;
    /// Futility pruning of quiet moves: margin = base + per_depth * depth.
    futility_base = 100 in 0..=400 step 15.0;
    futility_per_depth = 100 in 20..=400 step 15.0;
    /// Late move pruning (with futility): at depth d, quiet moves after base + d*d are
    /// skipped.
    lmp_base = 4 in 1..=16 step 1.0;
    /// Late move reductions: base + ln(depth) * ln(moves) / divisor, both in hundredths.
    lmr_base = 75 in 0..=200 step 10.0;
    lmr_divisor = 225 in 100..=500 step 20.0;
    /// Late move reductions: a quiet move's history (its own plus continuation histories)
    /// per ply of reduction taken off (or added when negative).
    lmr_history_divisor = 12000 in 2000..=40000 step 1500.0;
    /// SEE pruning at shallow depth in non-PV nodes: captures losing more than this per ply
    /// of depth, quiet moves losing more than this per ply squared, are skipped.
    see_capture_margin = 90 in 10..=300 step 10.0;
    see_quiet_margin = 25 in 5..=100 step 4.0;
    /// Quiescence: a capture that cannot bring the score within this of alpha is skipped.
    delta_margin = 200 in 50..=600 step 20.0;
    /// Razoring: at depth d up to [`RAZOR_MAX_DEPTH`], a node whose static evaluation is
    /// below alpha by more than base + per_depth * d * d is settled by quiescence when that
    /// cannot reach alpha either.
    razor_base = 180 in 0..=800 step 20.0;
    razor_per_depth = 120 in 20..=600 step 15.0;
    /// ProbCut: a capture whose quiescence and reduced search hold beta plus this margin
    /// (less [`PROBCUT_IMPROVING`] when improving) cuts the node.
    probcut_margin = 150 in 30..=600 step 15.0;
}

/// The tunables a variant sets apart from the defaults, each measured in that variant. Chess:
/// an SPSA run of 580 iterations at 2+0.02 (docs/benchmarks.md, "SPSA tuning"), which with
/// chess net 13 scored +27.3 +/- 23.1 against the defaults and net 11 (SPRT H1, 599 games);
/// the last eight from a second chess run of 600 iterations with net 19, +34.2 +/- 27.3
/// against the first eight alone (SPRT H1, 398 games).
fn variant_values(id: &str) -> &'static [(&'static str, i32)] {
    match id {
        "chess" => &[
            ("rfp_margin", 78),
            ("futility_base", 116),
            ("futility_per_depth", 129),
            ("lmr_base", 86),
            ("lmr_divisor", 227),
            ("lmr_history_divisor", 11175),
            ("see_quiet_margin", 27),
            ("see_capture_margin", 89),
            ("aspiration_window", 37),
            ("nmp_reduction", 4),
            ("nmp_eval_divisor", 190),
            ("lmp_base", 6),
            ("delta_margin", 249),
            ("razor_base", 183),
            ("razor_per_depth", 122),
            ("probcut_margin", 154),
        ],
        _ => &[],
    }
}

impl SearchParams {
    /// The numbers a search of the variant `id` starts from: the defaults, with what that
    /// variant was tuned to laid over them.
    pub fn for_variant(id: &str) -> SearchParams {
        SearchParams::default().with(variant_values(id))
    }

    /// These numbers with `values` (checked ones, from [`SearchParams::read`]) in place.
    pub fn with(mut self, values: &[(&'static str, i32)]) -> SearchParams {
        for &(name, value) in values {
            if let Some(slot) = self.slot(name) {
                *slot = value;
            }
        }
        self
    }

    /// Reads `name=value` words (separated by spaces or commas), each a known tunable within
    /// its range: the empty text gives none. On any unknown name, bad number or value out
    /// of range the error says why.
    pub fn read(text: &str) -> Result<Vec<(&'static str, i32)>, String> {
        let mut values = Vec::new();
        for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let (name, value) = word
                .split_once('=')
                .ok_or_else(|| format!("expected name=value, got '{word}'"))?;
            let t = TUNABLES
                .iter()
                .find(|t| t.name == name)
                .ok_or_else(|| format!("unknown tunable '{name}' (known: {})", tunable_names()))?;
            let v: i32 = value
                .parse()
                .map_err(|_| format!("{name}: '{value}' is not a whole number"))?;
            if !(t.min..=t.max).contains(&v) {
                return Err(format!("{name}: {v} is outside {}..={}", t.min, t.max));
            }
            values.push((t.name, v));
        }
        Ok(values)
    }

    /// Sets tunables from `name=value` words over the defaults ([`SearchParams::read`]).
    pub fn parse(text: &str) -> Result<SearchParams, String> {
        SearchParams::parse_over(SearchParams::default(), text)
    }

    /// [`SearchParams::parse`] over `base` instead of the defaults.
    pub fn parse_over(base: SearchParams, text: &str) -> Result<SearchParams, String> {
        Ok(base.with(&SearchParams::read(text)?))
    }

    /// The values that differ from the defaults, as `name=value` words (what `parse` reads).
    pub fn changed(&self) -> String {
        self.changed_from(&SearchParams::default())
    }

    /// The values that differ from `base`, as `name=value` words (what `parse_over` reads
    /// over `base`).
    pub fn changed_from(&self, base: &SearchParams) -> String {
        self.differences(base)
            .into_iter()
            .map(|(name, v)| format!("{name}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The tunables whose value differs from `base`, with this side's value, in table order.
    pub fn differences(&self, base: &SearchParams) -> Vec<(&'static str, i32)> {
        TUNABLES
            .iter()
            .filter_map(|t| {
                let v = self.get(t.name)?;
                (Some(v) != base.get(t.name)).then_some((t.name, v))
            })
            .collect()
    }
}

/// The tunables' names, for messages.
pub fn tunable_names() -> String {
    TUNABLES
        .iter()
        .map(|t| t.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Depth from which aspiration windows are used.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Reverse futility: the deepest depth it is tried at.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Null move: shallowest depth, and an extra ply of reduction per this many plies.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Razoring: the deepest depth it is tried at.
pub const RAZOR_MAX_DEPTH: i32 = 3;
/// ProbCut: the shallowest depth it is tried at, the plies its verifying search is
/// reduced by, and how much less margin it asks for when the evaluation is improving.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
pub const PROBCUT_REDUCTION: i32 = 4;
pub const PROBCUT_IMPROVING: i32 = 40;
/// Futility pruning: the deepest depth it is tried at.
pub const FUTILITY_MAX_DEPTH: i32 = 3;
/// Late-move pruning: the deepest depth it is tried at.
pub const LMP_MAX_DEPTH: i32 = 8;
/// Late move reductions: shallowest depth, and moves searched before reducing.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 3;
/// Late move reductions: extra plies at an expected cut node.
pub const LMR_CUT_NODE: i32 = 2;
/// Null move: at most this many plies of reduction for the static evaluation above beta.
pub const NMP_EVAL_MAX: i32 = 3;
/// SEE pruning: the deepest depth it is tried at.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
/// Internal iterative reduction: depth from which a node without a hash move is searched
/// one ply shallower. From depth 4 (as first measured) it cost the shortest mate in the
/// venator mate-in-3 test at depth 8: the lost plies add up along the mating line.
pub const IIR_MIN_DEPTH: i32 = 6;
/// History scores saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16_384;
/// Correction history: a search of depth d moves its entry by the difference it found
/// times d / this (in table units, at most a quarter of the limit a search).
pub const CORRECTION_DEPTH_DIVISOR: i32 = 16;

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
/// Falling-score scaling of the soft target: 1 + (the best score `FALLING_LOOKBACK`
/// iterations back - the best score now) / `FALLING_DIVISOR` centipawns, within [min, max].
pub const FALLING_LOOKBACK: usize = 3;
pub const FALLING_DIVISOR: f64 = 100.0;
pub const FALLING_MIN: f64 = 0.8;
pub const FALLING_MAX: f64 = 1.6;
/// Nodes between two looks at the clock and the stop flag.
pub const CHECK_EVERY: u64 = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunables_read_from_words_and_back() {
        assert_eq!(SearchParams::parse("").unwrap(), SearchParams::default());
        let p = SearchParams::parse("rfp_margin=90, lmr_base=80").unwrap();
        assert_eq!((p.rfp_margin, p.lmr_base), (90, 80));
        assert_eq!(p.changed(), "rfp_margin=90 lmr_base=80");
        assert_eq!(SearchParams::parse(&p.changed()).unwrap(), p);
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(
                t.step >= 1.0,
                "{}: steps below 1 vanish in rounding",
                t.name
            );
            assert_eq!(SearchParams::default().get(t.name), Some(t.default));
        }
    }

    #[test]
    fn variants_lay_their_own_values_over_the_defaults() {
        for id in ["chess", "gustav3", "venator", "venomous", "capablanca"] {
            let own = SearchParams::for_variant(id);
            for &(name, value) in variant_values(id) {
                let t = TUNABLES.iter().find(|t| t.name == name).expect(name);
                assert!((t.min..=t.max).contains(&value), "{id}: {name}={value}");
                assert_eq!(own.get(name), Some(value), "{id}: {name}");
            }
            // What the variant changes reads back as Tune words over the defaults, and a
            // Tune text over the variant's values keeps the rest of them.
            assert_eq!(SearchParams::parse(&own.changed()).unwrap(), own);
            let tuned = SearchParams::parse_over(own.clone(), "aspiration_window=40").unwrap();
            assert_eq!(tuned.changed_from(&own), "aspiration_window=40");
        }
        assert_ne!(SearchParams::for_variant("chess"), SearchParams::default());
        assert_eq!(
            SearchParams::for_variant("gustav3"),
            SearchParams::default()
        );
    }

    #[test]
    fn bad_tunables_are_refused_whole() {
        for (text, why) in [
            ("bogus=1", "unknown tunable 'bogus'"),
            ("rfp_margin", "expected name=value"),
            ("rfp_margin=x", "not a whole number"),
            ("rfp_margin=9000", "outside 20..=300"),
            ("rfp_margin=90 lmp_base=0", "lmp_base: 0 is outside"),
        ] {
            let e = SearchParams::parse(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
