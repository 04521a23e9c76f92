//! The model's state (weight, bias, attempts) and the one place an attempt is
//! recorded.
//!
//! An attempt is one *intention*, and each one is a coach request, so:
//! - a drag's release, a button press, a tap or a click on the map records now
//!   ([`Model::jump`], [`Model::commit`]);
//! - a burst of key presses (a slider's arrows, the map marker's arrows) moves
//!   the model live and is recorded once, [`SETTLE`] after the last press
//!   ([`Model::glide`], [`Model::commit_soon`]): holding or tapping an arrow key
//!   ten times is one attempt, not ten;
//! - restoring an earlier attempt or starting over moves the model without
//!   recording anything ([`Model::restore`], [`Model::start_over`]).
//!
//! Starting over loses nothing: the model goes back to the guide's start, and
//! the attempts, the best, the ladder and "Copy a link to my best" stay. It
//! begins a new *run* ([`Model::starts`]): the coach judges each run on its
//! own, as a coach watching a fresh try would ("attempt 1", "better than your
//! last" about this run, not about the attempts before it), while the page
//! keeps the whole record (the list numbers on, the best is the best of all).
//!
//! Every change that settles is written into the address bar (`?w=&b=`), so the
//! page's link reproduces the view ([`crate::page::link`]).

use std::time::Duration;

use leptos::prelude::*;

use crate::page::address_bar;
use lesson::neuron::{Params, START};

/// How long after the last key press a burst of presses is recorded.
pub const SETTLE: Duration = Duration::from_millis(600);

/// One committed try: the parameters and the error they gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attempt {
    pub params: Params,
    pub error: f64,
}

/// The simulator's state, shared (it is `Copy`) by the components that change it.
#[derive(Clone, Copy)]
pub struct Model {
    pub weight: RwSignal<f64>,
    pub bias: RwSignal<f64>,
    pub params: Memo<Params>,
    pub attempts: RwSignal<Vec<Attempt>>,
    /// Where each start over began a new run: the index of the run's first
    /// attempt, ascending, one per start over that followed an attempt.
    pub starts: RwSignal<Vec<usize>>,
    /// The point last recorded (or restored): moving back to it is no attempt.
    settled: StoredValue<Params>,
    /// The pending recording of a burst of key presses.
    pending: StoredValue<Option<TimeoutHandle>>,
}

impl Model {
    pub fn new(at: Params) -> Self {
        let weight = RwSignal::new(at.weight);
        let bias = RwSignal::new(at.bias);
        Self {
            weight,
            bias,
            params: Memo::new(move |_| Params::new(weight.get(), bias.get())),
            attempts: RwSignal::new(Vec::new()),
            starts: RwSignal::new(Vec::new()),
            settled: StoredValue::new(at),
            pending: StoredValue::new(None),
        }
    }

    /// Records the current parameters as an attempt, unless nothing moved since
    /// the last one.
    pub fn commit(self) {
        self.cancel_pending();
        let now = self.params.get_untracked();
        if now == self.settled.get_value() {
            return;
        }
        self.settled.set_value(now);
        self.attempts.update(|list| {
            list.push(Attempt {
                params: now,
                error: now.error(),
            })
        });
        address_bar::show(Some(now));
    }

    /// Records the current parameters [`SETTLE`] after the last call: one
    /// attempt for a burst of key presses.
    pub fn commit_soon(self) {
        self.cancel_pending();
        match set_timeout_with_handle(move || self.commit(), SETTLE) {
            Ok(handle) => self.pending.set_value(Some(handle)),
            // No timer (cannot happen in a browser): record now rather than never.
            Err(_) => self.commit(),
        }
    }

    /// Moves both parameters and records that as one attempt.
    pub fn jump(self, to: Params) {
        self.set(to);
        self.commit();
    }

    /// Moves both parameters now and records them once the burst settles.
    pub fn glide(self, to: Params) {
        self.set(to);
        self.commit_soon();
    }

    /// Goes back to an earlier point without recording an attempt.
    pub fn restore(self, to: Params) {
        self.cancel_pending();
        self.set(to);
        self.settled.set_value(to);
        address_bar::show(Some(to));
    }

    /// Back to the guide's start, keeping the attempts: a new run begins
    /// with the next attempt.
    pub fn start_over(self) {
        self.cancel_pending();
        self.set(START);
        self.settled.set_value(START);
        let next = self.attempts.with_untracked(Vec::len);
        self.starts.maybe_update(|starts| new_run(starts, next));
        address_bar::show(None);
    }

    fn set(self, to: Params) {
        self.weight.set(to.weight);
        self.bias.set(to.bias);
    }

    fn cancel_pending(self) {
        if let Some(handle) = self.pending.try_update_value(Option::take).flatten() {
            handle.clear();
        }
    }
}

/// The index of the current run's first attempt.
#[must_use]
pub fn run_start(starts: &[usize]) -> usize {
    starts.last().copied().unwrap_or(0)
}

/// Records that a run begins at attempt `next`, unless the current run has no
/// attempt yet (starting over twice is one start). Whether it changed.
pub fn new_run(starts: &mut Vec<usize>, next: usize) -> bool {
    let fresh = next > run_start(starts);
    if fresh {
        starts.push(next);
    }
    fresh
}

#[cfg(test)]
mod tests {
    use super::{new_run, run_start};

    #[test]
    fn a_start_over_begins_a_run_only_after_an_attempt() {
        let mut starts = Vec::new();
        assert_eq!(run_start(&starts), 0);
        assert!(
            !new_run(&mut starts, 0),
            "no attempt yet: still the first run"
        );
        assert!(new_run(&mut starts, 10), "after 10 attempts");
        assert_eq!(run_start(&starts), 10);
        assert!(!new_run(&mut starts, 10), "twice in a row is one start");
        assert!(new_run(&mut starts, 13));
        assert_eq!(starts, [10, 13]);
        assert_eq!(run_start(&starts), 13);
    }
}
