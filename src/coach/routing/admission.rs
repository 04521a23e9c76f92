//! Which models a call may go to now: each model's breaker for outages and
//! its quality breaker in the request's language must both let it through
//! ([`Router::try_acquire`], whose [`Tickets`] say which probes the call
//! holds), and when every door is shut, the last door opens the one whose
//! cool-down ends first. How a failed call reads to a breaker is
//! [`failure`].

use std::time::Duration;

use tokio::time::Instant;

use super::{
    breaker::{Breaker, Failure, Ticket},
    Router,
};
use crate::coach::{lang::Lang, outcome::Outcome};

/// What the breakers granted one call: the model's (outages) and the
/// quality breaker's of the request's language. Only a probe's result
/// decides an open or half-open breaker; a dropped call hands its probes
/// back ([`Router::release_probe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tickets {
    pub model: Ticket,
    pub quality: Ticket,
}

impl Tickets {
    /// A call no breaker keeps an eye on.
    pub const ORDINARY: Tickets = Tickets {
        model: Ticket::Ordinary,
        quality: Ticket::Ordinary,
    };

    /// Whether the call holds a half-open probe.
    pub fn holds_probe(&self) -> bool {
        self.model == Ticket::Probe || self.quality == Ticket::Probe
    }
}

impl Router {
    /// The model's breaker for outages, when the strategy uses breakers.
    pub fn breaker(&self, alias: &str) -> Option<&Breaker> {
        self.breakers
            .get(alias)
            .filter(|_| self.strategy.uses_breakers())
    }

    /// The model's quality breaker in `lang`, when the strategy uses breakers.
    pub fn quality_breaker(&self, alias: &str, lang: Lang) -> Option<&Breaker> {
        self.quality
            .get(alias)
            .filter(|_| self.strategy.uses_breakers())
            .map(|q| &q[self.context(lang)])
    }

    /// The candidates whose breakers let a call in `lang` through now.
    pub fn admissible<'a>(&self, candidates: &[&'a str], lang: Lang, now: Instant) -> Vec<&'a str> {
        candidates
            .iter()
            .copied()
            .filter(|a| {
                self.breaker(a).is_none_or(|b| b.is_available(now))
                    && self
                        .quality_breaker(a, lang)
                        .is_none_or(|b| b.is_available(now))
            })
            .collect()
    }

    /// Never every door shut: when a request has tried every admissible model
    /// in vain (or there was none), the open one among `candidates` whose
    /// cool-down ends first (the later of its breaker's and its quality
    /// breaker's in `lang`, when both are open) gets its half-open probe
    /// early, once per request. Misconfigured models are never returned.
    pub fn last_door<'a>(&mut self, candidates: &[&'a str], lang: Lang) -> Option<&'a str> {
        self.changed();
        if !self.strategy.uses_breakers() {
            return None;
        }
        let lang = self.context(lang);
        let soonest = candidates
            .iter()
            .copied()
            .filter_map(|a| {
                let model = self.breakers.get(a)?;
                if model.is_misconfigured() {
                    return None;
                }
                let quality = self.quality.get(a).and_then(|q| q[lang].open_until());
                let until = model.open_until().into_iter().chain(quality).max()?;
                Some((a, until))
            })
            .min_by_key(|(_, until)| *until)
            .map(|(a, _)| a)?;
        for b in [
            self.breakers.get_mut(soonest),
            self.quality.get_mut(soonest).map(|q| &mut q[lang]),
        ]
        .into_iter()
        .flatten()
        {
            if b.open_until().is_some() {
                b.force_probe();
            }
        }
        Some(soonest)
    }

    /// A call in `lang` was abandoned before it finished (cancelled hedge,
    /// deadline, or the visitor left): the probes its `tickets` hold go back,
    /// so the next call may probe.
    pub fn release_probe(&mut self, alias: &str, lang: Lang, tickets: Tickets) {
        self.changed();
        let lang = self.context(lang);
        if tickets.model == Ticket::Probe {
            if let Some(b) = self.breakers.get_mut(alias) {
                b.release_probe();
            }
        }
        if tickets.quality == Ticket::Probe {
            if let Some(q) = self.quality.get_mut(alias) {
                q[lang].release_probe();
            }
        }
    }

    /// Claims the right to call `alias` now for a request in `lang`: both its
    /// breakers must agree. The [`Tickets`] say whether this call is either
    /// breaker's single half-open probe (to hand back if it is dropped, and
    /// whose result alone decides that breaker). `None` when refused.
    pub fn try_acquire(&mut self, alias: &str, lang: Lang, now: Instant) -> Option<Tickets> {
        self.changed();
        if !self.strategy.uses_breakers() {
            return Some(Tickets::ORDINARY);
        }
        let lang = self.context(lang);
        let model = match self.breakers.get_mut(alias) {
            Some(b) => b.acquire(now)?,
            None => Ticket::Ordinary,
        };
        let quality = match self.quality.get_mut(alias) {
            Some(q) => q[lang].acquire(now),
            None => Some(Ticket::Ordinary),
        };
        let Some(quality) = quality else {
            // Refused in this language: a model probe claimed above goes back.
            if model == Ticket::Probe {
                if let Some(b) = self.breakers.get_mut(alias) {
                    b.release_probe();
                }
            }
            return None;
        };
        Some(Tickets { model, quality })
    }

    /// `alias` spent its account's credits: the other models on that account
    /// stop too (their breakers open as if each had answered 402).
    pub(super) fn credits_spent(&mut self, alias: &str, now: Instant) {
        let Some(account) = self.accounts.get(alias) else {
            return;
        };
        for (other, b) in &mut self.breakers {
            let shared = self
                .accounts
                .get(other)
                .is_some_and(|a| account.shares_credits_with(a));
            if other != alias && shared {
                b.on_failure(Failure::Throttled(None), now, Ticket::Ordinary);
            }
        }
    }
}

/// The breaker's reading of a failed call.
pub(super) fn failure(outcome: &Outcome, wait: Option<Duration>) -> Failure {
    match outcome {
        Outcome::Loading | Outcome::RateLimited | Outcome::Credits => Failure::Throttled(wait),
        Outcome::Unauthorized | Outcome::ModelNotSupported | Outcome::Gone => {
            Failure::Misconfigured
        }
        _ => Failure::Transient,
    }
}
