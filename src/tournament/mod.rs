//! `sissa match` and `sissa pgn`: tournaments refereed by the rules library.
//!
//! A match plays each opening twice with colours swapped, each game between freshly started
//! engine processes, `--concurrency` games at a time; it writes PGN and one-line records as
//! games finish and ends with cutechess-style statistics (see docs/tournaments.md).

pub mod engine;
pub mod openings;
pub mod referee;
pub mod stats;
pub mod tc;
pub mod tune;

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::notation::pgn::read_pgn_file;
use crate::rules::role::Color;
use crate::rules::variant::Variant;
use crate::tools::shard::{parse_shard, shard_range};
use engine::{Engine, EngineSpec, IoLog, LogTarget};
use openings::Opening;
use referee::{Adjudication, DrawRule, GameRecord, GameSetup, ResignRule, play_game};
use stats::{Pentanomial, Sprt, SprtVerdict, Wld};
use tc::{Limits, TimeControl, parse_seconds};

/// `sissa match`: play games between two engines.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Number of games (openings are played in pairs with colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// An engine: `name=NAME cmd=COMMAND proto=uci|xboard [dir=DIR] [option.NAME=VALUE]...`;
    /// give it twice. Quote words with spaces: `cmd="python3 fake.py"`.
    #[arg(long = "engine", required_unless_present = "merge")]
    pub engines: Vec<String>,
    #[command(flatten)]
    pub play: GameArgs,
    /// Write the games to this PGN file (created or truncated).
    #[arg(long)]
    pub pgn: Option<String>,
    /// Write one line per game: `variant;start FEN;result;termination;m1 m2 ...`.
    #[arg(long)]
    pub records: Option<String>,
    /// Sequential test: `elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=pentanomial]`.
    #[arg(long, num_args = 1..)]
    pub sprt: Option<Vec<String>>,
    /// Log every line sent to and read from the engines to this file.
    #[arg(long)]
    pub debug: Option<String>,
    /// PGN Event tag.
    #[arg(long, default_value = "Sissa match")]
    pub event: String,
    /// PGN Site tag.
    #[arg(long, default_value = "?")]
    pub site: String,
    /// Play only shard I of N (0 <= I < N): the I-th of N equal ranges of the game pairs,
    /// exactly as the whole match plays them (the same openings, colours and game numbers;
    /// give every shard the same --games, --seed and options). A shard never stops early for
    /// the SPRT: merge the shards' PGN files with --merge for the verdict.
    #[arg(long, conflicts_with = "merge")]
    pub shard: Option<String>,
    /// Report the match that these PGN files (shards of one match, in any order) make
    /// together, as one match would: score, Elo, pentanomial and, with --sprt, the SPRT.
    #[arg(long, num_args = 1.., conflicts_with = "engines")]
    pub merge: Vec<String>,
}

/// How games are played, for `sissa match` and `sissa tune`: variant, limits, openings,
/// adjudication.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Variant: chess, gustav3, venator, venomous, or one loaded with --variants.
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Time control in seconds, cutechess style: `10+0.1`, `40/60+0.5`.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move in seconds.
    #[arg(long)]
    pub st: Option<String>,
    /// Node limit per move (UCI `go nodes`; not sent to CECP engines).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth limit per move (UCI `go depth`, CECP `sd`).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Extra milliseconds beyond the clock or --st before an engine forfeits on time.
    #[arg(long, default_value_t = 100)]
    pub margin_ms: u64,
    /// Without --tc or --st: seconds a move may take before the engine forfeits.
    #[arg(long, default_value = "10")]
    pub move_timeout: String,
    /// Seconds an engine may take to start and get ready for a game.
    #[arg(long, default_value = "10")]
    pub handshake_timeout: String,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Openings file: one `variant;FEN` or plain FEN (or EPD) per line.
    #[arg(long)]
    pub openings: Option<String>,
    /// Without --openings: plies of each random opening.
    #[arg(long, default_value_t = 6)]
    pub book_plies: usize,
    /// Without --openings: largest quick-search material imbalance (centipawns) kept.
    #[arg(long, default_value_t = 100)]
    pub book_balance: i32,
    /// Seed for generated openings (default: from the clock; printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Resign adjudication: `movecount=N score=CP [twosided=true]`.
    #[arg(long, num_args = 1..)]
    pub resign: Option<Vec<String>>,
    /// Draw adjudication: `movenumber=M movecount=N score=CP`.
    #[arg(long, num_args = 1..)]
    pub draw: Option<Vec<String>>,
    /// Adjudicate a draw after this many full moves.
    #[arg(long)]
    pub maxmoves: Option<u32>,
}

/// `sissa pgn`: replay a PGN file and report final positions.
#[derive(Args, Debug)]
pub struct PgnArgs {
    /// The PGN file.
    pub file: String,
}

/// Largest `--margin-ms` accepted.
const MAX_MARGIN_MS: u64 = 3_600_000;
/// Most games at once: each runs two engine processes and a referee thread.
const MAX_CONCURRENCY: usize = 256;
/// Most plies of a generated opening.
const MAX_BOOK_PLIES: usize = 100;
/// Most openings generated; a longer match cycles through them.
const MAX_GENERATED: usize = 5_000;

/// Reads `key=value` words into a map, rejecting unknown keys.
fn key_values(
    flag: &str,
    words: &[String],
    known: &[&str],
) -> Result<HashMap<String, String>, String> {
    let mut map = HashMap::new();
    for w in words.iter().flat_map(|w| w.split_whitespace()) {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("{flag}: expected key=value, got '{w}'"))?;
        if !known.contains(&k) {
            return Err(format!(
                "{flag}: unknown key '{k}' (known: {})",
                known.join(", ")
            ));
        }
        map.insert(k.to_string(), v.to_string());
    }
    Ok(map)
}

fn number<T: std::str::FromStr>(
    flag: &str,
    map: &HashMap<String, String>,
    key: &str,
) -> Result<T, String> {
    let v = map
        .get(key)
        .ok_or_else(|| format!("{flag}: {key}=... is missing"))?;
    v.parse()
        .map_err(|_| format!("{flag}: {key} needs a whole number, got '{v}'"))
}

fn parse_adjudication(args: &GameArgs) -> Result<Adjudication, String> {
    let resign = match &args.resign {
        None => None,
        Some(words) => {
            let m = key_values("--resign", words, &["movecount", "score", "twosided"])?;
            let twosided = match m.get("twosided").map(String::as_str) {
                None | Some("false") => false,
                Some("true") => true,
                Some(x) => return Err(format!("--resign: twosided is true or false, not '{x}'")),
            };
            Some(ResignRule {
                movecount: number("--resign", &m, "movecount")?,
                score: number("--resign", &m, "score")?,
                twosided,
            })
        }
    };
    let draw = match &args.draw {
        None => None,
        Some(words) => {
            let m = key_values("--draw", words, &["movenumber", "movecount", "score"])?;
            Some(DrawRule {
                movenumber: number("--draw", &m, "movenumber")?,
                movecount: number("--draw", &m, "movecount")?,
                score: number("--draw", &m, "score")?,
            })
        }
    };
    if resign.is_some_and(|r| r.movecount == 0 || r.score <= 0)
        || draw.is_some_and(|d| d.movecount == 0 || d.score < 0)
    {
        return Err("--resign/--draw: movecount must be positive, score positive".to_string());
    }
    if args.maxmoves == Some(0) {
        return Err("--maxmoves must be positive".to_string());
    }
    Ok(Adjudication {
        resign,
        draw,
        max_moves: args.maxmoves,
    })
}

fn parse_limits(args: &GameArgs) -> Result<Limits, String> {
    let tc = args.tc.as_deref().map(TimeControl::parse).transpose()?;
    let st_ms = args
        .st
        .as_deref()
        .map(|s| parse_seconds(s, "--st"))
        .transpose()?;
    if st_ms == Some(0) {
        return Err("--st must be more than 0".to_string());
    }
    if tc.is_none() && st_ms.is_none() && args.nodes.is_none() && args.depth.is_none() {
        return Err("give a limit: --tc, --st, --nodes or --depth".to_string());
    }
    if args.margin_ms > MAX_MARGIN_MS {
        return Err(format!(
            "--margin-ms: at most {MAX_MARGIN_MS} (one hour), got {}",
            args.margin_ms
        ));
    }
    if args.nodes == Some(0) || args.depth == Some(0) {
        return Err("--nodes and --depth must be positive".to_string());
    }
    Ok(Limits {
        tc,
        st_ms,
        nodes: args.nodes,
        depth: args.depth,
        margin_ms: args.margin_ms,
        move_timeout_ms: parse_seconds(&args.move_timeout, "--move-timeout")?.max(1),
    })
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
fn pgn_date() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Howard Hinnant's days-to-civil algorithm.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The running totals of a match, from the first engine's point of view.
#[derive(Default)]
struct Tally {
    wld: Wld,
    pairs: Pentanomial,
    /// Half points of the first engine in each pair with one game finished.
    open_pairs: HashMap<usize, usize>,
}

impl Tally {
    fn add(&mut self, game: usize, first_is_white: bool, winner: Option<Color>) {
        let half = match winner {
            None => 1,
            Some(Color::White) if first_is_white => 2,
            Some(Color::Black) if !first_is_white => 2,
            Some(_) => 0,
        };
        match half {
            2 => self.wld.wins += 1,
            1 => self.wld.draws += 1,
            _ => self.wld.losses += 1,
        }
        match self.open_pairs.remove(&(game / 2)) {
            Some(other) => self.pairs.add(other + half),
            None => {
                self.open_pairs.insert(game / 2, half);
            }
        }
    }
}

fn create(path: &Option<String>) -> Result<Option<File>, String> {
    path.as_ref()
        .map(|p| File::create(p).map_err(|e| format!("cannot write {p}: {e}")))
        .transpose()
}

/// Runs `sissa match`.
/// What [`GameArgs`] become once checked: everything a game needs besides its engines.
pub(crate) struct Games {
    pub variant: &'static Variant,
    pub limits: Limits,
    pub adjudication: Adjudication,
    pub handshake: Duration,
    pub openings: Vec<Opening>,
}

impl Games {
    /// Starts each engine once and lets it go: the check that every one of them runs and
    /// finishes its handshake before games are played.
    pub(crate) fn check_engines(
        &self,
        specs: &[EngineSpec],
        log: Option<&Arc<IoLog>>,
    ) -> Result<(), String> {
        for spec in specs {
            let target = log.map(|l| LogTarget {
                log: l.clone(),
                tag: format!("check {}", spec.name),
            });
            Engine::start(spec, self.handshake, target)
                .map_err(|e| format!("engine '{}': {e}", spec.name))?;
        }
        Ok(())
    }

    /// The setup of game `round` (from 1) between `white` and `black` from `opening`.
    pub(crate) fn setup<'a>(
        &'a self,
        round: usize,
        opening: &'a Opening,
        white: &'a EngineSpec,
        black: &'a EngineSpec,
        stop: &'a AtomicBool,
        log: Option<&'a Arc<IoLog>>,
    ) -> GameSetup<'a> {
        GameSetup {
            variant: self.variant,
            round,
            opening,
            white,
            black,
            limits: &self.limits,
            adjudication: self.adjudication,
            handshake: self.handshake,
            stop,
            log,
        }
    }
}

impl GameArgs {
    /// Checks the options for games between `specs`, and reads or generates the openings
    /// (`pairs` of them when generated).
    pub(crate) fn prepare(&self, specs: &[EngineSpec], pairs: usize) -> Result<Games, String> {
        let variant = Variant::lookup(&self.variant)?;
        if !(1..=MAX_CONCURRENCY).contains(&self.concurrency) {
            return Err(format!(
                "--concurrency must be from 1 to {MAX_CONCURRENCY} (games played at once)"
            ));
        }
        let limits = parse_limits(self)?;
        let unlimited = limits.tc.is_none() && limits.st_ms.is_none() && limits.depth.is_none();
        if unlimited && let Some(s) = specs.iter().find(|s| s.proto == engine::Proto::Cecp) {
            return Err(format!(
                "CECP has no node limit, so --nodes alone leaves '{}' unlimited: add --tc, \
                 --st or --depth",
                s.name
            ));
        }
        let adjudication = parse_adjudication(self)?;
        let handshake = Duration::from_millis(
            parse_seconds(&self.handshake_timeout, "--handshake-timeout")?.max(1),
        );
        let openings: Vec<Opening> = match &self.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read openings file {path}: {e}"))?;
                openings::parse_openings(variant, &text).map_err(|e| format!("{path}: {e}"))?
            }
            None => {
                let seed = self.seed.unwrap_or_else(|| {
                    SystemTime::now()
                        .duration_since(UNIX_EPOCH)
                        .map_or(1, |d| d.as_nanos() as u64)
                });
                if self.book_plies > MAX_BOOK_PLIES {
                    return Err(format!("--book-plies: at most {MAX_BOOK_PLIES}"));
                }
                let wanted = pairs.min(MAX_GENERATED);
                let o =
                    openings::generate(variant, wanted, self.book_plies, self.book_balance, seed);
                eprintln!(
                    "Generated {} opening(s) of {} plies (seed {seed})",
                    o.len(),
                    self.book_plies
                );
                o
            }
        };
        Ok(Games {
            variant,
            limits,
            adjudication,
            handshake,
            openings,
        })
    }
}

pub fn run_match(args: &MatchArgs) -> Result<(), String> {
    if !args.merge.is_empty() {
        return run_merge(args);
    }
    if args.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine specs (got {})",
            args.engines.len()
        ));
    }
    let specs = [
        EngineSpec::parse(&args.engines[0])?,
        EngineSpec::parse(&args.engines[1])?,
    ];
    if args.games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let pairs = match args.shard.as_deref().map(parse_shard).transpose()? {
        Some(shard) => shard_range(args.games.div_ceil(2), shard),
        None => 0..args.games.div_ceil(2),
    };
    let to_play = 2 * pairs.start..(2 * pairs.end).min(args.games);
    let early_stop = args.shard.is_none();
    let games = args.play.prepare(&specs, args.games.div_ceil(2))?;
    let mut pgn_file = create(&args.pgn)?;
    let mut records_file = create(&args.records)?;
    let log = args
        .debug
        .as_deref()
        .map(IoLog::create)
        .transpose()?
        .map(Arc::new);
    games.check_engines(&specs, log.as_ref())?;

    let names = [specs[0].name.as_str(), specs[1].name.as_str()];
    let date = pgn_date();
    let time_control = games.limits.pgn_tag();
    let bar = ProgressBar::new(to_play.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed_precise} {msg}")
            .map_err(|e| e.to_string())?,
    );
    let say = |line: String| {
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
    };
    let next = AtomicUsize::new(to_play.start);
    let stop = AtomicBool::new(false);
    let tally = Mutex::new(Tally::default());
    let mut write_error = None;
    let mut decided = None;
    std::thread::scope(|scope| {
        let (tx, rx) = channel::<(usize, GameRecord)>();
        for _ in 0..args.play.concurrency.min(to_play.len()) {
            let tx = tx.clone();
            let (next, stop, specs, games, log) = (&next, &stop, &specs, &games, &log);
            scope.spawn(move || {
                loop {
                    let game = next.fetch_add(1, Ordering::SeqCst);
                    if game >= to_play.end || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let first_white = game % 2 == 0;
                    let (white, black) = if first_white {
                        (&specs[0], &specs[1])
                    } else {
                        (&specs[1], &specs[0])
                    };
                    let openings = &games.openings;
                    let opening = &openings[(game / 2) % openings.len()];
                    let setup = games.setup(game + 1, opening, white, black, stop, log.as_ref());
                    if let Some(record) = play_game(&setup)
                        && tx.send((game, record)).is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (game, record) in rx {
            if stop.load(Ordering::SeqCst) {
                continue;
            }
            let pgn = record.pgn(&args.event, &args.site, &date, &time_control);
            let outputs = [
                pgn_file.as_mut().map(|f| (f, pgn)),
                records_file
                    .as_mut()
                    .map(|f| (f, format!("{}\n", record.record_line()))),
            ];
            for (f, text) in outputs.into_iter().flatten() {
                if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                    write_error.get_or_insert(format!("cannot write output: {e}"));
                }
            }
            say(format!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                record.round,
                record.white,
                record.black,
                record.result(),
                record.reason
            ));
            let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
            t.add(game, game % 2 == 0, record.winner);
            let mut msg = format!("{} - {} - {}", t.wld.wins, t.wld.losses, t.wld.draws);
            if let Some(s) = sprt {
                let llr = s.llr(t.wld, t.pairs);
                msg.push_str(&format!(" LLR {llr:.2}"));
                if early_stop && s.verdict(llr) != SprtVerdict::Continue {
                    decided = Some(s.verdict(llr));
                    stop.store(true, Ordering::SeqCst);
                }
            }
            bar.set_message(msg);
            bar.inc(1);
        }
    });
    bar.finish_and_clear();

    let t = tally.into_inner().unwrap_or_else(|p| p.into_inner());
    report(names, &t, sprt, decided);
    match write_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Prints a match's result: score, Elo, pentanomial statistics and the SPRT line.
fn report(names: [&str; 2], t: &Tally, sprt: Option<Sprt>, decided: Option<SprtVerdict>) {
    let w = t.wld;
    println!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        w.wins,
        w.losses,
        w.draws,
        w.score(),
        w.games()
    );
    let (elo, margin) = w.elo();
    let draw_ratio = if w.games() > 0 {
        100.0 * w.draws as f64 / w.games() as f64
    } else {
        0.0
    };
    println!(
        "Elo difference: {elo:.1} +/- {margin:.1}, LOS: {:.1} %, DrawRatio: {draw_ratio:.1} %",
        100.0 * w.los()
    );
    let p = t.pairs.0;
    let (pelo, pmargin) = t.pairs.elo();
    println!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}], {} pairs, Elo from pairs: {pelo:.1} +/- {pmargin:.1}",
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        t.pairs.pairs()
    );
    if let Some(s) = sprt {
        let llr = s.llr(w, t.pairs);
        let (lo, hi) = s.bounds();
        let progress = if llr >= 0.0 { llr / hi } else { llr / lo };
        let verdict = match decided.unwrap_or(s.verdict(llr)) {
            SprtVerdict::AcceptH1 => " - H1 was accepted",
            SprtVerdict::AcceptH0 => " - H0 was accepted",
            SprtVerdict::Continue => "",
        };
        println!(
            "SPRT: llr {llr:.3} ({:.1}%), lbound {lo:.2}, ubound {hi:.2} [elo0 {}, elo1 {}, {}]{verdict}",
            100.0 * progress,
            s.elo0,
            s.elo1,
            s.model.name()
        );
    }
}

/// `sissa match --merge`: the match that PGN files of its games make together.
fn run_merge(args: &MatchArgs) -> Result<(), String> {
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let mut names: Option<[String; 2]> = None;
    let mut seen = std::collections::HashSet::new();
    let mut tally = Tally::default();
    for file in &args.merge {
        for (i, g) in read_pgn_file(std::path::Path::new(file))?
            .iter()
            .enumerate()
        {
            let at = |msg: String| format!("{file}, game {}: {msg}", i + 1);
            let round: usize = g
                .tag("Round")
                .and_then(|r| r.parse().ok())
                .filter(|&r| r >= 1)
                .ok_or_else(|| at("no Round tag with the game's number".to_string()))?;
            let game = round - 1;
            let (white, black) = (g.tag("White").unwrap_or("?"), g.tag("Black").unwrap_or("?"));
            let pair = if game.is_multiple_of(2) {
                [white.to_string(), black.to_string()]
            } else {
                [black.to_string(), white.to_string()]
            };
            match &names {
                None => names = Some(pair),
                Some(n) if *n == pair => {}
                Some(n) => {
                    return Err(at(format!(
                        "{white} - {black} in round {round}, but the match is {} - {}",
                        n[0], n[1]
                    )));
                }
            }
            if !seen.insert(round) {
                return Err(at(format!("round {round} appears twice")));
            }
            let winner = g
                .winner()
                .ok_or_else(|| at(format!("result '{}' is not a finished game", g.result)))?;
            tally.add(game, game.is_multiple_of(2), winner);
        }
    }
    let names = names.ok_or_else(|| "the files hold no games".to_string())?;
    println!("{} games from {} file(s)", seen.len(), args.merge.len());
    let decided = sprt.map(|s| s.verdict(s.llr(tally.wld, tally.pairs)));
    report([&names[0], &names[1]], &tally, sprt, decided);
    Ok(())
}

/// Runs `sissa pgn`: replays every game, prints its final position and result, and checks
/// the result against the rules where they ended the game. Fails on unreadable PGN or any
/// disagreement.
pub fn run_pgn(args: &PgnArgs) -> Result<(), String> {
    let games = read_pgn_file(std::path::Path::new(&args.file))?;
    let mut disagreements = 0;
    let mut unreadable = 0;
    for (i, game) in games.iter().enumerate() {
        let n = i + 1;
        let mut pos = match game.replay(n) {
            Ok(pos) => pos,
            Err(e) => {
                unreadable += 1;
                println!("{e} (NOT REPLAYED)");
                continue;
            }
        };
        let rules = match pos.outcome() {
            Some(o) if o.result() == game.result => format!("{} (agrees)", o.reason()),
            Some(o) => {
                disagreements += 1;
                format!(
                    "{} gives {}, but the game says {} (DISAGREES)",
                    o.reason(),
                    o.result(),
                    game.result
                )
            }
            None => format!(
                "not ended by the rules (Termination: {})",
                game.tag("Termination").unwrap_or("?")
            ),
        };
        println!(
            "game {n}: {} - {}: {} after {} plies; final FEN {}; {rules}",
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?"),
            game.result,
            game.moves.len(),
            pos.fen()
        );
    }
    println!("{} game(s) replayed", games.len() - unreadable);
    let mut faults = Vec::new();
    if unreadable > 0 {
        faults.push(format!(
            "{unreadable} game(s) with an illegal or unreadable move"
        ));
    }
    if disagreements > 0 {
        faults.push(format!(
            "{disagreements} game(s) whose result disagrees with the rules"
        ));
    }
    if faults.is_empty() {
        Ok(())
    } else {
        Err(faults.join("; "))
    }
}
