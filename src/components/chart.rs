//! The SVG chart: the three houses, the neuron's prediction line and each house's
//! residual (the vertical gap between its price and the prediction).
//!
//! Optionally, each residual becomes a square whose area is that house's squared
//! error (the error is the mean of the three areas: MLU-Explain's picture of
//! least squares). A house picked in the table (`highlight`) is drawn stronger,
//! and once the goal is reached the least-squares line is drawn faintly.

use leptos::prelude::*;

use crate::{
    format::grouped,
    neuron::{optimum, Params, HOUSES},
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

/// The square on a house's residual, in SVG units: `(x, y, side)`. Its side is
/// the residual's length on screen, so its area is the squared error (the same
/// scale for every house). It grows rightwards, or leftwards when it would
/// leave the plot.
pub fn residual_square(area: f64, price: f64, prediction: f64) -> (f64, f64, f64) {
    let (x, y_price, y_prediction) = (x_of(area), y_of(price), y_of(prediction));
    let side = (y_price - y_prediction).abs();
    let left = if x + side > x_of(AREA_MAX) {
        x - side
    } else {
        x
    };
    (left, y_price.min(y_prediction), side)
}

#[component]
pub fn Chart(
    #[prop(into)] params: Signal<Params>,
    /// The house picked in the table, drawn stronger.
    #[prop(into)]
    highlight: Signal<Option<usize>>,
    /// Whether the goal has been reached: then the best line is drawn faintly.
    #[prop(into)]
    reached: Signal<bool>,
) -> impl IntoView {
    let squares_on = RwSignal::new(false);
    let (plot_bottom, plot_left) = (y_of(0.0), x_of(0.0));
    let x_ticks = (0..=6).map(|i| f64::from(i) * 500.0).map(|area| {
        view! {
            <g class="tick">
                <line x1=coord(x_of(area)) x2=coord(x_of(area)) y1=coord(plot_bottom) y2=coord(plot_bottom + 6.0)></line>
                // The last label ends at its tick, so that it stays inside the chart.
                <text x=coord(x_of(area)) y=coord(plot_bottom + 22.0) text-anchor=if area < AREA_MAX { "middle" } else { "end" }>{grouped(area, 0)}</text>
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
    let houses = HOUSES.iter().enumerate().map(|(i, h)| {
        view! {
            <circle
                class="house"
                class:picked=move || highlight.get() == Some(i)
                cx=coord(x_of(h.area))
                cy=coord(y_of(h.price))
                r="6"
            >
                <title>{format!("{} sq ft, ${}k", grouped(h.area, 0), grouped(h.price, 1))}</title>
            </circle>
        }
    });
    let residuals = move || {
        let p = params.get();
        let picked = highlight.get();
        HOUSES
            .iter()
            .enumerate()
            .map(|(i, h)| {
                view! {
                    <line
                        class="residual"
                        class:picked=picked == Some(i)
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
    let squares = move || {
        if !squares_on.get() {
            return None;
        }
        let p = params.get();
        let picked = highlight.get();
        let drawn = HOUSES
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let (x, y, side) = residual_square(h.area, h.price, p.predict(h.area));
                view! {
                    <rect
                        class="residual-square"
                        class:picked=picked == Some(i)
                        data-testid="residual-square"
                        x=coord(x)
                        y=coord(y)
                        width=coord(side)
                        height=coord(side)
                    ></rect>
                }
            })
            .collect_view();
        Some(drawn)
    };
    let best = optimum();
    let best_legend = format!(
        "┄ the best possible line (error {})",
        grouped(best.error(), 2)
    );
    let best_fit = move || {
        reached.get().then(|| {
            view! {
                <line
                    class="best-fit"
                    data-testid="best-fit-line"
                    x1=coord(plot_left)
                    x2=coord(x_of(AREA_MAX))
                    y1=coord(y_of(best.predict(0.0)))
                    y2=coord(y_of(best.predict(AREA_MAX)))
                ></line>
            }
        })
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
                    {squares}
                    {best_fit}
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
                {move || {
                    reached
                        .get()
                        .then(|| view! { <span class="legend-best">{best_legend.clone()}</span> })
                }}
                <label class="squares-toggle">
                    <input type="checkbox" data-testid="squares-toggle" bind:checked=squares_on/>
                    " Squares: each one's area is that house's squared error (the error is their mean)"
                </label>
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_residual_square_has_the_squared_error_as_its_area() {
        // One SVG unit per price unit × this: the same for every house.
        let scale = y_of(0.0) - y_of(1.0);
        let p = Params::new(0.1, 150.0);
        for (h, squared) in HOUSES.iter().zip(p.squared_errors()) {
            let (x, y, side) = residual_square(h.area, h.price, p.predict(h.area));
            assert!((side * side - squared * scale * scale).abs() < 1e-6);
            assert!(
                x >= x_of(0.0) && x + side <= x_of(AREA_MAX),
                "inside the plot"
            );
            assert_eq!(y, y_of(h.price.max(p.predict(h.area))));
        }
    }

    #[test]
    fn scales_map_the_data_range_onto_the_plot_area() {
        assert_eq!(x_of(0.0), LEFT);
        assert_eq!(x_of(AREA_MAX), WIDTH - RIGHT);
        assert_eq!(y_of(0.0), HEIGHT - BOTTOM);
        assert_eq!(y_of(PRICE_MAX), TOP);
    }
}
