//! `sissa epd`: runs a test suite of EPD positions with `bm` (best moves), `am` (moves to
//! avoid) and `dm` (direct mate in n) operations, in any variant (a `variant` operation on the
//! line, or `--variant`), and reports what was solved.

use std::time::Duration;

use clap::Args;

use crate::notation::san::{parse_san, to_san};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

use crate::search::{Control, Limits, Score, Searcher};

/// `sissa epd`.
#[derive(Args, Debug)]
pub struct EpdArgs {
    /// The suite: one position a line, the four EPD fields then operations
    /// (`bm Nf3; am Qxb7; dm 3; id "name"; variant venator;`).
    pub file: String,
    /// Variant of lines without a `variant` operation.
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Milliseconds a position.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Depth a position.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Nodes a position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Transposition table in MB (cleared before every position).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// One test position.
#[derive(Clone)]
pub struct EpdTest {
    /// 1-based line number in the file.
    pub line: usize,
    pub id: String,
    pub pos: Position,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
    /// Mate in this many moves (or fewer).
    pub mate: Option<i32>,
}

/// Reads a suite; `default` is the variant of lines without a `variant` operation. Every
/// malformed line is an error naming its number; blank lines and `#` comments are skipped.
pub fn parse_epd(text: &str, default: &'static Variant) -> Result<Vec<EpdTest>, Vec<String>> {
    let mut tests = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line, i + 1, default) {
            Ok(t) => tests.push(t),
            Err(e) => errors.push(format!("line {}: {e}", i + 1)),
        }
    }
    if errors.is_empty() {
        Ok(tests)
    } else {
        Err(errors)
    }
}

fn parse_line(line: &str, number: usize, default: &'static Variant) -> Result<EpdTest, String> {
    let mut fields = Vec::new();
    let mut rest = line;
    for _ in 0..4 {
        rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if end == 0 {
            return Err(
                "fewer than the four EPD fields (board, side, castling, en passant)".into(),
            );
        }
        fields.push(&rest[..end]);
        rest = &rest[end..];
    }
    let mut ops: Vec<(String, String)> = Vec::new();
    for op in rest.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (code, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        ops.push((code.to_string(), operand.trim().to_string()));
    }
    let variant = match ops.iter().find(|(c, _)| c == "variant") {
        Some((_, name)) => Variant::lookup(name.trim_matches('"'))?,
        None => default,
    };
    let fen = format!("{} 0 1", fields.join(" "));
    let mut pos = Position::from_fen(variant, &fen).map_err(|e| format!("{fen}: {e}"))?;
    if pos.legal_moves().is_empty() {
        return Err("no legal move in the position".into());
    }
    let mut test = EpdTest {
        line: number,
        id: format!("line {number}"),
        pos: pos.clone(),
        best: Vec::new(),
        avoid: Vec::new(),
        mate: None,
    };
    for (code, operand) in &ops {
        match code.as_str() {
            "bm" | "am" => {
                let mut moves = Vec::new();
                for text in operand.split_whitespace() {
                    let mv =
                        parse_san(&mut pos, text).map_err(|e| format!("{code} {text}: {e}"))?;
                    moves.push(mv);
                }
                if moves.is_empty() {
                    return Err(format!("{code} without a move"));
                }
                if code == "bm" {
                    test.best = moves;
                } else {
                    test.avoid = moves;
                }
            }
            "dm" => {
                let n: i32 = operand
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| format!("dm {operand}: not a number of moves"))?;
                test.mate = Some(n);
            }
            "id" => test.id = operand.trim_matches('"').to_string(),
            // Known operations that say nothing to check.
            "variant" | "c0" | "c1" | "c2" | "c3" | "hmvc" | "fmvn" | "ce" | "acd" | "pv" => {}
            other => return Err(format!("unknown operation '{other}'")),
        }
    }
    if test.best.is_empty() && test.avoid.is_empty() && test.mate.is_none() {
        return Err("nothing to test: no bm, am or dm".into());
    }
    Ok(test)
}

/// What the engine did on one test.
#[derive(Clone, Debug)]
pub struct EpdOutcome {
    pub played: Option<Move>,
    pub score: Score,
    pub solved: bool,
}

/// Searches one test within `limits` (everything learnt forgotten first).
pub fn run_test(searcher: &mut Searcher, test: &EpdTest, limits: &Limits) -> EpdOutcome {
    searcher.clear();
    let mut pos = test.pos.clone();
    let limits = Limits {
        mate: test
            .mate
            .map(|n| n as u32)
            .filter(|_| limits.depth.is_none()),
        ..limits.clone()
    };
    let r = searcher.search(&mut pos, &limits, &Control::default(), &mut |_| {});
    let played = r.best;
    let mut solved = played.is_some();
    if !test.best.is_empty() {
        solved &= played.is_some_and(|m| test.best.contains(&m));
    }
    if !test.avoid.is_empty() {
        solved &= played.is_some_and(|m| !test.avoid.contains(&m));
    }
    if let Some(n) = test.mate {
        solved &= matches!(r.score, Score::Mate(m) if m > 0 && m <= n);
    }
    EpdOutcome {
        played,
        score: r.score,
        solved,
    }
}

/// `sissa epd`: one line a position, then `solved S/T`.
pub fn run_epd(args: &EpdArgs) -> Result<(), String> {
    let default = Variant::lookup(&args.variant)?;
    if args.depth.is_none() && args.movetime.is_none() && args.nodes.is_none() {
        return Err("give a limit: --depth D, --movetime MS or --nodes N".to_string());
    }
    if args.depth == Some(0) || args.nodes == Some(0) {
        return Err("--depth and --nodes must be at least 1".to_string());
    }
    if !(1..=crate::search::MAX_THREADS).contains(&args.threads) {
        return Err(format!(
            "--threads must be 1 to {}",
            crate::search::MAX_THREADS
        ));
    }
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file))?;
    let tests = parse_epd(&text, default)
        .map_err(|errors| format!("{}:\n  {}", args.file, errors.join("\n  ")))?;
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        multipv: 1,
        ..Limits::default()
    };
    let mut searcher = Searcher::new(args.hash).map_err(|e| format!("--hash: {e}"))?;
    searcher.set_threads(args.threads);
    let mut solved = 0;
    for t in &tests {
        let o = run_test(&mut searcher, t, &limits);
        solved += usize::from(o.solved);
        let mut pos = t.pos.clone();
        let played = o
            .played
            .map_or("(none)".to_string(), |m| to_san(&mut pos, m));
        let score = match o.score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(m) => format!("mate {m}"),
        };
        let mut wanted = Vec::new();
        if !t.best.is_empty() {
            let moves: Vec<String> = t.best.iter().map(|&m| to_san(&mut pos, m)).collect();
            wanted.push(format!("bm {}", moves.join(" ")));
        }
        if !t.avoid.is_empty() {
            let moves: Vec<String> = t.avoid.iter().map(|&m| to_san(&mut pos, m)).collect();
            wanted.push(format!("am {}", moves.join(" ")));
        }
        if let Some(n) = t.mate {
            wanted.push(format!("dm {n}"));
        }
        println!(
            "{} {} ({}): played {played} ({score}); wanted {}",
            if o.solved { "ok  " } else { "FAIL" },
            t.id,
            t.pos.variant().id(),
            wanted.join(", ")
        );
    }
    println!("solved {solved}/{}", tests.len());
    Ok(())
}
