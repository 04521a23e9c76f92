//! Hedged requests: when the model asked first is slower than usual, ask a
//! second one too and take whichever answers well first.
//!
//! Dean & Barroso, "The Tail at Scale" (CACM, 2013): a request still
//! outstanding after the 95th-percentile latency of its kind is sent again to a
//! second server; the first good answer wins and the other call is cancelled.
//! That trims the tail (one slow call no longer makes the whole request slow)
//! for a few per cent more calls. Here the second server is the next model in
//! the request's order, and the trigger is the first model's own p95 over its
//! last [`LatencyWindow::SIZE`] answers ([`hedge_delay`]).
//!
//! Extra calls spend the owner's credits, so they are capped by a budget, the
//! shape of Finagle's `RetryBudget` and gRPC's hedging throttle: every request
//! deposits `ratio` of a token (0.1 by default), a hedge withdraws a whole one,
//! and the balance is capped, so hedges stay at most `ratio` × requests over
//! any stretch of time, however slow the models get.
//! A leaf of the router: numbers and time, no models.

use std::{collections::VecDeque, time::Duration};

/// Answers needed before a model's p95 is trusted to trigger hedges.
pub const MIN_SAMPLES: usize = 20;
/// The quantile after which a call is hedged.
pub const HEDGE_QUANTILE: f64 = 0.95;
/// Most hedges that can be saved up for a burst.
const MAX_BALANCE: f64 = 10.0;

/// A model's most recent response times (answers only: a timeout or a refused
/// connection says nothing about how long an answer takes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LatencyWindow {
    recent: VecDeque<Duration>,
}

impl LatencyWindow {
    pub const SIZE: usize = 100;

    pub fn observe(&mut self, latency: Duration) {
        if self.recent.len() == Self::SIZE {
            self.recent.pop_front();
        }
        self.recent.push_back(latency);
    }

    pub fn len(&self) -> usize {
        self.recent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.recent.is_empty()
    }

    /// The latencies, oldest first, in whole milliseconds (for saving).
    pub fn to_millis(&self) -> Vec<u64> {
        self.recent
            .iter()
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            .collect()
    }

    /// A window read back from disk (the latest [`LatencyWindow::SIZE`] kept,
    /// each at most 10 minutes: a file may have been edited by hand).
    pub fn from_millis(millis: &[u64]) -> Self {
        let mut window = Self::default();
        for ms in millis {
            window.observe(Duration::from_millis((*ms).min(600_000)));
        }
        window
    }

    /// The nearest-rank `q` quantile (`None` with no samples).
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        let mut all: Vec<Duration> = self.recent.iter().copied().collect();
        let rank = (q.clamp(0.0, 1.0) * all.len() as f64).ceil() as usize;
        let nth = rank.saturating_sub(1);
        // That one in its place, no more sorted (every comment asks it).
        (nth < all.len()).then(|| *all.select_nth_unstable(nth).1)
    }
}

/// How long to wait for a model before hedging: its p95, once it has enough
/// answers to know it.
pub fn hedge_delay(window: &LatencyWindow) -> Option<Duration> {
    if window.len() < MIN_SAMPLES {
        return None;
    }
    window.quantile(HEDGE_QUANTILE)
}

/// The token bucket that caps hedges at `ratio` × requests.
#[derive(Clone, Debug, PartialEq)]
pub struct HedgeBudget {
    ratio: f64,
    balance: f64,
}

impl HedgeBudget {
    pub fn new(ratio: f64) -> Self {
        Self {
            ratio: ratio.clamp(0.0, 1.0),
            balance: 0.0,
        }
    }

    /// One request arrived.
    pub fn deposit(&mut self) {
        self.balance = (self.balance + self.ratio).min(MAX_BALANCE);
    }

    /// Takes one hedge's worth, if there is one.
    pub fn try_withdraw(&mut self) -> bool {
        // (Tenths added up drift a hair below whole numbers.)
        if self.balance >= 1.0 - 1e-9 {
            self.balance = (self.balance - 1.0).max(0.0);
            true
        } else {
            false
        }
    }
}

/// Hedging, on with its budget or off.
#[derive(Default)]
pub struct Hedging(Option<HedgeBudget>);

impl Hedging {
    /// At most `ratio` extra calls per request, or off.
    pub fn new(ratio: Option<f64>) -> Self {
        Self(ratio.map(HedgeBudget::new))
    }

    /// A request arrived: it earns its share of the budget.
    pub fn on_request(&mut self) {
        if let Some(budget) = &mut self.0 {
            budget.deposit();
        }
    }

    /// How long to wait for a model whose latest answers took `window`
    /// before hedging (its p95), when hedging is on and the model is well
    /// enough known.
    pub fn delay(&self, window: &LatencyWindow) -> Option<Duration> {
        self.0.as_ref()?;
        hedge_delay(window)
    }

    /// Spends one hedge from the budget, if there is one left.
    pub fn try_hedge(&mut self) -> bool {
        self.0.as_mut().is_some_and(HedgeBudget::try_withdraw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let mut w = LatencyWindow::default();
        assert_eq!(w.quantile(0.5), None);
        for n in 1..=100 {
            w.observe(ms(n));
        }
        assert_eq!(w.quantile(0.5), Some(ms(50)));
        assert_eq!(w.quantile(0.95), Some(ms(95)));
        assert_eq!(w.quantile(1.0), Some(ms(100)));
        assert_eq!(w.quantile(0.0), Some(ms(1)));
    }

    #[test]
    fn the_window_keeps_only_the_latest_answers() {
        let mut w = LatencyWindow::default();
        for _ in 0..LatencyWindow::SIZE {
            w.observe(ms(5000));
        }
        for _ in 0..LatencyWindow::SIZE {
            w.observe(ms(300));
        }
        assert_eq!(w.len(), LatencyWindow::SIZE);
        assert_eq!(w.quantile(1.0), Some(ms(300)), "the slow past is gone");
    }

    #[test]
    fn no_hedge_until_the_model_is_known() {
        let mut w = LatencyWindow::default();
        for n in 0..MIN_SAMPLES as u64 - 1 {
            w.observe(ms(100 + n));
        }
        assert_eq!(hedge_delay(&w), None);
        w.observe(ms(1000));
        // The 19th of 20 by nearest rank: the one outlier does not set it.
        assert_eq!(hedge_delay(&w), Some(ms(118)));
    }

    #[test]
    fn the_budget_allows_one_hedge_per_ten_requests() {
        let mut b = HedgeBudget::new(0.1);
        let mut hedges = 0;
        for _ in 0..1000 {
            b.deposit();
            // A model so slow that every request wants a hedge.
            hedges += usize::from(b.try_withdraw());
        }
        assert!((99..=100).contains(&hedges), "{hedges}");
    }

    #[test]
    fn a_quiet_spell_saves_up_only_a_small_burst() {
        let mut b = HedgeBudget::new(0.1);
        for _ in 0..10_000 {
            b.deposit();
        }
        let burst = (0..100).filter(|_| b.try_withdraw()).count();
        assert_eq!(burst, MAX_BALANCE as usize);
        assert!(!HedgeBudget::new(0.0).try_withdraw());
    }
}
