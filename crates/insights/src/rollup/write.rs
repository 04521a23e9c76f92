//! A batch's changes to the rollups, in the batch's transaction: each visit
//! it stored gets its sums row ([`give_rows`]), the touched visits' sums are
//! read (locked on PostgreSQL, where another replica may write the same
//! visit), the batch is planned over them ([`super::plan`]), and once its
//! rows are stored what changed of the sums is written back and each visit's
//! counts move from its old sums' cells to its new ones, with its comments
//! and their outcomes.

use std::collections::{BTreeSet, HashMap};

use compact_str::CompactString;
use sqlx::{any::AnyArguments, Arguments};

use super::{
    bit,
    plan::Plan,
    rows::{upsert, write_sums},
    teaching, Cell, Comment, Key, Sums,
};
use crate::{
    db::{kept, Db, Marks},
    event::{ToolUse, Visit},
    lessons,
    packed::{field, parse_point, text, Packing},
    sink::StoreError,
};

/// Visit ids per statement.
const CHUNK: usize = 400;

/// A comment as the day cells count it, its words borrowed: its visit's
/// cells, model, language, outcome and reason, then its latency.
type Alike<'a> = ((Key<'a>, &'a str, &'a str, &'a str, Option<&'a str>), i64);

/// A visit's id and sums, as `rows::write_sums` writes them.
type SumsRow<'a> = (&'a str, &'a Sums);

/// Writes what `plan` changes in the rollups, `tools` being the tools its
/// visits used for the first time (`postgres`: statements number their values).
pub async fn apply(
    db: &mut Db<'_>,
    plan: &mut Plan<'_>,
    tools: &[&ToolUse],
) -> Result<(), StoreError> {
    for t in tools {
        if let Some(s) = plan.sums.get_mut(t.visit.as_str()) {
            let before = s.tools;
            s.tools |= bit(t.tool);
            if s.tools != before {
                plan.changed.insert(CompactString::new(t.visit.as_str()));
            }
        }
    }
    // Every touched visit's counts back, as the batch leaves them.
    for s in plan.sums.values() {
        s.count_into(1, &mut plan.deltas);
    }
    // Alike comments counted together: a batch's comments are mostly of a
    // few models, languages and latencies, and each cell is built once
    // instead of once a comment.
    let mut alike: HashMap<Alike<'_>, i64> = HashMap::new();
    for admitted in &plan.attempts {
        let a = admitted.attempt;
        if let Some(cell) = plan.sums.get(a.visit.as_str()).and_then(Sums::cell) {
            let reason = a.outcome.reason().map(|r| r.as_str());
            let comment = (
                cell,
                a.model.as_str(),
                a.lang.code(),
                a.outcome.code(),
                reason,
            );
            *alike.entry((comment, admitted.latency_ms)).or_default() += 1;
        }
    }
    let mut deltas = std::mem::take(&mut plan.deltas);
    for (((cell, model, lang, outcome, reason), latency_ms), n) in alike {
        Comment::new(model, lang, outcome, reason, latency_ms).count_into(cell, n, &mut deltas);
    }

    // In id order (on PostgreSQL the rows are locked since they were read,
    // in that order), those whose latest minute moved apart.
    let changed: BTreeSet<&str> = plan.changed.iter().map(CompactString::as_str).collect();
    let (moved, still): (Vec<SumsRow<'_>>, Vec<SumsRow<'_>>) = changed
        .into_iter()
        .filter_map(|id| Some((id, plan.sums.get(id)?)))
        .partition(|(id, _)| plan.moved.contains(*id));
    for (rows, moved) in [(moved, true), (still, false)] {
        write_sums(db, &rows, moved).await?;
    }
    let mut by_table: Vec<(&Cell, &[i64; 6])> = Vec::new();
    for (cell, n) in &deltas {
        if n.iter().all(|&n| n == 0) {
            continue;
        }
        let same_table = by_table.first().is_some_and(|(first, _)| {
            std::mem::discriminant(*first) == std::mem::discriminant(cell)
        });
        if !same_table {
            upsert(db, &by_table).await?;
            by_table.clear();
        }
        by_table.push((cell, n));
    }
    upsert(db, &by_table).await?;
    teaching::apply(db, &plan.teaching).await
}

/// `values` bound one after the other, as texts.
pub(crate) fn texts(values: &[&str]) -> Result<AnyArguments<'static>, sqlx::Error> {
    let mut args = AnyArguments::default();
    for v in values {
        args.add(v.to_string()).map_err(sqlx::Error::Encode)?;
    }
    Ok(args)
}

/// Gives each of `visits` (stored by this batch, in id order) its sums row,
/// with what never changes after: its start, lesson, language and room (the
/// sums written later leave those columns, and the indexes on them, alone).
/// A row with no start may be there already (migration 0002 gave one to
/// attempts and tools whose visit had not come): it gets them then. Only
/// stored visits get a row: an id a stranger made up writes nothing.
pub async fn give_rows(db: &mut Db<'_>, visits: &[&Visit]) -> Result<(), StoreError> {
    let sql = |marks: Marks, n| {
        format!(
            "INSERT INTO insights_visit_sums (visit_id, started_min, lesson, lang, room) \
             VALUES {} ON CONFLICT (visit_id) DO UPDATE SET \
             started_min = excluded.started_min, lesson = excluded.lesson, \
             lang = excluded.lang, room = excluded.room \
             WHERE insights_visit_sums.started_min IS NULL",
            marks.tuples(n, 5)
        )
    };
    db.rows(visits, sql, |values, v| {
        values.text(v.id.as_str());
        values.int(v.started.0);
        values.int(lessons::number(v.lesson));
        values.text(v.lang.code());
        values.opt_text(v.room.as_ref().map(|r| r.as_str()));
    })
    .await
}

/// The sums of those of `ids` (in id order, so that two transactions lock
/// them in the same order; `postgres`: locked) that have a row, read back
/// packed (`crate::packed`).
pub async fn read(
    db: &mut Db<'_>,
    ids: &[&str],
) -> Result<HashMap<CompactString, Sums>, StoreError> {
    let (conn, marks) = match db {
        Db::Many { conn, marks } => (conn, *marks),
        Db::One(conn) => return read_each(conn, ids),
    };
    let postgres = marks.numbered();
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
        "COALESCE(last_point, '')".to_string(),
        "COALESCE(recent, '')".to_string(),
    ]
    .join(" || ':' || ");
    let mut sums = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(CHUNK) {
        let sql = format!(
            "SELECT {}({fields}, '|') FROM (SELECT * FROM insights_visit_sums \
             WHERE visit_id IN ({}) ORDER BY visit_id{}) s",
            packing.aggregate(),
            marks.list(1, chunk.len()),
            if postgres { " FOR UPDATE" } else { "" }
        );
        let (packed,): (Option<String>,) = sqlx::query_as_with(&sql, texts(chunk)?)
            .persistent(kept(chunk.len(), CHUNK))
            .fetch_one(&mut **conn)
            .await?;
        for one in packed.iter().flat_map(|p| p.split('|')) {
            let (id, row) = unpack_sums(one)?;
            sums.insert(CompactString::new(id), row);
        }
    }
    Ok(sums)
}

/// [`read`] on SQLite: one visit's row at a time, through its key.
fn read_each(
    conn: &rusqlite::Connection,
    ids: &[&str],
) -> Result<HashMap<CompactString, Sums>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT started_min, lesson, lang, room, attempts, best, goal_at, goal_min, \
         last_min, tools, last_point, recent FROM insights_visit_sums WHERE visit_id = ?1",
    )?;
    let mut sums = HashMap::with_capacity(ids.len());
    for &id in ids {
        let mut rows = stmt.query([id])?;
        let Some(r) = rows.next()? else {
            continue;
        };
        let text = |i: usize| -> Result<Option<&str>, StoreError> {
            r.get_ref(i)?
                .as_str_or_null()
                .map_err(|e| StoreError::Corrupt {
                    column: "insights_visit_sums",
                    message: e.to_string(),
                })
        };
        let row = Sums {
            started: r.get(0)?,
            lesson: r.get(1)?,
            lang: text(2)?.map(CompactString::new),
            room: text(3)?.map(CompactString::new),
            attempts: r.get(4)?,
            best: r.get(5)?,
            goal_at: r.get(6)?,
            goal_min: r.get(7)?,
            last_min: r.get(8)?,
            tools: r.get(9)?,
            last: parse_point(text(10)?.unwrap_or_default())?,
            recent: text(11)?.map(str::to_string),
        };
        sums.insert(CompactString::new(id), row);
    }
    Ok(sums)
}

/// One visit's sums as [`read`] packed them: its fields, `:` between
/// them, the last two its latest point and its window (which hold none).
fn unpack_sums(packed: &str) -> Result<(&str, Sums), sqlx::Error> {
    let refused =
        || sqlx::Error::Decode(format!("a visit's sums that do not read: {packed:?}").into());
    let mut fields = packed.split(':');
    let mut f = [""; 13];
    for slot in &mut f {
        *slot = fields.next().ok_or_else(refused)?;
    }
    if fields.next().is_some() {
        return Err(refused());
    }
    let [id, started, lesson, lang, room, attempts, best, goal_at, goal_min, last_min, tools, last, recent] =
        f;
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
        last: parse_point(last)?,
        recent: (!recent.is_empty()).then(|| recent.to_string()),
    };
    Ok((id, sums))
}
