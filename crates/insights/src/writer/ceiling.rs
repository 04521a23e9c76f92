//! The store's share of the disk. Two limits, looked at before a commit (at
//! most once per [`WriterConfig::check_every`]) and at every purge:
//!
//! - the ceiling (`JAY_INSIGHTS_MAX_MB`): while the rows take more bytes
//!   than it allows, the oldest UTC day is purged, then the next; one WARN
//!   says so the first time;
//! - the reserve ([`WriterConfig::reserve_bytes`]): while less than that is
//!   free on the disk, the oldest days go too, and while nothing is left to
//!   purge batches are dropped (counted as `disk_full`), so that the insights
//!   never take the last bytes another file needs, such as the router's
//!   `router.json` beside them.
//!
//! The store reclaims what each purge frees (`store::disk::reclaim`), so
//! its file shrinks and the free space comes back.

use tokio::time::Instant;

use super::WriterConfig;
use crate::sink::{Sink, StoreError};

/// Days purged in one look at most (a ceiling far below a day's rows would
/// otherwise empty the store at once; the next look goes on).
const DAYS_PER_LOOK: usize = 366;

pub(super) struct Ceiling {
    max_bytes: Option<u64>,
    reserve: u64,
    every: std::time::Duration,
    last: Option<Instant>,
    /// Writes wait for free space.
    disk_full: bool,
    warned_ceiling: bool,
}

impl Ceiling {
    pub fn new(config: &WriterConfig) -> Self {
        Self {
            max_bytes: config.max_bytes,
            reserve: config.reserve_bytes,
            every: config.check_every,
            last: None,
            disk_full: false,
            warned_ceiling: false,
        }
    }

    /// Whether batches are dropped for want of disk space.
    pub fn disk_full(&self) -> bool {
        self.disk_full
    }

    /// Purges the oldest days while a limit is passed (when a look is due,
    /// or `now`).
    pub async fn keep(&mut self, sink: &dyn Sink, now: bool) -> Result<(), StoreError> {
        let due = self.last.is_none_or(|last| last.elapsed() >= self.every);
        if !(now || due) {
            return Ok(());
        }
        self.last = Some(Instant::now());
        for _ in 0..DAYS_PER_LOOK {
            let used = sink.bytes_in_use().await?;
            let over = used.zip(self.max_bytes).filter(|(used, max)| used > max);
            let low = sink.free_disk().filter(|&free| free < self.reserve);
            if over.is_none() && low.is_none() {
                self.room_again();
                return Ok(());
            }
            if let Some((used, max)) = over {
                if !self.warned_ceiling {
                    self.warned_ceiling = true;
                    tracing::warn!(
                        "insights: the store holds {} MB, over JAY_INSIGHTS_MAX_MB ({} MB): its oldest days are purged to stay under it. Said once.",
                        used / 1_000_000,
                        max / 1_000_000
                    );
                }
            }
            let Some(kept_from) = sink.purge_oldest_day().await? else {
                // Nothing left to purge: the disk is full of something else.
                if low.is_some() {
                    self.no_room(low);
                }
                return Ok(());
            };
            tracing::info!(
                "insights: purged the oldest day to stay within the disk's limits; rows kept from minute {}",
                kept_from.0
            );
        }
        Ok(())
    }

    fn no_room(&mut self, free: Option<u64>) {
        if !self.disk_full {
            self.disk_full = true;
            tracing::warn!(
                "insights: {} MB free on the disk, under the {} MB kept free, and nothing left to purge: events are dropped and counted (jay_insights_dropped_total) until there is room again",
                free.unwrap_or(0) / 1_000_000,
                self.reserve / 1_000_000
            );
        }
    }

    fn room_again(&mut self) {
        if self.disk_full {
            self.disk_full = false;
            tracing::info!("insights: there is room on the disk again; recording goes on");
        }
    }
}
