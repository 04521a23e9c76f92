//! Per-house numbers: area, price, the neuron's prediction, the signed residual
//! (price − prediction: positive when the line passes under the house) and its
//! square. Hovering or focusing a row picks that house on the chart.

use leptos::prelude::*;

use crate::{
    format::{grouped, signed},
    neuron::{Params, HOUSES},
};

#[component]
pub fn HouseTable(
    #[prop(into)] params: Signal<Params>,
    /// The house picked by hovering or focusing its row.
    highlight: RwSignal<Option<usize>>,
) -> impl IntoView {
    // The rows stay (so focus stays on them); only their numbers change.
    let rows = HOUSES
        .iter()
        .enumerate()
        .map(|(i, house)| {
            let prediction = move || params.get().predict(house.area);
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
                >
                    <td>{grouped(house.area, 0)}</td>
                    <td>{grouped(house.price, 1)}</td>
                    <td data-testid="prediction">{move || grouped(prediction(), 2)}</td>
                    <td data-testid="residual-value">{move || signed(house.price - prediction())}</td>
                    <td data-testid="squared-error">
                        {move || grouped((house.price - prediction()).powi(2), 2)}
                    </td>
                </tr>
            }
        })
        .collect_view();

    view! {
        // Scrolls sideways, within itself, if its numbers ever outgrow a narrow column.
        <div class="houses-scroll">
        <table class="houses" data-testid="houses">
            <caption>
                "The three houses "
                <span class="caption-note">"(prices in $1000; residual = price − prediction)"</span>
            </caption>
            <thead>
                <tr>
                    <th scope="col">"Area (sq ft)"</th>
                    <th scope="col">"Price"</th>
                    <th scope="col">"Prediction"</th>
                    <th scope="col">"Residual"</th>
                    <th scope="col">"Residual²"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
            <tfoot>
                <tr>
                    <th scope="row" colspan="4">
                        "Mean (the error)"
                    </th>
                    <td data-testid="mean-error">{move || grouped(params.get().error(), 2)}</td>
                </tr>
            </tfoot>
        </table>
        </div>
    }
}
