//! A share of a count (`hits` of `of`) with its 95 % interval, and whether
//! two shares differ by more than noise.
//!
//! The interval is Wilson's score interval (E. B. Wilson, "Probable
//! inference, the law of succession, and statistical inference", JASA 22,
//! 1927): unlike the normal approximation `p ± 1.96 √(p(1−p)/n)` it stays
//! inside [0, 1] and is honest for small counts and shares near 0 or 1,
//! which is what a class room's few dozen comments give. Two shares are
//! told apart only when their intervals do not overlap: a conservative
//! rule (it says "within noise" more often than a test at 5 % would), which
//! suits a page that must not tell a teacher a difference that is not there.

/// `z` of a two-sided 95 % interval.
const Z: f64 = 1.959_963_984_540_054;

/// `hits` out of `of`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Share {
    pub hits: u64,
    pub of: u64,
}

/// How one share stands against another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difference {
    /// Its interval lies wholly above the other's.
    Higher,
    /// Wholly below.
    Lower,
    /// The intervals overlap.
    WithinNoise,
    /// One of them counts nothing.
    Unknown,
}

impl Share {
    pub fn new(hits: u64, of: u64) -> Self {
        Self {
            hits: hits.min(of),
            of,
        }
    }

    /// `hits / of`, `None` of nothing.
    pub fn rate(&self) -> Option<f64> {
        (self.of > 0).then(|| self.hits as f64 / self.of as f64)
    }

    /// The 95 % Wilson score interval, `None` of nothing.
    pub fn interval(&self) -> Option<(f64, f64)> {
        let p = self.rate()?;
        let n = self.of as f64;
        let z2 = Z * Z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Some(((centre - half).max(0.0), (centre + half).min(1.0)))
    }

    /// This share against `other` (see the module's docs).
    pub fn against(&self, other: &Share) -> Difference {
        match (self.interval(), other.interval()) {
            (Some((lo, _)), Some((_, hi))) if lo > hi => Difference::Higher,
            (Some((_, hi)), Some((lo, _))) if hi < lo => Difference::Lower,
            (Some(_), Some(_)) => Difference::WithinNoise,
            _ => Difference::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_intervals_by_hand() {
        // Wilson's interval for 8 of 10: 0.4902 to 0.9433 (z = 1.96).
        let (lo, hi) = Share::new(8, 10).interval().expect("an interval");
        assert!(close(lo, 0.4902) && close(hi, 0.9433), "{lo} {hi}");
        // None of 20 still has room above: 0 to 0.1611.
        let (lo, hi) = Share::new(0, 20).interval().expect("an interval");
        assert!(close(lo, 0.0) && close(hi, 0.1611), "{lo} {hi}");
        let (lo, hi) = Share::new(20, 20).interval().expect("an interval");
        assert!(close(lo, 0.8389) && close(hi, 1.0), "{lo} {hi}");
        assert_eq!(Share::new(0, 0).interval(), None);
        assert_eq!(
            Share::new(5, 3),
            Share { hits: 3, of: 3 },
            "never more than all"
        );
    }

    #[test]
    fn differences_are_told_only_beyond_the_noise() {
        let (a, b) = (Share::new(80, 100), Share::new(20, 100));
        assert_eq!(a.against(&b), Difference::Higher);
        assert_eq!(b.against(&a), Difference::Lower);
        // 6 of 10 against 4 of 10: far apart as shares, within noise as counts.
        assert_eq!(
            Share::new(6, 10).against(&Share::new(4, 10)),
            Difference::WithinNoise
        );
        assert_eq!(a.against(&Share::default()), Difference::Unknown);
    }
}
