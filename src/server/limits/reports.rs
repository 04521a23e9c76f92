//! The allowances of the page's reports about its visit
//! (`POST /insights/events`, `routes::events`), beside the comments' own.

use std::sync::Arc;

use super::ClientLimiter;
use crate::server::config::Guard;

/// Reports, and new visits an hour, per client.
#[derive(Clone)]
pub struct ReportLimits {
    pub reports: Arc<ClientLimiter>,
    pub visits: Arc<ClientLimiter>,
}

impl ReportLimits {
    /// Reports: three times the comment rate, four times its burst; new
    /// visits: `JAY_VISITS_PER_HOUR`, a third of it at once.
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
        }
    }
}
