//! Tests that the lab's "Jay's rates" preset takes the steps Jay's own page
//! takes: his `simple_nn.js` (`NN_trainer.prototype.gradientDescentStep`, the
//! "GD Step", "10 GD Steps" and "100 GD Steps" buttons) starts at w 0, b 0 and,
//! each step, computes from the current predictions
//!
//! ```text
//! sum_for_bias   += prediction − price            (over the three houses)
//! sum_for_weight += (prediction − price) · area
//! bias   −= 1    · sum_for_bias   / 3             (learningRate2 = 1)
//! weight −= 1e-8 · sum_for_weight / 3             (learningRate = 0.00000001)
//! ```
//!
//! both from the same predictions (a simultaneous update). `sum / 3` is the
//! gradient of HALF the mean squared error, so his rates are the page's
//! (MSE-gradient) rates 5e-9 and 0.5. Below, that loop is written out again on
//! its own, and the lab's run must land where it lands; the end points are
//! pinned so the page's test can read them.

use super::*;
use crate::neuron::{min_error, optimum, WEIGHT_SLIDER};

/// Jay's loop as he wrote it, on his data: `(weight, bias, error)` after each
/// of `steps` steps from (0, 0). The error is the page's (and his display's):
/// the mean of the squared residuals, `delta_sum / n`.
fn jays_loop(steps: usize) -> Vec<(f64, f64, f64)> {
    let areas = [2104.0, 1600.0, 2400.0];
    let prices = [399.9, 329.9, 369.0];
    let error = |w: f64, b: f64| {
        let mut delta_sum = 0.0;
        for i in 0..3 {
            let delta: f64 = prices[i] - (areas[i] * w + b);
            delta_sum += delta * delta;
        }
        delta_sum / 3.0
    };
    let (mut weight, mut bias) = (0.0_f64, 0.0_f64);
    let mut out = Vec::new();
    for _ in 0..steps {
        let (mut sum_for_bias, mut sum_for_weight) = (0.0, 0.0);
        for i in 0..3 {
            let prediction = areas[i] * weight + bias;
            sum_for_bias += prediction - prices[i];
            sum_for_weight += (prediction - prices[i]) * areas[i];
        }
        let new_b = bias - 1.0 * (sum_for_bias / 3.0);
        let new_w = weight - 0.000_000_01 * (sum_for_weight / 3.0);
        (weight, bias) = (new_w, new_b);
        out.push((weight, bias, error(weight, bias)));
    }
    out
}

fn close(a: f64, b: f64, relative: f64) -> bool {
    (a - b).abs() <= relative * a.abs().max(b.abs())
}

#[test]
fn jays_rates_are_his_two_numbers_on_the_half_mse_gradient() {
    assert_eq!(
        Rates::JAY,
        Rates {
            weight: 1e-8,
            bias: 1.0,
            convention: Convention::HalfMse
        }
    );
    assert_eq!(Rates::JAY.single(), None);
    // On the page's error (the MSE) the same steps take half the rates.
    assert_eq!(Rates::JAY.on_mse(), (5e-9, 0.5));
    assert_eq!(Rates::one(2e-7).on_mse(), (2e-7, 2e-7));
    assert_eq!(Rates::one(2e-7).single(), Some(2e-7));
    assert_eq!(ORIGIN, Params::new(0.0, 0.0));
    assert_eq!(Start::Origin.point(), ORIGIN);
}

#[test]
fn a_hundred_steps_from_zero_land_where_jays_page_lands() {
    let his = jays_loop(100);
    let lab = run(ORIGIN, Rates::JAY, Scaling::Raw, 100);
    assert_eq!(lab.status, Status::Running);
    assert_eq!((lab.path.len(), lab.losses.len()), (101, 101));
    assert_eq!((lab.path[0], lab.losses[0]), (ORIGIN, ORIGIN.error()));
    for (k, &(w, b, e)) in his.iter().enumerate() {
        let (p, loss) = (lab.path[k + 1], lab.losses[k + 1]);
        assert!(close(p.weight, w, 1e-12), "step {}: {p:?} vs {w}", k + 1);
        assert!(close(p.bias, b, 1e-12), "step {}: {p:?} vs {b}", k + 1);
        assert!(close(loss, e, 1e-12), "step {}: {loss} vs {e}", k + 1);
    }
}

#[test]
fn after_1_10_and_100_steps_the_numbers_are_pinned() {
    // (step, weight, bias, error); the page shows w to 4 decimals, b to 2, the
    // error to 2: 0.0075 / 366.27 / 964.54, 0.0077 / 350.71 / 728.64,
    // 0.0123 / 341.4 / 680.27 (Jay's own page: 0.008, 366.3, 965 …).
    let pinned = [
        (
            1,
            0.007_516_098_666_666_667,
            366.266_666_666_666_65,
            964.537_427_692_308,
        ),
        (
            10,
            0.007_700_373_976_024_992,
            350.707_309_347_292_15,
            728.635_540_473_036_3,
        ),
        (
            100,
            0.012_271_053_399_071_653,
            341.397_750_380_772_1,
            680.274_410_307_946_4,
        ),
    ];
    let lab = run(ORIGIN, Rates::JAY, Scaling::Raw, 100);
    for (k, w, b, e) in pinned {
        let p = lab.path[k];
        assert!(close(p.weight, w, 1e-9), "step {k}: {p:?}");
        assert!(close(p.bias, b, 1e-9), "step {k}: {p:?}");
        assert!(close(lab.losses[k], e, 1e-9), "step {k}: {}", lab.losses[k]);
    }
    // Step by step (the 1-step button pressed a hundred times) is the same run.
    let mut pressed = Descent::new(ORIGIN, Rates::JAY, Scaling::Raw);
    for _ in 0..100 {
        pressed.advance(1);
    }
    assert_eq!(pressed, lab);
    // Every point is inside the page's sliders: the path needs no clamping.
    assert!(lab
        .path
        .iter()
        .all(|p| p.clamped_to_sliders() == *p && p.weight <= WEIGHT_SLIDER.max));
}

#[test]
fn why_two_rates_the_bias_lands_at_once_and_the_weight_crawls() {
    // Rate 1 on the half-MSE gradient is a whole Newton step for the bias (its
    // curvature is 1): the first step puts it on the best bias for w 0, the
    // mean price 366.27.
    let lab = run(ORIGIN, Rates::JAY, Scaling::Raw, 1_000);
    assert!(close(lab.path[1].bias, 366.266_666_666_666_65, 1e-12));
    // Along the weight the curvature is mean(area²) = 4,248,938.67, four million
    // times the bias's: one rate for both cannot suit both.
    let ratio = Scaling::Raw.hessian().ww / Scaling::Raw.hessian().bb;
    assert!(close(ratio, 4_248_938.666_666_667, 1e-12), "{ratio}");
    // One rate for both: the bias's 1 blows the weight up at the first step …
    let bias_rate = run(ORIGIN, Rates::one(0.5), Scaling::Raw, 5);
    assert_eq!(bias_rate.status, Status::Diverged { step: 1 });
    // … and the weight's 1e-8 leaves the bias where it was (it moves 0.000007).
    let weight_rate = run(ORIGIN, Rates::one(5e-9), Scaling::Raw, 1);
    assert!(weight_rate.path[1].bias < 1e-5, "{:?}", weight_rate.path[1]);
    // Jay's pair is stable: the Hessian of E/2 (half the page's), scaled by the
    // two rates, has eigenvalues 1.04 and 0.00105, both below 2; the small one
    // makes it slow (the excess error shrinks by (1 − 0.00105)² a step).
    let (h, (rw, rb)) = (Scaling::Raw.hessian(), (Rates::JAY.weight, Rates::JAY.bias));
    let (a, b, c, d) = (
        rw * h.ww / 2.0,
        rw * h.wb / 2.0,
        rb * h.wb / 2.0,
        rb * h.bb / 2.0,
    );
    let (trace, det) = (a + d, a * d - b * c);
    let root = (trace * trace / 4.0 - det).sqrt();
    let (fast, slow) = (trace / 2.0 + root, trace / 2.0 - root);
    assert!((1.04..1.05).contains(&fast) && fast < 2.0, "{fast}");
    assert!((0.001_04..0.001_06).contains(&slow), "{slow}");
    // His run only ever falls after the first step, and 1,000 steps still end
    // above the goal, heading for the optimum.
    assert_eq!(lab.status, Status::Running);
    assert!(lab.losses[1..].windows(2).all(|w| w[1] < w[0]));
    let last = lab.losses[1_000];
    assert!(last > GOAL && last < 483.0, "{last}");
    let far = run(ORIGIN, Rates::JAY, Scaling::Raw, 20_000);
    let end = far.current().unwrap_or(ORIGIN);
    assert!(close(far.losses[20_000], min_error(), 1e-6));
    assert!(close(end.weight, optimum().weight, 1e-4), "{end:?}");
}

#[test]
fn each_start_is_a_point_and_the_models_follows_a_start_over() {
    assert_eq!(Start::Jays.point(), crate::neuron::START);
    let p = Params::new(0.0585, 247.3);
    assert_eq!(Start::Model(p).point(), p);
    assert_eq!(Start::default(), Start::Jays);
}
