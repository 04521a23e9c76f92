//! What teaches: per writer of comments (each model, and the built-in
//! coach, `offline`) and comment language, over the filter's visits:
//!
//! - the comments;
//! - **helpful**: the visitors' votes, up of all (votes cast in the
//!   filter's period, on comments of its lesson in its language; not kept by
//!   room, so a room's report has none);
//! - **improved**: of the comments the visit followed with another attempt,
//!   those whose next error was lower;
//! - **reached**: of the comments made above the goal, those whose visit
//!   reached it within its next five attempts (`rollup::teaching`).
//!
//! Each a [`Share`] with its 95 % interval; [`TeachingRow::against`] says
//! whether a writer differs from the built-in coach in the same language
//! by more than noise. From the day rollups when the filter allows
//! (`report`'s module docs), else from the attempts.

use std::collections::BTreeMap;

use super::{count, fetch, share::Share, Days, Filter, Query, Source};
use crate::{lessons, rollup::teaching, sink::StoreError, store::Store};
use vocabulary::Lang;

/// The built-in coach's name, as the attempts store it.
pub const OFFLINE: &str = "offline";

/// One writer in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeachingRow {
    pub model: String,
    pub lang: Lang,
    pub comments: u64,
    pub helpful: Share,
    pub improved: Share,
    pub reached: Share,
}

/// The report: a row per writer and language that wrote or was voted on,
/// by language, then writer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeachingReport {
    pub rows: Vec<TeachingRow>,
    /// Whether votes are counted (not for a room).
    pub votes: bool,
}

impl TeachingReport {
    /// The built-in coach's row in `lang`, if it wrote there.
    pub fn offline(&self, lang: Lang) -> Option<&TeachingRow> {
        self.rows
            .iter()
            .find(|r| r.lang == lang && r.model == OFFLINE)
    }
}

/// (model, comment language) → (comments, followed, improved, above, reached).
type Outcomes = BTreeMap<(String, String), [i64; 5]>;

type OutcomeRow = (String, String, i64, i64, i64, i64, i64);

impl Store {
    /// What teaches, over the filter's visits (see the module's docs).
    pub async fn teaching(&self, filter: &Filter) -> Result<TeachingReport, StoreError> {
        let outcomes = match self.source(filter).await? {
            Source::Days(days) => outcome_cells(self, days).await?,
            Source::Sums | Source::Rows => outcome_rows(self, filter).await?,
        };
        let votes = filter.room.is_none();
        let mut helpful: BTreeMap<(String, String), (i64, i64)> = BTreeMap::new();
        if votes {
            let mut q = Query::default();
            let (from, to) = (q.int(filter.from.0), q.int(filter.to.0));
            let lesson = q.int(lessons::number(filter.lesson));
            let mut sql = format!(
                "SELECT model, lang, SUM(CASE WHEN vote = 'up' THEN 1 ELSE 0 END), COUNT(*) \
                 FROM insights_votes WHERE at_min >= {from} AND at_min < {to} \
                 AND lesson = {lesson}"
            );
            if let Some(lang) = filter.lang {
                sql += &format!(" AND lang = {}", q.text(lang.code()));
            }
            let q = q.push(&(sql + " GROUP BY model, lang"));
            let rows: Vec<(String, String, i64, i64)> = fetch(self, &q).await?;
            for (model, lang, up, all) in rows {
                helpful.insert((model, lang), (up, all));
            }
        }
        let mut keys: Vec<&(String, String)> = outcomes.keys().chain(helpful.keys()).collect();
        keys.sort_by(|a, b| (&a.1, &a.0).cmp(&(&b.1, &b.0)));
        keys.dedup();
        let rows = keys
            .into_iter()
            .filter_map(|key| {
                let [comments, followed, improved, above, reached] =
                    outcomes.get(key).copied().unwrap_or_default().map(count);
                let (up, all) = helpful.get(key).copied().unwrap_or_default();
                Some(TeachingRow {
                    model: key.0.clone(),
                    lang: Lang::parse(&key.1)?,
                    comments,
                    helpful: Share::new(count(up), count(all)),
                    improved: Share::new(improved, followed),
                    reached: Share::new(reached, above),
                })
            })
            .collect();
        Ok(TeachingReport { rows, votes })
    }
}

impl TeachingRow {
    /// `pick`'s share of this row against the same of `baseline`.
    pub fn against(
        &self,
        baseline: &TeachingRow,
        pick: impl Fn(&TeachingRow) -> Share,
    ) -> super::share::Difference {
        pick(self).against(&pick(baseline))
    }
}

fn collect(rows: Vec<OutcomeRow>) -> Outcomes {
    rows.into_iter()
        .map(|(model, lang, c, f, i, a, r)| ((model, lang), [c, f, i, a, r]))
        .collect()
}

async fn outcome_cells(store: &Store, days: Days) -> Result<Outcomes, StoreError> {
    let sum = |c: &str| format!("CAST(SUM({c}) AS BIGINT)");
    let sql = format!(
        "SELECT model, comment_lang, {}, {}, {}, {}, {} FROM insights_day_teaching \
         WHERE day >= $1 AND day < $2 AND ($3 = '' OR lang = $3) AND lesson = $4 \
         GROUP BY model, comment_lang",
        sum("comments"),
        sum("followed"),
        sum("improved"),
        sum("above"),
        sum("reached")
    );
    let rows: Vec<OutcomeRow> = sqlx::query_as(&sql)
        .bind(days.first)
        .bind(days.end)
        .bind(days.lang)
        .bind(days.lesson)
        .fetch_all(store.reads())
        .await?;
    Ok(collect(rows))
}

async fn outcome_rows(store: &Store, filter: &Filter) -> Result<Outcomes, StoreError> {
    let mut q = Query::default();
    let of = q.attempts_in(filter, "a");
    let q = q.push(&format!(
        "SELECT a.model, a.lang, {} FROM insights_attempts a WHERE {of} \
         GROUP BY a.model, a.lang",
        teaching::counts(filter.lesson)
    ));
    Ok(collect(fetch(store, &q).await?))
}
