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
//! Every change that settles is written into the address bar (`?w=&b=`), so the
//! page's link reproduces the view ([`crate::link`]).

use std::time::Duration;

use leptos::prelude::*;

use super::address_bar;
use crate::neuron::{Params, START};

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

    /// Back to the guide's start, with no attempts.
    pub fn start_over(self) {
        self.cancel_pending();
        self.set(START);
        self.settled.set_value(START);
        self.attempts.set(Vec::new());
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
