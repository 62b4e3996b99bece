//! One game between two engines, refereed by the rules library: every move is checked, the
//! clocks are kept, and the game ends by the rules, a forfeit, a resignation or adjudication.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::engine::{
    Answer, Engine, EngineError, EngineSpec, IoLog, LogTarget, Proto, Score, Turn,
};
use super::openings::Opening;
use super::tc::Limits;
use crate::notation::pgn::{PgnGame, PgnMove};
use crate::notation::san::{parse_san, to_san};
use crate::rules::game::Termination;
use crate::rules::position::Position;
use crate::rules::role::Color;
use crate::rules::variant::Variant;

/// cutechess's resign adjudication: a side whose engine reports at most `-score` for
/// `movecount` consecutive moves loses; with `twosided`, only if the opponent's engine
/// reports at least `score` for as many moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive own moves.
    pub movecount: u32,
    /// Centipawns.
    pub score: i32,
    pub twosided: bool,
}

/// cutechess's draw adjudication: from full move `movenumber` on, a draw once both engines
/// report scores within `score` of 0 for `movecount` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Full move after which the rule applies.
    pub movenumber: u32,
    /// Consecutive moves of each side.
    pub movecount: u32,
    /// Centipawns.
    pub score: i32,
}

/// When the referee ends a game early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// A draw after this many full moves (counted from the start position, book included).
    pub max_moves: Option<u32>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Rules(Termination),
    /// The loser's move was illegal or unreadable.
    IllegalMove,
    /// The loser's clock ran out, or its engine hung, crashed or failed to start.
    TimeForfeit,
    Resignation,
    Adjudication,
}

impl End {
    /// The PGN `Termination` tag value.
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            End::Rules(_) | End::Resignation => "normal",
            End::IllegalMove => "rules infraction",
            End::TimeForfeit => "time forfeit",
            End::Adjudication => "adjudication",
        }
    }
}

/// One move of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub uci: String,
    pub san: String,
    /// `book`, or `score/depth time` as cutechess writes it.
    pub comment: String,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub variant: &'static Variant,
    /// The game number, from 1.
    pub round: usize,
    pub white: String,
    pub black: String,
    pub start_fen: String,
    pub moves: Vec<PlayedMove>,
    pub winner: Option<Color>,
    pub end: End,
    /// The end in words, without `;` (`checkmate`, `black loses on time`, ...).
    pub reason: String,
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The line of the `--records` file: `variant;start FEN;result;termination;m1 m2 ...`.
    pub fn record_line(&self) -> String {
        let moves: Vec<&str> = self.moves.iter().map(|m| m.uci.as_str()).collect();
        format!(
            "{};{};{};{};{}",
            self.variant.id(),
            self.start_fen,
            self.result(),
            self.reason.replace(';', ","),
            moves.join(" ")
        )
    }

    /// The game as PGN, with the given Event, Site, Date and TimeControl tags.
    pub fn pgn(&self, event: &str, site: &str, date: &str, time_control: &str) -> String {
        let tags = [
            ("Event", event.to_string()),
            ("Site", site.to_string()),
            ("Date", date.to_string()),
            ("Round", self.round.to_string()),
            ("White", self.white.clone()),
            ("Black", self.black.clone()),
            ("Result", self.result().to_string()),
            ("Variant", self.variant.id().to_string()),
            ("FEN", self.start_fen.clone()),
            ("SetUp", "1".to_string()),
            ("TimeControl", time_control.to_string()),
            ("Termination", self.end.pgn_tag().to_string()),
            ("PlyCount", self.moves.len().to_string()),
        ];
        let mut moves: Vec<PgnMove> = self
            .moves
            .iter()
            .map(|m| PgnMove {
                san: m.san.clone(),
                comment: Some(m.comment.clone()).filter(|c| !c.is_empty()),
            })
            .collect();
        let mut first_comment = None;
        match moves.last_mut() {
            Some(last) => {
                last.comment = Some(match &last.comment {
                    Some(c) => format!("{c}, {}", self.reason),
                    None => self.reason.clone(),
                })
            }
            None => first_comment = Some(self.reason.clone()),
        }
        PgnGame {
            tags: tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            moves,
            result: self.result().to_string(),
            first_comment,
        }
        .to_pgn()
    }
}

/// Everything one game needs.
pub struct GameSetup<'a> {
    pub variant: &'static Variant,
    pub round: usize,
    pub opening: &'a Opening,
    pub white: &'a EngineSpec,
    pub black: &'a EngineSpec,
    pub limits: &'a Limits,
    pub adjudication: Adjudication,
    /// How long an engine may take to start and to get ready for a game.
    pub handshake: Duration,
    /// Set when the match is over: the game is abandoned (`None`).
    pub stop: &'a AtomicBool,
    /// The engine I/O log, if any.
    pub log: Option<&'a Arc<IoLog>>,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The rank base of an engine's squares: CECP counts from 0 on 10-rank boards.
fn rank_base(proto: Proto, variant: &Variant) -> i32 {
    match proto {
        Proto::Cecp if variant.geometry.ranks() == 10 => 0,
        _ => 1,
    }
}

fn rules_reason(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::Repetition => "threefold repetition",
        Termination::FiftyMoves => "move-count rule",
        Termination::BareKing => "bare king",
        Termination::InsufficientMaterial => "insufficient material",
    }
}

/// Per-side runs of scores for adjudication.
#[derive(Default, Clone, Copy)]
struct Streaks {
    losing: u32,
    winning: u32,
    drawish: u32,
}

/// Plays one game; `None` if the match stopped meanwhile.
pub fn play_game(setup: &GameSetup) -> Option<GameRecord> {
    let v = setup.variant;
    let mut pos = Position::from_fen(v, &setup.opening.fen).ok()?;
    let mut record = GameRecord {
        variant: v,
        round: setup.round,
        white: setup.white.name.clone(),
        black: setup.black.name.clone(),
        start_fen: pos.fen(),
        moves: Vec::new(),
        winner: None,
        end: End::Adjudication,
        reason: String::new(),
    };
    let specs = [setup.white, setup.black];
    // Each engine's view of the moves: UCI squares, CECP squares or SAN.
    let mut texts: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut sans = [false; 2];
    let bases = specs.map(|s| rank_base(s.proto, v));
    let finish = |mut record: GameRecord, winner, end, reason: String| {
        record.winner = winner;
        record.end = end;
        record.reason = reason;
        Some(record)
    };
    let push_move = |pos: &mut Position,
                     mv: crate::Move,
                     texts: &mut [Vec<String>; 2],
                     sans: &[bool; 2],
                     comment: String,
                     record: &mut GameRecord| {
        let san = to_san(pos, mv);
        for i in 0..2 {
            texts[i].push(if sans[i] {
                san.clone()
            } else {
                pos.move_text(mv, bases[i])
            });
        }
        record.moves.push(PlayedMove {
            uci: pos.move_text(mv, 1),
            san,
            comment,
        });
        pos.make(mv);
    };

    // Start the engines before the book moves so SAN-speaking CECP engines get SAN.
    let mut engines: Vec<Engine> = Vec::with_capacity(2);
    for (i, spec) in specs.iter().enumerate() {
        let color = if i == 0 { Color::White } else { Color::Black };
        let deadline = Instant::now() + setup.handshake;
        let log = setup.log.map(|log| LogTarget {
            log: log.clone(),
            tag: format!("game {} {} {}", setup.round, side_name(color), spec.name),
        });
        let started = Engine::start(spec, setup.handshake, log).and_then(|mut e| {
            e.new_game(v, &record.start_fen, setup.limits, deadline)
                .map_err(|x| x.to_string())?;
            Ok(e)
        });
        match started {
            Ok(e) => {
                sans[i] = e.san;
                engines.push(e);
            }
            Err(why) => {
                let reason = format!("{} engine failed to start: {why}", side_name(color));
                return finish(record, Some(color.flip()), End::TimeForfeit, reason);
            }
        }
    }
    for m in &setup.opening.moves {
        let mv = pos.parse_move(m, 1).ok()?;
        push_move(
            &mut pos,
            mv,
            &mut texts,
            &sans,
            "book".to_string(),
            &mut record,
        );
    }

    let tc = setup.limits.tc;
    let mut clocks = [tc.map_or(0, |t| t.base_ms); 2];
    let mut moves_made = [0u32; 2];
    let mut streaks = [Streaks::default(); 2];
    loop {
        if setup.stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(o) = pos.outcome() {
            let reason = rules_reason(o.termination).to_string();
            return finish(record, o.winner, End::Rules(o.termination), reason);
        }
        if let Some(max) = setup.adjudication.max_moves
            && pos.ply() >= 2 * max as usize
        {
            let reason = format!("adjudication: maximum game length of {max} moves");
            return finish(record, None, End::Adjudication, reason);
        }
        let side = pos.side_to_move();
        let i = side.index();
        let me = side_name(side);
        let clock = tc.map(|_| clocks[i]);
        let allowed = setup.limits.allowed(clock);
        let margin = Duration::from_millis(setup.limits.margin_ms);
        let start = Instant::now();
        let moves_to_go = tc.and_then(|t| t.moves).map(|m| m - moves_made[i] % m);
        let turn = Turn {
            start_fen: &record.start_fen,
            moves: &texts[i],
            clocks: tc.map(|_| (clocks[0], clocks[1])),
            moves_to_go,
            white_to_move: side == Color::White,
            deadline: start + allowed + margin,
        };
        let answer = engines[i].play(&turn, setup.limits);
        let elapsed = start.elapsed();
        let (text, score, depth) = match answer {
            Ok(Answer::Move { text, score, depth }) => (text, score, depth),
            Ok(Answer::Resign) => {
                let reason = format!("{me} resigns");
                return finish(record, Some(side.flip()), End::Resignation, reason);
            }
            Err(EngineError::Timeout(_)) => {
                let reason = format!("{me} loses on time");
                return finish(record, Some(side.flip()), End::TimeForfeit, reason);
            }
            Err(EngineError::Gone(_)) => {
                let reason = format!("{me} loses on time: its engine crashed or quit");
                return finish(record, Some(side.flip()), End::TimeForfeit, reason);
            }
        };
        if elapsed > allowed + margin {
            let reason = format!("{me} loses on time");
            return finish(record, Some(side.flip()), End::TimeForfeit, reason);
        }
        let parsed = if sans[i] {
            parse_san(&mut pos, &text).map_err(|e| e.to_string())
        } else {
            pos.parse_move(&text, bases[i])
                .map_err(|e| e.reason().to_string())
        };
        let mv = match parsed {
            Ok(mv) if !mv.is_null() => mv,
            Ok(_) => {
                let reason = format!("{me} makes an illegal move: null move '{text}'");
                return finish(record, Some(side.flip()), End::IllegalMove, reason);
            }
            Err(e) => {
                let shown = if text.is_empty() { "(none)" } else { &text };
                let reason = format!("{me} makes an illegal move: {shown} ({e})");
                return finish(record, Some(side.flip()), End::IllegalMove, reason);
            }
        };
        if let Some(t) = tc {
            let spent = elapsed.as_millis() as u64;
            clocks[i] = clocks[i].saturating_sub(spent) + t.inc_ms;
            moves_made[i] += 1;
            if let Some(m) = t.moves
                && moves_made[i] % m == 0
            {
                clocks[i] += t.base_ms;
            }
        }
        let mut comment = match (score, depth) {
            (Some(s), Some(d)) => format!("{}/{d} ", s.text()),
            (Some(s), None) => format!("{} ", s.text()),
            _ => String::new(),
        };
        comment.push_str(&format!("{:.3}s", elapsed.as_secs_f64()));
        push_move(&mut pos, mv, &mut texts, &sans, comment, &mut record);

        if let Some((winner, reason)) = adjudicate(
            &setup.adjudication,
            &mut streaks,
            side,
            score,
            pos.fullmove_number(),
        ) {
            return finish(record, winner, End::Adjudication, reason);
        }
    }
}

/// Updates the score runs after `side`'s move and applies the resign and draw rules.
fn adjudicate(
    rules: &Adjudication,
    streaks: &mut [Streaks; 2],
    side: Color,
    score: Option<Score>,
    fullmove: u32,
) -> Option<(Option<Color>, String)> {
    let s = &mut streaks[side.index()];
    match score.map(Score::cp) {
        Some(cp) => {
            let resign = rules.resign.map_or(i32::MAX, |r| r.score);
            let draw = rules.draw.map_or(-1, |r| r.score);
            s.losing = if cp <= -resign { s.losing + 1 } else { 0 };
            s.winning = if cp >= resign { s.winning + 1 } else { 0 };
            s.drawish = if cp.abs() <= draw { s.drawish + 1 } else { 0 };
        }
        None => *s = Streaks::default(),
    }
    if let Some(r) = rules.resign {
        let me = streaks[side.index()];
        let other = streaks[side.flip().index()];
        if me.losing >= r.movecount && (!r.twosided || other.winning >= r.movecount) {
            return Some((
                Some(side.flip()),
                format!(
                    "adjudication: {} score at or below -{} for {} moves",
                    side_name(side),
                    r.score,
                    r.movecount
                ),
            ));
        }
    }
    if let Some(d) = rules.draw
        && fullmove > d.movenumber
        && streaks.iter().all(|s| s.drawish >= d.movecount)
    {
        return Some((
            None,
            format!(
                "adjudication: draw, both scores within {} of 0 for {} moves",
                d.score, d.movecount
            ),
        ));
    }
    None
}
