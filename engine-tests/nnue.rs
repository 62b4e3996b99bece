//! The learned evaluation's pipeline through the binary: `sissa datagen` (determinism,
//! shards, merge, inspect, bad input), `sissa train`, and a network loaded with `EvalFile`
//! over UCI and CECP (a wrong file is refused and the engine plays on).

use std::path::Path;
use std::process::Output;

mod support;

use support::{Engine, Scratch, sissa, text};

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A run that failed with an error naming `want`, and no panic; `what` names the run.
fn assert_refused(out: &Output, what: &str, want: &str) {
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{what} succeeded");
    assert!(err.contains(want), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// `sissa datagen` with small games into `out`.
fn datagen(variant: &str, games: &str, extra: &[&str], out: &Path) -> Output {
    let mut args = vec![
        "datagen",
        "--variant",
        variant,
        "--games",
        games,
        "--nodes",
        "400",
        "--seed",
        "3",
        "--out",
        path(out),
    ];
    args.extend_from_slice(extra);
    sissa(&args)
}

#[test]
fn datagen_is_deterministic_and_its_shards_merge_to_the_whole_run() {
    let dir = Scratch::new("nnue-datagen");
    let whole = dir.join("whole.bin");
    let out = datagen("venomous", "4", &["--threads", "2"], &whole);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("4 games 0..4"),
        "{}",
        text(&out.stdout)
    );
    let again = dir.join("again.bin");
    assert!(datagen("venomous", "4", &[], &again).status.success());
    let bytes = std::fs::read(&whole).expect("whole");
    assert_eq!(std::fs::read(&again).expect("again"), bytes);

    let shards: Vec<_> = (0..3).map(|i| dir.join(format!("s{i}.bin"))).collect();
    for (i, s) in shards.iter().enumerate() {
        let shard = format!("{i}/3");
        let out = datagen("venomous", "4", &["--shard", &shard], s);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let merged = dir.join("merged.bin");
    let mut args = vec!["datagen", "--merge"];
    args.extend(shards.iter().map(|p| path(p)));
    args.extend(["--out", path(&merged)]);
    let out = sissa(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&merged).expect("merged"), bytes);

    let out = sissa(&["datagen", "--inspect", path(&whole)]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(report.contains("positions of venomous"), "{report}");
    let fen_line = |l: &str| l.contains("] w - - 0 1  score") || l.contains("] b - - 0 1  score");
    assert!(report.lines().any(fen_line), "{report}");
}

#[test]
fn bad_data_and_flags_are_errors_that_name_the_fault() {
    let dir = Scratch::new("nnue-bad");
    let good = dir.join("good.bin");
    assert!(datagen("chess", "1", &[], &good).status.success());
    let bytes = std::fs::read(&good).expect("good");
    let cut = dir.file("cut.bin", &bytes[..bytes.len() - 5]);
    let foreign = dir.file("foreign.bin", b"GIF89a not data at all");
    // A board with a hole on one side only has no mirror images to train on.
    let lopsided = dir.file(
        "lopsided.ini",
        b"[lopsided:chess]\nholes = c4\nstart = rnbqkbnr/pppppppp/8/8/2*5/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    );
    let lopsided_data = dir.join("lopsided.bin");
    let variants = ["--variants", path(&lopsided)];
    assert!(
        datagen("lopsided", "1", &variants, &lopsided_data)
            .status
            .success()
    );
    for (args, want) in [
        (vec!["datagen", "--inspect", path(&cut)], "truncated"),
        (
            vec!["datagen", "--inspect", path(&foreign)],
            "not a Sissa data file",
        ),
        (
            vec!["datagen", "--variant", "shogi", "--out", "x.bin"],
            "unknown variant 'shogi'",
        ),
        (
            vec![
                "datagen",
                "--variant",
                "chess",
                "--shard",
                "3/3",
                "--out",
                "x",
            ],
            "--shard",
        ),
        (
            vec![
                "datagen",
                "--variant",
                "chess",
                "--nodes",
                "0",
                "--out",
                "x",
            ],
            "at least 1",
        ),
        (
            vec!["train", "--data", path(&cut), "--out", "x.nnue"],
            "truncated",
        ),
        (
            vec![
                "train",
                "--data",
                path(&good),
                "--out",
                "x",
                "--hidden",
                "0",
            ],
            "--hidden",
        ),
        (
            vec!["train", "--data", path(&good), "--out", "x", "--wdl", "2"],
            "--wdl",
        ),
        (
            vec![
                "train",
                "--variants",
                path(&lopsided),
                "--data",
                path(&lopsided_data),
                "--out",
                "x",
                "--mirror",
            ],
            "--mirror: the lopsided board is not left-right symmetric",
        ),
        (
            vec![
                "train",
                "--data",
                path(&good),
                "--weight-decay=-1",
                "--out",
                "x",
            ],
            "--weight-decay must be at least 0",
        ),
    ] {
        assert_refused(&sissa(&args), &format!("{args:?}"), want);
    }
}

#[test]
fn a_trained_network_loads_and_a_wrong_file_is_refused_while_play_goes_on() {
    let dir = Scratch::new("nnue-train");
    let data = dir.join("data.bin");
    assert!(datagen("chess", "2", &[], &data).status.success());
    let net = dir.join("chess.nnue");
    let curve = dir.join("curve.csv");
    let out = sissa(&[
        "train",
        "--data",
        path(&data),
        "--out",
        path(&net),
        "--hidden",
        "16",
        "--buckets",
        "4",
        "--epochs",
        "2",
        "--threads",
        "2",
        "--log",
        path(&curve),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let refused = dir.join("never.nnue");
    for bad in ["0", "17", "x"] {
        let args = ["train", "--data", path(&data), "--out", path(&refused)];
        let out = sissa(&[&args[..], &["--buckets", bad]].concat());
        assert!(!out.status.success(), "--buckets {bad}");
        assert!(
            text(&out.stderr).contains("--buckets"),
            "{}",
            text(&out.stderr)
        );
        assert!(!refused.exists(), "--buckets {bad}");
    }
    let lines = std::fs::read_to_string(&curve).expect("curve");
    assert_eq!(lines.lines().count(), 3, "{lines}");
    let fit = sissa(&["train", "--data", path(&data), "--fit-material"]);
    let report = text(&fit.stdout);
    assert!(fit.status.success(), "{}", text(&fit.stderr));
    assert!(report.starts_with("validation loss "), "{report}");
    for role in ["knight", "bishop", "rook", "queen"] {
        assert!(
            report
                .lines()
                .any(|l| l.starts_with(role) && l.contains("->")),
            "{report}"
        );
    }
    let junk = dir.file("junk.nnue", b"SISSANET\x01\x00\x05chess 12 bytes");

    let mut e = Engine::start();
    e.send("uci");
    e.until_prefix("uciok");
    e.send(&format!("setoption name EvalFile value {}", path(&net)));
    e.until(|l| {
        l.contains("EvalFile")
            && l.contains("a chess network with 16 hidden")
            && l.contains("4 output bucket(s)")
    });
    e.send(&format!("setoption name EvalFile value {}", path(&junk)));
    e.until(|l| l.contains("error: EvalFile") && l.contains("unchanged"));
    e.send("position startpos moves e2e4");
    e.send("go depth 5");
    e.until_prefix("bestmove");
    e.send("setoption name UseNNUE value false");
    e.send("go depth 5");
    e.until_prefix("bestmove");
    e.send("quit");
    assert!(e.wait_exit());

    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e.send(&format!("option EvalFile={}", path(&junk)));
    e.until(|l| l.starts_with("Error") && l.contains("EvalFile"));
    e.send("new");
    e.send("sd 4");
    e.send("usermove e2e4");
    e.until(|l| l.starts_with("move "));
    e.send("quit");
    assert!(e.wait_exit());
}

/// `sissa datagen --rescore IN --engine SPEC --out OUT` with these extra arguments.
fn rescore(input: &Path, engine: &str, extra: &[&str], out: &Path) -> Output {
    let mut args = vec![
        "datagen",
        "--rescore",
        path(input),
        "--engine",
        engine,
        "--out",
        path(out),
    ];
    args.extend_from_slice(extra);
    sissa(&args)
}

fn fake_uci(fake_args: &str) -> String {
    format!(
        "cmd=\"python3 {}/engine-tests/fakes/fake_engine.py --proto uci {fake_args}\" proto=uci",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn rescoring_keeps_the_positions_and_results_and_takes_the_engines_scores() {
    use sissa::nnue::data::DataSet;
    let dir = Scratch::new("nnue-rescore");
    let data = dir.join("data.bin");
    assert!(datagen("chess", "2", &[], &data).status.success());
    let before = DataSet::read(&data).expect("data");

    // A fake engine that scores everything 37 cp: every position comes back, in order, with
    // its board, side, ply and result, and that score.
    let fixed = dir.join("fixed.bin");
    let out = rescore(&data, &fake_uci("--score 37"), &["--nodes", "10"], &fixed);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let after = DataSet::read(&fixed).expect("rescored");
    assert_eq!(after.len(), before.len());
    for i in 0..before.len() {
        let (mut b, a) = (before.get(i), after.get(i));
        assert_eq!(a.score, 37, "position {i}");
        b.score = 37;
        assert_eq!(a, b, "position {i}");
    }
    assert!(
        text(&out.stdout).contains(&format!(
            "{} positions ({} read",
            before.len(),
            before.len()
        )),
        "{}",
        text(&out.stdout)
    );

    // Sissa as the engine, node-limited: the bytes do not depend on --threads, and its
    // scores are not the datagen searches' (another node count).
    let engine = format!("cmd={} proto=uci", support::engine_path());
    let one = dir.join("one.bin");
    let two = dir.join("two.bin");
    for (threads, file) in [("1", &one), ("2", &two)] {
        let out = rescore(
            &data,
            &engine,
            &["--nodes", "150", "--threads", threads],
            file,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        // Sissa scores every move, even one found before its first iteration ends.
        assert!(
            text(&out.stdout).contains(" 0 without a score"),
            "{}",
            text(&out.stdout)
        );
    }
    let bytes = std::fs::read(&one).expect("one");
    assert_eq!(std::fs::read(&two).expect("two"), bytes);
    let sissa_scored = DataSet::read(&one).expect("one");
    assert!(!sissa_scored.is_empty());
    let changed = (0..sissa_scored.len())
        .filter(|&i| {
            let s = sissa_scored.get(i);
            (0..before.len()).any(|j| {
                let b = before.get(j);
                b.pieces == s.pieces && b.side == s.side && b.score != s.score
            })
        })
        .count();
    assert!(changed > 0, "no score changed");
}

#[test]
fn a_rescoring_engine_that_fails_is_an_error_and_writes_nothing() {
    let dir = Scratch::new("nnue-rescore-bad");
    let data = dir.join("data.bin");
    assert!(datagen("chess", "1", &[], &data).status.success());
    let out_file = dir.join("out.bin");
    for (engine, extra, want) in [
        (fake_uci("--mode crash"), vec!["--nodes", "10"], "engine"),
        (
            fake_uci(""),
            vec!["--nodes", "10"],
            "no score for any position",
        ),
        (
            format!("cmd={} proto=xboard", support::engine_path()),
            vec![],
            "needs a UCI engine",
        ),
        (
            "cmd=/no/such/engine proto=uci".to_string(),
            vec![],
            "cannot start",
        ),
        ("proto=uci".to_string(), vec![], "cmd=COMMAND is missing"),
        (fake_uci("--score 1"), vec!["--nodes", "0"], "at least 1"),
    ] {
        assert_refused(&rescore(&data, &engine, &extra, &out_file), &engine, want);
        assert!(!out_file.exists(), "{engine}: wrote {}", out_file.display());
    }
    let output = sissa(&["datagen", "--engine", "cmd=x proto=uci", "--out", "x.bin"]);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("--rescore"),
        "{}",
        text(&output.stderr)
    );
}
