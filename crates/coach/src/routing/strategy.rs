//! How the statistics become selection weights: the [`Strategy`] trait, its two
//! implementations, and the weighted draw.
//!
//! - [`ThompsonStrategy`] (the default): time-decayed Thompson sampling of the
//!   model's record in the request's language ([`super::by_lang`]) times a
//!   peak-EWMA latency factor ([`super::learning`] explains the score), with
//!   the breakers ([`super::breaker`]) keeping failing models out.
//! - [`SeedStrategy`], the baseline: the original server's rule. Per model it keeps `total`
//!   (calls), `errors` (may be fractional), `errop = errors / total` and
//!   `pok = 1 − errop`, and picks a model with probability `pok / Σ pok`. A
//!   failed call or a rejected answer adds 1 error; a good answer faster than
//!   900 ms takes 0.1 away (not below 0), one slower than 2.5 s adds 0.2. Fixed
//!   here: the statistics are defined before the first call (`pok = 1`), and a
//!   floor keeps every model's weight above zero. No breakers, and one record
//!   per model whatever the language, as in the original server.
//!
//! The choice is a pure function of the weights and a random number in [0, 1)
//! ([`pick`]), so tests are deterministic (the same shape as tensorzero's
//! static experimentation). `benches/router_sim.rs` compares the strategies
//! (docs/benchmarks/router.md). Owns no state: the router holds the statistics.

use std::{sync::Arc, time::Duration};

use rand::RngCore;
use tokio::time::Instant;

use super::{
    learning::{score, LATENCY_TAU},
    stats::ModelStats,
};
use crate::registry::StrategyKind;
use vocabulary::Lang;

/// No model's weight goes below this (out of a maximum of 1).
pub const WEIGHT_FLOOR: f64 = 0.02;

/// How the statistics become selection weights for one request.
pub trait Strategy: Send + Sync {
    /// The name used in the registry's `strategy` key.
    fn name(&self) -> &'static str;
    /// This model's weight now for a request in `lang`; a sampling strategy
    /// draws from `rng`.
    fn weight(
        &self,
        alias: &str,
        stats: &ModelStats,
        lang: Lang,
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

/// The original server's rule: `pok`, floored.
pub struct SeedStrategy;

impl Strategy for SeedStrategy {
    fn name(&self) -> &'static str {
        "seed"
    }

    fn weight(
        &self,
        _: &str,
        stats: &ModelStats,
        _: Lang,
        _: Instant,
        _: Duration,
        _: &mut dyn RngCore,
    ) -> f64 {
        stats.pok.max(WEIGHT_FLOOR)
    }

    /// The original server had none: it retried a dead model on every request.
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
        lang: Lang,
        now: Instant,
        half_life: Duration,
        rng: &mut dyn RngCore,
    ) -> f64 {
        score(
            stats.by_lang[lang].decayed.sample(now, half_life, rng),
            stats.latency.get(now, LATENCY_TAU),
        )
    }

    fn is_sampled(&self) -> bool {
        true
    }
}

/// The strategy a registry names.
pub fn for_kind(kind: StrategyKind) -> Box<dyn Strategy> {
    match kind {
        StrategyKind::Seed => Box::new(SeedStrategy),
        StrategyKind::Thompson => Box::new(ThompsonStrategy),
    }
}

/// The index whose slice of `[0, Σ weights)` covers `r × Σ weights`, for `r` in
/// [0, 1). Zero or invalid weights fall back to a uniform choice. `None` when empty.
pub fn pick(weights: &[f64], r: f64) -> Option<usize> {
    if weights.is_empty() {
        return None;
    }
    let clean = || {
        weights
            .iter()
            .map(|w| if w.is_finite() && *w > 0.0 { *w } else { 0.0 })
    };
    let total: f64 = clean().sum();
    let r = r.clamp(0.0, 1.0 - f64::EPSILON);
    if total <= 0.0 {
        return Some(((r * weights.len() as f64) as usize).min(weights.len() - 1));
    }
    let target = r * total;
    let mut cumulative = 0.0;
    for (i, w) in clean().enumerate() {
        cumulative += w;
        if target < cumulative {
            return Some(i);
        }
    }
    // Rounding at the very top: the last model with a weight.
    clean().rposition(|w| w > 0.0)
}

/// What a strategy needs to weigh some models for a request in one
/// language, copied out of the router so the costly part of `GET /models`
/// (1000 draws per model for a sampling strategy) runs without the router's
/// lock.
pub struct Standing {
    pub(super) strategy: Arc<dyn Strategy>,
    pub(super) half_life: Duration,
    pub(super) now: Instant,
    pub(super) lang: Lang,
    pub(super) models: Vec<(String, ModelStats)>,
}

impl Standing {
    /// Probability of each model (in the order given to [`super::Router::standing`])
    /// being tried first: exact for a deterministic strategy, estimated over
    /// 1000 draws otherwise.
    pub fn probabilities(&self, rng: &mut dyn RngCore) -> Vec<f64> {
        let rounds = if self.strategy.is_sampled() { 1000 } else { 1 };
        let n = self.models.len();
        let mut sums = vec![0.0; n];
        for _ in 0..rounds {
            let models = self.models.iter().map(|(a, s)| (a.as_str(), s));
            let weights = weigh(
                &*self.strategy,
                models,
                self.lang,
                self.now,
                self.half_life,
                rng,
            );
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
pub(super) fn weigh<'s>(
    strategy: &dyn Strategy,
    models: impl IntoIterator<Item = (&'s str, &'s ModelStats)>,
    lang: Lang,
    now: Instant,
    half_life: Duration,
    rng: &mut dyn RngCore,
) -> Vec<f64> {
    models
        .into_iter()
        .map(|(alias, stats)| strategy.weight(alias, stats, lang, now, half_life, rng))
        .collect()
}
