//! One sentence for screen readers after each attempt ("Error 812.50, 362.50
//! to go, best 790.10" or "Goal reached"), in a polite `role="status"`
//! region, instead of announcing the error on every tick of a drag. After a
//! start over it says that the model is back at the start and the attempts
//! are kept, with the best ("Back at the start: error 799.09. Your attempts
//! are kept; best 447.80.").

use leptos::prelude::*;

use crate::page::i18n::Texts;
use crate::page::{
    controls::language::use_texts,
    model::{run_start, Attempt, Model},
    results::attempts::best_index,
};
use lesson::neuron::{reaches_goal, GOAL, START};
use vocabulary::fill;

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

/// What is said now: about the latest attempt, or, when a start over (a run
/// beginning at `run_start`) came after it, about the start over.
pub fn latest(t: &Texts, all: &[Attempt], run_start: usize) -> Option<String> {
    let (last, best) = (all.last()?, &all[best_index(all)?]);
    Some(if run_start >= all.len() {
        fill(
            t.said_start_over,
            &[
                ("error", &t.num(START.error(), 2)),
                ("best", &t.num(best.error, 2)),
            ],
        )
    } else {
        sentence(t, last.error, best.error)
    })
}

#[component]
pub fn Announcer(model: Model) -> impl IntoView {
    let t = use_texts();
    let said = move || {
        let from = model.starts.with(|s| run_start(s));
        model.attempts.with(|all| latest(t, all, from))
    };
    view! {
        <p class="visually-hidden" role="status" data-testid="announcer">
            {said}
        </p>
    }
}

#[cfg(test)]
mod tests {
    use crate::page::i18n::texts;
    use vocabulary::Lang;

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
    fn after_a_start_over_it_says_the_attempts_are_kept() {
        use crate::page::model::Attempt;
        use lesson::neuron::Params;
        let at = |w, b| {
            let params = Params::new(w, b);
            Attempt {
                params,
                error: params.error(),
            }
        };
        let all = [at(0.0585, 247.26), at(0.1, 151.0)];
        let en = texts(Lang::En);
        assert_eq!(super::latest(en, &[], 0), None);
        let kept = super::latest(en, &all, 2).expect("said");
        assert_eq!(
            kept,
            "Back at the start: error 799.09. Your attempts are kept; best 447.29."
        );
        let next = super::latest(en, &all, 1).expect("said");
        assert!(next.starts_with("Error 774.49,"), "{next}");
        assert!(next.ends_with("best 447.29."), "{next}");
        let pt = super::latest(texts(Lang::Pt), &all, 2).expect("said");
        assert!(pt.starts_with("De volta ao início: erro 799,09."), "{pt}");
    }

    #[test]
    fn a_portuguese_page_says_it_in_portuguese() {
        assert_eq!(
            super::sentence(texts(Lang::Pt), 13_359.084, 799.09),
            "Erro 13.359,08, faltam 12.909,08, melhor 799,09."
        );
    }
}
