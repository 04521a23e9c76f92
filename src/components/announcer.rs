//! One sentence for screen readers after each attempt ("Error 812.50, 362.50
//! to go, best 790.10" or "Goal reached"), in a polite `role="status"`
//! region, instead of announcing the error on every tick of a drag.

use leptos::prelude::*;

use super::{attempts::best_index, model::Attempt};
use crate::{format::grouped, neuron::GOAL};

/// What is said after an attempt whose error is `error`, the best so far `best`.
pub fn sentence(error: f64, best: f64) -> String {
    if error <= GOAL {
        format!(
            "Goal reached: error {}, best {}.",
            grouped(error, 2),
            grouped(best, 2)
        )
    } else {
        format!(
            "Error {}, {} to go, best {}.",
            grouped(error, 2),
            grouped(error - GOAL, 2),
            grouped(best, 2)
        )
    }
}

#[component]
pub fn Announcer(#[prop(into)] attempts: Signal<Vec<Attempt>>) -> impl IntoView {
    let said = move || {
        attempts.with(|all| {
            let (last, best) = (all.last()?, &all[best_index(all)?]);
            Some(sentence(last.error, best.error))
        })
    };
    view! {
        <p class="visually-hidden" role="status" data-testid="announcer">
            {said}
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::sentence;

    #[test]
    fn one_sentence_per_attempt() {
        assert_eq!(
            sentence(812.5, 790.1),
            "Error 812.50, 362.50 to go, best 790.10."
        );
        assert_eq!(
            sentence(447.29, 447.29),
            "Goal reached: error 447.29, best 447.29."
        );
        assert_eq!(
            sentence(13_359.084, 799.09),
            "Error 13,359.08, 12,909.08 to go, best 799.09."
        );
    }
}
