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
use crate::outcome::Outcome;
use vocabulary::Lang;

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
                if model.is_resting() {
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

    /// `alias`'s account is stopped (a 402: its credits spent; a 401: its
    /// key refused): the other models on it (the same key to the same host,
    /// see [`crate::model::Account`]) rest too, as if each had had
    /// the answer. `first`: this answer began the rest (`alias` was not
    /// resting already): one WARN says what stopped and what to do.
    pub(super) fn stop_account(&mut self, alias: &str, why: Failure, first: bool, now: Instant) {
        let Some(account) = self.accounts.get(alias).cloned() else {
            return;
        };
        let mut stopped = 1;
        for (other, b) in &mut self.breakers {
            let shared = self
                .accounts
                .get(other)
                .is_some_and(|a| account.shares_credits_with(a));
            if other != alias && shared {
                b.on_failure(why, now, Ticket::Ordinary);
                stopped += 1;
            }
        }
        if !first {
            return;
        }
        let rest = self
            .breakers
            .get(alias)
            .and_then(|b| b.report(now).retry_in_s)
            .map_or_else(String::new, |s| format!(" for {:.0} min", s / 60.0));
        let (key, host) = (&account.key, &account.host);
        match why {
            Failure::Credits => tracing::warn!(
                "credits spent (402) on {key} at {host}: its {stopped} model(s) rest{rest} (each rest twice the last, up to a day) or until the registry is reloaded; buy pre-paid credits or wait for the month's to reset"
            ),
            _ => tracing::warn!(
                "{key} refused (401) by {host}: its {stopped} model(s) rest{rest} (each rest twice the last, up to a day) or until the registry is reloaded; set a valid key (Hugging Face: a fine-grained token allowed to \"Make calls to Inference Providers\")"
            ),
        }
    }
}

/// The breaker's reading of a failed call.
pub(super) fn failure(outcome: &Outcome, wait: Option<Duration>) -> Failure {
    match outcome {
        Outcome::Unavailable | Outcome::RateLimited => Failure::Throttled(wait),
        Outcome::Credits => Failure::Credits,
        Outcome::Unauthorized | Outcome::Forbidden | Outcome::ModelNotSupported | Outcome::Gone => {
            Failure::Misconfigured
        }
        _ => Failure::Transient,
    }
}
