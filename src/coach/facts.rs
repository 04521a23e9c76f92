//! The facts about a point ([`crate::advice`]) in words, per language: as
//! plain statements for a model's prompt (which it may rephrase, never
//! contradict), and as a short hint for the offline commentator.

use super::Lang;
use crate::{
    advice::{opposite, roughly, Facts, Param, Way},
    format::{grouped_in, localise, plain},
    i18n::fill,
    neuron::min_error,
};

struct Words {
    weight: &'static str,
    bias: &'static str,
    /// "raise" / "lower", as the sentences below use them.
    up: &'static str,
    down: &'static str,
    intro: &'static str,
    best_move: &'static str,
    valley: &'static str,
    no_move: &'static str,
    hint: &'static str,
    valley_hint: &'static str,
}

static EN: Words = Words {
    weight: "weight",
    bias: "bias",
    up: "raise",
    down: "lower",
    intro: "Facts (say them in your own words, never contradict them): weight {w}, bias {b}; the error is {above} above the lowest possible, {min}.",
    best_move: "The single move that helps most: {way} the {param} by about {by}, to an error of about {after}.",
    valley: "The point is in the valley: one slider alone barely helps; {wway} the weight and {bway} the bias together, in small steps.",
    no_move: "No single slider can lower the error any more.",
    hint: "Try to {way} the {param} by about {by}.",
    valley_hint: "In the valley: {wway} the weight and {bway} the bias together.",
};

static PT: Words = Words {
    weight: "peso",
    bias: "viés",
    up: "aumente",
    down: "diminua",
    intro: "Fatos (diga com suas palavras, nunca os contradiga): peso {w}, viés {b}; o erro está {above} acima do menor possível, {min}.",
    best_move: "O movimento único que mais ajuda: {way} o {param} em cerca de {by}, para um erro de cerca de {after}.",
    valley: "O ponto está no vale: mexer um controle sozinho quase não ajuda; {wway} o peso e {bway} o viés juntos, aos poucos.",
    no_move: "Nenhum controle sozinho baixa mais o erro.",
    hint: "Dica: {way} o {param} em cerca de {by}.",
    valley_hint: "No vale: {wway} o peso e {bway} o viés juntos.",
};

static ZH: Words = Words {
    weight: "权重",
    bias: "偏置",
    up: "调高",
    down: "调低",
    intro:
        "事实（可以换种说法，但不能违背）：权重 {w}，偏置 {b}；误差比最低可能值 {min} 高 {above}。",
    best_move: "最有帮助的单一调整：把{param}{way}约 {by}，误差会到约 {after}。",
    valley: "当前点在山谷里：只动一个滑块几乎没用；要{wway}权重、{bway}偏置，一起小步调整。",
    no_move: "只动一个滑块已经无法再降低误差。",
    hint: "试试把{param}{way}约 {by}。",
    valley_hint: "在山谷里：{wway}权重、{bway}偏置一起调。",
};

fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Pt => &PT,
        Lang::Zh => &ZH,
    }
}

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

/// "about 13", "about 0.0051" ("0,0051" in Portuguese): two significant digits.
fn amount(by: f64, lang: Lang) -> String {
    localise(plain(roughly(by), 7), lang)
}

/// The facts as statements for a prompt.
pub fn statements(lang: Lang, facts: &Facts) -> String {
    let w = words(lang);
    let mut text = fill(
        w.intro,
        &[
            ("w", &localise(plain(facts.params.weight, 4), lang)),
            ("b", &localise(plain(facts.params.bias, 1), lang)),
            ("above", &grouped_in(facts.above_floor, 2, lang)),
            ("min", &grouped_in(min_error(), 2, lang)),
        ],
    );
    let separator = if lang == Lang::Zh { "" } else { " " };
    let next = match facts.best_move {
        Some(m) => fill(
            w.best_move,
            &[
                ("way", way(w, m.way)),
                ("param", param(w, m.param)),
                ("by", &amount(m.by, lang)),
                ("after", &grouped_in(m.error_after, 0, lang)),
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
    let w = words(lang);
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
    use crate::{
        coach::directions::advised,
        neuron::{best_bias_for_weight, optimum, Params, START},
    };

    /// Points all over the sliders' range, the valley floor and the optimum.
    fn points() -> Vec<Params> {
        let mut all = vec![
            START,
            optimum(),
            Params::new(0.0, 0.0),
            Params::new(0.3, 500.0),
        ];
        for i in 0..=12 {
            for j in 0..=10 {
                all.push(Params::new(0.025 * f64::from(i), 50.0 * f64::from(j)));
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
