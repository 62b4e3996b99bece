//! Text for positions and moves: FEN, UCI move text, SAN and PGN.

pub mod fen;
pub mod pgn;
pub mod san;
pub mod uci;
