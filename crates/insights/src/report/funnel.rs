//! The funnel (how far the filter's visits got) and the visits per day.

use super::{count, fetch, Filter, Query};
use crate::{lessons, sink::StoreError, store::Store, values::Minute};

/// How many visits got how far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Funnel {
    pub visits: u64,
    /// Visits with at least one attempt.
    pub attempted: u64,
    /// Visits whose best error was at or below each of the lesson's three
    /// rungs ([`lessons::rungs`]), then those that reached its goal.
    pub at_or_below: [u64; 4],
}

impl Funnel {
    /// Visits that reached the goal.
    pub fn reached_goal(&self) -> u64 {
        self.at_or_below[3]
    }
}

/// One UTC day of visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Day {
    /// Days since 1970-01-01 (UTC), as [`Minute::day`].
    pub day: i64,
    pub visits: u64,
    /// Of those, the visits that reached the goal.
    pub reached_goal: u64,
}

impl Day {
    /// The share that reached the goal (0 to 1).
    pub fn goal_rate(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reached_goal as f64 / self.visits as f64
        }
    }
}

/// A funnel query's row: visits, attempted, then the visits at or below each rung.
pub(super) type FunnelRow = (i64, i64, i64, i64, i64, i64);

impl Funnel {
    /// The funnel from its query's one row (none: an empty funnel).
    pub(super) fn from_counts(rows: &[FunnelRow]) -> Self {
        rows.first()
            .map(|&(visits, attempted, a, b, c, d)| Funnel {
                visits: count(visits),
                attempted: count(attempted),
                at_or_below: [a, b, c, d].map(count),
            })
            .unwrap_or_default()
    }
}

/// A per-day query's row: the day, its visits, those at the goal.
pub(super) type DayRow = (i64, i64, i64);

impl Day {
    /// The days from their query's rows.
    pub(super) fn from_counts(rows: Vec<DayRow>) -> Vec<Self> {
        rows.into_iter()
            .map(|(day, visits, reached)| Day {
                day,
                visits: count(visits),
                reached_goal: count(reached),
            })
            .collect()
    }
}

impl Store {
    /// [`Store::funnel`] from the stored rows.
    pub(super) async fn funnel_rows(&self, filter: &Filter) -> Result<Funnel, StoreError> {
        let mut q = Query::visits(filter).with_visit_attempts(filter);
        let rungs: Vec<String> = lessons::rungs(filter.lesson)
            .iter()
            .map(|&r| {
                let r = q.real(r);
                format!("COUNT(CASE WHEN best <= {r} THEN 1 END)")
            })
            .collect();
        let q = q.push(&format!(
            "SELECT COUNT(*), COUNT(best), {}, COUNT(goal_at) FROM va",
            rungs.join(", ")
        ));
        let rows: Vec<FunnelRow> = fetch(self, &q).await?;
        Ok(Funnel::from_counts(&rows))
    }

    /// [`Store::per_day`] from the stored rows.
    pub(super) async fn per_day_rows(&self, filter: &Filter) -> Result<Vec<Day>, StoreError> {
        // A constant, not a bound value: PostgreSQL matches the GROUP BY
        // expression to the selected one by its text.
        let day = Minute::PER_DAY;
        let q = Query::visits(filter)
            .with_visit_attempts(filter)
            .push(&format!(
                "SELECT started_min / {day}, COUNT(*), COUNT(goal_at) FROM va \
             GROUP BY started_min / {day} ORDER BY 1"
            ));
        let rows: Vec<DayRow> = fetch(self, &q).await?;
        Ok(Day::from_counts(rows))
    }
}
