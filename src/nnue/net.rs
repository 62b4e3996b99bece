//! The network: a perspective net with one hidden layer a side.
//!
//! Each side's accumulator is the hidden layer's bias plus the first layer's rows of the
//! features active from that side ([`super::features`]). The output is
//! `b2 + w2 . [crelu(acc of the side to move), crelu(acc of the other side)]`, where crelu
//! clamps to [0, 1], in units of 400 centipawns (its logistic is the expected score).
//!
//! Quantized for play: the first layer and its bias times [`QA`] as i16 (so crelu clamps to
//! [0, QA]), the output weights times [`QB`] as i16, the output bias times QA * QB as i32.
//!
//! File layout (little-endian): magic `SISSANET`, version u16, variant id (length u8 and
//! letters), feature count u32, hidden size u32, then the first layer (feature-major, i16),
//! its bias (i16), the output weights (i16, the side to move's half first) and the output
//! bias (i32). Nothing may follow.

use super::features::Layout;
use crate::rules::variant::Variant;

pub const MAGIC: &[u8; 8] = b"SISSANET";
pub const VERSION: u16 = 1;
/// Scale of the first layer's weights and of the accumulator.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per output unit.
pub const SCALE: i32 = 400;
/// First-layer weights and biases are kept within this in training, so that the
/// accumulators of real positions (a hundred features at most) stay within i16.
pub const W1_LIMIT: f32 = 1.0;
/// Largest hidden layer accepted from a file.
pub const MAX_HIDDEN: usize = 4096;

/// A quantized network of one variant.
#[derive(Clone, Debug)]
pub struct Network {
    pub variant: &'static Variant,
    pub features: usize,
    pub hidden: usize,
    /// `features * hidden`, the row of feature f at `f * hidden`.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// `2 * hidden`: the side to move's accumulator, then the other side's.
    pub w2: Vec<i16>,
    pub b2: i32,
}

/// The id of the variant a network file is for (after checking magic and version).
pub fn variant_id(bytes: &[u8]) -> Result<String, String> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a Sissa network file (no SISSANET magic)".to_string());
    }
    let short = || "truncated network file".to_string();
    let version = u16::from_le_bytes(
        bytes
            .get(8..10)
            .ok_or_else(short)?
            .try_into()
            .map_err(|_| short())?,
    );
    if version != VERSION {
        return Err(format!(
            "network format version {version}; this build reads version {VERSION}"
        ));
    }
    let n = *bytes.get(10).ok_or_else(short)? as usize;
    let id = bytes.get(11..11 + n).ok_or_else(short)?;
    Ok(String::from_utf8_lossy(id).to_string())
}

impl Network {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let id = self.variant.id().as_bytes();
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.extend_from_slice(&(self.features as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// Reads a network file for `variant`; the error says what does not fit.
    pub fn from_bytes(bytes: &[u8], variant: &'static Variant) -> Result<Network, String> {
        let id = variant_id(bytes)?;
        if id != variant.id() {
            return Err(format!("a network for {id}, not for {}", variant.id()));
        }
        let short = || "truncated network file".to_string();
        let take = |at: usize, n: usize| bytes.get(at..at + n).ok_or_else(short);
        let n = id.len();
        let mut at = 11 + n;
        let u32_at = |at: usize| -> Result<usize, String> {
            Ok(u32::from_le_bytes(take(at, 4)?.try_into().map_err(|_| short())?) as usize)
        };
        let features = u32_at(at)?;
        let hidden = u32_at(at + 4)?;
        at += 8;
        let expected = Layout::new(variant).count();
        if features != expected {
            return Err(format!(
                "{features} input features; {} networks have {expected}",
                variant.id()
            ));
        }
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(format!(
                "hidden layer of {hidden}: must be 1 to {MAX_HIDDEN}"
            ));
        }
        let weights = features * hidden + hidden + 2 * hidden;
        let size = at + 2 * weights + 4;
        if bytes.len() != size {
            return Err(format!(
                "{} bytes; a {features}x{hidden} network has {size}",
                bytes.len()
            ));
        }
        let mut words = bytes[at..at + 2 * weights]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let w1: Vec<i16> = words.by_ref().take(features * hidden).collect();
        let b1: Vec<i16> = words.by_ref().take(hidden).collect();
        let w2: Vec<i16> = words.take(2 * hidden).collect();
        let b2 = i32::from_le_bytes(take(size - 4, 4)?.try_into().map_err(|_| short())?);
        Ok(Network {
            variant,
            features,
            hidden,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// The accumulator of a side with these active features.
    pub fn accumulate(&self, active: &[usize], acc: &mut [i16]) {
        acc.copy_from_slice(&self.b1);
        for &f in active {
            self.add_row(f, acc);
        }
    }

    /// Adds feature `f`'s row to an accumulator.
    #[inline]
    pub fn add_row(&self, f: usize, acc: &mut [i16]) {
        let row = &self.w1[f * self.hidden..(f + 1) * self.hidden];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(w);
        }
    }

    /// Takes feature `f`'s row from an accumulator.
    #[inline]
    pub fn sub_row(&self, f: usize, acc: &mut [i16]) {
        let row = &self.w1[f * self.hidden..(f + 1) * self.hidden];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(w);
        }
    }

    /// The evaluation in centipawns from the two accumulators (the side to move's first).
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (w_us, w_them) = self.w2.split_at(self.hidden);
        let dot = |acc: &[i16], w: &[i16]| -> i32 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
                .sum()
        };
        let sum = dot(us, w_us) + dot(them, w_them) + self.b2;
        (i64::from(sum) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}
