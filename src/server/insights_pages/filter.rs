//! The page's filter form, parsed at the edge: `lesson` (`1`, the default, or
//! `2`: a report is about one lesson, whose goal it counts), `period` (`1`,
//! `7`, `30`, `90` days or `all` kept), `language` (the visitors', `en`,
//! `pt`, `zh`, or blank for all) and `room` (a room code, or blank for all), into a
//! [`Choice`] and then the store's [`Filter`]. A bad value is refused naming
//! its field; other parameters (the page's own `lang`) are left alone.

use insights::{
    input::parse_lesson,
    report::{Filter, Which},
    values::{FieldError, Minute, RoomCode},
};
use vocabulary::Lang;

/// `?lesson=` (absent or blank: lesson 1), named `lesson` when refused.
pub fn lesson_param(value: Option<&str>) -> Result<Which, FieldError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(Which::One),
        Some(n) => parse_lesson(Some(
            n.parse()
                .map_err(|_| FieldError::new("lesson", "must be 1 or 2"))?,
        )),
    }
}

/// How far back the page looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    /// The last so many days up to now: 1 is the last 24 hours; more are
    /// whole UTC days, from the first minute of the day `n` × 24 hours ago
    /// (`Filter::last_days`, which the per-day rollups answer).
    Days(u32),
    /// Everything the store keeps (`JAY_INSIGHTS_DAYS`).
    All,
}

impl Period {
    /// The choices the form offers, in order.
    pub const CHOICES: [Period; 5] = [
        Period::Days(1),
        Period::Days(7),
        Period::Days(30),
        Period::Days(90),
        Period::All,
    ];
    pub const DEFAULT: Period = Period::Days(30);

    /// Its value in the query: `7`, `all`.
    pub fn code(self) -> String {
        match self {
            Period::Days(n) => n.to_string(),
            Period::All => "all".into(),
        }
    }

    fn parse(s: &str) -> Result<Self, FieldError> {
        Self::CHOICES
            .into_iter()
            .find(|p| p.code() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| FieldError::new("period", "must be 1, 7, 30, 90 or all"))
    }
}

/// The visits a reader asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub lesson: Which,
    pub period: Period,
    /// The visitors' language (`None`: all).
    pub language: Option<Lang>,
    pub room: Option<RoomCode>,
}

impl Default for Choice {
    fn default() -> Self {
        Self {
            lesson: Which::One,
            period: Period::DEFAULT,
            language: None,
            room: None,
        }
    }
}

impl Choice {
    /// The filter's fields from a query's pairs (the first of a repeated
    /// one); absent or blank ones take their default.
    pub fn parse(pairs: &[(String, String)]) -> Result<Self, FieldError> {
        let get = |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.trim())
                .filter(|v| !v.is_empty())
        };
        let lesson = lesson_param(get("lesson"))?;
        let period = get("period").map_or(Ok(Period::DEFAULT), Period::parse)?;
        let language = match get("language") {
            None | Some("all") => None,
            Some(tag) => Some(
                Lang::parse(tag)
                    .ok_or_else(|| FieldError::new("language", "must be en, pt, zh or all"))?,
            ),
        };
        let room = RoomCode::parse_optional(get("room"))?;
        Ok(Self {
            lesson,
            period,
            language,
            room,
        })
    }

    /// The store's filter at `now`: visits begun in the period, up to and
    /// including this minute.
    pub fn filter(&self, now: Minute) -> Filter {
        let period = match self.period {
            Period::Days(1) => Filter::last_24_hours(now),
            Period::Days(n) => Filter::last_days(n, now),
            Period::All => Filter::period(Minute(i64::MIN / 2), Minute(now.0 + 1)),
        };
        Filter {
            lesson: self.lesson,
            lang: self.language,
            room: self.room.clone(),
            ..period
        }
    }

    /// This choice as query pairs (its defaults left out), for links.
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut pairs = Vec::new();
        if self.lesson != Which::One {
            pairs.push(("lesson".into(), self.lesson.number().to_string()));
        }
        if self.period != Period::DEFAULT {
            pairs.push(("period".into(), self.period.code()));
        }
        if let Some(lang) = self.language {
            pairs.push(("language".into(), lang.code().into()));
        }
        if let Some(room) = &self.room {
            pairs.push(("room".into(), room.as_str().into()));
        }
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(list: &[(&str, &str)]) -> Result<Choice, FieldError> {
        let pairs: Vec<(String, String)> = list
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Choice::parse(&pairs)
    }

    #[test]
    fn defaults_are_the_last_30_days_of_everyone() {
        assert_eq!(parse(&[]).unwrap(), Choice::default());
        let blank = parse(&[("period", " "), ("language", ""), ("room", "")]);
        assert_eq!(blank.unwrap(), Choice::default());
        assert!(Choice::default().pairs().is_empty());
    }

    #[test]
    fn each_field_is_read() {
        let c = parse(&[
            ("lang", "zh"),
            ("period", "ALL"),
            ("language", "pt-BR"),
            ("room", " Class-7B "),
            ("period", "1"),
            ("lesson", "2"),
        ])
        .unwrap();
        assert_eq!(c.period, Period::All, "the first of a repeated field");
        assert_eq!(c.lesson, Which::Two);
        assert_eq!(c.language, Some(Lang::Pt));
        assert_eq!(c.room.as_ref().map(RoomCode::as_str), Some("class-7b"));
        assert_eq!(
            c.pairs(),
            [
                ("lesson".to_string(), "2".to_string()),
                ("period".into(), "all".into()),
                ("language".into(), "pt".into()),
                ("room".into(), "class-7b".into())
            ]
        );
        assert_eq!(parse(&[("language", "all")]).unwrap().language, None);
        assert_eq!(parse(&[("period", "7")]).unwrap().period, Period::Days(7));
    }

    #[test]
    fn a_bad_value_names_its_field() {
        for (field, value) in [
            ("period", "8"),
            ("period", "-1"),
            ("period", "30d"),
            ("lesson", "3"),
            ("lesson", "0"),
            ("lesson", "two"),
            ("language", "fr"),
            ("room", "a b"),
            ("room", "<script>"),
            ("room", &"x".repeat(25)),
        ] {
            let e = parse(&[(field, value)]).expect_err(value);
            assert_eq!(e.field, field, "{value}");
            assert!(!e.message.contains(value), "the message is fixed: {e}");
        }
    }

    #[test]
    fn the_period_ends_with_this_minute() {
        let now = Minute(30_000_000);
        let f = parse(&[("period", "7"), ("room", "r1"), ("language", "zh")])
            .unwrap()
            .filter(now);
        // From the first minute of the UTC day 7 × 24 hours ago: whole days.
        let first_day = (now.0 - 7 * Minute::PER_DAY).div_euclid(Minute::PER_DAY);
        assert_eq!(f.from, Minute(first_day * Minute::PER_DAY));
        assert!(f.from <= Minute(now.0 - 7 * Minute::PER_DAY));
        assert_eq!(f.to, Minute(now.0 + 1));
        let day = parse(&[("period", "1")]).unwrap().filter(now);
        assert_eq!(
            (day.from, day.to),
            (Minute(now.0 - Minute::PER_DAY), Minute(now.0 + 1))
        );
        assert_eq!(f.lang, Some(Lang::Zh));
        assert_eq!(f.lesson, Which::One);
        assert_eq!(f.room, Some(RoomCode::parse("r1").unwrap()));
        let all = Choice {
            period: Period::All,
            ..Choice::default()
        }
        .filter(now);
        assert!(all.from < Minute(0) && all.to == Minute(now.0 + 1));
    }
}
