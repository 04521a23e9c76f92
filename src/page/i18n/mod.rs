//! The page's words in English, Brazilian Portuguese and Simplified Chinese:
//! one [`Texts`] per language, one file each (`en.rs`, `pt.rs`, `zh.rs`), so
//! adding a language is adding a file and a line in [`texts`].
//!
//! A hand-made table rather than an i18n crate: `leptos_i18n`, the Leptos
//! ecosystem's, generates code per key and locale, and the WASM is already at
//! its 221.5 KB budget (`.ci/wasm-size`); these are plain `&'static str`s, shared by the server's
//! render and the browser so hydration sees the same words. Templates hold
//! `{name}` placeholders filled by [`vocabulary::fill`].
//!
//! The page's language comes from `?lang=` (kept in links), else the browser's
//! `Accept-Language`, else English ([`negotiate`]); the coach answers in it.

mod en;
mod pt;
mod zh;

use vocabulary::{
    format::{grouped_in, localise, plain, signed},
    Lang,
};

/// Every visible string of the page, for one language.
pub struct Texts {
    /// The language these words are in (numbers follow its conventions).
    pub lang: Lang,
    /// The unit a price is written in, in $1000: 1 in English and
    /// Portuguese ($350k, US$ 350 mil), 10 in Chinese, which counts in 万
    /// (35 万美元), as the question's 40 万美元 does.
    pub price_unit: u32,
    /// The units of large numbers on a chart's axis, smallest first, and
    /// their suffixes: `25.9M`, `25,9 mi` in Portuguese, `2590万` in Chinese.
    pub big_units: &'static [(f64, &'static str)],
    // The document (its title and description are the server's: `ServerWords`).
    pub not_found: &'static str,
    pub back_home: &'static str,
    pub language: &'static str,
    // The introduction.
    pub heading: &'static str,
    pub formula: &'static str,
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
    /// The vote under a comment: the group's name and its two buttons.
    pub vote_question: &'static str,
    pub vote_up: &'static str,
    pub vote_down: &'static str,
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
    pub axis_weight: &'static str,
    pub axis_bias: &'static str,
    // The gradient descent lab.
    pub descent: &'static str,
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
    /// `{at}`, `{goal}`.
    pub goal_at: &'static str,
    /// The lab's step counter: `{steps}`, `{w}`, `{b}`, `{error}`.
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
    // The descent lab explains itself: where it starts, what
    // "standardise" and the rate mean, and its state (announced on change only).
    /// `{w}`, `{b}`.
    pub lab_from_start: &'static str,
    /// `{w}`, `{b}`.
    pub lab_from_model: &'static str,
    /// `{w}`, `{b}` (w 0, b 0, as Jay's gradient descent starts).
    pub lab_from_origin: &'static str,
    pub step10: &'static str,
    pub step100: &'static str,
    pub lab_ready: &'static str,
    pub lab_playing: &'static str,
    /// `{step}`.
    pub lab_paused: &'static str,
    /// `{step}`, `{window}`, `{gain}`, `{goal}`.
    pub lab_stalled: &'static str,
    pub lab_stalled_raw: &'static str,
    pub lab_stalled_slow: &'static str,
    // The live strip: the error's label where space is short,
    // and the phone strip's button that shows the whole comment.
    pub error_short: &'static str,
    pub show_comment: &'static str,
    /// The neuron diagram's words.
    pub diagram: DiagramWords,
    /// Words only the server writes ([`ServerWords`]).
    #[cfg(feature = "ssr")]
    pub server: ServerWords,
    // Nothing lost (start over keeps the attempts).
    /// After a start over, for screen readers: `{error}`, `{best}`.
    pub said_start_over: &'static str,
    /// Marks the first attempt after a start over in the list.
    pub run_mark: &'static str,
    // The map: "click" with a mouse and "tap" on a touch screen (CSS
    // shows one), the marker's keys (its description), and the legend's words.
    pub map_legend: &'static str,
}

/// The neuron diagram's words: which house it shows, a price in the
/// language's unit, and the sentence a screen reader hears.
pub struct DiagramWords {
    /// Which house the diagram computes: `{n}`, `{area}`.
    pub house: &'static str,
    /// A price, `{price}` in [`Texts::price`]'s unit
    /// ($1000, or 万 in Chinese, as the chart's house titles write it).
    pub price: &'static str,
    /// The whole computation, for screen readers: `{house}` (a filled
    /// [`DiagramWords::house`]), `{w}`, `{b}`, `{out}` (in $1000, as the sliders and
    /// the table count) and `{price}` (a filled [`DiagramWords::price`]).
    pub said: &'static str,
}

/// Words only the server writes: static paragraphs (the introduction, the
/// lab's lesson and hints, the map's caption, keys and legend) that the
/// browser keeps as the server wrote them at hydration (an `inner_html` is
/// not rewritten when hydrating; see [`server_only`]). Behind `ssr`, so their
/// three languages are not compiled into the WASM (they would take it past
/// its budget).
#[cfg(feature = "ssr")]
pub struct ServerWords {
    /// The document's `<title>` and `<meta name="description">` (the head
    /// is the server's alone: `page::app::shell`).
    pub title: &'static str,
    pub description: &'static str,
    pub intro_lead: &'static str,
    pub intro_rest: &'static str,
    pub embed_lead: &'static str,
    /// The credit to Jay Alammar's guide on every page: `{guide}` and
    /// `{part2}` are the two posts' linked titles (`page::credit`).
    pub credit: &'static str,
    /// The link to the second lesson (`/two`), under the introduction.
    pub next_lesson: &'static str,
    /// `{limit}`, `{steps}`.
    pub lesson: &'static str,
    /// `{mean}`, `{std}`.
    pub standardise_hint: &'static str,
    pub rate_hint: &'static str,
    // Where a run starts, and the lab's areas and rates (Jay's two).
    pub lab_start_legend: &'static str,
    pub lab_start_origin: &'static str,
    /// `{w}`, `{b}`.
    pub lab_start_jays: &'static str,
    pub lab_start_model: &'static str,
    pub lab_preset_legend: &'static str,
    pub lab_preset_raw: &'static str,
    /// `{w}`, `{b}`: the weight's rate and the bias's.
    pub lab_preset_jay: &'static str,
    /// `{ratio}`.
    pub jay_hint: &'static str,
    pub landscape_caption: &'static str,
    pub map_click: &'static str,
    pub map_tap: &'static str,
    pub map_keys: &'static str,
    /// The colour scale's two ends.
    pub map_low: &'static str,
    pub map_high: &'static str,
    pub map_island: &'static str,
    pub map_contours: &'static str,
    pub map_trail: &'static str,
    pub map_best: &'static str,
    pub map_descent: &'static str,
    pub map_marker: &'static str,
    /// Jay's score lines, in `lesson::score_line::ScoreLine`'s order: at or below
    /// 799, 750, 600, 500, the goal; 100,000 or more; 800,000 or more.
    pub score_lines: [&'static str; 7],
}

/// `$markup` on the server; an empty string in the browser, which keeps what
/// the server wrote when it hydrates the element's `inner_html` (words of
/// [`ServerWords`] are not there to be read).
#[macro_export]
macro_rules! server_only {
    ($markup:expr) => {{
        #[cfg(feature = "ssr")]
        let markup: String = $markup;
        #[cfg(not(feature = "ssr"))]
        let markup = String::new();
        markup
    }};
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

    /// A price given in $1000, as a number in this language's unit
    /// ([`Texts::price_unit`]) with the same precision: `350` for $350k,
    /// `35` in Chinese (35 万美元); `decimals` are those of the $1000 figure.
    pub fn price(&self, thousands: f64, decimals: usize) -> String {
        if self.price_unit <= 1 {
            return self.num(thousands, decimals);
        }
        let extra = self.price_unit.ilog10() as usize;
        self.plain(thousands / f64::from(self.price_unit), decimals + extra)
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

/// The page's language: `?lang=` when it names one we speak, else the best
/// of `Accept-Language`, else English.
pub fn negotiate(query: Option<&str>, accept_language: Option<&str>) -> Lang {
    query
        .and_then(Lang::parse)
        .or_else(|| accept_language.and_then(Lang::from_accept_language))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
