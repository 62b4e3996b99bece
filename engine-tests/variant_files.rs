//! Variants from files (src/variant_file.rs): every built-in variant written out as a file
//! and read back plays the same perft; the shipped file of Sissa's own variants matches its
//! perft suite; every malformed file is refused with its file, line and fault; pieces
//! defined in XBetza survive the same round trip; the stalemate and bare-king rules end games
//! and the search scores them.

use std::path::Path;

use sissa::rng::Rng;
use sissa::rules::game::Termination;
use sissa::rules::perft::perft;
use sissa::rules::role::Color;
use sissa::rules::variant_file::describe;
use sissa::search::{Control, Limits, Score, Searcher};
use sissa::tools::perft_suite::parse_suite;
use sissa::tools::variant_files::{load, parse};
use sissa::{Position, Square, Variant};

fn fairy(name: &str) -> &'static Variant {
    let text = include_str!("../variants/fairy.ini");
    parse("fairy.ini", text)
        .expect("variants/fairy.ini")
        .into_iter()
        .find(|v| v.id() == name)
        .expect(name)
}

#[test]
fn built_in_variants_written_as_files_play_the_same_perft() {
    for v in Variant::all() {
        let copy = format!("{}-copy", v.id());
        let text = describe(v)
            .replacen(&format!("[{}]", v.id()), &format!("[{copy}]"), 1)
            .replace(
                &format!("cecp = {}", v.spec.cecp_name),
                &format!("cecp = {copy}"),
            );
        let loaded = parse("copy.ini", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(loaded.len(), 1);
        let w = loaded[0];
        assert_eq!(w.id(), copy);
        let suite = std::fs::read_to_string(format!(
            "{}/perft/{}.epd",
            env!("CARGO_MANIFEST_DIR"),
            v.id()
        ))
        .expect("suite");
        for entry in parse_suite(&suite).expect("suite").iter().take(6) {
            let mut a = Position::from_fen(v, &entry.fen).expect("fen");
            let mut b = Position::from_fen(w, &entry.fen).expect("fen in the copy");
            assert_eq!(a.fen(), b.fen());
            for depth in 1..=3 {
                assert_eq!(
                    perft(&mut a, depth),
                    perft(&mut b, depth),
                    "{copy} {}",
                    entry.fen
                );
            }
        }
    }
}

#[test]
fn sissas_own_variants_match_their_perft_suite() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let loaded = load(Path::new(&format!("{dir}/variants/sissa.ini"))).expect("variants/sissa.ini");
    let names: Vec<&str> = loaded.iter().map(|v| v.id()).collect();
    assert_eq!(names, ["venator8", "sissa-chess", "locust-chess"]);
    let text = std::fs::read_to_string(format!("{dir}/perft/own.epd")).expect("perft/own.epd");
    let suite = parse_suite(&text).expect("suite");
    assert_eq!(suite.len(), 9);
    for entry in suite {
        let mut pos = Position::from_fen(entry.variant, &entry.fen).expect("fen");
        for &(depth, expected) in entry.expected.iter().filter(|(d, _)| *d <= 4) {
            assert_eq!(perft(&mut pos, depth), expected, "line {}", entry.line);
        }
    }
    // Loaded variants answer to their names like the built-in ones.
    assert!(Variant::by_name("Venator8").is_some());
    assert!(Variant::names().contains("sissa-chess"));
}

#[test]
fn malformed_files_name_the_file_line_and_fault() {
    let cases: [(&str, usize, &str); 31] = [
        (
            "[a]\nboard = 8x8\npieces = PNBRQKY\n",
            3,
            "unknown piece letter 'Y'",
        ),
        ("[a:chess]\nboard = 17x8\n", 2, "board '17x8'"),
        ("[a:chess]\nboard = 8\n", 2, "FILESxRANKS"),
        (
            "[a:chess]\nstart = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1\n",
            2,
            "does not fit",
        ),
        ("[a:b]\n[b:a]\n", 1, "inheritance cycle: a -> b -> a"),
        ("[a:chess]\n[a:chess]\n", 2, "already defined on line 1"),
        ("[chess:chess]\n", 1, "already known"),
        ("[a:chess]\nflavour = sweet\n", 2, "unknown key 'flavour'"),
        ("[a:chess]\npiece = mafsW\n", 2, "NAME XBETZA [VALUE]"),
        ("[a:chess]\npiece = horse mafsX\n", 2, "XBetza 'mafsX'"),
        (
            "[a:chess]\npiece = h F\npiece = h W\n",
            3,
            "piece 'h' is already defined on line 2",
        ),
        (
            "[a:chess]\npiece = rook W\n",
            2,
            "the built-in rook moves 'R'",
        ),
        (
            "[a:chess]\npiece = hunter gafyafsR 900\n",
            2,
            "the built-in venator's XBetza, which has its own value",
        ),
        (
            "[a:chess]\npieces = PNBRQK horse:H\n",
            2,
            "unknown piece 'horse'",
        ),
        ("[a:chess]\nstalemate = win\n", 2, "stalemate 'win'"),
        ("[a:chess]\nmove-rule = 0\n", 2, "move-rule '0'"),
        ("board = 8x8\n", 1, "before any [variant] section"),
        ("[a:shogi]\n", 1, "unknown parent variant 'shogi'"),
        (
            "[a:chess]\nboard = 8x8\nboard = 9x9\n",
            3,
            "already set on line 2",
        ),
        (
            "[a:gustav3]\ncastling = e1g1/h1f1 a2a3/a1d1\n",
            2,
            "castling 'a2a3/a1d1'",
        ),
        (
            "[a:chess]\nholes = h1\n",
            1,
            "file h of rank 1, which is not on the board",
        ),
        ("[a:venomous]\nhand = J 5 2\n", 2, "hand 'J 5 2'"),
        ("[a:chess]\npromotion = QK\n", 2, "cannot promote to 'K'"),
        ("[a:chess]\npromotion-zone = 8\n", 2, "promotion-zone '8'"),
        (
            "[a:chess]\ncastling-rook = K\n",
            2,
            "cannot castle with 'K'",
        ),
        ("[a:chess]\ncastling-rook = RN\n", 2, "castling-rook 'RN'"),
        (
            "[a:chess]\npromotion-optional = maybe\n",
            2,
            "promotion-optional 'maybe'",
        ),
        (
            "[a:chess]\npromotion-limit = Q1 K1\n",
            2,
            "promotion-limit 'K1'",
        ),
        (
            "[a:chess]\npiece = lion cacafK\n",
            2,
            "second locust capture",
        ),
        ("[a:chess]\npiece = x cpafR\n", 2, "locust leg"),
        ("# nothing\n", 0, "no [variant] section"),
    ];
    for (text, line, words) in cases {
        let e = parse("bad.ini", text).expect_err(text);
        assert_eq!((e.file.as_str(), e.line), ("bad.ini", line), "{text}: {e}");
        assert!(e.to_string().contains(words), "{text}: {e}");
        let shown = e.to_string();
        assert!(shown.starts_with("bad.ini:"), "{shown}");
    }
    let missing = load(Path::new("no/such/file.ini")).expect_err("missing file");
    assert!(missing.to_string().contains("cannot read it"), "{missing}");
}

#[test]
fn variants_with_xbetza_pieces_written_as_files_play_the_same_perft() {
    let mut rng = Rng::new(0x5a7);
    for name in ["shatranj", "courier", "hoppelpoppel", "centaur"] {
        let v = fairy(name);
        let copy = format!("{name}-copy");
        let text = describe(v).replacen(&format!("[{name}]"), &format!("[{copy}]"), 1);
        let text = text.replacen(&format!("cecp = {name}"), &format!("cecp = {copy}"), 1);
        assert!(text.contains("piece = "), "{text}");
        let w = parse("copy.ini", &text).unwrap_or_else(|e| panic!("{e}\n{text}"))[0];
        for _ in 0..4 {
            let mut a = Position::startpos(v);
            for _ in 0..rng.below(40) {
                let moves = a.legal_moves();
                if moves.is_empty() {
                    break;
                }
                a.make(*rng.choose(&moves));
            }
            let mut b = Position::from_fen(w, &a.fen()).expect("fen in the copy");
            assert_eq!(perft(&mut a, 3), perft(&mut b, 3), "{copy} {}", a.fen());
        }
    }
}

#[test]
fn a_bare_king_loses_unless_it_bares_the_other_at_once() {
    let v = fairy("shatranj");
    // Black's king is bare, White has a rook besides its king, White to move: over.
    let mut over = Position::from_fen(v, "k7/8/1K6/8/8/8/8/1R6 w - - 0 1").expect("fen");
    assert!(over.legal_moves().is_empty());
    let outcome = over.outcome().expect("game over");
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.termination, Termination::BareKing);
    // Bared by White's last move, Black may still take the last piece: not over yet.
    let mut reply = Position::from_fen(v, "8/8/8/8/8/8/1r6/K6k w - - 0 1").expect("fen");
    let mut reply = {
        let mv = reply
            .legal_moves()
            .into_iter()
            .find(|m| reply.move_text(*m, 1) == "a1b2")
            .expect("Kxb2");
        reply.make(mv);
        reply
    };
    assert_eq!(reply.bare_king_loser(), None);
    assert!(reply.outcome().is_none() || reply.outcome().unwrap().winner.is_none());
    // Bare and to move, without a capture of the last piece: lost after any move, which
    // the search reports as mate in one move against it (not `mate 0`, lost already).
    let mut lost = Position::from_fen(v, "k7/8/1K6/8/8/8/8/1R6 b - - 0 1").expect("fen");
    let mut searcher = Searcher::new(16).expect("hash table");
    let limits = Limits {
        depth: Some(3),
        multipv: 1,
        ..Limits::default()
    };
    let result = searcher.search(&mut lost, &limits, &Control::default(), &mut |_| {});
    assert_eq!(result.score, Score::Mate(-1), "{result:?}");
    // In chess the same material is only a win to play for.
    let chess = Variant::by_name("chess").expect("chess");
    let mut pos = Position::from_fen(chess, "k7/8/1K6/8/8/8/8/1R6 w - - 0 1").expect("fen");
    assert!(!pos.legal_moves().is_empty());
}

#[test]
fn stalemate_loses_where_the_variant_says_so_and_the_search_plays_for_it() {
    let v = fairy("shatranj");
    // The ferz on b6 and the king on c7 leave Black's king on a8 no move, and its pawn is
    // blocked (with a pawn, Black's king is not bare).
    let mut stalemated = Position::from_fen(v, "k7/2K5/1Q6/8/8/7p/7P/8 b - - 0 1").expect("fen");
    let outcome = stalemated.outcome().expect("stalemate");
    assert_eq!(
        (outcome.winner, outcome.termination),
        (Some(Color::White), Termination::Stalemate)
    );
    // One move from it, the search scores Kc7 as a win, where chess would call it a draw.
    let mut pos = Position::from_fen(v, "k7/8/1QK5/8/8/7p/7P/8 w - - 0 1").expect("fen");
    let mut searcher = Searcher::new(16).expect("hash table");
    let limits = Limits {
        depth: Some(4),
        multipv: 1,
        ..Limits::default()
    };
    let result = searcher.search(&mut pos, &limits, &Control::default(), &mut |_| {});
    assert_eq!(result.score, Score::Mate(1), "{result:?}");
}

#[test]
fn a_built_in_pieces_xbetza_in_a_file_is_that_piece() {
    let text = "[hunters:chess]\npiece = hunter gafyafsR\npieces = PNRQK hunter:B\n\
                promotion = QRNB\n";
    let v = parse("hunters.ini", text).expect("hunters")[0];
    assert_eq!(
        v.role_of_letter('B'),
        Some(sissa::rules::role::Role::Venator)
    );
    // Its own walker, not the general one: the same moves as a Venator's.
    let mut pos = Position::startpos(v);
    assert_eq!(perft(&mut pos, 3), {
        let venator8 = "[v8:chess]\npieces = PNRQKV\npromotion = QRNV\n\
                        start = rnvqkvnr/pppppppp/8/8/8/8/PPPPPPPP/RNVQKVNR w KQkq - 0 1\n";
        let w = parse("v8.ini", venator8).expect("v8")[0];
        let mut p = Position::from_fen(
            w,
            "rnvqkvnr/pppppppp/8/8/8/8/PPPPPPPP/RNVQKVNR w KQkq - 0 1",
        )
        .expect("fen");
        perft(&mut p, 3)
    });
}

/// The jumper's and the rifle's moves worked out directly from their rules, as UCI text,
/// and whether they attack `target` (could capture on it at the end of a move or on the way).
fn locust_moves(pos: &Position, target: Option<Square>) -> (Vec<String>, bool) {
    let v = pos.variant();
    let g = &v.geometry;
    let (jumper, rifle) = (v.role_of_letter('J'), v.role_of_letter('L'));
    let us = match target {
        Some(t) => pos
            .piece_at(t)
            .map_or(pos.side_to_move(), |p| p.color.flip()),
        None => pos.side_to_move(),
    };
    let at = |f: i32, r: i32| g.square(f, r);
    let owner = |sq: Square| pos.piece_at(sq).map(|p| p.color);
    let name = |sq: Square| g.name(sq, 1).to_string();
    let (mut moves, mut attacks) = (Vec::new(), false);
    for &from in pos.pieces(us) {
        let role = pos.piece_at(from).map(|p| p.role);
        let (f, r) = (g.file(from), g.rank(from));
        let dirs: &[(i32, i32)] = if role == jumper {
            &[(1, 1), (1, -1), (-1, 1), (-1, -1)]
        } else if role == rifle {
            &[(0, 1), (0, -1), (1, 0), (-1, 0)]
        } else {
            continue;
        };
        for &(dx, dy) in dirs {
            let Some(near) = at(f + dx, r + dy) else {
                continue;
            };
            match owner(near) {
                None => moves.push(format!("{}{}", name(from), name(near))),
                Some(c) if c != us => {
                    let Some(far) = at(f + 2 * dx, r + 2 * dy) else {
                        continue;
                    };
                    let lands = if role == jumper {
                        owner(far).is_none()
                    } else {
                        owner(far) != Some(us)
                    };
                    if lands {
                        moves.push(format!(
                            "{}{},{}{}",
                            name(from),
                            name(near),
                            name(near),
                            name(far)
                        ));
                        attacks |= Some(near) == target || Some(far) == target;
                    }
                }
                Some(_) => {}
            }
        }
    }
    moves.sort();
    (moves, attacks)
}

#[test]
fn locust_pieces_move_capture_and_give_check_as_their_xbetza_says() {
    // The jumper (mFcafmF) steps one square diagonally and captures as a checker does, over
    // an adjacent enemy onto the empty square behind; the rifle (mWcafW) steps one square
    // orthogonally and captures an adjacent enemy by stepping on past it, capturing what
    // stands there too.
    let v = parse("sissa.ini", include_str!("../variants/sissa.ini"))
        .expect("variants/sissa.ini")
        .into_iter()
        .find(|v| v.id() == "locust-chess")
        .expect("locust-chess");
    let (jumper, rifle) = (v.role_of_letter('J'), v.role_of_letter('L'));
    let mut rng = Rng::new(0x10c057);
    let (mut locusts, mut doubles, mut checks) = (0, 0, 0);
    for _ in 0..60 {
        let mut pos = Position::startpos(v);
        for _ in 0..150 {
            let (expected, _) = locust_moves(&pos, None);
            let mut got: Vec<String> = pos
                .pseudo_legal_moves()
                .into_iter()
                .filter(|m| {
                    let role = pos.piece_at(m.from).map(|p| p.role);
                    role == jumper || role == rifle
                })
                .map(|m| pos.move_text(m, 1))
                .collect();
            got.sort();
            assert_eq!(got, expected, "{}", pos.fen());
            let king = pos.king(pos.side_to_move());
            let (_, attacked_by_locusts) = locust_moves(&pos, Some(king));
            if attacked_by_locusts {
                checks += 1;
                assert!(pos.in_check(), "{}", pos.fen());
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let fen = pos.fen();
            let hash = pos.hash();
            for &mv in &moves {
                let text = pos.move_text(mv, 1);
                assert_eq!(pos.clone().parse_move(&text, 1), Ok(mv), "{text} in {fen}");
                let san = sissa::notation::san::to_san(&mut pos, mv);
                assert_eq!(
                    sissa::notation::san::parse_san(&mut pos, &san),
                    Ok(mv),
                    "{san} in {fen}"
                );
                pos.make(mv);
                assert_eq!(pos.hash(), pos.compute_hash(), "{text} in {fen}");
                let mover = pos.side_to_move().flip();
                assert!(
                    !pos.attacked(pos.king(mover), pos.side_to_move()),
                    "{text} in {fen}"
                );
                let again = Position::from_fen(v, &pos.fen()).expect("fen");
                assert_eq!(again.hash(), pos.hash(), "{text} in {fen}");
                pos.unmake();
                assert_eq!((pos.fen(), pos.hash()), (fen.clone(), hash), "{text}");
                if mv.kind == sissa::MoveKind::Locust {
                    locusts += 1;
                    doubles += usize::from(san.matches('x').count() == 2);
                }
            }
            // Prefer locust captures, then other captures, so that the pieces get out.
            let kind = |locust: bool| -> Vec<_> {
                let of_kind = |m: &&sissa::Move| {
                    (m.kind == sissa::MoveKind::Locust) == locust
                        && (locust || pos.piece_at(m.to).is_some())
                };
                moves.iter().filter(of_kind).copied().collect()
            };
            let (locust_moves, captures) = (kind(true), kind(false));
            let pick = match rng.below(3) {
                0 if !locust_moves.is_empty() => *rng.choose(&locust_moves),
                1 if !captures.is_empty() => *rng.choose(&captures),
                _ => *rng.choose(&moves),
            };
            pos.make(pick);
        }
    }
    assert!(
        locusts > 200 && doubles > 5 && checks > 10,
        "{locusts} locust moves, {doubles} capturing twice, {checks} checks"
    );
}

#[test]
fn initial_moves_belong_to_a_piece_on_its_start_square() {
    // The hopper leaps as a knight and, from a square where the start position has a hopper
    // of its colour, may also slide up to two squares straight forward (`ifmW2`).
    let text = "[itest:chess]\npiece = hopper NifmW2\npieces = PBRQK hopper:A\n\
                start = rabqkbar/pppppppp/8/8/8/8/PPPPPPPP/RABQKBAR w KQkq - 0 1\n\
                promotion = QRBA\n";
    let v = parse("itest.ini", text).expect("itest")[0];
    for (fen, moves) in [
        // On b1 or g1, its start squares: three or two knight moves, two steps, five king moves.
        ("4k3/8/8/8/8/8/8/1A2K3 w - - 0 1", 10),
        ("4k3/8/8/8/8/8/8/4K1A1 w - - 0 1", 10),
        // On d1 or b2, where no hopper starts: knight moves only.
        ("4k3/8/8/8/8/8/8/3AK3 w - - 0 1", 8),
        ("4k3/8/8/8/8/8/1A6/4K3 w - - 0 1", 9),
        // Black's start square, Black's forward; a white hopper on b8 has no steps.
        ("1a2k3/8/8/8/8/8/8/4K3 b - - 0 1", 10),
        ("1A2k3/8/8/8/8/8/8/4K3 w - - 0 1", 8),
        // Blocked by the piece in front, as a slide is.
        ("4k3/8/8/8/8/8/1P6/1A2K3 w - - 0 1", 8 + 2),
    ] {
        let mut pos = Position::from_fen(v, fen).expect("fen");
        assert_eq!(perft(&mut pos, 1), moves, "{fen}");
    }
    // The steps go with leaving the start square and come back with the return.
    let mut pos = Position::from_fen(v, "4k3/8/8/8/8/8/8/1A2K3 w - - 0 1").expect("fen");
    for (moves, hopper_moves) in [(["b1c3", "e8d8"], 8), (["c3b1", "d8e8"], 5)] {
        for text in moves {
            let mv = pos.parse_move(text, 1).expect(text);
            pos.make(mv);
        }
        let counted = pos
            .legal_moves()
            .iter()
            .filter(|m| pos.piece_at(m.from).map(|p| p.role) == v.role_of_letter('A'))
            .count();
        assert_eq!(counted, hopper_moves, "{}", pos.fen());
    }
}
