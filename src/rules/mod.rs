//! The rules core: board shapes, pieces and their moves, variants (built-in and from files),
//! positions, move generation and legality, the end of the game, and perft. Nothing here
//! knows about notation, search, protocols or tools.

pub mod attacks;
pub mod betza;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod paths;
pub mod pattern;
pub mod perft;
pub mod position;
pub mod role;
pub mod variant;
pub mod variant_file;
pub mod zobrist;
