//! Which models a call may go to now: [`Breakers`], each model's breaker for
//! outages and its quality breaker per language, which must both let a call
//! through ([`Breakers::try_acquire`], whose [`Tickets`] say which probes the
//! call holds); when every door is shut, the last door opens the one whose
//! cool-down ends first. A finished call tells them what it was
//! ([`Breakers::record`]); spent credits or a refused key stop every model
//! on the same [`Account`]. How a failed call reads to a breaker is
//! [`failure`]. The router decides whether its strategy uses breakers at
//! all and which language's record a request uses; this file does the rest.

use std::time::Duration;

use foldhash::{HashMap, HashMapExt};

use tokio::time::Instant;

use super::{
    breaker::{Breaker, BreakerConfig, Failure, Ticket},
    by_lang::PerLang,
};
use crate::{model::Account, outcome::Outcome};
use vocabulary::Lang;

/// What the breakers granted one call: the model's (outages) and the
/// quality breaker's of the request's language. Only a probe's result
/// decides an open or half-open breaker; a dropped call hands its probes
/// back ([`Breakers::release_probe`]).
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

/// Every model's breakers, and whose credits each model spends.
#[derive(Default)]
pub struct Breakers {
    /// Outages: one breaker per model.
    pub(super) outage: HashMap<String, Breaker>,
    /// Unusable answers: one breaker per model and language.
    pub(super) quality: HashMap<String, PerLang<Breaker>>,
    /// Whose credits each model spends (a 402 stops its account's models).
    accounts: HashMap<String, Account>,
    pub(super) config: BreakerConfig,
}

impl Breakers {
    /// Keeps the breakers of `models` (each alias with its account), starts
    /// new ones, forgets the rest. A resting breaker (misconfigured, credits
    /// spent) starts closed again: a reload is its fix.
    pub fn sync<'a>(&mut self, models: impl IntoIterator<Item = (&'a str, Account)>) {
        let config = self.config;
        let (mut outage, mut quality) = (HashMap::new(), HashMap::new());
        self.accounts.clear();
        for (alias, account) in models {
            self.accounts.insert(alias.to_string(), account);
            let breaker = self
                .outage
                .remove(alias)
                .filter(|b| !b.is_resting())
                .unwrap_or_else(|| Breaker::new(config));
            outage.insert(alias.to_string(), breaker);
            let per_lang = self
                .quality
                .remove(alias)
                .unwrap_or_else(|| PerLang::from_fn(|_| Breaker::new(config)));
            quality.insert(alias.to_string(), per_lang);
        }
        self.outage = outage;
        self.quality = quality;
    }

    /// The model's breaker for outages.
    pub fn model(&self, alias: &str) -> Option<&Breaker> {
        self.outage.get(alias)
    }

    /// The model's quality breakers, one per language.
    pub fn quality(&self, alias: &str) -> Option<&PerLang<Breaker>> {
        self.quality.get(alias)
    }

    /// Whether both of `alias`'s breakers let a call in `lang` through now.
    pub fn admits(&self, alias: &str, lang: Lang, now: Instant) -> bool {
        self.model(alias).is_none_or(|b| b.is_available(now))
            && self
                .quality(alias)
                .is_none_or(|q| q[lang].is_available(now))
    }

    /// Never every door shut: when a request has tried every admissible model
    /// in vain (or there was none), the open one among `candidates` whose
    /// cool-down ends first (the later of its breaker's and its quality
    /// breaker's in `lang`, when both are open) gets its half-open probe
    /// early, once per request. Misconfigured models are never returned.
    pub fn last_door<'a>(&mut self, candidates: &[&'a str], lang: Lang) -> Option<&'a str> {
        let soonest = candidates
            .iter()
            .copied()
            .filter_map(|a| {
                let model = self.outage.get(a)?;
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
            self.outage.get_mut(soonest),
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
        if tickets.model == Ticket::Probe {
            if let Some(b) = self.outage.get_mut(alias) {
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
        let model = match self.outage.get_mut(alias) {
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
                if let Some(b) = self.outage.get_mut(alias) {
                    b.release_probe();
                }
            }
            return None;
        };
        Some(Tickets { model, quality })
    }

    /// What one finished call of `alias` in `lang` tells the breakers. An
    /// answer tells the model's breaker that it is up, and the language's
    /// quality breaker whether it was any good; a failed call tells the
    /// model's breaker only (`wait`: the upstream's own estimate of when to
    /// try again). Spent credits (402) and a refused key (401) also rest the
    /// models on the same [`Account`] (the same key to the same host), and
    /// no other. A timeout behind our own queue ([`Outcome::QueueTimeout`])
    /// tells no breaker anything.
    pub fn record(
        &mut self,
        alias: &str,
        lang: Lang,
        outcome: &Outcome,
        wait: Option<Duration>,
        tickets: Tickets,
        now: Instant,
    ) {
        if let Some(q) = self.quality.get_mut(alias).map(|q| &mut q[lang]) {
            match outcome {
                Outcome::Ok => q.on_success(tickets.quality),
                Outcome::Rejected(_) => q.on_rejected(tickets.quality, now),
                // No answer: nothing learned of its quality; a probe of it
                // goes back for the next call.
                _ if tickets.quality == Ticket::Probe => q.release_probe(),
                _ => {}
            }
        }
        let Some(b) = self.outage.get_mut(alias) else {
            return;
        };
        match outcome {
            Outcome::Ok => b.on_success(tickets.model),
            Outcome::Rejected(_) => b.on_answered(tickets.model),
            Outcome::QueueTimeout => {
                if tickets.model == Ticket::Probe {
                    b.release_probe();
                }
            }
            // The whole account stops: its credits are spent, or its key refused.
            Outcome::Credits | Outcome::Unauthorized => {
                let why = failure(outcome, wait);
                let first = !b.is_resting();
                b.on_failure(why, now, tickets.model);
                let first = first && b.is_resting();
                self.stop_account(alias, why, first, now);
            }
            other => b.on_failure(failure(other, wait), now, tickets.model),
        }
    }

    /// `alias`'s account is stopped (a 402: its credits spent; a 401: its
    /// key refused): the other models on it (the same key to the same host,
    /// see [`crate::model::Account`]) rest too, as if each had had
    /// the answer. `first`: this answer began the rest (`alias` was not
    /// resting already): one WARN says what stopped and what to do.
    fn stop_account(&mut self, alias: &str, why: Failure, first: bool, now: Instant) {
        let Some(account) = self.accounts.get(alias).cloned() else {
            return;
        };
        let mut stopped = 1;
        for (other, b) in &mut self.outage {
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
            .outage
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
