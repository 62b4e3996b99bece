//! `sissa search` and `sissa bench`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;

use crate::rules::position::Position;

use crate::search::{Control, Info, Limits, Score, Searcher};

/// `sissa search`: search one position and print UCI-style `info` lines and `bestmove`.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Variant: chess, gustav3, venator, venomous, or one loaded with --variants.
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Start from this X-FEN instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves (UCI form) to play first.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    #[arg(long)]
    pub depth: Option<u32>,
    /// Milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Number of principal variations to report.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Search threads (Lazy SMP), 1 to 128.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Evaluate with this network file (from `sissa train`) instead of the built-in one.
    #[arg(long, conflicts_with = "no_nnue")]
    pub eval_file: Option<std::path::PathBuf>,
    /// Evaluate with the hand-written evaluation even where a network is built in.
    #[arg(long)]
    pub no_nnue: bool,
}

/// `sissa bench`: fixed-depth search over fixed positions of all four variants.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth for every position.
    pub depth: Option<u32>,
}

/// One `info` line in UCI form.
pub fn info_line(pos: &Position, info: &Info) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let bound = match info.bound {
        crate::search::Bound::Exact => "",
        crate::search::Bound::Lower => " lowerbound",
        crate::search::Bound::Upper => " upperbound",
    };
    let ms = info.time.as_millis();
    let nps = (info.nodes as u128 * 1000) / ms.max(1);
    let mut line_pos = pos.clone();
    let mut pv = Vec::new();
    for &mv in &info.pv {
        pv.push(line_pos.move_text(mv, 1));
        line_pos.make(mv);
    }
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} time {ms} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.hashfull,
        pv.join(" ")
    )
}

pub fn run_search(args: &SearchArgs) -> Result<(), String> {
    if args.depth.is_none() && args.movetime.is_none() && args.nodes.is_none() {
        return Err("give a limit: --depth D, --movetime MS or --nodes N".to_string());
    }
    if args.depth == Some(0) {
        return Err("--depth must be at least 1".to_string());
    }
    let mut pos = Position::setup(&args.variant, args.fen.as_deref(), &args.moves)?;
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        multipv: args.multipv.max(1),
        ..Limits::default()
    };
    let control = Control {
        stop: AtomicBool::new(false),
        pondering: AtomicBool::new(false),
    };
    if !(1..=crate::search::MAX_THREADS).contains(&args.threads) {
        return Err(format!(
            "--threads must be from 1 to {}",
            crate::search::MAX_THREADS
        ));
    }
    let mut searcher = Searcher::new(args.hash).map_err(|e| format!("--hash: {e}"))?;
    searcher.set_threads(args.threads);
    searcher.options.use_nnue = !args.no_nnue;
    if let Some(path) = &args.eval_file {
        let net = crate::nnue::load(path)?;
        if !std::ptr::eq(net.variant, pos.variant()) {
            return Err(format!(
                "{}: a {} network, the position is {}",
                path.display(),
                net.variant.id(),
                pos.variant().id()
            ));
        }
        searcher.options.eval_file = Some(std::sync::Arc::new(net));
    }
    let shown = pos.clone();
    let result = searcher.search(&mut pos, &limits, &control, &mut |info| {
        println!("{}", info_line(&shown, info));
    });
    match result.best {
        Some(mv) => {
            let mut text = format!("bestmove {}", pos.move_text(mv, 1));
            if let Some(p) = result.ponder {
                pos.make(mv);
                text.push_str(&format!(" ponder {}", pos.move_text(p, 1)));
                pos.unmake();
            }
            println!("{text}");
        }
        None => println!("bestmove (none)"),
    }
    Ok(())
}

pub fn run_bench(args: &BenchArgs) -> Result<(), String> {
    let depth = args.depth.unwrap_or(super::bench::DEFAULT_DEPTH);
    if depth == 0 {
        return Err("bench depth must be at least 1".to_string());
    }
    let report = super::bench::run(depth, &mut |line| println!("{line}"))?;
    println!("{} nodes {} nps", report.nodes, report.nps);
    Ok(())
}
