//! What every comment spends: the owner's Hugging Face credits. Two limits over
//! all visitors together: how many model calls may be under way at once, and
//! how many may be made per UTC day. Beyond either, the offline commentator
//! answers and the comment says why (`limited`).
//! Counts and permits only: knows no model, router or provider.

use std::{
    sync::{Arc, Mutex, PoisonError},
    time::{SystemTime, UNIX_EPOCH},
};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::Limited;

/// Model calls under way at once, by default.
pub const DEFAULT_CONCURRENCY: usize = 8;
/// Model calls per UTC day, by default.
pub const DEFAULT_DAILY: u64 = 5000;

pub struct UpstreamBudget {
    permits: Arc<Semaphore>,
    daily_max: u64,
    /// (UTC day number, calls made that day).
    today: Arc<Mutex<(u64, u64)>>,
}

/// The right to make one model call; the slot frees when it drops.
pub struct Permit {
    _slot: OwnedSemaphorePermit,
    today: Arc<Mutex<(u64, u64)>>,
    day: u64,
}

impl Permit {
    /// Gives the day's call back: it was never made, or cost nothing (a
    /// refused connection, no token).
    pub fn refund(self) {
        let mut today = self.today.lock().unwrap_or_else(PoisonError::into_inner);
        if today.0 == self.day {
            today.1 = today.1.saturating_sub(1);
        }
    }
}

impl Default for UpstreamBudget {
    fn default() -> Self {
        Self::new(DEFAULT_CONCURRENCY, DEFAULT_DAILY)
    }
}

impl UpstreamBudget {
    pub fn new(concurrency: usize, daily_max: u64) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(concurrency)),
            daily_max,
            today: Arc::new(Mutex::new((0, 0))),
        }
    }

    /// Claims one call now, or says which limit stands in the way.
    pub fn try_start(&self) -> Result<Permit, Limited> {
        self.try_start_on(utc_day())
    }

    /// [`UpstreamBudget::try_start`] on a given UTC day (tests).
    pub fn try_start_on(&self, day: u64) -> Result<Permit, Limited> {
        let permit = self
            .permits
            .clone()
            .try_acquire_owned()
            .map_err(|_| Limited::Busy)?;
        let mut today = self.today.lock().unwrap_or_else(PoisonError::into_inner);
        if today.0 != day {
            *today = (day, 0);
        }
        if today.1 >= self.daily_max {
            return Err(Limited::DailyBudget);
        }
        today.1 += 1;
        Ok(Permit {
            _slot: permit,
            today: self.today.clone(),
            day,
        })
    }

    /// Calls made so far today.
    pub fn used_today(&self) -> u64 {
        let today = self.today.lock().unwrap_or_else(PoisonError::into_inner);
        if today.0 == utc_day() {
            today.1
        } else {
            0
        }
    }
}

fn utc_day() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concurrent_calls_are_capped_and_a_finished_call_frees_its_slot() {
        let budget = UpstreamBudget::new(2, 100);
        let a = budget.try_start_on(1).unwrap();
        let _b = budget.try_start_on(1).unwrap();
        assert!(matches!(budget.try_start_on(1), Err(Limited::Busy)));
        drop(a);
        assert!(budget.try_start_on(1).is_ok());
    }

    #[test]
    fn the_daily_budget_runs_out_and_comes_back_the_next_day() {
        let budget = UpstreamBudget::new(10, 3);
        for _ in 0..3 {
            assert!(budget.try_start_on(7).is_ok());
        }
        assert!(matches!(budget.try_start_on(7), Err(Limited::DailyBudget)));
        assert!(budget.try_start_on(8).is_ok(), "a new UTC day");
        assert!(matches!(
            UpstreamBudget::new(1, 0).try_start_on(1),
            Err(Limited::DailyBudget)
        ));
    }

    #[test]
    fn a_refunded_call_does_not_count() {
        let budget = UpstreamBudget::new(10, 1);
        budget.try_start_on(3).unwrap().refund();
        assert!(budget.try_start_on(3).is_ok(), "the refund made room");
        assert!(matches!(budget.try_start_on(3), Err(Limited::DailyBudget)));
    }
}
