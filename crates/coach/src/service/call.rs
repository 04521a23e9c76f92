//! One model call, within its timeout and the request's deadline. What a
//! call holds while it runs ([`Hold`]: its place in the model's queue, and
//! any half-open probe) is given back when it ends or is dropped.
//! Calls; judges nothing (that is `settle`'s).

use tokio::time::Instant;

use super::Coach;
use crate::{
    budget::Permit,
    model::ModelSpec,
    prompt::Prompt,
    providers::{Called, ProviderError, Served},
    routing::{queue::Place, Tickets},
};
use vocabulary::Lang;

/// A finished call.
pub(super) struct Call<'a> {
    pub(super) spec: &'a ModelSpec,
    pub(super) started: Instant,
    pub(super) result: Result<String, ProviderError>,
    /// Which inference provider took it and what it billed, if the upstream said.
    pub(super) served: Served,
    /// Its slot of the upstream budget, until the outcome is known.
    pub(super) permit: Option<Permit>,
    /// What the breakers granted it: only a probe's result decides a
    /// half-open breaker.
    pub(super) tickets: Tickets,
    /// Where it stood in the model's queue when it started.
    pub(super) place: Place,
}

/// What a started call holds: its place in the model's queue, and the
/// probes its tickets claimed. Dropped, it leaves the queue and, if the call
/// has not finished (cancelled, deadline, the visitor left), hands the
/// probes back: their result will never be reported. Made when the call is
/// planned, so even a call dropped before it first runs gives them back.
pub(super) struct Hold<'a> {
    coach: &'a Coach,
    alias: &'a str,
    lang: Lang,
    tickets: Tickets,
    /// Cleared once the result is known (then `settle` reports it).
    unfinished: bool,
    /// The model answered (its queue moved on).
    answered: bool,
}

impl<'a> Hold<'a> {
    pub(super) fn new(coach: &'a Coach, alias: &'a str, lang: Lang, tickets: Tickets) -> Self {
        Self {
            coach,
            alias,
            lang,
            tickets,
            unfinished: true,
            answered: false,
        }
    }
}

impl Drop for Hold<'_> {
    fn drop(&mut self) {
        let mut router = self.coach.router();
        router.dequeue(self.alias, self.answered);
        if self.unfinished && self.tickets.holds_probe() {
            router.release_probe(self.alias, self.lang, self.tickets);
        }
    }
}

impl<'a> Call<'a> {
    /// Calls one model, within its timeout and the request's deadline.
    pub(super) async fn run(
        coach: &'a Coach,
        spec: &'a ModelSpec,
        prompt: &'a Prompt,
        deadline: Instant,
        permit: Permit,
        mut hold: Hold<'a>,
        place: Place,
    ) -> Self {
        let started = Instant::now();
        let timeout = spec
            .timeout
            .min(deadline.saturating_duration_since(started));
        let Called { result, served } =
            match tokio::time::timeout(timeout, coach.provider.call(spec, prompt, timeout)).await {
                Ok(called) => called,
                Err(_) => Err(ProviderError::Timeout).into(),
            };
        hold.unfinished = false;
        hold.answered = result.is_ok();
        let tickets = hold.tickets;
        drop(hold);
        Call {
            spec,
            started,
            result,
            served,
            permit: Some(permit),
            tickets,
            place,
        }
    }
}
