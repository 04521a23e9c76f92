//! The SVG chart: the three houses, the neuron's prediction line and each house's
//! residual (the vertical gap between its price and the prediction).
//!
//! Optionally, each residual becomes a square whose area is that house's squared
//! error (the error is the mean of the three areas: MLU-Explain's picture of
//! least squares). A house picked in the table (`highlight`) is drawn stronger,
//! and once the goal is reached the least-squares line is drawn faintly.
//!
//! The drawing is written as SVG markup strings set with `inner_html` (as the
//! landscape's is, in `landscape_markup.rs`): one string for the fixed axes and
//! one, rebuilt when the line, the pick, the squares or the goal change, for
//! everything else. Leptos compiles every typed `view!` element and attribute
//! into code of its own, and the chart's thirty-odd typed elements cost the WASM
//! kilobytes that a few `write!`s do not. The server writes the same strings, so
//! hydration finds them as they are. Only numbers and fixed words go into them.
//!
//! Beside it, the neuron diagram ([`diagram`]) computes one house's price (the
//! one picked in the table, else the first) with the same weight and bias.

pub mod diagram;
pub mod question;

use std::fmt::Write;

use leptos::prelude::*;

use crate::page::controls::language::use_texts;
use crate::page::i18n::Texts;
use lesson::neuron::{optimum, Params, HOUSES};
use vocabulary::fill;

/// Drawing area of the SVG, in its own units (the `viewBox`).
const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 400.0;
/// Room for the price labels ("600" at the phone's 22 px) beside the rotated
/// axis title: at 70 the title ran over "400", "300" and "200" on a phone.
const LEFT: f64 = 84.0;
/// Room for half of the last area label ("3,000" at the phone's 22 px), so
/// that every label is centred on its tick (an end-anchored last label ran
/// into "2,500" wherever the chart is drawn small).
const RIGHT: f64 = 36.0;
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

/// [`axes_markup`], which the server writes once per language and keeps
/// ([`crate::page::kept`]).
#[inline(always)]
fn axes(t: &'static Texts) -> String {
    #[cfg(feature = "ssr")]
    {
        static KEPT: crate::page::kept::PerLang = crate::page::kept::per_lang_slots();
        crate::page::kept::per_lang(&KEPT, t.lang, || axes_markup(t))
    }
    #[cfg(not(feature = "ssr"))]
    axes_markup(t)
}

/// The fixed part of the chart: the plot area's clip path, the grid, both axes
/// with their ticks and labels.
#[must_use]
pub fn axes_markup(t: &Texts) -> String {
    let (plot_bottom, plot_left, plot_right) = (y_of(0.0), x_of(0.0), x_of(AREA_MAX));
    let mut s = String::with_capacity(4096);
    let _ = write!(
        s,
        r#"<defs><clipPath id="plot-area"><rect x="{}" y="{}" width="{}" height="{}"></rect></clipPath></defs><g class="axis y-axis">"#,
        coord(plot_left),
        coord(TOP),
        coord(plot_right - plot_left),
        coord(plot_bottom - TOP)
    );
    for price in (0..=6).map(|i| f64::from(i) * 100.0) {
        let _ = write!(
            s,
            r#"<g class="tick"><line class="grid" x1="{}" x2="{}" y1="{y}" y2="{y}"></line><text x="{}" y="{}" text-anchor="end">{}</text></g>"#,
            coord(plot_left),
            coord(plot_right),
            coord(plot_left - 8.0),
            coord(y_of(price) + 4.0),
            t.num(price, 0),
            y = coord(y_of(price)),
        );
    }
    let _ = write!(
        s,
        r#"</g><g class="axis x-axis"><line x1="{}" x2="{}" y1="{b}" y2="{b}"></line>"#,
        coord(plot_left),
        coord(plot_right),
        b = coord(plot_bottom),
    );
    for area in (0..=6).map(|i| f64::from(i) * 500.0) {
        let _ = write!(
            s,
            r#"<g class="tick"><line x1="{x}" x2="{x}" y1="{}" y2="{}"></line><text x="{x}" y="{}" text-anchor="middle">{}</text></g>"#,
            coord(plot_bottom),
            coord(plot_bottom + 6.0),
            coord(plot_bottom + 22.0),
            t.num(area, 0),
            x = coord(x_of(area)),
        );
    }
    let _ = write!(
        s,
        r#"</g><text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text><text class="axis-label" text-anchor="middle" transform="translate(16 {}) rotate(-90)">{}</text>"#,
        coord((plot_left + plot_right) / 2.0),
        coord(HEIGHT - 8.0),
        t.axis_area,
        coord((TOP + plot_bottom) / 2.0),
        t.axis_price,
    );
    s
}

/// A line across the whole plot for `p` (the prediction, or the best line):
/// class `class`, test id `{class}-line`.
fn line_across(s: &mut String, class: &str, p: Params) {
    let _ = write!(
        s,
        r#"<line class="{class}" data-testid="{class}-line" x1="{}" x2="{}" y1="{}" y2="{}"></line>"#,
        coord(x_of(0.0)),
        coord(x_of(AREA_MAX)),
        coord(y_of(p.predict(0.0))),
        coord(y_of(p.predict(AREA_MAX)))
    );
}

/// ` picked` for the picked house's shapes, else nothing.
fn picked_class(picked: Option<usize>, i: usize) -> &'static str {
    if picked == Some(i) {
        " picked"
    } else {
        ""
    }
}

/// The changing part of the chart at `p`: in the plot area the squares (when
/// `squares` is on), the best line (once `reached`), the residuals and the
/// prediction line; then the houses, the `picked` one drawn stronger.
#[must_use]
pub fn plot_markup(
    t: &Texts,
    p: Params,
    picked: Option<usize>,
    squares: bool,
    reached: bool,
) -> String {
    let mut s = String::with_capacity(2048);
    s.push_str(r#"<g clip-path="url(#plot-area)">"#);
    if squares {
        for (i, h) in HOUSES.iter().enumerate() {
            let (x, y, side) = residual_square(h.area, h.price, p.predict(h.area));
            let _ = write!(
                s,
                r#"<rect class="residual-square{}" data-testid="residual-square" x="{}" y="{}" width="{side}" height="{side}"></rect>"#,
                picked_class(picked, i),
                coord(x),
                coord(y),
                side = coord(side),
            );
        }
    }
    if reached {
        line_across(&mut s, "best-fit", optimum());
    }
    for (i, h) in HOUSES.iter().enumerate() {
        let _ = write!(
            s,
            r#"<line class="residual{}" data-testid="residual" x1="{x}" x2="{x}" y1="{}" y2="{}"></line>"#,
            picked_class(picked, i),
            coord(y_of(h.price)),
            coord(y_of(p.predict(h.area))),
            x = coord(x_of(h.area)),
        );
    }
    line_across(&mut s, "prediction", p);
    s.push_str("</g>");
    for (i, h) in HOUSES.iter().enumerate() {
        let _ = write!(
            s,
            r#"<circle class="house{}" cx="{}" cy="{}" r="6"><title>{}</title></circle>"#,
            picked_class(picked, i),
            coord(x_of(h.area)),
            coord(y_of(h.price)),
            fill(
                t.house_title,
                &[("area", &t.num(h.area, 0)), ("price", &t.price(h.price, 1))]
            ),
        );
    }
    s
}

/// The legend: a house, the prediction, a residual, and the best line once the
/// goal is `reached`.
#[must_use]
pub fn legends_markup(t: &Texts, reached: bool) -> String {
    let mut s = format!(
        r#"<span class="legend-house">{}</span><span class="legend-line">{}</span><span class="legend-residual">{}</span>"#,
        t.legend_house, t.legend_line, t.legend_residual
    );
    if reached {
        let _ = write!(
            s,
            r#"<span class="legend-best">{}</span>"#,
            fill(t.legend_best, &[("error", &t.num(optimum().error(), 2))])
        );
    }
    s
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
    let t = use_texts();
    let squares_on = RwSignal::new(false);
    let plot = move || {
        plot_markup(
            t,
            params.get(),
            highlight.get(),
            squares_on.get(),
            reached.get(),
        )
    };
    let legends = move || legends_markup(t, reached.get());
    let description = move || {
        let p = params.get();
        fill(
            t.chart_label,
            &[("w", &t.plain(p.weight, 7)), ("b", &t.plain(p.bias, 4))],
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
                <g inner_html=axes(t)></g>
                <g inner_html=plot></g>
            </svg>
            <figcaption>
                // The legend's entries, as markup too; the wrapper is `display: contents`.
                <span class="legends" inner_html=legends></span>
                <label class="squares-toggle">
                    <input type="checkbox" data-testid="squares-toggle" bind:checked=squares_on/>
                    {t.squares}
                </label>
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use vocabulary::Lang;

    fn plot_markup(p: Params, picked: Option<usize>, squares: bool, reached: bool) -> String {
        super::plot_markup(texts(Lang::En), p, picked, squares, reached)
    }

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
    fn the_markup_draws_what_is_asked_for_and_picks_one_house() {
        let p = Params::new(0.1, 150.0);
        let plain = plot_markup(p, None, false, false);
        assert_eq!(plain.matches(r#"data-testid="residual""#).count(), 3);
        assert_eq!(plain.matches(r#"data-testid="prediction-line""#).count(), 1);
        assert!(!plain.contains("residual-square") && !plain.contains("best-fit"));
        assert!(!plain.contains("picked"));
        let all = plot_markup(p, Some(2), true, true);
        assert_eq!(all.matches(r#"data-testid="residual-square""#).count(), 3);
        assert_eq!(all.matches(r#"data-testid="best-fit-line""#).count(), 1);
        assert_eq!(all.matches(r#"class="house picked""#).count(), 1);
        assert_eq!(all.matches(r#"class="residual picked""#).count(), 1);
        let y1 = format!(r#"y1="{}""#, coord(y_of(p.predict(0.0))));
        assert!(all.contains(&y1), "the prediction line starts at the bias");
        let en = texts(Lang::En);
        assert_eq!(axes_markup(en).matches("<text").count(), 16);
        assert!(
            legends_markup(en, true).contains("legend-best")
                && !legends_markup(en, false).contains("legend-best")
        );
        let pt = super::plot_markup(texts(Lang::Pt), p, None, false, false);
        assert!(
            pt.contains("<title>2.104 pés², US$ 399,9 mil</title>"),
            "{pt}"
        );
    }

    #[test]
    fn scales_map_the_data_range_onto_the_plot_area() {
        assert_eq!(x_of(0.0), LEFT);
        assert_eq!(x_of(AREA_MAX), WIDTH - RIGHT);
        assert_eq!(y_of(0.0), HEIGHT - BOTTOM);
        assert_eq!(y_of(PRICE_MAX), TOP);
    }
}
