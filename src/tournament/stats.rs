//! Match statistics: score, Elo difference with its 95% margin (cutechess's formulas),
//! pentanomial counts over game pairs, and the sequential probability ratio test.
//!
//! The SPRT decides on fishtest's generalized SPRT with logistic Elo (`s = 1 / (1 +
//! 10^(-elo/400))`) over game pairs (pentanomial: pair scores 0, 1/4, ..., 1), the
//! likelihoods under H0 and H1 being those of the most likely distributions with mean score
//! `s0` and `s1`. The same test over single games (trinomial) and cutechess's BayesElo-model
//! test are here too.

/// Expected score of a player `elo` points stronger (logistic Elo).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives an expected `score` (a fraction in (0, 1)).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The 97.5% quantile of the standard normal distribution (two-sided 95% interval).
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Wld {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points per game.
    pub fn score(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n
    }

    /// The outcomes as (score, count) for the GSPRT.
    pub fn outcomes(&self) -> [(f64, u64); 3] {
        [(0.0, self.losses), (0.5, self.draws), (1.0, self.wins)]
    }

    /// Elo difference and the half-width of its 95% interval (cutechess's formula).
    pub fn elo(&self) -> (f64, f64) {
        elo_with_margin(&self.outcomes())
    }

    /// Likelihood of superiority (normal approximation on wins and losses), 0..1.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Counts of game pairs by the first engine's points in the pair: 0, 0.5, 1, 1.5, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Records a pair given the first engine's points in it, in half points (0..=4).
    pub fn add(&mut self, half_points: usize) {
        if let Some(c) = self.0.get_mut(half_points) {
            *c += 1;
        }
    }

    /// The outcomes as (score per game, count of pairs).
    pub fn outcomes(&self) -> [(f64, u64); 5] {
        std::array::from_fn(|i| (i as f64 / 4.0, self.0[i]))
    }

    /// Elo difference and its 95% margin from the pair scores.
    pub fn elo(&self) -> (f64, f64) {
        elo_with_margin(&self.outcomes())
    }
}

/// Mean, variance (per unit) and number of units of a score distribution.
fn moments(outcomes: &[(f64, u64)]) -> (f64, f64, f64) {
    let n: f64 = outcomes.iter().map(|&(_, c)| c as f64).sum();
    if n == 0.0 {
        return (0.5, 0.0, 0.0);
    }
    let mean = outcomes.iter().map(|&(s, c)| s * c as f64).sum::<f64>() / n;
    let var = outcomes
        .iter()
        .map(|&(s, c)| c as f64 * (s - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, var, n)
}

fn elo_with_margin(outcomes: &[(f64, u64)]) -> (f64, f64) {
    let (mean, var, n) = moments(outcomes);
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let dev = (var / n).sqrt();
    let lo = elo_from_score(mean - Z95 * dev);
    let hi = elo_from_score(mean + Z95 * dev);
    let margin = (hi - lo) / 2.0;
    // `+ 0.0` turns -0.0 into 0.0 for printing; an all-win or all-loss score has no margin.
    let margin = if margin.is_nan() {
        f64::INFINITY
    } else {
        margin
    };
    (elo_from_score(mean) + 0.0, margin)
}

/// The GSPRT log-likelihood ratio for H1: elo = `elo1` against H0: elo = `elo0` (logistic
/// Elo), from the outcome distribution of independent units (games or pairs, each scored as a
/// fraction of the points), computed as fishtest does: `N * sum_i f_i ln(p1_i / p0_i)` where
/// `f` is the observed distribution and `p0`, `p1` are the distributions of largest likelihood
/// whose mean score is `s0`, `s1`. 0 before the first unit.
pub fn llr_gsprt(outcomes: &[(f64, u64)], elo0: f64, elo1: f64) -> f64 {
    if outcomes.iter().all(|&(_, c)| c == 0) {
        return 0.0;
    }
    // fishtest's regularization: an empty outcome class counts 0.001, so every class has some
    // mass and one-sided samples (all wins, all draws) still give a finite ratio.
    let regularized: Vec<(f64, f64)> = outcomes
        .iter()
        .map(|&(s, c)| (s, if c == 0 { 1e-3 } else { c as f64 }))
        .collect();
    let n: f64 = regularized.iter().map(|&(_, c)| c).sum();
    let observed: Vec<(f64, f64)> = regularized.iter().map(|&(s, c)| (s, c / n)).collect();
    let p0 = constrained_mle(&observed, expected_score(elo0));
    let p1 = constrained_mle(&observed, expected_score(elo1));
    n * observed
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&(_, f), (&q0, &q1))| f * (q1 / q0).ln())
        .sum::<f64>()
}

/// The distribution on the same scores that maximizes the likelihood of `observed` (score,
/// frequency) among those with mean `mean`: `f_i / (1 + x (a_i - mean))`, with the Lagrange
/// multiplier `x` found by bisection (the sum decreases in `x` between its poles).
fn constrained_mle(observed: &[(f64, f64)], mean: f64) -> Vec<f64> {
    let lowest = observed
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::INFINITY, f64::min);
    let highest = observed
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    if !(lowest < mean && mean < highest) {
        return observed.iter().map(|&(_, f)| f).collect();
    }
    let excess = |x: f64| {
        observed
            .iter()
            .map(|&(a, f)| f * (a - mean) / (1.0 + x * (a - mean)))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / (highest - mean), 1.0 / (mean - lowest));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if excess(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    observed
        .iter()
        .map(|&(a, f)| f / (1.0 + x * (a - mean)))
        .collect()
}

/// cutechess's SPRT: the BayesElo model with the draw Elo estimated from the sample. With
/// `scaled`, `elo0`/`elo1` are logistic Elo converted to BayesElo by the draw-Elo scale (as
/// cutechess does); without, they are taken as BayesElo (as OpenBench's older test did).
/// 0 until there is at least one win, one loss and one draw.
pub fn llr_bayes(wld: Wld, elo0: f64, elo1: f64, scaled: bool) -> f64 {
    if wld.wins == 0 || wld.losses == 0 || wld.draws == 0 {
        return 0.0;
    }
    let n = wld.games() as f64;
    let (w, l, d) = (wld.wins as f64, wld.losses as f64, wld.draws as f64);
    let draw_elo = 200.0 * ((n / w - 1.0) * (n / l - 1.0)).log10();
    let scale = if scaled {
        let x = 10f64.powf(-draw_elo / 400.0);
        4.0 * x / (1.0 + x).powi(2)
    } else {
        1.0
    };
    let probs = |elo: f64| {
        let win = expected_score(elo / scale - draw_elo);
        let loss = expected_score(-elo / scale - draw_elo);
        (win, loss, 1.0 - win - loss)
    };
    let (w0, l0, d0) = probs(elo0);
    let (w1, l1, d1) = probs(elo1);
    w * (w1 / w0).ln() + l * (l1 / l0).ln() + d * (d1 / d0).ln()
}

/// Which statistical model the SPRT uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// GSPRT over game pairs (fishtest).
    Pentanomial,
    /// GSPRT over single games.
    Trinomial,
    /// cutechess's BayesElo test over single games.
    Cutechess,
}

impl SprtModel {
    /// The name `--sprt model=` takes.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Pentanomial => "pentanomial",
            SprtModel::Trinomial => "trinomial",
            SprtModel::Cutechess => "cutechess",
        }
    }
}

/// An SPRT: hypotheses, error rates and model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// What the test says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    /// Reads `elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=pentanomial|trinomial|cutechess]`
    /// (any order; defaults elo0=0, elo1=5, alpha=beta=0.05, pentanomial).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Pentanomial,
        };
        for w in words.iter().flat_map(|w| w.split_whitespace()) {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, got '{w}'"))?;
            let num = || {
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| format!("--sprt: {k} needs a number, got '{v}'"))
            };
            match k {
                "elo0" => s.elo0 = num()?,
                "elo1" => s.elo1 = num()?,
                "alpha" => s.alpha = num()?,
                "beta" => s.beta = num()?,
                "model" => {
                    s.model = match v {
                        "pentanomial" => SprtModel::Pentanomial,
                        "trinomial" => SprtModel::Trinomial,
                        "cutechess" => SprtModel::Cutechess,
                        _ => {
                            return Err(format!(
                                "--sprt: model is pentanomial, trinomial or cutechess, not '{v}'"
                            ));
                        }
                    }
                }
                _ => return Err(format!("--sprt: unknown key '{k}'")),
            }
        }
        if !(s.alpha > 0.0 && s.alpha < 1.0 && s.beta > 0.0 && s.beta < 1.0) {
            return Err("--sprt: alpha and beta must lie strictly between 0 and 1".to_string());
        }
        if s.elo0.abs() > 2000.0 || s.elo1.abs() > 2000.0 {
            return Err("--sprt: elo0 and elo1 must lie within -2000..2000".to_string());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt: elo1 must be greater than elo0".to_string());
        }
        Ok(s)
    }

    /// (lower, upper) LLR bounds: ln(beta / (1 - alpha)), ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR under this test's model.
    pub fn llr(&self, wld: Wld, pairs: Pentanomial) -> f64 {
        match self.model {
            SprtModel::Pentanomial => llr_gsprt(&pairs.outcomes(), self.elo0, self.elo1),
            SprtModel::Trinomial => llr_gsprt(&wld.outcomes(), self.elo0, self.elo1),
            SprtModel::Cutechess => llr_bayes(wld, self.elo0, self.elo1, true),
        }
    }

    /// Whether `llr` has crossed a bound.
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::AcceptH1
        } else if llr <= lo {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_basics() {
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        let w = Wld {
            wins: 10,
            losses: 10,
            draws: 0,
        };
        assert!((w.los() - 0.5).abs() < 1e-9);
    }
}
