//! Medians and percentiles, from sorted values or from (value, count) pairs.

/// The median of sorted `values` (the mean of the middle two for an even
/// count), `None` when empty.
pub fn median(sorted: &[u64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2] as f64),
        _ => Some((sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0),
    }
}

/// The `rank`-th value (1-based) of a histogram sorted by value.
fn nth(hist: &[(u64, u64)], rank: u64) -> Option<u64> {
    let mut seen = 0;
    hist.iter().find_map(|&(value, n)| {
        seen += n;
        (seen >= rank).then_some(value)
    })
}

/// The median of a histogram: (value, how many) pairs sorted by value.
pub fn median_of_counts(hist: &[(u64, u64)]) -> Option<f64> {
    let n: u64 = hist.iter().map(|&(_, c)| c).sum();
    if n == 0 {
        return None;
    }
    let low = nth(hist, n.div_ceil(2))?;
    let high = nth(hist, n / 2 + 1)?;
    Some(if n % 2 == 1 {
        low as f64
    } else {
        (low as f64 + high as f64) / 2.0
    })
}

/// The nearest-rank `p`-th percentile (0 < p ≤ 100) of a histogram sorted by
/// value: the smallest value with at least p % of the counts at or below it.
pub fn percentile_of_counts(hist: &[(u64, u64)], p: u32) -> Option<u64> {
    let n: u64 = hist.iter().map(|&(_, c)| c).sum();
    if n == 0 || p == 0 || p > 100 {
        return None;
    }
    let rank = (n * u64::from(p)).div_ceil(100).max(1);
    nth(hist, rank)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_percentiles_by_hand() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3]), Some(3.0));
        assert_eq!(median(&[1, 2, 3, 10]), Some(2.5));
        assert_eq!(median_of_counts(&[]), None);
        // 1, 2, 2, 9 → 2; 1, 2, 2, 9, 9 → 2; 1, 9 → 5.
        assert_eq!(median_of_counts(&[(1, 1), (2, 2), (9, 1)]), Some(2.0));
        assert_eq!(median_of_counts(&[(1, 1), (2, 2), (9, 2)]), Some(2.0));
        assert_eq!(median_of_counts(&[(1, 1), (9, 1)]), Some(5.0));
        // 20 values 1..=20: p50 is 10, p95 is 19, p100 is 20.
        let hist: Vec<(u64, u64)> = (1..=20).map(|v| (v, 1)).collect();
        assert_eq!(percentile_of_counts(&hist, 50), Some(10));
        assert_eq!(percentile_of_counts(&hist, 95), Some(19));
        assert_eq!(percentile_of_counts(&hist, 100), Some(20));
        assert_eq!(percentile_of_counts(&[(7, 1)], 95), Some(7));
        assert_eq!(percentile_of_counts(&[], 50), None);
    }
}
