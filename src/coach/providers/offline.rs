//! The built-in offline commentator: a phrasebook per tier and language (in
//! `coach::text`'s language files) with the
//! visitor's numbers filled in, and, when the weight and bias are known, one
//! concrete step from the facts ([`crate::advice`]): "Try to raise the bias by
//! about 13.". It answers when no remote model can be used (no
//! `HF_TOKEN`) and as the last resort when every model failed, so the bubble is
//! never empty.
//!
//! Variety without memory on the server: the phrase is picked by the visitor's
//! attempt count, offset by a hash of their first error, so two consecutive
//! attempts in the same tier never get the same phrase, and different visitors
//! walk the phrasebook in different orders.
//! Pure: no I/O, and no words of its own (they are `coach::text`'s).

use crate::{
    advice::Facts,
    coach::{
        comment::Tier,
        text::{facts, input::CoachInput, trend::Trend, words_for},
    },
    format::grouped_in,
    i18n::fill,
    neuron::{min_error, GOAL},
};

/// The comment for this input.
pub fn comment(input: &CoachInput) -> String {
    let tier = Tier::of(input.error);
    let words = words_for(input.lang);
    let phrases = words.offline[tier as usize];
    let trend = Trend::of(input.error, &input.attempts);
    // The visitor's first error: the same on every request of their session.
    let first = input.attempts.first().copied().unwrap_or(input.error);
    let seed = (first.to_bits() % 7919) as usize;
    let phrase = phrases[(seed + trend.attempts) % phrases.len()];
    let num = |x: f64| grouped_in(x, 2, input.lang);
    let count = if trend.attempts == 1 {
        words.attempts_one
    } else {
        words.attempts_many
    };
    let attempts = fill(count, &[("n", &trend.attempts.to_string())]);
    let text = fill(
        phrase,
        &[
            ("error", &num(input.error)),
            ("best", &num(trend.best)),
            ("to_go", &num((input.error - GOAL).max(0.0))),
            ("attempt", &trend.attempts.to_string()),
            ("attempts", &attempts),
            ("min", &num(min_error())),
        ],
    );
    // With the weight and bias known, short of the goal: one concrete step.
    let hint = (tier != Tier::Goal)
        .then(|| input.params.map(Facts::of))
        .flatten()
        .and_then(|facts| facts::hint(input.lang, &facts));
    match hint {
        Some(hint) => format!("{text}{}{hint}", words.separator),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::{lang::Lang, text::reply::max_chars};

    fn input(error: f64, attempts: Vec<f64>, lang: Lang) -> CoachInput {
        CoachInput {
            error,
            attempts,
            params: None,
            model: None,
            lang,
        }
    }

    #[test]
    fn fills_in_the_numbers_and_fits_the_reply_limit() {
        for lang in Lang::ALL {
            for tier_error in [13_359.08, 812.0, 447.29] {
                for n in 0..12 {
                    let history: Vec<f64> = (0..n).map(|i| 20_000.0 - f64::from(i)).collect();
                    let text = comment(&input(tier_error, history, lang));
                    assert!(!text.contains('{'), "{text}");
                    assert!(text.chars().count() <= max_chars(lang), "{text}");
                }
            }
        }
    }

    #[test]
    fn one_attempt_is_singular() {
        // The goal on the first attempt, in every phrase of the tier: "Goal
        // reached in 1 attempts" was one of them (and "em 1 tentativas").
        for (lang, wrong, right) in [
            (Lang::En, "1 attempts", "in 1 attempt."),
            (Lang::Pt, "1 tentativas", "em 1 tentativa."),
        ] {
            let mut said_right = false;
            for i in 0..400 {
                let error = 447.3 + f64::from(i) * 0.0071;
                for history in [vec![], vec![900.0]] {
                    let text = comment(&input(error, history.clone(), lang));
                    assert!(!text.contains(wrong), "{text}");
                    said_right |= history.is_empty() && text.contains(right);
                    if !history.is_empty() {
                        assert!(!text.contains(right), "{text}");
                    }
                }
            }
            assert!(said_right, "{lang:?}: no phrase counted the attempts");
        }
    }

    #[test]
    fn with_the_point_known_it_gives_one_step_that_fits_and_agrees_with_the_facts() {
        use crate::{
            coach::text::directions::advised,
            neuron::{best_bias_for_weight, Params},
        };
        let mut points = vec![crate::neuron::START];
        for i in 0..=12 {
            let w = 0.025 * f64::from(i);
            points.push(Params::new(w, 100.0));
            points.push(Params::new(w, best_bias_for_weight(w)));
        }
        for lang in Lang::ALL {
            for p in &points {
                for n in 0..8 {
                    let mut visitor = input(p.error(), vec![20_000.0; n], lang);
                    visitor.params = Some(*p);
                    let text = comment(&visitor);
                    assert!(text.chars().count() <= max_chars(lang), "{text}");
                    let facts = Facts::of(*p);
                    for (param, way) in advised(&text, lang) {
                        assert!(!facts.contradicts(param, way), "{lang:?} {p:?}: {text}");
                    }
                }
            }
        }
        let mut start = input(799.09, vec![], Lang::En);
        start.params = Some(crate::neuron::START);
        assert!(
            comment(&start).ends_with(" Try to raise the bias by about 13."),
            "{}",
            comment(&start)
        );
    }

    /// Whether every `thousands` separator between digits is followed by
    /// exactly three digits (so it is not a decimal point).
    fn groups_only(text: &str, thousands: char) -> bool {
        let chars: Vec<char> = text.chars().collect();
        (1..chars.len().saturating_sub(1))
            .filter(|&i| chars[i] == thousands && chars[i - 1].is_ascii_digit())
            .filter(|&i| chars[i + 1].is_ascii_digit())
            .all(|i| {
                let digits = chars[i + 1..].iter().take_while(|c| c.is_ascii_digit());
                digits.count() == 3
            })
    }

    #[test]
    fn numbers_are_written_the_way_the_page_writes_them() {
        // 13,359.08 and "about 0.12" on an English page; 13.359,08 and "cerca
        // de 0,12" on a Portuguese one (the page there shows 635,25, not 635.25).
        for (lang, thousands, decimals) in [(Lang::En, ',', "0.12"), (Lang::Pt, '.', "0,12")] {
            let mut decimal_seen = false;
            for n in 0..12 {
                let mut visitor = input(13_359.08, vec![20_000.0; n], lang);
                visitor.params = Some(crate::neuron::Params::new(0.3, 0.0));
                let text = comment(&visitor);
                assert!(groups_only(&text, thousands), "{text}");
                assert!(text.contains(decimals), "{text}");
                decimal_seen |= text.contains(if lang == Lang::Pt {
                    "13.359,08"
                } else {
                    "13,359.08"
                });
            }
            assert!(decimal_seen, "{lang:?}: no phrase showed the error");
        }
    }

    #[test]
    fn never_the_same_comment_twice_in_a_row() {
        for lang in Lang::ALL {
            // From the very first attempt, for several visitors; stay in one
            // tier with the same error, so only the phrase can differ.
            for first in [5_000.0, 13_359.08, 70_433.03, 2_500.5, 9_999.0] {
                let mut history: Vec<f64> = Vec::new();
                let mut previous = String::new();
                for _ in 0..30 {
                    let error = if history.is_empty() { first } else { 5_000.0 };
                    let text = comment(&input(error, history.clone(), lang));
                    assert_ne!(text, previous, "after {history:?}");
                    previous = text;
                    history.push(error);
                }
            }
        }
    }

    #[test]
    fn different_visitors_hear_different_phrases() {
        for lang in Lang::ALL {
            let phrases = words_for(lang).offline[Tier::Far as usize].len();
            // 600 visitors at the same point (second attempt, error 5000) who
            // started at different errors: only the phrase can tell them apart.
            let mut heard = std::collections::HashMap::<String, usize>::new();
            for i in 0..600 {
                let first = 10_000.0 + f64::from(i) * 37.25;
                let visitor = input(5_000.0, vec![first], lang);
                let text = comment(&visitor);
                assert_eq!(text, comment(&visitor), "the same input, the same phrase");
                *heard.entry(text).or_default() += 1;
            }
            // Every phrase of the tier is heard, none by more than a third.
            assert_eq!(heard.len(), phrases, "{lang:?}: {heard:#?}");
            assert!(heard.values().all(|&n| n <= 200), "{lang:?}: {heard:#?}");
        }
    }
}
