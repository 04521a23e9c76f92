//! A lesson as data: its houses, its parameters (each with its range, step
//! and start), its goal and ladder, and the math every lesson of Jay
//! Alammar's guide shares, for any number of inputs: a neuron that weighs
//! each input and adds a bias, and the mean of the squared errors
//! ([`Lesson::error`]), its gradient, its exact minimum (ordinary least
//! squares by the normal equations) and the best bias for given weights.
//!
//! The page, the descent lab, the coach and the insights read a lesson's
//! description instead of knowing its houses: the next lesson is a
//! description and its own panel. Jay's classifier (his third interactive:
//! the same ten houses labelled good or bad, a sigmoid neuron, log loss) is
//! a [`Loss`] of its own and a sigmoid on the output; the rest of a
//! description (inputs, parameters, goal, ladder) serves it unchanged.
//!
//! Parameters are in a slice, the weights in the inputs' order and the bias
//! last (`[w1, w2, b]`). Pure: no I/O, no words.

/// One parameter of a lesson: a weight or the bias, as its slider has it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Its key in a link and a request (`w1`, `w2`, `b`).
    pub key: &'static str,
    pub min: f64,
    pub max: f64,
    /// The slider's fine step (the number box takes any value in range).
    pub step: f64,
    /// Where the lesson starts.
    pub start: f64,
}

/// One house: its inputs (in the lesson's order) and its price ($1000).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    pub inputs: &'static [f64],
    pub target: f64,
}

/// What a lesson's error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// The mean of the squared differences between prediction and price.
    MeanSquared,
}

/// A lesson of the guide, described.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lesson {
    /// Its number in the guide's order (1: one input; 2: two).
    pub number: u8,
    /// The inputs' keys (`area`, `bathrooms`).
    pub inputs: &'static [&'static str],
    pub examples: &'static [Example],
    /// The weights in the inputs' order, then the bias.
    pub params: &'static [Param],
    pub loss: Loss,
    /// The visitor wins at or below it.
    pub goal: f64,
    /// The goal ladder's rungs, highest first (the goal and the floor among them).
    pub ladder: &'static [f64],
}

impl Lesson {
    /// The prediction for `inputs` at `params` (weights, then the bias).
    #[must_use]
    pub fn predict(&self, params: &[f64], inputs: &[f64]) -> f64 {
        let bias = params.last().copied().unwrap_or(0.0);
        inputs.iter().zip(params).map(|(x, w)| x * w).sum::<f64>() + bias
    }

    /// The error at `params`.
    #[must_use]
    pub fn error(&self, params: &[f64]) -> f64 {
        match self.loss {
            Loss::MeanSquared => {
                let n = self.examples.len().max(1) as f64;
                self.examples
                    .iter()
                    .map(|e| (self.predict(params, e.inputs) - e.target).powi(2))
                    .sum::<f64>()
                    / n
            }
        }
    }

    /// The error's gradient at `params` (one entry per parameter).
    #[must_use]
    pub fn gradient(&self, params: &[f64]) -> Vec<f64> {
        let n = self.examples.len().max(1) as f64;
        let mut grad = vec![0.0; self.params.len()];
        for e in self.examples {
            let residual = self.predict(params, e.inputs) - e.target;
            for (g, x) in grad.iter_mut().zip(e.inputs.iter().chain([&1.0])) {
                *g += 2.0 * residual * x / n;
            }
        }
        grad
    }

    /// The bias that makes the error least for the weights of `params`
    /// (its bias is ignored): the mean of what the weights leave unexplained.
    /// The error then splits exactly into a part of the weights alone and
    /// `(b − best bias)²`.
    #[must_use]
    pub fn best_bias(&self, params: &[f64]) -> f64 {
        let n = self.examples.len().max(1) as f64;
        let weights = &params[..params.len().saturating_sub(1)];
        self.examples
            .iter()
            .map(|e| {
                e.target
                    - e.inputs
                        .iter()
                        .zip(weights)
                        .map(|(x, w)| x * w)
                        .sum::<f64>()
            })
            .sum::<f64>()
            / n
    }

    /// The parameters with the least error (ordinary least squares, by the
    /// normal equations), `None` if the inputs do not fix them.
    #[must_use]
    pub fn optimum(&self) -> Option<Vec<f64>> {
        self.optimum_of(self.params.len())
    }

    /// The least-squares parameters using only the first `weights` inputs
    /// (the rest held at 0) and the bias: `optimum_with(1)` in lesson 2 is
    /// the best line of area alone.
    #[must_use]
    pub fn optimum_with(&self, weights: usize) -> Option<Vec<f64>> {
        let mut best = self.optimum_of(weights + 1)?;
        let bias = best.pop()?;
        best.resize(self.params.len() - 1, 0.0);
        best.push(bias);
        Some(best)
    }

    /// Least squares over the first `k − 1` inputs and the bias.
    fn optimum_of(&self, k: usize) -> Option<Vec<f64>> {
        let row = |e: &Example| -> Vec<f64> {
            let mut r: Vec<f64> = e.inputs.iter().copied().take(k - 1).collect();
            r.push(1.0);
            r
        };
        let mut a = vec![vec![0.0; k + 1]; k];
        for e in self.examples {
            let r = row(e);
            for i in 0..k {
                for j in 0..k {
                    a[i][j] += r[i] * r[j];
                }
                a[i][k] += r[i] * e.target;
            }
        }
        solve(a)
    }
}

/// Solves the augmented system `a` (k rows of k + 1) by Gaussian
/// elimination with partial pivoting; `None` when it is singular.
fn solve(mut a: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let k = a.len();
    for col in 0..k {
        let pivot = (col..k).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..k).map(|i| a[i][k] / a[i][i]).collect())
}
