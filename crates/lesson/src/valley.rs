//! Walking the error's valley floor: the keyboard's shortcut on the landscape
//! map (Alt + arrows, End; see `page::landscape::keys`). Pure math, both
//! targets.
//!
//! The floor is the line of best biases: for each weight, the bias with the lowest
//! error, [`best_bias_for_weight`] (the "Best bias for this weight" button's).
//! It runs through the optimum, so a walk along it that lowers the weight a step
//! at a time from Jay's start lowers the error at every step and reaches the goal
//! island: 37 coarse steps of 0.001 from w 0.1. (The contours' long axis, the
//! Hessian's eigenvector of least curvature ([`crate::landscape`]), is 1.5° off
//! that line in the plot: a walk along it from the floor at w 0.1 passes 2.3 in
//! bias beside the island, whose half-height at its middle is 1.6, and misses.)
//!
//! Every point lands on the sliders' grids (weight 0–0.4 in steps of 0.0001,
//! bias 0–460 in steps of 0.1), so the boxes show what the map shows.

use crate::neuron::{best_bias_for_weight, Params, BIAS_SLIDER, WEIGHT_SLIDER};

/// The weight's coarse step, the slider's coarse nudge: one step along the floor.
pub const FLOOR_STEP: f64 = 0.001;

/// The point of the floor at `weight`'s slider position: the best bias for it,
/// on the bias slider's grid (at most 0.05 from the exact best, which costs at
/// most 0.0025 of error) and within its range.
#[must_use]
#[inline]
pub fn on_floor(weight: f64) -> Params {
    let weight = WEIGHT_SLIDER.nearest(weight);
    Params::new(weight, BIAS_SLIDER.nearest(best_bias_for_weight(weight)))
}

/// `from` moved `steps` [`FLOOR_STEP`]s of weight (negative: lower weight, so
/// higher bias, up the valley), then down to the floor.
#[must_use]
#[inline]
pub fn along_floor(from: Params, steps: i32) -> Params {
    on_floor(from.weight + f64::from(steps) * FLOOR_STEP)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        landscape::Quadratic,
        neuron::{min_error, optimum, reaches_goal, GOAL, START},
    };

    #[test]
    fn points_land_on_the_sliders_grids() {
        assert_eq!(WEIGHT_SLIDER.nearest(0.058_49), 0.0585);
        assert_eq!(BIAS_SLIDER.nearest(247.263), 247.3);
        assert_eq!(BIAS_SLIDER.nearest(-3.0), 0.0);
        assert_eq!(WEIGHT_SLIDER.nearest(f64::NAN), 0.0);
        let p = on_floor(0.1);
        assert_eq!(p, Params::new(0.1, 162.8));
        assert!((p.bias - best_bias_for_weight(0.1)).abs() <= 0.05);
        // Past the range, the floor is clamped with it.
        assert_eq!(on_floor(0.41), Params::new(0.4, 0.0));
        assert_eq!(along_floor(Params::new(0.0, 400.0), -1).weight, 0.0);
    }

    #[test]
    fn the_floor_walk_from_the_start_reaches_the_goal_in_37_steps_always_descending() {
        let mut at = START;
        let mut errors = vec![at.error()];
        let mut steps = 0;
        while !reaches_goal(at.error()) {
            at = along_floor(at, -1);
            errors.push(at.error());
            steps += 1;
            assert!(steps < 100, "lost at {at:?}");
        }
        assert_eq!(steps, 37, "{at:?}");
        assert!((at.weight - 0.063).abs() < 1e-12, "{at:?}");
        assert!(
            errors.windows(2).all(|w| w[1] < w[0]),
            "every step lowers the error: {errors:?}"
        );
        // Further on it crosses the optimum and climbs again: the floor's lowest point
        // is the floor error, 447.29.
        let bottom = on_floor(optimum().weight);
        assert!(bottom.error() - min_error() < 0.01, "{bottom:?}");
        assert!(along_floor(bottom, -20).error() > GOAL);
    }

    #[test]
    fn the_long_axis_from_the_floor_misses_the_island() {
        // Why the walk follows the best biases and not the contours' long axis.
        let axis = Quadratic::of_dataset().hessian().eigen().small_axis;
        let from = Params::new(0.1, best_bias_for_weight(0.1));
        let per_weight = axis.bias / axis.weight;
        let at_optimum = Params::new(
            optimum().weight,
            from.bias + (optimum().weight - from.weight) * per_weight,
        );
        let off = at_optimum.bias - optimum().bias;
        assert!((off - 2.3).abs() < 0.1, "{off}");
        assert!(at_optimum.error() > GOAL);
        // At the optimum's weight the error is the floor plus the bias's offset
        // squared: the island is ±1.65 high there.
        let half_height = (GOAL - min_error()).sqrt();
        assert!((half_height - 1.65).abs() < 0.01 && off > half_height);
    }
}
