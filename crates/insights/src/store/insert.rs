//! A batch's events into their tables, many rows a statement (one
//! statement per event cost the writer most of its time), in the batch's
//! transaction: its visits first (`ON CONFLICT DO NOTHING`: a visit seen
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
use sqlx::{
    any::{AnyArguments, AnyRow},
    error::BoxDynError,
    AnyConnection, Arguments, Executor,
};

use crate::{
    event::{Attempt, Event, ToolUse, Visit},
    lessons,
    rollup::{
        execute_rows, kept,
        plan::{self, Admitted},
        recent::Flags,
        write, Marks, Sums,
    },
    values::RoomCode,
};

/// Rows per statement (`benches/insights_writer.rs`, SQLite: one row a
/// statement gave about 8,000 events a second; 50 rows 19,000; 200 rows
/// 24,700; 500 rows 25,400, with values marked by [`Marks`]).
const ROWS: usize = 200;

/// Stores `events` but for their votes (`postgres`: its statements number
/// their values); how many attempts and tools it refused.
pub async fn write(
    conn: &mut AnyConnection,
    postgres: bool,
    events: &[Event],
) -> Result<u64, sqlx::Error> {
    let marks = Marks::new(postgres);
    let mut visits: Vec<&Visit> = Vec::new();
    let mut attempts: Vec<&Attempt> = Vec::new();
    // Per (visit, tool): its first use in the batch and how many.
    let mut tools: Vec<(&ToolUse, i64)> = Vec::new();
    let (mut seen_visits, mut seen_attempts) = (HashSet::new(), HashSet::new());
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
    let mut added: Vec<&Visit> = Vec::with_capacity(visits.len());
    for chunk in visits.chunks(ROWS) {
        let ids = insert_visits(conn, marks, chunk).await?;
        added.extend(
            chunk
                .iter()
                .filter(|v| ids.as_ref().is_none_or(|ids| ids.contains(v.id.as_str()))),
        );
    }
    let named: BTreeSet<&str> = (visits.iter().map(|v| v.id.as_str()))
        .chain(attempts.iter().map(|a| a.visit.as_str()))
        .chain(tools.iter().map(|(t, _)| t.visit.as_str()))
        .collect();
    if named.is_empty() {
        return Ok(0);
    }
    let named: Vec<&str> = named.into_iter().collect();
    write::give_rows(conn, marks, &added).await?;
    let sums = write::read(conn, marks, &named, postgres).await?;
    let first_id = reserve_ids(conn, attempts.len()).await?;
    let mut plan = plan::plan(sums, &added, &attempts, tools, first_id)
        .map_err(|e| sqlx::Error::Decode(e.into()))?;
    for chunk in plan.attempts.chunks(ROWS) {
        insert_attempts(conn, marks, chunk, &plan.sums).await?;
    }
    for chunk in plan.outcomes.chunks(ROWS) {
        set_outcomes(conn, marks, chunk).await?;
    }
    let mut first_used: Vec<&ToolUse> = Vec::new();
    for chunk in plan.tools.chunks(ROWS) {
        let uses = insert_tools(conn, marks, chunk).await?;
        for &(t, n) in chunk {
            let key = (t.visit.as_str().to_string(), t.tool.code().to_string());
            // A row this statement made holds only the batch's uses.
            if uses.get(&key) == Some(&n) {
                first_used.push(t);
            }
        }
    }
    write::apply(conn, postgres, &mut plan, &first_used).await?;
    Ok(plan.refused)
}

/// The first of `n` ids for attempts' rows (ids are given out in order, so
/// that the rows go in at the end of the table; none are given back).
async fn reserve_ids(conn: &mut AnyConnection, n: usize) -> Result<i64, sqlx::Error> {
    if n == 0 {
        return Ok(0);
    }
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    let (next,): (i64,) =
        sqlx::query_as("UPDATE insights_attempt_ids SET next = next + $1 RETURNING next")
            .bind(n)
            .fetch_one(&mut *conn)
            .await?;
    Ok(next - n)
}

/// The ids of the visits it added (`None`: all of them).
async fn insert_visits(
    conn: &mut AnyConnection,
    marks: Marks,
    visits: &[&Visit],
) -> Result<Option<HashSet<String>>, sqlx::Error> {
    let sql = format!(
        "INSERT INTO insights_visits (visit_id, lesson, lang, layout, device, room, started_min) \
         VALUES {} ON CONFLICT (visit_id) DO NOTHING",
        marks.tuples(visits.len(), 7)
    );
    let args = || {
        let mut args = AnyArguments::default();
        for v in visits {
            args.add(v.id.as_str().to_string())?;
            args.add(lessons::number(v.lesson))?;
            args.add(v.lang.code())?;
            args.add(v.layout.code())?;
            args.add(v.device.code())?;
            args.add(v.room.as_ref().map(|r| RoomCode::as_str(r).to_string()))?;
            args.add(v.started.0)?;
        }
        Ok(args)
    };
    let ids: Option<Vec<(String,)>> = new_rows(conn, &sql, "visit_id", visits.len(), args).await?;
    Ok(ids.map(|ids| ids.into_iter().map(|(id,)| id).collect()))
}

/// Stores `attempts`, each with its id, its visit's start, language and
/// room (from its visit's `sums`), and its comment's outcome.
async fn insert_attempts(
    conn: &mut AnyConnection,
    marks: Marks,
    attempts: &[Admitted<'_>],
    sums: &HashMap<CompactString, Sums>,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "INSERT INTO insights_attempts (id, visit_id, attempt, lesson, lang, error, weight, \
         weight2, bias, model, outcome, reason, latency_ms, at_min, started_min, visit_lang, \
         room, followed, improved, reached) VALUES {}",
        marks.tuples(attempts.len(), 20)
    );
    execute_rows(conn, &sql, attempts, ROWS, |args, admitted| {
        let (a, o) = (admitted.attempt, admitted.outcome);
        let n = &a.numbers;
        // The plan admits only attempts of visits in its sums.
        let visit = sums.get(a.visit.as_str());
        args.add(admitted.id)?;
        args.add(a.visit.as_str())?;
        args.add(i64::from(n.number()))?;
        args.add(lessons::number(n.lesson()))?;
        args.add(a.lang.code())?;
        args.add(n.error())?;
        args.add(n.weight())?;
        // 0 in lesson 1 (a missing f64 would bind as an f32: `rollup::rows`).
        args.add(n.weight2().unwrap_or(0.0))?;
        args.add(n.bias())?;
        args.add(a.model.as_str())?;
        args.add(a.outcome.code())?;
        args.add(a.outcome.reason().map(|r| r.as_str()))?;
        args.add(admitted.latency_ms)?;
        args.add(a.at.0)?;
        args.add(visit.and_then(|v| v.started).unwrap_or_default())?;
        args.add(visit.and_then(|v| v.lang.as_deref()).unwrap_or_default())?;
        args.add(visit.and_then(|v| v.room.as_deref()))?;
        args.add(i64::from(o.followed))?;
        args.add(i64::from(o.improved))?;
        args.add(i64::from(o.reached))
    })
    .await
}

/// Sets the outcomes of comments stored before (`(id, outcome)`).
async fn set_outcomes(
    conn: &mut AnyConnection,
    marks: Marks,
    outcomes: &[(i64, Flags)],
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "WITH o (id, followed, improved, reached) AS (VALUES {}) \
         UPDATE insights_attempts SET followed = o.followed, improved = o.improved, \
         reached = o.reached FROM o WHERE insights_attempts.id = o.id",
        marks.tuples(outcomes.len(), 4)
    );
    execute_rows(conn, &sql, outcomes, ROWS, |args, (id, o)| {
        args.add(*id)?;
        args.add(i64::from(o.followed))?;
        args.add(i64::from(o.improved))?;
        args.add(i64::from(o.reached))
    })
    .await
}

/// Runs `insert` (an `INSERT … ON CONFLICT DO NOTHING` of `rows` rows, its
/// values from `args`) and tells which rows it added: `None` when it added
/// every one, which is nearly always (a row is repeated only when a page
/// sends an event twice), and nothing is read back; otherwise the statement
/// is undone and run again `RETURNING` the `keys` of the rows it adds.
async fn new_rows<K>(
    conn: &mut AnyConnection,
    insert: &str,
    keys: &str,
    rows: usize,
    args: impl Fn() -> Result<AnyArguments<'static>, BoxDynError>,
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

/// Each (visit, tool)'s uses after the statement.
async fn insert_tools(
    conn: &mut AnyConnection,
    marks: Marks,
    tools: &[(&ToolUse, i64)],
) -> Result<HashMap<(String, String), i64>, sqlx::Error> {
    let sql = format!(
        "INSERT INTO insights_tools (visit_id, tool, first_min, uses) VALUES {} \
         ON CONFLICT (visit_id, tool) DO UPDATE SET uses = insights_tools.uses + excluded.uses \
         RETURNING visit_id, tool, uses",
        marks.tuples(tools.len(), 4)
    );
    let mut args = AnyArguments::default();
    for &(t, n) in tools {
        let row = (|| {
            args.add(t.visit.as_str().to_string())?;
            args.add(t.tool.code())?;
            args.add(t.at.0)?;
            args.add(n)
        })();
        row.map_err(sqlx::Error::Encode)?;
    }
    let rows: Vec<(String, String, i64)> = sqlx::query_as_with(&sql, args)
        .persistent(kept(tools.len(), ROWS))
        .fetch_all(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(visit, tool, uses)| ((visit, tool), uses))
        .collect())
}
