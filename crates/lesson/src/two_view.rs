//! What lesson 2's page (`/two`) shows for a point `[w1, w2, b]`, as numbers and SVG
//! coordinates: computed by the server for the first render and by the
//! browser's controller after every move, with the same code, so the two
//! never disagree.
//!
//! The chart plots price ($1000) against area (sq ft) in a 360 × 240 box;
//! the map plots the weights in their own units scaled to SVG ones
//! (`x = w1 · 1000`, `y = −w2`) and its two views are two `viewBox`es over
//! the same drawing; the bias strip is a percentage along the bias's range.

use crate::{
    description::Lesson,
    lessons::{Which, TWO},
    two_weights::WeightsForm,
};

/// The lesson this page teaches.
pub static LESSON: &Lesson = &TWO;
/// Its name: its goal ([`Which::reaches_goal`]) and floor ([`Which::floor`]).
pub const WHICH: Which = Which::Two;

/// The decimals a parameter is written with (its slider's grid, and one
/// more for a typed value).
pub const DECIMALS: [usize; 3] = [5, 2, 2];
/// The coarse nudge of each parameter (the fine one is its step).
pub const COARSE: [f64; 3] = [0.001, 1.0, 1.0];
/// The bathroom counts the chart draws a line for.
pub const BATHROOMS: [f64; 3] = [2.0, 3.0, 4.0];

/// The chart's box and the ranges it shows.
pub const CHART: Frame = Frame {
    width: 360.0,
    height: 240.0,
    left: 44.0,
    right: 350.0,
    top: 10.0,
    bottom: 210.0,
    x: (1000.0, 3200.0),
    y: (100.0, 600.0),
};

/// A plot's box in SVG units and the data ranges along its axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub width: f64,
    pub height: f64,
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
    pub x: (f64, f64),
    pub y: (f64, f64),
}

impl Frame {
    #[must_use]
    pub fn sx(&self, x: f64) -> f64 {
        self.left + (x - self.x.0) / (self.x.1 - self.x.0) * (self.right - self.left)
    }

    #[must_use]
    pub fn sy(&self, y: f64) -> f64 {
        self.bottom - (y - self.y.0) / (self.y.1 - self.y.0) * (self.bottom - self.top)
    }
}

/// The map's scale from the weights to SVG units.
pub const MAP_SCALE: (f64, f64) = (1000.0, -1.0);

/// The map's two views as `viewBox`es: near the goal (w1 0.05 to 0.30,
/// w2 −60 to 60), and Jay's whole ranges.
pub const MAP_NEAR: [f64; 4] = [50.0, -60.0, 250.0, 120.0];
pub const MAP_ALL: [f64; 4] = [-400.0, -200.0, 800.0, 300.0];

/// The point on the map for weights `w1`, `w2`.
#[must_use]
pub fn map_xy(w1: f64, w2: f64) -> (f64, f64) {
    (w1 * MAP_SCALE.0, w2 * MAP_SCALE.1)
}

/// Everything the page shows about one point.
#[derive(Clone, Debug, PartialEq)]
pub struct Readout {
    pub error: f64,
    /// The bias that is best for these weights, and what the bias costs.
    pub best_bias: f64,
    pub bias_cost: f64,
    pub predictions: Vec<f64>,
    /// Each bathroom count's line on the chart: its y at the left and right edges.
    pub lines: [(f64, f64); 3],
    /// Where the bias and the best bias sit on the strip (0–100).
    pub strip_now: f64,
    pub strip_best: f64,
}

impl Readout {
    #[must_use]
    pub fn at(p: [f64; 3]) -> Self {
        let best_bias = LESSON.best_bias(&p);
        let line = |k: f64| {
            let price = |area: f64| LESSON.predict(&p, &[area, k]);
            (CHART.sy(price(CHART.x.0)), CHART.sy(price(CHART.x.1)))
        };
        let b = LESSON.params[2];
        let strip = |v: f64| ((v - b.min) / (b.max - b.min) * 100.0).clamp(0.0, 100.0);
        Self {
            error: LESSON.error(&p),
            best_bias,
            bias_cost: (p[2] - best_bias).powi(2),
            predictions: LESSON
                .examples
                .iter()
                .map(|e| LESSON.predict(&p, e.inputs))
                .collect(),
            lines: BATHROOMS.map(line),
            strip_now: strip(p[2]),
            strip_best: strip(best_bias),
        }
    }
}

/// How many of the ladder's rungs an attempt with error `best` has reached:
/// "below" each of the first five, and the floor at its printed value.
#[must_use]
pub fn rungs_reached(best: f64) -> usize {
    let ladder = LESSON.ladder;
    let (floor, above) = ladder.split_last().unwrap_or((&0.0, &[]));
    above.iter().filter(|r| best < **r).count() + usize::from(best < floor + 0.005)
}

/// The weights' form, for the map's contours (the lesson has two inputs).
#[must_use]
pub fn weights_form() -> Option<WeightsForm> {
    WeightsForm::of(LESSON)
}

/// `v` on parameter `i`'s grid of steps, within its range.
#[must_use]
pub fn on_grid(i: usize, v: f64) -> f64 {
    let p = LESSON.params[i];
    let snapped = p.min + ((v - p.min) / p.step).round() * p.step;
    // Rounded to the step's decimals, so 0.1 + 3 steps is 0.1003, not 0.10030000000000001.
    let scale = 10f64.powi(DECIMALS[i] as i32);
    ((snapped * scale).round() / scale).clamp(p.min, p.max)
}

/// The question Jay's guide opens with, asked of lesson 2's neuron: a
/// 2,000 sq ft house with 3 bathrooms, for $400k.
pub const FRIEND: [f64; 2] = [2000.0, 3.0];
pub const ASKING: f64 = 400.0;
/// Within this many $1000 of the asking price, the neuron calls it fair
/// (lesson 1's rule).
pub const FAIR_WITHIN: f64 = 10.0;

/// The neuron's price for the friend's house, and its verdict: 0 fair,
/// 1 a bargain (the neuron prices it higher), 2 too much.
#[must_use]
pub fn friend(p: [f64; 3]) -> (f64, usize) {
    let price = LESSON.predict(&p, &FRIEND);
    let verdict = if (price - ASKING).abs() <= FAIR_WITHIN {
        0
    } else if price > ASKING {
        1
    } else {
        2
    };
    (price, verdict)
}

/// The lab's loss chart: steps along x, log10 of the error along y, from
/// 1,000 to 200,000.
pub const LOSS: (f64, f64) = (300.0, 120.0);
pub const LOSS_LOG: (f64, f64) = (3.0, 5.301_03);

/// The loss chart's x for step `step` of `steps`.
#[must_use]
pub fn loss_x(step: usize, steps: usize) -> f64 {
    LOSS.0 * step as f64 / steps.max(1) as f64
}

/// The loss chart's y for an error (clamped to the chart).
#[must_use]
pub fn loss_y(error: f64) -> f64 {
    let (lo, hi) = LOSS_LOG;
    let t = ((error.max(1.0).log10() - lo) / (hi - lo)).clamp(0.0, 1.0);
    LOSS.1 * (1.0 - t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jays_start_and_the_ladder() {
        let start = Readout::at([0.1, 0.0, 150.0]);
        assert!((start.error - 3431.91).abs() < 0.005);
        assert_eq!(rungs_reached(start.error), 1, "below 5,000 only");
        assert_eq!(rungs_reached(1423.0), 4);
        assert_eq!(rungs_reached(1419.9), 5);
        assert_eq!(rungs_reached(1406.05), 6);
        assert!(WHICH.reaches_goal(1419.99) && !WHICH.reaches_goal(1420.0));
    }

    #[test]
    fn the_best_bias_takes_the_bias_cost_to_zero() {
        let p = [0.19, -12.0, 80.0];
        let r = Readout::at(p);
        assert!(r.bias_cost > 0.0);
        let at_best = Readout::at([p[0], p[1], r.best_bias]);
        assert!(at_best.bias_cost < 1e-9);
        assert!((r.error - at_best.error - r.bias_cost).abs() < 1e-6);
    }

    #[test]
    fn the_friends_house_at_the_floor_is_345_8k() {
        let best = LESSON.optimum().expect("optimum");
        let (price, verdict) = friend([best[0], best[1], best[2]]);
        assert!((price - 345.8).abs() < 0.05, "{price}");
        assert_eq!(verdict, 2, "$400k is too much");
        assert_eq!(friend([0.2, 0.0, 0.0]).1, 0, "exactly 400: fair");
    }

    #[test]
    fn values_go_onto_the_sliders_grid() {
        assert_eq!(on_grid(0, 0.100_03), 0.1);
        assert_eq!(on_grid(0, 0.186_13), 0.1861);
        assert_eq!(on_grid(1, -10.012_38), -10.0);
        assert_eq!(on_grid(2, 3.575_38), 3.6);
        assert_eq!(on_grid(2, 999.0), 300.0);
    }

    #[test]
    fn more_bathrooms_raise_the_line_when_their_weight_is_positive() {
        let r = Readout::at([0.1, 20.0, 100.0]);
        assert!(
            r.lines[0].0 > r.lines[1].0 && r.lines[1].0 > r.lines[2].0,
            "SVG y grows down"
        );
    }
}
