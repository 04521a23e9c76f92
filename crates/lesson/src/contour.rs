//! Contours of the error landscape as exact ellipses, the goal ladder's levels and
//! the "island" of slider positions under the goal. Pure math, both targets.
//!
//! With the centred form of [`crate::landscape`], `E = floor + ½·dᵀ·H·d`, the level
//! set `{E = L}` for `L > floor` is the ellipse `½·dᵀ·H·d = L − floor`. In H's
//! eigenbasis that is `½·λ_small·s² + ½·λ_large·t² = L − floor`, so the ellipse is
//! centred on the optimum, its axes are H's eigenvectors and its semi-axes are
//! `√(2·(L − floor)/λ)`: the long one along the valley (small curvature).
//! No sampling is needed to draw it: [`Ellipse::points`] walks the parametrisation.
//!
//! For the goal 450 this gives the island of the issue: weight 0.05350–0.06347, bias
//! 236.99–257.54, and at the best bias the weight within ±0.000798 (reference:
//! `shared/reference/simulator.md`, optimum w 0.0584879, b 247.26327, floor 447.29).

use crate::{
    landscape::{Quadratic, Vec2},
    neuron::{best_bias_for_weight, reaches_goal, Params, BIAS_SLIDER, GOAL, WEIGHT_SLIDER},
};

/// The goal ladder above the floor: Jay's score lines, 799, 750, 600, 500 and the
/// goal 450 ([`crate::score_line`]). The last rung, the floor itself, is
/// [`crate::neuron::min_error`]; see [`ladder`].
pub const LADDER_ABOVE_FLOOR: [f64; 5] = [799.0, 750.0, 600.0, 500.0, GOAL];

/// How many of the rungs above the floor an error has reached: the ladder's one
/// rule, at or below a rung, the goal as [`reaches_goal`] says. The rungs fall,
/// so the count is also the lowest one reached (1 = 799, 5 = the goal).
#[must_use]
#[inline]
pub fn rungs_reached(error: f64) -> usize {
    LADDER_ABOVE_FLOOR
        .iter()
        .filter(|&&r| {
            if r == GOAL {
                reaches_goal(error)
            } else {
                error <= r
            }
        })
        .count()
}

/// The contours the map draws around the island: the ladder without 750, which
/// would crowd the 799 line (the two are a few pixels apart in the full view).
pub const MAP_CONTOURS: [f64; 3] = [799.0, 600.0, 500.0];

/// All six rungs of the goal ladder: 799, 750, 600, 500, 450 and the floor 447.29….
#[must_use]
#[inline]
pub fn ladder() -> [f64; 6] {
    let [a, b, c, d, e] = LADDER_ABOVE_FLOOR;
    [a, b, c, d, e, Quadratic::of_dataset().floor()]
}

/// The contour `{E(w, b) = level}`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipse {
    pub level: f64,
    /// The optimum.
    pub centre: Params,
    /// Half-length along the valley (in the plane's raw units, mostly bias).
    pub semi_long: f64,
    /// Half-width across the valley (mostly weight).
    pub semi_short: f64,
    /// Unit vector of the long axis (towards higher bias).
    pub long_axis: Vec2,
    /// Unit vector of the short axis.
    pub short_axis: Vec2,
}

/// The axis-aligned box around a contour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub weight: (f64, f64),
    pub bias: (f64, f64),
}

impl Ellipse {
    /// The contour at `level`, or `None` below the floor (no point is that low) or for
    /// a non-finite level. At the floor itself it is the single point of the optimum
    /// (both semi-axes 0); a level a rounding error below the floor (within 1e-12
    /// relative, e.g. [`crate::neuron::min_error`], computed another way) counts as it.
    #[must_use]
    pub fn at_level(level: f64) -> Option<Self> {
        let q = Quadratic::of_dataset();
        let floor = q.floor();
        if !level.is_finite() || level < floor * (1.0 - 1e-12) {
            return None;
        }
        let eigen = q.hessian().eigen();
        let excess = (level - floor).max(0.0);
        Some(Self {
            level,
            centre: q.minimum(),
            semi_long: (2.0 * excess / eigen.small).sqrt(),
            semi_short: (2.0 * excess / eigen.large).sqrt(),
            long_axis: eigen.small_axis,
            short_axis: eigen.large_axis,
        })
    }

    /// The long axis's angle from the weight axis, in radians, in raw units (an SVG
    /// with different scales on its axes should draw [`Ellipse::points`] instead).
    #[must_use]
    #[inline]
    pub fn rotation(&self) -> f64 {
        self.long_axis.bias.atan2(self.long_axis.weight)
    }

    /// The point at parameter angle `theta`: `centre + cos θ·semi_long·long_axis +
    /// sin θ·semi_short·short_axis`.
    #[must_use]
    #[inline]
    pub fn point(&self, theta: f64) -> Params {
        let along = self.long_axis.scaled(theta.cos() * self.semi_long);
        let across = self.short_axis.scaled(theta.sin() * self.semi_short);
        along.added_to(across.added_to(self.centre))
    }

    /// `n` points evenly spaced in the parameter angle, starting at the valley's
    /// upper end (highest bias); join them and close the path to draw the contour.
    #[must_use]
    #[inline]
    pub fn points(&self, n: usize) -> Vec<Params> {
        (0..n)
            .map(|i| self.point(std::f64::consts::TAU * i as f64 / n as f64))
            .collect()
    }

    /// The smallest axis-aligned box holding the contour.
    #[must_use]
    #[inline]
    pub fn bounds(&self) -> Bounds {
        let half = |long: f64, short: f64| (self.semi_long * long).hypot(self.semi_short * short);
        let hw = half(self.long_axis.weight, self.short_axis.weight);
        let hb = half(self.long_axis.bias, self.short_axis.bias);
        Bounds {
            weight: (self.centre.weight - hw, self.centre.weight + hw),
            bias: (self.centre.bias - hb, self.centre.bias + hb),
        }
    }

    /// How far the weight may stray from the optimum while the bias stays at the
    /// optimum's: the half-chord `√(2·(L − floor)/H_ww)` through the centre.
    #[must_use]
    #[inline]
    pub fn weight_half_chord_at_best_bias(&self) -> f64 {
        let q = Quadratic::of_dataset();
        (2.0 * (self.level - q.floor()) / q.hessian().ww).sqrt()
    }
}

/// How many positions of the page's two sliders (weight 0–0.4 step 0.0001, bias
/// 0–460 step 0.1) have an error at or below `level`.
///
/// For each weight position the error is a parabola in the bias, lowest at the best
/// bias for that weight; the bias positions within the parabola's `level` chord are
/// counted, each checked with [`Params::error`] so the count is exact for the page.
#[must_use]
pub fn slider_positions_at_or_below(level: f64) -> usize {
    let mut count = 0;
    for i in 0..WEIGHT_SLIDER.positions() {
        let weight = WEIGHT_SLIDER.value_at(i);
        let best_bias = best_bias_for_weight(weight);
        let lowest = Params::new(weight, best_bias).error();
        if lowest > level {
            continue;
        }
        // E(w, b) = lowest + (b − best_bias)², since ∂²E/∂b² = 2.
        let half = (level - lowest).sqrt();
        let per_unit = (1.0 / BIAS_SLIDER.step).round();
        let first = ((best_bias - half) * per_unit).floor() - 1.0;
        let last = ((best_bias + half) * per_unit).ceil() + 1.0;
        let last_index = (BIAS_SLIDER.positions() - 1) as f64;
        let (first, last) = (first.clamp(0.0, last_index), last.clamp(0.0, last_index));
        count += (first as usize..=last as usize)
            .filter(|&k| Params::new(weight, BIAS_SLIDER.value_at(k)).error() <= level)
            .count();
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuron::{min_error, optimum};

    fn close(a: f64, b: f64, relative: f64) -> bool {
        (a - b).abs() <= relative * a.abs().max(b.abs())
    }

    #[test]
    fn every_point_of_every_ladder_contour_has_the_contours_error() {
        for level in ladder().into_iter().chain([2_000.0, 100_000.0]) {
            let ellipse = Ellipse::at_level(level).expect("at or above the floor");
            for p in ellipse.points(720) {
                assert!(
                    close(p.error(), level, 1e-6),
                    "level {level}: {p:?} has {}",
                    p.error()
                );
            }
        }
    }

    #[test]
    fn below_the_floor_there_is_no_contour_and_at_it_a_single_point() {
        assert_eq!(Ellipse::at_level(447.0), None);
        assert_eq!(Ellipse::at_level(f64::NAN), None);
        assert_eq!(Ellipse::at_level(f64::INFINITY), None);
        let floor = Ellipse::at_level(min_error()).expect("the floor");
        assert_eq!((floor.semi_long, floor.semi_short), (0.0, 0.0));
        assert_eq!(floor.point(1.0), floor.centre);
        assert!((floor.centre.bias - optimum().bias).abs() < 1e-9);
        assert_eq!((ladder()[5] * 100.0).round() / 100.0, 447.29);
    }

    #[test]
    fn the_450_island_matches_the_issue() {
        let island = Ellipse::at_level(GOAL).expect("450 is above the floor");
        let Bounds { weight, bias } = island.bounds();
        // The issue: w 0.0535–0.0635, b 237–257.5, ±0.0008 at the best bias.
        assert_eq!(
            ((weight.0 * 1e4).round(), (weight.1 * 1e4).round()),
            (535.0, 635.0),
            "{weight:?}"
        );
        assert_eq!(
            (bias.0.round(), (bias.1 * 2.0).round() / 2.0),
            (237.0, 257.5),
            "{bias:?}"
        );
        assert!(close(weight.0, 0.053_504_19, 1e-6) && close(weight.1, 0.063_471_62, 1e-6));
        assert!(close(bias.0, 236.990_359, 1e-8) && close(bias.1, 257.536_189, 1e-8));
        let chord = island.weight_half_chord_at_best_bias();
        assert!(close(chord, 0.000_798_484, 1e-5), "{chord}");
        // The ends of the chord are on the contour.
        let c = island.centre;
        for w in [c.weight - chord, c.weight + chord] {
            assert!(close(Params::new(w, c.bias).error(), GOAL, 1e-9));
        }
        // Semi-axes √(2·Δ/λ): 10.27 along the valley, 0.000798 across.
        assert!(
            close(island.semi_long, 10.272_916, 1e-6)
                && close(island.semi_short, 0.000_798_484, 1e-5)
        );
        // The long axis is nearly vertical in (w, b): 90° minus 0.0274°.
        assert!(
            close(island.rotation().to_degrees(), 90.0 + 0.027_437, 1e-6),
            "{}",
            island.rotation().to_degrees()
        );
    }

    #[test]
    fn bounds_hold_every_point_and_are_touched() {
        let island = Ellipse::at_level(GOAL).expect("450 is above the floor");
        let b = island.bounds();
        let points = island.points(100_000);
        let max_w = points.iter().map(|p| p.weight).fold(f64::MIN, f64::max);
        let min_b = points.iter().map(|p| p.bias).fold(f64::MAX, f64::min);
        assert!(points
            .iter()
            .all(|p| p.weight >= b.weight.0 - 1e-12 && p.weight <= b.weight.1 + 1e-12));
        assert!(close(max_w, b.weight.1, 1e-8) && close(min_b, b.bias.0, 1e-8));
    }

    #[test]
    fn the_island_holds_2576_slider_positions() {
        let counted = slider_positions_at_or_below(GOAL);
        // Brute force over the island's bounding box of slider positions.
        let b = Ellipse::at_level(GOAL).expect("island").bounds();
        let mut brute = 0;
        for i in (b.weight.0 * 1e4).floor() as usize..=(b.weight.1 * 1e4).ceil() as usize {
            for k in (b.bias.0 * 10.0).floor() as usize..=(b.bias.1 * 10.0).ceil() as usize {
                if Params::new(WEIGHT_SLIDER.value_at(i), BIAS_SLIDER.value_at(k)).error() <= GOAL {
                    brute += 1;
                }
            }
        }
        assert_eq!(counted, brute);
        assert_eq!(counted, 2576);
        // Of 3001 × 5001 positions: about one in 5 800.
        assert_eq!(slider_positions_at_or_below(min_error() - 1.0), 0);
    }
}
