//! What `/insights` shows, as typed queries on the [`Store`]: each takes a
//! [`Filter`] (a period, a language, a room) and returns typed rows.
//!
//! A filter selects visits: those of one lesson begun in `[from, to)`, in the
//! language they began in, in the room. Every report then looks at those
//! visits and their attempts and tools; an attempt or a tool whose visit was
//! never recorded (its visit event dropped) is left out of all of them.
//! "Reached the goal" is the lesson's own rule ([`Which::reaches_goal`]: lesson
//! 1 at or below 450, lesson 2 below 1,420; in SQL [`lessons::goal_sql`]) and
//! "attempts to the goal" is the number of the first attempt that did.
//!
//! - [`funnel`]: the funnel and the visits per day;
//! - [`effort`]: attempts and minutes to the goal, where learners stop, the
//!   paths of those who arrived;
//! - [`tools`]: what helps (each tool's users against the rest);
//! - [`coach`]: comments per model, rejections, offline share, latencies;
//! - [`teaching`]: what teaches: per writer and language, the votes and what
//!   the visits did after each comment, with 95 % intervals ([`share`]);
//! - [`room`]: a room's visitors now.
//!
//! Percentiles and medians are computed here from counts ([`stats`]): SQLite
//! has no percentile function, and the rows grouped by value are few.
//!
//! Each report answers from the per-day rollups ([`daily`]) when the filter
//! names no room and cuts no day in two: no visit (of its language) began on
//! its first day before `from`, nor on its last day at or after `to` (a
//! filter from a day's first minute up to now qualifies: the page's periods
//! of 7, 30 and 90 days and "all", as [`Filter::last_days`] makes them). Otherwise from the visits' sums ([`sums`]:
//! a room's few visits at once; the coach from the attempts). With
//! [`Store::use_rollups`] off, from the stored rows, as before the rollups.
//! All three give the same numbers (`crates/insights/src/tests/rollups.rs`).
//!
//! [`lessons::goal_sql`]: crate::lessons::goal_sql

pub mod coach;
mod daily;
pub mod effort;
pub mod funnel;
pub mod overview;
pub mod room;
pub mod share;
pub mod stats;
mod sums;
pub mod teaching;
pub mod tools;

use sqlx::{any::AnyArguments, Arguments};

use super::{
    event::{AFTER_START_MIN, BEFORE_START_MIN},
    lessons,
    rollup::day_of,
    sink::StoreError,
    store::Store,
    values::{Minute, RoomCode},
};
pub use lesson::lessons::Which;
use vocabulary::Lang;

/// Which visits a report is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Visits of this lesson…
    pub lesson: Which,
    /// …begun at or after this minute…
    pub from: Minute,
    /// …and before this one.
    pub to: Minute,
    /// Only visits begun in this language.
    pub lang: Option<Lang>,
    /// Only visits of this room.
    pub room: Option<RoomCode>,
}

impl Filter {
    /// Every visit of lesson 1 begun in `[from, to)`.
    pub fn period(from: Minute, to: Minute) -> Self {
        Self {
            lesson: Which::One,
            from,
            to,
            lang: None,
            room: None,
        }
    }

    /// The page's "last `days` days" at `now`: every visit begun since the
    /// first minute of the UTC day `days` × 24 hours ago, up to and including
    /// `now`. Whole days (at least `days` × 24 hours, less than a day more),
    /// so the per-day rollups answer it.
    pub fn last_days(days: u32, now: Minute) -> Self {
        let first = now.days_before(days).day();
        Self::period(
            Minute(first.saturating_mul(Minute::PER_DAY)),
            Minute(now.0.saturating_add(1)),
        )
    }

    /// Every visit begun in the 24 hours up to and including `now` (the
    /// page's shortest period, for a class that just ended; it cuts a day in
    /// two, so it reads the visits' sums: a day's visits, not a month's).
    pub fn last_24_hours(now: Minute) -> Self {
        Self::period(now.days_before(1), Minute(now.0.saturating_add(1)))
    }
}

/// Where a report reads (see the module's docs).
enum Source {
    Days(Days),
    Sums,
    Rows,
}

impl Store {
    async fn source(&self, filter: &Filter) -> Result<Source, StoreError> {
        if !self.rollups_on() {
            return Ok(Source::Rows);
        }
        Ok(match self.whole_days(filter).await? {
            Some(days) => Source::Days(days),
            None => Source::Sums,
        })
    }

    /// The funnel of the filter's visits.
    pub async fn funnel(&self, filter: &Filter) -> Result<funnel::Funnel, StoreError> {
        match self.source(filter).await? {
            Source::Days(days) => daily::funnel(self, days).await,
            Source::Sums => sums::funnel(self, filter).await,
            Source::Rows => self.funnel_rows(filter).await,
        }
    }

    /// Visits and visits at the goal per UTC day the visits began, oldest first
    /// (days without visits are left out).
    pub async fn per_day(&self, filter: &Filter) -> Result<Vec<funnel::Day>, StoreError> {
        match self.source(filter).await? {
            Source::Days(days) => daily::per_day(self, days).await,
            Source::Sums => sums::per_day(self, filter).await,
            Source::Rows => self.per_day_rows(filter).await,
        }
    }

    /// Attempts and minutes to the goal of the filter's visits that reached it.
    pub async fn effort(&self, filter: &Filter) -> Result<effort::Effort, StoreError> {
        match self.source(filter).await? {
            Source::Days(days) => daily::effort(self, days).await,
            Source::Sums => sums::effort(self, filter).await,
            Source::Rows => self.effort_rows(filter).await,
        }
    }

    /// The last points of at most `cap` visits that did not reach the goal
    /// (the latest first), and the paths of at most `cap` that did (the latest
    /// visits): from the visits' sums whenever the rollups are on.
    pub async fn points(&self, filter: &Filter, cap: u32) -> Result<effort::Points, StoreError> {
        if self.rollups_on() {
            sums::points(self, filter, cap).await
        } else {
            self.points_rows(filter, cap).await
        }
    }

    /// Every tool ([`Tool::ALL`](super::Tool::ALL), in that order), used or not.
    pub async fn tools(&self, filter: &Filter) -> Result<Vec<tools::ToolReport>, StoreError> {
        match self.source(filter).await? {
            Source::Days(days) => daily::tools(self, days).await,
            Source::Sums => sums::tools(self, filter).await,
            Source::Rows => self.tools_rows(filter).await,
        }
    }

    /// The coach over the attempts of the filter's visits (from the day
    /// rollups, or from the attempts).
    pub async fn coach(&self, filter: &Filter) -> Result<coach::CoachReport, StoreError> {
        match self.source(filter).await? {
            Source::Days(days) => daily::coach(self, days).await,
            Source::Sums | Source::Rows => self.coach_rows(filter).await,
        }
    }
}

/// The whole days `[first, end)` (lesson and language) whose rollups answer a filter.
#[derive(Clone, Copy, Debug)]
pub(super) struct Days {
    pub first: i64,
    pub end: i64,
    /// The lesson's number.
    pub lesson: i64,
    /// The language's code, `""` for all.
    pub lang: &'static str,
}

impl Store {
    /// The days whose rollups answer `filter` exactly, if they do (see the
    /// module's docs).
    pub(super) async fn whole_days(&self, filter: &Filter) -> Result<Option<Days>, StoreError> {
        if filter.room.is_some() || filter.from >= filter.to {
            return Ok(None);
        }
        self.migrate().await?;
        let first = day_of(filter.from.0);
        let end = day_of(filter.to.0 - 1) + 1;
        let lang = filter.lang.map_or("", |l| l.code());
        let lesson = lessons::number(filter.lesson);
        let (cut,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM (SELECT 1 FROM insights_visits \
             WHERE ((started_min >= $1 AND started_min < $2) \
             OR (started_min >= $3 AND started_min < $4)) AND ($5 = '' OR lang = $5) \
             AND lesson = $6 LIMIT 1) x",
        )
        .bind(first.saturating_mul(Minute::PER_DAY))
        .bind(filter.from.0)
        .bind(filter.to.0)
        .bind(end.saturating_mul(Minute::PER_DAY))
        .bind(lang)
        .bind(lesson)
        .fetch_one(self.reads())
        .await?;
        Ok((cut == 0).then_some(Days {
            first,
            end,
            lesson,
            lang,
        }))
    }
}

/// One value bound to a query.
#[derive(Clone, Debug)]
enum Arg {
    Int(i64),
    Real(f64),
    Text(String),
}

/// A query's SQL and its values, numbered `$1`, `$2`, … as they are added.
#[derive(Debug, Default)]
pub(super) struct Query {
    sql: String,
    args: Vec<Arg>,
}

impl Query {
    /// Starts a query with the filter's visits as `v (visit_id, started_min)`.
    pub(super) fn visits(filter: &Filter) -> Self {
        let mut q = Self::default();
        let of = q.condition(filter, "started_min");
        q.sql = format!("WITH v AS (SELECT visit_id, started_min FROM insights_visits WHERE {of})");
        q
    }

    /// The filter as a condition on a table of visits (`insights_visits` or
    /// `insights_visit_sums`: both have `lesson`, `lang` and `room`), its
    /// values bound here and its start column written as `started`
    /// (`+started_min` keeps SQLite from using its index).
    pub(super) fn condition(&mut self, filter: &Filter, started: &str) -> String {
        let from = self.int(filter.from.0);
        let to = self.int(filter.to.0);
        let lesson = self.int(lessons::number(filter.lesson));
        let mut sql = format!("{started} >= {from} AND {started} < {to} AND lesson = {lesson}");
        if let Some(lang) = filter.lang {
            sql += &format!(" AND lang = {}", self.text(lang.code()));
        }
        if let Some(room) = &filter.room {
            sql += &format!(" AND room = {}", self.text(room.as_str()));
        }
        sql
    }

    /// A condition on attempts `a` that keeps every attempt of the filter's
    /// visits, by the minutes they were made (a visit's attempts are within
    /// [`BEFORE_START_MIN`] before its start and [`AFTER_START_MIN`] after
    /// it): the attempts are stored in the order they come, indexed by their
    /// minute and not by visit, so a join to visits reads only that range;
    /// a room's, by their room too, which they keep for that.
    pub(super) fn attempts_of(&mut self, filter: &Filter, a: &str) -> String {
        let from = self.int(filter.from.0.saturating_sub(BEFORE_START_MIN));
        let to = self.int(filter.to.0.saturating_add(AFTER_START_MIN));
        let mut sql = format!("{a}.at_min >= {from} AND {a}.at_min <= {to}");
        if let Some(room) = &filter.room {
            sql += &format!(" AND {a}.room = {}", self.text(room.as_str()));
        }
        sql
    }

    /// The filter as a condition on attempts `a` alone, by what each keeps
    /// of its visit (its start, lesson, language and room), with the range
    /// of minutes of [`Query::attempts_of`] for the index.
    pub(super) fn attempts_in(&mut self, filter: &Filter, a: &str) -> String {
        let mut sql = self.attempts_of(filter, a);
        let from = self.int(filter.from.0);
        let to = self.int(filter.to.0);
        let lesson = self.int(lessons::number(filter.lesson));
        sql += &format!(
            " AND {a}.started_min >= {from} AND {a}.started_min < {to} AND {a}.lesson = {lesson}"
        );
        if let Some(lang) = filter.lang {
            sql += &format!(" AND {a}.visit_lang = {}", self.text(lang.code()));
        }
        sql
    }

    /// Adds `va (visit_id, started_min, attempts, best, goal_at)`: per visit
    /// of `v`, its highest attempt number (0 for none), its best error and
    /// the number of its first attempt at `lesson`'s goal (NULL when none).
    pub(super) fn with_visit_attempts(mut self, filter: &Filter) -> Self {
        let goal = lessons::goal_sql(filter.lesson, "a.error");
        let range = self.attempts_of(filter, "a");
        self.sql += &format!(
            ", va AS (SELECT v.visit_id, v.started_min, \
             COALESCE(MAX(a.attempt), 0) AS attempts, MIN(a.error) AS best, \
             MIN(CASE WHEN {goal} THEN a.attempt END) AS goal_at \
             FROM v LEFT JOIN insights_attempts a ON a.visit_id = v.visit_id AND {range} \
             GROUP BY v.visit_id, v.started_min)"
        );
        self
    }

    /// Appends SQL.
    pub(super) fn push(mut self, sql: &str) -> Self {
        self.sql.push(' ');
        self.sql.push_str(sql);
        self
    }

    pub(super) fn int(&mut self, v: i64) -> String {
        self.bind(Arg::Int(v))
    }

    pub(super) fn real(&mut self, v: f64) -> String {
        self.bind(Arg::Real(v))
    }

    pub(super) fn text(&mut self, v: &str) -> String {
        self.bind(Arg::Text(v.to_string()))
    }

    fn bind(&mut self, arg: Arg) -> String {
        self.args.push(arg);
        format!("${}", self.args.len())
    }

    pub(super) fn sql(&self) -> &str {
        &self.sql
    }

    /// The values, for `sqlx::query_with`.
    pub(super) fn arguments(&self) -> Result<AnyArguments<'static>, sqlx::Error> {
        let mut args = AnyArguments::default();
        for arg in &self.args {
            match arg {
                Arg::Int(v) => args.add(*v),
                Arg::Real(v) => args.add(*v),
                Arg::Text(v) => args.add(v.clone()),
            }
            .map_err(sqlx::Error::Encode)?;
        }
        Ok(args)
    }
}

/// Runs `query` (migrations first) and decodes every row as `O`.
pub(super) async fn fetch<O>(
    store: &Store,
    query: &Query,
) -> Result<Vec<O>, super::sink::StoreError>
where
    O: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    store.migrate().await?;
    let rows = sqlx::query_as_with::<_, O, _>(query.sql(), query.arguments()?)
        .fetch_all(store.reads())
        .await?;
    Ok(rows)
}

/// A count from the database (never negative).
pub(super) fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}
