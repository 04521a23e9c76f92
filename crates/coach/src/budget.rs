//! What every comment spends: the owner's Hugging Face credits. Three limits:
//! how many model calls may be under way at once and how many may be made per
//! UTC day, both over all visitors together, and each client's share of that
//! day. Beyond any of them, the offline commentator answers and the comment
//! says why (`limited`; a spent share reads `daily_budget`, as a spent day).
//!
//! Why shares: a request dropped before it answers (the visitor hung up) gets
//! its per-client rate-limit comment back, but its model call is made and
//! stays counted. Without a share, one address that keeps hanging up could
//! spend about 40 calls a minute and drain the whole day in two hours. A
//! client is a [`ClientKey`], which the server makes from its address; the
//! day's table of shares is dropped when the UTC day ends and never holds more
//! than [`MAX_CLIENTS`] clients (each of them has made a call, so the daily
//! budget bounds it too).
//!
//! The day's count (not the shares) is saved with the router's state
//! ([`SavedDay`]): a restart on the same UTC day carries on from it.
//! Counts and permits only: knows no model, router or provider.

use std::{
    collections::{hash_map::Entry, HashMap},
    net::{IpAddr, Ipv4Addr},
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    time::{SystemTime, UNIX_EPOCH},
};

use serde::{Deserialize, Serialize};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::Limited;

/// Model calls under way at once, by default.
pub const DEFAULT_CONCURRENCY: usize = 8;
/// Model calls per UTC day, by default: what a free Hugging Face account's
/// credits ($0.10 a month) pay for (docs/operating.md, "What it costs":
/// about 30 days × 50 calls × 430 tokens at $0.06–0.20 per million tokens =
/// $0.04–0.13).
pub const DEFAULT_DAILY: u64 = 50;
/// A client's share of the day by default: 2 % of it ([`default_share`])...
pub const SHARE_PERCENT: u64 = 2;
/// ...but at least this many calls (and never more than the day).
pub const MIN_SHARE: u64 = 20;
/// Clients counted in one day at most; a new client beyond them gets no
/// model call that day (only a daily budget over this many calls can fill it).
pub const MAX_CLIENTS: usize = 100_000;

/// A client's share of a day of `daily_max` calls when none is configured:
/// 2 % of the day, at least 20 calls, at most the whole day. The default day
/// of 50 gives 20 calls per client (three clients drain it); a PRO day of
/// 1000, 20 each.
pub fn default_share(daily_max: u64) -> u64 {
    (daily_max / (100 / SHARE_PERCENT))
        .max(MIN_SHARE)
        .min(daily_max)
}

/// Whose share of the day a request draws on: an opaque key the server makes
/// from the client's address (its rate-limit bucket, one /64 for IPv6). The
/// default key is the one of a request whose address is unknown; all such
/// requests share one share. Kept as the address's 16 bytes (IPv4 as
/// IPv4-mapped IPv6), which with a client's count of `u32` make 20 bytes a
/// client in the day's table where an `IpAddr` and a `u64` took 32: under a
/// flood of 90,000 clients the table is a good part of what the server holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey([u8; 16]);

impl From<IpAddr> for ClientKey {
    fn from(ip: IpAddr) -> Self {
        Self(match ip {
            IpAddr::V4(v4) => v4.to_ipv6_mapped().octets(),
            IpAddr::V6(v6) => v6.octets(),
        })
    }
}

impl Default for ClientKey {
    fn default() -> Self {
        Self::from(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }
}

/// The day's count as saved with the router's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedDay {
    /// The UTC day number (days since the Unix epoch).
    pub day: u64,
    /// Model calls made that day.
    pub calls: u64,
}

/// One UTC day's spending: all clients together, and each one.
#[derive(Debug, Default)]
struct Day {
    number: u64,
    calls: u64,
    /// Each client's calls (a share of more than `u32::MAX` is never reached).
    clients: HashMap<ClientKey, u32>,
}

impl Day {
    /// Starts day `number` afresh when it is a new one: every share comes back
    /// and the old table's memory is freed.
    fn roll(&mut self, number: u64) {
        if self.number != number {
            *self = Self {
                number,
                ..Self::default()
            };
        }
    }
}

pub struct UpstreamBudget {
    permits: Arc<Semaphore>,
    daily_max: u64,
    /// One client's calls per day at most.
    share: u64,
    today: Arc<Mutex<Day>>,
}

/// The right to make one model call; the slot frees when it drops. Dropped
/// without [`Permit::refund`], the call stays counted: the day's and the
/// client's.
pub struct Permit {
    _slot: OwnedSemaphorePermit,
    today: Arc<Mutex<Day>>,
    day: u64,
    client: ClientKey,
}

impl Permit {
    /// Gives the day's call back: it was never made, or cost nothing (a
    /// refused connection, no token).
    pub fn refund(self) {
        let mut today = lock(&self.today);
        if today.number != self.day {
            return;
        }
        today.calls = today.calls.saturating_sub(1);
        if let Entry::Occupied(mut spent) = today.clients.entry(self.client) {
            *spent.get_mut() = spent.get().saturating_sub(1);
            if *spent.get() == 0 {
                spent.remove();
            }
        }
    }
}

impl Default for UpstreamBudget {
    fn default() -> Self {
        Self::new(DEFAULT_CONCURRENCY, DEFAULT_DAILY)
    }
}

impl UpstreamBudget {
    /// `concurrency` calls at once, `daily_max` a day, each client's share
    /// [`default_share`] of it.
    pub fn new(concurrency: usize, daily_max: u64) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(concurrency)),
            daily_max,
            share: default_share(daily_max),
            today: Arc::new(Mutex::new(Day::default())),
        }
    }

    /// Each client may make `share` calls a day (instead of [`default_share`]).
    pub fn with_client_share(mut self, share: u64) -> Self {
        self.share = share;
        self
    }

    /// One client's calls per day at most.
    pub fn client_share(&self) -> u64 {
        self.share
    }

    /// Claims one call now for `client`, or says which limit stands in the way.
    pub fn try_start(&self, client: ClientKey) -> Result<Permit, Limited> {
        self.try_start_on(utc_day(), client)
    }

    /// [`UpstreamBudget::try_start`] on a given UTC day (tests).
    pub fn try_start_on(&self, day: u64, client: ClientKey) -> Result<Permit, Limited> {
        let slot = self
            .permits
            .clone()
            .try_acquire_owned()
            .map_err(|_| Limited::Busy)?;
        let mut today = lock(&self.today);
        today.roll(day);
        if today.calls >= self.daily_max {
            return Err(Limited::DailyBudget);
        }
        let spent = today.clients.get(&client).copied().unwrap_or(0);
        let table_full = spent == 0 && today.clients.len() >= MAX_CLIENTS;
        if u64::from(spent) >= self.share || table_full {
            return Err(Limited::DailyBudget);
        }
        today.calls += 1;
        today.clients.insert(client, spent.saturating_add(1));
        if u64::from(spent) + 1 == self.share {
            tracing::warn!(
                share = self.share,
                "a client has spent its share of the day's model calls: \
                 the offline commentator answers it until the UTC day ends"
            );
        }
        Ok(Permit {
            _slot: slot,
            today: self.today.clone(),
            day,
            client,
        })
    }

    /// Calls made so far today.
    pub fn used_today(&self) -> u64 {
        self.save_on(utc_day()).calls
    }

    /// Today's count, to save.
    pub fn save(&self) -> SavedDay {
        self.save_on(utc_day())
    }

    fn save_on(&self, day: u64) -> SavedDay {
        let today = lock(&self.today);
        SavedDay {
            day,
            calls: if today.number == day { today.calls } else { 0 },
        }
    }

    /// Carries on from a saved count if it was saved today (UTC); a count from
    /// another day is ignored. Whether it was used.
    pub fn restore(&self, saved: SavedDay) -> bool {
        self.restore_on(saved, utc_day())
    }

    /// [`UpstreamBudget::restore`] on a given UTC day (tests).
    pub fn restore_on(&self, saved: SavedDay, day: u64) -> bool {
        if saved.day != day {
            return false;
        }
        let mut today = lock(&self.today);
        today.roll(day);
        today.calls = today.calls.max(saved.calls);
        true
    }

    /// Clients with calls counted today (tests: the table stays bounded).
    #[cfg(test)]
    fn clients_counted(&self) -> usize {
        lock(&self.today).clients.len()
    }
}

fn lock(today: &Mutex<Day>) -> MutexGuard<'_, Day> {
    today.lock().unwrap_or_else(PoisonError::into_inner)
}

fn utc_day() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400)
}

#[cfg(test)]
mod tests;
