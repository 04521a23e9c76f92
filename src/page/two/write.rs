//! How `/two`'s server writes values: numbers in the page's language, and
//! text from a link made safe inside HTML.

use vocabulary::{format, Lang};

/// Text made safe inside HTML (a link's values are shown back).
#[must_use]
pub fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `x` as the page writes it (at most `decimals`, the language's separator).
#[must_use]
pub fn num(x: f64, decimals: usize, lang: Lang) -> String {
    format::localise(format::plain(x, decimals), lang)
}

/// `x` with exactly `decimals` and grouped thousands.
#[must_use]
pub fn grouped(x: f64, decimals: usize, lang: Lang) -> String {
    format::grouped_in(x, decimals, lang)
}
