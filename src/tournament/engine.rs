//! Engine processes: the `--engine` spec, spawning, and the UCI and CECP (XBoard protocol 2)
//! dialogues a referee needs. Every wait has a deadline; a process that closes its output is
//! reported as gone, never waited on.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::tc::Limits;
use crate::rules::variant::Variant;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Cecp,
}

/// How to run one engine: `name=NAME cmd=COMMAND proto=uci|xboard [dir=DIR] [nodes=N]
/// [option.N=V]...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
    pub dir: Option<String>,
    pub proto: Proto,
    pub options: Vec<(String, String)>,
    /// A node limit of this engine's own (UCI only), in place of the match's `--nodes`.
    pub nodes: Option<u64>,
}

/// Splits text into words at whitespace; single or double quotes group words (quotes may
/// start mid-word, as in `cmd="python3 fake.py"`); a backslash escapes the next character
/// outside single quotes.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some('\\') if c == '"' => match chars.next() {
                            Some(e) => word.push(e),
                            None => return Err(format!("unterminated quote in '{text}'")),
                        },
                        Some(o) => word.push(o),
                        None => return Err(format!("unterminated quote in '{text}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(e) = chars.next() {
                    word.push(e);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl EngineSpec {
    /// Reads an `--engine` value.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let bad = |why: String| format!("bad --engine '{text}': {why}");
        let mut name = None;
        let mut cmd = None;
        let mut proto = None;
        let mut dir = None;
        let mut options = Vec::new();
        let mut nodes = None;
        for word in split_words(text).map_err(bad)? {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| bad(format!("expected key=value, got '{word}'")))?;
            match k {
                "name" => name = Some(v.to_string()),
                "cmd" => cmd = Some(v.to_string()),
                "dir" => dir = Some(v.to_string()),
                "nodes" => match v.parse::<u64>() {
                    Ok(n) if n > 0 => nodes = Some(n),
                    _ => return Err(bad(format!("nodes is a whole number from 1, not '{v}'"))),
                },
                "proto" => {
                    proto = Some(match v {
                        "uci" => Proto::Uci,
                        "xboard" | "cecp" => Proto::Cecp,
                        _ => return Err(bad(format!("proto is uci or xboard, not '{v}'"))),
                    })
                }
                _ => match k.strip_prefix("option.") {
                    Some(o) if !o.is_empty() => options.push((o.to_string(), v.to_string())),
                    _ => {
                        return Err(bad(format!(
                            "unknown key '{k}' (known: name, cmd, proto, dir, nodes, option.NAME)"
                        )));
                    }
                },
            }
        }
        let cmd = cmd.ok_or_else(|| bad("cmd=COMMAND is missing".to_string()))?;
        let mut words = split_words(&cmd).map_err(bad)?.into_iter();
        let program = words
            .next()
            .ok_or_else(|| bad("cmd is empty".to_string()))?;
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&program)
                .file_name()
                .map_or(program.clone(), |n| n.to_string_lossy().into_owned())
        });
        if name.is_empty() {
            return Err(bad("name is empty".to_string()));
        }
        let proto = proto.ok_or_else(|| bad("proto=uci or proto=xboard is missing".to_string()))?;
        if nodes.is_some() && proto == Proto::Cecp {
            return Err(bad(
                "nodes= is for UCI engines (CECP has no node limit)".to_string()
            ));
        }
        Ok(EngineSpec {
            name,
            program,
            args: words.collect(),
            dir,
            proto,
            options,
            nodes,
        })
    }
}

/// A shared log of every line sent to and read from the engines (`--debug FILE`).
pub struct IoLog {
    file: Mutex<std::fs::File>,
    start: Instant,
}

impl IoLog {
    /// Creates (truncates) the log file.
    pub fn create(path: &str) -> Result<IoLog, String> {
        let file = std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?;
        Ok(IoLog {
            file: Mutex::new(file),
            start: Instant::now(),
        })
    }

    /// Writes `ms tag dir line`; a failed write is ignored (the log is a diagnostic).
    fn line(&self, tag: &str, dir: char, line: &str) {
        let ms = self.start.elapsed().as_millis();
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        let _ = writeln!(f, "{ms} {tag} {dir} {line}");
    }
}

/// Where an engine's lines are logged, and under which tag.
#[derive(Clone)]
pub struct LogTarget {
    pub log: Arc<IoLog>,
    /// `game 3 white NAME`, say.
    pub tag: String,
}

/// Why an engine gave no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// Nothing (or not the awaited line) before the deadline.
    Timeout(String),
    /// The process closed its output or could not be written to: it crashed or quit.
    Gone(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Timeout(what) => write!(f, "no answer in time ({what})"),
            EngineError::Gone(what) => write!(f, "the engine process ended ({what})"),
        }
    }
}

/// An engine's evaluation, from its own side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in n moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, mates as +-100000 (for adjudication thresholds).
    pub fn cp(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(n) if n >= 0 => 100_000,
            Score::Mate(_) => -100_000,
        }
    }

    /// `+0.35`, `-1.20`, `+M3`, `-M2` (pawns; cutechess's PGN comment form).
    pub fn text(self) -> String {
        match self {
            Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
            Score::Mate(n) if n >= 0 => format!("+M{n}"),
            Score::Mate(n) => format!("-M{}", n.unsigned_abs()),
        }
    }
}

/// An engine's answer to "your move".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move as the engine wrote it, with the last score and depth it reported.
    Move {
        text: String,
        score: Option<Score>,
        depth: Option<u32>,
    },
    /// CECP `resign`.
    Resign,
}

/// What the referee asks for one move.
pub struct Turn<'a> {
    /// The game's start position (the opening's FEN).
    pub start_fen: &'a str,
    /// The moves so far in the engine's protocol form.
    pub moves: &'a [String],
    /// Clocks in milliseconds (White, Black), when a time control applies.
    pub clocks: Option<(u64, u64)>,
    /// Moves left until the next time control, if the control has a move count.
    pub moves_to_go: Option<u32>,
    pub white_to_move: bool,
    /// When the engine forfeits on time if no move has come.
    pub deadline: Instant,
}

/// A running engine.
pub struct Engine {
    pub name: String,
    proto: Proto,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// CECP features (`usermove`, `ping`, `san`).
    usermove: bool,
    ping: bool,
    /// CECP `feature san=1`: moves go both ways in SAN.
    pub san: bool,
    /// CECP: how many of the game's moves the engine already knows.
    known: usize,
    /// UCI: the spec's own node limit, sent in place of the match's.
    nodes: Option<u64>,
    ping_id: u32,
    log: Option<LogTarget>,
}

/// How long a CECP engine that sends no `feature done=0` has to finish its features
/// (protocol 2 advises GUIs to wait about two seconds before assuming protocol 1).
const FEATURE_GRACE: Duration = Duration::from_secs(2);

impl Engine {
    /// Starts the process and completes the protocol handshake within `timeout`, logging
    /// its lines to `log` if given.
    pub fn start(
        spec: &EngineSpec,
        timeout: Duration,
        log: Option<LogTarget>,
    ) -> Result<Engine, String> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.program))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| "no pipe to the engine's output".to_string())?;
        let (tx, rx) = channel();
        let reader_log = log.clone();
        std::thread::spawn(move || {
            // Bytes, not `lines()`: a line that is not UTF-8 must not look like a crash.
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if let Some(l) = &reader_log {
                            l.log.line(&l.tag, '<', &line);
                        }
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut e = Engine {
            name: spec.name.clone(),
            proto: spec.proto,
            child,
            stdin,
            lines: rx,
            usermove: false,
            ping: false,
            san: false,
            known: 0,
            nodes: spec.nodes,
            ping_id: 0,
            log,
        };
        let deadline = Instant::now() + timeout;
        match spec.proto {
            Proto::Uci => {
                e.send("uci").map_err(|x| x.to_string())?;
                e.wait_for(|l| l.trim() == "uciok", deadline, "uciok")
                    .map_err(|x| x.to_string())?;
                for (k, v) in &spec.options {
                    e.send(&format!("setoption name {k} value {v}"))
                        .map_err(|x| x.to_string())?;
                }
            }
            Proto::Cecp => {
                e.send("xboard").map_err(|x| x.to_string())?;
                e.send("protover 2").map_err(|x| x.to_string())?;
                e.read_features(deadline).map_err(|x| x.to_string())?;
                for (k, v) in &spec.options {
                    e.send(&format!("option {k}={v}"))
                        .map_err(|x| x.to_string())?;
                }
            }
        }
        Ok(e)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(l) = &self.log {
            l.log.line(&l.tag, '>', line);
        }
        let gone = |e: std::io::Error| EngineError::Gone(format!("cannot write to it: {e}"));
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| EngineError::Gone("input closed".to_string()))?;
        stdin.write_all(line.as_bytes()).map_err(gone)?;
        stdin.write_all(b"\n").map_err(gone)?;
        stdin.flush().map_err(gone)
    }

    /// The next line before `deadline`.
    fn recv(&mut self, deadline: Instant, what: &str) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(what.to_string())),
            Err(RecvTimeoutError::Disconnected) => {
                Err(EngineError::Gone(format!("while waiting for {what}")))
            }
        }
    }

    fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
        what: &str,
    ) -> Result<(), EngineError> {
        loop {
            if done(&self.recv(deadline, what)?) {
                return Ok(());
            }
        }
    }

    /// Reads `feature` lines up to `done=1` (or, without `done=0`, a short silence).
    fn read_features(&mut self, deadline: Instant) -> Result<(), EngineError> {
        let mut waiting_for_done = false;
        loop {
            let limit = if waiting_for_done {
                deadline
            } else {
                deadline.min(Instant::now() + FEATURE_GRACE)
            };
            let line = match self.recv(limit, "feature done=1") {
                Ok(l) => l,
                Err(EngineError::Timeout(_)) if !waiting_for_done => return Ok(()),
                Err(e) => return Err(e),
            };
            let Some(rest) = line.trim().strip_prefix("feature ") else {
                continue;
            };
            let words = split_words(rest).unwrap_or_default();
            let mut accepted = Vec::new();
            let mut finished = false;
            for w in words {
                let Some((k, v)) = w.split_once('=') else {
                    continue;
                };
                match (k, v) {
                    ("done", "0") => waiting_for_done = true,
                    ("done", _) => finished = true,
                    ("usermove", v) => self.usermove = v == "1",
                    ("ping", v) => self.ping = v == "1",
                    ("san", v) => self.san = v == "1",
                    _ => {}
                }
                if k != "done" {
                    accepted.push(k.to_string());
                }
            }
            for k in accepted {
                self.send(&format!("accepted {k}"))?;
            }
            if finished {
                return Ok(());
            }
        }
    }

    /// Prepares a new game: variant, time control, start position; waits until the engine is
    /// ready (`readyok` / `pong`).
    pub fn new_game(
        &mut self,
        variant: &Variant,
        start_fen: &str,
        limits: &Limits,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        match self.proto {
            Proto::Uci => {
                self.send(&format!(
                    "setoption name UCI_Variant value {}",
                    variant.id()
                ))?;
                self.send("ucinewgame")?;
                self.send("isready")?;
                self.wait_for(|l| l.trim() == "readyok", deadline, "readyok")
            }
            Proto::Cecp => {
                self.send("new")?;
                if variant.id() != "chess" {
                    self.send(&format!("variant {}", variant.spec.cecp_name))?;
                }
                self.send("force")?;
                self.send("post")?;
                self.send("easy")?;
                for line in limits.cecp_commands() {
                    self.send(&line)?;
                }
                self.send(&format!("setboard {start_fen}"))?;
                self.known = 0;
                self.sync(deadline)
            }
        }
    }

    /// CECP: `ping N`, then wait for `pong N` (ignoring `setup` and anything else).
    fn sync(&mut self, deadline: Instant) -> Result<(), EngineError> {
        if !self.ping {
            return Ok(());
        }
        self.ping_id += 1;
        let id = self.ping_id;
        self.send(&format!("ping {id}"))?;
        let want = format!("pong {id}");
        self.wait_for(|l| l.trim() == want, deadline, "pong")
    }

    /// Asks for a move; reads the engine's thinking output until its move.
    pub fn play(&mut self, turn: &Turn, limits: &Limits) -> Result<Answer, EngineError> {
        match self.proto {
            Proto::Uci => self.play_uci(turn, limits),
            Proto::Cecp => self.play_cecp(turn),
        }
    }

    fn play_uci(&mut self, turn: &Turn, limits: &Limits) -> Result<Answer, EngineError> {
        let mut position = format!("position fen {}", turn.start_fen);
        if !turn.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&turn.moves.join(" "));
        }
        self.send(&position)?;
        let go = match self.nodes {
            Some(n) => Limits {
                nodes: Some(n),
                ..limits.clone()
            }
            .uci_go(turn.clocks, turn.moves_to_go),
            None => limits.uci_go(turn.clocks, turn.moves_to_go),
        };
        self.send(&go)?;
        let mut score = None;
        let mut depth = None;
        loop {
            let line = self.recv(turn.deadline, "bestmove")?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"info") => {
                    let mut i = 1;
                    while i < words.len() {
                        match words[i] {
                            "depth" => {
                                depth = words.get(i + 1).and_then(|d| d.parse().ok()).or(depth);
                                i += 1;
                            }
                            "score" => {
                                let value = words.get(i + 2).and_then(|v| v.parse().ok());
                                score = match (words.get(i + 1), value) {
                                    (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                                    (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                                    _ => score,
                                };
                                i += 2;
                            }
                            "pv" | "string" => break,
                            _ => {}
                        }
                        i += 1;
                    }
                }
                Some(&"bestmove") => {
                    return Ok(Answer::Move {
                        text: words.get(1).unwrap_or(&"").to_string(),
                        score,
                        depth,
                    });
                }
                _ => {}
            }
        }
    }

    fn play_cecp(&mut self, turn: &Turn) -> Result<Answer, EngineError> {
        for i in self.known..turn.moves.len() {
            let m = &turn.moves[i];
            let line = if self.usermove {
                format!("usermove {m}")
            } else {
                m.clone()
            };
            self.send(&line)?;
        }
        self.known = turn.moves.len();
        if let Some((w, b)) = turn.clocks {
            let (own, other) = if turn.white_to_move { (w, b) } else { (b, w) };
            self.send(&format!("time {}", own / 10))?;
            self.send(&format!("otim {}", other / 10))?;
        }
        self.send("go")?;
        let mut score = None;
        let mut depth = None;
        loop {
            let line = self.recv(turn.deadline, "move")?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["move", m, ..] => {
                    let text = m.to_string();
                    self.send("force")?;
                    self.known += 1;
                    return Ok(Answer::Move { text, score, depth });
                }
                ["resign", ..] => return Ok(Answer::Resign),
                [ply, s, ..] if ply.parse::<u32>().is_ok() => {
                    if let Ok(v) = s.parse::<i32>() {
                        depth = ply.parse().ok();
                        score = Some(if v >= 100_000 {
                            Score::Mate(v - 100_000)
                        } else if v <= -100_000 {
                            Score::Mate(v + 100_000)
                        } else {
                            Score::Cp(v)
                        });
                    }
                }
                _ => {}
            }
        }
    }
}

impl Drop for Engine {
    /// Says `quit`, gives the process a moment, then kills it.
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let end = Instant::now() + Duration::from_millis(300);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let s = EngineSpec::parse(
            "name=new cmd=\"python3 'my fake.py' --mode x\" proto=xboard option.Hash=64",
        )
        .expect("spec");
        assert_eq!(s.name, "new");
        assert_eq!(s.program, "python3");
        assert_eq!(s.args, ["my fake.py", "--mode", "x"]);
        assert_eq!(s.proto, Proto::Cecp);
        assert_eq!(s.options, [("Hash".to_string(), "64".to_string())]);
        assert!(EngineSpec::parse("name=x proto=uci").is_err());
        assert!(EngineSpec::parse("cmd=x proto=foo").is_err());
        assert!(EngineSpec::parse("cmd=x").is_err());
        assert!(EngineSpec::parse("cmd=\"x proto=uci").is_err());
        assert!(EngineSpec::parse("cmd=x proto=uci colour=red").is_err());
        assert_eq!(s.nodes, None);
        let n = EngineSpec::parse("cmd=x proto=uci nodes=1500").expect("spec");
        assert_eq!(n.nodes, Some(1500));
        for bad in ["nodes=0", "nodes=-3", "nodes=1k", "nodes="] {
            let err = EngineSpec::parse(&format!("cmd=x proto=uci {bad}")).unwrap_err();
            assert!(err.contains("nodes is a whole number"), "{err}");
        }
        let err = EngineSpec::parse("cmd=x proto=xboard nodes=10").unwrap_err();
        assert!(err.contains("nodes= is for UCI engines"), "{err}");
    }
}
