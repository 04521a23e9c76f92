//! Which model answers: the [`Router`] keeps a record ([`stats`]) and a circuit
//! breaker ([`breaker`]) per model, the learned record and a quality breaker
//! per model and language ([`by_lang`]), and each model's queue of calls
//! under way ([`queue`]); its [`strategy`] turns them into a weighted random
//! order for each request, in the request's language.
//!
//! Everything a finished call teaches goes through one method,
//! [`Router::record_outcome`], called under the service's one lock: the
//! statistics, the learned record ([`learning`]) and the breakers change
//! together. [`admission`] says which models a call may go to now (the
//! breakers), [`hedge`] decides when a slow call gets a second model, and
//! [`state`] is what is saved across restarts.
//!
//! Reads the registry's names only (`StrategyKind`, each model's [`Account`]);
//! never calls a model and
//! never touches a file: providers and the snapshot are the service's to use.

use std::{collections::HashMap, sync::Arc, time::Duration};

use rand::{Rng, RngCore};
use tokio::time::Instant;

use crate::{model::Account, outcome::Outcome};
use admission::failure;
pub use admission::Tickets;
use breaker::{Breaker, BreakerConfig, BreakerReport, Ticket};
use by_lang::PerLang;
use hedge::HedgeBudget;
use queue::Queue;
use stats::ModelStats;
use strategy::{pick, weigh, Standing, Strategy};
use vocabulary::Lang;

pub mod admission;
pub mod breaker;
pub mod by_lang;
pub mod hedge;
pub mod learning;
pub mod queue;
pub mod snapshot;
pub mod stats;
pub mod strategy;

#[cfg(test)]
mod account_tests;
#[cfg(test)]
mod lang_tests;
#[cfg(test)]
mod tests;

/// Half-life of the learning strategy's counts (configurable: `half_life_s`).
pub const DEFAULT_HALF_LIFE: Duration = Duration::from_secs(60);

/// One model as `GET /models` shows the router's side of it, copied out
/// under the lock (see [`Router::view`]).
#[derive(Clone, Debug)]
pub struct ModelView {
    pub stats: ModelStats,
    /// All languages together.
    pub success_estimate: f64,
    /// The breaker for outages; its `consecutive_rejections` is the most of
    /// any language's.
    pub breaker: Option<BreakerReport>,
    /// Each language's success estimate and quality breaker.
    pub by_lang: PerLang<LangView>,
    /// Calls under way now.
    pub in_flight: u32,
}

/// One language of a [`ModelView`].
#[derive(Clone, Debug)]
pub struct LangView {
    pub success_estimate: f64,
    pub breaker: Option<BreakerReport>,
}

/// Statistics and circuit breakers for every model, and the strategy that
/// weighs them.
pub struct Router {
    stats: HashMap<String, ModelStats>,
    /// Outages: one breaker per model.
    breakers: HashMap<String, Breaker>,
    /// Unusable answers: one breaker per model and language.
    quality: HashMap<String, PerLang<Breaker>>,
    /// Each model's calls under way.
    queues: HashMap<String, Queue>,
    /// Whose credits each model spends (a 402 stops its account's models).
    accounts: HashMap<String, Account>,
    breaker_config: BreakerConfig,
    strategy: Arc<dyn Strategy>,
    half_life: Duration,
    hedges: Option<HedgeBudget>,
    /// Records and quality breakers per language (the default), or one per
    /// model (see [`Router::set_per_language`]).
    per_language: bool,
    /// Bumped whenever a record or a breaker changes (see [`Router::generation`]).
    generation: u64,
}

impl Router {
    pub fn new(strategy: Box<dyn Strategy>) -> Self {
        Self {
            stats: HashMap::new(),
            breakers: HashMap::new(),
            quality: HashMap::new(),
            queues: HashMap::new(),
            accounts: HashMap::new(),
            breaker_config: BreakerConfig::default(),
            strategy: Arc::from(strategy),
            half_life: DEFAULT_HALF_LIFE,
            hedges: None,
            per_language: true,
            generation: 0,
        }
    }

    /// A number that changes whenever a model's record, breaker or queue
    /// does (a call started or finished, a probe claimed or handed back, a
    /// reload or a restore): a report made at the same generation is still
    /// true, but for the passing of time.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    fn changed(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Something a report shows changed outside the router (a model's
    /// availability check): reports made before are stale.
    pub fn touch(&mut self) {
        self.changed();
    }

    /// Swaps the strategy (on reload); statistics are kept.
    pub fn set_strategy(&mut self, strategy: Box<dyn Strategy>, half_life: Duration) {
        self.changed();
        self.strategy = Arc::from(strategy);
        self.half_life = half_life;
    }

    pub fn strategy_name(&self) -> &'static str {
        self.strategy.name()
    }

    /// `false`: one learned record and one quality breaker per model, whatever
    /// the request's language (the router simulation's baseline); all
    /// languages are then kept as English. Set before the first call.
    #[cfg(any(test, feature = "baselines"))]
    pub fn set_per_language(&mut self, per_language: bool) {
        self.changed();
        self.per_language = per_language;
    }

    /// The language whose record a request in `lang` uses.
    fn context(&self, lang: Lang) -> Lang {
        if self.per_language {
            lang
        } else {
            Lang::En
        }
    }

    /// Keeps the statistics, breakers and queues of `models` (each alias with
    /// its account), starts new ones, forgets the rest. A reload is the fix
    /// for a misconfigured model: its breaker starts closed again.
    pub fn sync<'a>(&mut self, models: impl IntoIterator<Item = (&'a str, Account)>) {
        self.changed();
        let mut stats = HashMap::new();
        let mut breakers = HashMap::new();
        let mut quality = HashMap::new();
        let mut queues = HashMap::new();
        self.accounts.clear();
        for (alias, account) in models {
            self.accounts.insert(alias.to_string(), account);
            stats.insert(
                alias.to_string(),
                self.stats.remove(alias).unwrap_or_default(),
            );
            let breaker = self
                .breakers
                .remove(alias)
                .filter(|b| !b.is_resting())
                .unwrap_or_else(|| Breaker::new(self.breaker_config));
            breakers.insert(alias.to_string(), breaker);
            let config = self.breaker_config;
            quality.insert(
                alias.to_string(),
                self.quality
                    .remove(alias)
                    .unwrap_or_else(|| PerLang::from_fn(|_| Breaker::new(config))),
            );
            queues.insert(
                alias.to_string(),
                self.queues.remove(alias).unwrap_or_default(),
            );
        }
        self.stats = stats;
        self.breakers = breakers;
        self.quality = quality;
        self.queues = queues;
        self.refresh_shares();
    }

    /// Learns one finished call for a request in `lang`: the statistics, the
    /// learned record and the breakers, in one go (one lock for the caller).
    /// `wait` is the upstream's own estimate of when to try again
    /// (`Retry-After`, `RateLimit`'s `t=`); `tickets` are the
    /// ones [`Router::try_acquire`] gave the call. An answer tells the
    /// model's breaker that it is up, and the language's quality breaker
    /// whether it was any good; a failed call tells the model's breaker
    /// only. Spent credits (402) and a refused key (401) also rest the
    /// models on the same [`Account`] (the same key to the same host), and
    /// no other. A
    /// timeout behind our own queue ([`Outcome::QueueTimeout`]) tells no
    /// breaker anything.
    #[allow(clippy::too_many_arguments)]
    pub fn record_outcome(
        &mut self,
        alias: &str,
        lang: Lang,
        latency: Duration,
        outcome: &Outcome,
        wait: Option<Duration>,
        tickets: Tickets,
        now: Instant,
    ) {
        self.changed();
        let lang = self.context(lang);
        self.learn(
            alias,
            lang,
            latency,
            outcome,
            tickets.model == Ticket::Probe,
        );
        if let Some(q) = self.quality.get_mut(alias).map(|q| &mut q[lang]) {
            match outcome {
                Outcome::Ok => q.on_success(tickets.quality),
                Outcome::Rejected(_) => q.on_rejected(tickets.quality, now),
                // No answer: nothing learned of its quality; a probe of it
                // goes back for the next call.
                _ if tickets.quality == Ticket::Probe => q.release_probe(),
                _ => {}
            }
        }
        let Some(b) = self.breakers.get_mut(alias) else {
            return;
        };
        match outcome {
            Outcome::Ok => b.on_success(tickets.model),
            Outcome::Rejected(_) => b.on_answered(tickets.model),
            Outcome::QueueTimeout => {
                if tickets.model == Ticket::Probe {
                    b.release_probe();
                }
            }
            // The whole account stops: its credits are spent, or its key refused.
            Outcome::Credits | Outcome::Unauthorized => {
                let why = failure(outcome, wait);
                let first = !b.is_resting();
                b.on_failure(why, now, tickets.model);
                let first = first && b.is_resting();
                self.stop_account(alias, why, first, now);
            }
            other => b.on_failure(failure(other, wait), now, tickets.model),
        }
    }

    pub fn stats(&self, alias: &str) -> Option<&ModelStats> {
        self.stats.get(alias)
    }

    /// Probability of each of `candidates` (in their order) being tried first
    /// for a request in `lang` (see [`Standing::probabilities`]).
    pub fn probabilities(
        &self,
        candidates: &[&str],
        lang: Lang,
        rng: &mut dyn RngCore,
    ) -> Vec<f64> {
        self.standing(candidates, lang, Instant::now())
            .probabilities(rng)
    }

    /// A copy of what the strategy needs to weigh `candidates` for a request
    /// in `lang`, to sample from after the lock is released.
    pub fn standing(&self, candidates: &[&str], lang: Lang, now: Instant) -> Standing {
        Standing {
            strategy: self.strategy.clone(),
            half_life: self.half_life,
            now,
            lang: self.context(lang),
            models: candidates
                .iter()
                .map(|a| {
                    (
                        a.to_string(),
                        self.stats.get(*a).cloned().unwrap_or_default(),
                    )
                })
                .collect(),
        }
    }

    /// A copy of one model's record, estimates, breakers and queue, for
    /// `GET /models`.
    pub fn view(&self, alias: &str, now: Instant) -> ModelView {
        let stats = self.stats.get(alias).cloned().unwrap_or_default();
        let (s, f) = by_lang::total(&stats.by_lang, now, self.half_life);
        let quality = self
            .quality
            .get(alias)
            .filter(|_| self.strategy.uses_breakers());
        let by_lang = stats.by_lang.map(|lang, record| LangView {
            success_estimate: record.decayed.mean(now, self.half_life),
            breaker: quality.map(|q| q[lang].report(now)),
        });
        let breaker = self.breaker(alias).map(|b| BreakerReport {
            consecutive_rejections: quality
                .into_iter()
                .flat_map(|q| q.iter().map(|(_, b)| b.report(now).consecutive_rejections))
                .max()
                .unwrap_or(0),
            ..b.report(now)
        });
        ModelView {
            success_estimate: learning::posterior_mean(s, f),
            breaker,
            by_lang,
            in_flight: self.in_flight(alias),
            stats,
        }
    }

    /// The order to try `candidates` in for a request in `lang`: the weights
    /// are drawn once for this request, then each next model is picked by
    /// weight from those left.
    pub fn order(&self, candidates: &[&str], lang: Lang, rng: &mut dyn RngCore) -> Vec<String> {
        let mut left: Vec<(&str, f64)> = candidates
            .iter()
            .copied()
            .zip(self.weights(candidates, lang, rng))
            .collect();
        let mut order = Vec::with_capacity(left.len());
        while let Some(i) = pick(
            &left.iter().map(|(_, w)| *w).collect::<Vec<_>>(),
            rng.random::<f64>(),
        ) {
            order.push(left.remove(i).0.to_string());
        }
        order
    }

    /// One weight per candidate, from one draw of the strategy.
    fn weights(&self, candidates: &[&str], lang: Lang, rng: &mut dyn RngCore) -> Vec<f64> {
        let fresh = ModelStats::default();
        let models = candidates
            .iter()
            .map(|a| (*a, self.stats.get(*a).unwrap_or(&fresh)));
        let lang = self.context(lang);
        weigh(
            &*self.strategy,
            models,
            lang,
            Instant::now(),
            self.half_life,
            rng,
        )
    }

    /// A model's decayed success estimate (posterior mean) now, all
    /// languages together.
    pub fn success_estimate(&self, alias: &str) -> Option<f64> {
        let (s, f) = by_lang::total(
            &self.stats.get(alias)?.by_lang,
            Instant::now(),
            self.half_life,
        );
        Some(learning::posterior_mean(s, f))
    }

    /// A model's decayed success estimate in `lang` now.
    pub fn success_estimate_in(&self, alias: &str, lang: Lang) -> Option<f64> {
        let record = &self.stats.get(alias)?.by_lang[self.context(lang)];
        Some(record.decayed.mean(Instant::now(), self.half_life))
    }
}
