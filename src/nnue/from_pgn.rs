//! `sissa datagen --from-pgn`: training positions from games already played, such as the
//! PGN files of `sissa match` or cutechess-cli against another engine.
//!
//! Self-play data only holds positions Sissa's own games reach; games against another
//! engine hold the positions where Sissa was punished. Each position before a move is kept
//! as `sissa datagen` keeps them: the side to move is not in check and the move played is
//! not a capture or promotion. Its label is the game's result and the score in the comment
//! of the move played from it (`{+0.44/15 0.353s}`: pawns from the mover's view, then the
//! depth), the form both referees write. Book moves and moves without such a comment carry
//! no score: their positions are skipped, or kept with score 0 under `--keep-unscored`, to be
//! labelled by `sissa datagen --rescore`. A mate score is dropped, as datagen drops them.
//! Unfinished games (`*`) are skipped; any other fault (a move that is not legal, a bad
//! setup, games of two variants) is an error that names the file and game, and then nothing
//! is written.

use std::path::{Path, PathBuf};

use crate::notation::pgn::{PgnError, read_pgn_file};
use crate::rules::variant::Variant;
use crate::search::movepick::is_tactical;

use super::data::{DataWriter, GameResult, Sample};

/// What an import read and wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// Finished games read.
    pub games: usize,
    /// Games without a result (`*`), skipped.
    pub unfinished: usize,
    /// Positions written.
    pub written: u64,
    /// Positions skipped: side to move in check, a capture or promotion played, no score in
    /// the move's comment (without `--keep-unscored`), a mate score, already written.
    pub in_check: usize,
    pub tactical: usize,
    pub unscored: usize,
    pub mates: usize,
    pub repeated: usize,
}

/// The score a move's comment gives, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CommentScore {
    Cp(i16),
    Mate,
}

/// Reads `+0.44/15 ...`, `-1.20/9`, `+M3/20` or `-#2/7` at the start of a comment; `None`
/// for anything else (`book`, a clock, free text).
fn comment_score(comment: &str) -> Option<CommentScore> {
    let word = comment.split_whitespace().next()?;
    let (score, depth) = word.split_once('/')?;
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let unsigned = score.trim_start_matches(['+', '-']);
    if let Some(moves) = unsigned.strip_prefix(['M', '#']) {
        return (!moves.is_empty() && moves.bytes().all(|b| b.is_ascii_digit()))
            .then_some(CommentScore::Mate);
    }
    if !score
        .bytes()
        .all(|b| b.is_ascii_digit() || b"+-.".contains(&b))
    {
        return None;
    }
    let pawns: f64 = score.parse().ok()?;
    let cp = (pawns * 100.0)
        .round()
        .clamp(-f64::from(i16::MAX), f64::from(i16::MAX));
    Some(CommentScore::Cp(cp as i16))
}

/// Reads the games of `files` (all of one variant) and writes their positions to `out`.
pub fn import(files: &[PathBuf], out: &Path, keep_unscored: bool) -> Result<Imported, String> {
    let mut done = Imported::default();
    let mut variant: Option<&'static Variant> = None;
    let mut samples = Vec::new();
    for file in files {
        let at = |e: PgnError| format!("{}: {e}", file.display());
        for (i, game) in read_pgn_file(file)?.iter().enumerate() {
            let n = i + 1;
            let Some(winner) = game.winner() else {
                done.unfinished += 1;
                continue;
            };
            let result = GameResult::of_winner(winner);
            let end = game
                .replay_each(n, |pos, mv, m| {
                    if pos.in_check() {
                        done.in_check += 1;
                    } else if is_tactical(pos, mv) {
                        done.tactical += 1;
                    } else {
                        match m.comment.as_deref().and_then(comment_score) {
                            Some(CommentScore::Cp(cp)) => samples.push(Sample::of(pos, cp, result)),
                            Some(CommentScore::Mate) => done.mates += 1,
                            None if keep_unscored => samples.push(Sample::of(pos, 0, result)),
                            None => done.unscored += 1,
                        }
                    }
                })
                .map_err(at)?;
            // Every game must be of the first one's variant (the data file has one).
            match variant {
                None => variant = Some(end.variant()),
                Some(v) if std::ptr::eq(v, end.variant()) => {}
                Some(v) => {
                    return Err(format!(
                        "{}, game {n}: a {} game, the first game read is {}",
                        file.display(),
                        end.variant().id(),
                        v.id()
                    ));
                }
            }
            done.games += 1;
        }
    }
    let variant = variant.ok_or_else(|| "the PGN files hold no finished game".to_string())?;
    let mut writer = DataWriter::create(out, variant)?;
    for s in &samples {
        if !writer
            .write(s)
            .map_err(|e| format!("{}: {e}", out.display()))?
        {
            done.repeated += 1;
        }
    }
    done.written = writer.finish()?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::DataSet;
    use crate::rules::role::Color;

    #[test]
    fn comment_scores_read_both_referees_forms() {
        assert_eq!(comment_score("+0.44/15 0.353s"), Some(CommentScore::Cp(44)));
        assert_eq!(comment_score("-1.20/9"), Some(CommentScore::Cp(-120)));
        assert_eq!(comment_score("0.00/1 0s"), Some(CommentScore::Cp(0)));
        assert_eq!(comment_score("+M3/20 0.1s"), Some(CommentScore::Mate));
        assert_eq!(comment_score("-#2/7"), Some(CommentScore::Mate));
        assert_eq!(comment_score("+400.00/3"), Some(CommentScore::Cp(i16::MAX)));
        for text in [
            "book", "", "+0.44", "+0.44/", "+0.44/x", "abc/12", "+M/3", "1e3/4",
        ] {
            assert_eq!(comment_score(text), None, "{text}");
        }
    }

    #[test]
    fn games_become_positions_with_their_labels_and_faults_are_named() {
        let dir = std::env::temp_dir().join(format!("sissa-from-pgn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let p = |name: &str| dir.join(name);
        // 1. e4 (book) e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 (a capture) dxc6 (a capture)
        // 5. O-O (no comment) f6 (a mate score, made up) 6. Qe1 Bg4, lost by White.
        let game = "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n\
            1. e4 {book} e5 {+0.10/12 0.2s} 2. Nf3 {+0.30/12} Nc6 {-0.25/11} \
            3. Bb5 {+0.40/13} a6 {-0.35/12} 4. Bxc6 {+0.45/12} dxc6 {-0.30/12} 5. O-O f6 \
            {+M9/30} 6. Qe1 {+0.50/10} Bg4 {-0.20/10} 0-1\n\n";
        let unfinished = "[Event \"t\"]\n[Result \"*\"]\n\n1. d4 {+0.10/5} *\n\n";
        std::fs::write(p("a.pgn"), format!("{game}{unfinished}")).expect("write");
        let done = import(&[p("a.pgn")], &p("a.bin"), false).expect("import");
        let expected = Imported {
            games: 1,
            unfinished: 1,
            written: 7,
            in_check: 0,
            tactical: 2,
            unscored: 2,
            mates: 1,
            repeated: 0,
        };
        assert_eq!(done, expected);
        let d = DataSet::read(&p("a.bin")).expect("data");
        assert_eq!(d.len(), 7);
        let first = d.get(0);
        assert_eq!((first.side, first.score, first.ply), (Color::Black, 10, 1));
        assert!((0..d.len()).all(|i| d.get(i).result == GameResult::BlackWins));
        let scores: Vec<i16> = (0..d.len()).map(|i| d.get(i).score).collect();
        assert_eq!(scores, [10, 30, -25, 40, -35, 50, -20]);

        // The same game twice: every position repeats. Unscored positions kept as 0.
        std::fs::write(p("b.pgn"), game).expect("write");
        let twice = import(&[p("a.pgn"), p("b.pgn")], &p("b.bin"), true).expect("import");
        assert_eq!((twice.games, twice.written, twice.unscored), (2, 9, 0));
        assert_eq!(twice.repeated, 9);

        // A check: the position after 1. e4 f5 2. Qh5+ is in check and not kept.
        let check = "[Result \"1-0\"]\n\n1. e4 {+0.1/5} f5 {-0.1/5} 2. Qh5+ {+0.9/5} \
            g6 {-0.9/5} 1-0\n\n";
        std::fs::write(p("c.pgn"), check).expect("write");
        let done = import(&[p("c.pgn")], &p("c.bin"), false).expect("import");
        assert_eq!((done.written, done.in_check), (3, 1));

        // Faults: an illegal move, another variant, no finished game; nothing is written.
        let bad = "[Result \"1-0\"]\n\n1. e4 {+0.1/5} e5 {-0.1/5} 2. Ke3 {+0.1/5} 1-0\n\n";
        std::fs::write(p("bad.pgn"), bad).expect("write");
        let err = import(&[p("a.pgn"), p("bad.pgn")], &p("bad.bin"), false).unwrap_err();
        assert!(
            err.contains("bad.pgn") && err.contains("game 1, move 2."),
            "{err}"
        );
        assert!(!p("bad.bin").exists());
        let other = "[Variant \"gustav3\"]\n[Result \"1-0\"]\n\n1-0\n\n";
        std::fs::write(p("other.pgn"), other).expect("write");
        let err = import(&[p("a.pgn"), p("other.pgn")], &p("o.bin"), false).unwrap_err();
        assert!(
            err.contains("a gustav3 game, the first game read is chess"),
            "{err}"
        );
        std::fs::write(p("none.pgn"), unfinished).expect("write");
        let err = import(&[p("none.pgn")], &p("n.bin"), false).unwrap_err();
        assert!(err.contains("no finished game"), "{err}");
        assert!(import(&[p("missing.pgn")], &p("m.bin"), false).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
