//! One request: the router's order, failover, hedging and the last door.
//!
//! 1. Build the prompt; ask the router for an order of the models whose
//!    breaker admits a call.
//! 2. Call the first. If it fails or its answer is rejected, call the next, and
//!    so on, each model at most once, all within the request's deadline.
//! 3. Hedging (`coach::hedge`): when the call has not answered by the model's
//!    own p95 and the budget allows, the next model is called too; the first
//!    good answer wins and the other call is cancelled.
//! 4. When every admissible model failed (or none was admissible), the open
//!    model whose cool-down ends first gets one early probe: the last door.
//! 5. Then the offline commentator, so the visitor always gets a comment.
//!
//! Every call first claims a slot of the upstream budget (`coach::budget`);
//! when none is left, no more models are asked and the comment says so.
//!
//! A model forced with `?model=` gets no special treatment: it is called only
//! if it is enabled, usable (its token is set), its breaker admits a call and
//! the budget has room; otherwise the offline commentator answers and `tried`
//! names the reason (`disabled`, `no_token`, `breaker_open`, `misconfigured`,
//! `busy`, `daily_budget`).
//!
//! A call dropped before it ends (a cancelled hedge, the deadline, a visitor who
//! left) hands its half-open probe back, so a breaker never waits forever on a
//! probe that will not report.

use std::{collections::VecDeque, future::Future};

use futures::{stream::FuturesUnordered, StreamExt};
use tokio::time::{sleep_until, Instant};

use super::{millis, Coach, OFFLINE};
use crate::coach::{
    breaker::Ticket,
    budget::Permit,
    input::CoachInput,
    prompt::{self, Prompt},
    providers::{offline, ProviderError},
    registry::{ModelSpec, Registry},
    reply,
    router::Outcome,
    Comment, Limited, Tier, Tried,
};

/// A finished call.
struct Call<'a> {
    spec: &'a ModelSpec,
    started: Instant,
    result: Result<String, ProviderError>,
    /// Its slot of the upstream budget, until the outcome is known.
    permit: Option<Permit>,
    /// What the breaker granted it: only the probe's result decides a
    /// half-open breaker.
    ticket: Ticket,
}

/// Hands back an unfinished call's half-open probe when the call is dropped
/// (only a call that claimed the probe holds an armed guard).
struct ProbeGuard<'a> {
    coach: &'a Coach,
    alias: &'a str,
    armed: bool,
}

impl Drop for ProbeGuard<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.coach.router().release_probe(self.alias);
        }
    }
}

/// Which models this request may still call.
struct Plan<'r> {
    queue: VecDeque<String>,
    /// Every enabled, usable model: where the last door is looked for.
    candidates: Vec<&'r str>,
    called: Vec<String>,
    forced: bool,
    /// The model called through the last door, once it has been.
    last_door: Option<String>,
    /// Calls under way: (alias, started).
    in_flight: Vec<(String, Instant)>,
    /// The budget limit that stopped this request's calls.
    limited: Option<Limited>,
    /// Why a forced model was not called (see the module docs).
    refused: Vec<Tried>,
}

impl<'r> Plan<'r> {
    /// The candidates this request has not called yet.
    fn uncalled(&self) -> Vec<&'r str> {
        self.candidates
            .iter()
            .copied()
            .filter(|c| !self.called.iter().any(|a| a == c))
            .collect()
    }

    /// Notes why the forced model `alias` was not called.
    fn refuse(&mut self, alias: String, why: &str) {
        self.refused
            .push(tried_entry(&alias, why, std::time::Duration::ZERO));
    }

    /// No model is left to ask (so no budget is needed): neither the queue,
    /// nor a model not yet called (which could rejoin or be the last door).
    fn exhausted(&self) -> bool {
        self.queue.is_empty() && (self.forced || self.uncalled().is_empty())
    }
}

impl Coach {
    /// The comment for one validated attempt. Never fails: the offline
    /// commentator answers when no model does.
    pub async fn comment(&self, input: CoachInput) -> Comment {
        let started = Instant::now();
        let registry = self.registry();
        let deadline = started + registry.deadline;
        let prompt = prompt::build(&input);
        let mut plan = self.plan(&registry, input.model.as_deref());
        let mut tried = Vec::new();
        let mut running = FuturesUnordered::new();
        let mut hedged = false;

        loop {
            if running.is_empty() {
                let Some(call) = self.start(&registry, &mut plan, &prompt, deadline, false) else {
                    break;
                };
                running.push(call);
            }
            let hedge_at = match plan.in_flight.as_slice() {
                [(alias, at)] if !hedged => self
                    .router()
                    .hedge_delay(alias)
                    .and_then(|d| at.checked_add(d)),
                _ => None,
            };
            tokio::select! {
                biased;
                Some(mut call) = running.next() => {
                    plan.in_flight.retain(|(alias, _)| *alias != call.spec.alias);
                    let text = self.settle(&mut call, &prompt, &mut tried);
                    // A refused connection spends no credits and no time:
                    // when the last door was refused, the next one may open.
                    if plan.last_door.as_deref() == Some(call.spec.alias.as_str())
                        && matches!(call.result, Err(ProviderError::Connect))
                    {
                        plan.last_door = None;
                    }
                    if let Some(text) = text {
                        // Whatever still runs is cancelled when `running` drops.
                        for (alias, at) in &plan.in_flight {
                            tried.push(tried_entry(alias, "cancelled", at.elapsed()));
                        }
                        tried.splice(0..0, plan.refused);
                        return self.observed(Comment {
                            comment: text,
                            model: call.spec.alias.clone(),
                            provider: call.spec.api.name().to_string(),
                            tier: prompt.tier,
                            lang: input.lang,
                            latency_ms: millis(started.elapsed()),
                            fallback: false,
                            limited: None,
                            tried,
                        });
                    }
                }
                () = sleep_until(hedge_at.unwrap_or(deadline)), if hedge_at.is_some() => {
                    hedged = true;
                    if !plan.queue.is_empty() && self.router().try_hedge() {
                        if let Some(call) = self.start(&registry, &mut plan, &prompt, deadline, true) {
                            tracing::debug!("hedging a slow call");
                            running.push(call);
                        }
                    }
                }
                () = sleep_until(deadline) => break,
            }
        }

        for (alias, at) in &plan.in_flight {
            tried.push(tried_entry(alias, "deadline", at.elapsed()));
        }
        let mut comment = offline_comment(&input, plan.limited);
        comment.latency_ms = millis(started.elapsed());
        tried.splice(0..0, plan.refused);
        comment.tried = tried;
        self.observed(comment)
    }

    /// The offline commentator's comment for a request a limit kept from the
    /// models (the page's server function, over the per-client rate).
    pub fn limited(&self, input: &CoachInput, limit: Limited) -> Comment {
        self.observed(offline_comment(input, Some(limit)))
    }

    fn observed(&self, comment: Comment) -> Comment {
        if let Some(observer) = self.observer() {
            observer.comment(&comment);
        }
        comment
    }

    /// The next call, started: the upstream budget has room and a model is
    /// left ([`Coach::next_call`]; a hedge takes only the queue, never the last
    /// door). The budget comes first, so a refusal never strands a claimed
    /// probe. Without room the request asks no more models, unless this was a
    /// hedge, which is only an extra.
    fn start<'a>(
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
        let permit = match self.budget.try_start() {
            Ok(permit) => permit,
            Err(limit) => {
                if !hedge {
                    tracing::warn!(limit = ?limit, "upstream budget: no more model calls");
                    plan.limited = Some(limit);
                    if plan.forced {
                        let why = match limit {
                            Limited::Busy => "busy",
                            _ => "daily_budget",
                        };
                        plan.refuse(plan.queue.front().cloned().unwrap_or_default(), why);
                    }
                }
                return None;
            }
        };
        let Some((spec, ticket)) = self.next_call(registry, plan, deadline, !hedge) else {
            permit.refund();
            return None;
        };
        plan.in_flight.push((spec.alias.clone(), Instant::now()));
        Some(self.call(spec, prompt, deadline, permit, ticket))
    }

    /// The forced model alone (if enabled and usable), or the admissible
    /// models in the router's order (and a request's share of the hedge
    /// budget).
    fn plan<'r>(&self, registry: &'r Registry, forced: Option<&str>) -> Plan<'r> {
        let mut plan = Plan {
            queue: VecDeque::new(),
            candidates: self.candidates(registry),
            called: Vec::new(),
            forced: forced.is_some(),
            last_door: None,
            in_flight: Vec::new(),
            limited: None,
            refused: Vec::new(),
        };
        match forced {
            Some(OFFLINE) => {}
            Some(alias) => match registry.get(alias) {
                None => plan.refuse(alias.to_string(), "unknown"),
                Some(m) if !m.enabled => plan.refuse(alias.to_string(), "disabled"),
                Some(m) if !self.provider.usable(m) => plan.refuse(alias.to_string(), "no_token"),
                Some(_) => plan.queue.push_back(alias.to_string()),
            },
            None => {
                let (mut rng, mut router) = self.rng_and_router();
                router.on_request();
                let admissible = router.admissible(&plan.candidates, Instant::now());
                plan.queue = router.order(&admissible, &mut *rng).into();
            }
        }
        plan
    }

    /// The next model to call, its breaker's permission claimed. When the
    /// queue runs out, models not yet called whose breaker has let go since
    /// the request began join it; after them, the last door (if `last_door`).
    /// `None` when nothing is left or the deadline has passed; with the spec,
    /// the breaker's ticket for this call.
    fn next_call<'r>(
        &self,
        registry: &'r Registry,
        plan: &mut Plan<'_>,
        deadline: Instant,
        last_door: bool,
    ) -> Option<(&'r ModelSpec, Ticket)> {
        while Instant::now() < deadline {
            let alias = match plan.queue.pop_front() {
                Some(alias) => alias,
                None if plan.forced => return None,
                None => {
                    let left = plan.uncalled();
                    let (mut rng, mut router) = self.rng_and_router();
                    let admissible = router.admissible(&left, Instant::now());
                    if !admissible.is_empty() {
                        plan.queue = router.order(&admissible, &mut *rng).into();
                        continue;
                    }
                    if !last_door || plan.last_door.is_some() {
                        return None;
                    }
                    let alias = router.last_door(&left)?.to_string();
                    plan.last_door = Some(alias.clone());
                    alias
                }
            };
            let Some(spec) = registry.get(&alias) else {
                continue;
            };
            let now = Instant::now();
            let mut router = self.router();
            let Some(ticket) = router.try_acquire(&alias, now) else {
                if plan.forced {
                    // Its breaker keeps it out, forced or not.
                    let misconfigured =
                        router.breaker(&alias).is_some_and(|b| b.is_misconfigured());
                    drop(router);
                    plan.refuse(
                        alias,
                        if misconfigured {
                            "misconfigured"
                        } else {
                            "breaker_open"
                        },
                    );
                }
                continue;
            };
            drop(router);
            plan.called.push(alias);
            return Some((spec, ticket));
        }
        None
    }

    /// Calls one model, within its timeout and the request's deadline.
    async fn call<'a>(
        &'a self,
        spec: &'a ModelSpec,
        prompt: &'a Prompt,
        deadline: Instant,
        permit: Permit,
        ticket: Ticket,
    ) -> Call<'a> {
        let mut guard = ProbeGuard {
            coach: self,
            alias: &spec.alias,
            armed: ticket == Ticket::Probe,
        };
        let started = Instant::now();
        let timeout = spec
            .timeout
            .min(deadline.saturating_duration_since(started));
        let result = match tokio::time::timeout(
            timeout,
            self.provider.complete(spec, prompt, timeout),
        )
        .await
        {
            Ok(result) => result,
            Err(_) => Err(ProviderError::Timeout),
        };
        guard.armed = false;
        Call {
            spec,
            started,
            result,
            permit: Some(permit),
            ticket,
        }
    }

    /// Checks a finished call's answer and feeds the outcome to the router and
    /// its breaker, under one lock. The comment text if it passed.
    fn settle(
        &self,
        call: &mut Call<'_>,
        prompt: &Prompt,
        tried: &mut Vec<Tried>,
    ) -> Option<String> {
        let alias = call.spec.alias.as_str();
        let latency = call.started.elapsed();
        if let Some(observer) = self.observer() {
            observer.call(alias, latency);
        }
        // A call that never reached a model costs nothing of the day's budget.
        if let (Some(permit), Err(ProviderError::Connect | ProviderError::NoToken)) =
            (call.permit.take(), &call.result)
        {
            permit.refund();
        }
        let checked = match &call.result {
            Err(ProviderError::NoToken) => {
                tried.push(tried_entry(alias, "no_token", latency));
                return None;
            }
            Ok(raw) => reply::check(raw, prompt).map_err(|r| r.to_string()),
            Err(_) => Err(String::new()),
        };
        let outcome = match (&call.result, &checked) {
            (Err(error), _) => Outcome::Failed(error),
            (Ok(_), Ok(_)) => Outcome::Answered,
            (Ok(_), Err(why)) => Outcome::Rejected(why),
        };
        self.router()
            .record_outcome(alias, latency, outcome, call.ticket, Instant::now());
        let label = match outcome {
            Outcome::Answered => "ok".to_string(),
            Outcome::Rejected(why) => format!("rejected: {why}"),
            Outcome::Failed(error) => error.outcome().to_string(),
        };
        if checked.is_err() {
            tracing::info!(model = %alias, outcome = %label, "model answer not used");
        }
        tried.push(tried_entry(alias, &label, latency));
        checked.ok()
    }
}

/// The offline commentator's comment, flagged with the limit that kept the
/// models out, if one did.
fn offline_comment(input: &CoachInput, limited: Option<Limited>) -> Comment {
    Comment {
        comment: offline::comment(input),
        model: OFFLINE.into(),
        provider: OFFLINE.into(),
        tier: Tier::of(input.error),
        lang: input.lang,
        latency_ms: 0,
        fallback: true,
        limited,
        tried: Vec::new(),
    }
}

fn tried_entry(alias: &str, outcome: &str, latency: std::time::Duration) -> Tried {
    Tried {
        model: alias.to_string(),
        outcome: outcome.to_string(),
        latency_ms: millis(latency),
    }
}

#[cfg(test)]
mod tests {
    use std::{sync::Arc, time::Duration};

    use super::*;
    use crate::coach::{
        budget::UpstreamBudget,
        fake::{answers, fails, Behaviour, Fake},
        Lang,
    };

    fn coach(top: &str, fake: &Arc<Fake>) -> Coach {
        let models: String = ["a", "b"]
            .iter()
            .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"))
            .collect();
        let registry =
            Registry::parse(&format!("strategy = \"thompson\"\n{top}\n{models}")).unwrap();
        Coach::new(registry, None, fake.clone(), Some(5))
    }

    fn input(i: usize) -> CoachInput {
        CoachInput {
            error: 600.0 + i as f64,
            attempts: vec![900.0],
            params: None,
            model: None,
            lang: Lang::En,
        }
    }

    fn outcomes(c: &Comment) -> Vec<&str> {
        c.tried.iter().map(|t| t.outcome.as_str()).collect()
    }

    /// 80 requests at a steady 100 ms: both models learn their p95 (about 40
    /// answers each), and the hedge budget saves up 8 hedges.
    async fn warm_up(coach: &Coach, fake: &Fake) {
        fake.set("a", answers(100));
        fake.set("b", answers(100));
        for i in 0..80 {
            let c = coach.comment(input(i)).await;
            assert_eq!(outcomes(&c), vec!["ok"], "no hedge below the p95");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_slower_than_its_p95_is_hedged_and_the_first_good_answer_wins() {
        let fake = Arc::new(Fake::default());
        let coach = coach("hedge = true\nhedge_ratio = 0.1", &fake);
        warm_up(&coach, &fake).await;
        // Now whichever model is asked first takes 3 s; a second one, 200 ms.
        let slow_first = Behaviour {
            alone: Some(Duration::from_secs(3)),
            ..answers(200)
        };
        fake.set("a", slow_first);
        fake.set("b", slow_first);

        let c = coach.comment(input(100)).await;
        assert!(!c.fallback);
        assert_eq!(
            c.latency_ms, 300,
            "hedged at the 100 ms p95, answered 200 ms later"
        );
        assert_eq!(outcomes(&c), vec!["ok", "cancelled"]);
        assert_ne!(c.tried[0].model, c.tried[1].model);
        assert_eq!(c.model, c.tried[0].model);

        // Every one of the next 30 requests wants a hedge, but the budget holds
        // 8 saved + 0.1 per request: at most 11 in all. (Without it, all 31
        // would be hedged; after its last hedge, a model's slow answers soon
        // raise its p95 to 3 s, so fewer than 11 is possible.)
        let mut hedged = 1;
        for i in 0..30 {
            let c = coach.comment(input(200 + i)).await;
            if c.tried.len() == 2 {
                hedged += 1;
                // The hedge's 200 ms answers enter its window: a p95 of 100 or 200.
                assert!([300, 400].contains(&c.latency_ms), "{}", c.latency_ms);
                assert_eq!(outcomes(&c), vec!["ok", "cancelled"]);
            } else {
                assert_eq!(c.latency_ms, 3000, "not hedged: the slow answer");
            }
        }
        assert!(
            (8..=11).contains(&hedged),
            "{hedged} hedges for 31 requests"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_hedge_the_budget_refuses_leaves_failover_intact() {
        let fake = Arc::new(Fake::default());
        // One model call at a time: every hedge is refused as "busy".
        let coach = coach("hedge = true", &fake).with_budget(UpstreamBudget::new(1, 10_000));
        warm_up(&coach, &fake).await;
        fake.set(
            "a",
            Behaviour {
                delay: Duration::from_secs(3),
                ..fails()
            },
        );
        fake.set("b", answers(100));
        let mut slow = 0;
        for i in 0..20 {
            let c = coach.comment(input(100 + i)).await;
            assert!(!c.fallback && c.limited.is_none(), "{:?}", c.tried);
            assert_eq!(c.model, "b");
            slow += usize::from(c.tried.len() == 2);
        }
        assert!(
            slow > 0,
            "a was asked first at least once, then b took over"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn no_hedge_when_it_is_switched_off() {
        let fake = Arc::new(Fake::default());
        let coach = coach("hedge = false", &fake);
        warm_up(&coach, &fake).await;
        fake.set(
            "a",
            Behaviour {
                alone: Some(Duration::from_secs(3)),
                ..answers(200)
            },
        );
        fake.set(
            "b",
            Behaviour {
                alone: Some(Duration::from_secs(3)),
                ..answers(200)
            },
        );
        let c = coach.comment(input(100)).await;
        assert_eq!((c.latency_ms, outcomes(&c)), (3000, vec!["ok"]));
    }

    #[tokio::test(start_paused = true)]
    async fn when_every_admissible_model_failed_the_open_one_gets_an_early_probe() {
        let fake = Arc::new(Fake::default());
        let coach = coach("", &fake);
        fake.set("a", fails());
        fake.set("b", answers(100));
        // Until a's breaker opens (3 failures in a row).
        for i in 0..50 {
            coach.comment(input(i)).await;
            if coach
                .router()
                .breaker("a")
                .is_some_and(|b| !b.is_available(Instant::now()))
            {
                break;
            }
        }
        assert_eq!(coach.report()[0].breaker.as_ref().unwrap().state, "open");

        // Now a is back and b fails; a's cool-down has not ended.
        fake.set("a", answers(100));
        fake.set("b", fails());
        let c = coach.comment(input(99)).await;
        assert!(!c.fallback, "{:?}", c.tried);
        assert_eq!(outcomes(&c), vec!["upstream_error", "ok"]);
        assert_eq!((c.tried[0].model.as_str(), c.model.as_str()), ("b", "a"));
        assert_eq!(coach.report()[0].breaker.as_ref().unwrap().state, "closed");
    }

    #[tokio::test(start_paused = true)]
    async fn an_abandoned_probe_is_handed_back() {
        let fake = Arc::new(Fake::default());
        let coach = coach("", &fake);
        fake.set("a", fails());
        fake.set("b", fails());
        // Both breakers open: every request is the last door's single probe.
        for i in 0..6 {
            coach.comment(input(i)).await;
        }
        assert!(["a", "b"].iter().all(|m| !coach
            .router()
            .breaker(m)
            .unwrap()
            .is_available(Instant::now())));
        fake.set("a", answers(30_000));
        fake.set("b", answers(30_000));
        // The visitor leaves after 1 s, while the probe is under way.
        let gone = tokio::time::timeout(Duration::from_secs(1), coach.comment(input(7))).await;
        assert!(gone.is_err());
        let probing = ["a", "b"]
            .iter()
            .filter(|m| coach.router().breaker(m).unwrap().is_probing())
            .count();
        assert_eq!(
            probing, 0,
            "no breaker waits on a probe that will never report"
        );
    }
}
