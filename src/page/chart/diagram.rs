//! The neuron diagram, the picture at the heart of Jay Alammar's guide: a
//! house's area goes into the neuron, is multiplied by the weight, the bias is
//! added, and out comes the price, with the current numbers on it.
//!
//! It computes the house picked in the table (hovered or focused: the
//! `highlight` the chart draws stronger), else the first, and says which.
//! Numbers are written as the rest of the page writes them: the area and the
//! sum as the table does ([`Texts::num`]), the weight and the bias as the
//! chart's description does ([`Texts::plain`]), and the price in the
//! language's unit ([`Texts::price`]: 万美元 in Chinese).
//!
//! WASM (its budget is the page's tightest): the fixed drawing (arrows,
//! nodes, labels) is written by the server alone ([`frame_markup`]); the
//! browser rewrites one short string ([`values_markup`]) when the model or
//! the pick changes: which house, the five numbers, and the SVG's accessible
//! name ([`Shown::sentence`]), so a screen reader hears the whole computation
//! as one sentence (`role="img"`, as the chart).

use leptos::prelude::*;

use crate::page::i18n::Texts;
use lesson::neuron::{Params, HOUSES};
use vocabulary::fill;

/// What the diagram shows, as text: which house (the one picked, or the
/// first), its area, the weight, the bias, the sum (in $1000) and the price
/// in the language's unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub house: String,
    pub area: String,
    pub weight: String,
    pub bias: String,
    pub out: String,
    pub price: String,
}

impl Shown {
    /// The diagram for the house `picked` in the table (the first if none)
    /// at `p`, in `t`'s language.
    #[must_use]
    pub fn new(t: &Texts, picked: Option<usize>, p: Params) -> Self {
        let i = picked.filter(|&i| i < HOUSES.len()).unwrap_or(0);
        let w = &t.diagram;
        let area = t.num(HOUSES[i].area, 0);
        let out = p.predict(HOUSES[i].area);
        Self {
            house: fill(w.house, &[("n", &(i + 1).to_string()), ("area", &area)]),
            area,
            weight: t.plain(p.weight, 7),
            bias: t.plain(p.bias, 4),
            out: t.num(out, 2),
            price: fill(w.price, &[("price", &t.price(out, 1))]),
        }
    }

    /// The computation in one sentence, for screen readers.
    #[must_use]
    pub fn sentence(&self, t: &Texts) -> String {
        fill(
            t.diagram.said,
            &[
                ("house", &self.house),
                ("w", &self.weight),
                ("b", &self.bias),
                ("out", &self.out),
                ("price", &self.price),
            ],
        )
    }
}

/// The fixed part: the arrows, the nodes and their labels (the page's own
/// words for the area, the weight, the bias and the price), written by the
/// server alone. In the SVG's units (560 × 172, [`VIEW_BOX`]), the nodes'
/// centres are on the line y = 112, at x = 86 (the area), 187 (the weight, on
/// the first arrow), 300 (the neuron, which adds the bias) and 474 (the
/// price's box); their labels above them, the weight's under its arrow.
#[cfg(feature = "ssr")]
#[must_use]
pub fn frame_markup(t: &Texts) -> String {
    format!(
        concat!(
            r#"<path class="edge" d="M122 112H245M344 112H389"></path>"#,
            r#"<path class="head" d="M243 105l12 7-12 7zM387 105l12 7-12 7z"></path>"#,
            r#"<circle class="input" cx="86" cy="112" r="36"></circle>"#,
            r#"<circle class="neuron" cx="300" cy="112" r="44"></circle>"#,
            r#"<rect class="output" x="400" y="88" width="148" height="48" rx="8"></rect>"#,
            r#"<text x="86" y="60">{}</text><text x="187" y="142">{}</text>"#,
            r#"<text x="300" y="60">{}</text><text x="474" y="60">{}</text>"#,
        ),
        t.axis_area, t.weight, t.bias, t.axis_price,
    )
}

/// The changing part, for the house `picked` (the first if none) at `p`:
/// the sentence that names the SVG (a `<title>`, which its `aria-labelledby`
/// points to), which house, and the five numbers. Each text's class names it
/// and places it on its node (style/chart.css: SVG text takes a CSS
/// `transform`, and a coordinate written here would cost WASM).
#[must_use]
pub fn values_markup(t: &Texts, picked: Option<usize>, p: Params) -> String {
    let s = Shown::new(t, picked, p);
    format!(
        concat!(
            r#"<title id="diagram-said">{}</title><text class="house">{}</text>"#,
            r#"<text class="area">{}</text><text class="weight">× {}</text>"#,
            r#"<text class="bias">+ {}</text><text class="out">{}</text>"#,
            r#"<text class="price">= {}</text>"#,
        ),
        s.sentence(t),
        s.house,
        s.area,
        s.weight,
        s.bias,
        s.out,
        s.price,
    )
}

/// The SVG's `viewBox`: its text is 20 of these units, at least 11 px on a
/// phone (end2end/tests/phone.spec.ts), where the diagram is ~320 px wide.
const VIEW_BOX: &str = "0 0 560 172";

/// The diagram for the house `highlight` picks (else the first) at `params`.
/// A plain function (a component's props cost WASM code), whose fixed part
/// the browser keeps as the server wrote it ([`crate::server_only`]).
pub fn diagram(
    t: &'static Texts,
    params: Signal<Params>,
    highlight: Signal<Option<usize>>,
) -> impl IntoView {
    view! {
        <svg
            class="diagram"
            viewBox=VIEW_BOX
            role="img"
            aria-labelledby="diagram-said"
            data-testid="diagram"
        >
            <g class="frame" inner_html=crate::server_only!(frame_markup(t))></g>
            <g inner_html=move || values_markup(t, highlight.get(), params.get())></g>
        </svg>
    }
}

#[cfg(test)]
mod tests;
