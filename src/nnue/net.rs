//! The network: a perspective net with one hidden layer a side and output buckets.
//!
//! Each side's accumulator is the hidden layer's bias plus the first layer's rows of the
//! features active from that side ([`super::features`]). The output is
//! `b2[k] + w2[k] . [crelu(acc of the side to move), crelu(acc of the other side)]`, where
//! crelu clamps to [0, 1] and k is the position's output bucket (by how many pieces are
//! left, [`super::features::Layout::bucket`]), in units of 400 centipawns (its logistic is
//! the expected score). One hidden layer serves every stage of the game; each bucket weighs
//! it its own way.
//!
//! Quantized for play: the first layer and its bias times [`QA`] as i16 (so crelu clamps to
//! [0, QA]), the output weights times [`QB`] as i16, the output biases times QA * QB as i32.
//!
//! File layout (little-endian): magic `SISSANET`, version u16, variant id (length u8 and
//! letters), feature count u32, hidden size u32, in version 2 the bucket count u32 (version
//! 1 has one bucket), then the first layer (feature-major, i16), its bias (i16), each
//! bucket's output weights (i16, the side to move's half first) and the output biases (i32,
//! one a bucket). Nothing may follow. A one-bucket network is written as version 1.

use super::features::Layout;
use crate::rules::variant::Variant;

pub const MAGIC: &[u8; 8] = b"SISSANET";
/// The newest format version (1 is read too).
pub const VERSION: u16 = 2;
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
/// Most output buckets accepted.
pub const MAX_BUCKETS: usize = 16;

/// A quantized network of one variant.
#[derive(Clone, Debug)]
pub struct Network {
    pub variant: &'static Variant,
    pub features: usize,
    pub hidden: usize,
    /// `features * hidden`, the row of feature f at `f * hidden`.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// Output buckets (at least one).
    pub buckets: usize,
    /// `buckets * 2 * hidden`: bucket k's weights at `k * 2 * hidden`, those of the side to
    /// move's accumulator first, then the other side's.
    pub w2: Vec<i16>,
    /// One output bias a bucket.
    pub b2: Vec<i32>,
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
    if !(1..=VERSION).contains(&version) {
        return Err(format!(
            "network format version {version}; this build reads versions 1 to {VERSION}"
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
        let version: u16 = if self.buckets == 1 { 1 } else { VERSION };
        out.extend_from_slice(&version.to_le_bytes());
        let id = self.variant.id().as_bytes();
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.extend_from_slice(&(self.features as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        if version > 1 {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
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
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        let buckets = if version > 1 {
            at += 4;
            u32_at(at - 4)?
        } else {
            1
        };
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
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(format!(
                "{buckets} output buckets: must be 1 to {MAX_BUCKETS}"
            ));
        }
        let weights = features * hidden + hidden + buckets * 2 * hidden;
        let size = at + 2 * weights + 4 * buckets;
        if bytes.len() != size {
            return Err(format!(
                "{} bytes; a {features}x{hidden} network with {buckets} output bucket(s) has {size}",
                bytes.len()
            ));
        }
        let mut words = bytes[at..at + 2 * weights]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let w1: Vec<i16> = words.by_ref().take(features * hidden).collect();
        let b1: Vec<i16> = words.by_ref().take(hidden).collect();
        let w2: Vec<i16> = words.take(buckets * 2 * hidden).collect();
        let b2 = bytes[at + 2 * weights..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Network {
            variant,
            features,
            hidden,
            w1,
            b1,
            buckets,
            w2,
            b2,
        })
    }

    /// The accumulator of a side with these active features.
    pub fn accumulate(&self, active: &[usize], acc: &mut [i16]) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { self.accumulate_avx2(active, acc) };
        }
        self.accumulate_rows(active, acc)
    }

    /// [`Network::accumulate`] compiled for AVX2: the same loops, sixteen lanes a step.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn accumulate_avx2(&self, active: &[usize], acc: &mut [i16]) {
        self.accumulate_rows(active, acc)
    }

    #[inline(always)]
    fn accumulate_rows(&self, active: &[usize], acc: &mut [i16]) {
        acc.copy_from_slice(&self.b1);
        for &f in active {
            self.add_row(f, acc);
        }
    }

    /// Adds feature `f`'s row to an accumulator.
    #[inline(always)]
    pub fn add_row(&self, f: usize, acc: &mut [i16]) {
        let row = &self.w1[f * self.hidden..(f + 1) * self.hidden];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(w);
        }
    }

    /// `to = from - the rows of `removed` + the rows of `added`: a move's update. The usual
    /// moves (one piece off a square and onto another; a capture, which also takes the
    /// victim off) go in one pass over the accumulator instead of a copy and a pass a row.
    ///
    /// Where the processor has AVX2 (checked at run time, so that one binary serves every
    /// x86-64 machine) the loops are compiled for it, twice the lanes of the SSE2 baseline.
    pub fn update(&self, from: &[i16], to: &mut [i16], removed: &[usize], added: &[usize]) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { self.update_avx2(from, to, removed, added) };
        }
        self.update_rows(from, to, removed, added)
    }

    /// [`Network::update`] compiled for AVX2: the same loops, sixteen lanes a step.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn update_avx2(&self, from: &[i16], to: &mut [i16], removed: &[usize], added: &[usize]) {
        self.update_rows(from, to, removed, added)
    }

    #[inline(always)]
    fn update_rows(&self, from: &[i16], to: &mut [i16], removed: &[usize], added: &[usize]) {
        let row = |f: usize| &self.w1[f * self.hidden..(f + 1) * self.hidden];
        match (removed, added) {
            (&[r], &[a]) => {
                for ((t, &f), (&r, &a)) in to.iter_mut().zip(from).zip(row(r).iter().zip(row(a))) {
                    *t = f.wrapping_sub(r).wrapping_add(a);
                }
            }
            (&[r1, r2], &[a]) => {
                let rows = row(r1).iter().zip(row(r2)).zip(row(a));
                for ((t, &f), ((&r1, &r2), &a)) in to.iter_mut().zip(from).zip(rows) {
                    *t = f.wrapping_sub(r1).wrapping_sub(r2).wrapping_add(a);
                }
            }
            _ => {
                to.copy_from_slice(from);
                removed.iter().for_each(|&f| self.sub_row(f, to));
                added.iter().for_each(|&f| self.add_row(f, to));
            }
        }
    }

    /// Takes feature `f`'s row from an accumulator.
    #[inline(always)]
    pub fn sub_row(&self, f: usize, acc: &mut [i16]) {
        let row = &self.w1[f * self.hidden..(f + 1) * self.hidden];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(w);
        }
    }

    /// The evaluation in centipawns from the two accumulators (the side to move's first),
    /// by output bucket `bucket` (below [`Network::buckets`]).
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let (w_us, w_them) = self.w2[bucket * 2 * h..(bucket + 1) * 2 * h].split_at(h);
        let sum = dot_crelu(us, w_us) + dot_crelu(them, w_them) + self.b2[bucket];
        (i64::from(sum) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// `sum(crelu(acc[i]) * w[i])`, crelu clamping to [0, [`QA`]], in plain Rust.
fn dot_crelu_scalar(acc: &[i16], w: &[i16]) -> i32 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

/// [`dot_crelu_scalar`], eight lanes at a time with SSE2, which every x86-64 processor has:
/// one multiply-add of 16-bit lanes (`pmaddwd`) takes eight products where the compiler's
/// own vectorisation of the scalar loop took four (it widens to 32 bits first). The
/// clamped lanes are at most 255 and the weights 16-bit, so no pair of products overflows
/// and the sum is the scalar one exactly (a test compares them).
#[cfg(target_arch = "x86_64")]
fn dot_crelu(acc: &[i16], w: &[i16]) -> i32 {
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { dot_crelu_avx2(acc, w) };
    }
    // SAFETY: SSE2 is part of the x86-64 baseline: every processor this build runs on has it.
    unsafe { dot_crelu_sse2(acc, w) }
}

/// [`dot_crelu_sse2`] sixteen lanes at a time, on processors with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_crelu_avx2(acc: &[i16], w: &[i16]) -> i32 {
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi32,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16,
        _mm256_max_epi16, _mm256_min_epi16, _mm256_set1_epi16, _mm256_setzero_si256,
    };
    let (a16, w16) = (acc.chunks_exact(16), w.chunks_exact(16));
    let tail = dot_crelu_scalar(a16.remainder(), w16.remainder());
    let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let mut sum = _mm256_setzero_si256();
    for (a, w) in a16.zip(w16) {
        // SAFETY: each chunk is sixteen i16, the 32 bytes an unaligned load reads.
        let (a, w) = unsafe {
            (
                _mm256_loadu_si256(a.as_ptr().cast::<__m256i>()),
                _mm256_loadu_si256(w.as_ptr().cast::<__m256i>()),
            )
        };
        let x = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, w));
    }
    let sum = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256::<1>(sum),
    );
    let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
    let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b10_11_00_01>(sum));
    _mm_cvtsi128_si32(sum) + tail
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn dot_crelu_sse2(acc: &[i16], w: &[i16]) -> i32 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_madd_epi16, _mm_max_epi16, _mm_min_epi16,
        _mm_set_epi16, _mm_set1_epi16, _mm_setzero_si128, _mm_shuffle_epi32,
    };
    #[target_feature(enable = "sse2")]
    fn lanes(s: &[i16]) -> __m128i {
        _mm_set_epi16(s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0])
    }
    let (a8, w8) = (acc.chunks_exact(8), w.chunks_exact(8));
    let tail = dot_crelu_scalar(a8.remainder(), w8.remainder());
    let (zero, top) = (_mm_setzero_si128(), _mm_set1_epi16(QA as i16));
    let mut sum = _mm_setzero_si128();
    for (a, w) in a8.zip(w8) {
        let x = _mm_min_epi16(_mm_max_epi16(lanes(a), zero), top);
        sum = _mm_add_epi32(sum, _mm_madd_epi16(x, lanes(w)));
    }
    let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
    let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b10_11_00_01>(sum));
    _mm_cvtsi128_si32(sum) + tail
}

#[cfg(not(target_arch = "x86_64"))]
fn dot_crelu(acc: &[i16], w: &[i16]) -> i32 {
    dot_crelu_scalar(acc, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> &'static Variant {
        Variant::by_name("chess").expect("chess")
    }

    /// A small network whose weights count up, so that every value is in its place.
    fn counting(buckets: usize) -> Network {
        let v = chess();
        let features = Layout::new(v).count();
        let hidden = 4;
        let w = |n: usize| (0..n).map(|i| (i % 601) as i16 - 300).collect::<Vec<_>>();
        Network {
            variant: v,
            features,
            hidden,
            w1: w(features * hidden),
            b1: w(hidden),
            buckets,
            w2: w(buckets * 2 * hidden),
            b2: (0..buckets as i32).map(|k| 1000 * k - 7).collect(),
        }
    }

    /// The vector dot product equals the plain one: random lengths (tails included),
    /// accumulators beyond both clamp ends, weights to the i16 extremes.
    #[test]
    fn the_output_dot_product_equals_the_scalar_one() {
        let mut rng = crate::rng::Rng::new(0xd07);
        for n in (0..40).chain([256, 257, 512, 1023]) {
            for _ in 0..20 {
                let mut value = |extreme: bool| -> i16 {
                    let x = rng.next_u64() as u16 as i16;
                    if extreme { x } else { x % 400 }
                };
                let acc: Vec<i16> = (0..n).map(|i| value(i % 7 == 0)).collect();
                let w: Vec<i16> = (0..n).map(|i| value(i % 3 != 0)).collect();
                let scalar = dot_crelu_scalar(&acc, &w);
                assert_eq!(dot_crelu(&acc, &w), scalar, "n = {n}");
                // The SSE2 baseline too, where the processor's AVX2 path answered above.
                #[cfg(target_arch = "x86_64")]
                // SAFETY: SSE2 is part of the x86-64 baseline.
                assert_eq!(unsafe { dot_crelu_sse2(&acc, &w) }, scalar, "n = {n}");
            }
        }
        let top = vec![i16::MAX; 256];
        let low = vec![i16::MIN; 256];
        assert_eq!(dot_crelu(&top, &top), 256 * QA * i32::from(i16::MAX));
        assert_eq!(dot_crelu(&top, &low), 256 * QA * i32::from(i16::MIN));
        assert_eq!(dot_crelu(&low, &top), 0);
    }

    /// The accumulator updates and refreshes of the processor's widest path (AVX2 where it
    /// has it) equal the plain loops, for each branch of the update: one row off and one on
    /// (a quiet move), two off and one on (a capture), and the general path (castling's two
    /// and two, and uneven counts), on a hidden size with a tail beyond the vector width.
    #[test]
    fn vector_updates_equal_the_plain_loops() {
        let mut net = counting(1);
        let mut rng = crate::rng::Rng::new(0x0a2);
        net.hidden = 512 + 5;
        net.w1 = (0..net.features * net.hidden)
            .map(|_| rng.next_u64() as u16 as i16)
            .collect();
        net.b1 = (0..net.hidden)
            .map(|_| rng.next_u64() as u16 as i16)
            .collect();
        let mut f = || (rng.next_u64() % net.features as u64) as usize;
        let shapes: [(Vec<usize>, Vec<usize>); 5] = [
            (vec![f()], vec![f()]),
            (vec![f(), f()], vec![f()]),
            (vec![f(), f()], vec![f(), f()]),
            (vec![], vec![f()]),
            (vec![f(), f(), f()], vec![]),
        ];
        let from: Vec<i16> = net.b1.iter().map(|&b| b.wrapping_mul(3)).collect();
        for (removed, added) in &shapes {
            let (mut fast, mut plain) = (vec![0; net.hidden], vec![0; net.hidden]);
            net.update(&from, &mut fast, removed, added);
            net.update_rows(&from, &mut plain, removed, added);
            assert_eq!(fast, plain, "{removed:?} {added:?}");
            let active: Vec<usize> = removed.iter().chain(added).copied().collect();
            net.accumulate(&active, &mut fast);
            net.accumulate_rows(&active, &mut plain);
            assert_eq!(fast, plain, "{active:?}");
        }
    }

    #[test]
    fn one_bucket_is_written_as_version_1_and_more_as_version_2() {
        for buckets in [1, 2, 8] {
            let net = counting(buckets);
            let bytes = net.to_bytes();
            let version = u16::from_le_bytes([bytes[8], bytes[9]]);
            assert_eq!(version, if buckets == 1 { 1 } else { 2 });
            let back = Network::from_bytes(&bytes, chess()).expect("reads");
            assert_eq!(
                (back.buckets, &back.w1, &back.b1, &back.w2, &back.b2),
                (buckets, &net.w1, &net.b1, &net.w2, &net.b2)
            );
            assert_eq!(back.to_bytes(), bytes);
            // Each bucket's own weights and bias give its output.
            let us = [100i16, 0, 300, -5];
            let them = [0i16, 255, 1, 2];
            for k in 0..buckets {
                let w = &net.w2[k * 8..k * 8 + 8];
                let dot: i32 = [100, 0, 255, 0, 0, 255, 1, 2]
                    .iter()
                    .zip(w)
                    .map(|(&a, &w)| a * i32::from(w))
                    .sum();
                let want = (i64::from(dot + net.b2[k]) * 400 / (255 * 64)) as i32;
                assert_eq!(net.output(&us, &them, k), want, "bucket {k}");
            }
        }
    }

    #[test]
    fn a_bad_bucket_count_or_version_is_refused() {
        let bytes = counting(2).to_bytes();
        // The bucket count follows the variant id (2 + "chess"), features and hidden size.
        let at = 11 + 5 + 8;
        for (buckets, want) in [
            (0u32, "output buckets"),
            (17, "output buckets"),
            (3, "bytes"),
        ] {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&buckets.to_le_bytes());
            let err = Network::from_bytes(&b, chess()).expect_err("refused");
            assert!(err.contains(want), "{buckets}: {err}");
        }
        let mut b = bytes.clone();
        b[8..10].copy_from_slice(&3u16.to_le_bytes());
        let err = Network::from_bytes(&b, chess()).expect_err("refused");
        assert!(err.contains("version 3"), "{err}");
        let err = Network::from_bytes(&bytes[..bytes.len() - 1], chess()).expect_err("short");
        assert!(err.contains("bytes"), "{err}");
    }
}
