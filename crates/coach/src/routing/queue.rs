//! Each model's queue: our calls under way to it, and the rule that keeps a
//! visitor from waiting on a model that is only busy.
//!
//! A model with a `max_concurrency` (registry) is taken to serve its calls
//! one after another, as llama.cpp's server does unless started with more
//! slots: a call started behind `n` others finishes after about `n + 1`
//! answers' time. So a call is not started ([`Outcome::QueueFull`]) when the
//! model already has `max_concurrency` calls under way, or when `(n + 1) ×`
//! its pace is not shorter than the time the call may take (the request's
//! time left, at most the model's timeout): another model or the offline
//! commentator answers at once instead of the visitor waiting out the
//! timeout. The pace is the median of the model's latest answer times
//! (`hedge::LatencyWindow`): unlike the peak-EWMA, it neither fades to
//! nothing in a quiet spell (a burst after a quiet minute would be let into
//! a queue it cannot get through) nor jumps to one queued answer's whole
//! wait. Until the model has answered once, its pace is unknown and only
//! `max_concurrency` applies; a call with none ahead of it always starts
//! (its timeout decides, as for any model).
//!
//! A call that then times out after waiting behind others, while the model
//! answered at least one of the calls ahead, was late because of our own
//! queue ([`Queues::timed_out_in_queue`]): the model is busy, not down, and
//! the service records it as [`Outcome::QueueTimeout`], which no breaker and
//! no learned record counts.
//!
//! A model without `max_concurrency` (a hosted API, serving calls side by
//! side) has no queue of ours to wait in: its calls are only counted, for
//! `/models`' `in_flight`.

use std::time::Duration;

use foldhash::{HashMap, HashMapExt};

use crate::outcome::Outcome;

/// One model's calls under way, and how many of its calls have answered.
#[derive(Clone, Copy, Debug, Default)]
pub struct Queue {
    in_flight: u32,
    answered: u64,
}

/// Where a call stood in its model's queue when it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Calls of ours to the same model already under way.
    pub ahead: u32,
    /// The model's answers so far, when it started.
    answered: u64,
}

/// Whether a call may start: `limit` is the model's `max_concurrency`,
/// `in_flight` its calls under way, `pace` the time one answer takes (see
/// the module docs), `time_left` the most the call may take.
pub fn admits(
    limit: Option<u32>,
    in_flight: u32,
    pace: Option<Duration>,
    time_left: Duration,
) -> bool {
    let Some(limit) = limit else {
        return true;
    };
    if in_flight >= limit {
        return false;
    }
    match pace {
        Some(pace) if in_flight > 0 => pace.saturating_mul(in_flight + 1) < time_left,
        _ => true,
    }
}

impl Queue {
    /// A place for one more call, if [`admits`] lets it in.
    fn take(
        &mut self,
        limit: Option<u32>,
        pace: Option<Duration>,
        time_left: Duration,
    ) -> Result<Place, Outcome> {
        if !admits(limit, self.in_flight, pace, time_left) {
            return Err(Outcome::QueueFull);
        }
        let place = Place {
            ahead: self.in_flight,
            answered: self.answered,
        };
        self.in_flight = self.in_flight.saturating_add(1);
        Ok(place)
    }
}

/// Every model's queue.
#[derive(Default)]
pub struct Queues(HashMap<String, Queue>);

impl Queues {
    /// Keeps the queues of `aliases`, starts new ones, forgets the rest.
    pub fn sync<'a>(&mut self, aliases: impl IntoIterator<Item = &'a str>) {
        let mut kept = HashMap::new();
        for alias in aliases {
            kept.insert(alias.to_string(), self.0.remove(alias).unwrap_or_default());
        }
        self.0 = kept;
    }

    /// Takes a place in `alias`'s queue for a call that may take `time_left`
    /// at most, at the model's `pace`, or says why not
    /// ([`Outcome::QueueFull`]; `limit` is the model's `max_concurrency`).
    /// The place is given back with [`Queues::dequeue`].
    pub fn enqueue(
        &mut self,
        alias: &str,
        limit: Option<u32>,
        pace: Option<Duration>,
        time_left: Duration,
    ) -> Result<Place, Outcome> {
        // Found without making a key: every call asks.
        if let Some(queue) = self.0.get_mut(alias) {
            return queue.take(limit, pace, time_left);
        }
        self.0
            .entry(alias.to_string())
            .or_default()
            .take(limit, pace, time_left)
    }

    /// A call to `alias` ended (`answered`: the model gave it an answer,
    /// good or not) or was dropped.
    pub fn dequeue(&mut self, alias: &str, answered: bool) {
        if let Some(queue) = self.0.get_mut(alias) {
            queue.in_flight = queue.in_flight.saturating_sub(1);
            if answered {
                queue.answered = queue.answered.saturating_add(1);
            }
        }
    }

    /// Whether a call that started at `place` and ran out of time was late
    /// because of our own queue: it started behind others, and the model
    /// has answered since (busy, not down).
    pub fn timed_out_in_queue(&self, alias: &str, place: Place) -> bool {
        place.ahead > 0
            && self
                .0
                .get(alias)
                .is_some_and(|q| q.answered > place.answered)
    }

    /// Calls to `alias` under way now.
    pub fn in_flight(&self, alias: &str) -> u32 {
        self.0.get(alias).map_or(0, |q| q.in_flight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn a_call_starts_only_if_the_calls_ahead_leave_it_time() {
        let five = 5 * S;
        // No limit of its own: a model serving side by side.
        assert!(admits(None, 100, Some(S), five));
        // At its limit: skipped, whatever the time.
        assert!(!admits(Some(1), 1, None, five));
        // 1 s an answer, 5 s left: behind 3 it finishes at 4 s, behind 4 at 5 s (too late).
        assert!(admits(Some(8), 3, Some(S), five));
        assert!(!admits(Some(8), 4, Some(S), five));
        // Pace unknown (no answer yet): only the limit.
        assert!(admits(Some(8), 7, None, five));
        // Nothing ahead: it starts, and its own timeout decides.
        assert!(admits(Some(8), 0, Some(10 * S), five));
    }
}
