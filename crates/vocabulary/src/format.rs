//! Number formatting for the page: pure functions, shared by server and browser so
//! that server-rendered HTML and hydrated updates print numbers identically.

mod fixed;

use fixed::fixed;

/// `x` with `decimals` decimals and a thousands separator: `13359.084` → `"13,359.08"`.
pub fn grouped(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "—".to_string();
    }
    let fixed = fixed(x.abs(), decimals);
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
#[inline]
pub fn grouped_in(x: f64, decimals: usize, lang: crate::Lang) -> String {
    localise(grouped(x, decimals), lang)
}

/// A number printed by [`grouped`] or [`signed`], with the separators of
/// `lang` (the decimal comma and the thousands dot in Portuguese).
#[inline]
pub fn localise(text: String, lang: crate::Lang) -> String {
    let (decimal, group) = (lang.profile().decimal, lang.profile().group);
    if (decimal, group) == ('.', ',') {
        return text;
    }
    text.chars()
        .map(|c| match c {
            ',' => group,
            '.' => decimal,
            other => other,
        })
        .collect()
}

/// `x` with an explicit sign and two decimals: `+39.50`, `−21.00` (a true minus).
#[inline]
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
#[inline]
pub fn plain(x: f64, max_decimals: usize) -> String {
    let fixed = fixed(x, max_decimals);
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

/// A number typed in a box on a page in `lang`: `0,1` and `0.1` alike.
///
/// One separator, once, is the decimal point whatever the page's language: a
/// visitor who types `0,1` on an English page or `0.1` on a Portuguese one
/// means a tenth (the sliders' ranges hold no thousands). Several separators
/// are read in the page's way (`1,234.5`; `1.234,5` in Portuguese), and text
/// that is no number that way is `None`: a typo, `0,1,2` or `1.2,3` on an
/// English page. A true minus (`−`, as the page writes it) is a minus; what
/// is not finite (`inf`, `NaN`) is `None`.
pub fn parse_decimal(text: &str, lang: crate::Lang) -> Option<f64> {
    let text = text.trim().replace('\u{2212}', "-");
    let (decimal, group) = (lang.profile().decimal, lang.profile().group);
    let normal = if text.matches([',', '.']).count() <= 1 {
        text.replace(',', ".")
    } else {
        // The page's way: groups of three, then at most one decimal separator.
        let (whole, fraction) = match text.split_once(decimal) {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (text.as_str(), None),
        };
        let mut groups = whole.split(group);
        let grouped = groups.next().is_some_and(|g| !g.is_empty() && g.len() <= 4)
            && groups.all(|g| g.len() == 3);
        if !grouped || fraction.is_some_and(|f| f.contains([',', '.'])) {
            return None;
        }
        let whole = whole.replace(group, "");
        match fraction {
            Some(fraction) => format!("{whole}.{fraction}"),
            None => whole,
        }
    };
    normal.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers_take_a_comma_or_a_point_in_every_language() {
        use crate::Lang;
        for lang in Lang::ALL {
            assert_eq!(parse_decimal("0,1", lang), Some(0.1), "{lang:?}");
            assert_eq!(parse_decimal("0.1", lang), Some(0.1), "{lang:?}");
            assert_eq!(parse_decimal(" 247,26 ", lang), Some(247.26), "{lang:?}");
            assert_eq!(parse_decimal(",5", lang), Some(0.5), "{lang:?}");
            assert_eq!(parse_decimal("150", lang), Some(150.0), "{lang:?}");
            assert_eq!(parse_decimal("−0,001", lang), Some(-0.001), "{lang:?}");
            for bad in ["", "abc", "0,1,2", "1.2.3,4,5", "NaN", "inf", "0,1x", "1 0"] {
                assert_eq!(parse_decimal(bad, lang), None, "{lang:?}: {bad:?}");
            }
        }
        // Several separators: the page's way.
        assert_eq!(parse_decimal("1,234.5", Lang::En), Some(1234.5));
        assert_eq!(parse_decimal("1.234,5", Lang::Pt), Some(1234.5));
        assert_eq!(parse_decimal("1.234.567", Lang::Pt), Some(1_234_567.0));
        assert_eq!(parse_decimal("1,234,567", Lang::Zh), Some(1_234_567.0));
        assert_eq!(parse_decimal("1.234,5", Lang::En), None);
        assert_eq!(parse_decimal("1,234.5", Lang::Pt), None);
        // What the page writes, it reads back.
        for lang in Lang::ALL {
            for x in [0.0584879, 247.26, 0.1, 500.0] {
                let shown = localise(plain(x, 7), lang);
                assert_eq!(parse_decimal(&shown, lang), Some(x), "{lang:?}: {shown}");
            }
        }
    }

    #[test]
    fn portuguese_swaps_the_separators() {
        use crate::Lang;
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
