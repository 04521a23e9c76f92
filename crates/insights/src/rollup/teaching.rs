//! What became of each comment's visit, counted per day as attempts arrive
//! (`insights_day_teaching`, migration 0004): for a comment on attempt `n`,
//! whether the visit made attempt `n + 1` (*followed*) and, if so, whether
//! its error was lower (*improved*); and, for a comment above the goal,
//! whether one of attempts `n + 1` to `n + 5` reached it (*reached*).
//!
//! An attempt that arrives changes the outcomes of the comments on the five
//! attempts before it, and its own depends on the five after it, which may
//! have come first. So for every visit a batch adds attempts to, the stored
//! attempts from five before its first new one to five after its last are
//! read back (the batch's included: same transaction), each affected
//! comment's outcome is worked out with and without the batch's attempts,
//! and the differences are added to the cells of the visit's day and
//! language. The outcome is a function of the stored attempts alone, so the
//! order attempts arrive in does not matter, and a repeated one adds nothing
//! (the store keeps the first).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use compact_str::CompactString;
use sqlx::{any::AnyArguments, AnyConnection, Arguments};

use super::{kept, Key, Marks, Sums};
use crate::{event::Attempt, lessons, packed::Packing};
use lesson::lessons::Which;

/// Attempts after a comment within which reaching the goal counts.
pub const SOON: i64 = 5;
/// Visits per statement.
const CHUNK: usize = 200;
/// Cells per statement.
const ROWS: usize = 200;

/// A comment's outcome, as counts (each 0 or 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub comments: i64,
    pub followed: i64,
    pub improved: i64,
    pub above: i64,
    pub reached: i64,
}

impl Outcome {
    fn add(&mut self, other: Outcome, sign: i64) {
        self.comments += sign * other.comments;
        self.followed += sign * other.followed;
        self.improved += sign * other.improved;
        self.above += sign * other.above;
        self.reached += sign * other.reached;
    }

    fn is_zero(&self) -> bool {
        *self == Outcome::default()
    }
}

/// One stored attempt, as the outcomes read it: its words borrowed from the
/// batch's attempt or from the packed row read back (none copied).
#[derive(Clone, Copy, Debug)]
struct Stored<'a> {
    error: f64,
    model: &'a str,
    lang: &'a str,
}

/// The outcome of the comment on attempt `n` of a visit of `lesson` whose
/// attempts (those present) are `attempts`.
fn outcome(lesson: Which, attempts: &BTreeMap<i64, &Stored<'_>>, n: i64) -> Outcome {
    let Some(this) = attempts.get(&n) else {
        return Outcome::default();
    };
    let next = attempts.get(&(n + 1));
    let above = !lesson.reaches_goal(this.error);
    let reached = above
        && attempts
            .range(n + 1..=n + SOON)
            .any(|(_, later)| lesson.reaches_goal(later.error));
    Outcome {
        comments: 1,
        followed: i64::from(next.is_some()),
        improved: i64::from(next.is_some_and(|next| next.error < this.error)),
        above: i64::from(above),
        reached: i64::from(reached),
    }
}

/// (day, lesson, visit language, model, comment language).
type CellKey = (i64, i64, CompactString, CompactString, CompactString);

/// Adds the outcomes `added` (a batch's new attempts) change to the cells;
/// `sums`: the visits' sums after the batch (`super::write::apply`), whose
/// cell names each visit's day, lesson and language.
pub async fn apply(
    conn: &mut AnyConnection,
    postgres: bool,
    added: &[&Attempt],
    sums: &HashMap<CompactString, Sums>,
) -> Result<(), sqlx::Error> {
    let marks = Marks::new(postgres);
    // This batch's attempts, by visit: stored by it, so not read back.
    let mut new: BTreeMap<&str, BTreeMap<i64, Stored<'_>>> = BTreeMap::new();
    for a in added {
        let stored = Stored {
            error: a.numbers.error(),
            model: a.model.as_str(),
            lang: a.lang.code(),
        };
        new.entry(a.visit.as_str())
            .or_default()
            .insert(i64::from(a.numbers.number()), stored);
    }
    // Only visits that are stored (their sums have a cell).
    let visits: Vec<(&str, Key<'_>, &BTreeMap<i64, Stored<'_>>)> = new
        .iter()
        .filter_map(|(v, fresh)| Some((*v, sums.get(*v)?.cell()?, fresh)))
        .collect();
    let mut deltas: HashMap<CellKey, Outcome> = HashMap::new();
    for chunk in visits.chunks(CHUNK) {
        let packed = read_around(conn, postgres, chunk).await?;
        let mut around = unpack_visits(packed.as_deref().unwrap_or_default());
        // This chunk's changes, keyed by borrowed words; owned once per cell
        // when they join `deltas`.
        let mut here: HashMap<(i64, i64, &str, &str, &str), Outcome> = HashMap::new();
        for &(visit, Key { day, lesson, lang }, fresh) in chunk {
            let earlier = around.remove(visit).unwrap_or_default();
            let after: BTreeMap<i64, &Stored<'_>> =
                earlier.iter().chain(fresh).map(|(n, s)| (*n, s)).collect();
            let mut before = after.clone();
            before.retain(|n, _| !fresh.contains_key(n));
            let affected: BTreeSet<i64> =
                fresh.keys().flat_map(|&n| (n - SOON).max(1)..=n).collect();
            for n in affected {
                let Some(comment) = after.get(&n) else {
                    continue;
                };
                let delta = here
                    .entry((day, lesson, lang, comment.model, comment.lang))
                    .or_default();
                let lesson = lessons::from_stored(lesson);
                delta.add(outcome(lesson, &after, n), 1);
                delta.add(outcome(lesson, &before, n), -1);
            }
        }
        for ((day, lesson, lang, model, comment_lang), delta) in here {
            let key = (day, lesson, lang.into(), model.into(), comment_lang.into());
            deltas.entry(key).or_default().add(delta, 1);
        }
    }
    let cells: Vec<(CellKey, Outcome)> = deltas.into_iter().filter(|(_, d)| !d.is_zero()).collect();
    for chunk in cells.chunks(ROWS) {
        upsert(conn, marks, chunk).await?;
    }
    Ok(())
}

/// Per visit of `chunk`: its stored attempts from [`SOON`] before its first
/// new one to [`SOON`] after its last, but for the new ones (`fresh`) when
/// they follow one another (as they nearly always do), which the batch has
/// in hand: their index entries are skipped without reading their rows.
///
/// All in one row (`crate::packed`): a visit's attempts as
/// `n:error:lang:model`, `;` between them, after its id and `=`, and `|`
/// between visits; a row per attempt, or per visit, made this read the
/// writer's most costly step. Each window is read by its own subquery, one
/// index search, with no grouping to sort.
async fn read_around(
    conn: &mut AnyConnection,
    postgres: bool,
    chunk: &[(&str, Key<'_>, &BTreeMap<i64, Stored<'_>>)],
) -> Result<Option<String>, sqlx::Error> {
    let marks = Marks::new(postgres);
    let windows = (0..chunk.len())
        .map(|i| {
            let m = |k| marks.list(i * 5 + k, 1);
            let big = |k| format!("CAST({} AS BIGINT)", m(k));
            format!("({}, {}, {}, {}, {})", m(1), big(2), big(3), big(4), big(5))
        })
        .collect::<Vec<_>>()
        .join(", ");
    let packing = Packing::new(postgres);
    let (error, pack) = (packing.exact("a.error"), packing.aggregate());
    let sql = format!(
        "WITH w (visit_id, first, last, skip_from, skip_to) AS (VALUES {windows}) \
         SELECT {pack}(w.visit_id || '=' || COALESCE((SELECT \
         {pack}(a.attempt || ':' || {error} || ':' || a.lang || ':' || a.model, ';') \
         FROM insights_attempts a WHERE a.visit_id = w.visit_id \
         AND a.attempt >= w.first AND a.attempt <= w.last \
         AND NOT (a.attempt >= w.skip_from AND a.attempt <= w.skip_to)), ''), '|') FROM w"
    );
    let mut args = AnyArguments::default();
    for (visit, _, fresh) in chunk {
        let first = fresh.keys().next().copied().unwrap_or(1);
        let last = fresh.keys().next_back().copied().unwrap_or(1);
        // An empty range (1 to 0) when they do not follow one another.
        let one_run = usize::try_from(last - first + 1).is_ok_and(|n| n == fresh.len());
        let (skip_from, skip_to) = if one_run { (first, last) } else { (1, 0) };
        let row = (|| {
            args.add(visit.to_string())?;
            args.add(first - SOON)?;
            args.add(last + SOON)?;
            args.add(skip_from)?;
            args.add(skip_to)
        })();
        row.map_err(sqlx::Error::Encode)?;
    }
    let (packed,): (Option<String>,) = sqlx::query_as_with(&sql, args)
        .persistent(kept(chunk.len(), CHUNK))
        .fetch_one(&mut *conn)
        .await?;
    Ok(packed)
}

/// What [`read_around`] packed, per visit.
fn unpack_visits(packed: &str) -> HashMap<&str, BTreeMap<i64, Stored<'_>>> {
    packed
        .split('|')
        .filter_map(|visit| {
            let (id, attempts) = visit.split_once('=')?;
            let stored = unpack(attempts);
            (!stored.is_empty()).then_some((id, stored))
        })
        .collect()
}

/// One visit's attempts as [`read_around`] packed them (one that does not
/// read is left out).
fn unpack(packed: &str) -> BTreeMap<i64, Stored<'_>> {
    packed
        .split(';')
        .filter_map(|one| {
            let mut fields = one.splitn(4, ':');
            let n = fields.next()?.parse::<i64>().ok()?;
            let error = fields.next()?.parse::<f64>().ok()?;
            let lang = fields.next()?;
            let model = fields.next()?;
            Some((n, Stored { error, model, lang }))
        })
        .collect()
}

/// Adds `cells`' counts to their rows.
async fn upsert(
    conn: &mut AnyConnection,
    marks: Marks,
    cells: &[(CellKey, Outcome)],
) -> Result<(), sqlx::Error> {
    if cells.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "INSERT INTO {TABLE} (day, lesson, lang, model, comment_lang, comments, followed, \
         improved, above, reached) VALUES {} \
         ON CONFLICT (day, lesson, lang, model, comment_lang) DO UPDATE SET \
         comments = {TABLE}.comments + excluded.comments, \
         followed = {TABLE}.followed + excluded.followed, \
         improved = {TABLE}.improved + excluded.improved, \
         above = {TABLE}.above + excluded.above, \
         reached = {TABLE}.reached + excluded.reached",
        marks.tuples(cells.len(), 10)
    );
    let mut args = AnyArguments::default();
    for ((day, lesson, lang, model, comment_lang), o) in cells {
        let row = (|| {
            args.add(*day)?;
            args.add(*lesson)?;
            args.add(lang.as_str())?;
            args.add(model.as_str())?;
            args.add(comment_lang.as_str())?;
            args.add(o.comments)?;
            args.add(o.followed)?;
            args.add(o.improved)?;
            args.add(o.above)?;
            args.add(o.reached)
        })();
        row.map_err(sqlx::Error::Encode)?;
    }
    sqlx::query_with(&sql, args)
        .persistent(kept(cells.len(), ROWS))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The day table.
pub const TABLE: &str = "insights_day_teaching";

/// The five counts of a cell, over attempts `a` of `lesson` (each joined to
/// its next, `n`, by [`NEXT`]), in SQL: comments, followed, improved, above
/// the goal, reached it within [`SOON`]; as the migrations count them.
pub fn counts(lesson: Which) -> String {
    let above = format!("NOT ({})", lessons::goal_sql(lesson, "a.error"));
    let reached = lessons::goal_sql(lesson, "g.error");
    format!(
        "COUNT(*), SUM(CASE WHEN n.visit_id IS NULL THEN 0 ELSE 1 END), \
         SUM(CASE WHEN n.error < a.error THEN 1 ELSE 0 END), \
         SUM(CASE WHEN {above} THEN 1 ELSE 0 END), \
         SUM(CASE WHEN {above} AND EXISTS (SELECT 1 FROM insights_attempts g \
           WHERE g.visit_id = a.visit_id AND g.attempt > a.attempt \
           AND g.attempt <= a.attempt + {SOON} AND {reached}) THEN 1 ELSE 0 END)"
    )
}

/// Joins each attempt `a` to the next one of its visit, `n` (if any).
pub const NEXT: &str =
    "LEFT JOIN insights_attempts n ON n.visit_id = a.visit_id AND n.attempt = a.attempt + 1";

/// The cells' counts of `lesson`, from the stored rows: `day` (an SQL
/// expression) for every row, of the visits whose `insights_visit_sums` rows
/// (`s`) the condition `visits` selects; what a purge counts again.
pub fn from_rows(lesson: Which, day: &str, visits: &str) -> String {
    format!(
        "SELECT {day}, s.lesson, s.lang, a.model, a.lang, {} \
         FROM insights_attempts a JOIN insights_visit_sums s ON s.visit_id = a.visit_id {NEXT} \
         WHERE s.started_min IS NOT NULL AND s.lang IS NOT NULL AND s.lesson = {} \
         AND ({visits}) \
         GROUP BY s.started_min / 1440, s.lesson, s.lang, a.model, a.lang",
        counts(lesson),
        lessons::number(lesson)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(error: f64) -> Stored<'static> {
        Stored {
            error,
            model: "m",
            lang: "en",
        }
    }

    #[test]
    fn a_comments_outcome_is_its_next_attempt_and_the_five_after() {
        let errors = [(1, 900.0), (2, 800.0), (3, 850.0), (7, 449.0)];
        let all: Vec<(i64, Stored)> = errors.iter().map(|&(n, e)| (n, stored(e))).collect();
        let map: BTreeMap<i64, &Stored> = all.iter().map(|(n, s)| (*n, s)).collect();
        let o = |n| outcome(Which::One, &map, n);
        assert_eq!(
            o(1),
            Outcome {
                comments: 1,
                followed: 1,
                improved: 1,
                above: 1,
                reached: 0
            }
        );
        assert_eq!(
            o(2),
            Outcome {
                comments: 1,
                followed: 1,
                improved: 0,
                above: 1,
                reached: 1
            }
        );
        assert_eq!(
            o(3),
            Outcome {
                comments: 1,
                followed: 0,
                improved: 0,
                above: 1,
                reached: 1
            }
        );
        assert_eq!(
            o(7),
            Outcome {
                comments: 1,
                followed: 0,
                improved: 0,
                above: 0,
                reached: 0
            }
        );
        assert_eq!(o(4), Outcome::default(), "no such attempt");
    }
}
