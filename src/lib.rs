//! Sissa: a chess-variant engine for Venator Chess, Venomous, Gustav III's Chess and orthodox
//! chess, built on a mailbox move generator for boards of any shape.
//!
//! The layers, each knowing only the one below: [`variant`] data -> [`geometry`] tables ->
//! [`position`] -> [`movegen`] and [`attacks`] (legality) -> [`perft`] and search ->
//! protocols.

pub mod attacks;
pub mod betza;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod pattern;
pub mod perft;
pub mod perft_diff;
pub mod pgn;
pub mod position;
pub mod protocol;
pub mod rng;
pub mod role;
pub mod san;
pub mod search;
pub mod shard;
pub mod tournament;
pub mod variant;
pub mod variant_file;
pub mod zobrist;

pub use geometry::Square;
pub use moves::{Move, MoveError, MoveKind};
pub use position::Position;
pub use role::{Color, Piece, Role};
pub use variant::Variant;
