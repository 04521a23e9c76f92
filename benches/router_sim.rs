//! A deterministic simulation of the coach's routing: simulated clock (tokio's
//! paused time), seeded randomness, no sleeping, no network.
//!
//! Each run sends 10 000 requests, one every 500 ms of simulated time, to
//! the real `Coach` (failover, per-call timeouts, the 8 s deadline, breakers)
//! whose provider is a simulation of four models with different latency and
//! quality. Strategies: the seed's, uniform random, the learning strategy
//! (`thompson`) without and with hedging, and an oracle that knows each model's
//! true state. Every scenario and strategy runs 5 times (seeds 1–5, 50 000
//! requests); the table sums them, and gives the recovery time as the median
//! (and the worst) of the 5 runs.
//!
//! Common random numbers: whether model `m` fails, answers badly, and how long
//! it takes on request `i` of run `s` is drawn from a stream keyed by
//! `(s, i, m)`, so every strategy meets the same luck and the differences
//! between rows are the strategies' own, not noise. The key and the stream are
//! SplitMix64, written out below: unlike `DefaultHasher` (whose output may
//! change with any Rust release) it gives the same numbers everywhere. (The
//! router's own draws come from the coach's `StdRng`, seeded with `s`: the same
//! for as long as `Cargo.lock` pins `rand`.)
//!
//! The default strategy's targets are checked in [`report`]: the process exits
//! with status 1, naming each missed target, when one is missed.
//!
//! Run: `cargo bench --features ssr --bench router_sim` (prints the README's
//! block of Markdown tables); add `-- --write-readme` to put that block into
//! README.md between its `router_sim` markers.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::Duration,
};

use async_trait::async_trait;
use jay_trainer::coach::{
    budget::UpstreamBudget,
    input::CoachInput,
    learning::score,
    prompt::Prompt,
    providers::{Provider, ProviderError},
    registry::{ModelSpec, Registry},
    router::{ModelStats, SeedStrategy, Strategy, ThompsonStrategy},
    service::Coach,
    Lang,
};
use rand::RngCore;
use tokio::time::Instant;

#[path = "router_sim/report.rs"]
mod report;

use report::{Outcome, Row};

const REQUESTS: usize = 10_000;
/// Runs per scenario and strategy, each with its own luck: 50 000 requests.
const SEEDS: u64 = 5;
const INTERVAL: Duration = Duration::from_millis(500);
const MODELS: [&str; 4] = ["a", "b", "c", "d"];

/// One model's true behaviour at a moment.
#[derive(Clone, Copy, Debug)]
struct Truth {
    latency_ms: f64,
    /// Probability of an HTTP-level failure.
    p_error: f64,
    /// Probability of an answer that fails the reply checks.
    p_bad: f64,
    error: Failure,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Failure {
    Upstream,
    Refused,
    RateLimited,
}

fn steady(alias: &str) -> Truth {
    let (latency_ms, p_error, p_bad) = match alias {
        "a" => (300.0, 0.02, 0.02),
        "b" => (600.0, 0.02, 0.05),
        "c" => (1200.0, 0.05, 0.05),
        _ => (2000.0, 0.10, 0.10),
    };
    Truth {
        latency_ms,
        p_error,
        p_bad,
        error: Failure::Upstream,
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Scenario {
    Steady,
    Down,
    Slow,
    Bad,
    RateLimited,
    AllDown,
    Rejected,
}

impl Scenario {
    const ALL: [Scenario; 7] = [
        Scenario::Steady,
        Scenario::Down,
        Scenario::Slow,
        Scenario::Bad,
        Scenario::RateLimited,
        Scenario::AllDown,
        Scenario::Rejected,
    ];

    fn name(self) -> &'static str {
        match self {
            Scenario::Steady => "1 steady",
            Scenario::Down => "2 a down 1000–2000 s",
            Scenario::Slow => "3 a slow (5 s) 1000–2000 s",
            Scenario::Bad => "4 b bad answers 50 %",
            Scenario::RateLimited => "5 a rate-limited > 0.5 req/s",
            Scenario::AllDown => "6 all down 1000–2000 s, back one by one",
            Scenario::Rejected => "7 a always rejected (rambles)",
        }
    }

    /// The model whose every answer is rejected (its share of first picks is
    /// followed over time).
    fn always_rejected(self) -> Option<&'static str> {
        (self == Scenario::Rejected).then_some("a")
    }

    /// The model that recovers, and when (for the recovery-time column).
    fn recovery(self) -> Option<(&'static str, f64)> {
        match self {
            Scenario::Down | Scenario::Slow | Scenario::AllDown => Some(("a", 2000.0)),
            _ => None,
        }
    }

    /// How many models can answer at all at simulated second `t`.
    fn healthy_count(self, t: f64) -> usize {
        MODELS
            .iter()
            .filter(|m| {
                let truth = self.truth(m, t);
                truth.p_error < 1.0 && truth.p_bad < 1.0 && truth.latency_ms < 5000.0
            })
            .count()
    }

    /// The truth about `alias` at simulated second `t`.
    fn truth(self, alias: &str, t: f64) -> Truth {
        let mut truth = steady(alias);
        let outage = (1000.0..2000.0).contains(&t);
        match self {
            Scenario::Steady | Scenario::RateLimited => {}
            Scenario::Down if alias == "a" && outage => {
                truth = Truth {
                    latency_ms: 5.0,
                    p_error: 1.0,
                    p_bad: 0.0,
                    error: Failure::Refused,
                };
            }
            Scenario::Slow if alias == "a" && outage => truth.latency_ms = 5000.0,
            Scenario::Bad if alias == "b" => truth.p_bad = 0.5,
            Scenario::Rejected if alias == "a" => truth.p_bad = 1.0,
            Scenario::AllDown => {
                let back =
                    2000.0 + 300.0 * MODELS.iter().position(|m| *m == alias).unwrap_or(0) as f64;
                if (1000.0..back).contains(&t) {
                    truth = Truth {
                        latency_ms: 5.0,
                        p_error: 1.0,
                        p_bad: 0.0,
                        error: Failure::Refused,
                    };
                }
            }
            _ => {}
        }
        truth
    }
}

/// The simulated upstream: latency and outcome drawn from the scenario's truth.
struct SimProvider {
    scenario: Scenario,
    /// Which run of the scenario (the luck of the draws).
    seed: u64,
    start: Instant,
    /// Calls to "a" in the last 10 s (scenario 5: more than 5 get a 429).
    recent_a: Mutex<VecDeque<Instant>>,
}

#[async_trait]
impl Provider for SimProvider {
    async fn complete(
        &self,
        spec: &ModelSpec,
        prompt: &Prompt,
        timeout: Duration,
    ) -> Result<String, ProviderError> {
        let now = Instant::now();
        let t = now.duration_since(self.start).as_secs_f64();
        let mut truth = self.scenario.truth(&spec.alias, t);
        if self.scenario == Scenario::RateLimited && spec.alias == "a" {
            let mut recent = self.recent_a.lock().unwrap();
            while recent
                .front()
                .is_some_and(|at| now.duration_since(*at) > Duration::from_secs(10))
            {
                recent.pop_front();
            }
            recent.push_back(now);
            if recent.len() > 5 {
                truth = Truth {
                    latency_ms: 20.0,
                    p_error: 1.0,
                    p_bad: 0.0,
                    error: Failure::RateLimited,
                };
            }
        }
        // The request's own numbers are in the user turn: key by (run, request, model).
        let key = stable_key(self.seed, &[&prompt.user, &spec.alias]);
        let jitter = 0.7 + 0.6 * draw(key, 0);
        let latency = Duration::from_secs_f64(truth.latency_ms * jitter / 1000.0);
        let (error_draw, bad_draw) = (draw(key, 1), draw(key, 2));
        if latency > timeout {
            tokio::time::sleep(timeout).await;
            return Err(ProviderError::Timeout);
        }
        tokio::time::sleep(latency).await;
        if error_draw < truth.p_error {
            return Err(match truth.error {
                Failure::Upstream => ProviderError::Upstream(502),
                Failure::Refused => ProviderError::Connect,
                Failure::RateLimited => ProviderError::RateLimited {
                    retry_after: Some(Duration::from_secs(5)),
                },
            });
        }
        Ok(if bad_draw >= truth.p_bad {
            "Nice move! |fim|".into()
        } else if truth.p_bad >= 1.0 {
            // The model that always rambles: 400 characters, no end marker.
            "Let me think about the weight and the bias step by step. ".repeat(7)
        } else {
            String::new()
        })
    }
}

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): the `(k + 1)`-th output of the generator whose
/// state starts at `state`. A fixed function: the same on every platform and
/// release.
fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A stable key for `seed` and the texts in `parts`: each 8-byte chunk, then
/// each part's length, is mixed in with SplitMix64.
fn stable_key(seed: u64, parts: &[&str]) -> u64 {
    let mut key = splitmix64(seed);
    for part in parts {
        for chunk in part.as_bytes().chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            key = splitmix64(key ^ u64::from_le_bytes(word));
        }
        key = splitmix64(key ^ part.len() as u64);
    }
    key
}

/// The `k`-th number in [0, 1) of the SplitMix64 stream keyed by `key`.
fn draw(key: u64, k: u64) -> f64 {
    let bits = splitmix64(key.wrapping_add(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
    // The top 53 bits, as f64 has 53 bits of precision.
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// Every model equally likely, no breakers.
struct Uniform;

impl Strategy for Uniform {
    fn name(&self) -> &'static str {
        "uniform"
    }
    fn weight(&self, _: &str, _: &ModelStats, _: Instant, _: Duration, _: &mut dyn RngCore) -> f64 {
        1.0
    }
    fn uses_breakers(&self) -> bool {
        false
    }
}

/// Knows each model's true success rate and latency right now.
struct Oracle {
    scenario: Scenario,
    start: Instant,
}

impl Strategy for Oracle {
    fn name(&self) -> &'static str {
        "oracle"
    }
    fn weight(
        &self,
        alias: &str,
        _: &ModelStats,
        now: Instant,
        _: Duration,
        _: &mut dyn RngCore,
    ) -> f64 {
        let truth = self
            .scenario
            .truth(alias, now.duration_since(self.start).as_secs_f64());
        let p = (1.0 - truth.p_error) * (1.0 - truth.p_bad);
        let latency = if truth.latency_ms >= 5000.0 {
            1e9
        } else {
            truth.latency_ms
        };
        score(p, Some(latency))
    }
    fn uses_breakers(&self) -> bool {
        false
    }
}

async fn run(scenario: Scenario, strategy_name: &str, seed: u64) -> Outcome {
    let models: String = MODELS
        .iter()
        .map(|m| {
            format!(
                "[[models]]\nalias = \"{m}\"\nmodel = \"sim/{m}\"\napi = \"chat\"\n\
                 base_url = \"http://127.0.0.1:9/v1\"\ntimeout_ms = 5000\n"
            )
        })
        .collect();
    // The registry's default half-life unless SIM_HALF_LIFE_S says otherwise.
    let half_life = std::env::var("SIM_HALF_LIFE_S")
        .map(|s| format!("half_life_s = {s}\n"))
        .unwrap_or_default();
    let registry = Registry::parse(&format!(
        "deadline_ms = 8000\n{half_life}hedge = {}\n{models}",
        strategy_name.ends_with("+hedge")
    ))
    .expect("registry");
    let start = Instant::now();
    let provider = SimProvider {
        scenario,
        seed,
        start,
        recent_a: Mutex::new(VecDeque::new()),
    };
    // The routing alone: no upstream budget in the way.
    let coach = Arc::new(
        Coach::new(registry, None, Arc::new(provider), Some(seed))
            .with_budget(UpstreamBudget::new(100_000, u64::MAX)),
    );
    coach.set_strategy(match strategy_name {
        "seed" => Box::new(SeedStrategy),
        "uniform" => Box::new(Uniform),
        "thompson" | "thompson+hedge" => Box::new(ThompsonStrategy),
        _ => Box::new(Oracle { scenario, start }),
    });

    // Open loop: a request arrives every 500 ms whether or not earlier ones
    // have been answered, as visitors do.
    let mut pending = Vec::with_capacity(REQUESTS);
    for i in 0..REQUESTS {
        tokio::time::sleep_until(start + INTERVAL * i as u32).await;
        let t = Instant::now().duration_since(start).as_secs_f64();
        let attempts = vec![13_359.08; 1 + i % 20];
        let input = CoachInput {
            // A different error per request: the provider's draws key on it.
            error: 500.0 + i as f64 / 100.0,
            attempts,
            params: None,
            model: None,
            lang: Lang::En,
        };
        let coach = coach.clone();
        pending.push(tokio::spawn(async move { (t, coach.comment(input).await) }));
    }
    let mut out = Outcome {
        requests: REQUESTS,
        ..Outcome::default()
    };
    let mut firsts = Vec::with_capacity(REQUESTS);
    for handle in pending {
        let (t, comment) = handle.await.expect("request task");
        if scenario.healthy_count(t) > 0 {
            out.healthy_requests += 1;
            out.healthy_successes += usize::from(!comment.fallback);
        }
        out.calls += comment.tried.len();
        if let Some(first) = comment.tried.first() {
            firsts.push((t, first.model.clone()));
        }
        if comment.fallback {
            out.fallbacks += 1;
        } else {
            out.successes += 1;
        }
        out.latencies.push(comment.latency_ms);
    }
    out.recoveries = scenario
        .recovery()
        .map(|(alias, back)| report::recovery_time(&firsts, alias, back))
        .into_iter()
        .collect();
    if let Some(alias) = scenario.always_rejected() {
        out.rejected_picks = report::picks_by_window(&firsts, alias);
    }
    out
}

fn main() {
    let write_readme = std::env::args().any(|a| a == "--write-readme");
    if write_readme && std::env::var_os("SIM_HALF_LIFE_S").is_some() {
        eprintln!("--write-readme: the README shows the defaults; unset SIM_HALF_LIFE_S");
        std::process::exit(2);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("runtime");
    let mut rows = Vec::new();
    for scenario in Scenario::ALL {
        for strategy in ["seed", "uniform", "thompson", "thompson+hedge", "oracle"] {
            let mut out = Outcome::default();
            for seed in 1..=SEEDS {
                out.merge(runtime.block_on(run(scenario, strategy, seed)));
            }
            rows.push(Row::new(scenario, strategy, out));
        }
    }
    let targets = report::targets(&rows);
    let block = report::block(&rows, &targets);
    print!("{block}");
    if write_readme {
        let readme = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
        if let Err(e) = report::write_readme(&readme, &block) {
            eprintln!("--write-readme: {e}");
            std::process::exit(2);
        }
        eprintln!("wrote the block into {}", readme.display());
    }
    let mut missed = false;
    for target in &targets {
        for miss in &target.misses {
            eprintln!(
                "missed target of `{}`: {} ({miss})",
                report::DEFAULT,
                target.name
            );
            missed = true;
        }
    }
    if missed {
        std::process::exit(1);
    }
}
