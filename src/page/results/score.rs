//! The error, shown large, against the goal: how far there is to go, or success.

use leptos::prelude::*;

use crate::page::controls::language::use_texts;
use lesson::neuron::{min_error, reaches_goal, GOAL};
use vocabulary::fill;

#[component]
pub fn Score(#[prop(into)] error: Signal<f64>) -> impl IntoView {
    let t = use_texts();
    let reached = move || reaches_goal(error.get());
    let status = move || {
        let e = error.get();
        if reaches_goal(e) {
            fill(
                t.reached,
                &[
                    ("min", &t.num(min_error(), 2)),
                    ("above", &t.num((e - min_error()).max(0.0), 2)),
                ],
            )
        } else {
            fill(
                t.to_go,
                &[("left", &t.num(e - GOAL, 2)), ("goal", &t.num(GOAL, 0))],
            )
        }
    };

    view! {
        <div class="score" class:success=reached data-testid="score">
            // The long label where there is room, the short one in the phone's strip.
            <p class="score-label">
                <span class="label-long">{t.error_label}</span>
                <span class="label-short">{t.error_short}</span>
            </p>
            <p class="score-value" data-testid="error-value">
                {move || t.num(error.get(), 2)}
            </p>
            <p class="score-goal">{t.goal} {t.num(GOAL, 0)}</p>
            <p class="score-status" data-testid="score-status">
                {status}
            </p>
        </div>
    }
}
