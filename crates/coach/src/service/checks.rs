//! The availability checks' schedule (what a check asks is the provider's,
//! what it found `coach::availability`'s): every enabled chat model with a
//! key is checked at start-up, again [`RECHECK`] later, and at once after a
//! reload, one after another in the background (a start-up never waits for
//! them; a request never does either: until a model's first check, it is
//! callable as before).

use std::sync::Arc;

use tokio::time::{sleep_until, Instant};

use super::Coach;
use crate::{
    availability::{Availability, RECHECK},
    model::Api,
};

impl Coach {
    /// Checks every model due now; when the next check is due (`None`:
    /// no model is checked at all).
    pub async fn check_models(&self) -> Option<Instant> {
        let registry = self.registry();
        let checked: Vec<_> = registry
            .models
            .iter()
            .filter(|m| m.enabled && matches!(m.api, Api::Chat) && self.provider.usable(m))
            .collect();
        let due: Vec<_> = {
            let catalog = self.catalog();
            let now = Instant::now();
            checked
                .iter()
                .copied()
                .filter(|m| catalog.is_due(m, now))
                .collect()
        };
        for spec in &due {
            let check = self.provider.check(spec).await;
            let was_served = self.catalog().is_served(spec);
            if let Availability::NotServed { why, .. } = &check.availability {
                if was_served {
                    tracing::warn!(
                        model = %spec.alias,
                        "model {} is not served: {why}; it is not called until a check finds it served (hourly, or at a reload)",
                        spec.model
                    );
                }
            }
            if let Some(card) = &check.card {
                let codes: Vec<&str> = card.iter().map(|l| l.code()).collect();
                tracing::info!(model = %spec.alias, "its model card declares {codes:?}: asked in those languages only (set languages in the registry to choose)");
            }
            self.catalog().record(spec, check, Instant::now());
        }
        if !due.is_empty() {
            // The report shows what was found at once.
            self.router().touch();
        }
        let catalog = self.catalog();
        checked.iter().filter_map(|m| catalog.next_check(m)).min()
    }

    /// Checks for as long as the coach lives: now, when the next check is
    /// due, and after every reload.
    pub async fn keep_checking(self: Arc<Self>) {
        loop {
            let next = self
                .check_models()
                .await
                .unwrap_or_else(|| Instant::now() + RECHECK);
            tokio::select! {
                () = sleep_until(next) => {}
                () = self.recheck.notified() => {}
            }
        }
    }
}
