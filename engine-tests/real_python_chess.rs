//! python-chess (`chess.engine`) drives Sissa over UCI through a full game of orthodox chess
//! against Debian's Stockfish at skill level 0; python-chess validates every move and PV.
//!
//! Without `python3` + python-chess (or Stockfish) the test prints SKIP and passes, unless
//! `SISSA_REQUIRE_CLIENTS` is set (CI), where it fails.

mod support;

use std::path::Path;
use std::process::Command;

fn python_chess_available() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn stockfish() -> Option<String> {
    if support::on_path("stockfish") {
        return Some("stockfish".to_string());
    }
    let games = "/usr/games/stockfish";
    Path::new(games).is_file().then(|| games.to_string())
}

#[test]
fn python_chess_full_game_against_stockfish() {
    let test = "python_chess_full_game";
    if !support::need_clients(test, &["python3"]) {
        return;
    }
    if !python_chess_available() {
        assert!(
            !support::clients_required(),
            "{test}: python-chess missing and SISSA_REQUIRE_CLIENTS is set"
        );
        eprintln!("SKIP {test}: python-chess not installed (pip install chess)");
        return;
    }
    let opponent = stockfish();
    assert!(
        opponent.is_some() || !support::clients_required(),
        "{test}: stockfish missing and SISSA_REQUIRE_CLIENTS is set"
    );
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine-tests/python_chess_game.py"
    );
    let mut cmd = Command::new("python3");
    cmd.arg(script).arg(support::engine_path());
    match &opponent {
        Some(sf) => {
            cmd.arg(sf);
        }
        None => eprintln!("{test}: no stockfish, Sissa plays itself"),
    }
    let out = cmd.output().expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "python-chess game failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("game over after"), "{stdout}");
}
