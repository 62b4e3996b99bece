//! Time controls in cutechess's notation and the limits of one move.

use std::time::Duration;

/// `[MOVES/]BASE[+INC]`, seconds: `10+0.1`, `40/60+0.5`, `60`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period; `None` for the whole game.
    pub moves: Option<u32>,
    /// Time per period (the whole game without a move count).
    pub base_ms: u64,
    /// Added after each move.
    pub inc_ms: u64,
}

/// Seconds (a decimal number, at most millisecond precision used) as milliseconds.
pub fn parse_seconds(text: &str, what: &str) -> Result<u64, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what}: '{text}' is not a number of seconds"))?;
    if !secs.is_finite() || !(0.0..=1.0e7).contains(&secs) {
        return Err(format!(
            "{what}: '{text}' is out of range (0 to 10000000 seconds)"
        ));
    }
    Ok((secs * 1000.0).round() as u64)
}

/// Milliseconds as seconds with no trailing zeros: 100 -> `0.1`, 60000 -> `60`.
pub fn seconds_text(ms: u64) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl TimeControl {
    /// Reads `[MOVES/]BASE[+INC]`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| format!("--tc: '{m}' is not a positive number of moves"))?;
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base_ms = parse_seconds(base, "--tc")?;
        let inc_ms = parse_seconds(inc, "--tc increment")?;
        if base_ms == 0 && inc_ms == 0 {
            return Err(format!("--tc: '{text}' gives no time at all"));
        }
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }

    /// The PGN `TimeControl` tag value as cutechess writes it: `40/60+0.5`, `10+0.1`, `60`.
    pub fn pgn(&self) -> String {
        let base = seconds_text(self.base_ms);
        let mut s = match self.moves {
            Some(m) => format!("{m}/{base}"),
            None => base,
        };
        if self.inc_ms > 0 {
            s.push('+');
            s.push_str(&seconds_text(self.inc_ms));
        }
        s
    }
}

/// Everything that limits an engine's move, and the referee's tolerances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub tc: Option<TimeControl>,
    /// Fixed time per move.
    pub st_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Extra time an engine may take beyond its clock (or `st`) before it forfeits.
    pub margin_ms: u64,
    /// Without a clock or `st`: how long a move may take before the engine forfeits.
    pub move_timeout_ms: u64,
}

impl Limits {
    /// The longest an engine may think on a move with `clock_ms` on its clock.
    pub fn allowed(&self, clock_ms: Option<u64>) -> Duration {
        let ms = match (clock_ms, self.st_ms) {
            (Some(c), Some(s)) => c.min(s),
            (Some(c), None) => c,
            (None, Some(s)) => s,
            (None, None) => self.move_timeout_ms,
        };
        Duration::from_millis(ms)
    }

    /// The UCI `go` command.
    pub fn uci_go(&self, clocks: Option<(u64, u64)>, moves_to_go: Option<u32>) -> String {
        let mut go = String::from("go");
        if let (Some(tc), Some((w, b))) = (self.tc, clocks) {
            go.push_str(&format!(
                " wtime {w} btime {b} winc {} binc {}",
                tc.inc_ms, tc.inc_ms
            ));
            if let Some(m) = moves_to_go {
                go.push_str(&format!(" movestogo {m}"));
            }
        }
        if let Some(st) = self.st_ms {
            go.push_str(&format!(" movetime {st}"));
        }
        if let Some(n) = self.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = self.depth {
            go.push_str(&format!(" depth {d}"));
        }
        go
    }

    /// The CECP commands that set the limits (`level`, `st`, `sd`). CECP has no node limit:
    /// `--nodes` is not sent to CECP engines.
    pub fn cecp_commands(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(tc) = self.tc {
            let secs = tc.base_ms.div_ceil(1000);
            let base = if secs % 60 == 0 {
                format!("{}", secs / 60)
            } else {
                format!("{}:{:02}", secs / 60, secs % 60)
            };
            out.push(format!(
                "level {} {base} {}",
                tc.moves.unwrap_or(0),
                seconds_text(tc.inc_ms)
            ));
        }
        if let Some(st) = self.st_ms {
            out.push(format!("st {}", seconds_text(st)));
        }
        if let Some(d) = self.depth {
            out.push(format!("sd {d}"));
        }
        out
    }

    /// The PGN `TimeControl` tag (`-` when there is no clock).
    pub fn pgn_tag(&self) -> String {
        match (self.tc, self.st_ms) {
            (Some(tc), _) => tc.pgn(),
            (None, Some(st)) => format!("{}/move", seconds_text(st)),
            (None, None) => "-".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("40/60+0.5").expect("tc");
        assert_eq!(
            tc,
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 500
            }
        );
        assert_eq!(tc.pgn(), "40/60+0.5");
        assert_eq!(TimeControl::parse("10+0.1").expect("tc").pgn(), "10+0.1");
        assert_eq!(TimeControl::parse("5").expect("tc").inc_ms, 0);
        for bad in ["", "x", "0/10", "10+y", "0+0", "-5", "1e99", "NaN"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }
}
