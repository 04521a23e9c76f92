//! The one-neuron house-price model from Jay Alammar's "A Visual and Interactive
//! Guide to the Basics of Neural Networks" (2016): pure math, no Leptos, no features.
//!
//! A neuron with one input (the area of a house, in square feet), one weight and one
//! bias predicts the price (in thousands of dollars):
//!
//! ```text
//! prediction = area × weight + bias
//! error      = mean over the houses of (price − prediction)²      [($1000)²]
//! ```
//!
//! The error is a convex quadratic in (weight, bias), so its minimum has a closed
//! form (ordinary least squares): `weight = cov(area, price) / var(area)` and
//! `bias = mean(price) − weight × mean(area)`. For the three houses below that is
//! weight 0.0584879, bias 247.26327 and error 447.29, which is why the goal "get the
//! error below 450" can only be met close to the optimum.

/// One house of the dataset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct House {
    /// Living area in square feet.
    pub area: f64,
    /// Sale price in thousands of dollars.
    pub price: f64,
}

/// The three houses of Jay Alammar's first interactive.
pub const HOUSES: [House; 3] = [
    House {
        area: 2104.0,
        price: 399.9,
    },
    House {
        area: 1600.0,
        price: 329.9,
    },
    House {
        area: 2400.0,
        price: 369.0,
    },
];

/// The visitor wins when the error is at or below this (the original server's threshold).
pub const GOAL: f64 = 450.0;

/// Whether an error reaches the goal: at or below [`GOAL`], the original server's "≤ 450"
/// tier. The one rule the score, the ladder, the chart, the announcer, the
/// descent lab and the coach's tiers all use, so no part of the page calls
/// 450.00 a success while another does not.
#[must_use]
#[inline]
pub fn reaches_goal(error: f64) -> bool {
    error <= GOAL
}

/// One of the page's two range sliders: its bounds and its step.
///
/// The simulator page offers weight 0–0.4 in steps of 0.0001 and bias 0–460 in steps
/// of 0.1 (see [`WEIGHT_SLIDER`], [`BIAS_SLIDER`]); the landscape and the gradient
/// descent lab clamp to the same ranges so every point they show can be set by hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slider {
    pub min: f64,
    pub max: f64,
    pub step: f64,
}

impl Slider {
    /// `value` brought inside `[min, max]` (a NaN becomes `min`).
    #[must_use]
    #[inline]
    pub fn clamp(self, value: f64) -> f64 {
        if value.is_nan() {
            self.min
        } else {
            value.clamp(self.min, self.max)
        }
    }

    /// How many positions the slider has, both ends included.
    #[must_use]
    #[inline]
    pub fn positions(self) -> usize {
        ((self.max - self.min) / self.step).round() as usize + 1
    }

    /// The value at position `index` (0 = `min`), as the browser reports it: the
    /// decimal `min + index × step`, computed as a division so that position 585 of
    /// the weight slider is exactly the number `0.0585` parses to.
    #[must_use]
    #[inline]
    pub fn value_at(self, index: usize) -> f64 {
        let per_unit = (1.0 / self.step).round();
        self.min + index as f64 / per_unit
    }

    /// The slider position nearest `value` (clamped first), as [`Slider::value_at`]
    /// writes it: where a click, a key or a computed best value lands on the page.
    #[must_use]
    #[inline]
    pub fn nearest(self, value: f64) -> f64 {
        let index = ((self.clamp(value) - self.min) / self.step).round();
        self.value_at(index as usize)
    }
}

/// The weight slider of the page: 0–0.4, Jay's range (his text and his readers
/// expect it), in steps of 0.0001 (his gradient-descent interactive's; his first
/// one stepped by 0.001).
pub const WEIGHT_SLIDER: Slider = Slider {
    min: 0.0,
    max: 0.4,
    step: 0.0001,
};

/// The bias slider of the page: 0–460, Jay's range, in steps of 0.1 (his
/// gradient-descent interactive's; his first one stepped by 1).
pub const BIAS_SLIDER: Slider = Slider {
    min: 0.0,
    max: 460.0,
    step: 0.1,
};

/// Where a visitor starts: where Jay's guide starts (w 0.1, b 150: error 799.09,
/// "can you get below 799?"), close enough to see the goal, far enough that the
/// diagonal valley makes it hard.
pub const START: Params = Params::new(0.1, 150.0);

/// The neuron's two parameters.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Params {
    pub weight: f64,
    pub bias: f64,
}

impl Params {
    #[inline]
    pub const fn new(weight: f64, bias: f64) -> Self {
        Self { weight, bias }
    }

    /// These parameters with each one clamped to its slider's range.
    #[must_use]
    #[inline]
    pub fn clamped_to_sliders(self) -> Self {
        Self::new(
            WEIGHT_SLIDER.clamp(self.weight),
            BIAS_SLIDER.clamp(self.bias),
        )
    }

    /// These parameters as the sliders can hold them: each clamped and on
    /// its slider's step (a computed point such as the best bias, 255.98765,
    /// is shown and used as 256.0, one precision everywhere).
    #[must_use]
    #[inline]
    pub fn on_sliders(self) -> Self {
        Self::new(
            WEIGHT_SLIDER.nearest(self.weight),
            BIAS_SLIDER.nearest(self.bias),
        )
    }

    /// The neuron's output for one area.
    #[inline]
    pub fn predict(self, area: f64) -> f64 {
        area * self.weight + self.bias
    }

    /// `(price − prediction)²` for each house, in dataset order.
    #[inline]
    pub fn squared_errors(self) -> [f64; 3] {
        HOUSES.map(|h| (h.price - self.predict(h.area)).powi(2))
    }

    /// Mean squared error over the dataset, in ($1000)².
    #[inline]
    pub fn error(self) -> f64 {
        mean(self.squared_errors())
    }

    /// Partial derivatives of the error: `(∂E/∂weight, ∂E/∂bias)`.
    ///
    /// `∂E/∂w = −2/n Σ area·(price − ŷ)` and `∂E/∂b = −2/n Σ (price − ŷ)`.
    #[inline]
    pub fn gradient(self) -> Gradient {
        let (mut sum_area_residual, mut sum_residual) = (0.0, 0.0);
        for h in HOUSES {
            let residual = h.price - self.predict(h.area);
            sum_area_residual += h.area * residual;
            sum_residual += residual;
        }
        let n = HOUSES.len() as f64;
        Gradient {
            weight: -2.0 * sum_area_residual / n,
            bias: -2.0 * sum_residual / n,
        }
    }
}

/// The error's slope along each parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gradient {
    pub weight: f64,
    pub bias: f64,
}

/// The least-squares optimum: the parameters with the lowest possible error.
#[inline]
pub fn optimum() -> Params {
    let areas = HOUSES.map(|h| h.area);
    let prices = HOUSES.map(|h| h.price);
    let (mean_area, mean_price) = (mean(areas), mean(prices));
    let covariance = mean(HOUSES.map(|h| (h.area - mean_area) * (h.price - mean_price)));
    let variance = mean(areas.map(|a| (a - mean_area).powi(2)));
    let weight = covariance / variance;
    Params::new(weight, mean_price - weight * mean_area)
}

/// The lowest error any weight and bias can reach (447.29 for this dataset).
#[inline]
pub fn min_error() -> f64 {
    optimum().error()
}

/// The best weight when the bias is held at `bias`: `Σ area·(price − bias) / Σ area²`.
#[inline]
pub fn best_weight_for_bias(bias: f64) -> f64 {
    let numerator: f64 = HOUSES.iter().map(|h| h.area * (h.price - bias)).sum();
    let denominator: f64 = HOUSES.iter().map(|h| h.area * h.area).sum();
    numerator / denominator
}

/// The best bias when the weight is held at `weight`: `mean(price − area·weight)`.
#[inline]
pub fn best_bias_for_weight(weight: f64) -> f64 {
    mean(HOUSES.map(|h| h.price - h.area * weight))
}

fn mean<const N: usize>(values: [f64; N]) -> f64 {
    values.iter().sum::<f64>() / N as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    #[test]
    fn computed_points_are_put_on_the_sliders_steps() {
        let p = Params::new(0.058_473, 255.987_65).on_sliders();
        assert_eq!((p.weight, p.bias), (0.0585, 256.0));
        assert_eq!(
            Params::new(-1.0, 900.0).on_sliders(),
            Params::new(0.0, 460.0)
        );
        // On the grid already: unchanged, to the bit.
        assert_eq!(START.on_sliders(), START);
        assert_eq!(BIAS_SLIDER.nearest(247.3), 247.3);
    }

    #[test]
    fn error_matches_every_reference_value() {
        let cases = [
            (0.0, 0.0, 134_971.67),
            (0.05, 0.0, 70_433.03),
            (0.18, 0.0, 2_057.73),
            (0.1, 150.0, 799.09),
            (0.0584879, 247.26327, 447.29),
        ];
        for (weight, bias, expected) in cases {
            let got = Params::new(weight, bias).error();
            assert_eq!(
                round2(got),
                expected,
                "error at w={weight} b={bias} was {got}"
            );
        }
    }

    #[test]
    fn optimum_is_the_reference_least_squares_solution() {
        let best = optimum();
        assert!(
            (best.weight - 0.0584879).abs() < 5e-8,
            "weight {}",
            best.weight
        );
        assert!((best.bias - 247.26327).abs() < 5e-6, "bias {}", best.bias);
        assert_eq!(round2(min_error()), 447.29);
    }

    #[test]
    fn the_issue_optimum_rounded_to_slider_steps_still_reads_447_29() {
        assert_eq!(round2(Params::new(0.0585, 247.26).error()), 447.29);
    }

    #[test]
    fn gradient_vanishes_at_the_optimum_and_points_uphill_elsewhere() {
        let g = optimum().gradient();
        assert!(g.weight.abs() < 1e-6 && g.bias.abs() < 1e-9, "{g:?}");

        // A finite-difference check away from the optimum.
        let p = Params::new(0.1, 150.0);
        let g = p.gradient();
        let h = 1e-6;
        let dw = (Params::new(p.weight + h, p.bias).error()
            - Params::new(p.weight - h, p.bias).error())
            / (2.0 * h);
        let db = (Params::new(p.weight, p.bias + h).error()
            - Params::new(p.weight, p.bias - h).error())
            / (2.0 * h);
        assert!(
            (g.weight - dw).abs() / dw.abs() < 1e-5,
            "{} vs {dw}",
            g.weight
        );
        assert!((g.bias - db).abs() / db.abs() < 1e-5, "{} vs {db}", g.bias);
    }

    #[test]
    fn best_weight_with_zero_bias_matches_reference() {
        let w = best_weight_for_bias(0.0);
        assert!((w - 0.176894).abs() < 5e-7, "{w}");
        assert_eq!(round2(Params::new(w, 0.0).error()), 2_016.73);
    }

    #[test]
    fn best_bias_for_the_optimal_weight_is_the_optimal_bias() {
        let best = optimum();
        assert!((best_bias_for_weight(best.weight) - best.bias).abs() < 1e-9);
    }

    #[test]
    fn sliders_have_the_pages_positions_and_clamp_their_ranges() {
        assert_eq!(WEIGHT_SLIDER.positions(), 4001);
        assert_eq!(BIAS_SLIDER.positions(), 4601);
        assert_eq!(WEIGHT_SLIDER.value_at(585), 0.0585);
        assert_eq!(BIAS_SLIDER.value_at(2473), 247.3);
        assert_eq!(WEIGHT_SLIDER.value_at(4000), 0.4);
        assert_eq!(BIAS_SLIDER.value_at(4600), 460.0);
        let p = Params::new(-0.1, 900.0).clamped_to_sliders();
        assert_eq!(p, Params::new(0.0, 460.0));
        assert_eq!(
            Params::new(f64::NAN, f64::NAN).clamped_to_sliders(),
            Params::new(0.0, 0.0)
        );
    }

    #[test]
    fn predictions_and_squared_errors_per_house() {
        let p = Params::new(0.1, 150.0);
        assert_eq!(round2(p.predict(2104.0)), 360.4);
        let sq = p.squared_errors();
        assert_eq!(round2(sq[0]), round2((399.9f64 - 360.4).powi(2)));
        assert_eq!(round2(sq[1]), round2((329.9f64 - 310.0).powi(2)));
        assert_eq!(round2(sq[2]), round2((369.0f64 - 390.0).powi(2)));
    }
}
