//! Thousands of random and malformed lines for both protocols from a seeded generator: bad
//! FENs, bad moves, huge and negative numbers, unknown commands, commands in the middle of a
//! search, very long lines, broken UTF-8, and input that ends in the middle of a line.
//!
//! The engine must never panic, must answer every unknown command in the protocol's error
//! form, must stay in sync (`isready`/`ping`), and must still play a legal move afterwards.

mod support;

use sissa::{Position, Variant};
use support::Engine;

use sissa::rng::Rng;

/// Picks one of a list of words.
trait PickWord {
    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str;
}

impl PickWord for Rng {
    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        let word: &&'a str = self.choose(words);
        word
    }
}

const NUMBERS: [&str; 16] = [
    "0",
    "1",
    "2",
    "-1",
    "-99999999999999999999",
    "300",
    "99999999999999",
    "18446744073709551616",
    "99999999999999999999999999999",
    "3.5",
    "abc",
    "",
    "1e9",
    "0x10",
    "\u{e9}5",
    "5\u{e9}",
];

const FENS: [&str; 14] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "vrnbqkbnrv/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/VRNBQKBNRV w KQkq - 0 1",
    "rwbxqksbfr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RWBXQKSBFR[JJJJJjjjjj] w KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "k7/8/8/8/8/8/8/7K w - - 0 1 extra",
    "kK6/8/8/8/8/8/8/8 w - - 0 1",
    "rwbxqksbfr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RWBXQKSBFR[QQQQQQQQ] w KQkq - 0 1",
    "*/*/*",
    "",
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 99999999999999999999",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\u{e9} w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K\u{e9}q \u{e9}3 0 1",
];

fn random_square(rng: &mut Rng) -> String {
    let file = (b'a' + rng.below(13) as u8) as char;
    format!("{file}{}", rng.below(13))
}

fn random_move(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => format!(
            "{}@{}",
            rng.pick(&["J", "P", "Q", "x", "@"]),
            random_square(rng)
        ),
        1 => rng
            .pick(&[
                "0000", "@@@@", "e2e4", "e7e5", "e1e3", "f1j1", "J@e3", "e2e4q",
            ])
            .to_string(),
        2 => format!(
            "{}{}{}",
            random_square(rng),
            random_square(rng),
            rng.pick(&["q", "s", "x", "k", "zz", ""])
        ),
        3 => rng
            .pick(&[
                "",
                "e",
                "e2",
                "e2e",
                "-",
                "O-O",
                "e2-e4",
                "Nf3",
                "\u{e9}2\u{e9}4",
                "J@\u{e9}3",
                "e2e4\u{e9}",
                "e\u{e9}",
            ])
            .to_string(),
        _ => format!("{}{}", random_square(rng), random_square(rng)),
    }
}

fn moves(rng: &mut Rng) -> String {
    (0..rng.below(6))
        .map(|_| random_move(rng))
        .collect::<Vec<_>>()
        .join(" ")
}

fn garbage(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => format!("Zq{}", rng.next_u64()),
        1 => format!("Zzz {} {}", rng.next_u64(), "x".repeat(rng.below(3000))),
        2 => "Z\u{00e9}\u{4e2d}\u{1f600} \t tabs\tand spaces".to_string(),
        3 => format!("ZUNKNOWN{}", "!?#;".repeat(rng.below(20))),
        _ => format!(
            "Zz{}",
            (0..rng.below(40))
                .map(|_| (b'!' + rng.below(90) as u8) as char)
                .collect::<String>()
        ),
    }
}

fn uci_line(rng: &mut Rng, unknown: &mut usize) -> String {
    let n = |rng: &mut Rng| rng.pick(&NUMBERS).to_string();
    match rng.below(20) {
        0 => "isready".to_string(),
        1 => "ucinewgame".to_string(),
        2 => "stop".to_string(),
        3 => "ponderhit".to_string(),
        4 => format!("position startpos moves {}", moves(rng)),
        5 => format!("position fen {} moves {}", rng.pick(&FENS), moves(rng)),
        6 => format!(
            "position {}",
            rng.pick(&["", "fen", "startpos junk", "moves e2e4"])
        ),
        7 => format!(
            "setoption name UCI_Variant value {}",
            rng.pick(&[
                "chess",
                "venomous",
                "venator",
                "gustav3",
                "normal",
                "crazyhouse",
                ""
            ])
        ),
        // Hash gets small sizes only: every `ucinewgame` clears the whole table, and a
        // clamped 4 GB table would make the test slow without testing anything new.
        // Threads likewise: a clamped 128-thread search on two cores would only be slow.
        8 => match rng.below(3) {
            0 => format!(
                "setoption name Hash value {}",
                rng.pick(&["1", "2", "-3", "x", ""])
            ),
            1 => format!(
                "setoption name Threads value {}",
                rng.pick(&["1", "2", "0", "-3", "x", ""])
            ),
            _ => format!(
                "setoption name {} value {}",
                rng.pick(&[
                    "MultiPV",
                    "Move Overhead",
                    "Ponder",
                    "NullMove",
                    "LMR",
                    "Bogus",
                    ""
                ]),
                rng.pick(&[
                    "true",
                    "false",
                    "1",
                    "0",
                    "99999999999999999999",
                    "-3",
                    "x",
                    ""
                ])
            ),
        },
        9 => format!(
            "setoption {}",
            rng.pick(&["", "name", "value 3", "name Hash value"])
        ),
        10 => format!("go depth {}", rng.pick(&["1", "2", "300", "-1", "x", ""])),
        11 => format!(
            "go nodes {} movetime {}",
            n(rng),
            rng.pick(&["1", "5", "0"])
        ),
        12 => format!(
            "go wtime {} btime {} winc {} binc {} movestogo {}",
            n(rng),
            n(rng),
            n(rng),
            n(rng),
            n(rng)
        ),
        13 => format!(
            "go {}",
            rng.pick(&[
                "infinite",
                "ponder",
                "mate 2",
                "perft 2",
                "perft 99999999",
                "searchmoves e2e4 zz",
                "sideways"
            ])
        ),
        14 => format!("go perft {}", rng.pick(&["1", "2", "0", "-5", "x"])),
        15 => "d".to_string(),
        16 => String::new(),
        17 => random_move(rng),
        _ => {
            *unknown += 1;
            garbage(rng)
        }
    }
}

fn cecp_line(rng: &mut Rng, unknown: &mut usize) -> String {
    let n = |rng: &mut Rng| rng.pick(&NUMBERS).to_string();
    match rng.below(28) {
        0 => "new".to_string(),
        1 => format!(
            "variant {}",
            rng.pick(&["venomous", "venator", "gustav3", "normal", "crazyhouse", ""])
        ),
        2 => "force".to_string(),
        3 => "go".to_string(),
        4 => "playother".to_string(),
        5..=7 => format!("usermove {}", random_move(rng)),
        8 => format!("setboard {}", rng.pick(&FENS)),
        9 => rng.pick(&["undo", "remove"]).to_string(),
        10 => format!(
            "level {} {} {}",
            n(rng),
            rng.pick(&["0:30", "5", "x:y", "1:99", ""]),
            n(rng)
        ),
        11 => format!("st {}", rng.pick(&["0.01", "0", "1", "x"])),
        12 => format!("sd {}", rng.pick(&["1", "2", "300", "-4", "x"])),
        13 => match rng.below(4) {
            0 => format!("cores {}", rng.pick(&["1", "2", "0", "x", ""])),
            _ => format!("{} {}", rng.pick(&["time", "otim"]), n(rng)),
        },
        14 => rng
            .pick(&["post", "nopost", "hard", "easy", "random", "computer"])
            .to_string(),
        15 => rng.pick(&["analyze", "exit", ".", "?"]).to_string(),
        16 => format!(
            "option {}={}",
            rng.pick(&[
                "MultiPV",
                "NullMove",
                "LMR",
                "Move Overhead",
                "SetupFEN",
                "Bogus",
                ""
            ]),
            rng.pick(&["1", "0", "true", "99999999999999999999", "x", ""])
        ),
        17 => format!(
            "result {} {{because}}",
            rng.pick(&["1-0", "0-1", "1/2-1/2", "*"])
        ),
        18 => format!("ping {}", n(rng)),
        19 | 20 => format!(
            "{} {}",
            rng.pick(&["lift", "put", "hover"]),
            rng.pick(&[
                "e1", "l0", "_9", "J@", "zz", "", "e2", "a0", "\u{e9}5", "l\u{e9}"
            ])
        ),
        21 => "protover 2".to_string(),
        22 => format!("memory {}", rng.pick(&["1", "2", "-1", "x", ""])),
        23 => format!(
            "{} {}",
            rng.pick(&["accepted", "rejected", "name", "rating", "ics"]),
            n(rng)
        ),
        _ => {
            *unknown += 1;
            garbage(rng)
        }
    }
}

fn assert_no_panic(e: &Engine) {
    let err = e.stderr();
    assert!(!err.contains("panicked"), "the engine panicked:\n{err}");
}

#[test]
fn uci_survives_random_input() {
    let mut rng = Rng::new(0x5155_a5a5_0001);
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    let mut unknown = 0;
    for _ in 0..40 {
        // `isready` lines in the batch each get their own `readyok`: wait for all of them.
        let mut ready = 1;
        for _ in 0..100 {
            let line = uci_line(&mut rng, &mut unknown);
            ready += usize::from(line == "isready");
            e.send(&line);
        }
        e.send("stop");
        e.send("isready");
        for _ in 0..ready {
            e.until(|l| l == "readyok");
        }
        assert_no_panic(&e);
    }
    let answered = e
        .transcript
        .iter()
        .filter(|l| l.starts_with("info string error: unknown command 'Z"))
        .count();
    assert_eq!(
        answered, unknown,
        "every unknown command gets an error line"
    );
    // `ucinewgame` ends any search at once, with its `bestmove` before `readyok`.
    e.send("ucinewgame");
    e.sync_uci();
    // Still a working engine: a legal move from a fresh position.
    e.send("setoption name UCI_Variant value venomous");
    e.send("position startpos moves e2e5 e9e6");
    e.send("go depth 2");
    let (best, _) = e.until_prefix("bestmove ");
    let mut pos = Position::startpos(Variant::by_name("venomous").unwrap());
    for m in ["e2e5", "e9e6"] {
        let mv = pos.parse_move(m, 1).unwrap();
        pos.make(mv);
    }
    let mv = best.split_whitespace().nth(1).unwrap_or("");
    assert!(pos.parse_move(mv, 1).is_ok(), "{best}");
    // Input that ends in the middle of a line still counts as a command.
    e.send("setoption name UCI_Variant value chess");
    e.sync_uci();
    e.send_raw(b"position startpos moves e2e4\ngo depth 1");
    e.close_input();
    let (best, _) = e.until_prefix("bestmove ");
    let mut pos = Position::startpos(Variant::chess());
    let mv = pos.parse_move("e2e4", 1).unwrap();
    pos.make(mv);
    let mv = best.split_whitespace().nth(1).unwrap_or("");
    assert!(pos.parse_move(mv, 1).is_ok(), "{best}");
    assert!(e.wait_exit());
    assert_no_panic(&e);
}

#[test]
fn cecp_survives_random_input() {
    let mut rng = Rng::new(0xcec9_1234_5678);
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l == "feature done=1");
    let mut unknown = 0;
    for round in 0..40u32 {
        for _ in 0..100 {
            let line = cecp_line(&mut rng, &mut unknown);
            e.send(&line);
        }
        e.send("force");
        e.sync_cecp(1_000_000 + round);
        assert_no_panic(&e);
    }
    let answered = e
        .transcript
        .iter()
        .filter(|l| l.starts_with("Error (unknown command): Z"))
        .count();
    assert_eq!(
        answered, unknown,
        "every unknown command gets an error line"
    );
    e.send("new");
    e.send("variant venomous");
    e.send("force");
    e.send("usermove e1e4");
    e.send("sd 2");
    e.send("go");
    let (mv, _) = e.until_prefix("move ");
    let mut pos = Position::startpos(Variant::by_name("venomous").unwrap());
    let first = pos.parse_move("e1e4", 0).unwrap();
    pos.make(first);
    assert!(pos.parse_move(&mv[5..], 0).is_ok(), "{mv}");
    e.send_raw(b"force\xff\xfe\nusermove e2e4\nping 5");
    e.close_input();
    let (pong, _) = e.until_prefix("pong");
    assert_eq!(pong, "pong 5");
    assert!(e.wait_exit());
    assert_no_panic(&e);
}
