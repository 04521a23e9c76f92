//! The reports from the day rollups (`crate::rollup`), for filters
//! of whole days without a room ([`Days`], from `Store::whole_days`): the day
//! tables' counts summed over the days. The same numbers as the queries of
//! the stored rows in the other modules, which the tests check.

use super::{
    coach::{CoachReport, Tally},
    count,
    effort::Effort,
    funnel::{Day, DayRow, Funnel, FunnelRow},
    tools::{reports, ToolReport},
    Days,
};
use crate::{sink::StoreError, store::Store};

/// The days, the language and the lesson: `$1` to `$4` of every statement here.
const OF_DAYS: &str = "day >= $1 AND day < $2 AND ($3 = '' OR lang = $3) AND lesson = $4";

/// Runs `sql` (its `$1`–`$4` the days' bounds, language and lesson) and
/// decodes every row.
async fn rows<O>(store: &Store, days: Days, sql: &str) -> Result<Vec<O>, StoreError>
where
    O: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    Ok(sqlx::query_as(sql)
        .bind(days.first)
        .bind(days.end)
        .bind(days.lang)
        .bind(days.lesson)
        .fetch_all(store.reads())
        .await?)
}

pub(super) async fn funnel(store: &Store, days: Days) -> Result<Funnel, StoreError> {
    let sum = |c: &str| format!("CAST(COALESCE(SUM({c}), 0) AS BIGINT)");
    let sql = format!(
        "SELECT {}, {}, {}, {}, {}, {} FROM insights_day_visits WHERE {OF_DAYS}",
        sum("visits"),
        sum("attempted"),
        sum("rung_1"),
        sum("rung_2"),
        sum("rung_3"),
        sum("reached")
    );
    let rows: Vec<FunnelRow> = rows(store, days, &sql).await?;
    Ok(Funnel::from_counts(&rows))
}

pub(super) async fn per_day(store: &Store, days: Days) -> Result<Vec<Day>, StoreError> {
    let sql = format!(
        "SELECT day, CAST(SUM(visits) AS BIGINT), CAST(SUM(reached) AS BIGINT) \
         FROM insights_day_visits WHERE {OF_DAYS} GROUP BY day HAVING SUM(visits) > 0 ORDER BY day"
    );
    let rows: Vec<DayRow> = rows(store, days, &sql).await?;
    Ok(Day::from_counts(rows))
}

/// Sorted values from (value, how many) pairs (a negative value counts as 0).
fn spread(hist: Vec<(i64, i64)>) -> Vec<u64> {
    let mut values: Vec<u64> = hist
        .into_iter()
        .flat_map(|(value, n)| std::iter::repeat_n(count(value), usize::try_from(n).unwrap_or(0)))
        .collect();
    values.sort_unstable();
    values
}

pub(super) async fn effort(store: &Store, days: Days) -> Result<Effort, StoreError> {
    let attempts = format!(
        "SELECT goal_at, CAST(SUM(visits) AS BIGINT) FROM insights_day_goal_at \
         WHERE {OF_DAYS} AND goal_at > 0 GROUP BY goal_at HAVING SUM(visits) > 0"
    );
    let minutes = format!(
        "SELECT minutes, CAST(SUM(visits) AS BIGINT) FROM insights_day_goal_minutes \
         WHERE {OF_DAYS} GROUP BY minutes HAVING SUM(visits) > 0"
    );
    Ok(Effort {
        attempts: spread(rows(store, days, &attempts).await?),
        minutes: spread(rows(store, days, &minutes).await?),
    })
}

pub(super) async fn tools(store: &Store, days: Days) -> Result<Vec<ToolReport>, StoreError> {
    let all = format!(
        "SELECT goal_at, CAST(SUM(visits) AS BIGINT) FROM insights_day_goal_at \
         WHERE {OF_DAYS} GROUP BY goal_at HAVING SUM(visits) > 0"
    );
    let used = format!(
        "SELECT tool, goal_at, CAST(SUM(visits) AS BIGINT) FROM insights_day_tools \
         WHERE {OF_DAYS} GROUP BY tool, goal_at HAVING SUM(visits) > 0"
    );
    let reached = |at: i64| (at > 0).then_some(at);
    let all: Vec<(i64, i64)> = rows(store, days, &all).await?;
    let used: Vec<(String, i64, i64)> = rows(store, days, &used).await?;
    Ok(reports(
        all.into_iter().map(|(at, n)| (reached(at), n)).collect(),
        used.into_iter()
            .map(|(tool, at, n)| (tool, reached(at), n))
            .collect(),
    ))
}

pub(super) async fn coach(store: &Store, days: Days) -> Result<CoachReport, StoreError> {
    let comments = format!(
        "SELECT model, outcome, reason, CAST(SUM(comments) AS BIGINT) FROM insights_day_comments \
         WHERE {OF_DAYS} GROUP BY model, outcome, reason"
    );
    let latency = format!(
        "SELECT model, comment_lang, latency_ms, CAST(SUM(comments) AS BIGINT) \
         FROM insights_day_latency WHERE {OF_DAYS} GROUP BY model, comment_lang, latency_ms"
    );
    let mut tally = Tally::default();
    let comments: Vec<(String, String, String, i64)> = rows(store, days, &comments).await?;
    for (model, outcome, reason, n) in comments {
        tally.comments(model, &outcome, Some(reason), n);
    }
    let latency: Vec<(String, String, i64, i64)> = rows(store, days, &latency).await?;
    for (model, lang, latency_ms, n) in latency {
        tally.latency(&model, &lang, latency_ms, n);
    }
    Ok(tally.report())
}
