//! One request, start to end: the router's order, failover, hedging and the
//! last door. [`super::plan`] says which model is next, [`super::call`] calls
//! it, [`super::settle`] judges the answer and tells the router.
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

use futures::{stream::FuturesUnordered, StreamExt};

use super::{millis, Coach, OFFLINE};
use crate::{
    budget::ClientKey,
    input::CoachInput,
    offline,
    outcome::Outcome,
    prompt,
    providers::ProviderError,
    response::{Comment, Limited, Tier, Tried},
};

impl Coach {
    /// The comment for one validated attempt, asked by `client` (whose share
    /// of the day's model calls it spends). Never fails: the offline
    /// commentator answers when no model does.
    pub async fn comment(&self, input: CoachInput, client: ClientKey) -> Comment {
        let started = Instant::now();
        let registry = self.registry();
        let deadline = started + registry.deadline;
        let prompt = prompt::build_drawn(&input, self.examples_draw());
        let mut plan = self.plan(&registry, input.model.as_deref(), input.lang, client);
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
                    let text = self.settle(&mut call, &prompt, &mut tried, plan.forced);
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
                            tried.push(tried_entry(alias, Outcome::Cancelled, at.elapsed()));
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
            tried.push(tried_entry(alias, Outcome::Deadline, at.elapsed()));
        }
        let mut comment = offline_comment(&input, plan.limited);
        comment.latency_ms = millis(started.elapsed());
        tried.splice(0..0, plan.refused);
        comment.tried = tried;
        self.observed(comment)
    }

    /// The offline commentator's comment for a request a limit kept from the
    /// models (`POST /api/comment`, over the per-client rate).
    pub fn limited(&self, input: &CoachInput, limit: Limited) -> Comment {
        self.observed(offline_comment(input, Some(limit)))
    }

    fn observed(&self, comment: Comment) -> Comment {
        if let Some(observer) = self.observer() {
            observer.comment(&comment);
        }
        comment
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

/// One line of `tried`.
pub(super) fn tried_entry(alias: &str, outcome: Outcome, latency: std::time::Duration) -> Tried {
    Tried {
        model: alias.to_string(),
        outcome,
        latency_ms: millis(latency),
        served_by: None,
    }
}
