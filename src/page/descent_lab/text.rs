//! What the descent lab says, as pure functions of its run: where it starts, a
//! step counter with the lab's point and error (shown, not announced) and its state (the `role=status` line,
//! which changes only when the state does: started, paused, stalled, diverged,
//! goal reached — never once per step of Play).

use crate::page::i18n::Texts;
#[cfg(feature = "ssr")]
use lesson::descent::steps_to_goal;
use lesson::{
    descent::{Descent, Rates, Scaling, Start, Status, STALL_GAIN, STALL_WINDOW},
    neuron::GOAL,
};
use vocabulary::{fill, format::localise};

/// What the visitor has asked of Play (the run itself says the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Waiting for Step or Play (also between Step presses).
    Ready,
    Playing,
    /// Pause pressed at this step.
    Paused {
        step: usize,
    },
}

/// The lab's state, as announced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Ready,
    Playing,
    Paused { step: usize },
    Goal { at: usize },
    Stalled { step: usize },
    Diverged { step: usize },
}

/// The run's own ends (divergence, then the goal, then a stall) come before
/// what Play is doing.
#[must_use]
pub fn state(d: &Descent, mode: Mode) -> State {
    if let Status::Diverged { step } = d.status {
        return State::Diverged { step };
    }
    if let Some(at) = d.first_step_at_or_below(GOAL) {
        return State::Goal { at };
    }
    if let Some(step) = d.stalled_since() {
        return State::Stalled { step };
    }
    match mode {
        Mode::Ready => State::Ready,
        Mode::Playing => State::Playing,
        Mode::Paused { step } => State::Paused { step },
    }
}

/// Whether Play has nothing more to do: diverged, at the goal or stalled.
#[must_use]
pub fn finished(d: &Descent) -> bool {
    !matches!(state(d, Mode::Ready), State::Ready)
}

/// The state in words: the one line a screen reader hears.
#[must_use]
pub fn state_text(t: &Texts, d: &Descent, mode: Mode) -> String {
    let goal = t.num(GOAL, 0);
    match state(d, mode) {
        State::Ready => t.lab_ready.to_string(),
        State::Playing => t.lab_playing.to_string(),
        State::Paused { step } => fill(t.lab_paused, &[("step", &step.to_string())]),
        State::Goal { at } => fill(t.goal_at, &[("at", &at.to_string()), ("goal", &goal)]),
        State::Stalled { step } => {
            let gain = format!("{}%", t.plain(STALL_GAIN * 100.0, 2));
            let why = match d.scaling {
                Scaling::Raw => t.lab_stalled_raw,
                Scaling::Standardised => t.lab_stalled_slow,
            };
            let what = fill(
                t.lab_stalled,
                &[
                    ("step", &step.to_string()),
                    ("window", &STALL_WINDOW.to_string()),
                    ("gain", &gain),
                    ("goal", &goal),
                ],
            );
            what + why
        }
        State::Diverged { step } => fill(
            t.diverged,
            &[
                ("step", &step.to_string()),
                ("rate", &localise(rates_label(d.rates), t.lang)),
                (
                    "scaling",
                    match d.scaling {
                        Scaling::Raw => t.raw,
                        Scaling::Standardised => t.standardised,
                    },
                ),
                (
                    "limit",
                    &localise(limit_label(d.scaling.max_stable_rate()), t.lang),
                ),
            ],
        ),
    }
}

/// The step counter: the lab's step, its point (to the sliders' precision, where
/// "Move my model" would put it) and its error (not the model's).
#[must_use]
pub fn progress_text(t: &Texts, d: &Descent) -> String {
    match (d.current(), d.losses.last()) {
        (Some(p), Some(&loss)) => fill(
            t.stepped,
            &[
                ("steps", &d.path.len().saturating_sub(1).to_string()),
                ("w", &t.plain(p.weight, 4)),
                ("b", &t.plain(p.bias, 2)),
                ("error", &t.num(loss, 2)),
            ],
        ),
        _ => t.no_run.to_string(),
    }
}

/// Where the lab starts: w 0, b 0 (Jay's gradient descent), Jay's start, or the
/// model's point it was given.
#[must_use]
pub fn start_text(t: &Texts, start: Start) -> String {
    let template = match start {
        Start::Origin => t.lab_from_origin,
        Start::Jays => t.lab_from_start,
        Start::Model(_) => t.lab_from_model,
    };
    let p = start.point();
    fill(
        template,
        &[("w", &t.plain(p.weight, 4)), ("b", &t.plain(p.bias, 2))],
    )
}

/// What "standardise the area" does, with this data's mean and spread.
#[cfg(feature = "ssr")]
#[must_use]
pub fn standardise_hint(t: &Texts) -> String {
    let (mean, std) = Scaling::Standardised.shift_and_scale();
    fill(
        t.server.standardise_hint,
        &[("mean", &t.num(mean, 0)), ("std", &t.num(std, 0))],
    )
}

/// The lesson: the raw stable limit, and the steps standardised areas take at
/// their default rate from Jay's start (computed, so the promise is the lab's).
#[cfg(feature = "ssr")]
#[must_use]
pub fn lesson(t: &Texts) -> String {
    let scaling = Scaling::Standardised;
    let steps = steps_to_goal(Start::Jays.point(), scaling.default_rate(), scaling, 100)
        .map_or_else(|| t.few_dozen.to_string(), |n| n.to_string());
    fill(
        t.server.lesson,
        &[
            (
                "limit",
                &localise(limit_label(Scaling::Raw.max_stable_rate()), t.lang),
            ),
            ("steps", &steps),
        ],
    )
}

/// A rate as people write it: `2e-7`, `0.1`, `1`.
#[must_use]
pub fn rate_label(rate: f64) -> String {
    if rate < 1e-3 {
        format!("{rate:e}")
    } else {
        vocabulary::format::plain(rate, 3)
    }
}

/// The run's rates: one (`2e-7`), or the weight's and the bias's (`1e-8 / 1`).
#[must_use]
pub fn rates_label(rates: Rates) -> String {
    rates.single().map_or_else(
        || format!("{} / {}", rate_label(rates.weight), rate_label(rates.bias)),
        rate_label,
    )
}

/// A stable-rate limit with three significant digits: `2.35e-7`, `1`.
#[must_use]
pub fn limit_label(rate: f64) -> String {
    if rate < 1e-3 {
        format!("{rate:.2e}")
    } else {
        vocabulary::format::plain(rate, 2)
    }
}

#[cfg(test)]
mod tests;
