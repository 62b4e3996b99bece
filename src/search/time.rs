//! The time manager: turns [`Limits`] into a soft target (no new iteration after it) and a
//! hard deadline (abort the iteration), keeps the move overhead back from every clock-based
//! budget, and starts counting only when pondering ends.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::params::{
    DEFAULT_MOVES_TO_GO, FALLING_DIVISOR, FALLING_MAX, FALLING_MIN, HARD_LIMIT_FACTOR,
    INCREMENT_SHARE, MAX_SHARE_OF_CLOCK, NODE_SHARE_BASE, SOFT_SCALE_MAX, SOFT_SCALE_MIN,
    SOFT_STOP_SHARE, STABILITY_WEIGHT,
};
use super::{Control, Limits};

/// Shortest budget ever given: a search must be able to finish depth 1.
const MIN_BUDGET: Duration = Duration::from_millis(1);

/// Deadlines of one search.
pub struct TimeManager {
    /// When the search began (for reports).
    pub start: Instant,
    /// When the budget started counting: `None` while pondering.
    clock_start: Option<Instant>,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    pub fn new(limits: &Limits, control: &Control) -> TimeManager {
        let start = Instant::now();
        let (soft, hard) = TimeManager::budget(limits);
        let pondering = control.pondering.load(Ordering::Relaxed);
        TimeManager {
            start,
            clock_start: (!pondering).then_some(start),
            soft,
            hard,
        }
    }

    /// The soft target and the hard deadline that `limits` give a move (none without a
    /// clock or a move time).
    pub fn budget(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
        if limits.infinite {
            (None, None)
        } else if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(limits.move_overhead).max(MIN_BUDGET);
            (Some(t), Some(t))
        } else if let Some(c) = limits.clock {
            let left = c.time.saturating_sub(limits.move_overhead).max(MIN_BUDGET);
            let mtg = c.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1);
            let cap = left * MAX_SHARE_OF_CLOCK / 8;
            let target = (left / mtg + c.inc * INCREMENT_SHARE / 4).min(cap);
            let hard = (target * HARD_LIMIT_FACTOR).min(cap).max(target);
            (Some(target.max(MIN_BUDGET)), Some(hard.max(MIN_BUDGET)))
        } else {
            (None, None)
        }
    }

    /// Starts the budget when pondering has just ended; false while it has not.
    fn counting(&mut self, control: &Control) -> Option<Instant> {
        if self.clock_start.is_none() && !control.pondering.load(Ordering::Relaxed) {
            self.clock_start = Some(Instant::now());
        }
        self.clock_start
    }

    /// Whether the hard deadline has passed: abort now.
    pub fn out_of_time(&mut self, control: &Control) -> bool {
        match (self.hard, self.counting(control)) {
            (Some(h), Some(s)) => s.elapsed() >= h,
            _ => false,
        }
    }

    /// Whether another iteration should not be started. `scale` (from [`soft_scale`])
    /// stretches the soft target when the best move is unsettled and shrinks it when one
    /// move is clearly best; the hard deadline never moves.
    pub fn should_stop_iterating(&mut self, control: &Control, scale: f64) -> bool {
        match (self.soft, self.counting(control)) {
            (Some(t), Some(s)) => s.elapsed() >= (t * SOFT_STOP_SHARE / 8).mul_f64(scale),
            _ => false,
        }
    }
}

/// How much of the soft target to use, from the best move's recent changes (`changes`, a
/// count that halves every iteration and grows by one when the best move changes) and the
/// share of the last iteration's nodes spent on the best move.
pub fn soft_scale(changes: f64, best_share: f64) -> f64 {
    let instability = 1.0 + STABILITY_WEIGHT * changes;
    let effort = NODE_SHARE_BASE - best_share.clamp(0.0, 1.0);
    (instability * effort).clamp(SOFT_SCALE_MIN, SOFT_SCALE_MAX)
}

/// How much of the soft target to use as the score moves: more when the best score has
/// fallen from `earlier` (a few iterations back) to `now`, less when it has risen, 1 when
/// either is a mate score (beyond `mate_bound`).
pub fn falling_scale(earlier: i32, now: i32, mate_bound: i32) -> f64 {
    if earlier.abs() >= mate_bound || now.abs() >= mate_bound {
        return 1.0;
    }
    (1.0 + f64::from(earlier - now) / FALLING_DIVISOR).clamp(FALLING_MIN, FALLING_MAX)
}

#[cfg(test)]
mod tests {
    use super::{falling_scale, soft_scale};

    #[test]
    fn a_falling_score_gets_more_time_a_rising_one_less() {
        let mate = 30_000;
        assert_eq!(falling_scale(40, 40, mate), 1.0);
        assert!(falling_scale(40, 10, mate) > 1.0);
        assert!(falling_scale(10, 40, mate) < 1.0);
        assert_eq!(falling_scale(500, -500, mate), super::FALLING_MAX);
        assert_eq!(falling_scale(-500, 500, mate), super::FALLING_MIN);
        assert_eq!(falling_scale(mate + 5, 0, mate), 1.0);
        assert_eq!(falling_scale(0, -mate - 5, mate), 1.0);
    }

    #[test]
    fn an_unsettled_best_move_gets_more_time_a_clear_one_less() {
        let settled = soft_scale(0.0, 0.9);
        let normal = soft_scale(0.0, 0.5);
        let unsettled = soft_scale(2.0, 0.5);
        assert!(settled < normal && normal < unsettled);
        assert!(soft_scale(100.0, 0.0) <= super::SOFT_SCALE_MAX);
        assert!(soft_scale(0.0, 1.0) >= super::SOFT_SCALE_MIN);
    }
}
