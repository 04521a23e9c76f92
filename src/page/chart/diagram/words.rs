//! The neuron diagram's own words, in the page's three languages: which house
//! it shows, a price in the language's unit, and the sentence a screen reader
//! hears. Kept beside the diagram rather than in `page::i18n`, whose files
//! every panel edits; the same rules hold (the same `{placeholders}` in every
//! language, nothing that needs escaping in markup), checked in `tests.rs`.

use vocabulary::Lang;

/// The diagram's words in one language.
pub struct Words {
    /// Which house the diagram computes: `{n}`, `{area}`.
    pub house: &'static str,
    /// A price, `{price}` in [`crate::page::i18n::Texts::price`]'s unit
    /// ($1000, or 万 in Chinese, as the chart's house titles write it).
    pub price: &'static str,
    /// The whole computation, for screen readers: `{house}` (a filled
    /// [`Words::house`]), `{w}`, `{b}`, `{out}` (in $1000, as the sliders and
    /// the table count) and `{price}` (a filled [`Words::price`]).
    pub said: &'static str,
}

static EN: Words = Words {
    house: "House {n}: {area} sq ft",
    price: "${price}k",
    said: "{house} × {w} + {b} = {out}, that is {price}.",
};

static PT: Words = Words {
    house: "Casa {n}: {area} pés²",
    price: "US$ {price} mil",
    said: "{house} × {w} + {b} = {out}, ou seja, {price}.",
};

// Chinese counts prices in 万 (the page's question and house titles do); the
// sliders and the table count in 1000 美元, so the sum says its unit.
static ZH: Words = Words {
    house: "第 {n} 栋房子：{area} 平方英尺",
    price: "{price} 万美元",
    said: "{house} × {w} + {b} = {out}（单位：1000 美元），即 {price}。",
};

/// The diagram's words in `lang`.
#[must_use]
pub fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Pt => &PT,
        Lang::Zh => &ZH,
    }
}
