//! "Best bias for this weight" and "best weight for this bias", pressed in turn: the
//! zig-zag that shows why moving one parameter at a time is slow. Pure math.
//!
//! Each press solves the error exactly along one axis ([`best_bias_for_weight`],
//! [`best_weight_for_bias`] in [`crate::neuron`]), so the error never rises and never
//! drops below the floor. But the two best-response lines cross at a shallow angle
//! inside the narrow valley, so each press only removes a small share of the excess
//! error. In the centred form `E − floor = S·dw² + 2·m·dw·db + db²` (with `S =
//! mean(a²)`, `m = mean(a)`; see [`crate::landscape`]) a bias press leaves an excess
//! of `(S − m²)·dw²` and a weight press then multiplies it by exactly
//! `κ = m²/S = 0.97433`: every press after the first keeps 97.4 % of the excess
//! error. From Jay's start (w 0.1, b 150, error 799.09) the first round (bias, then
//! weight) reaches 630.42, ten rounds 561.97, and the goal 450 needs 83 rounds (166 presses).

use crate::neuron::{best_bias_for_weight, best_weight_for_bias, Params, HOUSES};

/// Which best-response button is pressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Press {
    /// "Best bias for this weight": moves the bias only.
    BestBias,
    /// "Best weight for this bias": moves the weight only.
    BestWeight,
}

impl Press {
    /// The other button.
    #[must_use]
    #[inline]
    pub fn other(self) -> Self {
        match self {
            Self::BestBias => Self::BestWeight,
            Self::BestWeight => Self::BestBias,
        }
    }

    /// The point after pressing this button at `from`.
    #[must_use]
    #[inline]
    pub fn apply(self, from: Params) -> Params {
        match self {
            Self::BestBias => Params::new(from.weight, best_bias_for_weight(from.weight)),
            Self::BestWeight => Params::new(best_weight_for_bias(from.bias), from.bias),
        }
    }
}

/// The start followed by the point after each of `presses` presses, alternating
/// from `first`.
#[must_use]
#[inline]
pub fn zig_zag(start: Params, first: Press, presses: usize) -> Vec<Params> {
    let mut points = Vec::with_capacity(presses + 1);
    points.push(start);
    let (mut point, mut press) = (start, first);
    for _ in 0..presses {
        point = press.apply(point);
        points.push(point);
        press = press.other();
    }
    points
}

/// `κ = mean(a)²/mean(a²)`: the share of the excess error each press (after the
/// first) keeps. It is the squared cosine of the angle between the two axes in the
/// error's own metric, close to 1 because the areas are large and close together.
#[must_use]
#[inline]
pub fn contraction_per_press() -> f64 {
    let n = HOUSES.len() as f64;
    let mean_area = HOUSES.iter().map(|h| h.area).sum::<f64>() / n;
    let mean_square = HOUSES.iter().map(|h| h.area * h.area).sum::<f64>() / n;
    mean_area * mean_area / mean_square
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuron::{min_error, optimum, GOAL, START};

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    #[test]
    fn presses_alternate_between_the_axes() {
        let points = zig_zag(START, Press::BestBias, 20);
        assert_eq!(points.len(), 21);
        for (i, pair) in points.windows(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            if i % 2 == 0 {
                assert!(
                    a.weight == b.weight && a.bias != b.bias,
                    "press {i} moves the bias"
                );
            } else {
                assert!(
                    a.bias == b.bias && a.weight != b.weight,
                    "press {i} moves the weight"
                );
            }
        }
        let from_weight = zig_zag(START, Press::BestWeight, 2);
        assert_eq!(from_weight[1].bias, 150.0);
        assert_eq!(from_weight[2].weight, from_weight[1].weight);
    }

    #[test]
    fn each_press_after_the_first_keeps_kappa_of_the_excess_error() {
        let kappa = contraction_per_press();
        assert!((kappa - 0.974_33).abs() < 5e-6, "{kappa}");
        let floor = min_error();
        let points = zig_zag(START, Press::BestBias, 40);
        for pair in points[1..].windows(2) {
            let ratio = (pair[1].error() - floor) / (pair[0].error() - floor);
            assert!((ratio - kappa).abs() < 1e-9, "{ratio}");
        }
    }

    #[test]
    fn the_zig_zag_from_jays_start_is_slow() {
        assert_eq!(round2(START.error()), 799.09);
        let points = zig_zag(START, Press::BestBias, 200);
        let after_rounds = |k: usize| round2(points[2 * k].error());
        assert_eq!(after_rounds(1), 630.42);
        assert_eq!(after_rounds(5), 596.02);
        assert_eq!(after_rounds(10), 561.97);
        let rounds_to_goal = (1..=100).find(|&k| points[2 * k].error() <= GOAL);
        assert_eq!(rounds_to_goal, Some(83));
        // The closed form agrees: excess after round k = excess after round 1 × κ^(2(k−1)).
        let (floor, kappa) = (min_error(), contraction_per_press());
        let excess1 = points[2].error() - floor;
        let predicted = (1..).find(|&k| floor + excess1 * kappa.powi(2 * (k - 1)) <= GOAL);
        assert_eq!(predicted, Some(83));
    }

    #[test]
    fn the_zig_zag_never_overshoots() {
        let best = optimum();
        let floor = min_error();
        let points = zig_zag(START, Press::BestBias, 200);
        for pair in points.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(b.error() <= a.error() && b.error() >= floor);
            // The weight only falls and the bias only rises, both staying short of the optimum.
            assert!(b.weight <= a.weight && b.weight > best.weight, "{b:?}");
            assert!(b.bias >= a.bias && b.bias < best.bias, "{b:?}");
        }
    }
}
