//! Principal variation search: iterative deepening with aspiration windows at the root,
//! negamax with a null window for every move after the first, transposition table, reverse
//! futility, null move, futility and late-move pruning, late move reductions, check
//! extension, and quiescence over captures and promotions (every evasion when in check).

use std::sync::atomic::{AtomicU64, Ordering};

use arrayvec::ArrayVec;

use crate::nnue::eval::Nnue;
use crate::rng::Rng;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::{Color, Role};
use crate::rules::variant::StalemateResult;

use super::eval;
use super::movepick::{
    Continuations, Hints, History, MovePicker, PieceTo, is_tactical, material_gain,
};
use super::params as p;
use super::see::see_ge;
use super::skill::{self, Handicap};
use super::time::{TimeManager, falling_scale, soft_scale};
use super::tt::{Entry, NO_EVAL, Record, TranspositionTable};
use super::{Bound, Control, Info, Limits, MAX_DEPTH, Score, SearchOptions, SearchResult};

use super::{INF, MATE, MATE_BOUND};
/// Mixed into the position's key to seed a weakened search's choices.
const SKILL_SEED: u64 = 0x5c11_1e7e_1000_0000;
/// Deepest ply the search reaches (iterations plus extensions and quiescence).
pub const MAX_PLY: usize = MAX_DEPTH as usize + 1;

/// Converts an internal score to the protocol's form: mate in moves of the side to move,
/// rounded up, so that a loss one ply away (a king bared by the reply's rule, after the
/// side's own move) is `mate -1`, not `mate 0`, which means lost already.
pub fn to_score(v: i32) -> Score {
    if v > MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v < -MATE_BOUND {
        Score::Mate(-((MATE + v + 1) / 2))
    } else {
        Score::Cp(v)
    }
}

/// A move at the root with its latest score and line.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// Score of the last completed iteration (or -INF when unknown).
    score: i32,
    pv: Vec<Move>,
    /// Nodes spent below this move in the current iteration.
    nodes: u64,
}

type Line = ArrayVec<Move, MAX_PLY>;

/// What every thread of one search shares.
#[derive(Clone, Copy)]
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub options: &'a SearchOptions,
    /// The tunable numbers of this search: the variant's own with the `Tune` option's over them.
    pub params: &'a p::SearchParams,
    pub control: &'a Control,
    /// Nodes searched by every thread, each publishing its own in batches of
    /// [`p::CHECK_EVERY`]: a thread's view of the total is this plus its own nodes not yet
    /// published, for reports and node limits.
    pub published_nodes: &'a AtomicU64,
}

/// The state of one search thread.
pub struct Search<'a> {
    tt: &'a TranspositionTable,
    history: &'a mut History,
    options: &'a SearchOptions,
    params: &'a p::SearchParams,
    control: &'a Control,
    published_nodes: &'a AtomicU64,
    time: TimeManager,
    node_limit: Option<u64>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    root_depth: i32,
    /// The length of the position's history at the root: repetitions before it are the
    /// game's, after it the search's own (see [`Position::is_repetition_since`]).
    root_history: usize,
    killers: Vec<[Option<Move>; 2]>,
    /// The piece-to key of the move made at each ply (`None` for a null move), for the
    /// continuation history.
    moved: Vec<Option<PieceTo>>,
    /// The static evaluation at each ply of the current line ([`NO_EVAL`] in check), for
    /// `improving`.
    evals: Vec<i32>,
    pv: Vec<Line>,
    root: Vec<RootMove>,
    lmr: Vec<[i32; 64]>,
    /// The network and its accumulators, when the variant has one and it is switched on.
    nnue: Option<Nnue>,
}

impl<'a> Search<'a> {
    pub fn new(shared: Shared<'a>, history: &'a mut History, limits: &Limits) -> Search<'a> {
        let Shared {
            tt,
            options,
            params,
            control,
            published_nodes,
        } = shared;
        let base = f64::from(params.lmr_base) / 100.0;
        let divisor = f64::from(params.lmr_divisor) / 100.0;
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        let x = base + (d as f64).ln() * (m as f64).ln() / divisor;
                        *r = x as i32;
                    }
                }
                row
            })
            .collect();
        Search {
            tt,
            history,
            options,
            params,
            control,
            published_nodes,
            time: TimeManager::new(limits, control),
            node_limit: limits.nodes,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            root_history: 0,
            killers: vec![[None; 2]; MAX_PLY + 1],
            moved: vec![None; MAX_PLY + 1],
            evals: vec![NO_EVAL; MAX_PLY + 1],
            pv: vec![Line::new(); MAX_PLY + 1],
            root: Vec::new(),
            lmr,
            nnue: None,
        }
    }

    /// Runs iterative deepening within `limits`.
    pub fn run(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.root_history = pos.history_len();
        let legal = pos.legal_moves();
        let mut root: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .collect();
        if root.is_empty() {
            root = legal.to_vec();
        }
        if root.is_empty() {
            let score = match no_move_score(pos, pos.in_check(), 0) {
                0 => Score::Cp(0),
                _ => Score::Mate(0),
            };
            return SearchResult {
                best: None,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
            };
        }
        self.nnue = self
            .options
            .network_for(pos.variant())
            .map(|net| Nnue::new(net, MAX_PLY + 1));
        if let Some(nnue) = self.nnue.as_mut() {
            nnue.start(pos);
        }
        // First order: the picker's (transposition-table move, captures, history).
        let tt_move = self.tt.probe(pos.hash(), 0).and_then(|e| e.mv);
        let hints = Hints {
            tt_move,
            killers: [None; 2],
            counter: None,
            conts: [None; 3],
        };
        let mut picker = MovePicker::over(pos, &root, &hints, self.history);
        self.root.clear();
        while let Some(mv) = picker.next(pos, self.history) {
            self.root.push(RootMove {
                mv,
                score: -INF,
                pv: vec![mv],
                nodes: 0,
            });
        }

        // A weakened search (Skill Level, UCI_Elo) stops early and chooses among several
        // best moves; it reports only the lines asked for.
        let mut skill_rng = Rng::new(pos.hash() ^ SKILL_SEED);
        let handicap = self
            .options
            .strength
            .weakened()
            .then(|| Handicap::for_move(self.options.strength.level(), &mut skill_rng));
        let shown = limits.multipv.clamp(1, self.root.len());
        let multipv = match handicap {
            Some(_) => shown.max(skill::CANDIDATES).min(self.root.len()),
            None => shown,
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let max_depth = handicap.map_or(max_depth, |h| max_depth.min(h.max_depth()));
        let max_depth = match limits.mate {
            Some(m) if limits.depth.is_none() => max_depth.min(4 * m + 4),
            _ => max_depth,
        };
        let mut completed = 0;
        let mut best_changes = 0.0;
        let mut last_best = None;
        // The best score of each completed iteration, for the falling-score scale.
        let mut iteration_scores: Vec<i32> = Vec::new();
        for depth in 1..=max_depth {
            self.root_depth = depth as i32;
            self.seldepth = 0;
            let nodes_before = self.nodes;
            for rm in &mut self.root {
                rm.nodes = 0;
            }
            for k in 0..multipv {
                self.aspirate(pos, depth as i32, k);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            completed = depth;
            for rm in &mut self.root[multipv..] {
                rm.score = -INF;
            }
            for k in 0..shown {
                let rm = &self.root[k];
                on_info(&Info {
                    depth,
                    seldepth: (self.seldepth as u32).max(depth),
                    multipv: k + 1,
                    score: to_score(rm.score),
                    bound: Bound::Exact,
                    nodes: self.total_nodes(),
                    time: self.time.start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: rm.pv.clone(),
                });
            }
            let best_score = self.root[0].score;
            if let Some(m) = limits.mate
                && best_score > MATE_BOUND
                && (MATE - best_score + 1) / 2 <= m as i32
            {
                break;
            }
            best_changes /= 2.0;
            if last_best.is_some_and(|m| m != self.root[0].mv) {
                best_changes += 1.0;
            }
            last_best = Some(self.root[0].mv);
            let iteration_nodes = (self.nodes - nodes_before).max(1);
            let share = self.root[0].nodes as f64 / iteration_nodes as f64;
            iteration_scores.push(best_score);
            let back = iteration_scores
                .len()
                .saturating_sub(1 + p::FALLING_LOOKBACK);
            let scale = soft_scale(best_changes, share)
                * falling_scale(iteration_scores[back], best_score, MATE_BOUND);
            if self.time.should_stop_iterating(self.control, scale) {
                break;
            }
        }
        let chosen = match handicap {
            Some(h) if completed > 0 => {
                let scores: Vec<i32> = self.root[..multipv].iter().map(|r| r.score).collect();
                h.pick(&scores, MATE_BOUND, &mut skill_rng)
            }
            _ => 0,
        };
        let best = self.root[chosen].clone();
        let score = if best.score > -INF {
            best.score
        } else {
            self.evaluate(pos, 0)
        };
        if completed == 0 {
            // Stopped inside the first iteration (a limit of a few nodes): one line still
            // reports the move and its score, as depth 0, so a client never gets a move
            // without a score.
            on_info(&Info {
                depth: 0,
                seldepth: self.seldepth as u32,
                multipv: 1,
                score: to_score(score),
                bound: Bound::Exact,
                nodes: self.total_nodes(),
                time: self.time.start.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: vec![best.mv],
            });
        }
        let ponder = best.pv.get(1).copied().or_else(|| {
            pos.make(best.mv);
            let reply = self
                .tt
                .probe(pos.hash(), 1)
                .and_then(|e| e.mv)
                .filter(|&m| pos.legal_moves().contains(&m));
            pos.unmake();
            reply
        });
        SearchResult {
            best: Some(best.mv),
            ponder,
            score: to_score(score),
            depth: completed,
            nodes: self.total_nodes(),
        }
    }

    /// One iteration for the `k`-th principal variation, with an aspiration window around
    /// the previous score that widens on failure.
    fn aspirate(&mut self, pos: &mut Position, depth: i32, k: usize) -> i32 {
        let prev = self.root[k].score;
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) = if self.options.aspiration
            && depth >= p::ASPIRATION_MIN_DEPTH as i32
            && prev.abs() < MATE_BOUND
        {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root_search(pos, depth, alpha, beta, k);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1_000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Searches the root moves from index `first` on (the earlier ones are the lines already
    /// reported in this iteration for multi-PV). A move that raises alpha moves to `first`.
    fn root_search(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        first: usize,
    ) -> i32 {
        let mut best = -INF;
        let mut best_move = None;
        let alpha_start = alpha;
        for i in first..self.root.len() {
            let mv = self.root[i].mv;
            self.moved[0] = Some(self.history.piece_to(pos, mv));
            let nodes_before = self.nodes;
            self.play(pos, mv, 0);
            let gives_check = pos.in_check();
            let new_depth = depth - 1 + i32::from(gives_check);
            let score = if i == first {
                -self.negamax(pos, new_depth, -beta, -alpha, 1, Kind::Pv)
            } else {
                let s = -self.negamax(pos, new_depth, -alpha - 1, -alpha, 1, Kind::Cut);
                if s > alpha && s < beta {
                    -self.negamax(pos, new_depth, -beta, -alpha, 1, Kind::Pv)
                } else {
                    s
                }
            };
            pos.unmake();
            self.root[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha || i == first {
                let mut line = vec![mv];
                line.extend(self.pv[1].iter().copied());
                let rm = &mut self.root[i];
                rm.score = score;
                rm.pv = line;
                self.root[first..=i].rotate_right(1);
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                }
                if score >= beta {
                    break;
                }
            }
        }
        if !self.stopped && first == 0 {
            let bound = Bound::of(best, alpha_start, beta);
            let record = Record {
                mv: best_move.or(Some(self.root[0].mv)),
                score: best,
                eval: NO_EVAL,
                depth,
                bound,
            };
            self.tt.store(pos.hash(), 0, record);
        }
        best
    }

    /// Counts a node and tells whether the search must stop (node limit, stop flag, time).
    fn stop_now(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        let batch = self.nodes.is_multiple_of(p::CHECK_EVERY);
        if batch {
            self.published_nodes
                .fetch_add(p::CHECK_EVERY, Ordering::Relaxed);
        }
        if self.node_limit.is_some_and(|n| self.total_nodes() > n)
            || (batch
                && (self.control.stop.load(Ordering::Relaxed)
                    || self.time.out_of_time(self.control)))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Nodes of every thread: what all threads published plus this one's unpublished rest
    /// (with one thread, exactly its own count).
    fn total_nodes(&self) -> u64 {
        self.published_nodes.load(Ordering::Relaxed) + self.nodes % p::CHECK_EVERY
    }

    /// Plays `mv` at `ply`, telling the network's accumulators. The new position's table
    /// slot is fetched from memory while the accumulators are brought up to date.
    fn play(&mut self, pos: &mut Position, mv: Move, ply: usize) {
        pos.make(mv);
        self.tt.prefetch(pos.hash());
        if let Some(nnue) = self.nnue.as_mut() {
            nnue.played(pos, ply + 1);
        }
    }

    /// The static evaluation of `pos`, the position at `ply`: material alone, the network,
    /// or the hand-written evaluation.
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if self.options.material_only {
            eval::material_only(pos)
        } else if let Some(nnue) = self.nnue.as_mut() {
            let score = nnue.evaluate(pos, ply);
            let score = score * eval::fifty_move_fade(pos) / 200;
            score.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
        } else {
            eval::evaluate(pos)
        }
    }

    /// `raw_eval` corrected by the correction history, kept short of the mate scores.
    fn corrected(&self, pos: &Position, raw_eval: i32) -> i32 {
        self.history
            .corrected_eval(pos, raw_eval)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The static evaluation the table kept for this position, or a fresh one.
    fn stored_or_fresh_eval(&mut self, pos: &Position, entry: Option<Entry>, ply: usize) -> i32 {
        match entry.map(|e| e.eval).filter(|&e| e != NO_EVAL) {
            Some(e) => e,
            None => self.evaluate(pos, ply),
        }
    }

    /// What every node does first: stop when told, note the depth reached, and score a draw
    /// or the ply limit without searching.
    fn node_start(&mut self, pos: &mut Position, ply: usize) -> Option<i32> {
        if self.stop_now() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(pos) {
            return Some(0);
        }
        if let Some(score) = bare_king_score(pos, ply) {
            return Some(score);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(pos, ply));
        }
        None
    }

    /// Whether a draw by the rules (other than stalemate) holds here.
    fn is_draw(&self, pos: &mut Position) -> bool {
        if pos.halfmove_clock() >= pos.move_rule_plies() {
            // Mate on the last ply still wins.
            return !(pos.in_check() && pos.legal_moves().is_empty());
        }
        pos.is_repetition_since(self.root_history) || pos.insufficient_material()
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        kind: Kind,
    ) -> i32 {
        let pv_node = kind == Kind::Pv;
        let cut_node = kind == Kind::Cut;
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        if let Some(score) = self.node_start(pos, ply) {
            return score;
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = pos.hash();
        let entry = self.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.mv);
        if !pv_node
            && let Some(e) = entry
            && e.depth >= depth
            && e.bound.beyond(e.score, alpha, beta)
        {
            return e.score;
        }

        let in_check = pos.in_check();
        // The evaluation stored with the position saves computing it again, and a stored
        // score whose bound lies on the right side of it is a better estimate still.
        let raw_eval = if in_check {
            NO_EVAL
        } else {
            self.stored_or_fresh_eval(pos, entry, ply)
        };
        // What searches of this pawn structure found the evaluation off by.
        let corrected_eval = if in_check {
            NO_EVAL
        } else {
            self.corrected(pos, raw_eval)
        };
        let static_eval = match entry {
            _ if in_check => -INF,
            Some(e)
                if e.score.abs() < MATE_BOUND
                    && e.bound
                        .beyond(e.score, corrected_eval - 1, corrected_eval + 1) =>
            {
                e.score
            }
            _ => corrected_eval,
        };
        self.evals[ply] = corrected_eval;
        // Better than two plies ago (or no way to tell): prune less.
        let improving = !in_check
            && (ply < 2 || self.evals[ply - 2] == NO_EVAL || corrected_eval > self.evals[ply - 2]);
        let us = pos.side_to_move();
        let previous = pos.history.last().map(|u| u.mv);

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            if self.options.futility
                && depth <= p::RFP_MAX_DEPTH
                && static_eval - self.params.rfp_margin * (depth - i32::from(improving)) >= beta
            {
                return static_eval;
            }
            if self.options.futility
                && depth <= p::RAZOR_MAX_DEPTH
                && static_eval
                    + self.params.razor_base
                    + self.params.razor_per_depth * depth * depth
                    < alpha
            {
                let s = self.quiesce(pos, alpha - 1, alpha, ply);
                if self.stopped {
                    return 0;
                }
                if s < alpha {
                    return s;
                }
            }
            if self.options.null_move
                && depth >= p::NMP_MIN_DEPTH
                && static_eval >= beta
                && has_pieces(pos, us)
                && previous.is_some_and(|m| !m.is_null())
            {
                let r = self.params.nmp_reduction
                    + depth / p::NMP_DEPTH_DIVISOR
                    + ((static_eval - beta) / self.params.nmp_eval_divisor).min(p::NMP_EVAL_MAX);
                self.moved[ply] = None;
                self.play(pos, Move::NULL, ply);
                let s = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, kind.flip());
                pos.unmake();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
            let raised =
                beta + self.params.probcut_margin - p::PROBCUT_IMPROVING * i32::from(improving);
            if self.options.futility
                && depth >= p::PROBCUT_MIN_DEPTH
                && raised < MATE_BOUND
                && !entry.is_some_and(|e| e.depth >= depth - 3 && e.score < raised)
                && let Some(s) =
                    self.probcut(pos, depth, raised, static_eval, raw_eval, ply, kind.flip())
            {
                return s;
            }
        }

        let counter = previous.and_then(|m| self.history.counter(pos, m));
        let killers = self.killers[ply];
        let conts = self.continuations(ply);
        let mut picker = MovePicker::empty(
            &Hints {
                tt_move,
                killers,
                counter,
                conts,
            },
            false,
        );
        picker.generate(pos, self.history);
        // No hash move to guide it: a shallower search here costs less and fills the table.
        let depth = if tt_move.is_none() && depth >= p::IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };
        let futile = self.options.futility
            && !pv_node
            && !in_check
            && depth <= p::FUTILITY_MAX_DEPTH
            && static_eval + self.params.futility_base + self.params.futility_per_depth * depth
                <= alpha;
        let late_move_limit = if improving {
            self.params.lmp_base as usize + (depth * depth) as usize
        } else {
            (self.params.lmp_base as usize + (depth * depth) as usize) / 2
        };

        let alpha_start = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let mut tacticals: ArrayVec<Move, 32> = ArrayVec::new();
        while let Some(mv) = picker.next(pos, self.history) {
            let quiet = !is_tactical(pos, mv);
            if self.options.futility
                && !pv_node
                && !in_check
                && quiet
                && depth <= p::LMP_MAX_DEPTH
                && searched >= late_move_limit
                && best > -MATE_BOUND
            {
                picker.skip_quiets();
                continue;
            }
            if self.options.futility
                && !pv_node
                && !in_check
                && searched > 0
                && depth <= p::SEE_PRUNE_MAX_DEPTH
                && best > -MATE_BOUND
            {
                let threshold = if quiet {
                    -self.params.see_quiet_margin * depth * depth
                } else {
                    -self.params.see_capture_margin * depth
                };
                if !see_ge(pos, mv, threshold) {
                    continue;
                }
            }
            let history = if quiet && depth >= p::LMR_MIN_DEPTH && searched >= p::LMR_MIN_MOVES {
                self.history.quiet_score(pos, mv, &conts)
            } else {
                0
            };
            self.moved[ply] = Some(self.history.piece_to(pos, mv));
            self.play(pos, mv, ply);
            let gives_check = pos.in_check();
            if futile && quiet && !gives_check && searched > 0 {
                pos.unmake();
                continue;
            }
            let extension = i32::from(gives_check && (ply as i32) < 2 * self.root_depth);
            let new_depth = depth - 1 + extension;
            let score = if searched == 0 {
                -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, kind.first_child())
            } else {
                let mut r = 0;
                if self.options.lmr
                    && depth >= p::LMR_MIN_DEPTH
                    && searched >= p::LMR_MIN_MOVES
                    && quiet
                    && !gives_check
                    && !in_check
                {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if cut_node {
                        r += p::LMR_CUT_NODE;
                    }
                    if !improving {
                        r += 1;
                    }
                    if killers.contains(&Some(mv)) {
                        r -= 1;
                    }
                    r -= history / self.params.lmr_history_divisor;
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut s = if r > 0 {
                    -self.negamax(pos, new_depth - r, -alpha - 1, -alpha, ply + 1, Kind::Cut)
                } else {
                    -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, kind.flip())
                };
                if s > alpha && r > 0 {
                    s = -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, kind.flip());
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, Kind::Pv);
                }
                s
            };
            pos.unmake();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        self.reward_cutoff(pos, mv, quiet, &quiets, &tacticals, depth, ply);
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets.try_push(mv);
            } else {
                let _ = tacticals.try_push(mv);
            }
        }
        if picker.handed_none() {
            return no_move_score(pos, in_check, ply);
        }
        let bound = Bound::of(best, alpha_start, beta);
        // A quiet result whose bound lies beyond the corrected evaluation tells how far off
        // the evaluation is here.
        if !in_check
            && best.abs() < MATE_BOUND
            && best_move.is_none_or(|m| !is_tactical(pos, m))
            && bound.beyond(best, corrected_eval - 1, corrected_eval + 1)
        {
            self.history
                .update_correction(pos, depth, best - corrected_eval);
        }
        let record = Record {
            mv: best_move,
            score: best,
            eval: raw_eval,
            depth,
            bound,
        };
        self.tt.store(key, ply, record);
        best
    }

    /// ProbCut: at a non-PV node, a capture that wins enough by SEE and whose quiescence
    /// and then reduced search both hold `raised` (beta plus a margin) is taken as proof
    /// that the full search would fail high too. The score of that search, stored as a
    /// lower bound, when it holds.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &mut Position,
        depth: i32,
        raised: i32,
        static_eval: i32,
        raw_eval: i32,
        ply: usize,
        child: Kind,
    ) -> Option<i32> {
        let mut picker = MovePicker::empty(&Hints::default(), true);
        picker.generate(pos, self.history);
        while let Some(mv) = picker.next(pos, self.history) {
            if !see_ge(pos, mv, raised - static_eval) {
                continue;
            }
            self.moved[ply] = Some(self.history.piece_to(pos, mv));
            self.play(pos, mv, ply);
            let mut s = -self.quiesce(pos, -raised, -raised + 1, ply + 1);
            if s >= raised && !self.stopped {
                let d = depth - p::PROBCUT_REDUCTION;
                s = -self.negamax(pos, d, -raised, -raised + 1, ply + 1, child);
            }
            pos.unmake();
            if self.stopped {
                return Some(0);
            }
            if s >= raised {
                let record = Record {
                    mv: Some(mv),
                    score: s,
                    eval: raw_eval,
                    depth: depth - 3,
                    bound: Bound::Lower,
                };
                self.tt.store(pos.hash(), ply, record);
                return Some(s);
            }
        }
        None
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        for &m in tail[0].iter().take(MAX_PLY - 1) {
            line.push(m);
        }
    }

    /// The continuation keys of a node at `ply`: the moves 1, 2 and 4 plies back.
    fn continuations(&self, ply: usize) -> Continuations {
        let back = |n: usize| ply.checked_sub(n).and_then(|i| self.moved[i]);
        [back(1), back(2), back(4)]
    }

    /// `mv` caused a cutoff. A quiet move becomes a killer and the counter-move and gains
    /// history (continuation history included), and the quiet moves tried before it lose
    /// as much; a capture gains capture history. Either way the captures tried before it
    /// lose capture history.
    #[allow(clippy::too_many_arguments)]
    fn reward_cutoff(
        &mut self,
        pos: &Position,
        mv: Move,
        quiet: bool,
        quiets: &[Move],
        tacticals: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let bonus = (depth * depth * 16).min(p::HISTORY_MAX / 4);
        if quiet {
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
            if let Some(prev) = pos.history.last().map(|u| u.mv) {
                self.history.set_counter(pos, prev, mv);
            }
            let conts = self.continuations(ply);
            self.history.update_quiet(pos, mv, &conts, bonus);
            for &q in quiets {
                self.history.update_quiet(pos, q, &conts, -bonus);
            }
        } else {
            self.history.update_capture(pos, mv, bonus);
        }
        for &t in tacticals {
            self.history.update_capture(pos, t, -bonus);
        }
    }

    fn quiesce(&mut self, pos: &mut Position, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if let Some(score) = self.node_start(pos, ply) {
            return score;
        }
        let key = pos.hash();
        let entry = self.tt.probe(key, ply);
        if let Some(e) = entry
            && e.bound.beyond(e.score, alpha, beta)
        {
            return e.score;
        }
        let alpha_start = alpha;
        let in_check = pos.in_check();
        let mut raw_eval = NO_EVAL;
        let mut best;
        if in_check {
            best = Best::new(-INF, alpha);
            let mut picker = MovePicker::empty(
                &Hints {
                    tt_move: entry.and_then(|e| e.mv),
                    killers: [None; 2],
                    counter: None,
                    conts: [None; 3],
                },
                false,
            );
            picker.generate(pos, self.history);
            while let Some(mv) = picker.next(pos, self.history) {
                self.moved[ply] = Some(self.history.piece_to(pos, mv));
                self.play(pos, mv, ply);
                let score = -self.quiesce(pos, -beta, -best.alpha, ply + 1);
                pos.unmake();
                if self.stopped {
                    return 0;
                }
                if best.raise(score, mv, beta) {
                    break;
                }
            }
            if picker.handed_none() {
                return no_move_score(pos, true, ply);
            }
        } else {
            raw_eval = self.stored_or_fresh_eval(pos, entry, ply);
            let stand_pat = self.corrected(pos, raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            best = Best::new(stand_pat, alpha.max(stand_pat));
            let mut picker = MovePicker::empty(&Hints::default(), true);
            picker.generate(pos, self.history);
            while let Some(mv) = picker.next(pos, self.history) {
                let gain = material_gain(pos, mv);
                if mv.promotion_role().is_none()
                    && stand_pat + gain + self.params.delta_margin <= best.alpha
                {
                    continue;
                }
                if !see_ge(pos, mv, 0) {
                    continue;
                }
                self.moved[ply] = Some(self.history.piece_to(pos, mv));
                self.play(pos, mv, ply);
                let score = -self.quiesce(pos, -beta, -best.alpha, ply + 1);
                pos.unmake();
                if self.stopped {
                    return 0;
                }
                if best.raise(score, mv, beta) {
                    break;
                }
            }
        }
        let bound = Bound::of(best.score, alpha_start, beta);
        let record = Record {
            mv: best.mv,
            score: best.score,
            eval: raw_eval,
            depth: 0,
            bound,
        };
        self.tt.store(key, ply, record);
        best.score
    }
}

/// A node's expected type, as Stockfish's `cutNode` goes: a PV node, a node expected to
/// fail high (cut) or to fail low (all). The first move of a cut node leads to an all node
/// and the other way round; a reduced null-window search is expected to fail high.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pv,
    Cut,
    All,
}

impl Kind {
    /// The type of the node after this node's first move.
    fn first_child(self) -> Kind {
        match self {
            Kind::Pv => Kind::Pv,
            Kind::Cut => Kind::All,
            Kind::All => Kind::Cut,
        }
    }

    /// The type of a node searched with a null window below this one (not reduced).
    fn flip(self) -> Kind {
        match self {
            Kind::Pv | Kind::All => Kind::Cut,
            Kind::Cut => Kind::All,
        }
    }
}

/// The running result of a quiescence move loop: the best score, the alpha it raised, and
/// the move that raised alpha last.
struct Best {
    score: i32,
    alpha: i32,
    mv: Option<Move>,
}

impl Best {
    fn new(score: i32, alpha: i32) -> Best {
        Best {
            score,
            alpha,
            mv: None,
        }
    }

    /// Takes the score of `mv`; true when it reaches `beta` (a cutoff).
    fn raise(&mut self, score: i32, mv: Move, beta: i32) -> bool {
        if score > self.score {
            self.score = score;
            if score > self.alpha {
                self.alpha = score;
                self.mv = Some(mv);
                return score >= beta;
            }
        }
        false
    }
}

/// Whether `color` has a piece besides king and pawns (null move is unsafe without: zugzwang).
fn has_pieces(pos: &Position, color: Color) -> bool {
    pos.pieces(color).iter().any(|&s| {
        pos.piece_at(s)
            .is_some_and(|pc| pc.role != Role::King && !pc.role.is_pawn_like())
    })
}

/// The score of a position without a legal move, for the side to move at `ply`: mated, a
/// stalemate (a draw, or a loss where the variant says so), or a bare king's loss.
fn no_move_score(pos: &Position, in_check: bool, ply: usize) -> i32 {
    if let Some(score) = bare_king_score(pos, ply) {
        return score;
    }
    if in_check || pos.variant.spec.end.stalemate == StalemateResult::Loss {
        -MATE + ply as i32
    } else {
        0
    }
}

/// The score for the side to move at `ply` when the bare-king rule has ended the game.
fn bare_king_score(pos: &Position, ply: usize) -> Option<i32> {
    let lost = -MATE + ply as i32;
    pos.bare_king_loser().map(|loser| {
        if loser == pos.side_to_move() {
            lost
        } else {
            -lost
        }
    })
}
