//! The error of a two-input lesson seen over its two weights, the bias at
//! its best for each point: a map that shows three parameters in two
//! dimensions, exactly.
//!
//! For a neuron `prediction = x1·w1 + x2·w2 + b` and the mean squared error,
//! the bias that makes the error least for given weights is the mean of what
//! the weights leave unexplained ([`Lesson::best_bias`]), and the error then
//! splits exactly into
//!
//! ```text
//! error(w, b) = floor + (w − w*)ᵀ C (w − w*) + (b − best b(w))²
//! ```
//!
//! where `w*` are the least-squares weights, `floor` the least error, and
//! `C` the inputs' covariance matrix (population, divided by n). So the map
//! of the first two terms over (w1, w2) has ellipses for contours, centred on
//! `w*`, whose axes are `C`'s eigenvectors; the third term is the bias
//! strip's. The split is the standard one for least squares with an
//! intercept (centre the inputs, and the intercept separates): see e.g.
//! Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*,
//! §3.2.

use crate::description::Lesson;

/// The weights' part of a two-input lesson's error: its centre, its
/// quadratic form and the floor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightsForm {
    /// The least-squares weights `w*`.
    pub center: [f64; 2],
    /// The inputs' covariance matrix `C`.
    pub form: [[f64; 2]; 2],
    /// The least error (at `w*` and its best bias).
    pub floor: f64,
}

/// An ellipse in some plane's units: centre, the half axis along `angle`
/// (degrees, counter-clockwise from the first axis), the other half axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipse {
    pub cx: f64,
    pub cy: f64,
    pub rx: f64,
    pub ry: f64,
    pub angle: f64,
}

impl WeightsForm {
    /// The form of a lesson with exactly two inputs; `None` otherwise, or
    /// when its inputs do not fix the weights.
    #[must_use]
    pub fn of(lesson: &Lesson) -> Option<Self> {
        if lesson.inputs.len() != 2 {
            return None;
        }
        let best = lesson.optimum()?;
        let n = lesson.examples.len() as f64;
        let mean = |i: usize| lesson.examples.iter().map(|e| e.inputs[i]).sum::<f64>() / n;
        let (m1, m2) = (mean(0), mean(1));
        let mut form = [[0.0; 2]; 2];
        for e in lesson.examples {
            let d = [e.inputs[0] - m1, e.inputs[1] - m2];
            for (i, row) in form.iter_mut().enumerate() {
                for (j, cell) in row.iter_mut().enumerate() {
                    *cell += d[i] * d[j] / n;
                }
            }
        }
        Some(Self {
            center: [best[0], best[1]],
            form,
            floor: lesson.error(&best),
        })
    }

    /// The error at weights `w` with the bias at its best for them.
    #[must_use]
    pub fn error(&self, w: [f64; 2]) -> f64 {
        let d = [w[0] - self.center[0], w[1] - self.center[1]];
        let c = self.form;
        self.floor + c[0][0] * d[0] * d[0] + 2.0 * c[0][1] * d[0] * d[1] + c[1][1] * d[1] * d[1]
    }

    /// The contour at `level` in a plane whose coordinates are
    /// `(w1 · sx, w2 · sy)` (a negative `sy` turns the second axis down, as
    /// an SVG's is): `None` at or below the floor.
    #[must_use]
    pub fn contour(&self, level: f64, sx: f64, sy: f64) -> Option<Ellipse> {
        let k = level - self.floor;
        if k <= 0.0 || sx == 0.0 || sy == 0.0 {
            return None;
        }
        // The form in the plane's units: S⁻¹ C S⁻¹ with S = diag(sx, sy).
        let a = self.form[0][0] / (sx * sx);
        let b = self.form[0][1] / (sx * sy);
        let d = self.form[1][1] / (sy * sy);
        // Its eigenvalues, and the angle of the larger one's eigenvector.
        let mid = (a + d) / 2.0;
        let spread = (((a - d) / 2.0).powi(2) + b * b).sqrt();
        let (big, small) = (mid + spread, mid - spread);
        if small <= 0.0 {
            return None;
        }
        let angle = 0.5 * (2.0 * b).atan2(a - d);
        Some(Ellipse {
            cx: self.center[0] * sx,
            cy: self.center[1] * sy,
            rx: (k / big).sqrt(),
            ry: (k / small).sqrt(),
            angle: angle.to_degrees(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons::{FLOOR_TWO, GOAL_TWO, ONE, TWO};

    #[test]
    fn the_error_splits_into_the_weights_part_and_the_bias_cost() {
        let form = WeightsForm::of(&TWO).expect("two inputs");
        assert!((form.floor - FLOOR_TWO).abs() < 0.005);
        for (w1, w2, b) in [(0.1, 0.0, 150.0), (0.25, -40.0, 10.0), (-0.3, 150.0, 290.0)] {
            let best_b = TWO.best_bias(&[w1, w2, 0.0]);
            let split = form.error([w1, w2]) + (b - best_b).powi(2);
            let exact = TWO.error(&[w1, w2, b]);
            assert!((split - exact).abs() < 1e-6 * exact, "{split} vs {exact}");
        }
        assert!(WeightsForm::of(&ONE).is_none(), "one input: no such map");
    }

    #[test]
    fn the_goals_contour_passes_through_points_at_the_goal() {
        let form = WeightsForm::of(&TWO).expect("two inputs");
        let (sx, sy) = (1000.0, -1.0);
        let e = form.contour(GOAL_TWO, sx, sy).expect("above the floor");
        for t in [0.0_f64, 1.0, 2.5, 4.0] {
            let (cos, sin) = (e.angle.to_radians().cos(), e.angle.to_radians().sin());
            let (u, v) = (e.rx * t.cos(), e.ry * t.sin());
            let (x, y) = (e.cx + u * cos - v * sin, e.cy + u * sin + v * cos);
            let at = form.error([x / sx, y / sy]);
            assert!((at - GOAL_TWO).abs() < 1e-6, "{t}: {at}");
        }
        // The island never reaches w2 = 0: the area alone cannot get there.
        let lowest_on_axis = (0..=8000)
            .map(|i| form.error([i as f64 * 0.0001 - 0.4, 0.0]))
            .fold(f64::INFINITY, f64::min);
        assert!(lowest_on_axis > GOAL_TWO, "{lowest_on_axis}");
        assert!(form.contour(FLOOR_TWO - 1.0, sx, sy).is_none());
    }
}
