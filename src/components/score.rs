//! The error, shown large, against the goal: how far there is to go, or success.

use leptos::prelude::*;

use crate::{
    format::grouped,
    neuron::{min_error, GOAL},
};

#[component]
pub fn Score(#[prop(into)] error: Signal<f64>) -> impl IntoView {
    let reached = move || error.get() <= GOAL;
    let status = move || {
        let e = error.get();
        if e <= GOAL {
            format!(
                "Goal reached! The lowest error any line can get is {}: you are {} above it.",
                grouped(min_error(), 2),
                grouped((e - min_error()).max(0.0), 2)
            )
        } else {
            format!(
                "{} to go to get below {}.",
                grouped(e - GOAL, 2),
                grouped(GOAL, 0)
            )
        }
    };

    view! {
        <div class="score" class:success=reached data-testid="score">
            <p class="score-label">"Error (mean squared, in ($1000)²)"</p>
            <p class="score-value" data-testid="error-value">
                {move || grouped(error.get(), 2)}
            </p>
            <p class="score-goal">"Goal: below " {grouped(GOAL, 0)}</p>
            <p class="score-status" data-testid="score-status">
                {status}
            </p>
        </div>
    }
}
