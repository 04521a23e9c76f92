//! Which models one request may still call, and which is next: the router's
//! order in the request's language, models whose breakers let go since the
//! request began, and the last door. A model whose queue is full (or would
//! not let the call finish in time: `routing::queue`) is skipped at once, and
//! a forced model (`?model=`) is the only candidate; why a model was not
//! called is noted in `tried`.
//! Chooses; calls nothing (that is `call`'s).

use std::{collections::VecDeque, future::Future};

use tokio::time::Instant;

use super::{
    call::{Call, Hold},
    comment::tried_entry,
    Coach, OFFLINE,
};
use crate::{
    budget::ClientKey,
    model::ModelSpec,
    outcome::Outcome,
    prompt::Prompt,
    registry::Registry,
    response::{Limited, Tried},
    routing::{
        breaker::{Breaker, Rest},
        queue::Place,
        Tickets,
    },
};
use vocabulary::Lang;

/// Which models this request may still call.
pub(super) struct Plan<'r> {
    pub(super) queue: VecDeque<String>,
    /// Every enabled, usable model: where the last door is looked for.
    pub(super) candidates: Vec<&'r str>,
    pub(super) called: Vec<String>,
    pub(super) forced: bool,
    /// The request's language: whose records and quality breakers count.
    pub(super) lang: Lang,
    /// The model called through the last door, once it has been.
    pub(super) last_door: Option<String>,
    /// Calls under way: (alias, started).
    pub(super) in_flight: Vec<(String, Instant)>,
    /// Whose share of the day's model calls this request spends.
    pub(super) client: ClientKey,
    /// The budget limit that stopped this request's calls.
    pub(super) limited: Option<Limited>,
    /// Models not called, and why (see the module docs).
    pub(super) refused: Vec<Tried>,
}

impl<'r> Plan<'r> {
    /// The candidates this request has not called yet.
    pub(super) fn uncalled(&self) -> Vec<&'r str> {
        self.candidates
            .iter()
            .copied()
            .filter(|c| !self.called.iter().any(|a| a == c))
            .collect()
    }

    /// Notes why `alias` was not called.
    pub(super) fn refuse(&mut self, alias: String, why: Outcome) {
        self.refused
            .push(tried_entry(&alias, why, std::time::Duration::ZERO));
    }

    /// No model is left to ask (so no budget is needed): neither the queue,
    /// nor a model not yet called (which could rejoin or be the last door).
    pub(super) fn exhausted(&self) -> bool {
        self.queue.is_empty() && (self.forced || self.uncalled().is_empty())
    }
}

impl Coach {
    /// The next call, started: the upstream budget has room and a model is
    /// left ([`Coach::next_call`]; a hedge takes only the queue, never the last
    /// door). The budget comes first, so a refusal never strands a claimed
    /// probe. Without room the request asks no more models, unless this was a
    /// hedge, which is only an extra.
    pub(super) fn start<'a>(
        &'a self,
        registry: &'a Registry,
        plan: &mut Plan<'_>,
        prompt: &'a Prompt,
        deadline: Instant,
        hedge: bool,
    ) -> Option<impl Future<Output = Call<'a>> + 'a> {
        if plan.limited.is_some() || plan.exhausted() {
            return None;
        }
        let permit = match self.budget.try_start(plan.client) {
            Ok(permit) => permit,
            Err(limit) => {
                if !hedge {
                    tracing::warn!(limit = ?limit, "upstream budget: no more model calls");
                    plan.limited = Some(limit);
                    if plan.forced {
                        let why = match limit {
                            Limited::Busy => Outcome::Busy,
                            _ => Outcome::DailyBudget,
                        };
                        plan.refuse(plan.queue.front().cloned().unwrap_or_default(), why);
                    }
                }
                return None;
            }
        };
        let Some((spec, tickets, place)) = self.next_call(registry, plan, deadline, !hedge) else {
            permit.refund();
            return None;
        };
        plan.in_flight.push((spec.alias.clone(), Instant::now()));
        let hold = Hold::new(self, &spec.alias, plan.lang, tickets);
        Some(self.call(spec, prompt, deadline, permit, hold, place))
    }

    /// The forced model alone (if enabled and usable), or the models admissible
    /// in `lang` in the router's order (and a request's share of the hedge
    /// budget).
    pub(super) fn plan<'r>(
        &self,
        registry: &'r Registry,
        forced: Option<&str>,
        lang: Lang,
        client: ClientKey,
    ) -> Plan<'r> {
        let mut plan = Plan {
            queue: VecDeque::new(),
            candidates: self.candidates(registry, lang),
            called: Vec::new(),
            forced: forced.is_some(),
            lang,
            last_door: None,
            in_flight: Vec::new(),
            client,
            limited: None,
            refused: Vec::new(),
        };
        match forced {
            Some(OFFLINE) => {}
            Some(alias) => match registry.get(alias) {
                None => plan.refuse(alias.to_string(), Outcome::Unknown),
                Some(m) if !m.enabled => plan.refuse(alias.to_string(), Outcome::Disabled),
                Some(m) if !self.catalog().speaks(m, lang) => {
                    plan.refuse(alias.to_string(), Outcome::OtherLanguage)
                }
                Some(m) if !self.provider.usable(m) => {
                    plan.refuse(alias.to_string(), Outcome::NoToken)
                }
                Some(m) if !self.catalog().is_served(m) => {
                    plan.refuse(alias.to_string(), Outcome::NotServed)
                }
                Some(_) => plan.queue.push_back(alias.to_string()),
            },
            None => {
                let (mut rng, mut router) = self.rng_and_router();
                router.on_request();
                let admissible = router.admissible(&plan.candidates, lang, Instant::now());
                plan.queue = router.order(&admissible, lang, &mut *rng).into();
            }
        }
        plan
    }

    /// The next model to call, its breakers' permission claimed and a place
    /// taken in its queue. When the order runs out, models not yet called
    /// whose breakers have let go since the request began join it; after
    /// them, the last door (if `last_door`). `None` when nothing is left or
    /// the deadline has passed; with the spec, the breakers' tickets for this
    /// call and its place in the model's queue.
    pub(super) fn next_call<'r>(
        &self,
        registry: &'r Registry,
        plan: &mut Plan<'_>,
        deadline: Instant,
        last_door: bool,
    ) -> Option<(&'r ModelSpec, Tickets, Place)> {
        let lang = plan.lang;
        while Instant::now() < deadline {
            let alias = match plan.queue.pop_front() {
                Some(alias) => alias,
                None if plan.forced => return None,
                None => {
                    let left = plan.uncalled();
                    let (mut rng, mut router) = self.rng_and_router();
                    let admissible = router.admissible(&left, lang, Instant::now());
                    if !admissible.is_empty() {
                        plan.queue = router.order(&admissible, lang, &mut *rng).into();
                        continue;
                    }
                    if !last_door || plan.last_door.is_some() {
                        return None;
                    }
                    let alias = router.last_door(&left, lang)?.to_string();
                    plan.last_door = Some(alias.clone());
                    alias
                }
            };
            let Some(spec) = registry.get(&alias) else {
                continue;
            };
            let now = Instant::now();
            let mut router = self.router();
            let Some(tickets) = router.try_acquire(&alias, lang, now) else {
                if plan.forced {
                    // Its breaker keeps it out, forced or not.
                    let resting = router.breaker(&alias).and_then(Breaker::resting);
                    drop(router);
                    plan.refuse(
                        alias,
                        match resting {
                            Some(Rest::Misconfigured) => Outcome::Misconfigured,
                            Some(Rest::Credits) => Outcome::Credits,
                            None => Outcome::BreakerOpen,
                        },
                    );
                }
                continue;
            };
            // Its queue: skipped at once when full, or when the calls ahead
            // would not leave it time to finish (`routing::queue`).
            let time_left = spec.timeout.min(deadline.saturating_duration_since(now));
            let place = router.enqueue(&alias, spec.max_concurrency, time_left);
            if place.is_err() {
                router.release_probe(&alias, lang, tickets);
            }
            drop(router);
            plan.called.push(alias.clone());
            match place {
                Ok(place) => return Some((spec, tickets, place)),
                Err(why) => plan.refuse(alias, why),
            }
        }
        None
    }
}
