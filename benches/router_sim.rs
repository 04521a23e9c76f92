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
//! it takes on request `i` of run `s` is drawn from a generator seeded by
//! `(s, i, m)`, so every strategy meets the same luck and the differences
//! between rows are the strategies' own, not noise.
//!
//! Run: `cargo bench --features ssr --bench router_sim` (prints a Markdown table).

use std::{
    collections::VecDeque,
    hash::{DefaultHasher, Hash, Hasher},
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
use rand::{rngs::StdRng, Rng, RngCore, SeedableRng};
use tokio::time::Instant;

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
}

impl Scenario {
    const ALL: [Scenario; 6] = [
        Scenario::Steady,
        Scenario::Down,
        Scenario::Slow,
        Scenario::Bad,
        Scenario::RateLimited,
        Scenario::AllDown,
    ];

    fn name(self) -> &'static str {
        match self {
            Scenario::Steady => "1 steady",
            Scenario::Down => "2 a down 1000–2000 s",
            Scenario::Slow => "3 a slow (5 s) 1000–2000 s",
            Scenario::Bad => "4 b bad answers 50 %",
            Scenario::RateLimited => "5 a rate-limited > 0.5 req/s",
            Scenario::AllDown => "6 all down 1000–2000 s, back one by one",
        }
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
                truth.p_error < 1.0 && truth.latency_ms < 5000.0
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
        let (latency, error_draw, bad_draw) = {
            // The request's own numbers are in the user turn: seed by (request, model).
            let mut hasher = DefaultHasher::new();
            (self.seed, &prompt.user, &spec.alias).hash(&mut hasher);
            let mut rng = StdRng::seed_from_u64(hasher.finish());
            let jitter = 0.7 + 0.6 * rng.random::<f64>();
            (
                Duration::from_secs_f64(truth.latency_ms * jitter / 1000.0),
                rng.random::<f64>(),
                rng.random::<f64>(),
            )
        };
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
        Ok(if bad_draw < truth.p_bad {
            String::new()
        } else {
            "Nice move! |fim|".into()
        })
    }
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

#[derive(Default)]
struct Outcome {
    successes: usize,
    fallbacks: usize,
    /// Requests that arrived while at least one model was healthy, and how
    /// many of those a model answered.
    healthy_requests: usize,
    healthy_successes: usize,
    latencies: Vec<u64>,
    calls: usize,
    /// (simulated second, first model tried)
    firsts: Vec<(f64, String)>,
    /// Seconds until the recovered model had its share back, per run (`None`:
    /// never); empty when nothing recovers in the scenario.
    recoveries: Vec<Option<f64>>,
}

fn percentile(sorted: &[u64], q: f64) -> u64 {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Seconds after `back` until `alias` is first tried in ≥ 80 % of its steady
/// share (measured over 0–1000 s) over a trailing 30 s window.
fn recovery_time(firsts: &[(f64, String)], alias: &str, back: f64) -> Option<f64> {
    let share = |from: f64, to: f64| {
        let window: Vec<_> = firsts
            .iter()
            .filter(|(t, _)| (from..to).contains(t))
            .collect();
        let hits = window.iter().filter(|(_, m)| m == alias).count();
        hits as f64 / window.len().max(1) as f64
    };
    let steady = share(0.0, 1000.0);
    let mut end = back + 30.0;
    while end <= back + 1000.0 {
        if share(end - 30.0, end) >= 0.8 * steady {
            return Some(end - back);
        }
        end += 5.0;
    }
    None
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
            model: None,
            lang: Lang::En,
        };
        let coach = coach.clone();
        pending.push(tokio::spawn(async move { (t, coach.comment(input).await) }));
    }
    let mut out = Outcome::default();
    for handle in pending {
        let (t, comment) = handle.await.expect("request task");
        if scenario.healthy_count(t) > 0 {
            out.healthy_requests += 1;
            out.healthy_successes += usize::from(!comment.fallback);
        }
        out.calls += comment.tried.len();
        if let Some(first) = comment.tried.first() {
            out.firsts.push((t, first.model.clone()));
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
        .map(|(alias, back)| recovery_time(&out.firsts, alias, back))
        .into_iter()
        .collect();
    out
}

impl Outcome {
    /// Adds another run's figures.
    fn merge(&mut self, other: Outcome) {
        self.successes += other.successes;
        self.fallbacks += other.fallbacks;
        self.healthy_requests += other.healthy_requests;
        self.healthy_successes += other.healthy_successes;
        self.latencies.extend(other.latencies);
        self.calls += other.calls;
        self.recoveries.extend(other.recoveries);
    }
}

/// "median (worst)" over the runs; "never" counts as the worst.
fn recovery_summary(runs: &[Option<f64>]) -> String {
    if runs.is_empty() {
        return "–".into();
    }
    let mut seconds: Vec<f64> = runs.iter().map(|r| r.unwrap_or(f64::INFINITY)).collect();
    seconds.sort_by(f64::total_cmp);
    let show = |s: f64| {
        if s.is_finite() {
            format!("{s:.0}")
        } else {
            "never".into()
        }
    };
    format!(
        "{} ({})",
        show(seconds[seconds.len() / 2]),
        show(seconds[seconds.len() - 1])
    )
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("runtime");
    println!(
        "| scenario | strategy | success | success, ≥ 1 model healthy | fallback | p50 ms | p95 ms | p99 ms | calls/req | recovery s, median (worst) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for scenario in Scenario::ALL {
        for strategy in ["seed", "uniform", "thompson", "thompson+hedge", "oracle"] {
            let mut out = Outcome::default();
            for seed in 1..=SEEDS {
                out.merge(runtime.block_on(run(scenario, strategy, seed)));
            }
            out.latencies.sort_unstable();
            let requests = REQUESTS * SEEDS as usize;
            let recovery = recovery_summary(&out.recoveries);
            println!(
                "| {} | {} | {:.2} % | {:.2} % | {:.2} % | {} | {} | {} | {:.2} | {} |",
                scenario.name(),
                strategy,
                100.0 * out.successes as f64 / requests as f64,
                100.0 * out.healthy_successes as f64 / out.healthy_requests.max(1) as f64,
                100.0 * out.fallbacks as f64 / requests as f64,
                percentile(&out.latencies, 0.50),
                percentile(&out.latencies, 0.95),
                percentile(&out.latencies, 0.99),
                out.calls as f64 / requests as f64,
                recovery,
            );
        }
    }
}
