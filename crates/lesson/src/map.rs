//! Geometry of the landscape map ([`jay_trainer::page::landscape`]): the two views (everything,
//! or zoomed to the valley around the 799 contour), the scales between (weight,
//! bias) and SVG units, the coarse colour grid and the contour paths.
//!
//! Weight runs left to right, bias bottom to top. The colour of a cell is the log
//! of the error at its centre on one scale for both views (so a colour means the
//! same error whatever the zoom): teal near the floor 447.29, sand at 600 000.

use crate::{
    contour::Ellipse,
    neuron::{min_error, Params, BIAS_SLIDER, WEIGHT_SLIDER},
};

/// The SVG's `viewBox` and the plot area inside it.
pub const WIDTH: f64 = 360.0;
pub const HEIGHT: f64 = 300.0;
pub const PLOT_LEFT: f64 = 52.0;
pub const PLOT_RIGHT: f64 = 348.0;
pub const PLOT_TOP: f64 = 10.0;
pub const PLOT_BOTTOM: f64 = 254.0;
/// The colour grid: 20 × 15 = 300 rects, enough to see the valley, few for the DOM.
const COLUMNS: usize = 20;
const ROWS: usize = 15;
/// The top of the colour scale (about the worst error of any slider position).
const ERROR_TOP: f64 = 6e5;

/// Coordinates are written with two decimals: enough for the eye, stable in tests.
#[must_use]
#[inline]
pub fn coord(v: f64) -> String {
    format!("{v:.2}")
}

/// An axis tick: its value and its SVG position.
pub type Tick = (f64, f64);

/// The part of the (weight, bias) plane on show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapView {
    pub weight: (f64, f64),
    pub bias: (f64, f64),
}

/// One cell of the colour grid, in SVG units, with the error at its centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub error: f64,
}

impl MapView {
    /// Both sliders' whole ranges: weight 0–0.4, bias 0–460.
    #[must_use]
    #[inline]
    pub fn full() -> Self {
        Self {
            weight: (WEIGHT_SLIDER.min, WEIGHT_SLIDER.max),
            bias: (BIAS_SLIDER.min, BIAS_SLIDER.max),
        }
    }

    /// The box around the 799 contour (Jay's first rung), 10 % wider on each side,
    /// kept inside the sliders' ranges.
    #[must_use]
    #[inline]
    pub fn valley() -> Self {
        let Some(e) = Ellipse::at_level(799.0) else {
            return Self::full();
        };
        let b = e.bounds();
        let pad = |(lo, hi): (f64, f64), min: f64, max: f64| {
            let margin = (hi - lo) * 0.1;
            ((lo - margin).max(min), (hi + margin).min(max))
        };
        Self {
            weight: pad(b.weight, WEIGHT_SLIDER.min, WEIGHT_SLIDER.max),
            bias: pad(b.bias, BIAS_SLIDER.min, BIAS_SLIDER.max),
        }
    }

    /// SVG coordinates of a point (kept within ±10 000 so that a wild point of a
    /// diverging descent still makes a valid, clipped path).
    #[must_use]
    #[inline]
    pub fn to_svg(&self, p: Params) -> (f64, f64) {
        let fx = (p.weight - self.weight.0) / (self.weight.1 - self.weight.0);
        let fy = (p.bias - self.bias.0) / (self.bias.1 - self.bias.0);
        let x = PLOT_LEFT + fx * (PLOT_RIGHT - PLOT_LEFT);
        let y = PLOT_BOTTOM - fy * (PLOT_BOTTOM - PLOT_TOP);
        let keep = |v: f64| if v.is_nan() { 0.0 } else { v.clamp(-1e4, 1e4) };
        (keep(x), keep(y))
    }

    /// The parameters at an SVG point inside the plot, snapped to the sliders'
    /// steps; `None` outside the plot (on the axes or labels).
    #[must_use]
    #[inline]
    pub fn at_svg(&self, x: f64, y: f64) -> Option<Params> {
        let inside = (PLOT_LEFT..=PLOT_RIGHT).contains(&x) && (PLOT_TOP..=PLOT_BOTTOM).contains(&y);
        if !inside {
            return None;
        }
        let fx = (x - PLOT_LEFT) / (PLOT_RIGHT - PLOT_LEFT);
        let fy = (PLOT_BOTTOM - y) / (PLOT_BOTTOM - PLOT_TOP);
        let w = self.weight.0 + fx * (self.weight.1 - self.weight.0);
        let b = self.bias.0 + fy * (self.bias.1 - self.bias.0);
        Some(Params::new(
            WEIGHT_SLIDER.nearest(w),
            BIAS_SLIDER.nearest(b),
        ))
    }

    /// The colour grid, row by row from the top.
    #[must_use]
    pub fn cells(&self) -> Vec<Cell> {
        let width = (PLOT_RIGHT - PLOT_LEFT) / COLUMNS as f64;
        let height = (PLOT_BOTTOM - PLOT_TOP) / ROWS as f64;
        let mut cells = Vec::with_capacity(COLUMNS * ROWS);
        for row in 0..ROWS {
            for column in 0..COLUMNS {
                let (x, y) = (
                    PLOT_LEFT + column as f64 * width,
                    PLOT_TOP + row as f64 * height,
                );
                let centre = self.centre_of(x + width / 2.0, y + height / 2.0);
                cells.push(Cell {
                    x,
                    y,
                    // A hair wider, so no seam shows between neighbours.
                    width: width + 0.3,
                    height: height + 0.3,
                    error: centre.error(),
                });
            }
        }
        cells
    }

    fn centre_of(&self, x: f64, y: f64) -> Params {
        let fx = (x - PLOT_LEFT) / (PLOT_RIGHT - PLOT_LEFT);
        let fy = (PLOT_BOTTOM - y) / (PLOT_BOTTOM - PLOT_TOP);
        Params::new(
            self.weight.0 + fx * (self.weight.1 - self.weight.0),
            self.bias.0 + fy * (self.bias.1 - self.bias.0),
        )
    }

    /// Tick values with their SVG position: (weights → x, biases → y).
    #[must_use]
    #[inline]
    pub fn ticks(&self) -> (Vec<Tick>, Vec<Tick>) {
        let along = |(lo, hi): (f64, f64)| {
            let step = nice_step(hi - lo);
            let first = (lo / step - 1e-9).ceil() as i64;
            let last = (hi / step + 1e-9).floor() as i64;
            // Rounded to a millionth: 3 × 0.1 is 0.30000000000000004.
            (first..=last).map(move |i| (i as f64 * step * 1e6).round() / 1e6)
        };
        let weights = along(self.weight)
            .map(|w| (w, self.to_svg(Params::new(w, self.bias.0)).0))
            .collect();
        let biases = along(self.bias)
            .map(|b| (b, self.to_svg(Params::new(self.weight.0, b)).1))
            .collect();
        (weights, biases)
    }
}

/// A 1-2-5 step giving 3 to 7 ticks over `span`.
fn nice_step(span: f64) -> f64 {
    // The power of ten at or below span/5 (a loop: no `powf` in the WASM).
    let raw = span / 5.0;
    let mut magnitude = 1.0;
    while magnitude > raw {
        magnitude /= 10.0;
    }
    while magnitude * 10.0 <= raw {
        magnitude *= 10.0;
    }
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|&s| span / s <= 7.0)
        .unwrap_or(10.0 * magnitude)
}

/// The fill of a cell: the log error from the floor (teal, darker) to
/// [`ERROR_TOP`] (pale sand). Light enough that the dark contours keep 3:1.
#[must_use]
#[inline]
pub fn fill_of(error: f64) -> String {
    let (low, high) = (min_error().log10(), ERROR_TOP.log10());
    let t = if error.is_finite() {
        ((error.max(min_error()).log10() - low) / (high - low)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    fill_at(t)
}

/// The colour at `t` of the scale, from 0 (the floor) to 1 ([`ERROR_TOP`] and
/// above): what the legend's bar shows.
#[must_use]
#[inline]
pub fn fill_at(t: f64) -> String {
    let hue = 185.0 - 145.0 * t;
    let lightness = 74.0 + 22.0 * t;
    format!("hsl({hue:.0},55%,{lightness:.0}%)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuron::GOAL;

    #[test]
    fn a_click_maps_back_to_the_point_drawn_there_snapped_to_the_sliders() {
        for view in [MapView::full(), MapView::valley()] {
            let p = Params::new(0.0585, 247.3);
            let (x, y) = view.to_svg(p);
            let back = view.at_svg(x, y).expect("inside the plot");
            assert!((back.weight - 0.0585).abs() < 1.5e-4, "{back:?}");
            assert!((back.bias - 247.3).abs() < 1.0, "{back:?}");
            // On the slider grid.
            assert!(((back.weight * 1e4) - (back.weight * 1e4).round()).abs() < 1e-9);
            assert_eq!(view.at_svg(PLOT_LEFT - 1.0, y), None);
        }
        let full = MapView::full();
        assert_eq!(full.to_svg(Params::new(0.0, 0.0)), (PLOT_LEFT, PLOT_BOTTOM));
        assert_eq!(full.to_svg(Params::new(0.4, 460.0)), (PLOT_RIGHT, PLOT_TOP));
        assert_eq!(
            full.at_svg(PLOT_RIGHT, PLOT_TOP),
            Some(Params::new(0.4, 460.0))
        );
    }

    #[test]
    fn the_valley_view_holds_the_799_contour_and_the_island() {
        let v = MapView::valley();
        for level in [799.0, GOAL] {
            let b = Ellipse::at_level(level).expect("above the floor").bounds();
            assert!(
                v.weight.0 <= b.weight.0 && b.weight.1 <= v.weight.1,
                "{v:?}"
            );
            assert!(v.bias.0 <= b.bias.0 && b.bias.1 <= v.bias.1, "{v:?}");
        }
        assert!(v.weight.1 - v.weight.0 < 0.2 && v.bias.1 - v.bias.0 < 300.0);
    }

    #[test]
    fn the_grid_is_small_and_darkest_in_the_valley() {
        let cells = MapView::full().cells();
        assert_eq!(cells.len(), 300);
        let lowest = cells
            .iter()
            .min_by(|a, b| a.error.total_cmp(&b.error))
            .expect("cells");
        let centre = MapView::full().centre_of(lowest.x + 1.0, lowest.y + 1.0);
        assert!((centre.weight - 0.0585).abs() < 0.03, "{centre:?}");
        assert_eq!(fill_of(min_error()), "hsl(185,55%,74%)");
        assert_eq!(fill_of(f64::NAN), fill_of(1e12));
    }

    #[test]
    fn ticks_are_round_and_inside_the_view() {
        let (w, b) = MapView::full().ticks();
        assert_eq!(
            w.iter().map(|t| t.0).collect::<Vec<_>>(),
            [0.0, 0.1, 0.2, 0.3, 0.4]
        );
        assert_eq!(
            b.iter().map(|t| t.0).collect::<Vec<_>>(),
            [0.0, 100.0, 200.0, 300.0, 400.0]
        );
        let (w, _) = MapView::valley().ticks();
        assert!(w.len() >= 3 && w.len() <= 7, "{w:?}");
        assert!(w.iter().all(|t| (PLOT_LEFT..=PLOT_RIGHT).contains(&t.1)));
    }

    #[test]
    fn wild_points_get_finite_coordinates() {
        let view = MapView::full();
        assert_eq!(view.to_svg(Params::new(1e30, f64::NAN)), (1e4, 0.0));
    }
}
