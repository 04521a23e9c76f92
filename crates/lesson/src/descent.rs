//! The gradient descent lab: steps with a learning rate (one for both parameters, or
//! one each), on raw or standardised areas, from a chosen start, with divergence
//! reported as a state. Pure math, both targets.
//!
//! The lab fits `price = u·x + v` where `x` is the area itself (raw) or the
//! standardised area `(area − mean)/std` (mean 2034.67 sq ft, population std 330.26).
//! One step is `(u, v) ← (u − rate_w·∂u, v − rate_b·∂v)`, both partial derivatives
//! taken at the same point (a simultaneous update). After each step the parameters
//! are mapped back to the page's (weight, bias) (`w = u/std`, `b = v − u·mean/std`),
//! so the path is drawn on the same landscape whatever the scaling.
//!
//! **Which gradient a rate multiplies** ([`Convention`]). The page's error `E` is the
//! mean squared error of [`crate::neuron`], so `∂E/∂u = −2·mean(x·r)` and
//! `∂E/∂v = −2·mean(r)` with `r = price − prediction`. The lab's single rate (the
//! slider, [`Rates::one`]) multiplies that gradient, and every number below is on it.
//! Jay's `simple_nn.js` multiplies `mean((prediction − price)·area)` and
//! `mean(prediction − price)`: the gradient of HALF the error, `E/2`, the
//! textbooks' convention. His rates ([`Rates::JAY`]: 1e-8 for the weight, 1 for the
//! bias) are therefore kept on that convention, [`Convention::HalfMse`]; on the
//! page's gradient they would be 5e-9 and 0.5 ([`Rates::on_mse`]). From his start
//! (0, 0) they give w 0.0075, b 366.27 (error 964.54) after one step, w 0.0077,
//! b 350.71 (728.64) after 10, and w 0.0123, b 341.40 (680.27) after 100: see the
//! tests in `descent/jays_rates.rs`, which re-run his loop on its own.
//!
//! Why he needed two rates: on raw areas the error curves `mean(area²)` ≈ 4.2
//! million times more sharply along the weight than along the bias. His bias rate 1
//! is exactly one Newton step on `E/2` (the bias's curvature there is 1), so the bias
//! lands on the best bias for the current weight in one step; his weight rate 1e-8
//! makes the pair stable (the Hessian of `E/2` scaled by the two rates has
//! eigenvalues 1.04 and 0.00105, both below 2) but slow along the valley: the excess
//! error halves only every 330 steps or so. One rate for both either blows the
//! weight up (0.5 on `E`: diverged at step 1) or leaves the bias where it is (5e-9:
//! it moves by 0.000004).
//!
//! On a quadratic, gradient descent with one rate multiplies the distance to the
//! optimum along each eigenvector of the Hessian by `1 − rate·λ`, so it is stable only
//! while `rate < 2/λ_max` and the slowest direction shrinks by `1 − rate·λ_min` per
//! step. Raw: λ 8.5 million and 0.0513 ([`crate::landscape`]), so
//! `rate < 2.35e-7`, and along the valley each step shrinks the distance by 1 part in
//! 10⁸: it crawls. Standardised, the Hessian is exactly `2·I`: any rate below 1 is
//! stable and at 0.1 every step multiplies the excess error by 0.64, so from Jay's
//! start (799.09) the goal 450 is reached in 11 steps. (The "about 20"
//! assumes the half-MSE convention, whose gradient is half as steep.)
//!
//! A run that crawls is said to have *stalled* ([`stalled`]): over the last
//! [`STALL_WINDOW`] steps at the current rate its error fell by less than
//! [`STALL_GAIN`] of itself while still above the goal. Raw at 2e-7 from Jay's
//! start that happens at step 18, on the plateau near 690.

mod rates;

pub use self::rates::{Convention, Rates};

use crate::{
    landscape::Symmetric2,
    neuron::{Params, GOAL, HOUSES, START},
};

/// Jay's gradient-descent start: w 0, b 0 (his second interactive, the one with
/// the "GD Step" buttons; his first starts at [`START`]).
pub const ORIGIN: Params = Params::new(0.0, 0.0);

/// Where a run of the lab starts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Start {
    /// [`ORIGIN`], as Jay's gradient descent does.
    Origin,
    /// [`START`] (w 0.1, b 150), where Jay's guide and the page start.
    #[default]
    Jays,
    /// The model's point when the visitor chose it (or last reset the lab).
    Model(Params),
}

impl Start {
    #[must_use]
    #[inline]
    pub fn point(self) -> Params {
        match self {
            Self::Origin => ORIGIN,
            Self::Jays => START,
            Self::Model(p) => p,
        }
    }
}

/// A loss above this ($1000² of error) means the run has diverged: over 1 000 times
/// the worst error any slider position gives (about 8.4 × 10⁵, at w 0.4, b 460).
pub const DIVERGENCE_BOUND: f64 = 1e9;

/// The learning rates offered, on a 1–2–5 log scale from 1e-8 to 1 (raw areas need
/// about 1e-7, standardised ones about 0.1).
pub const LEARNING_RATES: [f64; 25] = [
    1e-8, 2e-8, 5e-8, 1e-7, 2e-7, 5e-7, 1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3,
    2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1.0,
];

/// What the lab feeds the neuron.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scaling {
    /// The areas in square feet.
    Raw,
    /// `(area − mean)/std`.
    Standardised,
}

impl Scaling {
    /// A good first choice of rate. Raw: 2e-7, the largest listed rate below the
    /// stable limit. Standardised: 0.1, a pace one can watch (at 0.5 a single step
    /// lands on the optimum, since the Hessian is `2·I`).
    #[must_use]
    #[inline]
    pub fn default_rate(self) -> f64 {
        match self {
            Self::Raw => 2e-7,
            Self::Standardised => 0.1,
        }
    }

    /// `(mean, std)` subtracted from and dividing the area: raw `(0, 1)`,
    /// standardised `(2034.67, 330.26)` sq ft (the lab's hint quotes them).
    #[must_use]
    #[inline]
    pub fn shift_and_scale(self) -> (f64, f64) {
        match self {
            Self::Raw => (0.0, 1.0),
            Self::Standardised => {
                let n = HOUSES.len() as f64;
                let mean = HOUSES.iter().map(|h| h.area).sum::<f64>() / n;
                let var = HOUSES.iter().map(|h| (h.area - mean).powi(2)).sum::<f64>() / n;
                (mean, var.sqrt())
            }
        }
    }

    /// The page's (w, b) as the lab's (u, v).
    fn page_to_lab(self, p: Params) -> (f64, f64) {
        let (mean, std) = self.shift_and_scale();
        (p.weight * std, p.bias + p.weight * mean)
    }

    /// The lab's (u, v) as the page's (w, b).
    fn lab_to_page(self, u: f64, v: f64) -> Params {
        let (mean, std) = self.shift_and_scale();
        Params::new(u / std, v - u * mean / std)
    }

    /// The Hessian of the error in the lab's (u, v): `2·[[mean(x²), mean(x)], [mean(x), 1]]`.
    #[must_use]
    #[inline]
    pub fn hessian(self) -> Symmetric2 {
        let (mean, std) = self.shift_and_scale();
        let n = HOUSES.len() as f64;
        let xs = HOUSES.map(|h| (h.area - mean) / std);
        Symmetric2 {
            ww: 2.0 * xs.iter().map(|x| x * x).sum::<f64>() / n,
            wb: 2.0 * xs.iter().sum::<f64>() / n,
            bb: 2.0,
        }
    }

    /// The largest stable learning rate, `2/λ_max`: raw 2.35e-7, standardised 1.
    #[must_use]
    #[inline]
    pub fn max_stable_rate(self) -> f64 {
        2.0 / self.hessian().eigen().large
    }
}

/// One gradient step from `point` at `rates`, returned as page parameters. Both
/// partial derivatives are taken at `point` (a simultaneous update); on raw areas
/// the arithmetic is Jay's, operation for operation.
#[must_use]
#[inline]
pub fn step(point: Params, rates: Rates, scaling: Scaling) -> Params {
    let (mean, std) = scaling.shift_and_scale();
    let (u, v) = scaling.page_to_lab(point);
    let (mut sum_xr, mut sum_r) = (0.0, 0.0);
    for h in HOUSES {
        let x = (h.area - mean) / std;
        let residual = h.price - (u * x + v);
        sum_xr += x * residual;
        sum_r += residual;
    }
    let (n, k) = (HOUSES.len() as f64, rates.convention.factor());
    let (grad_u, grad_v) = (-k * sum_xr / n, -k * sum_r / n);
    scaling.lab_to_page(u - rates.weight * grad_u, v - rates.bias * grad_v)
}

/// How many steps a stall is judged over.
pub const STALL_WINDOW: usize = 10;

/// Over [`STALL_WINDOW`] steps the error must fall by at least this fraction of
/// itself (0.1 %), or the run has stalled.
pub const STALL_GAIN: f64 = 1e-3;

/// Whether the run whose errors are `losses` (one per point, the latest last) has
/// stalled: over its last `window` steps the error fell, but by less than
/// `min_gain` of itself, and it is still above `goal`. A run with fewer than
/// `window` steps has not stalled, nor has one at or below the goal, nor one whose
/// error rose (that one is heading for divergence, not crawling).
#[must_use]
#[inline]
pub fn stalled(losses: &[f64], window: usize, min_gain: f64, goal: f64) -> bool {
    let Some(&last) = losses.last() else {
        return false;
    };
    let Some(&before) = losses
        .len()
        .checked_sub(window + 1)
        .and_then(|i| losses.get(i))
    else {
        return false;
    };
    last > goal && last <= before && before - last < min_gain * last
}

/// Whether a run can go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    /// Step `step` gave a non-finite point or a loss above [`DIVERGENCE_BOUND`]; that
    /// step is not recorded and the run stops.
    Diverged {
        step: usize,
    },
}

/// A run of the lab: the rates and scaling (the page may change the rate between
/// steps, with [`Descent::set_rate`]), the path from the start and the loss at each
/// point. `path` and `losses` have the same length and hold only finite values.
#[derive(Clone, Debug, PartialEq)]
pub struct Descent {
    pub rates: Rates,
    pub scaling: Scaling,
    pub path: Vec<Params>,
    pub losses: Vec<f64>,
    pub status: Status,
    /// The index in `losses` from which the current rate applies (a stall is
    /// judged on those steps only: a new rate gets a fresh chance).
    rate_since: usize,
}

impl Descent {
    #[must_use]
    pub fn new(start: Params, rates: impl Into<Rates>, scaling: Scaling) -> Self {
        let loss = start.error();
        let ok = start.weight.is_finite()
            && start.bias.is_finite()
            && loss.is_finite()
            && loss <= DIVERGENCE_BOUND;
        Self {
            rates: rates.into(),
            scaling,
            path: if ok { vec![start] } else { Vec::new() },
            losses: if ok { vec![loss] } else { Vec::new() },
            status: if ok {
                Status::Running
            } else {
                Status::Diverged { step: 0 }
            },
            rate_since: 0,
        }
    }

    /// Goes on at one rate `rate` for both parameters from the current point.
    #[inline]
    pub fn set_rate(&mut self, rate: f64) {
        let rates = Rates::one(rate);
        if rates != self.rates {
            self.rates = rates;
            self.rate_since = self.losses.len().saturating_sub(1);
        }
    }

    /// Whether the run has stalled at its current rate ([`stalled`] with the
    /// lab's window, gain and the goal).
    #[must_use]
    #[inline]
    pub fn stalled(&self) -> bool {
        self.status == Status::Running
            && stalled(
                self.losses.get(self.rate_since..).unwrap_or_default(),
                STALL_WINDOW,
                STALL_GAIN,
                GOAL,
            )
    }

    /// The latest point (`None` only if the start itself was out of bounds).
    #[must_use]
    #[inline]
    pub fn current(&self) -> Option<Params> {
        self.path.last().copied()
    }

    /// Up to `steps` more steps; stops at divergence. Returns the status.
    pub fn advance(&mut self, steps: usize) -> Status {
        for _ in 0..steps {
            let (Status::Running, Some(point)) = (self.status, self.current()) else {
                break;
            };
            let next = step(point, self.rates, self.scaling);
            let loss = next.error();
            let finite = next.weight.is_finite() && next.bias.is_finite() && loss.is_finite();
            if !finite || loss > DIVERGENCE_BOUND {
                self.status = Status::Diverged {
                    step: self.path.len(),
                };
            } else {
                self.path.push(next);
                self.losses.push(loss);
            }
        }
        self.status
    }

    /// The step at which the run, stalled now, first counted as stalled at its
    /// current rate (`None` if it has not stalled).
    #[must_use]
    #[inline]
    pub fn stalled_since(&self) -> Option<usize> {
        if !self.stalled() {
            return None;
        }
        let losses = self.losses.get(self.rate_since..).unwrap_or_default();
        (STALL_WINDOW..losses.len())
            .find(|&k| stalled(&losses[..=k], STALL_WINDOW, STALL_GAIN, GOAL))
            .map(|k| self.rate_since + k)
    }

    /// The first step whose loss is at or below `level` (0 = the start).
    #[must_use]
    #[inline]
    pub fn first_step_at_or_below(&self, level: f64) -> Option<usize> {
        self.losses.iter().position(|&loss| loss <= level)
    }
}

/// How many steps a run from `start` at `rates` takes to reach the goal, if it
/// does within `max_steps` (what the lesson promises for standardised areas).
#[must_use]
#[inline]
pub fn steps_to_goal(
    start: Params,
    rates: impl Into<Rates>,
    scaling: Scaling,
    max_steps: usize,
) -> Option<usize> {
    run(start, rates, scaling, max_steps).first_step_at_or_below(GOAL)
}

/// A fresh run of up to `steps` steps.
#[must_use]
#[inline]
pub fn run(start: Params, rates: impl Into<Rates>, scaling: Scaling, steps: usize) -> Descent {
    let mut descent = Descent::new(start, rates, scaling);
    descent.advance(steps);
    descent
}

#[cfg(test)]
mod jays_rates;
#[cfg(test)]
mod tests;
