//! The SVG chart: the three houses, the neuron's prediction line and each house's
//! residual (the vertical gap between its price and the prediction).

use leptos::prelude::*;

use crate::{
    format::grouped,
    neuron::{Params, HOUSES},
};

/// Drawing area of the SVG, in its own units (the `viewBox`).
const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 400.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 28.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 52.0;
/// Data shown: area 0–3000 sq ft (so the bias is visible as the intercept) and
/// price 0–600 ($1000).
const AREA_MAX: f64 = 3000.0;
const PRICE_MAX: f64 = 600.0;

/// SVG x of an area.
pub fn x_of(area: f64) -> f64 {
    LEFT + area / AREA_MAX * (WIDTH - LEFT - RIGHT)
}

/// SVG y of a price (SVG's y grows downwards).
pub fn y_of(price: f64) -> f64 {
    HEIGHT - BOTTOM - price / PRICE_MAX * (HEIGHT - TOP - BOTTOM)
}

/// Coordinates are written with two decimals: enough for the eye, stable in tests.
fn coord(v: f64) -> String {
    format!("{v:.2}")
}

#[component]
pub fn Chart(#[prop(into)] params: Signal<Params>) -> impl IntoView {
    let (plot_bottom, plot_left) = (y_of(0.0), x_of(0.0));
    let x_ticks = (0..=6).map(|i| f64::from(i) * 500.0).map(|area| {
        view! {
            <g class="tick">
                <line x1=coord(x_of(area)) x2=coord(x_of(area)) y1=coord(plot_bottom) y2=coord(plot_bottom + 6.0)></line>
                <text x=coord(x_of(area)) y=coord(plot_bottom + 22.0) text-anchor="middle">{grouped(area, 0)}</text>
            </g>
        }
    });
    let y_ticks = (0..=6).map(|i| f64::from(i) * 100.0).map(|price| {
        view! {
            <g class="tick">
                <line class="grid" x1=coord(plot_left) x2=coord(x_of(AREA_MAX)) y1=coord(y_of(price)) y2=coord(y_of(price))></line>
                <text x=coord(plot_left - 8.0) y=coord(y_of(price) + 4.0) text-anchor="end">{grouped(price, 0)}</text>
            </g>
        }
    });
    let houses = HOUSES.iter().map(|h| {
        view! {
            <circle class="house" cx=coord(x_of(h.area)) cy=coord(y_of(h.price)) r="6">
                <title>{format!("{} sq ft, ${}k", grouped(h.area, 0), grouped(h.price, 1))}</title>
            </circle>
        }
    });
    let residuals = move || {
        let p = params.get();
        HOUSES
            .iter()
            .map(|h| {
                view! {
                    <line
                        class="residual"
                        data-testid="residual"
                        x1=coord(x_of(h.area))
                        x2=coord(x_of(h.area))
                        y1=coord(y_of(h.price))
                        y2=coord(y_of(p.predict(h.area)))
                    ></line>
                }
            })
            .collect_view()
    };
    let line_y1 = move || coord(y_of(params.get().predict(0.0)));
    let line_y2 = move || coord(y_of(params.get().predict(AREA_MAX)));
    let description = move || {
        let p = params.get();
        format!(
            "Prediction line: price = area × {} + {}",
            crate::format::plain(p.weight, 7),
            crate::format::plain(p.bias, 4)
        )
    };

    view! {
        <figure class="chart">
            <svg
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-label=description
                data-testid="chart"
            >
                <defs>
                    <clipPath id="plot-area">
                        <rect
                            x=coord(plot_left)
                            y=coord(TOP)
                            width=coord(x_of(AREA_MAX) - plot_left)
                            height=coord(plot_bottom - TOP)
                        ></rect>
                    </clipPath>
                </defs>
                <g class="axis y-axis">{y_ticks.collect_view()}</g>
                <g class="axis x-axis">
                    <line x1=coord(plot_left) x2=coord(x_of(AREA_MAX)) y1=coord(plot_bottom) y2=coord(plot_bottom)></line>
                    {x_ticks.collect_view()}
                </g>
                <text class="axis-label" x=coord((plot_left + x_of(AREA_MAX)) / 2.0) y=coord(HEIGHT - 8.0) text-anchor="middle">
                    "Area (sq ft)"
                </text>
                <text
                    class="axis-label"
                    text-anchor="middle"
                    transform=format!("translate(16 {}) rotate(-90)", coord((TOP + plot_bottom) / 2.0))
                >
                    "Price ($1000)"
                </text>
                <g clip-path="url(#plot-area)">
                    {residuals}
                    <line
                        class="prediction"
                        data-testid="prediction-line"
                        x1=coord(plot_left)
                        x2=coord(x_of(AREA_MAX))
                        y1=line_y1
                        y2=line_y2
                    ></line>
                </g>
                {houses.collect_view()}
            </svg>
            <figcaption>
                <span class="legend-house">"● house"</span>
                <span class="legend-line">"— prediction"</span>
                <span class="legend-residual">"┆ residual"</span>
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_map_the_data_range_onto_the_plot_area() {
        assert_eq!(x_of(0.0), LEFT);
        assert_eq!(x_of(AREA_MAX), WIDTH - RIGHT);
        assert_eq!(y_of(0.0), HEIGHT - BOTTOM);
        assert_eq!(y_of(PRICE_MAX), TOP);
    }
}
