//! What the store takes of the disk and of the database: under its ceiling
//! the oldest days go first, a nearly full disk makes it purge and then drop,
//! purged rows leave nothing in the file; the reports read through their
//! own pool (the writer never waits for them) and a report that takes too
//! long is named, not waited for.

use std::{sync::Arc, time::Duration};

use super::{on_both, TestDb, Warnings};
use crate::report::overview::Data;
use crate::{
    sink::Sink, Attempt, AttemptNumbers, AttemptOutcome, Device, Event, Filter, Layout, Minute,
    ModelName, Store, Visit, VisitId, Writer, WriterConfig,
};
use vocabulary::Lang;

on_both!(reports_never_hold_the_writers_connections);

/// `visits` visits a day for `days` days up to today, `attempts` each.
fn days_of(days: u32, visits: usize, attempts: u32) -> Vec<Event> {
    let today = Minute::now();
    let mut events = Vec::new();
    for d in (0..days).rev() {
        // Five minutes into the day, or as far as today has come (never
        // in the future: a test run just after midnight UTC sees them).
        let day_start = today.days_before(d).day() * Minute::PER_DAY;
        let latest = if d == 0 {
            today.0
        } else {
            day_start + Minute::PER_DAY - 1
        };
        let start = (day_start + 5).min(latest);
        for v in 0..visits {
            let id = VisitId::parse(&format!("day{d:03}-visit{v:05}-secretsecret")).expect("id");
            events.push(Event::Visit(Visit {
                id: id.clone(),
                lesson: lesson::lessons::Which::One,
                lang: Lang::En,
                layout: Layout::Page,
                device: Device::Desktop,
                room: None,
                started: Minute(start),
            }));
            for n in 1..=attempts {
                events.push(Event::Attempt(Attempt {
                    visit: id.clone(),
                    numbers: AttemptNumbers::new(n, 700.0 - f64::from(n), 0.1, 150.0, 300)
                        .expect("numbers"),
                    lang: Lang::En,
                    model: ModelName::parse("offline").expect("model"),
                    outcome: AttemptOutcome::Offline,
                    at: Minute((start + i64::from(n)).min(latest)),
                }));
            }
        }
    }
    events
}

/// The bytes of the SQLite file and its write-ahead log.
fn file_bytes(db: &TestDb) -> Vec<u8> {
    let path = db.store.file.clone().expect("a SQLite file");
    let mut all = std::fs::read(&path).expect("the file");
    let wal = path.with_extension("db-wal");
    all.extend(std::fs::read(wal).unwrap_or_default());
    all
}

async fn written(recorder: &crate::Recorder, n: u64) {
    for _ in 0..800 {
        let s = recorder.stats();
        if s.written + s.dropped() >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{n} events not written: {:?}", recorder.stats());
}

#[tokio::test]
async fn past_its_ceiling_the_store_purges_its_oldest_days() {
    let warnings = Warnings::capture();
    let db = TestDb::sqlite().await;
    let events = days_of(8, 60, 10);
    db.store.write(&events).await.expect("eight days");
    let full = db
        .store
        .bytes()
        .await
        .expect("size")
        .expect("a SQLite size");
    let first = db.store.oldest_day().await.expect("day").expect("a day");
    let store = Arc::new(Store::connect(&db.url).await.expect("the store"));
    let config = WriterConfig {
        max_bytes: Some(full / 2),
        check_every: Duration::ZERO,
        ..WriterConfig::default()
    };
    let (recorder, writer) = Writer::spawn(store.clone(), config);
    // Today's visits once more, through the writer: it looks, and purges.
    let today: Vec<Event> = days_of(1, 5, 2);
    let n = today.len() as u64;
    today.into_iter().for_each(|e| recorder.record(e));
    written(&recorder, n).await;
    writer.stop().await;
    let kept = store.bytes().await.expect("size").expect("a size");
    assert!(kept <= full / 2, "{kept} of {full} bytes");
    let oldest = store.oldest_day().await.expect("day").expect("a day");
    assert!(
        oldest > first + 2,
        "the oldest days went: {first} → {oldest}"
    );
    let today = Filter::last_days(0, Minute::now());
    assert!(
        store.funnel(&today).await.expect("funnel").visits > 0,
        "today stays"
    );
    assert_eq!(warnings.count(), 1, "one WARN says so");
    store.close().await;
    db.finish().await;
}

#[tokio::test]
async fn a_nearly_full_disk_purges_then_drops_and_warns_once() {
    let warnings = Warnings::capture();
    let db = TestDb::sqlite().await;
    db.store.write(&days_of(2, 3, 1)).await.expect("two days");
    let store = Arc::new(Store::connect(&db.url).await.expect("the store"));
    assert!(store.free_disk().is_some_and(|free| free > 0));
    let config = WriterConfig {
        // More than any disk has free: it always looks nearly full.
        reserve_bytes: u64::MAX,
        check_every: Duration::ZERO,
        ..WriterConfig::default()
    };
    let (recorder, writer) = Writer::spawn(store.clone(), config);
    days_of(1, 2, 1)
        .into_iter()
        .for_each(|e| recorder.record(e));
    written(&recorder, 4).await;
    writer.stop().await;
    let stats = recorder.stats();
    assert_eq!(
        (stats.written, stats.dropped_disk_full),
        (0, 4),
        "{stats:?}"
    );
    assert_eq!(store.oldest_day().await.expect("day"), None, "all purged");
    assert_eq!(warnings.count(), 1);
    store.close().await;
    db.finish().await;
}

#[tokio::test]
async fn purged_rows_leave_nothing_in_the_file_and_it_shrinks() {
    let db = TestDb::sqlite().await;
    db.store
        .write(&days_of(3, 200, 5))
        .await
        .expect("three days");
    let before = file_bytes(&db);
    let needle = b"day002-visit00007-secretsecret";
    assert!(before.windows(needle.len()).any(|w| w == needle));
    let cutoff = db
        .store
        .purge_oldest_day()
        .await
        .expect("purged")
        .expect("a day");
    assert!(cutoff.0 > 0);
    let after = file_bytes(&db);
    assert!(
        !after.windows(needle.len()).any(|w| w == needle),
        "a purged visit's id is still on the disk"
    );
    assert!(
        after.len() < before.len(),
        "{} → {} bytes",
        before.len(),
        after.len()
    );
    db.finish().await;
}

async fn reports_never_hold_the_writers_connections(db: &TestDb) {
    // Every connection the reports have, held (a slow report each).
    let mut held = Vec::new();
    while let Ok(Ok(conn)) =
        tokio::time::timeout(Duration::from_millis(500), db.store.reads().acquire()).await
    {
        held.push(conn);
        if held.len() == 16 {
            break;
        }
    }
    assert!(
        (2..16).contains(&held.len()),
        "{} read connections",
        held.len()
    );
    // The writer's batches still go in, at once.
    let events = days_of(1, 3, 2);
    let batch = tokio::time::timeout(Duration::from_secs(4), db.store.write(&events));
    batch.await.expect("not held up").expect("written");
    drop(held);
}

#[tokio::test]
async fn a_report_that_takes_too_long_is_named_and_not_waited_for() {
    let db = TestDb::sqlite().await;
    db.store.write(&days_of(1, 3, 2)).await.expect("a day");
    let filter = Filter::last_days(7, Minute::now());
    let late = Data::load_within(&db.store, &filter, Duration::ZERO)
        .await
        .expect("an answer");
    assert_eq!(
        late.slow,
        ["funnel", "days", "effort", "stuck", "helps", "coach"]
    );
    assert_eq!(late.funnel.visits, 0, "left empty");
    let data = Data::load(&db.store, &filter).await.expect("an answer");
    assert!(data.slow.is_empty());
    assert_eq!(data.funnel.visits, 3);
    db.finish().await;
}
