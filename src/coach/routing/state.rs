//! What the router saves: each model's record and breaker as plain numbers
//! ([`SavedModel`]), made from the live state and put back into it. The file
//! itself is `coach::snapshot`'s business.

use std::{collections::BTreeMap, time::Duration};

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::{
    breaker::{Breaker, SavedBreaker},
    hedge::LatencyWindow,
    learning::{DecayedCounts, PeakEwma, LATENCY_TAU},
    stats::ModelStats,
    Router,
};

/// One model's record (see [`ModelStats`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedModel {
    pub total: u64,
    pub errors: f64,
    pub successes: u64,
    pub latency_ms_total: u64,
    pub outcomes: BTreeMap<String, u64>,
    pub last_error: Option<String>,
    /// Decayed (successes, failures) as they stood at the save.
    pub decayed: (f64, f64),
    pub latency_ewma_ms: Option<f64>,
    /// The latest answers' times, oldest first.
    pub recent_ms: Vec<u64>,
    pub breaker: SavedBreaker,
}

impl Router {
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
                    last_error: s.last_error.as_ref().map(ToString::to_string),
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
                // A name this version does not know is dropped, not fatal.
                last_error: m.last_error.as_deref().and_then(|e| e.parse().ok()),
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
}
