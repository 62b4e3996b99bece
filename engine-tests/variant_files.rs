//! Variants from files (src/variant_file.rs): every built-in variant written out as a file
//! and read back plays the same perft; the shipped file of Sissa's own variants matches its
//! perft suite; every malformed file is refused with its file, line and fault.

use std::path::Path;

use sissa::perft::{parse_suite, perft};
use sissa::variant_file::{describe, load, parse};
use sissa::{Position, Variant};

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
    assert_eq!(names, ["venator8", "sissa-chess"]);
    let text = std::fs::read_to_string(format!("{dir}/perft/own.epd")).expect("perft/own.epd");
    let suite = parse_suite(&text).expect("suite");
    assert_eq!(suite.len(), 6);
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
    let cases: [(&str, usize, &str); 17] = [
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
        (
            "[a:chess]\npiece = mafsW\n",
            2,
            "XBetza are not loadable yet",
        ),
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
