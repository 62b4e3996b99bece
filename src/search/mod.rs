//! The search: the interface the protocols and tools use, and the modules behind it.
//!
//! - [`pvs`]: iterative deepening, aspiration windows, principal variation search,
//!   quiescence;
//! - [`movepick`]: move ordering and the history tables;
//! - [`tt`]: the transposition table;
//! - [`time`]: the time manager;
//! - [`see`]: static exchange evaluation;
//! - [`eval`]: the static evaluation;
//! - [`params`]: every tunable number;
//! - [`skill`]: playing strength for people (`Skill Level`, `UCI_Elo`);
//! - [`bench`], [`selfplay`], [`cli`]: the `sissa bench`, `sissa selfplay` and
//!   `sissa search` tools.

pub mod eval;
pub mod movepick;
pub mod params;
pub mod pvs;
pub mod see;
pub mod skill;
pub mod time;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::nnue::net::Network;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::Variant;

use movepick::History;
use tt::TranspositionTable;

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

/// Larger than any score.
pub const INF: i32 = 32_000;
/// The score of mating at the root; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;

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

impl Bound {
    /// The bound of a search result `best` of the window (`alpha`, `beta`).
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a score with this bound says the true value is at least `lower` (a lower
    /// bound or exact at or above it), or at most `upper`: the value lies outside
    /// (`upper`, `lower`).
    pub fn beyond(self, score: i32, upper: i32, lower: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= lower,
            Bound::Upper => score <= upper,
        }
    }
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
    /// The `Tune` option's numbers (`sissa tune`), laid over the variant's own
    /// ([`params::SearchParams::for_variant`]) at each search.
    pub tune: Vec<(&'static str, i32)>,
    /// Evaluate by the variant's network when there is one (`UseNNUE`).
    pub use_nnue: bool,
    /// A network loaded from a file (`EvalFile`), used in its variant instead of the one
    /// built in.
    pub eval_file: Option<Arc<Network>>,
    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`.
    pub strength: skill::Strength,
}

impl SearchOptions {
    /// The network a search of `variant` evaluates with: none when switched off or
    /// evaluating by material, else the loaded file's if it is for this variant, else the
    /// one built in (if the variant has one).
    pub fn network_for(&self, variant: &'static Variant) -> Option<Arc<Network>> {
        if !self.use_nnue || self.material_only {
            return None;
        }
        match &self.eval_file {
            Some(net) if std::ptr::eq(net.variant, variant) => Some(Arc::clone(net)),
            _ => crate::nnue::embedded(variant),
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            material_only: false,
            null_move: true,
            lmr: true,
            futility: true,
            aspiration: true,
            tune: Vec::new(),
            use_nnue: true,
            eval_file: None,
            strength: skill::Strength::default(),
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

/// Most search threads accepted (UCI `Threads`, CECP `cores`, `--threads`).
pub const MAX_THREADS: usize = 128;

/// A searcher with its transposition table, history tables and options; one per engine.
/// With more than one thread it runs a Lazy SMP search: every thread searches the same root
/// with its own histories and the one shared table, and the main thread's result is played.
pub struct Searcher {
    pub options: SearchOptions,
    tt: TranspositionTable,
    /// One per thread, the main thread's first.
    histories: Vec<History>,
}

impl Searcher {
    /// A one-thread searcher with a transposition table of `hash_mb` megabytes (1 to
    /// [`tt::MAX_MB`]); an error if the machine cannot give that much.
    pub fn new(hash_mb: usize) -> Result<Searcher, String> {
        Ok(Searcher {
            options: SearchOptions::default(),
            tt: TranspositionTable::new(hash_mb)?,
            histories: vec![History::default()],
        })
    }

    /// Sets the number of search threads, 1 to [`MAX_THREADS`] (clamped).
    pub fn set_threads(&mut self, threads: usize) {
        self.histories
            .resize_with(threads.clamp(1, MAX_THREADS), History::default);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.histories.len()
    }

    /// Replaces the transposition table by an empty one of `mb` megabytes. On failure the
    /// old table stays as it was, and the error says why.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), String> {
        self.tt = TranspositionTable::new(mb)?;
        Ok(())
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// The score of `pos` after a search of `nodes` nodes with everything learnt forgotten
    /// first, from the side to move's view; `None` for a mate. How openings are judged.
    pub fn judge(&mut self, pos: &mut Position, nodes: u64) -> Option<i32> {
        self.clear();
        let limits = Limits {
            nodes: Some(nodes),
            multipv: 1,
            ..Limits::default()
        };
        match self
            .search(pos, &limits, &Control::default(), &mut |_| {})
            .score
        {
            Score::Cp(cp) => Some(cp),
            Score::Mate(_) => None,
        }
    }

    /// Per mille of the hash table in use.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` within `limits`, calling `on_info` after every iteration (once per
    /// principal variation). Always returns a legal move when one exists, even when stopped
    /// at once. With `infinite` or while pondering, it returns only after `stop` (or, when
    /// pondering, after `pondering` is cleared and the limits are met). Node limits count
    /// the nodes of every thread.
    pub fn search(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.tt.new_search();
        for h in &mut self.histories {
            h.prepare(pos);
            h.age();
        }
        let published_nodes = AtomicU64::new(0);
        let helper_control = Control::default();
        let params =
            params::SearchParams::for_variant(pos.variant().spec.id).with(&self.options.tune);
        let shared = pvs::Shared {
            tt: &self.tt,
            options: &self.options,
            params: &params,
            control,
            published_nodes: &published_nodes,
        };
        // Helpers only fill the shared table until the main thread is done: they have no
        // clock and report nothing, but a node limit counts every thread's nodes, so that
        // they stop at it too however the threads are scheduled.
        let helper_limits = Limits {
            infinite: true,
            multipv: 1,
            nodes: limits.nodes,
            searchmoves: limits.searchmoves.clone(),
            ..Limits::default()
        };
        let (main_history, helper_histories) = self
            .histories
            .split_first_mut()
            .expect("a searcher always has its main thread's history");
        let result = std::thread::scope(|scope| {
            for history in helper_histories.iter_mut() {
                let mut helper_pos = pos.clone();
                let shared = pvs::Shared {
                    control: &helper_control,
                    ..shared
                };
                let helper_limits = &helper_limits;
                scope.spawn(move || {
                    pvs::Search::new(shared, history, helper_limits).run(
                        &mut helper_pos,
                        helper_limits,
                        &mut |_| {},
                    );
                });
            }
            let result = pvs::Search::new(shared, main_history, limits).run(pos, limits, on_info);
            helper_control.stop.store(true, Ordering::Relaxed);
            result
        });
        loop {
            let waiting = limits.infinite || control.pondering.load(Ordering::Relaxed);
            if !waiting || control.stop.load(Ordering::Relaxed) {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        result
    }
}
