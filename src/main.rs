//! The `sissa` binary: protocol engine (UCI or CECP, chosen by the first command) when run
//! without a subcommand, plus command-line tools.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use sissa::Position;
use sissa::rules::perft::{divide, divide_parallel, perft};
use sissa::tools::perft_suite::parse_suite;

#[derive(Parser)]
#[command(
    name = "sissa",
    version,
    about = "A chess-variant engine: Venator Chess, Venomous, Gustav III's Chess and chess.\n\nWithout a subcommand it reads UCI or CECP (XBoard) commands on standard input."
)]
struct Cli {
    /// Variant files to load first (docs/variants.md); their variants join the built-in
    /// ones for every tool and for the protocols.
    #[arg(long, global = true, value_name = "FILE")]
    variants: Vec<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (move generator validation).
    Perft {
        /// Variant: chess, gustav3, venator, venomous, or one loaded with --variants.
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Start from this X-FEN instead of the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves (UCI form) to play from the position first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Depth in plies.
        #[arg(long, required_unless_present = "suite")]
        depth: Option<u32>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Run a suite file (`variant;FEN;D1 n1;...` per line) instead; exit status 1 on any
        /// mismatch.
        #[arg(long, conflicts_with_all = ["fen", "moves", "divide"])]
        suite: Option<String>,
        /// With --suite: skip depths whose expected count exceeds this many leaves.
        #[arg(long)]
        max_nodes: Option<u64>,
        /// Threads sharing out the root moves.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// A table of subtree counts of this many MB shared by the threads (exact: a hit needs
        /// the full 64-bit key and the depth).
        #[arg(long)]
        hash: Option<usize>,
        /// Compare the divide with another program's and walk down to the first difference:
        /// a UCI engine command (`go perft`), or a shell command template with `{fen}`,
        /// `{depth}` and `{variant}` that prints `MOVE: COUNT` lines. Exit status 1 when they
        /// differ.
        #[arg(long, conflicts_with_all = ["suite", "divide"])]
        against: Option<String>,
    },
    /// Search one position and print UCI-style info lines and bestmove.
    Search(sissa::tools::cli::SearchArgs),
    /// Fixed-depth search over fixed positions of all four variants; the node count is the
    /// change signature.
    Bench(sissa::tools::cli::BenchArgs),
    /// Play the engine against itself with different options (strength measurements).
    Selfplay(sissa::tools::selfplay::SelfplayArgs),
    /// Run an EPD test suite (bm, am, dm) and report what is solved.
    Epd(sissa::tools::epd::EpdArgs),
    /// Make training positions by self-play (or merge or inspect data files).
    Datagen(sissa::nnue::datagen::DatagenArgs),
    /// Train a network on data files from `sissa datagen`.
    Train(sissa::nnue::train::TrainArgs),
    /// Play a match between two engines, refereed by Sissa's rules.
    Match(Box<sissa::tournament::MatchArgs>),
    /// Replay a PGN file and report each game's final position and result.
    Pgn(sissa::tournament::PgnArgs),
    /// Tune the search's numbers by SPSA over games between two copies of an engine.
    Tune(Box<sissa::tournament::tune::TuneArgs>),
    /// List every variant known (built in and loaded with --variants); with --check, check
    /// variant files and report each one's variants or its first error.
    Variants {
        /// Variant files to check.
        #[arg(long, value_name = "FILE")]
        check: Vec<String>,
        /// Print this variant as the section of a variant file, to copy and change.
        #[arg(long, value_name = "VARIANT")]
        show: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    for file in &cli.variants {
        if let Err(e) = sissa::tools::variant_files::load(std::path::Path::new(file)) {
            eprintln!("sissa: {e}");
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command {
        Some(Command::Perft {
            variant,
            fen,
            moves,
            depth,
            divide,
            suite,
            max_nodes,
            threads,
            hash,
            against,
        }) => match (suite, against) {
            (_, Some(cmd)) => run_against(&variant, fen.as_deref(), &moves, depth, &cmd),
            (Some(file), None) => run_suite(&file, max_nodes.unwrap_or(u64::MAX), threads, hash),
            (None, None) => run_perft(
                &variant,
                fen.as_deref(),
                &moves,
                depth.unwrap_or(1),
                divide,
                threads,
                hash,
            ),
        },
        Some(Command::Search(args)) => sissa::tools::cli::run_search(&args),
        Some(Command::Bench(args)) => sissa::tools::cli::run_bench(&args),
        Some(Command::Selfplay(args)) => sissa::tools::selfplay::run_selfplay(&args),
        Some(Command::Epd(args)) => sissa::tools::epd::run_epd(&args),
        Some(Command::Datagen(args)) => sissa::nnue::datagen::run_datagen(&args),
        Some(Command::Train(args)) => sissa::nnue::train::run_train(&args),
        Some(Command::Match(args)) => sissa::tournament::run_match(&args),
        Some(Command::Pgn(args)) => sissa::tournament::run_pgn(&args),
        Some(Command::Tune(args)) => sissa::tournament::tune::run_tune(&args),
        Some(Command::Variants { check, show }) => run_variants(&check, show.as_deref()),
        None => sissa::protocol::run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sissa: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `sissa variants`: checks the files given, then lists every variant known (or shows one).
fn run_variants(check: &[String], show: Option<&str>) -> Result<(), String> {
    for file in check {
        let loaded = sissa::tools::variant_files::load(std::path::Path::new(file))
            .map_err(|e| e.to_string())?;
        let names: Vec<&str> = loaded.iter().map(|v| v.id()).collect();
        println!(
            "{file}: ok, {} variant(s): {}",
            names.len(),
            names.join(", ")
        );
    }
    if let Some(name) = show {
        print!(
            "{}",
            sissa::rules::variant_file::describe(sissa::Variant::lookup(name)?)
        );
        return Ok(());
    }
    for v in sissa::Variant::known() {
        let army: String = v.spec.army.iter().map(|&r| v.letter(r)).collect();
        println!(
            "{:<12} {:>2}x{:<2} {:>3} squares  pieces {army:<12} {}",
            v.id(),
            v.geometry.files(),
            v.geometry.ranks(),
            v.geometry.square_count(),
            v.spec.start_fen
        );
    }
    Ok(())
}

/// Checks the perft threads.
fn perft_threads(threads: usize) -> Result<usize, String> {
    if (1..=sissa::search::MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(format!(
            "--threads must be 1 to {}",
            sissa::search::MAX_THREADS
        ))
    }
}

/// The count, plain or (with threads or a table) by `divide_parallel`.
fn count(
    pos: &mut Position,
    depth: u32,
    threads: usize,
    hash: Option<usize>,
) -> Result<u64, String> {
    if threads == 1 && hash.is_none() {
        return Ok(perft(pos, depth));
    }
    if depth == 0 {
        return Ok(1);
    }
    Ok(divide_parallel(pos, depth, threads, hash)?
        .iter()
        .map(|(_, n)| n)
        .sum())
}

fn run_against(
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    depth: Option<u32>,
    cmd: &str,
) -> Result<(), String> {
    let depth = sissa::rules::perft::check_depth(depth.unwrap_or(1))?.max(1);
    let pos = Position::setup(variant, fen, moves)?;
    let (report, agree) = sissa::tools::perft_diff::compare(&pos, depth, cmd)?;
    print!("{report}");
    if agree {
        Ok(())
    } else {
        Err("the perft counts differ".to_string())
    }
}

fn run_perft(
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    depth: u32,
    div: bool,
    threads: usize,
    hash: Option<usize>,
) -> Result<(), String> {
    let depth = sissa::rules::perft::check_depth(depth)?;
    let threads = perft_threads(threads)?;
    let mut pos = Position::setup(variant, fen, moves)?;
    let start = Instant::now();
    let nodes = if div {
        let counts = if threads == 1 && hash.is_none() {
            divide(&mut pos, depth)
        } else {
            divide_parallel(&pos, depth, threads, hash)?
        };
        for (m, n) in &counts {
            println!("{}: {n}", pos.move_text(*m, 1));
        }
        println!();
        counts.iter().map(|(_, n)| n).sum()
    } else {
        count(&mut pos, depth, threads, hash)?
    };
    println!("Nodes searched: {nodes}");
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn run_suite(
    file: &str,
    max_nodes: u64,
    threads: usize,
    hash: Option<usize>,
) -> Result<(), String> {
    let threads = perft_threads(threads)?;
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let suite = parse_suite(&text).map_err(|e| format!("{file}: {e}"))?;
    let mut failures = 0;
    let start = Instant::now();
    let mut total = 0u64;
    for entry in &suite {
        let mut pos = Position::from_fen(entry.variant, &entry.fen).map_err(|e| e.to_string())?;
        for &(depth, expected) in &entry.expected {
            if expected > max_nodes {
                continue;
            }
            let got = count(&mut pos, depth, threads, hash)?;
            total += got;
            let verdict = if got == expected { "ok" } else { "MISMATCH" };
            if got != expected {
                failures += 1;
            }
            println!(
                "{verdict} line {} {} D{depth}: {got} (expected {expected}) {}",
                entry.line,
                entry.variant.id(),
                entry.fen
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    if failures > 0 {
        Err(format!("{failures} perft mismatch(es)"))
    } else {
        println!("all {} positions match", suite.len());
        Ok(())
    }
}
