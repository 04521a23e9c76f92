//! Which model answers: the [`Router`] keeps a record ([`stats`]) and a circuit
//! breaker ([`breaker`]) per model, and its [`strategy`] turns them into a
//! weighted random order for each request.
//!
//! Everything a finished call teaches goes through one method,
//! [`Router::record_outcome`], called under the service's one lock: the
//! statistics, the learned record ([`learning`]) and the breaker change
//! together. [`hedge`] decides when a slow call gets a second model, and
//! [`state`] is what is saved across restarts.
//!
//! Reads the registry's names only (`StrategyKind`, each model's [`Account`]);
//! never calls a model and
//! never touches a file: providers and the snapshot are the service's to use.

use std::{collections::HashMap, sync::Arc, time::Duration};

use rand::{Rng, RngCore};
use tokio::time::Instant;

use crate::coach::{model::Account, outcome::Outcome};
use breaker::{Breaker, BreakerConfig, BreakerReport, Failure, Ticket};
use hedge::HedgeBudget;
use stats::ModelStats;
use strategy::{pick, weigh, Standing, Strategy};

pub mod breaker;
pub mod hedge;
pub mod learning;
pub mod state;
pub mod stats;
pub mod strategy;

#[cfg(test)]
mod tests;

/// Half-life of the learning strategy's counts (configurable: `half_life_s`).
pub const DEFAULT_HALF_LIFE: Duration = Duration::from_secs(60);

/// One model as `GET /models` shows the router's side of it, copied out
/// under the lock (see [`Router::standing`]).
#[derive(Clone, Debug)]
pub struct ModelView {
    pub stats: ModelStats,
    pub success_estimate: f64,
    pub breaker: Option<BreakerReport>,
}

/// Statistics and a circuit breaker for every model, and the strategy that
/// weighs them.
pub struct Router {
    stats: HashMap<String, ModelStats>,
    breakers: HashMap<String, Breaker>,
    /// Whose credits each model spends (a 402 stops its account's models).
    accounts: HashMap<String, Account>,
    breaker_config: BreakerConfig,
    strategy: Arc<dyn Strategy>,
    half_life: Duration,
    hedges: Option<HedgeBudget>,
    /// Bumped whenever a record or a breaker changes (see [`Router::generation`]).
    generation: u64,
}

impl Router {
    pub fn new(strategy: Box<dyn Strategy>) -> Self {
        Self {
            stats: HashMap::new(),
            breakers: HashMap::new(),
            accounts: HashMap::new(),
            breaker_config: BreakerConfig::default(),
            strategy: Arc::from(strategy),
            half_life: DEFAULT_HALF_LIFE,
            hedges: None,
            generation: 0,
        }
    }

    /// A number that changes whenever a model's record or breaker does (a
    /// call's outcome, a probe claimed or handed back, a reload or a
    /// restore): a report made at the same generation is still true, but
    /// for the passing of time.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    fn changed(&mut self) {
        self.generation = self.generation.wrapping_add(1);
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

    /// Keeps the statistics and breakers of `models` (each alias with its
    /// account), starts new ones, forgets the rest. A reload is the fix for a
    /// misconfigured model: its breaker starts closed again.
    pub fn sync<'a>(&mut self, models: impl IntoIterator<Item = (&'a str, Account)>) {
        self.changed();
        let mut stats = HashMap::new();
        let mut breakers = HashMap::new();
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
                .filter(|b| !b.is_misconfigured())
                .unwrap_or_else(|| Breaker::new(self.breaker_config));
            breakers.insert(alias.to_string(), breaker);
        }
        self.stats = stats;
        self.breakers = breakers;
        self.refresh_shares();
    }

    /// The model's breaker, when the strategy uses breakers.
    pub fn breaker(&self, alias: &str) -> Option<&Breaker> {
        self.breakers
            .get(alias)
            .filter(|_| self.strategy.uses_breakers())
    }

    /// The candidates whose breaker lets a call through now.
    pub fn admissible<'a>(&self, candidates: &[&'a str], now: Instant) -> Vec<&'a str> {
        candidates
            .iter()
            .copied()
            .filter(|a| {
                !self.strategy.uses_breakers()
                    || self.breakers.get(*a).is_none_or(|b| b.is_available(now))
            })
            .collect()
    }

    /// Never every door shut: when a request has tried every admissible model
    /// in vain (or there was none), the open one among `candidates` whose
    /// cool-down ends first gets its half-open probe early, once per request.
    /// Misconfigured models are never returned.
    pub fn last_door<'a>(&mut self, candidates: &[&'a str]) -> Option<&'a str> {
        self.changed();
        if !self.strategy.uses_breakers() {
            return None;
        }
        let soonest = candidates
            .iter()
            .copied()
            .filter_map(|a| Some((a, self.breakers.get(a)?.open_until()?)))
            .min_by_key(|(_, until)| *until)
            .map(|(a, _)| a)?;
        self.breakers.get_mut(soonest)?.force_probe();
        Some(soonest)
    }

    /// A call was abandoned before it finished (cancelled hedge, deadline, or
    /// the visitor left): if it was the half-open probe, the next call may probe.
    pub fn release_probe(&mut self, alias: &str) {
        self.changed();
        if let Some(b) = self.breakers.get_mut(alias) {
            b.release_probe();
        }
    }

    /// Claims the right to call `alias` now: the [`Ticket`] says whether this
    /// call is the breaker's single half-open probe (to hand back if it is
    /// dropped, and whose result alone decides the breaker). `None` when
    /// refused.
    pub fn try_acquire(&mut self, alias: &str, now: Instant) -> Option<Ticket> {
        self.changed();
        if !self.strategy.uses_breakers() {
            return Some(Ticket::Ordinary);
        }
        match self.breakers.get_mut(alias) {
            Some(b) => b.acquire(now),
            None => Some(Ticket::Ordinary),
        }
    }

    /// Learns one finished call: the statistics, the learned record and the
    /// breaker, in one go (one lock for the caller). `wait` is the upstream's
    /// own estimate of when to try again (`Retry-After`, a loading model's
    /// `estimated_time`); `ticket` is the one [`Router::try_acquire`] gave
    /// the call. Spent credits (402) also open the breakers of the models on
    /// the same [`Account`] (the same key to the same host), and no other.
    pub fn record_outcome(
        &mut self,
        alias: &str,
        latency: Duration,
        outcome: &Outcome,
        wait: Option<Duration>,
        ticket: Ticket,
        now: Instant,
    ) {
        self.changed();
        let probe = ticket == Ticket::Probe;
        self.learn(alias, latency, outcome, probe);
        let failure = match outcome {
            Outcome::Ok => None,
            // The model is up: the breaker counts these apart from failures.
            Outcome::Rejected(_) => {
                if let Some(b) = self.breakers.get_mut(alias) {
                    b.on_rejected(ticket, now);
                }
                return;
            }
            Outcome::Credits => {
                self.credits_spent(alias, now);
                Some(Failure::Throttled(None))
            }
            other => Some(failure(other, wait)),
        };
        if let Some(b) = self.breakers.get_mut(alias) {
            match failure {
                None => b.on_success(ticket),
                Some(f) => b.on_failure(f, now, ticket),
            }
        }
    }

    /// `alias` spent its account's credits: the other models on that account
    /// stop too (their breakers open as if each had answered 402).
    fn credits_spent(&mut self, alias: &str, now: Instant) {
        let Some(account) = self.accounts.get(alias) else {
            return;
        };
        for (other, b) in &mut self.breakers {
            let shared = self
                .accounts
                .get(other)
                .is_some_and(|a| account.shares_credits_with(a));
            if other != alias && shared {
                b.on_failure(Failure::Throttled(None), now, Ticket::Ordinary);
            }
        }
    }

    pub fn stats(&self, alias: &str) -> Option<&ModelStats> {
        self.stats.get(alias)
    }

    /// Probability of each of `candidates` (in their order) being tried first
    /// (see [`Standing::probabilities`]).
    pub fn probabilities(&self, candidates: &[&str], rng: &mut dyn RngCore) -> Vec<f64> {
        self.standing(candidates, Instant::now()).probabilities(rng)
    }

    /// A copy of what the strategy needs to weigh `candidates`, to sample
    /// from after the lock is released.
    pub fn standing(&self, candidates: &[&str], now: Instant) -> Standing {
        Standing {
            strategy: self.strategy.clone(),
            half_life: self.half_life,
            now,
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

    /// A copy of one model's record, estimate and breaker, for `GET /models`.
    pub fn view(&self, alias: &str, now: Instant) -> ModelView {
        let stats = self.stats.get(alias).cloned().unwrap_or_default();
        ModelView {
            success_estimate: stats.decayed.mean(now, self.half_life),
            breaker: self.breaker(alias).map(|b| b.report(now)),
            stats,
        }
    }

    /// The order to try `candidates` in: the weights are drawn once for this
    /// request, then each next model is picked by weight from those left.
    pub fn order(&self, candidates: &[&str], rng: &mut dyn RngCore) -> Vec<String> {
        let mut left: Vec<(&str, f64)> = candidates
            .iter()
            .copied()
            .zip(self.weights(candidates, rng))
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
    fn weights(&self, candidates: &[&str], rng: &mut dyn RngCore) -> Vec<f64> {
        let fresh = ModelStats::default();
        let models = candidates
            .iter()
            .map(|a| (*a, self.stats.get(*a).unwrap_or(&fresh)));
        weigh(&*self.strategy, models, Instant::now(), self.half_life, rng)
    }

    /// A model's decayed success estimate (posterior mean) now.
    pub fn success_estimate(&self, alias: &str) -> Option<f64> {
        Some(
            self.stats
                .get(alias)?
                .decayed
                .mean(Instant::now(), self.half_life),
        )
    }
}

/// The breaker's reading of a failed call.
fn failure(outcome: &Outcome, wait: Option<Duration>) -> Failure {
    match outcome {
        Outcome::Loading | Outcome::RateLimited | Outcome::Credits => Failure::Throttled(wait),
        Outcome::Unauthorized | Outcome::ModelNotSupported | Outcome::Gone => {
            Failure::Misconfigured
        }
        _ => Failure::Transient,
    }
}
