//! The second lesson's words, in the page's three languages. The server
//! writes them all into the page's markup; the browser's controller reads
//! the few it fills in again (status lines, the bias's cost) from the
//! elements' `data-*` templates, so no word of this page is in the WASM.

mod en;
mod pt;
mod zh;

use vocabulary::Lang;

/// Every word of `/two`. Placeholders in braces are filled by
/// [`vocabulary::fill`] (on the server) or by the controller (in the browser).
pub struct TwoWords {
    pub title: &'static str,
    pub description: &'static str,
    pub heading: &'static str,
    pub embed_heading: &'static str,
    pub formula: &'static str,
    pub intro: &'static str,
    pub embed_lead: &'static str,
    pub to_lesson_one: &'static str,
    pub full_page: &'static str,
    pub w1: &'static str,
    pub w1_unit: &'static str,
    pub w2: &'static str,
    pub w2_unit: &'static str,
    pub b: &'static str,
    pub b_unit: &'static str,
    pub start_over: &'static str,
    /// The form's button, shown only without scripts.
    pub apply: &'static str,
    pub error_label: &'static str,
    pub goal: &'static str,
    /// `{left}`, `{goal}`.
    pub to_go: &'static str,
    /// `{floor}`, `{above}`.
    pub reached: &'static str,
    pub ladder: &'static str,
    pub rungs: [&'static str; 6],
    /// What an attempt is said as (a polite live region): `{error}`, `{best}`.
    pub best: &'static str,
    /// Before any attempt.
    pub no_attempt: &'static str,
    /// The friend's question, and the neuron's answer (`{price}`, `{verdict}`).
    pub question: &'static str,
    pub answer: &'static str,
    pub chart_label: &'static str,
    pub axis_area: &'static str,
    pub axis_price: &'static str,
    /// `{n}`.
    pub line_for: &'static str,
    pub map_title: &'static str,
    pub map_caption: &'static str,
    pub map_near: &'static str,
    pub map_all: &'static str,
    pub map_island: &'static str,
    pub map_no_bathrooms: &'static str,
    pub map_trail: &'static str,
    pub map_marker: &'static str,
    pub strip_title: &'static str,
    /// `{b}`, `{best}`, `{cost}`.
    pub strip_cost: &'static str,
    pub best_bias: &'static str,
    pub diagram: &'static str,
    pub house_one: &'static str,
    pub houses: &'static str,
    pub col_area: &'static str,
    pub col_bathrooms: &'static str,
    pub col_price: &'static str,
    pub col_prediction: &'static str,
    pub col_residual: &'static str,
    pub exact_value: &'static str,
    /// `{key}`, `{text}`, `{min}`, `{max}`, `{value}`.
    pub link_notice: &'static str,
    pub lab: LabWords,
}

/// The gradient descent lab's words.
pub struct LabWords {
    pub title: &'static str,
    pub intro: &'static str,
    pub scheme: &'static str,
    /// Jay's rates, one rate on standardised inputs, one on raw ones.
    pub schemes: [&'static str; 3],
    pub start: &'static str,
    pub start_origin: &'static str,
    pub start_model: &'static str,
    pub steps: [&'static str; 3],
    pub reset: &'static str,
    pub apply: &'static str,
    /// `{step}`, `{w1}`, `{w2}`, `{b}`, `{error}`.
    pub readout: &'static str,
    pub ready: &'static str,
    /// `{at}`.
    pub goal: &'static str,
    /// Stalled, per scheme (Jay's, standardised, raw).
    pub stalled: [&'static str; 3],
    /// `{step}`.
    pub diverged: &'static str,
    pub loss: &'static str,
}

/// The words of `/two` in `lang`.
#[must_use]
pub fn two_words(lang: Lang) -> &'static TwoWords {
    match lang {
        Lang::En => &en::WORDS,
        Lang::Pt => &pt::WORDS,
        Lang::Zh => &zh::WORDS,
    }
}
