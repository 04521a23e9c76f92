//! What became of each comment's visit, counted per day
//! (`insights_day_teaching`, migration 0004): for a comment on attempt `n`,
//! whether the visit made attempt `n + 1` (*followed*) and, if so, whether
//! its error was lower (*improved*); and, for a comment above the goal,
//! whether one of attempts `n + 1` to `n + 5` reached it (*reached*).
//!
//! The writer works each comment's outcome out from its visit's latest
//! attempts ([`super::recent`], [`super::plan`]), keeps it in the comment's
//! row (`followed`, `improved`, `reached`, migration 0006) and adds the
//! changes to the cells of the visit's day and language ([`apply`]); the
//! reports and a purge's recount add up the rows' ([`counts`]).

use std::collections::HashMap;

use compact_str::CompactString;

use super::recent::Outcome;
use crate::lessons;
use crate::{db::Db, sink::StoreError};
use lesson::lessons::Which;

/// (day, lesson, visit language, model, comment language).
pub type CellKey = (i64, i64, CompactString, CompactString, CompactString);

/// Adds `deltas` to their cells.
pub async fn apply(db: &mut Db<'_>, deltas: &HashMap<CellKey, Outcome>) -> Result<(), StoreError> {
    let mut cells: Vec<(&CellKey, &Outcome)> =
        deltas.iter().filter(|(_, d)| !d.is_zero()).collect();
    // In key order: two PostgreSQL replicas then lock cells in one order.
    cells.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let sql = |marks: crate::db::Marks, n| {
        format!(
            "INSERT INTO {TABLE} (day, lesson, lang, model, comment_lang, comments, followed, \
         improved, above, reached) VALUES {} \
         ON CONFLICT (day, lesson, lang, model, comment_lang) DO UPDATE SET \
         comments = {TABLE}.comments + excluded.comments, \
         followed = {TABLE}.followed + excluded.followed, \
         improved = {TABLE}.improved + excluded.improved, \
         above = {TABLE}.above + excluded.above, \
         reached = {TABLE}.reached + excluded.reached",
            marks.tuples(n, 10)
        )
    };
    db.rows(&cells, sql, |v, (key, o)| {
        let (day, lesson, lang, model, comment_lang) = &**key;
        v.int(*day);
        v.int(*lesson);
        v.text(lang.as_str());
        v.text(model.as_str());
        v.text(comment_lang.as_str());
        v.int(o.comments);
        v.int(o.followed);
        v.int(o.improved);
        v.int(o.above);
        v.int(o.reached);
    })
    .await
}

/// The day table.
pub const TABLE: &str = "insights_day_teaching";

/// The five counts of a cell over attempts `a` of `lesson`, in SQL:
/// comments, followed, improved, above the goal, reached it within five
/// (each a sum of ones: PostgreSQL's sum of a BIGINT is a NUMERIC, which
/// sqlx's `Any` driver does not read).
pub fn counts(lesson: Which) -> String {
    let above = format!("NOT ({})", lessons::goal_sql(lesson, "a.error"));
    let ones = |flag: &str| format!("SUM(CASE WHEN {flag} THEN 1 ELSE 0 END)");
    format!(
        "COUNT(*), {}, {}, {}, {}",
        ones("a.followed = 1"),
        ones("a.improved = 1"),
        ones(&above),
        ones("a.reached = 1")
    )
}

/// The cells' counts of `lesson`, from the stored rows: `day` (an SQL
/// expression) for every row, of the visits whose `insights_visit_sums` rows
/// (`s`) the condition `visits` selects, their attempts among those the
/// condition `attempts` selects (on `a`: a range of minutes that holds
/// them, which the attempts are indexed by); what a purge counts again.
pub fn from_rows(lesson: Which, day: &str, visits: &str, attempts: &str) -> String {
    format!(
        "SELECT {day}, s.lesson, s.lang, a.model, a.lang, {} \
         FROM insights_attempts a JOIN insights_visit_sums s ON s.visit_id = a.visit_id \
         WHERE ({attempts}) AND s.started_min IS NOT NULL AND s.lang IS NOT NULL \
         AND s.lesson = {} AND ({visits}) \
         GROUP BY s.started_min / 1440, s.lesson, s.lang, a.model, a.lang",
        counts(lesson),
        lessons::number(lesson)
    )
}
