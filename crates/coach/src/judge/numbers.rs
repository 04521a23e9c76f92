//! The numbers a reply quotes, held to the numbers its prompt states.
//!
//! A number is read in each of the ways the three languages write one
//! (`13,359.08` in English and Chinese, `13.359,08` in Portuguese): a reading
//! that breaks a way's grouping (`799.09` cannot be Portuguese: a thousands
//! group has three digits) is left out, and a number no way can read
//! (`1,2,3`) is read as its separate runs of digits. A model may write the
//! other language's way; any reading that matches will do.
//!
//! A reading matches a stated number when it is that number rounded to the
//! reading's own last digit: `799.09`, `799.1`, `799` and `800` all say
//! 799.09 (so does `800`: "about 800" is an honest rounding, its last
//! significant digit being the hundreds), while `79.9`, `799.0` and `810` do
//! not. Numbers with fewer than two significant digits (`3`, `0.5`, `100`)
//! are not held to anything: attempt 3, half the way, a hundred times.
//! Digits right after or before a Latin letter (`SmolLM2`, `3rd`, `10x`) are
//! no number. Pure.

/// One way of reading a number as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    pub value: f64,
    /// Half the unit of its last written digit (of its last non-zero one, in
    /// a whole number): how far the value it rounds may lie.
    pub half_unit: f64,
    pub significant: usize,
}

impl Reading {
    /// Whether this reading is `stated`, rounded to the reading's last digit.
    pub fn says(&self, stated: f64) -> bool {
        (self.value - stated).abs() <= self.half_unit * (1.0 + 1e-9) + 1e-9 * stated.abs()
    }
}

/// The numbers in `text`, each as its readings.
pub fn numbers(text: &str) -> Vec<Vec<Reading>> {
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return Vec::new();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || (matches!(chars[i], '.' | ',')
                    && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            i += 1;
        }
        let glued = |c: Option<&char>| c.is_some_and(|c| c.is_ascii_alphabetic() || *c == '_');
        if glued(start.checked_sub(1).and_then(|j| chars.get(j))) || glued(chars.get(i)) {
            continue;
        }
        let written: String = chars[start..i].iter().collect();
        let mut readings: Vec<Reading> = [(',', '.'), ('.', ',')]
            .into_iter()
            .filter_map(|(group, point)| read(&written, group, point))
            .collect();
        readings.dedup();
        if readings.is_empty() {
            out.extend(
                written
                    .split(['.', ','])
                    .filter_map(|digits| read(digits, ',', '.'))
                    .map(|r| vec![r]),
            );
        } else {
            out.push(readings);
        }
    }
    out
}

/// `written` read with `group` between thousands and `point` before the
/// decimals, if it follows that way.
fn read(written: &str, group: char, point: char) -> Option<Reading> {
    let (whole, decimals) = match written.split_once(point) {
        Some((whole, decimals)) => (whole, Some(decimals)),
        None => (written, None),
    };
    let groups: Vec<&str> = whole.split(group).collect();
    let grouped_right =
        groups.len() == 1 || (groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3));
    let digits_only = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if !grouped_right
        || !groups.iter().all(|g| digits_only(g))
        || decimals.is_some_and(|d| !digits_only(d))
    {
        return None;
    }
    let whole: String = groups.concat();
    let decimals = decimals.unwrap_or("");
    let value: f64 = format!("{whole}.{decimals}0").parse().ok()?;
    let all = format!("{whole}{decimals}");
    let leading = all.trim_start_matches('0');
    let (significant, half_unit) = if decimals.is_empty() {
        let trailing = whole.len() - whole.trim_end_matches('0').len();
        let kept = leading.trim_end_matches('0').len();
        (kept, 0.5 * 10f64.powi(i32::try_from(trailing).ok()?))
    } else {
        let places = i32::try_from(decimals.len()).ok()?;
        (leading.len(), 0.5 * 10f64.powi(-places))
    };
    Some(Reading {
        value,
        half_unit,
        significant,
    })
}

/// The first number in `text` that quotes none of `stated`: a number of two
/// or more significant digits none of whose readings is one of them,
/// rounded. As written, for the log.
pub fn misquoted(text: &str, stated: &[f64]) -> Option<f64> {
    numbers(text)
        .into_iter()
        .find(|readings| {
            readings
                .iter()
                .all(|r| r.significant >= 2 && !stated.iter().any(|&s| r.says(s)))
        })
        .and_then(|readings| readings.first().map(|r| r.value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<Vec<f64>> {
        numbers(text)
            .into_iter()
            .map(|rs| rs.into_iter().map(|r| r.value).collect())
            .collect()
    }

    #[test]
    fn each_languages_separators_are_read() {
        assert_eq!(values("Error 13,359.08 now"), [[13_359.08]]);
        assert_eq!(values("Erro 13.359,08 agora"), [[13_359.08]]);
        assert_eq!(values("误差 13,359.08。"), [[13_359.08]]);
        assert_eq!(values("799.09."), [[799.09]]);
        assert_eq!(values("799,09,"), [[799.09]]);
        // Both ways read it: 1.234 in English, 1234 in Portuguese.
        assert_eq!(values("1.234"), [[1.234, 1234.0]]);
        assert_eq!(values("1,2,3"), [[1.0], [2.0], [3.0]]);
        assert_eq!(
            values("SmolLM2 says 3rd try, 10x better"),
            Vec::<Vec<f64>>::new()
        );
        assert_eq!(values("低于450以下"), [[450.0]]);
    }

    #[test]
    fn significant_digits_and_units() {
        let one = |text: &str| numbers(text)[0][0];
        assert_eq!((one("800").significant, one("800").half_unit), (1, 50.0));
        assert_eq!((one("450").significant, one("450").half_unit), (2, 5.0));
        assert_eq!(one("0.0051").significant, 2);
        assert_eq!(one("0.5").significant, 1);
        assert_eq!(one("13,000").half_unit, 500.0);
        assert!((one("799.1").half_unit - 0.05).abs() < 1e-12);
    }

    #[test]
    fn roundings_of_a_stated_number_are_quotes_and_others_are_not() {
        let stated = [799.09, 450.0, 447.29, 13_359.08];
        for fine in [
            "799.09", "799.1", "799", "800", "799,09", "799,1", "450", "450.00", "447.3", "13,359",
            "13.359", "13,359.1", "13,400", "13,000", "3", "0.5", "100",
        ] {
            assert_eq!(misquoted(fine, &stated), None, "{fine}");
        }
        for wrong in ["79.9", "799.0", "810", "799.2", "7,990", "13,360.5", "12"] {
            assert!(misquoted(wrong, &stated).is_some(), "{wrong}");
        }
    }
}
