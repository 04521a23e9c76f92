//! The coach service: one path for `GET /error` and the page's server function.
//!
//! Holds the registry, the router and the provider; [`Coach::comment`] (in
//! [`failover`]) answers one request; [`Coach::report`] is `GET /models`.
//!
//! Locks: the registry and the router live under one mutex ([`Routing`]), so
//! a reload swaps them together and a request never sees one without the
//! other. It is held only for bookkeeping, never across a model call or an
//! `.await`, and never for the report's sampling. The routing generator
//! (`rng`), when needed too, is locked first.

use std::{
    ops::{Deref, DerefMut},
    path::PathBuf,
    sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError},
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
    router::{ModelStats, ModelView, Router, SeedStrategy},
    snapshot::{SaveOrder, Snapshot, SnapshotError},
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
    /// False when the model needs a key (`HF_TOKEN` for a Hugging Face host,
    /// or the variable its `token_env` names) and none is set.
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
struct CachedReport {
    made: Instant,
    generation: u64,
    report: Arc<Vec<ModelReport>>,
}

/// The registry and the router that follows it, swapped together on reload.
/// Derefs to the [`Router`].
pub struct Routing {
    registry: Arc<Registry>,
    router: Router,
}

impl Deref for Routing {
    type Target = Router;
    fn deref(&self) -> &Router {
        &self.router
    }
}

impl DerefMut for Routing {
    fn deref_mut(&mut self) -> &mut Router {
        &mut self.router
    }
}

pub struct Coach {
    routing: Mutex<Routing>,
    registry_path: Option<PathBuf>,
    provider: Arc<dyn Provider>,
    /// Model calls at once and per day, all visitors together.
    budget: UpstreamBudget,
    rng: Mutex<StdRng>,
    observer: OnceLock<Arc<dyn Observer>>,
    /// The latest report for the public routes.
    report_cache: Mutex<Option<CachedReport>>,
    /// Keeps an older capture from overwriting a newer snapshot file.
    saves: SaveOrder,
}

impl Coach {
    /// `seed` fixes the random choices (tests); `None` seeds from the OS.
    pub fn new(
        registry: Registry,
        registry_path: Option<PathBuf>,
        provider: Arc<dyn Provider>,
        seed: Option<u64>,
    ) -> Self {
        let mut routing = Routing {
            registry: Arc::new(registry),
            router: Router::new(Box::new(SeedStrategy)),
        };
        routing.follow_registry();
        let rng = seed.map_or_else(|| StdRng::from_rng(&mut rand::rng()), StdRng::seed_from_u64);
        Self {
            routing: Mutex::new(routing),
            registry_path,
            provider,
            budget: UpstreamBudget::default(),
            rng: Mutex::new(rng),
            observer: OnceLock::new(),
            report_cache: Mutex::new(None),
            saves: SaveOrder::default(),
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
        self.router().registry.clone()
    }

    /// The registry and the router, locked (see the module docs).
    fn router(&self) -> MutexGuard<'_, Routing> {
        self.routing.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The routing generator and the router, locked in that order: the one
    /// order every caller that needs both uses.
    fn rng_and_router(&self) -> (MutexGuard<'_, StdRng>, MutexGuard<'_, Routing>) {
        let rng = self.rng.lock().unwrap_or_else(PoisonError::into_inner);
        (rng, self.router())
    }

    /// Re-reads the registry file: new models start fresh, models that stay keep
    /// their statistics, removed ones are forgotten. A bad file changes nothing.
    /// The file is read on tokio's blocking pool (a slow disk or a FIFO never
    /// holds up a runtime thread); the new registry and the router synced to it
    /// are put in place under one lock. Requests already under way finish with
    /// the registry they started with.
    pub async fn reload(&self) -> Result<usize, RegistryError> {
        let Some(path) = self.registry_path.clone() else {
            return Ok(self.registry().models.len());
        };
        let shown = path.display().to_string();
        let next = tokio::task::spawn_blocking(move || Registry::load(&path))
            .await
            .map_err(|e| RegistryError::Read {
                path: shown,
                source: std::io::Error::other(e.to_string()),
            })??;
        let count = next.models.len();
        self.router().install(next);
        Ok(count)
    }

    /// Saves the router's statistics and breakers to `path` (atomically).
    pub fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        self.capture().write(path).map(|_| ())
    }

    /// The router's statistics and breakers as they stand now, numbered so
    /// that writing an older capture after a newer one changes nothing (a
    /// periodic save that finishes after the final one at shutdown).
    pub fn capture(&self) -> Capture<'_> {
        let routing = self.router();
        Capture {
            coach: self,
            number: self.saves.next(),
            snapshot: Snapshot::new(routing.save(Instant::now())),
        }
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
            registry = routing.registry.clone();
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
                    latency_ewma_ms: stats
                        .latency
                        .get(Instant::now(), super::router::LATENCY_TAU),
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

impl Routing {
    /// Puts `registry` in place, with the router synced to it.
    fn install(&mut self, registry: Registry) {
        self.registry = Arc::new(registry);
        self.follow_registry();
    }

    /// Syncs the router to the registry: strategy, hedging, and a record for
    /// each of its models (see [`Router::sync`]).
    fn follow_registry(&mut self) {
        let registry = self.registry.clone();
        self.router
            .set_strategy(registry.strategy(), registry.half_life);
        self.router.set_hedging(registry.hedging());
        self.router
            .sync(registry.models.iter().map(|m| m.alias.as_str()));
    }
}

/// The router's state captured by [`Coach::capture`], to write to disk.
pub struct Capture<'c> {
    coach: &'c Coach,
    number: u64,
    snapshot: Snapshot,
}

impl Capture<'_> {
    /// Writes the capture to `path` unless a newer one already was: `Ok(true)`
    /// when written, `Ok(false)` when skipped as stale.
    pub fn write(self, path: &std::path::Path) -> std::io::Result<bool> {
        self.coach
            .saves
            .write_if_newest(self.number, || self.snapshot.write(path))
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
            params: None,
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
        assert_eq!(coach.reload().await.unwrap(), 2);
        let report = coach.report();
        let aliases: Vec<&str> = report.iter().map(|m| m.alias.as_str()).collect();
        assert_eq!(aliases, vec!["keep", "new"]);
        assert_eq!((report[0].stats.total, report[1].stats.total), (1, 0));

        std::fs::write(&path, "not = [valid").unwrap();
        assert!(coach.reload().await.is_err());
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

    #[tokio::test]
    async fn an_older_capture_never_overwrites_a_newer_snapshot() {
        let dir = std::env::temp_dir().join(format!("jay-capture-{}", std::process::id()));
        let path = dir.join("router.json");
        let provider = Fake::default();
        provider.set("a", answers(1));
        let coach = Coach::new(registry(8000, &["a"]), None, Arc::new(provider), Some(1));
        coach.comment(input()).await;
        // A periodic save captures, then is slow to write...
        let periodic = coach.capture();
        for _ in 0..3 {
            coach.comment(input()).await;
        }
        // ...while the final save at shutdown captures and writes.
        assert!(coach.capture().write(&path).unwrap());
        assert!(
            !periodic.write(&path).unwrap(),
            "the older capture is skipped"
        );
        let saved = Snapshot::read(&path).unwrap().unwrap();
        assert_eq!(saved.models["a"].total, 4, "the final state is on disk");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Stalls inside `weight` on the thread named `report` until released.
    struct Stall(Arc<(Mutex<(bool, bool)>, std::sync::Condvar)>);

    impl Stall {
        /// Blocks until `pick` holds, then applies `then`.
        fn wait(&self, pick: fn(&(bool, bool)) -> bool) {
            let (lock, signal) = &*self.0;
            let mut state = lock.lock().unwrap_or_else(PoisonError::into_inner);
            while !pick(&state) {
                state = signal.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        }

        fn set(&self, update: fn(&mut (bool, bool))) {
            let (lock, signal) = &*self.0;
            update(&mut lock.lock().unwrap_or_else(PoisonError::into_inner));
            signal.notify_all();
        }
    }

    impl Drop for Stall {
        fn drop(&mut self) {
            self.set(|s| s.1 = true);
        }
    }

    impl super::super::router::Strategy for Stall {
        fn name(&self) -> &'static str {
            "stall"
        }

        fn weight(
            &self,
            _: &str,
            _: &ModelStats,
            _: Instant,
            _: Duration,
            _: &mut dyn rand::RngCore,
        ) -> f64 {
            if std::thread::current().name() == Some("report") {
                self.set(|s| s.0 = true);
                self.wait(|s| s.1);
            }
            1.0
        }

        fn is_sampled(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_report_being_made_does_not_hold_up_routing() {
        let provider = Fake::default();
        provider.set("a", answers(10));
        let coach = Arc::new(Coach::new(
            registry(8000, &["a"]),
            None,
            Arc::new(provider),
            Some(1),
        ));
        let gate = Arc::new((Mutex::new((false, false)), std::sync::Condvar::new()));
        coach.set_strategy(Box::new(Stall(gate.clone())));
        let control = Stall(gate);
        let reporter = {
            let coach = coach.clone();
            std::thread::Builder::new()
                .name("report".into())
                .spawn(move || coach.report().len())
                .unwrap()
        };
        // The report is now drawing its probabilities (and stays there).
        control.wait(|s| s.0);

        let (done, answered) = std::sync::mpsc::channel();
        let router_user = coach.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .start_paused(true)
                .build()
                .unwrap();
            let _ = done.send(runtime.block_on(router_user.comment(input())));
        });
        // A deadlock detector, not a speed limit: on a router locked for the
        // whole report, the request would wait for ever.
        let comment = answered
            .recv_timeout(Duration::from_secs(120))
            .expect("a request was routed while the report was being made");
        assert_eq!((comment.model.as_str(), comment.fallback), ("a", false));
        drop(control); // releases the report
        assert_eq!(reporter.join().unwrap(), 1);
    }

    #[test]
    fn a_reload_reads_the_file_off_the_runtime_threads() {
        let dir = std::env::temp_dir().join(format!("jay-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("models.toml");
        let _ = std::fs::remove_file(&path);
        // A FIFO: reading it blocks until someone writes (a slow disk, at worst).
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let coach = Arc::new(Coach::new(
            registry(8000, &["a"]),
            Some(path.clone()),
            Arc::new(Fake::default()),
            Some(1),
        ));
        let (done, reloaded) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // One runtime thread: a read on it would starve the writer task.
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let result = runtime.block_on(async move {
                let text = "[[models]]\nalias = \"b\"\nmodel = \"org/b\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n";
                let writer = tokio::spawn(tokio::fs::write(path, text));
                let count = coach.reload().await;
                let _ = writer.await;
                count.map(|n| (n, coach.report()[0].alias.clone()))
            });
            let _ = done.send(result.map_err(|e| e.to_string()));
        });
        // A deadlock detector, not a speed limit.
        let result = reloaded
            .recv_timeout(Duration::from_secs(120))
            .expect("the reload blocked the runtime thread");
        assert_eq!(result, Ok((1, "b".to_string())));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reloads_while_requests_are_under_way_keep_registry_and_router_together() {
        let dir = std::env::temp_dir().join(format!("jay-reload-live-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("models.toml");
        let file = |aliases: &[&str]| -> String {
            aliases
                .iter()
                .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"))
                .collect()
        };
        let (first, second) = (file(&["a", "b"]), file(&["b", "c"]));
        std::fs::write(&path, &first).unwrap();
        let provider = Fake::default();
        for alias in ["a", "b", "c"] {
            provider.set(alias, answers(20));
        }
        let coach = Arc::new(
            Coach::new(
                Registry::load(&path).unwrap(),
                Some(path.clone()),
                Arc::new(provider),
                Some(4),
            )
            .with_budget(UpstreamBudget::new(1000, 100_000)),
        );
        let mut requests = tokio::task::JoinSet::new();
        for round in 0..10 {
            for _ in 0..8 {
                let coach = coach.clone();
                requests.spawn(async move { coach.comment(input()).await });
            }
            let next = if round % 2 == 0 { &second } else { &first };
            std::fs::write(&path, next).unwrap();
            assert_eq!(coach.reload().await.unwrap(), 2);
        }
        let mut answered = 0;
        while let Some(comment) = requests.join_next().await {
            let comment = comment.expect("no request panicked");
            assert!(
                ["a", "b", "c"].contains(&comment.model.as_str()),
                "{comment:?}"
            );
            answered += 1;
        }
        assert_eq!(answered, 80);
        // The last reload put `first` back: the report, the registry and the
        // router agree, and a late answer from a removed model left no trace.
        let report = coach.report();
        let aliases: Vec<&str> = report.iter().map(|m| m.alias.as_str()).collect();
        assert_eq!(aliases, vec!["a", "b"]);
        let routing = coach.router();
        assert!(routing.stats("c").is_none() && routing.breaker("c").is_none());
        assert!(routing.stats("a").is_some() && routing.stats("b").is_some());
        drop(routing);
        std::fs::remove_dir_all(&dir).ok();
    }
}
