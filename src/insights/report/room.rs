//! A room now: each of its current visitors' latest point, for the live view
//! a teacher projects (no names: a visit is its random id).

use super::{effort::Point, fetch, Query};
use crate::{
    insights::{
        sink::StoreError,
        store::Store,
        values::{Minute, RoomCode, VisitId},
    },
    lesson::neuron::GOAL,
};

/// One current visitor of a room.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomVisitor {
    /// The visit's id: a stable key for its dot between two looks. It lets
    /// whoever holds it record attempts as that visit, so a public page should
    /// show a derived key, not this.
    pub visit: VisitId,
    /// Its attempts so far (the highest attempt number; 0 for none).
    pub attempts: u64,
    /// Its latest attempt's point, if it made one.
    pub latest: Option<Point>,
    /// Whether any of its attempts reached the goal (it may have moved on
    /// since: `latest` is where it is now).
    pub reached: bool,
}

impl Store {
    /// The visitors of `room` seen since `since` (begun, or attempted, at or
    /// after that minute), at most `cap`, by visit id.
    pub async fn room_now(
        &self,
        room: &RoomCode,
        since: Minute,
        cap: u32,
    ) -> Result<Vec<RoomVisitor>, StoreError> {
        let mut q = Query::default();
        let room = q.text(room.as_str());
        let since = q.int(since.0);
        let limit = q.int(i64::from(cap));
        let goal = q.real(GOAL);
        let q = q.push(&format!(
            "SELECT v.visit_id, a.attempt, a.weight, a.bias, a.error, \
             CASE WHEN EXISTS (SELECT 1 FROM insights_attempts a4 \
               WHERE a4.visit_id = v.visit_id AND a4.error <= {goal}) THEN 1 ELSE 0 END \
             FROM insights_visits v \
             LEFT JOIN insights_attempts a ON a.visit_id = v.visit_id AND a.attempt = \
               (SELECT MAX(a2.attempt) FROM insights_attempts a2 WHERE a2.visit_id = v.visit_id) \
             WHERE v.room = {room} AND (v.started_min >= {since} OR EXISTS \
               (SELECT 1 FROM insights_attempts a3 WHERE a3.visit_id = v.visit_id AND a3.at_min >= {since})) \
             ORDER BY v.visit_id LIMIT {limit}"
        ));
        type Row = (
            String,
            Option<i64>,
            Option<f64>,
            Option<f64>,
            Option<f64>,
            i64,
        );
        let rows: Vec<Row> = fetch(self, &q).await?;
        rows.into_iter()
            .map(|(visit, attempt, weight, bias, error, reached)| {
                let visit = VisitId::parse(&visit).map_err(|e| StoreError::Corrupt {
                    column: "insights_visits.visit_id",
                    message: e.message,
                })?;
                let latest = match (weight, bias, error) {
                    (Some(weight), Some(bias), Some(error)) => Some(Point {
                        weight,
                        bias,
                        error,
                    }),
                    _ => None,
                };
                Ok(RoomVisitor {
                    visit,
                    attempts: attempt.map_or(0, super::count),
                    latest,
                    reached: reached != 0,
                })
            })
            .collect()
    }
}
