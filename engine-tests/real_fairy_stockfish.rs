//! The variants of variants/fairy.ini against Fairy-Stockfish (the Debian package
//! `fairy-stockfish`, which knows them by the same names): perft of the start position and of
//! positions from seeded random playouts, every FEN passed between the programs unchanged.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use sissa::rng::Rng;
use sissa::rules::perft::perft;
use sissa::rules::role::Color;
use sissa::tools::variant_files::load;
use sissa::{MoveKind, Position, Role, Variant};

fn fairy_stockfish() -> Option<PathBuf> {
    if support::on_path("fairy-stockfish") {
        return Some(PathBuf::from("fairy-stockfish"));
    }
    let games = Path::new("/usr/games/fairy-stockfish");
    games.is_file().then(|| games.to_path_buf())
}

struct Fsf {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Fsf {
    fn start(program: &Path) -> Fsf {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("fairy-stockfish starts");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut f = Fsf {
            child,
            input,
            output,
        };
        f.send("uci");
        f.until("uciok");
        f
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("write to fairy-stockfish");
    }

    fn until(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.output.read_line(&mut line).expect("read");
            assert!(n > 0, "fairy-stockfish ended before '{prefix}'");
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }

    fn perft(&mut self, variant: &str, fen: &str, depth: u32) -> u64 {
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go perft {depth}"));
        let line = self.until("Nodes searched:");
        line["Nodes searched:".len()..]
            .trim()
            .parse()
            .expect("a count")
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn fairy_variants_have_fairy_stockfish_perft() {
    let Some(program) = fairy_stockfish() else {
        assert!(
            !support::clients_required(),
            "fairy-stockfish missing and SISSA_REQUIRE_CLIENTS is set"
        );
        eprintln!("SKIP fairy_variants_have_fairy_stockfish_perft: fairy-stockfish not installed");
        return;
    };
    let file = format!("{}/variants/fairy.ini", env!("CARGO_MANIFEST_DIR"));
    let variants: Vec<&'static Variant> = load(Path::new(&file)).expect("variants/fairy.ini");
    assert_eq!(variants.len(), 18);
    let mut fsf = Fsf::start(&program);
    let mut rng = Rng::new(0xfa1e);
    // Positions where one side has at most its king and one piece: the bare-king endings.
    let mut near_bare = 0;
    // Positions with a promotion before the last rank (makruk's zone of three ranks).
    let mut zone_promotions = 0;
    // Positions where the king may castle with a piece other than the rook (New Zealand).
    let mut other_castlings = 0;
    for v in variants {
        let mut positions = vec![(Position::startpos(v), 4)];
        if !v.spec.promotion_limit.is_empty() {
            // Grand chess: promotion on the eighth rank with every piece still there (no
            // promotion), after the queen is lost (only to it), and on the tenth with
            // nothing or only a rook to promote to.
            for fen in [
                "r8r/1nbqkcabn1/ppppPppppp/10/10/10/10/PPPP1PPPPP/1NBQKCABN1/R8R w - - 0 1",
                "r8r/1nbqkcabn1/pppppppppp/4P5/10/10/10/PPPP1PPPPP/1NB1KCABN1/R8R w - - 0 1",
                "r3k4r/4P5/10/10/10/10/10/10/10/R3K4R w - - 0 1",
                "1r2k4r/4P5/10/10/10/10/10/10/10/RR2K4R w - - 0 1",
            ] {
                positions.push((Position::from_fen(v, fen).expect("promotion fen"), 3));
            }
        }
        if v.spec.castling_rook != Role::Rook {
            // Castling both ways with the file's rook, and through its attacks.
            for fen in [
                "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
                "r3k2r/ppp2ppp/8/3n4/8/8/PPP2PPP/R3K2R b KQkq - 0 1",
            ] {
                positions.push((Position::from_fen(v, fen).expect("castling fen"), 3));
            }
        }
        // Long games too where a bare king ends them, to reach the endings it decides.
        let long = if v.spec.end.bare_king || v.spec.promotion_zone > 1 {
            16
        } else {
            0
        };
        for game in 0..16 + long {
            let plies = if game < 16 {
                6 + rng.below(50)
            } else {
                100 + rng.below(400)
            };
            let mut pos = Position::startpos(v);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(*rng.choose(&moves));
            }
            positions.push((pos, 3));
        }
        for (mut pos, depth) in positions {
            if v.spec.end.bare_king && Color::ALL.iter().any(|&c| pos.pieces(c).len() <= 2) {
                near_bare += 1;
            }
            let last = v.geometry.ranks() as i32 - 1;
            let white = pos.side_to_move() == Color::White;
            let legal = pos.legal_moves();
            zone_promotions += usize::from(legal.iter().any(|m| {
                m.promotion_role().is_some() && v.geometry.relative_rank(m.to, white) < last
            }));
            other_castlings += usize::from(
                v.spec.castling_rook != Role::Rook
                    && legal.iter().any(|m| m.kind == MoveKind::Castle),
            );
            let fen = pos.fen();
            let ours = perft(&mut pos, depth);
            assert_eq!(
                ours,
                fsf.perft(v.id(), &fen, depth),
                "{} {fen} depth {depth}",
                v.id()
            );
        }
    }
    eprintln!(
        "{near_bare} bare-king endings, {zone_promotions} zone promotions, {other_castlings} \
         castlings with another piece tried"
    );
    assert!(
        other_castlings >= 1,
        "no position where the king castles with another piece than the rook"
    );
    assert!(
        zone_promotions >= 2,
        "only {zone_promotions} positions with a promotion before the last rank"
    );
    assert!(
        near_bare >= 4,
        "only {near_bare} bare-king endings were tried"
    );
}
