//! A call's way in, as the service asks the router for it under its lock:
//! which candidates the breakers admit, the tickets a call holds and hands
//! back, its place in its model's queue, and whether a slow call gets a
//! hedge. Each is the part's own ([`Breakers`], [`Queues`](super::Queues), [`Hedging`]);
//! the router adds what only it knows: whether its strategy uses breakers,
//! which language's breaker a request uses, and that something changed (the
//! generation a cached report checks).

use std::time::Duration;

use tokio::time::Instant;

use super::{breaker::Breaker, queue::Place, Breakers, Hedging, Router, Tickets};
use crate::outcome::Outcome;
use vocabulary::Lang;

impl Router {
    /// The model's breaker for outages, when the strategy uses breakers.
    pub fn breaker(&self, alias: &str) -> Option<&Breaker> {
        self.breakers().and_then(|b| b.model(alias))
    }

    /// The model's quality breaker in `lang`, when the strategy uses breakers.
    pub fn quality_breaker(&self, alias: &str, lang: Lang) -> Option<&Breaker> {
        let lang = self.context(lang);
        self.breakers()
            .and_then(|b| b.quality(alias))
            .map(|q| &q[lang])
    }

    /// The breakers, when the strategy uses them.
    fn breakers(&self) -> Option<&Breakers> {
        Some(&self.breakers).filter(|_| self.strategy.uses_breakers())
    }

    /// The candidates whose breakers let a call in `lang` through now.
    pub fn admissible<'a>(&self, candidates: &[&'a str], lang: Lang, now: Instant) -> Vec<&'a str> {
        let lang = self.context(lang);
        candidates
            .iter()
            .copied()
            .filter(|a| self.breakers().is_none_or(|b| b.admits(a, lang, now)))
            .collect()
    }

    /// The last door ([`Breakers::last_door`]), when the strategy uses
    /// breakers.
    pub fn last_door<'a>(&mut self, candidates: &[&'a str], lang: Lang) -> Option<&'a str> {
        self.changed();
        if !self.strategy.uses_breakers() {
            return None;
        }
        let lang = self.context(lang);
        self.breakers.last_door(candidates, lang)
    }

    /// Hands back the probes of an abandoned call
    /// ([`Breakers::release_probe`]).
    pub fn release_probe(&mut self, alias: &str, lang: Lang, tickets: Tickets) {
        self.changed();
        let lang = self.context(lang);
        self.breakers.release_probe(alias, lang, tickets);
    }

    /// Claims the right to call `alias` now for a request in `lang`
    /// ([`Breakers::try_acquire`]); every call may go when the strategy uses
    /// no breakers. `None` when refused.
    pub fn try_acquire(&mut self, alias: &str, lang: Lang, now: Instant) -> Option<Tickets> {
        self.changed();
        if !self.strategy.uses_breakers() {
            return Some(Tickets::ORDINARY);
        }
        let lang = self.context(lang);
        self.breakers.try_acquire(alias, lang, now)
    }

    /// Takes a place in `alias`'s queue at its pace ([`Queues::enqueue`](super::Queues::enqueue)).
    pub fn enqueue(
        &mut self,
        alias: &str,
        limit: Option<u32>,
        time_left: Duration,
    ) -> Result<Place, Outcome> {
        // Only a model with a limit is paced (`queue::admits`): the median
        // is not worked out for the others.
        let pace = limit.and_then(|_| self.pace(alias));
        let place = self.queues.enqueue(alias, limit, pace, time_left)?;
        self.changed();
        Ok(place)
    }

    /// A call to `alias` left its queue ([`Queues::dequeue`](super::Queues::dequeue)).
    pub fn dequeue(&mut self, alias: &str, answered: bool) {
        self.queues.dequeue(alias, answered);
        self.changed();
    }

    /// See [`Queues::timed_out_in_queue`](super::Queues::timed_out_in_queue).
    pub fn timed_out_in_queue(&self, alias: &str, place: Place) -> bool {
        self.queues.timed_out_in_queue(alias, place)
    }

    /// Calls to `alias` under way now.
    pub fn in_flight(&self, alias: &str) -> u32 {
        self.queues.in_flight(alias)
    }

    /// The time one answer of `alias` takes: the median of its latest
    /// answers' times (`None` before the first).
    pub fn pace(&self, alias: &str) -> Option<Duration> {
        self.records.get(alias)?.window.quantile(0.5)
    }

    /// Turns hedging on with at most `ratio` extra calls per request, or off.
    pub fn set_hedging(&mut self, ratio: Option<f64>) {
        self.hedging = Hedging::new(ratio);
    }

    /// A request arrived: it earns its share of the hedge budget.
    pub fn on_request(&mut self) {
        self.hedging.on_request();
    }

    /// How long to wait for `alias` before hedging ([`Hedging::delay`]).
    pub fn hedge_delay(&self, alias: &str) -> Option<Duration> {
        self.hedging.delay(&self.records.get(alias)?.window)
    }

    /// Spends one hedge from the budget, if there is one left.
    pub fn try_hedge(&mut self) -> bool {
        self.hedging.try_hedge()
    }
}
