//! Every perft suite in perft/, to the depths that run in seconds in release builds (deeper
//! counts stay available to `sissa perft --suite`).

use sissa::Position;
use sissa::perft::{parse_suite, perft};

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
