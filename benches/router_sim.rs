//! A deterministic simulation of the coach's routing: simulated clock (tokio's
//! paused time), seeded randomness, no sleeping, no network.
//!
//! Each run sends 10 000 requests, one every 500 ms of simulated time, to
//! the real `Coach` (failover, per-call timeouts, the 8 s deadline, breakers)
//! whose provider is a simulation of four models with different latency and
//! quality. Strategies: the original server's, uniform random, the learning strategy
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
//! Scenario 8 (learning per language, [`languages`]) runs apart, with the
//! default strategy only, with its records per language and with one per
//! model; so does scenario 9 (voting visitors, [`voting`]), with nobody
//! voting and with 30 % of the visitors voting.
//!
//! The default strategy's targets are checked in [`targets`]: the process
//! exits with status 1, naming each missed target, when one is missed.
//!
//! Run: `cargo bench --features ssr --bench router_sim` (prints the block of
//! Markdown tables that `docs/benchmarks/router.md` shows); add
//! `-- --write-docs` to put that block into that file between its
//! `router_sim` markers.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::Duration,
};

use coach::{
    budget::{ClientKey, UpstreamBudget},
    feedback::{FeedbackKey, Signer, Vote},
    input::CoachInput,
    registry::Registry,
    routing::{
        learning::score,
        stats::ModelStats,
        strategy::{SeedStrategy, Strategy, ThompsonStrategy},
    },
    Coach, Outcome as CallOutcome,
};
use rand::RngCore;
use tokio::time::Instant;
use vocabulary::Lang;

#[path = "router_sim/languages.rs"]
mod languages;
#[path = "router_sim/report.rs"]
mod report;
#[path = "router_sim/targets.rs"]
mod targets;
#[path = "router_sim/voting.rs"]
mod voting;
use report::{Outcome, Row};

const REQUESTS: usize = 10_000;
/// Runs per scenario and strategy, each with its own luck: 50 000 requests.
const SEEDS: u64 = 5;
const INTERVAL: Duration = Duration::from_millis(500);
const MODELS: [&str; 4] = ["a", "b", "c", "d"];

#[path = "router_sim/world.rs"]
mod world;

use world::{Scenario, SimProvider};

/// Every model equally likely, no breakers.
struct Uniform;

impl Strategy for Uniform {
    fn name(&self) -> &'static str {
        "uniform"
    }
    fn weight(
        &self,
        _: &str,
        _: &ModelStats,
        _: Lang,
        _: Instant,
        _: Duration,
        _: &mut dyn RngCore,
    ) -> f64 {
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
        lang: Lang,
        now: Instant,
        _: Duration,
        _: &mut dyn RngCore,
    ) -> f64 {
        let truth = self
            .scenario
            .truth(alias, now.duration_since(self.start).as_secs_f64());
        let writes = if self.scenario.writes(alias, lang) {
            1.0
        } else {
            0.0
        };
        let p = (1.0 - truth.p_error) * (1.0 - truth.p_bad) * writes;
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
        "thompson" | "thompson+hedge" | languages::PER_MODEL | voting::WITHOUT | voting::WITH => {
            Box::new(ThompsonStrategy)
        }
        _ => Box::new(Oracle { scenario, start }),
    });
    coach.set_per_language(strategy_name != languages::PER_MODEL);
    let voting = strategy_name == voting::WITH;
    if voting {
        coach.set_signer(Signer::new(FeedbackKey::random()));
    }

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
            lesson: lesson::lessons::Which::One,
            two: None,
            model: None,
            lang: scenario.lang(i),
        };
        let coach = coach.clone();
        pending.push(tokio::spawn(async move {
            let comment = coach.comment(input, ClientKey::default()).await;
            // Whether it helps its reader, and whether the reader votes.
            let key = world::stable_key(seed, &[&format!("reader {i}"), &comment.model]);
            let helped = comment.fallback || world::draw(key, 0) < scenario.helps(&comment.model);
            if let Some(id) = comment
                .id
                .as_deref()
                .filter(|_| world::draw(key, 1) < voting::VOTERS)
            {
                if let Ok(id) = coach.verify_vote(id) {
                    coach.vote(id, if helped { Vote::Up } else { Vote::Down });
                }
            }
            (t, helped, comment)
        }));
    }
    let mut out = Outcome {
        requests: REQUESTS,
        ..Outcome::default()
    };
    let mut firsts = Vec::with_capacity(REQUESTS);
    for handle in pending {
        let (t, helped, comment) = handle.await.expect("request task");
        out.unhelpful += usize::from(!helped);
        out.by_a += usize::from(!comment.fallback && comment.model == "a");
        if scenario.healthy_count(t) > 0 {
            out.healthy_requests += 1;
            out.healthy_successes += usize::from(!comment.fallback);
        }
        out.calls += comment.tried.len();
        out.wasted += comment
            .tried
            .iter()
            .filter(|t| !matches!(t.outcome, CallOutcome::Ok | CallOutcome::Cancelled))
            .count();
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
    let write_docs = std::env::args().any(|a| a == "--write-docs");
    if write_docs && std::env::var_os("SIM_HALF_LIFE_S").is_some() {
        eprintln!("--write-docs: the docs show the defaults; unset SIM_HALF_LIFE_S");
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
    let mut language_rows = Vec::new();
    for strategy in languages::STRATEGIES {
        let mut out = Outcome::default();
        for seed in 1..=SEEDS {
            out.merge(runtime.block_on(run(Scenario::Languages, strategy, seed)));
        }
        language_rows.push(Row::new(Scenario::Languages, strategy, out));
    }
    let mut voting_rows = Vec::new();
    for strategy in voting::STRATEGIES {
        let mut out = Outcome::default();
        for seed in 1..=SEEDS {
            out.merge(runtime.block_on(run(Scenario::Unhelpful, strategy, seed)));
        }
        voting_rows.push(Row::new(Scenario::Unhelpful, strategy, out));
    }
    let mut targets = targets::targets(&rows);
    targets.extend(languages::target(&language_rows));
    targets.extend(voting::target(&voting_rows));
    let block = report::block(&rows, &language_rows, &voting_rows, &targets);
    print!("{block}");
    if write_docs {
        let doc =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/benchmarks/router.md");
        if let Err(e) = report::write_docs(&doc, &block) {
            eprintln!("--write-docs: {e}");
            std::process::exit(2);
        }
        eprintln!("wrote the block into {}", doc.display());
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
