//! The subcommands' glue: `sissa search`, `bench`, `selfplay`, `epd`, `perft --against`,
//! the sharding of matches.

pub mod bench;
pub mod cli;
pub mod epd;
pub mod perft_diff;
pub mod perft_suite;
pub mod selfplay;
pub mod setup;
pub mod shard;
pub mod variant_files;
