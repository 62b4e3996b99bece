//! Driving the `sissa` binary over pipes: send lines, wait for an expected line.
//!
//! The waits have generous deadlines only so that a broken engine fails the test instead of
//! hanging it; no test asserts on how long anything takes.

#![allow(dead_code)]

use std::io::Read;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use sissa::rules::moves::MoveKind;
use sissa::{Position, Square};

/// How long a test waits for a line before it declares the engine stuck.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Path of the engine binary Cargo built for the tests.
pub fn engine_path() -> &'static str {
    env!("CARGO_BIN_EXE_sissa")
}

/// Runs `sissa` with these arguments and no input, to the end.
pub fn sissa(args: &[&str]) -> std::process::Output {
    Command::new(engine_path())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run sissa")
}

/// Bytes as text (lossy).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh scratch directory for one test, removed when the test passes (kept for a look
/// when it fails).
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "sissa-test-{}-{tag}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir).expect("scratch dir");
        Scratch(dir)
    }

    /// Writes `bytes` to the file `name` in the directory and gives its path.
    pub fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("write scratch file");
        path
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    errors: Arc<Mutex<String>>,
    /// Every line received so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `sissa` with no subcommand.
    pub fn start() -> Engine {
        Engine::start_with_env(&[])
    }

    /// Starts `sissa` with these environment variables set (`RUST_LOG=info` to read its
    /// diagnostics from [`Engine::stderr`]).
    pub fn start_with_env(env: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(engine_path())
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start sissa");
        let errors = Arc::new(Mutex::new(String::new()));
        let mut stderr = child.stderr.take().expect("stderr");
        let sink = Arc::clone(&errors);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                sink.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push_str(&text);
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            errors,
            transcript: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!(">> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to sissa");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes (for input ending mid-line or broken encodings).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to sissa");
        stdin.flush().expect("flush");
    }

    /// Everything the engine wrote to standard error so far.
    pub fn stderr(&self) -> String {
        self.errors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Waits until standard error contains `text` (it is read on its own thread, so it may
    /// lag behind standard output); `false` if it never does within the patience.
    pub fn stderr_shows(&self, text: &str) -> bool {
        let deadline = std::time::Instant::now() + PATIENCE;
        while std::time::Instant::now() < deadline {
            if self.stderr().contains(text) {
                return true;
            }
            thread::sleep(Duration::from_millis(10));
        }
        false
    }

    /// Closes standard input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` when the engine closed its output.
    pub fn next_line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "engine silent for {PATIENCE:?}; transcript:\n{}",
                    self.dump()
                )
            }
        }
    }

    /// Reads lines until one satisfies `want`; returns it and the lines before it.
    pub fn until(&mut self, want: impl Fn(&str) -> bool) -> (String, Vec<String>) {
        let mut before = Vec::new();
        loop {
            match self.next_line() {
                Some(line) if want(&line) => return (line, before),
                Some(line) => before.push(line),
                None => panic!(
                    "engine closed its output before the expected line; transcript:\n{}",
                    self.dump()
                ),
            }
        }
    }

    /// Reads lines until one starts with `prefix`; returns it and the lines before it.
    pub fn until_prefix(&mut self, prefix: &str) -> (String, Vec<String>) {
        self.until(|l| l.starts_with(prefix))
    }

    /// `ping N` and wait for `pong N`; returns the lines before the pong.
    pub fn sync_cecp(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let want = format!("pong {n}");
        self.until(|l| l == want).1
    }

    /// `isready` and wait for `readyok`; returns the lines before it.
    pub fn sync_uci(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(|l| l == "readyok").1
    }

    /// Waits for the process to exit and returns whether it exited with success.
    pub fn wait_exit(&mut self) -> bool {
        self.stdin = None;
        while self.next_line().is_some() {}
        self.child.wait().map(|s| s.success()).unwrap_or(false)
    }

    /// The transcript as text.
    pub fn dump(&self) -> String {
        let start = self.transcript.len().saturating_sub(200);
        self.transcript[start..].join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a real-client test must fail (CI) instead of skipping when its client is missing.
pub fn clients_required() -> bool {
    std::env::var_os("SISSA_REQUIRE_CLIENTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Whether `program` can be found on the PATH.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Returns `true` if the clients are there; otherwise prints a SKIP line and returns `false`,
/// or panics when `SISSA_REQUIRE_CLIENTS` is set.
pub fn need_clients(test: &str, programs: &[&str]) -> bool {
    let missing: Vec<&str> = programs.iter().copied().filter(|p| !on_path(p)).collect();
    if missing.is_empty() {
        return true;
    }
    if clients_required() {
        panic!("{test}: missing {missing:?} and SISSA_REQUIRE_CLIENTS is set");
    }
    eprintln!("SKIP {test}: {missing:?} not installed (run .ci/run or apt-get install them)");
    false
}

/// The COLORFEN Sissa must send for a piece lifted from `from` (`None`: the hand).
pub fn expected_highlight(pos: &mut Position, from: Option<Square>) -> String {
    let g = &pos.variant().geometry;
    let mut marks: Vec<(Square, char)> = Vec::new();
    let side = pos.side_to_move();
    for mv in pos.legal_moves() {
        let origin = if mv.kind == MoveKind::Drop {
            None
        } else {
            Some(mv.from)
        };
        if origin != from {
            continue;
        }
        let capture =
            pos.piece_at(mv.to).is_some_and(|p| p.color != side) || mv.kind == MoveKind::EnPassant;
        if !marks.iter().any(|&(s, _)| s == mv.to) {
            marks.push((mv.to, if capture { 'R' } else { 'Y' }));
        }
    }
    let mut rows = Vec::new();
    for rank in (0..g.ranks() as i32).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..g.files() as i32 {
            match g
                .square(file, rank)
                .and_then(|s| marks.iter().find(|m| m.0 == s))
            {
                Some(&(_, c)) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    format!("highlight {}", rows.join("/"))
}

/// Whether the game is over by checkmate.
pub fn is_checkmate(pos: &mut Position) -> bool {
    matches!(
        pos.outcome(),
        Some(sissa::rules::game::Outcome {
            termination: sissa::rules::game::Termination::Checkmate,
            ..
        })
    )
}

/// Whether the side to move forces mate in at most `n` moves (full width, no pruning).
pub fn forced_mate(pos: &mut Position, n: u32) -> bool {
    for mv in pos.legal_moves() {
        pos.make(mv);
        let mates = if is_checkmate(pos) {
            true
        } else if n > 1 {
            let replies = pos.legal_moves();
            !replies.is_empty()
                && replies.iter().all(|&r| {
                    pos.make(r);
                    let ok = forced_mate(pos, n - 1);
                    pos.unmake();
                    ok
                })
        } else {
            false
        };
        pos.unmake();
        if mates {
            return true;
        }
    }
    false
}
