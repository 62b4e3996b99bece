//! `sissa datagen --rescore`: the positions of data files scored again by another UCI engine.
//!
//! Self-play data carries the scores of Sissa's own short searches, so a network trained on it
//! learns Sissa's judgement, blind spots included. Rescoring keeps the positions and their
//! game results and replaces each score with the one a (stronger or deeper) engine reports
//! for it: `score cp` from the engine's last `info` line before its `bestmove`, side to move's
//! view as UCI says. A position the engine scores as a mate is dropped, as `datagen` drops
//! them, and so is one it moves in without a score (an engine may play an only move at
//! once); an engine that scores no position at all is an error.
//!
//! Each position is searched as a new game (`ucinewgame`, `isready`), so with a one-threaded,
//! node-limited engine a position's score does not depend on the positions before it, and
//! `--threads` (engine processes, each on a contiguous part of the data) never changes the
//! bytes written.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::rules::role::Color;
use crate::rules::variant::Variant;
use crate::tournament::engine::{Answer, Engine, EngineError, EngineSpec, Proto, Score, Turn};
use crate::tournament::tc;

use super::data::{DataWriter, Sample};
use super::datagen::read_inputs;

/// How long an engine has to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(30);
/// How long one node- or depth-limited search may take before the engine counts as hung.
const MOVE_TIMEOUT: Duration = Duration::from_secs(300);
/// How often a progress line is written to stderr.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// What a rescoring run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RescoreReport {
    /// Positions read from the inputs.
    pub read: usize,
    /// Positions written with the engine's score.
    pub written: u64,
    /// Positions the engine scored as a mate (dropped).
    pub mates: usize,
    /// Positions the engine moved in without a centipawn or mate score (dropped).
    pub unscored: usize,
    /// Positions already written (the same board, hands and side to move; dropped).
    pub repeated: usize,
}

/// What the engine said of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// A centipawn score, side to move's view.
    Cp(i16),
    /// A mate score (the position is dropped).
    Mate,
    /// A move without a score (some engines play a position's only move at once; dropped).
    Unscored,
}

/// The engine's verdict on one position.
fn score_one(
    engine: &mut Engine,
    variant: &'static Variant,
    sample: &Sample,
    limits: &tc::Limits,
) -> Result<Verdict, String> {
    let fen = sample.fen(variant)?;
    let at = |e: EngineError| format!("{e} (at {fen})");
    engine
        .new_game(variant, &fen, limits, Instant::now() + HANDSHAKE)
        .map_err(at)?;
    let turn = Turn {
        start_fen: &fen,
        moves: &[],
        clocks: None,
        moves_to_go: None,
        white_to_move: sample.side == Color::White,
        deadline: Instant::now() + MOVE_TIMEOUT,
    };
    match engine.play(&turn, limits).map_err(at)? {
        Answer::Move {
            score: Some(Score::Cp(cp)),
            ..
        } => Ok(Verdict::Cp(
            cp.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
        )),
        Answer::Move {
            score: Some(Score::Mate(_)),
            ..
        } => Ok(Verdict::Mate),
        Answer::Move { score: None, .. } => Ok(Verdict::Unscored),
        Answer::Resign => Err(format!("the engine resigned instead of moving (at {fen})")),
    }
}

/// Scores every position of `inputs` (in order) with the engine of `spec`, searching each
/// with `limits` (nodes or depth), in `threads` engine processes; writes `out`.
pub fn rescore(
    inputs: &[PathBuf],
    out: &Path,
    spec: &EngineSpec,
    limits: &tc::Limits,
    threads: usize,
) -> Result<RescoreReport, String> {
    if spec.proto != Proto::Uci {
        return Err("--rescore needs a UCI engine (proto=uci)".to_string());
    }
    if limits.nodes.is_none() && limits.depth.is_none() {
        return Err("--rescore needs --nodes or --depth for the engine".to_string());
    }
    let sets = read_inputs(inputs)?;
    let variant = sets[0].variant;
    let samples: Vec<Sample> = sets
        .iter()
        .flat_map(|d| (0..d.len()).map(|i| d.get(i)))
        .collect();
    let threads = threads.clamp(1, samples.len().max(1));
    let chunk = samples.len().div_ceil(threads).max(1);
    let done = AtomicUsize::new(0);
    let finished = AtomicBool::new(false);
    let start = Instant::now();
    let scores: Vec<Result<Vec<Verdict>, String>> = std::thread::scope(|s| {
        let progress = s.spawn(|| {
            let mut next = Instant::now() + PROGRESS_EVERY;
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if Instant::now() >= next {
                    next += PROGRESS_EVERY;
                    let n = done.load(Ordering::Relaxed);
                    let rate = n as f64 / start.elapsed().as_secs_f64().max(1e-9);
                    eprintln!(
                        "rescore: {n}/{} positions, {rate:.0} positions/s",
                        samples.len()
                    );
                }
            }
        });
        let workers: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                let done = &done;
                s.spawn(move || {
                    let mut engine = Engine::start(spec, HANDSHAKE, None)?;
                    let mut scores = Vec::with_capacity(part.len());
                    for sample in part {
                        scores.push(score_one(&mut engine, variant, sample, limits)?);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(scores)
                })
            })
            .collect();
        let scores = workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a rescoring thread failed".to_string()))
            })
            .collect();
        finished.store(true, Ordering::Relaxed);
        let _ = progress.join();
        scores
    });
    let scores: Vec<Vec<Verdict>> = scores.into_iter().collect::<Result<_, _>>()?;
    if !samples.is_empty() && scores.iter().flatten().all(|&v| v == Verdict::Unscored) {
        return Err("the engine gave no score for any position".to_string());
    }
    let mut writer = DataWriter::create(out, variant)?;
    let mut report = RescoreReport {
        read: samples.len(),
        ..RescoreReport::default()
    };
    let mut samples = samples.into_iter();
    for score in scores.into_iter().flatten() {
        let mut sample = samples.next().ok_or("more scores than positions")?;
        match score {
            Verdict::Unscored => report.unscored += 1,
            Verdict::Mate => report.mates += 1,
            Verdict::Cp(cp) => {
                sample.score = cp;
                if !writer
                    .write(&sample)
                    .map_err(|e| format!("{}: {e}", out.display()))?
                {
                    report.repeated += 1;
                }
            }
        }
    }
    report.written = writer.finish()?;
    Ok(report)
}
