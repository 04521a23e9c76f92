//! The offline commentator's promises: numbers filled in the page's way,
//! within the reply limit, one attempt singular, variety per visitor.

use super::*;
use crate::judge::max_chars;
use vocabulary::Lang;

fn input(error: f64, attempts: Vec<f64>, lang: Lang) -> CoachInput {
    CoachInput {
        error,
        attempts,
        params: None,
        lesson: lesson::lessons::Which::One,
        two: None,
        model: None,
        lang,
    }
}

#[test]
fn fills_in_the_numbers_and_fits_the_reply_limit() {
    for lang in Lang::ALL {
        // Every distance, and the longest numbers: the largest error a
        // request may carry, and the sliders' worst corner.
        for tier_error in [9_999_999.99, 559_999.99, 13_359.08, 812.0, 599.99, 447.29] {
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
    use crate::judge::directions::advised;
    use lesson::neuron::{best_bias_for_weight, Params};
    let mut points = vec![lesson::neuron::START];
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
    start.params = Some(lesson::neuron::START);
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
            visitor.params = Some(lesson::neuron::Params::new(0.3, 0.0));
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
        // A new best, far from the goal: one situation's phrases.
        let situation = Situation::of(5_000.0, &[10_000.0]);
        let phrases = phrasebook(lang).phrases(situation).len();
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
        // Every phrase of the situation is heard, none by more than a third.
        assert_eq!(heard.len(), phrases, "{lang:?}: {heard:#?}");
        assert!(heard.values().all(|&n| n <= 200), "{lang:?}: {heard:#?}");
    }
}

#[test]
fn a_situation_met_again_soon_says_something_else() {
    // Twenty new bests far from the goal in a row (six phrases there): any
    // three in a row are three different phrases, for every visitor.
    for lang in Lang::ALL {
        for start in [90_000.0, 70_433.03, 50_000.5] {
            let mut history: Vec<f64> = Vec::new();
            let mut heard: Vec<String> = Vec::new();
            for i in 0..20 {
                let error = start - 2_000.0 * f64::from(i);
                heard.push(opener(&input(error, history.clone(), lang)));
                history.push(error);
            }
            for three in heard[1..].windows(3) {
                let [a, b, c] = three else { continue };
                // The numbers differ: compare the phrases without them.
                let bare =
                    |s: &str| s.replace(|c: char| c.is_ascii_digit() || c == ',' || c == '.', "");
                assert!(
                    bare(a) != bare(b) && bare(b) != bare(c) && bare(a) != bare(c),
                    "{three:?}"
                );
            }
        }
    }
}
