//! The page's words in English, Brazilian Portuguese and Simplified Chinese:
//! one [`Texts`] per language, one file each (`en.rs`, `pt.rs`, `zh.rs`), so
//! adding a language is adding a file and a line in [`texts`].
//!
//! A hand-made table rather than an i18n crate: `leptos_i18n`, the Leptos
//! ecosystem's, generates code per key and locale, and the WASM is already at
//! its 300 KB budget; these are plain `&'static str`s, shared by the server's
//! render and the browser so hydration sees the same words. Templates hold
//! `{name}` placeholders filled by [`fill`].
//!
//! The page's language comes from `?lang=` (kept in links), else the browser's
//! `Accept-Language`, else English ([`negotiate`]); the coach answers in it.

mod en;
mod pt;
mod zh;

use crate::{
    coach::Lang,
    format::{grouped_in, localise, plain, signed},
};

/// Every visible string of the page, for one language.
pub struct Texts {
    /// The language these words are in (numbers follow its conventions).
    pub lang: Lang,
    // The document.
    pub title: &'static str,
    pub description: &'static str,
    pub not_found: &'static str,
    pub back_home: &'static str,
    pub language: &'static str,
    // The introduction.
    pub heading: &'static str,
    pub intro_lead: &'static str,
    pub formula: &'static str,
    pub intro_rest: &'static str,
    pub embed_lead: &'static str,
    pub embed_link: &'static str,
    // The page's regions.
    pub model_section: &'static str,
    pub live_section: &'static str,
    pub landscape_section: &'static str,
    pub results_section: &'static str,
    // The sliders.
    pub weight: &'static str,
    pub weight_unit: &'static str,
    pub bias: &'static str,
    pub bias_unit: &'static str,
    /// `{label}`.
    pub exact_value: &'static str,
    pub start_over: &'static str,
    pub one_at_a_time: &'static str,
    pub best_bias: &'static str,
    pub best_weight: &'static str,
    // The chart.
    /// `{area}`, `{price}`.
    pub house_title: &'static str,
    pub axis_area: &'static str,
    pub axis_price: &'static str,
    pub legend_house: &'static str,
    pub legend_line: &'static str,
    pub legend_residual: &'static str,
    /// `{error}`.
    pub legend_best: &'static str,
    pub squares: &'static str,
    /// `{w}`, `{b}`.
    pub chart_label: &'static str,
    // The score.
    pub error_label: &'static str,
    pub goal: &'static str,
    /// `{min}`, `{above}`.
    pub reached: &'static str,
    /// `{left}`, `{goal}`.
    pub to_go: &'static str,
    // The goal ladder.
    pub ladder: &'static str,
    /// `{v}`.
    pub rung_below: &'static str,
    pub rung_goal: &'static str,
    pub rung_floor: &'static str,
    /// `{n}`, `{rung}`.
    pub rung_news: &'static str,
    // The guide's question.
    pub question: &'static str,
    /// `{price}`, `{verdict}`.
    pub answer: &'static str,
    pub fair: &'static str,
    pub bargain: &'static str,
    pub too_much: &'static str,
    // What a screen reader hears after an attempt: `{error}`, `{left}`, `{best}`.
    pub said_goal: &'static str,
    pub said: &'static str,
    // The coach's bubble.
    pub coach: &'static str,
    pub waiting: &'static str,
    pub resting: &'static str,
    pub offline_resting: &'static str,
    pub offline: &'static str,
    // The houses' table.
    pub houses: &'static str,
    pub houses_note: &'static str,
    pub col_area: &'static str,
    pub col_price: &'static str,
    pub col_prediction: &'static str,
    pub col_residual: &'static str,
    pub col_squared: &'static str,
    pub mean: &'static str,
    // The attempts.
    pub attempts_section: &'static str,
    pub attempts: &'static str,
    pub no_attempts: &'static str,
    /// `{n}`, `{best}`, `{i}`.
    pub summary_one: &'static str,
    pub summary_many: &'static str,
    pub restore: &'static str,
    pub best_star: &'static str,
    pub copy_best: &'static str,
    pub copied: &'static str,
    pub copy_this: &'static str,
    pub spark_label: &'static str,
    // The landscape.
    pub show_all: &'static str,
    pub zoom: &'static str,
    pub marker: &'static str,
    /// `{w}`, `{b}`, `{error}`.
    pub marker_value: &'static str,
    pub landscape_caption: &'static str,
    pub axis_weight: &'static str,
    pub axis_bias: &'static str,
    // The gradient descent lab.
    pub descent: &'static str,
    /// `{limit}`, `{steps}`.
    pub lesson: &'static str,
    pub standardise: &'static str,
    pub rate: &'static str,
    pub run: &'static str,
    pub step: &'static str,
    pub play: &'static str,
    pub pause: &'static str,
    pub reset: &'static str,
    pub apply: &'static str,
    pub no_run: &'static str,
    /// `{step}`, `{rate}`, `{scaling}`, `{limit}`.
    pub diverged: &'static str,
    pub raw: &'static str,
    pub standardised: &'static str,
    /// `{at}`, `{steps}`, `{error}`.
    pub goal_at: &'static str,
    /// `{steps}`, `{error}`.
    pub stepped: &'static str,
    pub few_dozen: &'static str,
    pub loss_label: &'static str,
    pub loss_step: &'static str,
    /// `{step}`.
    pub loss_diverged: &'static str,
    // A link's values that could not be used: `{key}`, `{text}`, `{name}`,
    // `{min}`, `{max}`, `{value}`.
    pub link_outside: &'static str,
    pub link_not_number: &'static str,
}

impl Texts {
    /// `x` with `decimals` decimals and this language's separators:
    /// `13,359.08`, or `13.359,08` in Portuguese.
    pub fn num(&self, x: f64, decimals: usize) -> String {
        grouped_in(x, decimals, self.lang)
    }

    /// `x` as [`plain`] writes it (at most `max_decimals`, no trailing zeros),
    /// with this language's decimal separator: `0.0585`, `0,0585` in Portuguese.
    pub fn plain(&self, x: f64, max_decimals: usize) -> String {
        localise(plain(x, max_decimals), self.lang)
    }

    /// `x` with an explicit sign and two decimals, in this language's
    /// separators: `+39.50`, `−21.00` (`+39,50` in Portuguese).
    pub fn signed(&self, x: f64) -> String {
        localise(signed(x), self.lang)
    }
}

/// The page's words in `lang`.
pub fn texts(lang: Lang) -> &'static Texts {
    match lang {
        Lang::En => &en::TEXTS,
        Lang::Pt => &pt::TEXTS,
        Lang::Zh => &zh::TEXTS,
    }
}

/// The `lang` attribute of a page in `lang`.
pub fn html_tag(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Pt => "pt-BR",
        Lang::Zh => "zh-CN",
    }
}

/// Each language, in its own words (the switcher's labels).
pub fn endonym(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "English",
        Lang::Pt => "Português",
        Lang::Zh => "中文",
    }
}

/// The page's language: `?lang=` when it names one we speak, else the best
/// of `Accept-Language`, else English.
pub fn negotiate(query: Option<&str>, accept_language: Option<&str>) -> Lang {
    query
        .and_then(Lang::parse)
        .or_else(|| accept_language.and_then(Lang::from_accept_language))
        .unwrap_or_default()
}

/// `template` with each `{name}` replaced by its value, in one pass (a value
/// is never read as a template; an unknown `{name}` is left as it is).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * values.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after.find('}').and_then(|close| {
            let name = &after[..close];
            let value = values.iter().find(|(n, _)| *n == name)?.1;
            Some((value, close))
        });
        match value {
            Some((value, close)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_known_names_once_and_leaves_the_rest() {
        assert_eq!(
            fill("{a} and {b}, {a}!", &[("a", "1"), ("b", "{a}")]),
            "1 and {a}, 1!"
        );
        assert_eq!(fill("{unknown} {a", &[("a", "1")]), "{unknown} {a");
        assert_eq!(fill("约 {n}。", &[("n", "13")]), "约 13。");
        assert_eq!(fill("", &[]), "");
    }

    #[test]
    fn the_language_comes_from_the_link_then_the_browser_then_english() {
        assert_eq!(negotiate(Some("pt-BR"), Some("zh-CN")), Lang::Pt);
        assert_eq!(negotiate(Some("fr"), Some("zh-CN,zh;q=0.9")), Lang::Zh);
        assert_eq!(negotiate(None, Some("de, fr")), Lang::En);
        assert_eq!(negotiate(None, None), Lang::En);
        assert_eq!(html_tag(Lang::Zh), "zh-CN");
    }

    #[test]
    fn every_language_fills_the_same_placeholders() {
        // Field by field: a translation that drops or misspells a placeholder
        // would print `{n}` or lose a number.
        let placeholders = |s: &str| {
            let mut names: Vec<String> = s
                .split('{')
                .skip(1)
                .filter_map(|rest| rest.split_once('}').map(|(n, _)| n.to_string()))
                .collect();
            names.sort();
            names
        };
        for lang in [Lang::Pt, Lang::Zh] {
            for (english, translated) in all_fields(texts(Lang::En))
                .into_iter()
                .zip(all_fields(texts(lang)))
            {
                assert_eq!(
                    placeholders(english),
                    placeholders(translated),
                    "{lang:?}: {english:?} vs {translated:?}"
                );
                assert!(!translated.is_empty(), "{lang:?}: empty for {english:?}");
            }
        }
    }

    #[test]
    fn texts_are_safe_to_write_into_markup() {
        // The chart, table and introduction write these into HTML strings.
        for lang in Lang::ALL {
            for text in all_fields(texts(lang)) {
                assert!(!text.contains(['<', '>', '&', '"']), "{lang:?}: {text:?}");
            }
        }
    }

    #[test]
    fn fill_replaces_every_placeholder() {
        assert_eq!(
            fill("{n} of {n}: {x}", &[("n", "3"), ("x", "ok")]),
            "3 of 3: ok"
        );
    }

    fn all_fields(t: &Texts) -> Vec<&'static str> {
        vec![
            t.title,
            t.description,
            t.not_found,
            t.back_home,
            t.language,
            t.heading,
            t.intro_lead,
            t.formula,
            t.intro_rest,
            t.embed_lead,
            t.embed_link,
            t.model_section,
            t.live_section,
            t.landscape_section,
            t.results_section,
            t.weight,
            t.weight_unit,
            t.bias,
            t.bias_unit,
            t.exact_value,
            t.start_over,
            t.one_at_a_time,
            t.best_bias,
            t.best_weight,
            t.house_title,
            t.axis_area,
            t.axis_price,
            t.legend_house,
            t.legend_line,
            t.legend_residual,
            t.legend_best,
            t.squares,
            t.chart_label,
            t.error_label,
            t.goal,
            t.reached,
            t.to_go,
            t.ladder,
            t.rung_below,
            t.rung_goal,
            t.rung_floor,
            t.rung_news,
            t.question,
            t.answer,
            t.fair,
            t.bargain,
            t.too_much,
            t.said_goal,
            t.said,
            t.coach,
            t.waiting,
            t.resting,
            t.offline_resting,
            t.offline,
            t.houses,
            t.houses_note,
            t.col_area,
            t.col_price,
            t.col_prediction,
            t.col_residual,
            t.col_squared,
            t.mean,
            t.attempts_section,
            t.attempts,
            t.no_attempts,
            t.summary_one,
            t.summary_many,
            t.restore,
            t.best_star,
            t.copy_best,
            t.copied,
            t.copy_this,
            t.spark_label,
            t.show_all,
            t.zoom,
            t.marker,
            t.marker_value,
            t.landscape_caption,
            t.axis_weight,
            t.axis_bias,
            t.descent,
            t.lesson,
            t.standardise,
            t.rate,
            t.run,
            t.step,
            t.play,
            t.pause,
            t.reset,
            t.apply,
            t.no_run,
            t.diverged,
            t.raw,
            t.standardised,
            t.goal_at,
            t.stepped,
            t.few_dozen,
            t.loss_label,
            t.loss_step,
            t.loss_diverged,
            t.link_outside,
            t.link_not_number,
        ]
    }
}
