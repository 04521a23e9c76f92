//! A batch's new rows into the rollups, in the batch's transaction: the
//! visits they touch get a sums row if they had none, their sums are read
//! (locked on PostgreSQL, where another replica may write the same visit),
//! folded, written back, and each visit's counts move from its old sums' cells
//! to its new ones. A visit stored by this batch after attempts of earlier
//! batches brings those attempts' comments into its day's cells, read back
//! from the database.

use std::collections::{BTreeSet, HashMap};

use compact_str::CompactString;
use sqlx::{any::AnyArguments, AnyConnection, Arguments};

use super::{
    bit, kept,
    rows::{upsert, write_sums, ROWS},
    Cell, Comment, Deltas, Key, Marks, Sums,
};
use crate::{
    event::{Attempt, ToolUse, Visit},
    lessons,
    packed::{field, text, Packing},
};

/// The rows a batch added (a repeated visit or attempt adds none).
#[derive(Debug, Default)]
pub struct Added<'a> {
    pub visits: Vec<&'a Visit>,
    /// Each with its latency as stored.
    pub attempts: Vec<(&'a Attempt, i64)>,
    /// Tools a visit used for the first time.
    pub tools: Vec<&'a ToolUse>,
    /// Attempts and tools left out for want of their visit.
    pub without_visit: u64,
}

/// Visit ids per statement.
const CHUNK: usize = 400;

/// A comment as the day cells count it, its words borrowed: its visit's
/// cells, model, language, outcome and reason, then its latency.
type Alike<'a> = ((Key<'a>, &'a str, &'a str, &'a str, Option<&'a str>), i64);

/// Folds `added` into the rollups (`postgres`: the sums it reads are locked,
/// and its statements number their values); the sums of the visits it
/// touched, as it left them.
pub async fn apply(
    conn: &mut AnyConnection,
    postgres: bool,
    added: &Added<'_>,
) -> Result<HashMap<CompactString, Sums>, sqlx::Error> {
    let marks = Marks::new(postgres);
    let ids: BTreeSet<&str> = (added.visits.iter().map(|v| v.id.as_str()))
        .chain(added.attempts.iter().map(|(a, _)| a.visit.as_str()))
        .chain(added.tools.iter().map(|t| t.visit.as_str()))
        .collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let ids: Vec<&str> = ids.into_iter().collect();
    let old = read(conn, marks, &ids, postgres).await?;
    let mut new = old.clone();
    for v in &added.visits {
        let s = new.entry(CompactString::new(v.id.as_str())).or_default();
        s.started = Some(v.started.0);
        s.lesson = Some(lessons::number(v.lesson));
        s.lang = Some(CompactString::new(v.lang.code()));
        s.room = v.room.as_ref().map(|r| CompactString::new(r.as_str()));
    }
    for (a, _) in &added.attempts {
        let n = &a.numbers;
        new.entry(CompactString::new(a.visit.as_str()))
            .or_default()
            .add_attempt(n.lesson(), i64::from(n.number()), n.error(), a.at.0);
    }
    for t in &added.tools {
        new.entry(CompactString::new(t.visit.as_str()))
            .or_default()
            .tools |= bit(t.tool);
    }

    let mut deltas = Deltas::new();
    let empty = Sums::default();
    for &id in &ids {
        old.get(id).unwrap_or(&empty).count_into(-1, &mut deltas);
        new.get(id).unwrap_or(&empty).count_into(1, &mut deltas);
    }
    // Visits that arrive after attempts of earlier batches: all their
    // comments from the database (this batch's included).
    let earlier: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|&id| {
            let before = old.get(id).unwrap_or(&empty);
            let after = new.get(id).unwrap_or(&empty);
            before.started.is_none() && before.attempts > 0 && after.started.is_some()
        })
        .collect();
    // This batch's comments of visits already counted, alike ones counted
    // together: a batch's comments are mostly of a few models, languages and
    // latencies, and each cell is built once instead of once a comment.
    let mut alike: HashMap<Alike<'_>, i64> = HashMap::new();
    for (a, latency_ms) in &added.attempts {
        let id = a.visit.as_str();
        if earlier.binary_search(&id).is_ok() {
            continue;
        }
        if let Some(cell) = new.get(id).and_then(Sums::cell) {
            let reason = a.outcome.reason().map(|r| r.as_str());
            let comment = (
                cell,
                a.model.as_str(),
                a.lang.code(),
                a.outcome.code(),
                reason,
            );
            *alike.entry((comment, *latency_ms)).or_default() += 1;
        }
    }
    for (((cell, model, lang, outcome, reason), latency_ms), n) in alike {
        Comment::new(model, lang, outcome, reason, latency_ms).count_into(cell, n, &mut deltas);
    }
    for chunk in earlier.chunks(CHUNK) {
        let sql = format!(
            "SELECT visit_id, model, lang, outcome, reason, latency_ms FROM insights_attempts \
             WHERE visit_id IN ({})",
            marks.list(1, chunk.len())
        );
        let rows: Vec<(String, String, String, String, Option<String>, i64)> =
            sqlx::query_as_with(&sql, texts(chunk)?)
                .persistent(kept(chunk.len(), CHUNK))
                .fetch_all(&mut *conn)
                .await?;
        for (visit, model, lang, outcome, reason, latency_ms) in rows {
            let Some(cell) = new.get(visit.as_str()).and_then(Sums::cell) else {
                continue;
            };
            let comment = Comment::new(&model, &lang, &outcome, reason.as_deref(), latency_ms);
            comment.count_into(cell, 1, &mut deltas);
        }
    }

    let changed: Vec<(&str, &Sums)> = ids
        .iter()
        .filter_map(|&id| Some((id, new.get(id)?)))
        .filter(|&(id, after)| old.get(id) != Some(after))
        .collect();
    for chunk in changed.chunks(ROWS) {
        write_sums(conn, marks, chunk).await?;
    }
    let mut by_table: Vec<(&Cell, &[i64; 6])> = Vec::new();
    for (cell, n) in &deltas {
        if n.iter().all(|&n| n == 0) {
            continue;
        }
        let same_table = by_table.first().is_some_and(|(first, _)| {
            std::mem::discriminant(*first) == std::mem::discriminant(cell)
        });
        if !same_table || by_table.len() == ROWS {
            upsert(conn, marks, &by_table).await?;
            by_table.clear();
        }
        by_table.push((cell, n));
    }
    upsert(conn, marks, &by_table).await?;
    Ok(new)
}

/// `values` bound one after the other, as texts.
pub(crate) fn texts(values: &[&str]) -> Result<AnyArguments<'static>, sqlx::Error> {
    let mut args = AnyArguments::default();
    for v in values {
        args.add(v.to_string()).map_err(sqlx::Error::Encode)?;
    }
    Ok(args)
}

/// The sums of `ids`, after giving each a row (in id order, so that two
/// transactions lock them in the same order; `postgres`: locked), read
/// back packed (`crate::packed`).
async fn read(
    conn: &mut AnyConnection,
    marks: Marks,
    ids: &[&str],
    postgres: bool,
) -> Result<HashMap<CompactString, Sums>, sqlx::Error> {
    let packing = Packing::new(postgres);
    let fields = [
        "visit_id".to_string(),
        text("started_min"),
        text("lesson"),
        text("lang"),
        text("room"),
        text("attempts"),
        format!("COALESCE({}, '')", packing.exact("best")),
        text("goal_at"),
        text("goal_min"),
        text("last_min"),
        text("tools"),
    ]
    .join(" || ':' || ");
    let mut sums = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(CHUNK) {
        let sql = format!(
            "INSERT INTO insights_visit_sums (visit_id) VALUES {} ON CONFLICT (visit_id) DO NOTHING",
            marks.tuples(chunk.len(), 1)
        );
        sqlx::query_with(&sql, texts(chunk)?)
            .persistent(kept(chunk.len(), CHUNK))
            .execute(&mut *conn)
            .await?;
        let sql = format!(
            "SELECT {}({fields}, ';') FROM (SELECT * FROM insights_visit_sums \
             WHERE visit_id IN ({}) ORDER BY visit_id{}) s",
            packing.aggregate(),
            marks.list(1, chunk.len()),
            if postgres { " FOR UPDATE" } else { "" }
        );
        let (packed,): (Option<String>,) = sqlx::query_as_with(&sql, texts(chunk)?)
            .persistent(kept(chunk.len(), CHUNK))
            .fetch_one(&mut *conn)
            .await?;
        for one in packed.iter().flat_map(|p| p.split(';')) {
            let (id, row) = unpack_sums(one)?;
            sums.insert(CompactString::new(id), row);
        }
    }
    Ok(sums)
}

/// One visit's sums as [`read`] packed them.
fn unpack_sums(packed: &str) -> Result<(&str, Sums), sqlx::Error> {
    let f: Vec<&str> = packed.split(':').collect();
    let [id, started, lesson, lang, room, attempts, best, goal_at, goal_min, last_min, tools] =
        f[..]
    else {
        return Err(sqlx::Error::Decode(
            format!("a visit's sums that do not read: {packed:?}").into(),
        ));
    };
    let sums = Sums {
        started: field(started)?,
        lesson: field(lesson)?,
        lang: field(lang)?,
        room: field(room)?,
        attempts: field(attempts)?.unwrap_or_default(),
        best: field(best)?,
        goal_at: field(goal_at)?,
        goal_min: field(goal_min)?,
        last_min: field(last_min)?,
        tools: field(tools)?.unwrap_or_default(),
    };
    Ok((id, sums))
}
