//! A breaker as the snapshot saves it ([`SavedBreaker`]: times relative to
//! the save) and as it is put back, however long the process was down.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::{Breaker, BreakerConfig, State, MAX_HINT};

/// A breaker as saved to disk (times relative to the save).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedBreaker {
    /// Seconds an open breaker had left to stay open (`None`: not open).
    pub open_for_s: Option<f64>,
    pub consecutive_failures: u32,
    pub opened_in_a_row: u32,
    /// Rejected answers in a row (absent from files written before it).
    #[serde(default)]
    pub consecutive_rejections: u32,
}

impl Breaker {
    /// What to save. A half-open breaker is saved open with no time left (its
    /// probe will not report to the next process); a resting one is saved
    /// closed, since a restart reloads the configuration (as a reload does,
    /// it ends the rest: on a Space, changing a secret or buying credits and
    /// restarting costs one probe).
    pub fn save(&self, now: Instant) -> SavedBreaker {
        let (open_for_s, consecutive_failures) = match self.state {
            State::Closed { failures } => (None, failures),
            State::Open { until } => (Some(until.saturating_duration_since(now).as_secs_f64()), 0),
            State::HalfOpen { .. } => (Some(0.0), 0),
            State::Resting { .. } => (None, 0),
        };
        SavedBreaker {
            open_for_s,
            consecutive_failures,
            opened_in_a_row: self.opened_in_a_row,
            consecutive_rejections: self.rejected_in_a_row,
        }
    }

    /// A breaker as saved, `downtime` after the save.
    pub fn restore(
        config: BreakerConfig,
        saved: &SavedBreaker,
        downtime: Duration,
        now: Instant,
    ) -> Self {
        let state = match saved.open_for_s {
            Some(left) => {
                // Nonsense from a hand-edited file: negative or NaN is "now",
                // huge is the longest cool-down there is.
                let left = Duration::try_from_secs_f64(left)
                    .unwrap_or(if left > 0.0 { MAX_HINT } else { Duration::ZERO })
                    .min(MAX_HINT)
                    .saturating_sub(downtime);
                State::Open { until: now + left }
            }
            None => State::Closed {
                failures: saved
                    .consecutive_failures
                    .min(config.failure_threshold.saturating_sub(1)),
            },
        };
        Self {
            config,
            state,
            opened_in_a_row: saved.opened_in_a_row.min(16),
            rejected_in_a_row: saved
                .consecutive_rejections
                .min(config.rejection_threshold.saturating_sub(1)),
            rests_in_a_row: 0,
        }
    }
}
