//! A learning rate for each parameter, and which error's gradient they multiply:
//! the page's mean squared error (the lab's slider) or half of it (Jay's code).
//! See [`crate::descent`] for why the convention matters.

/// Which error's gradient a learning rate multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// The page's error `E`, the mean of the squared residuals:
    /// `∂E/∂w = −2·mean(area·r)`, `∂E/∂b = −2·mean(r)`.
    Mse,
    /// Half of it, `E/2` (Jay's code, most textbooks): `−mean(area·r)`,
    /// `−mean(r)`. The same rate takes half the step it takes on [`Convention::Mse`].
    HalfMse,
}

impl Convention {
    /// The factor in front of `mean(x·r)` and `mean(r)` in the gradient.
    #[must_use]
    #[inline]
    pub fn factor(self) -> f64 {
        match self {
            Self::Mse => 2.0,
            Self::HalfMse => 1.0,
        }
    }
}

/// A learning rate for each parameter (in the lab's coordinates: on standardised
/// areas the weight's is `u`'s), and the gradient they multiply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    pub weight: f64,
    pub bias: f64,
    pub convention: Convention,
}

impl Rates {
    /// Jay's two hidden rates, `learningRate = 0.00000001` (weight) and
    /// `learningRate2 = 1` (bias) in his `simple_nn.js`, on the half-MSE gradient.
    pub const JAY: Self = Self {
        weight: 1e-8,
        bias: 1.0,
        convention: Convention::HalfMse,
    };

    /// One rate for both parameters on the page's error (the lab's slider).
    #[must_use]
    #[inline]
    pub const fn one(rate: f64) -> Self {
        Self {
            weight: rate,
            bias: rate,
            convention: Convention::Mse,
        }
    }

    /// The rate, if these are one rate for both on the page's error.
    #[must_use]
    #[inline]
    pub fn single(self) -> Option<f64> {
        (self.convention == Convention::Mse && self.weight == self.bias).then_some(self.weight)
    }

    /// `(weight, bias)` rates that take the same steps on the page's error.
    #[must_use]
    #[inline]
    pub fn on_mse(self) -> (f64, f64) {
        let k = self.convention.factor() / Convention::Mse.factor();
        (self.weight * k, self.bias * k)
    }
}

impl From<f64> for Rates {
    fn from(rate: f64) -> Self {
        Self::one(rate)
    }
}
