//! Tests of the gradient descent lab against the closed form: on a quadratic, the
//! distance to the optimum along each Hessian eigenvector is multiplied by
//! `1 − rate·λ` at every step, so the error after `k` steps is known exactly.

use super::*;
use crate::{
    landscape::{Quadratic, Vec2},
    neuron::{min_error, optimum, Slider, BIAS_SLIDER, GOAL, START, WEIGHT_SLIDER},
};

fn close(a: f64, b: f64, relative: f64) -> bool {
    (a - b).abs() <= relative * a.abs().max(b.abs())
}

/// The raw error after `k` steps at `rate` from `start`, without iterating.
fn raw_error_after(start: Params, rate: f64, k: i32) -> f64 {
    let q = Quadratic::of_dataset();
    let e = q.hessian().eigen();
    let d = Vec2::between(q.minimum(), start);
    let (s, t) = (d.dot(e.small_axis), d.dot(e.large_axis));
    q.floor()
        + e.small * (s * (1.0 - rate * e.small).powi(k)).powi(2) / 2.0
        + e.large * (t * (1.0 - rate * e.large).powi(k)).powi(2) / 2.0
}

#[test]
fn the_stable_rates_are_two_over_the_largest_curvature() {
    let raw = Scaling::Raw.max_stable_rate();
    assert!(close(raw, 2.353_528_37e-7, 1e-8), "{raw}");
    assert!(close(
        raw,
        2.0 / Quadratic::of_dataset().hessian().eigen().large,
        1e-15
    ));
    // Standardised: the Hessian is 2·I, so 2/λ = 1.
    let h = Scaling::Standardised.hessian();
    assert!(
        close(h.ww, 2.0, 1e-14) && h.wb.abs() < 1e-14 && h.bb == 2.0,
        "{h:?}"
    );
    assert!(close(Scaling::Standardised.max_stable_rate(), 1.0, 1e-14));
}

#[test]
fn just_below_the_stable_rate_converges_and_just_above_diverges() {
    for scaling in [Scaling::Raw, Scaling::Standardised] {
        let limit = scaling.max_stable_rate();
        let calm = run(START, 0.99 * limit, scaling, 2_000);
        assert_eq!(calm.status, Status::Running, "{scaling:?}");
        assert!(calm.losses[2_000] < calm.losses[0]);
        let wild = run(START, 1.01 * limit, scaling, 2_000);
        assert!(
            matches!(wild.status, Status::Diverged { .. }),
            "{scaling:?}"
        );
    }
}

#[test]
fn raw_areas_at_2e_7_crawl() {
    let descent = run(START, 2e-7, Scaling::Raw, 100);
    assert_eq!(descent.status, Status::Running);
    assert_eq!(descent.path.len(), 101);
    let last = descent.losses[100];
    // Far from the goal: the valley direction has barely moved (distance × (1 − 1e-8)¹⁰⁰).
    assert!(
        close(last, raw_error_after(START, 2e-7, 100), 1e-9),
        "{last}"
    );
    assert!(last > 690.0 && last < 691.0, "{last}");
    assert_eq!(descent.first_step_at_or_below(GOAL), None);
    // Every step agrees with the closed form.
    for (k, &loss) in descent.losses.iter().enumerate() {
        assert!(
            close(loss, raw_error_after(START, 2e-7, k as i32), 1e-9),
            "step {k}"
        );
    }
}

#[test]
fn raw_areas_at_3e_7_diverge_and_say_so_without_nan() {
    let descent = run(START, 3e-7, Scaling::Raw, 100);
    let expected = (1..).find(|&k| raw_error_after(START, 3e-7, k) > DIVERGENCE_BOUND);
    assert_eq!(expected, Some(19));
    assert_eq!(descent.status, Status::Diverged { step: 19 });
    assert_eq!(descent.path.len(), 19);
    assert!(descent
        .losses
        .iter()
        .all(|l| l.is_finite() && *l <= DIVERGENCE_BOUND));
    assert!(descent
        .path
        .iter()
        .all(|p| p.weight.is_finite() && p.bias.is_finite()));
    // The losses climb: the chart shows the blow-up.
    assert!(descent.losses[18] > 1e8 && descent.losses[18] > 100.0 * descent.losses[10]);
    // A diverged run stays stopped.
    let mut more = descent.clone();
    assert_eq!(more.advance(10), Status::Diverged { step: 19 });
    assert_eq!(more, descent);
}

#[test]
fn standardised_areas_at_0_1_reach_the_goal_in_11_steps() {
    let descent = run(START, 0.1, Scaling::Standardised, 25);
    let reached = descent.first_step_at_or_below(GOAL);
    assert_eq!(reached, Some(11));
    assert!(reached.is_some_and(|k| k <= 25));
    // The closed form: H = 2·I, so each step keeps (1 − 0.2)² = 0.64 of the excess.
    let excess0 = START.error() - min_error();
    let predicted = (0..).find(|&k| min_error() + excess0 * 0.64f64.powi(k) <= GOAL);
    assert_eq!(predicted, Some(11));
    for (k, &loss) in descent.losses.iter().enumerate() {
        assert!(
            close(loss - min_error(), excess0 * 0.64f64.powi(k as i32), 1e-6),
            "step {k}"
        );
    }
    // In the lab's coordinates each step shrinks the distance to the optimum by 0.8
    // along a straight line; the path is stored mapped back to (w, b).
    let lab = |p: Params| Scaling::Standardised.page_to_lab(p);
    let ((u_best, v_best), (u0, v0)) = (lab(optimum()), lab(START));
    for (k, &p) in descent.path.iter().enumerate() {
        let (u, v) = lab(p);
        let shrink = 0.8f64.powi(k as i32);
        assert!(
            close(u - u_best, (u0 - u_best) * shrink, 1e-6),
            "step {k}: {p:?}"
        );
        assert!(
            close(v - v_best, (v0 - v_best) * shrink, 1e-6),
            "step {k}: {p:?}"
        );
    }
}

#[test]
fn a_nan_or_absurd_rate_or_start_is_a_state_not_a_panic() {
    let nan = run(START, f64::NAN, Scaling::Standardised, 5);
    assert_eq!(nan.status, Status::Diverged { step: 1 });
    assert_eq!(nan.losses.len(), 1);
    let huge = run(START, 1e6, Scaling::Raw, 5);
    assert_eq!(huge.status, Status::Diverged { step: 1 });
    let zero = run(START, 0.0, Scaling::Raw, 5);
    assert_eq!((zero.status, zero.path[5]), (Status::Running, START));
    let lost = Descent::new(Params::new(f64::INFINITY, 0.0), 0.1, Scaling::Raw);
    assert_eq!(
        (lost.status, lost.current()),
        (Status::Diverged { step: 0 }, None)
    );
}

#[test]
fn the_bound_is_far_above_any_slider_position() {
    // The error is convex, so its largest value on the slider box is at a corner.
    let corners = |s: Slider| [s.min, s.max];
    let worst = corners(WEIGHT_SLIDER)
        .into_iter()
        .flat_map(|w| corners(BIAS_SLIDER).map(|b| (w, b)))
        .map(|(w, b)| Params::new(w, b).error())
        .fold(0.0, f64::max);
    assert!(worst > 8e5 && DIVERGENCE_BOUND > 1_000.0 * worst, "{worst}");
}

#[test]
fn the_rate_choices_are_a_log_scale_holding_the_defaults() {
    assert_eq!((LEARNING_RATES[0], LEARNING_RATES[24]), (1e-8, 1.0));
    for pair in LEARNING_RATES.windows(2) {
        let ratio = pair[1] / pair[0];
        assert!(
            close(ratio, 2.0, 1e-12) || close(ratio, 2.5, 1e-12),
            "{pair:?}"
        );
    }
    for scaling in [Scaling::Raw, Scaling::Standardised] {
        let rate = scaling.default_rate();
        assert!(LEARNING_RATES.contains(&rate) && rate < scaling.max_stable_rate());
    }
    // Raw: 2e-7 is the largest listed rate below the limit 2.35e-7.
    let limit = Scaling::Raw.max_stable_rate();
    let largest = LEARNING_RATES
        .iter()
        .copied()
        .filter(|&r| r < limit)
        .fold(0.0, f64::max);
    assert_eq!(largest, Scaling::Raw.default_rate());
    // Standardised: at 0.5 one step lands on the optimum (H = 2·I).
    let one = run(START, 0.5, Scaling::Standardised, 1);
    assert!(
        close(one.losses[1], min_error(), 1e-12),
        "{}",
        one.losses[1]
    );
}

#[test]
fn a_stall_is_a_small_relative_fall_above_the_goal_over_the_window() {
    let flat = [700.0; 11];
    assert!(stalled(&flat, 10, 1e-3, GOAL));
    // Too few steps to judge, at or below the goal, rising, or falling fast enough.
    assert!(!stalled(&flat[..10], 10, 1e-3, GOAL));
    assert!(!stalled(&[], 10, 1e-3, GOAL));
    assert!(!stalled(&[449.0; 11], 10, 1e-3, GOAL));
    assert!(!stalled(&[450.0; 11], 10, 1e-3, GOAL));
    let mut rising = flat;
    rising[10] = 700.5;
    assert!(!stalled(&rising, 10, 1e-3, GOAL));
    let mut falling = flat;
    falling[10] = 699.0; // 1 in 699 ≈ 0.14 %: still moving
    assert!(!stalled(&falling, 10, 1e-3, GOAL));
    falling[10] = 699.5; // 0.07 %
    assert!(stalled(&falling, 10, 1e-3, GOAL));
    // Only the last window counts: the fall from 800 is in it, then it is not.
    let mut late = vec![900.0, 800.0];
    late.extend([700.0; 10]);
    assert!(!stalled(&late, 10, 1e-3, GOAL));
    late.push(700.0);
    assert!(stalled(&late, 10, 1e-3, GOAL));
}

#[test]
fn raw_areas_at_the_default_rate_stall_at_step_18_on_the_plateau() {
    let rate = Scaling::Raw.default_rate();
    let mut descent = Descent::new(START, rate, Scaling::Raw);
    let mut first = None;
    for k in 1..=200 {
        descent.advance(1);
        if descent.stalled() && first.is_none() {
            first = Some(k);
        }
        // Once stalled, it stays so: the crawl only slows down.
        assert_eq!(descent.stalled(), first.is_some(), "step {k}");
    }
    assert_eq!((first, descent.stalled_since()), (Some(18), Some(18)));
    let at = descent.losses[18];
    assert!(at > 690.0 && at < 690.3, "{at}");
    // Why: along the valley each step keeps 1 − rate·λ_small of the distance.
    let small = Scaling::Raw.hessian().eigen().small;
    assert!(rate * small < 1e-7, "{}", rate * small);
}

#[test]
fn standardised_areas_at_their_default_rate_never_stall_before_the_goal() {
    let descent = run(START, 0.1, Scaling::Standardised, 11);
    for k in 0..=11 {
        assert!(
            !stalled(&descent.losses[..=k], STALL_WINDOW, STALL_GAIN, GOAL),
            "step {k}"
        );
    }
    // A rate far too small stalls there too, and a new rate gets a fresh window.
    let mut slow = run(START, 1e-6, Scaling::Standardised, STALL_WINDOW);
    assert!(slow.stalled());
    slow.set_rate(0.1);
    assert!(!slow.stalled());
    slow.set_rate(1e-6);
    slow.advance(STALL_WINDOW - 1);
    assert!(!slow.stalled());
    slow.advance(1);
    assert!(slow.stalled());
    assert_eq!(slow.stalled_since(), Some(2 * STALL_WINDOW));
    // Setting the same rate again is no change.
    slow.set_rate(1e-6);
    assert!(slow.stalled());
}

#[test]
fn the_lessons_promise_is_computed_from_jays_start() {
    // The lesson says: standardised, at the default rate 0.1, from Jay's start
    // (w 0.1, b 150), the goal in 11 steps; the lab fills {steps} from this.
    assert_eq!((START.weight, START.bias), (0.1, 150.0));
    assert_eq!(Scaling::Standardised.default_rate(), 0.1);
    assert_eq!(
        steps_to_goal(START, 0.1, Scaling::Standardised, 100),
        Some(11)
    );
    // Raw at its default rate never gets there in a thousand steps.
    assert_eq!(steps_to_goal(START, 2e-7, Scaling::Raw, 1_000), None);
}
