//! UCI, with Fairy-Stockfish's `UCI_Variant` extension.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use super::engine::{Outcome, Worker, pv_text};
use super::{
    Event, LIMIT_STRENGTH, MULTIPV_MAX, OVERHEAD_DEFAULT_MS, OVERHEAD_MAX_MS, SEARCH_SWITCHES,
    SKILL_LEVEL, UCI_ELO, load_variants, parse_bool, parse_clamped, send, set_eval_file,
    set_strength, set_switch,
};
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::search::{
    Bound, Clock, Info, Limits, MAX_DEPTH, MAX_THREADS, Score, SearchOptions, SearchResult,
    params::SearchParams, skill, tt,
};

/// The words of `go` that start a limit or a mode.
const GO_KEYS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "perft",
    "searchmoves",
];

/// UCI ranks count from 1 on every board.
const RANK_BASE: i32 = 1;

/// The words of the last `position` command that built the engine's position.
struct Built {
    setup: Vec<String>,
    moves: Vec<String>,
}

/// The UCI front end's state.
pub(crate) struct Uci {
    worker: Worker,
    variant: &'static Variant,
    pos: Position,
    /// The `position` command words that `pos` was built from, while nothing else changed
    /// it: a command that repeats them and adds moves only plays the new moves.
    built: Option<Built>,
    options: SearchOptions,
    multipv: u64,
    overhead_ms: u64,
    /// A search result held back because the GUI still waits for `stop` or `ponderhit`
    /// (`go infinite`, `go ponder`).
    held: Option<(SearchResult, Position)>,
    /// Whether the running search must wait for `stop` or `ponderhit` before `bestmove`.
    hold: bool,
    /// The position of the running search, for its `bestmove` line.
    searched: Option<Position>,
}

impl Uci {
    pub(crate) fn new(events: Sender<Event>) -> Result<Uci, String> {
        let variant = Variant::chess();
        Ok(Uci {
            worker: Worker::new(events, |m| send(&format!("info string error: {m}")))?,
            variant,
            pos: Position::startpos(variant),
            built: None,
            options: SearchOptions::default(),
            multipv: 1,
            overhead_ms: OVERHEAD_DEFAULT_MS,
            held: None,
            hold: false,
            searched: None,
        })
    }

    /// Answers `uci`, then serves commands until `quit` or end of input.
    pub(crate) fn run(mut self, rx: &Receiver<Event>) -> Result<(), String> {
        self.identify();
        super::serve(&mut self, rx)
    }

    fn identify(&self) {
        send(&format!("id name Sissa {}", env!("CARGO_PKG_VERSION")));
        send("id author the Sissa developers");
        let variants: Vec<String> = Variant::known()
            .iter()
            .map(|v| format!("var {}", v.spec.id))
            .collect();
        send(&format!(
            "option name UCI_Variant type combo default chess {}",
            variants.join(" ")
        ));
        send(&format!(
            "option name Hash type spin default {} min 1 max {}",
            tt::DEFAULT_MB,
            tt::MAX_MB
        ));
        send(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        send(&format!(
            "option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"
        ));
        send(&format!(
            "option name Move Overhead type spin default {OVERHEAD_DEFAULT_MS} min 0 max {OVERHEAD_MAX_MS}"
        ));
        send("option name Ponder type check default false");
        send(&format!(
            "option name {SKILL_LEVEL} type spin default {0} min 0 max {0}",
            skill::FULL_LEVEL
        ));
        send(&format!(
            "option name {LIMIT_STRENGTH} type check default false"
        ));
        send(&format!(
            "option name {UCI_ELO} type spin default {max} min {} max {max}",
            skill::ELO_MIN,
            max = skill::ELO_MAX
        ));
        send("option name Tune type string default <empty>");
        send("option name EvalFile type string default <empty>");
        send("option name VariantPath type string default <empty>");
        let defaults = SearchOptions::default();
        for (name, get, _) in SEARCH_SWITCHES {
            send(&format!(
                "option name {name} type check default {}",
                get(&defaults)
            ));
        }
        send("uciok");
    }

    /// Handles one line; `false` means quit.
    fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else {
            return true;
        };
        let args = &tokens[1..];
        match cmd {
            "uci" => self.identify(),
            "isready" => send("readyok"),
            "debug" => {}
            "setoption" => self.setoption(args),
            "ucinewgame" => {
                self.stop_search();
                self.pos = Position::startpos(self.variant);
                self.built = None;
                if let Some(s) = self.worker.searcher() {
                    s.clear();
                }
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => {
                self.hold = false;
                if let Some((result, pos)) = self.held.take() {
                    bestmove(&result, &pos);
                } else if let Some(c) = self.worker.control() {
                    c.stop.store(true, Ordering::Relaxed);
                    c.pondering.store(false, Ordering::Relaxed);
                }
            }
            "ponderhit" => {
                self.hold = false;
                if let Some((result, pos)) = self.held.take() {
                    bestmove(&result, &pos);
                } else if let Some(c) = self.worker.control() {
                    c.pondering.store(false, Ordering::Relaxed);
                }
            }
            "quit" => return false,
            "d" => {
                for l in super::inspect::board_text(&self.pos).lines() {
                    send(l);
                }
                // The line scripts read.
                send(&format!("info string fen {}", self.pos.fen()));
            }
            "eval" => {
                for l in super::inspect::eval_text(&self.pos, &self.options).lines() {
                    send(l);
                }
            }
            _ => send(&format!(
                "info string error: unknown command '{}'",
                line.trim()
            )),
        }
        true
    }

    fn setoption(&mut self, args: &[&str]) {
        let name_at = args.iter().position(|t| t.eq_ignore_ascii_case("name"));
        let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let Some(name_at) = name_at else {
            send("info string error: setoption needs `name NAME [value VALUE]`");
            return;
        };
        let name_end = value_at.filter(|&v| v > name_at).unwrap_or(args.len());
        let name = args[name_at + 1..name_end].join(" ");
        let value = value_at
            .map(|v| args[v + 1..].join(" "))
            .unwrap_or_default();
        let lower = name.to_ascii_lowercase();
        let number = |max: u64| parse_clamped(&value, max);
        match set_strength(&mut self.options, &name, &value) {
            Some(Ok(Some(note))) => return send(&format!("info string {note}")),
            Some(Ok(None)) => return,
            Some(Err(e)) => return send(&format!("info string error: {e}; unchanged")),
            None => {}
        }
        match lower.as_str() {
            "uci_variant" => match Variant::lookup(&value) {
                Ok(v) => {
                    self.variant = v;
                    self.pos = Position::startpos(v);
                    self.built = None;
                    let pocket = usize::from(v.spec.hand.is_some());
                    send(&format!(
                        "info string variant {} files {} ranks {} pocket {} template fairy startpos {}",
                        v.spec.id,
                        v.geometry.files(),
                        v.geometry.ranks(),
                        pocket,
                        v.spec.start_fen
                    ));
                }
                Err(e) => send(&format!("info string error: {e}")),
            },
            "hash" => match number(tt::MAX_MB as u64) {
                Some(mb) => self.worker.set_hash(mb.max(1) as usize),
                None => bad_value(&name, &value),
            },
            "threads" => match number(u64::MAX) {
                Some(n) => self.worker.set_threads(n),
                None => bad_value(&name, &value),
            },
            "multipv" => match number(MULTIPV_MAX) {
                Some(n) => self.multipv = n.max(1),
                None => bad_value(&name, &value),
            },
            "move overhead" => match number(OVERHEAD_MAX_MS) {
                Some(ms) => self.overhead_ms = ms,
                None => bad_value(&name, &value),
            },
            "ponder" => {
                if parse_bool(&value).is_none() {
                    bad_value(&name, &value);
                }
            }
            "variantpath" => match load_variants(&value) {
                Ok(text) => send(&format!("info string {text}")),
                Err(e) => send(&format!(
                    "info string error: VariantPath: {e}; nothing loaded"
                )),
            },
            "evalfile" => match set_eval_file(&mut self.options, &value) {
                Ok(text) => send(&format!("info string {text}")),
                Err(e) => send(&format!("info string error: EvalFile: {e}; unchanged")),
            },
            "tune" => {
                let text = if value == "<empty>" { "" } else { &value };
                match SearchParams::read(text) {
                    Ok(values) => self.options.tune = values,
                    Err(e) => send(&format!("info string error: Tune: {e}; unchanged")),
                }
            }
            _ => match parse_bool(&value) {
                Some(b) => {
                    if set_switch(&mut self.options, &name, b).is_none() {
                        send(&format!("info string error: unknown option '{name}'"));
                    }
                }
                None => {
                    if SEARCH_SWITCHES
                        .iter()
                        .any(|(n, _, _)| n.eq_ignore_ascii_case(&name))
                    {
                        bad_value(&name, &value);
                    } else {
                        send(&format!("info string error: unknown option '{name}'"));
                    }
                }
            },
        }
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let moves = moves_at.map_or(&[][..], |at| &args[at + 1..]);
        // A GUI sends the whole game before every move. When the set-up and the moves the
        // position was built from come again, only the moves after them are played:
        // rebuilding took 1.6 ms at move 75 of a Venomous game, a tenth of a move's thinking
        // time at 1+0.01.
        let kept = self.built.take().filter(|b| {
            b.setup.iter().map(String::as_str).eq(setup.iter().copied())
                && moves.len() >= b.moves.len()
                && b.moves.iter().zip(moves).all(|(a, m)| a == m)
        });
        let mut built = match kept {
            Some(b) => b,
            None => {
                let pos = match setup.first() {
                    Some(&"startpos") if setup.len() == 1 => Position::startpos(self.variant),
                    Some(&"fen") if setup.len() > 1 => {
                        let fen = setup[1..].join(" ");
                        match Position::from_fen(self.variant, &fen) {
                            Ok(p) => p,
                            Err(e) => {
                                send(&format!(
                                    "info string error: bad FEN for {}: {e}; position unchanged",
                                    self.variant.spec.id
                                ));
                                return;
                            }
                        }
                    }
                    _ => {
                        send("info string error: expected `position startpos|fen FEN [moves ...]`");
                        return;
                    }
                };
                self.pos = pos;
                Built {
                    setup: setup.iter().map(|w| w.to_string()).collect(),
                    moves: Vec::new(),
                }
            }
        };
        for text in &moves[built.moves.len()..] {
            match self.pos.parse_move(text, RANK_BASE) {
                Ok(mv) => {
                    self.pos.make(mv);
                    built.moves.push(text.to_string());
                }
                Err(e) => {
                    send(&format!(
                        "info string error: {e}; position kept before this move"
                    ));
                    break;
                }
            }
        }
        self.built = Some(built);
    }

    fn go(&mut self, args: &[&str]) {
        if self.hold {
            send("info string error: already searching; send stop first");
            return;
        }
        // A search still running (a script that did not wait for `bestmove`) is stopped
        // first and gives its own `bestmove`.
        if let Some(outcome) = self.worker.stop() {
            self.finished(outcome);
        }
        let mut limits = Limits {
            multipv: self.multipv as usize,
            move_overhead: Duration::from_millis(self.overhead_ms),
            ..Limits::default()
        };
        let mut times = [None::<u64>; 2];
        let mut incs = [None::<u64>; 2];
        let mut movestogo = None;
        let mut ponder = false;
        let mut i = 0;
        let ms = u64::MAX / 4;
        let mut searchmoves_given = false;
        while i < args.len() {
            let key = args[i];
            // The token after a key is its value unless it is the next key (`go depth
            // movetime 100`): then the bad value is reported once and the next key still
            // counts.
            let value = args.get(i + 1).copied().filter(|t| !GO_KEYS.contains(t));
            let mut number = |max: u64| -> Option<u64> {
                let n = value.and_then(|v| parse_clamped(v, max));
                if value.is_some() {
                    i += 1;
                }
                if n.is_none() {
                    send(&format!(
                        "info string error: go {key} needs a number, not '{}'; ignored",
                        value.unwrap_or("")
                    ));
                }
                n
            };
            match key {
                "wtime" => times[0] = number(ms),
                "btime" => times[1] = number(ms),
                "winc" => incs[0] = number(ms),
                "binc" => incs[1] = number(ms),
                "movestogo" => movestogo = number(u32::MAX as u64).map(|n| n as u32),
                "depth" => limits.depth = number(MAX_DEPTH as u64).map(|n| n as u32),
                "nodes" => limits.nodes = number(u64::MAX),
                "mate" => limits.mate = number(MAX_DEPTH as u64).map(|n| n as u32),
                "movetime" => limits.movetime = number(ms).map(Duration::from_millis),
                "infinite" => limits.infinite = true,
                "ponder" => ponder = true,
                "perft" => {
                    let depth = number(crate::rules::perft::MAX_DEPTH as u64)
                        .unwrap_or(1)
                        .max(1);
                    self.worker.start_perft(self.pos.clone(), depth as u32);
                    return;
                }
                "searchmoves" => {
                    searchmoves_given = true;
                    while let Some(&text) = args.get(i + 1).filter(|t| !GO_KEYS.contains(t)) {
                        i += 1;
                        match self.pos.parse_move(text, RANK_BASE) {
                            Ok(mv) if !mv.is_null() => {
                                if !limits.searchmoves.contains(&mv) {
                                    limits.searchmoves.push(mv);
                                }
                            }
                            Ok(_) => send(&format!(
                                "info string error: searchmoves: the null move '{text}' is not searched"
                            )),
                            Err(e) => send(&format!("info string error: searchmoves: {e}")),
                        }
                    }
                }
                _ => send(&format!(
                    "info string error: unknown go parameter '{key}'; ignored"
                )),
            }
            i += 1;
        }
        if searchmoves_given && limits.searchmoves.is_empty() {
            send("info string error: searchmoves names no legal move; searching every move");
        }
        let side = self.pos.side_to_move().index();
        if let Some(t) = times[side] {
            limits.clock = Some(Clock {
                time: Duration::from_millis(t),
                inc: Duration::from_millis(incs[side].unwrap_or(0)),
                moves_to_go: movestogo,
            });
        }
        self.apply_settings();
        self.hold = limits.infinite || ponder;
        let root = self.pos.clone();
        self.searched = Some(root.clone());
        let started = Instant::now();
        let report = Box::new(move |info: &Info| uci_info(info, &root, started));
        self.worker
            .start_search(self.pos.clone(), limits, ponder, report);
    }

    /// Hands the options set since the last search to the searcher.
    fn apply_settings(&mut self) {
        if let Some(s) = self.worker.searcher() {
            s.options = self.options.clone();
        }
    }

    fn finished(&mut self, outcome: Outcome) {
        let pos = self.searched.take();
        if let (Outcome::Search(result), Some(pos)) = (outcome, pos) {
            if self.hold {
                self.held = Some((result, pos));
            } else {
                bestmove(&result, &pos);
            }
        }
    }

    /// Stops a running search and prints its `bestmove` (every `go` gets one).
    fn stop_search(&mut self) {
        self.hold = false;
        if let Some(outcome) = self.worker.stop() {
            self.finished(outcome);
        }
        if let Some((result, pos)) = self.held.take() {
            bestmove(&result, &pos);
        }
    }
}

fn bad_value(name: &str, value: &str) {
    send(&format!(
        "info string error: option '{name}' cannot take the value '{value}'"
    ));
}

fn bestmove(result: &SearchResult, pos: &Position) {
    let mut root = pos.clone();
    let legal = root.legal_moves();
    let best = result
        .best
        .filter(|m| legal.contains(m))
        .or_else(|| legal.first().copied());
    match best {
        None => send("bestmove (none)"),
        Some(mv) => {
            let text = root.move_text(mv, RANK_BASE);
            root.make(mv);
            let ponder = result
                .ponder
                .filter(|p| !p.is_null() && root.legal_moves().contains(p))
                .map(|p| root.move_text(p, RANK_BASE));
            match ponder {
                Some(p) => send(&format!("bestmove {text} ponder {p}")),
                None => send(&format!("bestmove {text}")),
            }
        }
    }
}

fn uci_info(info: &Info, root: &Position, started: Instant) {
    let elapsed = started.elapsed().max(info.time);
    let ms = elapsed.as_millis().max(1) as u64;
    let nps = info.nodes.saturating_mul(1000) / ms;
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let pv = pv_text(root, &info.pv, RANK_BASE);
    let pv = if pv.is_empty() {
        String::new()
    } else {
        format!(" pv {}", pv.join(" "))
    };
    send(&format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} time {}{pv}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv.max(1),
        info.nodes,
        info.hashfull,
        info.time.as_millis(),
    ));
}

impl super::Frontend for Uci {
    fn command(&mut self, line: &str) -> bool {
        Uci::command(self, line)
    }

    fn job_done(&mut self, id: u64) {
        if let Some(outcome) = self.worker.finish(id) {
            self.finished(outcome);
        }
    }

    fn shutdown(&mut self) {
        self.stop_search();
    }
}
