//! One sentence for screen readers after each attempt ("Error 812.50, 362.50
//! to go, best 790.10" or "Goal reached"), in a polite `role="status"`
//! region, instead of announcing the error on every tick of a drag.

use leptos::prelude::*;

use super::{attempts::best_index, language::use_texts, model::Attempt};
use crate::{
    i18n::{fill, Texts},
    neuron::{reaches_goal, GOAL},
};

/// What is said after an attempt whose error is `error`, the best so far `best`.
pub fn sentence(t: &Texts, error: f64, best: f64) -> String {
    let template = if reaches_goal(error) {
        t.said_goal
    } else {
        t.said
    };
    fill(
        template,
        &[
            ("error", &t.num(error, 2)),
            ("left", &t.num(error - GOAL, 2)),
            ("best", &t.num(best, 2)),
        ],
    )
}

#[component]
pub fn Announcer(#[prop(into)] attempts: Signal<Vec<Attempt>>) -> impl IntoView {
    let t = use_texts();
    let said = move || {
        attempts.with(|all| {
            let (last, best) = (all.last()?, &all[best_index(all)?]);
            Some(sentence(t, last.error, best.error))
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
    use crate::{coach::Lang, i18n::texts};

    fn sentence(error: f64, best: f64) -> String {
        super::sentence(texts(Lang::En), error, best)
    }

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

    #[test]
    fn a_portuguese_page_says_it_in_portuguese() {
        assert_eq!(
            super::sentence(texts(Lang::Pt), 13_359.084, 799.09),
            "Erro 13.359,08, faltam 12.909,08, melhor 799,09."
        );
    }
}
