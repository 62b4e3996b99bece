//! `sissa search` and `sissa bench`.
//!
//! PLACEHOLDER: argument structs only; issue 3 fills in the commands.

use clap::Args;

/// `sissa search`: search one position and print UCI-style `info` lines and `bestmove`.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Variant: chess, gustav3, venator or venomous.
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
}

/// `sissa bench`: fixed-depth search over fixed positions of all four variants.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth for every position.
    pub depth: Option<u32>,
}

pub fn run_search(_args: &SearchArgs) -> Result<(), String> {
    Err("sissa search is not built yet".to_string())
}

pub fn run_bench(_args: &BenchArgs) -> Result<(), String> {
    Err("sissa bench is not built yet".to_string())
}
