//! The writer: batches, a full queue, a database that is slow or down, the
//! purge, and where it runs. Fake sinks stand in for a database that blocks
//! or fails; where the writer runs on the test's runtime, time is tokio's
//! paused clock. A writer on a thread of its own keeps to the wall clock, so
//! those tests time nothing and wait only for `stop`.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
    time::Duration,
};

use async_trait::async_trait;
use tokio::sync::Semaphore;

use super::{data::history, Warnings};
use crate::{
    config::DatabaseUrl,
    recorder::Stats,
    sink::{Sink, Stored},
    Event, Minute, Recorder, Store, StoreError, Writer, WriterConfig,
};

/// A sink that records its batches and the threads that wrote them, waits
/// for a permit before each write when gated, fails while `down`, and lets
/// the writer have a thread of its own when `anywhere`.
#[derive(Default)]
struct Fake {
    batches: Mutex<Vec<usize>>,
    threads: Mutex<Vec<String>>,
    purges: Mutex<Vec<Minute>>,
    gate: Option<Semaphore>,
    down: AtomicBool,
    anywhere: bool,
    panics: bool,
}

impl Fake {
    fn gated() -> Self {
        Self {
            gate: Some(Semaphore::new(0)),
            ..Self::default()
        }
    }

    fn batches(&self) -> Vec<usize> {
        self.batches.lock().expect("lock").clone()
    }

    fn threads(&self) -> Vec<String> {
        self.threads.lock().expect("lock").clone()
    }
}

fn refused() -> StoreError {
    StoreError::Database(sqlx::Error::PoolTimedOut)
}

#[async_trait]
impl Sink for Fake {
    async fn write(&self, events: &[Event]) -> Result<Stored, StoreError> {
        if let Some(gate) = &self.gate {
            gate.acquire().await.map_err(|_| refused())?.forget();
        }
        if self.down.load(Ordering::Relaxed) {
            return Err(refused());
        }
        assert!(!self.panics, "a fake sink that panics");
        self.batches.lock().expect("lock").push(events.len());
        let thread = std::thread::current()
            .name()
            .unwrap_or_default()
            .to_string();
        self.threads.lock().expect("lock").push(thread);
        Ok(Stored::default())
    }

    async fn purge_before(&self, cutoff: Minute) -> Result<u64, StoreError> {
        if self.down.load(Ordering::Relaxed) {
            return Err(refused());
        }
        self.purges.lock().expect("lock").push(cutoff);
        Ok(0)
    }

    fn runs_on_any_runtime(&self) -> bool {
        self.anywhere
    }
}

fn config(capacity: usize) -> WriterConfig {
    WriterConfig {
        capacity,
        ..WriterConfig::default()
    }
}

/// A writer on a fake database, in batches of at most 500.
fn batches_of_500() -> (Arc<Fake>, Recorder, Writer) {
    let fake = Arc::new(Fake::default());
    let config = WriterConfig {
        max_batch: 500,
        ..config(10_000)
    };
    let (recorder, writer) = Writer::spawn(fake.clone(), config);
    (fake, recorder, writer)
}

fn events(n: usize) -> impl Iterator<Item = Event> {
    history().into_iter().cycle().take(n)
}

/// Lets the writer run until it waits on something.
async fn settle() {
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
}

#[tokio::test(start_paused = true)]
async fn batches_hold_up_to_max_batch_events_or_what_came_within_a_second() {
    let (fake, recorder, writer) = batches_of_500();
    events(1200).for_each(|e| recorder.record(e));
    settle().await;
    assert_eq!(fake.batches(), vec![500, 500], "two full batches at once");
    // The last 200 wait for the second after they were taken.
    tokio::time::advance(Duration::from_millis(999)).await;
    settle().await;
    assert_eq!(fake.batches(), vec![500, 500]);
    tokio::time::advance(Duration::from_millis(1)).await;
    settle().await;
    assert_eq!(fake.batches(), vec![500, 500, 200]);
    // One more event: committed a second later, alone.
    events(1).for_each(|e| recorder.record(e));
    tokio::time::sleep(Duration::from_secs(1)).await;
    settle().await;
    assert_eq!(fake.batches(), vec![500, 500, 200, 1]);
    writer.stop().await;
    assert_eq!(
        recorder.stats(),
        Stats {
            written: 1201,
            ..Stats::default()
        }
    );
}

#[tokio::test(start_paused = true)]
async fn a_batch_that_fills_while_it_waits_is_committed_within_a_twentieth_of_the_wait() {
    let (fake, recorder, writer) = batches_of_500();
    events(300).for_each(|e| recorder.record(e));
    settle().await;
    tokio::time::advance(Duration::from_millis(100)).await;
    settle().await;
    assert!(fake.batches().is_empty(), "300 wait for more");
    // 250 more: the batch is full at the next look (every 50 ms), not at 1 s.
    events(250).for_each(|e| recorder.record(e));
    tokio::time::advance(Duration::from_millis(50)).await;
    settle().await;
    assert_eq!(fake.batches(), vec![500]);
    // The other 50 wait their second.
    tokio::time::advance(Duration::from_millis(999)).await;
    settle().await;
    assert_eq!(fake.batches(), vec![500]);
    tokio::time::advance(Duration::from_millis(1)).await;
    settle().await;
    assert_eq!(fake.batches(), vec![500, 50]);
    writer.stop().await;
}

#[tokio::test(start_paused = true)]
async fn each_look_takes_what_is_queued_so_the_queue_holds_only_what_came_since() {
    let fake = Arc::new(Fake::default());
    let config = WriterConfig {
        max_batch: 500,
        ..config(100)
    };
    let (recorder, writer) = Writer::spawn(fake.clone(), config);
    // 100 events each twentieth of a second: the batch takes 400 within
    // its second through a queue of 100, and none is dropped.
    for _ in 0..4 {
        events(100).for_each(|e| recorder.record(e));
        tokio::time::advance(Duration::from_millis(50)).await;
        settle().await;
    }
    assert_eq!(recorder.stats().dropped_queue_full, 0);
    assert!(fake.batches().is_empty(), "the batch waits its second");
    tokio::time::advance(Duration::from_millis(850)).await;
    settle().await;
    assert_eq!(fake.batches(), vec![400]);
    writer.stop().await;
}

#[tokio::test(start_paused = true)]
async fn a_full_queue_drops_and_counts_and_never_blocks_the_page() {
    let warnings = Warnings::capture();
    let fake = Arc::new(Fake::gated());
    let (recorder, writer) = Writer::spawn(fake.clone(), config(4));
    // The writer takes the first 4, waits a second for more, and then on
    // the blocked database…
    events(4).for_each(|e| recorder.record(e));
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(fake.batches().is_empty(), "blocked");
    // …so of the next 100, the queue holds 4 and 96 are dropped. `record`
    // is not async: it cannot wait, whatever the database does.
    events(100).for_each(|e| recorder.record(e));
    let stats = recorder.stats();
    assert_eq!(stats.dropped_queue_full, 96);
    assert_eq!(stats.dropped(), 96);
    assert_eq!(warnings.count(), 1, "one WARN, not one per event");
    // The database answers again: the 8 taken are written.
    fake.gate.as_ref().expect("gated").add_permits(100);
    writer.stop().await;
    assert_eq!(fake.batches().iter().sum::<usize>(), 8);
    assert_eq!(recorder.stats().written, 8);
    events(100).for_each(|e| recorder.record(e)); // stopped: dropped too, quietly
    assert_eq!(recorder.stats().dropped_queue_full, 196);
    assert_eq!(warnings.count(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_database_that_goes_down_costs_batches_counted_and_one_warning() {
    let warnings = Warnings::capture();
    let fake = Arc::new(Fake::default());
    let (recorder, writer) = Writer::spawn(fake.clone(), config(10_000));
    fake.down.store(true, Ordering::Relaxed);
    for _ in 0..5 {
        events(10).for_each(|e| recorder.record(e));
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    assert_eq!(recorder.stats().dropped_database, 50);
    assert_eq!(recorder.stats().written, 0);
    assert_eq!(warnings.count(), 1, "one WARN for the outage");
    // Back: written again; a new outage earns a new WARN.
    fake.down.store(false, Ordering::Relaxed);
    events(10).for_each(|e| recorder.record(e));
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(recorder.stats().written, 10);
    fake.down.store(true, Ordering::Relaxed);
    events(10).for_each(|e| recorder.record(e));
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(warnings.count(), 2);
    writer.stop().await;
    assert_eq!(recorder.stats().dropped(), 60);
}

#[tokio::test(start_paused = true)]
async fn old_rows_are_purged_at_start_and_daily() {
    let fake = Arc::new(Fake::default());
    let config = WriterConfig {
        keep_days: 30,
        ..WriterConfig::default()
    };
    let (_recorder, writer) = Writer::spawn(fake.clone(), config);
    settle().await;
    let purges = |f: &Fake| f.purges.lock().expect("lock").clone();
    assert_eq!(purges(&fake).len(), 1, "at start");
    let cutoff = purges(&fake)[0];
    let expected = Minute::now().days_before(30);
    assert!(
        (expected.0 - cutoff.0).abs() <= 1,
        "30 days back: {cutoff:?}"
    );
    tokio::time::sleep(Duration::from_secs(24 * 3600 - 1)).await;
    assert_eq!(purges(&fake).len(), 1);
    tokio::time::sleep(Duration::from_secs(1)).await;
    settle().await;
    assert_eq!(purges(&fake).len(), 2, "a day later");
    writer.stop().await;
}

#[tokio::test(start_paused = true)]
async fn stop_writes_what_is_queued_and_the_recorder_can_be_off() {
    let fake = Arc::new(Fake::default());
    let (recorder, writer) = Writer::spawn(fake.clone(), config(10_000));
    events(30).for_each(|e| recorder.record(e));
    writer.stop().await;
    assert_eq!(fake.batches().iter().sum::<usize>(), 30);
    let off = Recorder::off();
    assert!(!off.is_on());
    events(10).for_each(|e| off.record(e));
    assert_eq!(off.stats(), Stats::default());
}

/// A real store whose PostgreSQL server is not there (a closed local port):
/// the writer runs, counts every event it could not write, warns once. (The
/// paused clock lets the pool's 5 s wait for a connection pass at once.)
#[tokio::test(start_paused = true)]
async fn a_database_down_at_start_is_no_error_and_warns_once() {
    let warnings = Warnings::capture();
    let url = DatabaseUrl::parse("postgres://jay@127.0.0.1:1/insights").expect("a URL");
    let store = Arc::new(Store::open(&url).expect("opening does not connect"));
    let (recorder, writer) = Writer::spawn(store, config(10_000));
    events(25).for_each(|e| recorder.record(e));
    writer.stop().await;
    let stats = recorder.stats();
    assert_eq!((stats.written, stats.dropped_database), (0, 25));
    assert_eq!(
        warnings.count(),
        1,
        "the failed purge at start and the batch: one WARN"
    );
}

/// A sink bound to no runtime gets a writer on a thread of its own, whose
/// queue `stop` writes and whose warnings go where the caller's do; any
/// other sink's writer runs on the caller's runtime.
#[tokio::test]
async fn where_the_sink_allows_it_the_writer_has_a_thread_of_its_own() {
    let warnings = Warnings::capture();
    // `stop` waits for the batch being gathered: a short one.
    let config = |capacity| WriterConfig {
        flush_every: Duration::from_millis(10),
        ..config(capacity)
    };
    for anywhere in [true, false] {
        let fake = Arc::new(Fake {
            anywhere,
            ..Fake::default()
        });
        let (recorder, writer) = Writer::spawn(fake.clone(), config(10_000));
        events(30).for_each(|e| recorder.record(e));
        writer.stop().await;
        assert_eq!(fake.batches().iter().sum::<usize>(), 30);
        let threads = fake.threads();
        assert!(!threads.is_empty());
        assert_eq!(
            threads.iter().all(|t| t == "insights-writer"),
            anywhere,
            "{threads:?}"
        );
    }
    assert_eq!(warnings.count(), 0);
    let down = Arc::new(Fake {
        anywhere: true,
        down: AtomicBool::new(true),
        ..Fake::default()
    });
    let (recorder, writer) = Writer::spawn(down, config(10_000));
    events(5).for_each(|e| recorder.record(e));
    writer.stop().await;
    assert_eq!(recorder.stats().dropped_database, 5);
    assert_eq!(warnings.count(), 1, "the thread's WARN is counted here");
    // A writer whose thread panics: `stop` returns, and says so once.
    let panics = Arc::new(Fake {
        anywhere: true,
        panics: true,
        ..Fake::default()
    });
    let (recorder, writer) = Writer::spawn(panics, config(10_000));
    events(5).for_each(|e| recorder.record(e));
    writer.stop().await;
    assert_eq!(warnings.count(), 2, "the panic's WARN");
}

/// On SQLite the writer's thread ends its runtime only once what its loop
/// left running has ended: the connection goes back to its pool, so that
/// closing the store closes it, and the last connection's close folds the
/// write-ahead log into the file and removes it.
#[tokio::test]
async fn on_sqlite_stop_then_close_leaves_no_write_ahead_log() {
    for _ in 0..5 {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let file = dir.path().join("insights.db");
        let store = Arc::new(
            Store::connect(&DatabaseUrl::sqlite_file(&file))
                .await
                .expect("a new SQLite store"),
        );
        let config = WriterConfig {
            flush_every: Duration::from_millis(10),
            ..config(10_000)
        };
        let (recorder, writer) = Writer::spawn(store.clone(), config);
        history().into_iter().for_each(|e| recorder.record(e));
        writer.stop().await;
        store.close().await;
        assert!(recorder.stats().written > 0);
        let wal = dir.path().join("insights.db-wal");
        assert!(
            !wal.exists(),
            "{} is left ({:?} bytes)",
            wal.display(),
            std::fs::metadata(&wal).map(|m| m.len())
        );
    }
}
