//! `sissa perft --against CMD`: compares Sissa's perft divide with another program's and
//! walks down the first root move whose counts differ until the move lists themselves
//! differ, for people validating their own move generators.
//!
//! CMD is either a UCI engine (asked `position fen FEN` and `go perft D` after
//! `setoption name UCI_Variant value V` when the variant is not chess) or, when it contains
//! `{fen}`, a shell command template run once per question with `{fen}`, `{depth}` and
//! `{variant}` filled in. Either must print Stockfish's divide lines `MOVE: COUNT`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::rules::perft::divide;
use crate::rules::position::Position;

/// Where the other program's divides come from.
enum Other {
    Uci {
        child: Child,
        stdin: ChildStdin,
        stdout: BufReader<ChildStdout>,
    },
    Template(String),
}

/// Reads `MOVE: COUNT` lines; other lines are ignored.
fn divide_line(line: &str) -> Option<(String, u64)> {
    let (mv, n) = line.trim().split_once(':')?;
    let mv = mv.trim();
    if mv.is_empty() || mv.contains(' ') {
        return None;
    }
    Some((mv.to_string(), n.trim().parse().ok()?))
}

impl Other {
    fn start(cmd: &str, variant: &str) -> Result<Other, String> {
        if cmd.contains("{fen}") {
            return Ok(Other::Template(cmd.to_string()));
        }
        let words: Vec<&str> = cmd.split_whitespace().collect();
        let (program, args) = words
            .split_first()
            .ok_or_else(|| "--against: an empty command".to_string())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("--against: cannot start '{cmd}': {e}"))?;
        let stdin = child.stdin.take().ok_or("--against: no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("--against: no stdout")?);
        let mut other = Other::Uci {
            child,
            stdin,
            stdout,
        };
        other.send("uci")?;
        other.read_until(|l| l == "uciok")?;
        if variant != "chess" {
            other.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        Ok(other)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        if let Other::Uci { stdin, .. } = self {
            writeln!(stdin, "{line}")
                .and_then(|_| stdin.flush())
                .map_err(|e| format!("--against: the engine stopped reading: {e}"))?;
        }
        Ok(())
    }

    /// Lines up to and including the first that `end` accepts.
    fn read_until(&mut self, end: impl Fn(&str) -> bool) -> Result<Vec<String>, String> {
        let Other::Uci { stdout, .. } = self else {
            return Ok(Vec::new());
        };
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            if stdout.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                return Err("--against: the engine closed its output".to_string());
            }
            let line = line.trim().to_string();
            let done = end(&line);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    /// The other program's divide of `fen` at `depth`.
    fn divide(
        &mut self,
        fen: &str,
        depth: u32,
        variant: &str,
    ) -> Result<BTreeMap<String, u64>, String> {
        let lines = match self {
            Other::Template(t) => {
                let cmd = t
                    .replace("{fen}", fen)
                    .replace("{depth}", &depth.to_string())
                    .replace("{variant}", variant);
                let out = Command::new("sh")
                    .args(["-c", &cmd])
                    .stdin(Stdio::null())
                    .output()
                    .map_err(|e| format!("--against: cannot run '{cmd}': {e}"))?;
                String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .map(String::from)
                    .collect()
            }
            Other::Uci { .. } => {
                self.send(&format!("position fen {fen}"))?;
                self.send(&format!("go perft {depth}"))?;
                self.read_until(|l| l.starts_with("Nodes searched"))?
            }
        };
        Ok(lines.iter().filter_map(|l| divide_line(l)).collect())
    }
}

impl Drop for Other {
    fn drop(&mut self) {
        if let Other::Uci { child, stdin, .. } = self {
            let _ = writeln!(stdin, "quit");
            let _ = child.wait();
        }
    }
}

/// Compares divides from `pos` at `depth` with the program `cmd`; the report, and whether
/// the two agree.
pub fn compare(pos: &Position, depth: u32, cmd: &str) -> Result<(String, bool), String> {
    let variant = pos.variant().id();
    let mut other = Other::start(cmd, variant)?;
    let mut pos = pos.clone();
    let mut path: Vec<String> = Vec::new();
    let mut report = String::new();
    for d in (1..=depth).rev() {
        let fen = pos.fen();
        let ours: BTreeMap<String, u64> = divide(&mut pos, d)
            .into_iter()
            .map(|(m, n)| (pos.move_text(m, 1), n))
            .collect();
        let theirs = other.divide(&fen, d, variant)?;
        let missing: Vec<&String> = ours.keys().filter(|m| !theirs.contains_key(*m)).collect();
        let extra: Vec<&String> = theirs.keys().filter(|m| !ours.contains_key(*m)).collect();
        let at = if path.is_empty() {
            "at the root".to_string()
        } else {
            format!("after {}", path.join(" "))
        };
        if !missing.is_empty() || !extra.is_empty() {
            report.push_str(&format!(
                "the move lists differ {at} (depth {d}), FEN {fen}\n  missing in the other program: {}\n  extra in the other program: {}\n",
                list(&missing),
                list(&extra)
            ));
            return Ok((report, false));
        }
        let first_diff = ours.iter().find(|(m, n)| theirs.get(*m) != Some(n));
        match first_diff {
            None => {
                if path.is_empty() {
                    let total: u64 = ours.values().sum();
                    report.push_str(&format!(
                        "agree: {total} leaves at depth {depth}, FEN {fen}\n"
                    ));
                    return Ok((report, true));
                }
                report.push_str(&format!(
                    "the counts differ above but agree {at} at depth {d}: the other program's \
                     counts depend on the path (hash or history), FEN {fen}\n"
                ));
                return Ok((report, false));
            }
            Some((mv, n)) => {
                report.push_str(&format!(
                    "{at} (depth {d}): {mv} counts {n} here and {} there\n",
                    theirs[mv]
                ));
                if d == 1 {
                    return Ok((report, false));
                }
                let m = pos
                    .parse_move(mv, 1)
                    .map_err(|e| format!("cannot replay {mv}: {e}"))?;
                pos.make(m);
                path.push(mv.clone());
            }
        }
    }
    Ok((report, false))
}

fn list(moves: &[&String]) -> String {
    if moves.is_empty() {
        "-".to_string()
    } else {
        moves
            .iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
}
