//! `sissa train`: fits a network ([`super::net`]) to data files ([`super::data`]) on the CPU.
//!
//! The loss is the squared error between the logistic of the network's output and a blend of
//! the logistic of the search score and the game result (`--wdl` is the result's weight),
//! averaged over mini-batches that the threads share out; Adam updates the weights. A
//! validation share of the positions, chosen by the seed, is never trained on: its loss is
//! what each epoch reports and the loss curve keeps.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::data::{DataSet, Sample};
use super::features::Layout;
use super::net::{Network, QA, QB, SCALE, W1_LIMIT};
use crate::rng::Rng;
use crate::rules::role::Color;
use crate::rules::variant::Variant;

/// `sissa train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Data files (of one variant), from `sissa datagen`.
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long, required_unless_present_any = ["fit_material", "fit_terms"])]
    pub out: Option<PathBuf>,
    /// Fit the hand-written evaluation's material values to the data instead (Texel-style)
    /// and print them; no network is trained.
    #[arg(long, conflicts_with = "out")]
    pub fit_material: bool,
    /// Fit a multiplier of each term of the hand-written evaluation (middlegame and endgame
    /// apart) to the data instead (Texel-style) and print them; no network is trained.
    #[arg(long, conflicts_with_all = ["out", "fit_material"])]
    pub fit_terms: bool,
    /// Hidden neurons a side.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// Output buckets, chosen by the pieces left (see the network format): by default the
    /// `--init` file's count, else 1. A one-bucket `--init` file is copied into every bucket.
    #[arg(long)]
    pub buckets: Option<usize>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Adam's learning rate at the first epoch.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Share of the first learning rate left at the last epoch (it falls geometrically).
    #[arg(long, default_value_t = 0.1)]
    pub lr_end: f32,
    /// The output layer's learning rate as a multiple of `--lr`: a network continued with a
    /// small `--lr` (to keep what its first layer knows) can still move its few output
    /// weights, new output buckets among them, as far as the new data asks.
    #[arg(long, default_value_t = 1.0)]
    pub output_lr: f32,
    /// Weight of the game result in the target (the rest is the search score's).
    #[arg(long, default_value_t = 0.3)]
    pub wdl: f32,
    /// Positions a mini-batch.
    #[arg(long, default_value_t = 8192)]
    pub batch: usize,
    /// Threads sharing each mini-batch.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Share of the positions kept out of training for validation: the last ones of the
    /// data, so that whole games are kept out.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the loss curve here (one CSV line an epoch).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Decoupled weight decay of the first layer's weights (AdamW): each step shrinks them
    /// by the learning rate times this, so that weights of features seen in few games fade.
    #[arg(long, default_value_t = 0.0)]
    pub weight_decay: f32,
    /// Train on every training position's mirror image too (files reversed, a to the last
    /// file), twice the positions. Only for variants whose pieces move the same to either
    /// side (castling aside, which the network does not see); the board must be left-right
    /// symmetric. Validation stays on the positions as played.
    #[arg(long)]
    pub mirror: bool,
    /// Start from this network file (of the data's variant) instead of random weights: the
    /// next net continues the last one's training on new data. `--hidden` may be larger than
    /// the file's: the new neurons start with random first-layer weights and zero output
    /// weights, so the start plays as the file does.
    #[arg(long)]
    pub init: Option<PathBuf>,
}

/// The positions in training form: each one's active features from the side to move's view
/// then from the other side's (the same number of each), and its target.
pub struct Prepared {
    pub layout: Layout,
    /// Positions read from the data; any after them are mirror images of training positions
    /// ([`Prepared::mirror_training`]).
    originals: usize,
    features: Vec<u16>,
    /// Sample i's features are `features[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    /// Sample i's pieces on the board and in hand (which choose its output bucket).
    pieces: Vec<u16>,
    targets: Vec<f32>,
}

/// One sample in training form: the side to move's features, the other side's, the output
/// bucket and the target.
type Item<'a> = (&'a [u16], &'a [u16], usize, f32);

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What a network (or a fitted evaluation) learns for sample `s`: the logistic of its
/// search score blended with its game result, `wdl` the result's weight, for the side to
/// move.
pub fn target(s: &Sample, wdl: f32) -> f32 {
    (1.0 - wdl) * sigmoid(f32::from(s.score) / SCALE as f32) + wdl * s.result.score_for(s.side)
}

/// The active features of a sample from `side`'s view, in training form
/// (with the factor features of [`Layout::training_count`]).
pub fn sample_features(layout: &Layout, s: &Sample, side: Color, out: &mut Vec<u16>) {
    for &(i, p) in &s.pieces {
        out.push(layout.piece_at_index(side, p, i as usize) as u16);
        out.push(layout.factor(side, p) as u16);
    }
    for owner in Color::ALL {
        for n in 0..(s.hands[owner.index()] as usize).min(layout.hand_slots) {
            out.push(layout.hand(side, owner, n) as u16);
        }
    }
}

impl Prepared {
    /// The samples of `sets` (all of one variant), with `wdl` the weight of the result.
    pub fn new(sets: &[DataSet], wdl: f32) -> Result<Prepared, String> {
        let v = sets
            .first()
            .map(|d| d.variant)
            .ok_or_else(|| "no data".to_string())?;
        if let Some(d) = sets.iter().find(|d| !std::ptr::eq(d.variant, v)) {
            return Err(format!(
                "data of {} and of {}: one variant at a time",
                v.id(),
                d.variant.id()
            ));
        }
        let mut p = Prepared::empty(Layout::new(v));
        for d in sets {
            for i in 0..d.len() {
                let s = d.get(i);
                if s.pieces.iter().any(|&(_, pc)| !p.layout.knows(pc)) {
                    return Err(format!("a piece outside the {} army in the data", v.id()));
                }
                p.push(&s, target(&s, wdl));
            }
        }
        Ok(p)
    }

    /// Adds the mirror image (files reversed) of every training position: those outside the
    /// validation `share` (see [`split`]), with the same target. A square feature moves to
    /// its image's square; file and rank mirroring commute, so this holds for Black's
    /// rank-mirrored view too. Factor and hand features stay.
    pub fn mirror_training(&mut self, share: f64) -> Result<(), String> {
        let image = self.layout.file_mirror().ok_or_else(|| {
            format!(
                "--mirror: the {} board is not left-right symmetric",
                self.layout.variant.id()
            )
        })?;
        let squares = self.layout.squares;
        let square_features = 2 * self.layout.roles * squares;
        let (training, _) = split(self.originals, share);
        for i in training {
            for k in self.starts[i]..self.starts[i + 1] {
                let f = usize::from(self.features[k]);
                let f = if f < square_features {
                    f - f % squares + usize::from(image[f % squares])
                } else {
                    f
                };
                self.features.push(f as u16);
            }
            self.starts.push(self.features.len());
            self.pieces.push(self.pieces[i]);
            self.targets.push(self.targets[i]);
        }
        Ok(())
    }

    /// No positions yet.
    pub fn empty(layout: Layout) -> Prepared {
        Prepared {
            layout,
            originals: 0,
            features: Vec::new(),
            starts: vec![0],
            pieces: Vec::new(),
            targets: Vec::new(),
        }
    }

    /// Adds one sample as read, with its target (before any mirror image is added).
    pub fn push(&mut self, s: &Sample, target: f32) {
        debug_assert_eq!(
            self.originals,
            self.len(),
            "a sample after the mirror images"
        );
        sample_features(&self.layout, s, s.side, &mut self.features);
        sample_features(&self.layout, s, s.side.flip(), &mut self.features);
        self.starts.push(self.features.len());
        let pieces = s.pieces.len() + s.hands.iter().map(|&h| h as usize).sum::<usize>();
        self.pieces.push(pieces.min(usize::from(u16::MAX)) as u16);
        self.targets.push(target);
        self.originals += 1;
    }

    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Sample i's features (side to move's, other side's), output bucket of `buckets` and
    /// target.
    fn sample(&self, i: usize, buckets: usize) -> Item<'_> {
        let f = &self.features[self.starts[i]..self.starts[i + 1]];
        let (us, them) = f.split_at(f.len() / 2);
        let bucket = self.layout.bucket(usize::from(self.pieces[i]), buckets);
        (us, them, bucket, self.targets[i])
    }
}

/// The network in floating point, as trained.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub features: usize,
    pub hidden: usize,
    pub buckets: usize,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `buckets * 2 * hidden`, as in [`Network::w2`].
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

impl FloatNet {
    /// Random first weights (uniform, scaled by the fan-in), zero biases.
    pub fn random(features: usize, hidden: usize, buckets: usize, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform = |scale: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * scale
        };
        // About 30 features are active a side.
        let w1 = (0..features * hidden).map(|_| uniform(0.18)).collect();
        let w2 = (0..buckets * 2 * hidden)
            .map(|_| uniform(1.0 / (2.0 * hidden as f32).sqrt()))
            .collect();
        FloatNet {
            features,
            hidden,
            buckets,
            w1,
            b1: vec![0.0; hidden],
            w2,
            b2: vec![0.0; buckets],
        }
    }

    /// A network file's weights in training form (`features` inputs: the file's square
    /// features, then factor features at zero), grown to `hidden` neurons: the new ones get
    /// [`FloatNet::random`]'s first-layer weights and zero output weights, so the output is
    /// the file's. A one-bucket file's output layer is copied into each of `buckets`.
    pub fn from_network(
        net: &Network,
        features: usize,
        hidden: usize,
        buckets: usize,
        seed: u64,
    ) -> Result<FloatNet, String> {
        if net.buckets != buckets && net.buckets != 1 {
            return Err(format!(
                "the starting network has {} output buckets; --buckets must be that or it must have one",
                net.buckets
            ));
        }
        if hidden < net.hidden {
            return Err(format!(
                "the starting network has {} hidden neurons a side; --hidden must be at least that",
                net.hidden
            ));
        }
        if features < net.features {
            return Err(format!(
                "the starting network has {} input features, more than {features}",
                net.features
            ));
        }
        let (qa, qb) = (QA as f32, QB as f32);
        let mut f = FloatNet::random(features, hidden, buckets, seed);
        // The file's neurons are the first `net.hidden` of each row; the rest stay random
        // in the first layer and silent (zero) in the output.
        for feature in 0..features {
            let row = &mut f.w1[feature * hidden..feature * hidden + net.hidden];
            // The file's row exists exactly when `feature < net.features`.
            match net.w1.get(feature * net.hidden..(feature + 1) * net.hidden) {
                Some(file_row) => {
                    for (w, &q) in row.iter_mut().zip(file_row) {
                        *w = f32::from(q) / qa;
                    }
                }
                _ => row.fill(0.0),
            }
        }
        for (b, &q) in f.b1.iter_mut().zip(&net.b1) {
            *b = f32::from(q) / qa;
        }
        for bucket in 0..buckets {
            let from = if net.buckets == 1 { 0 } else { bucket };
            for side in 0..2 {
                let at = (2 * bucket + side) * hidden;
                let half = &mut f.w2[at..at + hidden];
                let file_at = (2 * from + side) * net.hidden;
                let file_half = &net.w2[file_at..file_at + net.hidden];
                for (k, w) in half.iter_mut().enumerate() {
                    *w = file_half.get(k).map_or(0.0, |&q| f32::from(q) / qb);
                }
            }
            f.b2[bucket] = net.b2[from] as f32 / (QA * QB) as f32;
        }
        Ok(f)
    }

    fn zeros(features: usize, hidden: usize, buckets: usize) -> FloatNet {
        FloatNet {
            features,
            hidden,
            buckets,
            w1: vec![0.0; features * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; buckets * 2 * hidden],
            b2: vec![0.0; buckets],
        }
    }

    fn accumulate(&self, active: &[u16], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        let h = self.hidden;
        for &f in active {
            let row = &self.w1[f as usize * h..(f as usize + 1) * h];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (in units of [`SCALE`] centipawns) for these active features, by output
    /// bucket `bucket`.
    pub fn forward(&self, us: &[u16], them: &[u16], bucket: usize, scratch: &mut Scratch) -> f32 {
        self.accumulate(us, &mut scratch.us);
        self.accumulate(them, &mut scratch.them);
        let h = self.hidden;
        let (w_us, w_them) = self.w2[bucket * 2 * h..(bucket + 1) * 2 * h].split_at(h);
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| a.clamp(0.0, 1.0) * w)
                .sum()
        };
        self.b2[bucket] + dot(&scratch.us, w_us) + dot(&scratch.them, w_them)
    }

    /// Adds the gradient of one sample's loss, times `scale`, to `grad`; returns the loss.
    fn backward(
        &self,
        (us, them, bucket, target): Item<'_>,
        scale: f32,
        grad: &mut FloatNet,
        scratch: &mut Scratch,
    ) -> f32 {
        let out = self.forward(us, them, bucket, scratch);
        let p = sigmoid(out);
        let loss = (p - target) * (p - target);
        let d_out = 2.0 * (p - target) * p * (1.0 - p) * scale;
        let h = self.hidden;
        grad.b2[bucket] += d_out;
        let base = bucket * 2 * h;
        for (side, active, offset) in [(&scratch.us, us, base), (&scratch.them, them, base + h)] {
            let w2 = &self.w2[offset..offset + h];
            let gw2 = &mut grad.w2[offset..offset + h];
            for (((&a, &w), g), d) in side.iter().zip(w2).zip(gw2).zip(&mut scratch.delta) {
                *g += d_out * a.clamp(0.0, 1.0);
                *d = if a > 0.0 && a < 1.0 { d_out * w } else { 0.0 };
            }
            for (g, &d) in grad.b1.iter_mut().zip(&scratch.delta) {
                *g += d;
            }
            for &f in active {
                let row = &mut grad.w1[f as usize * h..(f as usize + 1) * h];
                for (g, &d) in row.iter_mut().zip(&scratch.delta) {
                    *g += d;
                }
            }
        }
        loss
    }

    fn add(&mut self, other: &FloatNet) {
        for (a, b) in self.params_mut().into_iter().zip(other.params()) {
            for (x, &y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }

    fn clear(&mut self) {
        for p in self.params_mut() {
            p.fill(0.0);
        }
    }

    fn params(&self) -> [&[f32]; 4] {
        [&self.w1, &self.b1, &self.w2, &self.b2]
    }

    fn params_mut(&mut self) -> [&mut [f32]; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2]
    }

    /// The network play uses: factor features (if trained with them) folded into the
    /// square features' rows, and everything rounded to integers.
    pub fn quantize(&self, variant: &'static Variant) -> Network {
        let layout = Layout::new(variant);
        let h = self.hidden;
        let mut w1 = self.w1.clone();
        if self.features == layout.training_count() {
            for f in 0..layout.count() {
                if let Some(g) = layout.factor_of(f) {
                    for k in 0..h {
                        w1[f * h + k] += self.w1[g * h + k];
                    }
                }
            }
        }
        w1.truncate(layout.count() * h);
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        Network {
            variant,
            features: layout.count(),
            hidden: self.hidden,
            buckets: self.buckets,
            w1: w1.iter().map(|&w| q(w, QA)).collect(),
            b1: self.b1.iter().map(|&w| q(w, QA)).collect(),
            w2: self.w2.iter().map(|&w| q(w, QB)).collect(),
            b2: self
                .b2
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }
}

/// Buffers of one forward and backward pass.
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    delta: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            delta: vec![0.0; hidden],
        }
    }
}

/// Adam's moments and step count, for a list of parameter slices.
pub struct Adam {
    m: Vec<Vec<f32>>,
    v: Vec<Vec<f32>>,
    t: i32,
}

impl Adam {
    /// Moments for parameter slices of these lengths.
    pub fn new(sizes: &[usize]) -> Adam {
        Adam {
            m: sizes.iter().map(|&n| vec![0.0; n]).collect(),
            v: sizes.iter().map(|&n| vec![0.0; n]).collect(),
            t: 0,
        }
    }

    /// One step along `grads`, slice k at rate `lr * rates[k]`; slice k first shrinks by
    /// `lr * decay[k]` (decoupled weight decay) and stays within +/- `limits[k]`.
    pub fn step(
        &mut self,
        params: &mut [&mut [f32]],
        grads: &[&[f32]],
        (limits, decay, rates): (&[f32], &[f32], &[f32]),
        lr: f32,
    ) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (k, p) in params.iter_mut().enumerate() {
            let (g, m, v, limit) = (grads[k], &mut self.m[k], &mut self.v[k], limits[k]);
            let keep = 1.0 - lr * decay[k];
            let rate = lr * rates[k];
            for i in 0..p.len() {
                m[i] = B1 * m[i] + (1.0 - B1) * g[i];
                v[i] = B2 * v[i] + (1.0 - B2) * g[i] * g[i];
                let step = rate * (m[i] / c1) / ((v[i] / c2).sqrt() + EPS);
                p[i] = (p[i] * keep - step).clamp(-limit, limit);
            }
        }
    }
}

/// Mean loss of `net` over the samples `indices`.
pub fn mean_loss(net: &FloatNet, data: &Prepared, indices: &[usize]) -> f32 {
    let mut scratch = Scratch::new(net.hidden);
    let sum: f64 = indices
        .iter()
        .map(|&i| {
            let (us, them, bucket, t) = data.sample(i, net.buckets);
            let p = sigmoid(net.forward(us, them, bucket, &mut scratch));
            f64::from((p - t) * (p - t))
        })
        .sum();
    (sum / indices.len().max(1) as f64) as f32
}

/// What one epoch did.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: usize,
    pub lr: f32,
    pub train_loss: f32,
    pub validation_loss: f32,
    pub positions_per_second: f64,
}

/// Training settings (the command's flags without the files).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub hidden: usize,
    pub buckets: usize,
    pub epochs: usize,
    pub lr: f32,
    pub lr_end: f32,
    /// The output layer's learning rate as a multiple of `lr`.
    pub output_lr: f32,
    pub batch: usize,
    pub threads: usize,
    pub validation: f64,
    pub seed: u64,
    /// Decoupled weight decay of the first layer's weights.
    pub weight_decay: f32,
}

/// Splits the sample indices into (training, validation): the validation share is the last
/// positions in file order. Positions of one game lie together in a data file, so this keeps
/// the games apart (but one at the boundary); a split by position would put neighbours of
/// the same game on both sides and measure memory of the game's result.
pub fn split(n: usize, share: f64) -> (Vec<usize>, Vec<usize>) {
    let keep = ((n as f64 * share).round() as usize).min(n.saturating_sub(1));
    ((0..n - keep).collect(), (n - keep..n).collect())
}

fn shuffle(v: &mut [usize], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

/// Trains a network on `data` from `start` (random weights if none), calling `on_epoch`
/// after every epoch.
pub fn train(
    data: &Prepared,
    s: &Settings,
    start: Option<FloatNet>,
    on_epoch: &mut dyn FnMut(&Epoch, &FloatNet),
) -> FloatNet {
    let mut net = start.unwrap_or_else(|| {
        FloatNet::random(data.layout.training_count(), s.hidden, s.buckets, s.seed)
    });
    let sizes = net.params().map(|p| p.len());
    let mut adam = Adam::new(&sizes);
    let limits = [W1_LIMIT, W1_LIMIT, f32::MAX, f32::MAX];
    let decay = [s.weight_decay, 0.0, 0.0, 0.0];
    let rates = [1.0, 1.0, s.output_lr, s.output_lr];
    let (mut training, validation) = split(data.originals, s.validation);
    training.extend(data.originals..data.len());
    let mut rng = Rng::new(s.seed ^ 0xba7c);
    let threads = s.threads.max(1);
    let mut grads: Vec<FloatNet> = (0..threads)
        .map(|_| FloatNet::zeros(net.features, net.hidden, net.buckets))
        .collect();
    let mut scratches: Vec<Scratch> = (0..threads).map(|_| Scratch::new(s.hidden)).collect();
    for epoch in 0..s.epochs {
        let progress = if s.epochs > 1 {
            epoch as f32 / (s.epochs - 1) as f32
        } else {
            0.0
        };
        let lr = s.lr * s.lr_end.powf(progress);
        shuffle(&mut training, &mut rng);
        let start = Instant::now();
        let mut loss_sum = 0.0f64;
        for batch in training.chunks(s.batch.max(1)) {
            let scale = 1.0 / batch.len() as f32;
            let per_thread = batch.len().div_ceil(threads);
            let net_ref = &net;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(scratches.iter_mut())
                    .zip(batch.chunks(per_thread))
                    .map(|((grad, scratch), part)| {
                        scope.spawn(move || {
                            grad.clear();
                            part.iter()
                                .map(|&i| {
                                    let sample = data.sample(i, net_ref.buckets);
                                    f64::from(net_ref.backward(sample, scale, grad, scratch))
                                })
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            let used = batch.len().div_ceil(per_thread);
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter().take(used - 1) {
                first[0].add(g);
            }
            adam.step(
                &mut net.params_mut(),
                &first[0].params(),
                (&limits, &decay, &rates),
                lr,
            );
            loss_sum += losses.iter().sum::<f64>();
        }
        let seconds = start.elapsed().as_secs_f64().max(1e-9);
        let report = Epoch {
            epoch: epoch + 1,
            lr,
            train_loss: (loss_sum / training.len().max(1) as f64) as f32,
            validation_loss: mean_loss(&net, data, &validation),
            positions_per_second: training.len() as f64 / seconds,
        };
        on_epoch(&report, &net);
    }
    net
}

/// The loss of the hand-written evaluation on the validation share of `sets` (see
/// [`split`]): what a network must beat.
pub fn hand_written_loss(sets: &[DataSet], wdl: f32, share: f64) -> Result<f32, String> {
    let all: Vec<(&DataSet, usize)> = sets
        .iter()
        .flat_map(|d| (0..d.len()).map(move |i| (d, i)))
        .collect();
    let (_, validation) = split(all.len(), share);
    let mut sum = 0f64;
    for &k in &validation {
        let (d, i) = all[k];
        let s = d.get(i);
        let pos = s.position(d.variant)?;
        let p = sigmoid(crate::search::eval::evaluate(&pos) as f32 / SCALE as f32);
        let t = target(&s, wdl);
        sum += f64::from((p - t) * (p - t));
    }
    Ok((sum / validation.len().max(1) as f64) as f32)
}

/// `sissa train`.
pub fn run_train(args: &TrainArgs) -> Result<(), String> {
    if args.hidden == 0 || args.hidden > super::net::MAX_HIDDEN {
        return Err(format!("--hidden must be 1 to {}", super::net::MAX_HIDDEN));
    }
    if args
        .buckets
        .is_some_and(|b| b == 0 || b > super::net::MAX_BUCKETS)
    {
        return Err(format!(
            "--buckets must be 1 to {}",
            super::net::MAX_BUCKETS
        ));
    }
    if args.epochs == 0 || args.batch == 0 {
        return Err("--epochs and --batch must be at least 1".to_string());
    }
    if args.threads == 0 || args.threads > crate::search::MAX_THREADS {
        return Err(format!(
            "--threads must be 1 to {}",
            crate::search::MAX_THREADS
        ));
    }
    if !(0.0..=1.0).contains(&args.wdl) || !(0.0..0.5).contains(&args.validation) {
        return Err("--wdl must lie in 0..=1 and --validation in 0..0.5".to_string());
    }
    if !(args.lr > 0.0 && args.lr_end > 0.0 && args.lr_end <= 1.0) {
        return Err("--lr must be positive and --lr-end in (0, 1]".to_string());
    }
    if !(args.output_lr > 0.0 && args.output_lr <= 1000.0) {
        return Err("--output-lr must be above 0 and at most 1000".to_string());
    }
    if !(0.0..1.0).contains(&(args.weight_decay * args.lr)) {
        return Err("--weight-decay must be at least 0 and below 1 / --lr".to_string());
    }
    let sets = args
        .data
        .iter()
        .map(|p| DataSet::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    if args.fit_material {
        let fit = super::texel::fit_material(&sets, args.wdl, args.validation)?;
        println!(
            "validation loss {:.6} -> {:.6}",
            fit.loss_before, fit.loss_after
        );
        for f in &fit.values {
            println!("{:<12} {:>5} -> {:>5}", f.role.name(), f.old, f.new);
        }
        return Ok(());
    }
    if args.fit_terms {
        let fit = super::texel::fit_terms(&sets, args.wdl, args.validation)?;
        println!(
            "validation loss {:.6} -> {:.6}",
            fit.loss_before, fit.loss_after
        );
        for (term, mg, eg) in &fit.multipliers {
            println!("{:<16} middlegame x{mg:.2}  endgame x{eg:.2}", term.name());
        }
        return Ok(());
    }
    let out = args
        .out
        .as_deref()
        .ok_or_else(|| "--out is required".to_string())?;
    let mut data = Prepared::new(&sets, args.wdl)?;
    let mut buckets = args.buckets.unwrap_or(1);
    let start = match &args.init {
        Some(path) => {
            let file = super::load(path)?;
            if file.variant.id() != data.layout.variant.id() {
                return Err(format!(
                    "{}: a network for {}, the data is {}",
                    path.display(),
                    file.variant.id(),
                    data.layout.variant.id()
                ));
            }
            buckets = args.buckets.unwrap_or(file.buckets);
            let features = data.layout.training_count();
            let f = FloatNet::from_network(&file, features, args.hidden, buckets, args.seed)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            Some(f)
        }
        None => None,
    };
    if args.mirror {
        data.mirror_training(args.validation)?;
    }
    let baseline = hand_written_loss(&sets, args.wdl, args.validation)?;
    drop(sets);
    if data.len() < 2 {
        return Err("the data holds fewer than two positions".to_string());
    }
    let variant = data.layout.variant;
    eprintln!(
        "train: the hand-written evaluation's validation loss is {baseline:.6} (the bar to pass)"
    );
    eprintln!(
        "train: {} positions of {}, {} features, {} hidden a side, {} output bucket(s)",
        data.len(),
        variant.id(),
        data.layout.count(),
        args.hidden,
        buckets
    );
    let mut log = match &args.log {
        Some(p) => {
            let mut f = std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?;
            writeln!(
                f,
                "epoch,lr,train_loss,validation_loss,positions_per_second"
            )
            .map_err(|e| e.to_string())?;
            Some(f)
        }
        None => None,
    };
    let settings = Settings {
        hidden: args.hidden,
        buckets,
        epochs: args.epochs,
        lr: args.lr,
        lr_end: args.lr_end,
        output_lr: args.output_lr,
        batch: args.batch,
        threads: args.threads,
        validation: args.validation,
        seed: args.seed,
        weight_decay: args.weight_decay,
    };
    if let Some(f) = &start {
        let (_, validation) = split(data.originals, args.validation);
        eprintln!(
            "train: the starting network's validation loss is {:.6}",
            mean_loss(f, &data, &validation)
        );
    }
    let mut log_error = None;
    let net = train(&data, &settings, start, &mut |e, _| {
        eprintln!(
            "epoch {:>3}  lr {:.2e}  train loss {:.6}  validation loss {:.6}  {:.0} positions/s",
            e.epoch, e.lr, e.train_loss, e.validation_loss, e.positions_per_second
        );
        if let Some(f) = log.as_mut()
            && let Err(err) = writeln!(
                f,
                "{},{},{},{},{:.0}",
                e.epoch, e.lr, e.train_loss, e.validation_loss, e.positions_per_second
            )
        {
            log_error.get_or_insert(err.to_string());
        }
    });
    if let Some(e) = log_error {
        return Err(format!("--log: {e}"));
    }
    let q = net.quantize(variant);
    std::fs::write(out, q.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "{}: {} network, {} hidden, {} output bucket(s)",
        out.display(),
        variant.id(),
        q.hidden,
        q.buckets
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::GameResult;
    use crate::rules::position::Position;

    /// What play computes for a training sample: the accumulators of its square features
    /// (factor features are folded into them in a file) and the output in centipawns.
    fn played_output(q: &Network, layout: &Layout, (us, them, bucket, _): Item<'_>) -> i32 {
        let squares = |f: &[u16]| -> Vec<usize> {
            f.iter()
                .map(|&x| usize::from(x))
                .filter(|&x| x < layout.count())
                .collect()
        };
        let (mut us_acc, mut them_acc) = (vec![0i16; q.hidden], vec![0i16; q.hidden]);
        q.accumulate(&squares(us), &mut us_acc);
        q.accumulate(&squares(them), &mut them_acc);
        q.output(&us_acc, &them_acc, bucket)
    }

    /// Positions of random games, labelled by their material balance.
    fn material_set(variant: &str, n: usize) -> Prepared {
        let v = Variant::by_name(variant).expect("variant");
        let mut rng = Rng::new(11);
        let mut data = Prepared::empty(Layout::new(v));
        while data.len() < n {
            crate::rules::position::random_game(v, &mut rng, 120, |pos, ply| {
                // Every tenth position: neighbours in one game are too much alike.
                if ply % 10 != 0 {
                    return;
                }
                let cp = crate::search::eval::material_only(pos);
                let s = Sample::of(pos, cp as i16, GameResult::Draw);
                data.push(&s, sigmoid(cp as f32 / SCALE as f32));
            });
        }
        data
    }

    #[test]
    fn training_learns_material_and_quantizes_faithfully() {
        let data = material_set("venomous", 4000);
        let settings = Settings {
            hidden: 64,
            buckets: 4,
            epochs: 30,
            lr: 0.01,
            lr_end: 0.1,
            output_lr: 1.0,
            batch: 256,
            threads: 2,
            validation: 0.1,
            seed: 5,
            weight_decay: 0.0,
        };
        let (_, validation) = split(data.len(), settings.validation);
        let before = mean_loss(
            &FloatNet::random(data.layout.training_count(), 64, 4, settings.seed),
            &data,
            &validation,
        );
        let mut curve = Vec::new();
        let net = train(&data, &settings, None, &mut |e, _| {
            curve.push(e.validation_loss)
        });
        let after = *curve.last().expect("epochs");
        assert_eq!(curve.len(), 30);
        assert!(after < before / 4.0, "validation loss {before} -> {after}");

        let q = net.quantize(data.layout.variant);
        let back = Network::from_bytes(&q.to_bytes(), data.layout.variant).expect("reads");
        assert_eq!(
            (back.buckets, back.w1, back.b1, back.w2, back.b2),
            (4, q.w1.clone(), q.b1.clone(), q.w2.clone(), q.b2.clone())
        );
        // Random games of 120 plies leave most pieces on: they reach the two fullest buckets.
        let mut seen = [0usize; 4];
        let mut scratch = Scratch::new(64);
        for &i in &validation {
            let sample = data.sample(i, 4);
            seen[sample.2] += 1;
            let float = net.forward(sample.0, sample.1, sample.2, &mut scratch) * SCALE as f32;
            let int = played_output(&q, &data.layout, sample);
            // Rounding to 1/255 and 1/64 moves these outputs by about 5 cp, at most 20.
            assert!((int as f32 - float).abs() < 25.0, "{int} vs {float}");
        }
        assert!(seen[2] > 0 && seen[3] > 0, "{seen:?}");
    }

    #[test]
    fn a_network_file_grown_to_more_neurons_starts_training_where_it_left_off() {
        let data = material_set("gustav3", 600);
        let settings = Settings {
            hidden: 8,
            buckets: 1,
            epochs: 3,
            lr: 0.01,
            lr_end: 0.5,
            output_lr: 1.0,
            batch: 128,
            threads: 1,
            validation: 0.2,
            seed: 3,
            weight_decay: 0.0,
        };
        let variant = data.layout.variant;
        let file = train(&data, &settings, None, &mut |_, _| {}).quantize(variant);
        let features = data.layout.training_count();
        // Grown to more neurons, and its one output bucket copied into three.
        let grown = FloatNet::from_network(&file, features, 16, 3, 9).expect("grows");
        // The same output as the file, in floating point, on every position.
        let mut scratch = Scratch::new(16);
        for i in 0..data.len() {
            let (us, them, bucket, _) = data.sample(i, 3);
            let float = grown.forward(us, them, bucket, &mut scratch) * SCALE as f32;
            let int = played_output(&file, &data.layout, data.sample(i, 1));
            assert!((int as f32 - float).abs() <= 1.0, "{int} vs {float}");
        }
        // Training on from there does not start over: the first epoch is no worse than
        // the file.
        let (_, validation) = split(data.len(), settings.validation);
        let start = mean_loss(&grown, &data, &validation);
        let mut curve = Vec::new();
        let more = Settings {
            hidden: 16,
            buckets: 3,
            lr: 0.001,
            output_lr: 10.0,
            ..settings
        };
        let three = grown.quantize(variant);
        train(&data, &more, Some(grown), &mut |e, _| {
            curve.push(e.validation_loss)
        });
        assert!(curve[0] < start * 1.05, "{start} -> {curve:?}");
        // A file with more neurons than asked for is refused.
        let err = FloatNet::from_network(&file, features, 4, 1, 9).expect_err("too small");
        assert!(err.contains("at least"), "{err}");
        // Buckets are copied from one, never redistributed from another count.
        let err = FloatNet::from_network(&three, features, 16, 2, 9).expect_err("3 into 2");
        assert!(err.contains("buckets"), "{err}");
    }

    /// A board's FEN placement with every rank read backwards (single-digit runs only).
    fn mirrored_placement(fen: &str) -> String {
        let placement = fen.split([' ', '[']).next().unwrap_or_default();
        let ranks: Vec<String> = placement
            .split('/')
            .map(|r| r.chars().rev().collect())
            .collect();
        ranks.join("/")
    }

    #[test]
    fn mirror_images_are_the_positions_with_their_files_reversed() {
        for name in ["chess", "gustav3", "venator"] {
            let v = Variant::by_name(name).expect("variant");
            let dir =
                std::env::temp_dir().join(format!("sissa-mirror-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("dir");
            let file = dir.join("m.bin");
            let mut w = crate::nnue::data::DataWriter::create(&file, v).expect("create");
            let mut rng = Rng::new(5);
            let mut pos = Position::startpos(v);
            for _ in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.below(moves.len())]);
                w.write(&Sample::of(&pos, 10, GameResult::Draw))
                    .expect("write");
            }
            w.finish().expect("finish");
            let sets = [DataSet::read(&file).expect("read")];
            std::fs::remove_dir_all(&dir).ok();
            let mut data = Prepared::new(&sets, 0.3).expect("prepared");
            let n = data.len();
            data.mirror_training(0.25).expect("a symmetric board");
            let (training, _) = split(n, 0.25);
            assert_eq!(data.len(), n + training.len(), "{name}");
            for (k, &i) in training.iter().enumerate() {
                let s = sets[0].get(i);
                let original = s.fen(v).expect("fen");
                let placement = mirrored_placement(&original);
                let rest = &original[original.find(' ').expect("fields")..];
                let image = Position::from_fen(v, &format!("{placement}{rest}"))
                    .unwrap_or_else(|e| panic!("{name}: {placement}: {e}"));
                let mut want = Prepared::empty(Layout::new(v));
                want.push(&Sample::of(&image, s.score, s.result), 0.0);
                let sorted = |f: &[u16]| {
                    let mut f = f.to_vec();
                    f.sort_unstable();
                    f
                };
                let (us, them, bucket, t) = data.sample(n + k, 4);
                let (wus, wthem, wbucket, _) = want.sample(0, 4);
                assert_eq!(sorted(us), sorted(wus), "{name}: {original}");
                assert_eq!(sorted(them), sorted(wthem), "{name}: {original}");
                assert_eq!(bucket, wbucket, "{name}: {original}");
                assert_eq!(t, data.sample(i, 4).3, "{name}: the same target");
            }
        }
    }

    #[test]
    fn a_board_that_is_not_left_right_symmetric_has_no_mirror() {
        let text = "[lopsided:chess]\nholes = c4\nstart = rnbqkbnr/pppppppp/8/8/2*5/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
        let v = crate::rules::variant_file::compile("lopsided.ini", text, &|_| Ok(()))
            .unwrap_or_else(|e| panic!("{e:?}"))[0];
        assert!(Layout::new(v).file_mirror().is_none());
        assert!(
            Layout::new(Variant::by_name("venomous").expect("venomous"))
                .file_mirror()
                .is_some()
        );
    }

    #[test]
    fn weight_decay_shrinks_only_the_slices_it_is_given() {
        let mut adam = Adam::new(&[2, 2]);
        let (mut a, mut b) = (vec![1.0f32, -2.0], vec![1.0f32, -2.0]);
        let zero = [0.0f32; 2];
        adam.step(
            &mut [&mut a, &mut b],
            &[&zero, &zero],
            (&[f32::MAX; 2], &[0.5, 0.0], &[1.0; 2]),
            0.1,
        );
        assert_eq!(a, vec![0.95, -1.9]);
        assert_eq!(b, vec![1.0, -2.0]);
    }

    #[test]
    fn each_slice_steps_at_its_own_rate() {
        // Adam's first step moves every weight by its rate (the gradient's sign).
        let mut adam = Adam::new(&[1, 1]);
        let (mut a, mut b) = (vec![0.0f32], vec![0.0f32]);
        adam.step(
            &mut [&mut a, &mut b],
            &[&[1.0], &[-1.0]],
            (&[f32::MAX; 2], &[0.0; 2], &[1.0, 30.0]),
            0.01,
        );
        assert!((a[0] + 0.01).abs() < 1e-6, "{a:?}");
        assert!((b[0] - 0.3).abs() < 1e-5, "{b:?}");
    }
}
