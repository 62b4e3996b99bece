//! `sissa tune`: SPSA (simultaneous perturbation stochastic approximation) over the search's
//! tunable numbers, played out as real games between two copies of an engine.
//!
//! Each iteration perturbs every chosen tunable at once by plus or minus its current step,
//! plays game pairs (one opening, colours swapped) between the engine set to theta + step
//! and the engine set to theta - step through the `Tune` option, and moves theta towards
//! the side that scored better. Steps and gains shrink as in Spall's schedule, with the
//! learning rate and the end step chosen as in fishtest: `c_k = c / (k + 1)^0.101`,
//! `a_k = a / (A + k + 1)^0.602`, `A` a tenth of the iterations, the end step of each
//! tunable its `step` and `a` such that the gain ends at `rate * step^2`.

use std::fs::OpenOptions;
use std::io::Write;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::GameArgs;
use super::engine::EngineSpec;
use super::referee::play_game;
use crate::rng::Rng;
use crate::rules::role::Color;
use crate::rules::variant::Variant;
use crate::search::params::{SearchParams, TUNABLES, Tunable, tunable_names};

/// `sissa tune`: tune search numbers by SPSA over games.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The engine to tune: `cmd=COMMAND proto=uci|xboard [option.NAME=VALUE]...` (it must
    /// take the `Tune` option, as Sissa does).
    #[arg(long)]
    pub engine: String,
    /// The tunables to tune, separated by commas (default: all; `sissa tune --list` names
    /// them).
    #[arg(long)]
    pub params: Option<String>,
    /// Where to start, as `name=value` words over the variant's own values (default: those).
    #[arg(long, default_value = "")]
    pub start: String,
    /// Iterations; each plays `--concurrency` games (half as many pairs, at least one).
    #[arg(long, default_value_t = 200)]
    pub iterations: usize,
    /// Learning rate at the end of the run (fishtest's `r_end`).
    #[arg(long, default_value_t = 0.02)]
    pub rate: f64,
    /// Append a line per iteration (scores and the current values) to this file.
    #[arg(long)]
    pub output: Option<String>,
    /// List the tunables with their defaults, ranges and steps, and exit.
    #[arg(long)]
    pub list: bool,
    #[command(flatten)]
    pub play: GameArgs,
}

/// Spall's exponents.
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// One tunable under way.
struct Tuned {
    t: Tunable,
    value: f64,
    /// Step and gain scale: `c_k = c / (k + 1)^GAMMA`, `a_k = a / (A + k + 1)^ALPHA`.
    c: f64,
    a: f64,
}

/// The SPSA state: the tunables' current values and their schedules.
pub struct Spsa {
    tuned: Vec<Tuned>,
    big_a: f64,
}

impl Spsa {
    /// Starts tuning `chosen` from `start` for `iterations` steps at learning rate `rate`.
    pub fn new(chosen: &[Tunable], start: &SearchParams, iterations: usize, rate: f64) -> Spsa {
        let n = iterations.max(1) as f64;
        let big_a = 0.1 * n;
        let tuned = chosen
            .iter()
            .map(|&t| {
                let a_end = rate * t.step * t.step;
                Tuned {
                    t,
                    value: f64::from(start.get(t.name).unwrap_or(t.default)),
                    c: t.step * n.powf(GAMMA),
                    a: a_end * (big_a + n).powf(ALPHA),
                }
            })
            .collect();
        Spsa { tuned, big_a }
    }

    fn step(x: &Tuned, k: usize) -> f64 {
        x.c / (k as f64 + 1.0).powf(GAMMA)
    }

    /// Random signs for iteration `k`, one per tunable.
    pub fn signs(&self, rng: &mut Rng) -> Vec<f64> {
        self.tuned
            .iter()
            .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
            .collect()
    }

    /// The values of the plus (`sign` 1) or minus (`sign` -1) engine at iteration `k`,
    /// rounded and within range.
    pub fn perturbed(&self, k: usize, signs: &[f64], sign: f64) -> Vec<(&'static str, i32)> {
        self.tuned
            .iter()
            .zip(signs)
            .map(|(x, s)| {
                let v = x.value + sign * s * Spsa::step(x, k);
                (x.t.name, clamp_round(&x.t, v))
            })
            .collect()
    }

    /// Moves the values after iteration `k`: `result` is the plus engine's wins minus
    /// losses.
    pub fn update(&mut self, k: usize, signs: &[f64], result: f64) {
        let big_a = self.big_a;
        for (x, s) in self.tuned.iter_mut().zip(signs) {
            let ck = Spsa::step(x, k);
            let ak = x.a / (big_a + k as f64 + 1.0).powf(ALPHA);
            x.value =
                (x.value + ak / ck * result * s).clamp(f64::from(x.t.min), f64::from(x.t.max));
        }
    }

    /// The current values, unrounded.
    pub fn values(&self) -> Vec<(&'static str, f64)> {
        self.tuned.iter().map(|x| (x.t.name, x.value)).collect()
    }

    /// The current values, rounded, as `Tune` option words.
    pub fn option_text(&self) -> String {
        self.tuned
            .iter()
            .map(|x| format!("{}={}", x.t.name, clamp_round(&x.t, x.value)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn clamp_round(t: &Tunable, v: f64) -> i32 {
    (v.round() as i32).clamp(t.min, t.max)
}

/// Runs `sissa tune`.
pub fn run_tune(args: &TuneArgs) -> Result<(), String> {
    // Sissa searches each variant from its own values, which the `Tune` option's lie over.
    let variant = Variant::lookup(&args.play.variant)?;
    let own = SearchParams::for_variant(variant.spec.id);
    if args.list {
        for t in TUNABLES {
            let v = own.get(t.name).unwrap_or(t.default);
            let note = if v == t.default {
                String::new()
            } else {
                format!("  ({}: {v})", variant.spec.id)
            };
            println!(
                "{:<26} default {:>6}  range {}..={}  step {}{note}",
                t.name, t.default, t.min, t.max, t.step
            );
        }
        return Ok(());
    }
    let base = EngineSpec::parse(&format!("name=tuned {}", args.engine))?;
    let start =
        SearchParams::parse_over(own.clone(), &args.start).map_err(|e| format!("--start: {e}"))?;
    let chosen: Vec<Tunable> = match &args.params {
        None => TUNABLES.to_vec(),
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(|n| {
                TUNABLES
                    .iter()
                    .find(|t| t.name == n)
                    .copied()
                    .ok_or_else(|| {
                        format!(
                            "--params: unknown tunable '{n}' (known: {})",
                            tunable_names()
                        )
                    })
            })
            .collect::<Result<_, _>>()?,
    };
    if chosen.is_empty() {
        return Err("--params names no tunable".to_string());
    }
    if args.iterations == 0 {
        return Err("--iterations must be at least 1".to_string());
    }
    if !(args.rate > 0.0 && args.rate <= 1.0) {
        return Err(format!("--rate must be in (0, 1], got {}", args.rate));
    }
    let mut spsa = Spsa::new(&chosen, &start, args.iterations, args.rate);
    let pairs = (args.play.concurrency / 2).max(1);
    let specs = std::slice::from_ref(&base);
    let games = args.play.prepare(specs, args.iterations * pairs)?;
    let openings = &games.openings;
    if openings.is_empty() {
        return Err("no openings to play".to_string());
    }
    games.check_engines(specs, None)?;
    // Tunables not under tuning keep their start values.
    let fixed: Vec<(&str, i32)> = start
        .differences(&own)
        .into_iter()
        .filter(|(name, _)| !chosen.iter().any(|c| c.name == *name))
        .collect();
    let mut output = match &args.output {
        None => None,
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open {path}: {e}"))?,
        ),
    };
    let mut rng = Rng::new(args.play.seed.unwrap_or(1) ^ 0x5350_5341);
    let stop = AtomicBool::new(false);
    let mut total = [0i64; 3];
    for k in 0..args.iterations {
        let signs = spsa.signs(&mut rng);
        let side = |sign: f64| {
            let text = spsa
                .perturbed(k, &signs, sign)
                .into_iter()
                .chain(fixed.iter().copied())
                .map(|(name, v)| format!("{name}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            let mut spec = base.clone();
            spec.name = if sign > 0.0 { "plus" } else { "minus" }.to_string();
            spec.options
                .retain(|(name, _)| !name.eq_ignore_ascii_case("Tune"));
            spec.options.push(("Tune".to_string(), text));
            spec
        };
        let (plus, minus) = (side(1.0), side(-1.0));
        // Score of plus minus score of minus, in half points, over this iteration's pairs.
        let mut result = 0i64;
        let mut failed = None;
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for pair in 0..pairs {
                let opening = &openings[(k * pairs + pair) % openings.len()];
                for plus_white in [true, false] {
                    let (white, black) = if plus_white {
                        (&plus, &minus)
                    } else {
                        (&minus, &plus)
                    };
                    let (games, stop) = (&games, &stop);
                    handles.push(scope.spawn(move || {
                        let setup = games.setup(k + 1, opening, white, black, stop, None);
                        (plus_white, play_game(&setup))
                    }));
                }
            }
            for g in handles {
                match g.join() {
                    Ok((plus_white, Some(record))) => {
                        let plus_color = if plus_white {
                            Color::White
                        } else {
                            Color::Black
                        };
                        match record.winner {
                            Some(c) if c == plus_color => {
                                result += 2;
                                total[0] += 1;
                            }
                            Some(_) => {
                                result -= 2;
                                total[1] += 1;
                            }
                            None => total[2] += 1,
                        }
                        if record.reason.contains("failed to start") {
                            failed = Some(record.reason.clone());
                        }
                    }
                    _ => failed = Some("a game did not finish".to_string()),
                }
            }
        });
        if let Some(why) = failed {
            return Err(format!("iteration {}: {why}", k + 1));
        }
        // Wins minus losses of plus, as fishtest's result: each game counts one.
        let r = result as f64 / 2.0;
        spsa.update(k, &signs, r);
        let line = format!(
            "iteration {}/{}: plus {:+} (total +{} -{} ={}) {}",
            k + 1,
            args.iterations,
            r,
            total[0],
            total[1],
            total[2],
            spsa.values()
                .iter()
                .map(|(name, v)| format!("{name}={v:.2}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        println!("{line}");
        if let Some(f) = output.as_mut() {
            writeln!(f, "{line}")
                .and_then(|_| f.flush())
                .map_err(|e| format!("cannot write the output file: {e}"))?;
        }
    }
    println!("Tune: {}", spsa.option_text());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A noiseless game: the side nearer the target wins. SPSA must walk to the target from
    /// either side, and stay in range.
    #[test]
    fn spsa_walks_towards_the_better_side() {
        let t = *TUNABLES.iter().find(|t| t.name == "rfp_margin").unwrap();
        for (start, target) in [(80, 150), (200, 110)] {
            let from = SearchParams::parse(&format!("rfp_margin={start}")).unwrap();
            let iterations = 600;
            let mut spsa = Spsa::new(&[t], &from, iterations, 0.02);
            let mut rng = Rng::new(9);
            for k in 0..iterations {
                let signs = spsa.signs(&mut rng);
                let plus = spsa.perturbed(k, &signs, 1.0)[0].1;
                let minus = spsa.perturbed(k, &signs, -1.0)[0].1;
                let r = match (plus - target).abs().cmp(&(minus - target).abs()) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Greater => -1.0,
                    std::cmp::Ordering::Equal => 0.0,
                };
                spsa.update(k, &signs, r);
            }
            let end = spsa.values()[0].1;
            assert!(
                (end - f64::from(target)).abs() < 15.0,
                "from {start} towards {target}: ended at {end}"
            );
            assert!(spsa.option_text().starts_with("rfp_margin="));
        }
    }

    #[test]
    fn spsa_stays_within_the_range() {
        let t = *TUNABLES.iter().find(|t| t.name == "lmp_base").unwrap();
        let mut spsa = Spsa::new(&[t], &SearchParams::default(), 50, 1.0);
        let mut rng = Rng::new(3);
        for k in 0..50 {
            let signs = spsa.signs(&mut rng);
            // Always push down hard.
            spsa.update(k, &signs, -2.0 * signs[0]);
            for (_, v) in spsa.perturbed(k, &signs, 1.0) {
                assert!((t.min..=t.max).contains(&v));
            }
        }
        assert_eq!(spsa.values()[0].1, f64::from(t.min));
    }
}
