//! The store itself: its migrations, what a repeated event does, the purge.

use super::{
    data::{attempt, history, tool, visit, T0},
    on_both, TestDb,
};
use crate::{sink::Sink, Filter, Minute, Store, Tool};
use vocabulary::Lang;

on_both!(
    migrations_are_idempotent,
    repeats_keep_the_first_and_count_tool_uses,
    purge_removes_old_rows_only,
    a_visits_best_error_reads_back_exactly,
    a_sums_row_without_a_start_gets_its_visits,
    a_failed_batch_leaves_nothing_and_the_next_is_written
);

async fn count(store: &Store, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql)
        .fetch_one(&store.pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn migrations_are_idempotent(db: &TestDb) {
    // Migrated once by `TestDb`; again on the same store, and by a second
    // store on the same database (a restart, or a second replica).
    db.store.migrate().await.expect("again");
    let second = Store::connect(&db.url).await.expect("a second store");
    second.migrate().await.expect("and again");
    second.write(&history()).await.expect("writes after");
    second.close().await;
    assert_eq!(
        count(&db.store, "SELECT COUNT(*) FROM _sqlx_migrations").await,
        6
    );
    assert_eq!(
        count(&db.store, "SELECT COUNT(*) FROM insights_visits").await,
        8
    );
}

async fn repeats_keep_the_first_and_count_tool_uses(db: &TestDb) {
    let s = &db.store;
    let once = s.write(&history()).await.expect("once");
    assert_eq!(once.without_visit, 1, "the ghost's attempt, of no visit");
    s.write(&history()).await.expect("twice");
    // 8 visits (v1–v8), 12 attempts (11 + v6's; not the ghost's), 8 (visit, tool) pairs.
    assert_eq!(count(s, "SELECT COUNT(*) FROM insights_visits").await, 8);
    assert_eq!(count(s, "SELECT COUNT(*) FROM insights_attempts").await, 12);
    assert_eq!(count(s, "SELECT COUNT(*) FROM insights_tools").await, 8);
    // v1 used the map twice per history: 4 uses, first at minute 2.
    assert_eq!(
        count(
            s,
            "SELECT uses FROM insights_tools WHERE tool = 'map' AND visit_id LIKE 'v1-%'"
        )
        .await,
        4
    );
    assert_eq!(
        count(
            s,
            "SELECT first_min FROM insights_tools WHERE tool = 'map' AND visit_id LIKE 'v1-%'"
        )
        .await,
        T0 + 2
    );
    // v2's repeat (another language, a room, error 1) was ignored.
    assert_eq!(
        count(
            s,
            "SELECT COUNT(*) FROM insights_visits WHERE visit_id LIKE 'v2-%' AND lang = 'en' AND room IS NULL"
        )
        .await,
        1
    );
    let f = s.funnel(&super::data::period()).await.expect("funnel");
    assert_eq!(f.visits, 7);
}

async fn purge_removes_old_rows_only(db: &TestDb) {
    let s = &db.store;
    s.write(&history()).await.expect("written");
    // Before T0: v6's visit, attempt and tool (all at T0−10) go; the rest stays.
    let removed = s.purge_before(Minute(T0)).await.expect("purged");
    assert_eq!(removed, 3);
    assert_eq!(count(s, "SELECT COUNT(*) FROM insights_visits").await, 7);
    assert_eq!(count(s, "SELECT COUNT(*) FROM insights_attempts").await, 11);
    assert_eq!(count(s, "SELECT COUNT(*) FROM insights_tools").await, 7);
    assert_eq!(s.purge_before(Minute(T0)).await.expect("again"), 0);
    let all = Filter::period(Minute(0), Minute(i64::MAX));
    assert_eq!(s.funnel(&all).await.expect("funnel").visits, 7);
    // Up to the second day: everything of day one goes, day two stays.
    s.purge_before(Minute(T0 + Minute::PER_DAY))
        .await
        .expect("day one");
    assert_eq!(s.funnel(&all).await.expect("funnel").visits, 2);
    assert_eq!(count(s, "SELECT COUNT(*) FROM insights_attempts").await, 1);
}

/// SQLite's `temp_store` on a connection of `pool` (0: the default, a file;
/// 2: memory).
async fn temp_store(pool: &sqlx::AnyPool) -> i64 {
    sqlx::query_scalar::<_, i64>("PRAGMA temp_store")
        .fetch_one(pool)
        .await
        .expect("PRAGMA temp_store")
}

#[tokio::test]
async fn on_sqlite_only_the_writers_temporary_files_are_kept_in_memory() {
    let db = TestDb::sqlite().await;
    // What a statement of the writer's changes, a purge's deletions among it,
    // never reaches a temporary file.
    assert_eq!(temp_store(&db.store.pool).await, 2, "the writer's");
    // The reports sort and group in SQLite's own temporary files.
    assert_eq!(temp_store(db.store.reads()).await, 0, "the reports'");
    db.finish().await;
}

/// The writer reads a visit's sums back (as text: `crate::packed`) and
/// writes them again with each batch that touches the visit: its best error
/// must come back the same double, to the last of its 17 digits.
async fn a_visits_best_error_reads_back_exactly(db: &TestDb) {
    // The double just above 450: 17 digits tell it from 450.0000000000001.
    let error = 450.000_000_000_000_06_f64;
    assert_ne!(format!("{error:.13}").parse::<f64>().ok(), Some(error));
    let first = [
        visit("exact", Lang::En, None, 3),
        attempt(
            "exact",
            Lang::En,
            (1, error, 0.1, 150.0, "qwen", "served", 300, 3),
        ),
    ];
    db.store.write(&first).await.expect("the visit");
    let later = [tool("exact", Tool::Map, 4)];
    db.store.write(&later).await.expect("a later batch");
    let best: f64 = sqlx::query_scalar("SELECT best FROM insights_visit_sums")
        .fetch_one(&db.store.pool)
        .await
        .expect("its sums");
    assert_eq!(best, error);
}

async fn a_sums_row_without_a_start_gets_its_visits(db: &TestDb) {
    // Migration 0002 gave a sums row to attempts whose visit had not come.
    let early = crate::tests::data::id("early");
    sqlx::query("INSERT INTO insights_visit_sums (visit_id, attempts) VALUES ($1, 1)")
        .bind(early.as_str().to_string())
        .execute(&db.store.pool)
        .await
        .expect("a row of old");
    let events = [
        visit("early", Lang::En, Some("class-7b"), 3),
        attempt(
            "early",
            Lang::En,
            (2, 700.0, 0.1, 150.0, "qwen", "served", 300, 4),
        ),
    ];
    db.store.write(&events).await.expect("its visit");
    let later = [attempt(
        "early",
        Lang::En,
        (3, 600.0, 0.1, 150.0, "qwen", "served", 300, 5),
    )];
    let stored = db.store.write(&later).await.expect("a later batch");
    assert_eq!(stored.without_visit, 0, "its attempts are its visit's");
    assert_eq!(
        count(&db.store, "SELECT started_min FROM insights_visit_sums").await,
        T0 + 3
    );
    assert_eq!(
        count(&db.store, "SELECT COUNT(*) FROM insights_attempts").await,
        2
    );
    assert_eq!(
        count(
            &db.store,
            "SELECT CAST(COALESCE(SUM(visits), 0) AS BIGINT) FROM insights_day_visits"
        )
        .await,
        1
    );
}

/// A batch that fails midway leaves none of its rows, and the next batch is
/// written (on SQLite through a connection of its own, which the failure
/// closed and the next batch opens again).
async fn a_failed_batch_leaves_nothing_and_the_next_is_written(db: &TestDb) {
    let s = &db.store;
    s.write(&history()).await.expect("first");
    let rows = "SELECT (SELECT COUNT(*) FROM insights_visits) * 1000 \
                + (SELECT COUNT(*) FROM insights_attempts)";
    let before = count(s, rows).await;
    let batch = [
        visit("v9", Lang::En, None, 0),
        attempt(
            "v9",
            Lang::En,
            (1, 799.09, 0.1, 150.0, "qwen", "served", 100, 0),
        ),
    ];
    // Its visit goes in, then its attempt's id cannot be reserved.
    let away = "ALTER TABLE insights_attempt_ids RENAME TO insights_attempt_ids_away";
    sqlx::query(away).execute(&s.pool).await.expect("away");
    assert!(s.write(&batch).await.is_err(), "the batch failed");
    assert_eq!(count(s, rows).await, before, "and left nothing");
    let back = "ALTER TABLE insights_attempt_ids_away RENAME TO insights_attempt_ids";
    sqlx::query(back).execute(&s.pool).await.expect("back");
    s.write(&batch).await.expect("the next batch");
    assert_eq!(count(s, rows).await, before + 1001, "its visit and attempt");
}
