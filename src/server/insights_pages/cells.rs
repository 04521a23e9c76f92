//! How a number is written in a table's cell: for the page, in the
//! reader's language with the page's own formats (`1,234`, `41.7%`,
//! `0,0585`); for the CSV file, plain (`1234`, `0.4167`, `0.0585`).

use super::{table::Cell, words::Words};
use crate::page::i18n::Texts;
use insights::report::overview::Bin;
use vocabulary::{fill, format::plain, Lang};

/// How numbers are written on the page, and in the CSV files.
pub struct Fmt {
    pub lang: Lang,
    pub t: &'static Texts,
    pub w: &'static Words,
}

impl Fmt {
    pub fn count(&self, n: u64) -> Cell {
        Cell::new(n.to_string(), self.t.num(n as f64, 0))
    }

    /// A share (0 to 1): `0.4167` and `41.7%`.
    pub fn share(&self, share: Option<f64>) -> Cell {
        match share {
            Some(s) if s.is_finite() => Cell::new(
                format!("{s:.4}"),
                fill(self.w.percent, &[("n", &self.t.plain(s * 100.0, 1))]),
            ),
            _ => Cell::new("", self.w.none),
        }
    }

    /// A value with at most `decimals` decimals (a median, a weight).
    pub fn value(&self, v: Option<f64>, decimals: usize) -> Cell {
        match v {
            Some(v) if v.is_finite() => Cell::new(plain(v, decimals), self.t.plain(v, decimals)),
            _ => Cell::new("", self.w.none),
        }
    }

    pub fn ms(&self, ms: u64) -> Cell {
        Cell::new(
            ms.to_string(),
            fill(self.w.ms, &[("n", &self.t.num(ms as f64, 0))]),
        )
    }
}

/// A share of `part` in `whole`, `None` for no whole.
pub fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// A bin as the table names it: `3`, `4 to 5`, `51 or more`.
pub fn bin_cell(w: &Words, (from, to): Bin) -> Cell {
    let raw = insights::report::overview::bin_label((from, to)).replace('–', "-");
    let shown = match to {
        Some(to) if to == from => from.to_string(),
        Some(to) => fill(
            w.bin,
            &[("from", &from.to_string()), ("to", &to.to_string())],
        ),
        None => fill(w.bin_open, &[("from", &from.to_string())]),
    };
    Cell::new(raw, shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{page::i18n::texts, server::insights_pages::words::words};

    fn fmt(lang: Lang) -> Fmt {
        Fmt {
            lang,
            t: texts(lang),
            w: words(lang),
        }
    }

    #[test]
    fn cells_in_each_language_and_plain_for_the_file() {
        let (en, pt) = (fmt(Lang::En), fmt(Lang::Pt));
        assert_eq!(en.count(12_345), Cell::new("12345", "12,345"));
        assert_eq!(pt.count(12_345), Cell::new("12345", "12.345"));
        assert_eq!(en.share(Some(5.0 / 12.0)), Cell::new("0.4167", "41.7%"));
        assert_eq!(pt.share(Some(0.5)), Cell::new("0.5000", "50%"));
        assert_eq!(en.share(share(1, 0)), Cell::new("", "—"));
        assert_eq!(pt.value(Some(0.0585), 4), Cell::new("0.0585", "0,0585"));
        assert_eq!(en.value(Some(f64::NAN), 1), Cell::new("", "—"));
        assert_eq!(fmt(Lang::Zh).ms(1250), Cell::new("1250", "1,250 毫秒"));
        assert_eq!(bin_cell(en.w, (4, Some(5))), Cell::new("4-5", "4 to 5"));
        assert_eq!(bin_cell(pt.w, (51, None)), Cell::new("51+", "51 ou mais"));
        assert_eq!(bin_cell(en.w, (3, Some(3))), Cell::new("3", "3"));
    }
}
