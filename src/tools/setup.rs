//! The position a command line describes, for the subcommands.

use crate::rules::position::Position;

impl Position {
    /// The position a command line describes: a variant by name, an optional X-FEN (else
    /// the start position) and moves in UCI form to play from it (null moves refused).
    pub fn setup(variant: &str, fen: Option<&str>, moves: &[String]) -> Result<Position, String> {
        let v = crate::rules::variant::Variant::lookup(variant)?;
        let mut pos = match fen {
            Some(f) => Position::from_fen(v, f).map_err(|e| format!("bad FEN: {e}"))?,
            None => Position::startpos(v),
        };
        for m in moves.iter().flat_map(|m| m.split_whitespace()) {
            let mv = pos.parse_move(m, 1).map_err(|e| e.to_string())?;
            if mv.is_null() {
                return Err(format!("'{m}': a null move cannot be played in a game"));
            }
            pos.make(mv);
        }
        Ok(pos)
    }
}
