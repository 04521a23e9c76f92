//! The reports from the visits' sums (`insights_visit_sums`, kept by
//! `crate::rollup`): one row per visit of the filter instead of a
//! join of its attempts, for any filter (minutes, language, room). For
//! filters the day rollups cannot answer (a room, a day cut in two), and for
//! the map's points always; the coach, which counts comments, reads the
//! attempts. The same numbers as the queries of the stored rows.

use sqlx::Row;

use super::{
    count,
    effort::{Effort, PointRow, Points},
    fetch,
    funnel::{Day, DayRow, Funnel, FunnelRow},
    tools::{reports, ToolReport},
    Filter, Query,
};
use crate::{
    codes::Tool, event::BEFORE_START_MIN, lessons, packed::parse_point, rollup::bit,
    sink::StoreError, store::Store, values::Minute,
};

pub(super) async fn funnel(store: &Store, filter: &Filter) -> Result<Funnel, StoreError> {
    let mut q = Query::default();
    let of = q.condition(filter, "started_min");
    let rungs: Vec<String> = lessons::rungs(filter.lesson)
        .iter()
        .map(|&r| format!("COUNT(CASE WHEN best <= {} THEN 1 END)", q.real(r)))
        .collect();
    q.sql = format!(
        "SELECT COUNT(*), COUNT(best), {}, COUNT(goal_at) FROM insights_visit_sums WHERE {of}",
        rungs.join(", ")
    );
    let rows: Vec<FunnelRow> = fetch(store, &q).await?;
    Ok(Funnel::from_counts(&rows))
}

pub(super) async fn per_day(store: &Store, filter: &Filter) -> Result<Vec<Day>, StoreError> {
    let mut q = Query::default();
    let of = q.condition(filter, "started_min");
    // As `funnel::per_day` over the rows: a constant PostgreSQL matches by its text.
    let day = Minute::PER_DAY;
    q.sql = format!(
        "SELECT started_min / {day}, COUNT(*), COUNT(goal_at) FROM insights_visit_sums \
         WHERE {of} GROUP BY started_min / {day} ORDER BY 1"
    );
    let rows: Vec<DayRow> = fetch(store, &q).await?;
    Ok(Day::from_counts(rows))
}

pub(super) async fn effort(store: &Store, filter: &Filter) -> Result<Effort, StoreError> {
    let mut q = Query::default();
    let of = q.condition(filter, "started_min");
    q.sql = format!(
        "SELECT goal_at, goal_min - started_min FROM insights_visit_sums \
         WHERE {of} AND goal_at IS NOT NULL"
    );
    let rows: Vec<(i64, i64)> = fetch(store, &q).await?;
    let mut effort = Effort {
        attempts: rows.iter().map(|&(n, _)| count(n)).collect(),
        minutes: rows.iter().map(|&(_, m)| count(m)).collect(),
    };
    effort.attempts.sort_unstable();
    effort.minutes.sort_unstable();
    Ok(effort)
}

/// Visits by their first attempt at the goal, all of them and per tool, in
/// one pass over the sums (each tool a bit of `tools`).
pub(super) async fn tools(store: &Store, filter: &Filter) -> Result<Vec<ToolReport>, StoreError> {
    let mut q = Query::default();
    let of = q.condition(filter, "started_min");
    let used: Vec<String> = Tool::ALL
        .iter()
        .map(|&tool| format!("COUNT(CASE WHEN (tools & {}) <> 0 THEN 1 END)", bit(tool)))
        .collect();
    q.sql = format!(
        "SELECT goal_at, COUNT(*), {} FROM insights_visit_sums WHERE {of} GROUP BY goal_at",
        used.join(", ")
    );
    store.migrate().await?;
    let rows = sqlx::query_with(q.sql(), q.arguments()?)
        .fetch_all(store.reads())
        .await?;
    let mut all = Vec::with_capacity(rows.len());
    let mut by_tool = Vec::new();
    for row in rows {
        let at: Option<i64> = row.try_get(0)?;
        all.push((at, row.try_get(1)?));
        for (i, tool) in Tool::ALL.iter().enumerate() {
            let n: i64 = row.try_get(2 + i)?;
            if n > 0 {
                by_tool.push((tool.code().to_string(), at, n));
            }
        }
    }
    Ok(reports(all, by_tool))
}

/// The latest `cap` stuck visits' last points (found from the newest last
/// attempt back: the unary `+` keeps SQLite from choosing the start index
/// instead; each visit's sums keep its latest point), and the paths of the
/// latest `cap` visits at the goal (each read from the minutes its attempts
/// were made in, from the visit's start to its latest attempt. With its
/// values bound, SQLite would rather read every attempt, or index them all
/// by visit first: `CROSS JOIN` keeps the visits outside, and the visit's id
/// compared as an expression leaves it no index to build).
pub(super) async fn points(store: &Store, filter: &Filter, cap: u32) -> Result<Points, StoreError> {
    let mut q = Query::default();
    let of = q.condition(filter, "+started_min");
    let limit = q.int(i64::from(cap));
    q.sql = format!(
        "SELECT last_point FROM insights_visit_sums \
         WHERE {of} AND best IS NOT NULL AND goal_at IS NULL \
         ORDER BY last_min DESC, visit_id LIMIT {limit}"
    );
    let lasts: Vec<(Option<String>,)> = fetch(store, &q).await?;
    let mut stuck: Vec<PointRow> = Vec::with_capacity(lasts.len());
    for (packed,) in lasts {
        if let Some([w, w2, b, e]) = parse_point(packed.as_deref().unwrap_or_default())? {
            stuck.push((w, w2, b, e));
        }
    }

    let mut q = Query::default();
    let of = q.condition(filter, "started_min");
    let limit = q.int(i64::from(cap));
    q.sql = format!(
        "WITH p AS (SELECT visit_id, goal_at AS n, started_min, last_min \
         FROM insights_visit_sums WHERE {of} AND goal_at IS NOT NULL \
         ORDER BY started_min DESC, visit_id LIMIT {limit}) \
         SELECT p.visit_id, a.weight, a.weight2, a.bias, a.error \
         FROM p CROSS JOIN insights_attempts a \
         WHERE a.at_min >= p.started_min - {BEFORE_START_MIN} AND a.at_min <= p.last_min \
         AND CAST(a.visit_id AS TEXT) = p.visit_id AND {} \
         ORDER BY p.visit_id, a.attempt",
        super::effort::on_path("a.attempt", "p.n")
    );
    let paths: Vec<(String, f64, f64, f64, f64)> = fetch(store, &q).await?;
    Ok(super::effort::points(stuck, paths))
}
