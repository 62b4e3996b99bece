//! Perft: counting the leaves of the legal move tree, the generator's proof of correctness.
//! Suites are text files, one position a line: `variant;FEN;D1 n1;D2 n2;...`.

use crate::position::Position;
use crate::variant::Variant;

/// The deepest perft any tool runs. The count recurses once per ply, so an absurd depth would
/// overflow the stack long before it finished; 20 plies is beyond any count that ends.
pub const MAX_DEPTH: u32 = 20;

/// Checks a perft depth asked for on a command line or in a suite file.
pub fn check_depth(depth: u32) -> Result<u32, String> {
    if depth > MAX_DEPTH {
        Err(format!(
            "perft depth {depth} is too deep: the deepest is {MAX_DEPTH}"
        ))
    } else {
        Ok(depth)
    }
}

/// Leaf count at `depth` (the last ply is counted, not played: bulk counting).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in &moves {
        pos.make(mv);
        nodes += perft(pos, depth - 1);
        pos.unmake();
    }
    nodes
}

/// Per-root-move counts (Stockfish's `divide`), in generation order, as move text.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(String, u64)> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            let text = pos.move_text(mv, 1);
            pos.make(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake();
            (text, n)
        })
        .collect()
}

/// One line of a perft suite.
#[derive(Clone, Debug)]
pub struct SuiteEntry {
    pub variant: &'static Variant,
    pub fen: String,
    /// (depth, expected leaf count).
    pub expected: Vec<(u32, u64)>,
    /// 1-based line number in the file, for messages.
    pub line: usize,
}

/// Reads a suite. Blank lines and lines starting with `#` are skipped.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |msg: String| format!("line {}: {msg}", i + 1);
        let mut parts = line.split(';');
        let vname = parts.next().unwrap_or("").trim();
        let variant = Variant::by_name(vname).ok_or_else(|| {
            at(format!(
                "unknown variant '{vname}' (known: {})",
                Variant::names()
            ))
        })?;
        let fen = parts
            .next()
            .ok_or_else(|| at("no FEN".to_string()))?
            .trim()
            .to_string();
        Position::from_fen(variant, &fen).map_err(|e| at(e.to_string()))?;
        let mut expected = Vec::new();
        for p in parts {
            let p = p.trim();
            if p.is_empty() {
                continue;
            }
            let (d, n) = p
                .strip_prefix('D')
                .and_then(|r| r.split_once(' '))
                .ok_or_else(|| at(format!("'{p}' is not of the form 'D<depth> <count>'")))?;
            let d: u32 = d
                .trim()
                .parse()
                .map_err(|_| at(format!("bad depth in '{p}'")))
                .and_then(|d| check_depth(d).map_err(at))?;
            let n: u64 = n
                .trim()
                .parse()
                .map_err(|_| at(format!("bad count in '{p}'")))?;
            expected.push((d, n));
        }
        out.push(SuiteEntry {
            variant,
            fen,
            expected,
            line: i + 1,
        });
    }
    Ok(out)
}
