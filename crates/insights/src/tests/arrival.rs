//! Attempts stored in the order they come, with no key by visit
//! (`rollup::recent`): each comment's outcome in its row is what its visit's
//! stored attempts give, whatever batches they came in; a repeated attempt
//! and one that comes late are left out, two that swap are both kept.

use std::collections::BTreeMap;

use super::{data::id, on_both, rollups::history, TestDb};
use crate::{
    rollup::recent::{Entry, Recent},
    sink::Sink,
    Attempt, AttemptNumbers, AttemptOutcome, Device, Event, Layout, Minute, ModelName, Visit,
};
use vocabulary::Lang;

on_both!(
    each_rows_outcome_is_what_its_visits_attempts_give,
    repeats_and_late_attempts_are_left_out_and_swapped_ones_kept
);

/// (visit, lesson, number, error, followed, improved, reached) of every row.
type Row = (String, i64, i64, f64, i64, i64, i64);

async fn rows(db: &TestDb) -> Vec<Row> {
    sqlx::query_as(
        "SELECT visit_id, lesson, attempt, error, followed, improved, reached \
         FROM insights_attempts ORDER BY id",
    )
    .fetch_all(&db.store.pool)
    .await
    .expect("the attempts")
}

async fn each_rows_outcome_is_what_its_visits_attempts_give(db: &TestDb) {
    for batch in history(11) {
        db.store.write(&batch).await.expect("a batch");
    }
    let rows = rows(db).await;
    let mut visits: BTreeMap<&str, Recent> = BTreeMap::new();
    for (visit, _, n, error, ..) in &rows {
        let entry = Entry {
            id: 0,
            error: *error,
            model: "m".into(),
            lang: "en".into(),
        };
        visits.entry(visit.as_str()).or_default().insert(*n, entry);
    }
    let (mut followed, mut reached) = (0, 0);
    for (visit, lesson, n, _, f, i, r) in &rows {
        let lesson = crate::lessons::from_stored(*lesson);
        let o = visits[visit.as_str()].outcome(lesson, *n);
        assert_eq!(
            (o.followed, o.improved, o.reached),
            (*f, *i, *r),
            "{visit} #{n}"
        );
        followed += f;
        reached += r;
    }
    let shown = format!(
        "{} rows, {followed} followed, {reached} reached",
        rows.len()
    );
    assert!(
        rows.len() > 100 && followed >= 10 && reached >= 5,
        "{shown}"
    );
}

fn attempt(n: u32, error: f64, at: i64) -> Event {
    Event::Attempt(Attempt {
        visit: id("swapped"),
        numbers: AttemptNumbers::new(n, error, 0.1, 150.0, 300).expect("numbers"),
        lang: Lang::En,
        model: ModelName::parse("qwen").expect("a model"),
        outcome: AttemptOutcome::Served,
        at: Minute(at),
    })
}

async fn repeats_and_late_attempts_are_left_out_and_swapped_ones_kept(db: &TestDb) {
    let start = 29_000_000;
    let mut first = vec![Event::Visit(Visit {
        id: id("swapped"),
        lesson: lesson::lessons::Which::One,
        lang: Lang::En,
        layout: Layout::Page,
        device: Device::Phone,
        room: None,
        started: Minute(start),
    })];
    first.extend((1..=10).map(|n| attempt(n, 900.0 - f64::from(n), start + 1)));
    db.store.write(&first).await.expect("the first ten");
    let stored = db
        .store
        .write(&[
            attempt(12, 449.0, start + 2),
            attempt(5, 100.0, start + 2),
            attempt(3, 100.0, start + 2),
            attempt(11, 500.0, start + 2),
        ])
        .await
        .expect("two swapped, a repeat, a late one");
    assert_eq!(
        stored.without_visit, 0,
        "repeats and late ones are not refusals"
    );
    let rows = rows(db).await;
    let numbers: Vec<i64> = rows.iter().map(|r| r.2).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 11]);
    let five = rows.iter().find(|r| r.2 == 5).expect("#5");
    assert_eq!(five.3, 895.0, "the first #5 is kept");
    let outcome = |n: i64| {
        let r = rows.iter().find(|r| r.2 == n).expect("a row");
        (r.4, r.5, r.6)
    };
    assert_eq!(
        outcome(10),
        (1, 1, 1),
        "#10, stored before, learns of #11 and #12"
    );
    assert_eq!(outcome(7), (1, 1, 1), "#12 is within five of #7");
    assert_eq!(outcome(6), (1, 1, 0), "but not of #6");
    assert_eq!(outcome(11), (1, 1, 1));
    assert_eq!(outcome(12), (0, 0, 0), "at the goal, and the last");
}
