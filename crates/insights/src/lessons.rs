//! Each lesson as the insights count it: every visit is of one lesson (its
//! page), and a report is about one lesson, since their goals and errors
//! differ (lesson 1: at or below 450; lesson 2: below 1,420, of errors in the
//! thousands). What is stored names a lesson by its number ([`number`]); the
//! goal is the lesson's own rule ([`Which::reaches_goal`]), in SQL
//! [`goal_sql`]; the funnel's three rungs above the goal are [`rungs`].
//! Both targets; a leaf above `lesson`.

use lesson::lessons::{Which, AREA_ALONE, GOAL_TWO};
use lesson::neuron::GOAL;

/// The lesson's number as stored (`lesson` columns).
pub fn number(lesson: Which) -> i64 {
    i64::from(lesson.number())
}

/// The lesson a stored number names (an unknown one reads as lesson 1,
/// which no row holds: the store writes only [`number`]).
pub fn from_stored(n: i64) -> Which {
    u8::try_from(n)
        .ok()
        .and_then(Which::from_number)
        .unwrap_or_default()
}

/// The funnel's rungs above the goal, highest first, each counting the visits
/// whose best error was at or below it: lesson 1's 799, 600 and 500; lesson
/// 2's 2,000, 1,500 and the best the area alone can do (1,423.44), the
/// wall its learners meet. Stored as `rung_1` to `rung_3` (migration 0005).
pub fn rungs(lesson: Which) -> [f64; 3] {
    match lesson {
        Which::One => [799.0, 600.0, 500.0],
        Which::Two => [2000.0, 1500.0, AREA_ALONE],
    }
}

/// The goal as an SQL condition on the error column `error` (a number
/// written here, not bound, as the migrations write it).
pub fn goal_sql(lesson: Which, error: &str) -> String {
    match lesson {
        Which::One => format!("{error} <= {GOAL}"),
        Which::Two => format!("{error} < {GOAL_TWO}"),
    }
}

/// The goal's figure, for words (`450`, `1,420`).
pub fn goal(lesson: Which) -> f64 {
    lesson.describe().goal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sql_goal_is_the_lessons_rule() {
        assert_eq!(goal_sql(Which::One, "a.error"), "a.error <= 450");
        assert_eq!(goal_sql(Which::Two, "error"), "error < 1420");
        for lesson in Which::ALL {
            let [high, mid, low] = rungs(lesson);
            assert!(high > mid && mid > low && !lesson.reaches_goal(low));
            assert!(lesson.reaches_goal(goal(lesson) - 0.01));
            assert_eq!(from_stored(number(lesson)), lesson);
        }
        assert_eq!(goal(Which::Two), 1420.0);
        assert_eq!(from_stored(9), Which::One);
    }
}
