//! `sissa match` and `sissa pgn` end to end: scripted fake engines (engine-tests/fakes/) that
//! mate, misbehave, hang or crash; PGN and records replayed through the library; adjudication;
//! SPRT arithmetic against independent computations and published values; bad input; and
//! Sissa-vs-Sissa games once Sissa speaks UCI and CECP.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;

use sissa::notation::pgn::parse_pgn;
use sissa::tournament::stats::{
    Pentanomial, Sprt, SprtModel, SprtVerdict, Wld, expected_score, llr_bayes, llr_gsprt,
};
use sissa::{Position, Variant};
use support::{Scratch, sissa, text};

const SISSA: &str = env!("CARGO_BIN_EXE_sissa");

fn fake() -> String {
    format!(
        "{}/engine-tests/fakes/fake_engine.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// An `--engine` spec for the fake with these arguments.
fn fake_spec(name: &str, proto: &str, fake_args: &str) -> String {
    format!(
        "name={name} cmd=\"python3 {} --proto {proto} {fake_args}\" proto={}",
        fake(),
        if proto == "uci" { "uci" } else { "xboard" }
    )
}

fn scratch(tag: &str) -> Scratch {
    Scratch::new(&format!("tournament-{tag}"))
}

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const FOOLS_MATE: &str = "'f2f3 e7e5 g2g4 d8h4'";

/// A finished match: its output and the records and PGN it wrote.
struct Played {
    stdout: String,
    stderr: String,
    records: Vec<Record>,
    pgn: String,
}

#[derive(Debug)]
struct Record {
    variant: String,
    fen: String,
    result: String,
    termination: String,
    moves: Vec<String>,
}

fn read_records(path: &Path) -> Vec<Record> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            assert_eq!(f.len(), 5, "record line {l}");
            Record {
                variant: f[0].to_string(),
                fen: f[1].to_string(),
                result: f[2].to_string(),
                termination: f[3].to_string(),
                moves: f[4].split_whitespace().map(str::to_string).collect(),
            }
        })
        .collect()
}

/// Runs a match with two engines, an openings file holding `opening` (if any) and the extra
/// arguments; asserts it succeeded.
fn play(
    tag: &str,
    variant: &str,
    engines: [&str; 2],
    opening: Option<&str>,
    extra: &[&str],
) -> Played {
    let dir = scratch(tag);
    let pgn = dir.join("games.pgn");
    let records = dir.join("games.txt");
    let mut args: Vec<String> = vec![
        "match".into(),
        "--variant".into(),
        variant.into(),
        "--engine".into(),
        engines[0].into(),
        "--engine".into(),
        engines[1].into(),
        "--pgn".into(),
        pgn.display().to_string(),
        "--records".into(),
        records.display().to_string(),
    ];
    if let Some(o) = opening {
        let file = dir.join("openings.epd");
        std::fs::write(&file, format!("{variant};{o}\n")).expect("openings");
        args.push("--openings".into());
        args.push(file.display().to_string());
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    // The fakes answer at once; a wide margin keeps a loaded machine from turning their moves
    // into time forfeits. Tests about time set their own.
    if !extra.contains(&"--margin-ms") {
        args.extend(["--margin-ms".to_string(), "3000".to_string()]);
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = sissa(&refs);
    let played = Played {
        stdout: text(&out.stdout),
        stderr: text(&out.stderr),
        records: read_records(&records),
        pgn: std::fs::read_to_string(&pgn).unwrap_or_default(),
    };
    assert!(
        out.status.success(),
        "match failed\nstdout:\n{}\nstderr:\n{}",
        played.stdout,
        played.stderr
    );
    assert!(!played.stderr.contains("panicked"), "{}", played.stderr);
    played
}

/// Replays the records and the PGN through the library and checks both reach the same final
/// positions and results, and that `sissa pgn` agrees with the rules on every game.
fn check_replays(p: &Played) {
    let games = parse_pgn(&p.pgn).expect("PGN written by a match parses");
    assert_eq!(games.len(), p.records.len(), "one PGN game per record");
    // PGN games and records are written in the same (completion) order.
    for (i, (g, r)) in games.iter().zip(&p.records).enumerate() {
        let v = Variant::by_name(&r.variant).expect("record variant");
        let mut pos = Position::from_fen(v, &r.fen).expect("record FEN");
        for m in &r.moves {
            let mv = pos
                .parse_move(m, 1)
                .unwrap_or_else(|e| panic!("record move {m}: {e}"));
            pos.make(mv);
        }
        let from_pgn = g.replay(i + 1).expect("PGN replays");
        assert_eq!(from_pgn.fen(), pos.fen(), "game {}", i + 1);
        assert_eq!(g.result, r.result, "game {}", i + 1);
        assert_eq!(g.tag("Result"), Some(r.result.as_str()));
        assert_eq!(g.tag("Variant"), Some(r.variant.as_str()));
        if let Some(o) = pos.outcome() {
            assert_eq!(o.result(), r.result, "rules vs record, game {}", i + 1);
        }
    }
    let dir = scratch("replay");
    let file = dir.join("games.pgn");
    std::fs::write(&file, &p.pgn).expect("write pgn");
    let out = sissa(&["pgn", &file.display().to_string()]);
    assert!(
        out.status.success(),
        "sissa pgn: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert_eq!(
        text(&out.stdout).matches("final FEN").count(),
        p.records.len()
    );
}

#[test]
fn scripted_uci_and_cecp_engines_reach_checkmate() {
    let p = play(
        "mate",
        "chess",
        [
            &fake_spec("uci-fake", "uci", &format!("--script {FOOLS_MATE}")),
            &fake_spec("cecp-fake", "xboard", &format!("--script {FOOLS_MATE}")),
        ],
        Some(CHESS_START),
        &["--games", "2", "--st", "0.5"],
    );
    assert_eq!(p.records.len(), 2);
    for r in &p.records {
        assert_eq!(r.result, "0-1");
        assert_eq!(r.termination, "checkmate");
        assert_eq!(r.moves, ["f2f3", "e7e5", "g2g4", "d8h4"]);
    }
    assert!(p.pgn.contains("2... Qh4#"), "{}", p.pgn);
    assert!(p.pgn.contains("[Termination \"normal\"]"));
    assert!(
        p.stdout
            .contains("Score of uci-fake vs cecp-fake: 1 - 1 - 0"),
        "{}",
        p.stdout
    );
    assert!(
        p.stdout.contains("Ptnml(0-2): [0, 0, 1, 0, 0]"),
        "{}",
        p.stdout
    );
    check_replays(&p);
}

#[test]
fn an_engine_of_its_own_node_limit_gets_it_in_every_go() {
    let dir = scratch("own-nodes");
    let log = dir.join("io.log");
    let own = format!(
        "{} nodes=1234",
        fake_spec("own", "uci", &format!("--script {FOOLS_MATE}"))
    );
    let p = play(
        "own-nodes-games",
        "chess",
        [
            &own,
            &fake_spec("shared", "uci", &format!("--script {FOOLS_MATE}")),
        ],
        Some(CHESS_START),
        &[
            "--games",
            "2",
            "--nodes",
            "500",
            "--debug",
            &log.display().to_string(),
        ],
    );
    assert_eq!(p.records.len(), 2);
    let text = std::fs::read_to_string(&log).expect("log");
    let goes = |name: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains(&format!(" {name} > go")))
            .map(|l| l.split(" > ").nth(1).unwrap_or_default().to_string())
            .collect()
    };
    let (own, shared) = (goes("own"), goes("shared"));
    assert!(!own.is_empty() && !shared.is_empty(), "{text}");
    assert!(own.iter().all(|g| g == "go nodes 1234"), "{own:?}");
    assert!(shared.iter().all(|g| g == "go nodes 500"), "{shared:?}");
}

#[test]
fn cecp_squares_drops_and_setup_on_a_ten_rank_board() {
    // The CECP fake writes and checks ranks from 0, the UCI fake from 1; both play one line.
    let p = play(
        "venomous",
        "venomous",
        [
            &fake_spec("cecp", "xboard", "--setup --script 'e1e3 e8e6 J@e2 J@e7'"),
            &fake_spec("uci", "uci", "--script 'e2e4 e9e7 J@e3 J@e8'"),
        ],
        None,
        &[
            "--games",
            "2",
            "--st",
            "0.5",
            "--book-plies",
            "0",
            "--seed",
            "1",
        ],
    );
    let want = ["e2e4", "e9e7", "J@e3", "J@e8"];
    for r in &p.records {
        assert_eq!(r.moves, want, "{r:?}");
        assert_eq!(r.result, "0-1");
    }
    // The CECP fake resigns when its script ends; the UCI fake plays the illegal 'desync'.
    assert!(p.records.iter().any(|r| r.termination == "white resigns"));
    assert!(p.records.iter().any(|r| {
        r.termination
            .starts_with("white makes an illegal move: desync")
    }));
    assert!(p.pgn.contains("J@e3"), "{}", p.pgn);
    assert!(p.pgn.contains("[Termination \"rules infraction\"]"));
    check_replays(&p);
}

#[test]
fn illegal_move_loses_with_the_move_and_reason() {
    let p = play(
        "illegal",
        "chess",
        [
            &fake_spec("bad", "uci", "--mode illegal --bad-move e2e5"),
            &fake_spec("good", "xboard", &format!("--script {FOOLS_MATE}")),
        ],
        Some(CHESS_START),
        &["--games", "2", "--st", "0.5"],
    );
    assert_eq!(p.records.len(), 2);
    for r in &p.records {
        let bad_is_white = r.moves.is_empty();
        assert_eq!(r.result, if bad_is_white { "0-1" } else { "1-0" });
        assert!(r.termination.contains("illegal move: e2e5"), "{r:?}");
    }
    assert!(
        p.pgn.contains("the white pawn cannot move that way here"),
        "{}",
        p.pgn
    );
    assert!(
        p.pgn
            .contains("that is a white piece and it is black to move"),
        "{}",
        p.pgn
    );
    assert!(
        p.stdout.contains("Score of bad vs good: 0 - 2 - 0"),
        "{}",
        p.stdout
    );
    check_replays(&p);
}

#[test]
fn hang_loses_on_time() {
    let start = Instant::now();
    let p = play(
        "hang",
        "chess",
        [
            &fake_spec("hangs", "xboard", "--mode hang"),
            &fake_spec("good", "uci", &format!("--script {FOOLS_MATE}")),
        ],
        Some(CHESS_START),
        &["--games", "2", "--st", "0.2", "--margin-ms", "100"],
    );
    for r in &p.records {
        assert!(r.termination.ends_with("loses on time"), "{r:?}");
    }
    assert!(p.pgn.contains("[Termination \"time forfeit\"]"));
    assert!(
        p.stdout.contains("Score of hangs vs good: 0 - 2 - 0"),
        "{}",
        p.stdout
    );
    assert!(start.elapsed() < Duration::from_secs(20));
    check_replays(&p);
}

#[test]
fn clock_overrun_loses_on_time() {
    // 0.3 s per move on a 1 s clock: the slow engine runs out on its fourth move.
    let p = play(
        "clock",
        "chess",
        [
            &fake_spec(
                "slow",
                "uci",
                "--mode slow --delay 0.3 --cycle --script 'g1f3 g8f6 f3g1 f6g8'",
            ),
            &fake_spec("fast", "uci", "--cycle --script 'g1f3 g8f6 f3g1 f6g8'"),
        ],
        Some(CHESS_START),
        &[
            "--games",
            "1",
            "--tc",
            "1+0",
            "--margin-ms",
            "50",
            "--maxmoves",
            "50",
        ],
    );
    let r = &p.records[0];
    assert_eq!(r.result, "0-1");
    assert_eq!(r.termination, "white loses on time");
    assert!(p.pgn.contains("[TimeControl \"1\"]"), "{}", p.pgn);
}

#[test]
fn moves_per_period_refill_the_clock() {
    // 0.4 s per move against 2 moves per second (0.3 s margin): only the refill after every
    // second move keeps the slow engine alive until the repetition on ply 8.
    let p = play(
        "period",
        "chess",
        [
            &fake_spec("slow", "uci", &format!("--mode slow --delay 0.4 {SHUFFLE}")),
            &fake_spec("fast", "xboard", SHUFFLE),
        ],
        Some(CHESS_START),
        &[
            "--games",
            "1",
            "--tc",
            "2/1",
            "--margin-ms",
            "300",
            "--maxmoves",
            "5",
        ],
    );
    // Without the refill the fourth move would find 0 s on the clock.
    let r = &p.records[0];
    assert_eq!(r.result, "1/2-1/2", "{r:?}");
    assert_eq!(r.termination, "threefold repetition", "{r:?}");
    assert!(p.pgn.contains("[TimeControl \"2/1\"]"), "{}", p.pgn);
}

#[test]
fn crash_loses_and_the_match_goes_on() {
    let p = play(
        "crash",
        "chess",
        [
            &fake_spec("crashes", "uci", "--mode crash"),
            &fake_spec("good", "xboard", &format!("--script {FOOLS_MATE}")),
        ],
        Some(CHESS_START),
        &["--games", "4", "--concurrency", "2", "--st", "0.5"],
    );
    assert_eq!(p.records.len(), 4);
    for r in &p.records {
        assert!(r.termination.contains("crashed"), "{r:?}");
    }
    assert!(
        p.stdout.contains("Score of crashes vs good: 0 - 4 - 0"),
        "{}",
        p.stdout
    );
    assert!(
        p.stdout.contains("Ptnml(0-2): [2, 0, 0, 0, 0]"),
        "{}",
        p.stdout
    );
    check_replays(&p);
}

const SHUFFLE: &str = "--cycle --script 'g1f3 g8f6 f3g1 f6g8'";

#[test]
fn repetition_ends_the_game() {
    let p = play(
        "repetition",
        "chess",
        [
            &fake_spec("a", "uci", SHUFFLE),
            &fake_spec("b", "xboard", SHUFFLE),
        ],
        Some(CHESS_START),
        &["--games", "2", "--st", "0.5"],
    );
    for r in &p.records {
        assert_eq!(r.result, "1/2-1/2");
        assert_eq!(r.termination, "threefold repetition");
        assert_eq!(r.moves.len(), 8);
    }
    check_replays(&p);
}

#[test]
fn adjudication_by_scores_and_length() {
    let losing = format!("{SHUFFLE} --score -600");
    let winning = format!("{SHUFFLE} --score 600");
    let p = play(
        "resign",
        "chess",
        [
            &fake_spec("loser", "uci", &losing),
            &fake_spec("winner", "xboard", &winning),
        ],
        Some(CHESS_START),
        &[
            "--games",
            "2",
            "--st",
            "0.5",
            "--resign",
            "movecount=2",
            "score=500",
            "twosided=true",
        ],
    );
    for r in &p.records {
        assert!(
            r.termination.contains("score at or below -500 for 2 moves"),
            "{r:?}"
        );
    }
    assert!(
        p.stdout.contains("Score of loser vs winner: 0 - 2 - 0"),
        "{}",
        p.stdout
    );
    assert!(p.pgn.contains("{-6.00/1 "), "{}", p.pgn);
    assert!(p.pgn.contains("[Termination \"adjudication\"]"));
    check_replays(&p);

    let level = format!("{SHUFFLE} --score 3");
    let p = play(
        "draw",
        "chess",
        [
            &fake_spec("a", "uci", &level),
            &fake_spec("b", "xboard", &level),
        ],
        Some(CHESS_START),
        &[
            "--games",
            "2",
            "--st",
            "0.5",
            "--draw",
            "movenumber=1",
            "movecount=2",
            "score=10",
        ],
    );
    for r in &p.records {
        assert_eq!(r.result, "1/2-1/2");
        assert!(r.termination.starts_with("adjudication: draw"), "{r:?}");
        assert_eq!(r.moves.len(), 4);
    }

    let p = play(
        "maxmoves",
        "chess",
        [
            &fake_spec("a", "uci", SHUFFLE),
            &fake_spec("b", "uci", SHUFFLE),
        ],
        Some(CHESS_START),
        &["--games", "2", "--st", "0.5", "--maxmoves", "3"],
    );
    for r in &p.records {
        assert_eq!(r.result, "1/2-1/2");
        assert!(r.termination.contains("maximum game length"), "{r:?}");
        assert_eq!(r.moves.len(), 6);
    }
    check_replays(&p);
}

#[test]
fn sprt_stops_the_match_when_it_decides() {
    let p = play(
        "sprt",
        "chess",
        [
            &fake_spec("good", "uci", &format!("--script {FOOLS_MATE}")),
            &fake_spec("bad", "uci", "--mode illegal --bad-move e2e5"),
        ],
        Some(CHESS_START),
        &[
            "--games",
            "40",
            "--st",
            "0.5",
            "--sprt",
            "elo0=0",
            "elo1=200",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    assert!(p.stdout.contains("H1 was accepted"), "{}", p.stdout);
    // All pairs won: the LLR passes 2.94 with the eighth pair (7 pairs give 2.93).
    assert_eq!(p.records.len(), 16, "{}", p.stdout);
    assert!(
        p.stdout.contains("Ptnml(0-2): [0, 0, 0, 0, 8]"),
        "{}",
        p.stdout
    );
    assert!(
        p.stdout.contains("lbound -2.94, ubound 2.94"),
        "{}",
        p.stdout
    );
}

#[test]
fn generated_openings_are_played_twice_with_colours_swapped() {
    let p = play(
        "book",
        "venator",
        [
            &fake_spec("a", "uci", "--mode illegal --bad-move a1a1"),
            &fake_spec("b", "uci", "--mode illegal --bad-move a1a1"),
        ],
        None,
        &[
            "--games",
            "4",
            "--st",
            "0.5",
            "--book-plies",
            "4",
            "--seed",
            "11",
            "--concurrency",
            "2",
        ],
    );
    let mut openings: Vec<(String, Vec<String>)> = p
        .records
        .iter()
        .map(|r| {
            assert_eq!(r.moves.len(), 4, "book only, then an illegal move: {r:?}");
            (r.fen.clone(), r.moves.clone())
        })
        .collect();
    openings.sort();
    assert_eq!(openings[0], openings[1]);
    assert_eq!(openings[2], openings[3]);
    assert_ne!(openings[1], openings[2]);
    assert!(p.pgn.contains("{book}"), "{}", p.pgn);
    check_replays(&p);
}

/// The normal approximation of the GSPRT LLR, N (s1-s0)(2m-s0-s1)/(2v), which the exact
/// test approaches on large samples.
fn gsprt_normal(scores: &[f64], counts: &[f64], elo0: f64, elo1: f64) -> f64 {
    let n: f64 = counts.iter().sum();
    let m = scores.iter().zip(counts).map(|(s, c)| s * c).sum::<f64>() / n;
    let m2 = scores
        .iter()
        .zip(counts)
        .map(|(s, c)| s * s * c)
        .sum::<f64>()
        / n;
    let v = m2 - m * m;
    let s = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    n * (s(elo1) - s(elo0)) * (2.0 * m - s(elo0) - s(elo1)) / (2.0 * v)
}

/// fishtest's GSPRT LLR computed here independently of the library (damped Newton's method for
/// the Lagrange multiplier instead of bisection): N sum f ln(p1/p0), p = f / (1 + x (a - s)).
fn gsprt_exact(scores: &[f64], counts: &[f64], elo0: f64, elo1: f64) -> f64 {
    let counts: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0.0 { 1e-3 } else { c })
        .collect();
    let n: f64 = counts.iter().sum();
    let f: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let mle = |s: f64| -> Vec<f64> {
        let mut x = 0.0f64;
        for _ in 0..100 {
            let (mut g, mut dg) = (0.0, 0.0);
            for (a, fi) in scores.iter().zip(&f) {
                let d = a - s;
                g += fi * d / (1.0 + x * d);
                dg -= fi * d * d / ((1.0 + x * d) * (1.0 + x * d));
            }
            // Damped: halve the step until every denominator stays positive.
            let mut step = g / dg;
            while scores.iter().any(|a| 1.0 + (x - step) * (a - s) <= 0.0) {
                step /= 2.0;
            }
            x -= step;
        }
        scores
            .iter()
            .zip(&f)
            .map(|(a, fi)| fi / (1.0 + x * (a - s)))
            .collect()
    };
    let e = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let (p0, p1) = (mle(e(elo0)), mle(e(elo1)));
    n * (0..f.len())
        .map(|i| f[i] * (p1[i] / p0[i]).ln())
        .sum::<f64>()
}

#[test]
fn sprt_arithmetic_matches_published_and_independent_values() {
    // Published in jw1912/SPRT's README (sprt.py): W 4307, L 4063, D 8620, elo0 0, elo1 3
    // gives LLR 2.47 with the BayesElo test unscaled (OpenBench's old method) and 2.99 with
    // the GSPRT; bounds (-2.94, 2.94).
    let wld = Wld {
        wins: 4307,
        losses: 4063,
        draws: 8620,
    };
    let bayes = llr_bayes(wld, 0.0, 3.0, false);
    assert!((bayes - 2.47).abs() < 0.005, "{bayes}");
    let gsprt = llr_gsprt(&wld.outcomes(), 0.0, 3.0);
    assert!((gsprt - 2.99).abs() < 0.005, "{gsprt}");
    let tri = [0.0, 0.5, 1.0];
    let exact = gsprt_exact(&tri, &[4063.0, 8620.0, 4307.0], 0.0, 3.0);
    assert!((gsprt - exact).abs() < 1e-9, "{gsprt} vs {exact}");
    let normal = gsprt_normal(&tri, &[4063.0, 8620.0, 4307.0], 0.0, 3.0);
    assert!((gsprt - normal).abs() < 0.01, "{gsprt} vs {normal}");

    // cutechess's scaled BayesElo LLR, computed here from its formulas.
    let (n, w, l, d) = (16990.0f64, 4307.0f64, 4063.0f64, 8620.0f64);
    let draw_elo = 200.0 * ((n / w - 1.0) * (n / l - 1.0)).log10();
    let x = 10f64.powf(-draw_elo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    let p = |elo: f64| {
        let win = 1.0 / (1.0 + 10f64.powf((draw_elo - elo / scale) / 400.0));
        let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + elo / scale) / 400.0));
        (win, loss, 1.0 - win - loss)
    };
    let ((w0, l0, d0), (w1, l1, d1)) = (p(0.0), p(3.0));
    let cute = w * (w1 / w0).ln() + l * (l1 / l0).ln() + d * (d1 / d0).ln();
    assert!((llr_bayes(wld, 0.0, 3.0, true) - cute).abs() < 1e-9);

    // Pentanomial GSPRT on fixed pair counts, and on one-sided samples (regularized).
    let penta = [0.0, 0.25, 0.5, 0.75, 1.0];
    let pairs = Pentanomial([31, 420, 1210, 460, 29]);
    let llr = llr_gsprt(&pairs.outcomes(), 0.0, 5.0);
    let exact = gsprt_exact(&penta, &[31.0, 420.0, 1210.0, 460.0, 29.0], 0.0, 5.0);
    assert!((llr - exact).abs() < 1e-9, "{llr} vs {exact}");
    for wins in [1u64, 5, 20] {
        let all = Pentanomial([0, 0, 0, 0, wins]);
        let got = llr_gsprt(&all.outcomes(), 0.0, 50.0);
        let exact = gsprt_exact(&penta, &[0.0, 0.0, 0.0, 0.0, wins as f64], 0.0, 50.0);
        assert!((got - exact).abs() < 1e-9 && got > 0.0, "{got} vs {exact}");
    }
    let draws = Pentanomial([0, 0, 30, 0, 0]);
    assert!(llr_gsprt(&draws.outcomes(), 0.0, 50.0) < 0.0);
    assert_eq!(llr_gsprt(&Pentanomial::default().outcomes(), 0.0, 5.0), 0.0);
    let sprt = Sprt::parse(&["elo0=0 elo1=5 alpha=0.05 beta=0.05".to_string()]).expect("sprt");
    assert_eq!(sprt.model, SprtModel::Pentanomial);
    let (lo, hi) = sprt.bounds();
    assert!((lo - (0.05f64 / 0.95).ln()).abs() < 1e-12 && (hi - 2.944_438_979).abs() < 1e-6);
    assert_eq!(sprt.llr(wld, pairs), llr);
    assert_eq!(sprt.verdict(3.0), SprtVerdict::AcceptH1);
    assert_eq!(sprt.verdict(-3.0), SprtVerdict::AcceptH0);
    assert_eq!(sprt.verdict(0.0), SprtVerdict::Continue);
    assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);

    // Elo and its margin: 60 wins, 40 losses, 100 draws -> score 0.55.
    let wld = Wld {
        wins: 60,
        losses: 40,
        draws: 100,
    };
    let (elo, margin) = wld.elo();
    assert!((elo - 34.860).abs() < 0.01, "{elo}");
    let sd =
        ((0.3 * 0.45f64.powi(2) + 0.2 * 0.55f64.powi(2) + 0.5 * 0.05f64.powi(2)) / 200.0).sqrt();
    let e = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
    let want = (e(0.55 + 1.959_964 * sd) - e(0.55 - 1.959_964 * sd)) / 2.0;
    assert!((margin - want).abs() < 0.01, "{margin} vs {want}");
    for bad in [
        "elo0=5 elo1=0",
        "alpha=2",
        "elo0=x",
        "foo=1",
        "model=bogus",
        "elo1",
    ] {
        assert!(Sprt::parse(&[bad.to_string()]).is_err(), "{bad}");
    }
}

#[test]
fn bad_input_is_a_clear_error_never_a_panic() {
    let dir = scratch("bad");
    let good = fake_spec("a", "uci", "--mode illegal");
    let garbage = dir.join("garbage.epd");
    std::fs::write(&garbage, "this is not a fen\n").expect("write");
    let garbage = garbage.display().to_string();
    let cecp = fake_spec("c", "xboard", "--mode illegal");
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "match", "--nodes", "1000", "--engine", &good, "--engine", &cecp,
        ],
        vec!["match", "--st", "1", "--engine", &good],
        vec![
            "match",
            "--variant",
            "shogi",
            "--st",
            "1",
            "--engine",
            &good,
            "--engine",
            &good,
        ],
        vec!["match", "--st", "1", "--engine", "cmd=x", "--engine", &good],
        vec![
            "match",
            "--st",
            "1",
            "--engine",
            "name=x proto=uci",
            "--engine",
            &good,
        ],
        vec![
            "match",
            "--st",
            "1",
            "--engine",
            "cmd=\"x proto=uci",
            "--engine",
            &good,
        ],
        vec!["match", "--tc", "abc", "--engine", &good, "--engine", &good],
        vec!["match", "--tc", "0/5", "--engine", &good, "--engine", &good],
        vec!["match", "--engine", &good, "--engine", &good],
        vec!["match", "--st", "-1", "--engine", &good, "--engine", &good],
        vec![
            "match", "--st", "1", "--games", "0", "--engine", &good, "--engine", &good,
        ],
        vec![
            "match",
            "--st",
            "1",
            "--openings",
            "/nonexistent/x.epd",
            "--engine",
            &good,
            "--engine",
            &good,
        ],
        vec![
            "match",
            "--st",
            "1",
            "--openings",
            &garbage,
            "--engine",
            &good,
            "--engine",
            &good,
        ],
        vec![
            "match", "--st", "1", "--sprt", "elo0=10", "elo1=0", "--engine", &good, "--engine",
            &good,
        ],
        vec![
            "match",
            "--st",
            "1",
            "--resign",
            "movecount=x",
            "--engine",
            &good,
            "--engine",
            &good,
        ],
        vec![
            "match",
            "--st",
            "1",
            "--draw",
            "movecount=2",
            "--engine",
            &good,
            "--engine",
            &good,
        ],
        vec![
            "match",
            "--st",
            "1",
            "--engine",
            "cmd=/nonexistent/engine proto=uci",
            "--engine",
            &good,
        ],
        vec![
            "match",
            "--st",
            "1",
            "--pgn",
            "/nonexistent/dir/x.pgn",
            "--engine",
            &good,
            "--engine",
            &good,
        ],
        vec!["pgn", "/nonexistent/file.pgn"],
    ];
    for args in &cases {
        let out = sissa(args);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert!(!err.trim().is_empty(), "{args:?} gave no message");
    }
    let pgns = [
        "[Event \"x\"]\n1. e4 {unterminated",
        "1. e4 e5",
        "1. e4 e6 2. Ke3 Ke7 3. Qh5 Qh4 4. Nz9 1-0",
        "[Variant \"shogi\"]\n1. e4 1-0",
        "[FEN \"8/8/8 w - - 0 1\"]\n1. e4 1-0",
        "1. f3 e5 2. g4 Qh4# 1-0",
        "[Variant \"venomous\"]\n1. J@e5 1-0",
        "1. e4 } e5 1-0",
    ];
    for (i, pgn) in pgns.iter().enumerate() {
        let file = dir.join(format!("bad{i}.pgn"));
        std::fs::write(&file, pgn).expect("write");
        let out = sissa(&["pgn", &file.display().to_string()]);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{pgn} accepted");
        assert!(!err.contains("panicked"), "{pgn}: {err}");
        assert!(err.starts_with("sissa: "), "{pgn}: {err}");
    }
}

/// Whether the `sissa` binary answers `uci` with `uciok` and `xboard`/`protover 2` with
/// `feature ... done=1` within a few seconds.
fn sissa_speaks_protocols() -> Result<(), String> {
    for (input, want) in [
        ("uci\nisready\n", "uciok"),
        ("xboard\nprotover 2\n", "done=1"),
    ] {
        let mut child = Command::new(SISSA)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(input.as_bytes());
            let _ = stdin.write_all(b"quit\n");
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        if !text(&out.stdout).contains(want) {
            return Err(format!(
                "'sissa' does not answer '{}' with '{want}' yet",
                input.lines().next().unwrap_or("")
            ));
        }
    }
    Ok(())
}

#[test]
fn sissa_vs_sissa_in_every_variant() {
    if let Err(why) = sissa_speaks_protocols() {
        // Written to the stderr handle directly: the test harness captures print macros, and
        // a skip must be seen.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED sissa_vs_sissa_in_every_variant: {why} (Sissa's UCI/CECP front end is not \
             merged into this branch yet)"
        );
        return;
    }
    let uci = format!("name=sissa-uci cmd={SISSA} proto=uci");
    let cecp = format!("name=sissa-cecp cmd={SISSA} proto=xboard");
    // Queen and rook against a bare king: each side mates when it has White, so both games
    // of the pair end 1-0 by checkmate.
    let mates = [
        ("chess", "6k1/8/8/8/8/8/8/QR4K1 w - - 0 1"),
        ("gustav3", "5k4/*8*/*8*/*8*/*8*/*8*/*8*/QR3K4 w - - 0 1"),
        ("venator", "5k4/*8*/*8*/*8*/*8*/*8*/*8*/QR3K4 w - - 0 1"),
        ("venomous", "5k4/10/10/10/10/10/10/10/10/QR3K4 w - - 0 1"),
    ];
    for (v, fen) in mates {
        let p = play(
            &format!("sissa-mate-{v}"),
            v,
            [&uci, &cecp],
            Some(fen),
            &[
                "--games",
                "2",
                "--st",
                "0.05",
                "--margin-ms",
                "1500",
                "--maxmoves",
                "60",
            ],
        );
        assert_eq!(p.records.len(), 2, "{v}");
        for r in &p.records {
            assert_eq!(
                (r.result.as_str(), r.termination.as_str()),
                ("1-0", "checkmate"),
                "{v}: {r:?}"
            );
        }
        assert!(p.stdout.contains("1 - 1 - 0"), "{v}: {}", p.stdout);
        check_replays(&p);
    }
    // From generated openings: 20 full moves of real play (drops, castlings, promotions as
    // they come), written as PGN and records and replayed.
    for v in Variant::all() {
        let p = play(
            &format!("sissa-{}", v.id()),
            v.id(),
            [&uci, &cecp],
            None,
            &[
                "--games",
                "2",
                "--st",
                "0.05",
                "--margin-ms",
                "1500",
                "--maxmoves",
                "20",
                "--book-plies",
                "4",
                "--seed",
                "5",
            ],
        );
        assert_eq!(p.records.len(), 2, "{}", v.id());
        for r in &p.records {
            assert!(
                !r.termination.contains("illegal") && !r.termination.contains("time"),
                "{}: {r:?}",
                v.id()
            );
        }
        check_replays(&p);
    }
}

#[test]
fn tune_plays_iterations_and_reports_values_the_engine_takes() {
    let dir = scratch("tune");
    let log = dir.join("tune.log");
    let engine = format!("cmd={SISSA} proto=uci");
    let out = sissa(&[
        "tune",
        "--engine",
        &engine,
        "--variant",
        "chess",
        "--nodes",
        "300",
        "--iterations",
        "2",
        "--concurrency",
        "2",
        "--seed",
        "4",
        "--maxmoves",
        "30",
        "--params",
        "rfp_margin,lmp_base",
        "--output",
        log.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let lines = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[1].starts_with("iteration 2/2: plus "), "{lines:?}");
    let last = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Tune: "))
        .expect("final values");
    let params = sissa::search::params::SearchParams::parse(last).expect("values the engine takes");
    assert!(
        last.starts_with("rfp_margin=") && last.contains(" lmp_base="),
        "{last}"
    );
    assert!((20..=300).contains(&params.rfp_margin));

    let list = sissa(&["tune", "--list", "--engine", &engine]);
    assert!(text(&list.stdout).contains("see_quiet_margin"));

    for (args, why) in [
        (vec!["--params", "bogus"], "unknown tunable 'bogus'"),
        (vec!["--iterations", "0"], "--iterations must be at least 1"),
        (vec!["--rate", "5"], "--rate must be in (0, 1]"),
        (
            vec!["--start", "rfp_margin=1"],
            "--start: rfp_margin: 1 is outside",
        ),
    ] {
        let mut all = vec!["tune", "--engine", &engine, "--nodes", "100"];
        all.extend(args.iter().copied());
        let out = sissa(&all);
        let err = text(&out.stderr);
        assert!(
            !out.status.success() && err.contains(why),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn shards_of_a_match_merge_to_exactly_the_whole_match() {
    let dir = scratch("shards");
    let a = format!("name=a cmd={SISSA} proto=uci");
    let b = format!("name=b cmd={SISSA} proto=uci option.MaterialOnly=true");
    let run = |tag: &str, extra: &[&str]| {
        let pgn = dir.join(format!("{tag}.pgn"));
        let rec = dir.join(format!("{tag}.rec"));
        let mut args = vec![
            "match",
            "--variant",
            "venator",
            "--games",
            "6",
            "--nodes",
            "300",
            "--concurrency",
            "2",
            "--seed",
            "4",
            "--maxmoves",
            "150",
            "--engine",
            &a,
            "--engine",
            &b,
            "--sprt",
            "elo0=0",
            "elo1=50",
        ];
        let (p, r) = (
            pgn.to_str().unwrap().to_string(),
            rec.to_str().unwrap().to_string(),
        );
        args.extend(["--pgn", &p, "--records", &r]);
        args.extend_from_slice(extra);
        let out = sissa(&args);
        assert!(out.status.success(), "{tag}: {}", text(&out.stderr));
        let mut lines: Vec<String> = std::fs::read_to_string(&rec)
            .expect("records")
            .lines()
            .map(String::from)
            .collect();
        lines.sort();
        (text(&out.stdout), lines, p)
    };
    let (whole, whole_records, _) = run("whole", &[]);
    let mut records = Vec::new();
    let mut pgns = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let (_, r, p) = run(&format!("s{i}"), &["--shard", &shard]);
        assert_eq!(r.len(), 2, "shard {i} plays one pair");
        records.extend(r);
        pgns.push(p);
    }
    records.sort();
    assert_eq!(records, whole_records);
    let mut args = vec!["match", "--merge"];
    args.extend(pgns.iter().rev().map(String::as_str));
    args.extend(["--sprt", "elo0=0", "elo1=50"]);
    let out = sissa(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let merged = text(&out.stdout);
    let summary = |t: &str| {
        t.lines()
            .filter(|l| !l.contains("file(s)"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(summary(&merged), summary(&whole), "{merged}\n{whole}");
    assert!(merged.starts_with("6 games from 3 file(s)"), "{merged}");

    // The same games twice, or two different matches, are refused.
    let twice = sissa(&["match", "--merge", &pgns[0], &pgns[0]]);
    assert!(
        text(&twice.stderr).contains("appears twice"),
        "{}",
        text(&twice.stderr)
    );
    let other = dir.join("other.pgn");
    let renamed = std::fs::read_to_string(&pgns[1])
        .expect("pgn")
        .replace("\"a\"", "\"c\"");
    std::fs::write(&other, renamed).expect("write");
    let mixed = sissa(&["match", "--merge", &pgns[0], other.to_str().unwrap()]);
    assert!(
        text(&mixed.stderr).contains("but the match is a - b"),
        "{}",
        text(&mixed.stderr)
    );
    let bad = sissa(&["match", "--merge", &pgns[0], "--engine", &a]);
    assert!(!bad.status.success());
}
