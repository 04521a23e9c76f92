//! The rollups answer every report with the numbers the stored rows give
//! (`Store::use_rollups(false)` reads the rows, as before the rollups): after
//! random histories of both lessons written in shuffled batches (visits after
//! their attempts, repeats, attempts and tools of visits never stored,
//! attempts of the other lesson, numbers out of order), after the migrations
//! build them from rows already stored, and after purges that cut into a day
//! (and would cut into a visit, but go visit by visit).

use rand::{rngs::StdRng, seq::SliceRandom, Rng, SeedableRng};

use super::{data::T0, on_both, TestDb};
use crate::{
    report::{
        coach::CoachReport,
        effort::{Effort, Points},
        funnel::{Day, Funnel},
        teaching::TeachingReport,
        tools::ToolReport,
    },
    sink::Sink,
    Attempt, AttemptNumbers, AttemptOutcome, Device, Event, Filter, Layout, Minute, ModelName,
    Reason, RoomCode, Tool, ToolUse, Visit, VisitId,
};
use lesson::lessons::Which;
use vocabulary::Lang;

on_both!(
    rollups_answer_like_the_rows,
    the_migration_builds_the_rollups,
    the_migration_builds_the_teaching_counts,
    purges_keep_the_rollups_true
);

const DAY: i64 = Minute::PER_DAY;
/// The purges' cutoffs: mid-day D−1, mid-day D, the start of D+1.
const CUTOFFS: [i64; 3] = [T0 - DAY + 700, T0 + 300, T0 + DAY];

/// A random history over days D−1 to D+2, shuffled into batches.
pub(super) fn history(seed: u64) -> Vec<Vec<Event>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let langs = [Lang::En, Lang::Pt, Lang::Zh];
    let models = ["qwen", "llama", "offline"];
    let mut events = Vec::new();
    for v in 0..150 {
        let id = VisitId::parse(&format!("visit-{seed}-{v:04}-aaaaaaaa")).expect("an id");
        let lang = langs[rng.random_range(0..3)];
        let started = T0 - DAY + rng.random_range(0..4 * DAY);
        // One visit in three is of lesson 2 (its goal: below 1,420).
        let lesson = if v % 3 == 1 { Which::Two } else { Which::One };
        let visit = |lang, room: Option<&str>, started| {
            Event::Visit(Visit {
                id: id.clone(),
                lesson,
                lang,
                layout: Layout::Page,
                device: Device::Phone,
                room: room.map(|r| RoomCode::parse(r).expect("a room")),
                started: Minute(started),
            })
        };
        let room = rng.random_bool(0.2).then_some("class-1");
        // One visit in ten is never stored; one in ten is sent twice.
        if v % 10 != 3 {
            events.push(visit(lang, room, started));
        }
        if v % 10 == 5 {
            events.push(visit(Lang::Zh, Some("other"), started + 7));
        }
        for _ in 0..rng.random_range(0..7) {
            let number = rng.random_range(1..9);
            let near = rng.random_bool(0.3);
            let error = match (lesson, near) {
                (Which::One, true) => rng.random_range(447.3..450.5),
                (Which::One, false) => rng.random_range(450.5..900.0),
                (Which::Two, true) => rng.random_range(1406.1..1421.0),
                (Which::Two, false) => rng.random_range(1421.0..6000.0),
            };
            let outcome = match rng.random_range(0..4) {
                0 => AttemptOutcome::Offline,
                1 => AttemptOutcome::Rejected(Reason::parse("too long").expect("a reason")),
                _ => AttemptOutcome::Served,
            };
            let (weight, bias) = (rng.random_range(0.0..0.4), rng.random_range(0.0..460.0));
            let latency = rng.random_range(0..5_000);
            // Now and then an attempt of the other lesson: the store leaves it out.
            let other = rng.random_bool(0.05);
            let numbers = if (lesson == Which::Two) != other {
                let w2 = rng.random_range(-100.0..200.0);
                AttemptNumbers::two(number, error, [weight, w2, bias], latency)
            } else {
                AttemptNumbers::new(number, error, weight, bias, latency)
            }
            .expect("numbers");
            events.push(Event::Attempt(Attempt {
                visit: id.clone(),
                numbers,
                lang: langs[rng.random_range(0..3)],
                model: ModelName::parse(models[rng.random_range(0..3)]).expect("a model"),
                outcome,
                // Now and then a minute before the visit's own.
                at: Minute(started + rng.random_range(-2..40)),
            }));
        }
        for _ in 0..rng.random_range(0..4) {
            events.push(Event::Tool(ToolUse {
                visit: id.clone(),
                tool: Tool::ALL[rng.random_range(0..Tool::ALL.len())],
                at: Minute(started + rng.random_range(-1..30)),
            }));
        }
    }
    // Visits that begin just after a purge's cutoff (below), with an attempt
    // at the goal and a tool just before it: the purge, visit by visit,
    // leaves them with their visit.
    for (k, cutoff) in CUTOFFS.into_iter().enumerate() {
        let id = VisitId::parse(&format!("edge-{seed}-{k}-aaaaaaaaaaaa")).expect("an id");
        events.push(Event::Visit(Visit {
            id: id.clone(),
            lesson: lesson::lessons::Which::One,
            lang: Lang::Pt,
            layout: Layout::Embed,
            device: Device::Desktop,
            room: None,
            started: Minute(cutoff + 1),
        }));
        events.push(Event::Attempt(Attempt {
            visit: id.clone(),
            numbers: AttemptNumbers::new(1, 449.0, 0.058, 247.0, 1234).expect("numbers"),
            lang: Lang::Pt,
            model: ModelName::parse("qwen").expect("a model"),
            outcome: AttemptOutcome::Served,
            at: Minute(cutoff - 1),
        }));
        events.push(Event::Tool(ToolUse {
            visit: id,
            tool: Tool::Map,
            at: Minute(cutoff - 1),
        }));
    }
    events.shuffle(&mut rng);
    events.chunks(37).map(<[Event]>::to_vec).collect()
}

async fn write(db: &TestDb, seed: u64) {
    for batch in history(seed) {
        db.store.write(&batch).await.expect("a batch is written");
    }
}

/// Filters the rollups answer (whole days, with and without a language), and
/// two they do not (a room; a cut day): all must read the same both ways;
/// lesson 1's, then some of lesson 2's.
fn filters() -> Vec<(Filter, bool)> {
    let days =
        |first: i64, end: i64| Filter::period(Minute(T0 + first * DAY), Minute(T0 + end * DAY));
    let two = |filter: Filter| Filter {
        lesson: Which::Two,
        ..filter
    };
    vec![
        (days(0, 2), true),
        (days(-1, 3), true),
        (days(1, 2), true),
        (
            Filter {
                lang: Some(Lang::Pt),
                ..days(-1, 1)
            },
            true,
        ),
        (Filter::period(Minute(0), Minute(i64::MAX)), true),
        (Filter::last_days(2, Minute(T0 + 3 * DAY - 1)), true),
        (
            Filter {
                room: Some(RoomCode::parse("class-1").expect("a room")),
                ..days(-1, 3)
            },
            false,
        ),
        (
            Filter::period(Minute(T0 + 100), Minute(T0 + DAY + 7)),
            false,
        ),
        (two(days(-1, 3)), true),
        (
            two(Filter {
                lang: Some(Lang::Zh),
                ..days(0, 2)
            }),
            true,
        ),
        (
            two(Filter {
                room: Some(RoomCode::parse("class-1").expect("a room")),
                ..days(-1, 3)
            }),
            false,
        ),
        (
            two(Filter::period(Minute(T0 + 100), Minute(T0 + DAY + 7))),
            false,
        ),
    ]
}

/// Every report for a filter: one value to compare.
type Reports = (
    Funnel,
    Vec<Day>,
    Effort,
    Points,
    Points,
    Vec<ToolReport>,
    CoachReport,
    TeachingReport,
);

async fn every_report(s: &crate::Store, filter: &Filter) -> Reports {
    (
        s.funnel(filter).await.expect("funnel"),
        s.per_day(filter).await.expect("per day"),
        s.effort(filter).await.expect("effort"),
        s.points(filter, 5).await.expect("points"),
        s.points(filter, 1000).await.expect("all points"),
        s.tools(filter).await.expect("tools"),
        s.coach(filter).await.expect("coach"),
        s.teaching(filter).await.expect("teaching"),
    )
}

/// Every report of every filter, from the rollups and from the rows; those
/// of the lessons in `proven` must have something to compare.
async fn same_reports(db: &TestDb, when: &str, proven: &[Which]) {
    let s = &db.store;
    for (filter, whole) in filters() {
        s.use_rollups(true);
        let daily = s.whole_days(&filter).await.expect("days").is_some();
        // (A filter of no visit cuts no day: the rollups answer it.)
        if proven.contains(&filter.lesson) {
            assert_eq!(daily, whole, "{when}: {filter:?} answered from the rollups");
        }
        let with = every_report(s, &filter).await;
        s.use_rollups(false);
        let without = every_report(s, &filter).await;
        s.use_rollups(true);
        assert_eq!(with, without, "{when}: {filter:?}");
        if whole && filter.lang.is_none() && proven.contains(&filter.lesson) {
            assert!(
                with.0.visits > 0 && with.6.comments > 0,
                "{when}: an empty filter proves little"
            );
            let outcomes = |r: &TeachingReport| {
                r.rows
                    .iter()
                    .map(|r| (r.improved.hits, r.reached.hits))
                    .fold((0, 0), |(i, g), (a, b)| (i + a, g + b))
            };
            let (improved, reached) = outcomes(&with.7);
            assert!(
                improved > 0 && reached > 0,
                "{when}: no comment improved or reached: the outcomes prove little"
            );
        }
    }
}

async fn rollups_answer_like_the_rows(db: &TestDb) {
    write(db, 1).await;
    same_reports(db, "written", &Which::ALL).await;
    // The same events again change nothing.
    write(db, 1).await;
    same_reports(db, "written twice", &Which::ALL).await;
    write(db, 2).await;
    same_reports(db, "more written", &Which::ALL).await;
    // The attempts of the other lesson than their visit's were left out.
    let mixed: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM insights_attempts a JOIN insights_visits v \
         ON v.visit_id = a.visit_id WHERE a.lesson <> v.lesson",
    )
    .fetch_one(&db.store.pool)
    .await
    .expect("mixed");
    assert_eq!(mixed, 0);
}

/// The database as it was before migration 0002: its rows only, of lesson
/// 1 (lesson 2 came with 0005), the attempts keyed by visit again (as
/// before 0006); every rollup dropped and migrations 2, 4, 5 and 6
/// forgotten, to run again.
async fn rows_only(db: &TestDb) {
    let lesson_two = "SELECT visit_id FROM insights_visits WHERE lesson = 2";
    let mut statements = vec![
        format!("DELETE FROM insights_tools WHERE visit_id IN ({lesson_two})"),
        "CREATE TABLE insights_attempts_keyed (visit_id TEXT NOT NULL, attempt BIGINT NOT NULL, \
         lang TEXT NOT NULL, error DOUBLE PRECISION NOT NULL, weight DOUBLE PRECISION NOT NULL, \
         bias DOUBLE PRECISION NOT NULL, model TEXT NOT NULL, outcome TEXT NOT NULL, \
         reason TEXT, latency_ms BIGINT NOT NULL, at_min BIGINT NOT NULL, \
         PRIMARY KEY (visit_id, attempt))"
            .into(),
        "INSERT INTO insights_attempts_keyed SELECT visit_id, attempt, lang, error, weight, bias, \
         model, outcome, reason, latency_ms, at_min FROM insights_attempts WHERE lesson = 1"
            .into(),
        "DROP TABLE insights_attempts".into(),
        "ALTER TABLE insights_attempts_keyed RENAME TO insights_attempts".into(),
        "CREATE INDEX insights_attempts_at ON insights_attempts (at_min)".into(),
        "DROP TABLE insights_attempt_ids".into(),
        "DELETE FROM insights_visits WHERE lesson = 2".to_string(),
        "ALTER TABLE insights_visits DROP COLUMN lesson".into(),
        "ALTER TABLE insights_votes DROP COLUMN lesson".into(),
        "DROP TABLE insights_visit_sums".into(),
        format!("DROP TABLE {}", crate::rollup::teaching::TABLE),
        "DELETE FROM _sqlx_migrations WHERE version IN (2, 4, 5, 6)".into(),
    ];
    statements.extend(
        crate::rollup::purge::TABLES
            .iter()
            .map(|table| format!("DROP TABLE {table}")),
    );
    for sql in statements {
        sqlx::query(&sql)
            .execute(&db.store.pool)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

async fn the_migration_builds_the_rollups(db: &TestDb) {
    write(db, 3).await;
    let before = db.store.coach(&filters()[1].0).await.expect("coach");
    rows_only(db).await;
    // Latencies as the first migration kept them, to the millisecond: each
    // stored value plus 7 ms, which the migration rounds back down.
    let latencies = "SELECT visit_id, attempt, latency_ms FROM insights_attempts ORDER BY 1, 2";
    let stored: Vec<(String, i64, i64)> = sqlx::query_as(latencies)
        .fetch_all(&db.store.pool)
        .await
        .expect("latencies");
    let raw = sqlx::query(
        "UPDATE insights_attempts SET latency_ms = latency_ms + 7 WHERE latency_ms >= 100",
    )
    .execute(&db.store.pool)
    .await
    .expect("raw latencies");
    assert!(raw.rows_affected() > 0, "no latency to round");
    let store = crate::Store::connect(&db.url)
        .await
        .expect("migrated again");
    let migrated: Vec<(String, i64, i64)> = sqlx::query_as(latencies)
        .fetch_all(&db.store.pool)
        .await
        .expect("latencies");
    assert_eq!(
        migrated, stored,
        "the migration's rounding is two_significant's"
    );
    assert_eq!(store.coach(&filters()[1].0).await.expect("coach"), before);
    store.close().await;
    same_reports(db, "migrated", &[Which::One]).await;
}

async fn purges_keep_the_rollups_true(db: &TestDb) {
    write(db, 4).await;
    for cutoff in CUTOFFS {
        db.store.purge_before(Minute(cutoff)).await.expect("purged");
        same_reports(db, &format!("purged before {cutoff}"), &Which::ALL).await;
    }
}

/// Migration 0004 counts what became of the comments already stored.
async fn the_migration_builds_the_teaching_counts(db: &TestDb) {
    write(db, 5).await;
    let whole = &filters()[1].0;
    let before = db.store.teaching(whole).await.expect("teaching");
    assert!(!before.rows.is_empty());
    rows_only(db).await;
    sqlx::query("DROP TABLE insights_votes")
        .execute(&db.store.pool)
        .await
        .expect("dropped");
    let store = crate::Store::connect(&db.url)
        .await
        .expect("migrated again");
    assert_eq!(store.teaching(whole).await.expect("teaching"), before);
    store.close().await;
    same_reports(db, "migrated to 0004", &[Which::One]).await;
}
