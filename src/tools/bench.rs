//! `sissa bench`: a fixed-depth search over fixed positions of all four variants, each with
//! a fresh transposition table and history. The total node count is the search's change
//! signature: it changes exactly when the search or evaluation changes.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::rules::position::Position;
use crate::search::{Control, Limits, Searcher};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 8;

/// Transposition table size for bench searches, in MB.
const BENCH_HASH_MB: usize = 16;

/// (variant, FEN or start position, moves played first).
const POSITIONS: [(&str, Option<&str>, &str); 14] = [
    ("chess", None, ""),
    ("chess", None, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    (
        "chess",
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        "",
    ),
    (
        "chess",
        Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        "",
    ),
    ("gustav3", None, ""),
    ("gustav3", None, "e2e4 e7e5 h1g3 h8g6 d2d4"),
    ("gustav3", None, "f2f4 d7d5 c1d3 c8b6 e2e3"),
    ("venator", None, ""),
    ("venator", None, "e2e4 e7e5 c1d3 h8g6 f2f4"),
    ("venator", None, "d2d4 d7d5 b2b3 i7i6 h1g3 c8d6"),
    ("venator", None, "e2e4 d7d5 e4d5 e8d7 c1d3"),
    ("venomous", None, ""),
    ("venomous", None, "e2e5 e9e6 J@e4 d9d6"),
    ("venomous", None, "d2d5 f9f6 c2c4 J@f9 b1c3"),
];

/// Totals of a bench run.
pub struct BenchReport {
    pub nodes: u64,
    pub nps: u64,
}

/// Searches every bench position to `depth`, passing one summary line per position to
/// `report`.
pub fn run(depth: u32, report: &mut dyn FnMut(&str)) -> Result<BenchReport, String> {
    let start = Instant::now();
    let mut nodes = 0;
    for (i, &(variant, fen, moves)) in POSITIONS.iter().enumerate() {
        let moves: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
        let mut pos = Position::setup(variant, fen, &moves)
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        let mut searcher = Searcher::new(BENCH_HASH_MB)?;
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let control = Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
        };
        let result = searcher.search(&mut pos, &limits, &control, &mut |_| {});
        let best = result
            .best
            .map_or("(none)".to_string(), |m| pos.move_text(m, 1));
        report(&format!(
            "position {:2} {:9} bestmove {:8} nodes {}",
            i + 1,
            variant,
            best,
            result.nodes
        ));
        nodes += result.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    Ok(BenchReport {
        nodes,
        nps: (nodes as f64 / secs.max(1e-9)) as u64,
    })
}
