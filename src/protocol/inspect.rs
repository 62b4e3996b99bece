//! The inspection commands of both protocols: `d` (the board as text) and `eval` (the
//! evaluation term by term).

use crate::nnue::eval::Nnue;
use crate::rules::position::Position;
use crate::rules::role::Color;
use crate::search::SearchOptions;
use crate::search::eval::{self, Term};

/// The board as text: ranks from the top, holes as `*`, empty squares as `.`, then the hands,
/// the side to move, the FEN, the hash key and the pieces giving check.
pub fn board_text(pos: &Position) -> String {
    let v = pos.variant();
    let g = &v.geometry;
    let mut out = String::new();
    for rank in (0..g.ranks() as i32).rev() {
        out.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..g.files() as i32 {
            let c = match g.square(file, rank) {
                None => '*',
                Some(sq) => match pos.piece_at(sq) {
                    None => '.',
                    Some(p) if p.color == Color::White => pos.variant().letter(p.role),
                    Some(p) => pos.variant().letter(p.role).to_ascii_lowercase(),
                },
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("    ");
    for file in 0..g.files() {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    out.push('\n');
    if let Some(hand) = v.spec.hand {
        for c in Color::ALL {
            let name = if c == Color::White { "White" } else { "Black" };
            out.push_str(&format!(
                "{name}'s hand: {} {}\n",
                pos.hand(c),
                hand.role.name()
            ));
        }
    }
    let side = if pos.side_to_move() == Color::White {
        "White"
    } else {
        "Black"
    };
    out.push_str(&format!("Side to move: {side}\n"));
    out.push_str(&format!("Fen: {}\n", pos.fen()));
    out.push_str(&format!("Key: {:016X}\n", pos.hash()));
    let us = pos.side_to_move();
    let checkers: Vec<String> = pos
        .attackers(pos.king(us), us.flip())
        .iter()
        .map(|&sq| g.name(sq, 1).to_string())
        .collect();
    out.push_str(&format!(
        "Checkers: {}\n",
        if checkers.is_empty() {
            "-".to_string()
        } else {
            checkers.join(" ")
        }
    ));
    out
}

fn cp(x: i32) -> String {
    format!("{:>7.2}", f64::from(x) / 100.0)
}

/// The hand-written evaluation term by term (pawns, middlegame and endgame, per side), the
/// steps to its total, and the network's score when the search would use one.
pub fn eval_text(pos: &Position, options: &SearchOptions) -> String {
    let t = eval::trace(pos);
    let mut out = String::new();
    out.push_str("Hand-written evaluation (pawns; White's view)\n");
    out.push_str("        Term     |      White      |      Black      |      Total\n");
    out.push_str("                 |    MG      EG   |    MG      EG   |    MG      EG\n");
    out.push_str("-----------------+-----------------+-----------------+----------------\n");
    let (mut mg, mut eg) = (0, 0);
    for (term, sides) in Term::ALL.iter().zip(&t.terms) {
        let [w, b] = *sides;
        if term == &Term::Hand && pos.variant().spec.hand.is_none() {
            continue;
        }
        let (dm, de) = (w.0 - b.0, w.1 - b.1);
        mg += dm;
        eg += de;
        out.push_str(&format!(
            "{:>16} | {} {} | {} {} | {} {}\n",
            term.name(),
            cp(w.0),
            cp(w.1),
            cp(b.0),
            cp(b.1),
            cp(dm),
            cp(de)
        ));
    }
    out.push_str("-----------------+-----------------+-----------------+----------------\n");
    out.push_str(&format!(
        "{:>16} | {:>15} | {:>15} | {} {}\n",
        "Total",
        "",
        "",
        cp(mg),
        cp(eg)
    ));
    out.push_str(&format!(
        "Phase {}/{}: blended {} (White's view)\n",
        t.phase,
        t.full_phase,
        cp(t.blended).trim()
    ));
    if t.drawish_scale != 64 {
        out.push_str(&format!(
            "Drawish ending: scaled by {}/64\n",
            t.drawish_scale
        ));
    }
    if t.fade != 200 {
        out.push_str(&format!("50-move counter: scaled by {}/200\n", t.fade));
    }
    out.push_str(&format!(
        "Tempo {}; total {} (side to move's view)\n",
        cp(t.tempo).trim(),
        cp(t.total).trim()
    ));
    match options.network_for(pos.variant()) {
        Some(net) => {
            let score = Nnue::evaluate_fresh(&net, pos);
            let layout = crate::nnue::features::Layout::new(pos.variant());
            let bucket = layout.bucket(crate::nnue::features::Layout::pieces_of(pos), net.buckets);
            out.push_str(&format!(
                "Network ({} hidden a side, output bucket {} of {}): {} (side to move's view); the search uses it\n",
                net.hidden,
                bucket + 1,
                net.buckets,
                cp(score).trim()
            ));
        }
        None => out.push_str("Network: none for this variant (or UseNNUE off); the search uses the hand-written evaluation\n"),
    }
    if options.material_only {
        out.push_str(&format!(
            "MaterialOnly is on: the search uses material alone, {}\n",
            cp(eval::material_only(pos)).trim()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;

    #[test]
    fn the_board_text_shows_the_fen_placement() {
        for v in Variant::all() {
            let mut pos = Position::startpos(v);
            for mv in pos
                .legal_moves()
                .iter()
                .copied()
                .take(3)
                .collect::<Vec<_>>()
            {
                pos.make(mv);
                let text = board_text(&pos);
                let placement: Vec<String> = text
                    .lines()
                    .take(v.geometry.ranks() as usize)
                    .map(|l| {
                        let cells: String = l[4..].split(' ').collect();
                        // Back to FEN: runs of empty squares as numbers.
                        let mut row = String::new();
                        let mut empty = 0;
                        for c in cells.chars() {
                            if c == '.' {
                                empty += 1;
                                continue;
                            }
                            if empty > 0 {
                                row.push_str(&empty.to_string());
                                empty = 0;
                            }
                            row.push(c);
                        }
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                        }
                        row
                    })
                    .collect();
                let fen = pos.fen();
                let board = fen.split([' ', '[']).next().unwrap_or_default();
                assert_eq!(placement.join("/"), board, "{}", v.id());
                assert!(text.contains(&format!("Fen: {fen}")));
                assert!(text.contains(&format!("Key: {:016X}", pos.hash())));
                pos.unmake();
            }
        }
        let v = Variant::chess();
        let check = Position::from_fen(v, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1").expect("fen");
        assert!(board_text(&check).contains("Checkers: d2"));
    }

    #[test]
    fn eval_terms_sum_to_the_total_in_every_variant() {
        for v in Variant::all() {
            let mut pos = Position::startpos(v);
            for i in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[(i * 13) % moves.len()]);
                let t = eval::trace(&pos);
                let (mg, eg) = t
                    .terms
                    .iter()
                    .fold((0, 0), |(m, e), [w, b]| (m + w.0 - b.0, e + w.1 - b.1));
                let ph = t.phase;
                let blended = (mg * ph + eg * (t.full_phase - ph)) / t.full_phase;
                assert_eq!(blended, t.blended, "{}", pos.fen());
                let white = blended * t.drawish_scale / 64 * t.fade / 200;
                let us = if pos.side_to_move() == Color::White {
                    white
                } else {
                    -white
                };
                assert_eq!(us + t.tempo, t.total, "{}", pos.fen());
                assert_eq!(t.total, eval::evaluate(&pos), "{}", pos.fen());
                let text = eval_text(&pos, &SearchOptions::default());
                assert!(
                    text.contains("Material") && text.contains("total"),
                    "{text}"
                );
            }
        }
    }
}
