//! The question Jay's guide opens with, answered live by the current line:
//! "is $400k fair for a 2,000 sq ft house?"

use leptos::prelude::*;

use crate::page::controls::language::use_texts;
use crate::page::i18n::Texts;
use lesson::neuron::Params;
use vocabulary::fill;

/// The house the guide asks about, and its asking price ($1000).
pub const AREA: f64 = 2000.0;
pub const ASKING: f64 = 400.0;
/// Within this many $1000 of the asking price, the line calls it fair.
pub const FAIR_WITHIN: f64 = 10.0;

/// The line's answer to the question, for `params`.
pub fn answer(t: &Texts, params: Params) -> String {
    let price = params.predict(AREA);
    let verdict = if (price - ASKING).abs() <= FAIR_WITHIN {
        t.fair
    } else if price > ASKING {
        t.bargain
    } else {
        t.too_much
    };
    fill(
        t.answer,
        &[("price", &t.price(price, 0)), ("verdict", verdict)],
    )
}

#[component]
pub fn Question(params: Memo<Params>) -> impl IntoView {
    let t = use_texts();
    view! {
        <p class="question" data-testid="question">
            <strong>{t.question}</strong>
            <span data-testid="question-answer">{move || answer(t, params.get())}</span>
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use vocabulary::Lang;

    fn answer(params: Params) -> String {
        super::answer(texts(Lang::En), params)
    }

    #[test]
    fn the_line_answers_the_guides_question() {
        // Jay's start: 2000 × 0.1 + 150 = 350.
        assert_eq!(
            answer(Params::new(0.1, 150.0)),
            "Your line prices it at $350k, so $400k looks too much."
        );
        assert_eq!(
            answer(Params::new(0.1, 205.0)),
            "Your line prices it at $405k, so $400k looks about fair."
        );
        assert_eq!(
            answer(Params::new(0.2, 50.0)),
            "Your line prices it at $450k, so $400k looks a bargain."
        );
    }

    #[test]
    fn each_language_writes_the_price_in_the_questions_unit() {
        // Chinese counts in 万 (ten thousand): the question asks about
        // 40 万美元, so the answer says 35 万美元, never 350 千美元.
        let start = Params::new(0.1, 150.0);
        assert_eq!(
            super::answer(texts(Lang::Zh), start),
            "按你的直线，这栋房子值 35 万美元，所以要价 40 万美元太贵了。"
        );
        assert_eq!(
            super::answer(texts(Lang::Zh), Params::new(0.1, 203.3)),
            "按你的直线，这栋房子值 40.3 万美元，所以要价 40 万美元还算合理。"
        );
        assert_eq!(
            super::answer(texts(Lang::Pt), start),
            "Pela sua reta, a casa vale US$ 350 mil, então US$ 400 mil parece caro demais."
        );
    }
}
