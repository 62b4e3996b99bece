//! `sissa match` and `sissa pgn`: tournaments refereed by the rules library.
//!
//! PLACEHOLDER: issue 5 builds this.

use clap::Args;

/// `sissa match`: play games between two engines.
#[derive(Args, Debug)]
pub struct MatchArgs {
    #[arg(long, default_value = "chess")]
    pub variant: String,
}

/// `sissa pgn`: replay a PGN file and report final positions.
#[derive(Args, Debug)]
pub struct PgnArgs {
    /// The PGN file.
    pub file: String,
}

pub fn run_match(_args: &MatchArgs) -> Result<(), String> {
    Err("sissa match is not built yet".to_string())
}

pub fn run_pgn(_args: &PgnArgs) -> Result<(), String> {
    Err("sissa pgn is not built yet".to_string())
}
