//! The per-client rate limit: GCRA (the generic cell rate algorithm, a token
//! bucket kept as one number per client) with refunds, on an injected clock.
//!
//! Each client ([`super::bucket`] of its address) has a *theoretical arrival
//! time* (TAT): the moment its allowance would be full again. A comment pushes
//! it one emission interval (`60 s / rate_per_min`) later, and is refused when
//! that would put it more than `rate_burst` intervals ahead of now: a steady
//! `rate_per_min` with bursts of `rate_burst`. Both `GET /error` and the page's
//! `POST /api/comment` draw from the same allowance.
//!
//! A comment is taken as a [`Charge`]. A request that is dropped before it
//! answers (the visitor moved on and the browser cancelled it, so the
//! connection closed and the handler's future was dropped) drops its charge
//! without [`Charge::keep`], and that gives the comment back: the TAT moves
//! back one interval. Refunds have an allowance of their own (the same rate
//! and burst), so a client that keeps hanging up cannot use them to call the
//! models without limit: at worst it gets twice the rate.
//!
//! A client is an address ([`ClientLimiter::charge`]), or, for a learner
//! seated in a class room, the visit itself ([`ClientLimiter::charge_visit`]):
//! thirty learners behind one school address are thirty clients, at most a
//! room's size of them (`insights::rooms`).
//!
//! (The `governor` crate cannot give a comment back, hence this small GCRA.)
//! The clock is injected ([`Clock`]): [`MonotonicClock`] in production, a
//! [`ManualClock`] in tests, which then need no real seconds.

use std::{
    collections::HashMap,
    hash::{BuildHasher, RandomState},
    net::IpAddr,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex, MutexGuard, PoisonError,
    },
    time::{Duration, Instant},
};

use super::bucket;

/// Whose allowance a charge draws on, as the table keys it: a keyed hash
/// (its key random in each process) of an address's [`bucket`] or of a
/// visit's id. The table holds no address and no id, and 8 bytes a client
/// where the address took 24. Two clients would share an allowance only if
/// their hashes collided: among 100,000 clients, about one chance in 3.7
/// billion (2⁻⁶⁴ a pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key(u64);

/// What a [`Key`] was hashed from: an address and a visit never share one.
#[derive(Hash)]
enum Kind {
    Address,
    Visit,
}

/// Forget idle clients every this many charges, so the table stays small.
const PRUNE_EVERY: u64 = 1024;

/// Where the limiter reads the time: a monotonic duration since some origin.
pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> Duration;
}

/// The real clock: time since the limiter was made.
pub struct MonotonicClock(Instant);

impl Default for MonotonicClock {
    fn default() -> Self {
        Self(Instant::now())
    }
}

impl Clock for MonotonicClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
}

/// A clock that moves only when told to (tests). Clones share the time.
#[derive(Clone, Debug, Default)]
pub struct ManualClock(Arc<Mutex<Duration>>);

impl ManualClock {
    pub fn advance(&self, by: Duration) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One client's state: when its allowance of comments, and of refunds, is
/// full again (at or before now: full), in nanoseconds of the limiter's
/// clock (16 bytes a client where two `Duration`s took 32: under a flood of
/// 90,000 clients the table is a large part of what the server holds).
#[derive(Clone, Copy, Debug)]
struct Allowance {
    comments_full_at: u64,
    refunds_full_at: u64,
}

impl Allowance {
    fn full(now: Duration) -> Self {
        Self {
            comments_full_at: nanos(now),
            refunds_full_at: nanos(now),
        }
    }

    fn comments_full_at(&self) -> Duration {
        Duration::from_nanos(self.comments_full_at)
    }

    fn refunds_full_at(&self) -> Duration {
        Duration::from_nanos(self.refunds_full_at)
    }
}

/// A time of the clock in nanoseconds (584 years fit).
fn nanos(t: Duration) -> u64 {
    u64::try_from(t.as_nanos()).unwrap_or(u64::MAX)
}

pub struct ClientLimiter {
    /// One comment's worth of time: `60 s / rate_per_min`.
    interval: Duration,
    /// How far ahead of now a TAT may go: `rate_burst` intervals.
    window: Duration,
    clock: Box<dyn Clock>,
    clients: Mutex<HashMap<Key, Allowance>>,
    charges: AtomicU64,
    /// Hashes addresses and visits' ids into keys.
    keys: RandomState,
}

impl ClientLimiter {
    /// `rate_per_min` comments a minute per client, `burst` at once (0 counts as 1).
    pub fn new(rate_per_min: u32, burst: u32) -> Self {
        Self::with_clock(rate_per_min, burst, MonotonicClock::default())
    }

    pub fn with_clock(rate_per_min: u32, burst: u32, clock: impl Clock) -> Self {
        Self::every(Duration::from_secs(60) / rate_per_min.max(1), burst, clock)
    }

    /// One every `interval`, `burst` at once (0 counts as 1).
    pub fn every(interval: Duration, burst: u32, clock: impl Clock) -> Self {
        Self {
            interval,
            window: interval * burst.max(1),
            clock: Box::new(clock),
            clients: Mutex::new(HashMap::new()),
            charges: AtomicU64::new(0),
            keys: RandomState::new(),
        }
    }

    /// `per_hour` an hour per client, `burst` at once.
    pub fn per_hour(per_hour: u32, burst: u32) -> Self {
        let interval = Duration::from_secs(3600) / per_hour.max(1);
        Self::every(interval, burst, MonotonicClock::default())
    }

    /// Takes one comment from `ip`'s allowance, or says how long until one is
    /// free again. The comment is given back if the [`Charge`] is dropped
    /// without [`Charge::keep`].
    pub fn charge(&self, ip: IpAddr) -> Result<Charge<'_>, Duration> {
        self.charge_key(self.address(ip))
    }

    /// [`ClientLimiter::charge`] for a visit of its own (a learner seated in
    /// a room), whatever its address.
    pub fn charge_visit(&self, visit: &str) -> Result<Charge<'_>, Duration> {
        self.charge_key(Key(self.keys.hash_one((Kind::Visit, visit))))
    }

    /// The key of `ip`'s [`bucket`].
    fn address(&self, ip: IpAddr) -> Key {
        Key(self.keys.hash_one((Kind::Address, bucket(ip))))
    }

    fn charge_key(&self, key: Key) -> Result<Charge<'_>, Duration> {
        let now = self.clock.now();
        let mut clients = self.clients();
        if self.charges.fetch_add(1, Ordering::Relaxed) % PRUNE_EVERY == PRUNE_EVERY - 1 {
            prune(&mut clients, now);
        }
        let allowance = clients.entry(key).or_insert(Allowance::full(now));
        let tat = allowance.comments_full_at().max(now) + self.interval;
        if tat > now + self.window {
            return Err(tat - now - self.window);
        }
        allowance.comments_full_at = nanos(tat);
        Ok(Charge {
            limiter: self,
            key,
            kept: false,
        })
    }

    /// Now, and when `ip`'s allowance is full again (now at the earliest).
    fn full_at(&self, ip: IpAddr) -> (Duration, Duration) {
        let now = self.clock.now();
        let full_at = self
            .clients()
            .get(&self.address(ip))
            .map_or(now, |a| a.comments_full_at().max(now));
        (now, full_at)
    }

    /// How many comments `ip` could have right now.
    pub fn remaining(&self, ip: IpAddr) -> u32 {
        let (now, full_at) = self.full_at(ip);
        let free = (now + self.window).saturating_sub(full_at);
        // Whole intervals only; the ratio is at most `burst`.
        (free.as_nanos() / self.interval.as_nanos().max(1)) as u32
    }

    /// How long until `ip` may have one again (zero: now).
    pub fn until_free(&self, ip: IpAddr) -> Duration {
        let (now, full_at) = self.full_at(ip);
        (full_at + self.interval).saturating_sub(now + self.window)
    }

    /// Gives one comment back to `key`, unless it has had too many refunds lately.
    fn refund(&self, key: Key) {
        let now = self.clock.now();
        let mut clients = self.clients();
        // Forgotten meanwhile: its allowance is full anyway.
        let Some(allowance) = clients.get_mut(&key) else {
            return;
        };
        let refunds_tat = allowance.refunds_full_at().max(now) + self.interval;
        if refunds_tat > now + self.window {
            return;
        }
        allowance.refunds_full_at = nanos(refunds_tat);
        allowance.comments_full_at = nanos(
            allowance
                .comments_full_at()
                .saturating_sub(self.interval)
                .max(now),
        );
    }

    fn clients(&self) -> MutexGuard<'_, HashMap<Key, Allowance>> {
        // Nothing panics while holding the lock; if something did, the table
        // is still consistent (every update is one assignment).
        self.clients.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Forgets clients whose allowances are full: they are as good as new.
fn prune(clients: &mut HashMap<Key, Allowance>, now: Duration) {
    clients.retain(|_, a| a.comments_full_at() > now || a.refunds_full_at() > now);
    if clients.capacity() > 4 * clients.len().max(64) {
        clients.shrink_to_fit();
    }
}

/// One comment taken from a client's allowance by [`ClientLimiter::charge`].
/// Dropped without [`Charge::keep`] (the request was abandoned before it
/// answered), it is given back.
#[must_use = "dropping a charge gives the comment back; call keep() once the comment is served"]
pub struct Charge<'a> {
    limiter: &'a ClientLimiter,
    key: Key,
    kept: bool,
}

impl Charge<'_> {
    /// The comment was served: it stays charged.
    pub fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for Charge<'_> {
    fn drop(&mut self) {
        if !self.kept {
            self.limiter.refund(self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    /// 20 a minute (one every 3 s), bursts of `burst`, on a clock the test moves.
    fn limiter(burst: u32) -> (ClientLimiter, ManualClock) {
        let clock = ManualClock::default();
        (ClientLimiter::with_clock(20, burst, clock.clone()), clock)
    }

    #[test]
    fn ipv6_clients_share_their_64s_allowance() {
        let (limiter, _clock) = limiter(1);
        limiter.charge(ip("2001:db8::1")).unwrap().keep();
        assert!(
            limiter.charge(ip("2001:db8::2")).is_err(),
            "same /64, same allowance"
        );
    }

    #[test]
    fn a_client_gets_its_burst_then_waits_while_another_is_served() {
        let (limiter, clock) = limiter(5);
        let (a, b) = (ip("198.51.100.1"), ip("198.51.100.2"));
        for _ in 0..5 {
            limiter.charge(a).unwrap().keep();
        }
        let wait = limiter.charge(a).err();
        assert_eq!(wait, Some(Duration::from_secs(3)), "one comment every 3 s");
        assert!(limiter.charge(b).is_ok(), "another client is not limited");

        clock.advance(Duration::from_millis(2999));
        assert_eq!(limiter.charge(a).err(), Some(Duration::from_millis(1)));
        clock.advance(Duration::from_millis(1));
        limiter.charge(a).unwrap().keep();
        assert!(limiter.charge(a).is_err(), "one came back, one was taken");
        // A long pause fills the allowance, and no more than that.
        clock.advance(Duration::from_secs(600));
        assert_eq!(limiter.remaining(a), 5);
    }

    #[test]
    fn a_request_dropped_before_it_answers_gives_its_comment_back() {
        let (limiter, _clock) = limiter(5);
        let a = ip("198.51.100.1");
        let first = limiter.charge(a).unwrap();
        assert_eq!(limiter.remaining(a), 4);
        drop(first);
        assert_eq!(limiter.remaining(a), 5, "abandoned: not charged");
        limiter.charge(a).unwrap().keep();
        assert_eq!(limiter.remaining(a), 4, "served: charged");
    }

    #[test]
    fn refunds_have_their_own_allowance_so_hanging_up_is_not_free_for_ever() {
        let (limiter, clock) = limiter(5);
        let a = ip("198.51.100.1");
        // Five abandoned requests are refunded, the sixth is not.
        for _ in 0..5 {
            drop(limiter.charge(a).unwrap());
        }
        assert_eq!(limiter.remaining(a), 5);
        drop(limiter.charge(a).unwrap());
        assert_eq!(limiter.remaining(a), 4);
        // Refunds come back at the same rate as comments.
        clock.advance(Duration::from_secs(3));
        assert_eq!(limiter.remaining(a), 5);
        drop(limiter.charge(a).unwrap());
        assert_eq!(limiter.remaining(a), 5);
    }

    #[test]
    fn a_visit_has_an_allowance_of_its_own_whatever_its_address() {
        let (limiter, _clock) = limiter(2);
        let school = ip("198.51.100.1");
        for _ in 0..2 {
            limiter.charge(school).unwrap().keep();
        }
        assert!(limiter.charge(school).is_err(), "the address's is spent");
        for visit in ["learner-one-aaaaaaaa", "learner-two-aaaaaaaa"] {
            limiter.charge_visit(visit).unwrap().keep();
            limiter.charge_visit(visit).unwrap().keep();
            assert!(limiter.charge_visit(visit).is_err(), "{visit}'s is spent");
        }
        assert_eq!(limiter.remaining(school), 0);
    }

    #[test]
    fn idle_clients_are_forgotten() {
        let (limiter, clock) = limiter(5);
        for i in 0..PRUNE_EVERY - 1 {
            let client = IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + i as u32));
            limiter.charge(client).unwrap().keep();
        }
        assert_eq!(limiter.clients().len(), (PRUNE_EVERY - 1) as usize);
        clock.advance(Duration::from_secs(3));
        // The 1024th charge prunes: every earlier client is full again.
        limiter.charge(ip("192.0.2.1")).unwrap().keep();
        assert_eq!(limiter.clients().len(), 1);
    }
}
