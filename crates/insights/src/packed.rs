//! Rows the writer reads back through sqlx (PostgreSQL's batches; SQLite's
//! go through its own interface, `crate::db`, and read row by row), packed
//! into one text per statement, and the migrations' texts of doubles.
//!
//! sqlx hands every row it reads to the writer one at a time (on SQLite
//! across threads, where that hand-over cost several times the look-up
//! itself). So those statements aggregate their rows into one text
//! (`group_concat` on SQLite, `string_agg` on PostgreSQL), one record per
//! row, its fields after one another. The separators are characters none of the values can hold (a
//! visit id, a room code, a model's name and a language code are checked
//! at the edge to `A-Z a-z 0-9 - _ .`), an absent value is the empty text,
//! and a double is written so that it reads back exactly.

use std::{fmt::Write as _, str::FromStr};

/// How one backend packs: its aggregate, and a double as exact text.
#[derive(Clone, Copy, Debug)]
pub struct Packing {
    postgres: bool,
}

impl Packing {
    pub fn new(postgres: bool) -> Self {
        Self { postgres }
    }

    /// The aggregate that joins texts with a separator.
    pub fn aggregate(self) -> &'static str {
        if self.postgres {
            "string_agg"
        } else {
            "group_concat"
        }
    }

    /// `column` (a double) as a text that parses back to the same double
    /// (`%!.17g` on SQLite, whose `printf` stops at 16 digits without the
    /// `!`; PostgreSQL's text of a double is the shortest exact one), or NULL.
    pub fn exact(self, column: &str) -> String {
        if self.postgres {
            format!("{column}::text")
        } else {
            format!("CASE WHEN {column} IS NOT NULL THEN printf('%!.17g', {column}) END")
        }
    }
}

/// `column` as text, the empty text when it is NULL.
pub fn text(column: &str) -> String {
    format!("COALESCE(CAST({column} AS TEXT), '')")
}

/// A packed field: `None` when empty, or what it parses to.
pub fn field<T: FromStr>(value: &str) -> Result<Option<T>, sqlx::Error> {
    if value.is_empty() {
        return Ok(None);
    }
    value.parse().map(Some).map_err(|_| {
        sqlx::Error::Decode(format!("a packed value that does not read: {value:?}").into())
    })
}

/// A visit's latest point as stored (`weight,weight2,bias,error`; empty: none).
pub fn parse_point(packed: &str) -> Result<Option<[f64; 4]>, sqlx::Error> {
    if packed.is_empty() {
        return Ok(None);
    }
    let refused = || sqlx::Error::Decode(format!("a point that does not read: {packed:?}").into());
    let mut point = [0.0; 4];
    let mut fields = packed.split(',');
    for value in &mut point {
        *value = field(fields.next().unwrap_or_default())?.ok_or_else(refused)?;
    }
    if fields.next().is_some() {
        return Err(refused());
    }
    Ok(Some(point))
}

/// A visit's latest point as stored ([`parse_point`]).
pub fn pack_point(point: [f64; 4]) -> String {
    let mut packed = String::with_capacity(4 * 12);
    for (i, value) in point.into_iter().enumerate() {
        if i > 0 {
            packed.push(',');
        }
        push_double(&mut packed, value);
    }
    packed
}

/// Appends `value` as the shortest text that parses back to it (`ryu`,
/// several times faster than `{:?}`, which reads back the same; the
/// writer packs a few doubles for every attempt it stores). Not finite
/// (no error or weight is): as `{:?}` writes it.
pub fn push_double(out: &mut String, value: f64) {
    if value.is_finite() {
        out.push_str(ryu::Buffer::new().format_finite(value));
    } else {
        // Writing to a String cannot fail.
        let _ = write!(out, "{value:?}");
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{field, pack_point, parse_point, push_double};

    proptest! {
        #[test]
        fn a_double_reads_back_the_same(bits in any::<u64>()) {
            let value = f64::from_bits(bits);
            prop_assume!(!value.is_nan());
            let mut packed = String::new();
            push_double(&mut packed, value);
            prop_assert_eq!(packed.parse::<f64>().map(f64::to_bits), Ok(bits));
        }

        #[test]
        fn a_point_reads_back_the_same(point in any::<[f64; 4]>()) {
            prop_assume!(point.iter().all(|v| v.is_finite()));
            prop_assert_eq!(parse_point(&pack_point(point)).ok().flatten(), Some(point));
        }
    }

    #[test]
    fn a_field_reads_back_empty_as_none_and_refuses_what_does_not_parse() {
        assert_eq!(field::<i64>("").expect("empty"), None);
        assert_eq!(field::<i64>("-42").expect("int"), Some(-42));
        let third = 1.0_f64 / 3.0;
        let sqlite_text = format!("{third:.17e}");
        assert_eq!(field::<f64>(&sqlite_text).expect("double"), Some(third));
        assert!(field::<i64>("4x").is_err());
    }
}
