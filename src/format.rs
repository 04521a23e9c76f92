//! Number formatting for the page: pure functions, shared by server and browser so
//! that server-rendered HTML and hydrated updates print numbers identically.

/// `x` with `decimals` decimals and a thousands separator: `13359.084` → `"13,359.08"`.
pub fn grouped(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "—".to_string();
    }
    let fixed = format!("{:.*}", decimals, x.abs());
    let (int_part, frac_part) = match fixed.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (fixed.as_str(), None),
    };
    let mut out = String::with_capacity(fixed.len() + int_part.len() / 3 + 1);
    // "-0.00" would be odd: only show the sign when the rounded value is not zero.
    if x < 0.0 && fixed.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        out.push('-');
    }
    for (i, digit) in int_part.chars().enumerate() {
        if i > 0 && (int_part.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    if let Some(frac) = frac_part {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// [`grouped`] with the separators of `lang`: `13.359,08` in Portuguese,
/// `13,359.08` in English and Chinese.
pub fn grouped_in(x: f64, decimals: usize, lang: crate::coach::Lang) -> String {
    localise(grouped(x, decimals), lang)
}

/// A number printed by [`grouped`] or [`signed`], with the separators of
/// `lang` (the decimal comma and the thousands dot in Portuguese).
pub fn localise(text: String, lang: crate::coach::Lang) -> String {
    if lang != crate::coach::Lang::Pt {
        return text;
    }
    text.chars()
        .map(|c| match c {
            ',' => '.',
            '.' => ',',
            other => other,
        })
        .collect()
}

/// `x` with an explicit sign and two decimals: `+39.50`, `−21.00` (a true minus).
pub fn signed(x: f64) -> String {
    let text = grouped(x, 2);
    match text.strip_prefix('-') {
        Some(magnitude) => format!("−{magnitude}"),
        None if text.bytes().any(|b| b.is_ascii_digit() && b != b'0') => format!("+{text}"),
        None => text,
    }
}

/// A value for a number input: at most `max_decimals` decimals, trailing zeros
/// dropped, no float noise: `0.30000000000000004` → `"0.3"`, `247.26` → `"247.26"`.
pub fn plain(x: f64, max_decimals: usize) -> String {
    let fixed = format!("{:.*}", max_decimals, x);
    let trimmed = if fixed.contains('.') {
        fixed.trim_end_matches('0').trim_end_matches('.')
    } else {
        fixed.as_str()
    };
    if trimmed == "-0" {
        "0".to_string()
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portuguese_swaps_the_separators() {
        use crate::coach::Lang;
        assert_eq!(grouped_in(13_359.084, 2, Lang::Pt), "13.359,08");
        assert_eq!(grouped_in(447.29, 2, Lang::Pt), "447,29");
        assert_eq!(grouped_in(13_359.084, 2, Lang::Zh), "13,359.08");
        assert_eq!(grouped_in(-1_234.5, 1, Lang::En), "-1,234.5");
    }

    #[test]
    fn signed_values_show_their_sign_and_zero_none() {
        assert_eq!(signed(39.5), "+39.50");
        assert_eq!(signed(-21.0), "−21.00");
        assert_eq!(signed(-1234.567), "−1,234.57");
        assert_eq!(signed(0.001), "0.00");
        assert_eq!(signed(-0.001), "0.00");
        assert_eq!(signed(f64::NAN), "—");
    }

    #[test]
    fn groups_thousands_and_rounds() {
        assert_eq!(grouped(134_971.666, 2), "134,971.67");
        assert_eq!(grouped(447.2938, 2), "447.29");
        assert_eq!(grouped(1_000_000.0, 0), "1,000,000");
        assert_eq!(grouped(999.999, 2), "1,000.00");
        assert_eq!(grouped(-2_500.5, 1), "-2,500.5");
        assert_eq!(grouped(-0.001, 2), "0.00");
        assert_eq!(grouped(f64::NAN, 2), "—");
    }

    #[test]
    fn plain_drops_noise_and_trailing_zeros() {
        assert_eq!(plain(0.1 + 0.2, 7), "0.3");
        assert_eq!(plain(247.26, 2), "247.26");
        assert_eq!(plain(0.0584879, 7), "0.0584879");
        assert_eq!(plain(150.0, 2), "150");
        assert_eq!(plain(-0.0000001, 4), "0");
    }
}
