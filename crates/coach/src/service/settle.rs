//! A finished call judged: the reply checks, the [`Outcome`], the router told
//! (statistics, learned record and breakers under one lock), and `tried`.
//! A timeout after waiting behind our own other calls to a model that
//! answered them meanwhile is [`Outcome::QueueTimeout`] (busy, not down:
//! `routing::queue`).
//! Judges and records; starts no call.

use tokio::time::Instant;

use super::{call::Call, Coach};
use crate::{
    judge, outcome::Outcome, prompt::Prompt, providers::ProviderError, response::Tried,
    routing::Finished,
};

impl Call<'_> {
    /// Checks a finished call's answer and feeds the outcome to the router and
    /// its breaker, under one lock. The comment text if it passed.
    ///
    /// A rejected answer of a model the request forced (`?model=`) is not
    /// learned: a client choosing the model must not be able to farm its
    /// record or open its quality breaker for everyone. `tried` shows it all
    /// the same.
    pub(super) fn settle(
        &mut self,
        coach: &Coach,
        prompt: &Prompt,
        tried: &mut Vec<Tried>,
        forced: bool,
    ) -> Option<String> {
        let alias = self.spec.alias.as_str();
        let latency = self.started.elapsed();
        if let Some(observer) = coach.observer() {
            observer.call(alias, latency);
        }
        // A call that never reached a model costs nothing of the day's budget.
        if let (Some(permit), Err(ProviderError::Connect | ProviderError::NoToken)) =
            (self.permit.take(), &self.result)
        {
            permit.refund();
        }
        let (outcome, text) = match &self.result {
            Err(ProviderError::NoToken) => {
                tried.push(Tried::new(alias, Outcome::NoToken, latency));
                return None;
            }
            Err(ProviderError::Timeout)
                if self.spec.max_concurrency.is_some()
                    && coach.router().timed_out_in_queue(alias, self.place) =>
            {
                (Outcome::QueueTimeout, None)
            }
            Err(error) => (error.outcome(), None),
            Ok(raw) => match judge::check(raw, prompt) {
                // Redacted again: the cleanup may have joined a split key.
                Ok(text) => (Outcome::Ok, Some(coach.provider.redact(self.spec, &text))),
                Err(why) => (Outcome::Rejected(why.to_string()), None),
            },
        };
        let wait = self.result.as_ref().err().and_then(ProviderError::wait);
        let mut router = coach.router();
        // Tokens are spent whoever chose the model: always counted.
        router.record_served(alias, &outcome, &self.served);
        if forced && matches!(outcome, Outcome::Rejected(_)) {
            // Not learned: a client choosing the model cannot farm its
            // record. A probe it held is handed back.
            if self.tickets.holds_probe() {
                router.release_probe(alias, prompt.lang, self.tickets);
            }
        } else {
            router.record_outcome(
                Finished {
                    alias,
                    lang: prompt.lang,
                    latency,
                    outcome: &outcome,
                    wait,
                    tickets: self.tickets,
                },
                Instant::now(),
            );
        }
        drop(router);
        let served_by = self.served.by.as_ref().map(ToString::to_string);
        if text.is_none() {
            let by = served_by.as_deref().unwrap_or("");
            tracing::info!(model = %alias, provider = by, %outcome, "model answer not used");
        }
        tried.push(Tried {
            served_by,
            ..Tried::new(alias, outcome, latency)
        });
        text
    }
}
