//! One request, start to end, as a [`Request`]: the router's order,
//! failover, hedging and the last door. Its [`Plan`] says which model is
//! next, a [`Call`] calls it and, finished, judges its answer and tells the
//! router (`settle`).
//!
//! 1. Build the prompt; ask the router for an order of the models whose
//!    breaker admits a call.
//! 2. Call the first. If it fails or its answer is rejected, call the next, and
//!    so on, each model at most once, all within the request's deadline.
//! 3. Hedging (`coach::routing::hedge`): when the call has not answered by the model's
//!    own p95 and the budget allows, the next model is called too; the first
//!    good answer wins and the other call is cancelled.
//! 4. When every admissible model failed (or none was admissible), the open
//!    model whose cool-down ends first gets one early probe: the last door.
//! 5. Then the offline commentator, so the visitor always gets a comment.
//!
//! Every call first claims a slot of the upstream budget (`coach::budget`),
//! on the asking client's share of the day; when none is left, no more models
//! are asked and the comment says so.
//!
//! A model forced with `?model=` gets no special treatment: it is called only
//! if it is enabled, usable (its token is set), its breaker admits a call and
//! the budget has room; otherwise the offline commentator answers and `tried`
//! names the reason (`disabled`, `no_token`, `breaker_open`, `misconfigured`,
//! `busy`, `daily_budget`, `queue_full`). Its rejected answers are not learned
//! (`settle`): a client choosing the model cannot farm its record.
//!
//! Any model whose own queue is full, or too long to finish in the time left
//! (`coach::routing::queue`), is skipped at once with `queue_full` in
//! `tried`: the next model, or the offline commentator, answers without the
//! visitor waiting.
//!
//! A call dropped before it ends (a cancelled hedge, the deadline, a visitor who
//! left) hands its half-open probe back, so a breaker never waits forever on a
//! probe that will not report.
use tokio::time::{sleep_until, Instant};

use super::{
    call::{Call, Hold},
    millis,
    plan::Plan,
    running::Running,
    Coach, OFFLINE,
};
use crate::{
    budget::ClientKey,
    input::CoachInput,
    offline,
    outcome::Outcome,
    prompt::Prompt,
    providers::ProviderError,
    registry::Registry,
    response::{Comment, Limited, Tier, Tried},
};

/// One request under way: what it asks, what it may still call, and what
/// it has tried.
pub(super) struct Request<'a> {
    coach: &'a Coach,
    registry: &'a Registry,
    input: &'a CoachInput,
    prompt: &'a Prompt,
    started: Instant,
    deadline: Instant,
    plan: Plan<'a>,
    tried: Vec<Tried>,
}

impl<'a> Request<'a> {
    /// The request for `input` with its `prompt`, asked by `client` at
    /// `started`, planned on `registry`.
    pub(super) fn new(
        coach: &'a Coach,
        registry: &'a Registry,
        input: &'a CoachInput,
        prompt: &'a Prompt,
        client: ClientKey,
        started: Instant,
    ) -> Self {
        Self {
            coach,
            registry,
            input,
            prompt,
            started,
            deadline: started + registry.deadline,
            plan: Plan::new(coach, registry, input.model.as_deref(), input.lang, client),
            tried: Vec::new(),
        }
    }

    /// Asks models until one answers well, the models run out or the
    /// deadline passes; then the offline commentator answers.
    ///
    /// The deadline needs no timer of its own: every call's timeout ends
    /// by it ([`Call::run`]), and no call starts after it
    /// ([`Plan::next_call`]). One timer per call, and one for a hedge:
    /// each timer set costs a wake-up of the runtime's timer thread.
    pub(super) async fn run(mut self) -> Comment {
        let mut running = Running::new();
        let mut hedged = false;
        loop {
            if running.is_empty() {
                let Some(call) = self.start(false) else {
                    break;
                };
                running.push(call);
            }
            let hedge_at = match self.plan.in_flight.as_slice() {
                [(alias, at)] if !hedged => self
                    .coach
                    .router()
                    .hedge_delay(alias)
                    .and_then(|d| at.checked_add(d)),
                _ => None,
            };
            tokio::select! {
                biased;
                Some(mut call) = running.next() => {
                    if let Some(text) = self.finished(&mut call) {
                        // Whatever still runs is cancelled when `running` drops.
                        return self.answered(&call, text);
                    }
                }
                () = sleep_until(hedge_at.unwrap_or(self.deadline)), if hedge_at.is_some() => {
                    hedged = true;
                    if !self.plan.queue.is_empty() && self.coach.router().try_hedge() {
                        if let Some(call) = self.start(true) {
                            tracing::debug!("hedging a slow call");
                            running.push(call);
                        }
                    }
                }
                else => break,
            }
        }
        self.fell_back()
    }

    /// The next call, started: the upstream budget has room and a model is
    /// left ([`Plan::next_call`]; a hedge takes only the queue, never the
    /// last door). The budget comes first, so a refusal never strands a
    /// claimed probe. Without room the request asks no more models, unless
    /// this was a hedge, which is only an extra.
    fn start(&mut self, hedge: bool) -> Option<impl std::future::Future<Output = Call<'a>> + 'a> {
        let (coach, plan) = (self.coach, &mut self.plan);
        if plan.limited.is_some() || plan.exhausted() {
            return None;
        }
        let permit = match coach.budget.try_start(plan.client) {
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
                        plan.refuse(plan.queue.front().copied().unwrap_or_default(), why);
                    }
                }
                return None;
            }
        };
        let Some((spec, tickets, place)) =
            plan.next_call(coach, self.registry, self.deadline, !hedge)
        else {
            permit.refund();
            return None;
        };
        plan.in_flight.push((&spec.alias, Instant::now()));
        let hold = Hold::new(coach, &spec.alias, plan.lang, tickets);
        Some(Call::run(
            coach,
            spec,
            self.prompt,
            self.deadline,
            permit,
            hold,
            place,
        ))
    }

    /// A call ended: judged and learned; its comment text if it passed.
    fn finished(&mut self, call: &mut Call<'_>) -> Option<String> {
        let plan = &mut self.plan;
        plan.in_flight
            .retain(|(alias, _)| *alias != call.spec.alias);
        let text = call.settle(self.coach, self.prompt, &mut self.tried, plan.forced);
        // A refused connection spends no credits and no time: when the last
        // door was refused, the next one may open.
        if plan.last_door == Some(call.spec.alias.as_str())
            && matches!(call.result, Err(ProviderError::Connect))
        {
            plan.last_door = None;
        }
        text
    }

    /// The comment of `call`, whose answer passed as `text`.
    fn answered(mut self, call: &Call<'_>, text: String) -> Comment {
        for (alias, at) in &self.plan.in_flight {
            self.tried
                .push(Tried::new(alias, Outcome::Cancelled, at.elapsed()));
        }
        let mut tried = std::mem::take(&mut self.plan.refused);
        tried.append(&mut self.tried);
        self.coach.observed(Comment {
            comment: text,
            model: call.spec.alias.clone(),
            provider: call.spec.api.name().to_string(),
            tier: self.prompt.tier,
            lang: self.input.lang,
            latency_ms: millis(self.started.elapsed()),
            fallback: false,
            limited: None,
            tried,
            id: None,
        })
    }

    /// No model answered well in time: the offline commentator's comment
    /// (every call has ended by now: see [`Request::run`]).
    fn fell_back(mut self) -> Comment {
        let mut comment = offline_comment(self.input, self.plan.limited);
        comment.latency_ms = millis(self.started.elapsed());
        let mut tried = std::mem::take(&mut self.plan.refused);
        tried.append(&mut self.tried);
        comment.tried = tried;
        self.coach.observed(comment)
    }
}

/// The offline commentator's comment, flagged with the limit that kept the
/// models out, if one did.
pub(super) fn offline_comment(input: &CoachInput, limited: Option<Limited>) -> Comment {
    Comment {
        comment: offline::comment(input),
        model: OFFLINE.into(),
        provider: OFFLINE.into(),
        tier: Tier::in_lesson(input.lesson, input.error),
        lang: input.lang,
        latency_ms: 0,
        fallback: true,
        limited,
        tried: Vec::new(),
        id: None,
    }
}
