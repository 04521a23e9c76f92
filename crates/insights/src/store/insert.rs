//! A batch's events into their tables (`crate::db`: many rows a statement
//! on PostgreSQL, a few on SQLite), in the batch's transaction: its visits first (`ON CONFLICT DO NOTHING`: a visit seen
//! before is kept as first stored), each new one with its sums row
//! (`rollup::write::give_rows`), then the sums of every visit it names
//! are read and the batch is planned over them (`rollup::plan`: which
//! attempts and tools are stored, the ids and outcomes of the attempts), and
//! the rows go in: attempts in the order they came, with no key to keep
//! them from repeating (the plan has left repeats out), the outcomes of
//! comments stored before that changed, and the tools (a visit's uses of one
//! added up first: PostgreSQL updates a row once per statement, and a tool
//! counts every use from its first minute). The rollups follow
//! (`rollup::write`).

use std::collections::{BTreeSet, HashMap, HashSet};

use compact_str::CompactString;
use sqlx::{any::AnyRow, Executor};

use crate::{
    db::{any_args, kept, one_each, Db, Marks, Values, ROWS},
    event::{Attempt, Event, ToolUse, Visit},
    lessons,
    rollup::{
        plan::{self, Admitted},
        recent::Flags,
        write, Sums,
    },
    sink::StoreError,
};

/// Stores `events` but for their votes; how many attempts and tools it refused.
pub async fn write(db: &mut Db<'_>, events: &[Event]) -> Result<u64, StoreError> {
    let mut visits: Vec<&Visit> = Vec::new();
    // Sized for the batch at once: grown by doubling, a batch's copies
    // were most of the writer's page faults under load.
    let mut attempts: Vec<&Attempt> = Vec::with_capacity(events.len());
    // Per (visit, tool): its first use in the batch and how many.
    let mut tools: Vec<(&ToolUse, i64)> = Vec::new();
    let mut seen_visits = HashSet::new();
    let mut seen_attempts = HashSet::with_capacity(events.len());
    let mut tool_at: HashMap<(&str, &str), usize> = HashMap::new();
    for event in events {
        match event {
            Event::Visit(v) => {
                if seen_visits.insert(v.id.as_str()) {
                    visits.push(v);
                }
            }
            Event::Attempt(a) => {
                if seen_attempts.insert((a.visit.as_str(), a.numbers.number())) {
                    attempts.push(a);
                }
            }
            // Stored apart, with no visit to wait for (`store::votes`).
            Event::Vote(_) => {}
            Event::Tool(t) => {
                let key = (t.visit.as_str(), t.tool.code());
                match tool_at.get(&key) {
                    Some(&i) => tools[i].1 += 1,
                    None => {
                        tool_at.insert(key, tools.len());
                        tools.push((t, 1));
                    }
                }
            }
        }
    }
    // In key order: two replicas writing the same keys on PostgreSQL then
    // lock them in the same order and wait for each other instead of
    // deadlocking (which would cost one of them its batch).
    visits.sort_unstable_by(|a, b| a.id.as_str().cmp(b.id.as_str()));
    tools.sort_unstable_by(|(a, _), (b, _)| {
        (a.visit.as_str(), a.tool.code()).cmp(&(b.visit.as_str(), b.tool.code()))
    });
    let ids = insert_visits(db, &visits).await?;
    let added: Vec<&Visit> = visits
        .iter()
        .copied()
        .filter(|v| ids.as_ref().is_none_or(|ids| ids.contains(v.id.as_str())))
        .collect();
    let named: BTreeSet<&str> = (visits.iter().map(|v| v.id.as_str()))
        .chain(attempts.iter().map(|a| a.visit.as_str()))
        .chain(tools.iter().map(|(t, _)| t.visit.as_str()))
        .collect();
    if named.is_empty() {
        return Ok(0);
    }
    let named: Vec<&str> = named.into_iter().collect();
    write::give_rows(db, &added).await?;
    let sums = write::read(db, &named).await?;
    let first_id = reserve_ids(db, attempts.len()).await?;
    let mut plan = plan::plan(sums, &added, &attempts, tools, first_id)
        .map_err(|e| sqlx::Error::Decode(e.into()))?;
    insert_attempts(db, &plan.attempts, &plan.sums).await?;
    set_outcomes(db, &plan.outcomes).await?;
    let uses = insert_tools(db, &plan.tools).await?;
    let mut first_used: Vec<&ToolUse> = Vec::new();
    for &(t, n) in &plan.tools {
        let key = (t.visit.as_str().to_string(), t.tool.code().to_string());
        // A row the batch made holds only the batch's uses.
        if uses.get(&key) == Some(&n) {
            first_used.push(t);
        }
    }
    write::apply(db, &mut plan, &first_used).await?;
    Ok(plan.refused)
}

/// The first of `n` ids for attempts' rows (ids are given out in order, so
/// that the rows go in at the end of the table; none are given back).
async fn reserve_ids(db: &mut Db<'_>, n: usize) -> Result<i64, StoreError> {
    if n == 0 {
        return Ok(0);
    }
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    const SQL: &str = "UPDATE insights_attempt_ids SET next = next + $1 RETURNING next";
    let next: i64 = match db {
        Db::Many { conn, .. } => {
            sqlx::query_scalar(SQL)
                .bind(n)
                .fetch_one(&mut **conn)
                .await?
        }
        Db::One(conn) => conn.prepare_cached(SQL)?.query_row([n], |r| r.get(0))?,
    };
    Ok(next - n)
}

/// A visit's row of `insights_visits`.
fn visit_values<'q>(values: &mut dyn Values<'q>, v: &'q &Visit) {
    values.text(v.id.as_str());
    values.int(lessons::number(v.lesson));
    values.text(v.lang.code());
    values.text(v.layout.code());
    values.text(v.device.code());
    values.opt_text(v.room.as_ref().map(|r| r.as_str()));
    values.int(v.started.0);
}

/// The ids of the visits it added (`None`: all of them).
async fn insert_visits(
    db: &mut Db<'_>,
    visits: &[&Visit],
) -> Result<Option<HashSet<String>>, StoreError> {
    let sql = |marks: Marks, n| {
        format!(
            "INSERT INTO insights_visits (visit_id, lesson, lang, layout, device, room, \
             started_min) VALUES {} ON CONFLICT (visit_id) DO NOTHING",
            marks.tuples(n, 7)
        )
    };
    let (conn, marks) = match db {
        Db::Many { conn, marks } => (conn, *marks),
        Db::One(conn) => {
            let (mut added, mut all) = (HashSet::new(), true);
            one_each(
                conn,
                &sql(Marks::new(false), 1),
                visits,
                visit_values,
                |stmt, v| {
                    if stmt.raw_execute()? == 1 {
                        added.insert(v.id.as_str().to_string());
                    } else {
                        all = false;
                    }
                    Ok(())
                },
            )?;
            return Ok((!all).then_some(added));
        }
    };
    let mut added: Option<HashSet<String>> = None;
    for (i, chunk) in visits.chunks(ROWS).enumerate() {
        let args = || any_args(chunk, visit_values);
        let ids: Option<Vec<(String,)>> = new_rows(
            conn,
            &sql(marks, chunk.len()),
            "visit_id",
            chunk.len(),
            args,
        )
        .await?;
        if let Some(ids) = ids {
            let before = visits[..i * ROWS].iter().map(|v| v.id.as_str().to_string());
            let set = added.get_or_insert_with(|| before.collect());
            set.extend(ids.into_iter().map(|(id,)| id));
        } else if let Some(set) = added.as_mut() {
            set.extend(chunk.iter().map(|v| v.id.as_str().to_string()));
        }
    }
    Ok(added)
}

/// Stores `attempts`, each with its id, its visit's start, language and
/// room (from its visit's `sums`), and its comment's outcome.
async fn insert_attempts(
    db: &mut Db<'_>,
    attempts: &[Admitted<'_>],
    sums: &HashMap<CompactString, Sums>,
) -> Result<(), StoreError> {
    let sql = |marks: Marks, n| {
        format!(
            "INSERT INTO insights_attempts (id, visit_id, attempt, lesson, lang, error, \
             weight, weight2, bias, model, outcome, reason, latency_ms, at_min, started_min, \
             visit_lang, room, followed, improved, reached) VALUES {}",
            marks.tuples(n, 20)
        )
    };
    db.rows(attempts, sql, |values, admitted| {
        let (a, o) = (admitted.attempt, admitted.outcome);
        let n = &a.numbers;
        // The plan admits only attempts of visits in its sums.
        let visit = sums.get(a.visit.as_str());
        values.int(admitted.id);
        values.text(a.visit.as_str());
        values.int(i64::from(n.number()));
        values.int(lessons::number(n.lesson()));
        values.text(a.lang.code());
        values.real(n.error());
        values.real(n.weight());
        // 0 in lesson 1 (a missing f64 would bind as an f32: `rollup::rows`).
        values.real(n.weight2().unwrap_or(0.0));
        values.real(n.bias());
        values.text(a.model.as_str());
        values.text(a.outcome.code());
        values.opt_text(a.outcome.reason().map(|r| r.as_str()));
        values.int(admitted.latency_ms);
        values.int(a.at.0);
        values.int(visit.and_then(|v| v.started).unwrap_or_default());
        values.text(visit.and_then(|v| v.lang.as_deref()).unwrap_or_default());
        values.opt_text(visit.and_then(|v| v.room.as_deref()));
        values.int(i64::from(o.followed));
        values.int(i64::from(o.improved));
        values.int(i64::from(o.reached));
    })
    .await
}

/// Sets the outcomes of comments stored before (`(id, outcome)`).
async fn set_outcomes(db: &mut Db<'_>, outcomes: &[(i64, Flags)]) -> Result<(), StoreError> {
    // One row needs no table of them (SQLite makes one for each run).
    let sql = |marks: Marks, n| match n {
        1 => format!(
            "UPDATE insights_attempts SET followed = {}, improved = {}, reached = {} \
             WHERE id = {}",
            marks.at(2),
            marks.at(3),
            marks.at(4),
            marks.at(1)
        ),
        _ => format!(
            "WITH o (id, followed, improved, reached) AS (VALUES {}) \
             UPDATE insights_attempts SET followed = o.followed, improved = o.improved, \
             reached = o.reached FROM o WHERE insights_attempts.id = o.id",
            marks.tuples(n, 4)
        ),
    };
    db.rows(outcomes, sql, |values, (id, o)| {
        values.int(*id);
        values.int(i64::from(o.followed));
        values.int(i64::from(o.improved));
        values.int(i64::from(o.reached));
    })
    .await
}

/// Runs `insert` (an `INSERT … ON CONFLICT DO NOTHING` of `rows` rows, its
/// values from `args`) and tells which rows it added: `None` when it added
/// every one, which is nearly always (a row is repeated only when a page
/// sends an event twice), and nothing is read back; otherwise the statement
/// is undone and run again `RETURNING` the `keys` of the rows it adds.
async fn new_rows<'q, K>(
    conn: &mut sqlx::AnyConnection,
    insert: &str,
    keys: &str,
    rows: usize,
    args: impl Fn() -> Result<sqlx::any::AnyArguments<'q>, sqlx::error::BoxDynError>,
) -> Result<Option<Vec<K>>, sqlx::Error>
where
    K: for<'r> sqlx::FromRow<'r, AnyRow> + Send + Unpin,
{
    conn.execute("SAVEPOINT new_rows").await?;
    let added = sqlx::query_with(insert, args().map_err(sqlx::Error::Encode)?)
        .persistent(kept(rows, ROWS))
        .execute(&mut *conn)
        .await?
        .rows_affected();
    if added == rows as u64 {
        conn.execute("RELEASE SAVEPOINT new_rows").await?;
        return Ok(None);
    }
    conn.execute("ROLLBACK TO SAVEPOINT new_rows").await?;
    conn.execute("RELEASE SAVEPOINT new_rows").await?;
    let returning = format!("{insert} RETURNING {keys}");
    // Rare: never kept.
    let keys = sqlx::query_as_with(&returning, args().map_err(sqlx::Error::Encode)?)
        .persistent(false)
        .fetch_all(&mut *conn)
        .await?;
    Ok(Some(keys))
}

/// A tool's first use in the batch and how many.
fn tool_values<'q>(values: &mut dyn Values<'q>, (t, n): &'q (&ToolUse, i64)) {
    values.text(t.visit.as_str());
    values.text(t.tool.code());
    values.int(t.at.0);
    values.int(*n);
}

/// Each (visit, tool)'s uses after the statement.
async fn insert_tools(
    db: &mut Db<'_>,
    tools: &[(&ToolUse, i64)],
) -> Result<HashMap<(String, String), i64>, StoreError> {
    let sql = |marks: Marks, n| {
        format!(
            "INSERT INTO insights_tools (visit_id, tool, first_min, uses) VALUES {} \
             ON CONFLICT (visit_id, tool) DO UPDATE SET uses = insights_tools.uses + \
             excluded.uses RETURNING visit_id, tool, uses",
            marks.tuples(n, 4)
        )
    };
    let mut uses = HashMap::with_capacity(tools.len());
    match db {
        Db::One(conn) => {
            one_each(
                conn,
                &sql(Marks::new(false), 1),
                tools,
                tool_values,
                |stmt, (t, _)| {
                    let n: i64 = stmt
                        .raw_query()
                        .next()?
                        .map(|r| r.get(2))
                        .transpose()?
                        .unwrap_or(0);
                    uses.insert((t.visit.as_str().to_string(), t.tool.code().to_string()), n);
                    Ok(())
                },
            )?;
        }
        Db::Many { conn, marks } => {
            for chunk in tools.chunks(ROWS) {
                let args = any_args(chunk, tool_values).map_err(sqlx::Error::Encode)?;
                let rows: Vec<(String, String, i64)> =
                    sqlx::query_as_with(&sql(*marks, chunk.len()), args)
                        .persistent(kept(chunk.len(), ROWS))
                        .fetch_all(&mut **conn)
                        .await?;
                uses.extend(rows.into_iter().map(|(visit, tool, n)| ((visit, tool), n)));
            }
        }
    }
    Ok(uses)
}
