//! The search: the interface the protocols and tools use.
//!
//! PLACEHOLDER IMPLEMENTATION: a plain iterative-deepening alpha-beta on material, so that the
//! protocol and tournament layers have something real to drive while the full search
//! (issue 3) is written behind this same interface.

pub mod cli;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;

/// What limits a search. Everything unset and `infinite` false means "search until stopped"
/// only if `infinite`; otherwise a search with no limit at all stops at [`MAX_DEPTH`].
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub clock: Option<Clock>,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations to report (1 or more).
    pub multipv: usize,
    /// Time kept back from every clock-based budget (GUI and pipe latency).
    pub move_overhead: Duration,
}

/// The side to move's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    pub time: Duration,
    pub inc: Duration,
    pub moves_to_go: Option<u32>,
}

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 127;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// Whether a reported score is exact or a bound from an aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One progress report (a UCI `info` line).
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time: Duration,
    /// Per mille of the hash table in use.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the position has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// Switches for the evaluation and the pruning steps, so that weaker or ablated versions can
/// play matches against the full engine.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Evaluate by material alone.
    pub material_only: bool,
    pub null_move: bool,
    pub lmr: bool,
    pub futility: bool,
    pub aspiration: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            material_only: false,
            null_move: true,
            lmr: true,
            futility: true,
            aspiration: true,
        }
    }
}

/// Signals from the protocol thread to a running search.
#[derive(Debug, Default)]
pub struct Control {
    /// Stop as soon as possible and return the best move so far.
    pub stop: AtomicBool,
    /// While set, clock limits are not applied (pondering); clearing it is `ponderhit`.
    pub pondering: AtomicBool,
}

/// A searcher with its transposition table and options; one per engine.
pub struct Searcher {
    pub options: SearchOptions,
    hash_mb: usize,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            options: SearchOptions::default(),
            hash_mb,
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn resize_hash(&mut self, mb: usize) {
        self.hash_mb = mb.max(1);
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Per mille of the hash table in use.
    pub fn hashfull(&self) -> u32 {
        0
    }

    /// Searches `pos` within `limits`, calling `on_info` after every iteration.
    pub fn search(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let mut root = pos.legal_moves().to_vec();
        if !limits.searchmoves.is_empty() {
            root.retain(|m| limits.searchmoves.contains(m));
        }
        let mut result = SearchResult {
            best: root.first().copied(),
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        };
        if root.is_empty() {
            return result;
        }
        let budget = limits
            .movetime
            .or(limits.clock.map(|c| c.time / 30 + c.inc / 2));
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        let mut ctx = Ctx {
            nodes: 0,
            limits,
            control,
            start,
            budget,
            aborted: false,
        };
        for depth in 1..=max_depth {
            let mut best = None;
            let mut alpha = -INF;
            for &mv in &root {
                pos.make(mv);
                let s = -ctx.negamax(pos, depth - 1, -INF, -alpha, 1);
                pos.unmake();
                if ctx.aborted {
                    break;
                }
                if s > alpha {
                    alpha = s;
                    best = Some(mv);
                }
            }
            if ctx.aborted {
                break;
            }
            if let Some(b) = best {
                root.retain(|&m| m != b);
                root.insert(0, b);
                result.best = Some(b);
                result.score = to_score(alpha);
                result.depth = depth;
                on_info(&Info {
                    depth,
                    seldepth: depth,
                    multipv: 1,
                    score: result.score,
                    bound: Bound::Exact,
                    nodes: ctx.nodes,
                    time: start.elapsed(),
                    hashfull: 0,
                    pv: vec![b],
                });
            }
            if !limits.infinite && budget.is_some_and(|b| start.elapsed() > b / 2) {
                break;
            }
        }
        while limits.infinite && !control.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(5));
        }
        result.nodes = ctx.nodes;
        result
    }
}

const INF: i32 = 1_000_000;
const MATE: i32 = 900_000;

fn to_score(v: i32) -> Score {
    if v > MATE - 1000 {
        Score::Mate((MATE - v + 1) / 2)
    } else if v < -MATE + 1000 {
        Score::Mate(-(MATE + v) / 2)
    } else {
        Score::Cp(v)
    }
}

struct Ctx<'a> {
    nodes: u64,
    limits: &'a Limits,
    control: &'a Control,
    start: Instant,
    budget: Option<Duration>,
    aborted: bool,
}

impl Ctx<'_> {
    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) || self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            let out_of_time = !self.control.pondering.load(Ordering::Relaxed)
                && self.budget.is_some_and(|b| self.start.elapsed() >= b);
            if self.control.stop.load(Ordering::Relaxed)
                || out_of_time
                || self.limits.nodes.is_some_and(|n| self.nodes >= n)
            {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        if ply > 0 && (pos.is_repetition() || pos.halfmove_clock() >= 100) {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.in_check() { -MATE + ply } else { 0 };
        }
        if depth == 0 {
            return material(pos);
        }
        for &mv in &moves {
            pos.make(mv);
            let s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
            pos.unmake();
            if s >= beta {
                return s;
            }
            alpha = alpha.max(s);
        }
        alpha
    }
}

fn material(pos: &Position) -> i32 {
    let value = |r: Role| match r {
        Role::Pawn | Role::Ninja => 100,
        Role::Knight | Role::Venator | Role::WazirKnight | Role::FerzKnight => 300,
        Role::Bishop | Role::Snake => 320,
        Role::Rook | Role::Sissa => 500,
        Role::Queen => 900,
        Role::Amazon => 1200,
        Role::King => 0,
    };
    let us = pos.side_to_move();
    let mut s = 0;
    for c in crate::role::Color::ALL {
        let sign = if c == us { 1 } else { -1 };
        for r in Role::ALL {
            s += sign * value(r) * pos.count(c, r) as i32;
        }
        s += sign * 100 * pos.hand(c) as i32;
    }
    s
}
