//! The allowances of the page's reports about its visit
//! (`POST /insights/events`, `routes::events`) and of the votes on comments
//! (`POST /api/feedback`, `routes::feedback`), beside the comments' own.

use std::{sync::Arc, time::Duration};

use super::{ClientLimiter, MonotonicClock};
use crate::server::config::Guard;

/// Reports, new visits an hour, and votes a day, per client.
#[derive(Clone)]
pub struct ReportLimits {
    pub reports: Arc<ClientLimiter>,
    pub visits: Arc<ClientLimiter>,
    pub votes: Arc<ClientLimiter>,
}

impl ReportLimits {
    /// Reports: three times the comment rate, four times its burst; new
    /// visits: `JAY_VISITS_PER_HOUR`, a third of it at once; votes:
    /// `JAY_VOTES_PER_DAY`, all of it at once if a client wants (refilled
    /// over the day).
    pub fn new(guard: &Guard) -> Self {
        Self {
            reports: Arc::new(ClientLimiter::new(
                guard.rate_per_min.saturating_mul(3),
                guard.rate_burst.saturating_mul(4),
            )),
            visits: Arc::new(ClientLimiter::per_hour(
                guard.visits_per_hour,
                guard.visits_per_hour.div_ceil(3),
            )),
            votes: Arc::new(ClientLimiter::every(
                Duration::from_secs(24 * 60 * 60) / guard.votes_per_day.max(1),
                guard.votes_per_day,
                MonotonicClock::default(),
            )),
        }
    }
}
