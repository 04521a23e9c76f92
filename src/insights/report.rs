//! What `/insights` shows, as typed queries on the [`Store`]: each takes a
//! [`Filter`] (a period, a language, a room) and returns typed rows.
//!
//! A filter selects visits: those begun in `[from, to)`, in the language they
//! began in, in the room. Every report then looks at those visits and their
//! attempts and tools; an attempt or a tool whose visit was never recorded (its
//! visit event dropped) is left out of all of them. "Reached the goal" is the
//! page's own rule ([`reaches_goal`]: an error at or below 450) and "attempts
//! to the goal" is the number of the first attempt that did.
//!
//! - [`funnel`]: the funnel and the visits per day;
//! - [`effort`]: attempts and minutes to the goal, where learners stop, the
//!   paths of those who arrived;
//! - [`tools`]: what helps (each tool's users against the rest);
//! - [`coach`]: comments per model, rejections, offline share, latencies;
//! - [`room`]: a room's visitors now.
//!
//! Percentiles and medians are computed here from counts ([`stats`]): SQLite
//! has no percentile function, and the rows grouped by value are few.
//!
//! [`reaches_goal`]: crate::lesson::neuron::reaches_goal

pub mod coach;
pub mod effort;
pub mod funnel;
pub mod room;
pub mod stats;
pub mod tools;

use sqlx::{any::AnyArguments, Arguments};

use super::{
    store::Store,
    values::{Minute, RoomCode},
};
use crate::{coach::Lang, lesson::neuron::GOAL};

/// Which visits a report is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Visits begun at or after this minute…
    pub from: Minute,
    /// …and before this one.
    pub to: Minute,
    /// Only visits begun in this language.
    pub lang: Option<Lang>,
    /// Only visits of this room.
    pub room: Option<RoomCode>,
}

impl Filter {
    /// Every visit begun in `[from, to)`.
    pub fn period(from: Minute, to: Minute) -> Self {
        Self {
            from,
            to,
            lang: None,
            room: None,
        }
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
        let from = q.int(filter.from.0);
        let to = q.int(filter.to.0);
        let mut sql = format!(
            "WITH v AS (SELECT visit_id, started_min FROM insights_visits \
             WHERE started_min >= {from} AND started_min < {to}"
        );
        if let Some(lang) = filter.lang {
            sql += &format!(" AND lang = {}", q.text(lang.code()));
        }
        if let Some(room) = &filter.room {
            sql += &format!(" AND room = {}", q.text(room.as_str()));
        }
        sql.push(')');
        q.sql = sql;
        q
    }

    /// Adds `va (visit_id, started_min, attempts, best, goal_at)`: per visit
    /// of `v`, its highest attempt number (0 for none), its best error and
    /// the number of its first attempt at the goal (NULL when none).
    pub(super) fn with_visit_attempts(mut self) -> Self {
        let goal = self.real(GOAL);
        self.sql += &format!(
            ", va AS (SELECT v.visit_id, v.started_min, \
             COALESCE(MAX(a.attempt), 0) AS attempts, MIN(a.error) AS best, \
             MIN(CASE WHEN a.error <= {goal} THEN a.attempt END) AS goal_at \
             FROM v LEFT JOIN insights_attempts a ON a.visit_id = v.visit_id \
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
        .fetch_all(&store.pool)
        .await?;
    Ok(rows)
}

/// A count from the database (never negative).
pub(super) fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}
