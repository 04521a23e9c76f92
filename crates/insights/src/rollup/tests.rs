//! The rollups' pure parts: rounding, tool bits, folding in any order, each
//! lesson's goal and rungs, and that migrations 0002 and 0005 fix the same
//! constants as the code.

use super::*;

const MIGRATION: &str = include_str!("../migrations/0002_rollups.sql");
const LESSONS: &str = include_str!("../migrations/0005_lessons.sql");

#[test]
fn latencies_keep_two_significant_digits() {
    let cases = [
        (0, 0),
        (7, 7),
        (99, 99),
        (100, 100),
        (109, 100),
        (999, 990),
        (1_234, 1_200),
        (9_999, 9_900),
        (12_345, 12_000),
        (600_000, 600_000),
        (599_999, 590_000),
    ];
    for (ms, kept) in cases {
        assert_eq!(two_significant(ms), kept, "{ms}");
    }
}

#[test]
fn the_migration_fixes_the_codes_constants() {
    // Its backfill writes these by hand (lesson 1's, the only lesson then):
    // a change here needs a new migration.
    assert_eq!(lessons::rungs(Which::One), [799.0, 600.0, 500.0]);
    assert_eq!(lesson::neuron::GOAL, 450.0);
    // 0005 moves rung_799, rung_600 and rung_500 to rung_1, 2 and 3, and
    // indexes lesson 2's goal with the same term the reports write.
    assert!(LESSONS.contains("rung_799, rung_600, rung_500, reached"));
    let two = lessons::goal_sql(Which::Two, "error");
    assert!(
        LESSONS.contains(&format!("WHERE lesson = 2 AND {two};")),
        "{two}"
    );
    for (i, &tool) in Tool::ALL.iter().enumerate() {
        assert_eq!(bit(tool), 1 << i);
        let case = format!("WHEN '{}' THEN {}", tool.code(), bit(tool));
        let pair = format!("'{}', {}", tool.code(), bit(tool));
        let first = format!("'{}' AS tool, {} AS bit", tool.code(), bit(tool));
        assert!(MIGRATION.contains(&case), "{case}");
        assert!(
            MIGRATION.contains(&pair) || MIGRATION.contains(&first),
            "{pair}"
        );
    }
    for rung in ["best <= 799", "best <= 600", "best <= 500", "error <= 450"] {
        assert!(MIGRATION.contains(rung), "{rung}");
    }
    assert_eq!(day_of(Minute::PER_DAY - 1), 0);
    assert_eq!(day_of(-1), -1);
}

#[test]
fn attempts_fold_the_same_in_any_order() {
    // (number, error, minute): the goal first reached by attempt 3, then 2
    // arrives late, also at the goal.
    let attempts = [
        (1, 799.0, 10),
        (3, 449.0, 14),
        (4, 447.5, 15),
        (2, 450.0, 12),
    ];
    let mut forward = Sums::default();
    let mut backward = Sums::default();
    for &(n, e, at) in &attempts {
        forward.add_attempt(Which::One, n, e, at);
    }
    for &(n, e, at) in attempts.iter().rev() {
        backward.add_attempt(Which::One, n, e, at);
    }
    assert_eq!(forward, backward);
    assert_eq!(
        (
            forward.attempts,
            forward.best,
            forward.goal_at,
            forward.goal_min,
            forward.last_min
        ),
        (4, Some(447.5), Some(2), Some(12), Some(15))
    );
    // Lesson 2's goal is below 1,420: 1,420 itself is not it.
    let mut two = Sums::default();
    two.add_attempt(Which::Two, 1, 1420.0, 10);
    assert_eq!(two.goal_at, None);
    two.add_attempt(Which::Two, 2, 1419.99, 11);
    assert_eq!((two.goal_at, two.goal_min), (Some(2), Some(11)));
}

#[test]
fn a_visit_moves_between_cells_as_it_improves() {
    let mut before = Sums {
        started: Some(Minute::PER_DAY * 3 + 5),
        lesson: Some(1),
        lang: Some("pt".into()),
        tools: bit(Tool::Map),
        ..Sums::default()
    };
    before.add_attempt(Which::One, 1, 700.0, Minute::PER_DAY * 3 + 5);
    let mut after = before.clone();
    after.add_attempt(Which::One, 2, 449.0, Minute::PER_DAY * 3 + 9);
    let mut deltas = Deltas::new();
    before.count_into(-1, &mut deltas);
    after.count_into(1, &mut deltas);
    deltas.retain(|_, n| n.iter().any(|&n| n != 0));
    let lang = || CompactString::new("pt");
    let (day, lesson) = (3, 1);
    let expected: Deltas = [
        (
            Cell::Visits {
                day,
                lesson,
                lang: lang(),
            },
            [0, 0, 0, 1, 1, 1],
        ),
        (
            Cell::GoalAt {
                day,
                lesson,
                lang: lang(),
                goal_at: 0,
            },
            [-1, 0, 0, 0, 0, 0],
        ),
        (
            Cell::GoalAt {
                day,
                lesson,
                lang: lang(),
                goal_at: 2,
            },
            [1, 0, 0, 0, 0, 0],
        ),
        (
            Cell::Minutes {
                day,
                lesson,
                lang: lang(),
                minutes: 4,
            },
            [1, 0, 0, 0, 0, 0],
        ),
        (
            Cell::Tool {
                day,
                lesson,
                lang: lang(),
                tool: "map",
                goal_at: 0,
            },
            [-1, 0, 0, 0, 0, 0],
        ),
        (
            Cell::Tool {
                day,
                lesson,
                lang: lang(),
                tool: "map",
                goal_at: 2,
            },
            [1, 0, 0, 0, 0, 0],
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(deltas, expected);

    // Without its visit, a visit's sums count nowhere.
    let mut ghost = Sums::default();
    ghost.add_attempt(Which::One, 1, 300.0, 5);
    let mut none = Deltas::new();
    ghost.count_into(1, &mut none);
    assert!(none.is_empty());
}

#[test]
fn a_lesson_two_visit_counts_in_its_own_cells_by_its_rungs() {
    let mut sums = Sums {
        started: Some(Minute::PER_DAY * 2),
        lesson: Some(2),
        lang: Some("zh".into()),
        ..Sums::default()
    };
    // Area alone's best: the third rung, not the goal.
    sums.add_attempt(Which::Two, 1, 1423.44, Minute::PER_DAY * 2 + 1);
    let mut deltas = Deltas::new();
    sums.count_into(1, &mut deltas);
    let visits = Cell::Visits {
        day: 2,
        lesson: 2,
        lang: "zh".into(),
    };
    assert_eq!(deltas.get(&visits), Some(&[1, 1, 1, 1, 1, 0]));
    assert!(deltas.keys().all(|cell| matches!(
        cell,
        Cell::Visits { lesson: 2, .. } | Cell::GoalAt { lesson: 2, .. }
    )));
}
