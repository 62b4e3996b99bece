//! Texel-style tuning of the hand-written evaluation on training data: a logistic fit of the
//! same target the networks learn (search score and game result), over the weights of terms
//! the evaluation adds linearly. Two fits: the material value of each role of the army (the
//! pawn's fixed at 100 as the unit), with everything else the evaluation says held as it is;
//! and a multiplier of each term of the evaluation (material, piece-square, mobility, king
//! safety, pawns...), its middlegame and endgame parts apart, which says which terms weigh
//! too much or too little against the others.

use super::data::DataSet;
use super::net::SCALE;
use super::train::{Adam, sigmoid, split, target};
use crate::rules::position::Position;
use crate::rules::role::{Color, Role};
use crate::search::eval::{self, Term};
use crate::search::params::material;

/// One row of a linear model's data: (feature, value) pairs, a fixed offset added to the
/// model's sum, and the target score.
#[derive(Clone, Debug)]
pub struct LinearRow {
    pub x: Vec<(usize, f32)>,
    pub offset: f32,
    pub target: f32,
}

/// Mean squared error of `sigmoid(offset + w . x)` against the targets.
pub fn linear_loss(rows: &[LinearRow], w: &[f32]) -> f32 {
    let n = rows.len().max(1) as f32;
    rows.iter()
        .map(|r| {
            let p = sigmoid(r.offset + r.x.iter().map(|&(f, v)| w[f] * v).sum::<f32>());
            (p - r.target) * (p - r.target) / n
        })
        .sum()
}

/// Fits the weights `w` of the model `sigmoid(offset + sum of w[f] * value)` to `rows` by
/// full-batch Adam on the squared error, from `start`. Returns the weights and the final
/// mean loss.
pub fn fit_linear(rows: &[LinearRow], start: &[f32], epochs: usize, lr: f32) -> (Vec<f32>, f32) {
    let mut w = start.to_vec();
    let mut adam = Adam::new(&[w.len()]);
    let mut grad = vec![0.0; w.len()];
    let n = rows.len().max(1) as f32;
    for _ in 0..epochs {
        grad.fill(0.0);
        for r in rows {
            let p = sigmoid(r.offset + r.x.iter().map(|&(f, v)| w[f] * v).sum::<f32>());
            let d = 2.0 * (p - r.target) * p * (1.0 - p) / n;
            for &(f, v) in &r.x {
                grad[f] += d * v;
            }
        }
        adam.step(&mut [&mut w], &[&grad], (&[f32::MAX], &[0.0], &[1.0]), lr);
    }
    let loss = linear_loss(rows, &w);
    (w, loss)
}

/// A fitted material value.
#[derive(Clone, Copy, Debug)]
pub struct Fitted {
    pub role: Role,
    pub old: i32,
    pub new: i32,
}

/// What [`fit_material`] found: the values, and the validation loss before and after.
#[derive(Clone, Debug)]
pub struct MaterialFit {
    pub values: Vec<Fitted>,
    pub loss_before: f32,
    pub loss_after: f32,
}

/// Fits the material value of every role of the data's army but pawn and king, on the
/// training share of `sets` (see [`split`]), the target weighting the result by `wdl`.
pub fn fit_material(sets: &[DataSet], wdl: f32, share: f64) -> Result<MaterialFit, String> {
    let v = sets
        .first()
        .map(|d| d.variant)
        .ok_or_else(|| "no data".to_string())?;
    let roles: Vec<Role> = v
        .spec
        .army
        .iter()
        .copied()
        .filter(|&r| r != Role::Pawn && r != Role::King)
        .collect();
    let scale = SCALE as f32;
    let rows = rows_of(sets, wdl, |pos| {
        let us = pos.side_to_move();
        roles
            .iter()
            .enumerate()
            .filter_map(|(k, &r)| {
                let n = pos.count(us, r) as i32 - pos.count(us.flip(), r) as i32;
                (n != 0).then_some((k, n as f32))
            })
            .collect()
    })?;
    let (train, validation) = split_rows(&rows, share);
    let start = vec![0.0; roles.len()];
    let (w, _) = fit_linear(&train, &start, 400, 0.01);
    let values = roles
        .iter()
        .zip(&w)
        .map(|(&role, &dw)| Fitted {
            role,
            old: material(role),
            new: material(role) + (dw * scale).round() as i32,
        })
        .collect();
    Ok(MaterialFit {
        values,
        loss_before: linear_loss(&validation, &start),
        loss_after: linear_loss(&validation, &w),
    })
}

/// The training and validation rows of `rows`, as [`split`] divides positions.
fn split_rows(rows: &[LinearRow], share: f64) -> (Vec<LinearRow>, Vec<LinearRow>) {
    let (train, validation) = split(rows.len(), share);
    let pick = |idx: &[usize]| idx.iter().map(|&i| rows[i].clone()).collect::<Vec<_>>();
    (pick(&train), pick(&validation))
}

/// The hand-written evaluation's terms as linear features: feature `2k` is the middlegame
/// part of term `k` of [`Term::ALL`] and `2k + 1` its endgame part, each as it reaches the
/// evaluation's result (blended by the game phase, scaled by a drawish ending and by the
/// move-rule fade), in centipawns from the side to move's view. With every weight 1 they sum
/// to the evaluation less its tempo bonus, to the rounding of its integer steps.
pub fn term_features(pos: &Position) -> Vec<(usize, f32)> {
    let t = eval::trace(pos);
    let full = t.full_phase.max(1) as f32;
    let mg_share = t.phase as f32 / full;
    let eg_share = (t.full_phase - t.phase) as f32 / full;
    let sign = if pos.side_to_move() == Color::White {
        1.0
    } else {
        -1.0
    };
    let scale = sign * t.drawish_scale as f32 / 64.0 * t.fade as f32 / 200.0;
    let mut x = Vec::new();
    for (k, [white, black]) in t.terms.iter().enumerate() {
        let mg = (white.0 - black.0) as f32 * mg_share * scale;
        let eg = (white.1 - black.1) as f32 * eg_share * scale;
        if mg != 0.0 {
            x.push((2 * k, mg));
        }
        if eg != 0.0 {
            x.push((2 * k + 1, eg));
        }
    }
    x
}

/// What [`fit_terms`] found: each term's (middlegame, endgame) multiplier, and the
/// validation loss before and after.
#[derive(Clone, Debug)]
pub struct TermFit {
    pub multipliers: Vec<(Term, f32, f32)>,
    pub loss_before: f32,
    pub loss_after: f32,
}

/// Fits a multiplier of each term of the hand-written evaluation, its middlegame and endgame
/// parts apart, on the training share of `sets` (see [`split`]), the target weighting the
/// result by `wdl`. A multiplier of 1 keeps the term as it is.
pub fn fit_terms(sets: &[DataSet], wdl: f32, share: f64) -> Result<TermFit, String> {
    let scale = SCALE as f32;
    let rows = rows_of(sets, wdl, |pos| {
        term_features(pos)
            .into_iter()
            .map(|(f, v)| (f, v / scale))
            .collect()
    })?;
    let (train, validation) = split_rows(&rows, share);
    let start = vec![0.0; 2 * Term::ALL.len()];
    let (w, _) = fit_linear(&train, &start, 400, 0.01);
    Ok(TermFit {
        multipliers: Term::ALL
            .iter()
            .enumerate()
            .map(|(k, &t)| (t, 1.0 + w[2 * k], 1.0 + w[2 * k + 1]))
            .collect(),
        loss_before: linear_loss(&validation, &start),
        loss_after: linear_loss(&validation, &w),
    })
}

/// One row per position of `sets` (all of one variant): the features `features` gives, the
/// hand-written evaluation as the offset (in the sigmoid's units), the training target with
/// the result weighted by `wdl`.
fn rows_of(
    sets: &[DataSet],
    wdl: f32,
    features: impl Fn(&Position) -> Vec<(usize, f32)>,
) -> Result<Vec<LinearRow>, String> {
    let v = sets
        .first()
        .map(|d| d.variant)
        .ok_or_else(|| "no data".to_string())?;
    let mut rows = Vec::new();
    for d in sets {
        if !std::ptr::eq(d.variant, v) {
            return Err(format!("data of {} and of {}", v.id(), d.variant.id()));
        }
        for i in 0..d.len() {
            let s = d.get(i);
            let pos = s.position(v)?;
            rows.push(LinearRow {
                x: features(&pos),
                offset: eval::evaluate(&pos) as f32 / SCALE as f32,
                target: target(&s, wdl),
            });
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn a_linear_fit_recovers_known_weights() {
        let truth = [0.8f32, -1.5, 0.3];
        let mut rng = Rng::new(3);
        let mut value = || (rng.below(2001) as f32 - 1000.0) / 1000.0;
        let rows: Vec<LinearRow> = (0..1000)
            .map(|i| {
                let x: Vec<(usize, f32)> = (0..3).map(|f| (f, value())).collect();
                let offset = (i % 7) as f32 / 10.0 - 0.3;
                let target = sigmoid(offset + x.iter().map(|&(f, v)| truth[f] * v).sum::<f32>());
                LinearRow { x, offset, target }
            })
            .collect();
        let (w, loss) = fit_linear(&rows, &[0.0; 3], 1500, 0.02);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.05, "{w:?}");
        }
        assert!(loss < 1e-5, "{loss}");
    }

    #[test]
    fn the_term_features_add_up_to_the_evaluation() {
        use crate::rules::variant::Variant;
        let mut rng = Rng::new(0x7e4e);
        let mut seen = 0;
        for v in Variant::all() {
            for game in 0..30 {
                let plies = 10 + rng.below(120);
                crate::rules::position::random_game(v, &mut rng, plies, |pos, ply| {
                    if ply % 7 != 0 {
                        return;
                    }
                    let sum: f32 = term_features(pos).iter().map(|&(_, x)| x).sum();
                    let want = eval::evaluate(pos) - crate::search::params::TEMPO;
                    // Each integer step of the evaluation (blend, drawish scale, fade)
                    // rounds towards zero by less than one.
                    assert!(
                        (sum - want as f32).abs() <= 3.0,
                        "{} game {game}: features {sum}, evaluation {want}: {}",
                        v.id(),
                        pos.fen()
                    );
                    seen += 1;
                });
            }
        }
        assert!(seen > 500, "{seen}");
    }
}
