//! The rollups' pure parts: rounding, tool bits, folding in any order, and
//! that migration 0002 fixes the same constants as the code.

use super::*;

const MIGRATION: &str = include_str!("../migrations/0002_rollups.sql");

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
    // Its backfill writes these by hand: a change here needs a new migration.
    assert_eq!(GOAL, 450.0);
    assert_eq!(RUNGS, [799.0, 600.0, 500.0, GOAL]);
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
        forward.add_attempt(n, e, at);
    }
    for &(n, e, at) in attempts.iter().rev() {
        backward.add_attempt(n, e, at);
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
}

#[test]
fn a_visit_moves_between_cells_as_it_improves() {
    let mut before = Sums {
        started: Some(Minute::PER_DAY * 3 + 5),
        lang: Some("pt".into()),
        tools: bit(Tool::Map),
        ..Sums::default()
    };
    before.add_attempt(1, 700.0, Minute::PER_DAY * 3 + 5);
    let mut after = before.clone();
    after.add_attempt(2, 449.0, Minute::PER_DAY * 3 + 9);
    let mut deltas = Deltas::new();
    before.count_into(-1, &mut deltas);
    after.count_into(1, &mut deltas);
    deltas.retain(|_, n| n.iter().any(|&n| n != 0));
    let lang = || "pt".to_string();
    let day = 3;
    let expected: Deltas = [
        (Cell::Visits { day, lang: lang() }, [0, 0, 0, 1, 1, 1]),
        (
            Cell::GoalAt {
                day,
                lang: lang(),
                goal_at: 0,
            },
            [-1, 0, 0, 0, 0, 0],
        ),
        (
            Cell::GoalAt {
                day,
                lang: lang(),
                goal_at: 2,
            },
            [1, 0, 0, 0, 0, 0],
        ),
        (
            Cell::Minutes {
                day,
                lang: lang(),
                minutes: 4,
            },
            [1, 0, 0, 0, 0, 0],
        ),
        (
            Cell::Tool {
                day,
                lang: lang(),
                tool: "map",
                goal_at: 0,
            },
            [-1, 0, 0, 0, 0, 0],
        ),
        (
            Cell::Tool {
                day,
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
    ghost.add_attempt(1, 300.0, 5);
    let mut none = Deltas::new();
    ghost.count_into(1, &mut none);
    assert!(none.is_empty());
}
