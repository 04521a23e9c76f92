//! A batch's events into their tables, many rows a statement (one
//! statement per event cost the writer most of its time): visits and
//! attempts with `ON CONFLICT DO NOTHING`, the keys it added read back
//! only when it did not add them all ([`new_rows`]), a
//! visit's uses of one tool added up first (PostgreSQL updates a row once per
//! statement). What the rows keep is as one event at a time would leave it: a
//! visit or attempt seen before (in the batch or earlier) is kept as first
//! stored; a tool counts every use from its first minute.
//!
//! An attempt or a tool is stored only with its visit: one whose visit is not
//! stored (by this batch or an earlier one), or began more than a day before
//! it ([`within_visit`]), or an attempt of another lesson than its visit's, is
//! left out and counted. Without that rule anyone
//! could write rows for made-up visits without end; the reports never showed
//! such rows anyway.

use std::collections::{HashMap, HashSet};

use sqlx::{
    any::{AnyArguments, AnyRow},
    error::BoxDynError,
    AnyConnection, Arguments, Executor,
};

use crate::{
    event::{within_visit, Attempt, Event, ToolUse, Visit},
    lessons,
    packed::Packing,
    rollup::{
        kept, two_significant,
        write::{texts, Added},
        Marks,
    },
    values::{Minute, RoomCode},
};

/// Visit ids per statement that looks their starts up.
const IDS: usize = 400;

/// Rows per statement (`benches/insights_writer.rs`, SQLite: one row a
/// statement gave about 8,000 events a second; 50 rows 19,000; 200 rows
/// 24,700; 500 rows 25,400, with values marked by [`Marks`]).
const ROWS: usize = 200;

/// Stores `events` (`postgres`: its statements number their values); the
/// rows it added.
pub async fn insert<'a>(
    conn: &mut AnyConnection,
    postgres: bool,
    events: &'a [Event],
) -> Result<Added<'a>, sqlx::Error> {
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
    attempts.sort_unstable_by(|a, b| {
        (a.visit.as_str(), a.numbers.number()).cmp(&(b.visit.as_str(), b.numbers.number()))
    });
    tools.sort_unstable_by(|(a, _), (b, _)| {
        (a.visit.as_str(), a.tool.code()).cmp(&(b.visit.as_str(), b.tool.code()))
    });
    let mut added = Added::default();
    for chunk in visits.chunks(ROWS) {
        let ids = insert_visits(conn, marks, chunk).await?;
        added.visits.extend(
            chunk
                .iter()
                .filter(|v| ids.as_ref().is_none_or(|ids| ids.contains(v.id.as_str()))),
        );
    }
    let starts = starts_of(
        conn,
        postgres,
        attempts
            .iter()
            .map(|a| a.visit.as_str())
            .chain(tools.iter().map(|(t, _)| t.visit.as_str())),
    )
    .await?;
    // The visit's start and lesson, if it is stored and `at` is within it.
    let visit_of = |visit: &str, at: Minute| {
        starts
            .get(visit)
            .filter(|&&(started, _)| within_visit(Minute(started), at))
    };
    let before = attempts.len() + tools.len();
    attempts.retain(|a| {
        visit_of(a.visit.as_str(), a.at)
            .is_some_and(|&(_, lesson)| lesson == lessons::number(a.numbers.lesson()))
    });
    tools.retain(|(t, _)| visit_of(t.visit.as_str(), t.at).is_some());
    added.without_visit = (before - attempts.len() - tools.len()) as u64;
    for chunk in attempts.chunks(ROWS) {
        let keys = insert_attempts(conn, marks, chunk).await?;
        for a in chunk {
            let added_now = keys.as_ref().is_none_or(|keys| {
                keys.contains(&(a.visit.as_str().to_string(), i64::from(a.numbers.number())))
            });
            if added_now {
                added.attempts.push((a, latency(a)));
            }
        }
    }
    for chunk in tools.chunks(ROWS) {
        let uses = insert_tools(conn, marks, chunk).await?;
        for &(t, n) in chunk {
            let key = (t.visit.as_str().to_string(), t.tool.code().to_string());
            // A row this statement made holds only the batch's uses.
            if uses.get(&key) == Some(&n) {
                added.tools.push(t);
            }
        }
    }
    Ok(added)
}

/// The stored start minute and lesson of each of `visits` that is stored.
///
/// One row a statement, the visits packed into one text (`id:start:lesson`,
/// `;` between them: `crate::packed`).
async fn starts_of<'v>(
    conn: &mut AnyConnection,
    postgres: bool,
    visits: impl Iterator<Item = &'v str>,
) -> Result<HashMap<String, (i64, i64)>, sqlx::Error> {
    let ids: Vec<&str> = visits.collect::<HashSet<_>>().into_iter().collect();
    let (marks, pack) = (Marks::new(postgres), Packing::new(postgres).aggregate());
    let mut starts = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(IDS) {
        let sql = format!(
            "SELECT {pack}(visit_id || ':' || started_min || ':' || lesson, ';') \
             FROM insights_visits WHERE visit_id IN ({})",
            marks.list(1, chunk.len())
        );
        let (packed,): (Option<String>,) = sqlx::query_as_with(&sql, texts(chunk)?)
            .persistent(kept(chunk.len(), IDS))
            .fetch_one(&mut *conn)
            .await?;
        starts.extend(packed.as_deref().into_iter().flat_map(unpack_starts));
    }
    Ok(starts)
}

/// The visits [`starts_of`] packed (one that does not read is left out).
fn unpack_starts(packed: &str) -> impl Iterator<Item = (String, (i64, i64))> + '_ {
    packed.split(';').filter_map(|one| {
        let mut fields = one.splitn(3, ':');
        let id = fields.next()?;
        let started = fields.next()?.parse().ok()?;
        let lesson = fields.next()?.parse().ok()?;
        Some((id.to_string(), (started, lesson)))
    })
}

/// An attempt's latency as stored: two significant digits.
fn latency(a: &Attempt) -> i64 {
    i64::try_from(two_significant(a.numbers.latency_ms())).unwrap_or(i64::MAX)
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

/// The (visit, number) of the attempts it added (`None`: all of them).
async fn insert_attempts(
    conn: &mut AnyConnection,
    marks: Marks,
    attempts: &[&Attempt],
) -> Result<Option<HashSet<(String, i64)>>, sqlx::Error> {
    let sql = format!(
        "INSERT INTO insights_attempts (visit_id, attempt, lesson, lang, error, weight, weight2, \
         bias, model, outcome, reason, latency_ms, at_min) VALUES {} \
         ON CONFLICT (visit_id, attempt) DO NOTHING",
        marks.tuples(attempts.len(), 13)
    );
    let args = || {
        let mut args = AnyArguments::default();
        for a in attempts {
            let n = &a.numbers;
            args.add(a.visit.as_str().to_string())?;
            args.add(i64::from(n.number()))?;
            args.add(lessons::number(n.lesson()))?;
            args.add(a.lang.code())?;
            args.add(n.error())?;
            args.add(n.weight())?;
            // 0 in lesson 1 (a missing f64 would bind as an f32: `rollup::rows`).
            args.add(n.weight2().unwrap_or(0.0))?;
            args.add(n.bias())?;
            args.add(a.model.as_str().to_string())?;
            args.add(a.outcome.code())?;
            args.add(a.outcome.reason().map(|r| r.as_str().to_string()))?;
            args.add(latency(a))?;
            args.add(a.at.0)?;
        }
        Ok(args)
    };
    let keys: Option<Vec<(String, i64)>> =
        new_rows(conn, &sql, "visit_id, attempt", attempts.len(), args).await?;
    Ok(keys.map(|keys| keys.into_iter().collect()))
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
