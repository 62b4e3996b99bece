//! CECP (XBoard) sessions against the `sissa` binary: features, variant setup before pong,
//! 0-based ranks on 10-rank boards, drops, castling, claims, highlights and bad moves.

mod support;

use sissa::{Position, Square, Variant};
use support::Engine;

fn xboard() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l == "feature done=1");
    e
}

fn no_illegal(lines: &[String]) {
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("Illegal move") && !l.starts_with("Error")),
        "{lines:?}"
    );
}

#[test]
fn features_are_announced() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let (_, lines) = e.until(|l| l == "feature done=1");
    assert!(lines.iter().any(|l| l == "feature done=0"));
    let text = lines.join("\n");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "highlight=1",
        "sigint=0",
        "san=0",
        "variants=\"normal,gustav3,venator,venomous\"",
        "myname=\"Sissa",
        "option=\"NullMove -check 1\"",
        "option=\"MaterialOnly -check 0\"",
        "option=\"Skill Level -spin 20 0 20\"",
        "option=\"UCI_LimitStrength -check 0\"",
        "option=\"UCI_Elo -spin ",
    ] {
        assert!(text.contains(f), "{f}: {text}");
    }
}

#[test]
fn setup_comes_before_pong() {
    let mut e = xboard();
    e.send("new");
    e.send("variant venator");
    let before = e.sync_cecp(1);
    let setup = before
        .iter()
        .find(|l| l.starts_with("setup "))
        .expect("setup");
    assert!(
        setup.ends_with(
            " 10x8+0_fairy vrnbqkbnrv/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/VRNBQKBNRV w KQkq - 0 1"
        ),
        "{setup}"
    );
    assert!(
        before.iter().any(|l| l == "piece V& gafyafsR"),
        "{before:?}"
    );
    e.send("new");
    e.send("random");
    e.send("variant gustav3");
    let before = e.sync_cecp(2);
    assert!(
        before
            .iter()
            .any(|l| l.contains(" 10x8+0_fairy arnbqkbnra/"))
    );
    assert!(before.iter().any(|l| l == "piece A& QN"), "{before:?}");
    e.send("new");
    e.send("variant venomous");
    let before = e.sync_cecp(3);
    let setup = before
        .iter()
        .find(|l| l.starts_with("setup "))
        .expect("setup");
    assert!(setup.contains(" 10x10+1_bughouse "), "{setup}");
    assert!(setup.ends_with("[JJJJJjjjjj] w KQkq - 0 1"), "{setup}");
    for piece in [
        "piece S& maifsbsRmaifsbsB",
        "piece X& mafsWmafsFmafsmafWmafmafsF",
    ] {
        assert!(before.iter().any(|l| l == piece), "{piece}: {before:?}");
    }
    e.send("new");
    e.send("variant normal");
    let before = e.sync_cecp(4);
    assert!(before.iter().all(|l| !l.starts_with("setup")), "{before:?}");
    e.send("variant nonsense");
    let before = e.sync_cecp(5);
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("Error (unknown variant")),
        "{before:?}"
    );
}

#[test]
fn strength_options_clamp_and_refuse_bad_values() {
    let mut e = xboard();
    e.send("option Skill Level=-3");
    e.send("option UCI_LimitStrength=perhaps");
    e.send("option Skill Level=0");
    let lines = e.sync_cecp(1);
    assert!(
        lines
            .iter()
            .any(|l| l == "telluser Skill Level -3 is outside 0..20: set to 0"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Error (UCI_LimitStrength needs true or false")),
        "{lines:?}"
    );
    e.send("new");
    e.send("go");
    let (line, _) = e.until_prefix("move ");
    assert!(line.len() > 5, "{line}");
}

#[test]
fn venomous_ranks_count_from_zero() {
    let mut e = xboard();
    e.send("new");
    e.send("variant venomous");
    e.send("force");
    // The only legal move is the king's a10-a9, which CECP writes a9a8.
    e.send("setboard k9/10/10/10/10/10/10/10/10/1R7K[] b - - 0 1");
    e.send("sd 2");
    e.send("go");
    let (mv, _) = e.until_prefix("move ");
    assert_eq!(mv, "move a9a8");
    // A pawn's double step from the second rank is e1e3, and a drop with its push J@e3.
    e.send("new");
    e.send("variant venomous");
    e.send("force");
    e.send("usermove e1e4");
    e.send("usermove e8e5");
    e.send("usermove J@e3");
    e.send("usermove e9e6");
    no_illegal(&e.sync_cecp(1));
    // The old 1-based names are not moves of this board any more.
    e.send("usermove d2d4");
    let lines = e.sync_cecp(2);
    assert!(
        lines.iter().any(|l| l.starts_with("Illegal move")),
        "{lines:?}"
    );
}

#[test]
fn castling_king_onto_rook() {
    let mut e = xboard();
    e.send("new");
    e.send("variant venomous");
    e.send("force");
    e.send("setboard r4k3r/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/R4K3R[JJJJJjjjjj] w KQkq - 0 1");
    e.send("usermove f0j0");
    e.send("usermove a8a7");
    // The king now stands on g1 (g0 in CECP) and the rook on f1.
    e.send("usermove g0h0");
    e.send("usermove a7a6");
    e.send("usermove f0e0");
    no_illegal(&e.sync_cecp(1));
    e.send("new");
    e.send("variant gustav3");
    e.send("force");
    e.send("setboard ar3k2ra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/AR3K2RA w KQkq - 0 1");
    e.send("usermove f1h1");
    e.send("usermove f8d8");
    no_illegal(&e.sync_cecp(2));
}

#[test]
fn illegal_moves_keep_the_state() {
    let mut e = xboard();
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    e.send("usermove e2e4");
    e.send("usermove zz");
    e.send("usermove e7e5");
    let lines = e.sync_cecp(1);
    let illegal: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("Illegal move"))
        .collect();
    assert_eq!(illegal.len(), 2, "{lines:?}");
    assert!(illegal[0].ends_with("): e2e4"), "{illegal:?}");
    assert!(illegal[1].ends_with("): zz"), "{illegal:?}");
    e.send("usermove @@@@");
    e.send("setboard not a fen");
    e.send("undo");
    e.send("undo");
    e.send("undo");
    let lines = e.sync_cecp(2);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Illegal move (a null move")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("tellusererror Illegal position")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l == "Error (no move to undo): undo"),
        "{lines:?}"
    );
    e.send("usermove d2d4");
    no_illegal(&e.sync_cecp(3));
}

#[test]
fn engine_claims_mate_and_user_mate_is_claimed() {
    let mut e = xboard();
    e.send("new");
    e.send("force");
    e.send("setboard 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1");
    e.send("sd 3");
    e.send("go");
    let (mv, _) = e.until_prefix("move ");
    assert!(["move f7g7", "move f7f8"].contains(&mv.as_str()), "{mv}");
    let (claim, _) = e.until(|l| l.contains('{'));
    assert_eq!(claim, "1-0 {White mates}");
    e.send("new");
    e.send("force");
    e.send("setboard 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1");
    e.send("usermove f7g7");
    let lines = e.sync_cecp(1);
    assert!(lines.iter().any(|l| l == "1-0 {White mates}"), "{lines:?}");
    e.send("new");
    e.send("force");
    e.send("setboard k7/8/1K6/2Q5/8/8/8/8 w - - 0 1");
    e.send("usermove c5c7");
    let lines = e.sync_cecp(2);
    assert!(
        lines.iter().any(|l| l == "1/2-1/2 {Stalemate}"),
        "{lines:?}"
    );
}

#[test]
fn pong_waits_for_earlier_commands_and_answers_while_thinking() {
    let mut e = xboard();
    e.send("new");
    e.send("variant venomous");
    e.send("post");
    e.send("sd 40");
    e.send("go");
    // The engine thinks (deeply); ping is still answered, and `?` makes it move at once.
    e.sync_cecp(7);
    e.send("?");
    let (mv, _) = e.until_prefix("move ");
    let text = &mv[5..];
    let v = Variant::by_name("venomous").unwrap();
    let mut pos = Position::startpos(v);
    assert!(pos.parse_move(text, 0).is_ok(), "{mv}");
    e.send("force");
    e.send("usermove zz");
    let lines = e.sync_cecp(8);
    assert!(
        lines.iter().any(|l| l.starts_with("Illegal move")),
        "{lines:?}"
    );
}

#[test]
fn thinking_output_uses_cecp_squares() {
    let mut e = xboard();
    e.send("new");
    e.send("variant venomous");
    e.send("force");
    e.send("setboard k9/10/10/10/10/10/10/10/10/1R7K[] b - - 0 1");
    e.send("post");
    e.send("sd 2");
    e.send("go");
    let (_, before) = e.until_prefix("move ");
    let thinking: Vec<&String> = before
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert!(!thinking.is_empty(), "{before:?}");
    for l in thinking {
        let f: Vec<&str> = l.split_whitespace().collect();
        assert!(f[..4].iter().all(|n| n.parse::<i64>().is_ok()), "{l}");
        assert_eq!(f[4], "a9a8", "{l}");
    }
}

#[test]
fn lift_marks_exactly_the_legal_destinations() {
    let v = Variant::by_name("venomous").unwrap();
    let moves = ["e2e5", "e9e6", "h2h4", "d9d7"];
    let mut pos = Position::startpos(v);
    let mut e = xboard();
    e.send("new");
    e.send("variant venomous");
    e.send("force");
    for m in moves {
        let mv = pos.parse_move(m, 1).unwrap();
        e.send(&format!("usermove {}", pos.move_text(mv, 0)));
        pos.make(mv);
    }
    no_illegal(&e.sync_cecp(1));
    // Every White square, then White's hand as XBoard names it (the file right of the board).
    let squares: Vec<Square> = v.geometry.squares().to_vec();
    for sq in squares {
        if pos
            .piece_at(sq)
            .is_none_or(|p| p.color != pos.side_to_move())
        {
            continue;
        }
        let name = v.geometry.name(sq, 0).to_string();
        e.send(&format!("lift {name}"));
        let (line, _) = e.until_prefix("highlight ");
        assert_eq!(
            line,
            support::expected_highlight(&mut pos, Some(sq)),
            "lift {name}"
        );
        e.send(&format!("hover {name}"));
        let (line, _) = e.until_prefix("highlight ");
        assert_eq!(
            line,
            support::expected_highlight(&mut pos, Some(sq)),
            "hover {name}"
        );
        e.send(&format!("put {name}"));
        let (line, _) = e.until_prefix("highlight ");
        assert_eq!(line, "highlight 10/10/10/10/10/10/10/10/10/10");
    }
    let hand = support::expected_highlight(&mut pos, None);
    assert!(hand.contains('Y'), "{hand}");
    for name in ["l0", "J@"] {
        e.send(&format!("lift {name}"));
        let (line, _) = e.until_prefix("highlight ");
        assert_eq!(line, hand, "lift {name}");
    }
    e.send("lift zz");
    let lines = e.sync_cecp(2);
    assert!(lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
}

#[test]
fn analyze_mode_follows_the_moves() {
    let mut e = xboard();
    e.send("new");
    e.send("variant venator");
    e.send("force");
    e.send("post");
    e.send("analyze");
    e.send("usermove e2e4");
    e.send("usermove @@@@");
    e.send(".");
    e.send("undo");
    let lines = e.sync_cecp(1);
    no_illegal(&lines);
    assert!(lines.iter().any(|l| l.starts_with("stat01: ")), "{lines:?}");
    e.send("exit");
    e.send("usermove e7e5");
    no_illegal(&e.sync_cecp(2));
    e.send("quit");
    assert!(e.wait_exit());
}

#[test]
fn d_and_eval_are_comment_lines() {
    let mut e = xboard();
    e.send("new");
    e.send("variant venomous");
    e.send("force");
    e.send("d");
    let (_, lines) = e.until(|l| l.starts_with("# Checkers:"));
    assert!(
        lines.iter().any(|l| l == "# White's hand: 5 ninja pawn"),
        "{lines:?}"
    );
    e.send("eval");
    let (_, lines) = e.until(|l| l.starts_with("# Network"));
    assert!(
        lines.iter().any(|l| l.contains("Pieces in hand")),
        "{lines:?}"
    );
    e.send("quit");
    assert!(e.wait_exit());
}

/// `hard`: after its move the engine ponders on the reply it expects (`hint` names it). When
/// that reply comes, the ponder search becomes the move's search: with `sd 4` it has already
/// finished, so the move follows without a new search (no depth-1 line). Another reply starts
/// a fresh search; `easy` stops pondering.
#[test]
fn pondering_hits_and_misses() {
    let mut e = xboard();
    for cmd in ["new", "hard", "post", "sd 4", "usermove e2e4"] {
        e.send(cmd);
    }
    e.until(|l| l.starts_with("move "));
    // The ponder search reaches its depth and waits.
    e.until(|l| l.starts_with("4 "));
    e.send("hint");
    let (hint, _) = e.until(|l| l.starts_with("Hint: "));
    let expected = hint["Hint: ".len()..].to_string();
    e.send(&format!("usermove {expected}"));
    let (_, lines) = e.until(|l| l.starts_with("move "));
    assert!(
        !lines.iter().any(|l| l.starts_with("1 ")),
        "a ponder hit searched again: {lines:?}"
    );
    e.until(|l| l.starts_with("4 "));
    e.send("hint");
    let (hint, _) = e.until(|l| l.starts_with("Hint: "));
    let other = if hint.ends_with("a2a3") {
        "h2h3"
    } else {
        "a2a3"
    };
    e.send(&format!("usermove {other}"));
    let (_, lines) = e.until(|l| l.starts_with("move "));
    assert!(lines.iter().any(|l| l.starts_with("1 ")), "{lines:?}");
    no_illegal(&lines);
    e.send("easy");
    e.send("hint");
    e.send("ping 9");
    let (_, lines) = e.until(|l| l == "pong 9");
    assert!(!lines.iter().any(|l| l.starts_with("Hint")), "{lines:?}");
    e.send("quit");
    assert!(e.wait_exit());
}

#[test]
fn variant_path_adds_variants_to_the_feature_list() {
    let mut e = xboard();
    let file = format!("{}/variants/sissa.ini", env!("CARGO_MANIFEST_DIR"));
    e.send(&format!("option VariantPath={file}"));
    e.send("new");
    e.send("variant sissa-chess");
    let lines = e.sync_cecp(1);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("feature variants=\"") && l.contains(",venator8,sissa-chess")),
        "{lines:?}"
    );
    let setup = lines
        .iter()
        .find(|l| l.starts_with("setup "))
        .expect("setup");
    assert!(
        setup.ends_with(" 8x8+0_fairy rnbskbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBSKBNR w KQkq - 0 1"),
        "{setup}"
    );
    assert!(
        lines.iter().any(|l| l == "piece S& maifsbsRmaifsbsB"),
        "{lines:?}"
    );
    e.send("go");
    let (line, _) = e.until_prefix("move ");
    assert!(line.len() > 5, "{line}");
}
