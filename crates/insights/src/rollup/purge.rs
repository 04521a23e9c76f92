//! A purge, visit by visit, and the rollups through it (in its
//! transaction): every row of a visit begun before the cutoff goes with it,
//! whenever it was made ([`ROWS`]), so no visit that stays loses a row and
//! no sums need recomputing; [`after`] the deletes, the sums of visits that
//! went (and of ids left with nothing) go, the cells of days before the
//! cutoff's go, and the cutoff's own day, cut in two, is counted again from
//! the sums.

use sqlx::{AnyConnection, Executor};

use super::{bit, day_of, teaching};
use crate::{
    codes::Tool,
    event::{AFTER_START_MIN, BEFORE_START_MIN},
    lessons,
    values::Minute,
};
use lesson::lessons::Which;

/// The rows of visits begun before `$1`: attempts and tools made before any
/// visit that stays began, and those made since by visits that go (a
/// visit's rows are within [`BEFORE_START_MIN`] before its start and
/// [`AFTER_START_MIN`] after; ids of no stored visit go with them).
pub fn rows() -> [String; 4] {
    let (early, late) = (BEFORE_START_MIN, AFTER_START_MIN);
    let going =
        "SELECT visit_id FROM insights_visit_sums WHERE started_min < $1 OR started_min IS NULL";
    [
        format!("DELETE FROM insights_attempts WHERE at_min < $1 - {early}"),
        format!(
            "DELETE FROM insights_attempts WHERE at_min >= $1 - {early} AND at_min <= $1 + {late} \
             AND visit_id IN ({going})"
        ),
        format!("DELETE FROM insights_tools WHERE first_min < $1 - {early}"),
        format!(
            "DELETE FROM insights_tools WHERE first_min >= $1 - {early} \
             AND first_min <= $1 + {late} AND visit_id IN ({going})"
        ),
    ]
}

/// After the purge's deletes: drops what went, and counts the cutoff's day again.
pub async fn after(conn: &mut AnyConnection, cutoff: Minute) -> Result<(), sqlx::Error> {
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
    recount(conn, day_of(cutoff.0)).await
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
    let (early, late) = (BEFORE_START_MIN, AFTER_START_MIN);
    let attempts = format!("a.at_min >= $2 - {early} AND a.at_min <= $3 + {late}");
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
             WHERE {attempts} AND s.started_min >= $2 AND s.started_min < $3 AND s.lesson = {n} \
             GROUP BY s.lang, a.model, a.lang, a.outcome, COALESCE(a.reason, '')"
        ),
        format!(
            "INSERT INTO insights_day_latency \
             (day, lesson, lang, model, comment_lang, latency_ms, comments) \
             SELECT $1, {n}, s.lang, a.model, a.lang, a.latency_ms, COUNT(*) \
             FROM insights_visit_sums s JOIN insights_attempts a ON a.visit_id = s.visit_id \
             WHERE {attempts} AND s.started_min >= $2 AND s.started_min < $3 AND s.lesson = {n} \
             GROUP BY s.lang, a.model, a.lang, a.latency_ms"
        ),
        format!(
            "INSERT INTO {} (day, lesson, lang, model, comment_lang, comments, followed, \
             improved, above, reached) {}",
            teaching::TABLE,
            teaching::from_rows(
                lesson,
                "$1",
                "s.started_min >= $2 AND s.started_min < $3",
                &attempts
            )
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
