//! One model call, within its timeout and the request's deadline; a dropped
//! call hands its half-open probe back.
//! Calls; judges nothing (that is `settle`'s).

use tokio::time::Instant;

use super::Coach;
use crate::coach::{
    budget::Permit, model::ModelSpec, providers::ProviderError, routing::breaker::Ticket,
    text::prompt::Prompt,
};

/// A finished call.
pub(super) struct Call<'a> {
    pub(super) spec: &'a ModelSpec,
    pub(super) started: Instant,
    pub(super) result: Result<String, ProviderError>,
    /// Its slot of the upstream budget, until the outcome is known.
    pub(super) permit: Option<Permit>,
    /// What the breaker granted it: only the probe's result decides a
    /// half-open breaker.
    pub(super) ticket: Ticket,
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

impl Coach {
    /// Calls one model, within its timeout and the request's deadline.
    pub(super) async fn call<'a>(
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
}
