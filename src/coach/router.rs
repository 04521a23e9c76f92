//! Which model answers: statistics per model, a circuit breaker per model, and
//! the strategy that turns them into a weighted random order.
//!
//! Two strategies, chosen by the registry's `strategy` key:
//!
//! - [`ThompsonStrategy`] (the default): time-decayed Thompson sampling times a
//!   peak-EWMA latency factor ([`super::learning`] explains the score), with the
//!   breakers ([`super::breaker`]) keeping failing models out.
//! - [`SeedStrategy`], the baseline: the seed's rule. Per model it keeps `total`
//!   (calls), `errors` (may be fractional), `errop = errors / total` and
//!   `pok = 1 − errop`, and picks a model with probability `pok / Σ pok`. A
//!   failed call or a rejected answer adds 1 error; a good answer faster than
//!   900 ms takes 0.1 away (not below 0), one slower than 2.5 s adds 0.2. Fixed
//!   here: the statistics are defined before the first call (`pok = 1`), and a
//!   floor keeps every model's weight above zero. No breakers, as in the seed.
//!
//! The choice is a pure function of the weights and a random number in [0, 1)
//! ([`pick`]), so tests are deterministic. `benches/router_sim.rs` compares the
//! strategies (README, "Benchmark").

use std::{
    collections::{BTreeMap, HashMap},
    sync::Arc,
    time::Duration,
};

use serde::Serialize;
use tokio::time::Instant;

use rand::{Rng, RngCore};

use super::{
    breaker::{Breaker, BreakerConfig, BreakerReport, Failure, Ticket},
    hedge::{hedge_delay, HedgeBudget, LatencyWindow},
    learning::{score, DecayedCounts, PeakEwma},
    providers::ProviderError,
    snapshot::SavedModel,
};

/// Half-life of the learning strategy's counts (configurable: `half_life_s`).
pub const DEFAULT_HALF_LIFE: Duration = Duration::from_secs(60);
/// Time constant of the latency peak-EWMA.
pub const LATENCY_TAU: Duration = Duration::from_secs(10);

/// No model's weight goes below this (out of a maximum of 1).
pub const WEIGHT_FLOOR: f64 = 0.02;
const FAST: Duration = Duration::from_millis(900);
const SLOW: Duration = Duration::from_millis(2500);

/// One model's record, as the seed kept it (plus latency and the last error).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelStats {
    pub total: u64,
    pub errors: f64,
    /// This model's part of all calls.
    pub share: f64,
    pub errop: f64,
    pub pok: f64,
    pub successes: u64,
    pub latency_ms_total: u64,
    /// Calls by outcome: `ok`, `rejected`, `timeout`, `rate_limited`, …
    pub outcomes: BTreeMap<String, u64>,
    /// Shown once, beside the stats, on `GET /models`.
    #[serde(skip)]
    pub last_error: Option<String>,
    /// Time-decayed successes and failures (the learning strategy's memory).
    #[serde(skip)]
    pub decayed: DecayedCounts,
    /// Peak-EWMA of response times.
    #[serde(skip)]
    pub latency: PeakEwma,
    /// The latest answers' response times (p50/p95; p95 triggers hedges).
    #[serde(skip)]
    pub window: LatencyWindow,
}

impl Default for ModelStats {
    fn default() -> Self {
        Self {
            total: 0,
            errors: 0.0,
            share: 0.0,
            errop: 0.0,
            pok: 1.0,
            successes: 0,
            latency_ms_total: 0,
            outcomes: BTreeMap::new(),
            last_error: None,
            decayed: DecayedCounts::default(),
            latency: PeakEwma::default(),
            window: LatencyWindow::default(),
        }
    }
}

impl ModelStats {
    pub fn mean_latency_ms(&self) -> Option<f64> {
        (self.total > 0).then(|| self.latency_ms_total as f64 / self.total as f64)
    }

    fn refresh(&mut self) {
        self.errop = if self.total == 0 {
            0.0
        } else {
            (self.errors / self.total as f64).clamp(0.0, 1.0)
        };
        self.pok = 1.0 - self.errop;
    }
}

/// How the statistics become selection weights for one request.
pub trait Strategy: Send + Sync {
    /// The name used in the registry's `strategy` key.
    fn name(&self) -> &'static str;
    /// This model's weight now; a sampling strategy draws from `rng`.
    fn weight(
        &self,
        alias: &str,
        stats: &ModelStats,
        now: Instant,
        half_life: Duration,
        rng: &mut dyn RngCore,
    ) -> f64;
    /// Whether weights are random (then probabilities are estimated by sampling).
    fn is_sampled(&self) -> bool {
        false
    }
    /// Whether circuit breakers keep failing models out.
    fn uses_breakers(&self) -> bool {
        true
    }
}

/// The seed's rule: `pok`, floored.
pub struct SeedStrategy;

impl Strategy for SeedStrategy {
    fn name(&self) -> &'static str {
        "seed"
    }

    fn weight(
        &self,
        _: &str,
        stats: &ModelStats,
        _: Instant,
        _: Duration,
        _: &mut dyn RngCore,
    ) -> f64 {
        stats.pok.max(WEIGHT_FLOOR)
    }

    /// The seed had none: it retried a dead model on every request.
    fn uses_breakers(&self) -> bool {
        false
    }
}

/// Decayed Thompson sampling × peak-EWMA latency (see [`super::learning`]).
pub struct ThompsonStrategy;

impl Strategy for ThompsonStrategy {
    fn name(&self) -> &'static str {
        "thompson"
    }

    fn weight(
        &self,
        _: &str,
        stats: &ModelStats,
        now: Instant,
        half_life: Duration,
        rng: &mut dyn RngCore,
    ) -> f64 {
        score(
            stats.decayed.sample(now, half_life, rng),
            stats.latency.get(now, LATENCY_TAU),
        )
    }

    fn is_sampled(&self) -> bool {
        true
    }
}

/// Counts one more (counts restored from a file may already be huge).
fn bump(count: &mut u64) {
    *count = count.saturating_add(1);
}

/// The strategy a registry names.
pub fn strategy_named(name: &str) -> Option<Box<dyn Strategy>> {
    match name {
        "seed" => Some(Box::new(SeedStrategy)),
        "thompson" => Some(Box::new(ThompsonStrategy)),
        _ => None,
    }
}

/// The index whose slice of `[0, Σ weights)` covers `r × Σ weights`, for `r` in
/// [0, 1). Zero or invalid weights fall back to a uniform choice. `None` when empty.
pub fn pick(weights: &[f64], r: f64) -> Option<usize> {
    if weights.is_empty() {
        return None;
    }
    let clean: Vec<f64> = weights
        .iter()
        .map(|w| if w.is_finite() && *w > 0.0 { *w } else { 0.0 })
        .collect();
    let total: f64 = clean.iter().sum();
    let r = r.clamp(0.0, 1.0 - f64::EPSILON);
    if total <= 0.0 {
        return Some(((r * weights.len() as f64) as usize).min(weights.len() - 1));
    }
    let target = r * total;
    let mut cumulative = 0.0;
    for (i, w) in clean.iter().enumerate() {
        cumulative += w;
        if target < cumulative {
            return Some(i);
        }
    }
    // Rounding at the very top: the last model with a weight.
    clean.iter().rposition(|w| *w > 0.0)
}

/// What became of one call, as the router learns it.
#[derive(Clone, Copy, Debug)]
pub enum Outcome<'a> {
    /// A good answer.
    Answered,
    /// An answer the reply checks refused (`why`): the model is up, but the
    /// visitor got nothing from it.
    Rejected(&'a str),
    /// No answer.
    Failed(&'a ProviderError),
}

/// One model as `GET /models` shows the router's side of it, copied out
/// under the lock (see [`Router::standing`]).
#[derive(Clone, Debug)]
pub struct ModelView {
    pub stats: ModelStats,
    pub success_estimate: f64,
    pub breaker: Option<BreakerReport>,
}

/// What a strategy needs to weigh some models, copied out of the router so
/// the costly part of `GET /models` (1000 draws per model for a sampling
/// strategy) runs without the router's lock.
pub struct Standing {
    strategy: Arc<dyn Strategy>,
    half_life: Duration,
    now: Instant,
    models: Vec<(String, ModelStats)>,
}

impl Standing {
    /// Probability of each model (in the order given to [`Router::standing`])
    /// being tried first: exact for a deterministic strategy, estimated over
    /// 1000 draws otherwise.
    pub fn probabilities(&self, rng: &mut dyn RngCore) -> Vec<f64> {
        let rounds = if self.strategy.is_sampled() { 1000 } else { 1 };
        let n = self.models.len();
        let mut sums = vec![0.0; n];
        for _ in 0..rounds {
            let models = self.models.iter().map(|(a, s)| (a.as_str(), s));
            let weights = weigh(&*self.strategy, models, self.now, self.half_life, rng);
            let total: f64 = weights.iter().sum();
            for (sum, w) in sums.iter_mut().zip(&weights) {
                *sum += if total > 0.0 {
                    w / total
                } else {
                    1.0 / n as f64
                };
            }
        }
        sums.iter().map(|s| s / f64::from(rounds)).collect()
    }
}

/// One weight per model, from one draw of the strategy.
fn weigh<'s>(
    strategy: &dyn Strategy,
    models: impl IntoIterator<Item = (&'s str, &'s ModelStats)>,
    now: Instant,
    half_life: Duration,
    rng: &mut dyn RngCore,
) -> Vec<f64> {
    models
        .into_iter()
        .map(|(alias, stats)| strategy.weight(alias, stats, now, half_life, rng))
        .collect()
}

/// Statistics and a circuit breaker for every model, and the strategy that
/// weighs them.
pub struct Router {
    stats: HashMap<String, ModelStats>,
    breakers: HashMap<String, Breaker>,
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

    /// Turns hedging on with at most `ratio` extra calls per request, or off.
    pub fn set_hedging(&mut self, ratio: Option<f64>) {
        self.hedges = ratio.map(HedgeBudget::new);
    }

    /// A request arrived: it earns its share of the hedge budget.
    pub fn on_request(&mut self) {
        if let Some(budget) = &mut self.hedges {
            budget.deposit();
        }
    }

    /// How long to wait for `alias` before hedging (its p95), when hedging is
    /// on and the model is well enough known.
    pub fn hedge_delay(&self, alias: &str) -> Option<Duration> {
        self.hedges.as_ref()?;
        hedge_delay(&self.stats.get(alias)?.window)
    }

    /// Spends one hedge from the budget, if there is one left.
    pub fn try_hedge(&mut self) -> bool {
        self.hedges.as_mut().is_some_and(HedgeBudget::try_withdraw)
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

    /// Keeps the statistics and breakers of `aliases`, starts new ones, forgets
    /// the rest. A reload is the fix for a misconfigured model: its breaker
    /// starts closed again.
    pub fn sync<'a>(&mut self, aliases: impl IntoIterator<Item = &'a str>) {
        self.changed();
        let mut stats = HashMap::new();
        let mut breakers = HashMap::new();
        for alias in aliases {
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

    /// Every model's record and breaker, for the snapshot file.
    pub fn save(&self, now: Instant) -> BTreeMap<String, SavedModel> {
        self.stats
            .iter()
            .map(|(alias, s)| {
                let saved = SavedModel {
                    total: s.total,
                    errors: s.errors,
                    successes: s.successes,
                    latency_ms_total: s.latency_ms_total,
                    outcomes: s.outcomes.clone(),
                    last_error: s.last_error.clone(),
                    decayed: s.decayed.at(now, self.half_life),
                    latency_ewma_ms: s.latency.get(now, LATENCY_TAU),
                    recent_ms: s.window.to_millis(),
                    breaker: self
                        .breakers
                        .get(alias)
                        .map(|b| b.save(now))
                        .unwrap_or_default(),
                };
                (alias.clone(), saved)
            })
            .collect()
    }

    /// Puts back the saved records of the models the registry still has,
    /// aged by `downtime`; models not in the file keep a fresh record.
    pub fn restore(
        &mut self,
        saved: &BTreeMap<String, SavedModel>,
        downtime: Duration,
        now: Instant,
    ) -> usize {
        self.changed();
        let mut restored = 0;
        for (alias, s) in &mut self.stats {
            let Some(m) = saved.get(alias) else {
                continue;
            };
            *s = ModelStats {
                total: m.total,
                errors: if m.errors.is_finite() {
                    m.errors.max(0.0)
                } else {
                    0.0
                },
                share: 0.0,
                errop: 0.0,
                pok: 1.0,
                successes: m.successes.min(m.total),
                latency_ms_total: m.latency_ms_total,
                outcomes: m.outcomes.clone(),
                last_error: m.last_error.clone(),
                decayed: DecayedCounts::restore(m.decayed, downtime, self.half_life, now),
                latency: PeakEwma::restore(m.latency_ewma_ms, now),
                window: LatencyWindow::from_millis(&m.recent_ms),
            };
            s.refresh();
            self.breakers.insert(
                alias.clone(),
                Breaker::restore(self.breaker_config, &m.breaker, downtime, now),
            );
            restored += 1;
        }
        self.refresh_shares();
        restored
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
    /// breaker, in one go (one lock for the caller). `ticket` is the one
    /// [`Router::try_acquire`] gave the call. Spent credits (402) open every
    /// model's breaker, since they all share the one account.
    pub fn record_outcome(
        &mut self,
        alias: &str,
        latency: Duration,
        outcome: Outcome<'_>,
        ticket: Ticket,
        now: Instant,
    ) {
        self.changed();
        let probe = ticket == Ticket::Probe;
        match outcome {
            Outcome::Answered => self.learn_success(alias, latency, probe),
            Outcome::Rejected(why) => {
                self.learn_failure(alias, latency, &format!("rejected: {why}"), true, probe);
            }
            Outcome::Failed(error) => {
                self.learn_failure(alias, latency, error.outcome(), false, probe);
            }
        }
        let failure = match outcome {
            Outcome::Answered => None,
            // The model is up: the breaker counts these apart from failures.
            Outcome::Rejected(_) => {
                if let Some(b) = self.breakers.get_mut(alias) {
                    b.on_rejected(ticket, now);
                }
                return;
            }
            Outcome::Failed(ProviderError::Credits) => {
                for b in self.breakers.values_mut() {
                    b.on_failure(Failure::Throttled(None), now, Ticket::Ordinary);
                }
                Some(Failure::Throttled(None))
            }
            Outcome::Failed(error) => Some(Failure::of(error)),
        };
        if let Some(b) = self.breakers.get_mut(alias) {
            match failure {
                None => b.on_success(ticket),
                Some(f) => b.on_failure(f, now, ticket),
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

    /// A good answer in `latency` from an ordinary call (statistics only; see
    /// [`Router::record_outcome`]).
    pub fn record_success(&mut self, alias: &str, latency: Duration) {
        self.learn_success(alias, latency, false);
    }

    /// A failed call or a rejected answer (`outcome` names it) from an
    /// ordinary call (statistics only; see [`Router::record_outcome`]).
    pub fn record_failure(
        &mut self,
        alias: &str,
        latency: Duration,
        outcome: &str,
        rejected: bool,
    ) {
        self.learn_failure(alias, latency, outcome, rejected, false);
    }

    fn learn_success(&mut self, alias: &str, latency: Duration, probe: bool) {
        self.record(alias, latency, (1.0, 0.0), true, probe, |s| {
            s.successes = s.successes.saturating_add(1);
            s.window.observe(latency);
            bump(s.outcomes.entry("ok".into()).or_default());
            if latency < FAST {
                s.errors = (s.errors - 0.1).max(0.0);
            } else if latency > SLOW {
                s.errors += 0.2;
            }
        });
    }

    /// For the learning strategy a rejection is a whole failure: the visitor
    /// got nothing from it (the breaker, told separately, still sees that the
    /// model is up).
    fn learn_failure(
        &mut self,
        alias: &str,
        latency: Duration,
        outcome: &str,
        rejected: bool,
        probe: bool,
    ) {
        let weights = (0.0, 1.0);
        // Only an answer or a timeout says how slow the model is: a refused
        // connection in 1 ms must not make a dead model look fast.
        let timed = rejected || outcome == "timeout";
        self.record(alias, latency, weights, timed, probe, |s| {
            s.errors += 1.0;
            s.last_error = Some(outcome.to_string());
            // A rejected answer is still an answer: its time counts for p95.
            let kind = if rejected {
                s.window.observe(latency);
                "rejected"
            } else {
                outcome
            };
            bump(s.outcomes.entry(kind.into()).or_default());
        });
    }

    fn record(
        &mut self,
        alias: &str,
        latency: Duration,
        (success, failure): (f64, f64),
        timed: bool,
        probing: bool,
        update: impl FnOnce(&mut ModelStats),
    ) {
        self.changed();
        let Some(s) = self.stats.get_mut(alias) else {
            return;
        };
        let now = Instant::now();
        // A half-open probe's result (`probing`: the call held the probe
        // ticket) is news about a model that was down. A failure says only
        // "still down", which the breaker already knows: it is not piled onto
        // the learned record. An answer means it is back: its record starts
        // afresh from the optimistic prior, and the latency estimate from
        // this call, so it gets its share back quickly.
        if probing && success > 0.0 {
            s.decayed = DecayedCounts::default();
            s.latency = PeakEwma::default();
        }
        if !(probing && success == 0.0) {
            s.decayed.add(now, self.half_life, success, failure);
        }
        if timed {
            s.latency.observe(now, LATENCY_TAU, latency);
        }
        bump(&mut s.total);
        s.latency_ms_total = s
            .latency_ms_total
            .saturating_add(u64::try_from(latency.as_millis()).unwrap_or(u64::MAX));
        update(s);
        s.refresh();
        self.refresh_shares();
    }

    fn refresh_shares(&mut self) {
        let all = self
            .stats
            .values()
            .fold(0u64, |sum, s| sum.saturating_add(s.total));
        for s in self.stats.values_mut() {
            s.share = if all == 0 {
                0.0
            } else {
                s.total as f64 / all as f64
            };
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    fn rng() -> StdRng {
        StdRng::seed_from_u64(7)
    }

    fn router(aliases: &[&str]) -> Router {
        let mut r = Router::new(Box::new(SeedStrategy));
        r.sync(aliases.iter().copied());
        r
    }

    #[test]
    fn stats_are_defined_before_the_first_call() {
        let r = router(&["a"]);
        let s = r.stats("a").unwrap();
        assert_eq!((s.total, s.errop, s.pok), (0, 0.0, 1.0));
        assert_eq!(r.probabilities(&["a"], &mut rng()), vec![1.0]);
    }

    #[test]
    fn the_seeds_example_probabilities() {
        // Gemini 2/2 errors (pok 0), Phi-3 1/2 (pok 0.5), Llama 0/2 (pok 1).
        let mut r = router(&["gemini", "phi3", "llama"]);
        let slow = Duration::from_millis(1000); // neither fast nor slow: no nudge
        for _ in 0..2 {
            r.record_failure("gemini", slow, "upstream_error", false);
            r.record_success("llama", slow);
        }
        r.record_failure("phi3", slow, "timeout", false);
        r.record_success("phi3", slow);
        let p = r.probabilities(&["gemini", "phi3", "llama"], &mut rng());
        // 0 is floored to 0.02: 0.02/1.52, 0.5/1.52, 1/1.52.
        assert!((p[0] - 0.02 / 1.52).abs() < 1e-12);
        assert!((p[1] - 0.5 / 1.52).abs() < 1e-12);
        assert!((p[2] - 1.0 / 1.52).abs() < 1e-12);
        assert_eq!(r.stats("phi3").unwrap().share, 2.0 / 6.0);
    }

    #[test]
    fn latency_nudges_follow_the_seed() {
        let mut r = router(&["a"]);
        r.record_failure("a", Duration::from_millis(100), "timeout", false);
        r.record_success("a", Duration::from_millis(300));
        assert!((r.stats("a").unwrap().errors - 0.9).abs() < 1e-12);
        r.record_success("a", Duration::from_millis(3000));
        assert!((r.stats("a").unwrap().errors - 1.1).abs() < 1e-12);
        let mut fresh = router(&["b"]);
        fresh.record_success("b", Duration::from_millis(10));
        assert_eq!(fresh.stats("b").unwrap().errors, 0.0, "never below zero");
    }

    #[test]
    fn pick_is_a_pure_function_of_the_random_number() {
        let w = [1.0, 0.5, 0.5];
        assert_eq!(pick(&w, 0.0), Some(0));
        assert_eq!(pick(&w, 0.49), Some(0));
        assert_eq!(pick(&w, 0.5), Some(1));
        assert_eq!(pick(&w, 0.76), Some(2));
        assert_eq!(pick(&w, 1.0), Some(2));
        assert_eq!(pick(&[0.0, 0.0], 0.7), Some(1), "all zero: uniform");
        assert_eq!(pick(&[f64::NAN, 1.0], 0.1), Some(1));
        assert_eq!(pick(&[], 0.5), None);
    }

    #[test]
    fn order_tries_each_model_once() {
        let r = router(&["a", "b", "c"]);
        for seed in 0..20 {
            let mut order = r.order(&["a", "b", "c"], &mut StdRng::seed_from_u64(seed));
            order.sort();
            assert_eq!(order, vec!["a", "b", "c"]);
        }
    }

    /// Share of first picks per candidate over `n` orders.
    fn first_pick_shares(r: &Router, candidates: &[&str], n: u32) -> Vec<f64> {
        let mut rng = StdRng::seed_from_u64(42);
        let mut counts = vec![0u32; candidates.len()];
        for _ in 0..n {
            let first = r.order(candidates, &mut rng).remove(0);
            counts[candidates.iter().position(|c| *c == first).unwrap()] += 1;
        }
        counts
            .iter()
            .map(|c| f64::from(*c) / f64::from(n))
            .collect()
    }

    #[tokio::test(start_paused = true)]
    async fn thompson_prefers_the_reliable_then_the_fast_but_spreads_load() {
        let mut r = Router::new(Box::new(ThompsonStrategy));
        r.sync(["fast", "slow", "flaky"]);
        for _ in 0..30 {
            r.record_success("fast", Duration::from_millis(300));
            r.record_success("slow", Duration::from_millis(1500));
            r.record_failure("flaky", Duration::from_millis(300), "upstream_error", false);
            r.record_success("flaky", Duration::from_millis(300));
            r.record_failure("flaky", Duration::from_millis(300), "upstream_error", false);
        }
        let shares = first_pick_shares(&r, &["fast", "slow", "flaky"], 2000);
        assert!(shares[0] > shares[1] && shares[1] > shares[2], "{shares:?}");
        assert!(
            shares[1] > 0.15,
            "the slower model still speaks: {shares:?}"
        );
        let p = r.probabilities(&["fast", "slow", "flaky"], &mut rng());
        assert!(
            (p.iter().sum::<f64>() - 1.0).abs() < 1e-9 && p[0] > p[1] && p[1] > p[2],
            "{p:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn thompson_forgets_an_outage_the_seed_never_does() {
        let mut thompson = Router::new(Box::new(ThompsonStrategy));
        let mut seed = Router::new(Box::new(SeedStrategy));
        for r in [&mut thompson, &mut seed] {
            r.sync(["a", "b"]);
            for _ in 0..50 {
                r.record_failure("a", Duration::from_millis(300), "connection_failed", false);
                r.record_success("b", Duration::from_millis(300));
            }
        }
        tokio::time::advance(Duration::from_secs(30 * 60)).await; // 10 half-lives
        let shares = first_pick_shares(&thompson, &["a", "b"], 2000);
        assert!(
            shares[0] > 0.3,
            "the recovered model gets traffic again: {shares:?}"
        );
        let p = seed.probabilities(&["a", "b"], &mut rng());
        assert!(p[0] < 0.03, "the seed still shuts it out: {p:?}");
    }

    /// Item 13: an answer that is always rejected is learned as a failure,
    /// so that model loses the traffic. When a rejection was half a success,
    /// its estimate settled near 0.5 and it kept a quarter of the first picks.
    #[tokio::test(start_paused = true)]
    async fn thompson_shuts_out_a_model_whose_answers_are_always_rejected() {
        let mut r = Router::new(Box::new(ThompsonStrategy));
        r.sync(["rambler", "good"]);
        for _ in 0..30 {
            r.record_failure(
                "rambler",
                Duration::from_millis(300),
                "rejected: too long",
                true,
            );
            r.record_success("good", Duration::from_millis(600));
        }
        let estimate = r.success_estimate("rambler").unwrap();
        assert!(estimate < 0.1, "learned as failures: {estimate}");
        let shares = first_pick_shares(&r, &["rambler", "good"], 2000);
        assert!(shares[0] < 0.02, "{shares:?}");
        let s = r.stats("rambler").unwrap();
        assert_eq!((s.outcomes.get("rejected"), s.successes), (Some(&30), 0));
    }

    #[test]
    fn reload_keeps_stats_of_models_that_stay() {
        let mut r = router(&["a", "b"]);
        r.record_failure("a", Duration::from_millis(10), "timeout", false);
        r.sync(["a", "c"]);
        assert_eq!(r.stats("a").unwrap().total, 1);
        assert!(r.stats("b").is_none());
        assert_eq!(r.stats("c").unwrap().total, 0);
    }

    #[tokio::test(start_paused = true)]
    async fn only_the_probe_ticket_closes_a_breaker_and_starts_the_record_afresh() {
        let mut r = Router::new(Box::new(ThompsonStrategy));
        r.sync(["a"]);
        let ms = Duration::from_millis;
        let state = |r: &Router| r.breaker("a").unwrap().report(Instant::now()).state;
        // A call starts while the breaker is closed, and is slow to finish.
        let early = r.try_acquire("a", Instant::now()).unwrap();
        assert_eq!(early, Ticket::Ordinary);
        let failed = ProviderError::Upstream(502);
        for _ in 0..3 {
            let ticket = r.try_acquire("a", Instant::now()).unwrap();
            r.record_outcome(
                "a",
                ms(300),
                Outcome::Failed(&failed),
                ticket,
                Instant::now(),
            );
        }
        assert_eq!(state(&r), "open");
        tokio::time::advance(Duration::from_secs(2)).await;
        let probe = r.try_acquire("a", Instant::now()).unwrap();
        assert_eq!(probe, Ticket::Probe);

        // The early call answers while another request holds the probe: the
        // breaker waits for its probe, and the record is not wiped.
        r.record_outcome("a", ms(300), Outcome::Answered, early, Instant::now());
        assert_eq!(state(&r), "half_open");
        let estimate = r.success_estimate("a").unwrap();
        assert!(
            estimate < 0.5,
            "three failures and one success, not a fresh start: {estimate}"
        );

        // The probe's answer closes it and starts the record afresh.
        r.record_outcome("a", ms(300), Outcome::Answered, probe, Instant::now());
        assert_eq!(state(&r), "closed");
        let estimate = r.success_estimate("a").unwrap();
        assert!(
            (estimate - 0.75).abs() < 1e-9,
            "prior 2:1 plus one: {estimate}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn spent_credits_open_every_breaker_in_one_record() {
        let mut r = Router::new(Box::new(ThompsonStrategy));
        r.sync(["a", "b"]);
        let ticket = r.try_acquire("a", Instant::now()).unwrap();
        let before = r.generation();
        r.record_outcome(
            "a",
            Duration::from_millis(50),
            Outcome::Failed(&ProviderError::Credits),
            ticket,
            Instant::now(),
        );
        assert_ne!(r.generation(), before);
        for alias in ["a", "b"] {
            assert!(!r.breaker(alias).unwrap().is_available(Instant::now()));
        }
        assert_eq!(r.stats("a").unwrap().outcomes.get("credits"), Some(&1));
    }
}
