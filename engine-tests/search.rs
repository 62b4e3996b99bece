//! The search end to end: mates found with the right distance in every variant (each
//! position checked first by a full-width mate solver, and the reported line played out to
//! a checkmate), draws by stalemate, repetition and insufficient material, a legal move from
//! random positions and after an immediate stop, deterministic node-limited searches,
//! prompt stops, multi-PV, pondering and the command line.

use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

mod support;

use sissa::search::{Clock, Control, Info, Limits, Score, SearchResult, Searcher};
use sissa::{Move, MoveKind, Position, Variant};
use support::{forced_mate, is_checkmate};

fn position(variant: &str, fen: &str) -> Position {
    let v = Variant::by_name(variant).expect("variant");
    Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

fn search(pos: &mut Position, limits: &Limits) -> (SearchResult, Vec<Info>) {
    let mut searcher = Searcher::new(16).expect("hash table");
    let control = Control::default();
    let mut infos = Vec::new();
    let result = searcher.search(pos, limits, &control, &mut |i| infos.push(i.clone()));
    (result, infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        multipv: 1,
        ..Limits::default()
    }
}

/// The position is a mate in exactly `n` (checked by the solver), the search reports
/// `mate n`, and its line ends in checkmate. Returns the line.
fn assert_mate(variant: &str, fen: &str, n: u32) -> Vec<Move> {
    let mut pos = position(variant, fen);
    assert!(forced_mate(&mut pos, n), "{variant} {fen}: no mate in {n}");
    assert!(
        n == 1 || !forced_mate(&mut pos, n - 1),
        "{variant} {fen}: a mate shorter than {n}"
    );
    // Two plies of slack over the mate's length: chess net 10 with the lazy-legality move
    // order finds the KRR mate in 3 below at depth 10, not 8.
    let (result, infos) = search(&mut pos, &depth(2 * n + 4));
    assert_eq!(
        result.score,
        Score::Mate(n as i32),
        "{variant} {fen}: {result:?}"
    );
    let pv = infos.last().expect("an info line").pv.clone();
    assert_eq!(Some(pv[0]), result.best);
    assert!(pv.len() >= 2 * n as usize - 1, "{variant} {fen}: short pv");
    let line = &pv[..2 * n as usize - 1];
    for &mv in line {
        assert!(
            pos.legal_moves().contains(&mv),
            "{variant} {fen}: illegal pv"
        );
        pos.make(mv);
    }
    assert!(is_checkmate(&mut pos), "{variant} {fen}: pv does not mate");
    line.to_vec()
}

#[test]
fn chess_mates() {
    assert_mate("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1);
    assert_mate("chess", "4k3/8/R7/1R6/8/8/8/7K w - - 0 1", 2);
    assert_mate("chess", "8/6k1/8/R7/1R6/8/8/K7 w - - 0 1", 3);
}

#[test]
fn gustav3_mates() {
    // The Amazon mates next to its king; then rook ladders on the Gustavian board.
    assert_mate("gustav3", "5k4/*8*/*4K3*/*8*/*1A6*/*8*/*8*/10 w - - 0 1", 1);
    assert_mate("gustav3", "7k2/*8*/*R7*/*1R6*/*8*/*8*/*8*/9K w - - 0 1", 2);
    assert_mate(
        "gustav3",
        "5k4/*8*/*8*/*8*/*8*/*1R6*/*2R5*/6K3 w - - 0 1",
        3,
    );
}

#[test]
fn venator_mates() {
    // A rook steps onto e2 and becomes the screen: e1-e2-(e3)-f4-g5-h6-i7-j8.
    let line = assert_mate("venator", "8bk/*8*/*8*/*8*/*8*/*8*/*R7*/K3V5 w - - 0 1", 1);
    let pos = position("venator", "8bk/*8*/*8*/*8*/*8*/*8*/*R7*/K3V5 w - - 0 1");
    assert_eq!(pos.move_text(line[0], 1), "b2e2");
    // The knight on e2 (the screen) leaves: the pawn on e3 becomes the screen and the
    // Venator's line e4-f5-g6-h7-i8 opens.
    assert_mate(
        "venator",
        "7bkb/*7p*/*8*/*8*/*8*/*3P4*/*3N4*/2K1V5 w - - 0 1",
        1,
    );
    assert_mate("venator", "7k2/*8*/*R7*/*1R6*/*8*/*8*/*8*/9K w - - 0 1", 2);
    assert_mate("venator", "10/*6k1*/*8*/*R7*/*1R6*/*8*/*8*/K9 w - - 0 1", 3);
}

#[test]
fn venomous_mates() {
    // Sissa g3-g6 (three west, three north-east), then check by g7-g8-f9-e10.
    assert_mate(
        "venomous",
        "3bkb4/3pp5/10/10/10/10/10/6S3/10/K4R4[] w - - 0 1",
        1,
    );
    // Sorcerer Snake d5-f8, check through f9.
    assert_mate(
        "venomous",
        "3bkbB3/3pp5/10/10/10/3X6/10/10/10/K9[] w - - 0 1",
        1,
    );
    // A Ninja pawn dropped on b2 and pushed to b5 checks a6.
    let line = assert_mate(
        "venomous",
        "10/10/10/ppB7/k9/10/3W6/10/10/5K4[J] w - - 0 1",
        1,
    );
    assert_eq!(line[0].kind, MoveKind::Drop);
    assert_mate("venomous", "5k4/10/R9/1R8/10/10/10/10/10/9K[] w - - 0 1", 2);
    assert_mate("venomous", "10/6k3/10/R9/1R8/10/10/10/10/K9[] w - - 0 1", 3);
}

#[test]
fn stalemate_at_the_root_has_no_move_and_scores_zero() {
    let mut pos = position("chess", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1");
    let (result, _) = search(&mut pos, &depth(4));
    assert_eq!(result.best, None);
    assert_eq!(result.score, Score::Cp(0));
}

#[test]
fn stalemate_and_bare_kings_in_the_tree_are_draws() {
    // Kg6 stalemates; any other move lets the pawn go, leaving bare kings.
    let mut pos = position("chess", "6k1/6P1/5K2/8/8/8/8/8 w - - 0 1");
    let (result, _) = search(&mut pos, &depth(8));
    assert_eq!(result.score, Score::Cp(0));
}

#[test]
fn repetition_is_a_draw_for_the_side_behind() {
    // White has no queen; repeating the knight dance for the third time draws.
    let v = Variant::chess();
    let mut pos = Position::from_fen(
        v,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
    )
    .expect("fen");
    for m in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6".split(' ') {
        let mv = pos.parse_move(m, 1).expect("move");
        pos.make(mv);
    }
    let (result, _) = search(&mut pos, &depth(6));
    assert_eq!(result.score, Score::Cp(0));
    let best = result.best.expect("a move");
    assert_eq!(pos.move_text(best, 1), "f3g1");
}

/// Positions reached by random playouts from every start position (a fixed generator, so
/// the test is reproducible).
fn random_positions(per_variant: usize) -> Vec<Position> {
    let mut rng = sissa::rng::Rng::new(0x9e37);
    let mut out = Vec::new();
    for v in Variant::all() {
        for _ in 0..per_variant {
            let mut pos = Position::startpos(v);
            let plies = 4 + rng.below(60);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(*rng.choose(&moves));
            }
            out.push(pos);
        }
    }
    out
}

#[test]
fn random_positions_always_get_a_legal_move() {
    for mut pos in random_positions(8) {
        let legal = pos.legal_moves();
        let limits = Limits {
            nodes: Some(3_000),
            multipv: 1,
            ..Limits::default()
        };
        let (result, _) = search(&mut pos, &limits);
        match result.best {
            Some(mv) => assert!(legal.contains(&mv), "{}", pos.fen()),
            None => assert!(legal.is_empty(), "{}", pos.fen()),
        }
    }
}

#[test]
fn an_immediate_stop_still_returns_a_legal_move() {
    for mut pos in random_positions(2) {
        let legal = pos.legal_moves();
        let mut searcher = Searcher::new(1).expect("hash table");
        let control = Control::default();
        control.stop.store(true, Ordering::Relaxed);
        let result = searcher.search(&mut pos, &depth(20), &control, &mut |_| {});
        assert_eq!(result.best.is_some(), !legal.is_empty());
        if let Some(mv) = result.best {
            assert!(legal.contains(&mv));
        }
    }
}

#[test]
fn node_limited_searches_are_deterministic() {
    for v in Variant::all() {
        let run = || {
            let mut pos = Position::startpos(v);
            let limits = Limits {
                nodes: Some(20_000),
                multipv: 1,
                ..Limits::default()
            };
            let (r, infos) = search(&mut pos, &limits);
            (r.best, r.nodes, infos.last().map(|i| i.pv.clone()))
        };
        assert_eq!(run(), run(), "{}", v.id());
    }
}

/// An infinite search on `threads` threads, stopped from another thread after `after`.
fn search_until_stopped(
    pos: &mut Position,
    threads: usize,
    after: Duration,
) -> (SearchResult, Vec<Info>) {
    let control = Control::default();
    let limits = Limits {
        infinite: true,
        multipv: 1,
        ..Limits::default()
    };
    let mut searcher = Searcher::new(16).expect("hash table");
    searcher.set_threads(threads);
    let mut infos = Vec::new();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(after);
            control.stop.store(true, Ordering::Relaxed);
        });
        searcher.search(pos, &limits, &control, &mut |i| infos.push(i.clone()))
    });
    (result, infos)
}

#[test]
fn stop_from_another_thread_returns_promptly() {
    let v = Variant::by_name("venomous").expect("venomous");
    let mut pos = Position::startpos(v);
    let start = Instant::now();
    let (result, _) = search_until_stopped(&mut pos, 1, Duration::from_millis(300));
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(pos.legal_moves().contains(&result.best.expect("a move")));
}

#[test]
fn two_threads_stop_on_request_with_a_legal_move() {
    for v in Variant::all() {
        let mut pos = Position::startpos(v);
        let (result, infos) = search_until_stopped(&mut pos, 2, Duration::from_millis(200));
        assert!(pos.legal_moves().contains(&result.best.expect("a move")));
        assert!(!infos.is_empty(), "{}", v.id());
    }
}

#[test]
fn a_node_limit_counts_every_thread() {
    let mut pos = Position::startpos(Variant::by_name("gustav3").expect("gustav3"));
    let limits = Limits {
        nodes: Some(50_000),
        multipv: 1,
        ..Limits::default()
    };
    let mut searcher = Searcher::new(16).expect("hash table");
    searcher.set_threads(2);
    let result = searcher.search(&mut pos, &limits, &Control::default(), &mut |_| {});
    // The helper publishes its count every 1024 nodes: the total may pass the limit by that.
    assert!(result.nodes <= 50_000 + 2 * 1024, "{}", result.nodes);
    assert!(result.best.is_some());
}

#[test]
fn thread_counts_are_clamped() {
    let mut searcher = Searcher::new(1).expect("hash table");
    searcher.set_threads(0);
    assert_eq!(searcher.threads(), 1);
    searcher.set_threads(100_000);
    assert_eq!(searcher.threads(), sissa::search::MAX_THREADS);
    searcher.set_threads(3);
    assert_eq!(searcher.threads(), 3);
}

#[test]
fn movetime_is_respected() {
    let mut pos = Position::startpos(Variant::by_name("venator").expect("venator"));
    let limits = Limits {
        movetime: Some(Duration::from_millis(200)),
        multipv: 1,
        ..Limits::default()
    };
    let start = Instant::now();
    let (result, _) = search(&mut pos, &limits);
    assert!(start.elapsed() < Duration::from_secs(2));
    assert!(result.best.is_some());
}

#[test]
fn a_clock_search_keeps_well_inside_the_time_left() {
    let mut pos = Position::startpos(Variant::by_name("venomous").expect("venomous"));
    let limits = Limits {
        clock: Some(Clock {
            time: Duration::from_millis(2_000),
            inc: Duration::from_millis(0),
            moves_to_go: None,
        }),
        move_overhead: Duration::from_millis(100),
        multipv: 1,
        ..Limits::default()
    };
    let start = Instant::now();
    let (result, _) = search(&mut pos, &limits);
    assert!(start.elapsed() < Duration::from_millis(1_000));
    assert!(result.best.is_some());
}

#[test]
fn pondering_waits_for_ponderhit_then_uses_the_clock() {
    let mut pos = Position::startpos(Variant::chess());
    let control = Control::default();
    control.pondering.store(true, Ordering::Relaxed);
    let limits = Limits {
        movetime: Some(Duration::from_millis(50)),
        multipv: 1,
        ..Limits::default()
    };
    let mut searcher = Searcher::new(16).expect("hash table");
    let start = Instant::now();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(400));
            control.pondering.store(false, Ordering::Relaxed);
        });
        searcher.search(&mut pos, &limits, &control, &mut |_| {})
    });
    let elapsed = start.elapsed();
    assert!(elapsed >= Duration::from_millis(400), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    assert!(result.best.is_some());
}

#[test]
fn multipv_reports_distinct_first_moves() {
    let mut pos = Position::startpos(Variant::by_name("gustav3").expect("gustav3"));
    let limits = Limits {
        depth: Some(4),
        multipv: 3,
        ..Limits::default()
    };
    let (_, infos) = search(&mut pos, &limits);
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(last.len(), 3);
    let firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut pos = Position::startpos(Variant::chess());
    let only = pos.parse_move("a2a3", 1).expect("move");
    let limits = Limits {
        depth: Some(3),
        multipv: 1,
        searchmoves: vec![only],
        ..Limits::default()
    };
    let (result, _) = search(&mut pos, &limits);
    assert_eq!(result.best, Some(only));
}

#[test]
fn mate_limit_finds_the_mate() {
    let mut pos = position("chess", "4k3/8/R7/1R6/8/8/8/7K w - - 0 1");
    let limits = Limits {
        mate: Some(2),
        multipv: 1,
        ..Limits::default()
    };
    let (result, _) = search(&mut pos, &limits);
    assert_eq!(result.score, Score::Mate(2));
}

fn sissa(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sissa"))
        .args(args)
        .output()
        .expect("run sissa")
}

#[test]
fn command_line_search_prints_info_and_bestmove() {
    let out = sissa(&["search", "--variant", "venator", "--depth", "4"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.starts_with("info depth 4 seldepth")));
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("bestmove "))
    );
}

#[test]
fn command_line_rejects_bad_input_without_panicking() {
    for args in [
        &["search", "--variant", "nope", "--depth", "3"][..],
        &["search", "--fen", "not a fen", "--depth", "3"][..],
        &["search", "--moves", "e2e5", "--depth", "3"][..],
        &["search", "--variant", "chess"][..],
        &["search", "--depth", "0"][..],
        &["bench", "0"][..],
    ] {
        let out = sissa(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.is_empty(), "{args:?}");
    }
}

#[test]
fn bench_is_deterministic_and_ends_with_the_totals() {
    let run = || {
        let out = sissa(&["bench", "3"]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let last = text.lines().last().expect("output").to_string();
        let words: Vec<&str> = last.split(' ').collect();
        assert_eq!(words.len(), 4, "{last}");
        assert_eq!((words[1], words[3]), ("nodes", "nps"));
        words[0].parse::<u64>().expect("node count")
    };
    assert_eq!(run(), run());
}

#[test]
fn weakened_searches_play_legal_moves_at_a_shallow_depth_and_not_always_the_best() {
    let mut differs = 0;
    let positions = random_positions(12);
    for mut pos in positions.clone() {
        let legal = pos.legal_moves();
        if legal.len() < 2 {
            continue;
        }
        let mut weak = Searcher::new(1).expect("hash table");
        weak.options.strength.skill_level = 0;
        let control = Control::default();
        let mut infos = Vec::new();
        let result = weak.search(&mut pos, &depth(12), &control, &mut |i| {
            infos.push(i.clone())
        });
        let mv = result.best.expect("a move");
        assert!(legal.contains(&mv), "{}", pos.fen());
        // Level 0 stops after depth 1 and reports only the one line asked for.
        assert!(result.depth <= 1, "{}", pos.fen());
        assert!(infos.iter().all(|i| i.multipv == 1), "{}", pos.fen());
        let (full, _) = search(&mut pos, &depth(1));
        differs += usize::from(full.best != Some(mv));
    }
    // Random play leaves pieces hanging, and no handicap gives those away: level 0 plays
    // another move than the full search in at least one position in five.
    assert!(
        differs * 5 > positions.len(),
        "level 0 played another move than the full search only {differs} of {} times",
        positions.len()
    );
}
