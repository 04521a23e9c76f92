//! How many events a second the insights writer commits (at least
//! 5,000 into SQLite on this machine).
//!
//! 200,000 events (`JAY_BENCH_EVENTS`) of synthetic visits
//! (`insights/synth.rs`: the visits under way interleaved minute by minute,
//! each visit before its attempts and tool uses; about 10 events a visit,
//! 60 % attempts) go through the real
//! [`Recorder`] into the real [`Writer`] (default [`WriterConfig`]: a queue
//! of 20,000, batches of up to 10,000 in one transaction) and the real
//! [`Store`], a SQLite file in a new temporary folder per run (migrated
//! before the clock starts). The producer keeps the queue from overflowing
//! (it waits while a queue's worth is not yet committed), so the figure is
//! what the writer sustains, not how fast a loop can call `try_send`; the
//! events dropped are counted all the same (0 expected). One run is timed
//! from the first event handed over to the last committed
//! ([`Writer::stop`]); 3 runs (`JAY_BENCH_RUNS`), the median and the range.
//! Afterwards the rows are counted: every event must be in the database.
//!
//! With `JAY_TEST_DATABASE_URL` set (`.ci/postgres start`), the same into a
//! new PostgreSQL database on that server (dropped at the end).
//!
//! A benchmark, not a test: the figure is printed with the target and "met:
//! yes/no"; nothing fails on timing. Exits 2 when a measurement could not be
//! made (an event lost, a database error).
//!
//! Run: `cargo bench --features ssr --bench insights_writer`.

#[path = "insights/run.rs"]
mod run;
#[path = "insights/synth.rs"]
mod synth;

use run::{env_number, Failure};
use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use insights::{DatabaseUrl, Event, Minute, Recorder, Stats, Store, Writer, WriterConfig};
use sqlx::{migrate::MigrateDatabase, Any, AnyConnection, Connection};

/// The writer sustains at least 5,000 events a second into SQLite.
const TARGET: f64 = 5_000.0;

fn main() {
    run::main("insights_writer", run());
}

async fn run() -> Result<(), Failure> {
    let n = env_number("JAY_BENCH_EVENTS", 200_000) as usize;
    let runs = env_number("JAY_BENCH_RUNS", 3).max(1) as usize;
    // The first days of 80 ending today, in time order: within the 90 days
    // the writer keeps (its purge at start would delete older rows).
    let today = Minute((Minute::now().day() + 1) * Minute::PER_DAY);
    let mut events: Vec<Event> = synth::Synth::new(5, 1_000_000, 80, today)
        .flat_map(|p| p.events())
        .take(n + n / 2)
        .collect();
    // As a server sees them: the visits under way interleaved, minute by minute.
    events.sort_by_key(|e| match e {
        Event::Visit(v) => v.started,
        Event::Attempt(a) => a.at,
        Event::Tool(t) => t.at,
        Event::Vote(v) => v.at,
    });
    events.truncate(n);
    let attempts = events
        .iter()
        .filter(|e| matches!(e, Event::Attempt(_)))
        .count();
    let visits = events
        .iter()
        .filter(|e| matches!(e, Event::Visit(_)))
        .count();
    eprintln!(
        "{n} events: {visits} visits, {attempts} attempts, {} tool uses; {runs} runs per database",
        n - visits - attempts
    );

    let rates = sqlite(&events, runs).await?;
    report("sqlite", &rates, Some(TARGET));

    match std::env::var("JAY_TEST_DATABASE_URL") {
        Ok(base) if !base.trim().is_empty() => {
            let rates = postgres(base.trim(), &events, runs).await?;
            report("postgres", &rates, None);
        }
        _ => eprintln!(
            "postgres: skipped (JAY_TEST_DATABASE_URL is not set; `.ci/postgres start` prints one)"
        ),
    }
    Ok(())
}

async fn sqlite(events: &[Event], runs: usize) -> Result<Vec<Run>, Failure> {
    let mut rates = Vec::new();
    for _ in 0..runs {
        let dir = tempfile::tempdir()?;
        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("insights.db").display()
        );
        let store = Arc::new(Store::connect(&DatabaseUrl::parse(&url)?).await?);
        rates.push(one_run(&store, &url, events).await?);
        store.close().await;
    }
    Ok(rates)
}

async fn postgres(base: &str, events: &[Event], runs: usize) -> Result<Vec<Run>, Failure> {
    sqlx::any::install_default_drivers();
    let mut rates = Vec::new();
    for _ in 0..runs {
        let mut url = url::Url::parse(base)?;
        url.set_path(&format!("/jay_bench_{:016x}", rand::random::<u64>()));
        let url = url.to_string();
        Any::create_database(&url).await?;
        let store = Arc::new(Store::connect(&DatabaseUrl::parse(&url)?).await?);
        let run = one_run(&store, &url, events).await;
        store.close().await;
        Any::force_drop_database(&url).await?;
        rates.push(run?);
    }
    Ok(rates)
}

/// One run's figures.
struct Run {
    took: Duration,
    events: usize,
    stats: Stats,
}

impl Run {
    fn rate(&self) -> f64 {
        self.events as f64 / self.took.as_secs_f64()
    }
}

/// Every event through a new recorder and writer into `store` (at `url`);
/// checks that the database holds them all.
async fn one_run(store: &Arc<Store>, url: &str, events: &[Event]) -> Result<Run, Failure> {
    let config = WriterConfig::default();
    let capacity = config.capacity as u64;
    let (recorder, writer) = Writer::spawn(store.clone(), config);
    let start = Instant::now();
    for (i, event) in events.iter().enumerate() {
        wait_for_room(&recorder, i as u64, capacity).await;
        recorder.record(event.clone());
    }
    writer.stop().await;
    let took = start.elapsed();
    let stats = recorder.stats();
    let stored = stored_events(url).await?;
    if stats.written != events.len() as u64 || stored != events.len() as u64 {
        return Err(format!(
            "{} events handed over, {} written by the writer's count, {stored} in the database, {} dropped",
            events.len(),
            stats.written,
            stats.dropped()
        )
        .into());
    }
    Ok(Run {
        took,
        events: events.len(),
        stats,
    })
}

/// Waits while a queue's worth of the `pushed` events is not yet committed.
async fn wait_for_room(recorder: &Recorder, pushed: u64, capacity: u64) {
    loop {
        let s = recorder.stats();
        if pushed < s.written + s.dropped() + capacity {
            return;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// Events the database at `url` holds: visits, attempts, and tool uses (a
/// tool's row counts each use).
async fn stored_events(url: &str) -> Result<u64, Failure> {
    let mut conn = AnyConnection::connect(url).await?;
    let (n,): (i64,) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM insights_visits) + (SELECT COUNT(*) FROM insights_attempts) \
         + (SELECT CAST(COALESCE(SUM(uses), 0) AS BIGINT) FROM insights_tools)",
    )
    .fetch_one(&mut conn)
    .await?;
    conn.close().await?;
    Ok(u64::try_from(n)?)
}

fn report(backend: &str, runs: &[Run], target: Option<f64>) {
    let mut rates: Vec<f64> = runs.iter().map(Run::rate).collect();
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    let dropped: u64 = runs.iter().map(|r| r.stats.dropped()).sum();
    let secs: Vec<String> = runs
        .iter()
        .map(|r| format!("{:.2} s", r.took.as_secs_f64()))
        .collect();
    let met = match target {
        Some(t) => format!(
            " (target ≥ {t:.0} events/s, met: {})",
            if median >= t { "yes" } else { "no" }
        ),
        None => String::new(),
    };
    eprintln!(
        "{backend}: {median:.0} events/s median of {} runs (min {:.0}, max {:.0}; {}), {dropped} dropped{met}",
        rates.len(),
        rates[0],
        rates[rates.len() - 1],
        secs.join(", ")
    );
    println!("insights_writer_{backend}_events_per_s {median:.0}");
    println!("insights_writer_{backend}_dropped {dropped}");
}
