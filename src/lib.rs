//! Sissa: a chess-variant engine for Venator Chess, Venomous, Gustav III's Chess and orthodox
//! chess, built on a mailbox move generator for boards of any shape.
//!
//! The layers, each knowing only the ones below: [`rules`] (variant data -> geometry tables ->
//! position -> move generation and legality -> game end, perft) -> [`notation`] (FEN, move
//! text, SAN, PGN) -> [`search`] and [`nnue`] -> [`protocol`], [`tournament`] and [`tools`].

pub mod nnue;
pub mod notation;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
pub mod tools;
pub mod tournament;

pub use notation::uci::MoveError;
pub use rules::geometry::Square;
pub use rules::moves::{Move, MoveKind};
pub use rules::position::Position;
pub use rules::role::{Color, Piece, Role};
pub use rules::variant::Variant;
