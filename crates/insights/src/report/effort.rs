//! What it took to reach the goal (attempts and minutes), where the visits
//! that did not reach it stopped, and the paths of those that did.

use super::{fetch, stats, Filter, Query};
use crate::{lessons, sink::StoreError, store::Store};

/// Attempts and minutes to the goal, one value per visit that reached it,
/// each list sorted (ascending).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// The number of the first attempt at the goal.
    pub attempts: Vec<u64>,
    /// Whole minutes from the visit's start to that attempt.
    pub minutes: Vec<u64>,
}

impl Effort {
    pub fn median_attempts(&self) -> Option<f64> {
        stats::median(&self.attempts)
    }

    pub fn median_minutes(&self) -> Option<f64> {
        stats::median(&self.minutes)
    }
}

/// A point on the error landscape: lesson 1's weight and bias, or lesson
/// 2's `w1` (as the weight), `w2` (`weight2`, 0 in lesson 1) and `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub weight: f64,
    pub weight2: f64,
    pub bias: f64,
    pub error: f64,
}

/// A point's row: weight, weight2, bias, error.
pub(super) type PointRow = (f64, f64, f64, f64);

impl From<PointRow> for Point {
    fn from((weight, weight2, bias, error): PointRow) -> Self {
        Point {
            weight,
            weight2,
            bias,
            error,
        }
    }
}

/// The most points of one path the map draws: its first, every
/// `n / PATH_POINTS`-th after it, and the one at the goal. A visit that took
/// 300 attempts is one line of ten points, not 300, and the page stays small
/// whatever its visits did.
pub const PATH_POINTS: i64 = 8;

/// The SQL condition that keeps an attempt numbered `attempt` on the map's
/// path of a visit whose first attempt at the goal is `goal_at`
/// ([`PATH_POINTS`]).
pub(super) fn on_path(attempt: &str, goal_at: &str) -> String {
    let k = PATH_POINTS;
    format!(
        "{attempt} <= {goal_at} AND ({attempt} = {goal_at} OR ({attempt} - 1) % (({goal_at} + {}) / {k}) = 0)",
        k - 1
    )
}

/// Where visits ended up.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Points {
    /// The last point of each visit that attempted but did not reach the
    /// goal, the latest visits first.
    pub stuck: Vec<Point>,
    /// The path of each visit that reached the goal: its attempts in order,
    /// up to the first at the goal, at most [`PATH_POINTS`] + 1 of them.
    pub paths: Vec<Vec<Point>>,
}

/// The points of `path` the map draws: all of them up to
/// [`PATH_POINTS`] + 1 (what the store's query gives), else its first, every
/// `len / PATH_POINTS`-th and its last, by [`on_path`]'s rule.
pub fn marks(path: &[Point]) -> Vec<&Point> {
    let n = path.len();
    if n <= PATH_POINTS as usize + 1 {
        return path.iter().collect();
    }
    let step = n.div_ceil(PATH_POINTS as usize);
    path.iter()
        .enumerate()
        .filter(|&(i, _)| i % step == 0 || i + 1 == n)
        .map(|(_, p)| p)
        .collect()
}

impl Store {
    /// [`Store::effort`] from the stored rows.
    pub(super) async fn effort_rows(&self, filter: &Filter) -> Result<Effort, StoreError> {
        let mut q = Query::visits(filter);
        let goal = lessons::goal_sql(filter.lesson, "a.error");
        let range = q.attempts_of(filter, "a");
        let q = q.push(&format!(
            ", a AS (SELECT a.visit_id, a.attempt, a.error, a.at_min FROM insights_attempts a \
             JOIN v ON v.visit_id = a.visit_id WHERE {range} AND {goal}), \
             g AS (SELECT visit_id, MIN(attempt) AS n FROM a GROUP BY visit_id) \
             SELECT g.n, a.at_min - v.started_min FROM g \
             JOIN a ON a.visit_id = g.visit_id AND a.attempt = g.n \
             JOIN v ON v.visit_id = g.visit_id"
        ));
        let rows: Vec<(i64, i64)> = fetch(self, &q).await?;
        let mut effort = Effort {
            attempts: rows.iter().map(|&(n, _)| super::count(n)).collect(),
            minutes: rows.iter().map(|&(_, m)| super::count(m)).collect(),
        };
        effort.attempts.sort_unstable();
        effort.minutes.sort_unstable();
        Ok(effort)
    }

    /// [`Store::points`] from the stored rows.
    pub(super) async fn points_rows(
        &self,
        filter: &Filter,
        cap: u32,
    ) -> Result<Points, StoreError> {
        let mut q = Query::visits(filter);
        let goal = lessons::goal_sql(filter.lesson, "MIN(a.error)");
        let range = q.attempts_of(filter, "a");
        let limit = q.int(i64::from(cap));
        let q = q.push(&format!(
            ", a AS (SELECT a.* FROM insights_attempts a JOIN v ON v.visit_id = a.visit_id \
             WHERE {range}), \
             last AS (SELECT a.visit_id, MAX(a.attempt) AS n, MAX(a.at_min) AS at \
             FROM a GROUP BY a.visit_id HAVING NOT ({goal})) \
             SELECT a.weight, a.weight2, a.bias, a.error FROM last \
             JOIN a ON a.visit_id = last.visit_id AND a.attempt = last.n \
             ORDER BY last.at DESC, last.visit_id LIMIT {limit}"
        ));
        let stuck: Vec<PointRow> = fetch(self, &q).await?;

        let mut q = Query::visits(filter);
        let goal = lessons::goal_sql(filter.lesson, "a.error");
        let range = q.attempts_of(filter, "a");
        let limit = q.int(i64::from(cap));
        let q = q.push(&format!(
            ", a AS (SELECT a.* FROM insights_attempts a \
             JOIN v ON v.visit_id = a.visit_id WHERE {range}), \
             g AS (SELECT a.visit_id, MIN(a.attempt) AS n, MAX(a.started_min) AS started \
             FROM a WHERE {goal} GROUP BY a.visit_id), \
             p AS (SELECT visit_id, n FROM g ORDER BY started DESC, visit_id LIMIT {limit}) \
             SELECT p.visit_id, a.weight, a.weight2, a.bias, a.error FROM p \
             JOIN a ON a.visit_id = p.visit_id AND {} \
             ORDER BY p.visit_id, a.attempt",
            on_path("a.attempt", "p.n")
        ));
        let rows: Vec<(String, f64, f64, f64, f64)> = fetch(self, &q).await?;
        Ok(points(stuck, rows))
    }
}

/// The points from the stuck visits' last points and the paths' rows
/// (visit, point), in order.
pub(super) fn points(stuck: Vec<PointRow>, rows: Vec<(String, f64, f64, f64, f64)>) -> Points {
    let mut paths: Vec<Vec<Point>> = Vec::new();
    let mut current: Option<String> = None;
    for (visit, weight, weight2, bias, error) in rows {
        let point = Point::from((weight, weight2, bias, error));
        match paths.last_mut() {
            Some(path) if current.as_deref() == Some(visit.as_str()) => path.push(point),
            _ => {
                paths.push(vec![point]);
                current = Some(visit);
            }
        }
    }
    Points {
        stuck: stuck.into_iter().map(Point::from).collect(),
        paths,
    }
}
