//! Per-house numbers: area, price, the neuron's prediction, the signed residual
//! (price − prediction: positive when the line passes under the house) and its
//! square. Hovering or focusing a row picks that house on the chart.
//!
//! The table's fixed head and each row's cells are markup strings set with
//! `inner_html` ([`cells_markup`]): typed `view!` elements each cost the WASM
//! code of their own. The rows themselves stay typed elements that are never
//! replaced, so a focused row keeps its focus while its numbers change.

use std::fmt::Write;

use leptos::prelude::*;

use crate::page::controls::language::use_texts;
use crate::page::i18n::Texts;
use lesson::neuron::{House, Params, HOUSES};

/// The caption: what the table shows, and the units.
fn caption_markup(t: &Texts) -> String {
    format!(
        r#"{}<span class="caption-note">{}</span>"#,
        t.houses, t.houses_note
    )
}

/// The head of the table: one column per number.
fn head_markup(t: &Texts) -> String {
    let mut s = String::from("<tr>");
    for name in [
        t.col_area,
        t.col_price,
        t.col_prediction,
        t.col_residual,
        t.col_squared,
    ] {
        let _ = write!(s, r#"<th scope="col">{name}</th>"#);
    }
    s.push_str("</tr>");
    s
}

/// One house's cells at `params`: area, price, prediction, residual, its square.
#[must_use]
pub fn cells_markup(t: &Texts, house: &House, params: Params) -> String {
    let prediction = params.predict(house.area);
    let residual = house.price - prediction;
    let mut s = String::with_capacity(256);
    let _ = write!(
        s,
        r#"<td>{}</td><td>{}</td><td data-testid="prediction">{}</td><td data-testid="residual-value">{}</td><td data-testid="squared-error">{}</td>"#,
        t.num(house.area, 0),
        t.num(house.price, 1),
        t.num(prediction, 2),
        t.signed(residual),
        t.num(residual.powi(2), 2)
    );
    s
}

/// The foot of the table: the mean of the squares, which is the error.
#[must_use]
pub fn foot_markup(t: &Texts, params: Params) -> String {
    format!(
        r#"<tr><th scope="row" colspan="4">{}</th><td data-testid="mean-error">{}</td></tr>"#,
        t.mean,
        t.num(params.error(), 2)
    )
}

#[component]
pub fn HouseTable(
    #[prop(into)] params: Signal<Params>,
    /// The house picked by hovering or focusing its row.
    highlight: RwSignal<Option<usize>>,
) -> impl IntoView {
    let t = use_texts();
    // The rows stay (so focus stays on them); only their numbers change.
    let rows = HOUSES
        .iter()
        .enumerate()
        .map(|(i, house)| {
            let pick = move || highlight.set(Some(i));
            let drop = move || highlight.set(None);
            view! {
                <tr
                    tabindex="0"
                    class:picked=move || highlight.get() == Some(i)
                    data-testid="house-row"
                    on:mouseenter=move |_| pick()
                    on:mouseleave=move |_| drop()
                    on:focus=move |_| pick()
                    on:blur=move |_| drop()
                    inner_html=move || cells_markup(t, house, params.get())
                ></tr>
            }
        })
        .collect_view();

    view! {
        // Scrolls sideways, within itself, if its numbers ever outgrow a narrow column.
        <div class="houses-scroll">
        <table class="houses" data-testid="houses">
            <caption inner_html=caption_markup(t)></caption>
            <thead inner_html=head_markup(t)></thead>
            <tbody>{rows}</tbody>
            <tfoot inner_html=move || foot_markup(t, params.get())></tfoot>
        </table>
        </div>
    }
}
