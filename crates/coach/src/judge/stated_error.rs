//! Whether a reply states the current error as another number: "The error
//! is 635" at 13,359.09 (SmolLM2-135M, docs/benchmarks/model.md) quoted a
//! number the prompt does state (the error after the best move), so the
//! number check ([`super::numbers`]) let it through.
//!
//! Read sentence by sentence: a number right after an `error_is` phrase of
//! the language's [`ClaimWords`] ("the error is", "o erro é", "误差是") must
//! be the error, rounded to the number's own last digit (`799.1` says
//! 799.09). It need not when a `relative` word follows it ("635 above the
//! goal", "349 以上"), nor in a sentence with a negation, a condition or a
//! future ("if", "será", "会"). Pure.

use super::{
    claims::{Reading, Token},
    numbers::numbers,
};
#[cfg(test)]
use vocabulary::Lang;

/// Whether `text` says the error is a number that is not `error`.
#[cfg(test)]
pub fn misstates_error(text: &str, lang: Lang, error: f64) -> bool {
    misstates_error_in(&Reading::of(text, lang), error)
}

/// [`misstates_error`] of a reply already read.
pub(crate) fn misstates_error_in(reading: &Reading, error: f64) -> bool {
    reading.any(|s| {
        let w = s.words;
        if s.says(w.negations) {
            return false;
        }
        // The numbers of the sentence, in order, with their readings (the
        // tokens hold values only; the rounding needs the digits written).
        let mut readings = numbers(&s.normalised).into_iter();
        let nth: Vec<_> = s
            .tokens
            .iter()
            .map(|t| match t {
                Token::Number(_) => readings.next(),
                Token::Word(_) => None,
            })
            .collect();
        let relative = s.find(w.relative);
        s.find(w.error_is).into_iter().any(|(at, n)| {
            let Some(Some(number)) = nth.get(at + n) else {
                return false;
            };
            let distance = relative.iter().any(|&(k, _)| k == at + n + 1);
            !distance && !number.iter().any(|r| r.says(error))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_number_stated_as_the_error_is_caught() {
        for (lang, text) in [
            (
                Lang::En,
                "You've got it. The error is 635 and the best so far was near.",
            ),
            (Lang::En, "Your error's 799 now."),
            (Lang::Pt, "O erro é 635,29, bom trabalho."),
            (Lang::Zh, "误差是 635.29，很好。"),
        ] {
            assert!(misstates_error(text, lang, 13_359.09), "{lang:?}: {text}");
        }
    }

    #[test]
    fn the_error_rounded_distances_and_conditions_pass() {
        for (lang, text) in [
            (Lang::En, "The error is 13,359.09. Lower the weight."),
            (Lang::En, "The error is about 13,000."),
            (Lang::En, "Error now: 13,359.1."),
            (Lang::En, "The error is 12,909 above the goal."),
            (Lang::En, "If you raise the bias the error is 635."),
            (Lang::En, "Raise the bias by 13 for an error of 635."),
            (Lang::Pt, "O erro é 13.359,09; baixe o peso."),
            (Lang::Pt, "O erro está 12.909 acima da meta."),
            (Lang::Zh, "误差是 13,359.09，先调低权重。"),
            (Lang::Zh, "误差是 12,909 以上。"),
            (Lang::Zh, "调高偏置，误差会是 635。"),
        ] {
            assert!(!misstates_error(text, lang, 13_359.09), "{lang:?}: {text}");
        }
    }
}
