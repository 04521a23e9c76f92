//! A room now: each of its current visitors' latest point, for the live view
//! a teacher projects (no names: a visit is its random id).

use super::{effort::Point, fetch, Query, Which};
use crate::{lessons, packed::parse_point, sink::StoreError, store::Store, values::VisitId};

/// One current visitor of a room.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomVisitor {
    /// The visit's id: a stable key for its dot between two looks. It lets
    /// whoever holds it record attempts as that visit, so a public page should
    /// show a derived key, not this.
    pub visit: VisitId,
    /// The lesson it is on (its page).
    pub lesson: Which,
    /// Its attempts so far (the highest attempt number; 0 for none).
    pub attempts: u64,
    /// Its latest attempt's point, if it made one.
    pub latest: Option<Point>,
    /// Whether any of its attempts reached the goal (it may have moved on
    /// since: `latest` is where it is now).
    pub reached: bool,
}

impl Store {
    /// The visits `visits` (a room's current ones, `crate::rooms`),
    /// each with its attempts so far, its latest point and whether it has
    /// reached the goal, in the order given; a visit not stored yet is left
    /// out. Read by primary key from the visits' sums: a room's history, however
    /// long, is never scanned.
    pub async fn room_visitors(&self, visits: &[VisitId]) -> Result<Vec<RoomVisitor>, StoreError> {
        let mut found = std::collections::HashMap::with_capacity(visits.len());
        for chunk in visits.chunks(400) {
            let mut q = Query::default();
            let ids: Vec<String> = chunk.iter().map(|v| q.text(v.as_str())).collect();
            let q = q.push(&format!(
                "SELECT s.visit_id, s.lesson, s.attempts, s.last_point, s.goal_at \
                 FROM insights_visit_sums s \
                 WHERE s.visit_id IN ({}) AND s.started_min IS NOT NULL",
                ids.join(", ")
            ));
            type Row = (String, Option<i64>, i64, Option<String>, Option<i64>);
            let rows: Vec<Row> = fetch(self, &q).await?;
            for (visit, lesson, attempts, last, goal_at) in rows {
                let latest = parse_point(last.as_deref().unwrap_or_default())?
                    .map(|[w, w2, b, e]| Point::from((w, w2, b, e)));
                let lesson = lessons::from_stored(lesson.unwrap_or(1));
                let seen = (lesson, super::count(attempts), latest, goal_at.is_some());
                found.insert(visit, seen);
            }
        }
        Ok(visits
            .iter()
            .filter_map(|visit| {
                let &(lesson, attempts, latest, reached) = found.get(visit.as_str())?;
                Some(RoomVisitor {
                    visit: visit.clone(),
                    lesson,
                    attempts,
                    latest,
                    reached,
                })
            })
            .collect())
    }
}
