//! Gradient descent on any described lesson ([`Lesson`]): the lab of the
//! lessons after the first (lesson 1 keeps its own, [`crate::descent`],
//! which this agrees with on its two parameters).
//!
//! Three ways to step ([`Scheme`]):
//! - **Jay's rates**: one rate per parameter, multiplying the gradient of
//!   *half* the mean squared error on the raw inputs, as his `simple_nn.js`
//!   does (lesson 2: 1e-8 for the area's weight, 0.01 for the bathrooms',
//!   1 for the bias). Stable, but the area's weight crawls: from (0, 0, 0)
//!   the error is 10,435.35 after one step, 5,479.20 after 100, and below
//!   1,420 only at step 2,506.
//! - **One rate, standardised inputs**: each input measured from its mean in
//!   its standard deviations, one rate on the error's gradient there; the
//!   parameters are mapped back to the page's after each step, so the path
//!   is the page's. The error's curvature is then alike along every
//!   direction: stable below a rate of 0.612 in lesson 2, and 0.1 reaches
//!   the goal from Jay's start in 23 steps.
//! - **One rate, raw inputs**: the areas (about 2,000) make the error
//!   millions of times steeper along the area's weight, so a rate must be
//!   tiny (below 2.76e-7 in lesson 2) and then the others barely move.
//!
//! On a quadratic, a step multiplies the distance to the optimum along each
//! eigenvector of the (rate-scaled) Hessian by `1 − rate·λ`: stable while
//! `rate·λ < 2`, slow along the smallest `λ` (Goh, "Why Momentum Really
//! Works", Distill 2017). A run *stalls* when over [`STALL_WINDOW`] steps
//! its error fell by less than [`STALL_GAIN`] of itself, above the goal; it
//! *diverges* when the error passes [`DIVERGED`] or stops being a number.

use crate::description::Lesson;

/// The steps a stall is judged over.
pub const STALL_WINDOW: usize = 50;
/// Less than this share of the error won over the window is a stall.
pub const STALL_GAIN: f64 = 0.001;
/// Past this error a run has diverged.
pub const DIVERGED: f64 = 1e12;

/// How the lab steps.
#[derive(Clone, Debug, PartialEq)]
pub enum Scheme {
    /// One rate per parameter on half the error's gradient, raw inputs.
    PerParameter(Vec<f64>),
    /// One rate on the error's gradient over standardised inputs.
    Standardised(f64),
    /// One rate on the error's gradient over the raw inputs.
    Raw(f64),
}

/// Jay's rates for lesson 2 (his page's hidden ones).
pub const JAYS_RATES_TWO: [f64; 3] = [1e-8, 0.01, 1.0];

/// A run of the lab.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub lesson: &'static Lesson,
    pub scheme: Scheme,
    /// The current point, in the page's parameters.
    pub point: Vec<f64>,
    /// The error at the start and after each step.
    pub errors: Vec<f64>,
    /// The step it diverged at, if it did (it then stops).
    pub diverged: Option<usize>,
}

impl Run {
    #[must_use]
    pub fn new(lesson: &'static Lesson, scheme: Scheme, start: &[f64]) -> Self {
        Self {
            lesson,
            scheme,
            point: start.to_vec(),
            errors: vec![lesson.error(start)],
            diverged: None,
        }
    }

    /// Steps taken so far.
    #[must_use]
    pub fn steps(&self) -> usize {
        self.errors.len() - 1
    }

    /// The error now.
    #[must_use]
    pub fn error(&self) -> f64 {
        self.errors.last().copied().unwrap_or(f64::NAN)
    }

    /// Takes up to `n` steps (none once diverged).
    pub fn step(&mut self, n: usize) {
        for _ in 0..n {
            if self.diverged.is_some() {
                return;
            }
            self.point = self.next();
            let error = self.lesson.error(&self.point);
            self.errors.push(error);
            if !error.is_finite() || error > DIVERGED {
                self.diverged = Some(self.steps());
            }
        }
    }

    /// The first step at which the error was below `goal`.
    #[must_use]
    pub fn reached(&self, goal: f64) -> Option<usize> {
        self.errors.iter().position(|e| *e < goal)
    }

    /// Whether the run crawls: over the last [`STALL_WINDOW`] steps it won
    /// less than [`STALL_GAIN`] of its error, still at or above `goal`.
    #[must_use]
    pub fn stalled(&self, goal: f64) -> bool {
        let n = self.errors.len();
        n > STALL_WINDOW && self.diverged.is_none() && self.error() >= goal && {
            let before = self.errors[n - 1 - STALL_WINDOW];
            before - self.error() < STALL_GAIN * before
        }
    }

    /// The point after one step.
    fn next(&self) -> Vec<f64> {
        let lesson = self.lesson;
        let p = &self.point;
        match &self.scheme {
            Scheme::PerParameter(rates) => {
                // Half the error's gradient: the page's gradient / 2.
                let g = lesson.gradient(p);
                p.iter()
                    .zip(&g)
                    .zip(rates)
                    .map(|((v, g), r)| v - r * g / 2.0)
                    .collect()
            }
            Scheme::Raw(rate) => {
                let g = lesson.gradient(p);
                p.iter().zip(&g).map(|(v, g)| v - rate * g).collect()
            }
            Scheme::Standardised(rate) => {
                let scale = Scale::of(lesson);
                let u = scale.to_standard(p);
                let g = scale.gradient(lesson, &u);
                let stepped: Vec<f64> = u.iter().zip(&g).map(|(v, g)| v - rate * g).collect();
                scale.to_page(&stepped)
            }
        }
    }
}

/// Each input's mean and (population) standard deviation.
#[derive(Clone, Debug, PartialEq)]
pub struct Scale {
    pub mean: Vec<f64>,
    pub std: Vec<f64>,
}

impl Scale {
    #[must_use]
    pub fn of(lesson: &Lesson) -> Self {
        let n = lesson.examples.len().max(1) as f64;
        let k = lesson.inputs.len();
        let mean: Vec<f64> = (0..k)
            .map(|i| lesson.examples.iter().map(|e| e.inputs[i]).sum::<f64>() / n)
            .collect();
        let std = (0..k)
            .map(|i| {
                let var = lesson
                    .examples
                    .iter()
                    .map(|e| (e.inputs[i] - mean[i]).powi(2))
                    .sum::<f64>()
                    / n;
                var.sqrt().max(f64::MIN_POSITIVE)
            })
            .collect();
        Self { mean, std }
    }

    /// The page's `[w…, b]` as the standardised model's `[u…, v]`:
    /// `u = w·std`, `v = b + Σ w·mean`.
    #[must_use]
    pub fn to_standard(&self, p: &[f64]) -> Vec<f64> {
        let k = self.mean.len();
        let mut u: Vec<f64> = (0..k).map(|i| p[i] * self.std[i]).collect();
        u.push(p[k] + (0..k).map(|i| p[i] * self.mean[i]).sum::<f64>());
        u
    }

    /// Back: `w = u/std`, `b = v − Σ u·mean/std`.
    #[must_use]
    pub fn to_page(&self, u: &[f64]) -> Vec<f64> {
        let k = self.mean.len();
        let mut p: Vec<f64> = (0..k).map(|i| u[i] / self.std[i]).collect();
        p.push(
            u[k] - (0..k)
                .map(|i| u[i] * self.mean[i] / self.std[i])
                .sum::<f64>(),
        );
        p
    }

    /// The error's gradient with respect to the standardised parameters.
    fn gradient(&self, lesson: &Lesson, u: &[f64]) -> Vec<f64> {
        let n = lesson.examples.len().max(1) as f64;
        let k = self.mean.len();
        let mut g = vec![0.0; k + 1];
        for e in lesson.examples {
            let z: Vec<f64> = (0..k)
                .map(|i| (e.inputs[i] - self.mean[i]) / self.std[i])
                .collect();
            let r = z.iter().zip(u).map(|(z, u)| z * u).sum::<f64>() + u[k] - e.target;
            for (gi, zi) in g.iter_mut().zip(z.iter().chain([&1.0])) {
                *gi += 2.0 * r * zi / n;
            }
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons::{GOAL_TWO, TWO};

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn jays_rates_from_jays_start_as_his_page_has_them() {
        let mut run = Run::new(
            &TWO,
            Scheme::PerParameter(JAYS_RATES_TWO.to_vec()),
            &[0.0, 0.0, 0.0],
        );
        assert!(close(run.error(), 108_268.39, 0.01), "{}", run.error());
        run.step(1);
        assert!(close(run.error(), 10_435.35, 0.01), "{}", run.error());
        run.step(9);
        assert!(close(run.error(), 8_343.15, 0.01), "{}", run.error());
        run.step(90);
        assert!(close(run.error(), 5_479.20, 0.01), "{}", run.error());
        run.step(2500);
        assert_eq!(run.reached(GOAL_TWO), Some(2506));
        assert!(run.diverged.is_none());
    }

    #[test]
    fn standardised_one_rate_reaches_the_goal_in_a_few_dozen_steps() {
        let start = [0.1, 0.0, 150.0];
        let mut at_01 = Run::new(&TWO, Scheme::Standardised(0.1), &start);
        at_01.step(100);
        assert_eq!(at_01.reached(GOAL_TWO), Some(23));
        let mut at_03 = Run::new(&TWO, Scheme::Standardised(0.3), &start);
        at_03.step(20);
        assert_eq!(at_03.reached(GOAL_TWO), Some(7));
        let mut too_big = Run::new(&TWO, Scheme::Standardised(0.62), &start);
        too_big.step(2000);
        assert!(too_big.diverged.is_some());
        // The map back is exact.
        let scale = Scale::of(&TWO);
        let p = [0.18, -7.0, 12.0];
        let back = scale.to_page(&scale.to_standard(&p));
        assert!(p.iter().zip(&back).all(|(a, b)| close(*a, *b, 1e-9)));
    }

    #[test]
    fn raw_inputs_with_one_rate_diverge_or_stall() {
        let start = [0.1, 0.0, 150.0];
        let mut fast = Run::new(&TWO, Scheme::Raw(2.8e-7), &start);
        fast.step(500);
        assert!(fast.diverged.is_some(), "above 2.76e-7");
        let mut slow = Run::new(&TWO, Scheme::Raw(2e-7), &start);
        slow.step(300);
        assert!(
            slow.diverged.is_none() && slow.stalled(GOAL_TWO),
            "{}",
            slow.error()
        );
    }
}
