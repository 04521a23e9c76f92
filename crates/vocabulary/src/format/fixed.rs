//! `x` printed with a fixed number of decimals: exactly what
//! `format!("{:.*}", decimals, x)` prints, faster on the server.
//!
//! The standard library prints a float with a precision by Grisu's exact
//! mode, falling back to Dragon4 (big-number arithmetic) when Grisu cannot
//! decide: about 2,500 instructions a number (`callgrind`, a comment's
//! prompt prints eight). For the numbers this app prints (below 2^26 in
//! size, at most 7 decimals) the decimal value is one integer product: a
//! finite double is `m · 2^e` exactly (`m` < 2^53), so `x · 10^d` is
//! `m · 10^d` (< 2^77) shifted by `e`, and rounding it to an integer is a
//! look at the bits shifted out, ties to even as the standard library rounds
//! (`0.125` → `0.12`). Anything else goes to `format!`.
//!
//! The page's WebAssembly keeps `format!` alone (its size has a budget and
//! the browser prints a few numbers a frame); both print the same text,
//! which the tests check against `format!` over half a million numbers.

/// The most decimals the integer way takes (10^7 · 2^53 < 2^77).
const MAX_DECIMALS: usize = 7;
/// The largest magnitude it takes: an integer below it, times 10^7, fits.
const MAX_MAGNITUDE: f64 = (1u64 << 26) as f64;

/// `format!("{:.*}", decimals, x)`.
pub fn fixed(x: f64, decimals: usize) -> String {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(text) = by_integers(x, decimals) {
        return text;
    }
    format!("{x:.decimals$}")
}

/// [`fixed`] by integer arithmetic, when `x` is finite, below
/// [`MAX_MAGNITUDE`] and `decimals` at most [`MAX_DECIMALS`].
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
fn by_integers(x: f64, decimals: usize) -> Option<String> {
    if decimals > MAX_DECIMALS || x.is_nan() || x.abs() >= MAX_MAGNITUDE {
        return None;
    }
    let bits = x.to_bits();
    let exponent_bits = i32::try_from((bits >> 52) & 0x7ff).ok()?;
    let fraction = bits & ((1u64 << 52) - 1);
    // x = m · 2^e exactly; subnormals have no hidden bit.
    let (m, e) = if exponent_bits == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), exponent_bits - 1075)
    };
    let scaled = u128::from(m) * 10u128.pow(u32::try_from(decimals).ok()?);
    let units = if e >= 0 {
        // An integer below 2^26: no bits are lost.
        scaled << e
    } else {
        let shift = e.unsigned_abs();
        if shift >= 128 {
            // Under half a unit (scaled < 2^77 ≤ 2^(shift - 1)): rounds to 0.
            0
        } else {
            let whole = scaled >> shift;
            let rest = scaled & ((1u128 << shift) - 1);
            let half = 1u128 << (shift - 1);
            let up = rest > half || (rest == half && whole % 2 == 1);
            whole + u128::from(up)
        }
    };
    let digits = units.to_string();
    let mut out = String::with_capacity(digits.len() + decimals + 3);
    if x.is_sign_negative() {
        out.push('-');
    }
    if digits.len() <= decimals {
        out.push('0');
        if decimals > 0 {
            out.push('.');
        }
        out.extend(std::iter::repeat_n('0', decimals - digits.len()));
        out.push_str(&digits);
    } else {
        let (int, frac) = digits.split_at(digits.len() - decimals);
        out.push_str(int);
        if decimals > 0 {
            out.push('.');
            out.push_str(frac);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(x: f64, decimals: usize) {
        assert_eq!(
            fixed(x, decimals),
            format!("{x:.decimals$}"),
            "{x:e} with {decimals} decimals"
        );
    }

    #[test]
    fn prints_what_the_standard_library_prints() {
        let edges = [
            0.0,
            -0.0,
            0.125,
            0.375,
            2.5,
            1.5,
            0.5,
            -0.001,
            5e-8,
            1e-8,
            2.5e-7,
            0.1,
            0.30000000000000004,
            799.09,
            351.80000000000007,
            447.2899999999999,
            13359.084,
            f64::MIN_POSITIVE,
            5e-324,
            MAX_MAGNITUDE - 1.0,
            MAX_MAGNITUDE - 0.5,
            MAX_MAGNITUDE,
            1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for x in edges {
            for d in 0..=MAX_DECIMALS + 2 {
                same(x, d);
                same(-x, d);
            }
        }
    }

    #[test]
    fn ties_round_to_even_at_every_precision() {
        // k / 2^n: exact binary values, many of them exactly halfway.
        for n in 1..=12 {
            for k in 0..4096u32 {
                let x = f64::from(k) / f64::from(1u32 << n);
                for d in 0..=MAX_DECIMALS {
                    same(x, d);
                }
            }
        }
    }

    #[test]
    fn half_a_million_numbers_of_every_size() {
        // xorshift: the same numbers every run.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..125_000 {
            let r = next();
            // Uniform in magnitude from 1e-10 to 1e8, and random bit patterns.
            let exponent = (r % 18) as i32 - 10;
            let mantissa = (next() >> 11) as f64 / (1u64 << 53) as f64;
            let scaled = mantissa * 10f64.powi(exponent);
            let raw = f64::from_bits(next());
            for x in [scaled, -scaled, raw] {
                same(x, (r >> 32) as usize % (MAX_DECIMALS + 1));
            }
            same(scaled, MAX_DECIMALS);
        }
    }
}
