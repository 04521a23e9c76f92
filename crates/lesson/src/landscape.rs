//! The error landscape: the error as an exact quadratic in (weight, bias), its
//! curvature (the valley). Pure math, both targets.
//!
//! Expanding the mean squared error of [`crate::neuron`] (dataset and reference
//! values: `shared/reference/simulator.md`), with `a` the areas and `p` the prices:
//!
//! ```text
//! E(w, b) = mean(a²)·w² + 2·mean(a)·w·b + b² − 2·mean(a·p)·w − 2·mean(p)·b + mean(p²)
//! ```
//!
//! Its Hessian is constant, `H = 2·[[mean(a²), mean(a)], [mean(a), 1]]`, so with `m`
//! the minimum (the least-squares optimum, w 0.0584879, b 247.26327) and `d = (w, b) − m`
//! the error is exactly `E = floor + ½·dᵀ·H·d`, floor = 447.29.
//!
//! H's eigenvalues are about 8.5 million and 0.0513: a valley 165 million times
//! more curved across than along. The eigenvector of the small eigenvalue is the valley's
//! long axis, almost pure bias with a little weight against it (w falls 0.00048 per
//! unit of bias), which is why moving one slider at a time crawls. A symmetric 2×2
//! eigen-decomposition has a closed form, so it is written out here rather than
//! pulling a linear-algebra crate into the WASM bundle.

use crate::neuron::{Params, HOUSES};

/// A direction or displacement in the (weight, bias) plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vec2 {
    pub weight: f64,
    pub bias: f64,
}

impl Vec2 {
    #[must_use]
    #[inline]
    pub const fn new(weight: f64, bias: f64) -> Self {
        Self { weight, bias }
    }

    #[must_use]
    #[inline]
    pub fn dot(self, other: Self) -> f64 {
        self.weight * other.weight + self.bias * other.bias
    }

    #[must_use]
    #[inline]
    pub fn scaled(self, factor: f64) -> Self {
        Self::new(self.weight * factor, self.bias * factor)
    }

    /// `point + self`.
    #[must_use]
    #[inline]
    pub fn added_to(self, point: Params) -> Params {
        Params::new(point.weight + self.weight, point.bias + self.bias)
    }

    /// `to − from`.
    #[must_use]
    #[inline]
    pub fn between(from: Params, to: Params) -> Self {
        Self::new(to.weight - from.weight, to.bias - from.bias)
    }
}

/// `E(w, b) = ww·w² + wb·w·b + bb·b² + w·w + b·b + constant`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quadratic {
    pub ww: f64,
    pub wb: f64,
    pub bb: f64,
    pub w: f64,
    pub b: f64,
    pub constant: f64,
}

/// A symmetric 2×2 matrix `[[ww, wb], [wb, bb]]` (a Hessian).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Symmetric2 {
    pub ww: f64,
    pub wb: f64,
    pub bb: f64,
}

/// Eigenvalues (`small ≤ large`) and unit eigenvectors of a [`Symmetric2`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eigen {
    pub small: f64,
    pub large: f64,
    /// Eigenvector of `small`: the direction of least curvature (the valley floor).
    pub small_axis: Vec2,
    /// Eigenvector of `large`, perpendicular to `small_axis`.
    pub large_axis: Vec2,
}

impl Quadratic {
    /// The error of the three houses, expanded.
    #[must_use]
    #[inline]
    pub fn of_dataset() -> Self {
        let n = HOUSES.len() as f64;
        let mean =
            |f: fn(f64, f64) -> f64| HOUSES.iter().map(|h| f(h.area, h.price)).sum::<f64>() / n;
        Self {
            ww: mean(|a, _| a * a),
            wb: 2.0 * mean(|a, _| a),
            bb: 1.0,
            w: -2.0 * mean(|a, p| a * p),
            b: -2.0 * mean(|_, p| p),
            constant: mean(|_, p| p * p),
        }
    }

    /// The polynomial's value (equal to [`Params::error`] up to rounding).
    #[must_use]
    #[inline]
    pub fn at(&self, p: Params) -> f64 {
        let (w, b) = (p.weight, p.bias);
        self.ww * w * w
            + self.wb * w * b
            + self.bb * b * b
            + self.w * w
            + self.b * b
            + self.constant
    }

    #[must_use]
    #[inline]
    pub fn hessian(&self) -> Symmetric2 {
        Symmetric2 {
            ww: 2.0 * self.ww,
            wb: self.wb,
            bb: 2.0 * self.bb,
        }
    }

    /// Where the gradient vanishes: the solution of `H·x = −(w, b)`.
    #[must_use]
    #[inline]
    pub fn minimum(&self) -> Params {
        let h = self.hessian();
        let det = h.determinant();
        Params::new(
            (-self.w * h.bb + self.b * h.wb) / det,
            (-self.b * h.ww + self.w * h.wb) / det,
        )
    }

    /// The lowest value (the floor of the landscape: 447.29 for the dataset).
    #[must_use]
    #[inline]
    pub fn floor(&self) -> f64 {
        self.minimum().error()
    }
}

impl Symmetric2 {
    #[must_use]
    #[inline]
    pub fn determinant(&self) -> f64 {
        self.ww * self.bb - self.wb * self.wb
    }

    /// `v·M·v`.
    #[must_use]
    #[inline]
    pub fn quadratic_form(&self, v: Vec2) -> f64 {
        self.ww * v.weight * v.weight
            + 2.0 * self.wb * v.weight * v.bias
            + self.bb * v.bias * v.bias
    }

    /// Closed-form eigen-decomposition. The small eigenvalue is computed as
    /// `det / large` so it keeps its precision when the two differ by 10⁸.
    #[must_use]
    pub fn eigen(&self) -> Eigen {
        let half_trace = (self.ww + self.bb) / 2.0;
        let radius = (((self.ww - self.bb) / 2.0).powi(2) + self.wb * self.wb).sqrt();
        let large = half_trace + radius;
        let small = if large == 0.0 {
            0.0
        } else {
            self.determinant() / large
        };
        // (M − λ)·v = 0 has two candidate solutions; take the longer (better conditioned).
        let a = Vec2::new(self.wb, large - self.ww);
        let b = Vec2::new(large - self.bb, self.wb);
        let large_axis =
            unit(if a.dot(a) >= b.dot(b) { a } else { b }).unwrap_or(Vec2::new(1.0, 0.0));
        // Perpendicular, oriented so that the valley axis points towards higher bias.
        let mut small_axis = Vec2::new(-large_axis.bias, large_axis.weight);
        if small_axis.bias < 0.0 {
            small_axis = small_axis.scaled(-1.0);
        }
        Eigen {
            small,
            large,
            small_axis,
            large_axis: Vec2::new(small_axis.bias, -small_axis.weight),
        }
    }
}

fn unit(v: Vec2) -> Option<Vec2> {
    let norm = v.dot(v).sqrt();
    (norm > 0.0).then(|| v.scaled(1.0 / norm))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuron::{min_error, optimum};

    fn close(a: f64, b: f64, relative: f64) -> bool {
        (a - b).abs() <= relative * a.abs().max(b.abs())
    }

    #[test]
    fn the_quadratic_equals_the_error_everywhere() {
        let q = Quadratic::of_dataset();
        for (w, b, reference) in [
            (0.0, 0.0, 134_971.67),
            (0.05, 0.0, 70_433.03),
            (0.18, 0.0, 2_057.73),
            (0.1, 150.0, 799.09),
            (0.3, 500.0, f64::NAN),
            (0.0584879, 247.26327, 447.29),
        ] {
            let p = Params::new(w, b);
            assert!(
                close(q.at(p), p.error(), 1e-12),
                "{w} {b}: {} vs {}",
                q.at(p),
                p.error()
            );
            if !reference.is_nan() {
                assert_eq!((q.at(p) * 100.0).round() / 100.0, reference);
            }
        }
    }

    #[test]
    fn the_minimum_is_the_closed_form_optimum_and_the_floor_447_29() {
        let q = Quadratic::of_dataset();
        let (m, best) = (q.minimum(), optimum());
        assert!(close(m.weight, best.weight, 1e-12), "{m:?} vs {best:?}");
        assert!(close(m.bias, best.bias, 1e-12), "{m:?} vs {best:?}");
        assert!(close(q.floor(), min_error(), 1e-12));
        assert_eq!((q.floor() * 100.0).round() / 100.0, 447.29);
    }

    #[test]
    fn the_centred_form_floor_plus_half_dhd_is_exact() {
        let q = Quadratic::of_dataset();
        let (m, h) = (q.minimum(), q.hessian());
        for p in [
            Params::new(0.1, 150.0),
            Params::new(0.0, 500.0),
            Params::new(0.3, 0.0),
        ] {
            let d = Vec2::between(m, p);
            assert!(close(
                q.floor() + h.quadratic_form(d) / 2.0,
                p.error(),
                1e-9
            ));
        }
    }

    #[test]
    fn the_hessian_and_its_eigen_decomposition() {
        let h = Quadratic::of_dataset().hessian();
        // 2·mean(a²) and 2·mean(a) for areas 2104, 1600, 2400.
        assert!(close(
            h.ww,
            2.0 * (2104f64.powi(2) + 1600f64.powi(2) + 2400f64.powi(2)) / 3.0,
            1e-15
        ));
        assert!(close(h.wb, 2.0 * 6104.0 / 3.0, 1e-15));
        assert_eq!(h.bb, 2.0);
        let e = h.eigen();
        // Defining property M·v = λ·v, unit length, orthogonality.
        for (lambda, v) in [(e.small, e.small_axis), (e.large, e.large_axis)] {
            let mv = Vec2::new(
                h.ww * v.weight + h.wb * v.bias,
                h.wb * v.weight + h.bb * v.bias,
            );
            let residual = Vec2::between(
                Params::new(lambda * v.weight, lambda * v.bias),
                Params::new(mv.weight, mv.bias),
            );
            assert!(
                residual.dot(residual).sqrt() <= 1e-9 * e.large,
                "{lambda} {v:?}"
            );
            assert!(close(v.dot(v), 1.0, 1e-15));
        }
        assert!(e.small_axis.dot(e.large_axis).abs() < 1e-15);
        // Sum and product of the eigenvalues: trace and determinant (4·var(area)).
        assert!(close(e.small + e.large, h.ww + h.bb, 1e-15));
        assert!(close(e.small * e.large, h.determinant(), 1e-12));
        assert!(close(e.large, 8_497_879.28, 1e-9), "{}", e.large);
        assert!(close(e.small, 0.051_339_97, 1e-6), "{}", e.small);
        // The valley's long axis: mostly bias, the weight falling as the bias rises.
        assert!(
            e.small_axis.bias > 0.999_999 && e.small_axis.weight < 0.0,
            "{:?}",
            e.small_axis
        );
        assert!(close(
            e.small_axis.weight / e.small_axis.bias,
            -0.000_478_864_6,
            1e-6
        ));
    }
}
