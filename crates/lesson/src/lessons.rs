//! The guide's lessons as [`Lesson`] descriptions: the first (one input:
//! the area of three houses; its own math in [`crate::neuron`], which this
//! description agrees with) and the second, Jay's "And Then There Were Two":
//! ten houses, their area and bathrooms.
//!
//! Lesson 2 in numbers (exact, prices in $1000): from the start (w1 0.1,
//! w2 0, b 150) the error is 3,431.91; the best line of the area alone
//! (w2 = 0) is 1,423.44, so the goal, **below 1,420**, needs the bathrooms,
//! and a negative weight for them: the least-squares point is w1 0.18613,
//! w2 −10.01238, b 3.57538, error 1,406.05.

use crate::{
    contour::LADDER_ABOVE_FLOOR,
    description::{Example, Lesson, Loss, Param},
    neuron::{BIAS_SLIDER, GOAL, HOUSES, START, WEIGHT_SLIDER},
};

const fn house(inputs: &'static [f64], target: f64) -> Example {
    Example { inputs, target }
}

/// Which lesson a page, a request or a record is about.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Which {
    /// One input (`/`).
    #[default]
    One,
    /// Two inputs (`/two`).
    Two,
}

impl Which {
    /// Every lesson, in the guide's order (`which as usize` indexes it).
    pub const ALL: [Which; 2] = [Which::One, Which::Two];

    /// The lesson's description.
    #[must_use]
    pub fn describe(self) -> &'static Lesson {
        match self {
            Which::One => &ONE,
            Which::Two => &TWO,
        }
    }

    /// Its number in the guide (1, 2): what `lesson=` names.
    #[must_use]
    pub fn number(self) -> u8 {
        self.describe().number
    }

    /// The lesson numbered `n`.
    #[must_use]
    pub fn from_number(n: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|w| w.number() == n)
    }

    /// The goal: an error below it (lesson 1: at or below 450) wins.
    #[must_use]
    pub fn reaches_goal(self, error: f64) -> bool {
        match self {
            Which::One => crate::neuron::reaches_goal(error),
            Which::Two => error < GOAL_TWO,
        }
    }

    /// The lowest error any point reaches, as printed (the ladder's last rung).
    #[must_use]
    pub fn floor(self) -> f64 {
        self.describe().ladder.last().copied().unwrap_or(0.0)
    }
}

/// Lesson 1: one input, Jay's first interactives.
pub static ONE: Lesson = Lesson {
    number: 1,
    inputs: &["area"],
    examples: &[
        house(&[HOUSES[0].area], HOUSES[0].price),
        house(&[HOUSES[1].area], HOUSES[1].price),
        house(&[HOUSES[2].area], HOUSES[2].price),
    ],
    params: &[
        Param {
            key: "w",
            min: WEIGHT_SLIDER.min,
            max: WEIGHT_SLIDER.max,
            step: WEIGHT_SLIDER.step,
            start: START.weight,
        },
        Param {
            key: "b",
            min: BIAS_SLIDER.min,
            max: BIAS_SLIDER.max,
            step: BIAS_SLIDER.step,
            start: START.bias,
        },
    ],
    loss: Loss::MeanSquared,
    goal: GOAL,
    ladder: &[
        LADDER_ABOVE_FLOOR[0],
        LADDER_ABOVE_FLOOR[1],
        LADDER_ABOVE_FLOOR[2],
        LADDER_ABOVE_FLOOR[3],
        LADDER_ABOVE_FLOOR[4],
        FLOOR_ONE,
    ],
};

/// Lesson 1's floor: no line does better (the ladder's last rung).
pub const FLOOR_ONE: f64 = 447.29;

/// Lesson 2's goal: below the best the area alone can do (1,423.44).
pub const GOAL_TWO: f64 = 1420.0;
/// The best error of the area alone, and lesson 2's floor.
pub const AREA_ALONE: f64 = 1423.44;
pub const FLOOR_TWO: f64 = 1406.05;

/// Lesson 2: two inputs, Jay's "And Then There Were Two".
pub static TWO: Lesson = Lesson {
    number: 2,
    inputs: &["area", "bathrooms"],
    examples: &[
        house(&[2104.0, 3.0], 399.9),
        house(&[1600.0, 3.0], 329.9),
        house(&[2400.0, 3.0], 369.0),
        house(&[1416.0, 2.0], 232.0),
        house(&[3000.0, 4.0], 539.9),
        house(&[1985.0, 4.0], 299.9),
        house(&[1534.0, 3.0], 314.9),
        house(&[1427.0, 3.0], 198.999),
        house(&[1380.0, 3.0], 212.0),
        house(&[1494.0, 3.0], 242.5),
    ],
    // Jay's ranges; steps fine enough to reach the goal's island by hand.
    params: &[
        Param {
            key: "w1",
            min: -0.4,
            max: 0.4,
            step: 0.0001,
            start: 0.1,
        },
        Param {
            key: "w2",
            min: -100.0,
            max: 200.0,
            step: 0.1,
            start: 0.0,
        },
        Param {
            key: "b",
            min: -100.0,
            max: 300.0,
            step: 0.1,
            start: 150.0,
        },
    ],
    loss: Loss::MeanSquared,
    goal: GOAL_TWO,
    ladder: &[5000.0, 2000.0, 1500.0, AREA_ALONE, GOAL_TWO, FLOOR_TWO],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuron::Params;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn lesson_two_in_jays_numbers() {
        let start: Vec<f64> = TWO.params.iter().map(|p| p.start).collect();
        assert!(
            close(TWO.error(&start), 3431.91, 0.005),
            "{}",
            TWO.error(&start)
        );
        let best = TWO.optimum().expect("the inputs fix the parameters");
        assert!(close(best[0], 0.18613, 5e-6), "{best:?}");
        assert!(close(best[1], -10.01238, 5e-6), "{best:?}");
        assert!(close(best[2], 3.57538, 5e-6), "{best:?}");
        assert!(close(TWO.error(&best), FLOOR_TWO, 0.005));
        let area_alone = TWO.optimum_with(1).expect("area alone");
        assert_eq!(area_alone[1], 0.0, "no bathrooms");
        assert!(close(TWO.error(&area_alone), AREA_ALONE, 0.005));
        // The goal needs the bathrooms: the area alone cannot get below it.
        assert!(TWO.error(&area_alone) > GOAL_TWO && TWO.error(&best) < GOAL_TWO);
        assert!(TWO.ladder.windows(2).all(|w| w[0] > w[1]), "highest first");
        for (p, best) in TWO.params.iter().zip(&best) {
            assert!((p.min..=p.max).contains(&p.start), "{p:?}");
            assert!(
                (p.min..=p.max).contains(best),
                "the floor is on the sliders: {p:?}"
            );
        }
    }

    #[test]
    fn the_gradient_vanishes_at_the_optimum_and_the_bias_splits_off() {
        let best = TWO.optimum().expect("optimum");
        assert!(
            TWO.gradient(&best).iter().all(|g| g.abs() < 1e-6),
            "{:?}",
            TWO.gradient(&best)
        );
        // Any weights: the error is their part plus (b − best bias)².
        let (w1, w2) = (0.12, 7.0);
        let b_star = TWO.best_bias(&[w1, w2, 0.0]);
        for b in [-50.0, 0.0, b_star, 220.0] {
            let split = TWO.error(&[w1, w2, b_star]) + (b - b_star).powi(2);
            assert!(close(TWO.error(&[w1, w2, b]), split, 1e-6), "b {b}");
        }
        // A finite difference agrees with the gradient.
        let p = [0.1, 3.0, 120.0];
        let g = TWO.gradient(&p);
        for (i, h) in [(0, 1e-6), (1, 1e-4), (2, 1e-4)] {
            let mut q = p;
            q[i] += h;
            let numeric = (TWO.error(&q) - TWO.error(&p)) / h;
            assert!(
                close(numeric, g[i], 1e-2 * g[i].abs().max(1.0)),
                "{i}: {numeric} vs {}",
                g[i]
            );
        }
    }

    #[test]
    fn lesson_one_described_agrees_with_its_own_math() {
        for (w, b) in [(0.1, 150.0), (0.0584879, 247.26327), (0.3, 0.0)] {
            let p = Params::new(w, b);
            assert!(close(ONE.error(&[w, b]), p.error(), 1e-9));
        }
        let best = ONE.optimum().expect("optimum");
        assert!(close(ONE.error(&best), FLOOR_ONE, 0.005));
        assert!(close(best[0], 0.0584879, 5e-7) && close(best[1], 247.26327, 5e-5));
    }
}
