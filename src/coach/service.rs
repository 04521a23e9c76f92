//! The coach service: one path for `GET /error` and the page's server function.
//!
//! Holds the registry, the router and the provider; [`Coach::comment`] (in
//! [`failover`]) answers one request; [`Coach::report`] is `GET /models`.

use std::{
    path::PathBuf,
    sync::{Arc, Mutex, OnceLock, PoisonError, RwLock},
    time::Duration,
};

use rand::{rngs::StdRng, SeedableRng};
// Tokio's clock, so tests can pause and advance time.
use serde::Serialize;
use tokio::time::Instant;

use super::{
    breaker::BreakerReport,
    budget::UpstreamBudget,
    input::InputError,
    providers::Provider,
    registry::{Registry, RegistryError},
    router::{ModelStats, Router, SeedStrategy},
    snapshot::{Snapshot, SnapshotError},
};

mod failover;

/// Alias and provider name of the built-in commentator.
pub const OFFLINE: &str = "offline";

/// Told of every model call and every comment (the server's metrics).
pub trait Observer: Send + Sync {
    /// A model call finished (answered, failed or was rejected) in `latency`.
    fn call(&self, model: &str, latency: Duration);
    /// A comment is about to be returned.
    fn comment(&self, comment: &super::Comment);
}

/// A model as `GET /models` shows it (no secrets: the token is never here).
#[derive(Clone, Debug, Serialize)]
pub struct ModelReport {
    pub alias: String,
    pub model: String,
    pub api: &'static str,
    pub enabled: bool,
    /// False when the model needs `HF_TOKEN` and none is set.
    pub usable: bool,
    pub stats: ModelStats,
    pub probability: f64,
    pub mean_latency_ms: Option<f64>,
    pub last_error: Option<String>,
    /// Decayed success estimate (posterior mean of the learning strategy).
    pub success_estimate: Option<f64>,
    /// Peak-EWMA of response times, in ms.
    pub latency_ewma_ms: Option<f64>,
    /// Median and 95th percentile of the latest answers' times, in ms.
    pub p50_ms: Option<u64>,
    pub p95_ms: Option<u64>,
    /// The circuit breaker: state and seconds until an open one may close.
    pub breaker: Option<BreakerReport>,
}

pub struct Coach {
    registry: RwLock<Arc<Registry>>,
    registry_path: Option<PathBuf>,
    router: Mutex<Router>,
    provider: Arc<dyn Provider>,
    /// Model calls at once and per day, all visitors together.
    budget: UpstreamBudget,
    rng: Mutex<StdRng>,
    observer: OnceLock<Arc<dyn Observer>>,
}

impl Coach {
    /// `seed` fixes the random choices (tests); `None` seeds from the OS.
    pub fn new(
        registry: Registry,
        registry_path: Option<PathBuf>,
        provider: Arc<dyn Provider>,
        seed: Option<u64>,
    ) -> Self {
        let mut router = Router::new(Box::new(SeedStrategy));
        router.set_strategy(registry.strategy(), registry.half_life);
        router.set_hedging(registry.hedging());
        router.sync(registry.models.iter().map(|m| m.alias.as_str()));
        let rng = seed.map_or_else(|| StdRng::from_rng(&mut rand::rng()), StdRng::seed_from_u64);
        Self {
            registry: RwLock::new(Arc::new(registry)),
            registry_path,
            router: Mutex::new(router),
            provider,
            budget: UpstreamBudget::default(),
            rng: Mutex::new(rng),
            observer: OnceLock::new(),
        }
    }

    /// Replaces the default upstream limits (8 at once, 5000 a day).
    pub fn with_budget(mut self, budget: UpstreamBudget) -> Self {
        self.budget = budget;
        self
    }

    /// Reports calls and comments to `observer` from now on (set once).
    pub fn set_observer(&self, observer: Arc<dyn Observer>) {
        let _ = self.observer.set(observer);
    }

    fn observer(&self) -> Option<&Arc<dyn Observer>> {
        self.observer.get()
    }

    /// Model calls made so far this UTC day.
    pub fn upstream_calls_today(&self) -> u64 {
        self.budget.used_today()
    }

    fn registry(&self) -> Arc<Registry> {
        self.registry
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn router(&self) -> std::sync::MutexGuard<'_, Router> {
        self.router.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The routing generator and the router, locked in that order: the one
    /// order every caller that needs both uses.
    fn rng_and_router(
        &self,
    ) -> (
        std::sync::MutexGuard<'_, StdRng>,
        std::sync::MutexGuard<'_, Router>,
    ) {
        let rng = self.rng.lock().unwrap_or_else(PoisonError::into_inner);
        (rng, self.router())
    }

    /// Re-reads the registry file: new models start fresh, models that stay keep
    /// their statistics, removed ones are forgotten. A bad file changes nothing.
    pub fn reload(&self) -> Result<usize, RegistryError> {
        let Some(path) = &self.registry_path else {
            return Ok(self.registry().models.len());
        };
        let next = Registry::load(path)?;
        let count = next.models.len();
        {
            let mut router = self.router();
            router.set_strategy(next.strategy(), next.half_life);
            router.set_hedging(next.hedging());
            router.sync(next.models.iter().map(|m| m.alias.as_str()));
        }
        *self
            .registry
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Arc::new(next);
        Ok(count)
    }

    /// Saves the router's statistics and breakers to `path` (atomically).
    pub fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        let models = self.router().save(Instant::now());
        Snapshot::new(models).write(path)
    }

    /// Reads back what [`Coach::save`] wrote: the number of models restored.
    /// No file yet is `Ok(0)`; a bad file is an error and changes nothing.
    pub fn restore(&self, path: &std::path::Path) -> Result<usize, SnapshotError> {
        let Some(snapshot) = Snapshot::read(path)? else {
            return Ok(0);
        };
        Ok(self
            .router()
            .restore(&snapshot.models, snapshot.age(), Instant::now()))
    }

    /// Replaces the routing strategy, keeping the statistics (the simulation
    /// benchmark uses it for its baselines).
    pub fn set_strategy(&self, strategy: Box<dyn super::router::Strategy>) {
        let half_life = self.registry().half_life;
        self.router().set_strategy(strategy, half_life);
    }

    /// Checks a forced model's alias against the registry.
    pub fn check_model(&self, alias: Option<&str>) -> Result<(), InputError> {
        match alias {
            Some(a) if a != OFFLINE && self.registry().get(a).is_none() => Err(InputError {
                field: "model".into(),
                message: "unknown model alias (see GET /models)".into(),
            }),
            _ => Ok(()),
        }
    }

    /// Aliases of the models the router may draw: enabled and callable.
    fn candidates<'r>(&self, registry: &'r Registry) -> Vec<&'r str> {
        registry
            .models
            .iter()
            .filter(|m| m.enabled && self.provider.usable(m))
            .map(|m| m.alias.as_str())
            .collect()
    }

    /// Every model's statistics and current selection probability.
    pub fn report(&self) -> Vec<ModelReport> {
        let registry = self.registry();
        let candidates = self.candidates(&registry);
        let router = self.router();
        // A fresh generator: the seeded one belongs to routing (and locking it
        // here, after the router, would invert `order`'s lock order).
        // Probability of being asked first now: a model whose breaker keeps it
        // out has none.
        let admissible = router.admissible(&candidates, Instant::now());
        let drawn = router.probabilities(&admissible, &mut rand::rng());
        registry
            .models
            .iter()
            .map(|m| {
                let stats = router.stats(&m.alias).cloned().unwrap_or_default();
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
                    success_estimate: router.success_estimate(&m.alias),
                    latency_ewma_ms: stats
                        .latency
                        .get(Instant::now(), super::router::LATENCY_TAU),
                    p50_ms: stats.window.quantile(0.5).map(millis),
                    p95_ms: stats.window.quantile(0.95).map(millis),
                    breaker: router.breaker(&m.alias).map(|b| b.report(Instant::now())),
                    stats,
                    probability,
                }
            })
            .collect()
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::{
        fake::{answers, fails, Behaviour, Fake},
        input::CoachInput,
        Lang,
    };

    fn registry(deadline_ms: u64, aliases: &[&str]) -> Registry {
        let models: String = aliases
            .iter()
            .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\ntimeout_ms = 5000\n"))
            .collect();
        Registry::parse(&format!("deadline_ms = {deadline_ms}\n{models}")).unwrap()
    }

    fn input() -> CoachInput {
        CoachInput {
            error: 812.0,
            attempts: vec![900.0],
            model: None,
            lang: Lang::En,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn the_deadline_bounds_the_whole_request_then_offline_answers() {
        let provider = Fake::default();
        let hang = Behaviour {
            delay: Duration::from_secs(30),
            ..fails()
        };
        provider.set("a", hang);
        provider.set("b", hang);
        let coach = Coach::new(
            registry(8000, &["a", "b"]),
            None,
            Arc::new(provider),
            Some(1),
        );
        let comment = coach.comment(input()).await;
        // First model: its own 5 s timeout; second: the 3 s left of the 8 s deadline.
        assert_eq!(comment.latency_ms, 8000);
        assert_eq!(
            comment
                .tried
                .iter()
                .map(|t| t.latency_ms)
                .collect::<Vec<_>>(),
            vec![5000, 3000]
        );
        assert!(comment.tried.iter().all(|t| t.outcome == "timeout"));
        assert!(comment.fallback);
    }

    #[tokio::test(start_paused = true)]
    async fn slow_and_fast_answers_nudge_the_stats_as_the_seed_did() {
        let provider = Fake::default();
        provider.set("slow", answers(3000));
        let coach = Coach::new(registry(8000, &["slow"]), None, Arc::new(provider), Some(1));
        let comment = coach.comment(input()).await;
        assert_eq!(
            (comment.comment.as_str(), comment.latency_ms),
            ("Nice one.", 3000)
        );
        let report = coach.report();
        assert!(
            (report[0].stats.errors - 0.2).abs() < 1e-12,
            "slower than 2.5 s: +0.2"
        );
        assert_eq!(report[0].mean_latency_ms, Some(3000.0));
    }

    #[tokio::test]
    async fn reload_adds_and_removes_models_and_keeps_stats_of_those_that_stay() {
        let dir = std::env::temp_dir().join(format!("jay-reload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("models.toml");
        let write = |aliases: &[&str]| {
            let text: String = aliases
                .iter()
                .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"))
                .collect();
            std::fs::write(&path, text).unwrap();
        };
        write(&["keep", "drop"]);
        let provider = Fake::default();
        provider.set("keep", fails());
        provider.set("drop", fails());
        let coach = Coach::new(
            Registry::load(&path).unwrap(),
            Some(path.clone()),
            Arc::new(provider),
            Some(3),
        );
        coach.comment(input()).await; // both fail once

        write(&["keep", "new"]);
        assert_eq!(coach.reload().unwrap(), 2);
        let report = coach.report();
        let aliases: Vec<&str> = report.iter().map(|m| m.alias.as_str()).collect();
        assert_eq!(aliases, vec!["keep", "new"]);
        assert_eq!((report[0].stats.total, report[1].stats.total), (1, 0));

        std::fs::write(&path, "not = [valid").unwrap();
        assert!(coach.reload().is_err());
        assert_eq!(coach.report().len(), 2, "a bad file changes nothing");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[tokio::test]
    async fn what_was_learned_survives_a_save_and_a_restore() {
        let dir = std::env::temp_dir().join(format!("jay-save-{}", std::process::id()));
        let path = dir.join("router.json");
        let provider = Arc::new(Fake::default());
        provider.set("a", fails());
        provider.set("b", answers(50));
        let registry = || registry(8000, &["a", "b"]);
        let first = Coach::new(registry(), None, provider.clone(), Some(1));
        for _ in 0..50 {
            first.comment(input()).await;
            if first.report()[0].breaker.as_ref().unwrap().state == "open" {
                break;
            }
        }
        let before = first.report();
        assert_eq!(before[0].breaker.as_ref().unwrap().state, "open");
        first.save(&path).unwrap();

        let second = Coach::new(registry(), None, provider, Some(2));
        assert_eq!(second.restore(&path).unwrap(), 2);
        let after = second.report();
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(
                (a.stats.total, a.stats.successes),
                (b.stats.total, b.stats.successes)
            );
            assert_eq!(a.stats.outcomes, b.stats.outcomes);
            assert_eq!(a.p95_ms, b.p95_ms);
            let (eb, ea) = (b.success_estimate.unwrap(), a.success_estimate.unwrap());
            assert!((eb - ea).abs() < 0.01, "{eb} vs {ea}");
        }
        assert_eq!(
            after[0].breaker.as_ref().unwrap().state,
            "open",
            "still cooling down"
        );

        std::fs::write(&path, "{\"version\": 1, \"trunc").unwrap();
        assert!(second.restore(&path).is_err());
        assert_eq!(
            second.report()[1].stats.total,
            after[1].stats.total,
            "a bad file changes nothing"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
