//! Which models one request may still call, and which is next: the router's
//! order in the request's language, models whose breakers let go since the
//! request began, and the last door. A model whose queue is full (or would
//! not let the call finish in time: `routing::queue`) is skipped at once, and
//! a forced model (`?model=`) is the only candidate; why a model was not
//! called is noted in `tried`.
//! Chooses; calls nothing (that is [`super::call`]'s), spends no budget
//! (that is the request's).

use std::collections::VecDeque;

use tokio::time::Instant;

use super::{Coach, OFFLINE};
use crate::{
    budget::ClientKey,
    model::ModelSpec,
    outcome::Outcome,
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
    pub(super) queue: VecDeque<&'r str>,
    /// Every enabled, usable model: where the last door is looked for.
    pub(super) candidates: Vec<&'r str>,
    pub(super) called: Vec<&'r str>,
    pub(super) forced: bool,
    /// The request's language: whose records and quality breakers count.
    pub(super) lang: Lang,
    /// The model called through the last door, once it has been.
    pub(super) last_door: Option<&'r str>,
    /// Calls under way: (alias, started).
    pub(super) in_flight: Vec<(&'r str, Instant)>,
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
    pub(super) fn refuse(&mut self, alias: &str, why: Outcome) {
        self.refused
            .push(Tried::new(alias, why, std::time::Duration::ZERO));
    }

    /// No model is left to ask (so no budget is needed): neither the queue,
    /// nor a model not yet called (which could rejoin or be the last door).
    pub(super) fn exhausted(&self) -> bool {
        self.queue.is_empty() && (self.forced || self.uncalled().is_empty())
    }

    /// The forced model alone (if enabled and usable), or the models admissible
    /// in `lang` in the router's order (and a request's share of the hedge
    /// budget).
    pub(super) fn new(
        coach: &Coach,
        registry: &'r Registry,
        forced: Option<&str>,
        lang: Lang,
        client: ClientKey,
    ) -> Self {
        let mut plan = Plan {
            queue: VecDeque::new(),
            candidates: coach.candidates(registry, lang),
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
                None => plan.refuse(alias, Outcome::Unknown),
                Some(m) if !m.enabled => plan.refuse(alias, Outcome::Disabled),
                Some(m) if !coach.catalog().speaks(m, lang) => {
                    plan.refuse(alias, Outcome::OtherLanguage)
                }
                Some(m) if !coach.provider.usable(m) => plan.refuse(alias, Outcome::NoToken),
                Some(m) if !coach.catalog().is_served(m) => plan.refuse(alias, Outcome::NotServed),
                Some(m) => plan.queue.push_back(&m.alias),
            },
            None => {
                let (mut rng, mut router) = coach.rng_and_router();
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
    pub(super) fn next_call<'a>(
        &mut self,
        coach: &Coach,
        registry: &'a Registry,
        deadline: Instant,
        last_door: bool,
    ) -> Option<(&'a ModelSpec, Tickets, Place)> {
        let lang = self.lang;
        while Instant::now() < deadline {
            let alias = match self.queue.pop_front() {
                Some(alias) => alias,
                None if self.forced => return None,
                None => {
                    let left = self.uncalled();
                    let (mut rng, mut router) = coach.rng_and_router();
                    let admissible = router.admissible(&left, lang, Instant::now());
                    if !admissible.is_empty() {
                        self.queue = router.order(&admissible, lang, &mut *rng).into();
                        continue;
                    }
                    if !last_door || self.last_door.is_some() {
                        return None;
                    }
                    let alias = router.last_door(&left, lang)?;
                    self.last_door = Some(alias);
                    alias
                }
            };
            let Some(spec) = registry.get(alias) else {
                continue;
            };
            let now = Instant::now();
            let mut router = coach.router();
            let Some(tickets) = router.try_acquire(alias, lang, now) else {
                if self.forced {
                    // Its breaker keeps it out, forced or not.
                    let resting = router.breaker(alias).and_then(Breaker::resting);
                    drop(router);
                    self.refuse(
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
            let place = router.enqueue(alias, spec.max_concurrency, time_left);
            if place.is_err() {
                router.release_probe(alias, lang, tickets);
            }
            drop(router);
            self.called.push(alias);
            match place {
                Ok(place) => return Some((spec, tickets, place)),
                Err(why) => self.refuse(alias, why),
            }
        }
        None
    }
}
