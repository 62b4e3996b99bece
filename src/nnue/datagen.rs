//! `sissa datagen`: training positions from self-play (and from PGN files, [`super::from_pgn`]).
//!
//! Game `g` of a run depends on nothing but the seed, `g` and the search limit: its opening
//! comes from a generator seeded by both, and both sides search with one thread and
//! everything learnt forgotten before the game. So a run gives the same bytes whatever the
//! number of threads, and the shards `0/N` ... `N-1/N` of a run (each a contiguous range of
//! its games) merged in order give the file the whole run gives.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::rng::Rng;
use crate::rules::game::Outcome;
use crate::rules::position::Position;
use crate::rules::role::Color;
use crate::rules::variant::Variant;
use crate::search::movepick::is_tactical;
use crate::search::{Control, Limits, Score, Searcher};
use crate::tools::selfplay::{OpeningCheck, balanced_opening};
use crate::tools::shard::{parse_shard, shard_range};

use crate::tournament::engine::EngineSpec;
use crate::tournament::tc;

use super::data::{DataSet, DataWriter, GameResult, Sample};
use super::rescore::rescore;

/// `sissa datagen`: make, merge or inspect training data.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Variant: chess, gustav3, venator, venomous, or one loaded with --variants.
    #[arg(long, required_unless_present_any = ["inspect", "merge", "rescore", "from_pgn"])]
    pub variant: Option<String>,
    /// Games in the whole run (all shards together).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes per move (the default: 5000 when neither this nor --depth is given).
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Depth per move instead of nodes.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games played at once (each searches with one thread).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only shard I of N (0 <= I < N): the I-th of N equal ranges of the games.
    #[arg(long)]
    pub shard: Option<String>,
    /// Random plies of each opening (kept when a short search finds it roughly level).
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Transposition table per game being played, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// The data file to write.
    #[arg(long, required_unless_present = "inspect")]
    pub out: Option<PathBuf>,
    /// Print statistics and the first positions of a data file, and do nothing else.
    #[arg(long, conflicts_with_all = ["variant", "merge", "out"])]
    pub inspect: Option<PathBuf>,
    /// Merge these data files (shards, in order) into --out, dropping repeated positions.
    #[arg(long, num_args = 1.., conflicts_with = "variant")]
    pub merge: Vec<PathBuf>,
    /// Score the positions of these data files again with --engine (searching --nodes or
    /// --depth each, in --threads engine processes) and write them, in order, to --out.
    #[arg(long, num_args = 1.., conflicts_with_all = ["variant", "merge"], requires = "engine")]
    pub rescore: Vec<PathBuf>,
    /// Write the positions of the games in these PGN files to --out, each labelled with its
    /// game's result and the score in the comment of the move played from it (the form
    /// `sissa match` and cutechess-cli write); then `--rescore` may label them again.
    #[arg(long, num_args = 1.., conflicts_with_all = ["variant", "merge", "rescore"])]
    pub from_pgn: Vec<PathBuf>,
    /// With --from-pgn: keep the positions whose move has no score in its comment (book
    /// moves, games without comments) with score 0, for `--rescore` to label.
    #[arg(long, requires = "from_pgn")]
    pub keep_unscored: bool,
    /// The UCI engine that rescores, as for `sissa match`: "cmd=PATH proto=uci
    /// [option.NAME=VALUE]...".
    #[arg(long, requires = "rescore")]
    pub engine: Option<String>,
}

/// Nodes per move when neither --nodes nor --depth is given.
pub const DEFAULT_NODES: u64 = 5_000;
/// An opening is kept when a search of this many nodes scores it within `OPENING_BALANCE`.
const OPENING_NODES: u64 = 4_000;
const OPENING_BALANCE: i32 = 150;
const OPENING_TRIES: u32 = 50;
/// A game still running after this many plies is a draw.
const MAX_PLIES: usize = 400;
/// Win adjudication: the score beyond this for both sides for this many plies in a row.
const WIN_SCORE: i32 = 1_000;
const WIN_PLIES: u32 = 8;
/// Draw adjudication: after this ply, the score within this for this many plies in a row.
const DRAW_AFTER_PLY: usize = 80;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: u32 = 12;

/// What one run plays.
#[derive(Clone, Debug)]
pub struct Plan {
    pub variant: &'static Variant,
    pub games: std::ops::Range<usize>,
    pub limits: Limits,
    pub seed: u64,
    pub random_plies: u32,
    pub threads: usize,
    pub hash: usize,
}

/// The opening of game `game`: random plies, kept when a short search finds it level.
fn opening(plan: &Plan, game: usize, judge: &mut Searcher) -> Position {
    let mut rng = Rng::new(plan.seed ^ (game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let check = OpeningCheck {
        nodes: OPENING_NODES,
        balance: OPENING_BALANCE,
        tries: OPENING_TRIES,
    };
    balanced_opening(
        plan.variant,
        plan.random_plies,
        &mut |n| rng.below(n),
        judge,
        check,
    )
}

/// Plays game `game` and returns its samples: every position where the side to move is not
/// in check, the search's best move is quiet and its score is not a mate, labelled with the
/// game's result.
pub fn play_game(plan: &Plan, game: usize, searcher: &mut Searcher) -> Vec<Sample> {
    let mut pos = opening(plan, game, searcher);
    searcher.clear();
    let control = Control::default();
    let mut samples = Vec::new();
    let (mut winning, mut level) = (0, 0);
    let mut last: Option<i32> = None;
    let mut result = GameResult::Draw;
    for ply in 0..MAX_PLIES {
        if let Some(Outcome { winner, .. }) = pos.outcome() {
            result = GameResult::of_winner(winner);
            break;
        }
        let r = searcher.search(&mut pos, &plan.limits, &control, &mut |_| {});
        let Some(mv) = r.best else { break };
        let cp = match r.score {
            Score::Cp(cp) => {
                if !pos.in_check() && !is_tactical(&pos, mv) {
                    let score = cp.clamp(-i16::MAX as i32, i16::MAX as i32) as i16;
                    samples.push(Sample::of(&pos, score, GameResult::Draw));
                }
                cp
            }
            Score::Mate(m) if m > 0 => 30_000,
            Score::Mate(_) => -30_000,
        };
        let white_cp = if pos.side_to_move() == Color::White {
            cp
        } else {
            -cp
        };
        if let Some(prev) = last {
            let agree = (prev >= WIN_SCORE && white_cp >= WIN_SCORE)
                || (prev <= -WIN_SCORE && white_cp <= -WIN_SCORE);
            winning = if agree { winning + 1 } else { 0 };
            if winning >= WIN_PLIES {
                result = if white_cp > 0 {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                };
                break;
            }
        }
        level = if ply >= DRAW_AFTER_PLY && white_cp.abs() <= DRAW_SCORE {
            level + 1
        } else {
            0
        };
        if level >= DRAW_PLIES {
            break;
        }
        last = Some(white_cp);
        pos.make(mv);
    }
    for s in &mut samples {
        s.result = result;
    }
    samples
}

/// What a run made.
#[derive(Clone, Copy, Debug, Default)]
pub struct Made {
    pub games: usize,
    pub positions: u64,
}

/// Plays the plan's games on its threads and writes their samples to `out` in game order,
/// dropping positions written before. `progress` hears after every game.
pub fn generate(plan: &Plan, out: &Path, progress: &mut dyn FnMut(Made)) -> Result<Made, String> {
    let mut searchers = (0..plan.threads.clamp(1, plan.games.len().max(1)))
        .map(|_| Searcher::new(plan.hash).map_err(|e| format!("--hash: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let mut writer = DataWriter::create(out, plan.variant)?;
    let next = AtomicUsize::new(plan.games.start);
    let failed = AtomicBool::new(false);
    let mut made = Made::default();
    let mut error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = channel::<(usize, Vec<Sample>)>();
        for searcher in &mut searchers {
            let (tx, next, failed) = (tx.clone(), &next, &failed);
            scope.spawn(move || {
                loop {
                    let game = next.fetch_add(1, Ordering::SeqCst);
                    if game >= plan.games.end || failed.load(Ordering::SeqCst) {
                        break;
                    }
                    if tx.send((game, play_game(plan, game, searcher))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut next_out = plan.games.start;
        for (game, samples) in rx {
            waiting.insert(game, samples);
            while let Some(samples) = waiting.remove(&next_out) {
                next_out += 1;
                made.games += 1;
                for s in &samples {
                    match writer.write(s) {
                        Ok(true) => made.positions += 1,
                        Ok(false) => {}
                        Err(e) => {
                            error.get_or_insert(format!("{}: {e}", out.display()));
                            failed.store(true, Ordering::SeqCst);
                        }
                    }
                }
                progress(made);
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    writer
        .finish()
        .map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(made)
}

/// Merges data files, in order, into `out`, dropping repeated positions; every input must be
/// of the same variant.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<u64, String> {
    let sets = read_inputs(inputs)?;
    let mut writer = DataWriter::create(out, sets[0].variant)?;
    for d in &sets {
        for i in 0..d.len() {
            writer
                .write(&d.get(i))
                .map_err(|e| format!("{}: {e}", out.display()))?;
        }
    }
    writer.finish()
}

/// `--threads` within the machine's limit, `--nodes` and `--depth` at least 1.
fn check_threads_and_limit(args: &DatagenArgs) -> Result<(), String> {
    if args.threads == 0 || args.threads > crate::search::MAX_THREADS {
        return Err(format!(
            "--threads must be 1 to {}",
            crate::search::MAX_THREADS
        ));
    }
    if args.nodes == Some(0) || args.depth == Some(0) {
        return Err("--nodes and --depth must be at least 1".to_string());
    }
    Ok(())
}

/// The node limit a search gets: `--nodes`, or [`DEFAULT_NODES`] when neither it nor
/// `--depth` is given.
fn node_limit(args: &DatagenArgs) -> Option<u64> {
    match args.depth {
        Some(_) => None,
        None => Some(args.nodes.unwrap_or(DEFAULT_NODES)),
    }
}

/// `--rescore`: checks the engine and its limits, rescores, prints what was done.
fn run_rescore(args: &DatagenArgs, out: &Path) -> Result<(), String> {
    let text = args.engine.as_deref().unwrap_or_default();
    let spec = EngineSpec::parse(text)?;
    check_threads_and_limit(args)?;
    let limits = tc::Limits {
        nodes: node_limit(args),
        depth: args.depth,
        tc: None,
        st_ms: None,
        margin_ms: 0,
        move_timeout_ms: 0,
    };
    let r = rescore(&args.rescore, out, &spec, &limits, args.threads)?;
    println!(
        "{}: {} positions ({} read; dropped: {} scored as mates, {} without a score, {} repeated)",
        out.display(),
        r.written,
        r.read,
        r.mates,
        r.unscored,
        r.repeated
    );
    Ok(())
}

/// Reads data files that must all be of one variant (at least one file).
pub fn read_inputs(inputs: &[PathBuf]) -> Result<Vec<DataSet>, String> {
    let mut sets: Vec<DataSet> = Vec::new();
    for path in inputs {
        let d = DataSet::read(path)?;
        if let Some(first) = sets.first()
            && !std::ptr::eq(first.variant, d.variant)
        {
            return Err(format!(
                "{}: a {} file, the first input is {}",
                path.display(),
                d.variant.id(),
                first.variant.id()
            ));
        }
        sets.push(d);
    }
    if sets.is_empty() {
        return Err("no data files given".to_string());
    }
    Ok(sets)
}

/// Statistics of a data file and its first positions, as text.
pub fn inspect(path: &Path, show: usize) -> Result<String, String> {
    let d = DataSet::read(path)?;
    let n = d.len();
    let mut results = [0usize; 3];
    let mut black_to_move = 0;
    let (mut sum, mut sum_sq, mut min, mut max) = (0f64, 0f64, i16::MAX, i16::MIN);
    let (mut plies, mut pieces, mut in_hand) = (0u64, 0u64, 0u64);
    let mut buckets = [0usize; 5];
    for i in 0..n {
        let s = d.get(i);
        results[s.result as usize] += 1;
        black_to_move += usize::from(s.side == Color::Black);
        let x = f64::from(s.score);
        sum += x;
        sum_sq += x * x;
        min = min.min(s.score);
        max = max.max(s.score);
        plies += u64::from(s.ply);
        pieces += s.pieces.len() as u64;
        in_hand += u64::from(s.hands[0]) + u64::from(s.hands[1]);
        let a = s.score.unsigned_abs();
        buckets[[50, 150, 400, 1000].iter().take_while(|&&b| a >= b).count()] += 1;
    }
    let nf = n.max(1) as f64;
    let mean = sum / nf;
    let sd = (sum_sq / nf - mean * mean).max(0.0).sqrt();
    let pct = |k: usize| 100.0 * k as f64 / nf;
    let mut out = format!(
        "{}: {} positions of {}\n\
         results for White: {} wins ({:.1}%), {} draws ({:.1}%), {} losses ({:.1}%)\n\
         side to move: {} White, {} Black\n\
         score (side to move, cp): mean {mean:.1}, sd {sd:.1}, min {}, max {}\n\
         |score| < 50: {:.1}%, 50-149: {:.1}%, 150-399: {:.1}%, 400-999: {:.1}%, >= 1000: {:.1}%\n\
         mean ply {:.1}, mean pieces on the board {:.1}, mean pieces in hand {:.2}\n",
        path.display(),
        n,
        d.variant.id(),
        results[2],
        pct(results[2]),
        results[1],
        pct(results[1]),
        results[0],
        pct(results[0]),
        n - black_to_move,
        black_to_move,
        if n > 0 { min } else { 0 },
        if n > 0 { max } else { 0 },
        pct(buckets[0]),
        pct(buckets[1]),
        pct(buckets[2]),
        pct(buckets[3]),
        pct(buckets[4]),
        plies as f64 / nf,
        pieces as f64 / nf,
        in_hand as f64 / nf,
    );
    for i in 0..n.min(show) {
        let s = d.get(i);
        let fen = s.fen(d.variant)?;
        let result = ["0-1", "1/2-1/2", "1-0"][s.result as usize];
        out.push_str(&format!(
            "{fen}  score {} ply {} result {result}\n",
            s.score, s.ply
        ));
    }
    Ok(out)
}

/// `sissa datagen`.
pub fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    if let Some(path) = &args.inspect {
        print!("{}", inspect(path, 5)?);
        return Ok(());
    }
    let out = args
        .out
        .as_deref()
        .ok_or_else(|| "--out is required".to_string())?;
    if !args.merge.is_empty() {
        let n = merge(&args.merge, out)?;
        println!("{}: {n} positions", out.display());
        return Ok(());
    }
    if !args.rescore.is_empty() {
        return run_rescore(args, out);
    }
    if !args.from_pgn.is_empty() {
        let r = super::from_pgn::import(&args.from_pgn, out, args.keep_unscored)?;
        println!(
            "{}: {} positions from {} games ({} unfinished games skipped; positions skipped: \
             {} in check, {} before a capture or promotion, {} without a score, {} scored as \
             mates, {} repeated)",
            out.display(),
            r.written,
            r.games,
            r.unfinished,
            r.in_check,
            r.tactical,
            r.unscored,
            r.mates,
            r.repeated
        );
        return Ok(());
    }
    let name = args.variant.as_deref().unwrap_or_default();
    let variant = Variant::lookup(name)?;
    if args.games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    check_threads_and_limit(args)?;
    let shard = args
        .shard
        .as_deref()
        .map(parse_shard)
        .transpose()?
        .unwrap_or((0, 1));
    let limits = Limits {
        nodes: node_limit(args),
        depth: args.depth,
        multipv: 1,
        ..Limits::default()
    };
    let plan = Plan {
        variant,
        games: shard_range(args.games, shard),
        limits,
        seed: args.seed,
        random_plies: args.random_plies,
        threads: args.threads,
        hash: args.hash,
    };
    let total = plan.games.len() as u64;
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games {elapsed_precise} eta {eta} {msg}",
        )
        .map_err(|e| e.to_string())?,
    );
    let plain = !std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut last_line = Instant::now();
    let rate = |made: Made| made.positions as f64 / start.elapsed().as_secs_f64().max(1e-3);
    let made = generate(&plan, out, &mut |made| {
        let msg = format!(
            "{} positions, {:.0} positions/s",
            made.positions,
            rate(made)
        );
        if plain {
            if last_line.elapsed().as_secs() >= 10 || made.games as u64 == total {
                eprintln!("datagen: {}/{total} games, {msg}", made.games);
                last_line = Instant::now();
            }
        } else {
            bar.set_position(made.games as u64);
            bar.set_message(msg);
        }
    })?;
    bar.finish_and_clear();
    println!(
        "{}: {} games {}..{}, {} positions in {:.1} s ({:.0} positions/s)",
        out.display(),
        made.games,
        plan.games.start,
        plan.games.end,
        made.positions,
        start.elapsed().as_secs_f64(),
        rate(made)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(variant: &str, games: std::ops::Range<usize>, threads: usize) -> Plan {
        Plan {
            variant: Variant::by_name(variant).expect("variant"),
            games,
            limits: Limits {
                nodes: Some(300),
                multipv: 1,
                ..Limits::default()
            },
            seed: 7,
            random_plies: 6,
            threads,
            hash: 1,
        }
    }

    #[test]
    fn runs_are_deterministic_and_shards_merge_to_the_whole() {
        let dir = std::env::temp_dir().join(format!("sissa-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let p = |name: &str| dir.join(name);
        let mut quiet = |_: Made| {};
        for variant in ["venomous", "gustav3"] {
            let whole = generate(&plan(variant, 0..4, 1), &p("whole"), &mut quiet).expect("run");
            assert_eq!(whole.games, 4);
            assert!(whole.positions > 20, "{variant}: {whole:?}");
            generate(&plan(variant, 0..4, 2), &p("threads"), &mut quiet).expect("run");
            generate(&plan(variant, 0..1, 1), &p("s0"), &mut quiet).expect("run");
            generate(&plan(variant, 1..4, 2), &p("s1"), &mut quiet).expect("run");
            merge(&[p("s0"), p("s1")], &p("merged")).expect("merge");
            let bytes = std::fs::read(p("whole")).expect("read");
            assert_eq!(
                std::fs::read(p("threads")).expect("read"),
                bytes,
                "{variant}"
            );
            assert_eq!(
                std::fs::read(p("merged")).expect("read"),
                bytes,
                "{variant}"
            );
            let d = DataSet::read(&p("whole")).expect("data");
            assert_eq!(d.len() as u64, whole.positions);
            let text = inspect(&p("whole"), 2).expect("inspect");
            assert!(text.contains(&format!("positions of {variant}")), "{text}");
        }
        let err = merge(&[p("whole"), p("s0")], &p("mixed"));
        assert!(err.is_ok(), "same variant merges");
        generate(&plan("chess", 0..1, 1), &p("chess"), &mut quiet).expect("run");
        let err = merge(&[p("whole"), p("chess")], &p("mixed")).unwrap_err();
        assert!(err.contains("a chess file"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
