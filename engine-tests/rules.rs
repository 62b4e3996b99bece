//! Rules tests: each piece's geometry against the examples in the rules files, pawns, en
//! passant, drops, castling, game ends, FEN and move-string errors, and make/unmake/hash
//! consistency over whole perft trees.

use sissa::notation::fen::FenError;
use sissa::rules::game::Termination;
use sissa::rules::role::Color;
use sissa::{MoveError, Position, Variant};

fn pos(variant: &str, fen: &str) -> Position {
    let v = Variant::by_name(variant).expect("variant");
    Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Destinations (UCI text, sorted) of the legal moves from `from`.
fn targets(p: &mut Position, from: &str) -> Vec<String> {
    let mut out: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|&m| p.move_text(m, 1))
        .filter(|t| {
            t.starts_with(from) && !t[from.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|t| t[from.len()..].to_string())
        .collect();
    out.sort();
    out
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    out.sort();
    out
}

fn play(p: &mut Position, text: &str) {
    let mv = p
        .parse_move(text, 1)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    p.make(mv);
}

fn has_move(p: &mut Position, text: &str) -> bool {
    p.parse_move(text, 1).is_ok()
}

// ---- Sorcerer Snake -------------------------------------------------------------------

#[test]
fn snake_has_sixteen_targets_on_an_open_board() {
    let mut p = pos("venomous", "9k/10/10/10/10/4X5/10/10/10/K9[] w - - 0 1");
    let t = targets(&mut p, "e5");
    assert_eq!(
        t,
        sorted(&[
            "d7", "f7", "d3", "f3", "c6", "g6", "c4", "g4", // knight squares
            "c8", "g8", "c2", "g2", "b7", "h7", "b3", "h3", // zebra squares
        ])
    );
}

#[test]
fn snake_is_blocked_only_when_both_paths_are() {
    // Knight square f7 from e5: via e6 (orthogonal first) or f6 (diagonal first).
    let mut one = pos("venomous", "9k/10/10/10/4B5/4X5/10/10/10/K9[] w - - 0 1");
    assert!(has_move(&mut one, "e5f7"), "e6 blocked, f6 open");
    let mut both = pos("venomous", "5k4/10/10/10/4BB4/4X5/10/10/10/K9[] w - - 0 1");
    assert!(!has_move(&mut both, "e5f7"), "e6 and f6 blocked");
    // Zebra square g8 from e5: via e6,f7 or f6,g7.
    let mut z1 = pos("venomous", "9k/10/10/5B4/10/4X5/10/10/10/K9[] w - - 0 1");
    assert!(has_move(&mut z1, "e5g8"), "f7 blocks one path only");
    let mut z2 = pos("venomous", "5k4/10/10/5BB3/10/4X5/10/10/10/K9[] w - - 0 1");
    assert!(!has_move(&mut z2, "e5g8"), "f7 and g7 block both paths");
    // It captures on the target but never on the path.
    let mut cap = pos("venomous", "9k/10/10/10/5p4/4X5/10/10/10/K9[] w - - 0 1");
    assert!(has_move(&mut cap, "e5f7"), "path via e6 is open");
    assert!(!has_move(&mut cap, "e5f6"), "f6 is not a snake square");
}

// ---- Sissa ----------------------------------------------------------------------------

#[test]
fn sissa_reaches_rook_squares_by_four_paths() {
    // c1 to c3: via b1-a1-b2, d1-e1-d2, b2-a3-b3, d2-e3-d3; the straight c2 is no path.
    let open = "9k/10/10/10/10/10/10/10/2B7/2S6K[] w - - 0 1";
    let mut p = pos("venomous", open);
    assert!(has_move(&mut p, "c1c3"), "c2 occupied does not matter");
    // Block three of the four paths (a1, e1 and b3): d2-e3-d3 still leads there.
    let mut three = pos(
        "venomous",
        "k9/10/10/10/10/10/10/1B8/2B7/B1S1B4K[] w - - 0 1",
    );
    assert!(has_move(&mut three, "c1c3"));
    // Block all four (a1, e1, b3, d3).
    let mut four = pos(
        "venomous",
        "k9/10/10/10/10/10/10/1B1B6/2B7/B1S1B4K[] w - - 0 1",
    );
    assert!(!has_move(&mut four, "c1c3"));
}

#[test]
fn sissa_reaches_nightrider_squares_by_two_paths_and_never_a_diagonal_square() {
    // c1 to d3: one orthogonal step then one diagonal (via c2), or the reverse (via d2).
    let mut p = pos("venomous", "9k/10/10/10/10/10/10/10/2B7/2S6K[] w - - 0 1");
    assert!(has_move(&mut p, "c1d3"), "via d2");
    let mut both = pos("venomous", "9k/10/10/10/10/10/10/10/2BB6/2S6K[] w - - 0 1");
    assert!(!has_move(&mut both, "c1d3"));
    let mut open = pos("venomous", "9k/10/10/10/10/4S5/10/10/10/K9[] w - - 0 1");
    let t = targets(&mut open, "e5");
    for sq in &t {
        let (f, r) = (
            sq.as_bytes()[0] as i32 - b'e' as i32,
            sq[1..].parse::<i32>().unwrap() - 5,
        );
        assert!(
            (f == 0 || r == 0) || (f.abs() * 2 == r.abs()) || (r.abs() * 2 == f.abs()),
            "e5{sq} is neither a rook nor a nightrider square"
        );
        assert!(f.abs() != r.abs(), "e5{sq} is a diagonal square");
    }
    // On an open 10x10 board from e5: rook squares on the rank and file where a path fits,
    // and (n, 2n) squares.
    assert!(t.contains(&"e9".to_string()) && t.contains(&"a5".to_string()));
    assert!(
        t.contains(&"f7".to_string())
            && t.contains(&"g9".to_string())
            && t.contains(&"i3".to_string())
    );
    assert!(
        t.contains(&"e6".to_string()),
        "a rook square one step away: via d5-d6 or f5-f6"
    );
    assert!(!t.contains(&"f6".to_string()));
}

// ---- Venator --------------------------------------------------------------------------

#[test]
fn venator_hops_the_first_screen_and_slides_a_forward_diagonal() {
    // V a1, R b1, c1 empty: east screen b1, hop c1, then NE d2..; north is a hole.
    let mut p = pos("venator", "k8K/*8*/*8*/*8*/*8*/*8*/*8*/VR8 w - - 0 1");
    assert_eq!(
        targets(&mut p, "a1"),
        sorted(&["d2", "e3", "f4", "g5", "h6", "i7"])
    );
    // V e2, screen e4, hop e5: NE f6 g7 h8, NW d6 c7 b8. East and west run into holes.
    let mut p = pos("venator", "9k/*8*/*8*/*8*/*3p4*/*8*/*3V4*/K9 w - - 0 1");
    assert_eq!(
        targets(&mut p, "e2"),
        sorted(&["f6", "g7", "h8", "d6", "c7", "b8"])
    );
    // V b6 moving south, screen b3, hop b2: SW a1, SE c1.
    let mut p = pos("venator", "9k/*8*/*V7*/*8*/*8*/*p7*/*8*/9K w - - 0 1");
    assert_eq!(targets(&mut p, "b6"), sorted(&["a1", "c1"]));
    // V e4 west, screen c4, hop b4: both diagonals (a5, a3) are holes.
    let mut p = pos("venator", "k9/*8*/*8*/*8*/*1p1V4*/*8*/*8*/9K w - - 0 1");
    assert!(targets(&mut p, "e4").is_empty());
    // V e3, screen b3: the hop square a3 is a hole.
    let mut p = pos("venator", "k9/*8*/*8*/*8*/*8*/*p2V4*/*8*/9K w - - 0 1");
    assert!(targets(&mut p, "e3").is_empty());
}

#[test]
fn venator_never_jumps_two_pieces_and_captures_only_on_the_diagonal() {
    // Screen e4 and a second piece on e5 (the hop square): no move north.
    let mut blocked = pos("venator", "9k/*8*/*8*/*3p4*/*3p4*/*8*/*3V4*/K9 w - - 0 1");
    assert!(targets(&mut blocked, "e2").is_empty());
    // A black rook on g7 is captured; the slide stops there.
    let mut cap = pos("venator", "9k/*5r2*/*8*/*8*/*3p4*/*8*/*3V4*/K9 w - - 0 1");
    assert_eq!(
        targets(&mut cap, "e2"),
        sorted(&["f6", "g7", "d6", "c7", "b8"])
    );
}

#[test]
fn a_move_that_supplies_a_screen_for_an_enemy_venator_is_illegal() {
    // Black V e8 looks south; a white piece on e6 would be the screen, e5 the hop square,
    // and the SE diagonal f4-g3 reaches the white king.
    let mut p = pos("venator", "k3v5/*8*/*8*/*8*/*2N5*/*5K2*/*8*/10 w - - 0 1");
    assert!(!has_move(&mut p, "d4e6"));
    assert!(has_move(&mut p, "d4c6"));
    // With the knight already on e6 the white king is in check, so a FEN with Black to move
    // there cannot arise.
    let v = Variant::by_name("venator").unwrap();
    let fen = "k3v5/*8*/*3N4*/*8*/*8*/*5K2*/*8*/10 b - - 0 1";
    assert_eq!(
        Position::from_fen(v, fen).err(),
        Some(FenError::OpponentInCheck)
    );
}

#[test]
fn removing_a_venator_screen_or_filling_its_hop_square() {
    // White knight on e6 screens for the black Venator e8; hop e5; diagonal to the king g3.
    // The white king is in check; the knight moving away ends the check, filling e5 too.
    let mut p = pos("venator", "k3v5/*8*/*3N4*/*8*/*8*/*5KB1*/*8*/10 w - - 0 1");
    assert!(p.in_check());
    assert!(has_move(&mut p, "e6c5"));
    assert!(has_move(&mut p, "e6g5"));
    assert!(
        !has_move(&mut p, "h3g4"),
        "a bishop move elsewhere leaves the check"
    );
}

// ---- Pawns, en passant, drops ---------------------------------------------------------

#[test]
fn venomous_pawn_ranges_per_rank() {
    let mut p = pos("venomous", "9k/4P5/10/4P5/10/4P5/10/10/4P5/K9[] w - - 0 1");
    assert_eq!(
        targets(&mut p, "e2"),
        sorted(&["e3", "e4"]),
        "e5 is occupied"
    );
    assert_eq!(targets(&mut p, "e5"), sorted(&["e6"]));
    assert_eq!(targets(&mut p, "e7"), sorted(&["e8"]), "e9 is occupied");
    let promos = targets(&mut p, "e9");
    assert_eq!(promos.len(), 7, "Q R B W F S X: {promos:?}");
    let mut q = pos("venomous", "9k/10/4P5/10/10/10/10/4P5/10/K9[] w - - 0 1");
    assert_eq!(targets(&mut q, "e3"), sorted(&["e4", "e5"]));
    assert_eq!(
        targets(&mut q, "e8"),
        sorted(&["e9", "e10q", "e10r", "e10b", "e10w", "e10f", "e10s", "e10x"])
    );
    // Black mirrors: from rank 9 down to 6, from 6 one step, from 5 one or two.
    let mut b = pos("venomous", "k9/4p5/10/10/10/3p6/10/10/10/9K[] b - - 0 1");
    assert_eq!(targets(&mut b, "e9"), sorted(&["e8", "e7", "e6"]));
    assert_eq!(targets(&mut b, "d5"), sorted(&["d4", "d3"]));
}

#[test]
fn extended_en_passant_after_a_three_square_pawn_move() {
    let mut p = pos("venomous", "k9/10/10/10/10/5p4/3p1j4/10/4P5/K9[] w - - 0 1");
    play(&mut p, "e2e5");
    assert!(p.fen().contains(" e3e4 "), "{}", p.fen());
    assert!(
        has_move(&mut p, "d4e3"),
        "pawn takes en passant on the first target"
    );
    assert!(
        has_move(&mut p, "f5e4"),
        "pawn takes en passant on the second target"
    );
    assert!(!has_move(&mut p, "f4e3"), "a Ninja never takes en passant");
    play(&mut p, "d4e3");
    let fen = p.fen();
    let rank5 = fen.split('/').nth(5).unwrap();
    assert_eq!(rank5, "5p4", "the e5 pawn was captured: {fen}");
    // The targets last one move only.
    let mut q = pos("venomous", "k9/10/10/10/10/5p4/3p1j4/10/4P5/K9[] w - - 0 1");
    play(&mut q, "e2e5");
    play(&mut q, "a10b10");
    play(&mut q, "a1b1");
    assert!(!has_move(&mut q, "d4e3"));
}

#[test]
fn en_passant_in_the_fen_lists_every_target_and_is_read_back() {
    let p = pos("venomous", "k9/10/10/10/10/4P5/10/10/10/K9[] b - e3e4 0 1");
    assert!(p.fen().contains(" e3e4 "));
    let v = Variant::by_name("venomous").unwrap();
    assert!(matches!(
        Position::from_fen(v, "k9/10/10/10/10/10/10/10/10/K9[] b - e3e4 0 1"),
        Err(FenError::BadEnPassant(_))
    ));
}

#[test]
fn ninja_pawn_moves_sideways_and_captures_sideways_only_in_the_enemy_half() {
    let mut p = pos(
        "venomous",
        "k9/10/10/3pJp4/10/3pJp4/10/10/10/K9[] w - - 0 1",
    );
    // e5 is White's own half: sideways captures are not allowed; e7 is the enemy half.
    assert_eq!(targets(&mut p, "e5"), sorted(&["e6"]));
    assert_eq!(targets(&mut p, "e7"), sorted(&["d7", "f7", "e8", "e9"]));
}

#[test]
fn drops_with_push_stop_at_the_middle_and_at_the_first_piece() {
    let mut p = pos(
        "venomous",
        "k9/10/10/10/10/10/4p5/10/PPPP1PPPPP/K9[J] w - - 0 1",
    );
    let drops: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|&m| p.move_text(m, 1))
        .filter(|t| t.starts_with("J@"))
        .collect();
    assert_eq!(drops, vec!["J@e2", "J@e3"], "e4 holds a black pawn");
    let mut open = pos(
        "venomous",
        "k9/10/10/10/10/10/10/10/PPPP1PPPPP/K9[J] w - - 0 1",
    );
    let n = open
        .legal_moves()
        .iter()
        .filter(|m| m.drop_role().is_some())
        .count();
    assert_eq!(n, 4, "e2, e3, e4, e5");
    // Black drops on its rank 9 and pushes to rank 6 at most.
    let mut b = pos(
        "venomous",
        "k9/pppp1ppppp/10/10/10/10/10/10/10/K9[j] b - - 0 1",
    );
    let mut t: Vec<String> = b
        .legal_moves()
        .iter()
        .filter(|m| m.drop_role().is_some())
        .map(|&m| b.move_text(m, 1))
        .collect();
    t.sort();
    assert_eq!(t, vec!["J@e6", "J@e7", "J@e8", "J@e9"]);
    play(&mut b, "J@e6");
    assert_eq!(b.hand(sissa::Color::Black), 0);
    assert!(
        b.fen().starts_with("k9/pppp1ppppp/10/10/4j5/"),
        "{}",
        b.fen()
    );
}

#[test]
fn a_drop_may_block_check_and_may_mate() {
    // White king a1 in check from the rook on a10; J@a2 blocks.
    let mut p = pos("venomous", "r8k/10/10/10/10/10/10/10/1P8/K9[J] w - - 0 1");
    assert!(p.in_check());
    assert!(has_move(&mut p, "J@a2"));
    assert!(has_move(&mut p, "J@a5"));
}

// ---- Castling -------------------------------------------------------------------------

#[test]
fn all_seven_flexible_castlings_per_side() {
    let fen = "r4k3r/10/10/10/10/10/10/10/10/R4K3R[] w KQkq - 0 1";
    let cases = [
        ("f1j1", "g1", "f1"),
        ("f1h1", "h1", "g1"),
        ("f1i1", "i1", "h1"),
        ("f1a1", "e1", "f1"),
        ("f1d1", "d1", "e1"),
        ("f1c1", "c1", "d1"),
        ("f1b1", "b1", "c1"),
    ];
    for (text, king, rook) in cases {
        let mut p = pos("venomous", fen);
        let mv = p
            .parse_move(text, 1)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.move_text(mv, 1), text);
        p.make(mv);
        let g = &p.variant().geometry;
        let k = g.parse_square_exact(king, 1).unwrap();
        let r = g.parse_square_exact(rook, 1).unwrap();
        assert_eq!(
            p.piece_at(k).map(|x| x.role),
            Some(sissa::Role::King),
            "{text}"
        );
        assert_eq!(
            p.piece_at(r).map(|x| x.role),
            Some(sissa::Role::Rook),
            "{text}"
        );
        assert!(
            p.fen().contains(" kq "),
            "{text} drops White's rights: {}",
            p.fen()
        );
        p.unmake();
        assert_eq!(p.fen(), fen);
    }
    // Black's the same on rank 10, and the one-step king move stays an ordinary move.
    let mut b = pos(
        "venomous",
        "r4k3r/10/10/10/10/10/10/10/10/R4K3R[] b KQkq - 0 1",
    );
    for text in [
        "f10j10", "f10h10", "f10i10", "f10a10", "f10d10", "f10c10", "f10b10", "f10g10", "f10e10",
    ] {
        assert!(has_move(&mut b, text), "{text}");
    }
}

#[test]
fn castling_needs_empty_squares_between_and_an_unattacked_king_path() {
    // A black rook on h10 attacks h1: king to h1 or through it is out; to g1 is fine.
    let mut p = pos(
        "venomous",
        "r4k1r2/10/10/10/10/10/10/10/10/R4K3R[] w KQq - 0 1",
    );
    assert!(has_move(&mut p, "f1j1"));
    assert!(!has_move(&mut p, "f1h1"));
    assert!(!has_move(&mut p, "f1i1"));
    // A piece between king and rook forbids every castling on that side.
    let mut q = pos(
        "venomous",
        "r4k3r/10/10/10/10/10/10/10/10/RB3K3R[] w KQkq - 0 1",
    );
    for t in ["f1a1", "f1d1", "f1c1", "f1b1"] {
        assert!(!has_move(&mut q, t), "{t}");
    }
    // In check: no castling.
    let mut c = pos(
        "venomous",
        "r4r2k1/10/10/10/10/10/10/10/10/R4K3R[] w KQ - 0 1",
    );
    assert!(!has_move(&mut c, "f1h1") && !has_move(&mut c, "f1d1"));
}

#[test]
fn gustavian_castling_and_king_onto_rook_input() {
    let mut p = pos(
        "venator",
        "vr3k2rv/*8*/*8*/*8*/*8*/*8*/*8*/VR3K2RV w KQkq - 0 1",
    );
    let short = p.parse_move("f1h1", 1).unwrap();
    assert_eq!(
        p.parse_move("f1i1", 1).unwrap(),
        short,
        "king onto own rook"
    );
    let long = p.parse_move("f1d1", 1).unwrap();
    assert_eq!(p.parse_move("f1b1", 1).unwrap(), long);
    p.make(long);
    assert!(
        p.fen()
            .starts_with("vr3k2rv/*8*/*8*/*8*/*8*/*8*/*8*/V2KR3RV b kq"),
        "{}",
        p.fen()
    );
}

#[test]
fn castling_through_a_square_a_venator_attacks_is_illegal() {
    // Black Venator on j8 looking west: screen i8? No: the black V on d8 moving south with
    // screen d3 (white pawn) and hop d2 attacks c1 and e1 diagonally.
    let mut p = pos("venator", "k2v6/*8*/*8*/*8*/*8*/*2P5*/*8*/1R3K4 w Q - 0 1");
    assert!(!p.in_check());
    assert!(
        !has_move(&mut p, "f1d1"),
        "e1 is attacked through the screen d3"
    );
}

// ---- Game end ------------------------------------------------------------------------

#[test]
fn checkmate_stalemate_fifty_moves_repetition_and_material() {
    let mut mate = pos("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(mate.outcome().unwrap().termination, Termination::Checkmate);
    let mut stale = pos("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stale.outcome().unwrap().termination, Termination::Stalemate);
    let mut fifty = pos("chess", "7k/8/6K1/8/8/8/8/R7 w - - 100 80");
    assert_eq!(
        fifty.outcome().unwrap().termination,
        Termination::FiftyMoves
    );
    let mut rep = pos("venator", "vr3k3v/*8*/*8*/*8*/*8*/*8*/*8*/VR3K3V w - - 0 1");
    for _ in 0..2 {
        for m in ["f1g1", "f8g8", "g1f1", "g8f8"] {
            let mv = rep.parse_move(m, 1).unwrap();
            rep.make(mv);
        }
    }
    assert_eq!(rep.outcome().unwrap().termination, Termination::Repetition);
    let mut kk = pos("venomous", "k9/10/10/10/10/10/10/10/10/K9[] w - - 0 1");
    assert_eq!(
        kk.outcome().unwrap().termination,
        Termination::InsufficientMaterial
    );
    let mut kk_hand = pos("venomous", "k9/10/10/10/10/10/10/10/10/K9[J] w - - 0 1");
    assert!(
        kk_hand.outcome().is_none(),
        "a Ninja in hand can still promote"
    );
    let mut kbk = pos("chess", "k7/8/8/8/8/8/8/KB6 w - - 0 1");
    assert_eq!(
        kbk.outcome().unwrap().termination,
        Termination::InsufficientMaterial
    );
    let mut kbk_venator = pos("venator", "k9/*8*/*8*/*8*/*8*/*8*/*8*/KB8 w - - 0 1");
    assert!(
        kbk_venator.outcome().is_none(),
        "only K v K is a material draw outside chess"
    );
}

// ---- FEN and move errors -------------------------------------------------------------

#[test]
fn invalid_fens_are_refused_with_the_fault_named() {
    let venator = Variant::by_name("venator").unwrap();
    let venomous = Variant::by_name("venomous").unwrap();
    let chess = Variant::chess();
    type Case<'a> = (&'a Variant, &'a str, fn(&FenError) -> bool);
    let cases: Vec<Case> = vec![
        (chess, "", |e| matches!(e, FenError::Empty)),
        (chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", |e| {
            matches!(e, FenError::MissingField(_))
        }),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w - - 0 1",
            |e| matches!(e, FenError::UnknownLetter { letter: 'Z' }),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w - - 0 1",
            |e| matches!(e, FenError::RankLength { .. }),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            |e| matches!(e, FenError::RankLength { .. }),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            |e| matches!(e, FenError::RankCount { .. }),
        ),
        (
            chess,
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            |e| matches!(e, FenError::KingCount { .. }),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",
            |e| matches!(e, FenError::KingCount { .. }),
        ),
        (
            chess,
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w - - 0 1",
            |e| matches!(e, FenError::PawnOnEdgeRank { .. }),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - 0 1",
            |e| matches!(e, FenError::BadSide(_)),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KX - 0 1",
            |e| matches!(e, FenError::BadCastling(_)),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1",
            |e| matches!(e, FenError::BadCastling(_)),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            |e| matches!(e, FenError::BadEnPassant(_)),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            |e| matches!(e, FenError::BadEnPassant(_)),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            |e| matches!(e, FenError::BadCounter(_)),
        ),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[J] w KQkq - 0 1",
            |e| matches!(e, FenError::BadHoldings(_)),
        ),
        (chess, "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", |e| {
            matches!(e, FenError::OpponentInCheck)
        }),
        (
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            |e| matches!(e, FenError::ExtraFields(_)),
        ),
        (
            venator,
            "vrnbqkbnrv/*pppppppp*/*8*/*8*/*8*/*8*/PPPPPPPPP*/VRNBQKBNRV w - - 0 1",
            |e| matches!(e, FenError::PieceOnHole { .. }),
        ),
        (
            venator,
            "vrnbqkbnrv/*pppppppp*/10/*8*/*8*/*8*/*PPPPPPPP*/VRNBQKBNRV w - - 0 1",
            |e| matches!(e, FenError::PieceOnHole { .. }),
        ),
        (
            venator,
            "vrnbqkbnr*/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/VRNBQKBNRV w - - 0 1",
            |e| matches!(e, FenError::HoleMismatch { .. }),
        ),
        (
            venomous,
            "rwbxqksbfr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RWBXQKSBFR[JJJJJQ] w KQkq - 0 1",
            |e| matches!(e, FenError::BadHoldings(_)),
        ),
        (
            venomous,
            "rwbxqksbfr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RWBXQKSBFR[JJJJJJ] w KQkq - 0 1",
            |e| matches!(e, FenError::BadHoldings(_)),
        ),
        (
            venomous,
            "rwbxqksbfr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RWBXQKSBFR[JJ w KQkq - 0 1",
            |e| matches!(e, FenError::BadHoldings(_)),
        ),
        (
            venomous,
            "rwbxqksbfr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RWBXQKSBFN[] w KQkq - 0 1",
            |e| matches!(e, FenError::UnknownLetter { letter: 'N' }),
        ),
    ];
    for (v, fen, check) in cases {
        match Position::from_fen(v, fen) {
            Ok(_) => panic!("accepted invalid FEN {fen:?}"),
            Err(e) => {
                assert!(check(&e), "{fen:?} gave the wrong error: {e}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

#[test]
fn holdings_may_be_empty_or_absent() {
    for fen in [
        "k9/10/10/10/10/10/10/10/10/K9[] w - - 0 1",
        "k9/10/10/10/10/10/10/10/10/K9[-] w - - 0 1",
        "k9/10/10/10/10/10/10/10/10/K9 w - - 0 1",
    ] {
        let p = pos("venomous", fen);
        assert_eq!(p.hand(sissa::Color::White), 0);
    }
}

#[test]
fn bad_move_strings_are_refused_and_leave_the_position_intact() {
    let mut p = Position::startpos(Variant::chess());
    let fen = p.fen();
    for (text, malformed) in [
        ("", true),
        ("zz", true),
        ("e2e9", true),
        ("e2", true),
        ("e2e4x", true),
        ("J@e5", true),
        ("e7e8q", false),
        ("e2e5", false),
        ("e1g1", false),
        ("e7e5", false),
        ("e2e4k", true),
    ] {
        let e = p.parse_move(text, 1).expect_err(text);
        assert_eq!(
            matches!(e, MoveError::Malformed { .. }),
            malformed,
            "{text}: {e}"
        );
        assert_eq!(p.fen(), fen);
    }
    let mut v = pos(
        "venomous",
        "k9/10/10/10/10/10/10/10/PPPPPPPPP1/K9[J] w - - 0 1",
    );
    assert!(matches!(
        v.parse_move("J@e2", 1),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        v.parse_move("J@e11", 1),
        Err(MoveError::Malformed { .. })
    ));
    assert!(
        v.parse_move("j@j3", 1).is_ok(),
        "drop letters in either case"
    );
}

#[test]
fn pinned_piece_moves_report_the_check() {
    let mut p = pos("chess", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
    let e = p.parse_move("e2d3", 1).expect_err("pinned");
    assert!(e.to_string().contains("check"), "{e}");
}

// ---- Make/unmake, hash and FEN consistency over perft trees --------------------------

fn walk(p: &mut Position, depth: u32, nodes: &mut u64) {
    *nodes += 1;
    assert_eq!(
        p.hash(),
        p.compute_hash(),
        "incremental hash differs at {}",
        p.fen()
    );
    assert_eq!(
        p.pawn_hash(),
        p.compute_pawn_hash(),
        "incremental pawn hash differs at {}",
        p.fen()
    );
    for color in Color::ALL {
        assert_eq!(
            p.nonpawn_hash(color),
            p.compute_nonpawn_hash()[color.index()],
            "incremental non-pawn hash of {color:?} differs at {}",
            p.fen()
        );
    }
    let fen = p.fen();
    let again = Position::from_fen(p.variant(), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(again.fen(), fen);
    assert_eq!(
        again.hash(),
        p.hash(),
        "hash of a re-read FEN differs: {fen}"
    );
    if depth == 0 {
        return;
    }
    let hash = p.hash();
    for mv in p.legal_moves() {
        let text = p.move_text(mv, 1);
        assert_eq!(
            p.clone().parse_move(&text, 1),
            Ok(mv),
            "move text {text} does not read back"
        );
        p.make(mv);
        walk(p, depth - 1, nodes);
        p.unmake();
        assert_eq!(
            p.fen(),
            fen,
            "unmake of {text} did not restore the position"
        );
        assert_eq!(p.hash(), hash);
    }
}

#[test]
fn unmake_restores_position_and_hash_everywhere_in_perft_trees() {
    let mut total = 0;
    for file in ["chess.epd", "gustav3.epd", "venator.epd", "venomous.epd"] {
        let text = std::fs::read_to_string(format!("{}/perft/{file}", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
        for entry in sissa::tools::perft_suite::parse_suite(&text).unwrap() {
            let mut p = Position::from_fen(entry.variant, &entry.fen).unwrap();
            let depth = if p.legal_moves().len() > 40 { 1 } else { 2 };
            walk(&mut p, depth, &mut total);
        }
    }
    assert!(total > 10_000, "{total} nodes checked");
}

#[test]
fn repetition_compares_en_passant_possibilities() {
    // After 1.e4 no black pawn can take en passant: the position equals the same placement
    // reached again by knight moves.
    let mut p = Position::startpos(Variant::chess());
    play(&mut p, "e2e4");
    let after_e4 = p.hash();
    assert!(p.fen().contains(" e3 "), "the FEN still lists the target");
    for m in ["g8f6", "g1f3", "f6g8", "f3g1"] {
        play(&mut p, m);
    }
    assert_eq!(p.hash(), after_e4);
    assert_eq!(p.repetitions(), 2);
    // With a black pawn on d4 the capture is possible and the positions differ.
    let mut q = pos(
        "chess",
        "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3",
    );
    play(&mut q, "e2e4");
    let with_ep = q.hash();
    for m in ["g8f6", "g1f3", "f6g8", "f3g1"] {
        play(&mut q, m);
    }
    assert_ne!(q.hash(), with_ep);
}

/// The search's draw test: a cycle inside the search is a draw, a position of the game seen
/// once before the root is not (the opponent may leave it), one seen twice is.
#[test]
fn the_search_counts_a_game_position_seen_once_as_no_draw() {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    // A search from the start position goes round the knights' cycle.
    let mut p = Position::startpos(Variant::chess());
    let root = p.history_len();
    for m in cycle {
        play(&mut p, m);
    }
    assert!(
        !p.is_repetition_since(root),
        "the root position again is the game's own"
    );
    play(&mut p, "g1f3");
    assert!(p.is_repetition_since(root), "a cycle made in the search");

    // The same moves played in the game: the start position stands for the second time.
    let mut q = Position::startpos(Variant::chess());
    for m in cycle {
        play(&mut q, m);
    }
    assert_eq!(q.repetitions(), 2);
    let root = q.history_len();
    assert!(!q.is_repetition_since(root), "seen once before the root");
    for m in cycle {
        let last = m == "f6g8";
        play(&mut q, m);
        assert_eq!(q.is_repetition_since(root), last, "after {m}");
    }
    assert_eq!(q.repetitions(), 3, "the second cycle makes a threefold");
    // A position seen twice before the root is a draw at once.
    let root = q.history_len();
    assert!(q.is_repetition_since(root));
    play(&mut q, "g1f3");
    assert!(q.is_repetition_since(root), "seen twice before the root");
    play(&mut q, "b8c6");
    assert!(!q.is_repetition_since(root), "a new position");
}

/// The legality shortcut (moves that touch no square the king depends on skip the test)
/// must agree with the plain definition: a pseudo-legal move is legal when, after it is
/// played, the mover's king is not attacked. Checked at every node of random games.
#[test]
fn legal_moves_equal_pseudo_legal_moves_that_leave_the_king_safe() {
    let mut rng = sissa::rng::Rng::new(0x2006_2009);
    let mut nodes = 0;
    for v in Variant::all() {
        for _game in 0..12 {
            let mut p = Position::startpos(v);
            for _ply in 0..160 {
                let legal = p.legal_moves();
                let us = p.side_to_move();
                let mut brute = Vec::new();
                for mv in p.pseudo_legal_moves() {
                    p.make(mv);
                    if !p.attacked(p.king(us), us.flip()) {
                        brute.push(mv);
                    }
                    p.unmake();
                }
                assert_eq!(legal.to_vec(), brute, "{}", p.fen());
                nodes += 1;
                if legal.is_empty() || p.outcome().is_some() {
                    break;
                }
                let mv = *rng.choose(&legal);
                p.make(mv);
            }
        }
    }
    assert!(nodes > 2000, "{nodes}");
}

#[test]
fn huge_move_counters_do_not_overflow() {
    let mut p = pos("chess", "4k3/8/8/8/8/8/8/4K2R b K - 4294967295 4294967295");
    play(&mut p, "e8d8");
    assert!(p.fen().ends_with("4294967295 4294967295"), "{}", p.fen());
    p.unmake();
    assert!(p.fen().ends_with("4294967295 4294967295"));
}

/// A Ninja pawn's sideways step resets the 50-move counter, but it can be reversed: the
/// position may repeat, and threefold repetition must still be seen (found by a
/// full-vs-material match whose game shuffled forever).
#[test]
fn repetition_is_seen_across_ninja_sideways_steps() {
    let mut p = pos("venomous", "k9/10/10/10/10/10/10/J9/10/9K[] w - - 0 1");
    for _ in 0..2 {
        for m in ["a3b3", "a10b10", "b3a3", "b10a10"] {
            play(&mut p, m);
        }
    }
    assert_eq!(
        p.halfmove_clock(),
        1,
        "the Ninja's step reset the 50-move counter"
    );
    assert_eq!(p.repetitions(), 3);
    assert_eq!(p.outcome().unwrap().termination, Termination::Repetition);
    // A forward Ninja step can never be undone: positions before it do not count.
    let mut q = pos("venomous", "k9/10/10/10/10/10/10/J9/10/9K[] w - - 0 1");
    for m in ["j1j2", "a10b10", "j2j1", "b10a10", "a3a4"] {
        play(&mut q, m);
    }
    assert_eq!(q.repetitions(), 1);
}
