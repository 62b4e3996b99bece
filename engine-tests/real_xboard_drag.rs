//! A person's moves in real XBoard 4.9, made with xdotool drags on an Xvfb screen: a pawn
//! move, a Ninja-pawn drop from the hand and a Wazir-Knight leap on Venomous. XBoard tells
//! Sissa what is lifted (`lift e1`, `lift l0` for White's hand) and Sissa must answer with the
//! highlights of exactly the legal destinations; the move must then reach Sissa and be legal.
//!
//! Without Xvfb, xdotool or xboard the test prints SKIP and passes, unless
//! `SISSA_REQUIRE_CLIENTS` is set (CI), where it fails.

mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sissa::{Position, Variant};

/// XBoard's `middling` board: squares of 29 pixels, a 2-pixel line around them, two
/// holdings files on each side of the 10 files.
const SQUARE: i32 = 29;
const EDGE: i32 = 2;
const DEADLINE: Duration = Duration::from_secs(60);

/// Kills the child when dropped, so a failing test leaves no X server behind.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn xboard_program() -> Option<String> {
    if support::on_path("xboard") {
        return Some("xboard".to_string());
    }
    Path::new("/usr/games/xboard")
        .is_file()
        .then(|| "/usr/games/xboard".to_string())
}

/// Starts Xvfb on a free display and returns it with the display name.
fn start_xvfb(dir: &Path) -> (Guard, String) {
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1000x800x24",
            "-nolisten",
            "tcp",
        ])
        .arg("-fbdir")
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start Xvfb");
    let stdout = child.stdout.take().expect("Xvfb stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("Xvfb display number");
    let display = format!(":{}", line.trim());
    (Guard(child), display)
}

fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .output()
        .expect("run xdotool");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Waits until `cond` holds for XBoard's debug file; returns the file's text.
fn wait_debug(path: &Path, what: &str, cond: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if cond(&text) {
            return text;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "XBoard never showed {what}; debug tail:\n{}",
            tail(&text)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// The lines XBoard sent to or received from the engine, without the time stamps. XBoard
/// logs `usermove` in two pieces (`usermove 4904 >first : e1e4`); they are joined.
fn traffic(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once(' ')?;
            if !(rest.starts_with(">first : ") || rest.starts_with("<first : ")) {
                return None;
            }
            match rest.strip_prefix(">first : usermove ") {
                Some(tail) => {
                    let mv = tail.rsplit(">first : ").next().unwrap_or(tail);
                    Some(format!(">first : usermove {}", mv.trim()))
                }
                None => Some(rest.to_string()),
            }
        })
        .collect()
}

/// Waits until the engine traffic contains `line` and at least `moves` engine moves.
fn wait_move(path: &Path, line: &str, moves: usize) -> Vec<String> {
    let text = wait_debug(path, line, |t| {
        let lines = traffic(t);
        lines.iter().any(|l| l == line)
            && lines
                .iter()
                .filter(|l| l.starts_with("<first : move "))
                .count()
                >= moves
    });
    traffic(&text)
}

/// Pixel centre of a board cell: `file` 0..14 counts the holdings files too (White's hand
/// piece is file 13), `rank` 0..9 from White's side.
fn cell(height: i32, file: i32, rank: i32) -> (i32, i32) {
    let top = height - EDGE - 10 * SQUARE;
    (
        EDGE + file * SQUARE + SQUARE / 2,
        top + (9 - rank) * SQUARE + SQUARE / 2,
    )
}

fn drag(display: &str, from: (i32, i32), to: (i32, i32)) {
    let (fx, fy) = (from.0.to_string(), from.1.to_string());
    let (tx, ty) = (to.0.to_string(), to.1.to_string());
    let (mx, my) = (
        ((from.0 + to.0) / 2).to_string(),
        ((from.1 + to.1) / 2).to_string(),
    );
    xdotool(display, &["mousemove", "--sync", &fx, &fy]);
    xdotool(display, &["mousedown", "1"]);
    std::thread::sleep(Duration::from_millis(300));
    xdotool(display, &["mousemove", &mx, &my]);
    std::thread::sleep(Duration::from_millis(100));
    xdotool(display, &["mousemove", &tx, &ty]);
    std::thread::sleep(Duration::from_millis(100));
    xdotool(display, &["mouseup", "1"]);
}

/// Drags until XBoard passes the move on (a busy machine may make XBoard miss the first
/// press while it is still starting up), then waits for the engine's reply.
fn drag_move(
    display: &str,
    debug: &Path,
    from: (i32, i32),
    to: (i32, i32),
    expect: &str,
    moves: usize,
) -> Vec<String> {
    for attempt in 1..=5 {
        drag(display, from, to);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            let text = std::fs::read_to_string(debug).unwrap_or_default();
            if traffic(&text).iter().any(|l| l == expect) {
                return wait_move(debug, expect, moves);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        eprintln!("drag {from:?} -> {to:?} not seen by XBoard (attempt {attempt}); again");
    }
    panic!("XBoard never passed on {expect}");
}

/// Replays the moves of the traffic (ours with `usermove`, the engine's with `move`).
fn replay(lines: &[String]) -> Position {
    let mut pos = Position::startpos(Variant::by_name("venomous").unwrap());
    for l in lines {
        let mv = l
            .strip_prefix(">first : usermove ")
            .or_else(|| l.strip_prefix("<first : move "));
        if let Some(text) = mv {
            let m = pos
                .parse_move(text.trim(), 0)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.make(m);
        }
    }
    pos
}

/// The highlight Sissa sent right after `lift NAME` (the last such lift).
fn highlight_after(lines: &[String], lift: &str) -> (usize, String) {
    let at = lines
        .iter()
        .rposition(|l| l == &format!(">first : lift {lift}"))
        .unwrap_or_else(|| panic!("no lift {lift}: {lines:?}"));
    let answer = lines[at..]
        .iter()
        .find_map(|l| l.strip_prefix("<first : highlight "))
        .unwrap_or_else(|| panic!("no highlight after lift {lift}"));
    (at, format!("highlight {answer}"))
}

/// A running XBoard on its own Xvfb, with the height of its settled window.
struct Session {
    _xboard: Guard,
    _xvfb: Guard,
    display: String,
    height: i32,
}

/// Starts Xvfb and XBoard and waits until XBoard shows the Venomous board; `None` if XBoard
/// died on the way (XBoard 4.9.1 occasionally crashes at start-up under Xvfb).
fn launch(xboard: &str, dir: &Path, debug: &Path) -> Option<Session> {
    let _ = std::fs::remove_file(debug);
    let (xvfb, display) = start_xvfb(dir);
    let mut xboard = Guard(
        Command::new(xboard)
            .args(["-fcp", support::engine_path()])
            .args(["-variant", "venomous", "-testLegality", "false"])
            .args(["-boardSize", "middling"])
            .args(["-searchDepth", "1", "-popupExitMessage", "false"])
            .args(["-saveSettingsOnExit", "false"])
            .arg("-debug")
            .arg("-nameOfDebugFile")
            .arg(debug)
            .env("DISPLAY", &display)
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start xboard"),
    );
    let start = Instant::now();
    let mut window = None;
    let mut last = (String::new(), Instant::now());
    loop {
        if xboard.0.try_wait().ok().flatten().is_some() {
            return None;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "XBoard never settled on the Venomous board: {}",
            last.0
        );
        std::thread::sleep(Duration::from_millis(200));
        let text = std::fs::read_to_string(debug).unwrap_or_default();
        if !text.contains("<first : setup (") {
            continue;
        }
        let Some(id) = window.clone().or_else(|| {
            let found = xdotool(&display, &["search", "--name", "Sissa"]);
            found.lines().next().map(|l| l.trim().to_string())
        }) else {
            continue;
        };
        window = Some(id.clone());
        // XBoard resizes its window when the engine's `setup` arrives (and passes through
        // other sizes on the way): wait until the window has held one size for a second.
        let geometry = xdotool(&display, &["getwindowgeometry", "--shell", &id]);
        if geometry != last.0 {
            last = (geometry, Instant::now());
            continue;
        }
        let field = |name: &str| -> i32 {
            geometry
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0)
        };
        if last.1.elapsed() > Duration::from_secs(1) && field("WIDTH=") >= 14 * SQUARE {
            return Some(Session {
                _xboard: xboard,
                _xvfb: xvfb,
                display,
                height: field("HEIGHT="),
            });
        }
    }
}

#[test]
fn human_drags_a_pawn_a_drop_and_a_wazir_knight() {
    let test = "xboard_drag";
    if !support::need_clients(test, &["Xvfb", "xdotool"]) {
        return;
    }
    let Some(xboard) = xboard_program() else {
        assert!(
            !support::clients_required(),
            "{test}: xboard missing and SISSA_REQUIRE_CLIENTS is set"
        );
        eprintln!("SKIP {test}: xboard not installed (run .ci/run)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("sissa-drag-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let debug = dir.join("debug.txt");
    let session = (1..=3)
        .find_map(|attempt| {
            let s = launch(&xboard, &dir, &debug);
            if s.is_none() {
                eprintln!("{test}: XBoard died at start-up (attempt {attempt}); again");
            }
            s
        })
        .expect("XBoard crashed three times at start-up");
    let (display, height) = (session.display.clone(), session.height);

    // 1. The e-pawn from e2 to e5 (XBoard: e1e4).
    let lines = drag_move(
        &display,
        &debug,
        cell(height, 2 + 4, 1),
        cell(height, 2 + 4, 4),
        ">first : usermove e1e4",
        1,
    );
    let (at, answer) = highlight_after(&lines, "e1");
    let mut before = replay(&lines[..at]);
    let e2 = before
        .variant()
        .geometry
        .parse_square_exact("e2", 1)
        .unwrap();
    assert_eq!(answer, support::expected_highlight(&mut before, Some(e2)));

    // 2. A Ninja pawn from White's hand onto e3 (a drop on e2 pushed one step: J@e2).
    let lines = drag_move(
        &display,
        &debug,
        cell(height, 13, 0),
        cell(height, 2 + 4, 2),
        ">first : usermove J@e2",
        2,
    );
    let (at, answer) = highlight_after(&lines, "l0");
    let mut before = replay(&lines[..at]);
    assert_eq!(answer, support::expected_highlight(&mut before, None));
    assert!(answer.contains('Y'), "{answer}");

    // 3. The Wazir-Knight's knight leap b1-c3 (XBoard: b0c2).
    let lines = drag_move(
        &display,
        &debug,
        cell(height, 2 + 1, 0),
        cell(height, 2 + 2, 2),
        ">first : usermove b0c2",
        3,
    );
    let (at, answer) = highlight_after(&lines, "b0");
    let mut before = replay(&lines[..at]);
    let b1 = before
        .variant()
        .geometry
        .parse_square_exact("b1", 1)
        .unwrap();
    assert_eq!(answer, support::expected_highlight(&mut before, Some(b1)));

    assert!(
        lines.iter().all(|l| !l.contains("Illegal move")),
        "an Illegal move in XBoard's debug file: {lines:?}"
    );
    // Everything replays: the engine and XBoard agree on every move.
    replay(&lines);
    let _ = std::fs::remove_dir_all(&dir);
}
