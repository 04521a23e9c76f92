//! The facts about a point ([`lesson::advice`]) in words, per language: as
//! plain statements for a model's prompt (which it may rephrase, never
//! contradict), and as a short hint for the offline commentator.
//! Pure; its words are in the language files.

use crate::words::{words_for, FactWords as Words};
use lesson::{
    advice::{opposite, roughly, Facts, Param, Way},
    neuron::min_error,
};
use vocabulary::{
    fill,
    format::{grouped_in, localise, plain},
    Lang,
};

fn way(w: &Words, way: Way) -> &'static str {
    match way {
        Way::Up => w.up,
        Way::Down => w.down,
    }
}

fn param(w: &Words, param: Param) -> &'static str {
    match param {
        Param::Weight => w.weight,
        Param::Bias => w.bias,
    }
}

/// Decimals of the weight, the bias, the error above the floor and the
/// error after the best move, as the statements print them.
const W_DECIMALS: usize = 4;
const B_DECIMALS: usize = 1;
const ABOVE_DECIMALS: usize = 2;
const AFTER_DECIMALS: usize = 0;
/// The most decimals of an amount ("about 0.0000051").
const BY_DECIMALS: usize = 7;

/// "about 13", "about 0.0051" ("0,0051" in Portuguese): two significant digits.
pub(crate) fn amount(by: f64, lang: Lang) -> String {
    localise(plain(roughly(by), BY_DECIMALS), lang)
}

/// `x` as stated, and as printed with `decimals`: the two values a reply
/// may round (see `Prompt::figures`).
pub fn printed(x: f64, decimals: usize) -> [f64; 2] {
    let scale = 10f64.powi(i32::try_from(decimals).unwrap_or(0));
    [x, (x * scale).round() / scale]
}

/// The numbers of the facts, as printed and unrounded (see
/// `Prompt::figures`): the weight, the bias, the error above the floor, and
/// each single move's amount and the error after it: the best one's, which
/// [`statements`] states, and the other's, which is as true ("lower the
/// bias by 137" where the weight's move helps more).
pub fn figures(facts: &Facts) -> Vec<f64> {
    let mut out = Vec::new();
    out.extend(printed(facts.params.weight, W_DECIMALS));
    out.extend(printed(facts.params.bias, B_DECIMALS));
    out.extend(printed(facts.above_floor, ABOVE_DECIMALS));
    for m in [facts.weight_move, facts.bias_move] {
        out.extend(printed(m.by, BY_DECIMALS));
        out.push(roughly(m.by));
        out.extend(printed(m.error_after, AFTER_DECIMALS));
    }
    out
}

/// The facts as statements for a prompt.
pub fn statements(lang: Lang, facts: &Facts) -> String {
    let w = &words_for(lang).facts;
    let mut text = fill(
        w.intro,
        &[
            ("w", &localise(plain(facts.params.weight, W_DECIMALS), lang)),
            ("b", &localise(plain(facts.params.bias, B_DECIMALS), lang)),
            (
                "above",
                &grouped_in(facts.above_floor, ABOVE_DECIMALS, lang),
            ),
            ("min", &grouped_in(min_error(), ABOVE_DECIMALS, lang)),
        ],
    );
    let separator = words_for(lang).separator;
    let next = match facts.best_move {
        Some(m) => fill(
            w.best_move,
            &[
                ("way", way(w, m.way)),
                ("param", param(w, m.param)),
                ("by", &amount(m.by, lang)),
                ("after", &grouped_in(m.error_after, AFTER_DECIMALS, lang)),
            ],
        ),
        None => w.no_move.to_string(),
    };
    text.push_str(separator);
    text.push_str(&next);
    if facts.in_valley {
        text.push_str(separator);
        text.push_str(&valley(w.valley, w, facts));
    }
    text
}

/// A short hint for the offline commentator: the valley's way, else the best
/// single move; `None` when no move helps.
pub fn hint(lang: Lang, facts: &Facts) -> Option<String> {
    let w = &words_for(lang).facts;
    if facts.in_valley {
        return Some(valley(w.valley_hint, w, facts));
    }
    let m = facts.best_move?;
    Some(fill(
        w.hint,
        &[
            ("way", way(w, m.way)),
            ("param", param(w, m.param)),
            ("by", &amount(m.by, lang)),
        ],
    ))
}

fn valley(template: &str, w: &Words, facts: &Facts) -> String {
    fill(
        template,
        &[
            ("wway", way(w, facts.valley_weight_way)),
            ("bway", way(w, opposite(facts.valley_weight_way))),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::directions::advised;
    use lesson::neuron::{
        best_bias_for_weight, optimum, Params, BIAS_SLIDER, START, WEIGHT_SLIDER,
    };

    /// Points all over the sliders' range, the valley floor and the optimum.
    fn points() -> Vec<Params> {
        let mut all = vec![
            START,
            optimum(),
            Params::new(0.0, 0.0),
            Params::new(WEIGHT_SLIDER.max, BIAS_SLIDER.max),
        ];
        for i in 0..=16 {
            for j in 0..=10 {
                all.push(Params::new(0.025 * f64::from(i), 46.0 * f64::from(j)));
            }
            let w = 0.01 + 0.01 * f64::from(i);
            all.push(Params::new(w, best_bias_for_weight(w)));
        }
        all
    }

    #[test]
    fn our_own_words_never_contradict_the_facts() {
        for lang in Lang::ALL {
            for p in points() {
                let facts = Facts::of(p);
                let mut said = vec![statements(lang, &facts)];
                said.extend(hint(lang, &facts));
                for text in said {
                    for (param, way) in advised(&text, lang) {
                        assert!(!facts.contradicts(param, way), "{lang:?} {p:?}: {text}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_guides_start_in_three_languages() {
        let facts = Facts::of(START);
        assert_eq!(
            statements(Lang::En, &facts),
            "Facts (say them in your own words, never contradict them): weight 0.1, bias 150; the error is 351.80 above the lowest possible, 447.29. The single move that helps most: raise the bias by about 13, to an error of about 635."
        );
        assert_eq!(
            hint(Lang::En, &facts).unwrap(),
            "Try to raise the bias by about 13."
        );
        assert_eq!(
            hint(Lang::Pt, &facts).unwrap(),
            "Dica: aumente o viés em cerca de 13."
        );
        assert_eq!(hint(Lang::Zh, &facts).unwrap(), "试试把偏置调高约 13。");
        for lang in Lang::ALL {
            assert_eq!(
                advised(&hint(lang, &facts).unwrap(), lang),
                [(Param::Bias, Way::Up)]
            );
        }
        // In the valley the hint is the diagonal.
        let valley = Facts::of(Params::new(0.08, best_bias_for_weight(0.08)));
        assert_eq!(
            hint(Lang::En, &valley).unwrap(),
            "In the valley: lower the weight and raise the bias together."
        );
        assert!(statements(Lang::Zh, &valley).contains("调低权重、调高偏置"));
    }
}
