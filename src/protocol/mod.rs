//! The protocol front ends: UCI and CECP (XBoard), chosen by the first command.
//!
//! One thread reads standard input and turns it into [`Event`]s; the protocol loop handles
//! them in order on the main thread, and searches run on a worker thread ([`engine`]), so
//! `stop`, `isready`, `ping`, `?`, `.` and `quit` are answered while the engine thinks. A
//! finished search is one more event, so every change to the game happens on the main thread.
//!
//! The grammar is hand-written (see `docs/protocol.md` for why not vampirc-uci): tokens are
//! split on whitespace, numbers of any size are clamped, and every line the engine cannot use
//! gets an answer in the protocol's own error form.

mod cecp;
mod engine;
pub mod inspect;
mod uci;

use std::borrow::Cow;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;

use crate::search::{SearchOptions, skill};

/// Something the protocol loop must handle.
#[derive(Debug)]
pub(crate) enum Event {
    /// One input line, without its line end.
    Line(String),
    /// Standard input is closed.
    Eof,
    /// The worker finished the job with this id.
    Done(u64),
}

/// Runs the engine on standard input and output until `quit` or end of input.
pub fn run() -> Result<(), String> {
    // A second call (tests build several engines in one process) keeps the first logger.
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .try_init();
    if std::io::stdin().is_terminal() {
        eprintln!(
            "sissa: type `uci` (UCI) or `xboard` (CECP) to start, `quit` to leave; `sissa --help` lists the command-line tools"
        );
    }
    let (tx, rx) = channel();
    spawn_reader(tx.clone());
    loop {
        match rx.recv() {
            Ok(Event::Line(line)) => {
                let first = line.split_whitespace().next().unwrap_or("");
                match first {
                    "" => continue,
                    "uci" => return uci::Uci::new(tx)?.run(&rx),
                    "xboard" => return cecp::Cecp::new(tx)?.run(&rx),
                    "quit" => return Ok(()),
                    _ => {
                        send(&format!(
                            "info string error: unknown command '{first}': send `uci` or `xboard` first"
                        ));
                    }
                }
            }
            Ok(Event::Eof) | Err(_) => return Ok(()),
            Ok(Event::Done(_)) => {}
        }
    }
}

/// Reads standard input line by line on its own thread. Bytes that are not UTF-8 are
/// replaced, and a last line without a line end still counts as a line.
fn spawn_reader(tx: Sender<Event>) {
    thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim_end_matches(['\n', '\r']).to_string();
                    log::debug!("< {line}");
                    if tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Event::Eof);
    });
}

/// Writes one line to standard output and flushes it. Control characters (an echoed NUL,
/// ESC or carriage return from the input) are written escaped (`\u{1b}`, `\r`), so that a
/// reply is always one clean line for the GUI.
pub(crate) fn send(line: &str) {
    let line = escape_controls(line);
    log::debug!("> {line}");
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // A closed pipe means the GUI has gone; the loop ends at end of input.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn escape_controls(line: &str) -> Cow<'_, str> {
    if !line.chars().any(char::is_control) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    for c in line.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Receives the next event; a vanished sender counts as end of input.
pub(crate) fn next_event(rx: &Receiver<Event>) -> Event {
    rx.recv().unwrap_or(Event::Eof)
}

/// What a protocol front end gives the shared event loop.
pub(crate) trait Frontend {
    /// Handles one input line; `false` ends the session (`quit`).
    fn command(&mut self, line: &str) -> bool;
    /// The worker finished the job with this id.
    fn job_done(&mut self, id: u64);
    /// Stops any running search before the engine exits.
    fn shutdown(&mut self);
}

/// Serves events until `quit` or end of input.
pub(crate) fn serve(frontend: &mut impl Frontend, rx: &Receiver<Event>) -> Result<(), String> {
    loop {
        match next_event(rx) {
            Event::Line(line) => {
                if !frontend.command(&line) {
                    break;
                }
            }
            Event::Done(id) => frontend.job_done(id),
            Event::Eof => break,
        }
    }
    frontend.shutdown();
    Ok(())
}

/// Reads an unsigned number of any size: larger values clamp to `max`, a leading `-` reads
/// as 0 (some GUIs send negative clock times), fractions are cut.
pub(crate) fn parse_clamped(text: &str, max: u64) -> Option<u64> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let whole = digits.split('.').next().unwrap_or("");
    let fraction_ok = digits
        .split_once('.')
        .is_none_or(|(_, f)| f.chars().all(|c| c.is_ascii_digit()));
    if whole.is_empty() && !digits.starts_with('.') {
        return None;
    }
    if !whole.chars().all(|c| c.is_ascii_digit()) || !fraction_ok {
        return None;
    }
    if negative {
        return Some(0);
    }
    let mut value: u64 = 0;
    for c in whole.chars() {
        value = value
            .saturating_mul(10)
            .saturating_add(c as u64 - '0' as u64);
    }
    Some(value.min(max))
}

/// Reads a boolean option value (`true`/`false`, `1`/`0`, `on`/`off`).
pub(crate) fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Some(true),
        "false" | "0" | "off" | "no" => Some(false),
        _ => None,
    }
}

/// The search switches offered as engine options, so that matches can pit ablated versions
/// against the full engine: (option name, getter, setter).
type Switch = (
    &'static str,
    fn(&SearchOptions) -> bool,
    fn(&mut SearchOptions, bool),
);

pub(crate) const SEARCH_SWITCHES: [Switch; 6] = [
    (
        "MaterialOnly",
        |o| o.material_only,
        |o, v| o.material_only = v,
    ),
    ("NullMove", |o| o.null_move, |o, v| o.null_move = v),
    ("LMR", |o| o.lmr, |o, v| o.lmr = v),
    ("Futility", |o| o.futility, |o, v| o.futility = v),
    ("Aspiration", |o| o.aspiration, |o, v| o.aspiration = v),
    ("UseNNUE", |o| o.use_nnue, |o, v| o.use_nnue = v),
];

/// Sets the `EvalFile` option: a network file to load (its variant is the one it names), or
/// `<empty>` (or nothing) for the built-in networks. The message to report; on an error the
/// options are unchanged.
pub(crate) fn set_eval_file(options: &mut SearchOptions, value: &str) -> Result<String, String> {
    let value = value.trim();
    if value.is_empty() || value == "<empty>" {
        options.eval_file = None;
        return Ok("EvalFile: the built-in networks".to_string());
    }
    let net = crate::nnue::load(std::path::Path::new(value))?;
    let text = format!(
        "EvalFile: {value}, a {} network with {} hidden neurons a side and {} output bucket(s)",
        net.variant.id(),
        net.hidden,
        net.buckets
    );
    options.eval_file = Some(std::sync::Arc::new(net));
    Ok(text)
}

/// Sets the search switch called `name` (any case); `None` if there is no such switch.
pub(crate) fn set_switch(options: &mut SearchOptions, name: &str, value: bool) -> Option<()> {
    let (_, _, set) = SEARCH_SWITCHES
        .iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(name))?;
    set(options, value);
    Some(())
}

/// The `VariantPath` option (Fairy-Stockfish's name): loads a variant file; the message to
/// report, or the file's first error (then nothing is loaded).
pub(crate) fn load_variants(value: &str) -> Result<String, String> {
    let value = value.trim();
    if value.is_empty() || value == "<empty>" {
        return Ok("VariantPath: no file".to_string());
    }
    let loaded = crate::tools::variant_files::load(std::path::Path::new(value))
        .map_err(|e| e.to_string())?;
    let names: Vec<&str> = loaded.iter().map(|v| v.id()).collect();
    Ok(format!(
        "VariantPath: {value}: {} variant(s): {}",
        names.len(),
        names.join(", ")
    ))
}

/// The strength options' names, as Stockfish spells them.
pub(crate) const SKILL_LEVEL: &str = "Skill Level";
pub(crate) const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub(crate) const UCI_ELO: &str = "UCI_Elo";

/// Sets one of the strength options: `None` if `name` is none of them, else what to tell
/// the user: `Ok(Some(note))` when a number was out of range and clamped, `Err` (options
/// unchanged) when the value is not a number or a boolean.
pub(crate) fn set_strength(
    options: &mut SearchOptions,
    name: &str,
    value: &str,
) -> Option<Result<Option<String>, String>> {
    let strength = &mut options.strength;
    let clamp = |min: u32, max: u32| -> Result<(u32, Option<String>), String> {
        let n: i64 = value
            .trim()
            .parse()
            .map_err(|_| format!("{name} needs a whole number, not '{value}'"))?;
        let clamped = n.clamp(i64::from(min), i64::from(max)) as u32;
        let note = (i64::from(clamped) != n)
            .then(|| format!("{name} {n} is outside {min}..{max}: set to {clamped}"));
        Ok((clamped, note))
    };
    let result = if name.eq_ignore_ascii_case(SKILL_LEVEL) {
        clamp(0, skill::FULL_LEVEL).map(|(n, note)| {
            strength.skill_level = n;
            note
        })
    } else if name.eq_ignore_ascii_case(UCI_ELO) {
        clamp(skill::ELO_MIN, skill::ELO_MAX).map(|(n, note)| {
            strength.elo = n;
            note
        })
    } else if name.eq_ignore_ascii_case(LIMIT_STRENGTH) {
        match parse_bool(value) {
            Some(b) => {
                strength.limit = b;
                Ok(None)
            }
            None => Err(format!("{name} needs true or false, not '{value}'")),
        }
    } else {
        return None;
    };
    Some(result)
}

/// Default and largest move overhead in milliseconds.
pub(crate) const OVERHEAD_DEFAULT_MS: u64 = 30;
pub(crate) const OVERHEAD_MAX_MS: u64 = 5000;
/// Most principal variations reported.
pub(crate) const MULTIPV_MAX: u64 = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_clamp_instead_of_failing() {
        assert_eq!(parse_clamped("300", 127), Some(127));
        assert_eq!(
            parse_clamped("99999999999999999999999999", u64::MAX),
            Some(u64::MAX)
        );
        assert_eq!(parse_clamped("-5", 100), Some(0));
        assert_eq!(parse_clamped("2.5", 100), Some(2));
        assert_eq!(parse_clamped("abc", 100), None);
        assert_eq!(parse_clamped("", 100), None);
        assert_eq!(parse_clamped("-", 100), None);
        assert_eq!(parse_clamped("1e5", 100), None);
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("plain e2e4"), "plain e2e4");
        assert_eq!(escape_controls("a\u{0}b\u{1b}c\rd"), "a\\u{0}b\\u{1b}c\\rd");
    }

    #[test]
    fn switches_are_found_in_any_case() {
        let mut o = SearchOptions::default();
        assert!(set_switch(&mut o, "nullmove", false).is_some());
        assert!(!o.null_move);
        assert!(set_switch(&mut o, "Nonsense", false).is_none());
    }
}
