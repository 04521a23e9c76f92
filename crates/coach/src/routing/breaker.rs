//! A circuit breaker per model, so a dead model is not called on every request.
//!
//! The classic three states (Nygard, *Release It!*, 2007; the same shape as
//! Hystrix and resilience4j):
//!
//! - **Closed**: calls go through. [`BreakerConfig::failure_threshold`]
//!   consecutive failures open it.
//! - **Open** until a time: no calls. A 429 (rate limited) or a 503 (model
//!   loading) opens it at once. The cool-down honours `Retry-After` /
//!   `estimated_time` when the upstream gave one (up to an hour); otherwise it
//!   starts at [`BreakerConfig::base_cooldown`] (2 s) and doubles each time the
//!   breaker opens again without a success in between, up to
//!   [`BreakerConfig::max_cooldown`] (30 s: a probe every 30 s costs little and
//!   finds a recovered model quickly).
//! - **Half-open** once the cool-down is over: exactly one probe call is let
//!   through; its success closes the breaker, its failure opens it again.
//!
//! A fourth state, **resting**, is for faults that time rarely heals but an
//! operator may fix outside: **misconfigured** (401, 403, 404, a 400 saying
//! the model is not supported, 410; a gated model's licence accepted on the
//! Hub, a token given the permission) and **credits** (402: the month's
//! credits spent, until they are bought or the month resets). The model rests for
//! [`BreakerConfig::misconfigured_cooldown`] (an hour), doubling each time its
//! probe finds it misconfigured again up to
//! [`BreakerConfig::max_misconfigured_cooldown`] (a day), then gets a
//! half-open probe like an open breaker (never an early one from the last
//! door). Only a good answer starts the doubling afresh; a reload of the
//! registry ends the rest at once.
//!
//! **Unusable answers** are told apart from an outage: a rejected answer
//! (empty, or rambling past the length limit) shows the model is up, so it does
//! not count towards the failure threshold ([`Breaker::on_answered`]); but
//! [`BreakerConfig::rejection_threshold`] rejected answers in a row (5) mean it
//! is up and useless (a chat template or stop token that does not fit it, or
//! a language it does not write), and open a breaker for longer:
//! [`BreakerConfig::quality_cooldown`] (30 s), doubling up to
//! [`BreakerConfig::max_quality_cooldown`] (10 min), since such a fault
//! rarely heals by itself ([`Breaker::on_rejected`]). Its half-open probe
//! decides as usual. The router keeps one breaker per model for outages, told
//! of answers with `on_answered`, and one per model and language for
//! answers, told with `on_rejected` and `on_success` only: a model that
//! writes no Portuguese rests in Portuguese and still answers in English.
//!
//! Only the half-open probe's result decides an open or half-open breaker
//! ([`Ticket`]); a misconfiguration stops the model whoever reports it.
//!
//! Time is tokio's [`Instant`], so tests drive it with `tokio::time::pause()`.
//! A leaf: it imports nothing of the coach (the router reads a failed call into a [`Failure`]).
//! What the snapshot keeps of a breaker is [`saved`]'s.

use std::time::Duration;

use serde::Serialize;
use tokio::time::Instant;

/// Longest `Retry-After` / `estimated_time` honoured.
const MAX_HINT: Duration = Duration::from_secs(3600);

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BreakerConfig {
    pub failure_threshold: u32,
    pub base_cooldown: Duration,
    pub max_cooldown: Duration,
    /// Rejected answers in a row that open the breaker.
    pub rejection_threshold: u32,
    pub quality_cooldown: Duration,
    pub max_quality_cooldown: Duration,
    /// The first rest of a misconfigured model, and the longest.
    pub misconfigured_cooldown: Duration,
    pub max_misconfigured_cooldown: Duration,
}

impl Default for BreakerConfig {
    fn default() -> Self {
        Self {
            failure_threshold: 3,
            base_cooldown: Duration::from_secs(2),
            max_cooldown: Duration::from_secs(30),
            rejection_threshold: 5,
            quality_cooldown: Duration::from_secs(30),
            max_quality_cooldown: Duration::from_secs(600),
            misconfigured_cooldown: Duration::from_secs(3600),
            max_misconfigured_cooldown: Duration::from_secs(24 * 3600),
        }
    }
}

/// How a failure affects the breaker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Failure {
    /// Counts towards the threshold (5xx, timeouts, refused connections, bad bodies).
    Transient,
    /// Opens at once, for the given time if the upstream said (429, 503 loading).
    Throttled(Option<Duration>),
    /// Stops calls for an hour or more, or until the registry is reloaded
    /// (401, 403, 404, 400 unsupported, 410).
    Misconfigured,
    /// The same rest, for spent credits (402).
    Credits,
}

/// Why a resting breaker rests (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rest {
    Misconfigured,
    Credits,
}

impl Rest {
    /// The state's name in `/models` and `/metrics`.
    fn name(self) -> &'static str {
        match self {
            Rest::Misconfigured => "misconfigured",
            Rest::Credits => "credits",
        }
    }
}

/// What [`Breaker::acquire`] granted a call: the right to be the half-open
/// probe, or an ordinary call through a closed breaker. The call carries it
/// to [`Breaker::on_success`] / [`Breaker::on_failure`], so only the probe's
/// result decides a half-open breaker: a call that started before the breaker
/// opened (or any other call) cannot close it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ticket {
    /// An ordinary call (the breaker was closed, or there is none).
    Ordinary,
    /// The single half-open probe.
    Probe,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    Closed {
        failures: u32,
    },
    Open {
        until: Instant,
    },
    HalfOpen {
        probing: bool,
    },
    /// Stopped until a time, for a reason (see the module docs).
    Resting {
        until: Instant,
        why: Rest,
    },
}

/// What `/models` shows of a breaker.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BreakerReport {
    /// `closed`, `open`, `half_open`, or resting: `misconfigured` or `credits`.
    pub state: &'static str,
    /// Seconds until an open or resting breaker lets a probe through.
    pub retry_in_s: Option<f64>,
    pub consecutive_failures: u32,
    /// Rejected answers in a row (see the module docs).
    pub consecutive_rejections: u32,
}

#[derive(Clone, Debug)]
pub struct Breaker {
    config: BreakerConfig,
    state: State,
    /// Times opened since the last success: the exponent of the cool-down.
    opened_in_a_row: u32,
    /// Rejected answers since the last good one.
    rejected_in_a_row: u32,
    /// Rests since the last good answer: the exponent of the next.
    rests_in_a_row: u32,
}

impl Breaker {
    pub fn new(config: BreakerConfig) -> Self {
        Self {
            config,
            state: State::Closed { failures: 0 },
            opened_in_a_row: 0,
            rejected_in_a_row: 0,
            rests_in_a_row: 0,
        }
    }

    /// May a call start now? An open (or misconfigured) breaker whose
    /// cool-down is over becomes half-open and lets this one call through as
    /// its probe. `None` when refused.
    pub fn acquire(&mut self, now: Instant) -> Option<Ticket> {
        match self.state {
            State::Closed { .. } => Some(Ticket::Ordinary),
            State::Open { until } | State::Resting { until, .. } if now >= until => {
                self.state = State::HalfOpen { probing: true };
                Some(Ticket::Probe)
            }
            State::HalfOpen { probing: false } => {
                self.state = State::HalfOpen { probing: true };
                Some(Ticket::Probe)
            }
            State::Open { .. } | State::HalfOpen { probing: true } | State::Resting { .. } => None,
        }
    }

    /// Would [`Breaker::acquire`] say yes? (Without claiming the probe.)
    pub fn is_available(&self, now: Instant) -> bool {
        match self.state {
            State::Closed { .. } | State::HalfOpen { probing: false } => true,
            State::Open { until } | State::Resting { until, .. } => now >= until,
            State::HalfOpen { probing: true } => false,
        }
    }

    /// When an open breaker will let a probe through (`None` unless open:
    /// the last door never opens early for a resting model).
    pub fn open_until(&self) -> Option<Instant> {
        match self.state {
            State::Open { until } => Some(until),
            _ => None,
        }
    }

    /// A half-open probe call is under way.
    pub fn is_probing(&self) -> bool {
        self.state == State::HalfOpen { probing: true }
    }

    /// Why it rests, if it does (misconfigured, or out of credits).
    pub fn resting(&self) -> Option<Rest> {
        match self.state {
            State::Resting { why, .. } => Some(why),
            _ => None,
        }
    }

    pub fn is_resting(&self) -> bool {
        self.resting().is_some()
    }

    /// Ends the cool-down early (the last door when every breaker is open): the
    /// next [`Breaker::acquire`] gets the half-open probe.
    pub fn force_probe(&mut self) {
        if !self.is_resting() {
            self.state = State::HalfOpen { probing: false };
        }
    }

    /// The probe call was abandoned unfinished: the next call may probe.
    pub fn release_probe(&mut self) {
        if self.is_probing() {
            self.state = State::HalfOpen { probing: false };
        }
    }

    /// Whether a result carried by `ticket` is news to this breaker: a
    /// closed one hears every call, an open or half-open one only its probe.
    fn hears(&self, ticket: Ticket) -> bool {
        match self.state {
            State::Resting { .. } => false,
            State::Closed { .. } => true,
            State::Open { .. } | State::HalfOpen { .. } => ticket == Ticket::Probe,
        }
    }

    /// The model gave a good answer. An open or half-open breaker closes only
    /// on its probe's answer.
    pub fn on_success(&mut self, ticket: Ticket) {
        if self.hears(ticket) {
            self.state = State::Closed { failures: 0 };
            self.opened_in_a_row = 0;
            self.rejected_in_a_row = 0;
            self.rests_in_a_row = 0;
        }
    }

    /// The model answered (an answer the checks then rejected): it is up.
    /// Its transient failures are forgotten and, when this is the probe's
    /// answer, an open or half-open breaker closes. (Whether the answers are
    /// any good is a quality breaker's business: [`Breaker::on_rejected`].)
    pub fn on_answered(&mut self, ticket: Ticket) {
        if self.hears(ticket) {
            self.state = State::Closed { failures: 0 };
            self.opened_in_a_row = 0;
        }
    }

    /// The model answered, but the answer was rejected: it is up (its
    /// transient failures are forgotten), and after
    /// [`BreakerConfig::rejection_threshold`] such answers in a row (or a
    /// rejected probe) it opens for the longer quality cool-down.
    pub fn on_rejected(&mut self, ticket: Ticket, now: Instant) {
        if !self.hears(ticket) {
            return;
        }
        self.rejected_in_a_row = self.rejected_in_a_row.saturating_add(1);
        let probe = !matches!(self.state, State::Closed { .. });
        if probe || self.rejected_in_a_row >= self.config.rejection_threshold {
            let cooldown = grown(
                self.config.quality_cooldown,
                self.opened_in_a_row,
                self.config.max_quality_cooldown,
            );
            self.open_for(now, cooldown);
        } else {
            self.state = State::Closed { failures: 0 };
        }
    }

    /// A call failed. A misconfiguration or spent credits stop the model
    /// whoever reports it (once: other calls meeting it while it rests do
    /// not lengthen the rest); otherwise an open or half-open breaker hears only its probe (an
    /// ordinary call that started before it opened says nothing new).
    pub fn on_failure(&mut self, failure: Failure, now: Instant, ticket: Ticket) {
        match (self.state, failure, ticket) {
            (State::Resting { .. }, ..) => {}
            (_, Failure::Misconfigured, _) => self.rest(now, Rest::Misconfigured),
            (_, Failure::Credits, _) => self.rest(now, Rest::Credits),
            (State::Open { .. } | State::HalfOpen { .. }, _, Ticket::Ordinary) => {}
            (State::Open { .. } | State::HalfOpen { .. }, Failure::Transient, Ticket::Probe) => {
                self.open(now, None);
            }
            (_, Failure::Throttled(hint), _) => self.open(now, hint),
            (State::Closed { failures }, Failure::Transient, _) => {
                let failures = failures + 1;
                if failures >= self.config.failure_threshold {
                    self.open(now, None);
                } else {
                    self.state = State::Closed { failures };
                }
            }
        }
    }

    fn open(&mut self, now: Instant, hint: Option<Duration>) {
        let grown = grown(
            self.config.base_cooldown,
            self.opened_in_a_row,
            self.config.max_cooldown,
        );
        // The upstream's own estimate wins (bounded to an hour against nonsense).
        self.open_for(now, hint.map_or(grown, |h| h.min(MAX_HINT)));
    }

    /// Rests the model for an hour, twice as long each time again, up to a day.
    fn rest(&mut self, now: Instant, why: Rest) {
        let rest = grown(
            self.config.misconfigured_cooldown,
            self.rests_in_a_row,
            self.config.max_misconfigured_cooldown,
        );
        self.rests_in_a_row = self.rests_in_a_row.saturating_add(1);
        self.state = State::Resting {
            until: now + rest,
            why,
        };
    }

    fn open_for(&mut self, now: Instant, cooldown: Duration) {
        self.opened_in_a_row = self.opened_in_a_row.saturating_add(1);
        self.state = State::Open {
            until: now + cooldown,
        };
    }

    pub fn report(&self, now: Instant) -> BreakerReport {
        let (state, retry_in_s, consecutive_failures) = match self.state {
            State::Closed { failures } => ("closed", None, failures),
            State::Open { until } => (
                "open",
                Some(until.saturating_duration_since(now).as_secs_f64()),
                0,
            ),
            State::HalfOpen { .. } => ("half_open", None, 0),
            State::Resting { until, why } => (
                why.name(),
                Some(until.saturating_duration_since(now).as_secs_f64()),
                0,
            ),
        };
        BreakerReport {
            state,
            retry_in_s,
            consecutive_failures,
            consecutive_rejections: self.rejected_in_a_row,
        }
    }
}

/// `base × 2^times`, at most `max`.
fn grown(base: Duration, times: u32, max: Duration) -> Duration {
    base.saturating_mul(1 << times.min(16)).min(max)
}

mod saved;
pub use saved::SavedBreaker;

#[cfg(test)]
mod tests;
