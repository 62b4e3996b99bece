//! UCI sessions against the `sissa` binary: handshake, variant switching, moves in every
//! notation, perft, illegal input, huge numbers, and commands during a search.

mod support;

use support::Engine;

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e
}

/// Sends `cmd` and returns the `info string` line that answers it (an error, here).
fn answer(e: &mut Engine, cmd: &str) -> String {
    e.send(cmd);
    e.until_prefix("info string").0.to_string()
}

/// The FEN Sissa holds, via the `d` debug command.
fn fen(e: &mut Engine) -> String {
    e.send("d");
    let (line, _) = e.until_prefix("info string fen ");
    line["info string fen ".len()..].to_string()
}

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.until(|l| l == "uciok");
    let text = lines.join("\n");
    assert!(text.contains("id name Sissa"), "{text}");
    assert!(
        text.contains(
            "option name UCI_Variant type combo default chess var chess var gustav3 var venator var venomous"
        ),
        "{text}"
    );
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Ponder",
        "MaterialOnly",
        "NullMove",
        "LMR",
        "Futility",
        "Aspiration",
        "UseNNUE",
        "EvalFile",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
    ] {
        assert!(
            text.contains(&format!("option name {name} type")),
            "{name}: {text}"
        );
    }
    e.send("quit");
    assert!(e.wait_exit());
}

#[test]
fn variant_switch_announces_the_board() {
    let mut e = uci();
    e.send("setoption name UCI_Variant value venomous");
    let (line, _) = e.until_prefix("info string variant");
    assert_eq!(
        line,
        "info string variant venomous files 10 ranks 10 pocket 1 template fairy startpos \
         rwbxqksbfr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RWBXQKSBFR[JJJJJjjjjj] w KQkq - 0 1"
    );
    e.send("setoption name UCI_Variant value venator");
    let (line, _) = e.until_prefix("info string variant");
    assert!(line.starts_with("info string variant venator files 10 ranks 8 pocket 0"));
    e.send("setoption name UCI_Variant value nonsense");
    let (line, _) = e.until_prefix("info string");
    assert!(
        line.starts_with("info string error: unknown variant"),
        "{line}"
    );
}

#[test]
fn venomous_drop_and_ranks_from_one() {
    let mut e = uci();
    e.send("setoption name UCI_Variant value venomous");
    e.send("position startpos moves e2e5 e9e6 J@e4");
    assert_eq!(
        fen(&mut e),
        "rwbxqksbfr/pppp1ppppp/10/10/4p5/4P5/4J5/10/PPPP1PPPPP/RWBXQKSBFR[JJJJjjjjj] b KQkq - 0 2"
    );
    e.send("go depth 1");
    let (best, _) = e.until_prefix("bestmove ");
    assert_ne!(best, "bestmove (none)");
}

#[test]
fn castling_as_king_onto_rook() {
    let mut e = uci();
    e.send("setoption name UCI_Variant value venomous");
    e.send("position fen r4k3r/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/R4K3R[JJJJJjjjjj] w KQkq - 0 1 moves f1j1");
    let after = fen(&mut e);
    assert!(
        after.starts_with("r4k3r/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/R4RK3[")
            && after.contains(" b kq "),
        "{after}"
    );
    // The Gustavian king step f1h1 and its king-onto-rook form f1i1 are the same castling.
    e.send("setoption name UCI_Variant value gustav3");
    let start = "ar3k2ra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/AR3K2RA w KQkq - 0 1";
    e.send(&format!("position fen {start} moves f1h1"));
    let a = fen(&mut e);
    e.send(&format!("position fen {start} moves f1i1"));
    let b = fen(&mut e);
    assert_eq!(a, b);
    assert!(a.contains("*PPPPPPPP*/AR4RK1A "), "{a}");
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = uci();
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 3");
    let (best, _) = e.until_prefix("bestmove");
    assert_eq!(best, "bestmove (none)");
    e.send("position fen k7/2Q5/1K6/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 50");
    let (best, _) = e.until_prefix("bestmove");
    assert_eq!(best, "bestmove (none)");
}

#[test]
fn go_perft_divides() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go perft 2");
    let (total, lines) = e.until_prefix("Nodes searched:");
    assert_eq!(total, "Nodes searched: 400");
    assert_eq!(lines.iter().filter(|l| l.ends_with(": 20")).count(), 20);
    e.send("setoption name UCI_Variant value venator");
    e.send("position startpos");
    e.send("go perft 1");
    let (total, lines) = e.until_prefix("Nodes searched:");
    let moves = lines.iter().filter(|l| l.ends_with(": 1")).count();
    assert_eq!(total, format!("Nodes searched: {moves}"));
}

#[test]
fn illegal_move_keeps_the_position_before_it() {
    let mut e = uci();
    let line = answer(&mut e, "position startpos moves e2e4 e7e5 e1e3 g1f3");
    assert!(
        line.starts_with("info string error: illegal move 'e1e3'"),
        "{line}"
    );
    assert_eq!(
        fen(&mut e),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    let line = answer(&mut e, "position fen this is not a fen");
    assert!(line.starts_with("info string error: bad FEN"), "{line}");
    assert_eq!(
        fen(&mut e),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
}

/// The FEN and the key line that one `d` prints for the position Sissa holds.
fn fen_and_key(e: &mut Engine) -> (String, String) {
    e.send("d");
    let (key, _) = e.until_prefix("Key: ");
    let (fen, _) = e.until_prefix("info string fen ");
    (fen.to_string(), key.to_string())
}

/// A GUI repeats the game before every move; Sissa plays only the new moves onto the
/// position it holds. Each step must equal a position built from scratch, history included
/// (a search that sees repetitions gives the same node count), and anything that is not an
/// extension (a take-back, another set-up, a bad move) must build afresh.
#[test]
fn a_position_that_extends_the_last_one_equals_a_fresh_build() {
    let game = "a2a5 j9j7 f2f4 b9b7 i2i3 J@j8 J@a2 i9i8 h1i2 b10c8 i2h1 c8b10 h1i2 b10c8";
    let words: Vec<&str> = game.split(' ').collect();
    let start =
        "rwbxqksbfr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RWBXQKSBFR[JJJJJjjjjj] w KQkq - 0 1";
    // Two engines take the same commands and searches (so their tables match), but the
    // second is made to build every position from scratch by another set-up in between.
    let mut grown = uci();
    let mut fresh = uci();
    for e in [&mut grown, &mut fresh] {
        e.send("setoption name UCI_Variant value venomous");
    }
    for n in 0..=words.len() {
        let cmd = format!("position startpos moves {}", words[..n].join(" "));
        grown.send(&cmd);
        fresh.send(&format!("position fen {start}"));
        fresh.send(&cmd);
        assert_eq!(
            fen_and_key(&mut grown),
            fen_and_key(&mut fresh),
            "after {n} moves"
        );
        if n % 7 == 0 {
            assert_eq!(
                search_nodes(&mut grown, 5),
                search_nodes(&mut fresh, 5),
                "after {n} moves"
            );
        }
    }
    // A take-back and another set-up are built afresh.
    let back = "position startpos moves a2a5 j9j7 f2f4";
    grown.send(back);
    fresh.send(&format!("position fen {start}"));
    fresh.send(back);
    assert_eq!(fen(&mut grown), fen(&mut fresh));
    let other = "position fen k9/10/10/10/10/10/10/J9/10/9K[] w - - 0 1 moves a3b3";
    grown.send(other);
    assert_eq!(
        fen(&mut grown),
        "k9/10/10/10/10/10/10/1J8/10/9K[] b - - 0 1"
    );
    // A bad move keeps the position before it, and the next command goes on from there.
    let line = answer(
        &mut grown,
        "position fen k9/10/10/10/10/10/10/J9/10/9K[] w - - 0 1 moves a3b3 a10a9 z9z9",
    );
    assert!(line.starts_with("info string error: "), "{line}");
    assert_eq!(
        fen(&mut grown),
        "10/k9/10/10/10/10/10/1J8/10/9K[] w - - 1 2"
    );
    grown.send("position fen k9/10/10/10/10/10/10/J9/10/9K[] w - - 0 1 moves a3b3 a10a9 b3c3");
    assert_eq!(
        fen(&mut grown),
        "10/k9/10/10/10/10/10/2J7/10/9K[] b - - 0 2"
    );
    // A new game forgets the set-up even when the next command repeats it.
    grown.send("ucinewgame");
    grown.send("position fen k9/10/10/10/10/10/10/J9/10/9K[] w - - 0 1 moves a3b3 a10a9 b3c3");
    assert_eq!(
        fen(&mut grown),
        "10/k9/10/10/10/10/10/2J7/10/9K[] b - - 0 2"
    );
}

/// Nodes of a `go depth D` search from the position Sissa holds.
fn search_nodes(e: &mut Engine, depth: u32) -> u64 {
    e.send(&format!("go depth {depth}"));
    let (_, lines) = e.until_prefix("bestmove");
    let prefix = format!("info depth {depth} ");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with(&prefix))
        .expect("a report of the last depth");
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").expect("nodes");
    words[at + 1].parse().expect("node count")
}

#[test]
fn huge_numbers_clamp_and_stop_ends_the_search() {
    let mut e = uci();
    for go in [
        "go depth 300",
        "go nodes 99999999999999",
        "go movetime 999999999999999999999999",
        "go wtime 99999999999999999999 btime -5 movestogo 99999999999",
        "go infinite",
    ] {
        e.send("position startpos moves e2e4");
        e.send(go);
        let lines = e.sync_uci();
        assert!(
            lines.iter().all(|l| !l.starts_with("info string error")),
            "{go}: {lines:?}"
        );
        e.send("stop");
        let (best, _) = e.until_prefix("bestmove");
        assert_ne!(best, "bestmove (none)", "{go}");
    }
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000");
    let lines = e.sync_uci();
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("ponderhit");
    let (best, _) = e.until_prefix("bestmove");
    assert_ne!(best, "bestmove (none)");
}

#[test]
fn unknown_commands_are_answered() {
    let mut e = uci();
    e.send("frobnicate now");
    let (line, _) = e.until_prefix("info string");
    assert_eq!(line, "info string error: unknown command 'frobnicate now'");
    e.send("setoption name NoSuchOption value 3");
    let (line, _) = e.until_prefix("info string");
    assert!(line.contains("unknown option"), "{line}");
    e.send("go sideways 3 depth 1");
    let (line, _) = e.until_prefix("info string");
    assert!(line.contains("unknown go parameter 'sideways'"), "{line}");
    e.until_prefix("bestmove");
}

#[test]
fn search_options_can_be_switched() {
    let mut e = uci();
    for name in ["MaterialOnly", "NullMove", "LMR", "Futility", "Aspiration"] {
        e.send(&format!("setoption name {name} value false"));
    }
    e.send("setoption name Hash value 1");
    e.send("setoption name MultiPV value 2");
    e.send("setoption name Move Overhead value 10");
    e.send("setoption name Threads value 4");
    e.send("go depth 2");
    let (best, before) = e.until_prefix("bestmove");
    assert!(
        before.iter().all(|l| !l.starts_with("info string error")),
        "{before:?}"
    );
    assert_ne!(best, "bestmove (none)");
}

#[test]
fn threads_are_clamped_with_a_message_and_two_threads_search() {
    let mut e = uci();
    e.send("setoption name Threads value 1000");
    e.send("setoption name Threads value 0");
    let lines = e.sync_uci();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("1000 threads asked for") && l.ends_with("so 128")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("0 threads asked for") && l.ends_with("so 1")),
        "{lines:?}"
    );
    e.send("setoption name Threads value 2");
    e.send("setoption name UCI_Variant value venomous");
    e.send("position startpos");
    e.send("go depth 5");
    let (best, _) = e.until_prefix("bestmove");
    assert_ne!(best, "bestmove (none)");
    e.send("go infinite");
    e.send("stop");
    let (best, _) = e.until_prefix("bestmove");
    assert_ne!(best, "bestmove (none)");
}

/// Nodes of a fresh fixed-depth search from the start position.
fn fresh_search_nodes(e: &mut Engine) -> u64 {
    e.send("ucinewgame");
    e.send("position startpos");
    search_nodes(e, 7)
}

#[test]
fn tune_option_sets_search_numbers_and_refuses_bad_ones_whole() {
    let mut e = uci();
    e.send("uci");
    let (_, lines) = e.until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name Tune type string default <empty>".to_string()),
        "{lines:?}"
    );
    let default = fresh_search_nodes(&mut e);
    e.send("setoption name Tune value lmr_divisor=400 rfp_margin=150");
    let tuned = fresh_search_nodes(&mut e);
    assert_ne!(default, tuned, "the tunables reach the search");
    for bad in ["lmr_divisor=9999", "bogus=3", "rfp_margin=80 lmp_base=x"] {
        e.send(&format!("setoption name Tune value {bad}"));
        let lines = e.sync_uci();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: Tune: ") && l.ends_with("unchanged")),
            "{bad}: {lines:?}"
        );
    }
    assert_eq!(
        fresh_search_nodes(&mut e),
        tuned,
        "a refused value changes nothing"
    );
    e.send("setoption name Tune value <empty>");
    assert_eq!(
        fresh_search_nodes(&mut e),
        default,
        "empty restores the defaults"
    );
}

/// Every tunable at its default, as `Tune` words, from `sissa tune --list`.
fn all_defaults() -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sissa"))
        .args(["tune", "--list", "--engine", "cmd=unused"])
        .output()
        .expect("sissa runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let words: Vec<String> = text
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w[1], "default", "{l}");
            format!("{}={}", w[0], w[2])
        })
        .collect();
    assert!(words.len() >= 8, "{text}");
    words.join(" ")
}

#[test]
fn tune_words_lie_over_the_variants_own_numbers() {
    // Chess searches with numbers of its own; the others with the defaults. So the defaults
    // set by name change a chess search and leave a gustav3 search as it was, and the words
    // stay across a change of variant.
    let defaults = all_defaults();
    let mut e = uci();
    let chess = fresh_search_nodes(&mut e);
    e.send("setoption name UCI_Variant value gustav3");
    let gustav3 = fresh_search_nodes(&mut e);
    e.send(&format!("setoption name Tune value {defaults}"));
    assert_eq!(
        fresh_search_nodes(&mut e),
        gustav3,
        "gustav3 keeps the defaults"
    );
    e.send("setoption name UCI_Variant value chess");
    let chess_at_defaults = fresh_search_nodes(&mut e);
    assert_ne!(chess_at_defaults, chess, "chess has numbers of its own");
    e.send("setoption name Tune value <empty>");
    assert_eq!(
        fresh_search_nodes(&mut e),
        chess,
        "empty restores chess's own"
    );
}

#[test]
fn d_and_eval_describe_the_position() {
    let mut e = uci();
    e.send("setoption name UCI_Variant value venator");
    e.send("position startpos moves e2e4");
    e.send("d");
    let (_, lines) = e.until_prefix("info string fen ");
    let text = lines.join("\n");
    assert!(text.contains("  8  v r n b q k b n r v"), "{text}");
    assert!(text.contains("  7  * p p p p p p p p *"), "{text}");
    assert!(
        text.contains("Side to move: Black") && text.contains("Checkers: -"),
        "{text}"
    );
    e.send("eval");
    let (line, lines) = e.until(|l| l.starts_with("Network"));
    let text = lines.join("\n");
    assert!(
        text.contains("Material") && text.contains("total"),
        "{text}"
    );
    // Venator has a network built in; without it the search uses the hand-written terms.
    assert!(
        line.contains("hidden a side") && line.contains("the search uses it"),
        "{line}"
    );
    e.send("setoption name UseNNUE value false");
    e.send("eval");
    let (line, _) = e.until(|l| l.starts_with("Network"));
    assert!(line.contains("hand-written"), "{line}");
    e.send("quit");
    assert!(e.wait_exit());
}

#[test]
fn strength_options_clamp_with_a_message_and_refuse_bad_values() {
    let mut e = uci();
    e.send("setoption name UCI_Elo value 99");
    let (line, _) = e.until_prefix("info string UCI_Elo 99 is outside ");
    assert!(line.contains(": set to "), "{line}");
    e.send("setoption name Skill Level value 25");
    e.until(|l| l == "info string Skill Level 25 is outside 0..20: set to 20");
    e.send("setoption name UCI_LimitStrength value maybe");
    e.until_prefix("info string error: UCI_LimitStrength needs true or false");
    e.send("setoption name Skill Level value two");
    e.until_prefix("info string error: Skill Level needs a whole number");
    // Level 0 in every variant: a legal move after a depth-1 search, with no clock to stop it.
    e.send("setoption name Skill Level value 0");
    for v in ["chess", "gustav3", "venator", "venomous"] {
        e.send(&format!("setoption name UCI_Variant value {v}"));
        e.send("position startpos");
        e.send("go movetime 600000");
        let (best, lines) = e.until_prefix("bestmove ");
        assert!(!best.contains("none"), "{v}: {best}");
        assert!(
            lines.iter().all(|l| !l.starts_with("info depth 2 ")),
            "{v}: {lines:?}"
        );
    }
    // UCI_LimitStrength takes over from Skill Level: 1600 plays level 5 or 6, so the search
    // ends by itself at depth 7 at most, deeper than level 0's depth 1.
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1600");
    e.send("position startpos");
    e.send("go movetime 600000");
    let (best, lines) = e.until_prefix("bestmove ");
    assert!(!best.contains("none"), "{best}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:?}"
    );
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 8 ")),
        "{lines:?}"
    );
    e.send("quit");
    assert!(e.wait_exit());
}

#[test]
fn variant_path_loads_variants_for_uci_variant() {
    let mut e = uci();
    e.send("setoption name VariantPath value no/such.ini");
    e.until_prefix("info string error: VariantPath: no/such.ini: cannot read it");
    let file = format!("{}/variants/sissa.ini", env!("CARGO_MANIFEST_DIR"));
    e.send(&format!("setoption name VariantPath value {file}"));
    e.until(|l| {
        l.starts_with("info string VariantPath: ")
            && l.ends_with("venator8, sissa-chess, locust-chess")
    });
    e.send("setoption name UCI_Variant value venator8");
    e.until_prefix("info string variant venator8 files 8 ranks 8 pocket 0 ");
    e.send("position startpos");
    e.send("go perft 3");
    let (total, _) = e.until_prefix("Nodes searched:");
    assert_eq!(total, "Nodes searched: 16507");
    e.send("go depth 6");
    let (best, _) = e.until_prefix("bestmove ");
    assert!(!best.contains("none"), "{best}");
    e.send("quit");
    assert!(e.wait_exit());
}

#[test]
fn a_search_stopped_inside_its_first_iteration_still_reports_a_score() {
    let mut e = uci();
    e.send("ucinewgame");
    // A tactical middlegame where one node is far too few to finish depth 1.
    e.send("position fen r1r5/p2qbk1p/2n1Rnp1/2pp1P2/Q1P2B2/3P1PNB/P6P/5RK1 w - - 0 1");
    e.send("go nodes 1");
    let (best, lines) = e.until_prefix("bestmove");
    let mv = best.split_whitespace().nth(1).expect("a move").to_string();
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line before {best}: {lines:?}"));
    assert!(
        last.contains(" score cp ") || last.contains(" score mate "),
        "{last}"
    );
    assert!(
        last.ends_with(&format!(" pv {mv}")) || last.contains(&format!(" pv {mv} ")),
        "{last}"
    );
}
