//! Regressions for the defects found by using Sissa as a demanding user and as an attacker
//! would (issue 10): one test per defect, through the binary as a GUI or a shell drives it,
//! and a property test that no accepted move sequence reaches a position FEN reading refuses.

mod support;

use std::process::{Command, Output};

use sissa::rng::Rng;
use sissa::{Position, Variant};
use support::{Engine, Scratch, engine_path};

fn uci() -> Engine {
    uci_with_env(&[])
}

fn uci_with_env(env: &[(&str, &str)]) -> Engine {
    let mut e = Engine::start_with_env(env);
    e.send("uci");
    e.until(|l| l == "uciok");
    e
}

fn cecp_with_env(env: &[(&str, &str)]) -> Engine {
    let mut e = Engine::start_with_env(env);
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l == "feature done=1");
    e
}

fn cecp() -> Engine {
    cecp_with_env(&[])
}

/// The FEN Sissa holds (UCI `d`).
fn fen(e: &mut Engine) -> String {
    e.send("d");
    let (line, _) = e.until_prefix("info string fen ");
    line["info string fen ".len()..].to_string()
}

/// Runs `sissa ARGS` and returns its output.
fn sissa(args: &[&str]) -> Output {
    Command::new(engine_path())
        .args(args)
        .output()
        .expect("run sissa")
}

/// Asserts a command-line run failed with status 1 and a `sissa: ...` message containing
/// `wanted`, and no panic.
fn assert_refused(out: &Output, wanted: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {err}");
    assert!(err.starts_with("sissa: ") && err.contains(wanted), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
}

// 1. A large hash is allocated when it is set, before `readyok`/`pong`, never inside `go`.

#[test]
fn uci_hash_is_allocated_when_set_not_on_the_clock() {
    let mut e = uci_with_env(&[("RUST_LOG", "info")]);
    e.send("setoption name Hash value 64");
    e.sync_uci();
    assert!(
        e.stderr_shows("hash table: 64 MB allocated"),
        "{}",
        e.stderr()
    );
    e.send("position startpos");
    e.send("go depth 2");
    e.until_prefix("bestmove");
    e.sync_uci();
    let allocations = e.stderr().matches("hash table:").count();
    assert_eq!(allocations, 1, "go allocated again: {}", e.stderr());
    // Set during a search: applied when the search ends, not by the next `go`.
    e.send("go infinite");
    e.send("setoption name Hash value 32");
    e.send("stop");
    e.until_prefix("bestmove");
    e.sync_uci();
    assert!(e.stderr_shows("hash table: 32 MB allocated"));
}

#[test]
fn cecp_memory_is_allocated_before_pong() {
    let mut e = cecp_with_env(&[("RUST_LOG", "info")]);
    e.send("memory 48");
    e.sync_cecp(1);
    assert!(
        e.stderr_shows("hash table: 48 MB allocated"),
        "{}",
        e.stderr()
    );
}

/// Total memory and swap of this machine in GiB (0 where /proc/meminfo cannot be read).
fn memory_gib() -> u64 {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib = |key: &str| -> u64 {
        info.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (kib("MemTotal:") + kib("SwapTotal:")) >> 20
}

#[test]
fn a_hash_the_machine_cannot_give_keeps_the_old_table() {
    let gib = memory_gib();
    if gib == 0 || gib >= 60 {
        eprintln!("SKIP: this machine ({gib} GiB) could allocate the largest hash");
        return;
    }
    let mut e = uci();
    e.send("setoption name Hash value 65536");
    let lines = e.sync_uci();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: cannot allocate")
                && l.contains("keeping the 16 MB table")),
        "{lines:?}"
    );
    e.send("position startpos");
    e.send("go depth 3");
    e.until_prefix("bestmove");
}

// 2. A null move is refused while in check, so the king can never be captured.

#[test]
fn uci_null_move_in_check_is_refused() {
    let mut e = uci();
    let start = "4k3/8/8/8/8/8/8/4K2r w - - 0 1";
    e.send(&format!("position fen {start} moves 0000 h1e1"));
    let lines = e.sync_uci();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("illegal move '0000'")
                && l.contains("cannot be made while in check")),
        "{lines:?}"
    );
    assert_eq!(fen(&mut e), start);
    e.send("go perft 2");
    let (_, lines) = e.until_prefix("Nodes searched");
    assert!(!lines.iter().any(|l| l.starts_with("h1e1")), "{lines:?}");

    e.send("setoption name UCI_Variant value venomous");
    let venomous = "4k5/10/10/10/10/10/10/10/10/4K4r[JJjj] w - - 0 1";
    e.send(&format!("position fen {venomous} moves 0000"));
    let lines = e.sync_uci();
    assert!(
        lines.iter().any(|l| l.contains("illegal move '0000'")),
        "{lines:?}"
    );
    assert_eq!(fen(&mut e), venomous);
}

#[test]
fn cecp_null_move_in_check_is_refused() {
    let mut e = cecp();
    e.send("new");
    e.send("force");
    e.send("setboard 4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    e.send("analyze");
    e.send("usermove @@@@");
    e.send("usermove h1e1");
    e.send("exit");
    let lines = e.sync_cecp(1);
    assert!(
        lines
            .iter()
            .any(|l| l == "Illegal move (a null move cannot be made while in check): @@@@"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Illegal move (") && l.ends_with("): h1e1")),
        "{lines:?}"
    );
    e.send("go");
    let (line, _) = e.until(|l| l.starts_with("move ") || l.contains('{'));
    assert!(line.starts_with("move e1"), "{line}");
}

// 3. An absurd perft depth is refused instead of overflowing the stack.

#[test]
fn perft_depth_beyond_the_limit_is_refused() {
    let out = sissa(&[
        "perft",
        "--depth",
        "5000",
        "--fen",
        "7k/8/8/8/8/8/8/K7 w - - 0 1",
    ]);
    assert_refused(&out, "perft depth 5000 is too deep");
    let dir = Scratch::new("defects-perft");
    let suite = dir.file("deep.epd", b"chess;7k/8/8/8/8/8/8/K7 w - - 0 1;D5000 1\n");
    let out = sissa(&["perft", "--suite", suite.to_str().expect("path")]);
    assert_refused(&out, "line 1: perft depth 5000 is too deep");
}

// 4. Size flags are bounded and one rule holds for every tool.

#[test]
fn hash_and_concurrency_flags_are_bounded() {
    for args in [
        &["search", "--hash", "100000000", "--depth", "1"][..],
        &["search", "--hash", "0", "--depth", "1"][..],
        &["selfplay", "--hash", "100000000"][..],
        &["selfplay", "--hash", "0"][..],
    ] {
        let out = sissa(args);
        assert_refused(&out, "--hash: hash size");
        assert_refused(&out, "out of range (1 to 65536 MB)");
    }
    let out = sissa(&[
        "match",
        "--concurrency",
        "100000",
        "--engine",
        "name=a cmd=a proto=uci",
        "--engine",
        "name=b cmd=b proto=uci",
    ]);
    assert_refused(&out, "--concurrency must be from 1 to 256");
}

// 5. CECP thinks 5 s a move when it has been given no clock, no `st` and no `sd`.

#[test]
fn cecp_default_think_time_is_five_seconds() {
    let mut e = cecp_with_env(&[("RUST_LOG", "info")]);
    e.send("new");
    e.send("usermove e2e4");
    e.until_prefix("move ");
    assert!(
        e.stderr_shows("think: movetime Some(5s), clock None, depth None"),
        "{}",
        e.stderr()
    );
    // `sd` alone is a depth limit only, and `level` adds a clock below it.
    e.send("new");
    e.send("sd 2");
    e.send("usermove e2e4");
    e.until_prefix("move ");
    assert!(
        e.stderr_shows("think: movetime None, clock None, depth Some(2)"),
        "{}",
        e.stderr()
    );
    e.send("level 40 0:20 0");
    e.send("usermove d2d4");
    e.until_prefix("move ");
    assert!(
        e.stderr_shows(
            "clock Some(Clock { time: 20s, inc: 0ns, moves_to_go: Some(39) }), depth Some(2)"
        ),
        "{}",
        e.stderr()
    );
}

// 6. `searchmoves` reads legal moves and reports the rest; a bad number is one error.

#[test]
fn searchmoves_searches_only_the_legal_moves_given() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go depth 3 searchmoves e2e5 g1f3");
    let (best, lines) = e.until_prefix("bestmove");
    assert_eq!(best.split_whitespace().nth(1), Some("g1f3"), "{lines:?}");
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("illegal move 'e2e5'"), "{errors:?}");
    for l in lines.iter().filter(|l| l.contains(" pv ")) {
        assert!(l.contains(" pv g1f3"), "{l}");
    }
}

#[test]
fn a_bad_go_number_is_one_error_and_the_other_limits_apply() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go depth abc nodes 2000");
    let (_, lines) = e.until_prefix("bestmove");
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("go depth needs a number, not 'abc'"));
    // The node limit held: the search stopped by itself, at about 2000 nodes.
    let nodes: Vec<u64> = lines
        .iter()
        .filter_map(|l| {
            let mut it = l.split_whitespace().skip_while(|&w| w != "nodes");
            it.nth(1).and_then(|n| n.parse().ok())
        })
        .collect();
    assert!(nodes.iter().all(|&n| n <= 4000), "{nodes:?}");
}

// 7. `sissa pgn`: Latin-1 files, an illegal game followed by others, and null moves.

#[test]
fn pgn_reads_latin1_goes_past_an_illegal_game_and_reads_null_moves() {
    let mut text: Vec<u8> = Vec::new();
    text.extend_from_slice(
        b"[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n",
    );
    text.extend_from_slice(
        b"[White \"M\xfcller\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 -- 2. d4 *\n\n",
    );
    let dir = Scratch::new("defects-pgn");
    let path = dir.file("latin1.pgn", &text);
    let out = sissa(&["pgn", path.to_str().expect("path")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not UTF-8"), "{stderr}");
    assert!(stderr.contains("read as Latin-1"), "{stderr}");
    assert!(
        stdout.contains("game 1, move 2.") && stdout.contains("NOT REPLAYED"),
        "{stdout}"
    );
    assert!(
        stdout.contains("game 2: M\u{fc}ller - D: * after 3 plies"),
        "{stdout}"
    );
    assert!(stdout.contains("1 game(s) replayed"), "{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("1 game(s) with an illegal or unreadable move"));

    // `--` is no escape from check.
    let in_check =
        b"[FEN \"4k3/8/8/8/8/8/8/4K2r w - - 0 1\"]\n[SetUp \"1\"]\n[Result \"*\"]\n\n1. -- *\n";
    let path = dir.file("check.pgn", in_check);
    let out = sissa(&["pgn", path.to_str().expect("path")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("cannot be made while in check"), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
}

// 8. Messages name whole squares, bare CECP moves are moves, control bytes are escaped.

#[test]
fn illegal_move_messages_name_the_whole_square() {
    let mut e = uci();
    e.send("position startpos moves e3e4");
    let lines = e.sync_uci();
    assert!(
        lines.iter().any(|l| l.contains("'e3e4': no piece on e3;")),
        "{lines:?}"
    );
    e.send("setoption name UCI_Variant value venomous");
    e.send("position fen 4k5/10/10/10/10/10/10/10/10/4K5[] w - - 0 1 moves f10f9");
    let lines = e.sync_uci();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("'f10f9': no piece on f10;")),
        "{lines:?}"
    );

    let mut c = cecp();
    c.send("new");
    c.send("usermove e3e4");
    c.send("e3e4");
    c.send("variant venomous");
    c.send("setboard 4k5/10/10/10/10/10/10/10/10/4K5[] w - - 0 1");
    c.send("force");
    c.send("usermove f9f8");
    let lines = c.sync_cecp(1);
    let illegal: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("Illegal move"))
        .collect();
    assert_eq!(
        illegal,
        [
            "Illegal move (no piece on e3): e3e4",
            "Illegal move (no piece on e3): e3e4",
            "Illegal move (no piece on f9): f9f8",
        ],
        "{lines:?}"
    );
}

#[test]
fn a_bare_move_after_mate_is_an_illegal_move() {
    let mut c = cecp();
    c.send("new");
    c.send("force");
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        c.send(&format!("usermove {m}"));
    }
    c.send("g1f3");
    let lines = c.sync_cecp(1);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Illegal move (") && l.ends_with("): g1f3")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("unknown command")),
        "{lines:?}"
    );
}

#[test]
fn control_bytes_are_escaped_in_replies() {
    let mut e = uci();
    e.send_raw(b"foo\x00bar\x1b[2J\rtail\n");
    let lines = e.sync_uci();
    assert_eq!(
        lines,
        ["info string error: unknown command 'foo\\u{0}bar\\u{1b}[2J\\rtail'"]
    );
    let mut c = cecp();
    c.send_raw(b"bogus\rmore\n");
    let lines = c.sync_cecp(1);
    assert_eq!(lines, ["Error (unknown command): bogus\\rmore"]);
}

// 9. Lifting from the hand marks only the side to move's drops; unknown squares are refused.

#[test]
fn lifting_from_a_hand_marks_only_that_sides_drops() {
    let mut c = cecp();
    c.send("new");
    c.send("variant venomous");
    c.send("force");
    // Both sides have a free second rank square: White may drop on d1 (0-based ranks), Black
    // on f8.
    c.send("usermove d1d4");
    c.send("usermove f8f5");
    c.send("lift l0");
    let (white, _) = c.until_prefix("highlight");
    let mut pos = Position::setup("venomous", None, &["d2d5".to_string(), "f9f6".to_string()])
        .expect("position");
    assert_eq!(white, support::expected_highlight(&mut pos, None));
    assert!(white.contains('Y'), "White has drops: {white}");
    c.send("lift _9");
    let (black, _) = c.until_prefix("highlight");
    assert_eq!(black, "highlight 10/10/10/10/10/10/10/10/10/10");
    for square in ["z99", "l10", "_", "m0", "l"] {
        c.send(&format!("lift {square}"));
        let (line, _) = c.until(|l| l.starts_with("Error") || l.starts_with("highlight"));
        assert_eq!(
            line,
            format!("Error (not a square of this board): lift {square}")
        );
    }
}

// The property behind item 2: whatever sequence of moves the engine accepts, null moves
// included, the position stays one that FEN reading accepts.

#[test]
fn accepted_move_sequences_never_leave_a_position_fen_refuses() {
    let mut rng = Rng::new(0x5155_a10e);
    for v in Variant::all() {
        for game in 0..40 {
            let mut pos = Position::startpos(v);
            for ply in 0..120 {
                let fen = pos.fen();
                if let Err(e) = Position::from_fen(v, &fen) {
                    panic!(
                        "{} game {game} ply {ply}: the position {fen} is refused: {e}",
                        v.id()
                    );
                }
                let legal = pos.legal_moves();
                let text = if rng.below(4) == 0 || legal.is_empty() {
                    "0000".to_string()
                } else {
                    pos.move_text(legal[rng.below(legal.len())], 1)
                };
                match pos.parse_move(&text, 1) {
                    Ok(mv) => pos.make(mv),
                    Err(_) if legal.is_empty() => break,
                    Err(_) => {
                        assert_eq!(text, "0000", "a legal move's text was refused");
                        assert!(pos.in_check(), "a null move refused out of check: {fen}");
                    }
                }
            }
        }
    }
}
