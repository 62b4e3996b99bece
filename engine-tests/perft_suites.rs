//! Every perft suite in perft/, to the depths that run in seconds in release builds (deeper
//! counts stay available to `sissa perft --suite`).

use sissa::Position;
use sissa::rules::perft::perft;
use sissa::tools::perft_suite::parse_suite;

/// Leaf counts above this are left to `sissa perft --suite`.
const MAX_LEAVES: u64 = 20_000_000;

fn run_suite(file: &str) {
    let path = format!("{}/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let suite = parse_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!suite.is_empty(), "{path} holds no positions");
    let mut checked = 0;
    for entry in suite {
        let mut pos = Position::from_fen(entry.variant, &entry.fen).expect("suite FEN");
        for &(depth, expected) in entry.expected.iter().filter(|(_, n)| *n <= MAX_LEAVES) {
            assert_eq!(
                perft(&mut pos, depth),
                expected,
                "{file} line {} depth {depth}: {}",
                entry.line,
                entry.fen
            );
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn chess_suite() {
    run_suite("chess.epd");
}

#[test]
fn gustav3_suite() {
    run_suite("gustav3.epd");
}

#[test]
fn venator_suite() {
    run_suite("venator.epd");
}

#[test]
fn venomous_suite() {
    run_suite("venomous.epd");
}

/// Every line of the reference suites (perft/reference/, counted by an independent
/// implementation and kept unchanged) must be in ours.
#[test]
fn reference_lines_are_all_in_our_suites() {
    for name in ["venator.epd", "venomous.epd"] {
        let path = format!("{}/perft/reference/{name}", env!("CARGO_MANIFEST_DIR"));
        let reference = std::fs::read_to_string(&path).expect("reference suite");
        let ours = std::fs::read_to_string(format!("{}/perft/{name}", env!("CARGO_MANIFEST_DIR")))
            .expect("our suite");
        for line in reference.lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                ours.lines().any(|l| l.trim() == line.trim()),
                "{name} lacks reference line {line}"
            );
        }
    }
}

/// Parallel perft with a (deliberately small) shared table gives the same counts, through
/// the binary, on every suite.
#[test]
fn threads_and_a_table_give_the_same_counts() {
    for v in ["chess", "gustav3", "venator", "venomous"] {
        let path = format!("{}/perft/{v}.epd", env!("CARGO_MANIFEST_DIR"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sissa"))
            .args(["perft", "--suite", &path, "--threads", "2", "--hash", "1"])
            .args(["--max-nodes", "5000000"])
            .output()
            .expect("run sissa");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{v}: {text}");
        assert!(
            text.contains("positions match") && !text.contains("MISMATCH"),
            "{text}"
        );
    }
}

/// `--against` agrees with a program that counts the same, and walks an injected difference
/// down to the position where the move lists part: here "the other program" is Sissa itself
/// with the castling rights wiped from every FEN it is given, so black's castlings go missing
/// one ply down.
#[test]
fn against_walks_down_to_the_missing_moves() {
    let sissa = env!("CARGO_BIN_EXE_sissa");
    let fen = "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1";
    let run = |template: &str| {
        std::process::Command::new(sissa)
            .args(["perft", "--variant", "chess", "--fen", fen, "--depth", "3"])
            .args(["--against", template])
            .output()
            .expect("run sissa")
    };
    let honest =
        format!("{sissa} perft --variant {{variant}} --fen '{{fen}}' --depth {{depth}} --divide");
    let out = run(&honest);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success() && text.starts_with("agree: "),
        "{text}"
    );

    let forgetful = format!(
        "{sissa} perft --variant {{variant}} --fen \"$(echo '{{fen}}' | awk '{{$3=\"-\"; print}}')\" \
         --depth {{depth}} --divide"
    );
    let out = run(&forgetful);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("at the root (depth 3): a1a2 counts 726 here and 666 there"),
        "{text}"
    );
    assert!(
        text.contains("the move lists differ after a1a2 (depth 2)"),
        "{text}"
    );
    assert!(
        text.contains("missing in the other program: e8c8 e8g8"),
        "{text}"
    );

    let out = run("/nonexistent/engine");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        !out.status.success() && err.contains("cannot start"),
        "{err}"
    );
}
