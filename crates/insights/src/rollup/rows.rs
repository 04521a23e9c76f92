//! Writing sums and cells, many rows a statement (multi-row upserts: every
//! key once per statement, as PostgreSQL requires).

use super::{Cell, Sums};
use crate::{
    db::{Db, Marks},
    packed::pack_point,
    sink::StoreError,
};

/// Writes what changes of visits' sums, `rows` at once (each has its row:
/// `write::give_rows`, whose start, lesson, language and room stay as that
/// wrote them, so that their indexes are not rewritten), and their latest
/// minute when it `moved`: SQLite rewrites an index entry for every column
/// a statement sets, changed or not, and most batches leave a visit in the
/// same minute (left alone, a tenth less of the database's work a recorded
/// comment, callgrind).
///
/// `best` is bound as a number even when it has none (no attempt yet):
/// sqlx's `Any` driver gives a missing `f64` the type of an `f32`, and
/// PostgreSQL then refuses the `f64` of the statement's next use.
pub(super) async fn write_sums(
    db: &mut Db<'_>,
    rows: &[(&str, &Sums)],
    moved: bool,
) -> Result<(), StoreError> {
    if rows.is_empty() {
        return Ok(());
    }
    let (minute, set_minute) = if moved {
        ("last_min, ", "last_min = excluded.last_min, ")
    } else {
        ("", "")
    };
    let sql = |marks: Marks, n| {
        format!(
            "INSERT INTO insights_visit_sums (visit_id, attempts, \
             best, goal_at, goal_min, {minute}tools, last_point, recent) VALUES {} \
             ON CONFLICT (visit_id) DO UPDATE SET \
             attempts = excluded.attempts, \
             best = CASE WHEN excluded.attempts > 0 THEN excluded.best END, \
             goal_at = excluded.goal_at, goal_min = excluded.goal_min, \
             {set_minute}tools = excluded.tools, \
             last_point = excluded.last_point, recent = excluded.recent",
            marks.tuples(n, if moved { 9 } else { 8 })
        )
    };
    db.rows(rows, sql, |v, (id, s)| {
        v.text(id);
        v.int(s.attempts);
        v.real(s.best.unwrap_or(0.0));
        v.opt_int(s.goal_at);
        v.opt_int(s.goal_min);
        if moved {
            v.opt_int(s.last_min);
        }
        v.int(s.tools);
        v.owned_text(s.last.map(pack_point));
        v.opt_text(s.recent.as_deref());
    })
    .await
}

/// One key or count of a cell's row.
enum V<'a> {
    Int(i64),
    Text(&'a str),
}

/// A cell's table, key columns, count columns and key values.
type Row<'a> = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    Vec<V<'a>>,
);

fn row(cell: &Cell) -> Row<'_> {
    use V::{Int, Text};
    match cell {
        Cell::Visits { day, lesson, lang } => (
            "insights_day_visits",
            &["day", "lesson", "lang"],
            &[
                "visits",
                "attempted",
                "rung_1",
                "rung_2",
                "rung_3",
                "reached",
            ],
            vec![Int(*day), Int(*lesson), Text(lang)],
        ),
        Cell::GoalAt {
            day,
            lesson,
            lang,
            goal_at,
        } => (
            "insights_day_goal_at",
            &["day", "lesson", "lang", "goal_at"],
            &["visits"],
            vec![Int(*day), Int(*lesson), Text(lang), Int(*goal_at)],
        ),
        Cell::Minutes {
            day,
            lesson,
            lang,
            minutes,
        } => (
            "insights_day_goal_minutes",
            &["day", "lesson", "lang", "minutes"],
            &["visits"],
            vec![Int(*day), Int(*lesson), Text(lang), Int(*minutes)],
        ),
        Cell::Tool {
            day,
            lesson,
            lang,
            tool,
            goal_at,
        } => (
            "insights_day_tools",
            &["day", "lesson", "lang", "tool", "goal_at"],
            &["visits"],
            vec![
                Int(*day),
                Int(*lesson),
                Text(lang),
                Text(tool),
                Int(*goal_at),
            ],
        ),
        Cell::Comments {
            day,
            lesson,
            lang,
            model,
            comment_lang,
            outcome,
            reason,
        } => (
            "insights_day_comments",
            &[
                "day",
                "lesson",
                "lang",
                "model",
                "comment_lang",
                "outcome",
                "reason",
            ],
            &["comments"],
            vec![
                Int(*day),
                Int(*lesson),
                Text(lang),
                Text(model),
                Text(comment_lang),
                Text(outcome),
                Text(reason),
            ],
        ),
        Cell::Latency {
            day,
            lesson,
            lang,
            model,
            comment_lang,
            latency_ms,
        } => (
            "insights_day_latency",
            &[
                "day",
                "lesson",
                "lang",
                "model",
                "comment_lang",
                "latency_ms",
            ],
            &["comments"],
            vec![
                Int(*day),
                Int(*lesson),
                Text(lang),
                Text(model),
                Text(comment_lang),
                Int(*latency_ms),
            ],
        ),
    }
}

/// Adds each `n` to its cell's counts (a new row when it has none); every
/// cell of one table, each once.
pub(super) async fn upsert(
    db: &mut Db<'_>,
    cells: &[(&Cell, &[i64; 6])],
) -> Result<(), StoreError> {
    let Some((first, _)) = cells.first() else {
        return Ok(());
    };
    let (table, keys, counts, _) = row(first);
    let width = keys.len() + counts.len();
    let adds: Vec<String> = counts
        .iter()
        .map(|c| format!("{c} = {table}.{c} + excluded.{c}"))
        .collect();
    let columns: Vec<&str> = keys.iter().chain(counts).copied().collect();
    let (columns, keys, adds) = (columns.join(", "), keys.join(", "), adds.join(", "));
    let sql = |marks: Marks, n| {
        format!(
            "INSERT INTO {table} ({columns}) VALUES {} ON CONFLICT ({keys}) DO UPDATE SET {adds}",
            marks.tuples(n, width),
        )
    };
    db.rows(cells, sql, |values, (cell, n)| {
        let (_, _, _, key) = row(cell);
        for v in key {
            match v {
                V::Int(i) => values.int(i),
                V::Text(t) => values.text(t),
            }
        }
        for &n in n.iter().take(counts.len()) {
            values.int(n);
        }
    })
    .await
}
