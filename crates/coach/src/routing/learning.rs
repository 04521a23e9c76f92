//! What the learning strategy remembers about a model, and how it scores one.
//!
//! **Forgetting.** Successes and failures are counted with exponential time decay
//! (half-life `H`): an observation made `t` ago weighs `2^(−t/H)`. A model that
//! failed during yesterday's outage is trusted again within minutes, and one that
//! was good stops being trusted soon after it goes down. (The original server's plain counts
//! never forget.)
//!
//! **Reliability: Thompson sampling** (Thompson, 1933; Chapelle & Li, "An
//! Empirical Evaluation of Thompson Sampling", NeurIPS 2011). Each request draws
//! a plausible success rate for every model from its Beta posterior
//! `Beta(α₀ + successes, β₀ + failures)`. The prior `Beta(2, 1)` is optimistic, so
//! a new model (or one whose record has decayed away) is tried soon. Uncertain
//! models get varied draws, so they are explored; well-known ones are exploited.
//!
//! **Latency: peak-EWMA** (Finagle's `PeakEwma` load metric, also Linkerd's and
//! tower's `load::PeakEwma`). An exponentially weighted moving average of
//! response times with time constant `τ`, except that a response slower than the
//! average replaces it at once: the estimate reacts to a slowdown immediately and
//! forgets it gradually. As in tower (`tower::load::peak_ewma`, whose `load()`
//! decays the estimate before every read), it also fades while the model is not
//! heard from: read after a silence `t`, it is `value × e^(−t/τ)`. Without this a
//! single slow answer stuck to a model until its next call, and the slow estimate
//! made that next call unlikely. Like tower we decay toward zero, not toward some
//! older level: a model not heard from for a while looks fast again and is tried
//! again (latency exploration, on the scale of `τ`; reliability is explored by
//! the Thompson draws below). Being wrong costs one call, because the peak rule
//! puts a slow answer back into the estimate at once.
//!
//! **Score.** `weight = p² × L / (L + latency)`, with `p` the sampled success rate
//! and `L` a latency scale (1 s). The router then draws a model at random in
//! proportion to the weights (as the original server did with `pok`), so among equally
//! reliable models the faster one wins more often but not always: load stays
//! spread and visitors keep hearing different models' voices. Squaring `p` makes
//! an unreliable model lose weight faster than a slow one.
//! A leaf of the router: pure arithmetic on counts and times.

use std::time::Duration;

use rand::RngCore;
use rand_distr::{Beta, Distribution};
use tokio::time::Instant;

/// Time constant of the latency peak-EWMA.
pub const LATENCY_TAU: Duration = Duration::from_secs(10);
/// Prior pseudo-counts of the Beta posterior: optimistic (mean 2/3), so a
/// model nobody has asked yet is drawn often enough to be learned.
pub const PRIOR_SUCCESSES: f64 = 2.0;
/// See [`PRIOR_SUCCESSES`].
pub const PRIOR_FAILURES: f64 = 1.0;
/// Latency scale `L` of the score.
pub const LATENCY_SCALE_MS: f64 = 1000.0;

/// Exponentially time-decayed success and failure counts; the rejected
/// answers among the failures are also counted apart (a model back from an
/// outage keeps them: see [`DecayedCounts::after_outage`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DecayedCounts {
    successes: f64,
    failures: f64,
    /// The part of `failures` that were rejected answers.
    rejected: f64,
    at: Option<Instant>,
}

impl DecayedCounts {
    fn factor(&self, now: Instant, half_life: Duration) -> f64 {
        self.at.map_or(1.0, |at| {
            decay(now.saturating_duration_since(at), half_life)
        })
    }

    /// The counts as seen at `now`.
    pub fn at(&self, now: Instant, half_life: Duration) -> (f64, f64) {
        let factor = self.factor(now, half_life);
        (self.successes * factor, self.failures * factor)
    }

    /// The rejected answers among [`DecayedCounts::at`]'s failures.
    pub fn rejected_at(&self, now: Instant, half_life: Duration) -> f64 {
        self.rejected * self.factor(now, half_life)
    }

    /// Adds an observation (`success` and `failure` weights: the router gives
    /// a good answer `(1, 0)`, a failed call `(0, 1)`; a rejected answer is
    /// [`DecayedCounts::reject`]).
    pub fn add(&mut self, now: Instant, half_life: Duration, success: f64, failure: f64) {
        self.add_rejected(now, half_life, success, failure, 0.0);
    }

    /// Adds a rejected answer: a whole failure, counted as rejected too.
    pub fn reject(&mut self, now: Instant, half_life: Duration) {
        self.add_rejected(now, half_life, 0.0, 1.0, 1.0);
    }

    /// Adds `s` successes and `f` failures, `r` of them rejected answers
    /// (a visitor's vote: `routing::votes`).
    pub fn add_counts(&mut self, now: Instant, half_life: Duration, s: f64, f: f64, r: f64) {
        self.add_rejected(now, half_life, s, f, r);
    }

    /// Takes back `s` successes and `f` failures, `r` of them rejected, as
    /// they are worth now (a replaced vote); no count goes below zero.
    pub fn remove(&mut self, now: Instant, half_life: Duration, s: f64, f: f64, r: f64) {
        self.add_rejected(now, half_life, -s, -f, -r);
        self.successes = self.successes.max(0.0);
        self.failures = self.failures.max(0.0);
        self.rejected = self.rejected.clamp(0.0, self.failures);
    }

    fn add_rejected(&mut self, now: Instant, half_life: Duration, s: f64, f: f64, r: f64) {
        let factor = self.factor(now, half_life);
        *self = Self {
            successes: self.successes * factor + s,
            failures: self.failures * factor + f,
            rejected: self.rejected * factor + r,
            at: Some(now),
        };
    }

    /// The record of a model back from an outage: afresh from the prior, but
    /// for its rejected answers (they told of its answers, not of the
    /// outage).
    pub fn after_outage(&self, now: Instant, half_life: Duration) -> Self {
        let rejected = self.rejected_at(now, half_life);
        Self {
            successes: 0.0,
            failures: rejected,
            rejected,
            at: Some(now),
        }
    }

    /// Counts read back from disk: `(successes, failures)` and the rejected
    /// among the failures, as they stood at the save, aged by `downtime`
    /// since.
    pub fn restore(
        (successes, failures): (f64, f64),
        rejected: f64,
        downtime: Duration,
        half_life: Duration,
        now: Instant,
    ) -> Self {
        let factor = decay(downtime, half_life);
        let clean = |x: f64| {
            if x.is_finite() && x > 0.0 {
                x * factor
            } else {
                0.0
            }
        };
        let failures = clean(failures);
        Self {
            successes: clean(successes),
            failures,
            rejected: clean(rejected).min(failures),
            at: Some(now),
        }
    }

    /// Posterior mean of the success rate at `now`.
    pub fn mean(&self, now: Instant, half_life: Duration) -> f64 {
        let (s, f) = self.at(now, half_life);
        posterior_mean(s, f)
    }

    /// One Thompson draw of the success rate.
    pub fn sample(&self, now: Instant, half_life: Duration, rng: &mut dyn RngCore) -> f64 {
        let (s, f) = self.at(now, half_life);
        match Beta::new(PRIOR_SUCCESSES + s, PRIOR_FAILURES + f) {
            Ok(beta) => beta.sample(rng),
            Err(_) => self.mean(now, half_life),
        }
    }
}

/// The posterior mean of the success rate after `successes` and `failures`
/// (decayed counts) on the prior.
pub fn posterior_mean(successes: f64, failures: f64) -> f64 {
    (PRIOR_SUCCESSES + successes) / (PRIOR_SUCCESSES + PRIOR_FAILURES + successes + failures)
}

/// `2^(−elapsed / half_life)`.
pub fn decay(elapsed: Duration, half_life: Duration) -> f64 {
    if half_life.is_zero() {
        return 0.0;
    }
    0.5_f64.powf(elapsed.as_secs_f64() / half_life.as_secs_f64())
}

/// Peak-EWMA of response times, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PeakEwma {
    value_ms: Option<f64>,
    at: Option<Instant>,
}

impl PeakEwma {
    /// Takes one response time: a peak (slower than the estimate now) at once,
    /// anything else blended in by the time since the last sample.
    pub fn observe(&mut self, now: Instant, tau: Duration, rtt: Duration) {
        let rtt_ms = rtt.as_secs_f64() * 1000.0;
        let value = match self.get(now, tau) {
            // `current` is the old value already decayed by `w`: this is
            // `old × w + rtt × (1 − w)`.
            Some(current) if rtt_ms <= current => current + rtt_ms * (1.0 - self.weight(now, tau)),
            // First sample, or a peak: take it at once.
            _ => rtt_ms,
        };
        *self = Self {
            value_ms: Some(value),
            at: Some(now),
        };
    }

    /// The estimate at `now`: the last value decayed toward zero by the time
    /// since it was set (`None` before the first sample).
    pub fn get(&self, now: Instant, tau: Duration) -> Option<f64> {
        Some(self.value_ms? * self.weight(now, tau))
    }

    /// `e^(−t/τ)` for the time `t` since the last sample (0 when `τ` is 0).
    fn weight(&self, now: Instant, tau: Duration) -> f64 {
        let elapsed = self
            .at
            .map_or(Duration::ZERO, |at| now.saturating_duration_since(at));
        if tau.is_zero() {
            0.0
        } else {
            (-elapsed.as_secs_f64() / tau.as_secs_f64()).exp()
        }
    }

    /// An estimate read back from disk, as if just observed.
    pub fn restore(value_ms: Option<f64>, now: Instant) -> Self {
        let value_ms = value_ms.filter(|v| v.is_finite() && *v >= 0.0);
        Self {
            value_ms,
            at: value_ms.map(|_| now),
        }
    }
}

/// The score of one model from one sampled success rate and its latency
/// estimate (a model with no latency yet is scored as if it took `L`).
pub fn score(sampled_success: f64, latency_ms: Option<f64>) -> f64 {
    let latency = latency_ms.unwrap_or(LATENCY_SCALE_MS).max(0.0);
    sampled_success.clamp(0.0, 1.0).powi(2) * LATENCY_SCALE_MS / (LATENCY_SCALE_MS + latency)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};
    use tokio::time::{advance, pause};

    const H: Duration = Duration::from_secs(180);

    #[tokio::test]
    async fn counts_halve_every_half_life() {
        pause();
        let mut c = DecayedCounts::default();
        c.add(Instant::now(), H, 0.0, 8.0);
        advance(H).await;
        assert_eq!(c.at(Instant::now(), H), (0.0, 4.0));
        advance(H * 2).await;
        assert_eq!(c.at(Instant::now(), H), (0.0, 1.0));
        c.add(Instant::now(), H, 1.0, 0.0);
        assert_eq!(c.at(Instant::now(), H), (1.0, 1.0));
    }

    /// A model back from an outage starts afresh but for its
    /// rejected answers.
    #[tokio::test(start_paused = true)]
    async fn after_an_outage_only_the_rejections_remain() {
        let now = Instant::now();
        let mut c = DecayedCounts::default();
        c.add(now, H, 5.0, 3.0);
        c.reject(now, H);
        c.reject(now, H);
        assert_eq!((c.at(now, H), c.rejected_at(now, H)), ((5.0, 5.0), 2.0));
        advance(H).await;
        let back = c.after_outage(Instant::now(), H);
        assert_eq!(back.at(Instant::now(), H), (0.0, 1.0));
        assert_eq!(back.rejected_at(Instant::now(), H), 1.0);
    }

    #[tokio::test]
    async fn an_outage_is_forgotten_and_a_new_model_looks_promising() {
        pause();
        let fresh = DecayedCounts::default();
        assert!(
            (fresh.mean(Instant::now(), H) - 2.0 / 3.0).abs() < 1e-12,
            "optimistic prior"
        );
        let mut c = DecayedCounts::default();
        for _ in 0..50 {
            c.add(Instant::now(), H, 0.0, 1.0);
        }
        assert!(c.mean(Instant::now(), H) < 0.05);
        advance(Duration::from_secs(30 * 60)).await; // 10 half-lives
        assert!(c.mean(Instant::now(), H) > 0.6, "back near the prior");
    }

    #[tokio::test]
    async fn thompson_draws_follow_the_evidence() {
        pause();
        let now = Instant::now();
        let (mut good, mut bad) = (DecayedCounts::default(), DecayedCounts::default());
        for _ in 0..40 {
            good.add(now, H, 1.0, 0.0);
            bad.add(now, H, 0.0, 1.0);
        }
        let mut rng = StdRng::seed_from_u64(1);
        let wins = (0..1000)
            .filter(|_| good.sample(now, H, &mut rng) > bad.sample(now, H, &mut rng))
            .count();
        assert!(wins > 990, "{wins}");
    }

    #[tokio::test(start_paused = true)]
    async fn peak_ewma_jumps_up_and_decays_down() {
        let tau = Duration::from_secs(10);
        let mut e = PeakEwma::default();
        assert_eq!(e.get(Instant::now(), tau), None);
        e.observe(Instant::now(), tau, Duration::from_millis(200));
        assert_eq!(e.get(Instant::now(), tau), Some(200.0));
        e.observe(Instant::now(), tau, Duration::from_millis(5000));
        assert_eq!(
            e.get(Instant::now(), tau),
            Some(5000.0),
            "a peak is taken at once"
        );
        advance(tau).await;
        e.observe(Instant::now(), tau, Duration::from_millis(200));
        let expected = 5000.0 * (-1.0f64).exp() + 200.0 * (1.0 - (-1.0f64).exp());
        assert!((e.get(Instant::now(), tau).unwrap() - expected).abs() < 1e-9);
    }

    /// A spike fades with silence, not only when a new sample comes.
    #[tokio::test(start_paused = true)]
    async fn a_spike_fades_while_the_model_is_not_heard_from() {
        let tau = Duration::from_secs(10);
        let mut e = PeakEwma::default();
        for _ in 0..5 {
            advance(Duration::from_secs(1)).await;
            e.observe(Instant::now(), tau, Duration::from_millis(200));
        }
        let before = e.get(Instant::now(), tau).unwrap();
        assert!((before - 200.0).abs() < 1e-9, "{before}");
        advance(Duration::from_secs(1)).await;
        e.observe(Instant::now(), tau, Duration::from_secs(5));
        assert_eq!(e.get(Instant::now(), tau), Some(5000.0));
        advance(tau * 3).await; // no sample: 5000 × e^−3 ≈ 249
        let after = e.get(Instant::now(), tau).unwrap();
        assert!(after < 1.25 * before, "back near {before} ms: {after}");
        advance(tau * 3).await;
        let later = e.get(Instant::now(), tau).unwrap();
        assert!(later < after && later > 0.0, "still fading: {later}");
        // The next answer's time is taken as it is (a peak above the faded value).
        e.observe(Instant::now(), tau, Duration::from_millis(300));
        assert_eq!(e.get(Instant::now(), tau), Some(300.0));
    }

    #[tokio::test(start_paused = true)]
    async fn a_restored_estimate_fades_from_the_restore() {
        let tau = Duration::from_secs(10);
        let e = PeakEwma::restore(Some(1000.0), Instant::now());
        assert_eq!(e.get(Instant::now(), tau), Some(1000.0));
        advance(tau).await;
        let faded = e.get(Instant::now(), tau).unwrap();
        assert!((faded - 1000.0 * (-1.0f64).exp()).abs() < 1e-9, "{faded}");
        assert_eq!(
            PeakEwma::restore(Some(f64::NAN), Instant::now()).get(Instant::now(), tau),
            None
        );
    }

    #[test]
    fn the_score_prefers_reliable_then_fast() {
        assert!(score(0.99, Some(300.0)) > score(0.99, Some(1200.0)));
        assert!(
            score(0.99, Some(1200.0)) > score(0.5, Some(300.0)),
            "reliability first"
        );
        assert_eq!(score(1.0, Some(0.0)), 1.0);
        assert_eq!(score(0.0, Some(100.0)), 0.0);
        assert_eq!(score(1.0, None), 0.5);
    }
}
