//! Perft suites: lines of `variant;FEN;D1 n1;D2 n2...`, as in perft/*.epd.

use crate::rules::perft::check_depth;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

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
        let variant = Variant::lookup(vname).map_err(at)?;
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
