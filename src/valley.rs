//! Moving a marker along and across the error's valley (see [`crate::landscape`]):
//! the keyboard modifier of the landscape map. Pure math, both targets.
//!
//! The valley's long axis is the Hessian's eigenvector of least curvature, almost
//! pure bias (w falls 0.000479 per unit of bias); the short axis is perpendicular,
//! almost pure weight. A step is sized so that its leading part is one slider step,
//! and every move is clamped to the page's slider ranges (weight 0–0.3, bias 0–500).

use crate::{
    landscape::{Quadratic, Vec2},
    neuron::{Params, BIAS_SLIDER, WEIGHT_SLIDER},
};

/// The way a marker moves with a keyboard modifier held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValleyDirection {
    /// Along the valley floor (the long axis): towards higher bias for positive steps.
    Along,
    /// Across the valley (the short axis): towards higher weight for positive steps.
    Across,
}

/// One step in `direction`. The long axis is almost pure bias, so one step along it
/// changes the bias by one bias-slider step (0.1) and the weight by the matching
/// −0.0000479; the short axis is almost pure weight, so one step across changes the
/// weight by one weight-slider step (0.0001) and the bias by the matching 0.0000000479.
#[must_use]
pub fn valley_step(direction: ValleyDirection) -> Vec2 {
    let eigen = Quadratic::of_dataset().hessian().eigen();
    // Dividing by the leading component both sizes the step and orients it.
    match direction {
        ValleyDirection::Along => {
            let axis = eigen.small_axis;
            axis.scaled(BIAS_SLIDER.step / axis.bias)
        }
        ValleyDirection::Across => {
            let axis = eigen.large_axis;
            axis.scaled(WEIGHT_SLIDER.step / axis.weight)
        }
    }
}

/// `point` moved `steps` [`valley_step`]s in `direction`, each parameter then
/// clamped to its slider's range (so at an edge the marker slides along the edge).
#[must_use]
pub fn move_in_valley(point: Params, direction: ValleyDirection, steps: i32) -> Params {
    valley_step(direction)
        .scaled(f64::from(steps))
        .added_to(point)
        .clamped_to_sliders()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuron::{min_error, optimum};

    fn close(a: f64, b: f64, relative: f64) -> bool {
        (a - b).abs() <= relative * a.abs().max(b.abs())
    }

    #[test]
    fn valley_steps_follow_the_axes_with_slider_sized_leading_parts() {
        let along = valley_step(ValleyDirection::Along);
        let across = valley_step(ValleyDirection::Across);
        assert!(
            close(along.bias, 0.1, 1e-15) && close(along.weight, -0.1 * 0.000_478_864_6, 1e-6),
            "{along:?}"
        );
        assert!(
            close(across.weight, 0.0001, 1e-15)
                && close(across.bias, 0.0001 * 0.000_478_864_6, 1e-6),
            "{across:?}"
        );
        assert!(along.dot(across).abs() < 1e-18);
        // Along the floor the error barely changes; across it climbs steeply.
        // Ten steps from the optimum raise the error by ½·λ·|step|² along each axis.
        let (m, e) = (optimum(), Quadratic::of_dataset().hessian().eigen());
        let rise_along = move_in_valley(m, ValleyDirection::Along, 10).error() - min_error();
        let rise_across = move_in_valley(m, ValleyDirection::Across, 10).error() - min_error();
        let (ten_along, ten_across) = (along.scaled(10.0), across.scaled(10.0));
        assert!(
            close(rise_along, e.small * ten_along.dot(ten_along) / 2.0, 1e-6),
            "{rise_along}"
        );
        assert!(
            close(
                rise_across,
                e.large * ten_across.dot(ten_across) / 2.0,
                1e-6
            ),
            "{rise_across}"
        );
        assert!(
            rise_across > 100.0 * rise_along,
            "{rise_along} {rise_across}"
        );
    }

    #[test]
    fn moving_in_the_valley_is_clamped_to_the_sliders() {
        let start = Params::new(0.1, 150.0);
        let there = move_in_valley(start, ValleyDirection::Along, 30);
        let back = move_in_valley(there, ValleyDirection::Along, -30);
        assert!(close(back.weight, start.weight, 1e-12) && close(back.bias, start.bias, 1e-12));
        assert!(close(there.bias, 153.0, 1e-12), "{there:?}");
        let top = move_in_valley(Params::new(0.05, 499.0), ValleyDirection::Along, 100);
        assert_eq!(top.bias, 500.0);
        let edge = move_in_valley(Params::new(0.2999, 10.0), ValleyDirection::Across, 5);
        assert_eq!(edge.weight, 0.3);
        let floor = move_in_valley(Params::new(0.0001, 10.0), ValleyDirection::Across, -5);
        assert_eq!(floor.weight, 0.0);
    }
}
