//! Real XBoard 4.9 under Xvfb: one engine-vs-engine game per variant, Sissa against Sissa.
//!
//! Each game runs at a fixed search depth with XBoard's draw adjudication after 30 moves,
//! so it takes seconds. The test reads XBoard's debug file (every line both engines sent),
//! replays the engines' moves through Sissa's rules and compares the result with the final
//! position XBoard saved. The Venomous game starts (through the first engine's `setup`) from
//! a position where White must capture and Black must then drop a Ninja pawn.
//!
//! Without `xvfb-run` or `xboard` the test prints SKIP and passes, unless
//! `SISSA_REQUIRE_CLIENTS` is set (CI), where it fails.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sissa::rules::moves::MoveKind;
use sissa::{Position, Variant};

/// One XBoard at a time: they share the machine with the engines they run.
static XBOARD: Mutex<()> = Mutex::new(());

/// Venomous: White's only move is Bd8xf6+ (a capture), and Black can answer the check only
/// by dropping a Ninja pawn on i9, h8 or g7.
const VENOMOUS_START: &str = "9k/9p/3B6/10/5b4/1r8/10/10/9r/K7R1[jjjjj] w - - 0 1";

/// Longest a game may take before the test declares XBoard stuck.
const GAME_DEADLINE: Duration = Duration::from_secs(150);

struct Game {
    debug: String,
    pgn: String,
    final_fen: String,
}

fn xboard_program() -> Option<PathBuf> {
    if support::on_path("xboard") {
        return Some(PathBuf::from("xboard"));
    }
    let games = Path::new("/usr/games/xboard");
    games.is_file().then(|| games.to_path_buf())
}

fn have_clients(test: &str) -> Option<PathBuf> {
    if !support::need_clients(test, &["xvfb-run"]) {
        return None;
    }
    match xboard_program() {
        Some(p) => Some(p),
        None => {
            assert!(
                !support::clients_required(),
                "{test}: xboard missing and SISSA_REQUIRE_CLIENTS is set"
            );
            eprintln!("SKIP {test}: xboard not installed (run .ci/run)");
            None
        }
    }
}

/// Plays one game; retries when XBoard itself crashes before saving the game (XBoard 4.9.1
/// under Xvfb occasionally dies at start-up).
fn play(xboard: &Path, cecp_variant: &str, setup_fen: Option<&str>) -> Game {
    play_with(xboard, cecp_variant, setup_fen, support::engine_path())
}

/// [`play`] with another engine command for both sides (`sissa --variants FILE`).
fn play_with(xboard: &Path, cecp_variant: &str, setup_fen: Option<&str>, engine: &str) -> Game {
    let _one = XBOARD.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!(
        "sissa-xboard-{}-{cecp_variant}",
        std::process::id()
    ));
    let mut last_error = String::new();
    for attempt in 1..=3 {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let pgn = dir.join("game.pgn");
        let fen = dir.join("final.fen");
        let debug = dir.join("debug.txt");
        let mut init = String::from("new\\nrandom\\n");
        if let Some(f) = setup_fen {
            init += &format!("option SetupFEN={f}\\n");
        }
        let mut cmd = Command::new("xvfb-run");
        cmd.arg("-a")
            .arg(xboard)
            .args(["-fcp", engine, "-scp", engine])
            .args(["-firstInitString", &init])
            .args(["-variant", cecp_variant])
            .args(["-matchMode", "true", "-matchGames", "1"])
            .args(["-testLegality", "false"])
            .args(["-searchDepth", "2", "-tc", "5"])
            .args(["-adjudicateDrawMoves", "30"])
            .args(["-popupExitMessage", "false", "-saveSettingsOnExit", "false"])
            .arg("-saveGameFile")
            .arg(&pgn)
            .arg("-savePositionFile")
            .arg(&fen)
            .arg("-debug")
            .arg("-nameOfDebugFile")
            .arg(&debug)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("start xvfb-run");
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait for xboard") {
                break Some(s);
            }
            if start.elapsed() > GAME_DEADLINE {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
        let game = Game {
            debug: read(&debug),
            pgn: read(&pgn),
            final_fen: read(&fen).lines().next().unwrap_or("").trim().to_string(),
        };
        match status {
            Some(s) if s.success() && !game.pgn.is_empty() && !game.final_fen.is_empty() => {
                eprintln!(
                    "{cecp_variant}: XBoard game done in {:.1} s (attempt {attempt})",
                    start.elapsed().as_secs_f64()
                );
                let _ = std::fs::remove_dir_all(&dir);
                return game;
            }
            Some(s) => last_error = format!("xboard exited with {s}"),
            None => panic!(
                "{cecp_variant}: XBoard did not finish within {GAME_DEADLINE:?}; debug tail:\n{}",
                tail(&game.debug)
            ),
        }
        eprintln!("{cecp_variant}: attempt {attempt} failed ({last_error}); retrying");
    }
    panic!("{cecp_variant}: XBoard failed three times: {last_error}");
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// The moves the two engines played, in order, as XBoard's debug file shows them; a
/// two-leg move comes in two `move` commands, the first ending in a comma, and is joined.
fn engine_moves(debug: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    let mut open = false;
    for l in debug.lines() {
        let Some((_, rest)) = l.split_once(' ') else {
            continue;
        };
        let Some(rest) = rest
            .strip_prefix("<first : ")
            .or_else(|| rest.strip_prefix("<second: "))
        else {
            continue;
        };
        let Some(mv) = rest.strip_prefix("move ") else {
            continue;
        };
        let mv = mv.trim();
        match moves.last_mut() {
            Some(last) if open => last.push_str(mv),
            _ => moves.push(mv.to_string()),
        }
        open = mv.ends_with(',');
    }
    moves
}

/// Plies from one FEN to a later one, by their move numbers and sides to move.
fn plies_between(from: &str, to: &str) -> usize {
    let ply = |fen: &str| {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let full: usize = f.last().and_then(|n| n.parse().ok()).unwrap_or(1);
        2 * full + usize::from(f.get(1) == Some(&"b"))
    };
    ply(to).saturating_sub(ply(from))
}

/// Board (with holdings letters sorted) and side to move of a FEN, for comparing XBoard's
/// FEN with Sissa's.
fn essence(fen: &str) -> (String, String, String) {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or("");
    let side = fields.next().unwrap_or("").to_string();
    let (squares, hand) = match board.split_once('[') {
        Some((b, h)) => (b, h.trim_end_matches(']')),
        None => (board, ""),
    };
    let mut hand: Vec<char> = hand.chars().filter(|c| c.is_ascii_alphabetic()).collect();
    hand.sort_unstable();
    (squares.to_string(), hand.into_iter().collect(), side)
}

/// Checks one game and returns (drops, captures) seen while replaying it.
fn check_game(variant: &str, start_fen: Option<&str>, game: &Game) -> (usize, usize) {
    let v = Variant::by_name(variant).unwrap();
    assert!(
        !game.debug.contains("Illegal move"),
        "{variant}: Illegal move in XBoard's debug file:\n{}",
        tail(&game.debug)
    );
    for bad in ["Forfeit", "Engine did not send setup", "Error ("] {
        assert!(
            !game.debug.contains(bad),
            "{variant}: '{bad}' in XBoard's debug file:\n{}",
            tail(&game.debug)
        );
    }
    let result = game
        .pgn
        .lines()
        .find_map(|l| l.strip_prefix("[Result \""))
        .and_then(|r| r.strip_suffix("\"]"))
        .unwrap_or("");
    assert!(
        ["1-0", "0-1", "1/2-1/2"].contains(&result),
        "{variant}: result '{result}' in\n{}",
        game.pgn
    );
    let mut pos = match start_fen {
        Some(f) => Position::from_fen(v, f).unwrap(),
        None => Position::startpos(v),
    };
    let base = if v.geometry.ranks() == 10 { 0 } else { 1 };
    let sent = engine_moves(&game.debug);
    // XBoard's saved position tells how many plies it accepted; a move that arrives after
    // XBoard adjudicated the game is not played, so at most one trailing move is extra.
    let plies = plies_between(&pos.fen(), &game.final_fen);
    assert!(
        plies <= sent.len() && sent.len() <= plies + 1,
        "{variant}: XBoard kept {plies} plies, the engines sent {}",
        sent.len()
    );
    let moves = &sent[..plies];
    assert!(!moves.is_empty(), "{variant}: no moves in the debug file");
    let (mut drops, mut captures) = (0, 0);
    for text in moves {
        let mv = pos
            .parse_move(text, base)
            .unwrap_or_else(|e| panic!("{variant}: engine move {text} does not replay: {e}"));
        if mv.kind == MoveKind::Drop {
            drops += 1;
        }
        let victim = pos
            .piece_at(mv.to)
            .is_some_and(|p| p.color != pos.side_to_move());
        if mv.kind == MoveKind::EnPassant || (mv.kind == MoveKind::Normal && victim) {
            captures += 1;
        }
        pos.make(mv);
    }
    assert_eq!(
        essence(&game.final_fen),
        essence(&pos.fen()),
        "{variant}: XBoard's final position {} differs from Sissa's {} after {} moves",
        game.final_fen,
        pos.fen(),
        moves.len()
    );
    eprintln!(
        "{variant}: {} plies, result {result}, final {}",
        moves.len(),
        game.final_fen
    );
    (drops, captures)
}

#[test]
fn xboard_match_venator() {
    let Some(xboard) = have_clients("xboard_match_venator") else {
        return;
    };
    let game = play(&xboard, "venator", None);
    assert!(game.debug.contains("setup ("), "no setup line");
    check_game("venator", None, &game);
}

#[test]
fn xboard_match_gustav3() {
    let Some(xboard) = have_clients("xboard_match_gustav3") else {
        return;
    };
    let game = play(&xboard, "gustav3", None);
    check_game("gustav3", None, &game);
}

#[test]
fn xboard_match_chess() {
    let Some(xboard) = have_clients("xboard_match_chess") else {
        return;
    };
    let game = play(&xboard, "normal", None);
    check_game("chess", None, &game);
}

#[test]
fn xboard_match_venomous_with_drop_and_capture() {
    let Some(xboard) = have_clients("xboard_match_venomous") else {
        return;
    };
    let game = play(&xboard, "venomous", Some(VENOMOUS_START));
    assert!(
        game.debug.contains(&format!("setboard {VENOMOUS_START}")),
        "XBoard did not pass the setup position to the second engine:\n{}",
        tail(&game.debug)
    );
    let (drops, captures) = check_game("venomous", Some(VENOMOUS_START), &game);
    assert!(drops >= 1, "no drop in the Venomous game");
    assert!(captures >= 1, "no capture in the Venomous game");
}

/// Loads variants/sissa.ini into this process (once: a variant name may not be loaded twice)
/// and gives the engine command that loads it too.
fn own_variants_engine() -> String {
    static LOADED: std::sync::Once = std::sync::Once::new();
    let file = format!("{}/variants/sissa.ini", env!("CARGO_MANIFEST_DIR"));
    LOADED.call_once(|| {
        sissa::tools::variant_files::load(Path::new(&file)).expect("variants/sissa.ini");
    });
    format!("{} --variants {file}", support::engine_path())
}

#[test]
fn xboard_match_file_variant() {
    let Some(xboard) = have_clients("xboard_match_file_variant") else {
        return;
    };
    let engine = own_variants_engine();
    let game = play_with(&xboard, "sissa-chess", None, &engine);
    assert!(game.debug.contains("setup ("), "no setup line");
    assert!(
        game.debug.contains("piece S& maifsbsRmaifsbsB"),
        "no piece line for the Sissa"
    );
    check_game("sissa-chess", None, &game);
}

#[test]
fn xboard_match_file_variant_with_locust_captures() {
    let Some(xboard) = have_clients("xboard_match_file_variant_with_locust_captures") else {
        return;
    };
    let engine = own_variants_engine();
    // Black's queen stands where only a jumper (b1) or a rifle (c1) can take it, and
    // either takes it by a locust capture.
    let start = "rjlqkljr/pppppppp/8/8/8/8/PPqPPPPP/RJL1KLJR w KQkq - 0 1";
    let game = play_with(&xboard, "locust-chess", Some(start), &engine);
    assert!(
        game.debug.contains("piece J& mFcafmF"),
        "no piece line for the jumper"
    );
    check_game("locust-chess", Some(start), &game);
    let locusts = engine_moves(&game.debug)
        .iter()
        .filter(|m| m.contains(','))
        .count();
    assert!(locusts >= 1, "no locust capture in the game:\n{}", game.pgn);
}
