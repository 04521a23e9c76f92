//! `GET /models` and `/metrics`: every model's record, breaker and chance of
//! being asked first, made outside the router's lock and cached for a second.
//! Reads the router; changes nothing.

use std::{
    sync::{Arc, PoisonError},
    time::Duration,
};

use serde::Serialize;
use tokio::time::Instant;

use super::{millis, Coach};
use crate::coach::{
    outcome::Outcome,
    routing::{breaker::BreakerReport, learning::LATENCY_TAU, stats::ModelStats, ModelView},
};

/// A model as `GET /models` shows it (no secrets: the token is never here).
#[derive(Clone, Debug, Serialize)]
pub struct ModelReport {
    pub alias: String,
    pub model: String,
    pub api: &'static str,
    pub enabled: bool,
    /// False when the model needs a key (`HF_TOKEN` for a Hugging Face host,
    /// or the variable its `token_env` names) and none is set.
    pub usable: bool,
    pub stats: ModelStats,
    pub probability: f64,
    pub mean_latency_ms: Option<f64>,
    pub last_error: Option<Outcome>,
    /// Decayed success estimate (posterior mean of the learning strategy).
    pub success_estimate: Option<f64>,
    /// Peak-EWMA of response times, in ms.
    pub latency_ewma_ms: Option<f64>,
    /// Median and 95th percentile of the latest answers' times, in ms.
    pub p50_ms: Option<u64>,
    pub p95_ms: Option<u64>,
    /// The circuit breaker: state and seconds until an open one may close.
    pub breaker: Option<BreakerReport>,
    /// The seed's names, kept for its callers: `erros` is `stats.errors` and
    /// `parcela` the selection share (`probability`), as the seed's
    /// `UpdateProbs` set it.
    pub erros: f64,
    pub parcela: f64,
}

/// How long a `GET /models` (and `/metrics`) report is reused: these routes
/// are public, and a loop of requests must cost at most one report a second.
pub const REPORT_TTL: Duration = Duration::from_secs(1);

/// A report, when it was made, and the router's generation it saw.
pub(super) struct CachedReport {
    made: Instant,
    generation: u64,
    report: Arc<Vec<ModelReport>>,
}

impl Coach {
    /// The report for the public routes (`GET /models`, `/metrics`): reused
    /// for up to [`REPORT_TTL`] while nothing was learned since (the router's
    /// generation is unchanged), so a loop of requests costs at most one
    /// report per second or per finished call, and a caller never sees a
    /// report older than its own last request. Callers arriving while one is
    /// being made wait for it rather than make their own.
    pub fn cached_report(&self) -> Arc<Vec<ModelReport>> {
        let mut cache = self
            .report_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let generation = self.router().generation();
        if let Some(cached) = cache.as_ref() {
            if cached.generation == generation && cached.made.elapsed() < REPORT_TTL {
                return cached.report.clone();
            }
        }
        let (generation, report) = self.report_at();
        let report = Arc::new(report);
        *cache = Some(CachedReport {
            made: Instant::now(),
            generation,
            report: report.clone(),
        });
        report
    }

    /// Every model's statistics and current selection probability, made now.
    /// The router's lock is held only to copy what the report needs; the
    /// probabilities (1000 draws per model for a sampling strategy) are drawn
    /// after it is released, so reports never hold up routing.
    pub fn report(&self) -> Vec<ModelReport> {
        self.report_at().1
    }

    /// The report, with the router's generation it was copied at.
    fn report_at(&self) -> (u64, Vec<ModelReport>) {
        let registry;
        let (generation, admissible, standing, views) = {
            let routing = self.router();
            // Read under the router's lock: a reload syncs both under it.
            registry = self.registry();
            let now = Instant::now();
            // Probability of being asked first now: a model whose breaker
            // keeps it out has none.
            let candidates = self.candidates(&registry);
            let admissible = routing.admissible(&candidates, now);
            let standing = routing.standing(&admissible, now);
            let views: Vec<ModelView> = registry
                .models
                .iter()
                .map(|m| routing.view(&m.alias, now))
                .collect();
            (routing.generation(), admissible, standing, views)
        };
        // A fresh generator: the seeded one belongs to routing.
        let drawn = standing.probabilities(&mut rand::rng());
        let report = registry
            .models
            .iter()
            .zip(views)
            .map(|(m, view)| {
                let stats = view.stats;
                let probability = admissible
                    .iter()
                    .position(|c| *c == m.alias)
                    .map_or(0.0, |i| drawn[i]);
                ModelReport {
                    alias: m.alias.clone(),
                    model: m.model.clone(),
                    api: m.api.name(),
                    enabled: m.enabled,
                    usable: self.provider.usable(m),
                    mean_latency_ms: stats.mean_latency_ms(),
                    last_error: stats.last_error.clone(),
                    success_estimate: Some(view.success_estimate),
                    latency_ewma_ms: stats.latency.get(Instant::now(), LATENCY_TAU),
                    p50_ms: stats.window.quantile(0.5).map(millis),
                    p95_ms: stats.window.quantile(0.95).map(millis),
                    breaker: view.breaker,
                    erros: stats.errors,
                    parcela: probability,
                    stats,
                    probability,
                }
            })
            .collect();
        (generation, report)
    }
}
