//! The rollups through a purge (in its transaction): [`before`] the rows go,
//! the sums of visits that stay but lose attempts or tools are recomputed
//! without them; [`after`], the sums of visits that went (and of ids left with
//! nothing) go, the cells of days before the cutoff's go, and the days a purge
//! cut into (the cutoff's own, and those of the visits recomputed) are counted
//! again from the sums.

use std::collections::BTreeSet;

use sqlx::{AnyConnection, Executor};

use super::{bit, day_of, teaching};
use crate::{codes::Tool, lessons, values::Minute};
use lesson::lessons::Which;

/// Visits that keep their visit row but lose rows of this purge.
const LOSING: &str = "(started_min IS NULL OR started_min >= $1) AND visit_id IN \
    (SELECT visit_id FROM insights_attempts WHERE at_min < $1 \
     UNION SELECT visit_id FROM insights_tools WHERE first_min < $1)";

/// `SUM(CASE tool WHEN 'descent_lab' THEN 1 …)` over `t`: a visit's tool bits.
fn tool_bits() -> String {
    let cases: Vec<String> = Tool::ALL
        .iter()
        .map(|&tool| format!("WHEN '{}' THEN {}", tool.code(), bit(tool)))
        .collect();
    format!("SUM(CASE t.tool {} ELSE 0 END)", cases.join(" "))
}

/// Before the purge's deletes: recomputes the sums of visits that stay but
/// lose attempts or tools; the days whose cells must then be counted again.
pub async fn before(
    conn: &mut AnyConnection,
    cutoff: Minute,
) -> Result<BTreeSet<i64>, sqlx::Error> {
    let started: Vec<(i64,)> = sqlx::query_as(&format!(
        "SELECT DISTINCT started_min FROM insights_visit_sums WHERE started_min IS NOT NULL AND {LOSING}"
    ))
    .bind(cutoff.0)
    .fetch_all(&mut *conn)
    .await?;
    let mut days: BTreeSet<i64> = started.into_iter().map(|(m,)| day_of(m)).collect();
    days.insert(day_of(cutoff.0));
    let of = "FROM insights_attempts a WHERE a.visit_id = insights_visit_sums.visit_id AND a.at_min >= $1";
    // Each lesson's visits by its goal (an id without its visit by lesson 1's).
    for lesson in Which::ALL {
        let goal = lessons::goal_sql(lesson, "a.error");
        let sql = format!(
            "UPDATE insights_visit_sums SET \
             attempts = COALESCE((SELECT MAX(a.attempt) {of}), 0), \
             best = (SELECT MIN(a.error) {of}), \
             goal_at = (SELECT MIN(a.attempt) {of} AND {goal}), \
             goal_min = (SELECT a.at_min {of} AND {goal} ORDER BY a.attempt LIMIT 1), \
             last_min = (SELECT MAX(a.at_min) {of}), \
             tools = COALESCE((SELECT {} FROM insights_tools t \
               WHERE t.visit_id = insights_visit_sums.visit_id AND t.first_min >= $1), 0) \
             WHERE {LOSING} AND COALESCE(lesson, 1) = {}",
            tool_bits(),
            lessons::number(lesson)
        );
        sqlx::query(&sql).bind(cutoff.0).execute(&mut *conn).await?;
    }
    Ok(days)
}

/// After the purge's deletes: drops what went, and counts `days` again.
pub async fn after(
    conn: &mut AnyConnection,
    cutoff: Minute,
    days: &BTreeSet<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM insights_visit_sums WHERE started_min < $1")
        .bind(cutoff.0)
        .execute(&mut *conn)
        .await?;
    // Ids of attempts and tools without their visit, now without either.
    sqlx::query(
        "DELETE FROM insights_visit_sums WHERE started_min IS NULL AND attempts = 0 AND tools = 0",
    )
    .execute(&mut *conn)
    .await?;
    for table in TABLES.iter().chain([&teaching::TABLE]) {
        sqlx::query(&format!("DELETE FROM {table} WHERE day < $1"))
            .bind(day_of(cutoff.0))
            .execute(&mut *conn)
            .await?;
    }
    for &day in days {
        recount(conn, day).await?;
    }
    Ok(())
}

/// The day tables of migration 0002 (0004's is [`teaching::TABLE`]).
pub const TABLES: [&str; 6] = [
    "insights_day_visits",
    "insights_day_goal_at",
    "insights_day_goal_minutes",
    "insights_day_tools",
    "insights_day_comments",
    "insights_day_latency",
];

/// Counts `day`'s cells again from the sums of the visits begun that day.
pub async fn recount(conn: &mut AnyConnection, day: i64) -> Result<(), sqlx::Error> {
    for table in TABLES.iter().chain([&teaching::TABLE]) {
        sqlx::query(&format!("DELETE FROM {table} WHERE day = $1"))
            .bind(day)
            .execute(&mut *conn)
            .await?;
    }
    for lesson in Which::ALL {
        recount_lesson(conn, day, lesson).await?;
    }
    Ok(())
}

/// [`recount`] for the visits of one lesson.
async fn recount_lesson(
    conn: &mut AnyConnection,
    day: i64,
    lesson: Which,
) -> Result<(), sqlx::Error> {
    let n = lessons::number(lesson);
    // $1 the day, $2 and $3 its first minute and the next day's.
    let of_day = format!(
        "FROM insights_visit_sums s WHERE s.started_min >= $2 AND s.started_min < $3 \
         AND s.lesson = {n}"
    );
    let mut statements = vec![
        format!(
            "INSERT INTO insights_day_visits \
             (day, lesson, lang, visits, attempted, rung_1, rung_2, rung_3, reached) \
             SELECT $1, {n}, s.lang, COUNT(*), COUNT(s.best), \
             COUNT(CASE WHEN s.best <= $4 THEN 1 END), \
             COUNT(CASE WHEN s.best <= $5 THEN 1 END), COUNT(CASE WHEN s.best <= $6 THEN 1 END), \
             COUNT(s.goal_at) {of_day} GROUP BY s.lang"
        ),
        format!(
            "INSERT INTO insights_day_goal_at (day, lesson, lang, goal_at, visits) \
             SELECT $1, {n}, s.lang, COALESCE(s.goal_at, 0), COUNT(*) {of_day} \
             GROUP BY s.lang, COALESCE(s.goal_at, 0)"
        ),
        format!(
            "INSERT INTO insights_day_goal_minutes (day, lesson, lang, minutes, visits) \
             SELECT $1, {n}, s.lang, s.goal_min - s.started_min, COUNT(*) {of_day} \
             AND s.goal_at IS NOT NULL GROUP BY s.lang, s.goal_min - s.started_min"
        ),
        format!(
            "INSERT INTO insights_day_comments \
             (day, lesson, lang, model, comment_lang, outcome, reason, comments) \
             SELECT $1, {n}, s.lang, a.model, a.lang, a.outcome, COALESCE(a.reason, ''), \
             COUNT(*) FROM insights_visit_sums s JOIN insights_attempts a ON a.visit_id = s.visit_id \
             WHERE s.started_min >= $2 AND s.started_min < $3 AND s.lesson = {n} \
             GROUP BY s.lang, a.model, a.lang, a.outcome, COALESCE(a.reason, '')"
        ),
        format!(
            "INSERT INTO insights_day_latency \
             (day, lesson, lang, model, comment_lang, latency_ms, comments) \
             SELECT $1, {n}, s.lang, a.model, a.lang, a.latency_ms, COUNT(*) \
             FROM insights_visit_sums s JOIN insights_attempts a ON a.visit_id = s.visit_id \
             WHERE s.started_min >= $2 AND s.started_min < $3 AND s.lesson = {n} \
             GROUP BY s.lang, a.model, a.lang, a.latency_ms"
        ),
        format!(
            "INSERT INTO {} (day, lesson, lang, model, comment_lang, comments, followed, \
             improved, above, reached) {}",
            teaching::TABLE,
            teaching::from_rows(lesson, "$1", "s.started_min >= $2 AND s.started_min < $3")
        ),
    ];
    for &tool in Tool::ALL {
        statements.push(format!(
            "INSERT INTO insights_day_tools (day, lesson, lang, tool, goal_at, visits) \
             SELECT $1, {n}, s.lang, '{}', COALESCE(s.goal_at, 0), COUNT(*) {of_day} \
             AND (s.tools & {}) <> 0 GROUP BY s.lang, COALESCE(s.goal_at, 0)",
            tool.code(),
            bit(tool)
        ));
    }
    let first = day * Minute::PER_DAY;
    let rungs = lessons::rungs(lesson);
    for (i, sql) in statements.iter().enumerate() {
        let q = sqlx::query(sql)
            .bind(day)
            .bind(first)
            .bind(first + Minute::PER_DAY);
        // Only the first statement compares with the rungs.
        let q = if i == 0 {
            q.bind(rungs[0]).bind(rungs[1]).bind(rungs[2])
        } else {
            q
        };
        conn.execute(q).await?;
    }
    Ok(())
}
