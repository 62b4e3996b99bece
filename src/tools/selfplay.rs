//! `sissa selfplay`: in-process matches between two configurations of the engine, for
//! measuring what an evaluation term or a pruning step is worth.
//!
//! Each opening is a few random moves (kept only if a short search finds it roughly level)
//! played twice with colours swapped. Both sides search a fixed number of nodes per move,
//! so a match is reproducible. Games end by the rules, or are adjudicated: a win when both
//! engines agree for several moves that one side is far ahead, a draw after a move limit.

use std::sync::atomic::AtomicBool;

use clap::Args;

use crate::rules::game::Outcome;
use crate::rules::position::Position;
use crate::rules::role::Color;
use crate::rules::variant::Variant;

use crate::search::{Control, Limits, Score, SearchOptions, Searcher};

/// `sissa selfplay`: engine configuration A against configuration B.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Variant: chess, gustav3, venator, venomous, or one loaded with --variants.
    #[arg(long, default_value = "venator")]
    pub variant: String,
    /// Number of games (rounded up to an even number: each opening is played twice).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Nodes per move for both sides.
    #[arg(long, default_value_t = 5_000)]
    pub nodes: u64,
    /// Options of engine A: words among full, material, no-null, no-lmr, no-futility,
    /// no-aspiration (separated by spaces or commas).
    #[arg(long, default_value = "full")]
    pub a: String,
    /// Options of engine B, as for A.
    #[arg(long, default_value = "full")]
    pub b: String,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 6)]
    pub opening_plies: u32,
    /// Seed of the opening generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Transposition table per engine, in MB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
}

/// An opening is kept only if a short search scores it within this many centipawns.
const OPENING_BALANCE: i32 = 120;
/// Nodes of that search.
const OPENING_CHECK_NODES: u64 = 4_000;
/// Attempts at drawing a balanced opening before one is taken as it comes.
const OPENING_TRIES: u32 = 50;
/// A game still running after this many plies is a draw.
const MAX_PLIES: usize = 400;
/// Both engines scoring beyond this for `ADJUDICATE_MOVES` moves in a row ends the game.
const ADJUDICATE_SCORE: i32 = 1_000;
const ADJUDICATE_MOVES: u32 = 4;

/// Reads an options string such as `"no-null no-lmr"`.
pub fn parse_options(text: &str) -> Result<SearchOptions, String> {
    let mut o = SearchOptions::default();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        match word {
            "full" => {}
            "material" => o.material_only = true,
            "no-null" => o.null_move = false,
            "no-lmr" => o.lmr = false,
            "no-futility" => o.futility = false,
            "no-aspiration" => o.aspiration = false,
            _ => {
                return Err(format!(
                    "unknown engine option '{word}' (known: full, material, no-null, no-lmr, \
                     no-futility, no-aspiration)"
                ));
            }
        }
    }
    Ok(o)
}

/// Wins, losses and draws from engine A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// A's score fraction.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// A's Elo advantage and the half-width of its 95% confidence interval (from the
    /// per-game variance of the score).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let p = self.score();
        let var = (self.wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.losses as f64 * p.powi(2))
            / n;
        let se = (var / n).sqrt();
        let elo = |x: f64| {
            let x = x.clamp(1e-3, 1.0 - 1e-3);
            -400.0 * (1.0 / x - 1.0).log10()
        };
        let (lo, hi) = (elo(p - 1.96 * se), elo(p + 1.96 * se));
        (elo(p), (hi - lo) / 2.0)
    }
}

fn quiet_control() -> Control {
    Control {
        stop: AtomicBool::new(false),
        pondering: AtomicBool::new(false),
    }
}

fn node_limits(nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes),
        multipv: 1,
        ..Limits::default()
    }
}

/// What makes a random opening acceptable: a search of `nodes` nodes scores it within
/// `balance` centipawns; after `tries` rejected openings the first one tried is taken.
#[derive(Clone, Copy, Debug)]
pub struct OpeningCheck {
    pub nodes: u64,
    pub balance: i32,
    pub tries: u32,
}

/// A position after `plies` random moves (`pick(n)` chooses one of n) that `check` accepts.
pub fn balanced_opening(
    v: &'static Variant,
    plies: u32,
    pick: &mut dyn FnMut(usize) -> usize,
    judge: &mut Searcher,
    check: OpeningCheck,
) -> Position {
    let mut fallback = None;
    for _ in 0..check.tries {
        let mut pos = Position::startpos(v);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves[pick(moves.len())]);
        }
        if pos.clone().outcome().is_some() {
            continue;
        }
        if judge
            .judge(&mut pos, check.nodes)
            .is_some_and(|cp| cp.abs() <= check.balance)
        {
            return pos;
        }
        fallback.get_or_insert(pos);
    }
    fallback.unwrap_or_else(|| Position::startpos(v))
}

/// Plays one game; `a_white` tells which colour A has. Returns A's result: 1, 0 or -1.
fn play(mut pos: Position, engines: &mut [Searcher; 2], a_white: bool, nodes: u64) -> i32 {
    let control = quiet_control();
    let limits = node_limits(nodes);
    for e in engines.iter_mut() {
        e.clear();
    }
    let mut lopsided = 0;
    let mut last_score: Option<i32> = None;
    for _ in 0..MAX_PLIES {
        if let Some(Outcome { winner, .. }) = pos.outcome() {
            return match winner {
                None => 0,
                Some(c) => {
                    if (c == Color::White) == a_white {
                        1
                    } else {
                        -1
                    }
                }
            };
        }
        let white_to_move = pos.side_to_move() == Color::White;
        let engine = if white_to_move == a_white { 0 } else { 1 };
        let r = engines[engine].search(&mut pos, &limits, &control, &mut |_| {});
        let Some(mv) = r.best else { return 0 };
        let cp = match r.score {
            Score::Cp(cp) => cp,
            Score::Mate(m) if m > 0 => 30_000,
            Score::Mate(_) => -30_000,
        };
        // The score of the side to move, as White's.
        let white_cp = if white_to_move { cp } else { -cp };
        if let Some(prev) = last_score {
            let agree = (prev >= ADJUDICATE_SCORE && white_cp >= ADJUDICATE_SCORE)
                || (prev <= -ADJUDICATE_SCORE && white_cp <= -ADJUDICATE_SCORE);
            lopsided = if agree { lopsided + 1 } else { 0 };
            if lopsided >= 2 * ADJUDICATE_MOVES {
                let white_wins = white_cp > 0;
                return if white_wins == a_white { 1 } else { -1 };
            }
        }
        last_score = Some(white_cp);
        pos.make(mv);
    }
    0
}

/// Plays the match and returns A's tally, calling `progress` after every game pair.
pub fn run_match(args: &SelfplayArgs, progress: &mut dyn FnMut(&Tally)) -> Result<Tally, String> {
    let v = Variant::lookup(&args.variant)?;
    if args.nodes == 0 || args.games == 0 {
        return Err("--games and --nodes must be at least 1".to_string());
    }
    let mut a = Searcher::new(args.hash).map_err(|e| format!("--hash: {e}"))?;
    a.options = parse_options(&args.a)?;
    let mut b = Searcher::new(args.hash).map_err(|e| format!("--hash: {e}"))?;
    b.options = parse_options(&args.b)?;
    let mut engines = [a, b];
    let mut judge = Searcher::new(args.hash).map_err(|e| format!("--hash: {e}"))?;
    let mut rng = crate::rng::Rng::new(args.seed);
    let mut tally = Tally::default();
    for _ in 0..args.games.div_ceil(2) {
        let check = OpeningCheck {
            nodes: OPENING_CHECK_NODES,
            balance: OPENING_BALANCE,
            tries: OPENING_TRIES,
        };
        let mut pick = |n: usize| rng.below(n);
        let start = balanced_opening(v, args.opening_plies, &mut pick, &mut judge, check);
        for a_white in [true, false] {
            match play(start.clone(), &mut engines, a_white, args.nodes) {
                1 => tally.wins += 1,
                -1 => tally.losses += 1,
                _ => tally.draws += 1,
            }
        }
        progress(&tally);
    }
    Ok(tally)
}

/// `sissa selfplay`: prints running totals and the final W-L-D and Elo.
pub fn run_selfplay(args: &SelfplayArgs) -> Result<(), String> {
    let report = |t: &Tally| {
        let (elo, err) = t.elo();
        format!(
            "A: '{}' vs B: '{}' {} games: +{} -{} ={} score {:.1}% Elo {:+.0} +/- {:.0}",
            args.a,
            args.b,
            t.games(),
            t.wins,
            t.losses,
            t.draws,
            100.0 * t.score(),
            elo,
            err
        )
    };
    let tally = run_match(args, &mut |t| eprintln!("{}", report(t)))?;
    println!("{} {}", args.variant, report(&tally));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_reject_unknown_words() {
        let o = parse_options("no-null, no-lmr material").expect("options");
        assert!(!o.null_move && !o.lmr && o.material_only && o.futility && o.aspiration);
        assert!(parse_options("fast").is_err());
    }

    #[test]
    fn elo_of_an_even_score_is_zero() {
        let t = Tally {
            wins: 10,
            losses: 10,
            draws: 5,
        };
        let (elo, err) = t.elo();
        assert!(elo.abs() < 1e-9);
        assert!(err > 0.0);
    }
}
