//! Per-house numbers: area, price, the neuron's prediction and its squared error.

use leptos::prelude::*;

use crate::{
    format::grouped,
    neuron::{Params, HOUSES},
};

#[component]
pub fn HouseTable(#[prop(into)] params: Signal<Params>) -> impl IntoView {
    let rows = move || {
        let p = params.get();
        HOUSES
            .iter()
            .zip(p.squared_errors())
            .map(|(house, squared)| {
                view! {
                    <tr>
                        <td>{grouped(house.area, 0)}</td>
                        <td>{grouped(house.price, 1)}</td>
                        <td data-testid="prediction">{grouped(p.predict(house.area), 2)}</td>
                        <td data-testid="squared-error">{grouped(squared, 2)}</td>
                    </tr>
                }
            })
            .collect_view()
    };

    view! {
        <table class="houses" data-testid="houses">
            <caption>"The three houses"</caption>
            <thead>
                <tr>
                    <th scope="col">"Area (sq ft)"</th>
                    <th scope="col">"Price ($1000)"</th>
                    <th scope="col">"Prediction ($1000)"</th>
                    <th scope="col">"Squared error"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
            <tfoot>
                <tr>
                    <th scope="row" colspan="3">
                        "Mean (the error)"
                    </th>
                    <td data-testid="mean-error">{move || grouped(params.get().error(), 2)}</td>
                </tr>
            </tfoot>
        </table>
    }
}
