//! What a coach may say about a point, derived in pure code so that no model
//! has to do arithmetic: how far the point is above the floor (447.29), which
//! single move helps most, and whether the point sits in the valley.
//!
//! The best single move is found by trying both: the best weight for this bias
//! and the best bias for this weight ([`crate::neuron`]'s best responses), and
//! keeping the one with the lower error. Not the gradient: in raw units the
//! error is thousands of times steeper along the weight (areas are ~2000), so
//! the gradient's largest component always names the weight, even when moving
//! the bias is what helps.
//!
//! "In the valley" means that no single move does much (it would win less than
//! [`VALLEY_GAIN`] of the way to the floor): the way on is along the valley's
//! diagonal, lowering the weight and raising the bias together or the reverse
//! (see [`crate::valley`]).

use crate::neuron::{best_bias_for_weight, best_weight_for_bias, min_error, optimum, Params};

/// Below this share of the way to the floor, a single move "barely helps".
pub const VALLEY_GAIN: f64 = 0.1;
/// A move that wins less error than this is no move at all (either way is fine).
pub const NEGLIGIBLE: f64 = 0.5;

/// One of the neuron's two parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Weight,
    Bias,
}

/// Which way to move a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    Up,
    Down,
}

/// Moving one parameter to its best value for the other one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    pub param: Param,
    pub way: Way,
    /// How far (in the parameter's own units).
    pub by: f64,
    /// The error after the move.
    pub error_after: f64,
}

/// The facts about a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Facts {
    pub params: Params,
    pub error: f64,
    /// `error − 447.29`.
    pub above_floor: f64,
    /// The single move that helps most; `None` at the optimum.
    pub best_move: Option<Move>,
    /// Moving the weight alone, and the bias alone, to their best values.
    pub weight_move: Move,
    pub bias_move: Move,
    /// No single move helps much: go along the valley.
    pub in_valley: bool,
    /// Along the valley towards the optimum: the weight's way (the bias goes
    /// the other way).
    pub valley_weight_way: Way,
}

impl Facts {
    pub fn of(params: Params) -> Self {
        let error = params.error();
        let floor = min_error();
        let weight_to = best_weight_for_bias(params.bias);
        let bias_to = best_bias_for_weight(params.weight);
        let weight_move = single(
            Param::Weight,
            params.weight,
            weight_to,
            Params::new(weight_to, params.bias),
        );
        let bias_move = single(
            Param::Bias,
            params.bias,
            bias_to,
            Params::new(params.weight, bias_to),
        );
        let best = if weight_move.error_after <= bias_move.error_after {
            weight_move
        } else {
            bias_move
        };
        let gain = error - best.error_after;
        let above_floor = (error - floor).max(0.0);
        Self {
            params,
            error,
            above_floor,
            best_move: (gain >= NEGLIGIBLE).then_some(best),
            weight_move,
            bias_move,
            in_valley: above_floor >= NEGLIGIBLE && gain < VALLEY_GAIN * above_floor,
            valley_weight_way: if params.weight > optimum().weight {
                Way::Down
            } else {
                Way::Up
            },
        }
    }

    /// Whether advice to move `param` the `way` way goes against the facts:
    /// moving that parameter alone that way raises the error, and it is not
    /// the valley's way either (when the point is in the valley).
    #[inline]
    pub fn contradicts(&self, param: Param, way: Way) -> bool {
        let alone = match param {
            Param::Weight => self.weight_move,
            Param::Bias => self.bias_move,
        };
        if self.error - alone.error_after < NEGLIGIBLE {
            // Already at its best for the other one: the advice is harmless.
            return false;
        }
        let valley_way = match param {
            Param::Weight => self.valley_weight_way,
            Param::Bias => opposite(self.valley_weight_way),
        };
        way != alone.way && !(self.in_valley && way == valley_way)
    }
}

fn single(param: Param, from: f64, to: f64, after: Params) -> Move {
    Move {
        param,
        way: if to >= from { Way::Up } else { Way::Down },
        by: (to - from).abs(),
        error_after: after.error(),
    }
}

#[inline]
pub fn opposite(way: Way) -> Way {
    match way {
        Way::Up => Way::Down,
        Way::Down => Way::Up,
    }
}

/// `x` rounded to two significant digits, for "about …": 12.8 → 13, 0.00506 → 0.0051.
#[inline]
pub fn roughly(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let magnitude = 10f64.powf(x.abs().log10().floor() - 1.0);
    (x / magnitude).round() * magnitude
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuron::START;

    #[test]
    fn from_the_guides_start_raising_the_bias_helps_most_although_the_gradient_names_the_weight() {
        let facts = Facts::of(START);
        let g = START.gradient();
        assert!(g.weight.abs() > 1000.0 * g.bias.abs(), "{g:?}");
        let best = facts.best_move.expect("a move helps");
        assert_eq!((best.param, best.way), (Param::Bias, Way::Up));
        // Best bias for w 0.1: mean(price) − 0.1 × mean(area) = 366.27 − 203.47 = 162.8.
        assert!((best.by - 12.8).abs() < 1e-9, "{best:?}");
        // The residuals +39.5, +19.9, −21 each lose their mean, 12.8.
        let after = (26.7f64.powi(2) + 7.1f64.powi(2) + 33.8f64.powi(2)) / 3.0;
        assert!((best.error_after - after).abs() < 1e-9, "{best:?}");
        assert!((facts.above_floor - (799.09 - 447.29)).abs() < 0.01);
        assert!(!facts.in_valley);
        assert_eq!(facts.weight_move.way, Way::Up);
    }

    #[test]
    fn on_the_valley_floor_no_single_move_helps_and_the_diagonal_is_the_way() {
        // On the best-bias line at w 0.08: above the optimum's 0.0585.
        let w = 0.08;
        let facts = Facts::of(Params::new(w, best_bias_for_weight(w)));
        assert!(facts.in_valley, "{facts:?}");
        assert_eq!(facts.valley_weight_way, Way::Down);
        // Lowering the weight alone helps a little: never a contradiction.
        assert!(!facts.contradicts(Param::Weight, Way::Down));
        assert!(facts.contradicts(Param::Weight, Way::Up));
        // Raising the bias is the valley's way; moving it alone is (nearly) useless.
        assert!(!facts.contradicts(Param::Bias, Way::Up));
        assert!(
            !facts.contradicts(Param::Bias, Way::Down),
            "negligible either way"
        );
    }

    #[test]
    fn advice_the_wrong_way_contradicts_the_facts() {
        let facts = Facts::of(START);
        assert!(facts.contradicts(Param::Bias, Way::Down));
        assert!(!facts.contradicts(Param::Bias, Way::Up));
        assert!(facts.contradicts(Param::Weight, Way::Down));
        assert!(!facts.contradicts(Param::Weight, Way::Up));
        // Far on the other side: a low bias and a low weight, both want up.
        let low = Facts::of(Params::new(0.02, 50.0));
        assert!(
            low.contradicts(Param::Bias, Way::Down) && low.contradicts(Param::Weight, Way::Down)
        );
        // At the optimum nothing is a contradiction and no move helps.
        let best = Facts::of(optimum());
        assert_eq!(best.best_move, None);
        for p in [Param::Weight, Param::Bias] {
            for w in [Way::Up, Way::Down] {
                assert!(!best.contradicts(p, w));
            }
        }
    }

    #[test]
    fn rough_amounts_keep_two_significant_digits() {
        assert_eq!(roughly(12.793), 13.0);
        assert!((roughly(0.005_06) - 0.0051).abs() < 1e-12);
        assert_eq!(roughly(0.0), 0.0);
        assert_eq!(roughly(249.9), 250.0);
    }
}
