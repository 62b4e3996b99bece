//! The worker thread: runs one search or perft at a time while the protocol loop keeps
//! reading commands, and hands the searcher back when the job ends.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::{self, JoinHandle};
use std::time::Instant;

use super::{Event, send};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::{Control, Info, Limits, MAX_THREADS, SearchResult, Searcher, tt};

/// Prints one progress report; owns whatever it needs to format the PV.
pub(crate) type Reporter = Box<dyn FnMut(&Info) + Send>;

/// What a finished job produced.
pub(crate) enum Outcome {
    Search(SearchResult),
    Perft,
}

struct Running {
    id: u64,
    control: Arc<Control>,
    handle: JoinHandle<(Searcher, Outcome)>,
}

/// Owns the searcher while idle and lends it to one job at a time.
pub(crate) struct Worker {
    searcher: Option<Searcher>,
    running: Option<Running>,
    next_id: u64,
    /// The size of the searcher's table, and the size asked for (applied when idle).
    hash_mb: usize,
    wanted_hash_mb: usize,
    wanted_threads: usize,
    events: Sender<Event>,
    complain: fn(&str),
}

impl Worker {
    /// A worker with a table of the default size; `complain` prints a message in the
    /// protocol's own form (a failed hash allocation).
    pub(crate) fn new(events: Sender<Event>, complain: fn(&str)) -> Result<Worker, String> {
        Ok(Worker {
            complain,
            searcher: Some(Searcher::new(tt::DEFAULT_MB)?),
            running: None,
            next_id: 1,
            hash_mb: tt::DEFAULT_MB,
            wanted_hash_mb: tt::DEFAULT_MB,
            wanted_threads: 1,
            events,
        })
    }

    /// Asks for a hash table of `mb` megabytes. It is allocated (and cleared) now if the
    /// worker is idle, else as soon as the running job ends, so that no `go` pays for it on
    /// the clock. A size the machine cannot give keeps the old table, with a message.
    pub(crate) fn set_hash(&mut self, mb: usize) {
        self.wanted_hash_mb = mb;
        self.apply_settings();
    }

    /// Asks for `n` search threads (1 to [`MAX_THREADS`]; other values are clamped with a
    /// message), applied now if idle, else when the running job ends.
    pub(crate) fn set_threads(&mut self, n: u64) {
        if !(1..=MAX_THREADS as u64).contains(&n) {
            (self.complain)(&format!(
                "{n} threads asked for; Sissa searches with 1 to {MAX_THREADS}, so {}",
                n.clamp(1, MAX_THREADS as u64)
            ));
        }
        self.wanted_threads = n.clamp(1, MAX_THREADS as u64) as usize;
        self.apply_settings();
    }

    /// Applies the hash size and thread count asked for, if the searcher is idle.
    fn apply_settings(&mut self) {
        let Some(searcher) = self.searcher.as_mut() else {
            return;
        };
        searcher.set_threads(self.wanted_threads);
        if self.wanted_hash_mb == self.hash_mb {
            return;
        }
        let mb = self.wanted_hash_mb;
        match searcher.resize_hash(mb) {
            Ok(()) => {
                log::info!("hash table: {mb} MB allocated");
                self.hash_mb = mb;
            }
            Err(e) => {
                (self.complain)(&format!("{e}; keeping the {} MB table", self.hash_mb));
                self.wanted_hash_mb = self.hash_mb;
            }
        }
    }

    /// Whether a job is running.
    pub(crate) fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// The idle searcher (`None` while a job runs).
    pub(crate) fn searcher(&mut self) -> Option<&mut Searcher> {
        self.searcher.as_mut()
    }

    /// The running job's control flags.
    pub(crate) fn control(&self) -> Option<&Arc<Control>> {
        self.running.as_ref().map(|r| &r.control)
    }

    /// Starts a search of `pos`. The caller must have finished any earlier job.
    pub(crate) fn start_search(
        &mut self,
        mut pos: Position,
        limits: Limits,
        pondering: bool,
        mut report: Reporter,
    ) {
        let Some(mut searcher) = self.searcher.take() else {
            log::error!("search requested while another job runs");
            return;
        };
        let control = Arc::new(Control::default());
        control.pondering.store(pondering, Ordering::Relaxed);
        let flags = Arc::clone(&control);
        self.spawn(control, move || {
            let result = searcher.search(&mut pos, &limits, &flags, &mut *report);
            (searcher, Outcome::Search(result))
        });
    }

    /// Starts a perft with per-move counts (`go perft`), printed as it goes.
    pub(crate) fn start_perft(&mut self, mut pos: Position, depth: u32) {
        let Some(searcher) = self.searcher.take() else {
            log::error!("perft requested while another job runs");
            return;
        };
        let control = Arc::new(Control::default());
        let flags = Arc::clone(&control);
        self.spawn(control, move || {
            divide(&mut pos, depth, &flags.stop);
            (searcher, Outcome::Perft)
        });
    }

    fn spawn<F>(&mut self, control: Arc<Control>, job: F)
    where
        F: FnOnce() -> (Searcher, Outcome) + Send + 'static,
    {
        let id = self.next_id;
        self.next_id += 1;
        let events = self.events.clone();
        let handle = thread::spawn(move || {
            let out = job();
            let _ = events.send(Event::Done(id));
            out
        });
        self.running = Some(Running {
            id,
            control,
            handle,
        });
    }

    /// Collects the job with this id if it is the running one (a `Done` event).
    pub(crate) fn finish(&mut self, id: u64) -> Option<Outcome> {
        if self.running.as_ref().is_none_or(|r| r.id != id) {
            return None;
        }
        self.join()
    }

    /// Stops the running job, waits for it and returns what it produced.
    pub(crate) fn stop(&mut self) -> Option<Outcome> {
        let r = self.running.as_ref()?;
        r.control.stop.store(true, Ordering::Relaxed);
        r.control.pondering.store(false, Ordering::Relaxed);
        self.join()
    }

    fn join(&mut self) -> Option<Outcome> {
        let r = self.running.take()?;
        match r.handle.join() {
            Ok((searcher, outcome)) => {
                self.searcher = Some(searcher);
                self.apply_settings();
                Some(outcome)
            }
            Err(_) => {
                // The search thread died: keep serving with a fresh searcher.
                log::error!("the search thread panicked; starting a fresh searcher");
                self.searcher = Searcher::new(self.hash_mb)
                    .or_else(|_| Searcher::new(tt::DEFAULT_MB))
                    .ok();
                self.apply_settings();
                None
            }
        }
    }
}

/// The moves of a PV as text, stopping at the first move that is not legal in its position
/// (a stale hash entry must never reach the GUI).
pub(crate) fn pv_text(root: &Position, pv: &[Move], rank_base: i32) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if mv.is_null() || !pos.legal_moves().contains(&mv) {
            break;
        }
        out.push(pos.move_text(mv, rank_base));
        pos.make(mv);
    }
    out
}

/// Per-move leaf counts, then the total, as Stockfish prints them; stops early when asked.
fn divide(pos: &mut Position, depth: u32, stop: &AtomicBool) {
    let start = Instant::now();
    let moves = pos.legal_moves();
    let mut total = 0u64;
    for &mv in &moves {
        let text = pos.move_text(mv, 1);
        pos.make(mv);
        let n = count(pos, depth.saturating_sub(1), stop);
        pos.unmake();
        if stop.load(Ordering::Relaxed) {
            send("info string perft stopped");
            return;
        }
        total += n;
        send(&format!("{text}: {n}"));
    }
    send("");
    send(&format!("Nodes searched: {total}"));
    log::info!("perft {depth}: {total} leaves in {:?}", start.elapsed());
}

fn count(pos: &mut Position, depth: u32, stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    let mut n = 0;
    for &mv in &moves {
        pos.make(mv);
        n += count(pos, depth - 1, stop);
        pos.unmake();
    }
    n
}
