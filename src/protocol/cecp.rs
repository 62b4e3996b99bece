//! CECP version 2 (XBoard, WinBoard): the engine keeps the game, plays one side, claims game
//! ends, and answers XBoard's `lift`/`put`/`hover` with the legal destinations so that fairy
//! pieces can be moved by hand with XBoard's own legality testing off.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::engine::{Outcome, Worker, pv_text};
use super::{
    Event, LIMIT_STRENGTH, MULTIPV_MAX, OVERHEAD_DEFAULT_MS, OVERHEAD_MAX_MS, SEARCH_SWITCHES,
    SKILL_LEVEL, UCI_ELO, load_variants, parse_bool, parse_clamped, send, set_eval_file,
    set_strength, set_switch,
};
use crate::notation::uci::MoveError;
use crate::rules::geometry::Square;
use crate::rules::moves::{Move, MoveKind};
use crate::rules::position::Position;
use crate::rules::role::{Color, Role};
use crate::rules::variant::Variant;
use crate::search::params::SearchParams;
use crate::search::time::TimeManager;
use crate::search::{Clock, Info, Limits, MAX_DEPTH, Score, SearchOptions, skill, tt};

/// Search time per move when XBoard has sent no clock, no `st` and no `sd`.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);
/// CECP mate scores: 100000 + moves to mate.
const MATE_SCORE: i64 = 100_000;

/// Where a person lifted a piece from: a board square or one side's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lifted {
    Board(Square),
    Hand(Color),
}

/// What the worker is doing for the game.
enum Job {
    /// Thinking on the engine's move in this position.
    Think,
    /// Analyze mode: searching until told otherwise.
    Analyze,
    /// Pondering (`hard`): searching the position after the reply the engine expects, on
    /// the opponent's time, since this instant.
    Ponder { expected: Move, since: Instant },
}

/// Progress of the running search, for `.` in analyze mode.
#[derive(Clone, Copy, Default)]
struct Stat {
    depth: u32,
    nodes: u64,
    centis: u128,
    best: Option<Move>,
}

/// The CECP front end's state.
pub(crate) struct Cecp {
    worker: Worker,
    job: Option<Job>,
    stat: Arc<Mutex<Stat>>,
    variant: &'static Variant,
    pos: Position,
    /// Force mode: the engine plays neither side.
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    analyzing: bool,
    post: bool,
    /// The game has ended (claimed or `result` received): no more thinking until `new`.
    game_over: bool,
    moves_per_session: u32,
    /// The base time of the last `level` (`None` before any).
    base: Option<Duration>,
    increment: Duration,
    move_time: Option<Duration>,
    depth_limit: Option<u32>,
    own_clock: Option<Duration>,
    options: SearchOptions,
    multipv: u64,
    overhead_ms: u64,
    /// Where a person lifted a piece from.
    lifted: Option<Lifted>,
    /// Option `SetupFEN`: the position `variant` starts from (and sends in `setup`) instead
    /// of the variant's start position, when it is a valid FEN of that variant (empty or
    /// `startpos`: the start position). It lets a match start from a thematic position,
    /// which XBoard cannot load itself before the engine has defined the board. It is not
    /// announced as a `feature option`: XBoard 4.9.1 corrupts its heap when it sends long
    /// string option values, so it is set with `option SetupFEN=...` in XBoard's init string.
    setup_fen: String,
    /// `hard`: ponder on the expected reply after each move; `easy` turns it off.
    ponder: bool,
}

impl Cecp {
    pub(crate) fn new(events: Sender<Event>) -> Result<Cecp, String> {
        let variant = Variant::chess();
        Ok(Cecp {
            worker: Worker::new(events, |m| send(&format!("tellusererror {m}")))?,
            job: None,
            stat: Arc::new(Mutex::new(Stat::default())),
            variant,
            pos: Position::startpos(variant),
            force: false,
            engine_side: Color::Black,
            analyzing: false,
            post: false,
            game_over: false,
            moves_per_session: 0,
            base: None,
            increment: Duration::ZERO,
            move_time: None,
            depth_limit: None,
            own_clock: None,
            options: SearchOptions::default(),
            multipv: 1,
            overhead_ms: OVERHEAD_DEFAULT_MS,
            lifted: None,
            setup_fen: String::new(),
            ponder: false,
        })
    }

    /// Ranks count from 0 on boards with exactly 10 ranks (XBoard's rule), else from 1.
    fn rank_base(&self) -> i32 {
        if self.variant.geometry.ranks() == 10 {
            0
        } else {
            1
        }
    }

    /// Serves commands until `quit` or end of input (`xboard` has been read).
    pub(crate) fn run(mut self, rx: &Receiver<Event>) -> Result<(), String> {
        send("");
        super::serve(&mut self, rx)
    }

    /// Handles one line; `false` means quit.
    fn command(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "xboard" | "random" | "computer" | "name" | "rating" | "ics" | "accepted"
            | "rejected" | "draw" | "bk" => {
                log::info!("noted: {line}");
            }
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if matches!(self.job, Some(Job::Ponder { .. })) {
                    self.abort();
                }
            }
            "hint" => {
                if let Some(Job::Ponder { expected, .. }) = self.job {
                    let text = cecp_text(self.pos.move_text(expected, self.rank_base()));
                    send(&format!("Hint: {text}"));
                }
            }
            "protover" => self.features(),
            // Inspection, as comment lines (which XBoard shows in its debug output only).
            "d" => {
                for l in super::inspect::board_text(&self.pos).lines() {
                    send(&format!("# {l}"));
                }
            }
            "eval" => {
                for l in super::inspect::eval_text(&self.pos, &self.options).lines() {
                    send(&format!("# {l}"));
                }
            }
            "new" => self.new_game(),
            "variant" => self.set_variant(rest),
            "force" => {
                self.abort();
                self.force = true;
            }
            "go" => {
                self.abort();
                self.force = false;
                self.engine_side = self.pos.side_to_move();
                self.think_if_our_turn();
            }
            "playother" => {
                self.abort();
                self.force = false;
                self.engine_side = self.pos.side_to_move().flip();
            }
            "white" | "black" => {
                self.abort();
                self.engine_side = if cmd == "white" {
                    Color::Black
                } else {
                    Color::White
                };
            }
            "usermove" => self.user_move(rest),
            "setboard" => self.setboard(rest),
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "level" => self.level(rest, line),
            "st" => match parse_seconds(rest) {
                Some(t) => {
                    self.move_time = Some(t);
                }
                None => error("bad number", line),
            },
            "sd" => match parse_clamped(rest, MAX_DEPTH as u64) {
                Some(d) => self.depth_limit = Some((d as u32).max(1)),
                None => error("bad number", line),
            },
            "time" => match parse_clamped(rest, u64::MAX / 100) {
                Some(cs) => self.own_clock = Some(Duration::from_millis(cs * 10)),
                None => error("bad number", line),
            },
            "otim" => {
                if parse_clamped(rest, u64::MAX).is_none() {
                    error("bad number", line);
                }
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.abort();
                self.analyzing = true;
                self.force = true;
                self.start_analysis();
            }
            "exit" => {
                if self.analyzing {
                    self.abort();
                    self.analyzing = false;
                }
            }
            "." => {
                if self.analyzing {
                    self.report_stat();
                }
            }
            "?" => {
                if matches!(self.job, Some(Job::Think))
                    && let Some(outcome) = self.worker.stop()
                {
                    self.finished(outcome);
                }
            }
            "memory" => match parse_clamped(rest, tt::MAX_MB as u64) {
                Some(mb) => self.worker.set_hash(mb.max(1) as usize),
                None => error("bad number", line),
            },
            "cores" => match parse_clamped(rest, u64::MAX) {
                Some(n) => self.worker.set_threads(n),
                None => error("bad number", line),
            },
            "option" => self.option(rest, line),
            "result" => {
                self.abort();
                self.game_over = true;
            }
            "ping" => send(&format!("pong {rest}")),
            "lift" => self.lift(rest, line),
            "put" => {
                self.lifted = None;
                self.highlight(&[]);
            }
            "hover" => self.hover(rest, line),
            "quit" => return false,
            _ => {
                // Protocol version 1 GUIs send moves without `usermove`: anything that reads
                // as a move of this board is answered as one, legal or not.
                let as_move = self.pos.clone().parse_move(cmd, self.rank_base());
                if rest.is_empty() && !matches!(as_move, Err(MoveError::Malformed { .. })) {
                    self.user_move(cmd);
                } else {
                    error("unknown command", line);
                }
            }
        }
        true
    }

    fn features(&self) {
        send("feature done=0");
        let variants = cecp_names();
        send(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=1 reuse=1 analyze=1 sigint=0 \
             sigterm=0 san=0 colors=0 name=0 ics=0 pause=0 memory=1 smp=1 debug=1 highlight=1 \
             exclude=0 setscore=0 myname=\"Sissa {}\" variants=\"{}\"",
            env!("CARGO_PKG_VERSION"),
            variants.join(",")
        ));
        send(&format!(
            "feature option=\"MultiPV -spin 1 1 {MULTIPV_MAX}\""
        ));
        send(&format!(
            "feature option=\"Move Overhead -spin {OVERHEAD_DEFAULT_MS} 0 {OVERHEAD_MAX_MS}\""
        ));
        send(&format!(
            "feature option=\"{SKILL_LEVEL} -spin {0} 0 {0}\"",
            skill::FULL_LEVEL
        ));
        send(&format!("feature option=\"{LIMIT_STRENGTH} -check 0\""));
        send(&format!(
            "feature option=\"{UCI_ELO} -spin {max} {} {max}\"",
            skill::ELO_MIN,
            max = skill::ELO_MAX
        ));
        let defaults = SearchOptions::default();
        for (name, get, _) in SEARCH_SWITCHES {
            send(&format!(
                "feature option=\"{name} -check {}\"",
                u8::from(get(&defaults))
            ));
        }
        send("feature done=1");
    }

    fn new_game(&mut self) {
        self.abort();
        self.variant = Variant::chess();
        self.pos = Position::startpos(self.variant);
        self.force = false;
        self.engine_side = Color::Black;
        self.analyzing = false;
        self.game_over = false;
        self.depth_limit = None;
        self.lifted = None;
        if let Some(s) = self.worker.searcher() {
            s.clear();
        }
    }

    fn set_variant(&mut self, name: &str) {
        let Some(v) = Variant::by_name(name) else {
            error(
                &format!("unknown variant; known: {}", variant_list()),
                &format!("variant {name}"),
            );
            return;
        };
        self.abort();
        self.variant = v;
        self.pos = Position::startpos(v);
        if !self.setup_fen.is_empty() && self.setup_fen != "startpos" {
            match Position::from_fen(v, &self.setup_fen) {
                Ok(p) => self.pos = p,
                Err(e) => log::warn!(
                    "SetupFEN is not a {} position ({e}); using the start",
                    v.spec.id
                ),
            }
        }
        self.game_over = false;
        self.lifted = None;
        if let Some(line) = setup_line(v, &self.pos.fen()) {
            send(&line);
        }
        for line in piece_lines(v) {
            send(&line);
        }
    }

    fn user_move(&mut self, text: &str) {
        let text = text.trim();
        let mv = match self.pos.parse_move(text, self.rank_base()) {
            Ok(mv) => mv,
            Err(e) => {
                send(&format!("Illegal move ({}): {text}", e.reason()));
                return;
            }
        };
        if mv.is_null() && !self.analyzing {
            send(&format!(
                "Illegal move (a null move is only for analysis): {text}"
            ));
            return;
        }
        if let Some(Job::Ponder { expected, since }) = self.job
            && expected == mv
        {
            self.ponder_hit(mv, since);
            return;
        }
        self.abort();
        self.pos.make(mv);
        self.lifted = None;
        if self.analyzing {
            self.start_analysis();
            return;
        }
        if self.claim_if_over() {
            return;
        }
        self.think_if_our_turn();
    }

    fn setboard(&mut self, fen: &str) {
        self.abort();
        match Position::from_fen(self.variant, fen) {
            Ok(p) => {
                self.pos = p;
                self.game_over = false;
                self.lifted = None;
            }
            Err(e) => send(&format!("tellusererror Illegal position: {e}")),
        }
        self.resume_analysis();
    }

    fn take_back(&mut self, plies: usize, line: &str) {
        self.abort();
        if self.pos.ply() < plies {
            error("no move to undo", line);
            self.resume_analysis();
            return;
        }
        for _ in 0..plies {
            self.pos.unmake();
        }
        self.game_over = false;
        self.lifted = None;
        self.resume_analysis();
    }

    fn level(&mut self, args: &str, line: &str) {
        let parts: Vec<&str> = args.split_whitespace().collect();
        let [mps, base, inc] = parts[..] else {
            error("expected level MPS BASE INC", line);
            return;
        };
        match (
            parse_clamped(mps, u32::MAX as u64),
            parse_minutes(base),
            parse_seconds(inc),
        ) {
            (Some(m), Some(b), Some(i)) => {
                self.moves_per_session = m as u32;
                self.base = Some(b);
                self.increment = i;
                self.move_time = None;
            }
            _ => error("bad number", line),
        }
    }

    fn option(&mut self, args: &str, line: &str) {
        let (name, value) = match args.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (args.trim(), ""),
        };
        match set_strength(&mut self.options, name, value) {
            Some(Ok(Some(note))) => return send(&format!("telluser {note}")),
            Some(Ok(None)) => return,
            Some(Err(e)) => return error(&e, line),
            None => {}
        }
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "multipv" => match parse_clamped(value, MULTIPV_MAX) {
                Some(n) => self.multipv = n.max(1),
                None => error("bad option value", line),
            },
            "move overhead" => match parse_clamped(value, OVERHEAD_MAX_MS) {
                Some(ms) => self.overhead_ms = ms,
                None => error("bad option value", line),
            },
            "setupfen" => self.setup_fen = value.to_string(),
            "variantpath" => match load_variants(value) {
                Ok(text) => {
                    send(&format!("telluser {text}"));
                    send(&format!("feature variants=\"{}\"", cecp_names().join(",")));
                }
                Err(e) => error(&format!("VariantPath: {e}"), line),
            },
            "evalfile" => {
                if let Err(e) = set_eval_file(&mut self.options, value) {
                    error(&format!("EvalFile: {e}"), line);
                }
            }
            "tune" => match SearchParams::read(value) {
                Ok(values) => self.options.tune = values,
                Err(e) => error(&format!("Tune: {e}"), line),
            },
            _ => match parse_bool(value) {
                Some(b) if set_switch(&mut self.options, name, b).is_some() => {}
                Some(_) => error("unknown option", line),
                None => error("bad option value", line),
            },
        }
    }

    /// Claims the game's end if the position has ended it; `true` if it has.
    fn claim_if_over(&mut self) -> bool {
        if let Some(o) = self.pos.outcome() {
            send(&format!("{} {{{}}}", o.result(), o.reason()));
            self.game_over = true;
            return true;
        }
        false
    }

    /// The opponent played the move the engine was pondering on: the ponder search goes on
    /// as the search of this move. If it has already run for this move's whole target, its
    /// move is played at once.
    fn ponder_hit(&mut self, mv: Move, since: Instant) {
        self.pos.make(mv);
        self.lifted = None;
        if self.claim_if_over() {
            self.abort();
            return;
        }
        self.job = Some(Job::Think);
        let (soft, _) = TimeManager::budget(&self.think_limits());
        if soft.is_none_or(|t| since.elapsed() >= t) {
            if let Some(outcome) = self.worker.stop() {
                self.finished(outcome);
            }
        } else if let Some(c) = self.worker.control() {
            c.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// After the engine's move: ponder on the reply its search expects, if `hard` is on.
    fn start_pondering(&mut self, expected: Option<Move>) {
        if !self.ponder || self.force || self.analyzing || self.game_over {
            return;
        }
        let Some(expected) = expected.filter(|m| self.pos.legal_moves().contains(m)) else {
            return;
        };
        let mut root = self.pos.clone();
        root.make(expected);
        if root.clone().outcome().is_some() {
            return;
        }
        let limits = self.think_limits();
        self.start_on(
            Job::Ponder {
                expected,
                since: Instant::now(),
            },
            limits,
            root,
            true,
        );
    }

    fn think_if_our_turn(&mut self) {
        if self.force || self.analyzing || self.pos.side_to_move() != self.engine_side {
            return;
        }
        if self.game_over || self.claim_if_over() {
            return;
        }
        let limits = self.think_limits();
        log::info!(
            "think: movetime {:?}, clock {:?}, depth {:?}",
            limits.movetime,
            limits.clock,
            limits.depth
        );
        self.start(Job::Think, limits);
    }

    /// The limits of a move of the engine's: `st` wins over the clock; `sd` limits the depth
    /// on top of either, and alone it is the only limit. With none of `level`, `time`, `st`
    /// and `sd` a move takes 5 s.
    fn think_limits(&self) -> Limits {
        let mut limits = self.limits();
        if let Some(t) = self.move_time {
            limits.movetime = Some(t);
        } else if let Some(time) = self.own_clock.or(self.base) {
            let moves_to_go = if self.moves_per_session > 0 {
                let done = (self.pos.fullmove_number().saturating_sub(1)) % self.moves_per_session;
                Some(self.moves_per_session - done)
            } else {
                None
            };
            limits.clock = Some(Clock {
                time,
                inc: self.increment,
                moves_to_go,
            });
        } else if self.depth_limit.is_none() {
            limits.movetime = Some(DEFAULT_MOVE_TIME);
        }
        if let Some(d) = self.depth_limit {
            limits.depth = Some(d);
        }
        limits
    }

    fn start_analysis(&mut self) {
        if self.pos.clone().legal_moves().is_empty() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..self.limits()
        };
        self.start(Job::Analyze, limits);
    }

    /// Restarts analysis after a change to the position, if in analyze mode.
    fn resume_analysis(&mut self) {
        if self.analyzing && !self.worker.busy() {
            self.start_analysis();
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            multipv: self.multipv as usize,
            move_overhead: Duration::from_millis(self.overhead_ms),
            ..Limits::default()
        }
    }

    fn start(&mut self, job: Job, limits: Limits) {
        let root = self.pos.clone();
        self.start_on(job, limits, root, false);
    }

    /// Starts `job`, a search of `root` (pondering when `pondering`).
    fn start_on(&mut self, job: Job, limits: Limits, root: Position, pondering: bool) {
        if let Some(s) = self.worker.searcher() {
            s.options = self.options.clone();
        }
        *lock(&self.stat) = Stat::default();
        let search_root = root.clone();
        let post = self.post || matches!(job, Job::Analyze);
        let base = self.rank_base();
        let stat = Arc::clone(&self.stat);
        let started = Instant::now();
        let report = Box::new(move |info: &Info| {
            let centis = started.elapsed().max(info.time).as_millis() / 10;
            *lock(&stat) = Stat {
                depth: info.depth,
                nodes: info.nodes,
                centis,
                best: info.pv.first().copied(),
            };
            if post {
                let score = match info.score {
                    Score::Cp(cp) => cp as i64,
                    Score::Mate(n) if n > 0 => MATE_SCORE + n as i64,
                    Score::Mate(n) => -MATE_SCORE + n as i64,
                };
                let pv: Vec<String> = pv_text(&root, &info.pv, base)
                    .into_iter()
                    .map(cecp_text)
                    .collect();
                send(&format!(
                    "{} {score} {centis} {} {}",
                    info.depth,
                    info.nodes,
                    pv.join(" ")
                ));
            }
        });
        self.worker
            .start_search(search_root, limits, pondering, report);
        self.job = Some(job);
    }

    /// Stops whatever the worker does, without playing its move.
    fn abort(&mut self) {
        self.worker.stop();
        self.job = None;
    }

    fn finished(&mut self, outcome: Outcome) {
        let job = self.job.take();
        let (Some(Job::Think), Outcome::Search(result)) = (job, outcome) else {
            return;
        };
        let legal = self.pos.legal_moves();
        let Some(mv) = result
            .best
            .filter(|m| legal.contains(m))
            .or_else(|| legal.first().copied())
        else {
            self.claim_if_over();
            return;
        };
        let text = cecp_text(self.pos.move_text(mv, self.rank_base()));
        self.pos.make(mv);
        // A two-leg move goes out one leg a command, a comma marking that more follows.
        match text.split_once(',') {
            Some((first, second)) => {
                send(&format!("move {first},"));
                send(&format!("move {second}"));
            }
            None => send(&format!("move {text}")),
        }
        if !self.claim_if_over() {
            let expected = result.ponder.filter(|_| result.best == Some(mv));
            self.start_pondering(expected);
        }
    }

    fn report_stat(&self) {
        let s = *lock(&self.stat);
        let total = self.pos.clone().legal_moves().len();
        let best = s
            .best
            .map(|m| cecp_text(pv_text(&self.pos, &[m], self.rank_base()).join("")))
            .unwrap_or_default();
        send(&format!(
            "stat01: {} {} {} {total} {total} {best}",
            s.centis, s.nodes, s.depth
        ));
    }

    /// `lift SQ`: mark every legal destination of the piece on SQ (or of the hand piece).
    fn lift(&mut self, text: &str, line: &str) {
        let Some(from) = self.lift_square(text) else {
            error("not a square of this board", line);
            return;
        };
        self.lifted = Some(from);
        let targets = self.targets(from);
        self.highlight(&targets);
    }

    fn hover(&mut self, text: &str, line: &str) {
        if self.lift_square(text).is_none() {
            error("not a square of this board", line);
            return;
        }
        match self.lifted {
            Some(from) => {
                let targets = self.targets(from);
                self.highlight(&targets);
            }
            None => self.highlight(&[]),
        }
    }

    /// Reads the square of `lift`: a board square, or a hand square. XBoard names hand
    /// squares by their place beside the board (two files left of `a` for Black's hand, two
    /// right of the last file for White's: `_9` and `l0` on Venomous; the files between are
    /// accepted too), on a rank of the board; `J@` is accepted for the side to move.
    fn lift_square(&self, text: &str) -> Option<Lifted> {
        let g = &self.variant.geometry;
        if let Some(sq) = g.parse_square_exact(text, self.rank_base()) {
            return Some(Lifted::Board(sq));
        }
        self.variant.spec.hand?;
        if text.ends_with('@') && text.len() == 2 {
            return Some(Lifted::Hand(self.pos.side_to_move()));
        }
        let file = i32::from(*text.as_bytes().first()?) - i32::from(b'a');
        let rank = text.get(1..)?;
        if rank.is_empty() || rank.len() > 2 || !rank.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let rank = rank.parse::<i32>().ok()? - self.rank_base();
        if !(0..g.ranks() as i32).contains(&rank) {
            return None;
        }
        let files = g.files() as i32;
        match file {
            -2 | -1 => Some(Lifted::Hand(Color::Black)),
            f if f == files || f == files + 1 => Some(Lifted::Hand(Color::White)),
            _ => None,
        }
    }

    /// Legal destinations of the lifted piece, with whether each is a capture. A piece of
    /// the side not to move has none.
    fn targets(&self, lifted: Lifted) -> Vec<(Square, bool)> {
        let mut pos = self.pos.clone();
        let legal = pos.legal_moves();
        let mut out: Vec<(Square, bool)> = Vec::new();
        for mv in legal {
            let (origin, dest) = match mv.kind {
                MoveKind::Drop => (Lifted::Hand(pos.side_to_move()), mv.to),
                MoveKind::Castle => {
                    let c = &self.variant.castlings[pos.side_to_move().index()][mv.extra as usize];
                    (Lifted::Board(mv.from), c.king_to)
                }
                _ => (Lifted::Board(mv.from), mv.to),
            };
            if origin != lifted {
                continue;
            }
            let capture = pos
                .piece_at(dest)
                .is_some_and(|p| p.color != pos.side_to_move())
                || mv.kind == MoveKind::EnPassant;
            if !out.iter().any(|&(s, _)| s == dest) {
                out.push((dest, capture));
            }
            if mv.kind == MoveKind::Castle {
                // A person may also drop the king onto its own rook to castle.
                let c = &self.variant.castlings[pos.side_to_move().index()][mv.extra as usize];
                if !out.iter().any(|&(s, _)| s == c.rook_from) {
                    out.push((c.rook_from, false));
                }
            }
        }
        out
    }

    /// Sends `highlight` with the targets marked: yellow for moves, red for captures.
    fn highlight(&self, targets: &[(Square, bool)]) {
        let g = &self.variant.geometry;
        let mut ranks = Vec::with_capacity(g.ranks() as usize);
        for rank in (0..g.ranks() as i32).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..g.files() as i32 {
                let mark = g
                    .square(file, rank)
                    .and_then(|sq| targets.iter().find(|&&(s, _)| s == sq))
                    .map(|&(_, capture)| if capture { 'R' } else { 'Y' });
                match mark {
                    Some(c) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            ranks.push(row);
        }
        send(&format!("highlight {}", ranks.join("/")));
    }
}

fn lock(stat: &Mutex<Stat>) -> std::sync::MutexGuard<'_, Stat> {
    stat.lock().unwrap_or_else(|e| e.into_inner())
}

/// A move as CECP writes it: XBoard reads a trailing `x` as the start of a multi-leg
/// capture, never as a promotion piece, so a promotion to the Sorcerer Snake (letter X) is
/// written with the piece in parentheses, `i2i0(x)`, a form XBoard's parser also accepts
/// (found when XBoard forfeited Sissa for `i2i0x`); [`Position::parse_move`] reads it too.
fn cecp_text(text: String) -> String {
    match text.strip_suffix('x') {
        Some(head) => format!("{head}(x)"),
        None => text,
    }
}

/// `Error (reason): command`, CECP's answer to a command the engine cannot use.
fn error(reason: &str, command: &str) {
    send(&format!("Error ({reason}): {command}"));
}

/// The names of every known variant in XBoard's `variant` command.
fn cecp_names() -> Vec<&'static str> {
    Variant::known().iter().map(|v| v.spec.cecp_name).collect()
}

fn variant_list() -> String {
    cecp_names().join(", ")
}

/// Seconds, possibly with a fraction (`st 0.5`, increments); clamped to a day.
fn parse_seconds(text: &str) -> Option<Duration> {
    let t = text.trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let secs = parse_clamped(if whole.is_empty() { "0" } else { whole }, 86_400)?;
    if !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let millis: u64 = format!("{frac:0<3}")[..3].parse().unwrap_or(0);
    Some(Duration::from_millis(secs * 1000 + millis))
}

/// `level`'s base time: minutes, or `minutes:seconds`.
fn parse_minutes(text: &str) -> Option<Duration> {
    match text.split_once(':') {
        Some((m, s)) => {
            let m = parse_clamped(m, 100_000)?;
            let s = parse_clamped(s, 59)?;
            Some(Duration::from_secs(m * 60 + s))
        }
        None => Some(Duration::from_secs(parse_clamped(text, 100_000)? * 60)),
    }
}

/// The XBoard piece slot Sissa's piece is drawn with. XBoard's slot order (common.h) starts
/// Pawn, Knight, Bishop, Rook, Queen, Ferz, Alfil, Angel, Marshall, Wazir, Man, Cannon,
/// Nightrider, Cardinal, Dragon, ...; the king is always the last letter of each half. The
/// images named here are what XBoard 4.9.1 draws in each slot (checked on screen).
fn slot(variant: &Variant, role: Role) -> usize {
    if role.is_custom() {
        return custom_slot(variant, role);
    }
    match (variant.spec.hand.is_some(), role) {
        // In a `bughouse` game XBoard holds only the first slots in hand: the Ninja pawn must
        // take the Pawn slot, and the Pawn moves to the Lance (an arrow).
        (true, Role::Ninja) => 0,
        (true, Role::Pawn) => 18,
        (_, Role::Pawn) => 0,
        (_, Role::Knight) => 1,
        (_, Role::Bishop) => 2,
        (_, Role::Rook) => 3,
        (_, Role::Queen) => 4,
        // Ferz image (an advisor's hat) and Wazir image (a shogi general).
        (_, Role::FerzKnight) => 5,
        (_, Role::WazirKnight) => 9,
        // A queen with a knight's head.
        (_, Role::Amazon) => 15,
        // XBoard's Angel and Marshall slots: its own archbishop and chancellor.
        (_, Role::Archbishop) => 7,
        (_, Role::Chancellor) => 8,
        // A snake's head (Cobra).
        (_, Role::Snake) => 19,
        // A unicorn: distinct from every orthodox piece.
        (_, Role::Venator) => 20,
        // A wizard's hat: the Sissa's crooked move has no orthodox look-alike.
        (_, Role::Sissa) => 35,
        (_, Role::Ninja) => 0,
        (_, Role::King) => usize::MAX,
        _ => usize::MAX - 1,
    }
}

/// The slot of a file's piece: XBoard's own piece of the same moves when it has one and the
/// slot is free (Ferz, Alfil, Wazir, Man, Cannon, Nightrider), else the next free slot.
fn custom_slot(variant: &Variant, role: Role) -> usize {
    const FREE: [usize; 28] = [
        5, 6, 9, 10, 11, 12, 13, 14, 16, 17, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
        34, 36, 37, 38, 39,
    ];
    let army = variant.spec.army;
    let mut taken: Vec<usize> = army
        .iter()
        .filter(|r| !r.is_custom() && **r != Role::King)
        .map(|&r| slot(variant, r))
        .collect();
    for &r in army.iter().filter(|r| r.is_custom()) {
        let own = match crate::rules::pattern::custom(r).map(|c| c.betza.text()) {
            Some("F") => Some(5),
            Some("A") => Some(6),
            Some("W") => Some(9),
            Some("K") => Some(10),
            Some("mRcpR") => Some(11),
            Some("NN" | "N0") => Some(12),
            _ => None,
        };
        let s = own
            .filter(|s| !taken.contains(s))
            .or_else(|| FREE.iter().copied().find(|s| !taken.contains(s)))
            .unwrap_or(39);
        if r == role {
            return s;
        }
        taken.push(s);
    }
    39
}

/// The `setup` line for a variant XBoard does not know (`None` for orthodox chess).
fn setup_line(v: &Variant, fen: &str) -> Option<String> {
    if v.spec.id == "chess" {
        return None;
    }
    let slots = v
        .spec
        .army
        .iter()
        .filter(|&&r| r != Role::King)
        .map(|&r| slot(v, r))
        .max()
        .unwrap_or(0)
        + 1;
    let mut white = vec!['.'; slots + 1];
    for &role in v.spec.army {
        let s = slot(v, role);
        let at = if s == usize::MAX { slots } else { s };
        white[at] = v.letter(role);
    }
    let black: String = white.iter().map(|c| c.to_ascii_lowercase()).collect();
    let white: String = white.into_iter().collect();
    let (hand, parent) = match v.spec.hand {
        Some(_) => (1, "bughouse"),
        None => (0, "fairy"),
    };
    Some(format!(
        "setup ({white}{black}) {}x{}+{hand}_{parent} {fen}",
        v.geometry.files(),
        v.geometry.ranks(),
    ))
}

/// `piece` lines in XBetza for the pieces XBoard does not know, so it can highlight their
/// moves and write their SAN itself.
fn piece_lines(v: &Variant) -> Vec<String> {
    v.spec
        .army
        .iter()
        .filter(|role| !role.is_orthodox())
        .filter_map(|&role| {
            let betza = crate::rules::pattern::pattern(role).xbetza?;
            Some(format!("piece {}& {betza}", v.letter(role)))
        })
        .collect()
}

impl super::Frontend for Cecp {
    fn command(&mut self, line: &str) -> bool {
        Cecp::command(self, line)
    }

    fn job_done(&mut self, id: u64) {
        if let Some(outcome) = self.worker.finish(id) {
            self.finished(outcome);
        }
    }

    fn shutdown(&mut self) {
        self.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_lines_name_every_piece() {
        let venator = setup_line(Variant::by_name("venator").unwrap(), "F").unwrap();
        assert!(venator.starts_with("setup (PNBRQ"), "{venator}");
        assert!(venator.ends_with(" 10x8+0_fairy F"), "{venator}");
        let venomous = setup_line(Variant::by_name("venomous").unwrap(), "F").unwrap();
        assert!(venomous.contains(" 10x10+1_bughouse "), "{venomous}");
        assert!(venomous.starts_with("setup (J"), "{venomous}");
        assert!(setup_line(Variant::chess(), "F").is_none());
        for v in Variant::all() {
            if let Some(line) = setup_line(v, v.spec.start_fen) {
                let table = &line[7..line.find(')').unwrap()];
                assert_eq!(table.len() % 2, 0);
                for &role in v.spec.army {
                    assert!(table.contains(v.letter(role)), "{line}");
                }
            }
        }
    }

    #[test]
    fn a_snake_promotion_is_written_so_that_xboard_reads_it() {
        let v = Variant::by_name("venomous").unwrap();
        let mut pos =
            Position::from_fen(v, "4k5/2P7/10/10/10/10/10/10/10/4K5[] w - - 0 1").expect("FEN");
        let promotions: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.promotion_role().is_some())
            .collect();
        assert!(
            promotions
                .iter()
                .any(|m| m.promotion_role() == Some(Role::Snake))
        );
        for mv in promotions {
            let text = cecp_text(pos.move_text(mv, 0));
            assert!(!text.ends_with('x'), "{text}");
            assert_eq!(pos.parse_move(&text, 0), Ok(mv), "{text}");
        }
        assert_eq!(cecp_text("c8c9x".to_string()), "c8c9(x)");
    }

    #[test]
    fn times_parse() {
        assert_eq!(parse_seconds("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_minutes("0:30"), Some(Duration::from_secs(30)));
        assert_eq!(parse_minutes("2"), Some(Duration::from_secs(120)));
        assert_eq!(parse_seconds("x"), None);
    }
}
