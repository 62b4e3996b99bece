//! Playing strength for people: `Skill Level` (0-20) and `UCI_LimitStrength` with `UCI_Elo`,
//! Stockfish's option names.
//!
//! A weakened search stops at a shallow depth (1 + level) and looks at the four best moves
//! (or more with `MultiPV`); it plays the one whose score plus a random bonus is highest. The
//! bonus is uniform between 0 and [`NOISE_PER_LEVEL`] times (20 - level) centipawns, so level
//! 0 may give away a few pawns and level 19 rarely more than a tenth of one; a mate or a
//! forced loss is never traded for noise. So a weak Sissa still plays legal moves that a
//! person can make sense of, and plays them quickly.
//!
//! `UCI_Elo` picks a level, fractional between calibrated points (a level of 7.4 plays level
//! 8 on 40 % of the moves): [`ELO_BY_LEVEL`] is Sissa's chess strength at each level measured
//! against Stockfish's own `UCI_Elo` ladder (docs/benchmarks.md); every variant uses the same
//! mapping.

use crate::rng::Rng;

/// The level that means full strength.
pub const FULL_LEVEL: u32 = 20;
/// Largest random bonus per level below full, in centipawns.
pub const NOISE_PER_LEVEL: i32 = 15;
/// How many of the best root moves a weakened search chooses among (at least).
pub const CANDIDATES: usize = 4;

/// Measured chess strength (Stockfish 15.1 `UCI_Elo` scale) of some levels, in increasing
/// order: the `UCI_Elo` range runs from the first to the last, and a rating between two
/// points plays the level linearly between them. From 40-game matches at 5+0.05 against
/// Stockfish's ladder (docs/benchmarks.md): level 0 scored 12.5 % against `UCI_Elo 1350`
/// (about 1010), level 4 60 % against 1350 (1420), level 8 86 % against 1500 (1820); levels
/// 12, 16 and 20 (full strength) measured 1850, 1750 and 1830, the same within their error
/// (+/- 120 or more), so they are pooled at the top.
pub const ELO_BY_LEVEL: [(f64, u32); 4] = [(0.0, 1010), (4.0, 1420), (8.0, 1800), (20.0, 1830)];

/// Lowest `UCI_Elo`.
pub const ELO_MIN: u32 = ELO_BY_LEVEL[0].1;
/// Highest `UCI_Elo` (full strength).
pub const ELO_MAX: u32 = ELO_BY_LEVEL[ELO_BY_LEVEL.len() - 1].1;

/// The strength options as a GUI sets them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// `Skill Level`, 0..=20.
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at `elo` instead of at `skill_level`.
    pub limit: bool,
    /// `UCI_Elo`, within [`ELO_MIN`]..=[`ELO_MAX`].
    pub elo: u32,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            skill_level: FULL_LEVEL,
            limit: false,
            elo: ELO_MAX,
        }
    }
}

impl Strength {
    /// The level searches play at: `UCI_Elo`'s when limited, else `Skill Level`.
    pub fn level(&self) -> f64 {
        if self.limit {
            level_for_elo(self.elo)
        } else {
            f64::from(self.skill_level.min(FULL_LEVEL))
        }
    }

    /// Whether searches are weakened at all.
    pub fn weakened(&self) -> bool {
        self.level() < f64::from(FULL_LEVEL)
    }
}

/// The (fractional) level that plays at `elo`, clamped to the calibrated range.
pub fn level_for_elo(elo: u32) -> f64 {
    let elo = f64::from(elo.clamp(ELO_MIN, ELO_MAX));
    for pair in ELO_BY_LEVEL.windows(2) {
        let ((l0, e0), (l1, e1)) = (pair[0], pair[1]);
        let (e0, e1) = (f64::from(e0), f64::from(e1));
        if elo <= e1 {
            return l0 + (l1 - l0) * (elo - e0) / (e1 - e0);
        }
    }
    f64::from(FULL_LEVEL)
}

/// One move's weakening: the whole level it plays, its depth limit and its noise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handicap {
    pub level: u32,
}

impl Handicap {
    /// The whole level for one move: a fractional level rounds up with the probability of
    /// its fraction. `rng` is seeded by the caller (the position), so a search is
    /// reproducible.
    pub fn for_move(level: f64, rng: &mut Rng) -> Handicap {
        let floor = level.floor();
        let unit = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let up = unit < level - floor;
        let level = (floor as u32 + u32::from(up)).min(FULL_LEVEL);
        Handicap { level }
    }

    /// Deepest iteration.
    pub fn max_depth(self) -> u32 {
        1 + self.level
    }

    /// Largest random bonus, in centipawns.
    pub fn noise(self) -> i32 {
        NOISE_PER_LEVEL * (FULL_LEVEL - self.level.min(FULL_LEVEL)) as i32
    }

    /// Index of the move to play among candidates with these scores (best first): the
    /// highest score plus a bonus uniform in 0..noise. Scores beyond `decisive` (mates)
    /// take no bonus, so a mate is always played and a mated line never chosen for noise.
    pub fn pick(self, scores: &[i32], decisive: i32, rng: &mut Rng) -> usize {
        let noise = self.noise();
        let mut best = (i32::MIN, 0);
        for (i, &s) in scores.iter().enumerate() {
            let bonus = if s.abs() >= decisive || noise == 0 {
                0
            } else {
                rng.below(noise as usize) as i32
            };
            let value = s.saturating_add(bonus);
            if value > best.0 {
                best = (value, i);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_maps_onto_levels_within_the_calibrated_range() {
        assert_eq!(level_for_elo(0), 0.0);
        assert_eq!(level_for_elo(ELO_MIN), 0.0);
        assert_eq!(level_for_elo(ELO_MAX), f64::from(FULL_LEVEL));
        assert_eq!(level_for_elo(u32::MAX), f64::from(FULL_LEVEL));
        let mut last = -1.0;
        for elo in ELO_MIN..=ELO_MAX {
            let l = level_for_elo(elo);
            assert!(l >= last, "{elo}");
            last = l;
        }
        let s = Strength {
            skill_level: 3,
            limit: false,
            elo: ELO_MIN,
        };
        assert_eq!(s.level(), 3.0);
        assert!(Strength { limit: true, ..s }.level() == 0.0);
        assert!(!Strength::default().weakened());
    }

    #[test]
    fn fractional_levels_round_up_as_often_as_their_fraction() {
        let mut rng = Rng::new(7);
        let ups = (0..10_000)
            .filter(|_| Handicap::for_move(7.25, &mut rng).level == 8)
            .count();
        assert!((2_200..2_800).contains(&ups), "{ups}");
    }

    #[test]
    fn the_pick_keeps_mates_and_spreads_with_the_noise() {
        let mut rng = Rng::new(1);
        let full = Handicap { level: FULL_LEVEL };
        assert_eq!(full.pick(&[50, 40, 30, 20], 30_000, &mut rng), 0);
        let weakest = Handicap { level: 0 };
        assert_eq!(weakest.pick(&[31_000, 40, 30, 20], 30_000, &mut rng), 0);
        assert_ne!(weakest.pick(&[50, -31_000], 30_000, &mut rng), 1);
        let mut chosen = [0; 4];
        for _ in 0..1000 {
            chosen[weakest.pick(&[50, 40, 30, 20], 30_000, &mut rng)] += 1;
        }
        assert!(chosen.iter().all(|&n| n > 100), "{chosen:?}");
        let strong = Handicap { level: 19 };
        assert_eq!(strong.pick(&[300, 100, 0, -100], 30_000, &mut rng), 0);
    }
}
