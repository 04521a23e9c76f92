//! The coach service: one path for `GET /error` and `POST /api/comment`.
//!
//! Holds the registry, the router and the provider. One request
//! ([`Coach::comment`], in `comment`) is a [`request::Request`]: its
//! [`plan::Plan`] (the router's order, the next model), each
//! [`call::Call`] (one model, within its timeout) and, when it ends, its
//! `settle` (the reply checks, the outcome learned), and the offline
//! commentator when no model answered. `votes` signs every comment's id
//! and learns the visitors' votes on them. `report` is `GET /models`,
//! `checks` the availability checks. Saving the router's state is
//! `coach::snapshot`'s file and `routing::snapshot`'s numbers.
//!
//! Locks: the registry is an [`ArcSwap`], read without a lock and swapped
//! whole on reload. The router sits under one mutex, held only for
//! bookkeeping, never across a model call or an `.await`, and never for the
//! report's sampling; a reload syncs it and swaps the registry under that
//! lock. The routing generator (`rng`), when needed too, is locked first.
//!
//! Knows the coach's parts; never imports the web layer (`jay_trainer::server`).

use std::{
    path::PathBuf,
    sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError},
    time::Duration,
};

use arc_swap::ArcSwap;
use rand::{rngs::StdRng, RngCore, SeedableRng};
// Tokio's clock, so tests can pause and advance time.
use tokio::time::Instant;
use vocabulary::{FieldError, Lang};

use super::{
    availability::Catalog,
    budget::UpstreamBudget,
    providers::Provider,
    registry::{Registry, RegistryError},
    response::Comment,
    routing::{strategy, Router},
    snapshot::{SaveOrder, Snapshot, SnapshotError},
};
use report::CachedReport;

mod call;
mod checks;
mod comment;
mod plan;
mod report;
mod request;
mod running;
pub mod saver;
mod settle;
mod votes;

pub use report::{ModelReport, REPORT_TTL};
pub use votes::Voted;

/// Mixed into a fixed seed for the examples' generator (any odd constant).
const EXAMPLES_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// Alias and provider name of the built-in commentator.
pub const OFFLINE: &str = "offline";

/// Told of every model call and every comment (the server's metrics).
pub trait Observer: Send + Sync {
    /// A model call finished (answered, failed or was rejected) in `latency`.
    fn call(&self, model: &str, latency: Duration);
    /// A comment is about to be returned.
    fn comment(&self, comment: &Comment);
}

pub struct Coach {
    /// The models, swapped whole on reload (requests under way keep theirs).
    registry: ArcSwap<Registry>,
    /// Statistics and breakers; held only for bookkeeping (module docs).
    router: Mutex<Router>,
    registry_path: Option<PathBuf>,
    provider: Arc<dyn Provider>,
    /// Model calls at once and per day, all visitors together, and each
    /// client's share of the day.
    budget: UpstreamBudget,
    rng: Mutex<StdRng>,
    /// Which examples each prompt shows (`prompt::build_drawn`): a generator
    /// of its own, so the routing's draws stay as they were.
    examples: Mutex<StdRng>,
    observer: OnceLock<Arc<dyn Observer>>,
    /// The latest report for the public routes.
    report_cache: Mutex<Option<CachedReport>>,
    /// Keeps an older capture from overwriting a newer snapshot file.
    saves: SaveOrder,
    /// What the availability checks found (`checks`); read by every request.
    catalog: Mutex<Catalog>,
    /// Wakes the checks early (a reload).
    recheck: tokio::sync::Notify,
    /// Comment ids' signer and the votes in effect (`votes`).
    feedback: votes::Feedback,
}

impl Coach {
    /// `seed` fixes the random choices (tests); `None` seeds from the OS.
    pub fn new(
        registry: Registry,
        registry_path: Option<PathBuf>,
        provider: Arc<dyn Provider>,
        seed: Option<u64>,
    ) -> Self {
        let mut router = Router::new(strategy::for_kind(registry.strategy));
        follow(&mut router, &registry);
        let rng = seed.map_or_else(|| StdRng::from_rng(&mut rand::rng()), StdRng::seed_from_u64);
        let examples = seed.map_or_else(
            || StdRng::from_rng(&mut rand::rng()),
            |seed| StdRng::seed_from_u64(seed ^ EXAMPLES_SEED),
        );
        Self {
            registry: ArcSwap::from_pointee(registry),
            router: Mutex::new(router),
            registry_path,
            provider,
            budget: UpstreamBudget::default(),
            rng: Mutex::new(rng),
            examples: Mutex::new(examples),
            observer: OnceLock::new(),
            report_cache: Mutex::new(None),
            saves: SaveOrder::default(),
            catalog: Mutex::new(Catalog::default()),
            recheck: tokio::sync::Notify::new(),
            feedback: votes::Feedback::default(),
        }
    }

    /// Replaces the default upstream limits (8 at once, 5000 a day, 100 per
    /// client).
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

    /// The registry as it stands (no lock: a reload swaps it whole).
    fn registry(&self) -> Arc<Registry> {
        self.registry.load_full()
    }

    /// A random number for the next prompt's choice of examples.
    fn examples_draw(&self) -> u64 {
        self.examples
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next_u64()
    }

    /// What the availability checks found, locked (briefly: never across
    /// an `.await`).
    fn catalog(&self) -> MutexGuard<'_, Catalog> {
        self.catalog.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The router, locked (see the module docs).
    fn router(&self) -> MutexGuard<'_, Router> {
        self.router.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The routing generator and the router, locked in that order: the one
    /// order every caller that needs both uses.
    fn rng_and_router(&self) -> (MutexGuard<'_, StdRng>, MutexGuard<'_, Router>) {
        let rng = self.rng.lock().unwrap_or_else(PoisonError::into_inner);
        (rng, self.router())
    }

    /// Re-reads the registry file: new models start fresh, models that stay keep
    /// their statistics, removed ones are forgotten. A bad file changes nothing.
    /// The file is read on tokio's blocking pool (a slow disk or a FIFO never
    /// holds up a runtime thread); the new registry is put in place and the
    /// router synced to it under the router's lock, so no call is recorded
    /// against a router that does not know its model. Requests already under
    /// way finish with the registry they started with.
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
        let mut router = self.router();
        follow(&mut router, &next);
        {
            // Every model is checked again, at once, in the background.
            let mut catalog = self.catalog();
            catalog.retain(|alias| next.get(alias).is_some());
            catalog.all_due(Instant::now());
        }
        self.registry.store(Arc::new(next));
        drop(router);
        self.recheck.notify_one();
        Ok(count)
    }

    /// Saves the router's statistics and breakers, and the day's count of
    /// model calls, to `path` (atomically).
    pub fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        self.capture().write(path).map(|_| ())
    }

    /// The router's statistics and breakers (and the day's count) as they
    /// stand now, numbered so that writing an older capture after a newer one
    /// changes nothing (a periodic save that finishes after the final one at
    /// shutdown).
    pub fn capture(&self) -> Capture<'_> {
        let router = self.router();
        Capture {
            coach: self,
            number: self.saves.next(),
            snapshot: Snapshot {
                upstream_today: Some(self.budget.save()),
                ..Snapshot::new(router.save(Instant::now()))
            },
        }
    }

    /// Reads back what [`Coach::save`] wrote: the number of models restored.
    /// The day's count is carried on only if it was saved today (UTC).
    /// No file yet is `Ok(0)`; a bad file is an error and changes nothing.
    pub fn restore(&self, path: &std::path::Path) -> Result<usize, SnapshotError> {
        let Some(snapshot) = Snapshot::read(path)? else {
            return Ok(0);
        };
        if let Some(day) = snapshot.upstream_today {
            self.budget.restore(day);
        }
        Ok(self
            .router()
            .restore(&snapshot.models, snapshot.age(), Instant::now()))
    }

    /// Replaces the routing strategy, keeping the statistics (the router
    /// simulation's baselines, and tests).
    #[cfg(any(test, feature = "baselines"))]
    pub fn set_strategy(&self, strategy: Box<dyn strategy::Strategy>) {
        let half_life = self.registry().half_life;
        self.router().set_strategy(strategy, half_life);
    }

    /// `false`: one learned record and one quality breaker per model, whatever
    /// the request's language (the router simulation's baseline; see
    /// `Router::set_per_language`).
    #[cfg(any(test, feature = "baselines"))]
    pub fn set_per_language(&self, per_language: bool) {
        self.router().set_per_language(per_language);
    }

    /// Checks a forced model's alias against the registry.
    pub fn check_model(&self, alias: Option<&str>) -> Result<(), FieldError> {
        match alias {
            Some(a) if a != OFFLINE && self.registry().get(a).is_none() => Err(FieldError::new(
                "model",
                "unknown model alias (see GET /models)",
            )),
            _ => Ok(()),
        }
    }

    /// Aliases of the models the router may draw in `lang`: enabled,
    /// callable, served (as far as the checks know) and asked to answer in it.
    fn candidates<'r>(&self, registry: &'r Registry, lang: Lang) -> Vec<&'r str> {
        let catalog = self.catalog();
        registry
            .models
            .iter()
            .filter(|m| m.enabled && catalog.asks(m, lang) && self.provider.usable(m))
            .map(|m| m.alias.as_str())
            .collect()
    }
}

/// Syncs the router to `registry`: strategy, hedging, and a record (and the
/// account, see `model::Account`) for each of its models (see [`Router::sync`]).
fn follow(router: &mut Router, registry: &Registry) {
    router.set_strategy(strategy::for_kind(registry.strategy), registry.half_life);
    router.set_hedging(registry.hedging());
    router.sync(
        registry
            .models
            .iter()
            .map(|m| (m.alias.as_str(), m.account())),
    );
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
mod budget_tests;
#[cfg(test)]
mod examples_tests;
#[cfg(test)]
mod failover_tests;
#[cfg(test)]
mod lang_tests;
#[cfg(test)]
mod queue_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod vote_tests;
